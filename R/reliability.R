# Reliability of a test collection: Cronbach's alpha (Bodoff & Li 2007,
# Mandl 2009; spec 5.2) and generalizability theory (Brennan 2001): the
# G-study of a crossed systems x topics design and D-study projections.

#' Cronbach's alpha of a score matrix
#'
#' Systems are the cases and topics the items (Bodoff & Li 2007; Mandl
#' 2009): with \eqn{k} topics,
#' \deqn{\alpha = \frac{k}{k-1}\left(1 - \frac{\sum_t \mathrm{Var}(X_{\cdot t})}{\mathrm{Var}(\sum_t X_{\cdot t})}\right),}
#' variances over systems. Equals `psych::alpha(scores)$total$raw_alpha`
#' and the G-study's \eqn{E\rho^2} ([g_study()]). It can be negative (topics
#' that order the systems in opposite ways) and is not clamped. Computed in
#' C++ from centred columns with compensated sums, the same code as
#' [group_agreement()], [alpha_bootstrap()] and [alpha_curve()].
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
  a <- cpp_alpha(m, matrix(0L, 0L, 0L), 1L)
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
  out <- with_progress_measure(measure, unlist(run_chunks(plan, function(idx, threads) {
    cpp_alpha(m, sets[, idx, drop = FALSE], threads)
  }, n_threads = n_threads, what = what), use.names = FALSE))
  out[is.nan(out)] <- NA_real_
  out
}

#' Bootstrap interval for Cronbach's alpha
#'
#' Resamples the topics with replacement `B` times (the systems stay fixed,
#' as the question is how much alpha depends on the particular topics) and
#' reports the percentile interval of the bootstrap alphas beside Feldt's
#' (1965) F-distribution interval, \eqn{[1 - (1 - \hat\alpha) F_{1-a},
#' 1 - (1 - \hat\alpha) F_{a}]} with \eqn{F(n_s - 1, (n_s - 1)(n_t - 1))}
#' quantiles (the \eqn{E\rho^2} interval of [d_study()] at the observed
#' number of topics).
#'
#' The draws are made in R after `set.seed(seed)` (your random state is
#' restored), so the result is the same for any `n_threads` and any
#' `future` plan.
#'
#' @inheritParams cronbach_alpha
#' @param B Number of bootstrap samples.
#' @param conf Confidence level of the intervals, in (0, 1).
#' @param seed Random seed (a whole number), or `NULL` to use the current
#'   random stream.
#' @inheritParams irtopics_threads
#' @return An `ir_alpha_bootstrap` object: `$estimate`, `$conf.low`,
#'   `$conf.high` (percentile interval, `quantile()` type 7), `$feldt`
#'   (the Feldt interval), `$draws` (the `B` bootstrap alphas, `NA` where
#'   undefined), `$indices` (the topics drawn: an \eqn{n_t \times B}
#'   integer matrix of column numbers), `$B`, `$conf`, `$seed`.
#' @references Feldt, L. S. (1965). The approximate sampling distribution of
#'   Kuder-Richardson reliability coefficient twenty. *Psychometrika* 30(3).
#'
#' Bodoff, D. & Li, P. (2007). Test theory for assessing IR test
#'   collections. *SIGIR 2007*, 367--374.
#' @seealso [alpha_curve()] for alpha against the number of topics.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' bt <- alpha_bootstrap(ap, B = 200, seed = 1)
#' bt
#' ggplot2::autoplot(bt)
#' @export
alpha_bootstrap <- function(scores, B = 1000, conf = 0.95, seed = NULL, n_threads = irtopics_threads()) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 3L, min_topics = 2L)
  check_number(B, "B", min = 1, integer = TRUE)
  check_conf(conf)
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
  structure(list(estimate = alpha_impl(m), conf.low = q[1], conf.high = q[2],
                 feldt = feldt_interval(m, a), draws = draws, indices = idx,
                 B = as.integer(B), conf = conf, seed = seed, measure = measure,
                 n_systems = nrow(m), n_topics = nt),
            class = "ir_alpha_bootstrap")
}

# Feldt's interval for alpha: the D-study's Erho2 interval at n' = n_t.
feldt_interval <- function(m, a) {
  d <- d_study(g_study(m), ncol(m), alpha = a)
  c(conf.low = d$Erho2_low, conf.high = d$Erho2_high)
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
  c(sprintf("<ir_alpha_bootstrap> Cronbach's alpha%s: %d systems x %d topics, %d bootstrap samples of topics",
            if (!is.null(x$measure)) paste0(" (", x$measure, ")") else "", x$n_systems, x$n_topics, x$B),
    sprintf("alpha = %.4f", x$estimate),
    sprintf("%g%% bootstrap percentile interval: [%.4f, %.4f]", pct, x$conf.low, x$conf.high),
    sprintf("%g%% Feldt interval:                [%.4f, %.4f]", pct, x$feldt[[1]], x$feldt[[2]]),
    if (anyNA(x$draws)) sprintf("%d samples with undefined alpha left out", sum(is.na(x$draws))))
}

#' @rdname alpha_bootstrap
#' @export
print.ir_alpha_bootstrap <- function(x, ...) print_formatted(x, ...)

#' @rdname alpha_bootstrap
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_alpha_bootstrap <- function(x, row.names = NULL, optional = FALSE, ...) {
  data.frame(method = c("bootstrap", "feldt"), estimate = x$estimate,
             conf.low = c(x$conf.low, x$feldt[[1]]), conf.high = c(x$conf.high, x$feldt[[2]]),
             conf = x$conf)
}

#' @rdname alpha_bootstrap
#' @param object An `ir_alpha_bootstrap` object.
#' @export
summary.ir_alpha_bootstrap <- function(object, ...) as.data.frame(object)

#' @rdname alpha_bootstrap
#' @method autoplot ir_alpha_bootstrap
#' @export
autoplot.ir_alpha_bootstrap <- function(object, ...) {
  d <- data.frame(alpha = object$draws[!is.na(object$draws)])
  lines <- data.frame(value = c(object$estimate, object$conf.low, object$conf.high, object$feldt),
                      what = factor(c("estimate", "bootstrap", "bootstrap", "Feldt", "Feldt"),
                                    levels = c("estimate", "bootstrap", "Feldt")))
  ggplot2::ggplot(d, ggplot2::aes(x = .data$alpha)) +
    ggplot2::geom_histogram(bins = 40, fill = "grey70", colour = "white") +
    ggplot2::geom_vline(data = lines, ggplot2::aes(xintercept = .data$value, colour = .data$what,
                                                   linetype = .data$what)) +
    ggplot2::labs(x = "Cronbach's alpha of a bootstrap sample of topics", y = "Samples",
                  colour = NULL, linetype = NULL,
                  title = sprintf("Bootstrap distribution of alpha (%d samples, %g%% intervals)",
                                  object$B, 100 * object$conf)) +
    ggplot2::theme_bw()
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
                    x = "Got {.val {format(sizes)}}."))
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
  structure(list(curve = curve, draws = draws, sets = sets, trials = as.integer(trials), conf = conf,
                 seed = seed, measure = measure, n_systems = nrow(m), n_topics = nt),
            class = "ir_alpha_curve")
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
summary.ir_alpha_curve <- function(object, ...) object$curve

#' @rdname alpha_curve
#' @method autoplot ir_alpha_curve
#' @export
autoplot.ir_alpha_curve <- function(object, ...) {
  d <- object$curve
  ggplot2::ggplot(d, ggplot2::aes(x = .data$n_topics)) +
    ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high), fill = "steelblue",
                         alpha = 0.2, na.rm = TRUE) +
    ggplot2::geom_line(ggplot2::aes(y = .data$mean, linetype = "mean over subsets"), colour = "steelblue") +
    ggplot2::geom_point(ggplot2::aes(y = .data$mean), colour = "steelblue", size = 1) +
    ggplot2::geom_line(ggplot2::aes(y = .data$projected, linetype = "G-study projection"), colour = "grey30") +
    ggplot2::scale_linetype_manual(values = c("mean over subsets" = "solid", "G-study projection" = "dashed")) +
    ggplot2::labs(x = "Number of topics", y = "Cronbach's alpha", linetype = NULL,
                  title = sprintf("Alpha of random topic subsets (%d per size, %g%% ranges)",
                                  object$trials, 100 * object$conf)) +
    ggplot2::theme_bw()
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
#' @return A `g_study` object: `$components` (data frame: `component`,
#'   `variance`, `percent`), `$mean_squares`, `$df`, `$Erho2`, `$Phi`,
#'   `$n_systems`, `$n_topics` (after dropping), `$dropped` (names).
#'   The coefficients are `NA` when their denominator is 0 (e.g. a constant
#'   matrix), as Cronbach's alpha is. `as.data.frame()` returns
#'   `$components`; `summary()` the coefficients and the topics needed for
#'   \eqn{E\rho^2} and \eqn{\Phi} of 0.8, 0.9 and 0.95 (an
#'   [irtopics_summary]).
#' @param x,object A `g_study` or `d_study` object.
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
                    x = "Got {.val {format(drop)}}.", i = "Use {.code drop = 0} to keep every system, {.code drop = 0.25} to drop the bottom quarter."))
  }
  dropped <- character()
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
  a <- anova_impl(m)
  ms_s <- a$s_a / a$df_a
  ms_t <- a$s_b / a$df_b
  ms_e <- a$v_e
  comp <- c(system = (ms_s - ms_e) / nt, topic = (ms_t - ms_e) / ns, residual = ms_e)
  if (truncate) comp <- pmax(comp, 0)
  out <- structure(list(
    components = data.frame(component = names(comp), variance = unname(comp),
                            percent = if (sum(pmax(comp, 0)) > 0) 100 * unname(comp) / sum(pmax(comp, 0))
                                      else NA_real_),
    mean_squares = c(system = ms_s, topic = ms_t, residual = ms_e),
    df = c(system = a$df_a, topic = a$df_b, residual = a$df_e),
    n_systems = ns, n_topics = nt, truncate = truncate, drop = drop, dropped = dropped,
    measure = attr(m, "measure")
  ), class = "g_study")
  coef <- g_coefficients(out, nt)
  out$Erho2 <- coef$Erho2
  out$Phi <- coef$Phi
  out
}

g_coefficients <- function(g, n) {
  v <- stats::setNames(g$components$variance, g$components$component)
  ratio <- function(num, den) ifelse(den == 0, NA_real_, num / den)
  data.frame(n_topics = n,
             Erho2 = ratio(v[["system"]], v[["system"]] + v[["residual"]] / n),
             Phi = ratio(v[["system"]], v[["system"]] + (v[["topic"]] + v[["residual"]]) / n))
}

#' @rdname g_study
#' @param g A `g_study` object, or a score matrix (a G-study is run first).
#' @param n_topics Topic-set sizes to project to.
#' @param target Target reliability (or several) for the topics needed, in
#'   (0, 1).
#' @param alpha Tail probability on each side of the intervals, in (0, 0.5):
#'   `0.025` gives 95% intervals.
#' @return `d_study()`: a `d_study` data frame with columns `n_topics`,
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
  structure(out, class = c("d_study", "data.frame"), topics_needed = g_topics_needed(g, b, target),
            alpha = alpha)
}

# The interval quantities of the D-study: L and U for Erho2 (per topic), and
# the per-topic phi at both ends for Phi. NA when the mean squares cannot
# support them (no residual or no system variance).
g_interval_bases <- function(g, a) {
  ms <- g$mean_squares
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
  v <- stats::setNames(g$components$variance, g$components$component)
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
#' @param target,alpha As in [d_study()] (ignored for a `d_study`).
#' @return A data frame: `coefficient` (`"Erho2"`, `"Phi"`), `target`,
#'   `n_topics` (point estimate), `conf.low`, `conf.high`.
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                              package = "irtopics"))
#' topics_needed(g_study(x, drop = 0.25))   # Erho2: 69 [37, 114]; Phi: 259 [130, 487]
#' @export
topics_needed <- function(x, target = 0.95, alpha = 0.025) {
  if (!inherits(x, "d_study")) x <- d_study(x, 1, target = target, alpha = alpha)
  attr(x, "topics_needed")
}

#' @rdname g_study
#' @export
format.g_study <- function(x, ...) {
  comp <- x$components
  comp$variance <- signif(comp$variance, 5)
  comp$percent <- round(comp$percent, 1)
  c(sprintf("<g_study> %s x %s%s%s", plural(x$n_systems, "system"), plural(x$n_topics, "topic"),
            if (length(x$dropped)) sprintf(" (%d systems below the %g quantile of system means dropped)",
                                           length(x$dropped), x$drop) else "",
            if (x$truncate) " (negative components set to 0)" else ""),
    printed_lines(print(comp, row.names = FALSE)),
    sprintf("Erho2 = %.4f  Phi = %.4f", x$Erho2, x$Phi))
}

#' @rdname g_study
#' @export
print.g_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.g_study <- function(object, ...) {
  v <- stats::setNames(object$components$variance, object$components$component)
  if (object$truncate) v <- pmax(v, 0)
  # topics needed for a target: n' = target/(1 - target) * (error / sigma2(s))
  need <- function(target, err) {
    if (!is.finite(v[["system"]]) || v[["system"]] <= 0) return(NA_real_)
    ceiling(target / (1 - target) * err / v[["system"]])
  }
  tab <- data.frame(coefficient = c("Erho2", "Phi"), observed = c(object$Erho2, object$Phi))
  for (target in c(0.8, 0.9, 0.95)) {
    tab[[sprintf("topics_for_%.2f", target)]] <- c(need(target, v[["residual"]]),
                                                   need(target, v[["topic"]] + v[["residual"]]))
  }
  new_summary("g_study", sprintf("Reliability with %s and the topics needed for a target:",
                                 plural(object$n_topics, "topic")), tab)
}

#' @rdname g_study
#' @export
as.data.frame.g_study <- function(x, row.names = NULL, optional = FALSE, ...) x$components

#' @rdname g_study
#' @export
format.d_study <- function(x, ...) {
  out <- c(sprintf("<d_study> projected reliability, %g%% intervals",
                   100 * (1 - 2 * (attr(x, "alpha") %||% 0.025))),
           printed_lines(print(structure(x, class = "data.frame", topics_needed = NULL, alpha = NULL),
                               row.names = FALSE, digits = 4)))
  need <- attr(x, "topics_needed")
  if (!is.null(need)) out <- c(out, "Topics needed:", printed_lines(print(need, row.names = FALSE)))
  out
}

#' @rdname g_study
#' @export
print.d_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.d_study <- function(object, ...) {
  d <- as.data.frame(object)
  new_summary("d_study", sprintf("Projected reliability from %g to %g topics:",
                                 min(d$n_topics), max(d$n_topics)),
              d[unique(c(1L, nrow(d))), , drop = FALSE])
}

#' @rdname g_study
#' @export
as.data.frame.d_study <- function(x, row.names = NULL, optional = FALSE, ...) {
  attr(x, "topics_needed") <- NULL
  attr(x, "alpha") <- NULL
  class(x) <- "data.frame"
  x
}
