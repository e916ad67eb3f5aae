// Test calibration by stochastic simulation (Urbano, Lima & Hanjalic 2019):
// the trial loop. A trial draws a pair of systems of a collection, simulates
// n new topics from the pair's bivariate copula and the systems' margins,
// and runs the paired tests on the simulated scores.
//
// Reproducibility: trial t of setting s uses only Stream(key, s * 2^32 + t)
// (resample.h), in this order: the pair (one or two bounded draws), the n
// pairs of uniforms of the copula (copula_simulate), the bootstrap indices
// (B resamples of n indices, two per 64-bit output), the sign flips (B
// resamples of n bits, 64 per output). Trials write only their own row, so
// the result is the same for any number of threads, any chunking of the
// trials and any future plan.
//
// Tests and results cross the glue by name: R asks for tests by the names
// of kNativeTests (the `native` field of R's test registry,
// R/compare-tests.R), and a trial's row has the fields of kTrialFields,
// which the glue returns as a named list. A row holds statistics and
// counts, not p-values: R's registry records turn them into the p-values of
// t.test(), wilcox.test() and binom.test() with R's own distribution
// functions (equal to base R's to the last digit), and the Monte Carlo
// counts into p-values by the record's rule (count / B for the 2019 study's
// bootstrap and permutation tests).
//
// Pure C++: no R types.
#ifndef IRTOPICS_CALIBRATION_H
#define IRTOPICS_CALIBRATION_H

#include <algorithm>
#include <array>
#include <iterator>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cancel.h"
#include "copula.h"
#include "parallel.h"
#include "resample.h"

namespace irtopics {

// ---------------------------------------------------------------- margins

// A fitted margin, tabulated: F at sorted knots. Continuous margins are
// piecewise linear between the knots (knots[0] = 0 with cdf 0, the last knot
// with cdf 1); discrete margins are steps at the knots (the support). The
// optional transform F'(x) = F(x)^a (a > 1) or 1 - (1 - F(x))^b (b > 1)
// moves the expected value (Urbano & Nagler 2018, §3.4, one-parameter form).
struct MarginRef {
  const double* knots = nullptr;
  const double* cdf = nullptr;
  std::size_t size = 0;
  bool discrete = false;
  double a = 1.0, b = 1.0;
};

// The margin's quantile at u in (0, 1).
inline double margin_quantile(const MarginRef& m, double u) {
  if (m.a != 1.0) u = std::pow(u, 1.0 / m.a);
  if (m.b != 1.0) u = -std::expm1(std::log1p(-u) / m.b);
  const double* first = m.cdf;
  const double* last = m.cdf + m.size;
  // first knot whose cdf reaches u
  const double* it = std::lower_bound(first, last, u);
  if (it == last) return m.knots[m.size - 1];
  const std::size_t k = static_cast<std::size_t>(it - first);
  if (m.discrete || k == 0) return m.knots[k];
  const double f0 = m.cdf[k - 1], f1 = m.cdf[k];
  if (!(f1 > f0)) return m.knots[k];
  const double w = (u - f0) / (f1 - f0);
  return m.knots[k - 1] + w * (m.knots[k] - m.knots[k - 1]);
}

// A segment whose CDF values differ by at most this share of the larger is
// integrated by the midpoint rule (relative error e (e - 1) r^2 / 24 for a
// relative difference r, below 1e-14), not by the closed form, whose
// difference of powers over their difference loses about 1e-16 / r to
// cancellation: with an absolute 1e-12 the closed form was used on
// differences of 1e-12 to 1e-9 (tables with long near-flat stretches, such as
// a zero-inflated beta kernel's), and the two routes to the mean below
// disagreed by up to 1e-8.
inline constexpr double kFlatSegment = 1e-7;

// Expected value of a tabulated margin under the transform: exactly the
// mean of the values margin_quantile() draws. For a continuous margin the
// CDF is the linear interpolant F of the table, so with G = F^a (or
// 1 - (1 - F)^b) the mean is the integral of 1 - G over [knots[0], last],
// plus knots[0]; on a segment of width h where F goes linearly from f0 to
// f1, the integral of F^a is h (f1^(a+1) - f0^(a+1)) / ((a + 1) (f1 - f0)).
// For a discrete margin it is the sum of x_k (G_k - G_(k-1)).
inline double margin_mean(const MarginRef& m) {
  const bool up = m.a != 1.0;
  const double e = up ? m.a : m.b;
  // G of the transformed CDF at a table value f
  auto G = [&](double f) {
    if (up) return std::pow(f, e);
    return 1.0 - std::pow(1.0 - f, e);
  };
  if (m.discrete) {
    double mean = 0.0, prev = 0.0;
    for (std::size_t k = 0; k < m.size; ++k) {
      const double g = k + 1 == m.size ? 1.0 : G(m.cdf[k]);
      mean += m.knots[k] * (g - prev);
      prev = g;
    }
    return mean;
  }
  // integral of G over the table's range, segment by segment
  double integral = 0.0;
  for (std::size_t k = 1; k < m.size; ++k) {
    const double h = m.knots[k] - m.knots[k - 1];
    if (!(h > 0)) continue;
    if (up) {
      const double f0 = m.cdf[k - 1], f1 = m.cdf[k];
      if (f1 - f0 > kFlatSegment * f1) {
        integral += h * (std::pow(f1, e + 1) - std::pow(f0, e + 1)) / ((e + 1) * (f1 - f0));
      } else {
        integral += h * std::pow(0.5 * (f0 + f1), e);
      }
    } else {
      // 1 - (1 - F)^b: integrate (1 - F)^b = S^b with S linear
      const double s0 = 1.0 - m.cdf[k - 1], s1 = 1.0 - m.cdf[k];
      double sb;
      if (s0 - s1 > kFlatSegment * s0) {
        sb = h * (std::pow(s0, e + 1) - std::pow(s1, e + 1)) / ((e + 1) * (s0 - s1));
      } else {
        sb = h * std::pow(0.5 * (s0 + s1), e);
      }
      integral += h - sb;
    }
  }
  const double hi = m.knots[m.size - 1];
  return hi - integral;
}

// margin_mean() of the transform with exponent e (a = e when `up`, else
// b = e) from the logs of the table's F (lf) and 1 - F (ls): the same
// closed forms, with each knot's power taken once (exp(e * log)).
inline double margin_mean_logs(const MarginRef& m, const std::vector<double>& lf,
                               const std::vector<double>& ls, bool up, double e) {
  if (m.discrete) {
    double mean = 0.0, prev = 0.0;
    for (std::size_t k = 0; k < m.size; ++k) {
      const double g = k + 1 == m.size ? 1.0 : (up ? std::exp(e * lf[k]) : -std::expm1(e * ls[k]));
      mean += m.knots[k] * (g - prev);
      prev = g;
    }
    return mean;
  }
  const std::vector<double>& l = up ? lf : ls;
  double integral = 0.0;
  double p0 = std::exp((e + 1) * l[0]);  // f0^(e+1) (or s0^(e+1))
  for (std::size_t k = 1; k < m.size; ++k) {
    const double p1 = std::exp((e + 1) * l[k]);
    const double h = m.knots[k] - m.knots[k - 1];
    if (h > 0) {
      const double v0 = up ? m.cdf[k - 1] : 1.0 - m.cdf[k - 1];
      const double v1 = up ? m.cdf[k] : 1.0 - m.cdf[k];
      const double dv = std::fabs(v1 - v0);
      double seg;
      if (dv > kFlatSegment * std::max(v0, v1)) {
        seg = h * std::fabs(p1 - p0) / ((e + 1) * dv);
      } else {
        seg = h * std::exp(e * std::log(0.5 * (v0 + v1)));
      }
      integral += up ? seg : h - seg;
    }
    p0 = p1;
  }
  return m.knots[m.size - 1] - integral;
}

// The exponent of the transform that gives the tabulated margin expected
// value `target`: a >= 1 (F^a) when the target is above the margin's mean,
// b >= 1 (1 - (1 - F)^b) when below. Solved on log(exponent) by the
// Illinois variant of regula falsi to |mean - target| <= tol. Returns false
// (a = b = NaN) when no exponent up to 1e8 reaches the target (it is too
// close to the end of the support).
inline bool transform_exponent(MarginRef m, double target, double tol, double& a, double& b) {
  m.a = 1.0;
  m.b = 1.0;
  const double base = margin_mean(m);
  a = b = 1.0;
  if (std::fabs(base - target) <= tol) return true;
  const bool up = target > base;
  const double neg_inf = -std::numeric_limits<double>::infinity();
  std::vector<double> lf(m.size), ls(m.size);
  for (std::size_t k = 0; k < m.size; ++k) {
    lf[k] = m.cdf[k] > 0 ? std::log(m.cdf[k]) : neg_inf;
    ls[k] = m.cdf[k] < 1 ? std::log1p(-m.cdf[k]) : neg_inf;
  }
  auto mean_at = [&](double log_e) { return margin_mean_logs(m, lf, ls, up, std::exp(log_e)) - target; };
  double x0 = 0.0, f0 = base - target;
  double x1 = std::log(1e8), f1 = mean_at(x1);
  if ((f0 > 0) == (f1 > 0)) {
    a = b = std::numeric_limits<double>::quiet_NaN();
    return false;
  }
  int side = 0;
  double x = x0, f = f0;
  for (int it = 0; it < 200; ++it) {
    x = (x0 * f1 - x1 * f0) / (f1 - f0);
    f = mean_at(x);
    if (std::fabs(f) <= tol) break;
    if ((f > 0) == (f1 > 0)) {
      x1 = x;
      f1 = f;
      if (side == -1) f0 /= 2;
      side = -1;
    } else {
      x0 = x;
      f0 = f;
      if (side == 1) f1 /= 2;
      side = 1;
    }
    if (std::fabs(x1 - x0) < 1e-15) break;
  }
  (up ? a : b) = std::exp(x);
  return true;
}

// ---------------------------------------------------------------- design

// Collections, systems and pairs, flattened by the glue.
//   margins[g]: margin of global system g; collection c owns the systems
//   [sys_start[c], sys_start[c + 1]).
//   copulas: the fitted copula of every pair i < j of a collection (local
//   indices), at cop_start[c] + pair_index(i, j, m_c); fitted on (u_i, u_j).
struct CalibrationModel {
  std::vector<MarginRef> margins;
  std::vector<std::size_t> sys_start;  // size n_collections + 1
  std::vector<Copula> copulas;
  std::vector<std::size_t> cop_start;  // size n_collections
};

// Index of pair (i, j), i < j, among the pairs of m systems (row-wise upper
// triangle).
inline std::size_t pair_index(std::size_t i, std::size_t j, std::size_t m) {
  return i * m - i * (i + 1) / 2 + (j - i - 1);
}

// The power design of one delta: baselines (global system index) and, per
// baseline, its candidate experimental systems (global index) with the
// transform that gives them expected value E[baseline] + delta. Baselines
// are drawn uniformly over all entries (so a collection with probability
// proportional to its number of baselines), candidates uniformly.
struct PowerDesign {
  std::vector<std::size_t> baseline;       // size n_baselines
  std::vector<std::size_t> cand_start;     // size n_baselines + 1
  std::vector<std::size_t> cand_system;    // global index
  std::vector<double> cand_a, cand_b;      // transform of each candidate
};

// One setting: n topics, and either the null design (power == nullptr) or a
// power design.
struct Setting {
  std::size_t n_topics = 0;
  const PowerDesign* power = nullptr;
};

// ---------------------------------------------------------------- tests by name

// The tests the trial loop computes, by the names of R's test registry.
enum class NativeTest : std::size_t { T = 0, Wilcoxon, Sign, Bootstrap2019, Permutation2019, Count };
constexpr std::size_t kNumNativeTests = static_cast<std::size_t>(NativeTest::Count);

struct NativeTestRecord {
  NativeTest test;
  std::string_view name;
};

constexpr NativeTestRecord kNativeTests[] = {
    {NativeTest::T, "t"},
    {NativeTest::Wilcoxon, "wilcoxon"},
    {NativeTest::Sign, "sign"},
    {NativeTest::Bootstrap2019, "bootstrap_2019"},       // the 2019 study's, count / B
    {NativeTest::Permutation2019, "permutation_2019"},   // the 2019 study's, count / B
};
static_assert(std::size(kNativeTests) == kNumNativeTests, "one record per native test");

constexpr bool native_tests_in_order() {
  for (std::size_t k = 0; k < kNumNativeTests; ++k) {
    if (static_cast<std::size_t>(kNativeTests[k].test) != k) return false;
    for (std::size_t j = 0; j < k; ++j)
      if (kNativeTests[j].name == kNativeTests[k].name) return false;
  }
  return true;
}
static_assert(native_tests_in_order(), "kNativeTests: in enum order, names unique");

// Which tests a trial runs (the others' fields are NaN).
struct TestSet {
  std::array<bool, kNumNativeTests> run{};
  std::size_t B = 1000;
  double sign_tol = 0.01;   // |d| <= sign_tol is a tie of the sign test
  double rel_tol = 1e-9;    // ties of resampled statistics (see below)
  bool has(NativeTest t) const { return run[static_cast<std::size_t>(t)]; }
};

// Adds the test called `name` to `set`; an unknown name is refused.
inline void add_native_test(TestSet& set, std::string_view name) {
  std::string known;
  for (const NativeTestRecord& r : kNativeTests) {
    if (r.name == name) {
      set.run[static_cast<std::size_t>(r.test)] = true;
      return;
    }
    known += (known.empty() ? "" : ", ") + std::string(r.name);
  }
  throw std::invalid_argument("unknown calibration test \"" + std::string(name) +
                              "\": the trial loop computes " + known);
}

// The fields of a trial's row, in row order.
enum TrialCol : std::size_t {
  kMeanDiff = 0,   // mean(e - b)
  kTStat,          // t statistic of t.test(e, b, paired = TRUE); NaN if constant
  kWStat,          // V of wilcox.test(e, b, paired = TRUE): rank sum of d > 0
  kWN,             // number of non-zero differences
  kWSigma,         // normal-approximation sd with tie correction; NaN when exact
  kSignPos,        // # d > sign_tol
  kSignN,          // # |d| > sign_tol
  kBootCount2, kBootCount1,  // bootstrap counts: two-sided, one-sided (e > b)
  kPermCount2, kPermCount1,  // sign-flip permutation counts
  kBaseline, kExperimental,  // global system indices (0-based)
  kNumCols
};

// A field's name across the glue and the test it belongs to ("": every
// trial has it).
struct TrialField {
  TrialCol col;
  std::string_view name;
  std::string_view test;
};

constexpr TrialField kTrialFields[] = {
    {kMeanDiff, "mean_diff", ""},
    {kTStat, "t", "t"},
    {kWStat, "w", "wilcoxon"},
    {kWN, "w_n", "wilcoxon"},
    {kWSigma, "w_sigma", "wilcoxon"},
    {kSignPos, "sign_pos", "sign"},
    {kSignN, "sign_n", "sign"},
    {kBootCount2, "boot_count2", "bootstrap_2019"},
    {kBootCount1, "boot_count1", "bootstrap_2019"},
    {kPermCount2, "perm_count2", "permutation_2019"},
    {kPermCount1, "perm_count1", "permutation_2019"},
    {kBaseline, "baseline", ""},
    {kExperimental, "experimental", ""},
};
static_assert(std::size(kTrialFields) == kNumCols, "one record per trial field");

constexpr bool trial_fields_valid() {
  for (std::size_t k = 0; k < kNumCols; ++k) {
    if (kTrialFields[k].col != k) return false;
    bool known = kTrialFields[k].test.empty();
    for (const NativeTestRecord& r : kNativeTests) known = known || r.name == kTrialFields[k].test;
    if (!known) return false;
  }
  return true;
}
static_assert(trial_fields_valid(), "kTrialFields: in row order, each of a native test (or of every trial)");

// Workspace of one thread.
struct TrialWork {
  std::vector<double> u1, u2, b, e, d, absd, boot;
  std::vector<std::size_t> order;
};

// Cancellation inside a trial (issue 29): one trial can be long (B = 1e8
// resamples, or 1e5 topics), so the resampling loops ask the token every
// `stride` resamples, where a stride is about kPollWork additions. The
// parallel driver asks it only between trials.
constexpr std::size_t kPollWork = std::size_t{1} << 16;

inline std::size_t poll_stride(std::size_t n) { return std::max<std::size_t>(1, kPollWork / std::max<std::size_t>(n, 1)); }

// Largest n for which wilcox.test()'s default is exact (n < 50).
constexpr std::size_t kWilcoxonExactBelow = 50;

inline void wilcoxon_stats(TrialWork& w, std::size_t n, double* row) {
  // d = e - b; the ranks of |d| among non-zero d, average ranks for ties
  // (exact floating equality, as rank() in R).
  w.absd.clear();
  w.order.clear();
  for (std::size_t k = 0; k < n; ++k) {
    if (w.d[k] != 0.0) {
      w.order.push_back(w.absd.size());
      w.absd.push_back(std::fabs(w.d[k]));
    }
  }
  const std::size_t nz = w.absd.size();
  // signs of the kept differences, in the same order
  std::vector<double>& signs = w.boot;  // reused: resampling comes later
  signs.clear();
  for (std::size_t k = 0; k < n; ++k)
    if (w.d[k] != 0.0) signs.push_back(w.d[k] > 0 ? 1.0 : 0.0);
  std::sort(w.order.begin(), w.order.end(),
            [&](std::size_t x, std::size_t y) { return w.absd[x] < w.absd[y]; });
  double v = 0.0, tie_term = 0.0;
  bool ties = false;
  for (std::size_t s = 0; s < nz;) {
    std::size_t t = s + 1;
    while (t < nz && w.absd[w.order[t]] == w.absd[w.order[s]]) ++t;
    const double rank = 0.5 * (static_cast<double>(s + 1) + static_cast<double>(t));
    const double cnt = static_cast<double>(t - s);
    if (t - s > 1) ties = true;
    tie_term += cnt * cnt * cnt - cnt;
    for (std::size_t q = s; q < t; ++q) v += rank * signs[w.order[q]];
    s = t;
  }
  const bool zeroes = nz < n;
  row[kWStat] = v;
  row[kWN] = static_cast<double>(nz);
  const double nn = static_cast<double>(nz);
  if (nz < kWilcoxonExactBelow && !ties && !zeroes) {
    row[kWSigma] = std::numeric_limits<double>::quiet_NaN();
  } else {
    row[kWSigma] = std::sqrt(nn * (nn + 1.0) * (2.0 * nn + 1.0) / 24.0 - tie_term / 48.0);
  }
}

// Bootstrap test of the mean difference (the 2019 study's definition): B
// means of n differences drawn with replacement, centred at their own mean;
// counts c2 = #{|centred mean| >= |observed mean|}, c1 = #{centred mean >=
// observed mean} (R's record makes them p-values: c / B). "At least as extreme" allows rel_tol * max|d| of
// rounding (the package's rule for resampled statistics of discrete scores).
inline void bootstrap_counts(Stream& st, TrialWork& w, std::size_t n, std::size_t B, double rel_tol,
                             double* row, CancelToken* cancel = nullptr) {
  const std::size_t stride = poll_stride(n);
  w.boot.resize(B);
  const std::uint32_t bound = static_cast<std::uint32_t>(n);
  double scale = 0.0;
  long double obs = 0.0L;
  for (std::size_t k = 0; k < n; ++k) {
    obs += w.d[k];
    scale = std::max(scale, std::fabs(w.d[k]));
  }
  const double mean_obs = static_cast<double>(obs / static_cast<long double>(n));
  long double total = 0.0L;
  for (std::size_t r = 0; r < B; ++r) {
    if (r % stride == 0) throw_if_cancelled(cancel);
    double s = 0.0;
    std::size_t k = 0;
    for (; k + 2 <= n; k += 2) {
      std::uint32_t i1, i2;
      st.bounded2(bound, bound, i1, i2);
      s += w.d[i1];
      s += w.d[i2];
    }
    if (k < n) s += w.d[st.bounded(static_cast<std::uint32_t>(st.next64()), bound)];
    const double m = s / static_cast<double>(n);
    w.boot[r] = m;
    total += m;
  }
  const double centre = static_cast<double>(total / static_cast<long double>(B));
  const double tol = rel_tol * scale;
  std::size_t c2 = 0, c1 = 0;
  for (std::size_t r = 0; r < B; ++r) {
    const double z = w.boot[r] - centre;
    if (std::fabs(z) >= std::fabs(mean_obs) - tol) ++c2;
    if (z >= mean_obs - tol) ++c1;
  }
  row[kBootCount2] = static_cast<double>(c2);
  row[kBootCount1] = static_cast<double>(c1);
}

// Permutation test by random sign flips of the differences (the 2019 study's
// definition): counts c2 = #{|flipped sum| >= |observed sum|}, c1 =
// #{flipped sum >= observed sum} (sums: the mean's n cancels), ties as above.
// Topic k is flipped when bit (k mod 64) of the (k div 64)-th output of the
// resample is clear. The sum is taken by groups of 8 topics through a table
// of the 256 signed sums of each group (the observed sum is the all-plus
// entry of every group, so it is rounded the same way).
inline void permutation_counts(Stream& st, TrialWork& w, std::size_t n, std::size_t B, double rel_tol,
                               double* row, CancelToken* cancel = nullptr) {
  const std::size_t groups = (n + 7) / 8;
  const std::size_t stride = poll_stride(groups);
  w.boot.assign(groups * 256, 0.0);  // reused: the bootstrap is done
  double scale = 0.0;
  for (std::size_t k = 0; k < n; ++k) scale = std::max(scale, std::fabs(w.d[k]));
  for (std::size_t g = 0; g < groups; ++g) {
    if (g % 256 == 0) throw_if_cancelled(cancel);
    double* t = w.boot.data() + g * 256;
    const std::size_t width = std::min<std::size_t>(8, n - 8 * g);
    for (unsigned mask = 0; mask < 256; ++mask) {
      double s = 0.0;
      for (std::size_t q = 0; q < width; ++q) {
        const double v = w.d[8 * g + q];
        s += ((mask >> q) & 1U) ? v : -v;
      }
      t[mask] = s;
    }
  }
  double obs = 0.0;
  for (std::size_t g = 0; g < groups; ++g) obs += w.boot[g * 256 + 255];
  const double tol = rel_tol * scale * static_cast<double>(n);
  const double abs_obs = std::fabs(obs) - tol, one_obs = obs - tol;
  std::size_t c2 = 0, c1 = 0;
  for (std::size_t r = 0; r < B; ++r) {
    if (r % stride == 0) throw_if_cancelled(cancel);
    double s = 0.0;
    std::uint64_t bits = 0;
    for (std::size_t g = 0; g < groups; ++g) {
      if (g % 8 == 0) bits = st.next64();
      s += w.boot[g * 256 + ((bits >> (8 * (g % 8))) & 0xFFU)];
    }
    c2 += std::fabs(s) >= abs_obs;
    c1 += s >= one_obs;
  }
  row[kPermCount2] = static_cast<double>(c2);
  row[kPermCount1] = static_cast<double>(c1);
}

// The copula of (global) systems x and y of collection c, oriented so that
// its first variable is x: `swap` tells the caller to exchange the columns.
inline const Copula& pair_copula(const CalibrationModel& model, std::size_t c, std::size_t x,
                                 std::size_t y, bool& swap) {
  const std::size_t s0 = model.sys_start[c];
  const std::size_t m = model.sys_start[c + 1] - s0;
  std::size_t i = x - s0, j = y - s0;
  swap = i > j;
  if (swap) std::swap(i, j);
  return model.copulas[model.cop_start[c] + pair_index(i, j, m)];
}

inline std::size_t collection_of(const CalibrationModel& model, std::size_t g) {
  const auto it = std::upper_bound(model.sys_start.begin(), model.sys_start.end(), g);
  return static_cast<std::size_t>(it - model.sys_start.begin()) - 1;
}

// Draws the pair of a trial and simulates its n topics into w.b, w.e;
// returns the systems (baseline, experimental).
inline void simulate_trial(const CalibrationModel& model, const Setting& set, Stream& st,
                           TrialWork& w, std::size_t& base, std::size_t& exper) {
  const std::size_t n = set.n_topics;
  MarginRef mb, me;
  std::size_t c;
  if (set.power == nullptr) {
    // Type I: a system uniformly over all systems (its collection with
    // probability proportional to its size), a second one of its collection.
    const std::size_t total = model.margins.size();
    base = st.bounded(static_cast<std::uint32_t>(st.next64()), static_cast<std::uint32_t>(total));
    c = collection_of(model, base);
    const std::size_t s0 = model.sys_start[c], m = model.sys_start[c + 1] - s0;
    std::size_t other = st.bounded(static_cast<std::uint32_t>(st.next64()), static_cast<std::uint32_t>(m - 1));
    if (s0 + other >= base) ++other;
    exper = s0 + other;
    mb = model.margins[base];
    me = mb;  // both columns through the baseline's margin: the null is true
  } else {
    const PowerDesign& pd = *set.power;
    const std::size_t k = st.bounded(static_cast<std::uint32_t>(st.next64()),
                                     static_cast<std::uint32_t>(pd.baseline.size()));
    base = pd.baseline[k];
    const std::size_t n_cand = pd.cand_start[k + 1] - pd.cand_start[k];
    const std::size_t q = pd.cand_start[k] +
                          st.bounded(static_cast<std::uint32_t>(st.next64()), static_cast<std::uint32_t>(n_cand));
    exper = pd.cand_system[q];
    c = collection_of(model, base);
    mb = model.margins[base];
    me = model.margins[exper];
    me.a = pd.cand_a[q];
    me.b = pd.cand_b[q];
  }
  bool swap = false;
  const Copula& cop = pair_copula(model, c, base, exper, swap);
  w.u1.resize(n);
  w.u2.resize(n);
  copula_simulate(cop, st, n, w.u1.data(), w.u2.data());
  const double* ub = swap ? w.u2.data() : w.u1.data();
  const double* ue = swap ? w.u1.data() : w.u2.data();
  w.b.resize(n);
  w.e.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    w.b[k] = margin_quantile(mb, ub[k]);
    w.e[k] = margin_quantile(me, ue[k]);
  }
}

// One trial: statistics of every requested test into row[0 .. kNumCols).
inline void run_trial(const CalibrationModel& model, const Setting& set, const TestSet& tests,
                      std::uint64_t key, std::uint64_t stream, TrialWork& w, double* row,
                      CancelToken* cancel = nullptr) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t c = 0; c < kNumCols; ++c) row[c] = nan;
  Stream st(key, stream);
  std::size_t base = 0, exper = 0;
  simulate_trial(model, set, st, w, base, exper);
  throw_if_cancelled(cancel);
  const std::size_t n = set.n_topics;
  row[kBaseline] = static_cast<double>(base);
  row[kExperimental] = static_cast<double>(exper);
  w.d.resize(n);
  long double sum = 0.0L;
  for (std::size_t k = 0; k < n; ++k) {
    w.d[k] = w.e[k] - w.b[k];
    sum += w.d[k];
  }
  const long double mean = sum / static_cast<long double>(n);
  // R's mean(): the long double mean plus its correction pass
  long double corr = 0.0L;
  for (std::size_t k = 0; k < n; ++k) corr += w.d[k] - mean;
  const double mx = static_cast<double>(mean + corr / static_cast<long double>(n));
  row[kMeanDiff] = mx;
  if (tests.has(NativeTest::T)) {
    long double ss = 0.0L;
    for (std::size_t k = 0; k < n; ++k) ss += (w.d[k] - mx) * (w.d[k] - mx);
    const double sd = std::sqrt(static_cast<double>(ss / static_cast<long double>(n - 1)));
    const double se = sd / std::sqrt(static_cast<double>(n));
    // t.test() stops on "data are essentially constant"
    if (!(se < 10 * std::numeric_limits<double>::epsilon() * std::fabs(mx))) row[kTStat] = mx / se;
  }
  if (tests.has(NativeTest::Wilcoxon)) wilcoxon_stats(w, n, row);
  throw_if_cancelled(cancel);
  if (tests.has(NativeTest::Sign)) {
    std::size_t pos = 0, kept = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (std::fabs(w.d[k]) > tests.sign_tol) {
        ++kept;
        if (w.d[k] > 0) ++pos;
      }
    }
    row[kSignPos] = static_cast<double>(pos);
    row[kSignN] = static_cast<double>(kept);
  }
  if (tests.has(NativeTest::Bootstrap2019)) bootstrap_counts(st, w, n, tests.B, tests.rel_tol, row, cancel);
  if (tests.has(NativeTest::Permutation2019)) permutation_counts(st, w, n, tests.B, tests.rel_tol, row, cancel);
}

// The stream of trial t of setting s.
inline std::uint64_t trial_stream(std::uint64_t setting, std::uint64_t trial) {
  return (setting << 32) | trial;
}

// Trials [first, first + count) of setting `s`: out is count x kNumCols,
// row-major.
inline void run_trials(const CalibrationModel& model, const Setting& set, std::uint64_t s,
                       const TestSet& tests, std::uint64_t key, std::uint64_t first,
                       std::uint64_t count, double* out, int n_threads, CancelToken* cancel) {
  if (set.n_topics < 2) throw std::invalid_argument("a trial needs at least 2 topics");
  if (tests.B < 1 && (tests.has(NativeTest::Bootstrap2019) || tests.has(NativeTest::Permutation2019)))
    throw std::invalid_argument("B must be at least 1");
  if (set.power == nullptr) {
    for (std::size_t c = 0; c + 1 < model.sys_start.size(); ++c)
      if (model.sys_start[c + 1] - model.sys_start[c] < 2)
        throw std::invalid_argument("every collection needs at least 2 systems");
  } else if (set.power->baseline.empty()) {
    throw std::invalid_argument("the power design has no baselines");
  }
  parallel_for_local(
      static_cast<std::size_t>(count), {n_threads, cancel, Schedule::dynamic, 16},
      [] { return TrialWork(); },
      [&](std::size_t r, TrialWork& w) {
        run_trial(model, set, tests, key, trial_stream(s, first + r), w, out + r * kNumCols, cancel);
      });
}

// The simulated scores of trials [first, first + count): b and e are
// count x n, row-major (for tests run in R, on the very data of run_trials).
inline void simulate_trials(const CalibrationModel& model, const Setting& set, std::uint64_t s,
                            std::uint64_t key, std::uint64_t first, std::uint64_t count,
                            double* b, double* e, double* systems, int n_threads,
                            CancelToken* cancel) {
  const std::size_t n = set.n_topics;
  parallel_for_local(
      static_cast<std::size_t>(count), {n_threads, cancel, Schedule::dynamic, 16},
      [] { return TrialWork(); },
      [&](std::size_t r, TrialWork& w) {
        Stream st(key, trial_stream(s, first + r));
        std::size_t base = 0, exper = 0;
        simulate_trial(model, set, st, w, base, exper);
        std::copy(w.b.begin(), w.b.end(), b + r * n);
        std::copy(w.e.begin(), w.e.end(), e + r * n);
        systems[2 * r] = static_cast<double>(base);
        systems[2 * r + 1] = static_cast<double>(exper);
      });
}

}  // namespace irtopics

#endif  // IRTOPICS_CALIBRATION_H
