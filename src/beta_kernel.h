// Sums of Chen's beta kernels (Chen 1999, "Beta kernel estimators for density
// functions", CSDA 31:131-145): the kernel of score x_i at y is
//   K_i(y) = dbeta(x_i; y/b + 1, (1 - y)/b + 1)
//          = exp((y/b) log x_i + ((1 - y)/b) log(1 - x_i) - lbeta(y/b + 1, (1 - y)/b + 1)).
// The margin family "beta_kernel" (R/calibration-kernels.R) needs sums over
// the scores at Gauss-Legendre nodes (density, mass, CDF) and at the scores
// themselves (cross-validation, likelihood). Both are computed here with as
// few exp() calls as exactness allows; R supplies the log-beta terms (R's
// lbeta(), so that the exponents are the ones R computed before).
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
// Pure C++: no R types.
#ifndef IRTOPICS_BETA_KERNEL_H
#define IRTOPICS_BETA_KERNEL_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "cancel.h"

namespace irtopics {
namespace beta_kernel {

constexpr double kGrowth = 60.0;      // largest log-change of a term between direct evaluations
constexpr int kChainSteps = 64;       // longest chain of centres between direct evaluations
constexpr double kWindow = 40.0;      // terms below e^-kWindow of the largest are skipped

// The scores' logs: lx = log x_i, l1x = log(1 - x_i) (x capped inside (0, 1)).
struct Scores {
  const double* lx;
  const double* l1x;
  std::size_t n;
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

// sum_i a_i b_i, and m_i += w a_i b_i when m is not null: four running sums
// (the additions overlap), one pass.
inline double dot_add(const double* __restrict a, const double* __restrict b, double* __restrict m, double w,
                      std::size_t n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::size_t i = 0;
  if (m) {
    for (; i + 4 <= n; i += 4) {
      const double v0 = a[i] * b[i], v1 = a[i + 1] * b[i + 1], v2 = a[i + 2] * b[i + 2], v3 = a[i + 3] * b[i + 3];
      s0 += v0;
      s1 += v1;
      s2 += v2;
      s3 += v3;
      m[i] += w * v0;
      m[i + 1] += w * v1;
      m[i + 2] += w * v2;
      m[i + 3] += w * v3;
    }
    for (; i < n; ++i) {
      const double v = a[i] * b[i];
      s0 += v;
      m[i] += w * v;
    }
  } else {
    for (; i + 4 <= n; i += 4) {
      s0 += a[i] * b[i];
      s1 += a[i + 1] * b[i + 1];
      s2 += a[i + 2] * b[i + 2];
      s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i) s0 += a[i] * b[i];
  }
  return (s0 + s1) + (s2 + s3);
}

inline double exponent(const Scores& s, std::size_t i, double y, double b, double lb) {
  return s.lx[i] * (y / b) + s.l1x[i] * ((1 - y) / b) - lb;
}

// f[k] = sum_i K_i(node k); m[i] = sum_k w[k] K_i(node k) (when nodes.w is not null).
inline Counts node_sums(const Scores& s, double b, const Nodes& nodes, double* f, double* m,
                        CancelToken* cancel = nullptr) {
  const std::size_t n = s.n, G = nodes.rule;
  Counts cnt;
  std::vector<double> D(n), T(n), step(n), Q(n * G);
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
      for (std::size_t g = 0; g < G; ++g) {
        const std::size_t node = k * G + g;
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i) {
          const double kv = std::exp(exponent(s, i, nodes.y[node], b, lbn[g]));
          sum += kv;
          if (m) m[i] += nodes.w[node] * kv;
        }
        f[node] = sum;
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
          for (std::size_t i = 0; i < n; ++i) step[i] = std::exp(dc * D[i]);
          cnt.exps += double(n);
          last_step = dc;
        }
        const double e = std::exp(dlb);
        double* __restrict t = T.data();
        const double* __restrict st = step.data();
        for (std::size_t i = 0; i < n; ++i) t[i] *= st[i] * e;
        ++steps;
      }
    }
    if (!chained) {
      for (std::size_t i = 0; i < n; ++i) T[i] = std::exp(exponent(s, i, c, b, lbc));
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
          for (std::size_t i = 0; i < n; ++i) q[i] = 1 / qm[i];
        } else {
          const double d = h * nodes.offset[g];
          for (std::size_t i = 0; i < n; ++i) q[i] = std::exp(d * D[i]);
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

// At the scores themselves, sorted increasingly (y = x, lb_at[j] = lbeta at
// x_j): sum[j] = sum_i K_i(x_j), own[j] = K_j(x_j).
inline Counts score_sums(const Scores& s, const double* x, double b, const double* lb_at, double* sum,
                         double* own, CancelToken* cancel = nullptr) {
  const std::size_t n = s.n;
  Counts cnt;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % 64 == 0) throw_if_cancelled(cancel);
    const double top = exponent(s, j, x[j], b, lb_at[j]);
    const double ej = std::exp(top);
    double total = ej;
    std::size_t used = 1;
    for (std::size_t i = j; i-- > 0;) {
      const double e = exponent(s, i, x[j], b, lb_at[j]);
      if (e < top - kWindow) break;
      total += std::exp(e);
      ++used;
    }
    for (std::size_t i = j + 1; i < n; ++i) {
      const double e = exponent(s, i, x[j], b, lb_at[j]);
      if (e < top - kWindow) break;
      total += std::exp(e);
      ++used;
    }
    sum[j] = total;
    own[j] = ej;
    cnt.values += double(n);
    cnt.exps += double(used);
  }
  return cnt;
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

// The least-squares cross-validation criterion of the bandwidth
// (R/calibration-kernels.R, bk_cv()): int f^2 - 2 mean(f_-i(x_i)), both
// renormalised, at log bandwidth lb, formed in R's order of operations.
// `lbeta(a, b)` is the log-beta function the R code used (R's lbeta(), passed
// in by the glue). x: the capped scores, sorted; s their logs; q the
// weighted quadrature, whose log-beta terms (they depend on the bandwidth)
// are not read: they are computed here at each bandwidth.
template <typename LBeta>
class LscvCriterion {
 public:
  LscvCriterion(const Scores& s, const double* x, const Nodes& q, LBeta lbeta, CancelToken* cancel = nullptr)
      : s_(s), x_(x), q_(q), lbeta_(lbeta), cancel_(cancel), lb_node_(q.n_int * q.rule), lb_centre_(q.n_int), lb_at_(s.n),
        f_(q.n_int * q.rule), m_(s.n), sum_(s.n), own_(s.n), terms_(std::max(s.n, q.n_int * q.rule)) {}

  double operator()(double lb) {
    const std::size_t n = s_.n, nodes = q_.n_int * q_.rule;
    const double b = std::exp(lb);
    for (std::size_t k = 0; k < nodes; ++k) lb_node_[k] = lbeta_(q_.y[k] / b + 1, (1 - q_.y[k]) / b + 1);
    for (std::size_t k = 0; k < q_.n_int; ++k) {
      lb_centre_[k] = lbeta_(q_.centre[k] / b + 1, (1 - q_.centre[k]) / b + 1);
    }
    for (std::size_t j = 0; j < n; ++j) lb_at_[j] = lbeta_(x_[j] / b + 1, (1 - x_[j]) / b + 1);
    const Nodes nd{q_.y, lb_node_.data(), q_.w, q_.centre, q_.half, lb_centre_.data(), q_.offset, q_.n_int, q_.rule};
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

  Counts counts() const { return cnt_; }

 private:
  void add(const Counts& c) {
    cnt_.values += c.values;
    cnt_.exps += c.exps;
  }
  const Scores& s_;
  const double* x_;
  const Nodes& q_;
  LBeta lbeta_;
  CancelToken* cancel_;
  std::vector<double> lb_node_, lb_centre_, lb_at_, f_, m_, sum_, own_, terms_;
  Counts cnt_;
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
// false when no grid value is finite (the fit fails).
struct LscvResult {
  double bandwidth = 0;
  bool found = false;
  bool replaced = false;  // a value that was not finite counted as the largest double
  Counts counts;
};

template <typename LBeta>
LscvResult lscv_bandwidth(const Scores& s, const double* x, const Nodes& q, const double* grid,
                          std::size_t n_grid, double tol, LBeta lbeta, CancelToken* cancel = nullptr) {
  LscvResult out;
  LscvCriterion<LBeta> cv(s, x, q, lbeta, cancel);
  std::vector<double> vals(n_grid);
  std::size_t k = n_grid;  // which.min(): the first smallest, NaN skipped
  for (std::size_t g = 0; g < n_grid; ++g) {
    vals[g] = cv(grid[g]);
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

}  // namespace beta_kernel
}  // namespace irtopics

#endif
