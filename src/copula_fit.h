// Copulas: maximum-likelihood fitting of any family record within its
// bounds (VineCopula's BiCopEst, method "mle"). One-parameter families:
// safeguarded Newton steps with the exact first and second derivatives
// (newton_max_1d(), a Dual1 evaluation) on the whole interval, Brent's
// method (Brent 1973, "Algorithms for minimization without derivatives",
// chapter 5) where a value is not finite. Two-parameter families:
// projected Newton steps (newton_box_core()) from the best of the record's
// starting points, with the exact gradient and Hessian where the record
// has loglik_d2 (newton_box_exact(): a Dual2 evaluation, copula_dual.h),
// else finite differences (newton_box()). Families with
// a fit of their own (Gaussian, t, Frank) set CopulaFamily::fit. Pure C++.
#ifndef IRTOPICS_COPULA_FIT_H
#define IRTOPICS_COPULA_FIT_H

#include "copula_data.h"

namespace irtopics {
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

// The gradient g and Hessian H of f at x by finite differences: a 3-point
// stencil along each axis, kept inside the box, and one mixed point (5
// evaluations; fx = f(x)).
template <typename E>
void fd_derivatives(E&& eval, const double x[2], const double lo[2], const double hi[2], double fx, double g[2],
                    double H[2][2]) {
  double d1[2];
  for (int k = 0; k < 2; ++k) {
    const double h = 1e-4 * (hi[k] - lo[k]);
    double a, b;  // offsets of the two stencil points
    if (x[k] - h >= lo[k] && x[k] + h <= hi[k]) { a = -h; b = h; }
    else if (x[k] + 2 * h <= hi[k]) { a = h; b = 2 * h; }
    else { a = -h; b = -2 * h; }
    double pa[2] = {x[0], x[1]}, pb[2] = {x[0], x[1]};
    pa[k] += a;
    pb[k] += b;
    const double fa = eval(pa), fb = eval(pb);
    // parabola through (0, fx), (a, fa), (b, fb)
    const double sa = (fa - fx) / a, sb = (fb - fx) / b;
    H[k][k] = 2.0 * (sb - sa) / (b - a);
    g[k] = sa - 0.5 * H[k][k] * a;
    d1[k] = b > 0 ? b : a;  // for the mixed point: the point at offset d1
    if (k == 0) H[1][0] = (b > 0 ? fb : fa);  // f(x + d1 e0), stored temporarily
    else H[0][1] = (b > 0 ? fb : fa);         // f(x + d1 e1)
  }
  const double f0 = H[1][0], f1 = H[0][1];
  const double pm[2] = {x[0] + d1[0], x[1] + d1[1]};
  const double fm = eval(pm);
  const double hmix = (fm - f0 - f1 + fx) / (d1[0] * d1[1]);
  H[0][1] = H[1][0] = hmix;
}

// Maximises a function over the box [lo, hi] by Newton steps from its
// gradient and Hessian at the current point (derivs(x, fx, g, H)),
// Levenberg damping when the Hessian is not negative definite, backtracking
// when a step does not increase the function, and coordinates on a bound
// with the gradient pointing outwards held fixed (projected Newton).
// eval(y, full) is the function at y, full: the first (unshortened) trial
// point of an iteration. From the start x with value fx; returns the best
// value, x holds its point.
// With `exact` derivatives, a step that leaves the box through one
// coordinate's bound goes to that bound and takes the other coordinate to
// the maximum of the quadratic model there (the projection of the
// unconstrained step moves it by the coupling of the two and can end a
// climb short of the maximum on the bound).
template <typename E, typename G>
double newton_box_core(E&& eval, G&& derivs, double x[2], const double lo[2], const double hi[2], double fx,
                       int max_iter, bool exact = false) {
  constexpr double kModelStop = 1e-4;
  bool model_held = false;  // the last full step gained what the model predicted (to 10%)
  for (int it = 0; it < max_iter; ++it) {
    double g[2], H[2][2];
    derivs(x, fx, g, H);
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
    if (exact && !fixed[0] && !fixed[1]) {
      int out = -1, n_out = 0;
      for (int k = 0; k < 2; ++k)
        if (x[k] + p[k] > hi[k] || x[k] + p[k] < lo[k]) {
          out = k;
          ++n_out;
        }
      if (n_out == 1) {
        const int j = 1 - out;
        const double dk = (p[out] > 0 ? hi[out] : lo[out]) - x[out];
        if (H[j][j] < 0) p[j] = -(g[j] + H[j][out] * dk) / H[j][j];
        p[out] = dk;
      }
    }
    // the gain the quadratic model predicts for a step (s0, s1)
    auto model_gain = [&](double s0, double s1) {
      return g[0] * s0 + g[1] * s1 + 0.5 * (H[0][0] * s0 * s0 + 2 * H[0][1] * s0 * s1 + H[1][1] * s1 * s1);
    };
    // When the last full step gained what the quadratic model predicted
    // and this one is to gain at most kModelStop by the model, the climb is
    // expected to end after it (the test below): its value is computed
    // without the derivatives (the same value; they are computed at that
    // point after all when the climb goes on).
    bool last_step = false;
    if (model_held) {
      double py[2];
      for (int k = 0; k < 2; ++k) py[k] = std::min(hi[k], std::max(lo[k], x[k] + p[k])) - x[k];
      last_step = model_gain(py[0], py[1]) <= kModelStop;
    }
    // backtracking along the projected step
    double best = fx, bx[2] = {x[0], x[1]};
    double scale = 1.0;
    for (int bt = 0; bt < 8; ++bt) {
      double y[2];
      for (int k = 0; k < 2; ++k) y[k] = std::min(hi[k], std::max(lo[k], x[k] + scale * p[k]));
      if (y[0] == x[0] && y[1] == x[1]) break;
      const double fy = eval(y, bt == 0 && !last_step);
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
    const double pred = model_gain(bx[0] - x[0], bx[1] - x[1]);  // for the step taken
    x[0] = bx[0];
    x[1] = bx[1];
    fx = best;
    if (gain <= 1e-7 || moved <= 1e-7) break;
    // A full step the model predicted to 10% that gained little: Newton's
    // quadratic convergence leaves far less than 1e-7 to gain.
    model_held = scale == 1.0 && std::fabs(gain - pred) <= 0.1 * std::fabs(pred);
    if (model_held && gain <= kModelStop) break;
  }
  return fx;
}

// newton_box_core() with a finite-difference gradient and Hessian
// (fd_derivatives(): 5 evaluations of f(x, y) per iteration). `n_eval`
// counts evaluations.
template <typename F>
double newton_box(F&& f, double x[2], const double lo[2], const double hi[2], double fx, int max_iter,
                  int* n_eval = nullptr) {
  int evals = 0;
  auto eval = [&](const double y[2]) {
    ++evals;
    const double v = f(y[0], y[1]);
    return std::isfinite(v) ? v : -std::numeric_limits<double>::max();
  };
  const double value = newton_box_core(
      [&](const double y[2], bool) { return eval(y); },
      [&](const double* at, double fat, double g[2], double H[2][2]) { fd_derivatives(eval, at, lo, hi, fat, g, H); },
      x, lo, hi, fx, max_iter);
  if (n_eval) *n_eval += evals;
  return value;
}

// newton_box_core() with the exact gradient and Hessian: fd2(x, y) is f
// with them (a Dual2). The first trial point of an iteration is evaluated
// with fd2, so that when it is accepted (the usual case) the next
// iteration's derivatives come with its value: one evaluation an iteration
// instead of six; on a step expected to be the last (newton_box_core()'s
// `last_step`) and on shortened steps, f. Where the derivatives are not
// finite, finite differences (fd_derivatives()). `n_eval` counts
// evaluations of f and fd2.
template <typename F, typename F2>
double newton_box_exact(F&& f, F2&& fd2, double x[2], const double lo[2], const double hi[2], double fx,
                        int max_iter, int* n_eval = nullptr) {
  int evals = 0;
  auto eval = [&](const double y[2]) {
    ++evals;
    const double v = f(y[0], y[1]);
    return std::isfinite(v) ? v : -std::numeric_limits<double>::max();
  };
  Dual2 last;
  double at_last[2] = {std::numeric_limits<double>::quiet_NaN(), 0.0};
  auto eval_d2 = [&](const double y[2]) {
    ++evals;
    last = fd2(y[0], y[1]);
    at_last[0] = y[0];
    at_last[1] = y[1];
    const double v = std::isnan(last.v) ? -std::numeric_limits<double>::infinity() : last.v;
    return std::isfinite(v) ? v : -std::numeric_limits<double>::max();
  };
  auto derivs = [&](const double* at, double fat, double g[2], double H[2][2]) {
    if (!(at_last[0] == at[0] && at_last[1] == at[1])) eval_d2(at);
    if (!last.finite()) {
      fd_derivatives(eval, at, lo, hi, fat, g, H);
      return;
    }
    g[0] = last.g0;
    g[1] = last.g1;
    H[0][0] = last.h00;
    H[0][1] = H[1][0] = last.h01;
    H[1][1] = last.h11;
  };
  const double value = newton_box_core(
      [&](const double y[2], bool full) { return full ? eval_d2(y) : eval(y); }, derivs, x, lo, hi, fx, max_iter,
      true);
  if (n_eval) *n_eval += evals;
  return value;
}

// The log-likelihood of a family record at a code's (par, par2): -inf where
// it is not a number.
inline double family_loglik(const CopulaFamily& f, const PairData& d, int rotation, double par, double par2) {
  double th, th2;
  base_params(f, rotation, par, par2, th, th2);
  const double ll = f.loglik(d, rotation, th, th2);
  return std::isnan(ll) ? -std::numeric_limits<double>::infinity() : ll;
}

// A one-parameter family: Brent's method over its bounds (negated for the
// 90 and 270 degree rotations).
inline CopulaFit fit_onepar(const CopulaFamily& f, const PairData& d, int code, int rotation) {
  double lo[2], hi[2];
  f.bounds(0.0, lo, hi);
  double a = lo[0], b = hi[0];
  if (negates(rotation)) {
    a = -hi[0];
    b = -lo[0];
  }
  CopulaFit fit;
  fit.cop.family = code;
  fit.cop.par = brent_max([&](double p) { return family_loglik(f, d, rotation, p, 0.0); }, a, b, fit.loglik, 1e-6, 1e-8);
  fit.npar = 1;
  return fit;
}

// Maximises f on [lo, hi] from x0 by Newton steps on its derivative with
// the exact first and second derivatives (fd(x): a Dual1), safeguarded:
// [a, b] always holds the maximiser (a: a point where f rises, or lo; b:
// where it falls, or hi); a step that leaves (a, b), or any step where f is
// not concave, bisects [a, b] instead, except that a step past a bound not
// yet evaluated goes to that bound (a maximum on the bound is then found in
// one evaluation: f still rising there). Stops when a Newton step would
// gain 1e-10 or less by the quadratic model (g^2 / 2|f''|: f is then that
// close to its maximum, which the step would not change), when a step is
// below 1e-10 relative, or when the bracket is that narrow. Returns the best point evaluated, its value in
// fmax; false (and nothing) when a value or derivative is not finite (the
// caller falls back to Brent's method). For f with one maximum on [lo, hi]
// (the one-parameter likelihoods): the maximum Brent's method finds over the
// whole interval, to far tighter tolerance.
template <typename FD>
bool newton_max_1d(FD&& fd, double lo, double hi, double x0, double& x_best, double& fmax, int* n_eval = nullptr) {
  double a = lo, b = hi;
  bool a_seen = false, b_seen = false;  // a (b) evaluated: f'(a) > 0 (f'(b) < 0) there
  double x = std::min(hi, std::max(lo, x0));
  bool have = false;
  for (int it = 0; it < 100; ++it) {
    const Dual1 D = fd(x);
    if (n_eval) ++*n_eval;
    if (!D.finite()) return false;
    if (!have || D.v > fmax) {
      fmax = D.v;
      x_best = x;
      have = true;
    }
    const double g = D.d, h = D.dd;
    if (g == 0 || (x >= hi && g > 0) || (x <= lo && g < 0)) break;  // stationary, or a maximum on a bound
    if (g > 0) { a = x; a_seen = true; } else { b = x; b_seen = true; }
    double next = h < 0 ? x - g / h : std::numeric_limits<double>::quiet_NaN();
    const bool newton = next > a && next < b;
    if (newton && -0.5 * g * g / h <= 1e-10) break;  // the step would gain at most about 1e-10
    if (!newton) {
      if (h < 0 && next >= b && !b_seen) next = b;        // b == hi: try the bound
      else if (h < 0 && next <= a && !a_seen) next = a;   // a == lo
      else next = 0.5 * (a + b);
    }
    const double tol = 1e-10 * std::max(1.0, std::fabs(x));
    if (std::fabs(next - x) <= tol || b - a <= tol) break;
    x = next;
  }
  return have;
}

// A one-parameter family F (OnePar<F>): newton_max_1d() on its
// log-likelihood with the exact derivatives (loglik_d1()) over its bounds,
// from the theta whose Kendall's tau is the empirical one (bisection on
// F::tau, 12 steps; the bound when tau is beyond the family's range); the
// 90 and 270 degree rotations negate theta. Brent's method (fit_onepar())
// where a value or derivative is not finite. `n_eval` counts evaluations.
template <typename F>
CopulaFit fit_onepar_newton(PairData& d, int code, int rotation, double tau, int* n_eval) {
  const double sign = negates(rotation) ? -1.0 : 1.0, target = sign * tau;
  double a = F::lo, b = F::hi, x0;
  if (target <= F::tau(a)) {
    x0 = a;
  } else if (target >= F::tau(b)) {
    x0 = b;
  } else {
    for (int k = 0; k < 12; ++k) {
      const double m = 0.5 * (a + b);
      if (F::tau(m) < target) a = m; else b = m;
    }
    x0 = 0.5 * (a + b);
  }
  CopulaFit fit;
  double th;
  if (!newton_max_1d([&](double t) { return OnePar<F>::loglik_d1(d, rotation, t); }, F::lo, F::hi, x0, th,
                     fit.loglik, n_eval)) {
    static constexpr CopulaFamily record = onepar_family<F>();
    return fit_onepar(record, d, code, rotation);
  }
  fit.cop.family = code;
  fit.cop.par = sign * th;
  fit.npar = 1;
  return fit;
}

template <typename F>
CopulaFit fit_onepar_exact(PairData& d, int code, int rotation, double tau) {
  return fit_onepar_newton<F>(d, code, rotation, tau, nullptr);
}

// A two-parameter family by maximum likelihood over its bounds:
// newton_box() on the base parameters from the best of the record's
// starting points (and, for a bimodal likelihood, a second climb from the
// first start when another was better, keeping the higher).
inline CopulaFit fit_twopar(const CopulaFamily& f, const PairData& d, int code, int rotation, double tau,
                            int* n_eval = nullptr) {
  const bool neg = negates(rotation);
  const double sp = neg ? -1.0 : 1.0, sp2 = neg && f.par2_rotates ? -1.0 : 1.0;
  double lo[2], hi[2];
  f.bounds(tau, lo, hi);
  auto ll = [&](double a, double b) {
    const double v = f.loglik(d, rotation, a, b);
    return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
  };
  const double t = std::min(std::max(std::fabs(tau), 0.01), 0.9);
  double starts[4][2];
  const int ns = f.starts(t, lo, hi, starts);
  double fs[4] = {0, 0, 0, 0};
  int best = 0;
  for (int k = 0; k < ns; ++k) {
    for (int j = 0; j < 2; ++j) starts[k][j] = std::min(hi[j], std::max(lo[j], starts[k][j]));
    fs[k] = ll(starts[k][0], starts[k][1]);
    if (n_eval) ++*n_eval;
    if (fs[k] > fs[best]) best = k;
  }
  auto climb = [&](double at[2], double fat) {
    if (!f.loglik_d2) return newton_box(ll, at, lo, hi, fat, 40, n_eval);
    auto ll2 = [&](double a, double b) { return f.loglik_d2(d, rotation, a, b); };
    return newton_box_exact(ll, ll2, at, lo, hi, fat, 40, n_eval);
  };
  double x[2] = {starts[best][0], starts[best][1]};
  double value = climb(x, fs[best]);
  if (f.bimodal && best != 0) {
    double x0[2] = {starts[0][0], starts[0][1]};
    const double v0 = climb(x0, fs[0]);
    if (v0 > value) {
      value = v0;
      x[0] = x0[0];
      x[1] = x0[1];
    }
  }
  CopulaFit fit;
  fit.cop.family = code;
  fit.cop.par = sp * x[0];
  fit.cop.par2 = sp2 * x[1];
  fit.loglik = value;
  fit.npar = 2;
  return fit;
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
