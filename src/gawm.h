// Generalized adaptive-weight mean, GAWM (Lee, Kazai, Vinay, Milic-Frayling,
// Mendes Rodrigues, Ignjatovic, CIKM 2009), with the paper's choices of
// section 4.1: weighted arithmetic means (eq. 1, 2), Euclidean dispersion
// (eq. 7) and the proximity of eq. 8 with spreading factor q. Spec section
// 3.1: W_t and W_s depend on E_t only, so the fixed point is iterated in E_t
// alone, starting from uniform system weights (E_t = column means), until
// max_j |E_t_new[j] - E_t[j]| < tol; W_s, W_t and then E_s are read off the
// final E_t.
//
// The means of eq. 1-2 may also be quasi-arithmetic: E = g^-1(sum w g(x) /
// sum w) with g(x) = ln(x + floor) (geometric; the reading that reproduces
// the paper's Table 2, spec 3.1) or g(x) = (x + floor)^p (power mean, p != 0).
// g is applied once to the whole matrix; the distances of eq. 7-8 stay on the
// raw scores.
//
// Pure C++: no R types. The score matrix is column-major (R's layout), m
// systems in rows and n topics in columns.
#ifndef IRTOPICS_GAWM_H
#define IRTOPICS_GAWM_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "cancel.h"

namespace irtopics {

enum class GawmMean : int { arithmetic = 0, geometric = 1, power = 2 };

// The generator g of a quasi-arithmetic mean, applied once to every score
// (forward), and the weighted mean of transformed values (mean).
//
// The power mean is computed in the log domain, so that it is accurate for
// every exponent in [-1000, 1000], including the limit p -> 0 (where the
// plain formula (sum w (x + f)^p / sum w)^(1/p) rounds (x + f)^p to 1 and
// returns 2e-10, 0 or Inf for p = 1e-17). With y = ln(x + f), u = p y and
// u_max the largest u:
//   ln M_p = [u_max + log1p(sum (w / sum w) expm1(u - u_max))] / p.
// Every expm1 argument is <= 0 (no overflow for large p), and for small p
// expm1(v) ~ v and log1p(s) ~ s keep full relative precision, so ln M_p
// tends to the weighted mean of y: the geometric mean, the exact limit.
struct GawmMeanKernel {
  GawmMean kind = GawmMean::arithmetic;
  double floor = 0;     // added to the scores before g (geometric, power)
  double exponent = 1;  // p of the power mean
  double forward(double x) const {
    return kind == GawmMean::arithmetic ? x : std::log(x + floor);  // power: y = ln(x + f)
  }
  // The weighted mean of the k transformed values get(0..k-1) with weights
  // w[0..k-1] (all >= 0, sum wsum > 0).
  template <typename Get>
  double mean(Get get, const double* w, std::size_t k, double wsum) const {
    if (kind != GawmMean::power) {
      double acc = 0;
      for (std::size_t i = 0; i < k; ++i) acc += w[i] * get(i);
      acc /= wsum;
      return kind == GawmMean::geometric ? std::exp(acc) : acc;
    }
    const double p = exponent;
    double umax = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < k; ++i) {
      if (w[i] > 0) umax = std::max(umax, p * get(i));
    }
    // Every weighted score is 0 (x + f = 0, only possible for p > 0).
    if (umax == -std::numeric_limits<double>::infinity()) return 0.0;
    double s = 0;
    for (std::size_t i = 0; i < k; ++i) {
      if (w[i] > 0) s += (w[i] / wsum) * std::expm1(p * get(i) - umax);
    }
    return std::exp((umax + std::log1p(s)) / p);
  }
};

struct GawmResult {
  std::vector<double> system_performance;  // E_s, length m
  std::vector<double> system_conformity;   // W_s, length m
  std::vector<double> topic_ease;          // E_t, length n
  std::vector<double> topic_discernment;   // W_t, length n
  int iterations = 0;
  bool converged = false;
  double change = 0;                       // last max |E_t_new - E_t|
  bool weights_vanished = false;           // every W_s underflowed to 0 (huge q)
};

namespace detail {

// The power of two at or just below max |p| (1 for an all-zero matrix).
// Distances are summed over (x - e) / scale: dividing by a power of two is
// exact, so the result is bit-identical to the unscaled sums wherever those
// neither underflow nor overflow, and right where they would (scores around
// 1e-300 square to 0; around 1e200 to Inf).
inline double gawm_scale(const double* p, std::size_t size) {
  double mx = 0;
  for (std::size_t k = 0; k < size; ++k) mx = std::max(mx, std::fabs(p[k]));
  if (!(mx > 0) || !std::isfinite(mx)) return 1.0;
  int e = 0;
  std::frexp(mx, &e);  // mx = f 2^e, f in [0.5, 1)
  return std::ldexp(1.0, e - 1);
}

// W_s from E_t (eq. 8): d_i = ||P[i, ] - E_t||_2, W_s[i] = (1 - d_i / sum d)^q.
// All d_i = 0 (every system equals the ease vector) gives W_s = 1. The
// distances are computed in units of `scale` (gawm_scale); their ratios do
// not depend on it.
inline void gawm_system_weights(const double* p, std::size_t m, std::size_t n,
                                const std::vector<double>& ease, double q, double scale,
                                std::vector<double>& dist, std::vector<double>& ws) {
  std::fill(dist.begin(), dist.end(), 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = p + j * m;
    const double e = ease[j];
    for (std::size_t i = 0; i < m; ++i) {
      const double r = (col[i] - e) / scale;
      dist[i] += r * r;
    }
  }
  double total = 0;
  for (std::size_t i = 0; i < m; ++i) {
    dist[i] = std::sqrt(dist[i]);
    total += dist[i];
  }
  for (std::size_t i = 0; i < m; ++i) {
    ws[i] = total > 0 ? std::pow(1.0 - dist[i] / total, q) : 1.0;
  }
}

// E_t = W_s-weighted column means (eq. 2) of the transformed scores `g`
// (g(P), column-major), by the kernel's mean. Returns false when sum W_s = 0.
inline bool gawm_topic_ease(const double* g, std::size_t m, std::size_t n,
                            const std::vector<double>& ws, const GawmMeanKernel& kernel,
                            std::vector<double>& ease) {
  double wsum = 0;
  for (std::size_t i = 0; i < m; ++i) wsum += ws[i];
  if (!(wsum > 0)) return false;
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = g + j * m;
    ease[j] = kernel.mean([col](std::size_t i) { return col[i]; }, ws.data(), m, wsum);
  }
  return true;
}

}  // namespace detail

// Runs the fixed-point iteration. Requires m >= 2 (the caller checks); for
// m >= 2 at least one system has d_i / sum d <= 1/2, so sum W_s > 0 unless
// (1 - d_i / sum d)^q underflows for every system (q in the thousands); the
// iteration then stops with weights_vanished set.
// The kernel's g must be finite on every score (the caller checks).
// Asks `cancel` (if given) before every iteration (with tol = 0 the loop may
// run maxit = 2^31 - 1 times); throws Cancelled.
inline GawmResult gawm(const double* p, std::size_t m, std::size_t n, double q,
                       double tol, int maxit, const GawmMeanKernel& kernel = GawmMeanKernel(),
                       CancelToken* cancel = nullptr) {
  GawmResult out;
  std::vector<double> transformed;
  const double* g = p;
  if (kernel.kind != GawmMean::arithmetic) {
    transformed.resize(m * n);
    for (std::size_t k = 0; k < m * n; ++k) transformed[k] = kernel.forward(p[k]);
    g = transformed.data();
  }
  const double scale = detail::gawm_scale(p, m * n);
  std::vector<double> ease(n), next(n), dist(m), ws(m, 1.0);
  detail::gawm_topic_ease(g, m, n, ws, kernel, ease);  // uniform weights: AAP

  for (int it = 1; it <= maxit; ++it) {
    throw_if_cancelled(cancel);
    detail::gawm_system_weights(p, m, n, ease, q, scale, dist, ws);
    if (!detail::gawm_topic_ease(g, m, n, ws, kernel, next)) {
      out.weights_vanished = true;
      return out;
    }
    double change = 0;
    for (std::size_t j = 0; j < n; ++j) change = std::max(change, std::fabs(next[j] - ease[j]));
    ease.swap(next);
    out.iterations = it;
    out.change = change;
    if (change < tol) {
      out.converged = true;
      break;
    }
  }

  // Final weights from the converged ease vector.
  detail::gawm_system_weights(p, m, n, ease, q, scale, dist, ws);
  std::vector<double> wt(n, 0.0);
  double wt_sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = p + j * m;
    double ss = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const double r = (col[i] - ease[j]) / scale;
      ss += r * r;
    }
    wt[j] = std::sqrt(ss) * scale;  // eq. 7 (exact rescaling: scale is a power of two)
    wt_sum += wt[j];
  }
  // E_s (eq. 1); if no topic spreads the systems (sum W_t = 0), E_s is the
  // unweighted mean (MAP for the arithmetic mean).
  std::vector<double> w(n);
  for (std::size_t j = 0; j < n; ++j) w[j] = wt_sum > 0 ? wt[j] / wt_sum : 1.0 / static_cast<double>(n);
  std::vector<double> es(m, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    es[i] = kernel.mean([g, i, m](std::size_t j) { return g[i + j * m]; }, w.data(), n, 1.0);
  }

  out.system_performance = es;
  out.system_conformity = ws;
  out.topic_ease = ease;
  out.topic_discernment = wt;
  return out;
}

}  // namespace irtopics

#endif
