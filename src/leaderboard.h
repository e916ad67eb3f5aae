// Leaderboard agreement statistics of two vectors of system means (issue 27),
// batched over bootstrap samples: for each column b of the reference means
// mr and the candidate means mc (systems x samples, column-major), the six
// values of R's leaderboard_values() (R/agreement-leaderboard.R) with
// tau_ap_ties = "a", in the order of leaderboard_statistics:
//
//   kendall_tau   tau-b of (mr, mc), as KendallWorkspace::tau_b (NaN when
//                 either vector is constant);
//   tau_ap        TauApWorkspace::tau_ap(mc, mr): the candidate evaluated
//                 against the reference (NaN when either is constant);
//   rbo           extrapolated RBO (Webber et al. 2010, eq. 30; both lists
//                 hold every system, so eq. 32's uneven part is zero) of the
//                 two orderings, persistence p;
//   spearman      Pearson correlation of the average ranks, computed as R's
//                 cor() does (long double sums, mean with one correction
//                 pass, sd by sqrtl, clamped to [-1, 1]); NaN when a vector
//                 is constant;
//   top1          1 when both orderings have the same first system, else 0;
//   topk_overlap  share of the reference's first k systems that are among
//                 the candidate's first k.
//
// Orderings are by mean, larger first, ties broken by `name_rank` (smaller
// first; distinct values). Each sum runs in the order R's code runs it, so
// the values equal R's to the last bit or nearly (tested to 1e-12).
//
// Pure C++: no R types. Comparisons are exact (no tolerance), as in R.
#ifndef IRTOPICS_LEADERBOARD_H
#define IRTOPICS_LEADERBOARD_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <vector>

#include "kendall.h"
#include "tau_ap.h"

namespace irtopics {

constexpr std::size_t kLeaderboardStatistics = 6;

class LeaderboardWorkspace {
 public:
  // The six statistics of one pair of mean vectors of length n >= 1 into
  // out[0..5]. `name_rank` has n distinct values; 1 <= k <= n; 0 < p < 1.
  void values(const double* mr, const double* mc, const int* name_rank, std::size_t n, std::size_t k,
              double p, double* out) {
    out[0] = kendall_.tau_b(mr, mc, n);
    out[1] = tau_ap_.tau_ap(mc, mr, n);
    order_by(mr, name_rank, n, ord_r_);
    order_by(mc, name_rank, n, ord_c_);
    out[2] = rbo(n, p);
    out[3] = spearman(mr, mc, n);
    out[4] = ord_r_[0] == ord_c_[0] ? 1.0 : 0.0;
    // topk_overlap: systems in both first-k sets
    in_top_.assign(n, 0);
    for (std::size_t i = 0; i < k; ++i) in_top_[ord_r_[i]] = 1;
    std::size_t both = 0;
    for (std::size_t i = 0; i < k; ++i) both += in_top_[ord_c_[i]];
    out[5] = static_cast<double>(both) / static_cast<double>(k);
  }

 private:
  // R's x^y (R_pow): x * x for y = 2, 1 for y = 0 or x = 1, else pow().
  static double r_pow(double x, double y) {
    if (y == 2.0) return x * x;
    if (x == 1.0 || y == 0.0) return 1.0;
    return std::pow(x, y);
  }

  static void order_by(const double* m, const int* name_rank, std::size_t n, std::vector<std::size_t>& ord) {
    ord.resize(n);
    std::iota(ord.begin(), ord.end(), std::size_t{0});
    std::sort(ord.begin(), ord.end(), [&](std::size_t a, std::size_t b) {
      return m[a] > m[b] || (m[a] == m[b] && name_rank[a] < name_rank[b]);
    });
  }

  // Extrapolated RBO of ord_r_ and ord_c_ (both permutations of 0..n-1):
  // X_d counts the systems whose later position in the two lists is <= d;
  // RBO = (1 - p) sum_d X_d / d p^(d - 1) + (X_n / n) p^n, X_n / n = 1,
  // divided by the sum of its weights computed alike ((1 - p) sum_d
  // p^(d - 1) + p^n, 1 but for rounding), as R's rbo_impl(): rounding
  // cannot take it above 1, and identical orderings give exactly 1.
  double rbo(std::size_t n, double p) {
    pos_c_.resize(n);
    for (std::size_t i = 0; i < n; ++i) pos_c_[ord_c_[i]] = i;
    new_at_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) ++new_at_[std::max(i, pos_c_[ord_r_[i]])];
    long double weighted = 0, weights = 0;
    std::size_t x = 0;
    for (std::size_t d = 1; d <= n; ++d) {
      x += new_at_[d - 1];
      const double w = r_pow(p, static_cast<double>(d - 1));
      weighted += static_cast<double>(x) / static_cast<double>(d) * w;
      weights += w;
    }
    const double tail = r_pow(p, static_cast<double>(n));
    return ((1 - p) * static_cast<double>(weighted) + 1.0 * tail) / ((1 - p) * static_cast<double>(weights) + tail);
  }

  // Average ranks (1-based, ascending) of m into r, read off its ordering
  // `ord` (larger first; equal values are adjacent in it): a run of equal
  // values at positions lo..hi-1 holds the ascending ranks n-hi+1..n-lo.
  static void average_ranks(const double* m, const std::vector<std::size_t>& ord, std::size_t n,
                            std::vector<double>& r) {
    r.resize(n);
    std::size_t lo = 0;
    while (lo < n) {
      std::size_t hi = lo + 1;
      while (hi < n && m[ord[hi]] == m[ord[lo]]) ++hi;
      const double avg = 0.5 * static_cast<double>(2 * n + 1 - hi - lo);
      for (std::size_t i = lo; i < hi; ++i) r[ord[i]] = avg;
      lo = hi;
    }
  }

  // R's mean of a complete vector: long double sum / n, plus the mean of
  // the deviations from it.
  static double r_mean(const std::vector<double>& v) {
    const long double n = static_cast<long double>(v.size());
    long double sum = 0;
    for (double e : v) sum += e;
    long double m = sum / n;
    if (std::isfinite(static_cast<double>(m))) {
      sum = 0;
      for (double e : v) sum += (e - m);
      m = m + sum / n;
    }
    return static_cast<double>(m);
  }

  // Needs ord_r_ and ord_c_ (order_by()).
  double spearman(const double* mr, const double* mc, std::size_t n) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (n < 2) return nan;
    average_ranks(mr, ord_r_, n, rank_r_);
    average_ranks(mc, ord_c_, n, rank_c_);
    const double xm = r_mean(rank_r_), ym = r_mean(rank_c_);
    const long double n1 = static_cast<long double>(n - 1);
    long double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) sxy += (rank_r_[i] - xm) * (rank_c_[i] - ym);
    for (std::size_t i = 0; i < n; ++i) sxx += (rank_r_[i] - xm) * (rank_r_[i] - xm);
    for (std::size_t i = 0; i < n; ++i) syy += (rank_c_[i] - ym) * (rank_c_[i] - ym);
    const double sdx = static_cast<double>(std::sqrt(sxx / n1));
    const double sdy = static_cast<double>(std::sqrt(syy / n1));
    if (sdx == 0 || sdy == 0) return nan;
    const double r = static_cast<double>(sxy / n1) / (sdx * sdy);
    return std::min(1.0, std::max(-1.0, r));
  }

  KendallWorkspace kendall_;
  TauApWorkspace tau_ap_;
  std::vector<std::size_t> ord_r_, ord_c_, pos_c_, new_at_;
  std::vector<unsigned char> in_top_;
  std::vector<double> rank_r_, rank_c_;
};

}  // namespace irtopics

#endif
