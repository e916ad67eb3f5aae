# Reliability of a test collection: Cronbach's alpha (Bodoff & Li 2007,
# Mandl 2009; spec 5.2) and generalizability theory (Brennan 2001): the
# G-study of a crossed systems x topics design and D-study projections.

#' Cronbach's alpha of a score matrix
#'
#' Systems are the cases and topics the items (Bodoff & Li 2007; Mandl
#' 2009): with \eqn{k} topics,
#' \deqn{\alpha = \frac{k}{k-1}\left(1 - \frac{\sum_t \mathrm{Var}(X_{\cdot t})}{\mathrm{Var}(\sum_t X_{\cdot t})}\right),}
#' variances over systems: the textbook value, which equals the G-study's
#' \eqn{E\rho^2} ([g_study()]). It can be negative (topics that order the
#' systems in opposite ways) and is not clamped.
#'
#' Every topic counts in \eqn{k}, also one on which all systems score the
#' same (variance 0; common for P@10). `psych::alpha(scores)$total$raw_alpha`
#' equals this value only when no topic has zero variance: psych silently
#' drops such items, and as a constant topic changes neither the sum of
#' variances nor the variance of the totals, with \eqn{z} of the \eqn{k}
#' topics constant it reports
#' \deqn{\alpha_{psych} = \alpha \, \frac{(k - 1)(k - z)}{k (k - z - 1)},}
#' slightly higher (TREC-5 P@10, 60 systems x 50 topics with one constant
#' topic: .93427 here, .93466 in psych). psych can also fail outright on
#' wide matrices (Robust 2004 P@10, 110 systems x 249 topics: an LAPACK
#' error in its other statistics), where this function still answers. Computed in
#' C++ from centred columns with compensated sums, the same code as
#' [group_agreement()], [alpha_bootstrap()] and [alpha_curve()], on the
#' scores divided by a power of two near the largest one (exact; alpha does
#' not depend on the scale), so that scores around \eqn{10^{-300}}, whose
#' squares underflow, give the alpha of the unscaled scores.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @return A number (with a warning of class `irtopics_warning_too_few` for 2
#'   systems, whose variance has 1 degree of freedom); `NA` with fewer than
#'   2 topics or systems, or when the
#'   systems' totals do not vary (a total variance below \eqn{10^{-12}}
#'   times the sum of the topic variances counts as 0: it is floating-point
#'   rounding of totals that are equal).
#' @references Bodoff, D. & Li, P. (2007). Test theory for assessing IR test
#'   collections. *SIGIR 2007*, 367--374.
#' @examples
#' x <- rbind(c(.20, .35, .10, .50), c(.25, .40, .05, .55), c(.10, .20, .00, .30),
#'            c(.30, .45, .15, .60), c(.15, .30, .10, .35))
#' cronbach_alpha(x)   # 0.9330514
#' @export
cronbach_alpha <- function(scores) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 1L, min_topics = 1L)
  if (nrow(m) == 2L) {
    warn_too_few(2L, 3L, "system", "Cronbach's alpha",
                 "Its variance between systems has 1 degree of freedom: it can be far below 0.")
  }
  alpha_impl(m)
}

# Alpha of a complete double matrix (checked by the caller), by the C++
# kernel of src/reliability.h: NA with fewer than 2 topics or systems, or a
# total variance at rounding level (totals equal in exact arithmetic can
# differ in the last bit, e.g. rows .69 .24 .07 and .08 .42 .50, which would
# give an alpha of ~-1e31).
alpha_impl <- function(m) {
  a <- cpp_alpha(m / pow2_scale(m), matrix(0L, 0L, 0L), 1L)
  if (is.nan(a)) NA_real_ else a
}

# The chunk plan of n alpha draws of k topics each (checked against memory
# before the draws are made: the k x n index matrix, its 0-based copy and the
# values).
alpha_plan <- function(n, k, what, arg, call = rlang::caller_env()) {
  plan_chunks(n, what, min_size = 1000L, pieces = 20L, bytes_per_item = 16 * k + 16, arg = arg,
              call = call)
}

# Alpha of each column set of `sets` (k x n_sets, 0-based topic indices), in
# the chunks of `plan` (run_chunks(): progress bar, interrupts, futures).
alpha_sets <- function(m, sets, n_threads, plan, measure = NULL, what = attr(plan, "what")) {
  m <- m / pow2_scale(m)  # alpha is scale-invariant; see pow2_scale()
  out <- with_progress_measure(measure, unlist(run_chunks(plan, function(idx, threads) {
    cpp_alpha(m, sets[, idx, drop = FALSE], threads)
  }, n_threads = n_threads, what = what), use.names = FALSE))
  out[is.nan(out)] <- NA_real_
  out
}

#' Intervals for Cronbach's alpha, and its bootstrap distribution
#'
#' Resamples the topics with replacement `B` times (the bootstrap
#' distribution of alpha, drawn by [autoplot()][autoplot.ir_alpha_bootstrap]:
#' a histogram of the draws, the estimate and each interval's bounds as
#' vertical lines, named `Feldt`, `non-central F` and `percentile` in its
#' legend)
#' and reports three \eqn{100 \cdot}`conf`% intervals for alpha, which
#' assume different things about where the systems and topics come from:
#' * `interval = "feldt"` (the default): Feldt's (1965) interval, for
#'   **systems and topics that are both random samples** (the two-way
#'   random-effects model, the question "how reliable is a collection like
#'   this one for systems like these?"). With \eqn{F_x} the \eqn{x}
#'   quantile of \eqn{F(n_s - 1, (n_s - 1)(n_t - 1))} and tail \eqn{a =
#'   (1 - conf)/2}: \eqn{[1 - (1 - \hat\alpha) F_{1-a}, 1 - (1 - \hat\alpha)
#'   F_{a}]}, exact for normal scores (it is the \eqn{E\rho^2} interval of
#'   [d_study()] at the observed number of topics).
#' * `interval = "noncentral"`: for **these systems, fixed, and random
#'   topics** ("how reliably does a collection like this one rank these
#'   systems?"; the target is alpha with the systems' own spread
#'   \eqn{S^2_s = \sum (\mu_s - \bar\mu)^2 / (n_s - 1)} in place of the
#'   population variance). \eqn{MS_s / MS_e} then has a non-central
#'   \eqn{F(n_s - 1, (n_s - 1)(n_t - 1), \lambda)} distribution with
#'   \eqn{\lambda = n_t (n_s - 1) S^2_s / \sigma^2_e}; the interval inverts it
#'   in \eqn{\lambda} and maps \eqn{\lambda} to alpha as \eqn{r / (1 + r)}
#'   with \eqn{r = \lambda / (n_s - 1)}. Exact for normal errors; a bound is 0
#'   where the data are consistent with no system differences. (Where R's
#'   non-central F loses precision, \eqn{\lambda} beyond about \eqn{10^5},
#'   Patnaik's two-moment approximation is used.) This interval is
#'   irtopics' construction (DERIVED): the standard non-central F inversion
#'   applied to alpha.
#' * `interval = "percentile"`: the percentile interval of the topic
#'   bootstrap (systems fixed, topics resampled; `quantile()` type 7).
#'   **It undercovers** and is kept only for comparison with earlier results:
#'   bootstrapping topics with replacement biases alpha downwards and ignores
#'   the sampling of systems.
#'
#' Coverage of nominal 95% intervals in 2,000 simulated collections per
#' cell (`bench/alpha-intervals.R`, two-way model with normal errors and
#' known alpha; skewed errors and the other settings in `bench/README.md`,
#' section 10):
#'
#' | interval | 30 x 50, systems random | 30 x 50, systems fixed | 100 x 25, random | 100 x 25, fixed |
#' |---|---|---|---|---|
#' | `"feldt"` | .954 | 1.000 | .954 | .992 |
#' | `"noncentral"` | .615 | .946 | .872 | .945 |
#' | `"percentile"` | .578 | .845 | .202 | .173 |
#'
#' (systems x topics; alpha .91 and about .64.) Feldt's interval is close to
#' nominal when the systems are a random sample and conservative when they
#' are fixed, so it is the default; the non-central interval is close to
#' nominal for fixed systems but too narrow for sampled ones; the
#' percentile interval is too narrow in every setting, badly so with few
#' topics. With skewed (centred exponential) errors Feldt's coverage stays
#' at .951 / 1.000 and the non-central interval's drops to .915.
#'
#' The draws are made in R after `set.seed(seed)` (your random state is
#' restored), so the result is the same for any `n_threads` and any
#' `future` plan. They are the topic resamples that [boot::boot()] draws
#' after the same `set.seed()`, and that [mean_intervals()],
#' [rank_intervals()] and [tau_interval()] draw for the same `seed`.
#'
#' @inheritParams cronbach_alpha
#' @param B Number of bootstrap samples of topics.
#' @param conf Confidence level of the intervals, in (0, 1).
#' @param interval The interval reported as `conf.low`, `conf.high`:
#'   `"feldt"` (systems and topics random), `"noncentral"` (systems fixed) or
#'   `"percentile"` (topic bootstrap; undercovers). All three are in
#'   `$intervals`.
#' @param seed Random seed (a whole number), or `NULL` to use the current
#'   random stream.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @return An `ir_alpha_bootstrap` object: `$estimate`, `$conf.low`,
#'   `$conf.high` (the interval chosen by `interval`), `$interval` (its
#'   name), `$intervals` (a data frame of all three: `interval`, `assumes`,
#'   `conf.low`, `conf.high`), `$feldt`, `$noncentral` and `$percentile`
#'   (each a named pair of bounds), `$draws` (the `B` bootstrap alphas, `NA`
#'   where undefined), `$indices` (the topics drawn: an \eqn{n_t \times B}
#'   integer matrix of column numbers), `$B`, `$conf`, `$seed`.
#' @references Feldt, L. S. (1965). The approximate sampling distribution of
#'   Kuder-Richardson reliability coefficient twenty. *Psychometrika* 30(3).
#'
#' Bodoff, D. & Li, P. (2007). Test theory for assessing IR test
#'   collections. *SIGIR 2007*, 367--374.
#'
#' Patnaik, P. B. (1949). The non-central chi-square and F-distributions
#'   and their applications. *Biometrika* 36(1/2), 202--232.
#' @seealso [alpha_curve()] for alpha against the number of topics.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' bt <- alpha_bootstrap(ap, B = 200, seed = 1)
#' bt
#' bt$intervals
#' ggplot2::autoplot(bt)
#' @export
alpha_bootstrap <- function(scores, B = 1000, conf = 0.95, seed = NULL, n_threads = irtopics_threads(),
                            interval = c("feldt", "noncentral", "percentile"), progress = NULL) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 3L, min_topics = 2L)
  check_number(B, "B", min = 1, integer = TRUE)
  check_conf(conf)
  interval <- match_choice(interval)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  measure <- attr(m, "measure")
  attr(m, "measure") <- NULL
  nt <- ncol(m)
  plan <- alpha_plan(B, nt, "alpha bootstrap samples", "B")
  # the topic resamples of mean_intervals() and boot::boot() for this seed, one per column
  idx <- t(bootstrap_topic_indices(nt, B, seed, nrow(m)))
  draws <- alpha_sets(m, idx - 1L, n_threads, plan, measure)
  a <- (1 - conf) / 2
  q <- stats::quantile(draws, c(a, 1 - a), na.rm = TRUE, names = FALSE)
  bounds <- list(feldt = feldt_interval(m, a), noncentral = noncentral_alpha_interval(m, a),
                 percentile = c(conf.low = q[1], conf.high = q[2]))
  intervals <- data.frame(interval = names(bounds),
                          assumes = unname(alpha_interval_assumes[names(bounds)]),
                          conf.low = vapply(bounds, `[[`, 0, 1), conf.high = vapply(bounds, `[[`, 0, 2),
                          stringsAsFactors = FALSE, row.names = NULL)
  new_ir_alpha_bootstrap(list(estimate = alpha_impl(m), conf.low = bounds[[interval]][[1]],
                              conf.high = bounds[[interval]][[2]], interval = interval, intervals = intervals,
                              feldt = bounds$feldt, noncentral = bounds$noncentral, percentile = bounds$percentile,
                              draws = draws, indices = idx, B = as.integer(B), conf = conf, seed = seed,
                              measure = measure, n_systems = nrow(m), n_topics = nt))
}

new_ir_alpha_bootstrap <- function(x) {
  new_result(x, "ir_alpha_bootstrap",
             fields = c(estimate = "number", conf.low = "number", conf.high = "number",
                        interval = "string", intervals = "data.frame", feldt = "numeric",
                        noncentral = "numeric", percentile = "numeric",
                        draws = "numeric", indices = "matrix", B = "number", conf = "number",
                        measure = "string?", n_systems = "number", n_topics = "number"))
}

alpha_interval_assumes <- c(
  feldt = "systems and topics random samples (F distribution)",
  noncentral = "these systems fixed, topics random (non-central F)",
  percentile = "topic bootstrap percentile; undercovers, for comparison only"
)

# Feldt's interval for alpha: the D-study's Erho2 interval at n' = n_t.
feldt_interval <- function(m, a) {
  d <- d_study(g_study(m), ncol(m), alpha = a)
  c(conf.low = d$Erho2_low, conf.high = d$Erho2_high)
}

# The interval for alpha with the systems fixed: MS_s / MS_e ~ F'(df_s,
# df_e, lambda), inverted in lambda (pf() decreases in lambda), and
# alpha = r / (1 + r) with r = lambda / df_s. NA without residual variance.
noncentral_alpha_interval <- function(m, a) {
  g <- g_study(m)
  ms <- g_mean_squares(g)
  df1 <- g$df[["system"]]
  df2 <- g$df[["residual"]]
  if (!(ms[["residual"]] > 0)) return(c(conf.low = NA_real_, conf.high = NA_real_))
  f_obs <- ms[["system"]] / ms[["residual"]]
  lam <- vapply(c(1 - a, a), function(target) {
    f <- function(l) pf_noncentral(f_obs, df1, df2, l) - target
    if (f(0) <= 0) return(0)
    hi <- max(10, 2 * f_obs * df1)
    while (f(hi) > 0) hi <- hi * 2
    stats::uniroot(f, c(0, hi), tol = 1e-10 * hi)$root
  }, numeric(1))
  r <- lam / df1
  c(conf.low = r[1] / (1 + r[1]), conf.high = r[2] / (1 + r[2]))
}

# P(F'(df1, df2, ncp) <= q): R's pf(), or Patnaik's two-moment
# approximation (chi'^2_df1(ncp) ~ c chi^2_nu) where R warns that it lost
# precision (very large ncp).
pf_noncentral <- function(q, df1, df2, ncp) {
  tryCatch(stats::pf(q, df1, df2, ncp = ncp), warning = function(w) {
    cc <- (df1 + 2 * ncp) / (df1 + ncp)
    nu <- (df1 + ncp)^2 / (df1 + 2 * ncp)
    stats::pf(q * df1 / (cc * nu), nu, df2)
  })
}

check_conf <- function(conf, call = rlang::caller_env()) {
  check_probs(conf, "conf", "A confidence level, e.g. {.code conf = 0.95}.", scalar = TRUE, call = call)
}

#' @rdname alpha_bootstrap
#' @param x An `ir_alpha_bootstrap` object.
#' @param ... Unused.
#' @export
format.ir_alpha_bootstrap <- function(x, ...) {
  pct <- 100 * x$conf
  iv <- x$intervals
  rows <- sprintf("%s%-10s [%.4f, %.4f]  %s", ifelse(iv$interval == x$interval, "* ", "  "), iv$interval,
                  iv$conf.low, iv$conf.high, iv$assumes)
  c(sprintf("<ir_alpha_bootstrap> Cronbach's alpha%s: %d systems x %d topics, %d bootstrap samples of topics",
            if (!is.null(x$measure)) paste0(" (", x$measure, ")") else "", x$n_systems, x$n_topics, x$B),
    sprintf("alpha = %.4f", x$estimate),
    sprintf("%g%% intervals (* = reported as conf.low, conf.high):", pct),
    rows,
    if (anyNA(x$draws)) sprintf("%d samples with undefined alpha left out", sum(is.na(x$draws))))
}

#' @rdname alpha_bootstrap
#' @export
print.ir_alpha_bootstrap <- function(x, ...) print_formatted(x, ...)

#' @rdname alpha_bootstrap
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_alpha_bootstrap <- function(x, row.names = NULL, optional = FALSE, ...) {
  iv <- x$intervals
  data.frame(method = iv$interval, estimate = x$estimate, conf.low = iv$conf.low,
             conf.high = iv$conf.high, conf = x$conf, reported = iv$interval == x$interval,
             assumes = iv$assumes, stringsAsFactors = FALSE)
}

#' @rdname alpha_bootstrap
#' @param object An `ir_alpha_bootstrap` object.
#' @export
summary.ir_alpha_bootstrap <- function(object, ...) {
  new_summary("ir_alpha_bootstrap", sprintf("Cronbach's alpha with %g%% intervals (B = %d):", 100 * object$conf,
                                            object$B),
              as.data.frame(object))
}

#' @rdname alpha_bootstrap
#' @method autoplot ir_alpha_bootstrap
#' @export
autoplot.ir_alpha_bootstrap <- function(object, ...) {
  check_no_dots(..., help = "alpha_bootstrap")
  d <- data.frame(alpha = object$draws[!is.na(object$draws)])
  # short names in the legend (what each assumes: the help page and print())
  kinds <- c("estimate", "Feldt", "non-central F", "percentile")
  lines <- data.frame(value = c(object$estimate, object$percentile, object$feldt, object$noncentral),
                      what = factor(kinds[c(1, 4, 4, 2, 2, 3, 3)], levels = kinds))
  lines <- lines[!is.na(lines$value), , drop = FALSE]
  lines$what <- droplevels(lines$what)
  n_kinds <- nlevels(lines$what)
  guide <- if (n_kinds > 1L) rows_legend(nrow = legend_rows(levels(lines$what))) else "none"
  ggplot2::ggplot(d, ggplot2::aes(x = .data$alpha)) +
    ggplot2::geom_histogram(bins = 40, fill = "grey70", colour = "white") +
    ggplot2::geom_vline(data = lines, ggplot2::aes(xintercept = .data$value, colour = .data$what,
                                                   linetype = .data$what)) +
    ggplot2::scale_colour_manual(values = stats::setNames(c("black", line_colours(3L)), kinds), guide = guide) +
    ggplot2::scale_linetype_manual(values = stats::setNames(c("solid", line_types(4L)[-1]), kinds), guide = guide) +
    ggplot2::scale_x_continuous(n.breaks = 4, expand = ggplot2::expansion(mult = 0.08)) +
    plot_labels(x = quote("Cronbach's" ~ alpha ~ "of a bootstrap sample"), y = "Samples",
                colour = NULL, linetype = NULL,
                title = "Bootstrap of Cronbach's alpha",
                subtitle = sprintf("%s%s samples, %g%% intervals",
                                   if (is.null(object$measure)) "" else paste0(object$measure, "; "),
                                   format(object$B, big.mark = ","), 100 * object$conf)) +
    title_theme(legend = n_kinds > 1L) + compact_legend()
}
