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
// Dual1 is the same in one variable (the one-parameter families). Pure C++.
#ifndef IRTOPICS_COPULA_DUAL_H
#define IRTOPICS_COPULA_DUAL_H

#include <cmath>
#include <type_traits>

// The operations are small and called per observation: inlined always
// where the compiler allows it to be asked (GCC, clang).
#if defined(__GNUC__) || defined(__clang__)
#define IRTOPICS_DUAL_INLINE inline __attribute__((always_inline))
#else
#define IRTOPICS_DUAL_INLINE inline
#endif

namespace irtopics {
namespace copula_detail {

struct Dual2 {
  double v = 0, g0 = 0, g1 = 0, h00 = 0, h01 = 0, h11 = 0;
  Dual2() = default;
  Dual2(double x) : v(x) {}  // a constant (implicit: mixes with double constants)
  // the variable k (0 or 1) at value x
  static Dual2 variable(double x, int k) {
    Dual2 r(x);
    if (k == 0) r.g0 = 1; else r.g1 = 1;
    return r;
  }
  bool finite() const {
    return std::isfinite(v) && std::isfinite(g0) && std::isfinite(g1) && std::isfinite(h00) &&
           std::isfinite(h01) && std::isfinite(h11);
  }
  Dual2& operator+=(const Dual2& b) {
    v += b.v; g0 += b.g0; g1 += b.g1; h00 += b.h00; h01 += b.h01; h11 += b.h11;
    return *this;
  }
};

IRTOPICS_DUAL_INLINE double val(double x) { return x; }
IRTOPICS_DUAL_INLINE double val(const Dual2& x) { return x.v; }

// f(x) from f = f(x.v), f1 = f'(x.v), f2 = f''(x.v).
IRTOPICS_DUAL_INLINE Dual2 chain(const Dual2& x, double f, double f1, double f2) {
  Dual2 r(f);
  r.g0 = f1 * x.g0;
  r.g1 = f1 * x.g1;
  r.h00 = f1 * x.h00 + f2 * x.g0 * x.g0;
  r.h01 = f1 * x.h01 + f2 * x.g0 * x.g1;
  r.h11 = f1 * x.h11 + f2 * x.g1 * x.g1;
  return r;
}

IRTOPICS_DUAL_INLINE Dual2 operator-(const Dual2& a) {
  Dual2 r(-a.v);
  r.g0 = -a.g0; r.g1 = -a.g1; r.h00 = -a.h00; r.h01 = -a.h01; r.h11 = -a.h11;
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 operator+(Dual2 a, const Dual2& b) { return a += b; }
IRTOPICS_DUAL_INLINE Dual2 operator-(const Dual2& a, const Dual2& b) {
  Dual2 r(a.v - b.v);
  r.g0 = a.g0 - b.g0; r.g1 = a.g1 - b.g1; r.h00 = a.h00 - b.h00; r.h01 = a.h01 - b.h01; r.h11 = a.h11 - b.h11;
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 operator*(const Dual2& a, double c) {
  Dual2 r(a.v * c);
  r.g0 = a.g0 * c; r.g1 = a.g1 * c; r.h00 = a.h00 * c; r.h01 = a.h01 * c; r.h11 = a.h11 * c;
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 operator*(double c, const Dual2& a) {
  Dual2 r(c * a.v);
  r.g0 = c * a.g0; r.g1 = c * a.g1; r.h00 = c * a.h00; r.h01 = c * a.h01; r.h11 = c * a.h11;
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 operator*(const Dual2& a, const Dual2& b) {
  Dual2 r(a.v * b.v);
  r.g0 = a.v * b.g0 + b.v * a.g0;
  r.g1 = a.v * b.g1 + b.v * a.g1;
  r.h00 = a.v * b.h00 + b.v * a.h00 + 2.0 * a.g0 * b.g0;
  r.h01 = a.v * b.h01 + b.v * a.h01 + a.g0 * b.g1 + a.g1 * b.g0;
  r.h11 = a.v * b.h11 + b.v * a.h11 + 2.0 * a.g1 * b.g1;
  return r;
}
// q = a / b from a = q b: q_i = (a_i - q b_i) / b, q_ij = (a_ij - q b_ij - q_i b_j - q_j b_i) / b.
IRTOPICS_DUAL_INLINE Dual2 operator/(const Dual2& a, const Dual2& b) {
  Dual2 r(a.v / b.v);
  const double ib = 1.0 / b.v, q = r.v;
  r.g0 = (a.g0 - q * b.g0) * ib;
  r.g1 = (a.g1 - q * b.g1) * ib;
  r.h00 = (a.h00 - q * b.h00 - 2.0 * r.g0 * b.g0) * ib;
  r.h01 = (a.h01 - q * b.h01 - r.g0 * b.g1 - r.g1 * b.g0) * ib;
  r.h11 = (a.h11 - q * b.h11 - 2.0 * r.g1 * b.g1) * ib;
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 operator/(const Dual2& a, double c) {
  Dual2 r(a.v / c);
  r.g0 = a.g0 / c; r.g1 = a.g1 / c; r.h00 = a.h00 / c; r.h01 = a.h01 / c; r.h11 = a.h11 / c;
  return r;
}

// One variable, second order (Dual1: a value and its first and second
// derivatives), for the one-parameter log-likelihoods that
// newton_max_1d() (copula_fit.h) climbs with; the same rules as Dual2 (the
// value part of every operation is the double operation itself).
struct Dual1 {
  double v = 0, d = 0, dd = 0;
  Dual1() = default;
  Dual1(double x) : v(x) {}  // a constant
  static Dual1 variable(double x) {
    Dual1 r(x);
    r.d = 1;
    return r;
  }
  bool finite() const { return std::isfinite(v) && std::isfinite(d) && std::isfinite(dd); }
  Dual1& operator+=(const Dual1& b) {
    v += b.v; d += b.d; dd += b.dd;
    return *this;
  }
};

IRTOPICS_DUAL_INLINE double val(const Dual1& x) { return x.v; }

IRTOPICS_DUAL_INLINE Dual1 chain(const Dual1& x, double f, double f1, double f2) {
  Dual1 r(f);
  r.d = f1 * x.d;
  r.dd = f1 * x.dd + f2 * x.d * x.d;
  return r;
}

IRTOPICS_DUAL_INLINE Dual1 operator-(const Dual1& a) {
  Dual1 r(-a.v);
  r.d = -a.d; r.dd = -a.dd;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator+(Dual1 a, const Dual1& b) { return a += b; }
IRTOPICS_DUAL_INLINE Dual1 operator-(const Dual1& a, const Dual1& b) {
  Dual1 r(a.v - b.v);
  r.d = a.d - b.d; r.dd = a.dd - b.dd;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator*(const Dual1& a, double c) {
  Dual1 r(a.v * c);
  r.d = a.d * c; r.dd = a.dd * c;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator*(double c, const Dual1& a) {
  Dual1 r(c * a.v);
  r.d = c * a.d; r.dd = c * a.dd;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator*(const Dual1& a, const Dual1& b) {
  Dual1 r(a.v * b.v);
  r.d = a.v * b.d + b.v * a.d;
  r.dd = a.v * b.dd + b.v * a.dd + 2.0 * a.d * b.d;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator/(const Dual1& a, const Dual1& b) {
  Dual1 r(a.v / b.v);
  const double ib = 1.0 / b.v, q = r.v;
  r.d = (a.d - q * b.d) * ib;
  r.dd = (a.dd - q * b.dd - 2.0 * r.d * b.d) * ib;
  return r;
}
IRTOPICS_DUAL_INLINE Dual1 operator/(const Dual1& a, double c) {
  Dual1 r(a.v / c);
  r.d = a.d / c; r.dd = a.dd / c;
  return r;
}

// What is the same for either dual type (D: Dual1 or Dual2): a constant
// added or subtracted changes the value alone; a constant over a dual is the
// constant as a dual over it; the elementary functions.
template <typename D>
using IfDual = std::enable_if_t<std::is_same_v<D, Dual1> || std::is_same_v<D, Dual2>, D>;
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator+(const D& a, double b) { D r = a; r.v = a.v + b; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator+(double a, const D& b) { D r = b; r.v = a + b.v; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator-(const D& a, double b) { D r = a; r.v = a.v - b; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator-(double a, const D& b) { D r = -b; r.v = a - b.v; return r; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> operator/(double a, const D& b) { return D(a) / b; }
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> exp(const D& x) {
  const double e = std::exp(x.v);
  return chain(x, e, e, e);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> expm1(const D& x) {
  const double e1 = std::expm1(x.v), e = e1 + 1.0;
  return chain(x, e1, e, e);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> log(const D& x) {
  const double i = 1.0 / x.v;
  return chain(x, std::log(x.v), i, -i * i);
}
template <typename D>
IRTOPICS_DUAL_INLINE IfDual<D> log1p(const D& x) {
  const double i = 1.0 / (1.0 + x.v);
  return chain(x, std::log1p(x.v), i, -i * i);
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
