// Copulas: the independence copula and the elliptical families, Gaussian
// (rho) and Student t (rho, nu) (Joe 2014, "Dependence modeling with
// copulas", sections 4.3 and 4.13; Demarta & McNeil 2005, "The t copula and
// related copulas", ISR 73(1)): log densities in normal / t scores, closed
// h-functions and inverses, Kendall's tau 2/pi asin(rho), and their fits: the
// Gaussian by Brent's method on rho from the normal-score sums; the t copula
// by its profile likelihood in s = 1/nu over nu in [2.0001, 30] (a scan of
// 13 values, then Brent), the best rho for each nu the root of the score
// (secant steps in a bracket); with a TScoreTable the nu search
// interpolates tabulated t scores and the log-likelihood is then evaluated
// exactly at the nu found (the quantiles' Newton iterations started from the
// interpolated scores). The profile's margin sum takes its logarithms once
// per distinct score. No rotations. Pure C++.
#ifndef IRTOPICS_COPULA_ELLIPTICAL_H
#define IRTOPICS_COPULA_ELLIPTICAL_H

#include "copula_fit.h"

namespace irtopics {
namespace copula_detail {

// ------------------------------------------------------------ independence

inline bool indep_valid(double, double) { return true; }
inline double indep_log_pdf(double, double, const Arg&, const Arg&) { return 0.0; }
inline double indep_h1(double, double, const Arg&, const Arg& b) { return b.x; }
inline double indep_h2(double, double, const Arg& a, const Arg&) { return a.x; }
inline void indep_hinv1(double, double, const Arg&, double w, double& v, double& v1) {
  v = w;
  v1 = 1.0 - w;
}
inline double indep_tau(double, double) { return 0.0; }
inline double indep_loglik(const PairData&, int, double, double) { return 0.0; }
inline void indep_bounds(double, double lo[2], double hi[2]) { lo[0] = hi[0] = lo[1] = hi[1] = 0.0; }
inline CopulaFit indep_fit(PairData&, int code, int, double) {
  CopulaFit fit;
  fit.cop.family = code;
  return fit;
}

// ---------------------------------------------------------------- Gaussian


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


inline bool gauss_valid(double rho, double) { return std::fabs(rho) < 1; }
inline double gauss_log_pdf(double rho, double, const Arg& x, const Arg& y) {
  return gauss_log_pdf_xy(rho, norm_q(x), norm_q(y));
}
inline double gauss_h1(double rho, double, const Arg& x, const Arg& y) {
  return norm_cdf((norm_q(y) - rho * norm_q(x)) / std::sqrt(1.0 - rho * rho));
}
inline void gauss_hinv1(double rho, double, const Arg& a, double w, double& v, double& v1) {
  const double z = norm_quantile(w) * std::sqrt(1.0 - rho * rho) + rho * norm_q(a);
  v = norm_cdf(z);
  v1 = norm_cdf(-z);
}
inline double elliptical_tau(double rho, double) { return 2.0 / kPi * std::asin(rho); }
inline double gauss_loglik(const PairData& d, int, double rho, double) {
  double ll = 0;
  for (std::size_t i = 0; i < d.n; ++i) ll += gauss_log_pdf_xy(rho, d.z1[i], d.z2[i]);
  return ll;
}
inline void rho_bounds(double, double lo[2], double hi[2]) {
  lo[0] = -kRhoMax;
  hi[0] = kRhoMax;
  lo[1] = kNuMin;
  hi[1] = kNuMax;
}

// rho maximising the log-likelihood in closed form of the normal-score sums.
inline CopulaFit fit_gaussian(PairData& d, int code, int, double) {
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
  fit.cop.family = code;
  fit.cop.par = brent_max(ll, -kRhoMax, kRhoMax, fit.loglik, 1e-8, 1e-10);
  fit.npar = 1;
  return fit;
}

// ---------------------------------------------------------------- Student t

inline bool t_valid(double rho, double nu) { return std::fabs(rho) < 1 && nu > 0; }
inline double t_log_pdf(double rho, double nu, const Arg& x, const Arg& y) {
  const StudentT t(nu);
  return t_log_pdf_xy(rho, nu, t_const(nu), t_q(t, x), t_q(t, y));
}
inline double t_h1(double rho, double nu, const Arg& x, const Arg& y) {
  const StudentT t(nu), t1(nu + 1.0);
  const double qx = t_q(t, x), qy = t_q(t, y);
  return t1.cdf((qy - rho * qx) / std::sqrt((nu + qx * qx) * (1.0 - rho * rho) / (nu + 1.0)));
}
inline void t_hinv1(double rho, double nu, const Arg& a, double w, double& v, double& v1) {
  const StudentT t(nu), t1(nu + 1.0);
  const double qa = t_q(t, a);
  const double z = t1.quantile(w) * std::sqrt((nu + qa * qa) * (1.0 - rho * rho) / (nu + 1.0)) + rho * qa;
  v = t.cdf(z);
  v1 = t.cdf(-z);
}
// (exact quantiles at every point: the fit uses t_profile())
inline double t_loglik(const PairData& d, int, double rho, double nu) {
  double ll = 0;
  for (std::size_t i = 0; i < d.n; ++i) ll += t_log_pdf(rho, nu, d.a[i], d.b[i]);
  return ll;
}

// The rho in [-kRhoMax, kRhoMax] maximising the t-copula log-likelihood of
// scores x, y for nu: the root of its derivative
//   l'(rho) = n rho / r2 - (nu + 2) / 2 sum_i Q_i' / (nu + Q_i),
//   Q_i = (x^2 + y^2 - 2 rho x y) / r2, Q_i' = (2 rho Q_i - 2 x y) / r2, r2 = 1 - rho^2,
// by secant steps kept inside a sign bracket (bisection when a step leaves
// it); the log-likelihood tends to -inf at rho = +-1. Returns the rho-part of
// the log-likelihood, -n/2 log r2 - (nu + 2)/2 sum log(1 + Q_i / nu), in `value`.
// The sums over observations run four at a time (sum_scores_packed()).
inline double t_best_rho(const PairData& d, double nu, double start, double& value) {
  const std::size_t n = d.n;
  auto deriv = [&](double rho) {
    const double r2 = 1.0 - rho * rho;
    const double sum = packed_call([&]() IRTOPICS_LAMBDA_INLINE {
      return sum_scores_packed(d, [&](const Pk& xx, const Pk& yy) IRTOPICS_LAMBDA_INLINE {
        const Pk q = (xx * xx + yy * yy - 2.0 * rho * xx * yy) / r2;
        return (2.0 * rho * q - 2.0 * xx * yy) / (r2 * (nu + q));
      });
    });
    return static_cast<double>(n) * rho / r2 - 0.5 * (nu + 2.0) * sum;
  };
  auto loglik = [&](double rho) {
    const double r2 = 1.0 - rho * rho;
    const double sum = packed_call([&]() IRTOPICS_LAMBDA_INLINE {
      return sum_scores_packed(d, [&](const Pk& xx, const Pk& yy) IRTOPICS_LAMBDA_INLINE {
        return log1p((xx * xx + yy * yy - 2.0 * rho * xx * yy) / (r2 * nu));
      });
    });
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

// The sum over the observations of 0.5 (nu + 1) (log1p(x^2 / nu) +
// log1p(y^2 / nu)) (scores x, y in d.x, d.y, taken from d.tq), four at a
// time: the logarithms once per distinct score (d.tq, four at a time, in
// d.tlog), then gathered per observation and summed in the order (and with
// the bits) of sum_scores_packed() on the scores.
inline double t_margin_sum(const PairData& d, double nu) {
  return packed_call([&]() IRTOPICS_LAMBDA_INLINE {
    const std::size_t nk = d.tq.size() / kPkWidth;
    d.tlog.resize(d.tq.size());
    for (std::size_t p = 0; p < nk; ++p) {
      const Pk t = Pk::lanes(&d.tq[p * kPkWidth]);
      log1p(t * t / nu).store(&d.tlog[p * kPkWidth]);
    }
    Pk sum = 0.0;
    const std::size_t np = d.x.size() / kPkWidth;
    for (std::size_t p = 0; p < np; ++p) {
      double lx[kPkWidth], ly[kPkWidth];
      for (int j = 0; j < kPkWidth; ++j) {
        const std::size_t i = p * kPkWidth + j;
        lx[j] = i < d.n ? d.tlog[static_cast<std::size_t>(std::labs(d.qa[i]) - 1)] : 0.0;
        ly[j] = i < d.n ? d.tlog[static_cast<std::size_t>(std::labs(d.qb[i]) - 1)] : 0.0;
      }
      sum += 0.5 * (nu + 1.0) * (Pk::lanes(lx) + Pk::lanes(ly));
    }
    return lane_sum(sum);
  });
}

// The t-copula log-likelihood for nu at the best rho (scores in d.x, d.y
// from d.tq).
inline double t_profile(const PairData& d, double nu, double start, double& rho) {
  const double n = static_cast<double>(d.n);
  const double fixed = n * t_const(nu) + t_margin_sum(d, nu);
  double val;
  rho = t_best_rho(d, nu, start, val);
  return fixed + val;
}

// t copula: profile likelihood over nu (a scan of 13 values of s = 1/nu,
// then Brent on s around the best), the best rho for each nu. With a score table the search uses interpolated scores and the
// log-likelihood is then evaluated with exact scores at the nu found (and
// its best rho); without one every step uses exact scores.
inline CopulaFit fit_t(PairData& d, int code, int, double) {
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
  if (d.table) d.t_scores_exact(StudentT(1.0 / s), s); else d.t_scores(StudentT(1.0 / s));
  CopulaFit fit;
  fit.cop.family = code;
  fit.cop.par2 = 1.0 / s;
  fit.loglik = t_profile(d, fit.cop.par2, rho, fit.cop.par);
  fit.npar = 2;
  return fit;
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
