// Rcpp glue for smoothing.h (Ravana, Park & Moffat 2009 smoothing experiment).
#include "glue_guard.h"
#include <Rcpp.h>
#include "glue_interrupt.h"
#include "smoothing.h"

// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_smoothing_taus(Rcpp::NumericMatrix scores, Rcpp::NumericVector reference,
                                       Rcpp::IntegerMatrix topic_draws,
                                       Rcpp::IntegerMatrix system_draws, int topics_per_set,
                                       int n_x, Rcpp::NumericVector lambdas, bool standardize,
                                       int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  n_threads = irtopics_glue::safe_threads(n_threads);
  irtopics::SmoothingProblem pb;
  pb.scores = scores.begin();
  pb.m = static_cast<std::size_t>(scores.nrow());
  pb.n_topics = static_cast<std::size_t>(scores.ncol());
  pb.reference = reference.begin();
  pb.k = static_cast<std::size_t>(topics_per_set);
  pb.n_x = static_cast<std::size_t>(n_x);
  pb.lambdas.assign(lambdas.begin(), lambdas.end());
  pb.standardize = standardize;
  const std::size_t reps = static_cast<std::size_t>(topic_draws.ncol());
  Rcpp::NumericMatrix out(static_cast<int>(reps), static_cast<int>(pb.lambdas.size() + 1));
  irtopics::SmoothingExperiment exp(pb);
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    exp.run(topic_draws.begin(), system_draws.begin(), reps, out.begin(), n_threads, cancel);
  });
  return out;
  });
}
