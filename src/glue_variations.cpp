// Rcpp glue for variations.h (Liggett & Buckley 2005, spec section 1).
#include "glue_guard.h"
#include <RcppEigen.h>
#include "glue_interrupt.h"
#include "variations.h"

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_return_order_dissimilarity(Rcpp::IntegerMatrix positions, int depth,
                                          bool tie_correction, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  n_threads = irtopics_glue::safe_threads(n_threads);
  const int n_rel = positions.nrow(), n_lists = positions.ncol();
  Rcpp::NumericMatrix delta(n_lists, n_lists), sim(n_lists, n_lists);
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::return_order_dissimilarity(positions.begin(), n_rel, n_lists, depth, tie_correction,
                                         delta.begin(), sim.begin(), n_threads, cancel);
  });
  return Rcpp::List::create(Rcpp::Named("delta") = delta, Rcpp::Named("s") = sim);
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_return_order_midranks(Rcpp::IntegerMatrix positions, int depth) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  const int n_rel = positions.nrow(), n_lists = positions.ncol();
  Rcpp::NumericMatrix out(n_rel, n_lists);
  std::vector<long long> ws;
  for (int p = 0; p < n_lists; ++p) {
    irtopics::return_order_midranks(positions.begin() + static_cast<std::size_t>(p) * n_rel,
                                    n_rel, depth, out.begin() + static_cast<std::size_t>(p) * n_rel,
                                    ws);
  }
  return out;
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_list_exclusion(Rcpp::IntegerMatrix positions, int depth, double fraction) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  const int n_rel = positions.nrow(), n_lists = positions.ncol();
  Rcpp::IntegerVector n_returned(n_lists);
  Rcpp::NumericVector n25(n_lists), ap(n_lists);
  irtopics::list_exclusion(positions.begin(), n_rel, n_lists, depth, fraction,
                           n_returned.begin(), n25.begin(), ap.begin());
  return Rcpp::List::create(Rcpp::Named("n_returned") = n_returned, Rcpp::Named("n25") = n25,
                            Rcpp::Named("ap") = ap);
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_query_cloud(Rcpp::NumericMatrix delta) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  const irtopics::QueryCloud c = irtopics::query_cloud(delta.begin(), delta.nrow());
  return Rcpp::NumericVector::create(Rcpp::Named("abar") = c.abar, Rcpp::Named("b11") = c.b11,
                                     Rcpp::Named("lambda1") = c.lambda1);
  });
}
