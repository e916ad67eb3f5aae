// Rcpp glue for kendall.h.
#include "glue_guard.h"
#include <Rcpp.h>
#include "kendall.h"

// [[Rcpp::export(rng = false)]]
double cpp_kendall(Rcpp::NumericVector x, Rcpp::NumericVector y, bool tau_b) {
  return irtopics_glue::guard([&]() -> double {
  irtopics::KendallWorkspace ws;
  const std::size_t n = static_cast<std::size_t>(x.size());
  return tau_b ? ws.tau_b(x.begin(), y.begin(), n) : ws.tau_a(x.begin(), y.begin(), n);
  });
}
