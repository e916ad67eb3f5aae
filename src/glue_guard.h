// Guards shared by the glue files (R API): the number of threads a parallel
// region may use, and allocation failures turned into classed R errors.
//
// Threads: libgomp's thread pool does not survive fork(). In a child forked
// (parallel::mclapply(), future's multicore plan) from a process that had
// opened an OpenMP region of two or more threads, another region of more than
// one thread waits for ever for pool threads that were not copied. The glue
// records the pid of the process that first opens such a region; in any other
// process it runs single-threaded. R's resolve_threads() applies the same
// rule and caps the count; the cap here (kMaxThreads) guards direct calls.
#ifndef IRTOPICS_GLUE_GUARD_H
#define IRTOPICS_GLUE_GUARD_H

#include <Rcpp.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <new>
#include <stdexcept>

namespace irtopics_glue {

constexpr int kMaxThreads = 1024;

// The number of threads to use for a region asked to use `n`.
inline int safe_threads(int n) {
  static std::atomic<pid_t> region_pid{0};
  n = std::min(std::max(n, 1), kMaxThreads);
  if (n < 2) return 1;
  const pid_t self = ::getpid();
  pid_t first = 0;
  if (region_pid.compare_exchange_strong(first, self)) return n;
  return first == self ? n : 1;
}

// Runs f() and turns an allocation failure (std::bad_alloc, or
// std::length_error from a container asked for more than it can hold) into
// the R error irtopics_error_memory, raised by an R function so that it has
// the package's classes; Rcpp's unwind protection carries R's error through
// the C++ frames (destructors run). Every exported glue function's body is
// wrapped in it; the bodies keep their original indentation (one wrapper
// line above, one below) so that the diffs of the glue files stay small.
template <typename F>
decltype(auto) guard_memory(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  Rcpp::Environment ns = Rcpp::Environment::namespace_env("irtopics");
  Rcpp::Function stop_memory = ns["stop_out_of_memory"];
  stop_memory();
  throw std::logic_error("stop_out_of_memory() returned");  // not reached
}

}  // namespace irtopics_glue

#endif
