#' Plot error rate against the threshold
#'
#' The error rate at every grid value of [critical_values()], one line per
#' topic-set size, with the target error rate as a dashed line: the critical
#' value is where a line first drops below it.
#'
#' @param object A [critical_values()] result.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_critical_values
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' e <- swap_error_rates(ap, sizes = c(10, 20), aggregate = "area", trials = 30, seed = 1)
#' ggplot2::autoplot(critical_values(e))
#' @export
autoplot.ir_critical_values <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_critical_values")
  d <- object$curves
  d <- d[!is.na(d$error_rate), , drop = FALSE]
  d$size <- factor(d$size)
  n_sizes <- nlevels(d$size)
  ggplot2::ggplot(d, ggplot2::aes(x = .data$value, y = 100 * .data$error_rate, colour = .data$size)) +
    ggplot2::geom_line() +
    ggplot2::geom_hline(yintercept = 100 * object$max_error, linetype = "dashed") +
    ggplot2::scale_colour_manual(values = line_colours(n_sizes), guide = if (n_sizes > 1L) "legend" else "none") +
    # few x ticks: differences such as 0.005 take room, and collide at one column
    ggplot2::scale_x_continuous(n.breaks = 4) +
    plot_labels(x = if (object$unit == "topics") sprintf("Difference in %s (topics)", object$measure) else
                  sprintf("Absolute difference in %s", object$measure),
                y = "Error rate (%)", colour = "Topic-set size",
                title = wrap_text(sprintf("Critical values of %s", object$measure)),
                subtitle = sprintf("Dashed: the target error rate, %s", pct_text(object$max_error, 0))) +
    title_theme(legend = n_sizes > 1L)
}

# Critical values -------------------------------------------------------------

#' Critical values of a measure for a target error rate
#'
#' The smallest absolute score difference for which the swap method's error
#' rate is at most `max_error` (5%), per topic-set size, with the percentage
#' of comparisons whose difference reaches it (the paper's "% significant",
#' Voorhees 2004, Table 6).
#'
#' * `definition = "swap"` (default): per trial and system pair, a
#'   *decision* is a difference \eqn{|D_1| \ge c} on the trial's first topic
#'   set; it is a *swap* when the difference \eqn{D_2} on the second set has
#'   the opposite sign. error(c) = swaps / decisions. With `both_sets =
#'   TRUE` a swap also needs \eqn{|D_2| \ge c}.
#' * `definition = "threshold"`: step 3 of [swap_error_rates()] with the
#'   relative fuzziness replaced by the absolute threshold (EQ iff
#'   \eqn{|a - b| < c}): error(c) = \eqn{\sum_{pairs}\min(GT, LT)} / all
#'   comparisons, % significant = \eqn{\#(|a - b| \ge c)} / all
#'   comparisons.
#'
#' Under both definitions, % significant is the share of all comparisons
#' (system pairs x topic sets, both sets of every trial) whose difference
#' reaches the critical value: \eqn{100\,\#(|a - b| \ge c)} / (pairs x
#' `2 * trials`).
#'
#' For %no (`aggregate = "pct_no"`) differences are counted in whole topics
#' and the grid is 0, 1, 2, ... topics; the critical value is also reported
#' as a percentage of the topic-set size.
#'
#' @section Reconstruction:
#' The definition is reconstructed: only the first pages of the papers
#' that define it (Buckley & Voorhees 2000; Voorhees & Buckley 2002) could
#' be read. The threshold reading of the text reaches 5% at the first grid
#' points on the Robust 2004 data, which cannot be what the paper did. The
#' swap-based definition, with area divided by 12 at every size
#' (`area_divisor = 12`), reproduces the area row of Voorhees (2004),
#' Table 6: % significant within 0.3 points, and the critical values at 75
#' and 124 topics (at 100 topics in most seeds; at 50 topics the paper's
#' .025 against our .020 depends on the seed). No definition tried
#' reproduces that table's %no critical values (see
#' `vignette("robust-evaluation", package = "irtopics")`).
#'
#' @param x A [swap_error_rates()] result computed with `keep_sets = TRUE`;
#'   for the methods, an `ir_critical_values` object.
#' @param object An `ir_critical_values` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @param max_error Target error rate (a proportion; printed as a
#'   percentage).
#' @param grid Thresholds to scan, increasing. Default: `seq(0, 0.2, by =
#'   0.005)` for scores, `0:n` topics for %no.
#' @param definition `"swap"` or `"threshold"`.
#' @param both_sets For `"swap"`: count a swap only if \eqn{|D_2| \ge c} too.
#' @inheritParams irtopics_threads
#' @param area_divisor For an area result: `NULL` (default) keeps the scale
#'   `x` was computed with; a number rescales the set aggregates to area
#'   divided by that number at every size (`12` is the scale that reproduces
#'   Voorhees 2004, Table 6; see [swap_error_rates()], "The area scale").
#' @return An `ir_critical_values` object: `$table` with columns `measure`,
#'   `size`, `critical_value` (`NA` when no grid point reaches the target),
#'   `critical_pct` (%no: the value as a percentage of the size),
#'   `error_rate` at that value (a proportion) and `pct_significant` (a
#'   percentage); `$curves` with the error rate and % significant at every
#'   grid point. `print()` shows rates as percentages; `summary()` the
#'   critical value per size; `as.data.frame()` returns `$table`.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' err <- swap_error_rates(ap, sizes = 20, aggregate = "area", trials = 50, seed = 1)
#' critical_values(err)
#' critical_values(err, definition = "threshold")
#' @export
critical_values <- function(x, max_error = 0.05, grid = NULL, definition = c("swap", "threshold"),
                            both_sets = FALSE, n_threads = irtopics_threads(), area_divisor = NULL) {
  # the old class name: every ir_swap_error_rates carries it, and so do objects of earlier versions
  if (!inherits(x, "swap_error_rates")) stop_irtopics("{.arg x} must be a {.cls ir_swap_error_rates} result.")
  if (is.null(x$sets)) {
    stop_irtopics("{.arg x} holds no per-set aggregates; compute it with {.code keep_sets = TRUE}.")
  }
  definition <- match_choice(definition)
  check_number(max_error, "max_error", min = 0, max = 1)
  check_flag(both_sets, "both_sets")
  n_threads <- resolve_threads(n_threads)
  check_area_divisor(area_divisor, x$aggregate)
  scale_to <- if (is.null(area_divisor)) x$area_divisor else area_divisor
  counts <- identical(x$aggregate, "pct_no")
  if (!is.null(grid)) {
    if (!is.numeric(grid) || !length(grid) || anyNA(grid) || any(grid < 0) || is.unsorted(grid)) {
      stop_irtopics("{.arg grid} must be an increasing vector of non-negative numbers.")
    }
    if (counts && any(grid != round(grid))) stop_irtopics("{.arg grid} must hold whole topics for %no.")
  }
  curves <- list()
  rows <- lapply(seq_along(x$sizes), function(k) {
    n <- x$sizes[k]
    g <- grid %||% if (counts) as.double(0:n) else seq(0, 0.2, by = 0.005)
    scale <- if (counts) n / 100 else area_rescale(x$aggregate, n, x$area_divisor, scale_to)
    cc <- cpp_critical_curve(x$sets[[k]], as.double(g), definition == "swap", both_sets,
                             scale, counts, if (counts) 1e-9 else 1e-12, n_threads)
    err <- if (definition == "swap") {
      ifelse(cc$decisions > 0, cc$errors / cc$decisions, NA_real_)
    } else {
      cc$errors / cc$total
    }
    sig <- 100 * cc$significant / cc$total
    curves[[k]] <<- data.frame(measure = x$measure, size = n, value = g, error_rate = err,
                               pct_significant = sig)
    hit <- which(err <= max_error)[1]
    data.frame(measure = x$measure, size = n,
               critical_value = if (is.na(hit)) NA_real_ else g[hit],
               critical_pct = if (counts && !is.na(hit)) 100 * g[hit] / n else NA_real_,
               error_rate = if (is.na(hit)) NA_real_ else err[hit],
               pct_significant = if (is.na(hit)) NA_real_ else sig[hit])
  })
  new_ir_critical_values(list(table = do.call(rbind, rows), curves = do.call(rbind, curves),
                              measure = x$measure, max_error = max_error, definition = definition,
                              both_sets = both_sets, unit = if (counts) "topics" else "score",
                              area_divisor = scale_to))
}

new_ir_critical_values <- function(x) {
  new_result(x, "ir_critical_values", old = "critical_values",
             fields = c(table = "data.frame", curves = "data.frame", measure = "string", max_error = "number",
                        definition = "string", both_sets = "flag", unit = "string"))
}

#' @rdname critical_values
#' @export
format.ir_critical_values <- function(x, ...) {
  df <- x$table
  if (x$unit != "topics") df$critical_pct <- NULL
  df$critical_value <- signif(df$critical_value, 4)
  if (!is.null(df$critical_pct)) df$critical_pct <- ifelse(is.na(df$critical_pct), "NA", sprintf("%.1f%%", df$critical_pct))
  df$error_rate <- pct_text(df$error_rate)
  df$pct_significant <- ifelse(is.na(df$pct_significant), "NA", sprintf("%.1f%%", df$pct_significant))
  c(sprintf("<ir_critical_values> %s, %s definition, error <= %s%s%s", x$measure, x$definition,
            pct_text(x$max_error, 1), if (x$unit == "topics") " (values in topics)" else "",
            area_scale_text(x$area_divisor)),
    printed_lines(print(df, row.names = FALSE)))
}

#' @rdname critical_values
#' @export
print.ir_critical_values <- function(x, ...) print_formatted(x, ...)

#' @rdname critical_values
#' @export
summary.ir_critical_values <- function(object, ...) {
  t <- object$table
  new_summary("ir_critical_values",
              sprintf("Critical values of %s for an error rate <= %s (%s definition):", object$measure,
                      pct_text(object$max_error, 1), object$definition),
              data.frame(size = t$size, critical_value = t$critical_value,
                         reached = !is.na(t$critical_value)))
}

#' @rdname critical_values
#' @export
as.data.frame.ir_critical_values <- function(x, row.names = NULL, optional = FALSE, ...) x$table
