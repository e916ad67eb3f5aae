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
#' @return A number; `NA` with fewer than 2 topics or systems, or when the
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
#' distribution of alpha, drawn by [autoplot()][autoplot.ir_alpha_bootstrap])
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
#' known alpha; skewed errors and the other settings in `bench/README.md`):
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
#' `future` plan.
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
                            interval = c("feldt", "noncentral", "percentile")) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 3L, min_topics = 2L)
  check_number(B, "B", min = 1, integer = TRUE)
  check_conf(conf)
  interval <- match_choice(interval)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  measure <- attr(m, "measure")
  attr(m, "measure") <- NULL
  nt <- ncol(m)
  plan <- alpha_plan(B, nt, "alpha bootstrap samples", "B")
  idx <- with_seed(seed, matrix(sample.int(nt, nt * B, replace = TRUE), nt))
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
  d <- data.frame(alpha = object$draws[!is.na(object$draws)])
  lines <- data.frame(value = c(object$estimate, object$percentile, object$feldt, object$noncentral),
                      what = factor(c("estimate", "percentile (undercovers)", "percentile (undercovers)",
                                      "Feldt (systems random)", "Feldt (systems random)",
                                      "non-central F (systems fixed)", "non-central F (systems fixed)"),
                                    levels = c("estimate", "Feldt (systems random)",
                                               "non-central F (systems fixed)", "percentile (undercovers)")))
  lines <- lines[!is.na(lines$value), , drop = FALSE]
  ggplot2::ggplot(d, ggplot2::aes(x = .data$alpha)) +
    ggplot2::geom_histogram(bins = 40, fill = "grey70", colour = "white") +
    ggplot2::geom_vline(data = lines, ggplot2::aes(xintercept = .data$value, colour = .data$what,
                                                   linetype = .data$what)) +
    ggplot2::labs(x = "Cronbach's alpha of a bootstrap sample of topics", y = "Samples",
                  colour = NULL, linetype = NULL,
                  title = wrap_text(sprintf("Bootstrap distribution of alpha%s",
                                            if (is.null(object$measure)) "" else paste0(" of ", object$measure))),
                  subtitle = sprintf("%s samples, %g%% intervals", format(object$B, big.mark = ","),
                                     100 * object$conf)) +
    ggplot2::theme_bw() + title_theme()
}

#' Cronbach's alpha against the number of topics
#'
#' For each topic-set size, draws `trials` random subsets of the topics
#' (without replacement) and reports the mean alpha over the subsets and
#' the central `conf` range of their values: how reliable a collection
#' with fewer topics drawn from the same pool would be. The column
#' `projected` is the G-study projection of \eqn{E\rho^2} (Spearman-Brown)
#' from the whole matrix to that size ([d_study()]), for comparison.
#'
#' @inheritParams alpha_bootstrap
#' @param sizes Topic-set sizes, whole numbers from 2 to the number of
#'   topics (default: up to 20 sizes spread over that range).
#' @param trials Random subsets per size.
#' @return An `ir_alpha_curve` object: `$curve`, a data frame with columns
#'   `n_topics`, `mean`, `conf.low`, `conf.high`, `projected`,
#'   `n_undefined`; `$draws` (a list, per size, of the subsets' alphas);
#'   `$sets` (a list, per size, of the subsets: size x trials column
#'   numbers); the parameters.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' cv <- alpha_curve(ap, sizes = c(5, 10, 20, 30, 50), trials = 100, seed = 1)
#' cv
#' ggplot2::autoplot(cv)
#' @export
alpha_curve <- function(scores, sizes = NULL, trials = 200, conf = 0.95, seed = NULL, n_threads = irtopics_threads()) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 3L, min_topics = 2L)
  nt <- ncol(m)
  sizes <- sizes %||% unique(round(seq(2, nt, length.out = min(nt - 1L, 20L))))
  if (!is.numeric(sizes) || !length(sizes) || anyNA(sizes) || any(sizes != round(sizes)) ||
      any(sizes < 2) || any(sizes > nt)) {
    stop_irtopics(c("{.arg sizes} must be whole numbers of topics from 2 to {nt}.",
                    x = "Got {show_values(sizes)}."))
  }
  sizes <- sort(unique(as.integer(sizes)))
  check_number(trials, "trials", min = 1, integer = TRUE)
  check_conf(conf)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  measure <- attr(m, "measure")
  attr(m, "measure") <- NULL
  plan <- alpha_plan(trials, sum(sizes), "alpha trials", "trials")
  sets <- with_seed(seed, lapply(sizes, function(k) {
    matrix(vapply(seq_len(trials), function(b) sample.int(nt, k), integer(k)), k)
  }))
  draws <- lapply(seq_along(sizes), function(i) {
    alpha_sets(m, sets[[i]] - 1L, n_threads, plan, measure,
               what = sprintf("alpha trials over %d topics", sizes[i]))
  })
  a <- (1 - conf) / 2
  q <- vapply(draws, function(d) {
    if (all(is.na(d))) c(NA_real_, NA_real_) else stats::quantile(d, c(a, 1 - a), na.rm = TRUE, names = FALSE)
  }, numeric(2))
  curve <- data.frame(n_topics = sizes,
                      mean = vapply(draws, function(d) if (all(is.na(d))) NA_real_ else mean(d, na.rm = TRUE), numeric(1)),
                      conf.low = q[1, ], conf.high = q[2, ],
                      projected = d_study(g_study(m), sizes)$Erho2,
                      n_undefined = vapply(draws, function(d) sum(is.na(d)), integer(1)))
  new_ir_alpha_curve(list(curve = curve, draws = draws, sets = sets, trials = as.integer(trials), conf = conf,
                          seed = seed, measure = measure, n_systems = nrow(m), n_topics = nt))
}

new_ir_alpha_curve <- function(x) {
  new_result(x, "ir_alpha_curve",
             fields = c(curve = "data.frame", draws = "list", sets = "list", trials = "number", conf = "number",
                        measure = "string?", n_systems = "number", n_topics = "number"))
}

#' @rdname alpha_curve
#' @param x An `ir_alpha_curve` object.
#' @param ... Unused.
#' @export
format.ir_alpha_curve <- function(x, ...) {
  d <- x$curve
  num <- vapply(d, is.double, logical(1))
  d[num] <- lapply(d[num], round, 4)
  c(sprintf("<ir_alpha_curve> Cronbach's alpha%s of random topic subsets: %d systems, %d topics, %d subsets per size, %g%% ranges",
            if (!is.null(x$measure)) paste0(" (", x$measure, ")") else "", x$n_systems, x$n_topics,
            x$trials, 100 * x$conf),
    printed_lines(print(d, row.names = FALSE)))
}

#' @rdname alpha_curve
#' @export
print.ir_alpha_curve <- function(x, ...) print_formatted(x, ...)

#' @rdname alpha_curve
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_alpha_curve <- function(x, row.names = NULL, optional = FALSE, ...) x$curve

#' @rdname alpha_curve
#' @param object An `ir_alpha_curve` object.
#' @export
summary.ir_alpha_curve <- function(object, ...) {
  new_summary("ir_alpha_curve", sprintf("Alpha of random topic subsets (%d per size, %g%% ranges):",
                                        object$trials, 100 * object$conf),
              object$curve)
}

#' @rdname alpha_curve
#' @param target For `autoplot()`: a target alpha drawn as a dotted line
#'   (`NULL`: none).
#' @method autoplot ir_alpha_curve
#' @export
autoplot.ir_alpha_curve <- function(object, target = 0.95, ...) {
  check_no_dots(..., help = "alpha_curve")
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  d <- object$curve
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$n_topics)) +
    ggplot2::geom_ribbon(data = complete_bounds("conf.low", "conf.high"),
                         ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high), fill = "steelblue",
                         alpha = 0.2, na.rm = TRUE) +
    ggplot2::geom_line(ggplot2::aes(y = .data$mean, linetype = "mean over subsets"), colour = "steelblue") +
    sparse_points(nrow(d), ggplot2::aes(y = .data$mean), colour = "steelblue", size = 1) +
    ggplot2::geom_line(ggplot2::aes(y = .data$projected, linetype = "G-study projection"), colour = "grey30") +
    ggplot2::scale_linetype_manual(values = c("mean over subsets" = "solid", "G-study projection" = "dashed"))
  if (!is.null(target)) {
    p <- p + ggplot2::geom_hline(yintercept = target, linetype = "dotted", colour = "grey30") +
      ggplot2::annotate("text", x = min(d$n_topics), y = target, label = sprintf("target %s", format(target)),
                        hjust = 0, vjust = -0.4, size = 3, colour = "grey30")
  }
  p + ggplot2::labs(x = "Number of topics", y = "Cronbach's alpha", linetype = NULL,
                    title = wrap_text(sprintf("Alpha%s of random topic subsets",
                                              if (is.null(object$measure)) "" else paste0(" of ", object$measure))),
                    subtitle = sprintf("%s per size, %g%% ranges", format(object$trials, big.mark = ","),
                                       100 * object$conf)) +
    ggplot2::theme_bw() + title_theme()
}

#' Generalizability study of a systems x topics matrix
#'
#' Estimates the variance components of the crossed design with one score
#' per cell, \eqn{X_{st} = \mu + \nu_s + \nu_t + \nu_{st,e}}, from the
#' two-way ANOVA mean squares (Brennan 2001):
#' \eqn{\hat\sigma^2(e) = MS_e}, \eqn{\hat\sigma^2(s) = (MS_s - MS_e)/n_t},
#' \eqn{\hat\sigma^2(t) = (MS_t - MS_e)/n_s}; and for \eqn{n'} topics the
#' generalizability coefficient \eqn{E\rho^2 = \sigma^2(s) / (\sigma^2(s) +
#' \sigma^2(e)/n')} (relative decisions: ranking systems; equals Cronbach's
#' alpha at \eqn{n' = n_t}) and the dependability index \eqn{\Phi =
#' \sigma^2(s) / (\sigma^2(s) + (\sigma^2(t) + \sigma^2(e))/n')} (absolute
#' decisions: the scores themselves). `d_study()` projects both to other
#' topic-set sizes.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @param drop Leave out the systems whose mean score is below this
#'   quantile of the system means (`quantile()`'s default type 7) before the
#'   study: `0.25` drops the bottom quarter, as Urbano, Marrero & Martín
#'   (2013) do so that very poor runs do not inflate the system variance.
#'   In \[0, 1); at least 2 systems must remain.
#' @param truncate Set negative variance-component estimates to 0 (Brennan's
#'   usual convention) before computing the coefficients. Default `FALSE`,
#'   which keeps \eqn{E\rho^2} equal to Cronbach's alpha.
#' @return An `ir_g_study` object: `$components` (data frame: `component`,
#'   `variance`, `percent`), `$mean_squares`, `$df`, `$Erho2`, `$Phi`,
#'   `$n_systems`, `$n_topics` (after dropping), `$dropped` (names), and
#'   `$scaled`: the mean squares and components computed in units of a
#'   power of two near the largest score (`$scaled$unit`; an exact
#'   rescaling), from which the coefficients, intervals and topics needed
#'   are computed, so that they are right for scores around
#'   \eqn{10^{-300}} whose variances underflow to 0 in the original units.
#'   The coefficients are `NA` when their denominator is 0 (e.g. a constant
#'   matrix), as Cronbach's alpha is. `as.data.frame()` returns
#'   `$components`; `summary()` the coefficients and the topics needed for
#'   \eqn{E\rho^2} and \eqn{\Phi} of 0.8, 0.9 and 0.95 (an
#'   [irtopics_summary]).
#' @param x,object A `g_study` or `ir_d_study` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Brennan, R. L. (2001). *Generalizability Theory*. Springer.
#'
#' Urbano, J., Marrero, M. & Martín, D. (2013). On the measurement of test
#' collection reliability. *SIGIR 2013*.
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv",
#'                              package = "irtopics"))
#' g <- g_study(x)
#' g                      # Erho2 .729, Phi .672
#' d_study(g, c(5, 12, 25, 50))
#' @export
g_study <- function(scores, drop = 0, truncate = FALSE) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  check_flag(truncate, "truncate")
  if (!is.numeric(drop) || length(drop) != 1L || is.na(drop) || drop < 0 || drop >= 1) {
    stop_irtopics(c("{.arg drop} must be a proportion in [0, 1): the quantile of system means below which systems are left out.",
                    x = "Got {show_values(drop)}.", i = "Use {.code drop = 0} to keep every system, {.code drop = 0.25} to drop the bottom quarter."))
  }
  dropped <- character()
  measure <- attr(m, "measure")  # subsetting below drops it
  if (drop > 0) {
    means <- rowMeans(m)
    keep <- means >= stats::quantile(means, drop, names = FALSE)
    if (sum(keep) < 2L) {
      stop_irtopics(c("{.arg drop} = {drop} leaves {sum(keep)} system{?s}; the G-study needs at least 2.",
                      i = "Use a smaller {.arg drop}."), kind = "data")
    }
    dropped <- rownames(m)[!keep]
    m <- m[keep, , drop = FALSE]
  }
  ns <- nrow(m)
  nt <- ncol(m)
  # The ANOVA in units of a power of two near the largest score (exact, see
  # pow2_scale()): the coefficients, intervals and topics needed are ratios
  # and come from these scaled values, so they stay right for scores around
  # 1e-300 whose variances (~1e-600) underflow in the original units.
  unit <- pow2_scale(m)
  a <- anova_impl(m / unit)
  ms_s <- a$s_a / a$df_a
  ms_t <- a$s_b / a$df_b
  ms_e <- a$v_e
  comp <- c(system = (ms_s - ms_e) / nt, topic = (ms_t - ms_e) / ns, residual = ms_e)
  if (truncate) comp <- pmax(comp, 0)
  ms <- c(system = ms_s, topic = ms_t, residual = ms_e)
  out <- list(
    components = data.frame(component = names(comp), variance = unname(comp) * unit * unit,
                            percent = if (sum(pmax(comp, 0)) > 0) 100 * unname(comp) / sum(pmax(comp, 0))
                                      else NA_real_),
    mean_squares = ms * unit * unit,
    df = c(system = a$df_a, topic = a$df_b, residual = a$df_e),
    n_systems = ns, n_topics = nt, truncate = truncate, drop = drop, dropped = dropped,
    measure = measure,
    scaled = list(unit = unit, components = comp, mean_squares = ms)
  )
  coef <- g_coefficients(out, nt)
  out$Erho2 <- coef$Erho2
  out$Phi <- coef$Phi
  new_ir_g_study(out)
}

new_ir_g_study <- function(x) {
  new_result(x, "ir_g_study", old = "g_study",
             fields = c(components = "data.frame", mean_squares = "numeric", df = "numeric",
                        n_systems = "number", n_topics = "number", truncate = "flag", measure = "string?",
                        Erho2 = "number", Phi = "number"))
}

# The variance components and mean squares in the G-study's scaled units
# (ratios of them are the same as in the original units).
g_components <- function(g) {
  g$scaled$components %||% stats::setNames(g$components$variance, g$components$component)
}
g_mean_squares <- function(g) g$scaled$mean_squares %||% g$mean_squares

g_coefficients <- function(g, n) {
  v <- g_components(g)
  ratio <- function(num, den) ifelse(den == 0, NA_real_, num / den)
  data.frame(n_topics = n,
             Erho2 = ratio(v[["system"]], v[["system"]] + v[["residual"]] / n),
             Phi = ratio(v[["system"]], v[["system"]] + (v[["topic"]] + v[["residual"]]) / n))
}

#' @rdname g_study
#' @param g An `ir_g_study` object, or a score matrix (a G-study is run first).
#' @param n_topics Topic-set sizes to project to.
#' @param target Target reliability (or several) for the topics needed, in
#'   (0, 1).
#' @param alpha Tail probability on each side of the intervals, in (0, 0.5):
#'   `0.025` gives 95% intervals.
#' @return `d_study()`: an `ir_d_study` data frame with columns `n_topics`,
#'   `Erho2`, `Erho2_low`, `Erho2_high`, `Phi`, `Phi_low`, `Phi_high`, and
#'   the attribute `"topics_needed"` (see [topics_needed()]).
#' @details
#' `d_study()` adds intervals to the projections (Urbano, Marrero & Martín
#' 2013, after Feldt 1965 and Arteaga, Jeyaratnam & Franklin 1982, as in
#' their gt4ireval tool). With tail probability \eqn{a} and
#' \eqn{F_x} the \eqn{x} quantile of \eqn{F(df_s, df_e)}:
#' \eqn{L = (MS_s / (MS_e F_{1-a}) - 1)/n_t}, \eqn{U = (MS_s / (MS_e F_a) -
#' 1)/n_t}, and the interval of \eqn{E\rho^2} for \eqn{n'} topics is
#' \eqn{[n'L/(1 + n'L), n'U/(1 + n'U)]} (at \eqn{n' = n_t} it is Feldt's
#' interval for Cronbach's alpha). For \eqn{\Phi}, with \eqn{F_1, F_2, F_3}
#' the quantiles of \eqn{F(df_s, \infty)}, \eqn{F(df_s, df_e)} and
#' \eqn{F(df_s, df_t)},
#' \eqn{v = (MS_s^2 - F_1 MS_s MS_e + (F_1 - F_2) F_2 MS_e^2) / ((n_s - 1)
#' F_1 MS_s MS_e + F_3 MS_s MS_t)}, \eqn{\phi = n_s v / (n_s v + n_t)}, and
#' the bound for \eqn{n'} topics is \eqn{n'\phi/(1 + (n' - 1)\phi)}.
#' The topics needed for a target \eqn{\pi} are
#' \eqn{\lceil \pi \sigma^2_e / (\sigma^2_s (1 - \pi)) \rceil} for
#' \eqn{E\rho^2} and \eqn{\lceil \pi (\sigma^2_t + \sigma^2_e) / (\sigma^2_s
#' (1 - \pi)) \rceil} for \eqn{\Phi}, with an interval from the interval
#' bounds (\eqn{\lceil \pi/(U(1-\pi)) \rceil} to \eqn{\lceil \pi/(L(1-\pi))
#' \rceil}, and \eqn{\lceil \pi(1-\phi)/(\phi(1-\pi)) \rceil} for each
#' \eqn{\Phi} bound). `Inf` when a bound is not positive (no number of topics
#' reaches the target).
#' @references Feldt, L. S. (1965). The approximate sampling distribution of
#'   Kuder-Richardson reliability coefficient twenty. *Psychometrika* 30(3).
#'
#' Arteaga, C., Jeyaratnam, S. & Franklin, G. A. (1982). Confidence
#'   intervals for proportions of total variance in the two-way cross
#'   component of variance model. *Communications in Statistics* 11(15).
#' @export
d_study <- function(g, n_topics, target = 0.95, alpha = 0.025) {
  if (!inherits(g, "g_study")) g <- g_study(g)
  if (!is.numeric(n_topics) || !length(n_topics) || anyNA(n_topics) || any(n_topics < 1)) {
    stop_irtopics("{.arg n_topics} must be positive numbers of topics.")
  }
  check_probs(target, "target", "Target reliabilities, e.g. {.code target = 0.95}.")
  check_probs(alpha, "alpha", "A tail probability: {.code alpha = 0.025} gives 95% intervals.", scalar = TRUE,
              max = 0.5)
  n <- as.double(n_topics)
  out <- g_coefficients(g, n)
  b <- g_interval_bases(g, alpha)
  proj_e <- function(l) n * l / (1 + n * l)
  proj_p <- function(f) n * f / (1 + (n - 1) * f)
  out <- data.frame(n_topics = n, Erho2 = out$Erho2, Erho2_low = proj_e(b$L), Erho2_high = proj_e(b$U),
                    Phi = out$Phi, Phi_low = proj_p(b$phi_low), Phi_high = proj_p(b$phi_high))
  attr(out, "topics_needed") <- g_topics_needed(g, b, target)
  attr(out, "alpha") <- alpha
  attr(out, "g_settings") <- g_settings(g)
  attr(out, "measure") <- g$measure
  new_ir_d_study(out)
}

new_ir_d_study <- function(x) {
  new_result(x, "ir_d_study", old = "d_study", base = "data.frame",
             fields = c(n_topics = "numeric", Erho2 = "numeric", Phi = "numeric"),
             attrs = c(topics_needed = "any", alpha = "number", g_settings = "list", measure = "string?"))
}

# The settings of a G-study that its numbers depend on, for printing next to
# them: the `drop` proportion and how many systems it left.
g_settings <- function(g) {
  list(drop = g$drop %||% 0, n_systems = g$n_systems, n_dropped = length(g$dropped))
}

# "G-study of 30 of 40 systems (drop = 0.25)" or "G-study of all 40 systems (drop = 0)".
g_settings_text <- function(s) {
  if (is.null(s)) return("")
  if (s$n_dropped > 0) {
    sprintf("G-study of %d of %d systems, drop = %g (the %d below that quantile of system means left out)",
            s$n_systems, s$n_systems + s$n_dropped, s$drop, s$n_dropped)
  } else {
    sprintf("G-study of all %d systems, drop = %g", s$n_systems, s$drop)
  }
}

# The interval quantities of the D-study: L and U for Erho2 (per topic), and
# the per-topic phi at both ends for Phi. NA when the mean squares cannot
# support them (no residual or no system variance).
g_interval_bases <- function(g, a) {
  ms <- g_mean_squares(g)
  ms_s <- ms[["system"]]
  ms_t <- ms[["topic"]]
  ms_e <- ms[["residual"]]
  df_s <- g$df[["system"]]
  df_t <- g$df[["topic"]]
  df_e <- g$df[["residual"]]
  ns <- g$n_systems
  nt <- g$n_topics
  if (!(ms_e > 0) || !(ms_s > 0)) return(list(L = NA_real_, U = NA_real_, phi_low = NA_real_, phi_high = NA_real_))
  phi_at <- function(x) {
    f1 <- stats::qf(x, df_s, Inf)
    f2 <- stats::qf(x, df_s, df_e)
    f3 <- stats::qf(x, df_s, df_t)
    v <- (ms_s^2 - f1 * ms_s * ms_e + (f1 - f2) * f2 * ms_e^2) / ((ns - 1) * f1 * ms_s * ms_e + f3 * ms_s * ms_t)
    ns * v / (ns * v + nt)
  }
  list(L = (ms_s / (ms_e * stats::qf(1 - a, df_s, df_e)) - 1) / nt,
       U = (ms_s / (ms_e * stats::qf(a, df_s, df_e)) - 1) / nt,
       phi_low = phi_at(1 - a), phi_high = phi_at(a))
}

# Topics needed for each target, with the interval from the bounds.
g_topics_needed <- function(g, b, target) {
  v <- g_components(g)
  need <- function(num, den, p) {
    r <- p * num / (den * (1 - p))
    ifelse(is.na(r), NA_real_, ifelse(den > 0 & r >= 0, ceiling(r - 1e-9 * abs(r)), Inf))
  }
  rows <- lapply(target, function(p) {
    data.frame(coefficient = c("Erho2", "Phi"), target = p,
               n_topics = c(need(v[["residual"]], v[["system"]], p),
                            need(v[["topic"]] + v[["residual"]], v[["system"]], p)),
               conf.low = c(need(1, b$U, p), need(1 - b$phi_high, b$phi_high, p)),
               conf.high = c(need(1, b$L, p), need(1 - b$phi_low, b$phi_low, p)),
               stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

#' Topics needed for a target reliability
#'
#' The number of topics a collection like the one studied needs for
#' \eqn{E\rho^2} and \eqn{\Phi} to reach each target, with the interval
#' from the D-study's interval bounds (see [d_study()]).
#'
#' @param x A [d_study()] result, a [g_study()] or a score matrix.
#' @param target,alpha As in [d_study()] (ignored for an `ir_d_study`).
#' @return An `ir_topics_needed` data frame: `coefficient` (`"Erho2"`,
#'   `"Phi"`), `target`, `n_topics` (point estimate), `conf.low`,
#'   `conf.high`. It prints the settings that produced the numbers (the
#'   G-study's `drop` and the systems it kept, the interval level):
#'   `g_study(x)` keeps every system (`drop = 0`, the default here and in
#'   [collection_diagnostics()]), while Urbano, Marrero & Martín (2013) drop
#'   the bottom quarter (`drop = 0.25`), which can change the answer several
#'   fold (TREC-8 AP: 29 topics for an \eqn{E\rho^2} of .95 with every
#'   system, 97 without the bottom quarter).
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                              package = "irtopics"))
#' topics_needed(g_study(x, drop = 0.25))   # Erho2: 69 [37, 114]; Phi: 259 [130, 487]
#' @export
topics_needed <- function(x, target = 0.95, alpha = 0.025) {
  if (!inherits(x, "d_study")) x <- d_study(x, 1, target = target, alpha = alpha)
  out <- attr(x, "topics_needed")
  attr(out, "alpha") <- attr(x, "alpha")
  attr(out, "g_settings") <- attr(x, "g_settings")
  new_ir_topics_needed(out)
}

new_ir_topics_needed <- function(x) {
  new_result(x, "ir_topics_needed", base = "data.frame",
             fields = c(coefficient = "character", target = "numeric", n_topics = "numeric",
                        conf.low = "numeric", conf.high = "numeric"),
             attrs = c(alpha = "number?", g_settings = "list?"))
}

#' @rdname topics_needed
#' @param ... Unused.
#' @export
format.ir_topics_needed <- function(x, ...) {
  a <- attr(x, "alpha")
  head <- paste0("<ir_topics_needed> topics needed for a target reliability",
                 if (!is.null(a)) sprintf(", %g%% intervals", 100 * (1 - 2 * a)) else "")
  settings <- g_settings_text(attr(x, "g_settings"))
  c(head, if (nzchar(settings)) paste0(settings, ":"),
    printed_lines(print(as.data.frame(x), row.names = FALSE)))
}

#' @rdname topics_needed
#' @export
print.ir_topics_needed <- function(x, ...) print_formatted(x, ...)

#' @rdname topics_needed
#' @param object An `ir_topics_needed`.
#' @export
summary.ir_topics_needed <- function(object, ...) {
  new_summary("ir_topics_needed", "Topics needed for each target reliability (point estimate and interval):",
              as.data.frame(object))
}

#' @rdname topics_needed
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_topics_needed <- function(x, row.names = NULL, optional = FALSE, ...) {
  attr(x, "alpha") <- NULL
  attr(x, "g_settings") <- NULL
  class(x) <- "data.frame"
  x
}

#' @rdname g_study
#' @export
format.ir_g_study <- function(x, ...) {
  comp <- x$components
  comp$variance <- signif(comp$variance, 5)
  comp$percent <- round(comp$percent, 1)
  c(sprintf("<ir_g_study> %s x %s%s%s", plural(x$n_systems, "system"), plural(x$n_topics, "topic"),
            if (length(x$dropped)) sprintf(" (%d systems below the %g quantile of system means dropped)",
                                           length(x$dropped), x$drop) else "",
            if (x$truncate) " (negative components set to 0)" else ""),
    printed_lines(print(comp, row.names = FALSE)),
    sprintf("Erho2 = %.4f  Phi = %.4f", x$Erho2, x$Phi))
}

#' @rdname g_study
#' @export
print.ir_g_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.ir_g_study <- function(object, ...) {
  # The rule of topics_needed() (one function for both): the topics needed
  # for each target, the point estimates only.
  targets <- c(0.8, 0.9, 0.95)
  need <- g_topics_needed(object, g_interval_bases(object, 0.025), targets)
  tab <- data.frame(coefficient = c("Erho2", "Phi"), observed = c(object$Erho2, object$Phi))
  for (target in targets) {
    tab[[sprintf("topics_for_%.2f", target)]] <- need$n_topics[need$target == target]
  }
  new_summary("ir_g_study", sprintf("Reliability with %s and the topics needed for a target:",
                                 plural(object$n_topics, "topic")), tab)
}

#' @rdname g_study
#' @export
as.data.frame.ir_g_study <- function(x, row.names = NULL, optional = FALSE, ...) x$components

#' @rdname g_study
#' @export
format.ir_d_study <- function(x, ...) {
  out <- c(sprintf("<ir_d_study> projected reliability, %g%% intervals",
                   100 * (1 - 2 * (attr(x, "alpha") %||% 0.025))),
           printed_lines(print(structure(x, class = "data.frame", topics_needed = NULL, alpha = NULL, g_settings = NULL, measure = NULL),
                               row.names = FALSE, digits = 4)))
  need <- attr(x, "topics_needed")
  if (!is.null(need)) {
    settings <- g_settings_text(attr(x, "g_settings"))
    out <- c(out, paste0("Topics needed", if (nzchar(settings)) paste0(", from the ", settings) else "", ":"),
             printed_lines(print(need, row.names = FALSE)))
  }
  out
}

#' @rdname g_study
#' @export
print.ir_d_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.ir_d_study <- function(object, ...) {
  d <- as.data.frame(object)
  new_summary("ir_d_study", sprintf("Projected reliability from %g to %g topics:",
                                 min(d$n_topics), max(d$n_topics)),
              d[unique(c(1L, nrow(d))), , drop = FALSE])
}

#' @rdname g_study
#' @export
as.data.frame.ir_d_study <- function(x, row.names = NULL, optional = FALSE, ...) {
  attr(x, "topics_needed") <- NULL
  attr(x, "alpha") <- NULL
  attr(x, "g_settings") <- NULL
  attr(x, "measure") <- NULL
  class(x) <- "data.frame"
  x
}
