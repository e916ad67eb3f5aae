// Guards shared by the glue files (R API): the number of threads a parallel
// region may use, and the one adapter that turns C++ errors into classed R
// errors (guard()).
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
#include <string>

#include "cancel.h"
#include "errors.h"

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

// The one route of a C++ error to R. Every exported glue function's body
// runs inside guard(); it catches
//   irtopics::Error (errors.h)           -> irtopics_error_<its kind>, with
//                                          its file and line;
//   std::invalid_argument                -> irtopics_error_argument (glue code
//                                          refusing a direct call's input);
//   std::bad_alloc, std::length_error    -> irtopics_error_memory;
//   irtopics::Cancelled                  -> R's interrupt (as with_interrupts());
//   any other std::exception             -> irtopics_error_internal (a bug);
// and raises the R error by calling the package's R function
// stop_from_cpp(kind, message, file, line) (R/utils-conditions.R), which
// writes the message and picks the user's call. The R call is made after
// the handler has finished, with no C++ exception in flight; Rcpp's unwind
// protection carries R's error through the C++ frames (destructors run).
// No glue code calls Rcpp::stop() or returns an error as data. Rcpp's own
// interrupt and long-jump exceptions are not std::exceptions and pass
// through. The bodies keep their original indentation (one wrapper line
// above, one below) so that the diffs of the glue files stay small.
template <typename F>
decltype(auto) guard(F&& f) {
  const char* kind = "internal";
  std::string message, file;
  long line = 0;
  try {
    return f();
  } catch (const irtopics::Error& e) {
    kind = e.kind();
    message = e.what();
    file = e.file;
    line = e.line;
  } catch (const std::invalid_argument& e) {
    kind = "argument";
    message = e.what();
  } catch (const std::bad_alloc&) {
    kind = "memory";
  } catch (const std::length_error&) {
    kind = "memory";
  } catch (const irtopics::Cancelled&) {
    throw Rcpp::internal::InterruptedException();
  } catch (const std::exception& e) {
    message = e.what();
  }
  Rcpp::Environment ns = Rcpp::Environment::namespace_env("irtopics");
  Rcpp::Function stop_from_cpp = ns["stop_from_cpp"];
  stop_from_cpp(kind, message, file, static_cast<double>(line));
  throw std::logic_error("stop_from_cpp() returned");  // not reached
}

}  // namespace irtopics_glue

#endif
