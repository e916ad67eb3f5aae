# Interpolated precision-recall curves: trec_eval's 11 points
# (iprec_at_recall, IPrec@0 ... IPrec@1) per run, averaged over topics.

pr_recall_levels <- seq(0, 1, by = 0.1)
pr_measures <- sprintf("IPrec@%s", format(pr_recall_levels, trim = TRUE, drop0trailing = TRUE))

#' Interpolated precision-recall curves
#'
#' trec_eval's 11-point interpolated precision-recall curve per run: at each
#' recall level \eqn{r = 0, 0.1, \dots, 1} the interpolated precision
#' (`IPrec@r`, trec_eval's `iprec_at_recall_r`: the highest precision at any
#' rank whose recall is at least \eqn{r}), averaged over topics. The mean
#' is over the topics each run answered, as trec_eval without `-c`; use
#' `evaluate(missing = "zero")` to average over every topic of the qrels.
#' The mean of a run's 11 values is its 11-point average precision
#' (`11pt_avg`).
#'
#' @param x An `ir_evaluation` from [evaluate()] that holds the 11 measures
#'   `IPrec@0`, `IPrec@0.1`, ..., `IPrec@1` (as `iprec_at_recall_0.00` ...
#'   in trec_eval's names); or runs, as [evaluate()] takes them, with
#'   `qrels`.
#' @param qrels With runs in `x`: the relevance judgements, as for
#'   [evaluate()].
#' @param ... With runs in `x`: further arguments of [evaluate()] (not
#'   `measures`).
#' @return An `ir_pr_curve` object: `$curve`, a data frame with one row per
#'   system and recall level (`system`, `recall`, `precision`, `n_topics`);
#'   `$n_topics`, the number of topics of the evaluation; `$ranking`, each
#'   system's aggregate of `$ranking_measure` (the first measure of the
#'   evaluation `x`, or AP when `pr_curve()` evaluates the runs: its mean,
#'   negated for a measure where lower is better, so that larger is
#'   better), by which the figure chooses its default systems. `print()` shows the
#'   curves as a systems x recall table, `as.data.frame()` returns
#'   `$curve`, and `autoplot()` draws them.
#' @seealso [autoplot.ir_pr_curve()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' pr <- pr_curve(file.path(dir, "results.test"), file.path(dir, "qrels.test"))
#' pr
#' ggplot2::autoplot(pr)
#' # or from an evaluation that holds the 11 measures
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("AP", sprintf("IPrec@%.1f", 0:10 / 10)))
#' pr_curve(res)
#' @export
pr_curve <- function(x, qrels = NULL, ...) {
  if (inherits(x, "ir_evaluation")) {
    if (!is.null(qrels) || ...length()) {
      stop_irtopics("With an {.cls ir_evaluation} in {.arg x}, {.arg qrels} and {.arg ...} are not used.")
    }
    ev <- x
    check_evaluation_nonempty(ev)
  } else {
    if (is.null(qrels)) {
      stop_irtopics(c("{.arg qrels} is needed to evaluate the runs in {.arg x}.",
                      i = "Or pass an {.cls ir_evaluation} holding {.val IPrec@0} ... {.val IPrec@1}."))
    }
    if ("measures" %in% names(list(...))) {
      stop_irtopics("{.fn pr_curve} chooses the measures itself; leave out {.arg measures}.")
    }
    # AP ranks the systems of the figure (the first measure, as in evaluate()'s default)
    ev <- evaluate(x, qrels, measures = c("AP", pr_measures), ...)
  }
  canonical <- attr(ev, "canonical") %||% names(ev)
  at <- match(pr_measures, canonical)
  if (anyNA(at)) {
    stop_irtopics(c("{.arg x} lacks the interpolated precision at recall {.val {pr_recall_levels[is.na(at)]}}.",
                    i = "Evaluate with {.code measures = sprintf(\"IPrec@%.1f\", 0:10 / 10)}, or pass the runs and {.arg qrels}."),
                  kind = "data")
  }
  mats <- lapply(at, function(k) unclass(ev[[k]]))
  systems <- rownames(mats[[1]])
  curve <- do.call(rbind, lapply(seq_along(at), function(i) {
    m <- mats[[i]]
    data.frame(system = systems, recall = pr_recall_levels[i],
               precision = unname(rowMeans(m, na.rm = TRUE)),
               n_topics = unname(rowSums(!is.na(m))), stringsAsFactors = FALSE)
  }))
  curve <- curve[order(match(curve$system, systems), curve$recall), , drop = FALSE]
  rownames(curve) <- NULL
  new_ir_pr_curve(list(curve = curve, systems = systems, n_topics = ncol(mats[[1]]),
                       missing = attr(ev, "missing") %||% "drop",
                       ranking = ranking_key(ev[[1]])[systems],
                       ranking_measure = names(ev)[1]))
}

new_ir_pr_curve <- function(x) {
  new_result(x, "ir_pr_curve", fields = c(curve = "data.frame", systems = "character",
                                          n_topics = "number", missing = "string",
                                          ranking = "numeric", ranking_measure = "string"))
}

# The curves as a systems x recall matrix of mean interpolated precision.
pr_matrix <- function(x) {
  d <- x$curve
  m <- matrix(d$precision, nrow = length(x$systems), byrow = TRUE,
              dimnames = list(x$systems, format(pr_recall_levels, nsmall = 1)))
  m
}

#' @rdname pr_curve
#' @param n Number of systems to print.
#' @export
format.ir_pr_curve <- function(x, n = 10L, ...) {
  check_shown(n = n)
  m <- pr_matrix(x)
  shown <- round(utils::head(m, n), 3)
  c(sprintf("<ir_pr_curve> interpolated precision (columns: recall), mean over answered topics: %s, %s (missing = \"%s\")",
            plural(nrow(m), "system"), plural(x$n_topics, "topic"), x$missing),
    printed_lines(print(shown)),
    more_line(system = nrow(m) - nrow(shown)))
}

#' @rdname pr_curve
#' @export
print.ir_pr_curve <- function(x, ...) print_formatted(x, ...)

#' @rdname pr_curve
#' @param object An `ir_pr_curve`.
#' @export
summary.ir_pr_curve <- function(object, ...) {
  m <- pr_matrix(object)
  tab <- data.frame(system = rownames(m), `11pt_avg` = unname(rowMeans(m)),
                    `IPrec@0.0` = unname(m[, 1]), `IPrec@1.0` = unname(m[, ncol(m)]),
                    check.names = FALSE, stringsAsFactors = FALSE)
  new_summary("ir_pr_curve", sprintf("Interpolated precision-recall curves of %s over %s:",
                                     plural(nrow(m), "system"), plural(object$n_topics, "topic")),
              tab[order(-tab$`11pt_avg`), , drop = FALSE])
}

#' @rdname pr_curve
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_pr_curve <- function(x, row.names = NULL, optional = FALSE, ...) x$curve

#' Plot interpolated precision-recall curves
#'
#' One curve per system: mean interpolated precision at the 11 recall
#' levels, with a point at each level. Many systems are drawn as
#' [autoplot.ir_scores()] draws many lines (`layout`, `highlight`).
#'
#' @param object An `ir_pr_curve` from [pr_curve()].
#' @param systems Systems to draw (names or row numbers), in this order;
#'   default: the 8 best by `object$ranking` (the mean AP, or the aggregate of the
#'   first measure of the evaluation the curves come from), ties by name,
#'   best first: the same systems, in the same colours, as
#'   [autoplot()][autoplot.ir_evaluation] of that evaluation draws.
#' @inheritParams autoplot.ir_scores
#' @return A ggplot object.
#' @method autoplot ir_pr_curve
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' ggplot2::autoplot(pr_curve(file.path(dir, "results.test"), file.path(dir, "qrels.test")))
#' @export
autoplot.ir_pr_curve <- function(object, systems = NULL, layout = c("auto", "lines", "facets", "highlight"),
                                 highlight = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_pr_curve")
  m <- pr_matrix(object)
  systems <- plot_systems(m, systems, ranking = object$ranking, by = object$ranking_measure)
  layout <- choose_layout(layout, length(systems), highlight)
  highlight <- plot_highlight(m, highlight, systems, object$ranking[systems], layout)
  d <- object$curve[object$curve$system %in% systems, , drop = FALSE]
  d$system <- factor(d$system, levels = systems)
  many_lines_plot(d, "recall", "precision", layout, highlight, points = TRUE,
                  labels = list(x = "Recall", y = "Precision",
                                title = "Interpolated precision-recall curves",
                                subtitle = sprintf("%s, mean over %s", plural(length(systems), "system"),
                                                   plural(object$n_topics, "topic"))),
                  note = attr(systems, "note"), all = attr(systems, "all")) +
    ggplot2::expand_limits(y = 0)
}
