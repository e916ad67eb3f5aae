# Designing a test collection: topic set size (Sakai, "Topic set size
# design", Information Retrieval Journal 19, 2016), discriminative power
# (Sakai, SIGIR 2006) and the collection diagnostics table that combines them
# with the swap method and the G-study.

# Topic set size ----------------------------------------------------------------

#' Number of topics needed for a test, an ANOVA or a confidence interval
#'
#' Sakai's (2016) topic set size design: the smallest number of topics
#' \eqn{n \ge 2} that
#' * `type = "t"`: gives a paired t-test (two-sided, level `alpha`) power
#'   \eqn{1 - \beta} to detect a difference `min_diff` between two systems,
#'   i.e. the smallest \eqn{n} with
#'   `power.t.test(n, delta = min_diff, sd = sd_diff, sig.level = alpha, type = "paired")$power`
#'   \eqn{\ge 1 - \beta};
#' * `type = "anova"`: gives a one-way ANOVA over `m` systems power
#'   \eqn{1 - \beta} when the best and worst system means differ by
#'   `min_diff`: with \eqn{\Delta = minD^2 / (2\sigma^2)}, the smallest
#'   \eqn{n} with \eqn{1 - F_{m-1, m(n-1)}(q; n\Delta) \ge 1 - \beta}, where
#'   \eqn{q} is the \eqn{1 - \alpha} quantile of the central F distribution
#'   and \eqn{n\Delta} the non-centrality;
#' * `type = "ci"`: makes the expected full width of the
#'   \eqn{100(1 - \alpha)\%} confidence interval of a difference at most
#'   `width`: the smallest \eqn{n} with
#'   \eqn{2 t_{1-\alpha/2, n-1} \sigma_d (1 - 1/(4(n-1))) / \sqrt n \le} `width`
#'   (the last factor approximates \eqn{E[s]/\sigma}).
#'
#' The variance is the within-system (residual) variance \eqn{\sigma^2}:
#' given as `variance`, or estimated from a pilot matrix as the residual
#' mean square \eqn{V_E} of the two-way ANOVA ([anova_scores()]), as Sakai
#' recommends. The paired t-test and the interval use the variance of a
#' difference, \eqn{\sigma_d^2 = 2\sigma^2}, unless `sd_diff` is given or
#' `systems` names two systems of the pilot (then \eqn{\sigma_d} is the
#' standard deviation of their per-topic differences).
#'
#' `min_diff`, `width`, `alpha`, `beta` and `m` are vectorised: every
#' combination is computed, so that one call gives a table and
#' [autoplot()][autoplot.ir_topic_set_size] a plot of topics needed against
#' the difference, one line per number of systems or per \eqn{\alpha}.
#'
#' @section Reconstruction:
#' Sakai's Excel tools use normal approximations for the non-central t and
#' F distributions; the exact non-central distributions used here may need
#' one or two topics more or fewer than his published tables. The
#' \eqn{E[s]/\sigma} factor of the interval is the usual first-order
#' approximation.
#'
#' @param type `"t"` (paired t-test), `"anova"` (one-way ANOVA over `m`
#'   systems) or `"ci"` (confidence interval width).
#' @param min_diff Minimum detectable difference (types `"t"`, `"anova"`):
#'   positive numbers.
#' @param alpha Significance level(s), in (0, 1).
#' @param beta Type II error rate(s) (power \eqn{1 - \beta}), in (0, 1).
#' @param variance Within-system variance \eqn{\sigma^2}.
#' @param sd_diff Standard deviation of a per-topic difference
#'   \eqn{\sigma_d} (types `"t"`, `"ci"`; for `"anova"`,
#'   \eqn{\sigma^2 = \sigma_d^2 / 2}).
#' @param pilot A pilot score matrix (systems x topics, no NA) to estimate
#'   the variance from. Give exactly one of `variance`, `sd_diff`, `pilot`.
#' @param systems With `pilot`, two system names whose per-topic
#'   differences give \eqn{\sigma_d} (types `"t"`, `"ci"`).
#' @param m Number of systems (type `"anova"`), whole numbers \eqn{\ge 2}.
#' @param width Full width of the confidence interval (type `"ci"`).
#' @param max_topics The largest answer searched (at most \eqn{2^{53}}, the
#'   last whole number a double tells from its successor); larger answers are
#'   `NA`, with `NA` power or width and a warning. Never exceeded.
#' @return An `ir_topic_set_size` data frame, one row per combination:
#'   `type`, `m`, `alpha`, `beta`, `min_diff`, `width`, `variance`
#'   (\eqn{\sigma^2}), `sd_diff` (\eqn{\sigma_d}), `n_topics` (a whole
#'   number stored as a double, so that answers beyond the integer range are
#'   kept), and the
#'   achieved `power` (types `"t"`, `"anova"`) or expected `ci_width`.
#' @references Sakai, T. (2016). Topic set size design. *Information
#'   Retrieval Journal* 19(3), 256--283.
#' @seealso [g_study()] and [d_study()] for topics needed for a target
#'   reliability.
#' @examples
#' topic_set_size("t", min_diff = c(.05, .10), sd_diff = .15853)   # 81, 22
#' topic_set_size("anova", min_diff = .1, m = 3, variance = .021886)   # 44
#' topic_set_size("ci", width = .1, variance = .021886)   # 70
#' tss <- topic_set_size("anova", min_diff = seq(.05, .2, by = .01), m = c(2, 5, 10, 50),
#'                       variance = .02)
#' ggplot2::autoplot(tss)
#' @export
topic_set_size <- function(type = c("t", "anova", "ci"), min_diff = NULL, alpha = 0.05, beta = 0.20,
                           variance = NULL, sd_diff = NULL, pilot = NULL, systems = NULL, m = 2,
                           width = NULL, max_topics = 1e6) {
  type <- match_choice(type)
  check_probs(alpha, "alpha", "A significance level, e.g. {.code alpha = 0.05}.")
  if (type != "ci") check_probs(beta, "beta", "The type II error rate, e.g. {.code beta = 0.2} for 80% power.")
  # Beyond 2^53 consecutive whole numbers are no longer distinct doubles: the
  # bisection could not tell n from n + 1.
  check_number(max_topics, "max_topics", min = 2, max = 2^53)
  if (type == "ci") {
    check_positive(width, "width", "the full width of the interval, e.g. {.code width = 0.1}")
    if (!is.null(min_diff)) stop_irtopics("{.arg min_diff} is for types {.val t} and {.val anova}; give {.arg width} for {.code type = \"ci\"}.")
  } else {
    check_positive(min_diff, "min_diff", "the smallest difference to detect, e.g. {.code min_diff = 0.05}")
    if (!is.null(width)) stop_irtopics("{.arg width} is for {.code type = \"ci\"}; give {.arg min_diff} for type {.val {type}}.")
  }
  if (type == "anova") {
    if (!is.numeric(m) || !length(m) || anyNA(m) || any(m < 2) || any(m != round(m))) {
      stop_irtopics("{.arg m} must be whole numbers of systems, at least 2.")
    }
  } else if (!missing(m) && !identical(as.numeric(m), 2)) {
    stop_irtopics("{.arg m} is for {.code type = \"anova\"}; a paired t-test or interval compares 2 systems.")
  }
  v <- resolve_tss_variance(variance, sd_diff, pilot, systems, type)
  grid <- expand.grid(diff = if (type == "ci") width else min_diff, m = if (type == "anova") m else 2,
                      alpha = alpha, beta = if (type == "ci") NA_real_ else beta,
                      KEEP.OUT.ATTRS = FALSE)
  crit <- function(n, i) tss_criterion(type, n, grid$diff[i], grid$m[i], grid$alpha[i], v)
  goal <- if (type == "ci") grid$diff else 1 - grid$beta
  n <- vapply(seq_len(nrow(grid)), function(i) {
    ok <- if (type == "ci") function(n) crit(n, i) <= goal[i] else function(n) crit(n, i) >= goal[i]
    smallest_n(ok, max_topics)
  }, numeric(1))
  if (anyNA(n)) {
    warn_irtopics("More than {.val {max_topics}} topics would be needed for {sum(is.na(n))} setting{?s}: {.val NA}. Raise {.arg max_topics} or the difference.")
  }
  achieved <- vapply(seq_len(nrow(grid)), function(i) if (is.na(n[i])) NA_real_ else crit(n[i], i), numeric(1))
  out <- data.frame(type = type, m = as.integer(grid$m), alpha = grid$alpha, beta = grid$beta,
                    min_diff = if (type == "ci") NA_real_ else grid$diff,
                    width = if (type == "ci") grid$diff else NA_real_,
                    variance = v$variance, sd_diff = v$sd_diff, n_topics = n,
                    power = if (type == "ci") NA_real_ else achieved,
                    ci_width = if (type == "ci") achieved else NA_real_,
                    stringsAsFactors = FALSE)
  attr(out, "source") <- v$source
  new_ir_topic_set_size(out)
}

new_ir_topic_set_size <- function(x) {
  new_result(x, "ir_topic_set_size", base = "data.frame",
             fields = c(type = "character", m = "numeric", alpha = "numeric", variance = "numeric",
                        n_topics = "numeric"), attrs = c(source = "any"))
}

# sigma^2 and sigma_d from exactly one of variance / sd_diff / pilot.
resolve_tss_variance <- function(variance, sd_diff, pilot, systems, type, call = rlang::caller_env()) {
  given <- c(variance = !is.null(variance), sd_diff = !is.null(sd_diff), pilot = !is.null(pilot))
  if (sum(given) != 1L) {
    stop_irtopics(c("Give exactly one of {.arg variance}, {.arg sd_diff} and {.arg pilot}.",
                    i = "Supplied: {.val {if (any(given)) names(given)[given] else 'none'}}."), call = call)
  }
  if (!is.null(systems) && is.null(pilot)) {
    stop_irtopics("{.arg systems} selects two systems of {.arg pilot}; supply {.arg pilot} too.", call = call)
  }
  if (!is.null(variance)) {
    check_number(variance, "variance", min = .Machine$double.xmin, call = call)
    return(list(variance = variance, sd_diff = sqrt(2 * variance), source = "variance"))
  }
  if (!is.null(sd_diff)) {
    check_number(sd_diff, "sd_diff", min = .Machine$double.xmin, call = call)
    return(list(variance = sd_diff^2 / 2, sd_diff = sd_diff, source = "sd_diff"))
  }
  if (is.list(pilot) && !is.data.frame(pilot)) {
    stop_irtopics("{.arg pilot} must be one score matrix (systems x topics), not a list.", call = call)
  }
  p <- check_pilot(pilot, call = call)
  if (!is.null(systems)) {
    if (type == "anova") stop_irtopics("{.arg systems} is for types {.val t} and {.val ci}; the ANOVA uses the residual variance of all systems.", call = call)
    if (!is.character(systems) || length(systems) != 2L || anyNA(systems) || systems[1] == systems[2]) {
      stop_irtopics("{.arg systems} must name two different systems of {.arg pilot}.", call = call)
    }
    check_names_in(systems, rownames(p), arg = "systems", of = "pilot", call = call)
    d <- p[systems[1], ] - p[systems[2], ]
    s <- stats::sd(d)
    if (!(s > 0)) stop_irtopics("The per-topic differences of {.val {systems}} do not vary: no variance to design with.", kind = "data", call = call)
    return(list(variance = s^2 / 2, sd_diff = s, source = "pilot (difference of two systems)"))
  }
  ve <- anova_impl(p)$v_e
  if (!(ve > 0)) stop_irtopics("The residual variance of {.arg pilot} is 0: no variance to design with.", kind = "data", call = call)
  list(variance = ve, sd_diff = sqrt(2 * ve), source = "pilot (residual variance V_E)")
}

# A pilot matrix: complete, at least 2 x 2 (check_scores() names a missing cell and the fix).
check_pilot <- function(pilot, call = rlang::caller_env()) {
  check_scores(pilot, allow_na = FALSE, min_systems = 2L, min_topics = 2L, arg = "pilot", call = call)
}

# Power (t, anova) or expected interval width (ci) with n topics.
tss_criterion <- function(type, n, diff, m, alpha, v) {
  switch(type,
    t = {
      nu <- n - 1
      stats::pt(stats::qt(alpha / 2, nu, lower.tail = FALSE), nu, ncp = sqrt(n) * diff / v$sd_diff,
                lower.tail = FALSE)
    },
    anova = {
      df2 <- m * (n - 1)
      stats::pf(stats::qf(1 - alpha, m - 1, df2), m - 1, df2, ncp = n * diff^2 / (2 * v$variance),
                lower.tail = FALSE)
    },
    ci = 2 * stats::qt(1 - alpha / 2, n - 1) * v$sd_diff * (1 - 1 / (4 * (n - 1))) / sqrt(n))
}

# The smallest whole n in [2, max_n] with ok(n) (ok monotone in n), or NA
# when even floor(max_n) fails. max_n <= 2^53, so every n tried is an exact
# whole double and lo < mid < hi holds until hi = lo + 1 (the search ends).
smallest_n <- function(ok, max_n) {
  max_n <- floor(max_n)
  if (ok(2)) return(2)
  lo <- 2
  hi <- min(4, max_n)
  while (!ok(hi)) {
    if (hi >= max_n) return(NA_real_)
    lo <- hi
    hi <- min(hi * 2, max_n)
  }
  while (hi - lo > 1) {
    mid <- lo + floor((hi - lo) / 2)
    if (ok(mid)) hi <- mid else lo <- mid
  }
  hi
}

# Numbers strictly between 0 and `max` (one when `scalar`), else a classed
# error naming the argument, with `hint` as the fix.
check_probs <- function(x, arg, hint = NULL, scalar = FALSE, max = 1, call = rlang::caller_env()) {
  if (!is.numeric(x) || !length(x) || (scalar && length(x) != 1L) || anyNA(x) || any(x <= 0 | x >= max)) {
    stop_irtopics(c("{.arg {arg}} must be {if (scalar) 'a number' else 'numbers'} strictly between 0 and {max}.",
                    x = "Got {show_values(x)}.", i = hint), call = call)
  }
  invisible(x)
}

check_positive <- function(x, arg, what, call = rlang::caller_env()) {
  if (is.null(x)) stop_irtopics(c("{.arg {arg}} is required.", i = paste0("Give ", what, ".")), call = call)
  if (!is.numeric(x) || !length(x) || anyNA(x) || any(!is.finite(x)) || any(x <= 0)) {
    stop_irtopics(c("{.arg {arg}} must be positive numbers.", x = "Got {show_values(x)}.",
                    i = paste0("Give ", what, ".")), call = call)
  }
  invisible(x)
}

#' @rdname topic_set_size
#' @param x An `ir_topic_set_size` object.
#' @param ... Unused.
#' @export
format.ir_topic_set_size <- function(x, ...) {
  type <- x$type[1]
  head <- sprintf("<ir_topic_set_size> %s; sigma^2 = %.6g, sigma_d = %.6g (%s)",
                  switch(type, t = "paired t-test", anova = "one-way ANOVA", ci = "confidence interval width"),
                  x$variance[1], x$sd_diff[1], attr(x, "source") %||% "")
  cols <- switch(type, t = c("min_diff", "alpha", "beta", "n_topics", "power"),
                 anova = c("m", "min_diff", "alpha", "beta", "n_topics", "power"),
                 ci = c("width", "alpha", "n_topics", "ci_width"))
  body <- as.data.frame(lapply(unclass(x)[cols], function(v) if (is.double(v)) signif(v, 4) else v))
  # whole numbers of topics, in full (they can exceed the integer range)
  body$n_topics <- ifelse(is.na(x$n_topics), NA_character_, format(x$n_topics, scientific = FALSE, trim = TRUE))
  c(head, printed_lines(print(body, row.names = FALSE)))
}

#' @rdname topic_set_size
#' @export
print.ir_topic_set_size <- function(x, ...) print_formatted(x, ...)

#' @rdname topic_set_size
#' @param object An `ir_topic_set_size` object.
#' @export
summary.ir_topic_set_size <- function(object, ...) {
  new_summary("ir_topic_set_size", sprintf("Topics needed (%s), one row per setting:", object$type[1]),
              as.data.frame(object))
}

#' @rdname topic_set_size
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_topic_set_size <- function(x, row.names = NULL, optional = FALSE, ...) {
  attr(x, "source") <- NULL
  class(x) <- "data.frame"
  x
}

#' Plot topics needed against the difference
#'
#' One line per number of systems (ANOVA) or per significance level, with
#' \eqn{\beta} as line type when several are given; a legend only for what
#' varies. Built on the current ggplot2 theme (see [irtopics_figures]).
#'
#' @param object An `ir_topic_set_size` object.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot.
#' @examples
#' tss <- topic_set_size("t", min_diff = seq(.03, .15, by = .01), alpha = c(.01, .05),
#'                       variance = .02)
#' ggplot2::autoplot(tss)
#' @method autoplot ir_topic_set_size
#' @export
autoplot.ir_topic_set_size <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_topic_set_size")
  d <- as.data.frame(object)
  type <- d$type[1]
  d$x <- if (type == "ci") d$width else d$min_diff
  by_m <- type == "anova" && length(unique(d$m)) > 1L
  d$group <- if (by_m) d$m else d$alpha
  d$group <- factor(d$group, levels = sort(unique(d$group)))
  d$beta_lab <- factor(ifelse(is.na(d$beta), "", format(d$beta)))
  # lines join the sizes of a curve; one size per curve is drawn as points alone
  curves <- length(unique(d$x)) > 1L
  p <- ggplot2::ggplot(d, ggplot2::aes(.data$x, .data$n_topics, colour = .data$group)) +
    if (curves) ggplot2::geom_line(ggplot2::aes(linetype = .data$beta_lab))
  p <- p + ggplot2::geom_point(size = if (curves) 1 else 2) +
    ggplot2::scale_x_continuous(breaks = function(l) pretty(l, n = 4)) +
    ggplot2::labs(x = if (type == "ci") "Full width of the confidence interval" else "Minimum detectable difference",
                  y = "Topics needed", colour = if (by_m) "Systems" else expression(alpha),
                  linetype = if (curves) expression(beta)) +
    plot_labels(title = switch(type, t = "Topic set size: paired t-test", anova = "Topic set size: one-way ANOVA",
                               ci = "Topic set size: confidence interval")) +
    title_theme(legend = TRUE)
  # a legend only for what varies
  if (nlevels(d$beta_lab) < 2L) p <- p + ggplot2::guides(linetype = "none")
  if (nlevels(d$group) < 2L) p <- p + ggplot2::guides(colour = "none")
  p
}
