// Copulas: a pack of four doubles (Pk), the scalar type with which the
// log-likelihoods of the fits are summed four observations at a time
// (copula_data.h: sum_split_packed(), sum_rotated_packed(),
// sum_scores_packed()): the densities are the same templates as for double
// and Dual2 or Dual1, with Pk (a value), Dual2T<Pk> or Dual1T<Pk> (four
// values with their derivatives) as the scalar type. A branch on a value is a
// Mask; choose() takes one side when the four lanes agree and blends both
// when they differ. exp, expm1, log and log1p of a pack are computed here by
// range reduction and a polynomial (their Taylor series, to below half an
// ulp of truncation error: within 1-2 ulp of the correctly rounded value),
// and by the C library lane by lane for arguments outside the range the
// reduction serves (overflow, subnormals, infinities, NaN).
//
// Lanes are GCC/clang vector extensions (vector_size(32)): one AVX
// operation where the caller is compiled for AVX2 (packed_call() below),
// two SSE2 operations (scalar ones for comparisons) on baseline x86-64,
// NEON on arm64; each lane computes the same IEEE operations in every case,
// so the AVX2 and baseline copies give the same sums. Pure C++.
#ifndef IRTOPICS_COPULA_PACK_H
#define IRTOPICS_COPULA_PACK_H

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
#define IRTOPICS_PACK_INLINE inline __attribute__((always_inline))
#else
#define IRTOPICS_PACK_INLINE inline
#endif

// Every function that takes or returns a pack by value is always inlined
// (IRTOPICS_PACK_INLINE, IRTOPICS_DUAL_INLINE, IRTOPICS_LAMBDA_INLINE on
// lambdas): a pack is passed in a register by AVX2 code and in memory by
// baseline code, so no such call may remain between an AVX2 copy and a
// baseline function. Packs cross functions as Pk (a struct) or by
// reference, never as a bare vector by value, so GCC has no calling
// convention to warn about (-Wpsabi) and no pragma silences it.

namespace irtopics {
namespace copula_detail {

// aligned to 32 bytes on every target (GCC gives a 32-byte vector the
// alignment of the widest vector the target has: 16 without AVX), so that
// the AVX2 copies and the baseline agree on the layout of every pack.
typedef double PkLanes __attribute__((vector_size(32), aligned(32)));
typedef std::int64_t PkBits __attribute__((vector_size(32), aligned(32)));
typedef std::uint64_t PkUBits __attribute__((vector_size(32), aligned(32)));
constexpr int kPkWidth = 4;

// A lane-wise truth value: all bits set (true) or none.
struct alignas(32) Mask {
  PkBits m;
};
IRTOPICS_PACK_INLINE Mask operator&(const Mask& a, const Mask& b) { return {a.m & b.m}; }
IRTOPICS_PACK_INLINE Mask operator|(const Mask& a, const Mask& b) { return {a.m | b.m}; }
IRTOPICS_PACK_INLINE Mask operator!(const Mask& a) { return {~a.m}; }
IRTOPICS_PACK_INLINE bool all(const Mask& a) { return (a.m[0] & a.m[1] & a.m[2] & a.m[3]) != 0; }
IRTOPICS_PACK_INLINE bool any(const Mask& a) { return (a.m[0] | a.m[1] | a.m[2] | a.m[3]) != 0; }
IRTOPICS_PACK_INLINE bool all(bool a) { return a; }

struct alignas(32) Pk {
  PkLanes v;
  IRTOPICS_PACK_INLINE Pk() : v{0.0, 0.0, 0.0, 0.0} {}
  // the same value in every lane (implicit: mixes with constants)
  IRTOPICS_PACK_INLINE Pk(double x) : v{x, x, x, x} {}
  IRTOPICS_PACK_INLINE explicit Pk(const PkLanes& x) : v(x) {}
  IRTOPICS_PACK_INLINE static Pk lanes(const double* x) { return Pk(PkLanes{x[0], x[1], x[2], x[3]}); }
  // the four lanes to x[0..3] (the inverse of lanes())
  IRTOPICS_PACK_INLINE void store(double* x) const {
    for (int k = 0; k < 4; ++k) x[k] = v[k];
  }
  IRTOPICS_PACK_INLINE double operator[](int k) const { return v[k]; }
  IRTOPICS_PACK_INLINE Pk& operator+=(const Pk& b) {
    v += b.v;
    return *this;
  }
};

IRTOPICS_PACK_INLINE Pk operator+(const Pk& a, const Pk& b) { return Pk(a.v + b.v); }
IRTOPICS_PACK_INLINE Pk operator-(const Pk& a, const Pk& b) { return Pk(a.v - b.v); }
IRTOPICS_PACK_INLINE Pk operator*(const Pk& a, const Pk& b) { return Pk(a.v * b.v); }
IRTOPICS_PACK_INLINE Pk operator/(const Pk& a, const Pk& b) { return Pk(a.v / b.v); }
IRTOPICS_PACK_INLINE Pk operator-(const Pk& a) { return Pk(-a.v); }
IRTOPICS_PACK_INLINE Mask operator<(const Pk& a, const Pk& b) { return {a.v < b.v}; }
IRTOPICS_PACK_INLINE Mask operator>(const Pk& a, const Pk& b) { return {a.v > b.v}; }
IRTOPICS_PACK_INLINE Mask operator<=(const Pk& a, const Pk& b) { return {a.v <= b.v}; }
IRTOPICS_PACK_INLINE Mask operator>=(const Pk& a, const Pk& b) { return {a.v >= b.v}; }
IRTOPICS_PACK_INLINE Mask operator==(const Pk& a, const Pk& b) { return {a.v == b.v}; }

IRTOPICS_PACK_INLINE const Pk& val(const Pk& x) { return x; }  // a pack is its own value
IRTOPICS_PACK_INLINE bool all_finite(double x) { return std::isfinite(x); }
IRTOPICS_PACK_INLINE bool all_finite(const Pk& x) {
  // |x| <= max finite, false for infinities and NaN
  const PkBits ok = (x.v <= std::numeric_limits<double>::max()) & (x.v >= -std::numeric_limits<double>::max());
  return all(Mask{ok});
}

// |x|, of a double or of each lane.
IRTOPICS_PACK_INLINE double abs_value(double x) { return std::fabs(x); }
IRTOPICS_PACK_INLINE Pk abs_value(const Pk& x) {
  return Pk((PkLanes)((PkBits)x.v & (PkBits){0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                                              0x7fffffffffffffffLL}));
}

// a where m, else b (lane by lane).
IRTOPICS_PACK_INLINE Pk select(const Mask& m, const Pk& a, const Pk& b) {
  return Pk((PkLanes)(((PkBits)a.v & m.m) | ((PkBits)b.v & ~m.m)));
}
IRTOPICS_PACK_INLINE double select(bool m, double a, double b) { return m ? a : b; }

// The sum of the lanes, in one fixed order.
IRTOPICS_PACK_INLINE double lane_sum(const Pk& x) { return (x.v[0] + x.v[1]) + (x.v[2] + x.v[3]); }

// ------------------------------------------------------- the functions

namespace pk_detail {
// ln 2 split so that k * kLn2Hi is exact for |k| < 2^20
constexpr double kLn2 = 0.6931471805599453094;
constexpr double kLn2Hi = 0x1.62e42fee00000p-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kInvLn2 = 1.4426950408889634074;
constexpr double kShift = 0x1.8p52;  // adding it rounds to an integer held in the low bits

template <typename F>
IRTOPICS_PACK_INLINE Pk by_lane(const Pk& x, F&& f) {
  return Pk(PkLanes{f(x.v[0]), f(x.v[1]), f(x.v[2]), f(x.v[3])});
}

// e^r - 1 for |r| <= ln 2 / 2 + a little: Taylor to r^13 (truncation below
// 4e-18 relative), Horner from the small end.
// (The helpers here write their results through references: a 32-byte
// vector returned by value is the one case GCC warns about, -Wpsabi.)
IRTOPICS_PACK_INLINE void expm1_reduced(const PkLanes& r, PkLanes& out) {
  PkLanes p = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;  // 1/13!, 1/12!
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  out = r + (r * r) * p;
}

// x = k ln 2 + r with k an integer in [-1022, 1023] (the low bits of
// x / ln 2 + kShift): p = e^r - 1 and s = 2^k, so that e^x = (1 + p) s
// (exp) and e^x - 1 = s p + (s - 1) (expm1).
IRTOPICS_PACK_INLINE void exp_parts(const PkLanes& x, PkLanes& p, PkLanes& s) {
  const PkLanes shifted = x * kInvLn2 + kShift;
  const PkBits kbits = (PkBits)shifted;
  const PkLanes kd = shifted - kShift;
  expm1_reduced((x - kd * kLn2Hi) - kd * kLn2Lo, p);
  s = (PkLanes)((kbits + 1023) << 52);
}
}  // namespace pk_detail

// e^x: reduced on (-708, 708), where 2^k is normal; else the C library.
template <typename P, typename = std::enable_if_t<std::is_same_v<P, Pk>>>
IRTOPICS_PACK_INLINE Pk exp(const P& x) {
  using namespace pk_detail;
  const Mask ok{(x.v > -708.0) & (x.v < 708.0)};
  if (!all(ok)) return by_lane(x, [](double t) { return std::exp(t); });
  PkLanes p, s;
  exp_parts(x.v, p, s);
  return Pk((1.0 + p) * s);
}

// e^x - 1: 2^k (1 + p) - 1 = 2^k p + (2^k - 1), with k = 0 (r = x exactly)
// for |x| < ln 2 / 2.
template <typename P, typename = std::enable_if_t<std::is_same_v<P, Pk>>>
IRTOPICS_PACK_INLINE Pk expm1(const P& x) {
  using namespace pk_detail;
  const Mask ok{(x.v > -700.0) & (x.v < 700.0)};
  if (!all(ok)) return by_lane(x, [](double t) { return std::expm1(t); });
  PkLanes p, s;
  exp_parts(x.v, p, s);
  return Pk(s * p + (s - 1.0));
}

namespace pk_detail {
// log x for normal positive finite x: x = 2^e m, m in (sqrt(1/2), sqrt(2)],
// f = m - 1 (exact), s = f / (2 + f), log m = 2 atanh s = f - s (f - R),
// R = sum_k 2 s^2k / (2k + 1) to k = 11 (truncation below 1e-18).
IRTOPICS_PACK_INLINE void log_normal(const PkLanes& x, PkLanes& out) {
  const PkBits bits = (PkBits)x;
  PkBits e = (PkBits)((PkUBits)bits >> 52) - 1023;
  PkLanes m = (PkLanes)((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);
  const PkBits big = m > 1.4142135623730951;
  m = (PkLanes)(((PkBits)(m * 0.5) & big) | ((PkBits)m & ~big));
  e -= big;  // big is -1 where true
  const PkLanes ed = (PkLanes)(e + (1023 + 0x4330000000000000LL)) - (0x1p52 + 1023.0);
  const PkLanes f = m - 1.0;
  const PkLanes s = f / (2.0 + f), z = s * s;
  PkLanes R = z * (2.0 / 23.0) + 2.0 / 21.0;
  R = R * z + 2.0 / 19.0;
  R = R * z + 2.0 / 17.0;
  R = R * z + 2.0 / 15.0;
  R = R * z + 2.0 / 13.0;
  R = R * z + 2.0 / 11.0;
  R = R * z + 2.0 / 9.0;
  R = R * z + 2.0 / 7.0;
  R = R * z + 2.0 / 5.0;
  R = R * z + 2.0 / 3.0;
  R = R * z;
  out = ed * kLn2Hi + ((f - s * (f - R)) + ed * kLn2Lo);
}
}  // namespace pk_detail

template <typename P, typename = std::enable_if_t<std::is_same_v<P, Pk>>>
IRTOPICS_PACK_INLINE Pk log(const P& x) {
  const Mask ok{(x.v >= std::numeric_limits<double>::min()) & (x.v <= std::numeric_limits<double>::max())};
  if (!all(ok)) return pk_detail::by_lane(x, [](double t) { return std::log(t); });
  PkLanes l;
  pk_detail::log_normal(x.v, l);
  return Pk(l);
}

// log(1 + x) = log u + (x - (u - 1)) / u with u = 1 + x rounded: the
// correction restores what the rounding of u lost (and gives x where u is 1).
template <typename P, typename = std::enable_if_t<std::is_same_v<P, Pk>>>
IRTOPICS_PACK_INLINE Pk log1p(const P& x) {
  const Mask ok{(x.v > -1.0) & (x.v < 1e300)};
  if (!all(ok)) return pk_detail::by_lane(x, [](double t) { return std::log1p(t); });
  const PkLanes u = 1.0 + x.v;
  PkLanes l;
  pk_detail::log_normal(u, l);
  return Pk(l + (x.v - (u - 1.0)) / u);
}

// ------------------------------------------------------------ dispatch

// f() (a sum over packs, every function it calls inlined) compiled twice:
// for the baseline processor and for AVX2, where a pack is one register
// and one instruction; the AVX2 copy runs when the processor has AVX2 and
// copula_wide_allowed() is true. Both copies compute the same IEEE
// operations (AVX2 without FMA: no contraction), so they give the same
// bits. Only on x86-64 with GCC or clang (target attributes and
// __builtin_cpu_supports), not on Windows (GCC bug 54412: a 32-byte
// register spilled to a stack aligned to 16 bytes), and not with
// -DIRTOPICS_NO_AVX2.
#if !defined(IRTOPICS_NO_AVX2) && defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__) && \
    !defined(_WIN32)
#define IRTOPICS_COPULA_AVX2 1
#endif

// Whether the AVX2 copies may run (true by default; the C++ driver and the
// tests compare both). Not for use while fits run on other threads.
inline bool& copula_wide_allowed() {
  static bool allowed = true;
  return allowed;
}

inline bool copula_wide_active() {
#if defined(IRTOPICS_COPULA_AVX2)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has && copula_wide_allowed();
#else
  return false;
#endif
}

#if defined(IRTOPICS_COPULA_AVX2)
template <typename F>
__attribute__((target("avx2"), noinline)) auto packed_call_avx2(F& f) {
  return f();
}
#endif

template <typename F>
inline auto packed_call(F&& f) {
#if defined(IRTOPICS_COPULA_AVX2)
  if (copula_wide_active()) return packed_call_avx2(f);
#endif
  return f();
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
