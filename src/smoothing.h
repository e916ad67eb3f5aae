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

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "cancel.h"
#include "kendall.h"
#include "parallel.h"

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
    const std::size_t m = pb_.m, nt = pb_.n_topics;
    // Systems are renumbered in increasing order of the reference score, so
    // that KendallWorkspace's sort of its first argument (the reference) runs
    // on sorted input; tau is symmetric, and each system's scores are summed
    // in the same order as before, so the results are unchanged.
    order_.resize(m);
    for (std::size_t i = 0; i < m; ++i) order_[i] = i;
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return pb_.reference[a] < pb_.reference[b];
    });
    position_.resize(m);
    reference_.resize(m);
    scores_.resize(m * nt);
    for (std::size_t i = 0; i < m; ++i) {
      position_[order_[i]] = i;
      reference_[i] = pb_.reference[order_[i]];
      for (std::size_t t = 0; t < nt; ++t) scores_[i + t * m] = pb_.scores[order_[i] + t * m];
    }
    if (pb_.standardize) {
      // Q_c topics and the baseline are standardized over all systems: those
      // values do not depend on the draws, so compute them once.
      std_all_.resize(m * nt);
      for (std::size_t t = 0; t < nt; ++t) {
        const double* col = scores_.data() + t * m;
        const MeanSd all = mean_sd(col, m, nullptr, 0, true);
        for (std::size_t i = 0; i < m; ++i) std_all_[i + t * m] = standardized(col[i], all);
      }
    }
  }

  void run(const int* topic_draws, const int* system_draws, std::size_t reps, double* out,
           int n_threads, CancelToken* cancel = nullptr) const {
    const std::size_t n_lambda = pb_.lambdas.size();
    // One workspace per thread, made inside the region by the driver (its
    // allocation failure is rethrown after the join).
    parallel_for_local(
        reps, {n_threads, cancel, Schedule::blocks}, [&] { return Work(pb_.m, pb_.k); },
        [&](std::size_t ru, Work& w) {
          one_rep(topic_draws + ru * 3 * pb_.k, system_draws + ru * pb_.m, w);
          for (std::size_t l = 0; l < n_lambda; ++l) {
            const double lam = pb_.lambdas[l];
            for (std::size_t i = 0; i < pb_.m; ++i) {
              w.smoothed[i] = lam * w.new_mean[i] + (1.0 - lam) * w.prior_mean[i];
            }
            out[ru + reps * l] = w.kendall.tau_b(reference_.data(), w.smoothed.data(), pb_.m);
          }
          out[ru + reps * n_lambda] = w.kendall.tau_b(reference_.data(), w.baseline.data(), pb_.m);
        });
  }

 private:
  struct Work {
    Work(std::size_t m, std::size_t k)
        : member(m), offset(3 * k), factor_a(k), factor_b(k), new_mean(m), prior_mean(m),
          baseline(m), smoothed(m) {
      // Size the Kendall buffers now (first use allocates).
      std::vector<double> a(m, 0.0), b(m, 0.0);
      for (std::size_t i = 0; i < m; ++i) a[i] = b[i] = static_cast<double>(i);
      kendall.tau_b(a.data(), b.data(), m);
    }
    std::vector<unsigned char> member;  // 1 = S_x, 0 = S_y
    std::vector<std::size_t> offset;    // column offsets of Q_a, Q_b, Q_c
    std::vector<MeanSd> factor_a, factor_b;
    std::vector<double> new_mean, prior_mean, baseline, smoothed;
    KendallWorkspace kendall;
  };

  void one_rep(const int* topics, const int* systems, Work& w) const {
    const std::size_t m = pb_.m, k = pb_.k;
    for (std::size_t i = 0; i < m; ++i) {
      w.member[position_[static_cast<std::size_t>(systems[i])]] = i < pb_.n_x ? 1 : 0;
    }
    // Column offsets of Q_a, Q_b, Q_c (in this order) in the score matrix.
    for (std::size_t a = 0; a < 3 * k; ++a) w.offset[a] = static_cast<std::size_t>(topics[a]) * m;
    const std::size_t* qa = w.offset.data();
    const std::size_t* qb = qa + k;
    const std::size_t* qc = qb + k;
    const double* x = scores_.data();
    if (pb_.standardize) {
      // Q_a is standardized over S_x, Q_b over S_y (factors per draw).
      for (std::size_t a = 0; a < k; ++a) {
        w.factor_a[a] = mean_sd(x + qa[a], m, w.member.data(), 1, false);
        w.factor_b[a] = mean_sd(x + qb[a], m, w.member.data(), 0, false);
      }
    }
    // Each system's sums are accumulated in one long double, in topic
    // order, and divided before rounding to double, exactly as R's
    // rowMeans() does; so systems whose means are equal in R tie here too
    // (spec 0.3: exact comparisons).
    const double* v = pb_.standardize ? std_all_.data() : x;  // Q_c and baseline values
    const long double nk = static_cast<long double>(k);
    for (std::size_t i = 0; i < m; ++i) {
      long double prior = 0, fresh = 0, base = 0;
      if (pb_.standardize) {
        if (w.member[i]) {
          for (std::size_t a = 0; a < k; ++a) prior += standardized(x[i + qa[a]], w.factor_a[a]);
        } else {
          for (std::size_t b = 0; b < k; ++b) prior += standardized(x[i + qb[b]], w.factor_b[b]);
        }
      } else {
        const std::size_t* own = w.member[i] ? qa : qb;
        for (std::size_t a = 0; a < k; ++a) prior += x[i + own[a]];
      }
      for (std::size_t a = 0; a < k; ++a) base += v[i + qa[a]];
      for (std::size_t c = 0; c < k; ++c) fresh += v[i + qc[c]];
      // The baseline is the mean over Q_a then Q_c: continue the same sum.
      for (std::size_t c = 0; c < k; ++c) base += v[i + qc[c]];
      w.prior_mean[i] = static_cast<double>(prior / nk);
      w.new_mean[i] = static_cast<double>(fresh / nk);
      w.baseline[i] = static_cast<double>(base / (2 * nk));
    }
  }

  SmoothingProblem pb_;
  std::vector<std::size_t> order_;     // order_[new index] = original system index
  std::vector<std::size_t> position_;  // position_[original index] = new index
  std::vector<double> reference_;      // reference scores, increasing
  std::vector<double> scores_;         // scores with rows in the new order
  std::vector<double> std_all_;        // scores standardized over all systems
};

}  // namespace irtopics

#endif
