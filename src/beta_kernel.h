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
#include <vector>

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
inline Counts node_sums(const Scores& s, double b, const Nodes& nodes, double* f, double* m) {
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
                         double* own) {
  const std::size_t n = s.n;
  Counts cnt;
  for (std::size_t j = 0; j < n; ++j) {
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

}  // namespace beta_kernel
}  // namespace irtopics

#endif
