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
#include <vector>

#include "cancel.h"

namespace irtopics {

enum class GawmMean : int { arithmetic = 0, geometric = 1, power = 2 };

// The generator g of a quasi-arithmetic mean and its inverse.
struct GawmMeanKernel {
  GawmMean kind = GawmMean::arithmetic;
  double floor = 0;     // added to the scores before g (geometric, power)
  double exponent = 1;  // p of the power mean
  double forward(double x) const {
    switch (kind) {
      case GawmMean::geometric: return std::log(x + floor);
      case GawmMean::power: return std::pow(x + floor, exponent);
      default: return x;
    }
  }
  double inverse(double y) const {
    switch (kind) {
      case GawmMean::geometric: return std::exp(y);
      case GawmMean::power: return std::pow(y, 1.0 / exponent);
      default: return y;
    }
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

// W_s from E_t (eq. 8): d_i = ||P[i, ] - E_t||_2, W_s[i] = (1 - d_i / sum d)^q.
// All d_i = 0 (every system equals the ease vector) gives W_s = 1.
inline void gawm_system_weights(const double* p, std::size_t m, std::size_t n,
                                const std::vector<double>& ease, double q,
                                std::vector<double>& dist, std::vector<double>& ws) {
  std::fill(dist.begin(), dist.end(), 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = p + j * m;
    const double e = ease[j];
    for (std::size_t i = 0; i < m; ++i) {
      const double r = col[i] - e;
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
// (g(P), column-major), mapped back by the kernel's inverse. Returns false
// when sum W_s = 0.
inline bool gawm_topic_ease(const double* g, std::size_t m, std::size_t n,
                            const std::vector<double>& ws, const GawmMeanKernel& kernel,
                            std::vector<double>& ease) {
  double wsum = 0;
  for (std::size_t i = 0; i < m; ++i) wsum += ws[i];
  if (!(wsum > 0)) return false;
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = g + j * m;
    double acc = 0;
    for (std::size_t i = 0; i < m; ++i) acc += ws[i] * col[i];
    ease[j] = kernel.inverse(acc / wsum);
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
  std::vector<double> ease(n), next(n), dist(m), ws(m, 1.0);
  detail::gawm_topic_ease(g, m, n, ws, kernel, ease);  // uniform weights: AAP

  for (int it = 1; it <= maxit; ++it) {
    throw_if_cancelled(cancel);
    detail::gawm_system_weights(p, m, n, ease, q, dist, ws);
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
  detail::gawm_system_weights(p, m, n, ease, q, dist, ws);
  std::vector<double> wt(n, 0.0);
  double wt_sum = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const double* col = p + j * m;
    double ss = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const double r = col[i] - ease[j];
      ss += r * r;
    }
    wt[j] = std::sqrt(ss);  // eq. 7
    wt_sum += wt[j];
  }
  // E_s (eq. 1); if no topic spreads the systems (sum W_t = 0), E_s is the
  // unweighted mean (MAP for the arithmetic mean).
  std::vector<double> es(m, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    const double w = wt_sum > 0 ? wt[j] / wt_sum : 1.0 / static_cast<double>(n);
    const double* col = g + j * m;
    for (std::size_t i = 0; i < m; ++i) es[i] += w * col[i];
  }
  for (std::size_t i = 0; i < m; ++i) es[i] = kernel.inverse(es[i]);

  out.system_performance = es;
  out.system_conformity = ws;
  out.topic_ease = ease;
  out.topic_discernment = wt;
  return out;
}

}  // namespace irtopics

#endif
