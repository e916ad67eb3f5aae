// The swap method for the stability of an evaluation measure: Buckley &
// Voorhees (SIGIR 2000), Voorhees & Buckley (SIGIR 2002) and the TREC 2003 /
// 2004 Robust track overviews (Voorhees 2004, Tables 5, 6 and 8); spec
// section 2.6 (RECALLED reconstruction).
//
//   1. per trial b, a random permutation of the T topics gives two disjoint
//      topic sets of size n (its first n and its next n topics);
//   2. a measure's aggregate (MAP, GMAP, %no, area) is computed for every
//      system on every topic set (set_aggregates);
//   3. for every unordered system pair and every topic set the pair is
//      GT / LT / EQ, EQ when |a - b| <= fuzz * max(|a|, |b|); error rate =
//      sum_pairs min(GT, LT) / comparisons, ties = sum_pairs EQ / comparisons
//      (pair_counts);
//   4. critical values: the smallest absolute difference with at most 5%
//      error, either swap-based (decision |D1| >= c on the trial's first set,
//      swap when D2 on the second set has the opposite sign) or by the
//      absolute-threshold reading of step 3 (critical_curve_*);
//   5. the binned Voorhees-Buckley 2002 variant: swaps per bin of |D1|.
//
// Pure C++, no randomness: the permutations come from the caller (R), so the
// results do not depend on the number of threads. Integer counts are summed
// per thread and reduced in a fixed order, which is exact.
#ifndef IRTOPICS_STABILITY_H
#define IRTOPICS_STABILITY_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "cancel.h"
#include "parallel.h"

namespace irtopics {

enum class Aggregate : int {
  mean = 0,           // arithmetic mean (MAP for AP, P@10 for P@10)
  gmean_add = 1,      // exp(mean log(x + eps)) - eps   (Voorhees 2004)
  gmean_floor = 2,    // exp(mean log(max(x, eps)))     (trec_eval gm_map)
  gmean_replace0 = 3, // zeros replaced by eps          (CLEF, Mandl 2009)
  pct_no = 4,         // 100 * #(x == 0) / n            (%no on a P@10 matrix)
  area = 5            // mean of MAP(X) over X = 1..floor(n/4) (robust_eval.pl)
};

// Column-major systems x topics matrix (R's layout), not owned.
struct ScoreView {
  const double* data;
  std::size_t n_sys;
  std::size_t n_top;
  double operator()(std::size_t s, std::size_t t) const { return data[s + t * n_sys]; }
};

// Area under MAP(X), X = 1..Q, Q = floor(n/4), divided by Q (spec 2.1).
// `buf` holds the n scores and is reordered. NaN when Q = 0.
inline double area_of(std::vector<double>& buf) {
  const std::size_t n = buf.size();
  const std::size_t q = n / 4;
  if (q == 0) return std::numeric_limits<double>::quiet_NaN();
  std::nth_element(buf.begin(), buf.begin() + (q - 1), buf.end());
  std::sort(buf.begin(), buf.begin() + q);
  double cum = 0, total = 0;
  for (std::size_t x = 0; x < q; ++x) {
    cum += buf[x];
    total += cum / static_cast<double>(x + 1);
  }
  return total / static_cast<double>(q);
}

// Aggregate of system s over the topics topics[0..n).
inline double aggregate_of(const ScoreView& m, std::size_t s, const int* topics, std::size_t n,
                           Aggregate agg, double eps, std::vector<double>& buf) {
  switch (agg) {
    case Aggregate::mean: {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) sum += m(s, topics[k]);
      return sum / static_cast<double>(n);
    }
    case Aggregate::gmean_add: {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) sum += std::log(m(s, topics[k]) + eps);
      return std::exp(sum / static_cast<double>(n)) - eps;
    }
    case Aggregate::gmean_floor: {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) sum += std::log(std::max(m(s, topics[k]), eps));
      return std::exp(sum / static_cast<double>(n));
    }
    case Aggregate::gmean_replace0: {
      double sum = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const double v = m(s, topics[k]);
        sum += std::log(v == 0 ? eps : v);
      }
      return std::exp(sum / static_cast<double>(n));
    }
    case Aggregate::pct_no: {
      std::size_t zeros = 0;
      for (std::size_t k = 0; k < n; ++k) zeros += (m(s, topics[k]) == 0);
      return 100.0 * static_cast<double>(zeros) / static_cast<double>(n);
    }
    case Aggregate::area: {
      buf.resize(n);
      for (std::size_t k = 0; k < n; ++k) buf[k] = m(s, topics[k]);
      return area_of(buf);
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// Aggregates of every system on the two topic sets of every trial.
// perms: n_top x n_trials, column-major, 0-based topic indices (a permutation
// per column). out: n_sys x (2 * n_trials), column-major; column 2b is the
// first set (perm[0..size)) of trial b, column 2b + 1 the second set
// (perm[size..2 size)). Asks `cancel` (if given) before each trial; throws
// Cancelled.
inline void set_aggregates(const ScoreView& m, const int* perms, std::size_t n_trials,
                           std::size_t size, Aggregate agg, double eps, double* out,
                           int n_threads, CancelToken* cancel = nullptr) {
  if (2 * size > m.n_top) throw std::invalid_argument("2 * size exceeds the number of topics");
  parallel_for_local(
      n_trials, {n_threads, cancel, Schedule::blocks}, [] { return std::vector<double>(); },
      [&](std::size_t b, std::vector<double>& buf) {
        const int* perm = perms + b * m.n_top;
        for (int half = 0; half < 2; ++half) {
          const int* topics = perm + half * size;
          double* col = out + (2 * b + half) * m.n_sys;
          for (std::size_t s = 0; s < m.n_sys; ++s) col[s] = aggregate_of(m, s, topics, size, agg, eps, buf);
        }
      });
}

// Step 3 of the swap method over all unordered system pairs.
struct PairCounts {
  double min_sum = 0;        // sum over pairs of min(GT, LT)
  double ties = 0;           // sum over pairs of EQ
  double comparisons = 0;    // pairs x topic sets
  double trial_swaps = 0;    // (pair, trial) with GT on one set and LT on the other
  double trial_pairs = 0;    // pairs x trials
};

// EQ when |a - b| <= fuzz * max(|a|, |b|). The boundary is widened by a
// relative 1e-9 so that differences lying exactly on it in exact arithmetic
// (common with scores printed to 4 decimals, e.g. .20 vs .19 at 5%) are ties
// whatever the rounding of the aggregate's summation.
constexpr double kFuzzTolerance = 1e-9;

inline int classify(double a, double b, double fuzz) {
  const double d = a - b;
  const double mx = std::max(std::fabs(a), std::fabs(b));
  if (std::fabs(d) <= (fuzz + kFuzzTolerance) * mx) return 0;
  return d > 0 ? 1 : -1;
}

// aggs: n_sys x n_sets (n_sets even: consecutive columns are a trial's two sets).
// Asks `cancel` (if given) before each row of pairs; throws Cancelled.
inline PairCounts pair_counts(const double* aggs, std::size_t n_sys, std::size_t n_sets,
                              double fuzz, int n_threads, CancelToken* cancel = nullptr) {
  const int nthr = parallel_threads(n_sys, n_threads);
  std::vector<PairCounts> part(static_cast<std::size_t>(nthr));
  // One contiguous row of set aggregates per system, so that the inner loop
  // over sets reads two sequential streams instead of two strided ones.
  std::vector<double> rows(n_sys * n_sets);
  for (std::size_t k = 0; k < n_sets; ++k)
    for (std::size_t s = 0; s < n_sys; ++s) rows[s * n_sets + k] = aggs[k * n_sys + s];
  parallel_for(n_sys, {nthr, cancel, Schedule::dynamic, 4}, [&](std::size_t i, int tid) {
    PairCounts& acc = part[static_cast<std::size_t>(tid)];
    const double* a = rows.data() + i * n_sets;
    for (std::size_t j = i + 1; j < n_sys; ++j) {
      const double* b = rows.data() + j * n_sets;
      std::int64_t gt = 0, lt = 0, eq = 0, swaps = 0;
      for (std::size_t k = 0; k + 1 < n_sets; k += 2) {
        const int r1 = classify(a[k], b[k], fuzz);
        const int r2 = classify(a[k + 1], b[k + 1], fuzz);
        gt += (r1 == 1) + (r2 == 1);
        lt += (r1 == -1) + (r2 == -1);
        eq += (r1 == 0) + (r2 == 0);
        swaps += (r1 * r2 == -1);
      }
      acc.min_sum += static_cast<double>(std::min(gt, lt));
      acc.ties += static_cast<double>(eq);
      acc.comparisons += static_cast<double>(gt + lt + eq);
      acc.trial_swaps += static_cast<double>(swaps);
      acc.trial_pairs += static_cast<double>(n_sets / 2);
    }
  });
  PairCounts out;
  for (const PairCounts& p : part) {
    out.min_sum += p.min_sum;
    out.ties += p.ties;
    out.comparisons += p.comparisons;
    out.trial_swaps += p.trial_swaps;
    out.trial_pairs += p.trial_pairs;
  }
  return out;
}

// Differences of every pair within every trial: d1[p, b] = a_i - a_j on the
// first set of trial b, d2 on the second. `scale` multiplies them (n/100 turns
// %no differences into whole topics; they are then rounded). Asks `cancel`
// (if given) before each trial; critical_curve_swap() and binned_swaps() ask
// it every 2^16 differences.
inline void trial_differences(const double* aggs, std::size_t n_sys, std::size_t n_trials,
                              double scale, bool round_to_int, std::vector<double>& d1,
                              std::vector<double>& d2, CancelToken* cancel = nullptr) {
  const std::size_t n_pairs = n_sys * (n_sys - 1) / 2;
  d1.resize(n_pairs * n_trials);
  d2.resize(n_pairs * n_trials);
  std::size_t k = 0;
  for (std::size_t b = 0; b < n_trials; ++b) {
    throw_if_cancelled(cancel);
    const double* c1 = aggs + 2 * b * n_sys;
    const double* c2 = c1 + n_sys;
    for (std::size_t i = 0; i < n_sys; ++i) {
      for (std::size_t j = i + 1; j < n_sys; ++j, ++k) {
        double x = (c1[i] - c1[j]) * scale, y = (c2[i] - c2[j]) * scale;
        if (round_to_int) { x = std::round(x); y = std::round(y); }
        d1[k] = x;
        d2[k] = y;
      }
    }
  }
}

// Swap-based critical-value curve: for each threshold c in `grid`,
//   decisions(c)   = #{(pair, trial): |D1| >= c}
//   swaps(c)       = #{decisions with D1 * D2 < 0}   (both_sets: also |D2| >= c)
//   significant(c) = #{(pair, topic set): |D| >= c}, over both sets of every
//                    trial (the "% significant" of Voorhees 2004, Table 6)
// `tol` absorbs rounding in |D| >= c.
struct CriticalCurve {
  std::vector<double> decisions, swaps, significant;
};

inline CriticalCurve critical_curve_swap(const std::vector<double>& d1, const std::vector<double>& d2,
                                         const std::vector<double>& grid, bool both_sets, double tol,
                                         CancelToken* cancel = nullptr) {
  // Histogram the keys over the (increasing) grid instead of sorting them:
  // bin g holds the keys with grid[g] - tol <= key < grid[g + 1] - tol, so
  // #{key >= grid[g] - tol} is the sum of the bins from g up.
  const std::size_t G = grid.size();
  std::vector<double> lower(G);
  for (std::size_t g = 0; g < G; ++g) lower[g] = grid[g] - tol;
  std::vector<double> dec_hist(G + 1, 0.0), swap_hist(G + 1, 0.0), second_hist(G + 1, 0.0);
  auto bin_of = [&](double key) {
    return static_cast<std::size_t>(std::upper_bound(lower.begin(), lower.end(), key) - lower.begin());
  };
  for (std::size_t k = 0; k < d1.size(); ++k) {
    if ((k & 0xffff) == 0) throw_if_cancelled(cancel);
    const double a = std::fabs(d1[k]);
    dec_hist[bin_of(a)] += 1;
    second_hist[bin_of(std::fabs(d2[k]))] += 1;  // |D2|; the first sets are in dec_hist
    if (d1[k] * d2[k] < 0) swap_hist[bin_of(both_sets ? std::min(a, std::fabs(d2[k])) : a)] += 1;
  }
  CriticalCurve out;
  out.decisions.assign(G, 0.0);
  out.swaps.assign(G, 0.0);
  out.significant.assign(G, 0.0);
  double dec = 0, sw = 0, second = 0;
  for (std::size_t g = G; g-- > 0;) {
    dec += dec_hist[g + 1];
    sw += swap_hist[g + 1];
    second += second_hist[g + 1];
    out.decisions[g] = dec;
    out.swaps[g] = sw;
    out.significant[g] = dec + second;
  }
  return out;
}

// Absolute-threshold reading of step 4: over all topic sets, a pair is EQ iff
// |a - b| < c (always when a == b), error(c) = sum_pairs min(GT, LT) / all,
// significant(c) = #{|a - b| >= c}. Returns error numerators in `swaps` and
// significant counts in `decisions`. `scale`/`round_to_int` as above. Asks
// `cancel` (if given) before each system pair; throws Cancelled.
inline CriticalCurve critical_curve_threshold(const double* aggs, std::size_t n_sys, std::size_t n_sets,
                                              double scale, bool round_to_int,
                                              const std::vector<double>& grid, double tol, int n_threads,
                                              CancelToken* cancel = nullptr) {
  const std::size_t G = grid.size();
  // One item per system pair (i < j), so that the token is asked often even
  // when there are few systems and many topic sets; pair p is row i's
  // (p - start[i])-th pair.
  const std::size_t n_pairs = n_sys < 2 ? 0 : n_sys * (n_sys - 1) / 2;
  std::vector<std::size_t> start(n_sys + 1, 0);
  for (std::size_t i = 0; i < n_sys; ++i) start[i + 1] = start[i] + (n_sys - 1 - i);
  const int nthr = parallel_threads(n_pairs, n_threads);
  std::vector<std::vector<double>> err(static_cast<std::size_t>(nthr), std::vector<double>(G, 0.0)),
      sig(static_cast<std::size_t>(nthr), std::vector<double>(G, 0.0));
  struct Signs {
    std::vector<double> pos, neg;
  };
  parallel_for_local(
      n_pairs, {nthr, cancel, Schedule::dynamic, 16}, [] { return Signs(); },
      [&](std::size_t p, Signs& w, int tid) {
        const std::size_t i =
            static_cast<std::size_t>(std::upper_bound(start.begin(), start.end(), p) - start.begin()) - 1;
        const std::size_t j = i + 1 + (p - start[i]);
        std::vector<double>& pos = w.pos;
        std::vector<double>& neg = w.neg;
        pos.clear();
        neg.clear();
        for (std::size_t k = 0; k < n_sets; ++k) {
          double d = (aggs[i + k * n_sys] - aggs[j + k * n_sys]) * scale;
          if (round_to_int) d = std::round(d);
          if (d > 0) pos.push_back(d); else if (d < 0) neg.push_back(-d);
        }
        std::sort(pos.begin(), pos.end());
        std::sort(neg.begin(), neg.end());
        std::vector<double>& e = err[static_cast<std::size_t>(tid)];
        std::vector<double>& sg = sig[static_cast<std::size_t>(tid)];
        for (std::size_t g = 0; g < G; ++g) {
          const double c = std::max(grid[g] - tol, std::numeric_limits<double>::min());
          const double gt = static_cast<double>(pos.end() - std::lower_bound(pos.begin(), pos.end(), c));
          const double lt = static_cast<double>(neg.end() - std::lower_bound(neg.begin(), neg.end(), c));
          e[g] += std::min(gt, lt);
          sg[g] += gt + lt;
        }
      });
  CriticalCurve out;
  out.swaps.assign(G, 0.0);
  out.decisions.assign(G, 0.0);
  for (int t = 0; t < nthr; ++t) {
    for (std::size_t g = 0; g < G; ++g) {
      out.swaps[g] += err[static_cast<std::size_t>(t)][g];
      out.decisions[g] += sig[static_cast<std::size_t>(t)][g];
    }
  }
  out.significant = out.decisions;
  return out;
}

// Binned variant (Voorhees & Buckley 2002): bin k holds the (pair, trial)
// comparisons with k * width <= |D1| < (k + 1) * width, the last bin
// everything from (n_bins - 1) * width up; a swap is D1 * D2 < 0.
inline void binned_swaps(const std::vector<double>& d1, const std::vector<double>& d2, double width,
                         std::size_t n_bins, std::vector<double>& count, std::vector<double>& swaps,
                         CancelToken* cancel = nullptr) {
  count.assign(n_bins, 0.0);
  swaps.assign(n_bins, 0.0);
  for (std::size_t k = 0; k < d1.size(); ++k) {
    if ((k & 0xffff) == 0) throw_if_cancelled(cancel);
    const double a = std::fabs(d1[k]);
    std::size_t bin = static_cast<std::size_t>(std::floor(a / width + 1e-9));
    if (bin >= n_bins) bin = n_bins - 1;
    count[bin] += 1;
    if (d1[k] * d2[k] < 0) swaps[bin] += 1;
  }
}

}  // namespace irtopics

#endif
