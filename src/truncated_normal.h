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

}  // namespace irtopics

#endif
