// Univariate distribution functions for the copula core (copula.h): the
// standard normal cdf (from std::erfc) and quantile (Wichura 1988, Algorithm
// AS 241, "The percentage points of the normal distribution", Applied
// Statistics 37(3), 477-484: the PPND16 rational approximations, relative
// error about 1e-16), the regularized incomplete beta function I_x(a, b)
// (its continued fraction, Abramowitz & Stegun 26.5.8, evaluated by the
// modified Lentz method), and Student's t cdf (A&S 26.7.1 through I_x) and
// quantile (a Cornish-Fisher or power-tail start, then safeguarded Newton
// steps on log cdf against log|t| until the step is below 1e-14 relative) for any real df > 0.
//
// Pure C++: no R types.
#ifndef IRTOPICS_DISTRIBUTIONS_H
#define IRTOPICS_DISTRIBUTIONS_H

#include <algorithm>
#include <cmath>
#include <limits>

namespace irtopics {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))

inline double log_gamma(double x) { return std::lgamma(x); }

inline double log_beta(double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); }

// Standard normal cdf, accurate in both tails (erfc keeps relative accuracy).
inline double norm_cdf(double x) { return 0.5 * std::erfc(-x / kSqrt2); }

inline double norm_log_pdf(double x) { return -0.5 * x * x - kLogSqrt2Pi; }

// Standard normal quantile (AS 241, PPND16). p in (0, 1); 0 and 1 give -inf, +inf.
inline double norm_quantile(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    const double num = (((((((2.5090809287301226727e+3 * r + 3.3430575583588128105e+4) * r +
                             6.7265770927008700853e+4) * r + 4.5921953931549871457e+4) * r +
                           1.3731693765509461125e+4) * r + 1.9715909503065514427e+3) * r +
                         1.3314166789178437745e+2) * r + 3.3871328727963666080e+0);
    const double den = (((((((5.2264952788528545610e+3 * r + 2.8729085735721942674e+4) * r +
                             3.9307895800092710610e+4) * r + 2.1213794301586595867e+4) * r +
                           5.3941960214247511077e+3) * r + 6.8718700749205790830e+2) * r +
                         4.2313330701600911252e+1) * r + 1.0);
    return q * num / den;
  }
  double r = q < 0 ? p : 1.0 - p;
  r = std::sqrt(-std::log(r));
  double val;
  if (r <= 5.0) {
    r -= 1.6;
    const double num = (((((((7.74545014278341407640e-4 * r + 2.27238449892691845833e-2) * r +
                             2.41780725177450611770e-1) * r + 1.27045825245236838258e+0) * r +
                           3.64784832476320460504e+0) * r + 5.76949722146069140550e+0) * r +
                         4.63033784615654529590e+0) * r + 1.42343711074968357734e+0);
    const double den = (((((((1.05075007164441684324e-9 * r + 5.47593808499534494600e-4) * r +
                             1.51986665636164571966e-2) * r + 1.48103976427480074590e-1) * r +
                           6.89767334985100004550e-1) * r + 1.67638483018380384940e+0) * r +
                         2.05319162663775882187e+0) * r + 1.0);
    val = num / den;
  } else {
    r -= 5.0;
    const double num = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r +
                             1.24266094738807843860e-3) * r + 2.65321895265761230930e-2) * r +
                           2.96560571828504891230e-1) * r + 1.78482653991729133580e+0) * r +
                         5.46378491116411436990e+0) * r + 6.65790464350110377720e+0);
    const double den = (((((((2.04426310338993978564e-15 * r + 1.42151175831644588870e-7) * r +
                             1.84631831751005468180e-5) * r + 7.86869131145613259100e-4) * r +
                           1.48753612908506148525e-2) * r + 1.36929880922735805310e-1) * r +
                         5.99832206555887937690e-1) * r + 1.0);
    val = num / den;
  }
  return q < 0 ? -val : val;
}

namespace detail {

// The continued fraction of I_x(a, b) (A&S 26.5.8), modified Lentz: converges
// fast for x < (a + 1) / (a + b + 2).
inline double beta_cf(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-16;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double f = d;
  for (int m = 1; m <= 100000; ++m) {
    const double m2 = 2.0 * m;
    double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));  // even step d_{2m}
    d = 1.0 + num * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    f *= d * c;
    num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));  // odd step d_{2m+1}
    d = 1.0 + num * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    f *= delta;
    if (std::fabs(delta - 1.0) < eps) break;
  }
  return f;
}

// I_x(a, b) and 1 - I_x(a, b), each accurate relative to itself; y = 1 - x
// given separately so that callers keep its precision. lbeta = log B(a, b).
inline void inc_beta_both(double a, double b, double x, double y, double lbeta, double& lower,
                          double& upper) {
  if (x <= 0) { lower = 0; upper = 1; return; }
  if (y <= 0) { lower = 1; upper = 0; return; }
  const double log_front = a * std::log(x) + b * std::log(y) - lbeta;
  if (x < (a + 1.0) / (a + b + 2.0)) {
    lower = std::exp(log_front) * beta_cf(a, b, x) / a;
    upper = 1.0 - lower;
  } else {
    upper = std::exp(log_front) * beta_cf(b, a, y) / b;
    lower = 1.0 - upper;
  }
}

}  // namespace detail

// Regularized incomplete beta I_x(a, b), a, b > 0, x in [0, 1].
inline double inc_beta(double x, double a, double b) {
  if (std::isnan(x) || std::isnan(a) || std::isnan(b) || a <= 0 || b <= 0)
    return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double lo, up;
  detail::inc_beta_both(a, b, x, 1.0 - x, log_beta(a, b), lo, up);
  return lo;
}

// Student t with df > 0 (real). The constants that depend on df only are
// kept, so that repeated calls with one df skip the log-gamma functions.
class StudentT {
 public:
  explicit StudentT(double df) : df_(df) {
    lbeta_ = log_beta(0.5 * df, 0.5);
    // log density constant: lgamma((df+1)/2) - lgamma(df/2) - log(sqrt(df pi))
    log_k_ = std::lgamma(0.5 * (df + 1.0)) - std::lgamma(0.5 * df) - 0.5 * std::log(df * kPi);
  }
  double df() const { return df_; }

  double log_pdf(double t) const { return log_k_ - 0.5 * (df_ + 1.0) * std::log1p(t * t / df_); }

  // P(T <= t).
  double cdf(double t) const {
    if (std::isnan(t)) return t;
    if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
    // P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2); both arguments of I formed
    // without cancellation.
    const double t2 = t * t;
    double x, y;
    if (t2 < df_) {
      x = df_ / (df_ + t2);
      y = t2 / (df_ + t2);
    } else {
      const double r = df_ / t / t;  // no overflow of t^2
      x = r / (1.0 + r);
      y = 1.0 / (1.0 + r);
    }
    double lo, up;
    detail::inc_beta_both(0.5 * df_, 0.5, x, y, lbeta_, lo, up);
    const double tail = 0.5 * lo;  // P(T > |t|)
    return t > 0 ? 1.0 - tail : (t < 0 ? tail : 0.5);
  }

  // The t with cdf(t) = p.
  double quantile(double p) const {
    if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
    if (p == 0) return -std::numeric_limits<double>::infinity();
    if (p == 1) return std::numeric_limits<double>::infinity();
    if (p == 0.5) return 0.0;
    // Work on the lower half: q = min(p, 1 - p) (1 - p is exact for p >= 0.5).
    const bool upper = p > 0.5;
    const double q = upper ? 1.0 - p : p;
    const double t = lower_quantile(q);
    return upper ? -t : t;
  }

  // quantile(q) of q in (0, 1/2) by the same Newton iteration started from
  // t0 < 0 near it (an interpolated value: about two cdf evaluations
  // instead of three from the Cornish-Fisher start); the same root to a few
  // units in the last place.
  double lower_quantile_from(double q, double t0) const {
    return q == 0.5 ? 0.0 : newton_quantile(q, t0 < 0 && std::isfinite(t0) ? t0 : lower_quantile_start(q));
  }

 private:
  // Quantile of q in (0, 0.5): a negative t.
  double lower_quantile(double q) const { return newton_quantile(q, lower_quantile_start(q)); }

  double lower_quantile_start(double q) const {
    const double v = df_;
    // Start: Cornish-Fisher expansion around the normal quantile (A&S
    // 26.7.5), and the power tail P(T < t) ~ K v^((v-1)/2) |t|^-v, whose
    // root lies at or left of the true one; take the one nearer 0.
    const double z = norm_quantile(q);
    const double z2 = z * z;
    const double cf = z + z * (z2 + 1) / (4 * v) + z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v) +
                      z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v);
    const double log_tail = (log_k_ + 0.5 * (v - 1.0) * std::log(v) - std::log(q)) / v;
    const double tail = -std::exp(std::min(log_tail, 700.0));
    double t = tail;
    if (v >= 1.0 && std::isfinite(cf) && cf < 0 && cf > tail) t = cf;
    return t;
  }

  // The root of cdf(t) = q (in (0, 0.5)) from t < 0.
  double newton_quantile(double q, double t) const {
    // Newton on h(s) = log cdf(-e^s) - log q in s = log|t| (nearly linear
    // in the power-law tail, smooth at the centre), kept inside the bracket
    // of the values seen so far (bisection when a step leaves it).
    const double log_q = std::log(q);
    double s = std::log(-t);
    double s_lo = -std::numeric_limits<double>::infinity();  // h(s_lo) > 0
    double s_hi = std::numeric_limits<double>::infinity();   // h(s_hi) < 0
    for (int it = 0; it < 200; ++it) {
      const double tt = -std::exp(s);
      const double F = cdf(tt);
      const double h = std::log(F) - log_q;
      if (h == 0) break;
      if (h > 0) s_lo = s; else s_hi = s;
      const double slope = -std::exp(log_pdf(tt) + s) / F;  // dh/ds < 0
      double next = s - h / slope;
      if (!std::isfinite(next) || next <= s_lo || next >= s_hi) {
        if (std::isfinite(s_lo) && std::isfinite(s_hi)) next = 0.5 * (s_lo + s_hi);
        else next = h > 0 ? s + 2.0 : s - 2.0;
      }
      const double change = std::fabs(next - s);
      s = next;
      if (change <= 1e-14 * std::max(1.0, std::fabs(s))) break;
    }
    t = -std::exp(s);
    return t;
  }

  double df_, lbeta_, log_k_;
};

inline double t_cdf(double t, double df) { return StudentT(df).cdf(t); }
inline double t_quantile(double p, double df) { return StudentT(df).quantile(p); }

}  // namespace irtopics

#endif
