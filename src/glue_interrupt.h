// The R adapter of the C++ core's cancellation and parallel driver
// (cancel.h, parallel.h), for the glue files only (R API). Only the main
// thread may ask R; it does so at most every 50 ms (R_CheckUserInterrupt
// inside R_ToplevelExec, so that R's longjmp cannot cross C++ frames) and
// raises a flag that every thread reads; the driver keeps the main thread
// asking while the other threads work. with_interrupts(f) is the one place a
// cancellation becomes an R interrupt: every glue function whose C++ work
// takes a CancelToken* runs it as
//   with_interrupts([&](irtopics::CancelToken* cancel) { ...(n, safe_threads(n_threads), cancel); })
// (safe_threads(): glue_guard.h).
//
// Interrupt tests (tests/testthat/helper-interrupt.R) arm a countdown of the
// main thread's polls (cpp_arm_interrupt(), glue_interrupt.cpp). When it runs
// out, the poll raises a real SIGINT in this process, as Ctrl-C does, and
// asks R at once instead of waiting for the 50 ms: the interrupt lands in the
// middle of the C++ work on every machine, however fast or loaded, so the
// tests assert what it did, never how long anything took. Unarmed (always,
// outside the tests) the countdown costs one relaxed atomic load per poll.
#ifndef IRTOPICS_GLUE_INTERRUPT_H
#define IRTOPICS_GLUE_INTERRUPT_H

#include <Rcpp.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

#include "cancel.h"

namespace irtopics_glue {

inline void check_interrupt(void*) { R_CheckUserInterrupt(); }

// The test countdown: -1 unarmed, else the polls left before the signal.
inline std::atomic<long>& interrupt_countdown() {
  static std::atomic<long> polls{-1};
  return polls;
}
// Signals raised since the countdown was last armed.
inline std::atomic<long>& interrupts_raised() {
  static std::atomic<long> raised{0};
  return raised;
}

class InterruptToken : public irtopics::CancelToken {
 public:
  bool stop_requested() override {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (std::this_thread::get_id() == main_) {
      count_down();
      poll();
    }
    return stop_.load(std::memory_order_relaxed);
  }
  // Main thread only.
  void poll() {
    const auto now = std::chrono::steady_clock::now();
    if (!signalled_ && now - last_ < std::chrono::milliseconds(50)) return;
    signalled_ = false;
    last_ = now;
    if (!R_ToplevelExec(check_interrupt, nullptr)) stop_.store(true);
  }

 private:
  // Main thread only.
  void count_down() {
    std::atomic<long>& left = interrupt_countdown();
    const long n = left.load(std::memory_order_relaxed);
    if (n < 0) return;
    if (n > 0) {
      left.store(n - 1, std::memory_order_relaxed);
      return;
    }
    left.store(-1, std::memory_order_relaxed);
    interrupts_raised().fetch_add(1, std::memory_order_relaxed);
    signalled_ = true;
    std::raise(SIGINT);
  }

  bool signalled_ = false;
  std::thread::id main_ = std::this_thread::get_id();
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::atomic<bool> stop_{false};
};

// Runs f(token) for C++ work (serial or through parallel.h) that takes a
// CancelToken*, and turns its irtopics::Cancelled into an R interrupt
// (Rcpp turns InterruptedException into R's interrupt condition).
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
