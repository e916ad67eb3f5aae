#' Plot projected reliability (D-study)
#'
#' The generalizability coefficient \eqn{E\rho^2} (relative decisions; equal
#' to Cronbach's alpha at the observed number of topics) and the
#' dependability index \eqn{\Phi} (absolute decisions) against the number
#' of topics, from [d_study()], with the intervals of [d_study()] as bands;
#' for a [g_study()] the projection runs from 1 to twice the observed number
#' of topics, which is marked by a dotted line. The target is a dashed line;
#' the caption says what both lines are. Built on the current ggplot2 theme
#' (see [irtopics_figures]).
#'
#' @param object A [g_study()] or [d_study()] result.
#' @param n_topics For an `ir_g_study`: the topic-set sizes to project to.
#' @param target Target reliability drawn as a dashed line (`NULL`: none).
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_g_study
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv",
#'                              package = "irtopics"))
#' g <- g_study(x)
#' ggplot2::autoplot(g)
#' ggplot2::autoplot(d_study(g, c(5, 10, 25, 50, 100)))
#' @export
autoplot.ir_g_study <- function(object, n_topics = NULL, target = 0.95, ...) {
  check_no_dots(..., help = "autoplot.ir_g_study")
  n_topics <- n_topics %||% seq_len(2L * object$n_topics)
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  d_study_plot(d_study(object, n_topics), target = target, measure = object$measure, observed = object$n_topics)
}

#' @rdname autoplot.ir_g_study
#' @param measure For an `ir_d_study`: the measure's name for the title
#'   (default: the one its G-study recorded).
#' @method autoplot ir_d_study
#' @export
autoplot.ir_d_study <- function(object, target = 0.95, measure = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_g_study")
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  d_study_plot(object, target, measure %||% attr(object, "measure"))
}

# The D-study figure; `observed`: the G-study's number of topics, a dotted line.
d_study_plot <- function(object, target, measure, observed = NULL) {
  k <- nrow(object)
  d <- data.frame(n_topics = rep(object$n_topics, 2L),
                  coefficient = factor(rep(c("Erho2", "Phi"), each = k), levels = c("Erho2", "Phi")),
                  value = c(object$Erho2, object$Phi),
                  low = c(object$Erho2_low %||% rep(NA_real_, k), object$Phi_low %||% rep(NA_real_, k)),
                  high = c(object$Erho2_high %||% rep(NA_real_, k), object$Phi_high %||% rep(NA_real_, k)))
  # the two coefficients by their symbols, in one legend (colour, shape, fill)
  symbols <- coefficient_symbols()
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$n_topics, y = .data$value, colour = .data$coefficient,
                                       shape = .data$coefficient)) +
    ggplot2::geom_line() +
    sparse_points(k) +
    ggplot2::geom_ribbon(data = complete_bounds("low", "high"),
                         ggplot2::aes(ymin = .data$low, ymax = .data$high, fill = .data$coefficient),
                         alpha = 0.15, colour = NA, na.rm = TRUE) +
    ggplot2::scale_colour_discrete(labels = symbols) + ggplot2::scale_shape_discrete(labels = symbols) +
    ggplot2::scale_fill_discrete(labels = symbols)
  if (!is.null(target)) {
    p <- p + ggplot2::geom_hline(yintercept = target, linetype = "dashed", colour = "grey30")
  }
  if (!is.null(observed)) {
    p <- p + ggplot2::geom_vline(xintercept = observed, linetype = "dotted", colour = "grey40")
  }
  note <- c(if (!is.null(target)) sprintf("Dashed: the target, %s.", format(target)),
            if (!is.null(observed)) sprintf("Dotted: the %s topics observed.", format(observed)))
  # "Reliability": the title says projected (a longer y title is cut at 2.6 in)
  p + ggplot2::labs(x = "Number of topics", y = "Reliability", colour = NULL, shape = NULL,
                    fill = NULL) +
    plot_labels(title = wrap_text(sprintf("D-study%s: projected reliability", if (is.null(measure)) "" else
                  paste0(" of ", measure))),
                subtitle = coefficient_subtitle(),
                note = if (length(note)) paste(note, collapse = " ")) +
    title_theme(legend = TRUE)
}

# E rho^2 and Phi as plotmath, for legends and strips, and the subtitle that
# says what each is for.
coefficient_symbols <- function() expression(Erho2 = E * rho^2, Phi = Phi)
# (the symbol last: plotmath draws a colon after Phi into the letter)
coefficient_subtitle <- function() quote(paste("Ranking systems: ", E * rho^2, "; absolute scores: ", Phi))

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
#'
#'   With fewer than 3 systems (or topics) the estimates mean nothing: with
#'   2 systems the system variance has 1 degree of freedom, \eqn{E\rho^2}
#'   can be far below 0 and the intervals of [d_study()] span hundreds;
#'   `g_study()` and `d_study()` then warn (`irtopics_warning_too_few`).
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
  warn_g_study_few(ns, nt)
  # The ANOVA in units of a power of two near the largest score (exact, see
  # pow2_scale()): the coefficients, intervals and topics needed are ratios
  # and come from these scaled values, so they stay right for scores around
  # 1e-300 whose variances (~1e-600) underflow in the original units.
  unit <- pow2_scale(m)
  a <- anova_impl(m / unit)
  ms_s <- a$s_a / a$df_a
  ms_t <- a$s_b / a$df_b
  ms_e <- a$v_e
  # A mean square at the level of rounding error of the sums of squares
  # (relative 1e-12 of the data's mean square) is 0: identical systems give
  # a residual of ~1e-33 that would otherwise project reliabilities of 5.
  noise <- 1e-12 * mean((m / unit)^2)
  if (ms_s <= noise) ms_s <- 0
  if (ms_t <= noise) ms_t <- 0
  if (ms_e <= noise) ms_e <- 0
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

# With 2 systems the variance between systems has 1 degree of freedom:
# E rho^2 (Cronbach's alpha) can be far below 0 and the F quantiles of its
# interval put the bounds anywhere (-200 to 1); with 2 topics the same holds
# for the variance between topics and Phi. A warning each (issue 40).
warn_g_study_few <- function(ns, nt) {
  warn_too_few(ns, 3L, "system", "E rho^2, Phi and their intervals",
               sprintf("The variance between systems has %d degree of freedom: E rho^2 can be far below 0 and its interval spans hundreds.", ns - 1L))
  warn_too_few(nt, 3L, "topic", "Phi and its interval",
               sprintf("The variance between topics has %d degree of freedom.", nt - 1L))
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
  if (inherits(g, "g_study")) warn_g_study_few(g$n_systems, g$n_topics) else g <- g_study(g)
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
