// Copulas: the two-parameter Archimedean families BB1 (theta > 0, delta >=
// 1), BB6 (theta >= 1, delta >= 1), BB7 (theta >= 1, delta > 0) and BB8
// (theta >= 1, 0 < delta <= 1) (Joe 2014, "Dependence modeling with
// copulas", sections 4.17.1-4.17.5): log densities from their generators in
// log space, split into margin and pair parts (BB1Density, ...; sum_split_packed()
// computes the margins once per distinct pseudo-observation), h-functions
// (inverted by Newton on the logit), Kendall's tau (BB1 closed, the others
// 1 + 4 int phi / phi' by tanh-sinh quadrature to about 1e-12), and the
// bounds and starting points of their fits (VineCopula's BiCopEst, max.BB).
// Pure C++.
#ifndef IRTOPICS_COPULA_BB_H
#define IRTOPICS_COPULA_BB_H

#include "copula_archimedean.h"  // clayton_log_s()
#include "copula_fit.h"

namespace irtopics {
namespace copula_detail {

// BB1 (Joe 2014, section 4.17.1), theta > 0, delta >= 1: Archimedean with
// generator (t^-th - 1)^de; C = (1 + s^(1/de))^(-1/th),
// s = A(u)^de + A(v)^de, A(t) = t^-th - 1.
// The densities (BB1DensityT, ...) are templates on the scalar type T of
// the parameters: double, or Dual2 for the exact gradient and Hessian of a
// fit, or their packs of four observations, Pk and Dual2P, which the fits
// sum with (bb_loglik(), bb_loglik_d2(); copula_pack.h), and on the
// argument type (Arg, or ArgP for four); BB1Density, ... are the double
// ones.
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T bb1_log_a(const T& th, const A& a) {
  using std::exp;
  using std::expm1;
  using std::log;
  using std::log1p;
  const T z = -th * a.lx;  // > 0
  return choose(val(z) < 30.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(log(expm1(z))); },
                [&]() IRTOPICS_LAMBDA_INLINE { return T(z + log1p(-exp(-z))); });
}

template <typename T>
struct BB1DensityT {
  // c1 = 1 + th de, c2 = th (de - 1); the factors that are the same at every
  // point are formed once (the same operations, so the same values)
  T th, de, c1, c2, dm1, tp1, k1, k2;
  BB1DensityT(const T& th_, const T& de_)
      : th(th_), de(de_), c1(1.0 + th_ * de_), c2(th_ * (de_ - 1.0)), dm1(de_ - 1.0), tp1(th_ + 1.0),
        k1(-(1.0 / th_ + 2.0)), k2(1.0 / de_ - 2.0) {}
  template <typename A>
  IRTOPICS_DUAL_INLINE MargT<T> margin(const A& a) const {
    const T la = bb1_log_a(th, a);
    return {de * la, dm1 * la - tp1 * a.lx};
  }
  IRTOPICS_DUAL_INLINE T pair(const T& ka, const T& kb) const {
    using std::exp;
    using std::log;
    using std::log1p;
    const T ls = log_sum_exp(ka, kb), lr = ls / de;
    // k1 log(1 + r) + k2 ls + log((th + 1) r + th (de - 1) (1 + r)), where
    // (th + 1) r + th (de - 1) (1 + r) = r (1 + th de) + th (de - 1)
    return choose(
        val(lr) < 700.0,
        [&]() IRTOPICS_LAMBDA_INLINE {
          const T r = exp(lr);
          return T(k1 * log1p(r) + k2 * ls + log(r * c1 + c2));
        },
        [&]() IRTOPICS_LAMBDA_INLINE {
          return T(k1 * softplus(lr) + k2 * ls + log_sum_exp(T(lr + log(c1)), T(log(c2))));
        });
  }
};
using BB1Density = BB1DensityT<double>;

inline double bb1_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB1Density(th, de), a, b);
}

inline double bb1_h1(double th, double de, const Arg& a, const Arg& b) {
  const double la = bb1_log_a(th, a), lb = bb1_log_a(th, b);
  const double ls = log_sum_exp(de * la, de * lb), l1pr = softplus(ls / de);
  return std::exp(-(1.0 / th + 1.0) * l1pr + (1.0 / de - 1.0) * ls + (de - 1.0) * la - (th + 1.0) * a.lx);
}

// log(1 - (1 - t)^th) (BB6, BB7).
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T log_one_minus_pow(const T& th, const A& a) { return log1m_exp(T(th * a.l1x)); }

// BB6 (Joe 2014, section 4.17.3), theta >= 1, delta >= 1: generator
// x(t)^de, x(t) = -log(1 - (1 - t)^th); C = 1 - (1 - e^-w)^(1/th),
// w = s^(1/de), s = x(u)^de + x(v)^de.
template <typename T>
struct BB6DensityT {
  T th, de, lth, tm1, dm1, k1;  // k1 = 1 / th - 2
  BB6DensityT(const T& th_, const T& de_) : th(th_), de(de_), tm1(th_ - 1.0), dm1(de_ - 1.0), k1(1.0 / th_ - 2.0) {
    using std::log;
    lth = log(th_);
  }
  template <typename A>
  IRTOPICS_DUAL_INLINE MargT<T> margin(const A& a) const {
    using std::log;
    const T lba = log_one_minus_pow(th, a), lxa = log(-lba);
    return {de * lxa, dm1 * lxa + tm1 * a.l1x - lba};
  }
  IRTOPICS_DUAL_INLINE T pair(const T& ka, const T& kb) const {
    using std::exp;
    using std::expm1;
    using std::log;
    const T ls = log_sum_exp(ka, kb), lw = ls / de, w = exp(lw);
    const T q = -expm1(-w);  // 1 - e^-w
    const T br = w * (tm1 + q) / th + dm1 * q;
    return lth + k1 * log(q) - w + lw - 2.0 * ls + log(br);
  }
};
using BB6Density = BB6DensityT<double>;

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
template <typename T>
struct BB7DensityT {
  // the factors that are the same at every point, formed once
  T th, de, mde, mdp1, tm1, c1, c2, k1;
  BB7DensityT(const T& th_, const T& de_)
      : th(th_), de(de_), mde(-de_), mdp1(-(de_ + 1.0)), tm1(th_ - 1.0), c1(th_ * (1.0 + de_)),
        c2(1.0 + 2.0 * de_), k1(1.0 / th_ - 2.0) {}
  template <typename A>
  IRTOPICS_DUAL_INLINE MargT<T> margin(const A& a) const {
    const T lba = log_one_minus_pow(th, a);
    return {mde * lba, mdp1 * lba + tm1 * a.l1x};
  }
  IRTOPICS_DUAL_INLINE T pair(const T& ka, const T& kb) const {
    using std::exp;
    using std::log;
    const T lz = -clayton_log_s(ka, kb) / de;
    const T l1mz = log1m_exp(pick(val(lz) > -1e-300, T(-1e-300), lz));  // std::min(lz, -1e-300)
    const T br = tm1 * exp(lz) + c1 * exp(l1mz);
    return c2 * lz + k1 * l1mz + log(br);
  }
};
using BB7Density = BB7DensityT<double>;

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
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T bb8_log_q(const T& de, const A& a) {  // log(1 - de t)
  using std::log;
  return log((1.0 - de) + de * a.x1);
}
template <typename T>
IRTOPICS_DUAL_INLINE T bb8_log_eta(const T& th, const T& de) {
  using std::log1p;
  return choose(val(de) >= 1.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(0.0); },
                [&]() IRTOPICS_LAMBDA_INLINE { return log1m_exp(T(th * log1p(-de))); });
}

template <typename T>
struct BB8DensityT {
  T th, de, leta, lde, tm1, k1, k0;  // log eta, log de, th - 1, 1 / th - 2, lde - leta
  BB8DensityT(const T& th_, const T& de_)
      : th(th_), de(de_), leta(bb8_log_eta(th_, de_)), tm1(th_ - 1.0), k1(1.0 / th_ - 2.0) {
    using std::log;
    lde = log(de_);
    k0 = lde - leta;
  }
  template <typename A>
  IRTOPICS_DUAL_INLINE MargT<T> margin(const A& a) const {
    const T lq = bb8_log_q(de, a);
    return {log1m_exp(T(th * lq)), tm1 * lq};  // log D(a)
  }
  IRTOPICS_DUAL_INLINE T pair(const T& ka, const T& kb) const {
    using std::exp;
    using std::log;
    const T s = ka + kb - leta;
    const T lp = pick(val(s) > 0.0, T(0.0), s);  // std::min(s, 0.0)
    return k0 + k1 * log1m_exp(lp) + log(th - exp(lp));
  }
};
using BB8Density = BB8DensityT<double>;

inline double bb8_log_pdf(double th, double de, const Arg& a, const Arg& b) {
  return split_log_pdf(BB8Density(th, de), a, b);
}

inline double bb8_h1(double th, double de, const Arg& a, const Arg& b) {
  const double lqa = bb8_log_q(de, a), lqb = bb8_log_q(de, b), leta = bb8_log_eta(th, de);
  const double ldb = log1m_exp(th * lqb);
  const double lp = std::min(log1m_exp(th * lqa) + ldb - leta, 0.0);
  return std::exp((1.0 / th - 1.0) * log1m_exp(lp) + (th - 1.0) * lqa + ldb - leta);
}

// Kendall's tau of an Archimedean copula: 1 + 4 int_0^1 phi(t) / phi'(t) dt
// (Nelsen 2006, theorem 5.1.1); the BB copulas' phi / phi' in closed form.
inline double bb1_tau(double th, double de) { return 1.0 - 2.0 / (de * (th + 2.0)); }

// phi = (-log B)^de, B = 1 - (1-t)^th: phi/phi' = log(B) B / (de th (1-t)^(th-1))
inline double bb6_tau(double th, double de) {
  const double lc = std::log(th * de);
  return 1.0 + 4.0 * tanh_sinh01([&](const Arg& t) {
           const double lb = log_one_minus_pow(th, t);
           return lb * std::exp(lb - lc - (th - 1.0) * t.l1x);
         });
}

// phi = B^-de - 1: phi/phi' = -B (1 - B^de) / (de th (1-t)^(th-1))
inline double bb7_tau(double th, double de) {
  const double lc = std::log(th * de);
  return 1.0 + 4.0 * tanh_sinh01([&](const Arg& t) {
           const double lb = log_one_minus_pow(th, t);
           return -std::exp(lb + log1m_exp(de * lb) - lc - (th - 1.0) * t.l1x);
         });
}

// phi = -log(D / eta), D = 1 - (1 - de t)^th: phi/phi' = log(D / eta) D / (th de (1 - de t)^(th-1))
inline double bb8_tau(double th, double de) {
  const double lc = std::log(th * de);
  const double leta = bb8_log_eta(th, de);
  return 1.0 + 4.0 * tanh_sinh01([&](const Arg& t) {
           const double lq = bb8_log_q(de, t), ld = log1m_exp(th * lq);
           return (ld - leta) * std::exp(ld - lc - (th - 1.0) * lq);
         });
}

// ------------------------------------------------------------ the records

inline void box(double l0, double h0, double l1, double h1, double lo[2], double hi[2]) {
  lo[0] = l0;
  hi[0] = h0;
  lo[1] = l1;
  hi[1] = h1;
}

// The log-likelihood, four observations at a time (sum_split_packed(),
// packed_call()).
template <template <typename> class D>
double bb_loglik(const PairData& d, int r, double th, double de) {
  return packed_call([&]() IRTOPICS_LAMBDA_INLINE { return sum_split_packed(d, r, D<Pk>(Pk(th), Pk(de))); });
}

// The same with its exact gradient and Hessian in (th, de); its value is
// bb_loglik()'s bit for bit.
template <template <typename> class D>
Dual2 bb_loglik_d2(const PairData& d, int r, double th, double de) {
  return packed_call([&]() IRTOPICS_LAMBDA_INLINE {
    return sum_split_packed(d, r, D<Dual2P>(Dual2P::variable(th, 0), Dual2P::variable(de, 1)));
  });
}

// Starting points: VineCopula's first, then points of the family's
// sub-models roughly matching the empirical tau t.
inline bool bb1_valid(double th, double de) { return th > 0 && de >= 1; }
inline void bb1_bounds(double, double lo[2], double hi[2]) { box(0.001, 5, 1.001, 6, lo, hi); }
// tau = 1 - 2 / (de (th + 2)); Gumbel-like (th -> 0, de = 1 / (1 - tau))
inline int bb1_starts(double t, const double*, const double*, double st[4][2]) {
  st[0][0] = 0.5; st[0][1] = 1.5;
  st[1][0] = 2.0 / (1.2 * (1 - t)) - 2.0; st[1][1] = 1.2;
  st[2][0] = 0.1; st[2][1] = 1.0 / (1 - t);
  return 3;
}

inline bool bb6_valid(double th, double de) { return th >= 1 && de >= 1; }
inline void bb6_bounds(double, double lo[2], double hi[2]) { box(1.001, 6, 1.001, 6, lo, hi); }
inline int bb6_starts(double t, const double*, const double*, double st[4][2]) {
  st[0][0] = 1.5; st[0][1] = 1.5;
  st[1][0] = 1.0; st[1][1] = 1.0 / (1 - t);
  return 2;
}

inline bool bb7_valid(double th, double de) { return th >= 1 && de > 0; }
inline void bb7_bounds(double, double lo[2], double hi[2]) { box(1.001, 5, 0.001, 6, lo, hi); }
inline int bb7_starts(double t, const double*, const double*, double st[4][2]) {
  st[0][0] = 1.5; st[0][1] = 0.5;
  st[1][0] = 1.0; st[1][1] = 2 * t / (1 - t);
  st[2][0] = 1.0 / (1 - t); st[2][1] = 0.05;
  return 3;
}

inline bool bb8_valid(double th, double de) { return th >= 1 && de > 0 && de <= 1; }
inline void bb8_bounds(double, double lo[2], double hi[2]) { box(1.001, 6, 0.001, 1, lo, hi); }
inline int bb8_starts(double t, const double*, const double*, double st[4][2]) {
  st[0][0] = 1.5; st[0][1] = 0.5;
  st[1][0] = 1.0 / (1 - t); st[1][1] = 1.0;
  return 2;
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
