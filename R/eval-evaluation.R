# Methods of `ir_evaluation`, what evaluate() returns: a named list of
# ir_scores (one per measure) that converts, summarises and plots like its
# parts.

#' Print, summarise, convert and plot an evaluation
#'
#' [evaluate()] returns an `ir_evaluation`: a named list of
#' [ir_scores][as_ir_scores()] matrices, one per measure, with the same
#' systems and topics. These methods treat it as one table of scores:
#' * `as.data.frame()` and `tibble::as_tibble()`: the tidy long form, one row
#'   per system, topic and measure (columns `system`, `topic`, `measure`,
#'   `value`), measures in the order they were asked for.
#' * [mean_scores()]: a data frame with one row per system and one column
#'   per measure (each system's summary over its answered topics by the
#'   measure's aggregate, as trec_eval's `all` line: the mean, the geometric
#'   mean for `gm_map` and `gm_bpref`, the sum for the counts).
#' * `summary()`: per measure, its aggregate, the number of systems and
#'   topics, the unanswered system-topic pairs, and the lowest, average and
#'   highest system value (of the aggregate), as an [irtopics_summary].
#' * `autoplot()`: per-topic scores sorted from worst to best topic, one line
#'   per system, one panel per measure (the plot of
#'   [autoplot.ir_scores()] for every measure); with `type = "pr"`, the
#'   interpolated precision-recall curves ([pr_curve()]).
#' * `format()`/`print()`: the size and the system values of
#'   [mean_scores()] (first `n` systems); measures whose aggregate is not
#'   the mean are named in the heading (e.g. "gm_map: geometric mean over
#'   topics").
#' * `glance()` (generics/broom): one row, see the section.
#'
#' @section At a glance:
#' `generics::glance(res)` gives one row: `n_systems`, `n_topics` (columns:
#' topics some system answered, or every qrels topic with
#' `missing = "zero"`), `n_measures`; `n_unanswered` (system-topic pairs
#' without a score, `NA`) and `topics_unanswered` (topics that at least one
#' system did not answer); `n_unknown_topics` (run topics absent from the
#' qrels, ignored by [evaluate()]); for the first measure, `measure`, its
#' `aggregate` (`"mean"`, `"gmean"` or `"sum"`, see [mean_scores()]), the
#' lowest, average and highest system value of it (`min_mean`, `mean`,
#' `max_mean`; over each system's answered topics, as trec_eval) and the
#' best system (`best`, by that value in the measure's direction: the lowest
#' where lower is better; ties: the first); and the settings
#' `depth`, `missing` and `judged_only`. Our choice: the first measure is
#' the one a paper leads with; `summary()` has the same numbers for every
#' measure.
#'
#' @param x,object An `ir_evaluation` from [evaluate()].
#' @param n Number of systems to print.
#' @param na.rm Drop unanswered (NA) system-topic pairs.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param systems Systems to draw (names or row numbers), in this order;
#'   default: the 8 best by the mean of the evaluation's first measure, ties
#'   by name, best first (the rule of every figure of scores, evaluations and
#'   precision-recall curves, see [autoplot.ir_scores()]: a system keeps its
#'   colour from one figure to the next).
#' @param measures Measures to draw (default: all).
#' @param layout,highlight How the systems' lines are told apart: see
#'   [autoplot.ir_scores()]; `"facets"` needs a single measure.
#' @param type `"sorted"` (per-topic scores sorted, one panel per measure),
#'   `"pr"`: the interpolated precision-recall curves of [pr_curve()],
#'   from the measures `IPrec@0` ... `IPrec@1` of the evaluation, or
#'   `"means"`: each system's mean with its 95% t interval (error bars; the
#'   plot of [mean_intervals()], which has the bootstrap intervals too).
#' @param ... Unused (`autoplot()` refuses unknown arguments).
#' @return `as.data.frame()`: a data frame; `as_tibble()`: a tibble;
#'   `summary()`: an [irtopics_summary]; `autoplot()`: a ggplot;
#'   `format()`: a character vector of lines; `print()`: `x`, invisibly.
#' @seealso [evaluate()], [mean_scores()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("AP", "P@10", "nDCG@10"))
#' res
#' head(as.data.frame(res))
#' mean_scores(res)
#' summary(res)
#' ggplot2::autoplot(res)
#' @name ir_evaluation
NULL

#' @rdname ir_evaluation
#' @export
format.ir_evaluation <- function(x, n = 10L, ...) {
  check_shown(n = n)
  if (!length(x)) return("<ir_evaluation> no measures")
  first <- x[[1]]
  head <- sprintf("<ir_evaluation> %s x %s, %s (missing = \"%s\"%s)",
                  plural(nrow(first), "system"), plural(ncol(first), "topic"),
                  plural(length(x), "measure"), attr(x, "missing") %||% "drop",
                  if (isTRUE(attr(x, "judged_only"))) ", judged documents only" else "")
  if (!nrow(first) || !ncol(first)) return(head)  # nothing to average
  means <- evaluation_means(x)
  shown <- round_df(utils::head(means, n))
  note <- aggregate_note(score_records(unclass(x)))
  c(head, if (is.null(note)) "System means:" else paste0("System means (", note, "):"),
    printed_lines(print(shown, row.names = FALSE)),
    more_line(system = nrow(means) - nrow(shown)))
}

#' @rdname ir_evaluation
#' @export
print.ir_evaluation <- function(x, ..., n = 10L) print_formatted(x, n = n)

# glance() of an evaluation (glance_irtopics(), R/utils-tidy.R, sends it
# here): the numbers of the section "At a glance".
glance_evaluation <- function(x) {
  first <- if (length(x)) .subset2(x, 1L) else NULL
  m <- if (is.null(first)) matrix(numeric(), 0, 0) else unclass(first)
  rec <- if (is.null(first)) list(aggregate = NA_character_) else score_record(first)
  means <- if (length(m)) mean_scores(first) else numeric()
  means <- means[!is.na(means)]
  data.frame(n_systems = nrow(m), n_topics = ncol(m), n_measures = length(x),
             n_unanswered = sum(is.na(m)), topics_unanswered = sum(colSums(is.na(m)) > 0),
             n_unknown_topics = length(attr(x, "unknown_topics")),
             measure = if (length(x)) names(x)[1] else NA_character_, aggregate = rec$aggregate,
             min_mean = if (length(means)) min(means) else NA_real_,
             mean = if (length(means)) mean(means) else NA_real_,
             max_mean = if (length(means)) max(means) else NA_real_,
             best = if (length(means)) names(means)[which.max(better_sign(rec$direction) * means)] else NA_character_,
             depth = as.double(attr(x, "depth") %||% NA_real_), missing = attr(x, "missing") %||% "drop",
             judged_only = isTRUE(attr(x, "judged_only")), stringsAsFactors = FALSE)
}

#' Subset an evaluation by systems, topics or measures
#'
#' An `ir_evaluation` subsets like a table of scores and stays an
#' `ir_evaluation`:
#' * `res[measures]`: some of the measures (names in any spelling, as for
#'   `res$AP`, positions or a logical vector), in the order given;
#' * `res[systems, ]`, `res[, topics]`, `res[systems, topics]`: the same
#'   systems and topics of every measure (names, positions or logical
#'   vectors, as for a matrix; the matrices are never dropped to vectors).
#'
#' Unknown names are errors that suggest the closest ones.
#' @param x An `ir_evaluation` from [evaluate()].
#' @param i,j Measures (`x[i]`), or systems and topics (`x[i, j]`).
#' @param ... Unused.
#' @param drop Ignored: the result is always an `ir_evaluation`.
#' @return An `ir_evaluation`.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' runs <- file.path(tempdir(), c("full.txt", "trunc.txt"))
#' file.copy(file.path(dir, c("results.test", "results.trunc")), runs, overwrite = TRUE)
#' res <- evaluate(runs, file.path(dir, "qrels.test"), measures = c("AP", "P@10", "nDCG@10"),
#'                 name = "file")
#' res[c("AP", "P_10")]          # measures, by any spelling
#' res["trunc", ]                # systems
#' res[, colnames(res$AP)[1:2]]  # topics
#' @name ir_evaluation-subset
#' @export
`[.ir_evaluation` <- function(x, i, j, ..., drop = FALSE) {
  if (...length()) stop_irtopics("An {.cls ir_evaluation} has two dimensions: use {.code x[systems, topics]} or {.code x[measures]}.")
  attrs <- attributes(x)
  parts <- unclass(x)
  if (nargs() - (!missing(drop)) <= 2L) {
    # x[measures]
    if (missing(i)) return(x)
    keep <- evaluation_measure_positions(x, i)
    parts <- parts[keep]
    attrs$canonical <- attrs$canonical[keep]
  } else if (length(parts)) {
    first <- parts[[1]]
    rows <- if (missing(i)) seq_len(nrow(first)) else dim_positions(i, rownames(first), "system", "i")
    cols <- if (missing(j)) seq_len(ncol(first)) else dim_positions(j, colnames(first), "topic", "j")
    parts <- lapply(parts, function(m) subset_scores(m, rows, cols))
  }
  attrs$names <- names(parts)
  attributes(parts) <- attrs
  parts
}

# Positions of measures in an evaluation, from names (any spelling),
# positions or a logical vector.
evaluation_measure_positions <- function(x, i, call = rlang::caller_env()) {
  nms <- names(unclass(x))
  if (is.character(i)) {
    if (anyNA(i)) stop_irtopics("Measure names must not be NA.", call = call)
    return(match(vapply(i, eval_measure_index, "", x = x, call = call), nms))
  }
  dim_positions(i, nms, "measure", "i", call = call)
}

# Positions along one dimension (systems, topics or measures) from names,
# positions or a logical vector (base R's rules), with classed errors.
dim_positions <- function(i, names, what, arg, call = rlang::caller_env()) {
  n <- length(names)
  if (is.character(i)) {
    check_names_in(i, names, arg = arg, what = what, of = "x", call = call)
    return(match(i, names))
  }
  out <- if ((is.logical(i) || is.numeric(i)) && !is.object(i) && is.null(dim(i))) {
    tryCatch(seq_len(n)[i], error = function(e) NA_integer_)
  }
  if (is.null(out) || anyNA(out)) {
    stop_irtopics(c("{.arg {arg}} must select {what}s: names, positions in 1..{n}, negative positions or TRUE/FALSE values.",
                    x = "Got {show_values(i)}."), call = call)
  }
  out
}

# One measure's matrix restricted to some rows and columns, its attributes
# (measure, summary, query topics) kept.
subset_scores <- function(m, rows, cols) {
  out <- unclass(m)[rows, cols, drop = FALSE]
  keep <- setdiff(names(attributes(m)), c("dim", "dimnames", "class"))
  for (a in keep) attr(out, a) <- attr(m, a)
  if (!is.null(attr(out, "topic"))) attr(out, "topic") <- attr(out, "topic")[colnames(out)]
  class(out) <- class(m)
  out
}

#' @rdname ir_evaluation
#' @export
as.data.frame.ir_evaluation <- function(x, row.names = NULL, optional = FALSE, ..., na.rm = FALSE) {
  if (!length(x)) {
    return(data.frame(system = character(), topic = character(), measure = character(),
                      value = numeric(), stringsAsFactors = FALSE))
  }
  parts <- lapply(names(x), function(nm) {
    d <- as.data.frame(x[[nm]], na.rm = na.rm)
    d$measure <- rep(nm, nrow(d))  # also for an empty selection (x[0, ])
    d
  })
  out <- do.call(rbind, parts)
  rownames(out) <- NULL
  out
}

#' @rdname ir_evaluation
#' @exportS3Method tibble::as_tibble
as_tibble.ir_evaluation <- function(x, ..., na.rm = FALSE) {
  tibble::as_tibble(as.data.frame(x, na.rm = na.rm))
}

# Refuses an evaluation with no measure, no system or no topic (an empty
# selection such as res[0, ] or res[, 0]) where a result needs some: a
# classed data error naming the argument (issue 29).
check_evaluation_nonempty <- function(x, arg = "x", call = rlang::caller_env()) {
  if (!length(x)) {
    stop_irtopics("{.arg {arg}} holds no measure.", kind = "data", call = call)
  }
  first <- .subset2(x, 1L)
  if (!nrow(first) || !ncol(first)) {
    stop_irtopics(c("{.arg {arg}} has {plural(nrow(first), 'system')} and {plural(ncol(first), 'topic')}: nothing to compute.",
                    i = "An empty selection such as {.code x[0, ]} or {.code x[, 0]}?"),
                  kind = "data", call = call)
  }
  invisible(x)
}

# One row per system, one column per measure: each measure's aggregate.
evaluation_means <- function(x, accumulate = "exact") {
  systems <- rownames(x[[1]])
  out <- data.frame(system = systems, stringsAsFactors = FALSE)
  for (nm in names(x)) out[[nm]] <- unname(mean_scores(x[[nm]], accumulate = accumulate)[systems])
  out
}

#' @rdname ir_evaluation
#' @export
summary.ir_evaluation <- function(object, ...) {
  tab <- do.call(rbind, lapply(names(object), function(nm) {
    m <- object[[nm]]
    means <- mean_scores(m)
    data.frame(measure = nm, aggregate = score_record(m)$aggregate, systems = nrow(m), topics = ncol(m),
               unanswered = sum(is.na(m)),
               min_mean = min(means, na.rm = TRUE), mean = mean(means, na.rm = TRUE),
               max_mean = max(means, na.rm = TRUE), stringsAsFactors = FALSE)
  }))
  if (is.null(tab)) tab <- data.frame(measure = character())
  new_summary("ir_evaluation",
              sprintf("Evaluation of %s: system means per measure (missing = \"%s\")",
                      plural(if (length(object)) nrow(object[[1]]) else 0L, "system"),
                      attr(object, "missing") %||% "drop"),
              tab)
}

#' @rdname ir_evaluation
#' @method autoplot ir_evaluation
#' @export
autoplot.ir_evaluation <- function(object, systems = NULL, measures = NULL,
                                   layout = c("auto", "lines", "facets", "highlight"), highlight = NULL,
                                   type = c("sorted", "pr", "means"), ...) {
  check_no_dots(..., help = "ir_evaluation")
  if (!length(object)) stop_irtopics("{.arg object} holds no measure.", kind = "data")
  type <- match_choice(type)
  if (type == "means") {
    ci <- mean_intervals(object[measures %||% names(object)])
    shown <- plot_systems(object[[1]], systems, by = names(object)[1])
    if (!is.null(attr(shown, "note"))) inform_irtopics(attr(shown, "note"), kind = "layout")
    ci$table <- ci$table[ci$table$system %in% shown, , drop = FALSE]
    return(autoplot.ir_mean_intervals(ci))
  }
  if (type == "pr") {
    if (!is.null(measures)) stop_irtopics("{.code type = \"pr\"} draws {.val IPrec@0} ... {.val IPrec@1}; leave out {.arg measures}.")
    return(autoplot.ir_pr_curve(pr_curve(object), systems = systems, layout = layout, highlight = highlight))
  }
  measures <- measures %||% names(object)
  unknown <- setdiff(measures, names(object))
  if (!is.character(measures) || length(unknown)) {
    stop_irtopics("{.arg measures} must name measures of {.arg object}: {.val {names(object)}}.")
  }
  # one rule for every figure of the evaluation: the first measure ranks
  first <- object[[1]]
  systems <- plot_systems(first, systems, by = names(object)[1])
  # facets of systems x measures fit only a few systems
  layout <- choose_layout(layout, length(systems), highlight, facets = length(measures) == 1L)
  highlight <- plot_highlight(first, highlight, systems, ranking_key(first)[systems], layout)
  df <- do.call(rbind, lapply(measures, function(nm) {
    d <- sorted_scores_long(object[[nm]], systems)
    d$measure <- nm
    d
  }))
  df$measure <- factor(df$measure, levels = measures)
  one <- length(measures) == 1L
  many_lines_plot(df, "position", "value", layout, highlight, by = if (!one) "measure",
                  labels = list(x = "Topics, sorted by score", y = if (one) measures else "Score",
                                title = sprintf("Per-topic %s, sorted, %s", if (one) measures else "scores",
                                                plural(length(systems), "system"))),
                  note = attr(systems, "note"), all = attr(systems, "all"))
}
