// Kendall's rank correlation, tau-a and tau-b, in O(n log n) (Knight 1966,
// "A computer method for calculating Kendall's tau with ungrouped data",
// JASA 61:436-439). Spec section 0.3: tau-b = (C - D) / sqrt((N0 - Tx)(N0 - Ty))
// equals R's cor(x, y, method = "kendall"); tau-a = (C - D) / N0.
//
// Cancellation (cancel.h): with a token, asked every 2^16 items of work (the
// sort through cancel_sort.h, the passes over the pairs, and every merge of
// at least 2^16 values), so that millions of scores stop within a fraction
// of a second; the counts are the same with and without one.
//
// Pure C++: no R types. Comparisons are exact (no tolerance), as in R.
#ifndef IRTOPICS_KENDALL_H
#define IRTOPICS_KENDALL_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "cancel.h"
#include "cancel_sort.h"

namespace irtopics {

struct KendallCounts {
  double n0 = 0;        // n (n - 1) / 2
  double ties_x = 0;    // pairs tied in x (including those tied in both)
  double ties_y = 0;    // pairs tied in y (including those tied in both)
  double ties_xy = 0;   // pairs tied in both
  double s = 0;         // concordant minus discordant pairs
};

// Counts for paired samples x, y of length n (no NaN: the caller checks).
// `work` buffers are reused across calls to avoid allocations in loops.
class KendallWorkspace {
 public:
  // Items of work between two asks of a token (and the sort's blocks); the
  // tests and the fuzzer make it small.
  std::size_t cancel_block = kCancelSortBlock;

  KendallCounts counts(const double* x, const double* y, std::size_t n, CancelToken* cancel = nullptr) {
    KendallCounts out;
    if (n < 2) return out;
    cancel_ = cancel;
    idx_.resize(n);
    std::iota(idx_.begin(), idx_.end(), std::size_t{0});
    // Sort by x, then by y: ties in x are consecutive and sorted by y inside
    // (pairs tied in both are interchangeable: the counts do not see their order).
    sort_cancellable(idx_, [&](std::size_t a, std::size_t b) {
      return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]);
    }, cancel, cancel_block);
    double tx = 0, txy = 0;
    std::size_t run_x = 1, run_xy = 1;
    const std::size_t blk = std::max<std::size_t>(cancel_block, 1);
    for (std::size_t k = 1, next_ask = blk; k < n; ++k) {
      if (k >= next_ask) {
        throw_if_cancelled(cancel);
        next_ask = k + blk;
      }
      const std::size_t a = idx_[k - 1], b = idx_[k];
      if (x[a] == x[b]) {
        ++run_x;
        if (y[a] == y[b]) ++run_xy; else { txy += pairs(run_xy); run_xy = 1; }
      } else {
        tx += pairs(run_x);
        txy += pairs(run_xy);
        run_x = 1;
        run_xy = 1;
      }
    }
    tx += pairs(run_x);
    txy += pairs(run_xy);

    // Merge sort the y values in this order, counting the exchanges: each
    // exchange is one discordant pair (pairs tied in x are already in y order
    // and never exchanged).
    ys_.resize(n);
    buf_.resize(n);
    for (std::size_t k = 0; k < n; ++k) ys_[k] = y[idx_[k]];
    const double swaps = merge_count(0, n);
    throw_if_cancelled(cancel);

    double ty = 0;
    std::size_t run_y = 1;
    for (std::size_t k = 1; k < n; ++k) {
      if (ys_[k] == ys_[k - 1]) ++run_y; else { ty += pairs(run_y); run_y = 1; }
    }
    ty += pairs(run_y);

    out.n0 = pairs(n);
    out.ties_x = tx;
    out.ties_y = ty;
    out.ties_xy = txy;
    // Concordant - discordant = n0 - tx - ty + txy - 2 * discordant.
    out.s = out.n0 - tx - ty + txy - 2.0 * swaps;
    return out;
  }

  // tau-b; NaN when either variable is constant or n < 2 (R gives NA).
  double tau_b(const double* x, const double* y, std::size_t n, CancelToken* cancel = nullptr) {
    const KendallCounts c = counts(x, y, n, cancel);
    const double den = std::sqrt((c.n0 - c.ties_x) * (c.n0 - c.ties_y));
    if (n < 2 || den == 0) return std::numeric_limits<double>::quiet_NaN();
    return c.s / den;
  }

  // tau-a; NaN when n < 2.
  double tau_a(const double* x, const double* y, std::size_t n, CancelToken* cancel = nullptr) {
    if (n < 2) return std::numeric_limits<double>::quiet_NaN();
    const KendallCounts c = counts(x, y, n, cancel);
    return c.s / c.n0;
  }

 private:
  static double pairs(std::size_t k) { return 0.5 * static_cast<double>(k) * static_cast<double>(k - 1); }

  // Bottom-up would avoid recursion, but depth is only log2(n).
  double merge_count(std::size_t lo, std::size_t hi) {
    if (hi - lo < 2) return 0;
    const std::size_t mid = lo + (hi - lo) / 2;
    double swaps = merge_count(lo, mid) + merge_count(mid, hi);
    std::size_t i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
      if (ys_[j] < ys_[i]) {
        swaps += static_cast<double>(mid - i);
        buf_[k++] = ys_[j++];
      } else {
        buf_[k++] = ys_[i++];
      }
    }
    while (i < mid) buf_[k++] = ys_[i++];
    while (j < hi) buf_[k++] = ys_[j++];
    std::copy(buf_.begin() + lo, buf_.begin() + hi, ys_.begin() + lo);
    if (hi - lo >= std::max<std::size_t>(cancel_block, 1)) throw_if_cancelled(cancel_);
    return swaps;
  }

  std::vector<std::size_t> idx_;
  std::vector<double> ys_, buf_;
  CancelToken* cancel_ = nullptr;  // of the running counts()
};

}  // namespace irtopics

#endif
