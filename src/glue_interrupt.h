// Interrupts (Ctrl-C) during long C++ work, for the glue files only (R API).
// Only the main thread may ask R; it does so at most every 50 ms
// (R_CheckUserInterrupt inside R_ToplevelExec, so that R's longjmp cannot
// cross C++ frames) and raises a flag that every thread reads. Once the
// threads have stopped, the caller turns a raised flag into an R interrupt
// with throw_if_interrupted(); with_interrupts() does all of it for work on
// the main thread. See cancel.h for the C++ side.
#ifndef IRTOPICS_GLUE_INTERRUPT_H
#define IRTOPICS_GLUE_INTERRUPT_H

#include <Rcpp.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "cancel.h"

namespace irtopics_glue {

inline void check_interrupt(void*) { R_CheckUserInterrupt(); }

class InterruptToken : public irtopics::CancelToken {
 public:
  bool stop_requested() override {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (std::this_thread::get_id() == main_) poll();
    return stop_.load(std::memory_order_relaxed);
  }
  // Main thread only.
  void poll() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(50)) return;
    last_ = now;
    if (!R_ToplevelExec(check_interrupt, nullptr)) stop_.store(true);
  }
  bool interrupted() const { return stop_.load(); }
  // Rcpp turns this exception into an R interrupt.
  void throw_if_interrupted() const {
    if (interrupted()) throw Rcpp::internal::InterruptedException();
  }

 private:
  std::thread::id main_ = std::this_thread::get_id();
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::atomic<bool> stop_{false};
};

// Runs f(token) for single-threaded C++ work that takes a CancelToken* and
// turns its irtopics::Cancelled into an R interrupt.
template <typename F>
decltype(auto) with_interrupts(F&& f) {
  InterruptToken token;
  try {
    return f(&token);
  } catch (const irtopics::Cancelled&) {
    throw Rcpp::internal::InterruptedException();
  }
}

}  // namespace irtopics_glue

#endif
