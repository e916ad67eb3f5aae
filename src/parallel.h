// The one parallel driver of the C++ core: every threaded loop of the
// package runs through parallel_for() / parallel_for_local(), which own the
// OpenMP region and its rules so that no kernel writes a pragma of its own:
//
//  * `num_threads(n)` on the region (never omp_set_num_threads, which would
//    change the thread count of the user's other OpenMP code), at most one
//    thread per item; without OpenMP the loop runs serially, same results;
//  * items are handed out in contiguous blocks (Schedule::blocks, one block
//    per thread, for items of equal cost) or in chunks of `grain` items from
//    a shared counter (Schedule::dynamic, for items of unequal cost);
//  * the cancel token (cancel.h) is asked before every item; once it says
//    stop, no thread starts another item, and the driver throws Cancelled
//    after the join. While the other threads work, the calling thread (the
//    only one that may ask R, see glue_interrupt.h) keeps asking the token;
//  * the first exception a worker throws (std::bad_alloc from a workspace,
//    Cancelled from a nested loop, anything else) stops the loop the same way
//    and is rethrown after the join: no exception ever crosses the region's
//    boundary (which would terminate the process);
//  * an optional counter of finished items, for progress.
//
// Results never depend on the number of threads as long as each item writes
// only its own outputs, or accumulates into per-thread slots (index `tid`,
// 0 <= tid < parallel_threads()) whose sums are exact (integer counts) and
// are added after the loop.
//
// Pure C++: no R types. The R side (who asks R for interrupts, how a
// Cancelled becomes an R interrupt, the thread count in a forked child) is the
// glue's adapter, glue_interrupt.h and glue_guard.h.
#ifndef IRTOPICS_PARALLEL_H
#define IRTOPICS_PARALLEL_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cancel.h"

namespace irtopics {

enum class Schedule { blocks, dynamic };

struct ParallelOptions {
  int n_threads = 1;
  CancelToken* cancel = nullptr;                   // asked before every item
  Schedule schedule = Schedule::dynamic;
  std::size_t grain = 1;                           // items per hand-out (dynamic)
  std::atomic<std::size_t>* progress = nullptr;    // += 1 per finished item
};

// The number of threads a loop of n items runs on: n_threads, at least 1 and
// at most n (and 1 without OpenMP). Per-thread slots need this many entries.
inline int parallel_threads(std::size_t n, int n_threads) {
#ifdef _OPENMP
  const std::size_t want = static_cast<std::size_t>(std::max(n_threads, 1));
  return static_cast<int>(std::max<std::size_t>(1, std::min(want, n)));
#else
  (void)n;
  (void)n_threads;
  return 1;
#endif
}

namespace detail {

// Shared state of one loop: the hand-out counter, the stop flag, the first
// exception.
class Loop {
 public:
  Loop(std::size_t n, const ParallelOptions& opt) : n_(n), opt_(opt) {}

  // The next range [begin, end) for thread `tid` of `team`; false when done.
  bool take(int tid, int team, bool& first_call, std::size_t& begin, std::size_t& end) {
    if (opt_.schedule == Schedule::blocks) {
      if (!first_call) return false;
      first_call = false;
      const std::size_t t = static_cast<std::size_t>(tid), k = static_cast<std::size_t>(team);
      begin = n_ / k * t + std::min(t, n_ % k);
      end = begin + n_ / k + (t < n_ % k ? 1 : 0);
      return begin < end;
    }
    const std::size_t g = std::max<std::size_t>(opt_.grain, 1);
    begin = next_.fetch_add(g, std::memory_order_relaxed);
    if (begin >= n_) return false;
    end = std::min(n_, begin + g);
    return true;
  }

  // Asks the token (if any); true when the loop must stop.
  bool should_stop() {
    if (stop_.load(std::memory_order_relaxed)) return true;
    if (opt_.cancel != nullptr && opt_.cancel->stop_requested()) {
      cancelled_.store(true);
      stop_.store(true);
      return true;
    }
    return false;
  }

  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(e);
    stop_.store(true);
  }

  // After the join: the first exception, else Cancelled if the token said so.
  void finish() {
    if (error_) std::rethrow_exception(error_);
    if (cancelled_.load()) throw Cancelled();
  }

 private:
  const std::size_t n_;
  const ParallelOptions& opt_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false}, cancelled_{false};
  std::mutex mutex_;
  std::exception_ptr error_;
};

// Calls body(i, local, tid), body(i, local), body(i, tid) or body(i),
// whichever it takes.
template <typename Body, typename Local>
void call_body(Body& body, std::size_t i, Local& local, int tid) {
  if constexpr (std::is_invocable_v<Body&, std::size_t, Local&, int>) {
    body(i, local, tid);
  } else if constexpr (std::is_invocable_v<Body&, std::size_t, Local&>) {
    body(i, local);
  } else if constexpr (std::is_invocable_v<Body&, std::size_t, int>) {
    body(i, tid);
  } else {
    body(i);
  }
}

struct NoLocal {};

}  // namespace detail

// Runs body(i, local, tid) for i in [0, n), where `local` is the workspace
// make_local() returned for the calling thread (made once per thread, inside
// the region: its allocation failure is caught like any other exception).
// The body may also take (i, local), (i, tid) or (i). Throws, after every thread has
// stopped, the first exception of a worker, or Cancelled.
template <typename MakeLocal, typename Body>
void parallel_for_local(std::size_t n, const ParallelOptions& opt, MakeLocal&& make_local,
                        Body&& body) {
  if (n == 0) return;
  const int n_thr = parallel_threads(n, opt.n_threads);
  detail::Loop loop(n, opt);
  auto work = [&](int tid, int team) {
    try {
      auto local = make_local();
      bool first_call = true;
      std::size_t begin = 0, end = 0;
      while (loop.take(tid, team, first_call, begin, end)) {
        for (std::size_t i = begin; i < end; ++i) {
          if (loop.should_stop()) return;
          detail::call_body(body, i, local, tid);
          if (opt.progress != nullptr) opt.progress->fetch_add(1, std::memory_order_relaxed);
        }
      }
    } catch (...) {
      loop.fail(std::current_exception());
    }
  };
  if (n_thr == 1) {
    work(0, 1);
  } else {
#ifdef _OPENMP
    std::atomic<int> busy{0};
#pragma omp parallel num_threads(n_thr)
    {
      const int tid = omp_get_thread_num(), team = omp_get_num_threads();
      if (tid != 0) busy.fetch_add(1);
#pragma omp barrier
      work(tid, team);
      if (tid != 0) {
        busy.fetch_sub(1);
      } else if (opt.cancel != nullptr) {
        // The calling thread keeps asking the token until the others are
        // done (with a growing pause: short loops pay microseconds).
        auto pause = std::chrono::microseconds(10);
        while (busy.load() > 0) {
          loop.should_stop();
          std::this_thread::sleep_for(pause);
          pause = std::min(pause * 2, std::chrono::microseconds(5000));
        }
      }
    }
#endif
  }
  loop.finish();
}

// parallel_for_local() without a per-thread workspace: body(i, tid) or body(i).
template <typename Body>
void parallel_for(std::size_t n, const ParallelOptions& opt, Body&& body) {
  parallel_for_local(n, opt, [] { return detail::NoLocal(); }, std::forward<Body>(body));
}

}  // namespace irtopics

#endif
