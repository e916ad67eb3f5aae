// Yilmaz, Aslam & Robertson (2008), "A new rank correlation coefficient for
// information retrieval", SIGIR 2008, eq. 3: the AP correlation
//
//   tau_AP = 2/(n - 1) * sum_{i = 2..n} C(i)/(i - 1) - 1,
//
// where items are listed in the order of the evaluated ranking x (highest x
// first, position i) and C(i) counts the items above position i that the
// reference ranking y also places above the item at i. Top-weighted and not
// symmetric: x is evaluated against y.
//
// Ties (not covered by the paper): the value returned is the expectation of
// tau_AP when ties in x and in y are broken uniformly at random and
// independently. A pair tied in y then counts 1/2; for a tie group of x at
// positions p..q the expectation over the group's random order is exact:
//   E[C(i)/(k - 1)] = (A_i * H0 + a_i * H1 / (g - 1)) / g,
// A_i = (weighted) count of items in earlier groups ranked above i by y,
// a_i = the same count inside i's own group, g = q - p + 1,
// H0 = sum_{k = max(p,2)..q} 1/(k - 1), H1 = sum_{k} (k - p)/(k - 1).
// Without ties this is exactly the published coefficient. O(n log n) with a
// Fenwick tree over the dense ranks of y. Cancellation (cancel.h): with a
// token, asked every 2^16 items of work (the sorts through cancel_sort.h,
// the ranks, and the groups in x order); the value is the same with and
// without one. Pure C++, exact comparisons.
#ifndef IRTOPICS_TAU_AP_H
#define IRTOPICS_TAU_AP_H

#include <algorithm>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

#include "cancel.h"
#include "cancel_sort.h"

namespace irtopics {

class TauApWorkspace {
 public:
  // Items of work between two asks of a token (and the sorts' blocks); the
  // tests and the fuzzer make it small.
  std::size_t cancel_block = kCancelSortBlock;

  // NaN when n < 2 or either vector is constant.
  double tau_ap(const double* x, const double* y, std::size_t n, CancelToken* cancel = nullptr) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (n < 2) return nan;
    // dense ranks of y (0 = smallest)
    order_.resize(n);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    // (items tied in y, and below in x, are interchangeable: neither the
    // ranks nor the groups' sums see their order)
    sort_cancellable(order_, [&](std::size_t a, std::size_t b) { return y[a] < y[b]; }, cancel, cancel_block);
    yrank_.resize(n);
    std::size_t r = 0;
    const std::size_t blk = std::max<std::size_t>(cancel_block, 1);
    for (std::size_t k = 0, next_ask = 0; k < n; ++k) {
      if (k >= next_ask) {
        throw_if_cancelled(cancel);
        next_ask = k + blk;
      }
      if (k > 0 && y[order_[k]] != y[order_[k - 1]]) ++r;
      yrank_[order_[k]] = r;
    }
    const std::size_t n_yranks = r + 1;
    if (n_yranks == 1) return nan;
    // items by x descending
    sort_cancellable(order_, [&](std::size_t a, std::size_t b) { return x[a] > x[b]; }, cancel, cancel_block);
    if (x[order_.front()] == x[order_.back()]) return nan;

    fenwick_.assign(n_yranks + 1, 0.0);
    same_.assign(n_yranks, 0.0);
    double inserted = 0, total = 0;
    std::size_t start = 0, next_ask = 0;
    while (start < n) {
      if (start >= next_ask) {
        throw_if_cancelled(cancel);
        next_ask = start + blk;
      }
      std::size_t end = start + 1;
      while (end < n && x[order_[end]] == x[order_[start]]) ++end;
      const std::size_t g = end - start;
      const std::size_t p = start + 1, q = end;  // 1-based positions of the group
      double h0 = 0, h1 = 0;
      for (std::size_t k = std::max<std::size_t>(p, 2); k <= q; ++k) {
        h0 += 1.0 / static_cast<double>(k - 1);
        h1 += static_cast<double>(k - p) / static_cast<double>(k - 1);
      }
      // within-group counts: items of the group with larger y, and half the equal ones
      group_.assign(order_.begin() + start, order_.begin() + end);
      sort_cancellable(group_, [&](std::size_t a, std::size_t b) { return yrank_[a] < yrank_[b]; }, cancel, cancel_block);
      std::size_t lo = 0, group_ask = blk;  // (a group as large as the scores)
      while (lo < g) {
        if (lo >= group_ask) {
          throw_if_cancelled(cancel);
          group_ask = lo + blk;
        }
        std::size_t hi = lo + 1;
        while (hi < g && yrank_[group_[hi]] == yrank_[group_[lo]]) ++hi;
        const double within = static_cast<double>(g - hi) + 0.5 * static_cast<double>(hi - lo - 1);
        for (std::size_t k = lo; k < hi; ++k) {
          const std::size_t item = group_[k];
          const std::size_t ry = yrank_[item];
          // earlier items with larger y: inserted - prefix(ry) (prefix counts ranks <= ry)
          const double above = inserted - prefix(ry) + 0.5 * same_[ry];
          double e = above * h0;
          if (g > 1) e += within * h1 / static_cast<double>(g - 1);
          total += e / static_cast<double>(g);
        }
        lo = hi;
      }
      for (std::size_t k = start; k < end; ++k) {
        add(yrank_[order_[k]]);
        same_[yrank_[order_[k]]] += 1;
        inserted += 1;
      }
      start = end;
    }
    return 2.0 / static_cast<double>(n - 1) * total - 1.0;
  }

 private:
  // Fenwick tree over ranks 0..R-1 stored at 1..R.
  void add(std::size_t rank) {
    for (std::size_t i = rank + 1; i < fenwick_.size(); i += i & (~i + 1)) fenwick_[i] += 1;
  }
  double prefix(std::size_t rank) const {  // count of inserted ranks <= rank
    double s = 0;
    for (std::size_t i = rank + 1; i > 0; i -= i & (~i + 1)) s += fenwick_[i];
    return s;
  }

  std::vector<std::size_t> order_, yrank_, group_;
  std::vector<double> fenwick_, same_;
};

}  // namespace irtopics

#endif
