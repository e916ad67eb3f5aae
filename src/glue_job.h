// Background jobs for the glue files (R API): C++ work that runs on its own
// std::thread while R goes on with other work on the main thread, started
// by one exported call (which returns an external pointer at once) and
// collected by another. simulation_model() fits the copulas of a collection
// this way while R fits its margins (src/glue_copula.cpp).
//
//  * The job's thread never touches R: the work gets plain C++ copies of its
//    inputs and its own CancelToken (a flag the main thread sets); it may run
//    a parallel_for() of its own (the job's thread is then the region's
//    calling thread, and the token is asked before every item).
//  * Any exception of the work is kept and rethrown by collect() on the main
//    thread, inside the exported call's guard(): the one error route.
//  * collect() waits on the main thread, asking R for an interrupt every
//    50 ms through with_interrupts(): an interrupt cancels and joins the job
//    and becomes R's interrupt.
//  * cancel() (also the destructor, run by the external pointer's
//    finalizer) sets the flag and joins: no thread outlives its job, and
//    none is left running when R code between start and collect fails.
//  * A job started with background = false (the exported call decides: the
//    copula job when its work has one thread after the caps) or whose thread
//    cannot start (std::system_error) is "deferred": its work runs inside
//    collect(), on the main thread, as the synchronous call would (same
//    results, no overlap).
#ifndef IRTOPICS_GLUE_JOB_H
#define IRTOPICS_GLUE_JOB_H

#include <Rcpp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "cancel.h"
#include "glue_interrupt.h"

namespace irtopics_glue {

// The number of job threads started and not yet joined (for the tests).
inline std::atomic<int>& job_threads() {
  static std::atomic<int> n{0};
  return n;
}

// Work is a class with `void run(irtopics::CancelToken*)`; the job owns it
// and the thread that runs it (the thread is joined before Work is
// destroyed).
template <typename Work>
class Job {
 public:
  explicit Job(Work work) : work_(std::move(work)) {}
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  ~Job() {
    try {
      cancel();
    } catch (...) {
    }
  }

  // Main thread: starts the work on a new thread. With background = false
  // (the caller's choice, e.g. for work of one thread), or where no thread
  // can be started (a process at its thread limit, a platform without
  // threads), the job is "deferred": the work runs in collect() instead, on
  // the main thread (the same results, later).
  void start(bool background = true) {
    if (!background) {
      deferred_ = true;
      return;
    }
    try {
      thread_ = std::thread([this] {
        std::exception_ptr error;
        try {
          work_.run(&token_);
        } catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> lock(mutex_);
          error_ = std::move(error);
          finished_ = true;
        }
        done_.notify_all();
      });
    } catch (const std::system_error&) {
      deferred_ = true;
      return;
    }
    job_threads().fetch_add(1);
  }

  // Main thread: "running", "done" (finished, not yet collected),
  // "deferred" (to run when collected), "cancelled" or "collected".
  std::string status() {
    if (collected_) return "collected";
    if (cancelled_) return "cancelled";
    if (deferred_) return "deferred";
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_ ? "done" : "running";
  }

  // Main thread: stops the work (if still running) and joins its thread. A
  // job collected or already finished keeps its status.
  void cancel() {
    if (deferred_) {
      if (!collected_) cancelled_ = true;
      return;
    }
    if (!collected_ && !cancelled_) {
      bool finished;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        finished = finished_;
      }
      if (!finished) {
        stop_.store(true);
        cancelled_ = true;
      }
    }
    join();
  }

  // Main thread: waits for the work (interruptibly) and returns it; throws
  // the work's exception, or Cancelled (R's interrupt) for a cancelled job.
  Work& collect() {
    if (collected_) throw std::invalid_argument("the job was already collected");
    if (cancelled_) throw irtopics::Cancelled();
    if (deferred_) {
      try {
        with_interrupts([&](irtopics::CancelToken* interrupt) {
          work_.run(interrupt);
          return 0;
        });
      } catch (const Rcpp::internal::InterruptedException&) {
        cancelled_ = true;
        throw;
      } catch (...) {
        collected_ = true;
        throw;
      }
      collected_ = true;
      return work_;
    }
    with_interrupts([&](irtopics::CancelToken* interrupt) {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!done_.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished_; })) {
        lock.unlock();
        if (interrupt->stop_requested()) {
          cancel();
          throw irtopics::Cancelled();
        }
        lock.lock();
      }
      return 0;
    });
    join();
    collected_ = true;
    if (error_) std::rethrow_exception(error_);
    return work_;
  }

 private:
  class StopToken : public irtopics::CancelToken {
   public:
    explicit StopToken(const std::atomic<bool>* stop) : stop_(stop) {}
    bool stop_requested() override { return stop_->load(std::memory_order_relaxed); }

   private:
    const std::atomic<bool>* stop_;
  };

  void join() {
    if (thread_.joinable()) {
      thread_.join();
      job_threads().fetch_sub(1);
    }
  }

  Work work_;
  std::atomic<bool> stop_{false};
  StopToken token_{&stop_};
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;        // guarded by mutex_
  std::exception_ptr error_;     // guarded by mutex_ until the join
  bool cancelled_ = false, collected_ = false, deferred_ = false;  // main thread only
  std::thread thread_;           // last: joined before the members above go
};

// The job behind an external pointer made with tag `tag`; a pointer of
// another kind, or one restored from a saved session (NULL), is an error.
template <typename J>
J* job_address(SEXP ptr, const char* tag) {
  if (TYPEOF(ptr) != EXTPTRSXP || TYPEOF(R_ExternalPtrTag(ptr)) != SYMSXP ||
      std::string(CHAR(PRINTNAME(R_ExternalPtrTag(ptr)))) != tag || R_ExternalPtrAddr(ptr) == nullptr) {
    throw std::invalid_argument(std::string("`job` is not a job of this R session (") + tag +
                                "); a job saved and restored is not");
  }
  return static_cast<J*>(R_ExternalPtrAddr(ptr));
}

// An external pointer owning `job` (started by the caller), tagged `tag`,
// whose finalizer (also run when R exits) cancels and joins it.
template <typename J>
SEXP job_pointer(J* job, const char* tag) {
  Rcpp::XPtr<J, Rcpp::PreserveStorage, &Rcpp::standard_delete_finalizer<J>, true> ptr(job, true, Rf_install(tag));
  return ptr;
}

}  // namespace irtopics_glue

#endif
