// Rcpp glue for tau_ap.h (Yilmaz et al. 2008 AP rank correlation). Millions
// of scores run for seconds: the kernel asks for interrupts every 2^16 items
// (with_interrupts(), glue_interrupt.h).
#include "glue_guard.h"
#include "glue_interrupt.h"
#include <Rcpp.h>
#include "tau_ap.h"

// [[Rcpp::export(rng = false)]]
double cpp_tau_ap(Rcpp::NumericVector x, Rcpp::NumericVector y) {
  return irtopics_glue::guard([&]() -> double {
  irtopics::TauApWorkspace ws;
  return irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return ws.tau_ap(x.begin(), y.begin(), static_cast<std::size_t>(x.size()), cancel);
  });
  });
}
