# print, summary, as.data.frame and plots of `ir_reproduction`
# (reproduction_measures(), agreement-reproduction.R).

#' @rdname reproduction_measures
#' @param x,object An `ir_reproduction`.
#' @param n Number of rows of each table to print.
#' @export
format.ir_reproduction <- function(x, n = 10L, ...) {
  check_shown(n = n)
  head_lines <- sprintf("<ir_reproduction> %s of %s against the original pair: %s; %s",
                        x$type, plural(length(x$reproductions), "reproduced pair"),
                        paste(x$measures, collapse = ", "), reproduction_topics_text(x))
  eff <- x$effect[, c("reproduction", "measure", "effect_ratio", "delta_ri")]
  runs <- x$runs[, c("reproduction", "measure", "run", "arp_reproduced", "rmse", "p.value")]
  if (x$type == "reproducibility") runs$rmse <- NULL
  out <- c(head_lines, "Overall effect (ER = 1 and Delta RI = 0: the original effect):",
           printed_lines(print(round_df(utils::head(eff, n)), row.names = FALSE)),
           more_line(row = nrow(eff) - min(n, nrow(eff))),
           sprintf("Per run (%s test of original against reproduced scores):", x$runs$test[1]),
           printed_lines(print(round_df(utils::head(runs, n)), row.names = FALSE)),
           more_line(row = nrow(runs) - min(n, nrow(runs))))
  if (!is.null(x$lists)) {
    l <- x$lists[x$lists$cutoff == max(x$lists$cutoff[x$lists$cutoff <= 10], min(x$lists$cutoff)), , drop = FALSE]
    out <- c(out, sprintf("Ranked lists at cut-off %s (KTU: %s; RBO: %s, p = %s; all cut-offs in $lists):",
                          l$cutoff[1], x$ktu, x$rbo_form, x$p),
             printed_lines(print(round_df(utils::head(l[, c("reproduction", "run", "ktu", "rbo")], n)),
                                 row.names = FALSE)))
  }
  out
}

# "3 topics", or "3 original and 2 reproduced topics" (reproducibility).
reproduction_topics_text <- function(x) {
  if (x$type == "replicability") return(plural(x$n_topics, "topic"))
  sprintf("%s original and %s reproduced topics", x$n_topics, x$n_topics_reproduced)
}

#' @rdname reproduction_measures
#' @export
print.ir_reproduction <- function(x, ...) print_formatted(x, ...)

#' @rdname reproduction_measures
#' @export
summary.ir_reproduction <- function(object, ...) {
  tab <- object$effect[, c("reproduction", "measure", "effect_ratio", "delta_ri")]
  per_run <- function(run, col) {
    r <- object$runs[object$runs$run == run, , drop = FALSE]
    r[[col]][match(paste(tab$reproduction, tab$measure), paste(r$reproduction, r$measure))]
  }
  if (object$type == "replicability") {
    tab$rmse_baseline <- per_run("baseline", "rmse")
    tab$rmse_advanced <- per_run("advanced", "rmse")
  }
  tab$p_baseline <- per_run("baseline", "p.value")
  tab$p_advanced <- per_run("advanced", "p.value")
  new_summary("ir_reproduction",
              sprintf("%s of %s (%s, %s test), one row per reproduction and measure:",
                      if (object$type == "replicability") "Replicability" else "Reproducibility",
                      plural(length(object$reproductions), "reproduced pair"), reproduction_topics_text(object),
                      object$runs$test[1]),
              tab)
}

#' @rdname reproduction_measures
#' @param what `"statistics"` (default: one row per statistic), `"effect"`
#'   (`$effect`), `"runs"` (`$runs`), `"lists"` (`$lists`) or `"topics"`
#'   (`$topics`, KTU and RBO per topic).
#' @param row.names,optional Unused, for compatibility with the generic.
#' @details `as.data.frame(x)` has columns `reproduction`, `level`
#'   (`"ranked lists"`, `"effectiveness"`, `"overall effect"`, `"test"`),
#'   `statistic` (`"KTU"`, `"RBO"` (means over topics), `"ARP"` (of the
#'   reproduced run), `"RMSE"`, `"nRMSE"`, `"ER"`, `"delta_RI"`, `"t"`),
#'   `measure` (`NA` for the ranked lists), `run` (`"baseline"`,
#'   `"advanced"`, `NA` for the effect), `cutoff` (`NA` but for the ranked
#'   lists), `estimate` and `p.value` (the t test's).
#' @export
as.data.frame.ir_reproduction <- function(x, row.names = NULL, optional = FALSE,
                                          what = c("statistics", "effect", "runs", "lists", "topics"), ...) {
  what <- match_choice(what)
  if (what != "statistics") {
    out <- x[[what]]
    if (is.null(out)) {
      stop_irtopics("{.code what = \"{what}\"}: ranked lists are compared for replicability only.",
                    kind = "data")
    }
    return(out)
  }
  row <- function(r, level, statistic, measure, run, cutoff, estimate, p = NA_real_) {
    data.frame(reproduction = r, level = level, statistic = statistic, measure = measure, run = run,
               cutoff = cutoff, estimate = estimate, p.value = p, stringsAsFactors = FALSE)
  }
  parts <- list()
  if (!is.null(x$lists)) {
    l <- x$lists
    parts$ktu <- row(l$reproduction, "ranked lists", "KTU", NA_character_, l$run, l$cutoff, l$ktu)
    parts$rbo <- row(l$reproduction, "ranked lists", "RBO", NA_character_, l$run, l$cutoff, l$rbo)
  }
  r <- x$runs
  parts$arp <- row(r$reproduction, "effectiveness", "ARP", r$measure, r$run, NA_real_, r$arp_reproduced)
  if (x$type == "replicability") {
    parts$rmse <- row(r$reproduction, "effectiveness", "RMSE", r$measure, r$run, NA_real_, r$rmse)
    parts$nrmse <- row(r$reproduction, "effectiveness", "nRMSE", r$measure, r$run, NA_real_, r$nrmse)
  }
  e <- x$effect
  parts$er <- row(e$reproduction, "overall effect", "ER", e$measure, NA_character_, NA_real_, e$effect_ratio)
  parts$dri <- row(e$reproduction, "overall effect", "delta_RI", e$measure, NA_character_, NA_real_, e$delta_ri)
  parts$t <- row(r$reproduction, "test", "t", r$measure, r$run, NA_real_, r$statistic, r$p.value)
  out <- do.call(rbind, parts)
  out <- out[order(match(out$reproduction, x$reproductions)), , drop = FALSE]
  rownames(out) <- NULL
  out
}

#' Plot reproduction measures
#'
#' `type = "effect"` is the paper's figure: one point per reproduced pair
#' (and measure: one panel each), the Effect Ratio on the x axis and Delta
#' RI on the y axis, with reference lines at ER = 1 and Delta RI = 0, where
#' a reproduction that found the original effect lies. Points right of ER =
#' 1 found a larger absolute effect, left of 0 the opposite one; below
#' Delta RI = 0 a larger relative improvement. `type = "lists"` (replicability)
#' draws the mean KTU and RBO over topics against the cut-off (log scale),
#' one line per reproduced run, a panel per statistic and run.
#'
#' @param object An `ir_reproduction` from [reproduction_measures()].
#' @param type `"effect"` or `"lists"`.
#' @param label Point labels of the effect plot: `"auto"` (every point up
#'   to 20, else the 5 farthest from (1, 0)), `"all"`, `"none"`, or
#'   reproduction names.
#' @param ... Unused.
#' @return A ggplot object.
#' @method autoplot ir_reproduction
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' advanced <- as.data.frame(read_run(file.path(dir, "results.test")))
#' # made-up data: a noisier copy as the baseline, noisier copies as reproductions
#' jitter <- function(r, sd, seed) {
#'   set.seed(seed)
#'   transform(r, score = score + rnorm(nrow(r), sd = sd))
#' }
#' baseline <- jitter(advanced, 1, 2)
#' reps <- lapply(c(small = 0.1, large = 0.5), function(sd)
#'   list(baseline = jitter(baseline, sd, 3), advanced = jitter(advanced, sd, 4)))
#' rep <- reproduction_measures(baseline, advanced, reps, file.path(dir, "qrels.test"),
#'                              cutoffs = c(5, 10, 20, 50))
#' ggplot2::autoplot(rep)
#' ggplot2::autoplot(rep, type = "lists")
#' @export
autoplot.ir_reproduction <- function(object, type = c("effect", "lists"), label = "auto", ...) {
  check_no_dots(..., help = "autoplot.ir_reproduction")
  type <- match_choice(type)
  if (type == "effect") return(reproduction_effect_plot(object, label))
  check_type_args(c(label = !identical(label, "auto")), character(), type)
  if (is.null(object$lists)) {
    stop_irtopics("{.code type = \"lists\"}: ranked lists are compared for replicability only.", kind = "data")
  }
  d <- object$lists
  d <- rbind(data.frame(d[, c("reproduction", "run", "cutoff")], statistic = "KTU", value = d$ktu),
             data.frame(d[, c("reproduction", "run", "cutoff")], statistic = "RBO", value = d$rbo))
  d$run <- factor(d$run, levels = c("baseline", "advanced"))
  d$reproduction <- factor(d$reproduction, levels = object$reproductions)
  many <- length(object$reproductions) > 8
  aes <- if (many) ggplot2::aes(.data$cutoff, .data$value, group = .data$reproduction) else
    ggplot2::aes(.data$cutoff, .data$value, colour = .data$reproduction, group = .data$reproduction)
  ggplot2::ggplot(d, aes) +
    ggplot2::geom_hline(yintercept = c(0, 1), colour = "grey60", linewidth = 0.3) +
    (if (many) ggplot2::geom_line(colour = "grey45", alpha = 0.7, na.rm = TRUE) else ggplot2::geom_line(na.rm = TRUE)) +
    (if (many) sparse_points(length(unique(d$cutoff)), size = 0.8, colour = "grey45", na.rm = TRUE) else
      sparse_points(length(unique(d$cutoff)), size = 1.2, na.rm = TRUE)) +
    ggplot2::facet_grid(ggplot2::vars(.data$statistic), ggplot2::vars(.data$run)) +
    ggplot2::scale_x_log10(breaks = object$cutoffs, guide = ggplot2::guide_axis(check.overlap = TRUE)) +
    # a legend only for more than one reproduction
    ggplot2::scale_colour_manual(values = line_colours(length(object$reproductions)),
                                 guide = if (length(object$reproductions) > 1L) "legend" else "none") +
    plot_labels(x = "Cut-off k", y = "Mean over topics", colour = NULL,
                title = "Ranked lists: original vs reproduced",
                subtitle = wrap_text(sprintf("KTU (%s) and RBO (%s, p = %s); %s, %s%s", object$ktu,
                                             object$rbo_form, object$p,
                                             plural(length(object$reproductions), "reproduced pair"),
                                             plural(object$n_topics, "topic"), if (many) ", one grey line each" else ""),
                                     45)) +
    ggplot2::scale_y_continuous(breaks = c(-1, -0.5, 0, 0.5, 1), guide = crowded_guide()) +
    title_theme(legend = TRUE) +
    ggplot2::theme(legend.text = ggplot2::element_text(size = ggplot2::rel(0.8)),
                   panel.spacing.x = ggplot2::unit(1.2, "lines"))
}

reproduction_effect_plot <- function(object, label) {
  d <- object$effect
  d$measure <- factor(d$measure, levels = object$measures)
  d$.distance <- sqrt((d$effect_ratio - 1)^2 + d$delta_ri^2)
  ok <- !is.na(d$effect_ratio) & !is.na(d$delta_ri)
  dropped <- sum(!ok)
  d <- d[ok, , drop = FALSE]
  p <- ggplot2::ggplot(d, ggplot2::aes(.data$effect_ratio, .data$delta_ri)) +
    ggplot2::geom_vline(xintercept = 1, colour = "grey50", linetype = "dashed") +
    ggplot2::geom_hline(yintercept = 0, colour = "grey50", linetype = "dashed") +
    ggplot2::geom_point(size = 2) +
    label_layer(d, label, "reproduction", ".distance", "effect_ratio", "delta_ri") +
    plot_labels(x = "Effect Ratio (ER)", y = quote(Delta * RI),
                title = sprintf("Overall effect: %s", if (object$type == "replicability") "replicability" else "reproducibility"),
                subtitle = bquote(.(plural(length(object$reproductions), "reproduced pair")) * "; the original at" ~
                                    ER == 1 * "," ~ Delta * RI == 0),
                note = if (dropped) sprintf("%s with an undefined ER or Delta RI (a zero effect) not shown.",
                                            plural(dropped, "reproduced pair")) else NULL) +
    title_theme()
  if (length(object$measures) > 1) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$measure)) +
      ggplot2::theme(panel.spacing.x = ggplot2::unit(1.2, "lines"))
  }
  p + ggplot2::scale_x_continuous(breaks = function(l) pretty(l, n = 4), guide = crowded_guide())
}
