// Resampling kernels for comparing systems (sign-flip randomisation test,
// studentized bootstrap test, randomised Tukey HSD) and the counter-based
// random generator they share.
//
// Reproducibility: every random draw of replicate b is a pure function of
// (key, b): Stream(key, b) is a splitmix64 sequence started from a hash of
// the pair, so replicate b gives the same draws on any thread, in any chunk
// of replicates and on any future worker. The kernels work on a range of
// replicates [first, first + count) and return integer counts (or one value
// per replicate), so splitting B into chunks and summing never changes a
// result. Per-thread counts are integers, summed after the parallel region.
//
// Draws of replicate b (documented for the base-R cross-checks, exposed by
// draw_signs / draw_indices / draw_permutations):
//   signs:        topic j is +1 when bit (j mod 64) of the (j div 64)-th
//                 64-bit output is set, else -1;
//   indices:      n uniform draws on 0..n-1 (0-based topic indices);
//   permutations: for topic j = 0..n-1 in turn, a Fisher-Yates shuffle of the
//                 identity 0..m-1 (i = m-1 down to 1: swap(p[i], p[k]), k
//                 uniform on 0..i). p[i] is the system whose score system i
//                 receives.
// Uniform draws use Lemire's unbiased multiply-shift on the two 32-bit halves
// of each 64-bit output (low half first). The stream of a replicate is
// wyrand started from a splitmix64 hash of (key, replicate).
//
// Ties (scores are discrete): a resampled statistic counts as "at least as
// extreme" when stat_b >= stat_obs - rel_tol * scale, where scale is the
// largest |score| the statistic sums (rel_tol = 1e-9 in the package).
//
// Pure C++: no R types. Matrices are column-major systems x topics (R's
// layout), complete (no NA: the caller reduces a pair with missing topics to
// a 2-row matrix).
#ifndef IRTOPICS_RESAMPLE_H
#define IRTOPICS_RESAMPLE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "cancel.h"
#include "parallel.h"

namespace irtopics {

// ---------------------------------------------------------------- generator

inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The key of a user seed (a whole number, possibly negative).
inline std::uint64_t seed_key(double seed) {
  return mix64(static_cast<std::uint64_t>(static_cast<std::int64_t>(seed)) ^ 0x6972746f70696373ULL);
}

// The random stream of one replicate.
class Stream {
 public:
  Stream(std::uint64_t key, std::uint64_t replicate) : state_(mix64(key ^ mix64(replicate))) {}
  // wyrand step (one 64 x 64 -> 128-bit multiply).
  std::uint64_t next64() {
    state_ += 0xa0761d6478bd642fULL;
    const __uint128_t t = static_cast<__uint128_t>(state_) * (state_ ^ 0xe7037ed1a0b428dbULL);
    return static_cast<std::uint64_t>(t >> 64) ^ static_cast<std::uint64_t>(t);
  }
  // Uniform on 0..bound-1 (bound >= 1) from the 32 random bits r, unbiased
  // (Lemire's multiply-shift; on the rare rejection it redraws from the low
  // half of fresh outputs).
  std::uint32_t bounded(std::uint32_t r, std::uint32_t bound) {
    std::uint64_t x = static_cast<std::uint64_t>(r) * bound;
    std::uint32_t low = static_cast<std::uint32_t>(x);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        x = static_cast<std::uint64_t>(static_cast<std::uint32_t>(next64())) * bound;
        low = static_cast<std::uint32_t>(x);
      }
    }
    return static_cast<std::uint32_t>(x >> 32);
  }
  // Two uniform draws on 0..b1-1 and 0..b2-1 from one output (low half, then high half).
  void bounded2(std::uint32_t b1, std::uint32_t b2, std::uint32_t& k1, std::uint32_t& k2) {
    const std::uint64_t r = next64();
    k1 = bounded(static_cast<std::uint32_t>(r), b1);
    k2 = bounded(static_cast<std::uint32_t>(r >> 32), b2);
  }

 private:
  std::uint64_t state_;
};

// Fisher-Yates steps of a permutation of m items: step(i, k) for
// i = m-1 down to 1, k uniform on 0..i (two draws per output).
template <typename Step>
inline void fisher_yates(Stream& st, std::size_t m, Step&& step) {
  if (m < 2) return;
  std::size_t i = m - 1;
  for (; i >= 2; i -= 2) {
    std::uint32_t k1, k2;
    st.bounded2(static_cast<std::uint32_t>(i + 1), static_cast<std::uint32_t>(i), k1, k2);
    step(i, k1);
    step(i - 1, k2);
  }
  if (i == 1) step(1, st.bounded(static_cast<std::uint32_t>(st.next64()), 2));
}

// Draws of one replicate (see the header comment).
inline void draw_signs(std::uint64_t key, std::uint64_t b, std::size_t n, double* s) {
  Stream st(key, b);
  std::uint64_t bits = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 64 == 0) bits = st.next64();
    s[j] = ((bits >> (j % 64)) & 1ULL) ? 1.0 : -1.0;
  }
}

inline void draw_indices(std::uint64_t key, std::uint64_t b, std::size_t n, int* idx) {
  Stream st(key, b);
  const std::uint32_t bound = static_cast<std::uint32_t>(n);
  std::size_t j = 0;
  for (; j + 2 <= n; j += 2) {
    std::uint32_t k1, k2;
    st.bounded2(bound, bound, k1, k2);
    idx[j] = static_cast<int>(k1);
    idx[j + 1] = static_cast<int>(k2);
  }
  if (j < n) idx[j] = static_cast<int>(st.bounded(static_cast<std::uint32_t>(st.next64()), bound));
}

// perm: m x n (column j = topic j's permutation).
inline void draw_permutations(std::uint64_t key, std::uint64_t b, std::size_t m, std::size_t n,
                              int* perm) {
  Stream st(key, b);
  for (std::size_t j = 0; j < n; ++j) {
    int* p = perm + j * m;
    for (std::size_t i = 0; i < m; ++i) p[i] = static_cast<int>(i);
    fisher_yates(st, m, [&](std::size_t i, std::size_t k) { std::swap(p[i], p[k]); });
  }
}

// ---------------------------------------------------------------- driver

// Runs body(b, tid) for b in [first, first + count) through the package's
// parallel driver (parallel.h): replicates in chunks of 8 from a shared
// counter, `cancel` asked before each; throws Cancelled (or a worker's
// exception) after the join. 0 <= tid < max(1, n_threads).
template <typename Body>
void for_replicates(std::uint64_t first, std::uint64_t count, int n_threads, CancelToken* cancel,
                    Body&& body) {
  parallel_for(static_cast<std::size_t>(count), {n_threads, cancel, Schedule::dynamic, 8}, [&](std::size_t r, int tid) {
    body(first + static_cast<std::uint64_t>(r), tid);
  });
}

// A systems x topics matrix and the pairs (i, k) compared.
struct PairSet {
  const double* x = nullptr;  // m x n, column-major
  std::size_t m = 0, n = 0;
  const int* first = nullptr;  // 0-based system of each pair
  const int* second = nullptr;
  std::size_t n_pairs = 0;
};

// Row-major copy (one contiguous row per system) and the per-pair scale
// max(|x_i.|, |x_k.|).
inline std::vector<double> rows_of(const PairSet& ps) {
  std::vector<double> rows(ps.m * ps.n);
  for (std::size_t j = 0; j < ps.n; ++j)
    for (std::size_t i = 0; i < ps.m; ++i) rows[i * ps.n + j] = ps.x[j * ps.m + i];
  return rows;
}

inline std::vector<double> pair_scales(const PairSet& ps, const std::vector<double>& rows) {
  std::vector<double> row_max(ps.m, 0.0);
  for (std::size_t i = 0; i < ps.m; ++i)
    for (std::size_t j = 0; j < ps.n; ++j) row_max[i] = std::max(row_max[i], std::fabs(rows[i * ps.n + j]));
  std::vector<double> out(ps.n_pairs);
  for (std::size_t p = 0; p < ps.n_pairs; ++p)
    out[p] = std::max(row_max[static_cast<std::size_t>(ps.first[p])],
                      row_max[static_cast<std::size_t>(ps.second[p])]);
  return out;
}

inline std::vector<double> sum_counts(const std::vector<std::vector<std::int64_t>>& part, std::size_t len) {
  std::vector<double> out(len, 0.0);
  for (const auto& v : part)
    for (std::size_t p = 0; p < len; ++p) out[p] += static_cast<double>(v[p]);
  return out;
}

// ---------------------------------------------------------------- sign flip

// Monte Carlo sign-flip randomisation test (statistic T = sum_j d_j):
// out[p] = #{b : |T*_b| >= |T_obs| - rel_tol * scale_p}. T*_b = S_i - S_k with
// S_i = sum_j s_bj x_ij (one signs vector per replicate, shared by all pairs).
inline std::vector<double> signflip_counts(const PairSet& ps, std::uint64_t key, std::uint64_t first,
                                           std::uint64_t count, double rel_tol, int n_threads,
                                           CancelToken* cancel = nullptr) {
  const std::vector<double> rows = rows_of(ps);
  const std::vector<double> scale = pair_scales(ps, rows);
  std::vector<double> obs_sum(ps.m, 0.0);
  for (std::size_t i = 0; i < ps.m; ++i)
    for (std::size_t j = 0; j < ps.n; ++j) obs_sum[i] += rows[i * ps.n + j];
  std::vector<double> thr(ps.n_pairs);
  for (std::size_t p = 0; p < ps.n_pairs; ++p)
    thr[p] = std::fabs(obs_sum[static_cast<std::size_t>(ps.first[p])] -
                       obs_sum[static_cast<std::size_t>(ps.second[p])]) - rel_tol * scale[p];
  const int nthr = std::max(1, n_threads);
  std::vector<std::vector<std::int64_t>> part(static_cast<std::size_t>(nthr),
                                              std::vector<std::int64_t>(ps.n_pairs, 0));
  std::vector<std::vector<double>> signs(static_cast<std::size_t>(nthr), std::vector<double>(ps.n));
  std::vector<std::vector<double>> sums(static_cast<std::size_t>(nthr), std::vector<double>(ps.m));
  for_replicates(first, count, nthr, cancel, [&](std::uint64_t b, int tid) {
    double* s = signs[static_cast<std::size_t>(tid)].data();
    double* S = sums[static_cast<std::size_t>(tid)].data();
    std::int64_t* acc = part[static_cast<std::size_t>(tid)].data();
    draw_signs(key, b, ps.n, s);
    for (std::size_t i = 0; i < ps.m; ++i) {
      const double* xi = rows.data() + i * ps.n;
      double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      std::size_t j = 0;
      for (; j + 4 <= ps.n; j += 4) {
        a0 += s[j] * xi[j];
        a1 += s[j + 1] * xi[j + 1];
        a2 += s[j + 2] * xi[j + 2];
        a3 += s[j + 3] * xi[j + 3];
      }
      for (; j < ps.n; ++j) a0 += s[j] * xi[j];
      S[i] = (a0 + a1) + (a2 + a3);
    }
    for (std::size_t p = 0; p < ps.n_pairs; ++p) {
      const double t = std::fabs(S[ps.first[p]] - S[ps.second[p]]);
      acc[p] += (t >= thr[p]);
    }
  });
  return sum_counts(part, ps.n_pairs);
}

// Exact sign-flip test of one vector of differences d (length n) by
// enumeration of the signs of its non-zero entries (zeros do not change T),
// meet in the middle: the sums of each half are enumerated, one half sorted,
// and for each sum of the other half the extreme completions are counted by
// binary search. Returns {count, total} with total = 2^k, k = number of
// non-zero differences (the same ratio as over all 2^n sign vectors).
// tol is the absolute tie tolerance. Feasible for k up to about 40.
struct ExactCount {
  double count = 0;
  double total = 1;
};

inline std::vector<double> half_sums(const std::vector<double>& v) {
  const std::size_t k = v.size();
  std::vector<double> out(static_cast<std::size_t>(1) << k);
  for (std::size_t mask = 0; mask < out.size(); ++mask) {
    double s = 0;
    for (std::size_t j = 0; j < k; ++j) s += ((mask >> j) & 1U) ? -v[j] : v[j];
    out[mask] = s;
  }
  return out;
}

inline ExactCount signflip_exact(const double* d, std::size_t n, double tol) {
  std::vector<double> nz;
  double t_obs = 0;
  for (std::size_t j = 0; j < n; ++j) {
    t_obs += d[j];
    if (d[j] != 0) nz.push_back(d[j]);
  }
  const std::size_t k = nz.size();
  ExactCount out;
  out.total = std::ldexp(1.0, static_cast<int>(k));
  const double thr = std::fabs(t_obs) - tol;
  if (thr <= 0) {
    out.count = out.total;
    return out;
  }
  const std::size_t h = k / 2;
  const std::vector<double> a = half_sums(std::vector<double>(nz.begin(), nz.begin() + static_cast<std::ptrdiff_t>(h)));
  std::vector<double> c = half_sums(std::vector<double>(nz.begin() + static_cast<std::ptrdiff_t>(h), nz.end()));
  std::sort(c.begin(), c.end());
  double cnt = 0;
  for (double s : a) {
    // c >= thr - s, or c <= -thr - s (disjoint since thr > 0)
    cnt += static_cast<double>(c.end() - std::lower_bound(c.begin(), c.end(), thr - s));
    cnt += static_cast<double>(std::upper_bound(c.begin(), c.end(), -thr - s) - c.begin());
  }
  out.count = cnt;
  return out;
}

// ---------------------------------------------------------------- bootstrap

// Studentized bootstrap test (Sakai 2006) of every pair: with d = x_i - x_k,
// t0 = mean(d) / (sd(d) / sqrt(n)) and w = d - mean(d), replicate b draws n
// topic indices (shared by all pairs) and t*_b = mean(w*) / (sd(w*) / sqrt(n)),
// 0 when sd(w*) <= rel_tol * scale_p. out[p] = #{b : |t*_b| >= |t0| (1 - rel_tol) - rel_tol}
// (the absolute part: when the mean difference is 0 in exact arithmetic, t0 and
// the t*_b of samples with w-bar* = 0 are rounding noise of ~1e-17 and must tie);
// NaN for a pair whose differences have zero variance (t0 undefined).
inline std::vector<double> bootstrap_counts(const PairSet& ps, std::uint64_t key, std::uint64_t first,
                                            std::uint64_t count, double rel_tol, int n_threads,
                                            CancelToken* cancel = nullptr) {
  const std::size_t n = ps.n;
  const double dn = static_cast<double>(n);
  const std::vector<double> rows = rows_of(ps);
  const std::vector<double> scale = pair_scales(ps, rows);
  std::vector<double> dbar(ps.n_pairs), t0(ps.n_pairs);
  std::vector<char> defined(ps.n_pairs, 1);
  for (std::size_t p = 0; p < ps.n_pairs; ++p) {
    const double* xi = rows.data() + static_cast<std::size_t>(ps.first[p]) * n;
    const double* xk = rows.data() + static_cast<std::size_t>(ps.second[p]) * n;
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += xi[j] - xk[j];
    const double mean = s / dn;
    double ss = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const double e = xi[j] - xk[j] - mean;
      ss += e * e;
    }
    const double sd = std::sqrt(ss / (dn - 1));
    dbar[p] = mean;
    if (!(sd > rel_tol * scale[p])) defined[p] = 0;
    t0[p] = mean / (sd / std::sqrt(dn));
  }
  const int nthr = std::max(1, n_threads);
  std::vector<std::vector<std::int64_t>> part(static_cast<std::size_t>(nthr),
                                              std::vector<std::int64_t>(ps.n_pairs, 0));
  std::vector<std::vector<int>> idx(static_cast<std::size_t>(nthr), std::vector<int>(n));
  std::vector<std::vector<double>> cnt(static_cast<std::size_t>(nthr), std::vector<double>(n));
  std::vector<std::vector<double>> sums(static_cast<std::size_t>(nthr), std::vector<double>(ps.m));
  for_replicates(first, count, nthr, cancel, [&](std::uint64_t b, int tid) {
    int* ix = idx[static_cast<std::size_t>(tid)].data();
    double* c = cnt[static_cast<std::size_t>(tid)].data();
    double* S = sums[static_cast<std::size_t>(tid)].data();
    std::int64_t* acc = part[static_cast<std::size_t>(tid)].data();
    draw_indices(key, b, n, ix);
    std::fill(c, c + n, 0.0);
    for (std::size_t j = 0; j < n; ++j) c[ix[j]] += 1.0;
    // S_i = sum_j c_j x_ij: the resampled sum of system i.
    for (std::size_t i = 0; i < ps.m; ++i) {
      const double* xi = rows.data() + i * n;
      double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      std::size_t j = 0;
      for (; j + 4 <= n; j += 4) {
        a0 += c[j] * xi[j];
        a1 += c[j + 1] * xi[j + 1];
        a2 += c[j + 2] * xi[j + 2];
        a3 += c[j + 3] * xi[j + 3];
      }
      for (; j < n; ++j) a0 += c[j] * xi[j];
      S[i] = (a0 + a1) + (a2 + a3);
    }
    for (std::size_t p = 0; p < ps.n_pairs; ++p) {
      if (!defined[p]) continue;
      const double* xi = rows.data() + static_cast<std::size_t>(ps.first[p]) * n;
      const double* xk = rows.data() + static_cast<std::size_t>(ps.second[p]) * n;
      const double wbar = (S[ps.first[p]] - S[ps.second[p]]) / dn - dbar[p];
      const double shift = dbar[p] + wbar;
      double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      std::size_t j = 0;
      for (; j + 4 <= n; j += 4) {
        const double e0 = xi[j] - xk[j] - shift, e1 = xi[j + 1] - xk[j + 1] - shift;
        const double e2 = xi[j + 2] - xk[j + 2] - shift, e3 = xi[j + 3] - xk[j + 3] - shift;
        a0 += c[j] * e0 * e0;
        a1 += c[j + 1] * e1 * e1;
        a2 += c[j + 2] * e2 * e2;
        a3 += c[j + 3] * e3 * e3;
      }
      for (; j < n; ++j) {
        const double e = xi[j] - xk[j] - shift;
        a0 += c[j] * e * e;
      }
      const double sd = std::sqrt(((a0 + a1) + (a2 + a3)) / (dn - 1));
      const double t = sd <= rel_tol * scale[p] ? 0.0 : wbar / (sd / std::sqrt(dn));
      acc[p] += (std::fabs(t) >= std::fabs(t0[p]) * (1 - rel_tol) - rel_tol);
    }
  });
  std::vector<double> out = sum_counts(part, ps.n_pairs);
  for (std::size_t p = 0; p < ps.n_pairs; ++p)
    if (!defined[p]) out[p] = std::numeric_limits<double>::quiet_NaN();
  return out;
}

// ---------------------------------------------------------------- randomised Tukey HSD

// Randomised Tukey HSD (Carterette 2012; Sakai 2014): replicate b permutes
// each topic's m scores independently and out[b - first] = max_i S_i - min_i S_i,
// S_i the permuted sum of system i (sum scale: divide by n for means). The
// caller counts #{b : r_b >= |S_i - S_k| - rel_tol * max|x|} per pair.
inline std::vector<double> rthsd_ranges(const double* x, std::size_t m, std::size_t n, std::uint64_t key,
                                        std::uint64_t first, std::uint64_t count, int n_threads,
                                        CancelToken* cancel = nullptr) {
  const int nthr = std::max(1, n_threads);
  std::vector<double> out(static_cast<std::size_t>(count));
  std::vector<std::vector<double>> work(static_cast<std::size_t>(nthr), std::vector<double>(m));
  std::vector<std::vector<double>> sums(static_cast<std::size_t>(nthr), std::vector<double>(m));
  for_replicates(first, count, nthr, cancel, [&](std::uint64_t b, int tid) {
    double* v = work[static_cast<std::size_t>(tid)].data();
    double* S = sums[static_cast<std::size_t>(tid)].data();
    std::fill(S, S + m, 0.0);
    Stream st(key, b);
    // The draws of draw_permutations() applied to the scores themselves: at
    // step i position i receives its final score, which is added at once.
    for (std::size_t j = 0; j < n; ++j) {
      std::copy(x + j * m, x + (j + 1) * m, v);
      fisher_yates(st, m, [&](std::size_t i, std::size_t k) {
        S[i] += v[k];
        v[k] = v[i];
      });
      S[0] += v[0];
    }
    double lo = S[0], hi = S[0];
    for (std::size_t i = 1; i < m; ++i) {
      lo = std::min(lo, S[i]);
      hi = std::max(hi, S[i]);
    }
    out[static_cast<std::size_t>(b - first)] = hi - lo;
  });
  return out;
}

// ---------------------------------------------------------------- pair summaries

// For each pair (i, k), over the topics where both scores are present (NaN =
// missing): out[p + P * c] for c = 0..7 is n, mean of x_i, mean of x_k, mean
// of d = x_i - x_k, wins (d > tie_tol), ties (|d| <= tie_tol, up to
// rounding: see below), losses, and
// the sample sd of d (two-pass; NaN when n < 2).
inline void pair_summaries(const PairSet& ps, double tie_tol, double* out) {
  const std::vector<double> rows = rows_of(ps);
  const std::size_t P = ps.n_pairs;
  for (std::size_t p = 0; p < P; ++p) {
    const double* xi = rows.data() + static_cast<std::size_t>(ps.first[p]) * ps.n;
    const double* xk = rows.data() + static_cast<std::size_t>(ps.second[p]) * ps.n;
    double cnt = 0, s1 = 0, s2 = 0, sd = 0, win = 0, tie = 0, loss = 0;
    for (std::size_t j = 0; j < ps.n; ++j) {
      if (std::isnan(xi[j]) || std::isnan(xk[j])) continue;
      const double d = xi[j] - xk[j];
      cnt += 1;
      s1 += xi[j];
      s2 += xk[j];
      sd += d;
      // A difference equal to tie_tol up to rounding is a tie, wherever the
      // subtraction happened to round (.80 - .75 and .15 - .10 alike): the
      // threshold grows by a relative 1e-9 of tie_tol and by 4 ulp of the
      // larger score. tie_tol = 0 counts only exact equality as a tie.
      const double thr = tie_tol > 0
        ? tie_tol * (1 + 1e-9) + 4 * std::numeric_limits<double>::epsilon() *
            std::max(std::fabs(xi[j]), std::fabs(xk[j]))
        : 0.0;
      win += d > thr;
      loss += d < -thr;
      tie += std::fabs(d) <= thr;
    }
    const double mean = sd / cnt;
    double ss = 0;
    for (std::size_t j = 0; j < ps.n; ++j) {
      if (std::isnan(xi[j]) || std::isnan(xk[j])) continue;
      const double e = xi[j] - xk[j] - mean;
      ss += e * e;
    }
    const double sdev = cnt >= 2 ? std::sqrt(ss / (cnt - 1)) : std::numeric_limits<double>::quiet_NaN();
    const double vals[8] = {cnt, s1 / cnt, s2 / cnt, mean, win, tie, loss, sdev};
    for (std::size_t c = 0; c < 8; ++c) out[p + P * c] = vals[c];
  }
}

}  // namespace irtopics

#endif
