// Rcpp glue for the margin families' sums: beta_kernel.h (the beta kernel,
// R/calibration-kernels.R: vectors in, sums and evaluation counts out),
// normal_kernel.h (the Gaussian kernel at its scores) and truncated_normal.h
// (the truncated normal's likelihood). R's own lbeta() and dnorm() are
// passed to the kernels, so their values are the R code's. The exact kernel
// sums are quadratic in the number of scores (minutes at 20,000; above
// fit_margin()'s kernel_exact_max the scores are binned, issue 43): they ask
// for interrupts every 64 rows (with_interrupts(), glue_interrupt.h).
#include "glue_guard.h"
#include "glue_interrupt.h"
#include <Rcpp.h>
#include "beta_kernel.h"
#include "normal_kernel.h"
#include "truncated_normal.h"

namespace {

// lw: empty (unweighted scores) or a log weight per point (binned scores).
irtopics::beta_kernel::Scores scores_of(const Rcpp::NumericVector& lx, const Rcpp::NumericVector& l1x,
                                        const Rcpp::NumericVector& lw = Rcpp::NumericVector(0)) {
  if (lx.size() != l1x.size()) throw std::invalid_argument("`lx` and `l1x` must have the same length");
  if (lw.size() != 0 && lw.size() != lx.size()) throw std::invalid_argument("`lw` must be empty or one per score");
  return {lx.begin(), l1x.begin(), static_cast<std::size_t>(lx.size()), lw.size() ? lw.begin() : nullptr};
}

}  // namespace

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_node_sums(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, double b, Rcpp::NumericVector y,
                            Rcpp::NumericVector lb_node, Rcpp::NumericVector w, Rcpp::NumericVector centre,
                            Rcpp::NumericVector half, Rcpp::NumericVector lb_centre, Rcpp::NumericVector offset,
                            Rcpp::NumericVector lw) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x, lw);
    const std::size_t n_int = static_cast<std::size_t>(centre.size()), G = static_cast<std::size_t>(offset.size());
    if (half.size() != centre.size() || lb_centre.size() != centre.size() ||
        static_cast<std::size_t>(y.size()) != n_int * G || lb_node.size() != y.size() ||
        (w.size() != 0 && w.size() != y.size())) {
      throw std::invalid_argument("the node vectors must be `rule` nodes per interval");
    }
    const bool weighted = w.size() != 0;
    irtopics::beta_kernel::Nodes nodes{y.begin(), lb_node.begin(), weighted ? w.begin() : nullptr, centre.begin(),
                                       half.begin(), lb_centre.begin(), offset.begin(), n_int, G};
    Rcpp::NumericVector f(y.size()), m(weighted ? lx.size() : 0);
    const auto cnt = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::beta_kernel::node_sums(s, b, nodes, f.begin(), weighted ? m.begin() : nullptr, cancel);
    });
    return Rcpp::List::create(Rcpp::Named("f") = f, Rcpp::Named("m") = m, Rcpp::Named("values") = cnt.values,
                              Rcpp::Named("exps") = cnt.exps);
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_score_sums(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, Rcpp::NumericVector x, double b,
                             Rcpp::NumericVector lb_at) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x);
    if (x.size() != lx.size() || lb_at.size() != lx.size()) {
      throw std::invalid_argument("`x` and `lb_at` must have one value per score");
    }
    Rcpp::NumericVector sum(x.size()), own(x.size());
    const auto cnt = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::beta_kernel::score_sums(s, x.begin(), b, lb_at.begin(), sum.begin(), own.begin(), cancel);
    });
    return Rcpp::List::create(Rcpp::Named("sum") = sum, Rcpp::Named("own") = own,
                              Rcpp::Named("values") = cnt.values, Rcpp::Named("exps") = cnt.exps);
  });
}

// The weighted kernel sums at any points y (lb_y: R's lbeta() there), each
// term by the direct formula: binned scores (lw: their log weights) and
// densities at many points.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_point_sums(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, Rcpp::NumericVector lw, double b,
                             Rcpp::NumericVector y, Rcpp::NumericVector lb_y) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x, lw);
    if (lb_y.size() != y.size()) throw std::invalid_argument("`lb_y` must have one value per point");
    Rcpp::NumericVector sum(y.size());
    const auto cnt = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::beta_kernel::point_sums(s, y.begin(), lb_y.begin(), static_cast<std::size_t>(y.size()), b,
                                               sum.begin(), cancel);
    });
    return Rcpp::List::create(Rcpp::Named("sum") = sum, Rcpp::Named("values") = cnt.values,
                              Rcpp::Named("exps") = cnt.exps);
  });
}

// The LSCV bandwidth on binned scores (grid points x, weights xw, log
// weights lw; n = the weights' sum): the search of cpp_bk_lscv() on
// BinnedLscvCriterion.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_lscv_binned(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, Rcpp::NumericVector lw,
                              Rcpp::NumericVector x, Rcpp::NumericVector xw, double n, Rcpp::NumericVector grid,
                              double tol, Rcpp::NumericVector y, Rcpp::NumericVector w, Rcpp::NumericVector centre,
                              Rcpp::NumericVector half, Rcpp::NumericVector offset, Rcpp::NumericMatrix grid_lbeta) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x, lw);
    const std::size_t n_int = static_cast<std::size_t>(centre.size()), G = static_cast<std::size_t>(offset.size());
    if (s.lw == nullptr || x.size() != lx.size() || xw.size() != lx.size() || half.size() != centre.size() ||
        static_cast<std::size_t>(y.size()) != n_int * G || w.size() != y.size() || grid.size() < 1 || !(n > 0)) {
      throw std::invalid_argument("binned scores need a weight per point and `rule` nodes per interval");
    }
    if (static_cast<std::size_t>(grid_lbeta.nrow()) != n_int * (G + 1) || grid_lbeta.ncol() != grid.size()) {
      throw std::invalid_argument("`grid_lbeta` must have a row per node and centre and a column per grid point");
    }
    const irtopics::beta_kernel::Nodes q{y.begin(), nullptr, w.begin(), centre.begin(), half.begin(), nullptr,
                                         offset.begin(), n_int, G};
    const auto r = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::beta_kernel::lscv_bandwidth_binned(s, x.begin(), xw.begin(), n, q, grid.begin(),
                                                          static_cast<std::size_t>(grid.size()), tol,
                                                          [](double a, double b) { return R::lbeta(a, b); }, cancel,
                                                          grid_lbeta.begin());
    });
    return Rcpp::List::create(Rcpp::Named("bandwidth") = r.bandwidth, Rcpp::Named("found") = r.found,
                              Rcpp::Named("replaced") = r.replaced, Rcpp::Named("values") = r.counts.values,
                              Rcpp::Named("exps") = r.counts.exps);
  });
}

// The beta kernel's LSCV bandwidth, the whole search in one call (R's
// lbeta() for the log-beta terms, so the criterion is bk_cv()'s to the bit).
// grid_lbeta (optional): a column per grid point, R's lbeta() at the nodes
// and then the centres (bk_cv_grid_lbeta), the same for every set of scores.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_lscv(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, Rcpp::NumericVector x,
                       Rcpp::NumericVector grid, double tol, Rcpp::NumericVector y, Rcpp::NumericVector w,
                       Rcpp::NumericVector centre, Rcpp::NumericVector half, Rcpp::NumericVector offset,
                       Rcpp::Nullable<Rcpp::NumericMatrix> grid_lbeta = R_NilValue) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x);
    const std::size_t n_int = static_cast<std::size_t>(centre.size()), G = static_cast<std::size_t>(offset.size());
    if (x.size() != lx.size() || half.size() != centre.size() || static_cast<std::size_t>(y.size()) != n_int * G ||
        w.size() != y.size() || grid.size() < 1) {
      throw std::invalid_argument("the node vectors must be `rule` nodes per interval");
    }
    const double* known = nullptr;
    Rcpp::NumericMatrix lbg;
    if (grid_lbeta.isNotNull()) {
      lbg = Rcpp::NumericMatrix(grid_lbeta.get());
      if (static_cast<std::size_t>(lbg.nrow()) != n_int * (G + 1) || lbg.ncol() != grid.size()) {
        throw std::invalid_argument("`grid_lbeta` must have a row per node and centre and a column per grid point");
      }
      known = lbg.begin();
    }
    const irtopics::beta_kernel::Nodes q{y.begin(), nullptr, w.begin(), centre.begin(), half.begin(), nullptr,
                                         offset.begin(), n_int, G};
    const auto r = irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      return irtopics::beta_kernel::lscv_bandwidth(s, x.begin(), q, grid.begin(),
                                                   static_cast<std::size_t>(grid.size()), tol,
                                                   [](double a, double b) { return R::lbeta(a, b); }, cancel,
                                                   known);
    });
    return Rcpp::List::create(Rcpp::Named("bandwidth") = r.bandwidth, Rcpp::Named("found") = r.found,
                              Rcpp::Named("replaced") = r.replaced, Rcpp::Named("values") = r.counts.values,
                              Rcpp::Named("exps") = r.counts.exps);
  });
}

// rowSums() and rowMeans() of dnorm(outer(x, x, "-") / h), to the bit.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_nk_self_sums(Rcpp::NumericVector x, double h) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    Rcpp::NumericVector sums(x.size()), means(x.size());
    irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      irtopics::normal_kernel::self_sums(x.begin(), static_cast<std::size_t>(x.size()), h,
                                         [](double z) { return R::dnorm(z, 0.0, 1.0, 0); }, sums.begin(),
                                         means.begin(), cancel);
    });
    return Rcpp::List::create(Rcpp::Named("sums") = sums, Rcpp::Named("means") = means);
  });
}

// The Gaussian kernel's means at the points q (normal_kernel.h,
// point_means()): kind 0 the density terms dnorm(z), 1 pnorm(z) - shift, 2
// pnorm(z, lower = FALSE) - shift; w empty: unweighted (rowMeans() of the R
// matrix to the bit), else weights summing to n.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_nk_point_means(Rcpp::NumericVector x, Rcpp::NumericVector w, double n, double h,
                                       Rcpp::NumericVector q, Rcpp::NumericVector shift, int kind) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
    if ((w.size() != 0 && w.size() != x.size()) || (shift.size() != 0 && shift.size() != x.size())) {
      throw std::invalid_argument("`w` and `shift` must be empty or one per point");
    }
    if (kind < 0 || kind > 2 || !(n > 0)) throw std::invalid_argument("`kind` must be 0, 1 or 2 and `n` positive");
    Rcpp::NumericVector out(q.size());
    const double* wp = w.size() ? w.begin() : nullptr;
    const double* sp = shift.size() ? shift.begin() : nullptr;
    const std::size_t nx = static_cast<std::size_t>(x.size()), m = static_cast<std::size_t>(q.size());
    irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
      if (kind == 0) {
        irtopics::normal_kernel::point_means(x.begin(), wp, sp, nx, n, h, q.begin(), m,
                                             [](double z) { return R::dnorm(z, 0.0, 1.0, 0); }, out.begin(), cancel);
      } else {
        const int lower = kind == 1 ? 1 : 0;
        irtopics::normal_kernel::point_means(x.begin(), wp, sp, nx, n, h, q.begin(), m,
                                             [lower](double z) { return R::pnorm(z, 0.0, 1.0, lower, 0); },
                                             out.begin(), cancel);
      }
    });
    return out;
  });
}

// [[Rcpp::export(rng = false)]]
double cpp_normal_log_density_sum(Rcpp::NumericVector x, double mu, double sigma) {
  return irtopics_glue::guard([&]() -> double {
    return irtopics::normal_log_density_sum(x.begin(), static_cast<std::size_t>(x.size()), mu, sigma);
  });
}

// The truncated normal's negative log-likelihood at (mu, log sigma), with R's
// pnorm(): fit_truncnorm()'s objective in one call.
// [[Rcpp::export(rng = false)]]
double cpp_tn_nll(Rcpp::NumericVector x, double mu, double log_sigma) {
  return irtopics_glue::guard([&]() -> double {
    return irtopics::truncated_normal_nll(x.begin(), static_cast<std::size_t>(x.size()), mu, log_sigma,
                                          [](double q, bool lower, bool log_p) {
                                            return R::pnorm(q, 0.0, 1.0, lower ? 1 : 0, log_p ? 1 : 0);
                                          });
  });
}
