// Copulas: Tawn's asymmetric logistic extreme-value copula, types 1 and 2
// (Tawn 1988, "Bivariate extreme value theory: models and estimation",
// Biometrika 75(3); Joe 2014, "Dependence modeling with copulas", section
// 4.15), theta >= 1 and psi in [0, 1]: log density, both h-functions (not
// exchangeable), Kendall's tau of an extreme-value copula by tanh-sinh
// quadrature (Hürlimann 2003), and the data-dependent bounds and starting
// points of its fit (VineCopula's MLE_intern_Tawn; the likelihood can be
// bimodal along a ridge of large theta and small psi). Pure C++.
#ifndef IRTOPICS_COPULA_TAWN_H
#define IRTOPICS_COPULA_TAWN_H

#include "copula_fit.h"

namespace irtopics {
namespace copula_detail {


// Tawn's asymmetric logistic extreme-value copula (Tawn 1988, "Bivariate
// extreme value theory: models and estimation", Biometrika 75(3); Joe 2014,
// section 4.15), theta >= 1, psi1, psi2 in [0, 1]: C = exp(-l(x, y)),
// x = -log u, y = -log v,
//   l(x, y) = (1 - p1) x + (1 - p2) y + ((p1 x)^th + (p2 y)^th)^(1/th),
// i.e. Pickands' A(t) = l(1 - t, t). With R = ((p1 x)^th + (p2 y)^th)^(1/th)
// and weights ra = (p1 x)^th / R^th, rb = 1 - ra:
//   l_x = (1 - p1) + ra R / x,  l_y = (1 - p2) + rb R / y,
//   -l_xy = (th - 1) ra rb R / (x y),
//   h1 = C l_x / u, h2 = C l_y / v, c = C / (u v) (l_x l_y - l_xy).
// VineCopula's type 1 (104) has p1 = par2, p2 = 1; type 2 (204) p1 = 1,
// p2 = par2.
template <typename T>
struct TawnPartsT {
  T l, lx, ly, mixed;  // l, l_x, l_y, -l_xy
};
using TawnParts = TawnPartsT<double>;

// lp1, lp2: log p1, log p2 (-inf for 0). A template on the scalar type of
// the parameters (double, or Dual2 for a fit's exact derivatives, or their
// packs Pk and Dual2P, copula_pack.h) and on the argument type; the psi
// that a type holds at 1 may be a double (P1 or P2) while the other
// parameters are duals: the same values, fewer dual operations.
template <typename T, typename P1 = T, typename P2 = T, typename A>
IRTOPICS_DUAL_INLINE TawnPartsT<T> tawn_parts(const T& th, const P1& p1, const P2& p2, const P1& lp1, const P2& lp2,
                                              const A& a, const A& b) {
  using std::exp;
  using std::log1p;
  constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
  const auto x = -a.lx, y = -b.lx;
  const T ea = choose(val(p1) > 0.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(th * (lp1 + a.llx)); },
                      [&]() IRTOPICS_LAMBDA_INLINE { return T(kMinusInf); });
  const T eb = choose(val(p2) > 0.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(th * (lp2 + b.llx)); },
                      [&]() IRTOPICS_LAMBDA_INLINE { return T(kMinusInf); });
  // log S = m + log(1 + e), e = e^{n - m}: the weights are 1 / (1 + e) and e / (1 + e)
  const T m = pick(val(ea) < val(eb), eb, ea);  // std::max(ea, eb)
  const T small = pick(lor(val(eb) < val(ea), val(ea) == val(eb)), eb, ea);  // std::min's value
  const T e = choose(val(m) == kMinusInf, [&]() IRTOPICS_LAMBDA_INLINE { return T(0.0); },
                     [&]() IRTOPICS_LAMBDA_INLINE { return T(exp(small - m)); });
  const T lr = (m + log1p(e)) / th, R = exp(lr);
  const T wbig = 1.0 / (1.0 + e), wsmall = e / (1.0 + e);
  const T ra = pick(val(ea) >= val(eb), wbig, wsmall);
  const T rb = pick(val(ea) >= val(eb), wsmall, wbig);
  TawnPartsT<T> t;
  t.l = (1.0 - p1) * x + (1.0 - p2) * y + R;
  t.lx = (1.0 - p1) + ra * R / x;
  t.ly = (1.0 - p2) + rb * R / y;
  t.mixed = (th - 1.0) * ra * rb * R / (x * y);
  return t;
}

inline TawnParts tawn_parts(double th, double p1, double p2, const Arg& a, const Arg& b) {
  return tawn_parts(th, p1, p2, std::log(p1), std::log(p2), a, b);
}

template <typename T>
void tawn_psi(int type, const T& p2, T& psi1, T& psi2) {
  psi1 = type == 1 ? p2 : T(1.0);
  psi2 = type == 1 ? T(1.0) : p2;
}

template <typename T, typename A>
IRTOPICS_DUAL_INLINE T tawn_log_pdf(int type, const T& th, const T& p, const T& lp, const A& a, const A& b) {
  using std::log;
  const TawnPartsT<T> t =
      type == 1 ? tawn_parts(th, p, 1.0, lp, 0.0, a, b) : tawn_parts(th, 1.0, p, 0.0, lp, a, b);
  return -t.l - a.lx - b.lx + log(t.lx * t.ly + t.mixed);
}

inline double tawn_log_pdf(int type, double th, double p, const Arg& a, const Arg& b) {
  return tawn_log_pdf(type, th, p, std::log(p), a, b);
}

inline double tawn_h(int type, double th, double p, const Arg& a, const Arg& b, bool second) {
  double p1, p2;
  tawn_psi(type, p, p1, p2);
  const TawnParts t = tawn_parts(th, p1, p2, a, b);
  return second ? std::exp(-t.l - b.lx) * t.ly : std::exp(-t.l - a.lx) * t.lx;
}

// Kendall's tau of an extreme-value copula: int_0^1 t (1 - t) A''(t) / A(t) dt
// (Hürlimann 2003; Joe 2014, section 2.18) with Pickands' A(t) = l(1 - t, t),
// where t (1 - t) A''(t) = -l_xy(1 - t, t). Transposing (type 1 <-> 2)
// leaves tau unchanged.
inline double tawn_tau(double th, double psi) {
  if (th == 1.0 || psi == 0.0) return 0.0;
  return tanh_sinh01([&](const Arg& t) {
    // x = 1 - t, y = t as arguments u = e^-x, v = e^-y: only llx and lx matter
    Arg a{}, b{};
    a.lx = -t.x1;
    a.llx = t.l1x;
    b.lx = -t.x;
    b.llx = t.lx;
    const TawnParts p = tawn_parts(th, psi, 1.0, a, b);
    return p.mixed / p.l;
  });
}

// ------------------------------------------------------------ the records

inline bool tawn_valid(double th, double psi) { return th >= 1 && psi >= 0 && psi <= 1; }
inline double tawn_tau2(double th, double psi) { return tawn_tau(th, psi); }
// theta in [1.001, 20], psi in [max(|tau| - 0.1, 1e-4), min(|tau| + 0.2, 0.99)]
inline void tawn_bounds(double tau, double lo[2], double hi[2]) {
  const double t = std::fabs(tau);
  lo[0] = 1.001;
  hi[0] = 20;
  lo[1] = std::max(t - 0.1, 1e-4);
  hi[1] = std::min(t + 0.2, 0.99);
}
// VineCopula's start, a Gumbel-like point, and two on the ridge of large
// theta and small psi where the likelihood can have a second mode
inline int tawn_starts(double t, const double lo[2], const double hi[2], double st[4][2]) {
  st[0][0] = 1 + 6 * t; st[0][1] = std::min(t + 0.1, 0.999);
  st[1][0] = 1.0 / (1 - t); st[1][1] = 0.5 * (lo[1] + hi[1]);
  st[2][0] = 4.0; st[2][1] = lo[1] + 0.2 * (hi[1] - lo[1]);
  st[3][0] = 10.0; st[3][1] = lo[1] + 0.1 * (hi[1] - lo[1]);
  return 4;
}

template <int Type>
double tawn_log_pdf_t(double th, double psi, const Arg& a, const Arg& b) { return tawn_log_pdf(Type, th, psi, a, b); }
template <int Type>
double tawn_h1_t(double th, double psi, const Arg& a, const Arg& b) { return tawn_h(Type, th, psi, a, b, false); }
template <int Type>
double tawn_h2_t(double th, double psi, const Arg& a, const Arg& b) { return tawn_h(Type, th, psi, a, b, true); }
// The log-likelihood, four observations at a time (sum_rotated_packed(),
// packed_call()).
template <int Type>
double tawn_loglik(const PairData& d, int r, double th, double psi) {
  return packed_call([&]() IRTOPICS_LAMBDA_INLINE {
    const Pk t(th), p(psi), lp = log(p);
    return sum_rotated_packed(d, r, [&](const ArgP& u, const ArgP& v) IRTOPICS_LAMBDA_INLINE {
      return tawn_log_pdf(Type, t, p, lp, u, v);
    });
  });
}
// The same with its exact gradient and Hessian in (theta, psi); its value
// is tawn_loglik()'s bit for bit.
template <int Type>
Dual2 tawn_loglik_d2(const PairData& d, int r, double th, double psi) {
  return packed_call([&]() IRTOPICS_LAMBDA_INLINE {
    const Dual2P t = Dual2P::variable(th, 0), p = Dual2P::variable(psi, 1), lp = log(p);
    return sum_rotated_packed(d, r, [&](const ArgP& u, const ArgP& v) IRTOPICS_LAMBDA_INLINE {
      return tawn_log_pdf(Type, t, p, lp, u, v);
    });
  });
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
