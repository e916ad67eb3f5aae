// Rcpp glue for reliability.h (Cronbach's alpha). Arguments are checked in R.
#include <Rcpp.h>

#include "glue_guard.h"
#include "glue_interrupt.h"
#include "reliability.h"

// Alpha of the whole matrix and of each column set: `sets` is a k x n_sets
// integer matrix of 0-based topic indices (one set per column; a 0-column
// matrix gives only the whole-matrix value). NaN stands for undefined.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_alpha(Rcpp::NumericMatrix m, Rcpp::IntegerMatrix sets, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  const irtopics::AlphaKernel kernel(m.begin(), static_cast<std::size_t>(m.nrow()),
                                     static_cast<std::size_t>(m.ncol()));
  const std::size_t n_sets = static_cast<std::size_t>(sets.ncol());
  if (n_sets == 0) {
    std::vector<int> all(static_cast<std::size_t>(m.ncol()));
    for (std::size_t t = 0; t < all.size(); ++t) all[t] = static_cast<int>(t);
    std::vector<double> work(2 * kernel.n_systems());
    return Rcpp::NumericVector::create(kernel.alpha(all.data(), all.size(), work.data()));
  }
  for (int v : sets) {
    if (v < 0 || v >= m.ncol()) throw irtopics::Error(irtopics::ErrorKind::argument, "topic index out of range");
  }
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n_sets));
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::alpha_draws(kernel, sets.begin(), static_cast<std::size_t>(sets.nrow()), n_sets, out.begin(),
                          irtopics_glue::safe_threads(n_threads), cancel);
  });
  return out;
  });
}
