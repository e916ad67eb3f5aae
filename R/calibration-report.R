# Test calibration: the methods of ir_calibration (print, format, summary,
# as.data.frame) and its plots. The results come from test_calibration()
# (R/calibration-run.R).

# Methods -------------------------------------------------------------------

# Type I verdicts: the count of rejections k = rate * trials (undefined
# p-values count as non-rejections) is judged by an exact binomial test
# against alpha, equal-tailed at `level` (default 99%): "liberal" when
# P(X >= k) <= (1 - level) / 2 under Binomial(trials, alpha), "conservative"
# when P(X <= k) <= (1 - level) / 2, else "at nominal". The standard error of
# the estimate is not used: at a rate of 0 it is 0, and 0 rejections in 500
# trials at alpha = .001 (61% likely for a calibrated test) was called
# "conservative" (issue 29).
calibration_verdict <- function(rate, trials, alpha, level = 0.99) {
  k <- round(rate * trials)
  tail <- (1 - level) / 2
  upper <- stats::pbinom(k - 1, trials, alpha, lower.tail = FALSE)  # P(X >= k)
  lower <- stats::pbinom(k, trials, alpha)                          # P(X <= k)
  ifelse(k > trials * alpha & upper <= tail, "liberal",
         ifelse(k < trials * alpha & lower <= tail, "conservative", "at nominal"))
}

# The verdicts' `level`, checked (format() and summary() of a calibration).
check_verdict_level <- function(level, call = rlang::caller_env()) {
  check_number(level, "level", min = 0, max = 1, call = call)
  if (level <= 0 || level >= 1) {
    stop_irtopics("{.arg level} must be strictly between 0 and 1, not {level}.", call = call)
  }
  level
}

calibration_cells <- function(x, error, a, alt = "two.sided") {
  tab <- x$table
  tab[tab$error == error & abs(tab$alpha - a) < 1e-12 & tab$alternative == alt, , drop = FALSE]
}

#' @rdname test_calibration
#' @param level Confidence of the verdicts of `format()`, `print()` and
#'   `summary()`: a test is called liberal (conservative) when an exact
#'   binomial test of its count of rejections (undefined p-values count as
#'   non-rejections) against `alpha`, equal-tailed at this level, finds the
#'   count too high (too low); otherwise "at nominal".
#' @export
format.ir_calibration <- function(x, level = 0.99, ...) {
  level <- check_verdict_level(level)
  cols <- x$model$collections
  n_sys <- sum(vapply(cols, function(col) length(col$systems), 1L))
  out <- c(sprintf("<ir_calibration> %s: %s (%s after preparation); %s trials per setting, B = %s",
                   x$model$measure, plural(length(cols), "collection"), plural(n_sys, "system"),
                   format(x$trials, big.mark = ","), format(x$B, big.mark = ",")),
           calibration_interval_text(x), calibration_refits_advice(x))
  for (a in x$alpha) {
    t1 <- calibration_cells(x, "type1", a)
    verdict <- calibration_verdict(t1$rate, t1$trials, a, level)
    mark <- c(liberal = "+", conservative = "-", "at nominal" = " ")[verdict]
    text <- paste0(pct_text(t1$rate), mark)
    shown <- data.frame(topics = x$n_topics)
    for (test in x$tests) shown[[test]] <- text[t1$test == test][match(x$n_topics, t1$n_topics[t1$test == test])]
    out <- c(out, "", sprintf("Type I error at alpha = %s (two-sided; + liberal, - conservative: exact binomial test of the count at %s%%):",
                              format(a), format(100 * level)),
             printed_lines(print(shown, row.names = FALSE)))
    out <- c(out, calibration_interval_lines(x, t1, a))
    for (n in x$n_topics) {
      sel <- t1$n_topics == n
      v <- verdict[sel]
      tests <- as.character(t1$test[sel])
      say <- function(kind) {
        k <- v == kind
        if (!any(k)) "none" else paste(sprintf("%s (%s)", tests[k], pct_text(t1$rate[sel][k])), collapse = ", ")
      }
      out <- c(out, sprintf("  %d topics: liberal: %s; conservative: %s.", n, say("liberal"), say("conservative")))
    }
    if (length(x$delta)) {
      pw <- calibration_cells(x, "power", a)
      shown <- unique(pw[, c("n_topics", "delta")])
      key <- paste(pw$n_topics, pw$delta)
      for (test in x$tests) {
        sel <- pw$test == test
        shown[[test]] <- pct_text(pw$rate[sel][match(paste(shown$n_topics, shown$delta), key[sel])])
      }
      names(shown)[1:2] <- c("topics", "delta")
      out <- c(out, "", sprintf("Power at alpha = %s (two-sided):", format(a)),
               printed_lines(print(shown, row.names = FALSE)))
      t3 <- calibration_cells(x, "type3", a)
      worst <- t3[which.max(t3$rate), ]
      out <- c(out, sprintf("Type III errors at alpha = %s: at most %s (%s, %d topics, delta %s).", format(a),
                            pct_text(worst$rate, 3), worst$test, worst$n_topics, format(worst$delta)))
    }
  }
  c(out, "", "# as.data.frame() has every rate with its Monte Carlo standard error and interval; autoplot() draws them")
}

# Which interval the results carry (print, plots).
calibration_interval_text <- function(x) {
  if ((x$refits %||% 0) == 0) {
    return("95% intervals: Monte Carlo error only (the fitted model taken as exact; refits = 0)")
  }
  sprintf("95%% intervals: Monte Carlo error and the model's fitting error (%d refits on half the topics, %s trials each)",
          as.integer(x$refits), format(x$refit_trials, big.mark = ","))
}

# The Type I intervals with the model's uncertainty (only with refits).
calibration_interval_lines <- function(x, t1, a) {
  if ((x$refits %||% 0) == 0) return(character())
  cell <- sprintf("%s-%s", pct_text(t1$conf.low), pct_text(t1$conf.high))
  shown <- data.frame(topics = x$n_topics)
  for (test in x$tests) shown[[test]] <- cell[t1$test == test][match(x$n_topics, t1$n_topics[t1$test == test])]
  c(sprintf("95%% interval with the model's uncertainty (%d refits):", as.integer(x$refits)),
    printed_lines(print(shown, row.names = FALSE)))
}

#' @rdname test_calibration
#' @export
print.ir_calibration <- function(x, ...) print_formatted(x, ...)

#' @rdname test_calibration
#' @param object An `ir_calibration` (for `summary()`).
#' @export
summary.ir_calibration <- function(object, level = 0.99, ...) {
  level <- check_verdict_level(level)
  t1 <- object$table[object$table$error %in% c("type1", "power", "type3") &
                       object$table$alpha %in% object$alpha & object$table$alternative == "two.sided", ]
  t1$verdict <- ifelse(t1$error == "type1", calibration_verdict(t1$rate, t1$trials, t1$alpha, level),
                       NA_character_)
  # (results stored before the interval columns existed)
  for (nm in setdiff(c("model_se", "conf.low", "conf.high"), names(t1))) t1[[nm]] <- rep(NA_real_, nrow(t1))
  new_summary("ir_calibration", c(format(object, level = level)[1], calibration_interval_text(object)),
              t1[, c("test", "n_topics", "delta", "alpha", "error", "rate", "se", "model_se", "conf.low", "conf.high",
                     "verdict")])
}

#' @rdname test_calibration
#' @param x An `ir_calibration`.
#' @param row.names,optional Unused (for the generic).
#' @param ... Unused.
#' @export
as.data.frame.ir_calibration <- function(x, row.names = NULL, optional = FALSE, ...) x$table

# Labelled effect sizes on the x axis: the deltas themselves when they are
# few and evenly enough spaced that no two labels meet in a narrow panel,
# else a few round values (those outside the data are not drawn).
delta_breaks <- function(delta) {
  delta <- sort(unique(delta))
  if (length(delta) <= 4L && (length(delta) < 2L || min(diff(delta)) >= diff(range(delta)) / 3)) return(delta)
  pretty(range(delta), n = 2L)
}

#' Plot test calibration
#'
#' `type = "type1"`: the Type I error rate against the significance level,
#' one line per test and a panel per topic-set size; the dashed diagonal is
#' perfect calibration (a line above it is a liberal test). `type =
#' "power"`: power against the effect size delta at level `alpha`.
#' `type = "type3"`: Type III error rate against delta. The dark band is
#' the 95% interval of the Monte Carlo error alone (\eqn{\pm 1.96} SE);
#' with `test_calibration(refits = )` a lighter band around it is the 95%
#' interval that includes the model's fitting error (`conf.low`,
#' `conf.high` of the table). Type III rates are small and close together,
#' so there the intervals are bars (thin: Monte Carlo; thick: with the
#' model), the tests side by side at each delta, rather than bands that
#' would overlap. The subtitle says which intervals are drawn. Built on the
#' current ggplot2 theme (see [irtopics_figures]); the legend of tests is
#' below the panels, and absent for one test.
#' @param object An `ir_calibration`.
#' @param type `"type1"`, `"power"` or `"type3"`.
#' @param alpha The level of the power and Type III plots (default: the
#'   first of the call's `alpha`).
#' @param alternative `"two.sided"` or `"greater"` (one-sided).
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' cal <- test_calibration(read_scores(path, measure = "AP")[1:15, ], n_topics = 25,
#'                         delta = c(0.02, 0.05), trials = 300, B = 200, seed = 1)
#' ggplot2::autoplot(cal)
#' ggplot2::autoplot(cal, type = "power")
#' @export
autoplot.ir_calibration <- function(object, type = c("type1", "power", "type3"), alpha = NULL,
                                    alternative = c("two.sided", "greater"), ...) {
  check_no_dots(..., help = "autoplot.ir_calibration")
  type <- match_choice(type, c("type1", "power", "type3"), arg_name = "type")
  alternative <- match_choice(alternative, c("two.sided", "greater"), arg_name = "alternative")
  tab <- object$table
  tab <- tab[tab$alternative == alternative & tab$error == type, , drop = FALSE]
  if (!nrow(tab)) {
    stop_irtopics(c("This calibration has no {type} rates{if (alternative == 'greater') ' for one-sided tests' else ''}.",
                    i = if (type != "type1") "Run {.fn test_calibration} with effect sizes {.arg delta}."))
  }
  tab$facet <- factor(sprintf("%d topics", tab$n_topics), levels = sprintf("%d topics", object$n_topics))
  tab$low <- pmax(0, tab$rate - stats::qnorm(0.975) * tab$se)
  tab$high <- pmin(1, tab$rate + stats::qnorm(0.975) * tab$se)
  with_model <- (object$refits %||% 0) > 0
  # the model band: a layer only with refits (its data empty otherwise)
  model_band <- if (with_model) {
    ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high), alpha = 0.12, colour = NA)
  }
  # what the intervals are: bands (type1, power) or bars (type3)
  bands <- if (with_model) {
    sprintf(if (type == "type3") "95%%: Monte Carlo (thin bars), + model (thick, %d refits)" else
      "95%%: Monte Carlo (dark), + model (light, %d refits)", as.integer(object$refits))
  } else {
    sprintf("95%% %s: Monte Carlo only", if (type == "type3") "bars" else "bands")
  }
  n_tests <- length(levels(tab$test))
  colours <- line_colours(n_tests)
  side <- if (alternative == "two.sided") "two-sided" else "one-sided"
  if (type == "type1") {
    p <- ggplot2::ggplot(tab, ggplot2::aes(.data$alpha, .data$rate, colour = .data$test, fill = .data$test)) +
      ggplot2::geom_abline(slope = 1, intercept = 0, linetype = "dashed", colour = "grey40") +
      model_band +
      ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$low, ymax = .data$high), alpha = 0.25, colour = NA) +
      ggplot2::geom_line() +
      ggplot2::scale_x_continuous(breaks = function(l) pretty(l, n = 3)) +
      ggplot2::labs(x = expression("significance level" ~ alpha), y = "Type I error") +
      plot_labels(title = sprintf("Type I errors of %s tests, %s", side, object$model$measure),
                  subtitle = wrap_text(sprintf("%s trials each; %s",
                                               format(object$trials, big.mark = ","), bands), 46L))
  } else {
    a <- alpha %||% object$alpha[1]
    check_number(a, "alpha", min = 0, max = 1)
    tab <- tab[abs(tab$alpha - a) < 1e-12, , drop = FALSE]
    if (!nrow(tab)) stop_irtopics("{.arg alpha} = {a} is not a level of this calibration.")
    what <- if (type == "power") "Power" else "Type III errors"
    p <- ggplot2::ggplot(tab, ggplot2::aes(.data$delta, .data$rate, colour = .data$test, fill = .data$test))
    if (type == "power") {
      p <- p + model_band +
        ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$low, ymax = .data$high), alpha = 0.25, colour = NA) +
        ggplot2::geom_line() + ggplot2::geom_point(size = 1.2)
    } else {
      # Type III rates are small and close together: bands of several tests
      # would lie on top of each other, so each test's intervals are bars,
      # side by side at each delta
      dodge <- ggplot2::position_dodge(width = 0.6 * min(diff(sort(unique(tab$delta))), Inf,
                                                         max(abs(tab$delta)) / 4, na.rm = TRUE))
      p <- p + (if (with_model) {
        ggplot2::geom_linerange(ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high), alpha = 0.4,
                                linewidth = 1.5, position = dodge)
      }) +
        ggplot2::geom_linerange(ggplot2::aes(ymin = .data$low, ymax = .data$high), position = dodge) +
        ggplot2::geom_line(position = dodge, alpha = 0.5) + ggplot2::geom_point(size = 1.2, position = dodge)
    }
    p <- p +
      ggplot2::scale_x_continuous(breaks = delta_breaks(object$delta)) +
      ggplot2::labs(x = expression("effect size" ~ delta),
                    y = if (type == "power") "power" else "Type III error rate") +
      plot_labels(title = bquote(.(sprintf("%s of %s tests, %s,", what, side, object$model$measure)) ~
                                   alpha == .(format(a))),
                  subtitle = wrap_text(sprintf("%s trials each; %s", format(object$trials, big.mark = ","),
                                               bands), 46L))
  }
  p <- p + ggplot2::facet_wrap(~facet, nrow = 1) +
    ggplot2::scale_colour_manual(values = colours, name = NULL) +
    ggplot2::scale_fill_manual(values = colours, name = NULL) +
    # more than 3 tests: two rows of keys below the panels (one row is cut at
    # 3.5 in); rows, not one column, so the legend also sits well on the right
    (if (n_tests > 3L) {
      ggplot2::guides(colour = rows_legend(nrow = 2L, byrow = TRUE),
                      fill = rows_legend(nrow = 2L, byrow = TRUE))
    }) +
    title_theme(legend = TRUE) +
    ggplot2::theme(panel.spacing.x = ggplot2::unit(1.5, "lines"), legend.key.size = ggplot2::unit(0.8, "lines"),
                   legend.text = ggplot2::element_text(size = ggplot2::rel(0.7)))
  if (n_tests < 2L) p <- p + ggplot2::guides(colour = "none", fill = "none")
  p
}
