# Fitted score distributions ("margins") of one system for the stochastic
# simulation of evaluation scores (Urbano & Nagler, SIGIR 2018, "Stochastic
# simulation of test collections: evaluation scores", §3): candidate families
# are fitted to a system's per-topic scores, the one with the lowest AIC is
# kept, and its CDF is tabulated for the simulator. Each family is one
# record of margin_registry (below; the records in calibration-families.R
# and calibration-kernels.R); d/p/qmargin() and transform_margin() (the CDF
# transformation of §3.4, one exponent) are in calibration-distribution.R.

# The named sets of margin families: a record's `sets` (and its `inflated`,
# for its zero-one-inflated twin) say which it belongs to. Defaults and
# frozen fixtures name a set, so a family registered in no set changes
# neither.
margin_set_info <- c(
  default = "what fit_margin() and simulation_model() fit when not told otherwise: the 2019 study's families and their zero-one-inflated twins",
  study2019 = "the families of the 2019 study (Urbano & Nagler 2018's candidates; Urbano, Lima & Hanjalic 2019), without point masses",
  study2019_zi = "the 2019 study's families and their zero-one-inflated twins: the default when the twins came (issue 29), kept as it was for results fitted then"
)

# The margin families, one record each (R/calibration-families.R,
# R/calibration-kernels.R), in the order fit_margin() fits them; the
# registry adds the zero-one-inflated twins (R/calibration-inflated.R) of
# the records that ask for one, after them.
margin_registry <- margin_registry_of(list(
  truncnorm_family, beta_family, normal_kernel_family, beta_kernel_family,
  beta_binomial_family, discrete_kernel_family
), names(margin_set_info))

# The registry's sets for the help: one item per set, its families by type.
margin_sets_help <- function() {
  items <- vapply(names(margin_set_info), function(set) {
    by_type <- vapply(c("continuous", "discrete"), function(type) {
      paste0(rd_quoted(margin_family_names(type, set)), " (", type, ")")
    }, "")
    sprintf("* `\"%s\"`: %s: %s.", set, margin_set_info[[set]], paste(by_type, collapse = "; "))
  }, "")
  paste(items, collapse = "\n")
}

# The zero-one-inflated twins of the registry, for the help.
margin_twins_help <- function() {
  rd_quoted(names(Filter(function(r) !is.na(r$base), margin_registry)))
}

# Discrete scores are matched to the nearest support value within this.
support_tol <- 1e-4

# Fitting -------------------------------------------------------------------------

#' Fit the score distribution of one system (a margin for simulation)
#'
#' Fits candidate distributions to one system's per-topic scores in
#' \eqn{[0, 1]} and keeps the one with the lowest AIC,
#' \eqn{-2\log L + 2\,df}, as in the stochastic simulation of evaluation
#' scores of Urbano and Nagler (2018). The result, a *margin*, gives the
#' density, CDF and quantile function ([dmargin()], [pmargin()],
#' [qmargin()]), its expected value, and a tabulated CDF for a simulator;
#' [transform_margin()] moves its expected value.
#'
#' @section Continuous families (AP, nDCG, ERR):
#' * `"truncnorm"`: the normal distribution truncated to \eqn{[0, 1]},
#'   density \eqn{\phi((x-\mu)/\sigma)/\sigma / (\Phi((1-\mu)/\sigma) -
#'   \Phi(-\mu/\sigma))}, maximum likelihood with \eqn{\sigma \ge 0.05} and
#'   \eqn{\mu \in [-5, 6]}; 2 degrees of freedom.
#' * `"beta"`: the beta distribution, maximum likelihood on the scores
#'   capped to \eqn{[10^{-6}, 1 - 10^{-6}]} with both shapes at least 1 (a
#'   bounded density); 2 degrees of freedom.
#' * `"normal_kernel"`: a Gaussian kernel density with the plug-in bandwidth
#'   of Sheather and Jones ([stats::bw.SJ()]), truncated to \eqn{[0, 1]}
#'   and divided by its mass there. When Sheather-Jones fails (an error, a
#'   warning, or a bandwidth below a tenth of \eqn{0.9\, s\, n^{-1/5}},
#'   \eqn{s} the standard deviation: on scores with many ties, such as
#'   many AP = 0, it collapses to spikes at the observed values), the
#'   bandwidth is [stats::bw.nrd0()]'s, or, when that collapses too (its
#'   interquartile range is 0 when over half the scores are tied),
#'   \eqn{0.9\, s\, n^{-1/5}}. `parameters$rule` says which: `"SJ"`,
#'   `"nrd0"` or `"sd"`.
#' * `"beta_kernel"`: Chen's (1999) beta kernel estimator
#'   \eqn{\hat f(x) = n^{-1}\sum_i \mathrm{Beta}(x_i; x/b + 1, (1-x)/b + 1)}
#'   on the capped scores, divided by its integral over \eqn{[0, 1]}
#'   (Gauss-Legendre quadrature, refined towards 0 and 1). The bandwidth
#'   \eqn{b} is chosen by `beta_bandwidth`: `"lscv"` (default) minimises the
#'   least-squares cross-validation criterion \eqn{\int \hat f^2 -
#'   2 n^{-1} \sum_i \hat f_{-i}(x_i)} (both renormalised) over 16
#'   log-spaced values of \eqn{b} in \eqn{[0.001, 0.5]}, then refines the
#'   best between its neighbours; `"reference"` uses the rule of thumb
#'   \eqn{b = s\, n^{-2/5}} (\eqn{s} the standard deviation of the scores:
#'   the order of Chen's optimal bandwidth), kept in \eqn{[0.001, 0.5]}.
#'   Scores exactly at 0 or 1 (capped to \eqn{10^{-6}}) get a narrow spike
#'   of the estimate at the boundary whose mass is smaller than their share
#'   of the data: a property of the estimator at the boundary.
#'
#' * `r margin_twins_help()`: zero-one-inflated versions, a point mass
#'   \eqn{p_0} at 0 and \eqn{p_1} at 1 plus the continuous family fitted
#'   to the other scores, \eqn{F(x) = p_0 + (1 - p_0 - p_1) F_c(x) + p_1
#'   [x \ge 1]}. The masses are the shares of scores at exactly 0 and 1
#'   (their maximum likelihood estimates); each modelled mass is one more
#'   degree of freedom. An atom is modelled only when at least `atom_share`
#'   of the scores sit on it (default 0.1; `atom_share = 1` never); without
#'   one these families are not candidates. The quantile function jumps:
#'   `qmargin(u)` is 0 for \eqn{u \le p_0} and 1 for \eqn{u > 1 - p_1};
#'   `dmargin()` is the density of the continuous part (it integrates to
#'   \eqn{1 - p_0 - p_1}) and `pmargin(0)` is \eqn{p_0}. They are for
#'   measures with many scores at exactly 0 (nDCG@20, ERR@20 on web
#'   collections: a fifth of the topics), where a continuous family puts
#'   too little mass near 0 (a beta kernel about 3.5% on \eqn{[0, 0.001]}
#'   against 18% of zeros) and its expected value is too high.
#'
#' @section Candidates on scores at 0 or 1:
#' The inflated families' likelihood is that of the mixed distribution:
#' \eqn{n_0 \log p_0 + n_1 \log p_1 + n_c \log(1 - p_0 - p_1)} plus the
#' continuous family's log-likelihood of the other \eqn{n_c} scores. When
#' an atom is modelled (at least `atom_share` of the scores on it) and an
#' inflated family could be fitted, the continuous families are not
#' candidates (they stay in `candidates` with `NA` numbers and a note;
#' asked for alone in `families`, they are fitted as usual): a density gives no probability to a score of
#' exactly 0, so its likelihood there measures only the height of the
#' density at the boundary, and a beta kernel whose cross-validated
#' bandwidth collapsed on the tied zeros (spikes of little mass) would win
#' on height alone. The threshold 0.1 is our choice: below it the scores at
#' 0 or 1 are fitted by the continuous families as before (of the AP
#' systems of TREC-5 to TREC-8 that the simulation keeps, 5 of 329 reach
#' it; nDCG@20 on the Web tracks 2010-13, 18% zeros on average, mostly
#' does).
#'
#' @section Expected value:
#' Every margin's expected value equals the mean of its scores within
#' `mean_tol` (default 0.001). Maximum likelihood fits do not guarantee it
#' (a kernel estimate is biased at the boundaries: on the shipped AP
#' matrices the chosen fits missed their means by up to 0.034, and by 0.19
#' on a Genomics 2004 system with many zeros). A fit further away is moved
#' to the mean by the transformation of [transform_margin()], which then
#' belongs to the fit: `recentre = list(a, b)` (continuous margins; the
#' distribution functions apply it) or the recentred `pmf` (discrete). The
#' transformation changes the shape slightly, and the mass at 0 of an
#' inflated margin with it (by 0.01 or less in our tests). `mean_tol = Inf`
#' keeps the maximum likelihood fit as it is.
#'
#' The kernel estimates count an effective number of degrees of freedom:
#' the mean over the scores of the weight of a score's own kernel at itself
#' over the estimate there (both before renormalisation),
#' \eqn{df = n^{-1}\sum_i K_i(x_i) / \sum_j K_j(x_i)} times \eqn{n}, i.e.
#' \eqn{\sum_i K_i(x_i)/\sum_j K_j(x_i)}.
#'
#' @section Sets of families:
#' `families` takes the names of families, or the name of one set of the
#' registry (the families of the set of the margin's type):
#'
#' `r margin_sets_help()`
#'
#' A family registered in no set is fitted only when `families` names it.
#'
#' @section Discrete families (P@k, RR):
#' The scores must lie on `support` (within \eqn{10^{-4}}, matched to the
#' nearest value; see [score_support()]). The families work on the index
#' \eqn{0, \dots, K} of the sorted support.
#' * `"beta_binomial"`: \eqn{P(k) = \binom{K}{k} B(k + \alpha, K - k +
#'   \beta) / B(\alpha, \beta)}, maximum likelihood with both shapes at
#'   least 1; 2 degrees of freedom.
#' * `"discrete_kernel"`: the ordered categorical kernel of Wang and van
#'   Ryzin (1981), weight \eqn{1 - \lambda} at a score's own index and
#'   \eqn{(1 - \lambda)/2\, \lambda^{|i - j|}} elsewhere, normalised to sum
#'   1 over the support. \eqn{\lambda} minimises the least-squares
#'   cross-validation criterion (a grid of step 0.01 on \eqn{[0, 0.99]},
#'   refined between neighbours); the candidates with \eqn{2\lambda},
#'   \eqn{5\lambda} and \eqn{10\lambda} (those below 1) are fitted too. Each
#'   is a row of `candidates` (column `bandwidth`).
#'
#' A family whose fit fails is kept in `candidates` with `NA` numbers and
#' the reason in `note`; the choice is among the others.
#'
#' @section Many scores (binned kernel estimates):
#' The exact kernel estimates cost time quadratic in the number of scores
#' (minutes at 20,000). Above `kernel_exact_max` scores (default 5000) the
#' `"normal_kernel"` and `"beta_kernel"` families (and their inflated
#' twins) bin the scores on a grid of `kernel_bins` intervals (default
#' 4096) by linear binning (a score's weight shared between its two grid
#' points) and sum the kernels over the grid's points: the fit takes time
#' linear in the number of scores (100,000 scores: seconds). At or below the
#' threshold the estimates are the exact ones, unchanged. A binned fit has
#' `bins` and `bin_error` in its `parameters`: each score's kernel is
#' replaced by the straight line through its values at the two grid
#' points, off by at most \eqn{d^2/8} times the largest second derivative
#' of the kernel on the interval (width \eqn{d}). For the Gaussian kernel
#' (grid of step \eqn{d = 1/}`kernel_bins` on \eqn{[0, 1]}) `bin_error` is
#' the bound \eqn{d^2 \phi(0) / (8 h^3)} on the density's error (before
#' the division by the mass; the CDF's is \eqn{d^2 \phi(1) / (8 h^2)}).
#' For the beta kernel the grid is even in \eqn{\theta = \arcsin\sqrt{x}}
#' (step \eqn{\delta}), so its intervals narrow towards 0 and 1 as the
#' kernels do, and `bin_error` is \eqn{\delta^2 / (2b)}: the estimate at
#' \eqn{y} is off by at most about `bin_error` times
#' \eqn{\mathrm{Beta}(y; y/b + 1, (1-y)/b + 1)}, the largest value a
#' score's kernel takes at \eqn{y} (a bound from a normal approximation of
#' the kernel, checked against the exact sums in the tests; `bin_error` is
#' about \eqn{7 \times 10^{-5}} at the smallest bandwidth, 0.001). The
#' cross-validation of the beta kernel's bandwidth runs on the binned
#' scores too (a point's leave-one-out term removes one unit of its
#' weight), so the binned bandwidth may differ from the exact one by the
#' criterion's flatness. `options(irtopics.kernel_exact_max =,
#' irtopics.kernel_bins =)` set the defaults (also for [simulation_model()]).
#' Fits above the threshold show a progress bar (see [irtopics_progress()]).
#'
#' @section Degenerate data:
#' Fewer than 3 scores, `NA`, scores outside \eqn{[0, 1]} and constant
#' scores (every score the same: no distribution with a density, and no
#' expected value to move) are errors of class `irtopics_error_data` naming
#' `x`.
#'
#' @param x A numeric vector: one system's scores, one per topic, in
#'   \eqn{[0, 1]}.
#' @param type `"continuous"` (AP, nDCG, ERR, ...) or `"discrete"` (P@k,
#'   RR: scores on a finite `support`).
#' @param support For `type = "discrete"` (required): the values the
#'   scores can take, e.g. `score_support("P@10")`. Must be `NULL` for
#'   continuous margins.
#' @param families The candidate families: their names, or the name of a
#'   set (default `"default"`; `NULL` is the same): see Sets of families
#'   and the sections below.
#' @param beta_bandwidth The bandwidth rule of the `"beta_kernel"` family:
#'   `"lscv"` or `"reference"`.
#' @param atom_share The smallest share of the scores at exactly 0 (or at
#'   1) for which that point mass is modelled by the zero-one-inflated
#'   families (see Continuous families); 1 never models one.
#' @param mean_tol The largest distance between the margin's expected value
#'   and the scores' mean left as fitted (see Expected value); `Inf` never
#'   recentres.
#' @param kernel_exact_max The largest number of scores whose kernel
#'   estimates are exact; above it they are binned (see Many scores).
#'   Default 5000, or the option `irtopics.kernel_exact_max`; `Inf` never
#'   bins.
#' @param kernel_bins The number of grid intervals of binned kernel
#'   estimates (at least 64). Default 4096, or the option
#'   `irtopics.kernel_bins`.
#' @inheritParams irtopics_progress
#' @return An `ir_margin` object, a list with
#'   * `family` (the chosen family; `"<family> (transformed)"` after
#'     [transform_margin()]), `parameters` (named list), `loglik`, `df`,
#'     `aic` (of the chosen family on the data);
#'   * `mean`, `var`: the expected value and variance of the distribution
#'     (closed forms, or quadrature for the beta kernel; for a transformed
#'     continuous margin those of the tabulated CDF);
#'   * `discrete` (logical), `support` (sorted; `NULL` when continuous),
#'     `pmf` (probabilities at the support; `NULL` when continuous),
#'     `data` (the scores), `n` (their number);
#'   * `candidates`: a data frame with one row per candidate, columns
#'     `family`, `bandwidth` (kernel families), `loglik`, `df`, `aic`,
#'     `chosen`, `note`; `candidate_parameters`: their parameters;
#'   * the table for the simulator: `knots` and `cdf` (continuous: a grid
#'     of 4097 points on \eqn{[0, 1]}, the CDF read as piecewise linear
#'     between them; discrete: the support and the cumulative
#'     probabilities, the quantile of \eqn{u} being the smallest knot with
#'     `cdf >= u`), and `base_cdf`, `base_sf` (the CDF and \eqn{1 - F} of
#'     the fit at the knots, before any transformation);
#'   * `transform`: `NULL`, or `list(a, b)` of [transform_margin()];
#'   * `recentre`: `NULL`, or `list(a, b)`, the transformation that moved
#'     a continuous fit to its scores' mean (see Expected value).
#' @references
#' Urbano, J. and Nagler, T. (2018). Stochastic simulation of test
#' collections: evaluation scores. SIGIR 2018.
#'
#' Chen, S. X. (1999). Beta kernel estimators for density functions.
#' Computational Statistics & Data Analysis 31, 131-145.
#'
#' Wang, M.-C. and van Ryzin, J. (1981). A class of smooth estimators for
#' discrete distributions. Biometrika 68, 301-309.
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics")
#' ap <- read_scores(path, measure = "AP")
#' m <- fit_margin(ap[12, ])
#' m
#' qmargin(c(0.1, 0.5, 0.9), m)
#' p10 <- read_scores(sub("_ap", "_p10", path), measure = "P@10")
#' d <- fit_margin(p10[2, ], type = "discrete", support = score_support("P@10"))
#' d
#' ggplot2::autoplot(m)
#' @export
fit_margin <- function(x, type = c("continuous", "discrete"), support = NULL, families = "default",
                       beta_bandwidth = c("lscv", "reference"), atom_share = 0.1, mean_tol = 0.001,
                       kernel_exact_max = getOption("irtopics.kernel_exact_max", 5000),
                       kernel_bins = getOption("irtopics.kernel_bins", 4096),
                       progress = NULL) {
  type <- match_choice(type)
  beta_bandwidth <- match_choice(beta_bandwidth)
  check_number(atom_share, "atom_share", min = 0, max = 1)
  check_number(mean_tol, "mean_tol", min = 0)
  kernel_exact_max <- check_whole(kernel_exact_max, "kernel_exact_max", min = 3, allow_inf = TRUE)
  kernel_bins <- check_whole(kernel_bins, "kernel_bins", min = 64, max = 2^20)
  local_progress(progress)
  x <- check_margin_scores(x)
  discrete <- type == "discrete"
  if (discrete) {
    support <- check_support(support)
    idx <- match_support(x, support, arg = "x")
  } else if (!is.null(support)) {
    stop_irtopics(c("{.arg support} is only for {.code type = \"discrete\"}.",
                    i = "Continuous margins live on [0, 1]."))
  }
  families <- check_families(families, type)
  obs <- list(x = x, idx = if (discrete) idx, K = if (discrete) length(support) - 1L, beta_bandwidth = beta_bandwidth,
              atom_share = atom_share, kernel_exact_max = kernel_exact_max, kernel_bins = kernel_bins)
  fits <- list()
  # a bar over the candidates when the kernels are binned (many scores)
  show <- !discrete && length(x) > kernel_exact_max && irtopics_progress()
  if (show) {
    cli::cli_progress_bar(progress_label(sprintf("fitting a margin to %s", plural(length(x), "score"))),
                          total = length(families) + 1L, .envir = environment())
  }
  for (f in families) {
    if (show) cli::cli_progress_update(.envir = environment())
    fit <- tryCatch(margin_family_of(f)$fit(obs),
                    irtopics_margin_fit_failure = function(e) list(list(family = f, parameters = list(),
                                                                       loglik = NA_real_, df = NA_real_,
                                                                       bandwidth = NA_real_,
                                                                       note = conditionMessage(e))))
    fits <- c(fits, fit)
  }
  if (!discrete) fits <- continuous_without_atoms(fits, x, atom_share)
  cand <- data.frame(family = vapply(fits, `[[`, "", "family"),
                     bandwidth = vapply(fits, function(f) f$bandwidth %||% NA_real_, 0),
                     loglik = vapply(fits, `[[`, 0, "loglik"),
                     df = vapply(fits, `[[`, 0, "df"), stringsAsFactors = FALSE)
  cand$aic <- -2 * cand$loglik + 2 * cand$df
  ok <- is.finite(cand$aic)
  if (!length(fits)) {
    stop_irtopics(c("None of the families {quoted_list(families)} is a candidate for {.arg x}.",
                    i = "The zero-one-inflated families need at least {.arg atom_share} = {atom_share} of the scores at 0 or at 1."),
                  kind = "data")
  }
  if (!any(ok)) {
    stop_irtopics(c("Can't fit any of the families {quoted_list(families)} to {.arg x}.",
                    i = "{vapply(fits, function(f) paste0(f$family, ': ', f$note), '')}"), kind = "data")
  }
  best <- which(ok)[which.min(cand$aic[ok])]
  cand$chosen <- seq_len(nrow(cand)) == best
  cand$note <- vapply(fits, function(f) f$note %||% "", "")
  fit <- fits[[best]]
  if (show) cli::cli_progress_update(.envir = environment())
  tab <- margin_family_of(fit$family)$table(list(family = fit$family, parameters = fit$parameters, data = x,
                                                  support = support))
  mom <- tab$moments
  m <- new_ir_margin(list(family = fit$family, parameters = fit$parameters, loglik = fit$loglik, df = fit$df,
                          aic = cand$aic[best], mean = mom[1], var = max(mom[2] - mom[1]^2, 0), discrete = discrete,
                          support = support, pmf = tab$pmf, data = x, n = length(x), candidates = cand,
                          candidate_parameters = lapply(fits, `[[`, "parameters"),
                          knots = tab$knots, cdf = tab$cdf, base_cdf = tab$cdf, base_sf = tab$sf, transform = NULL,
                          recentre = NULL))
  recentre_margin(m, mean_tol)
}

new_ir_margin <- function(x) {
  new_result(x, "ir_margin",
             fields = c(family = "string", parameters = "list", loglik = "number", df = "number", aic = "number",
                        mean = "number", var = "number", discrete = "flag", support = "numeric?", pmf = "numeric?",
                        data = "numeric", n = "number", candidates = "data.frame", candidate_parameters = "list",
                        knots = "numeric", cdf = "numeric", base_cdf = "numeric", base_sf = "numeric",
                        transform = "list?", recentre = "list?"))
}

# The scores of one system: numeric, no NA, in [0, 1], at least 3, not all equal.
check_margin_scores <- function(x, call = rlang::caller_env()) {
  if (is.matrix(x) && min(dim(x)) == 1L) x <- as.vector(x)
  if (!is.numeric(x) || !is.null(dim(x))) {
    stop_irtopics("{.arg x} must be a numeric vector of scores, not {show_value(x)}.", kind = "data", call = call)
  }
  x <- as.double(unname(x))
  attributes(x) <- NULL
  if (length(x) < 3L) {
    stop_irtopics("{.arg x} must have at least 3 scores, not {length(x)}.", kind = "data", call = call)
  }
  if (anyNA(x)) {
    stop_irtopics("{.arg x} must not have NA scores ({sum(is.na(x))} of {length(x)} are).", kind = "data",
                  call = call)
  }
  out <- which(x < 0 | x > 1)
  if (length(out)) {
    stop_irtopics(c("{.arg x} must be scores in [0, 1].",
                    x = "Score {out[1]} is {format(x[out[1]], digits = 15)}."), kind = "data", call = call)
  }
  if (max(x) - min(x) == 0) {
    stop_irtopics(c("Can't fit a distribution to constant scores: every score in {.arg x} is {format(x[1])}.",
                    i = "A margin needs at least two different scores."), kind = "data", call = call)
  }
  x
}

check_support <- function(support, call = rlang::caller_env()) {
  if (is.null(support)) {
    stop_irtopics(c("{.arg support} is required for {.code type = \"discrete\"}.",
                    i = "Give the values the scores can take, e.g. {.code score_support(\"P@10\")}."),
                  call = call)
  }
  if (!is.numeric(support) || anyNA(support) || any(support < 0 | support > 1)) {
    stop_irtopics("{.arg support} must be numbers in [0, 1], not {show_values(support)}.", call = call)
  }
  support <- sort(unique(as.double(support)))
  if (length(support) < 2L) {
    stop_irtopics("{.arg support} must have at least 2 different values.", call = call)
  }
  support
}

# The candidate families of a type: names, or one set's name (NULL is
# "default").
check_families <- function(families, type, arg = "families", call = rlang::caller_env()) {
  families <- families %||% "default"
  if (is.character(families) && length(families) == 1L && families %in% names(margin_set_info)) {
    return(margin_family_names(type, families))
  }
  known <- margin_family_names(type)
  if (!is.character(families) || !length(families) || anyNA(families) || !all(families %in% known)) {
    stop_irtopics(c("{.arg {arg}} must be some of {quoted_list(known)} for {type} margins, or one of the sets {quoted_list(names(margin_set_info))}.",
                    x = "Got {show_values(families)}."), call = call)
  }
  unique(families)
}

# The 0-based index in `support` of each score (the nearest value within
# support_tol), or a classed error naming the first score off the support.
match_support <- function(x, support, arg = "x", call = rlang::caller_env()) {
  idx <- nearest_support(x, support)
  off <- which(is.na(idx))
  if (length(off)) {
    stop_irtopics(c("{.arg {arg}} must lie on {.arg support} (within {support_tol}).",
                    x = "Score {off[1]} is {format(x[off[1]], digits = 15)}, not a support value."),
                  kind = "data", call = call)
  }
  idx
}

# 0-based index of the nearest support value within support_tol, else NA.
nearest_support <- function(x, support) {
  mids <- (support[-1] + support[-length(support)]) / 2
  k <- findInterval(x, mids)  # 0-based index of the nearest value
  ok <- !is.na(x) & abs(x - support[k + 1L]) <= support_tol
  ifelse(ok, k, NA_integer_)
}

#' Values a discrete evaluation measure can take
#'
#' The support of a discrete measure, for `fit_margin(type = "discrete")`,
#' from the measure registry ([measure_info()]): `P@k` takes \eqn{0, 1/k,
#' \dots, 1}; `RR` (reciprocal rank) takes 0 and \eqn{1/r} for the ranks
#' \eqn{r = 1, \dots, depth} (`RR@k`: ranks up to \eqn{k}); `Success@k`
#' 0 and 1; `Judged@k` \eqn{0, 1/k, \dots, 1}; `relative_P@k` the
#' fractions \eqn{j/m}, \eqn{m \le k}; and so on for every discrete
#' measure of the registry.
#'
#' @param measure A measure name, any spelling the registry accepts
#'   (`"P@10"`, `"P_10"`, `"P.10"`, `"precision@10"`, `"RR"`, `"mrr@10"`,
#'   `"hit_rate@5"`; see [measures]).
#' @param depth The evaluation depth: the largest rank of `RR` without a
#'   cut-off (and the largest count of `NumRet`).
#' @return The sorted support, a numeric vector. A continuous measure, or
#'   one whose support has no bound, is an `irtopics_error_measure`.
#' @examples
#' score_support("P@10")
#' length(score_support("RR", depth = 1000))
#' score_support("mrr@5")
#' @export
score_support <- function(measure, depth = 1000) {
  if (!is.character(measure) || length(measure) != 1L || is.na(measure)) {
    stop_irtopics("{.arg measure} must be a string such as \"P@10\" or \"RR\", not {show_value(measure)}.")
  }
  depth <- check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  info <- measure_info_of(parse_measure(measure, call = environment()), depth)
  if (info$domain != "discrete" || is.null(info$support)) {
    why <- if (info$domain != "discrete") "it is continuous" else {
      sprintf("its support (%s) %s", info$support_rule,
              if (identical(info$support_size, Inf)) "has no bound" else "is too large to list")
    }
    stop_irtopics(c("Can't tell the values of {.arg measure} {.val {measure}}: {why}.",
                    i = "See {.fn measure_info} for the domain of each measure."),
                  kind = "measure", measure = measure)
  }
  info$support
}

# Methods -------------------------------------------------------------------------

#' @rdname fit_margin
#' @param ... Unused.
#' @export
format.ir_margin <- function(x, ...) {
  par <- x$parameters
  shown <- vapply(names(par), function(nm) {
    v <- par[[nm]]
    if (is.numeric(v)) sprintf("%s = %s", nm, format(signif(v, 5))) else sprintf("%s = %s", nm, v)
  }, "")
  cand <- x$candidates
  cand$chosen <- ifelse(cand$chosen, "*", "")
  cand[c("loglik", "df", "aic")] <- lapply(cand[c("loglik", "df", "aic")], round, 4)
  cand$bandwidth <- if (all(is.na(cand$bandwidth))) NULL else signif(cand$bandwidth, 4)
  if (all(!nzchar(cand$note))) cand$note <- NULL
  c(sprintf("<ir_margin> %s margin of %s: %s", if (x$discrete) "discrete" else "continuous",
            plural(x$n, "score"), margin_label(x)),
    paste0("parameters: ", paste(shown, collapse = ", ")),
    if (!is.null(x$recentre)) sprintf("recentred on the scores' mean: a = %s, b = %s",
                                      format(signif(x$recentre$a, 6)), format(signif(x$recentre$b, 6))),
    if (!is.null(x$transform)) sprintf("transform: a = %s, b = %s", format(signif(x$transform$a, 6)),
                                       format(signif(x$transform$b, 6))),
    sprintf("mean %s, sd %s (scores: mean %s); AIC %s", format(signif(x$mean, 6)), format(signif(sqrt(x$var), 4)),
            format(signif(mean(x$data), 6)), format(round(x$aic, 2), nsmall = 2)),
    "candidates (* chosen, lowest AIC):",
    printed_lines(print(cand, row.names = FALSE)))
}

#' @rdname fit_margin
#' @export
print.ir_margin <- function(x, ...) print_formatted(x, ...)

#' @rdname fit_margin
#' @param object An `ir_margin` object.
#' @export
summary.ir_margin <- function(object, ...) {
  tab <- data.frame(family = object$family, n = object$n, mean = object$mean, sd = sqrt(object$var),
                    data_mean = mean(object$data), loglik = object$loglik, df = object$df, aic = object$aic,
                    stringsAsFactors = FALSE)
  new_summary("ir_margin", sprintf("Fitted %s margin (lowest AIC of %s):",
                                   if (object$discrete) "discrete" else "continuous",
                                   plural(nrow(object$candidates), "candidate")), tab)
}

#' @rdname fit_margin
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_margin <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$candidates
}

#' @rdname fit_margin
#' @param object An `ir_margin` object.
#' @method autoplot ir_margin
#' @export
autoplot.ir_margin <- function(object, ...) {
  check_no_dots(..., help = "fit_margin")
  if (object$discrete) margin_plot_discrete(object) else margin_plot_continuous(object)
}

# Fitted densities of every fitted candidate, on a grid, for the plot.
margin_curves <- function(object, y) {
  cand <- object$candidates
  rows <- which(is.finite(cand$aic))
  do.call(rbind, lapply(rows, function(i) {
    spec <- list(family = cand$family[i], parameters = object$candidate_parameters[[i]], data = object$data,
                 support = object$support)
    d <- if (cand$chosen[i]) dmargin(y, object) else margin_family_of(cand$family[i])$d(spec, y)
    data.frame(x = y, density = d, candidate = candidate_label(cand, i), chosen = cand$chosen[i],
               stringsAsFactors = FALSE)
  }))
}

# The family of a margin and its record's label.
margin_label <- function(x) {
  sprintf("%s (%s)", x$family, margin_family_of(margin_spec(x)$family)$label)
}

candidate_label <- function(cand, i) {
  lab <- cand$family[i]
  if (!is.na(cand$bandwidth[i]) && sum(cand$family == cand$family[i]) > 1L) {
    lab <- sprintf("%s (%s)", lab, format(signif(cand$bandwidth[i], 3)))
  }
  lab
}

margin_plot_title <- function(object) {
  # the family's label only (its code name is in the legend): one line at one column
  list(title = wrap_text(sprintf("Fitted margin: %s", margin_family_of(margin_spec(object)$family)$label)),
       subtitle = sprintf("%s; mean %s; lowest AIC %s", plural(object$n, "score"), format(signif(object$mean, 4)),
                          format(round(object$aic, 1), nsmall = 1)))
}

margin_plot_continuous <- function(object) {
  # scores that stay low (e.g. a weak system's AP) are shown on [0, top]
  top <- if (max(object$data) < 0.5) min(ceiling(max(object$data) * 1.2 * 20) / 20, 0.5) else 1
  y <- seq(0, top, length.out = 401)
  curves <- margin_curves(object, y)
  chosen <- curves[curves$chosen, , drop = FALSE]
  others <- curves[!curves$chosen, , drop = FALSE]
  labs <- unique(c(chosen$candidate, others$candidate))
  colours <- stats::setNames(line_colours(length(labs)), labs)
  key_labels <- c(paste(labs[1], "(chosen)"), labs[-1])
  # the histogram's tallest bar, and the curves' peaks within twice it: a
  # boundary spike of a kernel estimate must not flatten the picture
  breaks <- seq(0, top, length.out = 21)
  counts <- tabulate(findInterval(object$data, breaks, rightmost.closed = TRUE, all.inside = TRUE), 20L)
  hist_top <- max(counts) / (object$n * diff(breaks[1:2]))
  # point masses (inflated families) drawn at 0 and 1 as spikes of height
  # mass / bin width: what the mass adds to its bin of the histogram
  atoms <- margin_atoms(object)
  atoms <- atoms[atoms$x <= top, , drop = FALSE]
  atoms$height <- atoms$mass / diff(breaks[1:2])
  ylim <- max(hist_top, stats::quantile(chosen$density, 0.98), atoms$height) * 1.1
  p <- ggplot2::ggplot() +
    ggplot2::geom_histogram(data = data.frame(x = object$data),
                            ggplot2::aes(x = .data$x, y = ggplot2::after_stat(.data$density)),
                            breaks = breaks, fill = "grey85", colour = "grey60") +
    ggplot2::geom_line(data = others, ggplot2::aes(x = .data$x, y = .data$density, colour = .data$candidate,
                                                   linetype = .data$candidate), linewidth = 0.4) +
    ggplot2::geom_line(data = chosen, ggplot2::aes(x = .data$x, y = .data$density, colour = .data$candidate,
                                                   linetype = .data$candidate), linewidth = 1) +
    (if (nrow(atoms)) {
      list(ggplot2::geom_segment(data = atoms, ggplot2::aes(x = .data$x, xend = .data$x, y = 0, yend = .data$height),
                                 colour = colours[[labs[1]]], linewidth = 1),
           ggplot2::geom_point(data = atoms, ggplot2::aes(x = .data$x, y = .data$height), colour = colours[[labs[1]]],
                               size = 2))
    }) +
    # the chosen family first, said in its key (the keys do not show the line width)
    ggplot2::scale_colour_manual(values = colours, breaks = labs, labels = key_labels) +
    ggplot2::scale_linetype_manual(values = stats::setNames(rep(c("solid", "dashed"), c(1L, length(labs) - 1L)),
                                                            labs), breaks = labs, labels = key_labels) +
    (if (top == 1) ggplot2::scale_x_continuous(breaks = c(0, 0.25, 0.5, 0.75, 1))) +
    ggplot2::coord_cartesian(xlim = c(0, top), ylim = c(0, ylim)) +
    ggplot2::labs(x = "Score", y = "Density", colour = NULL, linetype = NULL)
  t <- margin_plot_title(object)
  if (nrow(atoms)) {
    # one line: "mass at 0: 15.3% (scores 15.3%), at 1: 30.7% (30.7%)"
    masses <- sprintf("at %s: %.1f%% (%s%.1f%%)", atoms$x, 100 * atoms$mass,
                      c("scores ", rep("", nrow(atoms) - 1L)), 100 * atoms$share)
    t$subtitle <- paste0(t$subtitle, "\nmass ", paste(masses, collapse = ", "))
  }
  # one candidate: its name is in the title, a legend would repeat it
  # one candidate: its name is in the title, a legend would repeat it; more
  # than 2: keys in two columns, whose names fit 3.5 in side by side
  if (length(labs) < 2L) p <- p + ggplot2::guides(colour = "none", linetype = "none")
  if (length(labs) > 2L) {
    rows <- ceiling(length(labs) / 2)
    p <- p + ggplot2::guides(colour = rows_legend(nrow = rows, byrow = TRUE),
                             linetype = rows_legend(nrow = rows, byrow = TRUE))
  }
  p + plot_labels(title = t$title, subtitle = t$subtitle) +
    title_theme(legend = TRUE) + ggplot2::theme(legend.key.width = ggplot2::unit(1.2, "lines"),
                                                legend.text = ggplot2::element_text(size = ggplot2::rel(0.7)))
}

margin_plot_discrete <- function(object) {
  s <- object$support
  idx <- nearest_support(object$data, s)
  obs <- data.frame(x = s, proportion = tabulate(idx + 1L, length(s)) / object$n)
  fitted <- data.frame(x = s, probability = dmargin(s, object))
  # a long support (RR) shows the range the data and fit use
  show <- obs$proportion > 0 | fitted$probability > 1e-4
  xlim <- range(s[show])
  width <- 0.8 * min(diff(s[s >= xlim[1] & s <= xlim[2]]), na.rm = TRUE)
  if (!is.finite(width)) width <- 0.8 * min(diff(s))
  # bars on an evenly spaced support (P@k), thin lines on an uneven one (RR)
  even <- diff(range(diff(s))) < 1e-9
  observed <- if (even) {
    ggplot2::geom_col(data = obs, ggplot2::aes(x = .data$x, y = .data$proportion, fill = "observed"), width = width)
  } else {
    ggplot2::geom_rect(data = obs[obs$proportion > 0, , drop = FALSE],
                       ggplot2::aes(xmin = .data$x - diff(xlim) / 300, xmax = .data$x + diff(xlim) / 300,
                                    ymin = 0, ymax = .data$proportion, fill = "observed"))
  }
  if (!even) width <- diff(xlim) / 100
  p <- ggplot2::ggplot() +
    observed +
    ggplot2::geom_line(data = fitted, ggplot2::aes(x = .data$x, y = .data$probability, colour = "fitted")) +
    ggplot2::geom_point(data = fitted, ggplot2::aes(x = .data$x, y = .data$probability, colour = "fitted"),
                        size = 1.6) +
    ggplot2::scale_fill_manual(values = c(observed = "grey75"), name = NULL) +
    ggplot2::scale_colour_manual(values = c(fitted = "#0072B2"), name = NULL,
                                 labels = paste("fitted:", object$family)) +
    ggplot2::coord_cartesian(xlim = xlim + c(-1, 1) * width) +
    ggplot2::labs(x = "Score", y = "Probability")
  t <- margin_plot_title(object)
  # the observed bars and the fitted line: two one-key legends side by side
  p + plot_labels(title = t$title, subtitle = t$subtitle) + title_theme(legend = TRUE) +
    ggplot2::theme(legend.box = "horizontal")
}
