// The interrupt tests' countdown (glue_interrupt.h): armed from R, read back
// by the test helper. Not exported to users.
#include <Rcpp.h>

#include "glue_guard.h"
#include "glue_interrupt.h"

// Arms the countdown: the SIGINT comes at the main thread's poll number
// `polls` + 1 of any C++ work that takes a cancel token (0: at its first
// poll); a negative `polls` disarms it. Returns the number of signals raised
// since the previous call, and resets that count.
// [[Rcpp::export(rng = false)]]
int cpp_arm_interrupt(int polls) {
  return irtopics_glue::guard([&]() -> int {
    irtopics_glue::interrupt_countdown().store(polls < 0 ? -1 : polls, std::memory_order_relaxed);
    return static_cast<int>(irtopics_glue::interrupts_raised().exchange(0, std::memory_order_relaxed));
  });
}
