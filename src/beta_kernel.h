// Sums of Chen's beta kernels (Chen 1999, "Beta kernel estimators for density
// functions", CSDA 31:131-145): the kernel of score x_i at y is
//   K_i(y) = dbeta(x_i; y/b + 1, (1 - y)/b + 1)
//          = exp((y/b) log x_i + ((1 - y)/b) log(1 - x_i) - lbeta(y/b + 1, (1 - y)/b + 1)).
// The margin family "beta_kernel" (R/calibration-kernels.R) needs sums over
// the scores at Gauss-Legendre nodes (density, mass, CDF) and at the scores
// themselves (cross-validation, likelihood). Both are computed here with few
// exponentials, each four at a time (exp4() below: within about 1 ulp of the
// correctly rounded value, as the C library's exp() is within about 0.5; the sums
// are those with the C library's exp() to about 1e-13); R supplies the
// log-beta terms (R's lbeta(), so that the exponents are the ones R computed).
//
// * Quadrature nodes, interval by interval of the breaks: with the interval's
//   centre c and D_i = (log x_i - log(1 - x_i)) / b,
//     K_i(c + d) = K_i(c) exp(d D_i) exp(lbeta(c) - lbeta(c + d)),
//   and the centres are chained, K_i(c') = K_i(c) exp((c' - c) D_i) exp(lbeta(c) - lbeta(c')).
//   The factors exp(d D_i) are shared by consecutive intervals of equal width
//   (the equal intervals of the breaks), so most node values cost multiplications.
//   A chain restarts from the direct formula when a term could have changed by
//   more than e^kGrowth since the last restart (a term that underflowed there
//   would no longer be negligible) or after kChainSteps steps (rounding), and an
//   interval whose nodes lie further than e^kGrowth from its centre's values is
//   computed directly. Values agree with the direct formula to about 1e-13
//   (relative; the direct formula's own exponents carry about 1e-12).
// * At the scores (sorted): the exponent is concave in x_i with its maximum at
//   x_i = y, so the terms within e^-kWindow of the largest are a run of
//   neighbours of y; the others change the sum by less than n e^-kWindow
//   (relative) and are skipped.
//
// * Binned scores (issue 43: above fit_margin()'s kernel_exact_max scores):
//   the scores are replaced by the points of a grid with weights (linear
//   binning, R/calibration-kernels.R); Scores::lw holds the log weights,
//   added to every exponent, so each sum above is the weighted one and its
//   cost is the grid's, not the scores'. point_sums() sums at any points with
//   the direct formula (no window: a weight can outweigh the e^-kWindow
//   cut), and BinnedLscvCriterion is the cross-validation on the grid.
//
// The loops run on copula_pack.h's packs of four doubles (Pk) through its
// packed_call(): an AVX2 copy where the processor has AVX2, the same IEEE
// operations (so the same bits) as the baseline copy.
//
// Pure C++: no R types.
#ifndef IRTOPICS_BETA_KERNEL_H
#define IRTOPICS_BETA_KERNEL_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "cancel.h"
#include "copula_pack.h"

namespace irtopics {
namespace beta_kernel {

constexpr double kGrowth = 60.0;      // largest log-change of a term between direct evaluations
constexpr int kChainSteps = 64;       // longest chain of centres between direct evaluations
constexpr double kWindow = 40.0;      // terms below e^-kWindow of the largest are skipped

// The scores' logs: lx = log x_i, l1x = log(1 - x_i) (x capped inside (0, 1)).
// lw: null, or the log weight of each point (binned scores), added to its exponents.
struct Scores {
  const double* lx;
  const double* l1x;
  std::size_t n;
  const double* lw = nullptr;
};

// Quadrature nodes by interval: n_int intervals of `rule` nodes each, interval-major.
// y, lb_node, w: per node (w may be null); centre, half, lb_centre: per interval;
// offset: the rule's nodes on [-1, 1] (node = centre + half * offset).
struct Nodes {
  const double* y;
  const double* lb_node;
  const double* w;
  const double* centre;
  const double* half;
  const double* lb_centre;
  const double* offset;
  std::size_t n_int;
  std::size_t rule;
};

struct Counts {
  double values = 0;  // kernel values summed
  double exps = 0;    // exp() calls
};

namespace pk = ::irtopics::copula_detail;

#if defined(__GNUC__) || defined(__clang__)
#define IRTOPICS_BK_LAMBDA_INLINE __attribute__((always_inline))
#else
#define IRTOPICS_BK_LAMBDA_INLINE
#endif

// Four doubles from memory and back (Pk::lanes(), Pk::store()).
IRTOPICS_PACK_INLINE pk::Pk load4(const double* p) { return pk::Pk::lanes(p); }
IRTOPICS_PACK_INLINE void store4(double* p, const pk::Pk& x) { x.store(p); }

// e^t for one lane outside the packed exp's range: 0 below -746 (what the C
// library gives there too), else the C library.
inline double exp_lane(double t) { return t < -746.0 ? 0.0 : std::exp(t); }

// 2^(j / 64) for j = 0..63, each rounded once to double (from long double
// where it is wider).
struct Exp2Table {
  double v[64];
  Exp2Table() {
    for (int j = 0; j < 64; ++j) v[j] = static_cast<double>(std::exp2(static_cast<long double>(j) / 64));
  }
};
inline const Exp2Table& exp2_table() {
  static const Exp2Table t;
  return t;
}

// out[k] = e^a[k] for k < 4 (out may be a): x = (64 e + j) ln 2 / 64 + r,
// |r| <= ln 2 / 128, e^x = 2^e 2^(j/64) e^r with e^r - 1 by its Taylor series
// to r^6 (truncation below 3e-20): within about 1 ulp (the table's rounding
// and the last addition's). Lanes outside (-708, 708), where 2^e leaves the
// normal range, go to exp_lane().
IRTOPICS_PACK_INLINE void exp4(const double* a, double* out) {
  const pk::Pk x = load4(a);
  if (!pk::all(pk::Mask{(x.v > -708.0) & (x.v < 708.0)})) {
    for (std::size_t k = 0; k < 4; ++k) out[k] = exp_lane(a[k]);
    return;
  }
  constexpr double kShift = pk::pk_detail::kShift;  // adding it rounds to an integer held in the low bits
  constexpr double kInvStep = 64 / pk::pk_detail::kLn2;
  constexpr double kStepHi = pk::pk_detail::kLn2Hi / 64, kStepLo = pk::pk_detail::kLn2Lo / 64;
  const pk::PkLanes shifted = x.v * kInvStep + kShift;
  const pk::PkBits kbits = (pk::PkBits)shifted;  // low bits: 2^51 + k, k = 64 e + j
  const pk::PkLanes kd = shifted - kShift;
  const pk::PkLanes r = (x.v - kd * kStepHi) - kd * kStepLo;
  const pk::PkBits j = kbits & 63;
  const double* t = exp2_table().v;
  const pk::PkLanes tj{t[j[0]], t[j[1]], t[j[2]], t[j[3]]};
  // 2^(j/64) times 2^e: e added to the exponent bits ((kbits - j) << 46 is
  // e << 52: the constant part of kbits shifts out)
  const pk::PkLanes scale = (pk::PkLanes)((pk::PkBits)tj + (pk::PkBits)((pk::PkUBits)(kbits - j) << 46));
  pk::PkLanes q = r * (1.0 / 720.0) + 1.0 / 120.0;
  q = q * r + 1.0 / 24.0;
  q = q * r + 1.0 / 6.0;
  q = q * r + 0.5;
  const pk::PkLanes p = r + (r * r) * q;  // e^r - 1
  store4(out, pk::Pk(scale + scale * p));
}

// out[i] = e^a[i] for i < n (out may be a), four at a time.
IRTOPICS_PACK_INLINE void exp_array(const double* a, double* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) exp4(a + i, out + i);
  if (i < n) {
    double t[4] = {0.0, 0.0, 0.0, 0.0};
    for (std::size_t k = 0; i + k < n; ++k) t[k] = a[i + k];
    exp4(t, t);
    for (std::size_t k = 0; i + k < n; ++k) out[i + k] = t[k];
  }
}

// sum_i a_i b_i, and m_i += w a_i b_i when m is not null: four running sums
// (lane k adds the terms i = k mod 4, the last n mod 4 terms go to lane 0),
// one pass.
IRTOPICS_PACK_INLINE double dot_add(const double* __restrict a, const double* __restrict b, double* __restrict m,
                                    double w, std::size_t n) {
  pk::Pk s;
  std::size_t i = 0;
  if (m) {
    const pk::Pk wp(w);
    for (; i + 4 <= n; i += 4) {
      const pk::Pk v = load4(a + i) * load4(b + i);
      s += v;
      store4(m + i, load4(m + i) + wp * v);
    }
  } else {
    for (; i + 4 <= n; i += 4) s += load4(a + i) * load4(b + i);
  }
  double s0 = s.v[0];
  for (; i < n; ++i) {
    const double v = a[i] * b[i];
    s0 += v;
    if (m) m[i] += w * v;
  }
  return (s0 + s.v[1]) + (s.v[2] + s.v[3]);
}

inline double exponent(const Scores& s, std::size_t i, double y, double b, double lb) {
  return s.lx[i] * (y / b) + s.l1x[i] * ((1 - y) / b) - lb;
}

// e[i] = exponent(s, i, y, b, lb) for every score (plus its log weight, lw).
IRTOPICS_PACK_INLINE void exponents(const Scores& s, double y, double b, double lb, double* e) {
  const double u = y / b, v = (1 - y) / b;
  const pk::Pk up(u), vp(v), lbp(lb);
  std::size_t i = 0;
  for (; i + 4 <= s.n; i += 4) store4(e + i, load4(s.lx + i) * up + load4(s.l1x + i) * vp - lbp);
  for (; i < s.n; ++i) e[i] = s.lx[i] * u + s.l1x[i] * v - lb;
  if (s.lw) {
    for (i = 0; i + 4 <= s.n; i += 4) store4(e + i, load4(e + i) + load4(s.lw + i));
    for (; i < s.n; ++i) e[i] += s.lw[i];
  }
}

// out[i] = a * v[i], or 1 / v[i] (recip), for i < n.
IRTOPICS_PACK_INLINE void scale_array(double a, const double* v, double* out, std::size_t n) {
  const pk::Pk ap(a);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) store4(out + i, ap * load4(v + i));
  for (; i < n; ++i) out[i] = a * v[i];
}
IRTOPICS_PACK_INLINE void recip_array(const double* v, double* out, std::size_t n) {
  const pk::Pk one(1.0);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) store4(out + i, one / load4(v + i));
  for (; i < n; ++i) out[i] = 1 / v[i];
}

// f[k] = sum_i K_i(node k); m[i] = sum_k w[k] K_i(node k) (when nodes.w is not null).
IRTOPICS_PACK_INLINE Counts node_sums_body(const Scores& s, double b, const Nodes& nodes, double* f, double* m,
                                           CancelToken* cancel) {
  const std::size_t n = s.n, G = nodes.rule;
  Counts cnt;
  std::vector<double> D(n), T(n), step(n), Q(n * G), E(n);
  std::vector<double> ones;  // for dot_add() in the direct formula: filled on its first use
  double dmin = 0, dmax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    D[i] = (s.lx[i] - s.l1x[i]) / b;
    dmin = i ? std::min(dmin, D[i]) : D[i];
    dmax = i ? std::max(dmax, D[i]) : D[i];
  }
  if (m) std::fill(m, m + n, 0.0);
  auto bound = [&](double d, double dlb) {
    return std::max(std::fabs(d * dmin + dlb), std::fabs(d * dmax + dlb));
  };
  bool chained = false;  // T holds K_i(centre of the previous interval)
  double grown = 0, last_half = -1, last_step = -1;
  int steps = 0;
  for (std::size_t k = 0; k < nodes.n_int; ++k) {
    if (k % 64 == 0) throw_if_cancelled(cancel);
    const double c = nodes.centre[k], h = nodes.half[k], lbc = nodes.lb_centre[k];
    const double* lbn = nodes.lb_node + k * G;
    double reach = 0;
    for (std::size_t g = 0; g < G; ++g) reach = std::max(reach, bound(h * nodes.offset[g], lbc - lbn[g]));
    if (reach > kGrowth) {
      // nodes too far from the centre: the direct formula, node by node
      if (ones.empty()) ones.assign(n, 1.0);
      for (std::size_t g = 0; g < G; ++g) {
        const std::size_t node = k * G + g;
        exponents(s, nodes.y[node], b, lbn[g], E.data());
        exp_array(E.data(), E.data(), n);
        f[node] = dot_add(E.data(), ones.data(), m, m ? nodes.w[node] : 0.0, n);
      }
      cnt.values += double(n) * G;
      cnt.exps += double(n) * G;
      chained = false;
      continue;
    }
    // the centre's values: chained from the previous centre, or direct
    if (chained) {
      const double dc = c - nodes.centre[k - 1], dlb = nodes.lb_centre[k - 1] - lbc;
      grown += bound(dc, dlb);
      chained = grown + reach <= kGrowth && steps < kChainSteps;
      if (chained) {
        if (dc != last_step) {
          scale_array(dc, D.data(), step.data(), n);
          exp_array(step.data(), step.data(), n);
          cnt.exps += double(n);
          last_step = dc;
        }
        const pk::Pk e(std::exp(dlb));
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) store4(&T[i], load4(&T[i]) * (load4(&step[i]) * e));
        for (; i < n; ++i) T[i] *= step[i] * e.v[0];
        ++steps;
      }
    }
    if (!chained) {
      exponents(s, c, b, lbc, T.data());
      exp_array(T.data(), T.data(), n);
      cnt.exps += double(n);
      grown = 0;
      steps = 0;
      chained = true;
    }
    if (h != last_half) {
      // the rule is symmetric: exp(-d D_i) = 1 / exp(d D_i), and 1 at its middle node
      for (std::size_t g = 0; g < G; ++g) {
        const std::size_t mirror = G - 1 - g;
        double* q = &Q[g * n];
        if (nodes.offset[g] == 0) {
          std::fill(q, q + n, 1.0);
        } else if (mirror < g && nodes.offset[mirror] == -nodes.offset[g]) {
          const double* qm = &Q[mirror * n];
          recip_array(qm, q, n);
        } else {
          const double d = h * nodes.offset[g];
          scale_array(d, D.data(), q, n);
          exp_array(q, q, n);
          cnt.exps += double(n);
        }
      }
      last_half = h;
    }
    for (std::size_t g = 0; g < G; ++g) {
      const std::size_t node = k * G + g;
      const double e = std::exp(lbc - lbn[g]);
      f[node] = e * dot_add(T.data(), &Q[g * n], m, m ? nodes.w[node] * e : 0.0, n);
    }
    cnt.values += double(n) * G;
  }
  return cnt;
}

inline Counts node_sums(const Scores& s, double b, const Nodes& nodes, double* f, double* m,
                        CancelToken* cancel = nullptr) {
  return pk::packed_call([&]() IRTOPICS_BK_LAMBDA_INLINE { return node_sums_body(s, b, nodes, f, m, cancel); });
}

// At the scores themselves, sorted increasingly (y = x, lb_at[j] = lbeta at
// x_j): sum[j] = sum_i K_i(x_j), own[j] = K_j(x_j). The exponent rises with
// i up to j and falls after it, so the ends of the run within e^-kWindow of
// the largest are found by bisection; the run's exponents are then computed,
// exponentiated and added four at a time.
IRTOPICS_PACK_INLINE Counts score_sums_body(const Scores& s, const double* x, double b, const double* lb_at,
                                            double* sum, double* own, CancelToken* cancel) {
  const std::size_t n = s.n;
  Counts cnt;
  std::vector<double> E(n);
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 64 == 0) throw_if_cancelled(cancel);
    const double u = x[j] / b, v = (1 - x[j]) / b, lbj = lb_at[j];
    const double floor = (s.lx[j] * u + s.l1x[j] * v - lbj) - kWindow;
    auto inside = [&](std::size_t i) { return !(s.lx[i] * u + s.l1x[i] * v - lbj < floor); };
    std::size_t lo = 0, top = j;  // the first index inside on [0, j]
    while (lo < top) {
      const std::size_t mid = lo + (top - lo) / 2;
      if (inside(mid)) top = mid; else lo = mid + 1;
    }
    std::size_t hi = j + 1, end = n;  // the first index outside after j
    while (hi < end) {
      const std::size_t mid = hi + (end - hi) / 2;
      if (inside(mid)) hi = mid + 1; else end = mid;
    }
    const Scores run{s.lx + lo, s.l1x + lo, hi - lo, s.lw ? s.lw + lo : nullptr};
    double* K = E.data() + lo;
    const std::size_t used = hi - lo;
    exponents(run, x[j], b, lbj, K);
    exp_array(K, K, used);
    pk::Pk acc;
    std::size_t i = 0;
    for (; i + 4 <= used; i += 4) acc += load4(K + i);
    double t0 = acc.v[0];
    for (; i < used; ++i) t0 += K[i];
    sum[j] = (t0 + acc.v[1]) + (acc.v[2] + acc.v[3]);
    own[j] = E[j];
    cnt.values += double(n);
    cnt.exps += double(used);
  }
  return cnt;
}

inline Counts score_sums(const Scores& s, const double* x, double b, const double* lb_at, double* sum,
                         double* own, CancelToken* cancel = nullptr) {
  return pk::packed_call([&]() IRTOPICS_BK_LAMBDA_INLINE {
    return score_sums_body(s, x, b, lb_at, sum, own, cancel);
  });
}

// At any points y (n_y of them, lb_y[k] = lbeta at y[k]): out[k] = sum_i
// K_i(y[k]) (weighted by s.lw when given), every term by the direct formula.
// For binned scores and for densities at many points: n_y * n exponentials.
IRTOPICS_PACK_INLINE Counts point_sums_body(const Scores& s, const double* y, const double* lb_y, std::size_t n_y,
                                            double b, double* out, CancelToken* cancel) {
  Counts cnt;
  std::vector<double> E(s.n);
  for (std::size_t k = 0; k < n_y; ++k) {
    if (k % 16 == 0) throw_if_cancelled(cancel);
    exponents(s, y[k], b, lb_y[k], E.data());
    exp_array(E.data(), E.data(), s.n);
    pk::Pk acc;
    std::size_t i = 0;
    for (; i + 4 <= s.n; i += 4) acc += load4(&E[i]);
    double t0 = acc.v[0];
    for (; i < s.n; ++i) t0 += E[i];
    out[k] = (t0 + acc.v[1]) + (acc.v[2] + acc.v[3]);
    cnt.values += double(s.n);
    cnt.exps += double(s.n);
  }
  return cnt;
}

inline Counts point_sums(const Scores& s, const double* y, const double* lb_y, std::size_t n_y, double b,
                         double* out, CancelToken* cancel = nullptr) {
  return pk::packed_call([&]() IRTOPICS_BK_LAMBDA_INLINE {
    return point_sums_body(s, y, lb_y, n_y, b, out, cancel);
  });
}

// R's sum() and mean() of doubles (long double accumulation in index order;
// mean() adds the mean of the residuals, a second pass), so that the
// criterion below is the one R computed, to the bit.
inline double r_sum(const double* v, std::size_t n) {
  long double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += v[i];
  return static_cast<double>(s);
}

inline double r_mean(const double* v, std::size_t n) {
  long double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += v[i];
  s /= static_cast<long double>(n);
  if (std::isfinite(static_cast<double>(s))) {
    long double t = 0;
    for (std::size_t i = 0; i < n; ++i) t += v[i] - s;
    s += t / static_cast<long double>(n);
  }
  return static_cast<double>(s);
}

// What a criterion counts over its evaluations (counts(); add() each sum's).
class CountedCriterion {
 public:
  Counts counts() const { return cnt_; }

 protected:
  void add(const Counts& c) {
    cnt_.values += c.values;
    cnt_.exps += c.exps;
  }

 private:
  Counts cnt_;
};

// The log-beta terms of a criterion at bandwidth b: lbeta at q's nodes and
// centres (from `known` when given: nodes, then centres) and at the points
// x (into the buffers); the nodes with their terms.
template <typename LBeta>
Nodes lbeta_terms(const Nodes& q, double b, const double* known, LBeta& lbeta, const double* x, std::size_t n,
                  std::vector<double>& lb_node, std::vector<double>& lb_centre, std::vector<double>& lb_at) {
  const std::size_t nodes = q.n_int * q.rule;
  const double *node = known, *centre = known ? known + nodes : nullptr;
  if (!known) {
    for (std::size_t k = 0; k < nodes; ++k) lb_node[k] = lbeta(q.y[k] / b + 1, (1 - q.y[k]) / b + 1);
    for (std::size_t k = 0; k < q.n_int; ++k) lb_centre[k] = lbeta(q.centre[k] / b + 1, (1 - q.centre[k]) / b + 1);
    node = lb_node.data();
    centre = lb_centre.data();
  }
  for (std::size_t j = 0; j < n; ++j) lb_at[j] = lbeta(x[j] / b + 1, (1 - x[j]) / b + 1);
  return Nodes{q.y, node, q.w, q.centre, q.half, centre, q.offset, q.n_int, q.rule};
}

// The least-squares cross-validation criterion of the bandwidth
// (R/calibration-kernels.R, bk_cv()): int f^2 - 2 mean(f_-i(x_i)), both
// renormalised, at log bandwidth lb, formed in R's order of operations.
// `lbeta(a, b)` is the log-beta function the R code used (R's lbeta(), passed
// in by the glue). x: the capped scores, sorted; s their logs; q the
// weighted quadrature, whose log-beta terms (they depend on the bandwidth)
// are not read: they are computed here at each bandwidth, unless the call
// gives them (`known`: lbeta at q's nodes, then at its centres, for this
// bandwidth; the grid's are the same for every set of scores).
template <typename LBeta>
class LscvCriterion : public CountedCriterion {
 public:
  LscvCriterion(const Scores& s, const double* x, const Nodes& q, LBeta lbeta, CancelToken* cancel = nullptr)
      : s_(s), x_(x), q_(q), lbeta_(lbeta), cancel_(cancel), lb_node_(q.n_int * q.rule), lb_centre_(q.n_int), lb_at_(s.n),
        f_(q.n_int * q.rule), m_(s.n), sum_(s.n), own_(s.n), terms_(std::max(s.n, q.n_int * q.rule)) {}

  double operator()(double lb, const double* known = nullptr) {
    const std::size_t n = s_.n, nodes = q_.n_int * q_.rule;
    const double b = std::exp(lb);
    const Nodes nd = lbeta_terms(q_, b, known, lbeta_, x_, n, lb_node_, lb_centre_, lb_at_);
    add(node_sums(s_, b, nd, f_.data(), m_.data(), cancel_));
    const double nd_n = static_cast<double>(n);
    for (std::size_t k = 0; k < nodes; ++k) f_[k] /= nd_n;
    const double C = r_mean(m_.data(), n);
    add(score_sums(s_, x_, b, lb_at_.data(), sum_.data(), own_.data(), cancel_));
    for (std::size_t i = 0; i < n; ++i) terms_[i] = (sum_[i] - own_[i]) / (nd_n * C - m_[i]);
    const double loo = r_mean(terms_.data(), n);
    for (std::size_t k = 0; k < nodes; ++k) terms_[k] = q_.w[k] * (f_[k] * f_[k]);
    return r_sum(terms_.data(), nodes) / (C * C) - 2 * loo;
  }

 private:
  const Scores& s_;
  const double* x_;
  const Nodes& q_;
  LBeta lbeta_;
  CancelToken* cancel_;
  std::vector<double> lb_node_, lb_centre_, lb_at_, f_, m_, sum_, own_, terms_;
};

// The criterion on binned scores (the grid's points x with weights w, their
// logs and log weights in s; n_scores = the sum of the weights): the same
// formula with every score replaced by its share of the grid points, the
// leave-one-out term of a point removing one unit of its weight:
//   int f^2 / C^2 - 2 / n sum_g w_g (S_g - K_g(x_g)) / (n C - m_g),
// S_g the weighted sum at x_g, m_g a point's kernel integrated by q, C =
// sum_g w_g m_g / n. Its cost is the grid's (points^2 + nodes * points).
template <typename LBeta>
class BinnedLscvCriterion : public CountedCriterion {
 public:
  BinnedLscvCriterion(const Scores& s, const double* x, const double* w, double n_scores, const Nodes& q, LBeta lbeta,
                      CancelToken* cancel = nullptr)
      : s_(s), x_(x), w_(w), n_(n_scores), q_(q), lbeta_(lbeta), cancel_(cancel), lb_node_(q.n_int * q.rule),
        lb_centre_(q.n_int), lb_at_(s.n), f_(q.n_int * q.rule), m_(s.n), sum_(s.n) {}

  double operator()(double lb, const double* known = nullptr) {
    const std::size_t g = s_.n, nodes = q_.n_int * q_.rule;
    const double b = std::exp(lb);
    const Nodes nd = lbeta_terms(q_, b, known, lbeta_, x_, g, lb_node_, lb_centre_, lb_at_);
    add(node_sums(s_, b, nd, f_.data(), m_.data(), cancel_));  // weighted: m_[j] = w_j m_j
    for (std::size_t k = 0; k < nodes; ++k) f_[k] /= n_;
    long double mc = 0;
    for (std::size_t j = 0; j < g; ++j) mc += m_[j];
    const double C = static_cast<double>(mc / n_);
    add(point_sums(s_, x_, lb_at_.data(), g, b, sum_.data(), cancel_));
    long double loo = 0;
    for (std::size_t j = 0; j < g; ++j) {
      const double own = std::exp(s_.lx[j] * (x_[j] / b) + s_.l1x[j] * ((1 - x_[j]) / b) - lb_at_[j]);
      loo += w_[j] * ((sum_[j] - own) / (n_ * C - m_[j] / w_[j]));
    }
    long double ff = 0;
    for (std::size_t k = 0; k < nodes; ++k) ff += q_.w[k] * (f_[k] * f_[k]);
    return static_cast<double>(ff) / (C * C) - 2 * static_cast<double>(loo / n_);
  }

 private:
  const Scores& s_;
  const double* x_;
  const double* w_;
  double n_;
  const Nodes& q_;
  LBeta lbeta_;
  CancelToken* cancel_;
  std::vector<double> lb_node_, lb_centre_, lb_at_, f_, m_, sum_;
};

// Brent's minimisation without derivatives (Brent 1973, "Algorithms for
// minimization without derivatives", chapter 5) of f on [lo, hi] with the
// absolute tolerance tol, step for step as stats::optimize() takes it (the
// same golden ratio, tolerances, tests and updates, so the same points), and
// as optimize() a value that is not finite counts as the largest double.
// Returns the argmin; fmin_raw is f there as computed (optimize()'s
// `objective`).
template <typename F>
double brent_optimize(F&& f, double lo, double hi, double tol, double& fmin_raw) {
  const double golden = (3. - std::sqrt(5.)) * .5;
  const double eps = std::sqrt(std::numeric_limits<double>::epsilon());
  const double tol3 = tol / 3.;
  double raw = 0;
  auto eval = [&](double at) {
    raw = f(at);
    return std::isfinite(raw) ? raw : std::numeric_limits<double>::max();
  };
  double a = lo, b = hi;
  double x = a + golden * (b - a), w = x, v = x;
  double fx = eval(x), fw = fx, fv = fx, x_raw = raw;
  double d = 0., e = 0.;
  for (;;) {
    const double xm = (a + b) * .5;
    const double tol1 = eps * std::fabs(x) + tol3, t2 = tol1 * 2.;
    if (std::fabs(x - xm) <= t2 - (b - a) * .5) break;
    double p = 0., q = 0., r = 0.;
    if (std::fabs(e) > tol1) {  // a parabola through x, w, v
      r = (x - w) * (fx - fv);
      q = (x - v) * (fx - fw);
      p = (x - v) * q - (x - w) * r;
      q = (q - r) * 2.;
      if (q > 0.) p = -p; else q = -q;
      r = e;
      e = d;
    }
    double u;
    if (std::fabs(p) >= std::fabs(q * .5 * r) || p <= q * (a - x) || p >= q * (b - x)) {
      e = x < xm ? b - x : a - x;  // golden section
      d = golden * e;
    } else {  // the parabola's minimum, not too near the ends
      u = x + p / q;
      d = p / q;
      if (u - a < t2 || b - u < t2) d = x >= xm ? -tol1 : tol1;
    }
    if (std::fabs(d) >= tol1) u = x + d;
    else if (d > 0.) u = x + tol1;
    else u = x - tol1;
    const double fu = eval(u);
    if (fu <= fx) {
      if (u < x) b = x; else a = x;
      v = w; fv = fw;
      w = x; fw = fx;
      x = u; fx = fu; x_raw = raw;
    } else {
      if (u < x) a = u; else b = u;
      if (fu <= fw || w == x) {
        v = w; fv = fw;
        w = u; fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u; fv = fu;
      }
    }
  }
  fmin_raw = x_raw;
  return x;
}

// The LSCV bandwidth (bk_bandwidth(rule = "lscv")): the criterion on the
// grid of log bandwidths, then Brent between the best value's neighbours;
// the refined point when its value is below the grid's best. `found` is
// false when no grid value is finite (the fit fails). grid_lbeta (may be
// null): for each grid point in turn, lbeta at q's nodes and centres there
// (n_int * (rule + 1) values), as the criterion would compute them.
struct LscvResult {
  double bandwidth = 0;
  bool found = false;
  bool replaced = false;  // a value that was not finite counted as the largest double
  Counts counts;
};

// The search on any criterion cv(lb, known) with counts() (LscvCriterion,
// BinnedLscvCriterion).
template <typename Criterion>
LscvResult lscv_search(Criterion& cv, const Nodes& q, const double* grid, std::size_t n_grid, double tol,
                       const double* grid_lbeta) {
  LscvResult out;
  std::vector<double> vals(n_grid);
  std::size_t k = n_grid;  // which.min(): the first smallest, NaN skipped
  const std::size_t known = q.n_int * (q.rule + 1);
  for (std::size_t g = 0; g < n_grid; ++g) {
    vals[g] = cv(grid[g], grid_lbeta ? grid_lbeta + g * known : nullptr);
    if (!std::isnan(vals[g]) && (k == n_grid || vals[g] < vals[k])) k = g;
    if (std::isfinite(vals[g])) out.found = true;
  }
  if (!out.found) {
    out.counts = cv.counts();
    return out;
  }
  const double lo = grid[k > 0 ? k - 1 : 0], hi = grid[std::min(k + 1, n_grid - 1)];
  double objective = 0;
  const double best = brent_optimize(
      [&](double lb) {
        const double v = cv(lb);
        if (!std::isfinite(v)) out.replaced = true;
        return v;
      },
      lo, hi, tol, objective);
  out.bandwidth = std::exp(std::isfinite(objective) && objective < vals[k] ? best : grid[k]);
  out.counts = cv.counts();
  return out;
}

template <typename LBeta>
LscvResult lscv_bandwidth(const Scores& s, const double* x, const Nodes& q, const double* grid,
                          std::size_t n_grid, double tol, LBeta lbeta, CancelToken* cancel = nullptr,
                          const double* grid_lbeta = nullptr) {
  LscvCriterion<LBeta> cv(s, x, q, lbeta, cancel);
  return lscv_search(cv, q, grid, n_grid, tol, grid_lbeta);
}

// The same on binned scores (s.lw must be given; x, w: the grid points and
// weights; n_scores: the weights' sum).
template <typename LBeta>
LscvResult lscv_bandwidth_binned(const Scores& s, const double* x, const double* w, double n_scores, const Nodes& q,
                                 const double* grid, std::size_t n_grid, double tol, LBeta lbeta,
                                 CancelToken* cancel = nullptr, const double* grid_lbeta = nullptr) {
  BinnedLscvCriterion<LBeta> cv(s, x, w, n_scores, q, lbeta, cancel);
  return lscv_search(cv, q, grid, n_grid, tol, grid_lbeta);
}

}  // namespace beta_kernel
}  // namespace irtopics

#endif
