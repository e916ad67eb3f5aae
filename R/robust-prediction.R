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
#'   first 4, with a message and caption saying how many were left out);
#'   for `"scatter"` the points shown (default: all).
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
      plot_labels(x = quote("Kendall's" ~ tau ~ "(predicted vs actual ranking)"),
                  y = "Area between the curves",
                  title = sprintf("Prediction of difficult topics, %s", plural(nrow(runs), "run"))) +
      title_theme())
  }
  if (!missing(label)) stop_irtopics("{.arg label} labels the points of {.code type = \"scatter\"} only.")
  note <- NULL
  if (is.null(systems)) {
    systems <- utils::head(runs$system, 4L)
    if (nrow(runs) > 4L) {
      note <- sprintf("The first 4 of %d runs; %d not drawn (see systems =).", nrow(runs), nrow(runs) - 4L)
      inform_irtopics(note, kind = "layout")
    }
  }
  d <- object$curves[object$curves$system %in% systems, , drop = FALSE]
  d$system <- factor(d$system, levels = systems)
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$Y, y = .data$MAP, shape = .data$ranking)) +
    ggplot2::geom_point(size = 1.2) +
    ggplot2::scale_shape_manual(values = c(actual = 1, predicted = 2)) +
    ggplot2::scale_x_reverse(n.breaks = if (length(systems) > 1L) 4L) +
    plot_labels(x = "Number of best topics kept (Y)", y = "MAP", shape = "Ranking",
                title = sprintf("%sMAP over the best topics", if (length(systems) == 1L) paste0(systems, ": ") else ""),
                subtitle = "Actual vs predicted ranking of the topics", caption = note) +
    title_theme(legend = TRUE)
  if (length(systems) > 1L) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$system)) +
      ggplot2::theme(strip.text = ggplot2::element_text(margin = ggplot2::margin(1, 1, 1, 1)))
  }
  p
}
# Predicting difficult topics (Voorhees 2004, section 3, Figures 1 and 2;
# spec 2.3-2.4).

#' How well runs predict their difficult topics
#'
#' For each run, compares its predicted ranking of the topics (1 = predicted
#' easiest) with the actual ranking by AP (best first):
#' * Kendall's tau between them, \eqn{\tau(-\mathrm{pred}, AP)} (tau-b by
#'   default; AP ties are common, e.g. several topics with AP = 0);
#' * the MAP-over-best-\eqn{Y} curves: \eqn{\mathrm{MAP}_{act}(Y)}, the mean
#'   AP of the \eqn{Y} topics with the largest AP, and
#'   \eqn{\mathrm{MAP}_{pred}(Y)}, the mean AP of the first \eqn{Y} topics
#'   of the predicted ranking, for \eqn{Y = T, T-1, \dots, Y_{min}}, with
#'   \eqn{Y_{min} = T - \mathrm{round}(0.2\,T)} (249 ... 199 in the paper);
#' * the area between them, \eqn{\sum_{Y=Y_{min}}^{T}(\mathrm{MAP}_{act}(Y) -
#'   \mathrm{MAP}_{pred}(Y))}.
#'
#' @section Reconstruction:
#' Voorhees (2004) does not say how the area between the curves is
#' computed; irtopics uses a sum over unit steps of \eqn{Y}, which fits the
#' paper's magnitudes ("0.5 or less" for good predictors), and
#' `area = "trapezoid"` is the alternative. Nor does the paper say how tau
#' treats ties: tau-b is the default, `tau = "a"` the
#' alternative, and `tau = "ap"` gives the top-weighted \eqn{\tau_{AP}}
#' (Yilmaz et al. 2008) of the predicted ranking against the actual one.
#'
#' @param ap AP scores: an [ir_scores][as_ir_scores] or matrix (systems x
#'   topics) without NA, or a named numeric vector for one run.
#' @param predicted Predicted ranks, same shape as `ap` (1 = predicted
#'   easiest). Matched by topic name when both have names; extra topics in
#'   `predicted` (e.g. a topic dropped from the evaluation) are removed and
#'   the rest re-ranked, ties are not allowed.
#' @param y_min Smallest \eqn{Y}; default \eqn{T - \mathrm{round}(0.2T)}.
#' @param tau `"b"`, `"a"` or `"ap"`, see [kendall_tau()].
#' @param area `"sum"` (default) or `"trapezoid"`.
#' @return An `ir_prediction_curves` object: `$runs` (columns `system`, `tau`,
#'   `area_between`), `$curves` (long: `system`, `Y`, `ranking` =
#'   `"actual"`/`"predicted"`, `MAP`) and the parameters. `as.data.frame()`
#'   returns `$runs`; `summary()` an [irtopics_summary] of one row: the number of
#'   runs, the correlation of tau with the area, and their medians; `autoplot()`: see
#'   [autoplot.ir_prediction_curves()].
#' @references Voorhees, E. M. (2004). Overview of the TREC 2004 Robust
#'   Retrieval Track. *TREC 2004*.
#' @examples
#' ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
#' pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)
#' pc <- prediction_curves(ap, pred)
#' pc$runs       # tau-b 0.8397, area 0.005
#' ggplot2::autoplot(pc)
#' @export
prediction_curves <- function(ap, predicted, y_min = NULL, tau = c("b", "a", "ap"),
                              area = c("sum", "trapezoid")) {
  tau <- match_choice(tau)
  area <- match_choice(area)
  if (is.numeric(ap) && is.null(dim(ap))) {
    nm <- names(ap) %||% paste0("t", seq_along(ap))
    ap <- matrix(ap, nrow = 1L, dimnames = list("run", nm))
    if (is.numeric(predicted) && is.null(dim(predicted))) {
      if (is.null(names(predicted))) {
        # unnamed: matched by position, so the lengths must agree
        if (length(predicted) != length(nm)) {
          stop_irtopics(c("An unnamed {.arg predicted} must have one rank per topic of {.arg ap}.",
                          x = "{.arg ap} has {length(nm)} topic{?s}, {.arg predicted} {length(predicted)}.",
                          i = "Name both vectors by topic to drop extra topics."))
        }
        names(predicted) <- nm
      }
      predicted <- matrix(predicted, nrow = 1L, dimnames = list("run", names(predicted)))
    }
  }
  a <- check_scores(ap, allow_na = FALSE, min_systems = 1L, min_topics = 2L, arg = "ap")
  if (is.matrix(predicted) && is.null(dimnames(predicted)) && identical(dim(predicted), dim(a))) {
    dimnames(predicted) <- dimnames(a)
  }
  pr <- check_scores(predicted, allow_na = FALSE, min_systems = 1L, min_topics = 2L, arg = "predicted")
  if (!all(rownames(a) %in% rownames(pr))) {
    stop_irtopics("{.arg predicted} must have a row for every system of {.arg ap}.")
  }
  miss <- setdiff(colnames(a), colnames(pr))
  if (length(miss)) {
    stop_irtopics(c("{.arg predicted} must rank every topic of {.arg ap}.",
                    x = "Missing: {.val {head(miss, 5)}}."))
  }
  pr <- pr[rownames(a), colnames(a), drop = FALSE]
  n_top <- ncol(a)
  y_min <- y_min %||% (n_top - round(0.2 * n_top))
  check_number(y_min, "y_min", min = 1, max = n_top, integer = TRUE)
  ys <- seq.int(n_top, y_min)
  runs <- vector("list", nrow(a))
  curves <- vector("list", nrow(a))
  for (s in seq_len(nrow(a))) {
    v <- a[s, ]
    r <- pr[s, ]
    if (anyDuplicated(r)) {
      stop_irtopics("The predicted ranking of {.val {rownames(a)[s]}} must not have ties.", kind = "data")
    }
    act <- cumsum(sort(v, decreasing = TRUE)) / seq_len(n_top)
    prd <- cumsum(v[order(r)]) / seq_len(n_top)
    diff <- act[ys] - prd[ys]
    between <- if (area == "sum") sum(diff) else sum(diff) - (diff[1] + diff[length(diff)]) / 2
    tau_val <- rank_cor_impl(-as.double(r), as.double(v), tau)
    runs[[s]] <- data.frame(system = rownames(a)[s], tau = tau_val, area_between = between)
    curves[[s]] <- data.frame(system = rownames(a)[s], Y = rep(ys, 2L),
                              ranking = rep(c("actual", "predicted"), each = length(ys)),
                              MAP = c(act[ys], prd[ys]))
  }
  new_ir_prediction_curves(list(runs = do.call(rbind, runs), curves = do.call(rbind, curves), y_min = y_min,
                                n_topics = n_top, tau = tau, area = area))
}

new_ir_prediction_curves <- function(x) {
  new_result(x, "ir_prediction_curves", old = "prediction_curves",
             fields = c(runs = "data.frame", curves = "data.frame", y_min = "number", n_topics = "number",
                        tau = "string", area = "string"))
}

#' @rdname prediction_curves
#' @param x,object An `ir_prediction_curves` object.
#' @param n Number of runs to print (best predictors, smallest area, first).
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @export
format.ir_prediction_curves <- function(x, ..., n = 10L) {
  check_shown(n = n)
  r <- x$runs[order(x$runs$area_between, as_bytes(x$runs$system), method = "radix"), , drop = FALSE]
  shown <- utils::head(r, n)
  c(sprintf("<ir_prediction_curves> %s, %d topics, Y = %d..%d, tau-%s, area by %s",
            plural(nrow(x$runs), "run"), x$n_topics, x$n_topics, x$y_min, x$tau, x$area),
    printed_lines(print(shown, row.names = FALSE, digits = 4)),
    more_line(run = nrow(r) - nrow(shown)))
}

#' @rdname prediction_curves
#' @export
print.ir_prediction_curves <- function(x, ..., n = 10L) print_formatted(x, n = n)

#' @rdname prediction_curves
#' @export
as.data.frame.ir_prediction_curves <- function(x, row.names = NULL, optional = FALSE, ...) x$runs

#' @rdname prediction_curves
#' @export
summary.ir_prediction_curves <- function(object, ...) {
  r <- object$runs
  new_summary("ir_prediction_curves", sprintf("Prediction curves (tau-%s, area by %s):", object$tau, object$area),
              data.frame(runs = nrow(r),
                         cor_tau_area = if (nrow(r) > 2) safe_cor(r$tau, r$area_between) else NA_real_,
                         median_tau = stats::median(r$tau, na.rm = TRUE),
                         median_area = stats::median(r$area_between)))
}
