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
#' \eqn{\beta} as line type when several are given.
#'
#' @param object An `ir_topic_set_size` object.
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' tss <- topic_set_size("t", min_diff = seq(.03, .15, by = .01), alpha = c(.01, .05),
#'                       variance = .02)
#' ggplot2::autoplot(tss)
#' @method autoplot ir_topic_set_size
#' @export
autoplot.ir_topic_set_size <- function(object, ...) {
  d <- as.data.frame(object)
  type <- d$type[1]
  d$x <- if (type == "ci") d$width else d$min_diff
  d$group <- if (type == "anova" && length(unique(d$m)) > 1L) paste0("m = ", d$m) else paste0("alpha = ", d$alpha)
  d$group <- factor(d$group, levels = unique(d$group[order(d$m, d$alpha)]))
  d$beta_lab <- factor(ifelse(is.na(d$beta), "", paste0("beta = ", d$beta)))
  p <- ggplot2::ggplot(d, ggplot2::aes(.data$x, .data$n_topics, colour = .data$group)) +
    ggplot2::geom_line(ggplot2::aes(linetype = .data$beta_lab)) +
    ggplot2::geom_point(size = 1) +
    ggplot2::labs(x = if (type == "ci") "Full width of the confidence interval" else "Minimum detectable difference",
                  y = "Topics needed", colour = NULL, linetype = NULL,
                  title = switch(type, t = "Topic set size: paired t-test", anova = "Topic set size: one-way ANOVA",
                                 ci = "Topic set size: confidence interval")) +
    ggplot2::theme_minimal()
  if (length(levels(d$beta_lab)) < 2L) p <- p + ggplot2::guides(linetype = "none")
  p
}

# Discriminative power --------------------------------------------------------

#' Discriminative power of evaluation measures
#'
#' Sakai's (2006) discriminative power: run a significance test on every
#' pair of systems and report the share of pairs found significantly
#' different at level `alpha`. Several measures over the same systems and
#' topics (a named list of score matrices) are compared on the same random
#' draws, so they differ only by their scores:
#' * `method = "bootstrap"` (default): Sakai's studentized paired
#'   bootstrap test on each pair. With \eqn{d_j} the per-topic differences,
#'   \eqn{t_0 = \bar d / (s_d / \sqrt n)}; the shifted differences
#'   \eqn{w_j = d_j - \bar d} are resampled over topics `B` times, and the
#'   achieved significance level (ASL) is \eqn{(c + 1)/(B + 1)}, where
#'   \eqn{c} counts the samples with \eqn{|t^*| \ge |t_0|}. One
#'   \eqn{B \times n} bootstrap index matrix
#'   serves every pair and every measure.
#' * `method = "rthsd"`: the p-values of one randomised Tukey HSD
#'   (Carterette 2012): `B` matrices whose scores are permuted across
#'   systems within each topic; a pair's p-value is \eqn{(c + 1)/(B + 1)},
#'   where \eqn{c} counts the permuted matrices whose range of system means
#'   is at least the pair's difference. This controls the familywise error
#'   over all pairs and so is more conservative.
#'
#' Resampled statistics equal to the observed one (within a relative
#' \eqn{10^{-9}}) count as at least as extreme: IR scores are discrete and
#' ties are frequent. The observed data count as one of the \eqn{B + 1}
#' equally likely arrangements (Phipson & Smyth 2010), so no p-value is
#' below \eqn{1/(B + 1)}: with `alpha = 0.05` a pair can be significant only
#' when \eqn{B \ge 20}. (Earlier versions of irtopics used \eqn{c / B},
#' which can be 0 and is anti-conservative.)
#'
#' Per measure the result also gives the estimated *difference required*:
#' the smallest absolute difference of means among the significant pairs
#' (Sakai 2006 estimates it from the bootstrap samples; this simpler
#' estimate uses the observed differences of the pairs found significant).
#' A pair whose per-topic differences do not vary has no t statistic: its
#' p-value is `NA` and it counts as not significant (`n_undefined`).
#'
#' The random draws come from a counter-based generator keyed by `seed` and
#' the replicate number, so results are identical for any `n_threads`,
#' chunking and `future` plan; with `seed = NULL` the key is drawn from R's
#' random stream (`set.seed()` beforehand reproduces it) and stored in the
#' result.
#'
#' @param scores A score matrix ([ir_scores][as_ir_scores] or numeric,
#'   systems x topics, no NA), or a named list of them (one per measure)
#'   over the same systems and topics (their order may differ).
#' @param method `"bootstrap"` or `"rthsd"`.
#' @param alpha Significance level, in (0, 1).
#' @param B Number of bootstrap samples (or permuted matrices).
#' @param seed Random seed (a whole number), or `NULL`.
#' @inheritParams irtopics_threads
#' @return An `ir_discriminative_power` object: `$summary` (one row per
#'   measure: `measure`, `n_pairs`, `n_significant`,
#'   `discriminative_power`, `difference_required`, `n_undefined`),
#'   `$pairs` (one row per measure and pair: `measure`, `system1`,
#'   `system2`, `estimate` = mean of system1 minus mean of system2,
#'   `p.value`, `significant`), and the parameters (`method`, `alpha`, `B`,
#'   `seed`: the key used).
#' @references Sakai, T. (2006). Evaluating evaluation metrics based on the
#'   bootstrap. *SIGIR 2006*, 525--532.
#'
#' Carterette, B. (2012). Multiple testing in statistical analysis of
#'   systems-based information retrieval experiments. *ACM TOIS* 30(1).
#'
#' Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be
#'   zero: calculating exact p-values when permutations are randomly drawn.
#'   *Statistical Applications in Genetics and Molecular Biology* 9(1), 39.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:20]
#' dp <- discriminative_power(list(AP = ap[keep, ], `P@10` = p10[keep, ]), B = 200, seed = 1)
#' dp
#' ggplot2::autoplot(dp)
#' @export
discriminative_power <- function(scores, method = c("bootstrap", "rthsd"), alpha = 0.05, B = 1000,
                                 seed = NULL, n_threads = irtopics_threads()) {
  user_call <- environment()
  mats <- check_score_list(scores)
  method <- match_choice(method)
  check_probs(alpha, "alpha", "A significance level, e.g. {.code alpha = 0.05}.", scalar = TRUE)
  check_number(B, "B", min = 1, integer = TRUE)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  key <- resample_key(seed)
  B <- as.integer(B)
  m1 <- mats[[1]]
  pr <- utils::combn(nrow(m1), 2L)
  first <- pr[1, ]
  second <- pr[2, ]
  per <- lapply(names(mats), function(nm) {
    x <- mats[[nm]]
    p <- with_progress_measure(nm, if (method == "bootstrap") {
      bootstrap_pvalues(x, first, second, B, key, n_threads)
    } else {
      rthsd_pvalues(x, first, second, rthsd_ranges(x, B, key, n_threads, call = user_call))
    })
    means <- rowMeans(x)
    data.frame(measure = nm, system1 = rownames(x)[first], system2 = rownames(x)[second],
               estimate = unname(means[first] - means[second]), p.value = p,
               significant = !is.na(p) & p < alpha, stringsAsFactors = FALSE)
  })
  pairs <- do.call(rbind, per)
  summary <- do.call(rbind, lapply(per, function(d) {
    sig <- d$significant
    data.frame(measure = d$measure[1], n_pairs = nrow(d), n_significant = sum(sig),
               discriminative_power = mean(sig),
               difference_required = if (any(sig)) min(abs(d$estimate[sig])) else NA_real_,
               n_undefined = sum(is.na(d$p.value)), stringsAsFactors = FALSE)
  }))
  new_ir_discriminative_power(list(summary = summary, pairs = pairs, method = method, alpha = alpha, B = B,
                                   seed = key, n_systems = nrow(m1), n_topics = ncol(m1)))
}

new_ir_discriminative_power <- function(x) {
  new_result(x, "ir_discriminative_power",
             fields = c(summary = "data.frame", pairs = "data.frame", method = "string", alpha = "number",
                        B = "number", n_systems = "number", n_topics = "number"))
}

# One matrix or a named list of matrices over the same systems and topics:
# a named list of complete double matrices in the first one's order.
check_score_list <- function(scores, arg = "scores", min_topics = 2L, call = rlang::caller_env()) {
  if (is.list(scores) && !is.data.frame(scores)) {
    if (!length(scores)) stop_irtopics("{.arg {arg}} must hold at least one score matrix.", call = call)
    nms <- names(scores)
    if (is.null(nms)) {
      nms <- vapply(scores, function(s) attr(s, "measure") %||% "", character(1))
    }
    if (any(!nzchar(nms)) || anyDuplicated(nms)) {
      stop_irtopics(c("{.arg {arg}} must be a list named by measure, with distinct names.",
                      i = "For example {.code list(AP = ap, `P@10` = p10)}."), call = call)
    }
    mats <- lapply(seq_along(scores), function(k) {
      check_scores(scores[[k]], allow_na = FALSE, min_systems = 2L, min_topics = min_topics,
                   arg = sprintf("%s$%s", arg, nms[k]), call = call)
    })
  } else {
    m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = min_topics, arg = arg, call = call)
    mats <- list(m)
    nms <- attr(m, "measure") %||% "score"
  }
  names(mats) <- nms
  ref <- mats[[1]]
  for (k in seq_along(mats)[-1]) {
    x <- mats[[k]]
    for (dim in c("systems", "topics")) {
      a <- if (dim == "systems") rownames(ref) else colnames(ref)
      b <- if (dim == "systems") rownames(x) else colnames(x)
      if (!setequal(a, b) || length(a) != length(b)) {
        only_ref <- setdiff(a, b)
        only_x <- setdiff(b, a)
        stop_irtopics(c("The score matrices of {.arg {arg}} must share their {dim}: {.val {nms[1]}} and {.val {nms[k]}} differ.",
                        x = if (length(only_ref)) "Only in {.val {nms[1]}}: {.val {utils::head(only_ref, 10)}}{if (length(only_ref) > 10) ', ...' else ''}.",
                        x = if (length(only_x)) "Only in {.val {nms[k]}}: {.val {utils::head(only_x, 10)}}{if (length(only_x) > 10) ', ...' else ''}.",
                        i = "Subset them to the common {dim} first, e.g. {.code x[common_systems, common_topics]}."),
                      kind = "data", call = call)
      }
    }
    mats[[k]] <- x[rownames(ref), colnames(ref), drop = FALSE]
  }
  lapply(mats, function(x) {
    attr(x, "measure") <- NULL
    x
  })
}

#' @rdname discriminative_power
#' @param x An `ir_discriminative_power` object.
#' @param ... Unused.
#' @export
format.ir_discriminative_power <- function(x, ...) {
  s <- x$summary
  body <- data.frame(measure = s$measure,
                     significant = sprintf("%d/%d", s$n_significant, s$n_pairs),
                     power = sprintf("%.1f%%", 100 * s$discriminative_power),
                     difference_required = ifelse(is.na(s$difference_required), "-",
                                                  formatC(s$difference_required, digits = 4, format = "f")),
                     stringsAsFactors = FALSE)
  c(sprintf("<ir_discriminative_power> %s, alpha = %g, B = %d: %d systems (%d pairs) x %d topics",
            if (x$method == "bootstrap") "paired bootstrap test" else "randomised Tukey HSD",
            x$alpha, x$B, x$n_systems, s$n_pairs[1], x$n_topics),
    printed_lines(print(body, row.names = FALSE)),
    if (any(s$n_undefined > 0)) sprintf("Pairs with constant differences (no test, not significant): %s",
                                        paste0(s$measure, " ", s$n_undefined, collapse = ", ")))
}

#' @rdname discriminative_power
#' @export
print.ir_discriminative_power <- function(x, ...) print_formatted(x, ...)

#' @rdname discriminative_power
#' @param object An `ir_discriminative_power` object.
#' @export
summary.ir_discriminative_power <- function(object, ...) {
  new_summary("ir_discriminative_power",
              sprintf("Discriminative power at alpha = %g (%s, B = %d):", object$alpha,
                      if (object$method == "bootstrap") "paired bootstrap test" else "randomised Tukey HSD",
                      object$B),
              object$summary)
}

#' @rdname discriminative_power
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_discriminative_power <- function(x, row.names = NULL, optional = FALSE, ...) x$pairs

#' Plot achieved significance level curves
#'
#' Sakai's ASL curves: each measure's pair p-values sorted increasingly and
#' drawn against the pair rank, all measures in one plot, with the
#' significance level as a horizontal line. A curve that stays lower (more
#' pairs below the line) belongs to a more discriminative measure.
#'
#' @param object An `ir_discriminative_power` or `ir_collection_diagnostics`
#'   object.
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:15]
#' ggplot2::autoplot(discriminative_power(list(AP = ap[keep, ], `P@10` = p10[keep, ]),
#'                                        B = 200, seed = 1))
#' @method autoplot ir_discriminative_power
#' @export
autoplot.ir_discriminative_power <- function(object, ...) {
  d <- object$pairs
  d$p.value[is.na(d$p.value)] <- 1
  d <- d[order(match(d$measure, object$summary$measure), d$p.value), , drop = FALSE]
  d$rank <- stats::ave(seq_len(nrow(d)), d$measure, FUN = seq_along)
  d$measure <- factor(d$measure, levels = object$summary$measure)
  ggplot2::ggplot(d, ggplot2::aes(x = .data$rank, y = .data$p.value, colour = .data$measure)) +
    ggplot2::geom_line() +
    ggplot2::geom_hline(yintercept = object$alpha, linetype = "dashed", colour = "grey40") +
    ggplot2::labs(x = "System pairs sorted by ASL", y = "Achieved significance level", colour = NULL,
                  title = wrap_text(sprintf("ASL curves (%s, B = %d)",
                                            if (object$method == "bootstrap") "paired bootstrap" else "randomised Tukey HSD",
                                            object$B)),
                  subtitle = sprintf("Dashed: alpha = %s", format(object$alpha))) +
    ggplot2::theme_bw() + title_theme()
}

# Collection diagnostics --------------------------------------------------------

#' Diagnostics of measures on a test collection, side by side
#'
#' One row per measure (a named list of score matrices over the same
#' systems and topics): the swap-method error rate at `n_topics` topics
#' ([swap_error_rates()], system means compared), the discriminative power
#' on the whole collection ([discriminative_power()]), \eqn{E\rho^2} and
#' \eqn{\Phi} of the G-study projected to `n_topics` topics, and the
#' topics needed for \eqn{E\rho^2} to reach `target`, with its interval
#' ([g_study()], [d_study()]).
#'
#' @param scores A named list of score matrices (or one matrix).
#' @param n_topics Topic-set size for the swap error rate and the
#'   reliability projections: a whole number from 2 to half the number of
#'   topics (the swap method needs two disjoint sets). Default: half.
#' @param target Target \eqn{E\rho^2} for the topics needed, in (0, 1).
#' @param alpha Significance level of the discriminative power.
#' @param B Bootstrap samples of the discriminative power (its p-values are
#'   \eqn{(c + 1)/(B + 1)}, see [discriminative_power()]).
#' @param trials,fuzz Swap-method trials and fuzziness (see
#'   [swap_error_rates()]).
#' @param drop Passed to [g_study()]: `0` (the default, as in [g_study()])
#'   keeps every system; `0.25` drops the bottom quarter as Urbano, Marrero &
#'   Martín (2013) do, which can change the topics needed several fold. The
#'   printed table names the setting used.
#' @param seed Random seed, or `NULL`.
#' @inheritParams irtopics_threads
#' @return An `ir_collection_diagnostics` object: `$table` (one row per
#'   measure: `measure`, `n_topics`, `swap_error_rate`,
#'   `discriminative_power`, `difference_required`, `Erho2`, `Phi`,
#'   `topics_needed`, `topics_needed_low`, `topics_needed_high`), and the
#'   parts: `$power`, `$swap` (list), `$g_study` (list).
#' @section Reconstruction:
#' The table combines existing analyses (no paper gives this exact table):
#' the swap error rate and the reliability projections are at `n_topics`,
#' the discriminative power on all topics of the collection.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:20]
#' cd <- collection_diagnostics(list(AP = ap[keep, ], `P@10` = p10[keep, ]), n_topics = 25,
#'                              B = 200, trials = 50, seed = 1)
#' cd
#' ggplot2::autoplot(cd)
#' @export
collection_diagnostics <- function(scores, n_topics = NULL, target = 0.95, alpha = 0.05, B = 1000,
                                   trials = 500, fuzz = 0.05, drop = 0, seed = NULL, n_threads = irtopics_threads()) {
  mats <- check_score_list(scores, min_topics = 4L)
  nt <- ncol(mats[[1]])
  half <- nt %/% 2L
  n_topics <- n_topics %||% half
  if (!is.numeric(n_topics) || length(n_topics) != 1L || is.na(n_topics) || n_topics != round(n_topics) ||
      n_topics < 2 || n_topics > half) {
    stop_irtopics(c("{.arg n_topics} must be a whole number from 2 to half the number of topics ({half} of {nt}).",
                    x = "Got {show_values(n_topics)}.",
                    i = "The swap method compares two disjoint topic sets of that size."))
  }
  check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.", scalar = TRUE)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  power <- discriminative_power(mats, alpha = alpha, B = B, seed = seed, n_threads = n_threads)
  # One draw of topic sets for every measure: with seed = NULL the swap seed
  # is drawn once from R's stream (so set.seed() reproduces it), not once per
  # measure, so the measures are compared on the same topic sets.
  swap_seed <- seed %||% sample.int(.Machine$integer.max, 1L)
  swap <- lapply(names(mats), function(nm) {
    swap_error_rates(mats[[nm]], sizes = n_topics, trials = trials, fuzz = fuzz, seed = swap_seed,
                     n_threads = n_threads, label = nm, keep_sets = FALSE)
  })
  gs <- lapply(mats, g_study, drop = drop)
  rows <- lapply(seq_along(mats), function(k) {
    d <- d_study(gs[[k]], n_topics, target = target)
    need <- attr(d, "topics_needed")[1, ]
    data.frame(measure = names(mats)[k], n_topics = as.integer(n_topics),
               swap_error_rate = swap[[k]]$error$error_rate,
               discriminative_power = power$summary$discriminative_power[k],
               difference_required = power$summary$difference_required[k],
               Erho2 = d$Erho2, Phi = d$Phi, topics_needed = need$n_topics,
               topics_needed_low = need$conf.low, topics_needed_high = need$conf.high,
               stringsAsFactors = FALSE)
  })
  names(swap) <- names(gs) <- names(mats)
  new_ir_collection_diagnostics(list(table = do.call(rbind, rows), power = power, swap = swap, g_study = gs,
                                     target = target, drop = drop, n_systems = nrow(mats[[1]]), n_topics = nt))
}

new_ir_collection_diagnostics <- function(x) {
  new_result(x, "ir_collection_diagnostics",
             fields = c(table = "data.frame", power = "list", swap = "list", g_study = "list",
                        target = "number", drop = "number", n_systems = "number", n_topics = "number"))
}

#' @rdname collection_diagnostics
#' @param x An `ir_collection_diagnostics` object.
#' @param ... Unused.
#' @export
format.ir_collection_diagnostics <- function(x, ...) {
  t <- x$table
  body <- data.frame(measure = t$measure,
                     swap_error = sprintf("%.2f%%", 100 * t$swap_error_rate),
                     disc_power = sprintf("%.1f%%", 100 * t$discriminative_power),
                     diff_required = formatC(t$difference_required, digits = 4, format = "f"),
                     Erho2 = sprintf("%.4f", t$Erho2), Phi = sprintf("%.4f", t$Phi),
                     topics_needed = sprintf("%g [%g, %g]", t$topics_needed, t$topics_needed_low,
                                             t$topics_needed_high),
                     stringsAsFactors = FALSE)
  c(sprintf("<ir_collection_diagnostics> %d systems x %d topics; swap error, Erho2 and Phi at %d topics; topics needed for Erho2 = %g",
            x$n_systems, x$n_topics, t$n_topics[1], x$target),
    sprintf("Erho2, Phi and topics needed (95%% interval) from the %s.",
            g_settings_text(g_settings(x$g_study[[1]]))),
    printed_lines(print(body, row.names = FALSE)))
}

#' @rdname collection_diagnostics
#' @export
print.ir_collection_diagnostics <- function(x, ...) print_formatted(x, ...)

#' @rdname collection_diagnostics
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_collection_diagnostics <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname collection_diagnostics
#' @param object An `ir_collection_diagnostics` object.
#' @export
summary.ir_collection_diagnostics <- function(object, ...) {
  new_summary("ir_collection_diagnostics",
              sprintf("Collection diagnostics per measure (%d systems x %d topics):", object$n_systems,
                      object$n_topics),
              object$table)
}

#' @rdname autoplot.ir_discriminative_power
#' @method autoplot ir_collection_diagnostics
#' @export
autoplot.ir_collection_diagnostics <- function(object, ...) ggplot2::autoplot(object$power)
