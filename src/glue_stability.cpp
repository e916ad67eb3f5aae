// Rcpp glue for stability.h (the swap method). Arguments are checked in R.
#include "glue_guard.h"
#include <Rcpp.h>
#include "glue_interrupt.h"
#include "stability.h"

// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_set_aggregates(Rcpp::NumericMatrix m, Rcpp::IntegerMatrix perms, int size,
                                       int aggregate, double eps, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  n_threads = irtopics_glue::safe_threads(n_threads);
  irtopics::ScoreView view{m.begin(), static_cast<std::size_t>(m.nrow()),
                           static_cast<std::size_t>(m.ncol())};
  const std::size_t n_trials = static_cast<std::size_t>(perms.ncol());
  Rcpp::NumericMatrix out(m.nrow(), static_cast<int>(2 * n_trials));
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::set_aggregates(view, perms.begin(), n_trials, static_cast<std::size_t>(size),
                             static_cast<irtopics::Aggregate>(aggregate), eps, out.begin(), n_threads,
                             cancel);
  });
  return out;
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_pair_counts(Rcpp::NumericMatrix aggs, double fuzz, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  n_threads = irtopics_glue::safe_threads(n_threads);
  const irtopics::PairCounts c = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return irtopics::pair_counts(aggs.begin(), static_cast<std::size_t>(aggs.nrow()),
                                 static_cast<std::size_t>(aggs.ncol()), fuzz, n_threads, cancel);
  });
  return Rcpp::NumericVector::create(Rcpp::_["min_sum"] = c.min_sum, Rcpp::_["ties"] = c.ties,
                                     Rcpp::_["comparisons"] = c.comparisons,
                                     Rcpp::_["trial_swaps"] = c.trial_swaps,
                                     Rcpp::_["trial_pairs"] = c.trial_pairs);
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_critical_curve(Rcpp::NumericMatrix aggs, Rcpp::NumericVector grid, bool swap_based,
                              bool both_sets, double scale, bool round_to_int, double tol, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  n_threads = irtopics_glue::safe_threads(n_threads);
  const std::size_t n_sys = static_cast<std::size_t>(aggs.nrow());
  const std::size_t n_sets = static_cast<std::size_t>(aggs.ncol());
  std::vector<double> g(grid.begin(), grid.end());
  irtopics::CriticalCurve cc;
  double total;
  if (swap_based) {
    cc = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      std::vector<double> d1, d2;
      irtopics::trial_differences(aggs.begin(), n_sys, n_sets / 2, scale, round_to_int, d1, d2, cancel);
      return irtopics::critical_curve_swap(d1, d2, g, both_sets, tol, cancel);
    });
    total = 2.0 * static_cast<double>(n_sys * (n_sys - 1) / 2) * static_cast<double>(n_sets / 2);  // comparisons on both sets
  } else {
    cc = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::critical_curve_threshold(aggs.begin(), n_sys, n_sets, scale, round_to_int, g, tol,
                                                n_threads, cancel);
    });
    total = static_cast<double>(n_sys * (n_sys - 1) / 2) * static_cast<double>(n_sets);
  }
  return Rcpp::List::create(Rcpp::_["decisions"] = Rcpp::wrap(cc.decisions),
                            Rcpp::_["errors"] = Rcpp::wrap(cc.swaps),
                            Rcpp::_["significant"] = Rcpp::wrap(cc.significant), Rcpp::_["total"] = total);
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_binned_swaps(Rcpp::NumericMatrix aggs, double width, int n_bins) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  std::vector<double> d1, d2, count, swaps;
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::trial_differences(aggs.begin(), static_cast<std::size_t>(aggs.nrow()),
                                static_cast<std::size_t>(aggs.ncol()) / 2, 1.0, false, d1, d2, cancel);
    irtopics::binned_swaps(d1, d2, width, static_cast<std::size_t>(n_bins), count, swaps, cancel);
  });
  return Rcpp::List::create(Rcpp::_["count"] = Rcpp::wrap(count), Rcpp::_["swaps"] = Rcpp::wrap(swaps));
  });
}
