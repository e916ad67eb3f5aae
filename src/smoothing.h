// Smoothing with partial prior information (Ravana, Park & Moffat, "System
// scoring using partial prior information", SIGIR 2009), spec section 4:
//   SMAP_s(lambda) = lambda * MAP_{s,Q_c} + (1 - lambda) * MAP_{s,Q(s)}   (4.1)
// and the repetition loop of its experiment (4.2): per repetition, topic sets
// Q_a, Q_b, Q_c and a system split S_x / S_y are given (drawn in R); the
// orderings SMAP(lambda) and the baseline MAP over Q_a u Q_c are compared
// with a fixed reference ordering by Kendall's tau-b. Optionally the scores
// are standardized (Webber, Moffat & Zobel 2008, spec 4.3) within the cell
// each topic is used in: Q_c and the baseline over all systems, Q_a over
// S_x, Q_b over S_y; sAP = Phi((x - mean) / sd) with the sample SD, 0.5 when
// the SD is 0 or there is a single reference system.
//
// Pure C++: no R types; column-major matrices; no randomness (the draws come
// from the caller), so results do not depend on the number of threads.
#ifndef IRTOPICS_SMOOTHING_H
#define IRTOPICS_SMOOTHING_H

#include <cmath>
#include <cstddef>
#include <vector>

#include "kendall.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace irtopics {

// Standard normal distribution function.
inline double std_normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Mean and sample SD of column `col` (length m) over the systems with
// member[i] == want (or all systems when all == true).
struct MeanSd {
  double mean = 0;
  double sd = 0;
  std::size_t n = 0;
};

inline MeanSd mean_sd(const double* col, std::size_t m, const unsigned char* member,
                      unsigned char want, bool all) {
  // Accumulates as R's mean() and var() do: long double sums, and a second
  // pass that refines the mean.
  MeanSd out;
  long double sum = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (all || member[i] == want) {
      sum += col[i];
      ++out.n;
    }
  }
  if (out.n == 0) return out;
  const long double n = static_cast<long double>(out.n);
  long double mean = sum / n;
  long double corr = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (all || member[i] == want) corr += col[i] - mean;
  }
  mean += corr / n;
  out.mean = static_cast<double>(mean);
  if (out.n < 2) return out;
  long double ss = 0;
  for (std::size_t i = 0; i < m; ++i) {
    if (all || member[i] == want) {
      const long double r = col[i] - mean;
      ss += r * r;
    }
  }
  out.sd = std::sqrt(static_cast<double>(ss / (n - 1)));
  return out;
}

// Standardized score; 0.5 when the reference SD is 0 or undefined (spec 4.3).
inline double standardized(double x, const MeanSd& ms) {
  if (ms.n < 2 || !(ms.sd > 0)) return 0.5;
  return std_normal_cdf((x - ms.mean) / ms.sd);
}

struct SmoothingProblem {
  const double* scores = nullptr;     // m x n_topics, column-major
  std::size_t m = 0;
  std::size_t n_topics = 0;
  const double* reference = nullptr;  // reference score per system (length m)
  std::size_t k = 0;                  // topics per set
  std::size_t n_x = 0;                // size of S_x
  std::vector<double> lambdas;
  bool standardize = false;
};

// Output: for repetition r (0-based), out[r + reps * l] is tau-b of SMAP
// with lambdas[l], and out[r + reps * L] (L = lambdas.size()) the baseline.
// topic_draws: 3k 0-based topic indices per repetition (Q_a, Q_b, Q_c in this
// order), column-major 3k x reps. system_draws: a 0-based permutation of the
// m systems per repetition, m x reps; its first n_x entries are S_x.
class SmoothingExperiment {
 public:
  explicit SmoothingExperiment(const SmoothingProblem& pb) : pb_(pb) {
    if (pb_.standardize) {
      all_.resize(pb_.n_topics);
      for (std::size_t t = 0; t < pb_.n_topics; ++t) {
        all_[t] = mean_sd(pb_.scores + t * pb_.m, pb_.m, nullptr, 0, true);
      }
    }
  }

  void run(const int* topic_draws, const int* system_draws, std::size_t reps, double* out,
           int n_threads) const {
    const std::size_t n_lambda = pb_.lambdas.size();
    int n_work = n_threads < 1 ? 1 : n_threads;
    // Per-thread buffers allocated here, so nothing inside the parallel
    // region allocates or throws.
    std::vector<Work> work(static_cast<std::size_t>(n_work), Work(pb_.m));
    const long n_reps = static_cast<long>(reps);
#ifdef _OPENMP
#pragma omp parallel for num_threads(n_work) schedule(static)
#endif
    for (long r = 0; r < n_reps; ++r) {
      int tid = 0;
#ifdef _OPENMP
      tid = omp_get_thread_num();
#endif
      Work& w = work[static_cast<std::size_t>(tid)];
      const std::size_t ru = static_cast<std::size_t>(r);
      one_rep(topic_draws + ru * 3 * pb_.k, system_draws + ru * pb_.m, w);
      for (std::size_t l = 0; l < n_lambda; ++l) {
        const double lam = pb_.lambdas[l];
        for (std::size_t i = 0; i < pb_.m; ++i) {
          w.smoothed[i] = lam * w.new_mean[i] + (1.0 - lam) * w.prior_mean[i];
        }
        out[ru + reps * l] = w.kendall.tau_b(w.smoothed.data(), pb_.reference, pb_.m);
      }
      out[ru + reps * n_lambda] = w.kendall.tau_b(w.baseline.data(), pb_.reference, pb_.m);
    }
  }

 private:
  struct Work {
    explicit Work(std::size_t m)
        : member(m), new_sum(m), prior_sum(m), base_sum(m), new_mean(m), prior_mean(m),
          baseline(m), smoothed(m) {
      // Size the Kendall buffers now (first use allocates).
      std::vector<double> a(m, 0.0), b(m, 0.0);
      for (std::size_t i = 0; i < m; ++i) a[i] = b[i] = static_cast<double>(i);
      kendall.tau_b(a.data(), b.data(), m);
    }
    std::vector<unsigned char> member;  // 1 = S_x, 0 = S_y
    std::vector<long double> new_sum, prior_sum, base_sum;
    std::vector<double> new_mean, prior_mean, baseline, smoothed;
    KendallWorkspace kendall;
  };

  void one_rep(const int* topics, const int* systems, Work& w) const {
    const std::size_t m = pb_.m, k = pb_.k;
    for (std::size_t i = 0; i < m; ++i) w.member[static_cast<std::size_t>(systems[i])] = i < pb_.n_x ? 1 : 0;
    // Means are accumulated in long double in topic order and divided
    // before rounding to double, as R's rowMeans() does, so that systems
    // whose means are equal in R tie here too (spec 0.3, exact comparisons).
    for (std::size_t i = 0; i < m; ++i) w.new_sum[i] = w.prior_sum[i] = w.base_sum[i] = 0;

    // Q_a: prior of S_x (standardized over S_x), and half of the baseline.
    for (std::size_t a = 0; a < k; ++a) {
      const std::size_t t = static_cast<std::size_t>(topics[a]);
      const double* col = pb_.scores + t * m;
      if (pb_.standardize) {
        const MeanSd sx = mean_sd(col, m, w.member.data(), 1, false);
        for (std::size_t i = 0; i < m; ++i) {
          if (w.member[i]) w.prior_sum[i] += standardized(col[i], sx);
          w.base_sum[i] += standardized(col[i], all_[t]);
        }
      } else {
        for (std::size_t i = 0; i < m; ++i) {
          if (w.member[i]) w.prior_sum[i] += col[i];
          w.base_sum[i] += col[i];
        }
      }
    }
    // Q_b: prior of S_y (standardized over S_y).
    for (std::size_t b = k; b < 2 * k; ++b) {
      const std::size_t t = static_cast<std::size_t>(topics[b]);
      const double* col = pb_.scores + t * m;
      if (pb_.standardize) {
        const MeanSd sy = mean_sd(col, m, w.member.data(), 0, false);
        for (std::size_t i = 0; i < m; ++i) {
          if (!w.member[i]) w.prior_sum[i] += standardized(col[i], sy);
        }
      } else {
        for (std::size_t i = 0; i < m; ++i) {
          if (!w.member[i]) w.prior_sum[i] += col[i];
        }
      }
    }
    // Q_c: new topics, all systems (standardized over all systems).
    for (std::size_t c = 2 * k; c < 3 * k; ++c) {
      const std::size_t t = static_cast<std::size_t>(topics[c]);
      const double* col = pb_.scores + t * m;
      for (std::size_t i = 0; i < m; ++i) {
        const double v = pb_.standardize ? standardized(col[i], all_[t]) : col[i];
        w.new_sum[i] += v;
        w.base_sum[i] += v;
      }
    }
    const long double nk = static_cast<long double>(k);
    for (std::size_t i = 0; i < m; ++i) {
      w.new_mean[i] = static_cast<double>(w.new_sum[i] / nk);
      w.prior_mean[i] = static_cast<double>(w.prior_sum[i] / nk);
      w.baseline[i] = static_cast<double>(w.base_sum[i] / (2 * nk));
    }
  }

  SmoothingProblem pb_;
  std::vector<MeanSd> all_;  // per-topic standardizing factors over all systems
};

}  // namespace irtopics

#endif
