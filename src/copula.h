// Bivariate copula families for test calibration by stochastic simulation
// (Urbano & Nagler, SIGIR 2018, "Stochastic simulation of test collections:
// evaluation scores", section 3: a copula per pair of systems fitted to the
// pseudo-observations; Urbano, Lima & Hanjalic, SIGIR 2019, section 3): log
// density, h-functions (Aas, Czado, Frigessi & Bakken 2009, "Pair-copula
// constructions of multiple dependence", IME 44, section 2.3 and the
// appendix), their inverse, simulation by the conditional method, Kendall's
// tau of the family (Joe 2014, "Dependence modeling with copulas", section
// 4.3-4.7; Nelsen 2006, "An introduction to copulas", examples 5.4 and 5.22),
// and maximum-likelihood fitting with selection by AIC (Brechmann &
// Schepsmeier 2013, "Modeling dependence with C- and D-vine copulas: the R
// package CDVine", JSS 52(3), section 5.2).
//
// Families and parameters follow VineCopula's codes so that results compare
// directly with BiCopPDF / BiCopHfunc1 / BiCopHfunc2 / BiCopHinv1 /
// BiCopSelect: 0 independence; 1 Gaussian (rho); 2 Student t (rho, nu);
// 3 Clayton (theta > 0); 4 Gumbel (theta >= 1); 5 Frank (theta != 0); 6 Joe
// (theta >= 1); 7 BB1 (theta > 0, delta >= 1); 8 BB6 (theta >= 1,
// delta >= 1); 9 BB7 (theta >= 1, delta > 0); 10 BB8 (theta >= 1,
// 0 < delta <= 1); 104 / 204 Tawn type 1 / 2 (theta >= 1, psi in [0, 1];
// Pickands A(t) = (1 - psi1)(1 - t) + (1 - psi2) t + ((psi1 (1 - t))^th +
// (psi2 t)^th)^(1/th) with psi1 = psi, psi2 = 1 for type 1 and the reverse
// for type 2). Rotations: 13/14/16, 17-20, 114/214 by 180 degrees;
// 23/24/26, 27-30, 124/224 by 90 degrees and 33/34/36, 37-40, 134/234 by 270
// degrees, whose par is negative, and par2 too for BB1-BB8 (family 23 with
// theta = -2 is Clayton 2 rotated; 27 with (-1, -2) is BB1 (1, 2) rotated;
// 124 with (-2, 0.5) is a Tawn rotated). VineCopula builds 124 and 134 from
// Tawn type 2 and 224 and 234 from type 1 (see base_of()).
// With C the base copula (theta > 0 or >= 1):
//   180: C(u1, u2) = u1 + u2 - 1 + C(1 - u1, 1 - u2), density c(1 - u1, 1 - u2)
//    90: C(u1, u2) = u2 - C(1 - u1, u2),              density c(1 - u1, u2)
//   270: C(u1, u2) = u1 - C(u1, 1 - u2),              density c(u1, 1 - u2)
// h1(u1, u2) = dC/du1 = P(U2 <= u2 | U1 = u1), h2 = dC/du2 = P(U1 <= u1 | U2 = u2).
//
// Numerics: every argument carries x, 1 - x, log x and log(1 - x) computed
// without cancellation (a rotation swaps them), densities are in log space
// with log-sum-exp forms, so u in [1e-12, 1 - 1e-12] and parameters at the
// fitting bounds give finite values. hinv1 is closed form for the Gaussian,
// t, Clayton and Frank copulas, and a safeguarded Newton iteration (bisection
// fallback) on the logit of u2 for the others. Kendall's tau is closed form
// except Frank (Debye function: Bernoulli series below 2, exponential
// series above) and Joe (100 terms of its series plus an asymptotic tail):
// both to about 1e-10; BB1 is closed form, BB6, BB7, BB8 (Archimedean:
// 1 + 4 int phi / phi') and Tawn (extreme value: int t (1 - t) A'' / A) by
// tanh-sinh quadrature to about 1e-12.
//
// Fitting: every candidate family is fitted by maximum likelihood within
// VineCopula's bounds (BiCopEst): one-parameter families by Brent's method on
// the whole interval; the t copula by its profile likelihood in s = 1/nu over
// nu in [2.0001, 30] (a scan of 13 values, then Brent's method), the best rho
// for each nu found as the root of the score (secant steps in a bracket);
// with a TScoreTable the nu search interpolates tabulated t scores and the
// log-likelihood is then evaluated exactly at the nu found; BB1-BB8 and Tawn
// by projected Newton steps with a finite-difference Hessian (newton_box(),
// about 25 log-likelihood evaluations) from the best of two to four
// starting points, within BiCopEst's bounds (Tawn's psi within
// [|tau| - 0.1, |tau| + 0.2], as VineCopula). Candidates are preselected as
// in BiCopSelect(presel = TRUE):
// by the sign of the empirical Kendall tau, and by the difference of the
// correlations of the normal scores in opposite quadrants (see
// copula_candidates()). AIC = -2 loglik + 2 npar; independence has loglik 0.
//
// Pure C++: no R types.
#ifndef IRTOPICS_COPULA_H
#define IRTOPICS_COPULA_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions.h"
#include "kendall.h"
#include "resample.h"

namespace irtopics {

struct Copula {
  int family = 0;
  double par = 0, par2 = 0;
};

struct CopulaFit {
  Copula cop;
  double loglik = 0, aic = 0;
  int npar = 0;
};

// Parameter bounds of the fits (VineCopula's BiCopEst / MLE_intern).
constexpr double kRhoMax = 0.9999;
constexpr double kNuMin = 2.0001, kNuMax = 30.0;
constexpr double kClaytonMin = 1e-4, kClaytonMax = 28.0;
constexpr double kGumbelMin = 1.0001, kGumbelMax = 17.0;
constexpr double kFrankMax = 35.0;
constexpr double kJoeMin = 1.0001, kJoeMax = 30.0;

namespace copula_detail {

// ------------------------------------------------------------------ numerics

inline double log_sum_exp(double a, double b) {
  const double m = std::max(a, b);
  if (m == -std::numeric_limits<double>::infinity()) return m;
  return m + std::log1p(std::exp(std::min(a, b) - m));
}

// log(1 - e^x) for x < 0.
inline double log1m_exp(double x) { return x > -0.6931471805599453 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x)); }

// An argument in (0, 1): x, 1 - x, log x, log(1 - x), and for Gumbel
// log(-log x) and log(-log(1 - x)).
struct Arg {
  double x, x1, lx, l1x, llx, ll1x;
};

inline Arg make_arg(double x) {
  Arg a;
  a.x = x;
  a.x1 = 1.0 - x;
  a.lx = std::log(x);
  a.l1x = std::log1p(-x);
  a.llx = std::log(-a.lx);
  a.ll1x = std::log(-a.l1x);
  return a;
}

// The argument 1 / (1 + e^-z) (from its logit z, without cancellation).
inline Arg arg_from_logit(double z) {
  Arg a;
  a.lx = -std::log1p(std::exp(-z));
  a.l1x = -std::log1p(std::exp(z));
  a.x = std::exp(a.lx);
  a.x1 = std::exp(a.l1x);
  a.llx = std::log(-a.lx);
  a.ll1x = std::log(-a.l1x);
  return a;
}

inline Arg flip(const Arg& a) { return Arg{a.x1, a.x, a.l1x, a.lx, a.ll1x, a.llx}; }

// Quantiles of an argument, using whichever of x and 1 - x is exact.
inline double norm_q(const Arg& a) { return a.x <= 0.5 ? norm_quantile(a.x) : -norm_quantile(a.x1); }
inline double t_q(const StudentT& t, const Arg& a) { return a.x <= 0.5 ? t.quantile(a.x) : -t.quantile(a.x1); }

// ------------------------------------------------------------ base families
// Base copulas (rotation 0, Frank with either sign); h1(a, b) = P(V <= b | U = a).

// Gaussian, in normal scores x = qnorm(a), y = qnorm(b).
inline double gauss_log_pdf_xy(double rho, double x, double y) {
  const double r2 = 1.0 - rho * rho;
  return -0.5 * std::log(r2) - (rho * rho * (x * x + y * y) - 2.0 * rho * x * y) / (2.0 * r2);
}

// Student t in t scores x = qt(a, nu), y = qt(b, nu); `c` is the constant
// lgamma((nu+2)/2) + lgamma(nu/2) - 2 lgamma((nu+1)/2).
inline double t_log_pdf_xy(double rho, double nu, double c, double x, double y) {
  const double r2 = 1.0 - rho * rho;
  const double q = (x * x + y * y - 2.0 * rho * x * y) / r2;
  return c - 0.5 * std::log(r2) - 0.5 * (nu + 2.0) * std::log1p(q / nu) +
         0.5 * (nu + 1.0) * (std::log1p(x * x / nu) + std::log1p(y * y / nu));
}

inline double t_const(double nu) {
  return std::lgamma(0.5 * (nu + 2.0)) + std::lgamma(0.5 * nu) - 2.0 * std::lgamma(0.5 * (nu + 1.0));
}

// Clayton: log(a^-th + b^-th - 1), from A = -th log a >= 0, B = -th log b >= 0.
inline double clayton_log_s(double A, double B) {
  const double m = std::max(A, B);
  if (m < 30.0) return std::log1p(std::expm1(A) + std::expm1(B));
  return m + std::log(std::exp(A - m) + std::exp(B - m) - std::exp(-m));
}

// The log density without its constant log(1 + th) (fits add it once).
inline double clayton_log_pdf_point(double th, const Arg& a, const Arg& b) {
  const double ls = clayton_log_s(-th * a.lx, -th * b.lx);
  return -(1.0 + th) * (a.lx + b.lx) - (2.0 + 1.0 / th) * ls;
}

inline double clayton_log_pdf(double th, const Arg& a, const Arg& b) {
  return std::log1p(th) + clayton_log_pdf_point(th, a, b);
}

inline double clayton_h1(double th, const Arg& a, const Arg& b) {
  const double ls = clayton_log_s(-th * a.lx, -th * b.lx);
  return std::exp(-(1.0 + th) * a.lx - (1.0 + 1.0 / th) * ls);
}

// b and 1 - b.
inline void clayton_hinv1(double th, const Arg& a, double w, double& v, double& v1) {
  // b = (1 + a^-th (w^(-th/(1+th)) - 1))^(-1/th)
  const double e = std::expm1(-th / (1.0 + th) * std::log(w));
  if (!(e > 0)) {
    v = w >= 1 ? 1.0 : 0.0;
    v1 = 1.0 - v;
    return;
  }
  const double p = -th * a.lx + std::log(e);
  const double lt = p > 0 ? p + std::log1p(std::exp(-p)) : std::log1p(std::exp(p));
  v = std::exp(-lt / th);
  v1 = -std::expm1(-lt / th);
}

// Gumbel: log(x^th + y^th), x = -log a, y = -log b, from log x and log y.
inline double gumbel_log_s(double th, double llx, double lly) {
  const double m = std::max(llx, lly), n = std::min(llx, lly);
  return th * m + std::log1p(std::exp(th * (n - m)));
}

inline double gumbel_log_pdf(double th, const Arg& a, const Arg& b) {
  const double ls = gumbel_log_s(th, a.llx, b.llx);
  const double A = std::exp(ls / th);
  return -A - a.lx - b.lx + (th - 1.0) * (a.llx + b.llx) + (1.0 / th - 2.0) * ls + std::log(A + th - 1.0);
}

inline double gumbel_h1(double th, const Arg& a, const Arg& b) {
  const double ls = gumbel_log_s(th, a.llx, b.llx);
  const double A = std::exp(ls / th);
  return std::exp(-A - a.lx + (th - 1.0) * a.llx + (1.0 / th - 1.0) * ls);
}

// Frank, theta > 0 (negative theta through b -> 1 - b, see below):
// D = e^{-th a}(1 - e^{-th b}) + e^{-th b}(1 - e^{-th (1-b)}), both terms >= 0.
// Without the constant log(th) + log(1 - e^-th) (frank_pos_log_const).
inline double frank_pos_log_pdf_point(double th, const Arg& a, const Arg& b) {
  double ld;
  if (th <= 50) {  // D in linear space: e^{-th a} >= e^-50, no underflow
    ld = std::log(-std::exp(-th * a.x) * std::expm1(-th * b.x) - std::exp(-th * b.x) * std::expm1(-th * b.x1));
  } else {
    ld = log_sum_exp(-th * a.x + std::log(-std::expm1(-th * b.x)), -th * b.x + std::log(-std::expm1(-th * b.x1)));
  }
  return -th * (a.x + b.x) - 2.0 * ld;
}

inline double frank_pos_log_const(double th) { return std::log(th) + std::log(-std::expm1(-th)); }

inline double frank_pos_log_pdf(double th, const Arg& a, const Arg& b) {
  return frank_pos_log_const(th) + frank_pos_log_pdf_point(th, a, b);
}

// h1 = N / (N + M) with N, M the two terms of D; also 1 - h1 = M / (N + M).
inline void frank_pos_h1(double th, const Arg& a, const Arg& b, double& h, double& h_c) {
  // log(M / N)
  const double lr = th * (a.x - b.x) + std::log(-std::expm1(-th * b.x1)) - std::log(-std::expm1(-th * b.x));
  if (lr > 0) {
    const double e = std::exp(-lr);
    h = e / (1.0 + e);
    h_c = 1.0 / (1.0 + e);
  } else {
    const double e = std::exp(lr);
    h = 1.0 / (1.0 + e);
    h_c = e / (1.0 + e);
  }
}

inline double frank_log_pdf(double th, const Arg& a, const Arg& b) {
  if (std::fabs(th) < 1e-12) return 0.0;
  return th > 0 ? frank_pos_log_pdf(th, a, b) : frank_pos_log_pdf(-th, a, flip(b));
}

inline double frank_h1(double th, const Arg& a, const Arg& b) {
  if (std::fabs(th) < 1e-12) return b.x;
  double h, hc;
  if (th > 0) {
    frank_pos_h1(th, a, b, h, hc);
    return h;
  }
  frank_pos_h1(-th, a, flip(b), h, hc);  // C(u, v; -th) = u - C(u, 1 - v; th)
  return hc;
}

// b = log1p(r) / th with r = -w expm1(-th) / (w e^-th + (1 - w) e^{-th a})
// (from h1(a, b) = w), r formed in log space: for th > 0, r > 0 and b is a
// softplus; for th < 0, r in (-1, 0).
inline double frank_hinv1(double th, const Arg& a, double w) {
  if (std::fabs(th) < 1e-12) return w;
  const double lw = std::log(w), l1w = std::log1p(-w);
  const double lden = log_sum_exp(lw - th, l1w - th * a.x);
  if (th > 0) {
    const double lr = lw + std::log(-std::expm1(-th)) - lden;
    const double sp = lr > 0 ? lr + std::log1p(std::exp(-lr)) : std::log1p(std::exp(lr));
    return sp / th;
  }
  const double k = -th;
  const double r = -std::exp(lw + k + log1m_exp(-k) - lden);
  if (r > -0.5) return std::log1p(r) / th;
  // 1 + r = (w + (1 - w) e^{-th a}) / (w e^-th + (1 - w) e^{-th a}), no cancellation
  return (log_sum_exp(lw, l1w - th * a.x) - lden) / th;
}

// Joe: S = a' + b'(1 - a'), a' = (1-a)^th, b' = (1-b)^th.
inline double joe_log_s(double th, const Arg& a, const Arg& b) {
  return log_sum_exp(th * a.l1x, th * b.l1x + log1m_exp(th * a.l1x));
}

inline double joe_log_pdf(double th, const Arg& a, const Arg& b) {
  const double pa = th * a.l1x, pb = th * b.l1x;
  double ls, S;
  if (pa > -700 && pb > -700) {  // S in linear space, no underflow
    const double ea = std::exp(pa);
    S = ea - std::exp(pb) * std::expm1(pa);
    ls = std::log(S);
  } else {
    ls = joe_log_s(th, a, b);
    S = std::exp(ls);
  }
  return (1.0 / th - 2.0) * ls + (th - 1.0) * (a.l1x + b.l1x) + std::log(th - 1.0 + S);
}

inline double joe_h1(double th, const Arg& a, const Arg& b) {
  const double ls = joe_log_s(th, a, b);
  return std::exp((1.0 / th - 1.0) * ls + (th - 1.0) * a.l1x + log1m_exp(th * b.l1x));
}

// BB1 (Joe 2014, section 4.17.1), theta > 0, delta >= 1: Archimedean with
// generator (t^-th - 1)^de; C = (1 + s^(1/de))^(-1/th),
// s = A(u)^de + A(v)^de, A(t) = t^-th - 1.
inline double bb1_log_a(double th, const Arg& a) {
  const double z = -th * a.lx;  // > 0
  return z < 30.0 ? std::log(std::expm1(z)) : z + std::log1p(-std::exp(-z));
}

inline double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// The two-parameter Archimedean log densities split into a part of each
// argument alone (`Marg`: a key the pair part needs and an additive term)
// and a pair part, so that a fit computes the margins once per distinct
// pseudo-observation (loglik_twopar()). log c(a, b) = pair(ma.key, mb.key) +
// ma.add + mb.add; the constructors hold the constants of a parameter.
struct Marg {
  double key, add;
};

struct BB1Density {
  double th, de, c1, c2;  // c1 = 1 + th de, c2 = th (de - 1)
  BB1Density(double th_, double de_) : th(th_), de(de_), c1(1.0 + th_ * de_), c2(th_ * (de_ - 1.0)) {}
  Marg margin(const Arg& a) const {
    const double la = bb1_log_a(th, a);
    return {de * la, (de - 1.0) * la - (th + 1.0) * a.lx};
  }
  double pair(double ka, double kb) const {
    const double ls = log_sum_exp(ka, kb), lr = ls / de;
    // (th + 1) r + th (de - 1) (1 + r) = r (1 + th de) + th (de - 1)
    double l1pr, lbr;
    if (lr < 700) {
      const double r = std::exp(lr);
      l1pr = std::log1p(r);
      lbr = std::log(r * c1 + c2);
    } else {
      l1pr = softplus(lr);
      lbr = log_sum_exp(lr + std::log(c1), std::log(c2));
    }
    return -(1.0 / th + 2.0) * l1pr + (1.0 / de - 2.0) * ls + lbr;
  }
};

template <typename D>
double split_log_pdf(const D& dens, const Arg& a, const Arg& b) {
  const Marg ma = dens.margin(a), mb = dens.margin(b);
  return dens.pair(ma.key, mb.key) + ma.add + mb.add;
}

inline double bb1_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB1Density(th, de), a, b);
}

inline double bb1_h1(double th, double de, const Arg& a, const Arg& b) {
  const double la = bb1_log_a(th, a), lb = bb1_log_a(th, b);
  const double ls = log_sum_exp(de * la, de * lb), l1pr = softplus(ls / de);
  return std::exp(-(1.0 / th + 1.0) * l1pr + (1.0 / de - 1.0) * ls + (de - 1.0) * la - (th + 1.0) * a.lx);
}

// log(1 - (1 - t)^th) (BB6, BB7).
inline double log_one_minus_pow(double th, const Arg& a) { return log1m_exp(th * a.l1x); }

// BB6 (Joe 2014, section 4.17.3), theta >= 1, delta >= 1: generator
// x(t)^de, x(t) = -log(1 - (1 - t)^th); C = 1 - (1 - e^-w)^(1/th),
// w = s^(1/de), s = x(u)^de + x(v)^de.
struct BB6Density {
  double th, de, lth;
  BB6Density(double th_, double de_) : th(th_), de(de_), lth(std::log(th_)) {}
  Marg margin(const Arg& a) const {
    const double lba = log_one_minus_pow(th, a), lxa = std::log(-lba);
    return {de * lxa, (de - 1.0) * lxa + (th - 1.0) * a.l1x - lba};
  }
  double pair(double ka, double kb) const {
    const double ls = log_sum_exp(ka, kb), lw = ls / de, w = std::exp(lw);
    const double q = -std::expm1(-w);  // 1 - e^-w
    const double br = w * (th - 1.0 + q) / th + (de - 1.0) * q;
    return lth + (1.0 / th - 2.0) * std::log(q) - w + lw - 2.0 * ls + std::log(br);
  }
};

inline double bb6_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB6Density(th, de), a, b);
}

inline double bb6_h1(double th, double de, const Arg& a, const Arg& b) {
  const double lba = log_one_minus_pow(th, a), lbb = log_one_minus_pow(th, b);
  const double lxa = std::log(-lba), lxb = std::log(-lbb);
  const double ls = log_sum_exp(de * lxa, de * lxb), lw = ls / de, w = std::exp(lw);
  return std::exp((1.0 / th - 1.0) * std::log(-std::expm1(-w)) - w + lw - ls + (de - 1.0) * lxa +
                  (th - 1.0) * a.l1x - lba);
}

// BB7 (Joe 2014, section 4.17.4), theta >= 1, delta > 0: generator
// B(t)^-de - 1, B(t) = 1 - (1 - t)^th; C = 1 - (1 - z)^(1/th),
// z = (1 + s)^(-1/de), 1 + s = B(u)^-de + B(v)^-de - 1.
struct BB7Density {
  double th, de;
  BB7Density(double th_, double de_) : th(th_), de(de_) {}
  Marg margin(const Arg& a) const {
    const double lba = log_one_minus_pow(th, a);
    return {-de * lba, -(de + 1.0) * lba + (th - 1.0) * a.l1x};
  }
  double pair(double ka, double kb) const {
    const double lz = -clayton_log_s(ka, kb) / de, l1mz = log1m_exp(std::min(lz, -1e-300));
    const double br = (th - 1.0) * std::exp(lz) + th * (1.0 + de) * std::exp(l1mz);
    return (1.0 + 2.0 * de) * lz + (1.0 / th - 2.0) * l1mz + std::log(br);
  }
};

inline double bb7_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB7Density(th, de), a, b);
}

inline double bb7_h1(double th, double de, const Arg& a, const Arg& b) {
  const double lba = log_one_minus_pow(th, a), lbb = log_one_minus_pow(th, b);
  const double lz = -clayton_log_s(-de * lba, -de * lbb) / de, l1mz = log1m_exp(std::min(lz, -1e-300));
  return std::exp((1.0 / th - 1.0) * l1mz + (1.0 + de) * lz - (de + 1.0) * lba + (th - 1.0) * a.l1x);
}

// BB8 (Joe 2014, section 4.17.5; "Joe-Frank"), theta >= 1, 0 < delta <= 1:
// C = (1 - (1 - P)^(1/th)) / de, P = D(u) D(v) / eta,
// D(t) = 1 - (1 - de t)^th, eta = 1 - (1 - de)^th.
inline double bb8_log_q(double de, const Arg& a) { return std::log((1.0 - de) + de * a.x1); }  // log(1 - de t)
inline double bb8_log_eta(double th, double de) { return de >= 1 ? 0.0 : log1m_exp(th * std::log1p(-de)); }

struct BB8Density {
  double th, de, leta, lde;  // log eta, log de
  BB8Density(double th_, double de_) : th(th_), de(de_), leta(bb8_log_eta(th_, de_)), lde(std::log(de_)) {}
  Marg margin(const Arg& a) const {
    const double lq = bb8_log_q(de, a);
    return {log1m_exp(th * lq), (th - 1.0) * lq};  // log D(a)
  }
  double pair(double ka, double kb) const {
    const double lp = std::min(ka + kb - leta, 0.0);
    return lde - leta + (1.0 / th - 2.0) * log1m_exp(lp) + std::log(th - std::exp(lp));
  }
};

inline double bb8_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB8Density(th, de), a, b);
}

inline double bb8_h1(double th, double de, const Arg& a, const Arg& b) {
  const double lqa = bb8_log_q(de, a), lqb = bb8_log_q(de, b), leta = bb8_log_eta(th, de);
  const double ldb = log1m_exp(th * lqb);
  const double lp = std::min(log1m_exp(th * lqa) + ldb - leta, 0.0);
  return std::exp((1.0 / th - 1.0) * log1m_exp(lp) + (th - 1.0) * lqa + ldb - leta);
}

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
struct TawnParts {
  double l, lx, ly, mixed;  // l, l_x, l_y, -l_xy
};

// lp1, lp2: log p1, log p2 (-inf for 0).
inline TawnParts tawn_parts(double th, double p1, double p2, double lp1, double lp2, const Arg& a, const Arg& b) {
  const double x = -a.lx, y = -b.lx;
  const double ea = p1 > 0 ? th * (lp1 + a.llx) : -std::numeric_limits<double>::infinity();
  const double eb = p2 > 0 ? th * (lp2 + b.llx) : -std::numeric_limits<double>::infinity();
  // log S = m + log(1 + e), e = e^{n - m}: the weights are 1 / (1 + e) and e / (1 + e)
  const double m = std::max(ea, eb), e = m == -std::numeric_limits<double>::infinity() ? 0.0 : std::exp(std::min(ea, eb) - m);
  const double lr = (m + std::log1p(e)) / th, R = std::exp(lr);
  const double wbig = 1.0 / (1.0 + e), wsmall = e / (1.0 + e);
  const double ra = ea >= eb ? wbig : wsmall, rb = ea >= eb ? wsmall : wbig;
  TawnParts t;
  t.l = (1.0 - p1) * x + (1.0 - p2) * y + R;
  t.lx = (1.0 - p1) + ra * R / x;
  t.ly = (1.0 - p2) + rb * R / y;
  t.mixed = (th - 1.0) * ra * rb * R / (x * y);
  return t;
}

inline TawnParts tawn_parts(double th, double p1, double p2, const Arg& a, const Arg& b) {
  return tawn_parts(th, p1, p2, std::log(p1), std::log(p2), a, b);
}

inline void tawn_psi(int base, double p2, double& psi1, double& psi2) {
  psi1 = base == 104 ? p2 : 1.0;
  psi2 = base == 104 ? 1.0 : p2;
}

inline double tawn_log_pdf(int base, double th, double p, double lp, const Arg& a, const Arg& b) {
  double p1, p2;
  tawn_psi(base, p, p1, p2);
  const TawnParts t = base == 104 ? tawn_parts(th, p1, p2, lp, 0.0, a, b) : tawn_parts(th, p1, p2, 0.0, lp, a, b);
  return -t.l - a.lx - b.lx + std::log(t.lx * t.ly + t.mixed);
}

inline double tawn_log_pdf(int base, double th, double p, const Arg& a, const Arg& b) {
  return tawn_log_pdf(base, th, p, std::log(p), a, b);
}

inline double tawn_h(int base, double th, double p, const Arg& a, const Arg& b, bool second) {
  double p1, p2;
  tawn_psi(base, p, p1, p2);
  const TawnParts t = tawn_parts(th, p1, p2, a, b);
  return second ? std::exp(-t.l - b.lx) * t.ly : std::exp(-t.l - a.lx) * t.lx;
}

// ------------------------------------------------------- family dispatch

// Base family and rotation of a VineCopula code: 0-10 are base families;
// 13-20 their 180 degree, 23-30 their 90 degree and 33-40 their 270 degree
// rotations (11, 12, 15, 21, 22, 25, 31, 32, 35 do not exist); 104 / 204
// are Tawn type 1 / 2 with 114 / 214 their 180 degree rotations. VineCopula
// builds 124 and 134 from the type 2 copula and 224 and 234 from type 1
// (BiCopPDF(u1, u2, 124, par, par2) is the type 2 density at (1 - u1, u2)),
// so base_of() maps them to 204 and 104.
inline int base_of(int family) {
  if (family >= 100) {
    const int r = (family % 100) / 10;
    const int type = family / 100;  // 1 or 2
    if (r == 2 || r == 3) return type == 1 ? 204 : 104;
    return type == 1 ? 104 : 204;
  }
  if (family <= 10) return family;
  return family - 10 * (family / 10) + (family % 10 == 0 ? 10 : 0);
}
inline int rotation_of(int family) {
  const int r = family >= 100 ? (family % 100) / 10 : (family <= 10 ? 0 : (family - 1) / 10);
  switch (r) {
    case 1: return 180;
    case 2: return 90;
    case 3: return 270;
    default: return 0;
  }
}

inline bool is_known_family(int f) {
  switch (f) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10:
    case 13: case 14: case 16: case 17: case 18: case 19: case 20:
    case 23: case 24: case 26: case 27: case 28: case 29: case 30:
    case 33: case 34: case 36: case 37: case 38: case 39: case 40:
    case 104: case 114: case 124: case 134: case 204: case 214: case 224: case 234:
      return true;
    default:
      return false;
  }
}

// Families with two parameters (t, BB1, BB6, BB7, BB8, Tawn).
inline bool is_two_par(int f) { return f == 2 || (f >= 7 && f <= 10) || (f >= 17 && f <= 20) || (f >= 27 && f <= 30) ||
                                       (f >= 37 && f <= 40) || f >= 100; }

inline bool is_tawn(int base) { return base >= 100; }

// Base log density / h1 for base family b with base parameters th, p2
// (t: rho, nu; BB: theta, delta; Tawn: theta, psi).
inline double base_log_pdf(int b, double th, double p2, const Arg& x, const Arg& y) {
  switch (b) {
    case 1: return gauss_log_pdf_xy(th, norm_q(x), norm_q(y));
    case 2: {
      const StudentT t(p2);
      return t_log_pdf_xy(th, p2, t_const(p2), t_q(t, x), t_q(t, y));
    }
    case 3: return clayton_log_pdf(th, x, y);
    case 4: return gumbel_log_pdf(th, x, y);
    case 5: return frank_log_pdf(th, x, y);
    case 6: return joe_log_pdf(th, x, y);
    case 7: return bb1_log_pdf(th, p2, x, y);
    case 8: return bb6_log_pdf(th, p2, x, y);
    case 9: return bb7_log_pdf(th, p2, x, y);
    case 10: return bb8_log_pdf(th, p2, x, y);
    case 104: case 204: return tawn_log_pdf(b, th, p2, x, y);
    default: return 0.0;
  }
}

inline double base_h1(int b, double th, double p2, const Arg& x, const Arg& y) {
  switch (b) {
    case 1: return norm_cdf((norm_q(y) - th * norm_q(x)) / std::sqrt(1.0 - th * th));
    case 2: {
      const double nu = p2;
      const StudentT t(nu), t1(nu + 1.0);
      const double qx = t_q(t, x), qy = t_q(t, y);
      return t1.cdf((qy - th * qx) / std::sqrt((nu + qx * qx) * (1.0 - th * th) / (nu + 1.0)));
    }
    case 3: return clayton_h1(th, x, y);
    case 4: return gumbel_h1(th, x, y);
    case 5: return frank_h1(th, x, y);
    case 6: return joe_h1(th, x, y);
    case 7: return bb1_h1(th, p2, x, y);
    case 8: return bb6_h1(th, p2, x, y);
    case 9: return bb7_h1(th, p2, x, y);
    case 10: return bb8_h1(th, p2, x, y);
    case 104: case 204: return tawn_h(b, th, p2, x, y, false);
    default: return y.x;
  }
}

// P(U <= a | V = b) of the base copula: h1 of the transposed copula, which
// is the same family except for Tawn.
inline double base_h2(int b, double th, double p2, const Arg& x, const Arg& y) {
  if (is_tawn(b)) return tawn_h(b, th, p2, x, y, true);
  return base_h1(b, th, p2, y, x);
}

// The b in (0, 1) with base_h1(a, b) = w: Newton on z = logit(b) with the
// density as derivative, bisection when a step leaves the bracket.
inline void base_hinv1_numeric(int b, double th, double p2, const Arg& a, double w, double& v, double& v1) {
  double lo = -745.0, hi = 37.0;  // logit bracket: b from ~1e-324 to 1 - 1e-16
  double z = std::log(w) - std::log1p(-w);
  z = std::min(std::max(z, lo + 1), hi - 1);
  for (int it = 0; it < 200; ++it) {
    const Arg y = arg_from_logit(z);
    const double f = base_h1(b, th, p2, a, y) - w;
    if (f == 0) break;
    if (f > 0) hi = z; else lo = z;
    const double slope = std::exp(base_log_pdf(b, th, p2, a, y) + y.lx + y.l1x);
    double next = z - f / slope;
    if (!(slope > 0) || !std::isfinite(next) || next <= lo || next >= hi) next = 0.5 * (lo + hi);
    const double change = std::fabs(next - z);
    z = next;
    if (change <= 1e-15 * std::max(1.0, std::fabs(z)) || hi - lo <= 1e-15 * std::max(1.0, std::fabs(z))) break;
  }
  const Arg y = arg_from_logit(z);
  v = y.x;
  v1 = y.x1;
}

// The b with base_h1(a, b) = w, and 1 - b (exact where the method allows:
// all but Frank).
inline void base_hinv1(int b, double th, double p2, const Arg& a, double w, double& v, double& v1) {
  if (w <= 0 || w >= 1) {
    v = w <= 0 ? 0.0 : 1.0;
    v1 = 1.0 - v;
    return;
  }
  switch (b) {
    case 1: {
      const double z = norm_quantile(w) * std::sqrt(1.0 - th * th) + th * norm_q(a);
      v = norm_cdf(z);
      v1 = norm_cdf(-z);
      return;
    }
    case 2: {
      const double nu = p2;
      const StudentT t(nu), t1(nu + 1.0);
      const double qa = t_q(t, a);
      const double z = t1.quantile(w) * std::sqrt((nu + qa * qa) * (1.0 - th * th) / (nu + 1.0)) + th * qa;
      v = t.cdf(z);
      v1 = t.cdf(-z);
      return;
    }
    case 3: clayton_hinv1(th, a, w, v, v1); return;
    case 5: {
      v = frank_hinv1(th, a, w);
      if (v >= 0 && v <= 1) {
        v1 = 1.0 - v;
        return;
      }
      base_hinv1_numeric(b, th, p2, a, w, v, v1);
      return;
    }
    case 0: v = w; v1 = 1.0 - w; return;
    default: base_hinv1_numeric(b, th, p2, a, w, v, v1); return;
  }
}

// Kendall's tau of Frank's copula, theta > 0: 4 sum_k B_2k th^(2k-1) /
// ((2k+1)(2k)!) below 2, else 1 - 4/th (1 - D1(th)) with
// th D1(th) = pi^2/6 - sum_k e^{-k th} (th/k + 1/k^2).
inline double frank_tau_pos(double th) {
  if (th < 2.0) {
    static const double bern[] = {1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6,
                                  -3617.0 / 510, 43867.0 / 798, -174611.0 / 330, 854513.0 / 138,
                                  -236364091.0 / 2730};
    double sum = 0, fact = 1.0, pw = th;  // fact = (2k)!, pw = th^(2k-1)
    for (int k = 1; k <= 12; ++k) {
      fact *= (2.0 * k - 1) * (2.0 * k);
      sum += bern[k - 1] * pw / ((2.0 * k + 1) * fact);
      pw *= th * th;
    }
    return 4.0 * sum;
  }
  double tail = 0;
  for (int k = 1; k <= 60; ++k) {
    const double term = std::exp(-k * th) * (th / k + 1.0 / (static_cast<double>(k) * k));
    tail += term;
    if (term < 1e-18) break;
  }
  const double integral = kPi * kPi / 6.0 - tail;  // int_0^th t/(e^t - 1) dt
  const double d1 = integral / th;
  return 1.0 - 4.0 / th * (1.0 - d1);
}

// Kendall's tau of Joe's copula: 1 - 4 sum_k 1/(k (th k + 2)(th (k-1) + 2)).
inline double joe_tau(double th) {
  const int K = 100;
  double sum = 0;
  for (int k = K; k >= 1; --k) sum += 1.0 / (k * (th * k + 2.0) * (th * (k - 1.0) + 2.0));
  // Tail k > K: the midpoint rule, int_X^inf f + f'(X)/24 with X = K + 1/2 and
  // f(x) = 1 / (th^2 x (x + a)(x + b)), a = 2/th, b = 2/th - 1, from the
  // expansion 1/((1 + a/x)(1 + b/x)) = sum_j (-1)^j h_j x^-j.
  const double a = 2.0 / th, b = 2.0 / th - 1.0, X = K + 0.5;
  double integral = 0, pa = 1.0;
  std::vector<double> h(10, 0.0);
  for (int j = 0; j < 10; ++j) {
    // h_j = sum_{i <= j} a^i b^(j-i), by h_j = a^j + b h_{j-1}
    h[j] = pa + (j > 0 ? b * h[j - 1] : 0.0);
    pa *= a;
    integral += ((j % 2) ? -1.0 : 1.0) * h[j] * std::pow(X, -2.0 - j) / (2.0 + j);
  }
  integral /= th * th;
  const double fX = 1.0 / (th * th * X * (X + a) * (X + b));
  const double deriv = -fX * (1.0 / X + 1.0 / (X + a) + 1.0 / (X + b));  // f'(X)
  sum += integral + deriv / 24.0;
  return 1.0 - 4.0 * sum;
}


// int_0^1 f(t) dt by tanh-sinh quadrature (Takahasi & Mori 1974): t =
// 1 / (1 + e^{-pi sinh s}), so f receives t and 1 - t exactly (an Arg), and
// integrable end-point singularities are harmless. Step halving until two
// levels agree to 1e-13 (absolute; the integrands here are O(1)).
template <typename F>
double tanh_sinh01(F&& f) {
  const double smax = 3.2;  // pi sinh(3.2) = 38.5: t down to 2e-17
  auto term = [&](double s) {
    const double z = kPi * std::sinh(s);
    const Arg t = arg_from_logit(z);
    const double v = f(t);
    const double w = kPi * std::cosh(s) * t.x * t.x1;
    return std::isfinite(v) && w > 0 ? v * w : 0.0;
  };
  double h = 0.5;
  double sum = term(0.0);
  for (double s = h; s <= smax; s += h) sum += term(s) + term(-s);
  double est = sum * h;
  for (int level = 0; level < 8; ++level) {
    h *= 0.5;
    for (double s = h; s <= smax; s += 2 * h) sum += term(s) + term(-s);
    const double next = sum * h;
    const bool done = std::fabs(next - est) <= 1e-13 && level >= 2;
    est = next;
    if (done) break;
  }
  return est;
}

// Kendall's tau of an Archimedean copula: 1 + 4 int_0^1 phi(t) / phi'(t) dt
// (Nelsen 2006, theorem 5.1.1); the BB copulas' phi / phi' in closed form.
inline double bb_tau(int base, double th, double de) {
  if (base == 7) return 1.0 - 2.0 / (de * (th + 2.0));
  const double lc = std::log(th * de);
  double integral = 0;
  if (base == 8) {
    // phi = (-log B)^de, B = 1 - (1-t)^th: phi/phi' = log(B) B / (de th (1-t)^(th-1))
    integral = tanh_sinh01([&](const Arg& t) {
      const double lb = log_one_minus_pow(th, t);
      return lb * std::exp(lb - lc - (th - 1.0) * t.l1x);
    });
  } else if (base == 9) {
    // phi = B^-de - 1: phi/phi' = -B (1 - B^de) / (de th (1-t)^(th-1))
    integral = tanh_sinh01([&](const Arg& t) {
      const double lb = log_one_minus_pow(th, t);
      return -std::exp(lb + log1m_exp(de * lb) - lc - (th - 1.0) * t.l1x);
    });
  } else if (base == 10) {
    // phi = -log(D / eta), D = 1 - (1 - de t)^th: phi/phi' = log(D / eta) D / (th de (1 - de t)^(th-1))
    const double leta = bb8_log_eta(th, de);
    integral = tanh_sinh01([&](const Arg& t) {
      const double lq = bb8_log_q(de, t), ld = log1m_exp(th * lq);
      return (ld - leta) * std::exp(ld - lc - (th - 1.0) * lq);
    });
  }
  return 1.0 + 4.0 * integral;
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

}  // namespace copula_detail

// --------------------------------------------------------------- interface

// Throws std::invalid_argument unless c is a family this file knows with
// parameters inside its domain (VineCopula's BiCopCheck, for the 90 and 270
// degree rotations with negated par and, for BB1-BB8, par2; the BB
// families' upper bounds in BiCopCheck are not enforced, BB6 needs
// theta >= 1 where BiCopCheck accepts theta > 0).
inline void copula_check(const Copula& c) {
  using namespace copula_detail;
  const int f = c.family;
  if (!is_known_family(f)) throw std::invalid_argument("unknown copula family " + std::to_string(f));
  const double p = c.par, p2 = c.par2;
  bool ok = std::isfinite(p) && std::isfinite(p2);
  const int b = base_of(f), r = rotation_of(f);
  const bool neg = r == 90 || r == 270;
  const double s = neg ? -p : p, s2 = neg && !is_tawn(b) ? -p2 : p2;
  switch (b) {
    case 0: ok = true; break;
    case 1: ok = ok && std::fabs(p) < 1; break;
    case 2: ok = ok && std::fabs(p) < 1 && p2 > 0; break;
    case 3: ok = ok && s > 0; break;
    case 4: case 6: ok = ok && s >= 1; break;
    case 5: ok = ok && p != 0; break;
    case 7: ok = ok && s > 0 && s2 >= 1; break;
    case 8: ok = ok && s >= 1 && s2 >= 1; break;
    case 9: ok = ok && s >= 1 && s2 > 0; break;
    case 10: ok = ok && s >= 1 && s2 > 0 && s2 <= 1; break;
    case 104: case 204: ok = ok && s >= 1 && s2 >= 0 && s2 <= 1; break;
  }
  if (!ok) throw std::invalid_argument("parameter out of range for copula family " + std::to_string(f));
}

namespace copula_detail {
// Rotated arguments and base parameters.
inline void rotate(const Copula& c, const Arg& u1, const Arg& u2, Arg& a, Arg& b, int& base, double& th, double& th2) {
  base = base_of(c.family);
  th = c.par;
  th2 = c.par2;
  switch (rotation_of(c.family)) {
    case 180: a = flip(u1); b = flip(u2); break;
    case 90: a = flip(u1); b = u2; break;
    case 270: a = u1; b = flip(u2); break;
    default: a = u1; b = u2; break;
  }
  const int r = rotation_of(c.family);
  if (r == 90 || r == 270) {
    th = -th;
    if (!is_tawn(base)) th2 = -th2;
  }
}
}  // namespace copula_detail

inline double copula_log_pdf(const Copula& c, double u1, double u2) {
  using namespace copula_detail;
  if (c.family == 0) return 0.0;
  Arg a, b;
  int base;
  double th, th2;
  rotate(c, make_arg(u1), make_arg(u2), a, b, base, th, th2);
  return base_log_pdf(base, th, th2, a, b);
}

inline double copula_pdf(const Copula& c, double u1, double u2) { return std::exp(copula_log_pdf(c, u1, u2)); }

namespace copula_detail {
// h1 (second = false) or h2 of a rotated copula from the base h-function:
//   180: C = u1 + u2 - 1 + C0(1-u1, 1-u2): h1 = 1 - h1_0, h2 = 1 - h2_0
//    90: C = u2 - C0(1-u1, u2):            h1 = h1_0,     h2 = 1 - h2_0
//   270: C = u1 - C0(u1, 1-u2):            h1 = 1 - h1_0, h2 = h2_0
inline double rotated_h(const Copula& c, double u1, double u2, bool second) {
  if (c.family == 0) return second ? u1 : u2;
  Arg a, b;
  int base;
  double th, th2;
  rotate(c, make_arg(u1), make_arg(u2), a, b, base, th, th2);
  const double h = second ? base_h2(base, th, th2, a, b) : base_h1(base, th, th2, a, b);
  const int r = rotation_of(c.family);
  const bool complement = r == 180 || r == (second ? 90 : 270);
  return std::min(1.0, std::max(0.0, complement ? 1.0 - h : h));  // 1 - h may round past 0
}
}  // namespace copula_detail

// P(U2 <= u2 | U1 = u1).
inline double copula_h1(const Copula& c, double u1, double u2) { return copula_detail::rotated_h(c, u1, u2, false); }

// P(U1 <= u1 | U2 = u2).
inline double copula_h2(const Copula& c, double u1, double u2) { return copula_detail::rotated_h(c, u1, u2, true); }

// The u2 with copula_h1(c, u1, u2) = w.
inline double copula_hinv1(const Copula& c, double u1, double w) {
  using namespace copula_detail;
  if (c.family == 0) return w;
  Arg a, b;
  int base;
  double th, th2;
  const Arg x = make_arg(u1);
  rotate(c, x, x, a, b, base, th, th2);
  double v, v1;
  switch (rotation_of(c.family)) {
    case 180: base_hinv1(base, th, th2, a, 1.0 - w, v, v1); return v1;
    case 90: base_hinv1(base, th, th2, a, w, v, v1); return v;
    case 270: base_hinv1(base, th, th2, a, 1.0 - w, v, v1); return v1;
    default: base_hinv1(base, th, th2, a, w, v, v1); return v;
  }
}

// A uniform on (0, 1), never 0 or 1, from 53 random bits.
inline double stream_uniform(Stream& st) { return (static_cast<double>(st.next64() >> 11) + 0.5) * 0x1p-53; }

// n pairs by the conditional method: u1 uniform, u2 = hinv1(u1, w), w uniform
// (u1 drawn first, then w, from consecutive outputs).
inline void copula_simulate(const Copula& c, Stream& st, std::size_t n, double* u1, double* u2) {
  for (std::size_t i = 0; i < n; ++i) {
    const double a = stream_uniform(st);
    const double w = stream_uniform(st);
    u1[i] = a;
    u2[i] = copula_hinv1(c, a, w);
  }
}

// Kendall's tau of the copula.
inline double copula_tau(const Copula& c) {
  using namespace copula_detail;
  const int base = base_of(c.family), r = rotation_of(c.family);
  const double sign = (r == 90 || r == 270) ? -1.0 : 1.0;
  const double th = sign * c.par;  // the base parameters
  const double th2 = is_tawn(base) ? c.par2 : sign * c.par2;
  double tau = 0;
  switch (base) {
    case 1: case 2: tau = 2.0 / kPi * std::asin(c.par); return tau;
    case 3: tau = th / (th + 2.0); break;
    case 4: tau = 1.0 - 1.0 / th; break;
    case 5: return c.par > 0 ? frank_tau_pos(c.par) : (c.par < 0 ? -frank_tau_pos(-c.par) : 0.0);
    case 6: tau = joe_tau(th); break;
    case 7: case 8: case 9: case 10: tau = bb_tau(base, th, th2); break;
    case 104: case 204: tau = tawn_tau(th, th2); break;
    default: return 0.0;
  }
  return sign * tau;
}

// ------------------------------------------------------------------ fitting

namespace copula_detail {

// Brent's minimisation without derivatives (Brent 1973, "Algorithms for
// minimization without derivatives", chapter 5), used to maximise f on
// [lo, hi]; returns the argmax, its value in fmax.
template <typename F>
double brent_max(F&& f, double lo, double hi, double& fmax, double tol_rel = 1e-9, double tol_abs = 1e-10) {
  constexpr double golden = 0.3819660112501051;
  double a = lo, b = hi;
  double x = a + golden * (b - a), w = x, v = x;
  double fx = -f(x), fw = fx, fv = fx;
  double d = 0, e = 0;
  for (int it = 0; it < 200; ++it) {
    const double m = 0.5 * (a + b);
    const double tol1 = tol_rel * std::fabs(x) + tol_abs, tol2 = 2 * tol1;
    if (std::fabs(x - m) <= tol2 - 0.5 * (b - a)) break;
    bool golden_step = true;
    if (std::fabs(e) > tol1) {
      double r = (x - w) * (fx - fv);
      double q = (x - v) * (fx - fw);
      double p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = std::fabs(q);
      const double e_old = e;
      e = d;
      if (std::fabs(p) < std::fabs(0.5 * q * e_old) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const double u = x + d;
        if (u - a < tol2 || b - u < tol2) d = x < m ? tol1 : -tol1;
        golden_step = false;
      }
    }
    if (golden_step) {
      e = x >= m ? a - x : b - x;
      d = golden * e;
    }
    const double u = std::fabs(d) >= tol1 ? x + d : x + (d > 0 ? tol1 : -tol1);
    double fu = -f(u);
    if (!std::isfinite(fu)) fu = std::numeric_limits<double>::max();
    if (fu <= fx) {
      if (u >= x) a = x; else b = x;
      v = w; fv = fw; w = x; fw = fx; x = u; fx = fu;
    } else {
      if (u < x) a = u; else b = u;
      if (fu <= fw || w == x) {
        v = w; fv = fw; w = u; fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u; fv = fu;
      }
    }
  }
  fmax = -fx;
  return x;
}

}  // namespace copula_detail

// Student t scores qt(q, 1/s) on a uniform grid of s = 1/nu over
// [1/30, 1/2.0001], for a set of lower-half probabilities q (sorted,
// distinct): the t-copula fit searches nu with scores interpolated from it
// (cubic Lagrange in s, relative error about 1e-7), then evaluates the
// log-likelihood exactly at the nu it found. Pseudo-observations from ranks
// share their values (i / (n + 1)), so one table serves every pair.
struct TScoreTable {
  static constexpr int kGrid = 48;
  std::vector<double> q;      // sorted distinct probabilities in (0, 1/2]
  std::vector<double> score;  // score[k * kGrid + g] = qt(q[k], 1 / s_g)
  double s0 = 1.0 / kNuMax, ds = (1.0 / kNuMin - 1.0 / kNuMax) / (kGrid - 1);

  // The probabilities min(u, 1 - u) of values u; call fill_row(k) for every k.
  void set_probabilities(const double* u, std::size_t n) {
    q.clear();
    q.reserve(n);
    for (std::size_t i = 0; i < n; ++i) q.push_back(std::min(u[i], 1.0 - u[i]));
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    score.assign(q.size() * kGrid, 0.0);
  }
  void fill_row(std::size_t k) {
    for (int g = 0; g < kGrid; ++g)
      score[k * kGrid + g] = q[k] >= 0.5 ? 0.0 : StudentT(1.0 / (s0 + g * ds)).quantile(q[k]);
  }
  void fill() {
    for (std::size_t k = 0; k < q.size(); ++k) fill_row(k);
  }
  // Row of probability v (1-based), or 0 when it is not in the table.
  long row(double v) const {
    const auto it = std::lower_bound(q.begin(), q.end(), v);
    return (it != q.end() && *it == v) ? static_cast<long>(it - q.begin()) + 1 : 0;
  }
  // Interpolation nodes and weights at s.
  void weights(double s, int& j0, double w[4]) const {
    const double t = (s - s0) / ds;
    int j = static_cast<int>(std::floor(t));
    j = std::min(std::max(j, 1), kGrid - 3);
    j0 = j - 1;
    const double x = t - j0;  // nodes at 0, 1, 2, 3
    w[0] = -(x - 1) * (x - 2) * (x - 3) / 6.0;
    w[1] = x * (x - 2) * (x - 3) / 2.0;
    w[2] = -x * (x - 1) * (x - 3) / 2.0;
    w[3] = x * (x - 1) * (x - 2) / 6.0;
  }
};

namespace copula_detail {

// The data of one pair, prepared once for all families.
struct PairData {
  std::size_t n = 0;
  std::vector<Arg> a, b;            // u1, u2
  std::vector<double> z1, z2;       // normal scores
  // t scores: the distinct lower-half probabilities min(u, 1 - u) and, per
  // observation, its index (+1, negative when u > 1/2).
  std::vector<double> q;
  std::vector<long> qa, qb;
  std::vector<double> tq, x, y;     // per nu: quantiles of q, scores
  const TScoreTable* table = nullptr;  // when every probability is in it
  std::vector<long> ta, tb;         // rows of the table (1-based, negative when u > 1/2)
  // the distinct values of u1 and u2 (sorted) and each observation's index
  // in them: margin parts of the two-parameter densities are computed once
  // per value (sum_split())
  std::vector<double> vals;
  std::vector<Arg> vargs;
  std::vector<std::size_t> ia, ib;
  mutable std::vector<Marg> marg_a, marg_b;  // scratch of sum_split()

  void prepare(const double* u1, const double* u2, std::size_t n_, const TScoreTable* tab = nullptr) {
    n = n_;
    a.resize(n);
    b.resize(n);
    z1.resize(n);
    z2.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = make_arg(u1[i]);
      b[i] = make_arg(u2[i]);
      z1[i] = norm_q(a[i]);
      z2[i] = norm_q(b[i]);
    }
    vals.assign(u1, u1 + n);
    vals.insert(vals.end(), u2, u2 + n);
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    vargs.resize(vals.size());
    for (std::size_t k = 0; k < vals.size(); ++k) vargs[k] = make_arg(vals[k]);
    ia.resize(n);
    ib.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      ia[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u1[i]) - vals.begin());
      ib[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u2[i]) - vals.begin());
    }
    q.clear();
    for (std::size_t i = 0; i < n; ++i) {
      q.push_back(std::min(a[i].x, a[i].x1));
      q.push_back(std::min(b[i].x, b[i].x1));
    }
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    qa.resize(n);
    qb.resize(n);
    auto index = [&](const Arg& g) {
      const double v = std::min(g.x, g.x1);
      const long k = static_cast<long>(std::lower_bound(q.begin(), q.end(), v) - q.begin()) + 1;
      return g.x > 0.5 ? -k : k;
    };
    for (std::size_t i = 0; i < n; ++i) {
      qa[i] = index(a[i]);
      qb[i] = index(b[i]);
    }
    x.resize(n);
    y.resize(n);
    tq.resize(q.size());
    table = nullptr;
    if (tab) {
      ta.resize(n);
      tb.resize(n);
      bool all = true;
      for (std::size_t i = 0; i < n && all; ++i) {
        const long ra = tab->row(std::min(a[i].x, a[i].x1)), rb = tab->row(std::min(b[i].x, b[i].x1));
        all = ra > 0 && rb > 0;
        ta[i] = a[i].x > 0.5 ? -ra : ra;
        tb[i] = b[i].x > 0.5 ? -rb : rb;
      }
      if (all) table = tab;
    }
  }

  // Interpolated t scores at s = 1/nu into x, y (needs the table).
  void t_scores_interpolated(double s) {
    int j0;
    double w[4];
    table->weights(s, j0, w);
    auto at = [&](long r) {
      const double* row = &table->score[static_cast<std::size_t>(std::labs(r) - 1) * TScoreTable::kGrid + j0];
      const double v = w[0] * row[0] + w[1] * row[1] + w[2] * row[2] + w[3] * row[3];
      return r > 0 ? v : -v;
    };
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = at(ta[i]);
      y[i] = at(tb[i]);
    }
  }

  // t scores for nu into x, y.
  void t_scores(const StudentT& t) {
    for (std::size_t k = 0; k < q.size(); ++k) tq[k] = q[k] == 0.5 ? 0.0 : t.quantile(q[k]);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = qa[i] > 0 ? tq[qa[i] - 1] : -tq[-qa[i] - 1];
      y[i] = qb[i] > 0 ? tq[qb[i] - 1] : -tq[-qb[i] - 1];
    }
  }
};

// Sum over the observations of lp(a, b) with the arguments of rotation r.
template <typename L>
double sum_rotated(const PairData& d, int r, L&& lp) {
  double ll = 0;
  const std::size_t n = d.n;
  switch (r) {
    case 180: for (std::size_t i = 0; i < n; ++i) ll += lp(flip(d.a[i]), flip(d.b[i])); break;
    case 90: for (std::size_t i = 0; i < n; ++i) ll += lp(flip(d.a[i]), d.b[i]); break;
    case 270: for (std::size_t i = 0; i < n; ++i) ll += lp(d.a[i], flip(d.b[i])); break;
    default: for (std::size_t i = 0; i < n; ++i) ll += lp(d.a[i], d.b[i]); break;
  }
  return ll;
}

// Log-likelihood of a one-parameter family (3, 4, 6 with any rotation, 5);
// the constant terms of the densities are added once.
inline double loglik_onepar(const PairData& d, int family, double par) {
  const int base = base_of(family), r = rotation_of(family);
  const double th = (r == 90 || r == 270) ? -par : par;
  const double n = static_cast<double>(d.n);
  double ll = 0;
  switch (base) {
    case 3:
      ll = n * std::log1p(th) + sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return clayton_log_pdf_point(th, u, v); });
      break;
    case 4: ll = sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return gumbel_log_pdf(th, u, v); }); break;
    case 5:
      if (std::fabs(th) < 1e-12) break;
      if (th > 0) {
        ll = n * frank_pos_log_const(th) +
             sum_rotated(d, 0, [&](const Arg& u, const Arg& v) { return frank_pos_log_pdf_point(th, u, v); });
      } else {  // c(u, v; th) = c(u, 1 - v; -th)
        ll = n * frank_pos_log_const(-th) +
             sum_rotated(d, 270, [&](const Arg& u, const Arg& v) { return frank_pos_log_pdf_point(-th, u, v); });
      }
      break;
    case 6: ll = sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return joe_log_pdf(th, u, v); }); break;
    default: break;
  }
  return std::isnan(ll) ? -std::numeric_limits<double>::infinity() : ll;
}

// sum_rotated() of a split density (BB1Density, ...): the margin parts once
// per distinct value (pseudo-observations from ranks share their values, so
// rotations 0 and 180 compute n margins instead of 2n), else directly.
template <typename D>
double sum_split(const PairData& d, int r, const D& dens) {
  const bool fa = r == 180 || r == 90, fb = r == 180 || r == 270;
  const std::size_t K = d.vals.size();
  if ((fa == fb ? K : 2 * K) >= 2 * d.n)
    return sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return split_log_pdf(dens, u, v); });
  auto fill = [&](std::vector<Marg>& m, bool flipped) {
    m.resize(K);
    for (std::size_t k = 0; k < K; ++k) m[k] = dens.margin(flipped ? flip(d.vargs[k]) : d.vargs[k]);
  };
  fill(d.marg_a, fa);
  const std::vector<Marg>* mb = &d.marg_a;
  if (fb != fa) {
    fill(d.marg_b, fb);
    mb = &d.marg_b;
  }
  double ll = 0;
  for (std::size_t i = 0; i < d.n; ++i) {
    const Marg& x = d.marg_a[d.ia[i]];
    const Marg& y = (*mb)[d.ib[i]];
    ll += dens.pair(x.key, y.key) + x.add + y.add;
  }
  return ll;
}

// Log-likelihood of a two-parameter family other than t (BB1-BB8, Tawn; any
// rotation) at (par, par2); the constants of the densities computed once.
inline double loglik_twopar(const PairData& d, int family, double par, double par2) {
  const int base = base_of(family), r = rotation_of(family);
  const bool neg = r == 90 || r == 270;
  const double th = neg ? -par : par;
  const double th2 = neg && !is_tawn(base) ? -par2 : par2;
  double ll = 0;
  switch (base) {
    case 7: ll = sum_split(d, r, BB1Density(th, th2)); break;
    case 8: ll = sum_split(d, r, BB6Density(th, th2)); break;
    case 9: ll = sum_split(d, r, BB7Density(th, th2)); break;
    case 10: ll = sum_split(d, r, BB8Density(th, th2)); break;
    case 104: case 204: {
      const double lp = std::log(th2);
      ll = sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return tawn_log_pdf(base, th, th2, lp, u, v); });
      break;
    }
    default: break;
  }
  return std::isnan(ll) ? -std::numeric_limits<double>::infinity() : ll;
}

inline CopulaFit fit_gaussian(const PairData& d) {
  double s2 = 0, sxy = 0;
  for (std::size_t i = 0; i < d.n; ++i) {
    s2 += d.z1[i] * d.z1[i] + d.z2[i] * d.z2[i];
    sxy += d.z1[i] * d.z2[i];
  }
  const double n = static_cast<double>(d.n);
  auto ll = [&](double rho) {
    const double r2 = 1.0 - rho * rho;
    return -0.5 * n * std::log(r2) - (rho * rho * s2 - 2.0 * rho * sxy) / (2.0 * r2);
  };
  CopulaFit fit;
  fit.cop.family = 1;
  fit.cop.par = brent_max(ll, -kRhoMax, kRhoMax, fit.loglik, 1e-8, 1e-10);
  fit.npar = 1;
  return fit;
}

// The rho in [-kRhoMax, kRhoMax] maximising the t-copula log-likelihood of
// scores x, y for nu: the root of its derivative
//   l'(rho) = n rho / r2 - (nu + 2) / 2 sum_i Q_i' / (nu + Q_i),
//   Q_i = (x^2 + y^2 - 2 rho x y) / r2, Q_i' = (2 rho Q_i - 2 x y) / r2, r2 = 1 - rho^2,
// by secant steps kept inside a sign bracket (bisection when a step leaves
// it); the log-likelihood tends to -inf at rho = +-1. Returns the rho-part of
// the log-likelihood, -n/2 log r2 - (nu + 2)/2 sum log(1 + Q_i / nu), in `value`.
inline double t_best_rho(const PairData& d, double nu, double start, double& value) {
  const std::size_t n = d.n;
  auto deriv = [&](double rho) {
    const double r2 = 1.0 - rho * rho;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double xx = d.x[i], yy = d.y[i];
      const double q = (xx * xx + yy * yy - 2.0 * rho * xx * yy) / r2;
      sum += (2.0 * rho * q - 2.0 * xx * yy) / (r2 * (nu + q));
    }
    return static_cast<double>(n) * rho / r2 - 0.5 * (nu + 2.0) * sum;
  };
  auto loglik = [&](double rho) {
    const double r2 = 1.0 - rho * rho;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double xx = d.x[i], yy = d.y[i];
      sum += std::log1p((xx * xx + yy * yy - 2.0 * rho * xx * yy) / (r2 * nu));
    }
    return -0.5 * static_cast<double>(n) * std::log(r2) - 0.5 * (nu + 2.0) * sum;
  };
  double lo = -kRhoMax, hi = kRhoMax;
  double rho;
  if (deriv(hi) >= 0) {
    rho = hi;
  } else if (deriv(lo) <= 0) {
    rho = lo;
  } else {
    double x0 = std::min(std::max(start, lo + 1e-3), hi - 1e-3), f0 = deriv(x0);
    if (f0 > 0) lo = x0; else hi = x0;
    double x1 = f0 > 0 ? std::min(x0 + 0.01, 0.5 * (x0 + hi)) : std::max(x0 - 0.01, 0.5 * (x0 + lo));
    rho = f0 == 0 ? x0 : x1;
    for (int it = 0; it < 100 && f0 != 0; ++it) {
      const double f1 = deriv(x1);
      if (f1 == 0) { rho = x1; break; }
      if (f1 > 0) lo = x1; else hi = x1;
      double next = x1 - f1 * (x1 - x0) / (f1 - f0);
      if (!std::isfinite(next) || next <= lo || next >= hi) next = 0.5 * (lo + hi);
      x0 = x1;
      f0 = f1;
      x1 = next;
      rho = x1;
      if (std::fabs(x1 - x0) <= 1e-12 || hi - lo <= 1e-12) break;
    }
  }
  value = loglik(rho);
  return rho;
}

// The t-copula log-likelihood for nu at the best rho (scores in d.x, d.y).
inline double t_profile(const PairData& d, double nu, double start, double& rho) {
  const double n = static_cast<double>(d.n);
  double fixed = n * t_const(nu);
  for (std::size_t i = 0; i < d.n; ++i)
    fixed += 0.5 * (nu + 1.0) * (std::log1p(d.x[i] * d.x[i] / nu) + std::log1p(d.y[i] * d.y[i] / nu));
  double val;
  rho = t_best_rho(d, nu, start, val);
  return fixed + val;
}

// t copula: profile likelihood over nu (a scan of 13 values of s = 1/nu,
// then Brent on s around the best), the best rho for each nu. With a score table the search uses interpolated scores and the
// log-likelihood is then evaluated with exact scores at the nu found (and
// its best rho); without one every step uses exact scores.
inline CopulaFit fit_t(PairData& d) {
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < d.n; ++i) {
    sxy += d.z1[i] * d.z2[i];
    sxx += d.z1[i] * d.z1[i];
    syy += d.z2[i] * d.z2[i];
  }
  double rho = sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0.0;
  auto profile = [&](double s) {
    if (d.table) d.t_scores_interpolated(s); else d.t_scores(StudentT(1.0 / s));
    double r;
    const double ll = t_profile(d, 1.0 / s, rho, r);
    rho = r;
    return ll;
  };
  // A coarse scan of the grid first (the profile can have two local maxima),
  // then Brent's method between the neighbours of the best node.
  const double s_lo = 1.0 / kNuMax, s_hi = 1.0 / kNuMin;
  constexpr int kScan = 12;
  const double step = (s_hi - s_lo) / kScan;
  int best = 0;
  double best_ll = -std::numeric_limits<double>::infinity(), best_rho = rho;
  for (int g = 0; g <= kScan; ++g) {
    const double v = profile(s_lo + g * step);
    if (v > best_ll) {
      best_ll = v;
      best = g;
      best_rho = rho;
    }
  }
  rho = best_rho;
  double ll;
  const double s = brent_max(profile, s_lo + std::max(best - 1, 0) * step, s_lo + std::min(best + 1, kScan) * step,
                             ll, 1e-6, 1e-8);
  d.t_scores(StudentT(1.0 / s));
  CopulaFit fit;
  fit.cop.family = 2;
  fit.cop.par2 = 1.0 / s;
  fit.loglik = t_profile(d, fit.cop.par2, rho, fit.cop.par);
  fit.npar = 2;
  return fit;
}

inline CopulaFit fit_onepar(const PairData& d, int family) {
  double lo = 0, hi = 0;
  switch (base_of(family)) {
    case 3: lo = kClaytonMin; hi = kClaytonMax; break;
    case 4: lo = kGumbelMin; hi = kGumbelMax; break;
    case 5: lo = -kFrankMax; hi = kFrankMax; break;
    case 6: lo = kJoeMin; hi = kJoeMax; break;
  }
  const int r = rotation_of(family);
  if (r == 90 || r == 270) {
    const double t = lo;
    lo = -hi;
    hi = -t;
  }
  CopulaFit fit;
  fit.cop.family = family;
  fit.cop.par = brent_max([&](double p) { return loglik_onepar(d, family, p); }, lo, hi, fit.loglik, 1e-6, 1e-8);
  if (base_of(family) == 5 && fit.cop.par == 0) fit.cop.par = 1e-10;
  fit.npar = 1;
  return fit;
}

// Maximises f(x, y) over the box [lo, hi] by Newton steps with a
// finite-difference gradient and Hessian (a 3-point stencil along each axis,
// kept inside the box, and one mixed point: 5 evaluations per iteration),
// Levenberg damping when the Hessian is not negative definite, backtracking
// when a step does not increase f, and coordinates on a bound with the
// gradient pointing outwards held fixed (projected Newton). From the start
// x; returns the best value, x holds its point. `n_eval` counts
// evaluations.
template <typename F>
double newton_box(F&& f, double x[2], const double lo[2], const double hi[2], double fx, int max_iter,
                  int* n_eval = nullptr) {
  int evals = 0;
  auto eval = [&](double a, double b) {
    ++evals;
    const double v = f(a, b);
    return std::isfinite(v) ? v : -std::numeric_limits<double>::max();
  };
  for (int it = 0; it < max_iter; ++it) {
    double g[2], H[2][2], d1[2];
    for (int k = 0; k < 2; ++k) {
      const double h = 1e-4 * (hi[k] - lo[k]);
      double a, b;  // offsets of the two stencil points
      if (x[k] - h >= lo[k] && x[k] + h <= hi[k]) { a = -h; b = h; }
      else if (x[k] + 2 * h <= hi[k]) { a = h; b = 2 * h; }
      else { a = -h; b = -2 * h; }
      double pa[2] = {x[0], x[1]}, pb[2] = {x[0], x[1]};
      pa[k] += a;
      pb[k] += b;
      const double fa = eval(pa[0], pa[1]), fb = eval(pb[0], pb[1]);
      // parabola through (0, fx), (a, fa), (b, fb)
      const double sa = (fa - fx) / a, sb = (fb - fx) / b;
      H[k][k] = 2.0 * (sb - sa) / (b - a);
      g[k] = sa - 0.5 * H[k][k] * a;
      d1[k] = b > 0 ? b : a;  // for the mixed point: the point at offset d1
      if (k == 0) H[1][0] = (b > 0 ? fb : fa);  // f(x + d1 e0), stored temporarily
      else H[0][1] = (b > 0 ? fb : fa);         // f(x + d1 e1)
    }
    const double f0 = H[1][0], f1 = H[0][1];
    const double fm = eval(x[0] + d1[0], x[1] + d1[1]);
    const double hmix = (fm - f0 - f1 + fx) / (d1[0] * d1[1]);
    H[0][1] = H[1][0] = hmix;
    // coordinates held on their bound
    bool fixed[2];
    for (int k = 0; k < 2; ++k) {
      const double tol = 1e-9 * (hi[k] - lo[k]);
      fixed[k] = (x[k] <= lo[k] + tol && g[k] < 0) || (x[k] >= hi[k] - tol && g[k] > 0);
    }
    // The step, in coordinates scaled by the box (y = x / (hi - lo)), along
    // the eigenvectors of -H: a Newton step where the curvature is
    // concave enough, else a step of kFlat in the direction of the gradient
    // (a ridge along which f keeps rising, as Tawn's theta near its bound,
    // is crossed in a few steps; backtracking shortens a step too long).
    constexpr double kFlat = 0.25;
    const double R[2] = {hi[0] - lo[0], hi[1] - lo[1]};
    const double gs[2] = {g[0] * R[0], g[1] * R[1]};
    const double A = -H[0][0] * R[0] * R[0], B = -H[0][1] * R[0] * R[1], D = -H[1][1] * R[1] * R[1];
    const double scale_h = std::max(std::fabs(A), std::fabs(D)) + 1e-300;
    double p[2] = {0, 0};
    auto along = [&](double mu, double comp) {  // step length along one direction
      return mu > 1e-6 * scale_h ? comp / mu : (comp > 0 ? kFlat : (comp < 0 ? -kFlat : 0.0));
    };
    if (fixed[0] && fixed[1]) {
      // nothing to do
    } else if (fixed[0] || fixed[1]) {
      const int k = fixed[0] ? 1 : 0;
      p[k] = along(k == 0 ? A : D, gs[k]) * R[k];
    } else {
      // eigen-decomposition of [[A, B], [B, D]]
      const double mean = 0.5 * (A + D), rad = std::sqrt(0.25 * (A - D) * (A - D) + B * B);
      const double mu[2] = {mean + rad, mean - rad};
      double e[2][2];
      if (rad == 0) {
        e[0][0] = 1; e[0][1] = 0; e[1][0] = 0; e[1][1] = 1;
      } else {
        // eigenvector of mu0: (B, mu0 - A) or (mu0 - D, B), whichever is longer
        double v0 = B, v1 = mu[0] - A;
        if (std::fabs(mu[0] - D) + std::fabs(B) > std::fabs(v0) + std::fabs(v1)) { v0 = mu[0] - D; v1 = B; }
        const double nrm = std::sqrt(v0 * v0 + v1 * v1);
        e[0][0] = v0 / nrm; e[0][1] = v1 / nrm;
        e[1][0] = -e[0][1]; e[1][1] = e[0][0];
      }
      for (int j = 0; j < 2; ++j) {
        const double t = along(mu[j], e[j][0] * gs[0] + e[j][1] * gs[1]);
        p[0] += t * e[j][0] * R[0];
        p[1] += t * e[j][1] * R[1];
      }
    }
    // backtracking along the projected step
    double best = fx, bx[2] = {x[0], x[1]};
    double scale = 1.0;
    for (int bt = 0; bt < 8; ++bt) {
      double y[2];
      for (int k = 0; k < 2; ++k) y[k] = std::min(hi[k], std::max(lo[k], x[k] + scale * p[k]));
      if (y[0] == x[0] && y[1] == x[1]) break;
      const double fy = eval(y[0], y[1]);
      if (fy > fx) {
        best = fy;
        bx[0] = y[0];
        bx[1] = y[1];
        break;
      }
      scale *= 0.25;
    }
    const double gain = best - fx;
    const double moved = std::max(std::fabs(bx[0] - x[0]) / (hi[0] - lo[0]), std::fabs(bx[1] - x[1]) / (hi[1] - lo[1]));
    // the gain the quadratic model predicted for the step taken
    const double s0 = bx[0] - x[0], s1 = bx[1] - x[1];
    const double pred = g[0] * s0 + g[1] * s1 + 0.5 * (H[0][0] * s0 * s0 + 2 * H[0][1] * s0 * s1 + H[1][1] * s1 * s1);
    x[0] = bx[0];
    x[1] = bx[1];
    fx = best;
    if (gain <= 1e-7 || moved <= 1e-7) break;
    // A full step the model predicted to 10% that gained little: Newton's
    // quadratic convergence leaves far less than 1e-7 to gain.
    if (scale == 1.0 && gain <= 1e-4 && std::fabs(gain - pred) <= 0.1 * std::fabs(pred)) break;
  }
  if (n_eval) *n_eval += evals;
  return fx;
}

// Bounds of the two-parameter fits (VineCopula's BiCopEst, method "mle",
// default max.BB: BB1 theta in [0.001, 5], delta in [1.001, 6]; BB6 both in
// [1.001, 6]; BB7 theta in [1.001, 5], delta in [0.001, 6]; BB8 theta in
// [1.001, 6], delta in [0.001, 1]; Tawn theta in [1.001, 20] and psi in
// [max(|tau| - 0.1, 1e-4), min(|tau| + 0.2, 0.99)] with tau the empirical
// Kendall tau), for the base family; the 90/270 degree rotations negate them.
inline void twopar_bounds(int base, double tau, double lo[2], double hi[2]) {
  switch (base) {
    case 7: lo[0] = 0.001; hi[0] = 5; lo[1] = 1.001; hi[1] = 6; break;
    case 8: lo[0] = 1.001; hi[0] = 6; lo[1] = 1.001; hi[1] = 6; break;
    case 9: lo[0] = 1.001; hi[0] = 5; lo[1] = 0.001; hi[1] = 6; break;
    case 10: lo[0] = 1.001; hi[0] = 6; lo[1] = 0.001; hi[1] = 1; break;
    default: {
      const double t = std::fabs(tau);
      lo[0] = 1.001; hi[0] = 20;
      lo[1] = std::max(t - 0.1, 1e-4);
      hi[1] = std::min(t + 0.2, 0.99);
      break;
    }
  }
}

// BB1, BB6, BB7, BB8 and Tawn (any rotation) by maximum likelihood over the
// bounds of twopar_bounds(): newton_box() on the base parameters from the
// best of two to four starting points (VineCopula's start and points of
// the family's sub-models roughly matching the empirical tau; for Tawn also
// points on its ridge of large theta and small psi, and a second climb from
// VineCopula's start when another start was better: its likelihood can be
// bimodal).
inline CopulaFit fit_twopar(const PairData& d, int family, double tau, int* n_eval = nullptr) {
  const int base = base_of(family), r = rotation_of(family);
  const bool neg = r == 90 || r == 270;
  const double sp = neg ? -1.0 : 1.0, sp2 = neg && !is_tawn(base) ? -1.0 : 1.0;
  double lo[2], hi[2];
  twopar_bounds(base, tau, lo, hi);
  auto f = [&](double a, double b) { return loglik_twopar(d, family, sp * a, sp2 * b); };
  const double t = std::min(std::max(std::fabs(tau), 0.01), 0.9);
  // starting points (base parameters)
  double starts[4][2];
  int ns = 0;
  auto add = [&](double a, double b) {
    starts[ns][0] = std::min(hi[0], std::max(lo[0], a));
    starts[ns][1] = std::min(hi[1], std::max(lo[1], b));
    ++ns;
  };
  switch (base) {
    // BB1: tau = 1 - 2 / (de (th + 2)); Gumbel-like (th -> 0, de = 1 / (1 - tau))
    case 7: add(0.5, 1.5); add(2.0 / (1.2 * (1 - t)) - 2.0, 1.2); add(0.1, 1.0 / (1 - t)); break;
    case 8: add(1.5, 1.5); add(1.0, 1.0 / (1 - t)); break;
    case 9: add(1.5, 0.5); add(1.0, 2 * t / (1 - t)); add(1.0 / (1 - t), 0.05); break;
    case 10: add(1.5, 0.5); add(1.0 / (1 - t), 1.0); break;
    // Tawn: VineCopula's start, a Gumbel-like point, and two on the ridge of
    // large theta and small psi where the likelihood can have a second mode
    default:
      add(1 + 6 * t, std::min(t + 0.1, 0.999));
      add(1.0 / (1 - t), 0.5 * (lo[1] + hi[1]));
      add(4.0, lo[1] + 0.2 * (hi[1] - lo[1]));
      add(10.0, lo[1] + 0.1 * (hi[1] - lo[1]));
      break;
  }
  double fs[4] = {0, 0, 0, 0};
  int best = 0;
  for (int k = 0; k < ns; ++k) {
    fs[k] = f(starts[k][0], starts[k][1]);
    if (n_eval) ++*n_eval;
    if (fs[k] > fs[best]) best = k;
  }
  double x[2] = {starts[best][0], starts[best][1]};
  double ll = newton_box(f, x, lo, hi, fs[best], 40, n_eval);
  if (is_tawn(base) && best != 0) {
    // Tawn's likelihood can be bimodal: also from VineCopula's start (the
    // mode its L-BFGS-B finds), keeping the higher
    double x0[2] = {starts[0][0], starts[0][1]};
    const double ll0 = newton_box(f, x0, lo, hi, fs[0], 40, n_eval);
    if (ll0 > ll) {
      ll = ll0;
      x[0] = x0[0];
      x[1] = x0[1];
    }
  }
  CopulaFit fit;
  fit.cop.family = family;
  fit.cop.par = sp * x[0];
  fit.cop.par2 = sp2 * x[1];
  fit.loglik = ll;
  fit.npar = 2;
  return fit;
}

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

}  // namespace copula_detail

// The candidate families of a pair, in VineCopula's order (BiCopSelect with
// presel = TRUE): with empirical tau > 0 the positive-dependence families
// (0, 180 degree rotations, Frank, Gaussian, t); if the normal scores
// correlate more in the upper-right than in the lower-left quadrant
// (c11 - c00 > 0.3) only t and the families with an upper tail (13, 4, 6,
// 7, 17, 8, 9, 19, 10, 104, 204); between 0.05 and 0.3 also Gaussian, Frank
// and 20 (VineCopula's lists); symmetrically for the lower tail, and for
// tau < 0 with the quadrants (+, -) and (-, +). With tau == 0 all families.
// The answer is intersected with `families`; when that leaves nothing, all
// of `families`. With quadrant = false only the sign of tau is used.
inline std::vector<int> copula_candidates(const copula_detail::PairData& d, double tau,
                                          const std::vector<int>& families, bool quadrant = true) {
  using copula_detail::quadrant_cor;
  static const std::vector<int> all = {0,  1,  2,  3,  4,  5,  6,  7,  8,   9,   10,  13,  14,  16,
                                       17, 18, 19, 20, 23, 24, 26, 27, 28,  29,  30,  33,  34,  36,
                                       37, 38, 39, 40, 104, 114, 124, 134, 204, 214, 224, 234};
  static const std::vector<int> pos = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 16, 17, 18, 19, 20, 104, 114, 204, 214};
  static const std::vector<int> neg = {0, 1, 2, 5, 23, 24, 26, 27, 28, 29, 30, 33, 34, 36, 37, 38, 39, 40,
                                       124, 134, 224, 234};
  // upper-right (11), lower-left (00), lower-right (10), upper-left (01) tails
  static const std::vector<int> t11 = {0, 2, 13, 4, 6, 7, 17, 8, 9, 19, 10, 104, 204};
  static const std::vector<int> m11 = {0, 1, 2, 5, 20, 13, 4, 6, 7, 17, 8, 9, 19, 10, 104, 204};
  static const std::vector<int> t00 = {0, 2, 3, 14, 16, 7, 17, 18, 9, 19, 20, 114, 214};
  static const std::vector<int> m00 = {0, 1, 2, 5, 10, 3, 14, 16, 7, 17, 18, 9, 19, 20, 114, 214};
  static const std::vector<int> t10 = {0, 2, 23, 34, 36, 27, 37, 38, 29, 39, 40, 134, 234};
  static const std::vector<int> m10 = {0, 1, 2, 5, 30, 23, 34, 36, 27, 37, 38, 29, 39, 40, 134, 234};
  static const std::vector<int> t01 = {0, 2, 33, 24, 26, 27, 37, 28, 29, 39, 30, 124, 224};
  static const std::vector<int> m01 = {0, 1, 2, 5, 40, 33, 24, 26, 27, 37, 28, 29, 39, 30, 124, 224};
  const std::vector<int>* todo = &all;
  if (tau > 0) {
    double c11, c00;
    todo = &pos;
    if (quadrant && quadrant_cor(d, 1, 1, c11) && quadrant_cor(d, -1, -1, c00)) {
      const double g = c11 - c00;
      if (g > 0.3) todo = &t11;
      else if (g > 0.05) todo = &m11;
      else if (g < -0.3) todo = &t00;
      else if (g < -0.05) todo = &m00;
    }
  } else if (tau < 0) {
    double c10, c01;
    todo = &neg;
    if (quadrant && quadrant_cor(d, 1, -1, c10) && quadrant_cor(d, -1, 1, c01)) {
      const double g = c10 - c01;
      if (g < -0.3) todo = &t10;
      else if (g < -0.05) todo = &m10;
      else if (g > 0.3) todo = &t01;
      else if (g > 0.05) todo = &m01;
    }
  }
  std::vector<int> out;
  for (int f : *todo)
    if (std::find(families.begin(), families.end(), f) != families.end()) out.push_back(f);
  if (out.empty()) out = families;
  return out;
}

struct CopulaSelectOptions {
  bool quadrant_presel = true;  // VineCopula's presel; false: sign of tau only
};

// Fits every candidate family (copula_candidates()) to n pseudo-observations
// in (0, 1) and keeps the lowest AIC (the first on ties). `tau_emp`, when
// given, receives the empirical Kendall tau (tau-b). `table`, when given,
// holds t scores of the pseudo-observations (TScoreTable) for the t fit.
inline CopulaFit copula_select(const double* u1, const double* u2, std::size_t n, const std::vector<int>& families,
                               const CopulaSelectOptions& opt = CopulaSelectOptions(), double* tau_emp = nullptr,
                               const TScoreTable* table = nullptr) {
  using namespace copula_detail;
  for (int f : families)
    if (!is_known_family(f)) throw std::invalid_argument("unknown copula family " + std::to_string(f));
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
    CopulaFit fit;
    if (f == 0) {
      fit = CopulaFit();
    } else if (f == 1) {
      fit = fit_gaussian(d);
    } else if (f == 2) {
      fit = fit_t(d);
    } else if (is_two_par(f)) {
      fit = fit_twopar(d, f, tau);
    } else {
      fit = fit_onepar(d, f);
    }
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

#endif
