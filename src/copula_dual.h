// Copulas: a forward-mode dual number of second order in two variables
// (Dual2: a value, its gradient and its Hessian), so that one evaluation of
// a two-parameter log-likelihood written once for the scalar type T (double
// or Dual2) gives the exact gradient and Hessian that newton_box_exact()
// (copula_fit.h) climbs with. Every elementary function is computed once;
// its first and second derivatives come from its value (exp: f' = f'' = f;
// log: 1 / x, -1 / x^2; ...) by the chain rule
//   d_i f(x) = f'(x) x_i,  d_ij f(x) = f'(x) x_ij + f''(x) x_i x_j,
// and the value part of every operation is the double operation itself, so
// a Dual2 evaluation's value equals the double evaluation's bit for bit.
// val() reads the value of either type for comparisons and branches.
// Dual1 is the same in one variable (the one-parameter families).
// Dual2T<S> has components of type S: Dual2 (double) or Dual2P (Pk, four
// observations at once, copula_pack.h). Pure C++.
#ifndef IRTOPICS_COPULA_DUAL_H
#define IRTOPICS_COPULA_DUAL_H

#include <cmath>
#include <type_traits>

#include "copula_pack.h"

// The operations are small and called per observation: inlined always
// where the compiler allows it to be asked (GCC, clang).
#if defined(__GNUC__) || defined(__clang__)
#define IRTOPICS_DUAL_INLINE inline __attribute__((always_inline))
#define IRTOPICS_LAMBDA_INLINE __attribute__((always_inline))
#else
#define IRTOPICS_DUAL_INLINE inline
#define IRTOPICS_LAMBDA_INLINE
#endif

namespace irtopics {
namespace copula_detail {

// S is the scalar of the components: double, or Pk (copula_pack.h) for
// four observations at once; Dual2 is the double one.
template <typename S>
struct Dual2T {
  S v = 0.0, g0 = 0.0, g1 = 0.0, h00 = 0.0, h01 = 0.0, h11 = 0.0;
  Dual2T() = default;
  Dual2T(double x) : v(x) {}  // a constant (implicit: mixes with double constants)
  Dual2T(const S& x, std::true_type) : v(x) {}  // a constant of the scalar type
  // the variable k (0 or 1) at value x
  static Dual2T variable(double x, int k) {
    Dual2T r(x);
    if (k == 0) r.g0 = 1.0; else r.g1 = 1.0;
    return r;
  }
  bool finite() const {
    return all_finite(v) && all_finite(g0) && all_finite(g1) && all_finite(h00) && all_finite(h01) &&
           all_finite(h11);
  }
  Dual2T& operator+=(const Dual2T& b) {
    v += b.v; g0 += b.g0; g1 += b.g1; h00 += b.h00; h01 += b.h01; h11 += b.h11;
    return *this;
  }
};
using Dual2 = Dual2T<double>;
using Dual2P = Dual2T<Pk>;

template <typename S>
IRTOPICS_DUAL_INLINE const S& val(const Dual2T<S>& x) { return x.v; }
IRTOPICS_DUAL_INLINE double val(double x) { return x; }

// f(x) from f = f(x.v), f1 = f'(x.v), f2 = f''(x.v).
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> chain(const Dual2T<S>& x, const S& f, const S& f1, const S& f2) {
  Dual2T<S> r(f, std::true_type());
  r.g0 = f1 * x.g0;
  r.g1 = f1 * x.g1;
  r.h00 = f1 * x.h00 + f2 * x.g0 * x.g0;
  r.h01 = f1 * x.h01 + f2 * x.g0 * x.g1;
  r.h11 = f1 * x.h11 + f2 * x.g1 * x.g1;
  return r;
}

template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator-(const Dual2T<S>& a) {
  Dual2T<S> r(-a.v, std::true_type());
  r.g0 = -a.g0; r.g1 = -a.g1; r.h00 = -a.h00; r.h01 = -a.h01; r.h11 = -a.h11;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator-(const Dual2T<S>& a, const Dual2T<S>& b) {
  Dual2T<S> r(a.v - b.v, std::true_type());
  r.g0 = a.g0 - b.g0; r.g1 = a.g1 - b.g1; r.h00 = a.h00 - b.h00; r.h01 = a.h01 - b.h01; r.h11 = a.h11 - b.h11;
  return r;
}
// a dual times a constant: a double, or a value of the dual's scalar type
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator*(const Dual2T<S>& a, const std::common_type_t<S>& c) {
  Dual2T<S> r(a.v * c, std::true_type());
  r.g0 = a.g0 * c; r.g1 = a.g1 * c; r.h00 = a.h00 * c; r.h01 = a.h01 * c; r.h11 = a.h11 * c;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator*(const std::common_type_t<S>& c, const Dual2T<S>& a) {
  Dual2T<S> r(c * a.v, std::true_type());
  r.g0 = c * a.g0; r.g1 = c * a.g1; r.h00 = c * a.h00; r.h01 = c * a.h01; r.h11 = c * a.h11;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator*(const Dual2T<S>& a, const Dual2T<S>& b) {
  Dual2T<S> r(a.v * b.v, std::true_type());
  r.g0 = a.v * b.g0 + b.v * a.g0;
  r.g1 = a.v * b.g1 + b.v * a.g1;
  r.h00 = a.v * b.h00 + b.v * a.h00 + 2.0 * a.g0 * b.g0;
  r.h01 = a.v * b.h01 + b.v * a.h01 + a.g0 * b.g1 + a.g1 * b.g0;
  r.h11 = a.v * b.h11 + b.v * a.h11 + 2.0 * a.g1 * b.g1;
  return r;
}
// q = a / b from a = q b: q_i = (a_i - q b_i) / b, q_ij = (a_ij - q b_ij - q_i b_j - q_j b_i) / b.
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator/(const Dual2T<S>& a, const Dual2T<S>& b) {
  Dual2T<S> r(a.v / b.v, std::true_type());
  const S ib = 1.0 / b.v, q = r.v;
  r.g0 = (a.g0 - q * b.g0) * ib;
  r.g1 = (a.g1 - q * b.g1) * ib;
  r.h00 = (a.h00 - q * b.h00 - 2.0 * r.g0 * b.g0) * ib;
  r.h01 = (a.h01 - q * b.h01 - r.g0 * b.g1 - r.g1 * b.g0) * ib;
  r.h11 = (a.h11 - q * b.h11 - 2.0 * r.g1 * b.g1) * ib;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual2T<S> operator/(const Dual2T<S>& a, const std::common_type_t<S>& c) {
  Dual2T<S> r(a.v / c, std::true_type());
  r.g0 = a.g0 / c; r.g1 = a.g1 / c; r.h00 = a.h00 / c; r.h01 = a.h01 / c; r.h11 = a.h11 / c;
  return r;
}

// Branches on values (the densities are written once for every scalar
// type): a condition is a bool for double and Dual2, a Mask for the packs.
// pick(c, a, b) is c ? a : b lane by lane; choose(c, fa, fb) evaluates
// fa() where c holds and fb() elsewhere: one side when the lanes agree,
// both blended when they differ. lor() is c1 || c2, land() c1 && c2.
template <typename T>
IRTOPICS_DUAL_INLINE T pick(bool c, const T& a, const T& b) { return c ? a : b; }
IRTOPICS_DUAL_INLINE Pk pick(const Mask& c, const Pk& a, const Pk& b) { return select(c, a, b); }
IRTOPICS_DUAL_INLINE Dual2P pick(const Mask& c, const Dual2P& a, const Dual2P& b) {
  Dual2P r;
  r.v = select(c, a.v, b.v);
  r.g0 = select(c, a.g0, b.g0);
  r.g1 = select(c, a.g1, b.g1);
  r.h00 = select(c, a.h00, b.h00);
  r.h01 = select(c, a.h01, b.h01);
  r.h11 = select(c, a.h11, b.h11);
  return r;
}
IRTOPICS_DUAL_INLINE bool lor(bool a, bool b) { return a || b; }
IRTOPICS_DUAL_INLINE Mask lor(const Mask& a, const Mask& b) { return a | b; }
IRTOPICS_DUAL_INLINE bool land(bool a, bool b) { return a && b; }
IRTOPICS_DUAL_INLINE Mask land(const Mask& a, const Mask& b) { return a & b; }
template <typename FA, typename FB>
IRTOPICS_DUAL_INLINE auto choose(bool c, FA&& fa, FB&& fb) -> decltype(fa()) {
  return c ? fa() : fb();
}
template <typename FA, typename FB>
IRTOPICS_DUAL_INLINE auto choose(const Mask& c, FA&& fa, FB&& fb) -> decltype(fa()) {
  if (all(c)) return fa();
  if (!any(c)) return fb();
  return pick(c, fa(), fb());
}

// One variable, second order (Dual1: a value and its first and second
// derivatives), for the one-parameter log-likelihoods that
// newton_max_1d() (copula_fit.h) climbs with; the same rules as Dual2 (the
// value part of every operation is the double operation itself), and the
// same components of type S: Dual1 (double) or Dual1P (Pk).
template <typename S>
struct Dual1T {
  S v = 0.0, d = 0.0, dd = 0.0;
  Dual1T() = default;
  Dual1T(double x) : v(x) {}  // a constant
  Dual1T(const S& x, std::true_type) : v(x) {}  // a constant of the scalar type
  static Dual1T variable(double x) {
    Dual1T r(x);
    r.d = 1.0;
    return r;
  }
  bool finite() const { return all_finite(v) && all_finite(d) && all_finite(dd); }
  Dual1T& operator+=(const Dual1T& b) {
    v += b.v; d += b.d; dd += b.dd;
    return *this;
  }
};
using Dual1 = Dual1T<double>;
using Dual1P = Dual1T<Pk>;

template <typename S>
IRTOPICS_DUAL_INLINE const S& val(const Dual1T<S>& x) { return x.v; }

template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> chain(const Dual1T<S>& x, const S& f, const S& f1, const S& f2) {
  Dual1T<S> r(f, std::true_type());
  r.d = f1 * x.d;
  r.dd = f1 * x.dd + f2 * x.d * x.d;
  return r;
}

template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator-(const Dual1T<S>& a) {
  Dual1T<S> r(-a.v, std::true_type());
  r.d = -a.d; r.dd = -a.dd;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator-(const Dual1T<S>& a, const Dual1T<S>& b) {
  Dual1T<S> r(a.v - b.v, std::true_type());
  r.d = a.d - b.d; r.dd = a.dd - b.dd;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator*(const Dual1T<S>& a, const std::common_type_t<S>& c) {
  Dual1T<S> r(a.v * c, std::true_type());
  r.d = a.d * c; r.dd = a.dd * c;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator*(const std::common_type_t<S>& c, const Dual1T<S>& a) {
  Dual1T<S> r(c * a.v, std::true_type());
  r.d = c * a.d; r.dd = c * a.dd;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator*(const Dual1T<S>& a, const Dual1T<S>& b) {
  Dual1T<S> r(a.v * b.v, std::true_type());
  r.d = a.v * b.d + b.v * a.d;
  r.dd = a.v * b.dd + b.v * a.dd + 2.0 * a.d * b.d;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator/(const Dual1T<S>& a, const Dual1T<S>& b) {
  Dual1T<S> r(a.v / b.v, std::true_type());
  const S ib = 1.0 / b.v, q = r.v;
  r.d = (a.d - q * b.d) * ib;
  r.dd = (a.dd - q * b.dd - 2.0 * r.d * b.d) * ib;
  return r;
}
template <typename S>
IRTOPICS_DUAL_INLINE Dual1T<S> operator/(const Dual1T<S>& a, const std::common_type_t<S>& c) {
  Dual1T<S> r(a.v / c, std::true_type());
  r.d = a.d / c; r.dd = a.dd / c;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1P pick(const Mask& c, const Dual1P& a, const Dual1P& b) {
  Dual1P r;
  r.v = select(c, a.v, b.v);
  r.d = select(c, a.d, b.d);
  r.dd = select(c, a.dd, b.dd);
  return r;
}

// What is the same for either dual type (D: Dual1 or Dual2T<S>): a constant
// added or subtracted changes the value alone; a constant over a dual is the
// constant as a dual over it; the elementary functions (of double from
// <cmath>, of Pk from copula_pack.h), each computed once.
template <typename D>
struct DualScalar {};
template <typename S>
struct DualScalar<Dual1T<S>> { using type = S; };
template <typename S>
struct DualScalar<Dual2T<S>> { using type = S; };
template <typename D>
using IfDual = std::enable_if_t<!std::is_void_v<typename DualScalar<D>::type>, D>;
template <typename D>
using ScalarOf = typename DualScalar<D>::type;

template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator+(const D& a, const D& b) {
  D r = a;
  return r += b;
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator+(const D& a, const ScalarOf<D>& b) { D r = a; r.v = a.v + b; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator+(const ScalarOf<D>& a, const D& b) { D r = b; r.v = a + b.v; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator-(const D& a, const ScalarOf<D>& b) { D r = a; r.v = a.v - b; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator-(const ScalarOf<D>& a, const D& b) { D r = -b; r.v = a - b.v; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator/(const ScalarOf<D>& a, const D& b) {
  D q;
  q.v = a;
  return q / b;
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> exp(const D& x) {
  using std::exp;
  const ScalarOf<D> e = exp(x.v);
  return chain(x, e, e, e);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> expm1(const D& x) {
  using std::expm1;
  const ScalarOf<D> e1 = expm1(x.v), e = e1 + 1.0;
  return chain(x, e1, e, e);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> log(const D& x) {
  using std::log;
  const ScalarOf<D> i = 1.0 / x.v;
  return chain(x, log(x.v), i, -i * i);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> log1p(const D& x) {
  using std::log1p;
  const ScalarOf<D> i = 1.0 / (1.0 + x.v);
  return chain(x, log1p(x.v), i, -i * i);
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
