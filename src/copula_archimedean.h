// Copulas: the one-parameter Archimedean families Clayton (theta > 0),
// Gumbel (theta >= 1), Frank (theta != 0, either sign, no rotations) and Joe
// (theta >= 1) (Joe 2014, "Dependence modeling with copulas", sections
// 4.6-4.8; Nelsen 2006, "An introduction to copulas", examples 5.4 and
// 5.22): log densities in log-sum-exp forms, h-functions, closed inverses
// for Clayton and Frank (Newton on the logit for Gumbel and Joe), Kendall's
// tau (closed; Frank by the Debye function, Joe by its series with an
// asymptotic tail, both to about 1e-10), fitted by Newton's method with the
// exact derivatives over VineCopula's bounds. Pure C++.
#ifndef IRTOPICS_COPULA_ARCHIMEDEAN_H
#define IRTOPICS_COPULA_ARCHIMEDEAN_H

#include "copula_fit.h"

namespace irtopics {
namespace copula_detail {

// Clayton: log(a^-th + b^-th - 1), from A = -th log a >= 0, B = -th log b >= 0.
// (A template on the scalar type, for BB7's exact derivatives.)
template <typename T>
IRTOPICS_DUAL_INLINE T clayton_log_s(const T& A, const T& B) {
  using std::exp;
  using std::expm1;
  using std::log;
  using std::log1p;
  const T m = pick(val(A) < val(B), B, A);
  return choose(val(m) < 30.0, [&]() IRTOPICS_LAMBDA_INLINE { return T(log1p(expm1(A) + expm1(B))); },
                [&]() IRTOPICS_LAMBDA_INLINE { return T(m + log(exp(A - m) + exp(B - m) - exp(-m))); });
}

// The log density without its constant log(1 + th) (fits add it once).
// The one-parameter log densities are templates on the scalar type of
// theta: double, or Dual1 for a fit's exact derivatives (newton_max_1d()).
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T clayton_log_pdf_point(const T& th, const A& a, const A& b) {
  const T ls = clayton_log_s(T(-th * a.lx), T(-th * b.lx));
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
template <typename T, typename X>
IRTOPICS_DUAL_INLINE T gumbel_log_s(const T& th, const X& llx, const X& lly) {
  using std::exp;
  using std::log1p;
  const X m = pick(llx < lly, lly, llx), n = pick(lly < llx, lly, llx);  // std::max, std::min
  return th * m + log1p(exp(th * (n - m)));
}

template <typename T, typename G>
IRTOPICS_DUAL_INLINE T gumbel_log_pdf(const T& th, const G& a, const G& b) {
  using std::exp;
  using std::log;
  const T ls = gumbel_log_s(th, a.llx, b.llx);
  const T A = exp(ls / th);
  return -A - a.lx - b.lx + (th - 1.0) * (a.llx + b.llx) + (1.0 / th - 2.0) * ls + log(A + th - 1.0);
}

inline double gumbel_h1(double th, const Arg& a, const Arg& b) {
  const double ls = gumbel_log_s(th, a.llx, b.llx);
  const double A = std::exp(ls / th);
  return std::exp(-A - a.lx + (th - 1.0) * a.llx + (1.0 / th - 1.0) * ls);
}

// Frank, theta > 0 (negative theta through b -> 1 - b, see below):
// D = e^{-th a}(1 - e^{-th b}) + e^{-th b}(1 - e^{-th (1-b)}), both terms >= 0.
// Without the constant log(th) + log(1 - e^-th) (frank_pos_log_const).
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T frank_pos_log_pdf_point(const T& th, const A& a, const A& b) {
  using std::exp;
  using std::expm1;
  using std::log;
  const T ld = choose(
      val(th) <= 50.0,  // D in linear space: e^{-th a} >= e^-50, no underflow
      [&]() IRTOPICS_LAMBDA_INLINE {
        return T(log(-exp(-th * a.x) * expm1(-th * b.x) - exp(-th * b.x) * expm1(-th * b.x1)));
      },
      [&]() IRTOPICS_LAMBDA_INLINE {
        return log_sum_exp(T(-th * a.x + log(-expm1(-th * b.x))), T(-th * b.x + log(-expm1(-th * b.x1))));
      });
  return -th * (a.x + b.x) - 2.0 * ld;
}

template <typename T>
T frank_pos_log_const(const T& th) {
  using std::expm1;
  using std::log;
  return log(th) + log(-expm1(-th));
}

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
template <typename T, typename A>
IRTOPICS_DUAL_INLINE T joe_log_s(const T& th, const A& a, const A& b) {
  return log_sum_exp(T(th * a.l1x), T(th * b.l1x + log1m_exp(T(th * a.l1x))));
}

template <typename T, typename A>
IRTOPICS_DUAL_INLINE T joe_log_pdf(const T& th, const A& a, const A& b) {
  using std::exp;
  using std::expm1;
  using std::log;
  const T pa = th * a.l1x, pb = th * b.l1x;
  // S in linear space where nothing underflows, else from log S
  const auto linear = land(val(pa) > -700.0, val(pb) > -700.0);
  const T S = choose(linear, [&]() IRTOPICS_LAMBDA_INLINE { return T(exp(pa) - exp(pb) * expm1(pa)); },
                     [&]() IRTOPICS_LAMBDA_INLINE { return T(exp(joe_log_s(th, a, b))); });
  const T ls = choose(linear, [&]() IRTOPICS_LAMBDA_INLINE { return T(log(S)); },
                      [&]() IRTOPICS_LAMBDA_INLINE { return joe_log_s(th, a, b); });
  return (1.0 / th - 2.0) * ls + (th - 1.0) * (a.l1x + b.l1x) + log(th - 1.0 + S);
}

inline double joe_h1(double th, const Arg& a, const Arg& b) {
  const double ls = joe_log_s(th, a, b);
  return std::exp((1.0 / th - 1.0) * ls + (th - 1.0) * a.l1x + log1m_exp(th * b.l1x));
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
  double h[10];
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

// ------------------------------------------------------------ the records
// Small structs of functions of theta (OnePar in copula_core.h makes them
// records).

struct ClaytonFamily {
  static constexpr const char* name = "Clayton";
  static constexpr bool rotates = true, has_const = true, has_hinv1 = true;
  static constexpr unsigned strong_tails = kCorner00, moderate_tails = 0;
  static constexpr double lo = kClaytonMin, hi = kClaytonMax;
  static bool valid(double th) { return th > 0; }
  static double log_pdf(double th, const Arg& a, const Arg& b) { return clayton_log_pdf(th, a, b); }
  template <typename T, typename A>
  IRTOPICS_DUAL_INLINE static T log_pdf_point(const T& th, const A& a, const A& b) {
    return clayton_log_pdf_point(th, a, b);
  }
  template <typename T>
  static T log_const(const T& th) {
    using std::log1p;
    return log1p(th);
  }
  static double h1(double th, const Arg& a, const Arg& b) { return clayton_h1(th, a, b); }
  static void hinv1(double th, const Arg& a, double w, double& v, double& v1) { clayton_hinv1(th, a, w, v, v1); }
  static double tau(double th) { return th / (th + 2.0); }
};

struct GumbelFamily {
  static constexpr const char* name = "Gumbel";
  static constexpr bool rotates = true, has_const = false, has_hinv1 = false;
  static constexpr unsigned strong_tails = kCorner11, moderate_tails = 0;
  static constexpr double lo = kGumbelMin, hi = kGumbelMax;
  static bool valid(double th) { return th >= 1; }
  template <typename T, typename A>
  IRTOPICS_DUAL_INLINE static T log_pdf(const T& th, const A& a, const A& b) { return gumbel_log_pdf(th, a, b); }
  static double h1(double th, const Arg& a, const Arg& b) { return gumbel_h1(th, a, b); }
  static double tau(double th) { return 1.0 - 1.0 / th; }
};

// Either sign, no rotations: c(u, v; th) = c(u, 1 - v; -th) for th < 0, the
// constant terms once per fit.
struct FrankFamily {
  static constexpr const char* name = "Frank";
  static constexpr bool rotates = false, has_const = true, has_hinv1 = true;
  static constexpr unsigned strong_tails = 0, moderate_tails = kAllCorners;
  static constexpr double lo = -kFrankMax, hi = kFrankMax;
  static bool valid(double th) { return th != 0; }
  static double log_pdf(double th, const Arg& a, const Arg& b) { return frank_log_pdf(th, a, b); }
  // (at theta = 0 the value is 0, and a Dual1 carries the derivatives of
  // log c = th (1 - 2a)(1 - 2b) / 2 + th^2 (a (1 - a) b (1 - b) - 1/24) + ...)
  template <typename T, typename A>
  IRTOPICS_DUAL_INLINE static T log_pdf_point(const T& th, const A& a, const A& b) {
    return choose(
        abs_value(val(th)) < 1e-12,
        [&]() IRTOPICS_LAMBDA_INLINE {
          if constexpr (std::is_same_v<T, double> || std::is_same_v<T, Pk>) {
            return T(0.0);
          } else {
            using S = ScalarOf<T>;
            return chain(th, S(0.0), S(0.5 * (a.x1 - a.x) * (b.x1 - b.x)),
                         S(2.0 * (a.x * a.x1 * b.x * b.x1) - 1.0 / 12.0));
          }
        },
        [&]() IRTOPICS_LAMBDA_INLINE {
          // theta < 0 through b -> 1 - b; the arguments are chosen first
          // (lane by lane), so that the point density is inlined once, not
          // once per sign: the same arithmetic in every lane, and Frank's
          // file compiles in a tenth of the time (bench/README.md, 41)
          const auto pos = val(th) > 0.0;
          return frank_pos_log_pdf_point(pick(pos, th, T(-th)), a, pick(pos, b, flip(b)));
        });
  }
  template <typename T>
  static T log_const(const T& th) {
    if (std::fabs(val(th)) < 1e-12) return T(0.0);
    return frank_pos_log_const(val(th) < 0 ? T(-th) : th);
  }
  static double h1(double th, const Arg& a, const Arg& b) { return frank_h1(th, a, b); }
  // closed form, Newton on the logit where rounding leaves (0, 1)
  static void hinv1(double th, const Arg& a, double w, double& v, double& v1) {
    v = frank_hinv1(th, a, w);
    if (v >= 0 && v <= 1) {
      v1 = 1.0 - v;
      return;
    }
    hinv1_numeric(OnePar<FrankFamily>::h1, OnePar<FrankFamily>::log_pdf, th, 0.0, a, w, v, v1);
  }
  static double tau(double th) { return th > 0 ? frank_tau_pos(th) : (th < 0 ? -frank_tau_pos(-th) : 0.0); }
};
// The generic fit (fit_onepar_exact()); theta = 0 (independence) is reported
// as 1e-10, inside the domain
inline CopulaFit frank_fit(PairData& d, int code, int rotation, double tau);
inline CopulaFit frank_fit(PairData& d, int code, int rotation, double tau) {
  CopulaFit fit = fit_onepar_exact<FrankFamily>(d, code, rotation, tau);
  if (fit.cop.par == 0) fit.cop.par = 1e-10;
  return fit;
}

struct JoeFamily {
  static constexpr const char* name = "Joe";
  static constexpr bool rotates = true, has_const = false, has_hinv1 = false;
  static constexpr unsigned strong_tails = kCorner11, moderate_tails = 0;
  static constexpr double lo = kJoeMin, hi = kJoeMax;
  static bool valid(double th) { return th >= 1; }
  template <typename T, typename A>
  IRTOPICS_DUAL_INLINE static T log_pdf(const T& th, const A& a, const A& b) { return joe_log_pdf(th, a, b); }
  static double h1(double th, const Arg& a, const Arg& b) { return joe_h1(th, a, b); }
  static double tau(double th) { return joe_tau(th); }
};

}  // namespace copula_detail
}  // namespace irtopics

#endif
