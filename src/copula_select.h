// Copulas: selection of a family for a pair of systems by AIC among
// candidates fitted by maximum likelihood (Brechmann & Schepsmeier 2013,
// "Modeling dependence with C- and D-vine copulas: the R package CDVine", JSS
// 52(3), section 5.2; VineCopula's BiCopSelect(selectioncrit = "AIC",
// presel = TRUE)). Candidates are preselected by the sign of the empirical
// Kendall tau and by the difference of the correlations of the normal
// scores in opposite quadrants, from each record's tails (CopulaFamily::
// strong_tails, moderate_tails) rotated with its code. AIC = -2 loglik +
// 2 npar; independence has loglik 0. Pure C++.
#ifndef IRTOPICS_COPULA_SELECT_H
#define IRTOPICS_COPULA_SELECT_H

#include "copula_data.h"
#include "copula_families.h"

namespace irtopics {
namespace copula_detail {

// Pearson correlation of the normal scores in one quadrant (signs sx, sy of
// z1, z2); false when it is undefined (fewer than 2 points or no spread),
// where VineCopula's cor() gives NA or an error.
inline bool quadrant_cor(const PairData& d, int sx, int sy, double& r) {
  double n = 0, mx = 0, my = 0;
  for (std::size_t i = 0; i < d.n; ++i)
    if (d.z1[i] * sx > 0 && d.z2[i] * sy > 0) {
      n += 1;
      mx += d.z1[i];
      my += d.z2[i];
    }
  if (n < 2) return false;
  mx /= n;
  my /= n;
  double sxx = 0, syy = 0, sxy = 0;
  for (std::size_t i = 0; i < d.n; ++i)
    if (d.z1[i] * sx > 0 && d.z2[i] * sy > 0) {
      const double ex = d.z1[i] - mx, ey = d.z2[i] - my;
      sxx += ex * ex;
      syy += ey * ey;
      sxy += ex * ey;
    }
  if (!(sxx > 0) || !(syy > 0)) return false;
  r = sxy / std::sqrt(sxx * syy);
  return true;
}

// What the preselection asks of a candidate: the sign of dependence it must
// allow (+1, -1; 0: any), and the corner whose tail it must have (0: none),
// strongly (the strong-tail lists) or not.
struct Preselection {
  int sign = 0;
  unsigned corner = 0;
  bool strong = false;
};

// The preselection of a pair with empirical tau: tau > 0 asks for positive
// dependence; if the normal scores correlate more in the upper-right than in
// the lower-left quadrant (c11 - c00 > 0.3), for an upper tail strongly;
// between 0.05 and 0.3 moderately; symmetrically for the lower tail, and for
// tau < 0 with the lower-right and upper-left quadrants (VineCopula's
// thresholds). With quadrant = false only the sign.
inline Preselection preselection(const PairData& d, double tau, bool quadrant) {
  Preselection p;
  if (tau > 0) {
    double c11, c00;
    p.sign = 1;
    if (quadrant && quadrant_cor(d, 1, 1, c11) && quadrant_cor(d, -1, -1, c00)) {
      const double g = c11 - c00;
      if (g > 0.3) p = {1, kCorner11, true};
      else if (g > 0.05) p = {1, kCorner11, false};
      else if (g < -0.3) p = {1, kCorner00, true};
      else if (g < -0.05) p = {1, kCorner00, false};
    }
  } else if (tau < 0) {
    double c10, c01;
    p.sign = -1;
    if (quadrant && quadrant_cor(d, 1, -1, c10) && quadrant_cor(d, -1, 1, c01)) {
      const double g = c10 - c01;
      if (g < -0.3) p = {-1, kCorner10, true};
      else if (g < -0.05) p = {-1, kCorner10, false};
      else if (g > 0.3) p = {-1, kCorner01, true};
      else if (g > 0.05) p = {-1, kCorner01, false};
    }
  }
  return p;
}

// Does code e pass the preselection p? Families without rotations allow
// either sign; the others are positive at 0 and 180 degrees, negative at 90
// and 270; tails rotate with the code.
inline bool preselected(const CopulaCode& e, const Preselection& p) {
  const CopulaFamily& f = *e.family;
  if (p.sign != 0 && f.rotates && (negates(e.rotation) ? -1 : 1) != p.sign) return false;
  if (!p.corner) return true;
  const unsigned tails = f.strong_tails | (p.strong ? 0u : f.moderate_tails);
  return (rotate_corners(tails, e.rotation) & p.corner) != 0;
}

// The codes among `families` that pass p, in the order of kCopulaCodes; when
// none does, all of `families`.
inline std::vector<int> preselected_codes(const Preselection& p, const std::vector<int>& families) {
  std::vector<int> out;
  for (const CopulaCode& e : kCopulaCodes)
    if (preselected(e, p) && std::find(families.begin(), families.end(), e.code) != families.end())
      out.push_back(e.code);
  if (out.empty()) out = families;
  return out;
}

}  // namespace copula_detail

// The candidate families of a pair (see preselection()) among `families`;
// with quadrant = false only the sign of tau is used.
inline std::vector<int> copula_candidates(const copula_detail::PairData& d, double tau,
                                          const std::vector<int>& families, bool quadrant = true) {
  return copula_detail::preselected_codes(copula_detail::preselection(d, tau, quadrant), families);
}

struct CopulaSelectOptions {
  bool quadrant_presel = true;  // VineCopula's presel; false: sign of tau only
};

// The maximum-likelihood fit of one code to prepared pair data (tau: the
// empirical Kendall tau, for data-dependent bounds and starts). Defined in
// copula_select.cpp, with copula_select().
CopulaFit copula_fit(copula_detail::PairData& d, int code, double tau, int* n_eval = nullptr);

// Fits every candidate family (copula_candidates()) to n pseudo-observations
// in (0, 1) and keeps the lowest AIC (the first on ties). `tau_emp`, when
// given, receives the empirical Kendall tau (tau-b). `table`, when given,
// holds t scores of the pseudo-observations (TScoreTable) for the t fit.
CopulaFit copula_select(const double* u1, const double* u2, std::size_t n, const std::vector<int>& families,
                        const CopulaSelectOptions& opt = CopulaSelectOptions(), double* tau_emp = nullptr,
                        const TScoreTable* table = nullptr);

}  // namespace irtopics

#endif
