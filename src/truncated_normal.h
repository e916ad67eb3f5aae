// The log-likelihood of the normal part of the "truncnorm" margin family
// (R/calibration-families.R): sum_i log(phi((x_i - mu) / sigma) / sigma)
// = -sum_i (log sqrt(2 pi) + z_i^2 / 2 + log sigma), each term formed as R's
// dnorm(log = TRUE) forms it and added in index order in long double as R's
// sum() adds, so that the value is R's to the last bit (L-BFGS-B's path, and
// with it the fitted parameters, depends on those bits).
//
// Pure C++: no R types.
#ifndef IRTOPICS_TRUNCATED_NORMAL_H
#define IRTOPICS_TRUNCATED_NORMAL_H

#include <cmath>
#include <cstddef>

namespace irtopics {

inline double normal_log_density_sum(const double* x, std::size_t n, double mu, double sigma) {
  const double ln_sqrt_2pi = 0.918938533204672741780329736406;
  const double log_sigma = std::log(sigma);
  long double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double z = std::fabs((x[i] - mu) / sigma);
    total += -(ln_sqrt_2pi + 0.5 * z * z + log_sigma);
  }
  return static_cast<double>(total);
}

// log(Phi(hi) - Phi(lo)) for the truncation to [0, 1], hi = (1 - mu) / sigma,
// lo = -mu / sigma, from the tail that keeps precision, as tn_logmass1() in
// R/calibration-families.R. `pnorm(q, lower, log)` is the standard normal's
// CDF (R's pnorm(), passed in by the glue).
template <typename Pnorm>
double truncated_normal_log_mass(double mu, double sigma, Pnorm pnorm) {
  const double lo = -mu / sigma, hi = (1 - mu) / sigma;
  double a, b;
  if (lo > 0) {
    a = pnorm(lo, false, true);
    b = pnorm(hi, false, true);
  } else {
    a = pnorm(hi, true, true);
    b = pnorm(lo, true, true);
  }
  return a + std::log1p(-std::exp(b - a));
}

// The truncated normal's negative log-likelihood at (mu, log sigma), the
// function L-BFGS-B minimises in fit_truncnorm(), formed as the R code
// formed it (so the optimiser's path is the same).
template <typename Pnorm>
double truncated_normal_nll(const double* x, std::size_t n, double mu, double log_sigma, Pnorm pnorm) {
  const double sigma = std::exp(log_sigma);
  const double log_mass = truncated_normal_log_mass(mu, sigma, pnorm);
  return -(normal_log_density_sum(x, n, mu, sigma) - static_cast<double>(n) * log_mass);
}

}  // namespace irtopics

#endif
