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

#include "cancel.h"
#include "n25.h"
#include "parallel.h"

namespace irtopics {

// Midranks (average ranks of ties) of the positions x[0..n), where every
// position > depth counts as "not returned" (all of them tie). `keys` is a
// reusable workspace: (position, index) packed into one 64-bit integer, so
// that a plain integer sort orders by position.
inline void return_order_midranks(const int* x, int n, int depth, double* out,
                                  std::vector<long long>& keys) {
  keys.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const long long pos = x[i] > depth ? depth + 1 : x[i];
    keys[static_cast<std::size_t>(i)] = (pos << 32) | static_cast<long long>(i);
  }
  std::sort(keys.begin(), keys.end());
  int i = 0;
  while (i < n) {
    int j = i;
    while (j + 1 < n && (keys[j + 1] >> 32) == (keys[i] >> 32)) ++j;
    const double avg = 0.5 * (i + 1 + j + 1);  // ranks i+1 .. j+1
    for (int k = i; k <= j; ++k) out[keys[k] & 0xffffffffLL] = avg;
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
                                double* out, std::vector<long long>& ws) {
  if (n_rel < 2) return false;
  return_order_midranks(x, n_rel, depth, out, ws);
  const double mean = 0.5 * (n_rel + 1);
  double ss = 0.0;
  for (int i = 0; i < n_rel; ++i) ss += (out[i] - mean) * (out[i] - mean);
  if (!(ss > 0.0)) return false;
  // centred midranks (the untied formula only needs differences, which
  // centring leaves unchanged), scaled to unit length for Spearman with ties
  const double scale = tie_correction ? 1.0 / std::sqrt(ss) : 1.0;
  for (int i = 0; i < n_rel; ++i) out[i] = (out[i] - mean) * scale;
  return true;
}

// Dot products of column a with the four columns b0..b3 (length n).
inline void dot4(const double* a, const double* b0, const double* b1, const double* b2,
                 const double* b3, std::size_t n, double* res) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
#ifdef _OPENMP
#pragma omp simd reduction(+ : s0, s1, s2, s3)
#endif
  for (std::size_t i = 0; i < n; ++i) {
    s0 += a[i] * b0[i];
    s1 += a[i] * b1[i];
    s2 += a[i] * b2[i];
    s3 += a[i] * b3[i];
  }
  res[0] = s0;
  res[1] = s1;
  res[2] = s2;
  res[3] = s3;
}

// Squared Euclidean distance of two columns, summed directly (exact 0 for
// identical columns; used where the dot-product form would cancel).
inline double sq_dist(const double* a, const double* b, std::size_t n) {
  double acc = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = a[i] - b[i];
    acc += d * d;
  }
  return acc;
}

// All-pairs return-order dissimilarities of one topic's lists. `positions`
// is n_rel x n_lists (column-major), `delta` receives the n_lists x n_lists
// matrix of delta = sqrt(2 (1 - s)) (NaN where s is undefined), `sim` (may be
// null) the similarities s. Squared distances come from dot products
// |a|^2 + |b|^2 - 2 a.b (four pairs at a time); where that is small relative
// to |a|^2 + |b|^2 (near-identical lists, where it would cancel) the
// distance is summed directly, so identical lists give exactly 0. Every pair
// is computed from its two columns by the same arithmetic whatever the
// number of threads, so results do not depend on it.
inline void return_order_dissimilarity(const int* positions, int n_rel, int n_lists, int depth,
                                       bool tie_correction, double* delta, double* sim,
                                       int n_threads, CancelToken* cancel = nullptr) {
  const std::size_t nr = static_cast<std::size_t>(n_rel);
  const std::size_t nl = static_cast<std::size_t>(n_lists);
  std::vector<double> v(nr * nl, 0.0), norm2(nl, 0.0);
  std::vector<char> ok(nl, 0);
  parallel_for_local(
      nl, {n_threads, cancel, Schedule::blocks}, [] { return std::vector<long long>(); },
      [&](std::size_t p, std::vector<long long>& ws) {
        double* col = v.data() + p * nr;
        ok[p] = return_order_vector(positions + p * nr, n_rel, depth, tie_correction, col, ws) ? 1 : 0;
        double n2 = 0.0;
        for (std::size_t i = 0; i < nr; ++i) n2 += col[i] * col[i];
        norm2[p] = n2;
      });
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // untied formula: s = 1 - 6 sum d^2 / (n^3 - n); delta^2 = 2 (1 - s)
  const double n3 = static_cast<double>(n_rel) * n_rel * n_rel - n_rel;
  auto store = [&](std::size_t p, std::size_t q, double acc) {
    double d2, s;
    if (tie_correction) {
      d2 = acc;
      s = 1.0 - 0.5 * acc;
    } else {
      s = 1.0 - 6.0 * acc / n3;
      d2 = 12.0 * acc / n3;
    }
    const double d = std::sqrt(d2);
    delta[p + q * nl] = d;
    delta[q + p * nl] = d;
    if (sim != nullptr) {
      sim[p + q * nl] = s;
      sim[q + p * nl] = s;
    }
  };
  auto pair = [&](std::size_t p, std::size_t q, double dot) {
    if (!ok[p] || !ok[q]) {
      delta[p + q * nl] = delta[q + p * nl] = nan;
      if (sim != nullptr) sim[p + q * nl] = sim[q + p * nl] = nan;
      return;
    }
    const double scale = norm2[p] + norm2[q];
    double acc = scale - 2.0 * dot;
    if (acc < 1e-6 * scale) acc = sq_dist(v.data() + p * nr, v.data() + q * nr, nr);
    store(p, q, acc);
  };
  parallel_for(nl, {n_threads, cancel, Schedule::dynamic, 4}, [&](std::size_t p) {
    const double* a = v.data() + p * nr;
    if (ok[p]) {
      delta[p + p * nl] = 0.0;
      if (sim != nullptr) sim[p + p * nl] = 1.0;
    } else {
      delta[p + p * nl] = nan;
      if (sim != nullptr) sim[p + p * nl] = nan;
    }
    std::size_t q = p + 1;
    double res[4];
    for (; q + 4 <= nl; q += 4) {
      dot4(a, v.data() + q * nr, v.data() + (q + 1) * nr, v.data() + (q + 2) * nr,
           v.data() + (q + 3) * nr, nr, res);
      for (int k = 0; k < 4; ++k) pair(p, q + k, res[k]);
    }
    for (; q < nl; ++q) {
      // pad the last block with repeats so that every pair uses dot4
      const double* b0 = v.data() + q * nr;
      dot4(a, b0, b0, b0, b0, nr, res);
      pair(p, q, res[0]);
    }
  });
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
