# autoplot() methods of the robust-evaluation, stability and difficulty
# analyses. Each returns a ggplot and never prints.

#' Plot a robust-track summary
#'
#' * `type = "sorted"`: per-topic AP sorted from worst to best, one line per
#'   run (Figure 3 of Voorhees 2004; the [autoplot()][autoplot.ir_scores]
#'   method of the AP matrix).
#' * `type = "gmap"`: MAP against GMAP per system over one topic set, which
#'   shows the runs whose MAP hides many poor topics (`label` names them).
#' * `type = "sets"`: one measure per topic set for chosen systems (bars).
#'
#' @param object A [robust_summary()] result.
#' @param type `"sorted"`, `"gmap"` or `"sets"`.
#' @param systems Systems to show; default: see [autoplot.ir_scores()] for
#'   `"sorted"`, the 8 best by MAP for `"sets"`, all for `"gmap"`.
#' @param topic_set For `"gmap"`: which topic set (default `"all"`).
#' @param measure For `"sets"`: `"MAP"`, `"P10"`, `"pct_no"`, `"area"` or
#'   `"GMAP"`.
#' @param label For `"gmap"`: which points to label with their system
#'   names: `"auto"` (the default: all when there are at most 20
#'   points, else the 5 largest, as for a whole number), `NULL` (none), `"all"`, a whole number \eqn{k} (the
#'   \eqn{k} best by MAP) or a character vector of names. Labels are placed
#'   without overlaps by ggrepel when it is installed, else above the
#'   points.
#' @param layout,highlight For `"sorted"`: how the lines are told apart,
#'   see [autoplot.ir_scores()].
#' @param ... Unused; unknown arguments are an error, and so are
#'   arguments the chosen `type` does not use.
#' @return A ggplot object.
#' @method autoplot ir_robust_summary
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' rs <- robust_summary(ap)
#' ggplot2::autoplot(rs, type = "gmap", label = 5)
#' @export
autoplot.ir_robust_summary <- function(object, type = c("sorted", "gmap", "sets"), systems = NULL,
                                    topic_set = "all", measure = "MAP", label = "auto",
                                    layout = c("auto", "lines", "facets", "highlight"), highlight = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_robust_summary")
  type <- match_choice(type)
  used <- list(sorted = c("systems", "layout", "highlight"), gmap = c("systems", "topic_set", "label"),
               sets = c("systems", "measure"))[[type]]
  given <- c(systems = !is.null(systems), topic_set = !missing(topic_set),
             measure = !missing(measure), label = !missing(label), layout = !missing(layout),
             highlight = !is.null(highlight))
  check_type_args(given, used, type)
  tab <- object$table
  if (type == "sorted") return(ggplot2::autoplot(object$ap, systems = systems, layout = layout,
                                                 highlight = highlight))
  if (type == "gmap") {
    if (!topic_set %in% levels(tab$topic_set)) {
      stop_irtopics("{.arg topic_set} must be one of {.val {levels(tab$topic_set)}}.")
    }
    d <- tab[tab$topic_set == topic_set, , drop = FALSE]
    if (!is.null(systems)) {
      check_names_in(systems, unique(d$system), arg = "systems", of = "object")
      d <- d[d$system %in% systems, , drop = FALSE]
    }
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$MAP, y = .data$GMAP)) +
      ggplot2::geom_point() +
      label_layer(d, label, "system", "MAP", "MAP", "GMAP") +
      ggplot2::labs(x = sprintf("MAP (%s topics)", topic_set), y = sprintf("GMAP (%s topics)", topic_set),
                    title = wrap_text(sprintf("MAP and GMAP of %s", plural(nrow(d), "system")))) +
      ggplot2::theme_bw() + title_theme())
  }
  meas <- c("MAP", "P10", "pct_no", "area", "GMAP")
  if (!measure %in% meas) stop_irtopics("{.arg measure} must be one of {.val {meas}}.")
  all <- tab[tab$topic_set == "all", , drop = FALSE]
  systems <- systems %||% utils::head(all$system[order(-all$MAP)], 8L)
  unknown <- setdiff(systems, all$system)
  if (length(unknown)) stop_irtopics("{.arg systems} must name systems; unknown: {.val {unknown}}.")
  d <- tab[tab$system %in% systems, , drop = FALSE]
  d$system <- factor(d$system, levels = systems)
  d$value <- d[[measure]]
  ggplot2::ggplot(d, ggplot2::aes(x = .data$system, y = .data$value, fill = .data$topic_set)) +
    ggplot2::geom_col(position = ggplot2::position_dodge()) +
    ggplot2::labs(x = NULL, y = if (measure == "pct_no") "%no" else measure, fill = "Topic set",
                  title = wrap_text(sprintf("%s per topic set, %s", if (measure == "pct_no") "%no" else measure,
                                            plural(length(systems), "system")))) +
    ggplot2::theme_bw() + title_theme() +
    ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1))
}

#' Plot the prediction of difficult topics
#'
#' * `type = "curves"` (default for up to 4 runs): MAP over the best
#'   \eqn{Y} topics of the actual ranking (circles) and of the predicted
#'   ranking (triangles) against \eqn{Y}, one panel per run (Figure 1 of
#'   Voorhees 2004).
#' * `type = "scatter"` (default for more runs): area between the curves
#'   against Kendall's tau, one point per run (Figure 2).
#'
#' @param object A [prediction_curves()] result.
#' @param type `"curves"` or `"scatter"`; by default `"curves"` when
#'   `systems` is given or there are at most 4 runs, else `"scatter"`.
#' @param systems Runs to draw: for `"curves"` one panel each (default: the
#'   first 4); for `"scatter"` the points shown (default: all).
#' @param label For `"scatter"`: which points to label with their run
#'   names: `"auto"` (the default: all when there are at most 20
#'   points, else the 5 largest, as for a whole number), `NULL` (none), `"all"`, a whole number \eqn{k} (the
#'   \eqn{k} runs with the largest tau) or a character vector of names.
#'   Labels are placed without overlaps by ggrepel when it is installed,
#'   else above the points.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_prediction_curves
#' @examples
#' ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
#' pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)
#' pc <- prediction_curves(ap, pred)
#' ggplot2::autoplot(pc)
#' # several runs: curves of chosen runs, or the labelled scatter
#' ap3 <- rbind(a = ap, b = rev(ap), c = sqrt(ap))
#' pc3 <- prediction_curves(ap3, rbind(a = pred, b = pred, c = pred))
#' ggplot2::autoplot(pc3, systems = "b")
#' ggplot2::autoplot(pc3, type = "scatter", label = "all")
#' @export
autoplot.ir_prediction_curves <- function(object, type = NULL, systems = NULL, label = "auto", ...) {
  check_no_dots(..., help = "autoplot.ir_prediction_curves")
  runs <- object$runs
  type <- type %||% if (!is.null(systems) || nrow(runs) <= 4L) "curves" else "scatter"
  type <- match_choice(type, c("curves", "scatter"), "type")
  if (!is.null(systems)) {
    check_names_in(systems, runs$system, arg = "systems", of = "object")
  }
  if (type == "scatter") {
    if (!is.null(systems)) runs <- runs[runs$system %in% systems, , drop = FALSE]
    return(ggplot2::ggplot(runs, ggplot2::aes(x = .data$tau, y = .data$area_between)) +
      ggplot2::geom_point() +
      label_layer(runs, label, "system", "tau", "tau", "area_between") +
      ggplot2::labs(x = "Kendall's tau (predicted vs actual topic ranking)",
                    y = "Area between MAP curves",
                    title = wrap_text(sprintf("Prediction of difficult topics, %s", plural(nrow(runs), "run")))) +
      ggplot2::theme_bw() + title_theme())
  }
  if (!missing(label)) stop_irtopics("{.arg label} labels the points of {.code type = \"scatter\"} only.")
  systems <- systems %||% utils::head(runs$system, 4L)
  d <- object$curves[object$curves$system %in% systems, , drop = FALSE]
  d$system <- factor(d$system, levels = systems)
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$Y, y = .data$MAP, shape = .data$ranking)) +
    ggplot2::geom_point() +
    ggplot2::scale_shape_manual(values = c(actual = 1, predicted = 2)) +
    ggplot2::scale_x_reverse() +
    ggplot2::labs(x = "Number of best topics kept (Y)", y = "MAP", shape = "Ranking",
                  title = wrap_text(sprintf("%sMAP over the best topics: actual vs predicted ranking",
                                            if (length(systems) == 1L) paste0(systems, ": ") else ""))) +
    ggplot2::theme_bw() + title_theme()
  if (length(systems) > 1L) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$system))
  p
}

#' Plot error rates by topic-set size
#'
#' Error rate against topic-set size, one line per measure (use
#' [bind_error_rates()] to put several measures in one plot); with
#' `what = "ties"` the rate of ties instead. Both are shown as percentages.
#'
#' @param object A [swap_error_rates()] result.
#' @param what `"error"` or `"ties"`.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_swap_error_rates
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' e <- swap_error_rates(ap, sizes = c(5, 10, 20), trials = 30, seed = 1)
#' ggplot2::autoplot(e)
#' @export
autoplot.ir_swap_error_rates <- function(object, what = c("error", "ties"), ...) {
  check_no_dots(..., help = "autoplot.ir_swap_error_rates")
  what <- match_choice(what)
  d <- object$error
  d$value <- 100 * if (what == "error") d$error_rate else d$tie_rate
  d$measure <- factor(d$measure, levels = unique(d$measure))
  ggplot2::ggplot(d, ggplot2::aes(x = .data$size, y = .data$value, colour = .data$measure,
                                  shape = .data$measure)) +
    ggplot2::geom_line() +
    sparse_points(length(unique(d$size))) +
    ggplot2::labs(x = "Topic-set size", y = if (what == "error") "Error rate (%)" else "Ties (%)",
                  colour = "Measure", shape = "Measure",
                  title = wrap_text(sprintf("Swap method: %s of %s by topic-set size",
                                            if (what == "error") "error rate" else "ties", object$measure)),
                  subtitle = wrap_text(sprintf("%s x %s topics, %s trials per size, fuzziness %s",
                                               plural(object$n_systems, "system"), format(object$n_topics),
                                               format(object$trials, big.mark = ","), format(object$fuzz)), 45L)) +
    ggplot2::theme_bw() + title_theme()
}

# Points at each x of a curve only when there are few (a marker at each of
# 300 sizes is a thick line).
max_markers <- 30L
sparse_points <- function(n, ...) if (n <= max_markers) ggplot2::geom_point(...) else NULL

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
  ggplot2::ggplot(d, ggplot2::aes(x = .data$value, y = 100 * .data$error_rate, colour = .data$size)) +
    ggplot2::geom_line() +
    ggplot2::geom_hline(yintercept = 100 * object$max_error, linetype = "dashed") +
    ggplot2::labs(x = if (object$unit == "topics") sprintf("Difference in %s (topics)", object$measure) else
                    sprintf("Absolute difference in %s", object$measure),
                  y = "Error rate (%)", colour = "Topic-set size",
                  title = wrap_text(sprintf("Critical values of %s: error rate by difference", object$measure)),
                  subtitle = sprintf("Dashed: the target error rate, %s", pct_text(object$max_error, 0))) +
    ggplot2::theme_bw() + title_theme()
}

#' Plot group agreement and reliability
#'
#' Mandl's (2009) Figure 1: for each difficulty group (1 = hardest), bars
#' for the correlation of the group's MAP and GMAP system rankings with the
#' full-set rankings, and points for the group's Cronbach's alpha.
#'
#' @param object A [group_agreement()] result.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_group_agreement
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ggplot2::autoplot(group_agreement(ap))
#' @export
autoplot.ir_group_agreement <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_group_agreement")
  g <- object$groups[object$groups$group != "all", , drop = FALSE]
  g$group <- droplevels(g$group)
  bars <- data.frame(group = rep(g$group, 2L),
                     aggregate = factor(rep(c("MAP", "GMAP"), each = nrow(g)), levels = c("MAP", "GMAP")),
                     value = c(g$cor_map, g$cor_gmap))
  pts <- data.frame(group = g$group, value = g$alpha, what = "Cronbach's alpha")
  ggplot2::ggplot() +
    ggplot2::geom_col(data = bars, ggplot2::aes(x = .data$group, y = .data$value, fill = .data$aggregate),
                      position = ggplot2::position_dodge(width = 0.8), width = 0.7) +
    ggplot2::geom_point(data = pts, ggplot2::aes(x = .data$group, y = .data$value, shape = .data$what),
                        size = 3) +
    ggplot2::labs(x = "Difficulty group (1 = hardest)",
                  y = sprintf("Correlation with full ranking (%s) / alpha", object$method),
                  fill = "Ranking by", shape = NULL,
                  title = wrap_text(sprintf("%d difficulty groups of topics: agreement with the full ranking and alpha",
                                            nrow(g)), 60L),
                  subtitle = sprintf("%s; groups by %s", plural(object$n_systems, "system"), object$by)) +
    ggplot2::theme_bw() + title_theme()
}

#' Plot projected reliability (D-study)
#'
#' The generalizability coefficient \eqn{E\rho^2} (relative decisions; equal
#' to Cronbach's alpha at the observed number of topics) and the
#' dependability index \eqn{\Phi} (absolute decisions) against the number
#' of topics, from [d_study()], with the intervals of [d_study()] as bands;
#' for a [g_study()] the projection runs from 1 to twice the observed number
#' of topics, which is marked by a dotted line.
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
  p <- autoplot.ir_d_study(d_study(object, n_topics), target = target, measure = object$measure)
  p + ggplot2::geom_vline(xintercept = object$n_topics, linetype = "dotted", colour = "grey40") +
    ggplot2::labs(caption = sprintf("Dotted: the %s topics observed.", format(object$n_topics)))
}

#' @rdname autoplot.ir_g_study
#' @param measure For an `ir_d_study`: the measure's name for the title
#'   (default: the one its G-study recorded).
#' @method autoplot ir_d_study
#' @export
autoplot.ir_d_study <- function(object, target = 0.95, measure = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_g_study")
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  measure <- measure %||% attr(object, "measure")
  k <- nrow(object)
  d <- data.frame(n_topics = rep(object$n_topics, 2L),
                  coefficient = factor(rep(c("Erho2", "Phi"), each = k), levels = c("Erho2", "Phi")),
                  value = c(object$Erho2, object$Phi),
                  low = c(object$Erho2_low %||% rep(NA_real_, k), object$Phi_low %||% rep(NA_real_, k)),
                  high = c(object$Erho2_high %||% rep(NA_real_, k), object$Phi_high %||% rep(NA_real_, k)))
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$n_topics, y = .data$value, colour = .data$coefficient,
                                       shape = .data$coefficient)) +
    ggplot2::geom_line() +
    sparse_points(k) +
    ggplot2::geom_ribbon(data = complete_bounds("low", "high"),
                         ggplot2::aes(ymin = .data$low, ymax = .data$high, fill = .data$coefficient),
                         alpha = 0.15, colour = NA, na.rm = TRUE)
  if (!is.null(target)) {
    p <- p + ggplot2::geom_hline(yintercept = target, linetype = "dashed", colour = "grey30") +
      ggplot2::annotate("text", x = min(d$n_topics), y = target, label = sprintf("target %s", format(target)),
                        hjust = 0, vjust = -0.4, size = 3, colour = "grey30")
  }
  p + ggplot2::labs(x = "Number of topics", y = "Projected reliability", colour = NULL, shape = NULL,
                    fill = NULL,
                    title = wrap_text(sprintf("D-study%s: projected reliability", if (is.null(measure)) "" else
                      paste0(" of ", measure))),
                    subtitle = "Erho2: ranking systems; Phi: absolute scores") +
    ggplot2::theme_bw() + title_theme() + ggplot2::theme(legend.position = "bottom")
}

# Arguments that only some plot types use: giving one to another type is an
# error rather than being ignored.
check_type_args <- function(given, used, type, call = rlang::caller_env()) {
  extra <- names(given)[given & !names(given) %in% used]
  if (length(extra)) {
    stop_irtopics("{.code type = \"{type}\"} does not use {.arg {extra}}.", call = call)
  }
}
