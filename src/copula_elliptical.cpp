// The records of the independence, Gaussian and Student t copulas (copula_elliptical.h), defined once here
// and declared in copula_families.h: the densities, h-functions and fits of
// a family are compiled only in the file that defines its record, and the
// families' files compile in parallel (CONTRIBUTING.md, "C++ layout").
// Pure C++: no R types.
#include "copula_elliptical.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

constexpr CopulaFamily kIndependence = {
    "independence", 0, false, false, true, kAllCorners, 0,
    indep_valid, indep_log_pdf, indep_h1, indep_h2, indep_hinv1, indep_tau,
    indep_loglik, indep_bounds, nullptr, false, indep_fit, nullptr};

constexpr CopulaFamily kGaussian = {
    "Gaussian", 1, false, false, true, 0, kAllCorners,
    gauss_valid, gauss_log_pdf, gauss_h1, h2_exchangeable<gauss_h1>, gauss_hinv1, elliptical_tau,
    gauss_loglik, rho_bounds, nullptr, false, fit_gaussian, nullptr};

constexpr CopulaFamily kStudentT = {
    "Student t", 2, false, false, true, kAllCorners, 0,
    t_valid, t_log_pdf, t_h1, h2_exchangeable<t_h1>, t_hinv1, elliptical_tau,
    t_loglik, rho_bounds, nullptr, false, fit_t, nullptr};

}  // namespace copula_detail
}  // namespace irtopics
