// Rcpp glue for tau_ap.h (Yilmaz et al. 2008 AP rank correlation).
#include "glue_guard.h"
#include <Rcpp.h>
#include "tau_ap.h"

// [[Rcpp::export(rng = false)]]
double cpp_tau_ap(Rcpp::NumericVector x, Rcpp::NumericVector y) {
  return irtopics_glue::guard([&]() -> double {
  irtopics::TauApWorkspace ws;
  return ws.tau_ap(x.begin(), y.begin(), static_cast<std::size_t>(x.size()));
  });
}
