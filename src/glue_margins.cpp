// Rcpp glue for the margin families' sums: beta_kernel.h (the beta kernel,
// R/calibration-kernels.R: vectors in, sums and evaluation counts out),
// normal_kernel.h (the Gaussian kernel at its scores) and truncated_normal.h
// (the truncated normal's likelihood). R's own lbeta() and dnorm() are
// passed to the kernels, so their values are the R code's. The kernel sums
// are quadratic in the number of scores (minutes at 20,000): they ask for
// interrupts every 64 rows (with_interrupts(), glue_interrupt.h).
#include "glue_guard.h"
#include "glue_interrupt.h"
#include <Rcpp.h>
#include "beta_kernel.h"
#include "normal_kernel.h"
#include "truncated_normal.h"

namespace {

irtopics::beta_kernel::Scores scores_of(const Rcpp::NumericVector& lx, const Rcpp::NumericVector& l1x) {
  if (lx.size() != l1x.size()) throw std::invalid_argument("`lx` and `l1x` must have the same length");
  return {lx.begin(), l1x.begin(), static_cast<std::size_t>(lx.size())};
}

}  // namespace

// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_bk_node_sums(Rcpp::NumericVector lx, Rcpp::NumericVector l1x, double b, Rcpp::NumericVector y,
                            Rcpp::NumericVector lb_node, Rcpp::NumericVector w, Rcpp::NumericVector centre,
                            Rcpp::NumericVector half, Rcpp::NumericVector lb_centre, Rcpp::NumericVector offset) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
    const auto s = scores_of(lx, l1x);
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
