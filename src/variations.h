// Liggett & Buckley (2005), "System performance and natural language
// expression of information needs", Inf. Retrieval 8:101-128, section 2-3 and
// appendix; equations reconstructed in spec section 1 (DERIVED):
//   1.2 AP of a list          AP = (1/n_R) sum_k k / r_(k)
//   1.3 N25 / exclusion       via n25.h
//   1.4 return-order midranks (unreturned documents tie at (n + 1 + n_R)/2)
//   1.5 Spearman with Gibbons' tie correction = Pearson correlation of the
//       midranks; delta = sqrt(2(1 - s)) = Euclidean distance of the
//       centred, unit-length midrank vectors; the untied formula
//       1 - 6 sum d^2 / (n^3 - n) as an option
//   1.7 uniformity, centering, sphericity from the double-centred matrix
//       B = -1/2 J D2 J of squared dissimilarities.
// Pure C++ (Eigen only): no R API.
#ifndef IRTOPICS_VARIATIONS_H
#define IRTOPICS_VARIATIONS_H

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "n25.h"

namespace irtopics {

// Midranks (average ranks of ties) of the positions x[0..n), where every
// position > depth counts as "not returned" (all of them tie). `order` is a
// reusable workspace.
inline void return_order_midranks(const int* x, int n, int depth, double* out,
                                  std::vector<int>& order) {
  order.resize(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) { return x[i] > depth ? depth + 1 : x[i]; };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  int i = 0;
  while (i < n) {
    int j = i;
    while (j + 1 < n && key(order[j + 1]) == key(order[i])) ++j;
    const double avg = 0.5 * (i + 1 + j + 1);  // ranks i+1 .. j+1
    for (int k = i; k <= j; ++k) out[order[k]] = avg;
    i = j + 1;
  }
}

// Column p of `positions` (n_rel x n_lists, column-major) as a vector ready
// for pairwise comparison:
//  tie_correction = true : centred midranks scaled to unit length (z_p), so
//                          that |z_p - z_q|^2 = 2 (1 - s_pq) exactly;
//  tie_correction = false: raw midranks (the untied formula uses sum d^2).
// Returns false when the list has zero variance (s undefined), or n_rel < 2.
inline bool return_order_vector(const int* x, int n_rel, int depth, bool tie_correction,
                                double* out, std::vector<int>& ws) {
  if (n_rel < 2) return false;
  return_order_midranks(x, n_rel, depth, out, ws);
  const double mean = 0.5 * (n_rel + 1);
  double ss = 0.0;
  for (int i = 0; i < n_rel; ++i) ss += (out[i] - mean) * (out[i] - mean);
  if (!(ss > 0.0)) return false;
  if (tie_correction) {
    const double inv = 1.0 / std::sqrt(ss);
    for (int i = 0; i < n_rel; ++i) out[i] = (out[i] - mean) * inv;
  }
  return true;
}

// All-pairs return-order dissimilarities of one topic's lists. `positions`
// is n_rel x n_lists (column-major), `delta` receives the n_lists x n_lists
// matrix of delta = sqrt(2 (1 - s)) (NaN where s is undefined), `sim` (may be
// null) the similarities s. Every pair is computed from its two columns
// alone, so identical lists give exactly 0 and the result does not depend on
// the number of threads.
inline void return_order_dissimilarity(const int* positions, int n_rel, int n_lists, int depth,
                                       bool tie_correction, double* delta, double* sim,
                                       int n_threads) {
  const std::size_t nr = static_cast<std::size_t>(n_rel);
  const std::size_t nl = static_cast<std::size_t>(n_lists);
  std::vector<double> v(nr * nl, 0.0);
  std::vector<char> ok(nl, 0);
  {
    std::vector<int> ws;
    for (std::size_t p = 0; p < nl; ++p) {
      ok[p] = return_order_vector(positions + p * nr, n_rel, depth, tie_correction,
                                  v.data() + p * nr, ws)
                  ? 1
                  : 0;
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // untied formula: s = 1 - 6 sum d^2 / (n^3 - n); delta^2 = 2 (1 - s)
  const double n3 = static_cast<double>(n_rel) * n_rel * n_rel - n_rel;
  const long long n_pairs = static_cast<long long>(nl) * static_cast<long long>(nl);
#ifdef _OPENMP
#pragma omp parallel for num_threads(n_threads) schedule(dynamic, 64)
#endif
  for (long long idx = 0; idx < n_pairs; ++idx) {
    const std::size_t p = static_cast<std::size_t>(idx / static_cast<long long>(nl));
    const std::size_t q = static_cast<std::size_t>(idx % static_cast<long long>(nl));
    if (q < p) continue;
    double d2 = nan, s = nan;
    if (p == q && ok[p]) {
      d2 = 0.0;
      s = 1.0;
    } else if (ok[p] && ok[q]) {
      const double* a = v.data() + p * nr;
      const double* b = v.data() + q * nr;
      double acc = 0.0;
      for (std::size_t i = 0; i < nr; ++i) {
        const double d = a[i] - b[i];
        acc += d * d;
      }
      if (tie_correction) {
        d2 = acc;
        s = 1.0 - 0.5 * acc;
      } else {
        s = 1.0 - 6.0 * acc / n3;
        d2 = 12.0 * acc / n3;
      }
    }
    const double d = std::isnan(d2) ? nan : std::sqrt(d2);
    delta[p + q * nl] = d;
    delta[q + p * nl] = d;
    if (sim != nullptr) {
      sim[p + q * nl] = s;
      sim[q + p * nl] = s;
    }
  }
  (void)n_threads;
}

// N25 (spec 1.3) and AP (spec 1.2) of every list (column) of `positions`.
inline void list_exclusion(const int* positions, int n_rel, int n_lists, int depth,
                           double fraction, int* n_returned, double* n25_out, double* ap_out) {
  const std::size_t nr = static_cast<std::size_t>(n_rel);
  std::vector<int> ret;
  for (int p = 0; p < n_lists; ++p) {
    const int* x = positions + static_cast<std::size_t>(p) * nr;
    ret.clear();
    for (int i = 0; i < n_rel; ++i)
      if (x[i] >= 1 && x[i] <= depth) ret.push_back(x[i]);
    std::sort(ret.begin(), ret.end());
    const int n = static_cast<int>(ret.size());
    n_returned[p] = n;
    n25_out[p] = n25(ret.data(), n, n_rel, fraction, depth);
    if (n_rel <= 0) {
      ap_out[p] = std::numeric_limits<double>::quiet_NaN();
    } else {
      double ap = 0.0;
      for (int k = 0; k < n; ++k) ap += static_cast<double>(k + 1) / ret[k];
      ap_out[p] = ap / n_rel;
    }
  }
}

struct QueryCloud {
  double abar;     // average squared distance of the queries from their centre
  double b11;      // squared distance of the first (best) query from the centre
  double lambda1;  // largest eigenvalue of B
};

// Spec 1.7: B = -1/2 J D2 J over an n x n dissimilarity matrix (column-major).
// NaN fields when n < 2 or any dissimilarity is NaN.
inline QueryCloud query_cloud(const double* delta, int n) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  QueryCloud out{nan, nan, nan};
  if (n < 2) return out;
  Eigen::Map<const Eigen::MatrixXd> d(delta, n, n);
  if (d.hasNaN()) return out;
  Eigen::MatrixXd d2 = d.array().square().matrix();
  const Eigen::VectorXd row_mean = d2.rowwise().mean();
  const Eigen::RowVectorXd col_mean = d2.colwise().mean();
  const double all_mean = d2.mean();
  Eigen::MatrixXd b(n, n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      b(j, k) = -0.5 * (d2(j, k) - row_mean(j) - col_mean(k) + all_mean);
  out.abar = b.trace() / n;
  out.b11 = b(0, 0);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(b, Eigen::EigenvaluesOnly);
  out.lambda1 = eig.eigenvalues().maxCoeff();
  return out;
}

}  // namespace irtopics

#endif
