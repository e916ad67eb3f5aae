// Cronbach's alpha of a systems x topics score matrix (Cronbach 1951; for IR
// collections Bodoff & Li, SIGIR 2007): systems are the cases, topics the
// items, and for the k topics of a (multi)set of columns
//   alpha = k / (k - 1) * (1 - sum_t var(X_t) / var(sum_t X_t)),
// variances over systems (n - 1 denominators). One kernel serves the
// whole-matrix alpha, the per-group alphas of the difficulty analysis, the
// bootstrap over topics and alpha against topic-set size.
//
// Numerics: every column is centred once (two-pass mean with a correction
// term), so the system totals are sums of centred values (no large common
// offset to cancel), accumulated with Neumaier's compensated summation, and
// their variance is a two-pass sum. A total variance at rounding level
// (<= 1e-12 of the summed item variances) is treated as 0: alpha is then
// undefined (NaN), as are k < 2 or fewer than 2 systems.
//
// Pure C++: no R types.
#ifndef IRTOPICS_RELIABILITY_H
#define IRTOPICS_RELIABILITY_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "cancel.h"
#include "parallel.h"

namespace irtopics {

class AlphaKernel {
 public:
  // x: column-major n_sys x n_top.
  AlphaKernel(const double* x, std::size_t n_sys, std::size_t n_top)
      : ns_(n_sys), nt_(n_top), c_(n_sys * n_top), var_(n_top) {
    for (std::size_t t = 0; t < nt_; ++t) {
      const double* col = x + t * ns_;
      double* out = c_.data() + t * ns_;
      double mean = 0;
      for (std::size_t s = 0; s < ns_; ++s) mean += col[s];
      mean /= static_cast<double>(ns_);
      double corr = 0;
      for (std::size_t s = 0; s < ns_; ++s) corr += col[s] - mean;
      mean += corr / static_cast<double>(ns_);
      double ss = 0;
      for (std::size_t s = 0; s < ns_; ++s) {
        out[s] = col[s] - mean;
        ss += out[s] * out[s];
      }
      var_[t] = ns_ > 1 ? ss / static_cast<double>(ns_ - 1) : 0.0;
    }
  }

  std::size_t n_systems() const { return ns_; }
  std::size_t n_topics() const { return nt_; }

  // Alpha over the k columns cols[0..k) (0-based, repeats allowed). `work`
  // holds 2 * n_systems doubles.
  double alpha(const int* cols, std::size_t k, double* work) const {
    if (k < 2 || ns_ < 2) return std::numeric_limits<double>::quiet_NaN();
    double* sum = work;
    double* comp = work + ns_;
    for (std::size_t s = 0; s < ns_; ++s) sum[s] = comp[s] = 0;
    double item = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t t = static_cast<std::size_t>(cols[j]);
      item += var_[t];
      const double* col = c_.data() + t * ns_;
      for (std::size_t s = 0; s < ns_; ++s) {  // Neumaier
        const double v = col[s];
        const double u = sum[s] + v;
        comp[s] += std::fabs(sum[s]) >= std::fabs(v) ? (sum[s] - u) + v : (v - u) + sum[s];
        sum[s] = u;
      }
    }
    double mean = 0;
    for (std::size_t s = 0; s < ns_; ++s) {
      sum[s] += comp[s];
      mean += sum[s];
    }
    mean /= static_cast<double>(ns_);
    double ss = 0;
    for (std::size_t s = 0; s < ns_; ++s) ss += (sum[s] - mean) * (sum[s] - mean);
    const double total = ss / static_cast<double>(ns_ - 1);
    if (!std::isfinite(total) || total <= 0 || total <= 1e-12 * item) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    const double kk = static_cast<double>(k);
    return kk / (kk - 1) * (1 - item / total);
  }

 private:
  std::size_t ns_, nt_;
  std::vector<double> c_;    // centred columns
  std::vector<double> var_;  // column variances
};

// Alpha for each of the n_draws column sets idx[d * k .. d * k + k) into
// out[d]. Parallel over draws; each draw's value does not depend on the
// thread that computes it. Asks `cancel` before each draw; throws Cancelled.
inline void alpha_draws(const AlphaKernel& kernel, const int* idx, std::size_t k, std::size_t n_draws,
                        double* out, int n_threads, CancelToken* cancel = nullptr) {
  parallel_for_local(
      n_draws, {n_threads, cancel, Schedule::blocks}, [&] { return std::vector<double>(2 * kernel.n_systems()); },
      [&](std::size_t d, std::vector<double>& work) { out[d] = kernel.alpha(idx + d * k, k, work.data()); });
}

}  // namespace irtopics

#endif
