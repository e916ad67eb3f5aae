// Copulas: the fit of one family and the selection by AIC (copula_select.h),
// compiled once here: the generic one- and two-parameter fits of
// copula_fit.h are instantiated in this file only. Pure C++: no R types.
#include "copula_select.h"

#include "copula_fit.h"
#include "kendall.h"

namespace irtopics {

// copula_select.h says what these two do.
CopulaFit copula_fit(copula_detail::PairData& d, int code, double tau, int* n_eval) {
  using namespace copula_detail;
  const CopulaCode& e = copula_code(code);
  const CopulaFamily& f = *e.family;
  if (f.fit) return f.fit(d, code, e.rotation, tau);
  if (f.npar == 2) return fit_twopar(f, d, code, e.rotation, tau, n_eval);
  return fit_onepar(f, d, code, e.rotation);
}

CopulaFit copula_select(const double* u1, const double* u2, std::size_t n, const std::vector<int>& families,
                        const CopulaSelectOptions& opt, double* tau_emp, const TScoreTable* table) {
  using namespace copula_detail;
  for (int f : families) copula_code(f);  // throws for an unknown code
  for (std::size_t i = 0; i < n; ++i)
    if (!(u1[i] > 0 && u1[i] < 1 && u2[i] > 0 && u2[i] < 1))
      throw std::invalid_argument("pseudo-observations must lie strictly inside (0, 1)");
  KendallWorkspace kw;
  const double tau = n >= 2 ? kw.tau_b(u1, u2, n) : 0.0;
  if (tau_emp) *tau_emp = tau;
  PairData d;
  d.prepare(u1, u2, n, table);
  const std::vector<int> cand = copula_candidates(d, tau, families, opt.quadrant_presel);
  CopulaFit best;
  bool have = false;
  for (int f : cand) {
    CopulaFit fit = copula_fit(d, f, tau);
    fit.aic = -2.0 * fit.loglik + 2.0 * fit.npar;
    if (!std::isfinite(fit.aic)) continue;
    if (!have || fit.aic < best.aic) {
      best = fit;
      have = true;
    }
  }
  return best;
}

}  // namespace irtopics
