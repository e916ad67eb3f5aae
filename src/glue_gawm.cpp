// Rcpp glue for gawm.h (GAWM fixed point, Lee et al. 2009).
#include "glue_guard.h"
#include <Rcpp.h>
#include "glue_interrupt.h"
#include "gawm.h"

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_gawm(Rcpp::NumericMatrix scores, double q, double tol, int maxit, int mean = 0,
                    double floor = 0, double exponent = 1) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  const std::size_t m = static_cast<std::size_t>(scores.nrow());
  const std::size_t n = static_cast<std::size_t>(scores.ncol());
  irtopics::GawmMeanKernel kernel;
  kernel.kind = static_cast<irtopics::GawmMean>(mean);
  kernel.floor = floor;
  kernel.exponent = exponent;
  const irtopics::GawmResult r = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return irtopics::gawm(scores.begin(), m, n, q, tol, maxit, kernel, cancel);
  });
  return Rcpp::List::create(
    Rcpp::Named("system_performance") = Rcpp::wrap(r.system_performance),
    Rcpp::Named("system_conformity") = Rcpp::wrap(r.system_conformity),
    Rcpp::Named("topic_ease") = Rcpp::wrap(r.topic_ease),
    Rcpp::Named("topic_discernment") = Rcpp::wrap(r.topic_discernment),
    Rcpp::Named("iterations") = r.iterations,
    Rcpp::Named("converged") = r.converged,
    Rcpp::Named("change") = r.change,
    Rcpp::Named("weights_vanished") = r.weights_vanished);
  });
}
