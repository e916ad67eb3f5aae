// Copulas, the common core (Urbano & Nagler, SIGIR 2018, section 3: a
// bivariate copula per pair of systems): the copula and fit types, the
// numerics every family shares (an argument carried as x, 1 - x, log x,
// log(1 - x); log-sum-exp forms; tanh-sinh quadrature), the record type of a
// base family (CopulaFamily: log density, h-functions and inverse, Kendall's
// tau, bounds, starting values, fitting hooks), and the rotations by 90, 180
// and 270 degrees written once for every record (Aas, Czado, Frigessi &
// Bakken 2009, IME 44, section 2.3 and the appendix):
//   180: C(u1, u2) = u1 + u2 - 1 + C0(1 - u1, 1 - u2), density c0(1 - u1, 1 - u2)
//    90: C(u1, u2) = u2 - C0(1 - u1, u2),               density c0(1 - u1, u2)
//   270: C(u1, u2) = u1 - C0(u1, 1 - u2),               density c0(u1, 1 - u2)
// A rotation swaps the x <-> 1 - x, log x <-> log(1 - x) parts of an
// argument (flip()); the 90 and 270 degree rotations negate par (and par2
// where the record says so). h1(u1, u2) = P(U2 <= u2 | U1 = u1), h2 =
// P(U1 <= u1 | U2 = u2). Pure C++: no R types.
#ifndef IRTOPICS_COPULA_CORE_H
#define IRTOPICS_COPULA_CORE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "copula_dual.h"
#include "distributions.h"

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

// The numerics of the densities are templates on the scalar type T: double,
// or Dual2 (copula_dual.h) for exact derivatives in the parameters, or Pk
// and Dual2P for four observations at once (copula_pack.h); the double
// instantiation is the plain computation. Branches compare values (val())
// through pick() and choose(), so that a pack's lanes may differ.
// log_sum_exp: m and s are std::max(a, b) and std::min(a, b) but for a
// tie, where s is b (the same value; the derivative of a Dual2 is then
// the mean of a's and b's, as it should be).
template <typename T>
IRTOPICS_DUAL_INLINE T log_sum_exp(const T& a, const T& b) {
  using std::exp;
  using std::log1p;
  const T m = pick(val(a) < val(b), b, a);
  const T s = pick(lor(val(b) < val(a), val(a) == val(b)), b, a);
  return choose(val(m) == -std::numeric_limits<double>::infinity(), [&]() IRTOPICS_LAMBDA_INLINE { return m; },
                [&]() IRTOPICS_LAMBDA_INLINE { return T(m + log1p(exp(s - m))); });
}

// log(1 - e^x) for x < 0.
template <typename T>
IRTOPICS_DUAL_INLINE T log1m_exp(const T& x) {
  using std::expm1;
  using std::exp;
  using std::log;
  using std::log1p;
  return choose(val(x) > -0.6931471805599453, [&]() IRTOPICS_LAMBDA_INLINE { return T(log(-expm1(x))); },
                [&]() IRTOPICS_LAMBDA_INLINE { return T(log1p(-exp(x))); });
}

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

// Four arguments (the lanes of a Pk) for the packed sums (copula_data.h).
struct ArgP {
  Pk x, x1, lx, l1x, llx, ll1x;
};
IRTOPICS_DUAL_INLINE ArgP flip(const ArgP& a) { return ArgP{a.x1, a.x, a.l1x, a.lx, a.ll1x, a.llx}; }
// c ? a : b lane by lane (pick() of copula_dual.h, for arguments)
IRTOPICS_DUAL_INLINE ArgP pick(const Mask& c, const ArgP& a, const ArgP& b) {
  return ArgP{select(c, a.x, b.x),     select(c, a.x1, b.x1),   select(c, a.lx, b.lx),
              select(c, a.l1x, b.l1x), select(c, a.llx, b.llx), select(c, a.ll1x, b.ll1x)};
}

// Quantiles of an argument, using whichever of x and 1 - x is exact.
inline double norm_q(const Arg& a) { return a.x <= 0.5 ? norm_quantile(a.x) : -norm_quantile(a.x1); }
inline double t_q(const StudentT& t, const Arg& a) { return a.x <= 0.5 ? t.quantile(a.x) : -t.quantile(a.x1); }

template <typename T>
IRTOPICS_DUAL_INLINE T softplus(const T& x) {
  using std::exp;
  using std::log1p;
  return choose(val(x) > 0.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(x + log1p(exp(-x))); },
                [&]() IRTOPICS_LAMBDA_INLINE { return T(log1p(exp(x))); });
}

// The two-parameter Archimedean log densities split into a part of each
// argument alone (`Marg`: a key the pair part needs and an additive term)
// and a pair part, so that a fit computes the margins once per distinct
// pseudo-observation (sum_split_packed()). log c(a, b) = pair(ma.key, mb.key) +
// ma.add + mb.add; the constructors hold the constants of a parameter.
template <typename T>
struct MargT {
  T key, add;
};
using Marg = MargT<double>;

template <typename D, typename A>
IRTOPICS_DUAL_INLINE auto split_log_pdf(const D& dens, const A& a, const A& b) {
  const auto ma = dens.margin(a), mb = dens.margin(b);
  return dens.pair(ma.key, mb.key) + ma.add + mb.add;
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

// ------------------------------------------------------------- the record

struct PairData;  // copula_data.h

// Corners of the unit square, for VineCopula's preselection (presel =
// TRUE): a family is a candidate for data with a tail in a corner when its
// (rotated) tails include that corner. Upper right (u1, u2 near 1), lower
// left, lower right (u1 near 1, u2 near 0), upper left.
constexpr unsigned kCorner11 = 1, kCorner00 = 2, kCorner10 = 4, kCorner01 = 8;
constexpr unsigned kAllCorners = 15;

// One base copula family (rotation 0). Parameters are the base family's
// (th, th2: t rho and nu, BB theta and delta, Tawn theta and psi); a and b
// are the two arguments; h1(a, b) = P(V <= b | U = a), h2(a, b) = P(U <= a |
// V = b). Families with `rotates` also exist rotated by 90, 180 and 270
// degrees (copula_families.h), which the functions here never see: the
// arguments arrive flipped and the parameters negated back.
struct CopulaFamily {
  const char* name;
  int npar;            // 0, 1 or 2
  bool rotates;        // has 90/180/270 degree versions (par < 0 at 90/270)
  bool par2_rotates;   // par2 is negated too at 90/270 (BB1-BB8; not Tawn's psi)
  bool basic;          // in simulation_model(copulas = "basic")
  unsigned strong_tails;    // corners whose strong-tail lists hold the family
  unsigned moderate_tails;  // further corners whose moderate-tail lists hold it
  // the base parameters lie in the family's domain (VineCopula's BiCopCheck)
  bool (*valid)(double th, double th2);
  double (*log_pdf)(double th, double th2, const Arg& a, const Arg& b);
  double (*h1)(double th, double th2, const Arg& a, const Arg& b);
  double (*h2)(double th, double th2, const Arg& a, const Arg& b);
  // the b with h1(a, b) = w, and 1 - b; nullptr: Newton on the logit of b
  void (*hinv1)(double th, double th2, const Arg& a, double w, double& v, double& v1);
  double (*tau)(double th, double th2);
  // fitting: the log-likelihood of pair data whose arguments are rotated by
  // `rotation` (sum_rotated_packed()), at base parameters
  double (*loglik)(const PairData& d, int rotation, double th, double th2);
  // bounds of the base parameters in a fit (tau: the empirical Kendall tau)
  void (*bounds)(double tau, double lo[2], double hi[2]);
  // two-parameter families: up to 4 starting points (base parameters,
  // clamped to the bounds after) from t = |tau| in [0.01, 0.9]; the first is
  // VineCopula's start
  int (*starts)(double t, const double lo[2], const double hi[2], double st[4][2]);
  bool bimodal;  // also climb from the first start when another was better
  // a fit of its own (nullptr: the generic fit by npar, copula_fit.h)
  CopulaFit (*fit)(PairData& d, int code, int rotation, double tau);
  // two-parameter families: loglik with its exact gradient and Hessian in
  // (th, th2) (a Dual2, copula_dual.h) for newton_box_exact(); nullptr:
  // finite differences (newton_box())
  Dual2 (*loglik_d2)(const PairData& d, int rotation, double th, double th2);
};

// h2 of an exchangeable family: h1 with the arguments swapped.
template <double (*H1)(double, double, const Arg&, const Arg&)>
double h2_exchangeable(double th, double th2, const Arg& a, const Arg& b) {
  return H1(th, th2, b, a);
}

// ------------------------------------------------- one-parameter families

template <typename L>
auto sum_rotated_packed(const PairData& d, int r, L&& lp);  // copula_data.h
inline double pair_size(const PairData& d);            // copula_data.h: d.n
template <typename F>
CopulaFit fit_onepar_exact(PairData& d, int code, int rotation, double tau);  // copula_fit.h

// A one-parameter base family as a small struct F of functions of theta
// alone, made a record by onepar_family<F>() (one definition of the
// record's signatures for every such family). F gives:
//   name, rotates, strong_tails, moderate_tails, lo, hi (fitting bounds);
//   valid(th); log_pdf(th, a, b); h1(th, a, b) (h2 by exchangeability);
//   tau(th); has_const, and when true log_pdf_point(th, a, b) and
//   log_const(th) with log_pdf = log_const + log_pdf_point (a fit adds
//   n log_const(th) once; false: a fit sums log_pdf); the functions a fit
//   sums (log_pdf_point or log_pdf) are IRTOPICS_DUAL_INLINE templates on
//   the scalar type of th and on the argument type, as a fit sums them four
//   observations at a time: Pk (loglik()) and Dual1P (the exact
//   derivatives, loglik_d1()) with ArgP, and double, Dual1 with Arg;
//   log_const is a template on double and Dual1;
//   has_hinv1 and, when true, hinv1(th, a, w, v, v1) (else Newton on the
//   logit, hinv1_numeric()).
template <typename F>
struct OnePar {
  static bool valid(double th, double) { return F::valid(th); }
  static double log_pdf(double th, double, const Arg& a, const Arg& b) { return F::log_pdf(th, a, b); }
  static double h1(double th, double, const Arg& a, const Arg& b) { return F::h1(th, a, b); }
  static double h2(double th, double, const Arg& a, const Arg& b) { return F::h1(th, b, a); }
  static void hinv1(double th, double, const Arg& a, double w, double& v, double& v1) { F::hinv1(th, a, w, v, v1); }
  static double tau(double th, double) { return F::tau(th); }
  // the log density a fit sums at four observations (packs, copula_pack.h)
  template <typename T>
  IRTOPICS_DUAL_INLINE static T point(const T& th, const ArgP& u, const ArgP& v) {
    if constexpr (F::has_const) return F::log_pdf_point(th, u, v);
    else return F::log_pdf(th, u, v);
  }
  // the sum over the observations, four at a time, plus n log_const(th)
  static double loglik(const PairData& d, int r, double th, double) {
    const double sum = packed_call([&]() IRTOPICS_LAMBDA_INLINE {
      const Pk t(th);
      return sum_rotated_packed(d, r, [&](const ArgP& u, const ArgP& v) IRTOPICS_LAMBDA_INLINE {
        return point(t, u, v);
      });
    });
    if constexpr (F::has_const) return pair_size(d) * F::log_const(th) + sum;
    else return sum;
  }
  // loglik with its first and second derivatives in th (its value is
  // loglik's bit for bit)
  static Dual1 loglik_d1(const PairData& d, int r, double th) {
    const Dual1 sum = packed_call([&]() IRTOPICS_LAMBDA_INLINE {
      const Dual1P t = Dual1P::variable(th);
      return sum_rotated_packed(d, r, [&](const ArgP& u, const ArgP& v) IRTOPICS_LAMBDA_INLINE {
        return point(t, u, v);
      });
    });
    if constexpr (F::has_const) return pair_size(d) * F::log_const(Dual1::variable(th)) + sum;
    else return sum;
  }
  static void bounds(double, double lo[2], double hi[2]) {
    lo[0] = F::lo;
    hi[0] = F::hi;
    lo[1] = hi[1] = 0.0;
  }
  static constexpr auto hinv1_ptr() {
    using Inverse = void (*)(double, double, const Arg&, double, double&, double&);
    if constexpr (F::has_hinv1) return static_cast<Inverse>(&OnePar<F>::hinv1);
    else return static_cast<Inverse>(nullptr);
  }
};

// The record of a one-parameter family (basic: in copulas = "basic");
// `fit`: its own fit; without one, Newton's method with the exact
// derivatives (fit_onepar_exact<F>()). (Two overloads: a test of the
// pointer would not be a constant expression everywhere.)
template <typename F>
constexpr CopulaFamily onepar_family(CopulaFit (*fit)(PairData&, int, int, double)) {
  return CopulaFamily{F::name, 1, F::rotates, false, true, F::strong_tails, F::moderate_tails,
                      OnePar<F>::valid, OnePar<F>::log_pdf, OnePar<F>::h1, OnePar<F>::h2, OnePar<F>::hinv1_ptr(),
                      OnePar<F>::tau, OnePar<F>::loglik, OnePar<F>::bounds, nullptr, false, fit, nullptr};
}
template <typename F>
constexpr CopulaFamily onepar_family() {
  return onepar_family<F>(&fit_onepar_exact<F>);
}

// ------------------------------------------------------------- rotations

inline bool negates(int rotation) { return rotation == 90 || rotation == 270; }

// The base parameters of a rotated family's (par, par2).
inline void base_params(const CopulaFamily& f, int rotation, double par, double par2, double& th, double& th2) {
  th = par;
  th2 = par2;
  if (negates(rotation)) {
    th = -th;
    if (f.par2_rotates) th2 = -th2;
  }
}

// The arguments of the base copula at (u1, u2) for a rotation.
inline void rotate_args(int rotation, const Arg& u1, const Arg& u2, Arg& a, Arg& b) {
  switch (rotation) {
    case 180: a = flip(u1); b = flip(u2); break;
    case 90: a = flip(u1); b = u2; break;
    case 270: a = u1; b = flip(u2); break;
    default: a = u1; b = u2; break;
  }
}

// The corners of a base family's tails once rotated.
inline unsigned rotate_corners(unsigned c, int rotation) {
  auto map = [&](unsigned c11, unsigned c00, unsigned c10, unsigned c01) {
    return ((c & kCorner11) ? c11 : 0u) | ((c & kCorner00) ? c00 : 0u) | ((c & kCorner10) ? c10 : 0u) |
           ((c & kCorner01) ? c01 : 0u);
  };
  switch (rotation) {
    case 180: return map(kCorner00, kCorner11, kCorner01, kCorner10);
    case 90: return map(kCorner01, kCorner10, kCorner00, kCorner11);   // u1 -> 1 - u1
    case 270: return map(kCorner10, kCorner01, kCorner11, kCorner00);  // u2 -> 1 - u2
    default: return c;
  }
}

// The b in (0, 1) with h1(a, b) = w: Newton on z = logit(b) with the
// density as derivative, bisection when a step leaves the bracket.
using HFunction = double (*)(double th, double th2, const Arg& a, const Arg& b);
inline void hinv1_numeric(HFunction h1, HFunction log_pdf, double th, double p2, const Arg& a, double w, double& v,
                          double& v1) {
  double lo = -745.0, hi = 37.0;  // logit bracket: b from ~1e-324 to 1 - 1e-16
  double z = std::log(w) - std::log1p(-w);
  z = std::min(std::max(z, lo + 1), hi - 1);
  for (int it = 0; it < 200; ++it) {
    const Arg y = arg_from_logit(z);
    const double g = h1(th, p2, a, y) - w;
    if (g == 0) break;
    if (g > 0) hi = z; else lo = z;
    const double slope = std::exp(log_pdf(th, p2, a, y) + y.lx + y.l1x);
    double next = z - g / slope;
    if (!(slope > 0) || !std::isfinite(next) || next <= lo || next >= hi) next = 0.5 * (lo + hi);
    const double change = std::fabs(next - z);
    z = next;
    if (change <= 1e-15 * std::max(1.0, std::fabs(z)) || hi - lo <= 1e-15 * std::max(1.0, std::fabs(z))) break;
  }
  const Arg y = arg_from_logit(z);
  v = y.x;
  v1 = y.x1;
}

// The b with f.h1(a, b) = w, and 1 - b.
inline void base_hinv1(const CopulaFamily& f, double th, double p2, const Arg& a, double w, double& v, double& v1) {
  if (w <= 0 || w >= 1) {
    v = w <= 0 ? 0.0 : 1.0;
    v1 = 1.0 - v;
    return;
  }
  if (f.hinv1) f.hinv1(th, p2, a, w, v, v1);
  else hinv1_numeric(f.h1, f.log_pdf, th, p2, a, w, v, v1);
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
