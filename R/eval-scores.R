#' Plot per-topic scores sorted, one line per system
#'
#' Draws each system's per-topic scores sorted from worst to best topic,
#' one line per system: Figure 3 of the TREC 2004 Robust track overview
#' (Voorhees 2004), where it shows how runs with similar MAP differ in their
#' worst topics.
#'
#' Every requested system is drawn. Colour and line type tell about eight
#' lines apart, so `layout = "auto"` switches beyond that, with a message:
#' * `"lines"`: one line per system, told apart by colour and line type
#'   (the default for up to 8 systems);
#' * `"facets"`: one panel per system, its line in colour over the other
#'   systems' lines in grey (the default for 9 to 30 systems);
#' * `"highlight"`: all systems in grey, the `highlight` systems in colour
#'   with their names at the end of their lines (the default for more than
#'   30 systems).
#'
#' @section Which systems, in which colours:
#' Without `systems`, every figure of a score matrix, an evaluation or its
#' precision-recall curves ([autoplot.ir_pr_curve()]) draws the same
#' systems by one rule: the 8 best by the ranking measure's aggregate (the
#' matrix's own measure; the first measure of an evaluation; the mean, or
#' e.g. the geometric mean of `gm_map`) in its direction (the lowest first
#' where lower is better; see [measure_info()]), ties by name, best first
#' (all of them, best first, when there are at most 8). A system's
#' colour and line type are those of its place in that order among all
#' systems of the object ([system_colours()]), whatever systems a figure draws
#' and in whatever order: the best system has the first colour in the default
#' figure, in a figure of two named systems and in the precision-recall
#' curves of the same evaluation. When the rule leaves systems out, the
#' figure says so in its caption and in a message of class
#' `irtopics_message_layout`. Systems given in `systems` are drawn (and listed
#' in the legend) in the order given. The legend sits below the panel, in as many rows as the names
#' need at one column (3.5 in); it has no legend with a single system.
#'
#' @param object An `ir_scores` object.
#' @param systems Systems to draw (names or row numbers), in this order;
#'   default: the 8 best by mean score (see "Which systems, in which
#'   colours").
#' @param layout `"auto"`, `"lines"`, `"facets"` or `"highlight"` (see
#'   Details).
#' @param highlight For `layout = "highlight"`: the systems drawn in colour
#'   (names or row numbers, at most 8); default: the best, the median and
#'   the worst of the drawn systems by mean score.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_scores
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' best <- names(sort(mean_scores(ap), decreasing = TRUE))[c(1, 10, 40)]
#' ggplot2::autoplot(ap, systems = best)
#' # all 110 runs: grey, with three of them in colour
#' ggplot2::autoplot(ap, systems = rownames(ap), layout = "highlight",
#'                   highlight = best)
#' @export
autoplot.ir_scores <- function(object, systems = NULL, layout = c("auto", "lines", "facets", "highlight"),
                               highlight = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_scores")
  measure <- attr(object, "measure") %||% "score"
  systems <- plot_systems(object, systems, by = measure)
  layout <- choose_layout(layout, length(systems), highlight)
  df <- sorted_scores_long(object, systems)
  highlight <- plot_highlight(object, highlight, systems, ranking_key(object)[systems], layout)
  many_lines_plot(df, "position", "value", layout, highlight,
                  labels = list(x = "Topics, sorted by score", y = measure,
                                title = sprintf("Per-topic %s, sorted, %s", measure,
                                                plural(length(systems), "system"))),
                  note = attr(systems, "note"), all = attr(systems, "all"))
}

# The systems a many-lines figure draws: the user's (names or row numbers),
# else best_systems() by `ranking` (each system's aggregate of the ranking
# measure `by`, larger is better; default: ranking_key() of `object`, which
# asks its record). Zero systems or topics, and
# systems without any score, are refused or left out with a classed
# condition (issue 29). When the default leaves systems out, the result
# carries attr "note": what was left out, for the caption and a message. It
# always carries attr "all": every system of `object` by that rule, the
# order that gives each system its colour and line type (system_styles()).
plot_systems <- function(object, systems, ranking = NULL, by = NULL, call = rlang::caller_env()) {
  m <- unclass(object)
  if (!nrow(m) || !ncol(m)) {
    stop_irtopics(c("{.arg object} has {plural(nrow(m), 'system')} and {plural(ncol(m), 'topic')}: nothing to draw.",
                    i = "An empty selection such as {.code x[0, ]}?"),
                  kind = "data", call = call)
  }
  note <- NULL
  aggregate <- if (is.null(ranking)) score_record(object)$aggregate else "mean"
  ranking <- ranking %||% ranking_key(object)
  all <- best_systems(ranking[rownames(m)], k = nrow(m))
  if (is.null(systems)) {
    systems <- utils::head(all, max_lines)
    if (length(systems) < nrow(m)) note <- dropped_note(length(systems), nrow(m), by, aggregate)
  }
  if (is.numeric(systems)) systems <- rownames(m)[systems]
  check_names_in(systems, rownames(m), arg = "systems", of = "object", call = call)
  systems <- unique(systems)
  empty <- rowSums(!is.na(m[systems, , drop = FALSE])) == 0
  if (all(empty)) {
    stop_irtopics("{.arg object} has no score (all NA) for {cli::qty(length(systems))}the system{?s} to draw: {.val {systems}}.",
                  kind = "data", call = call)
  }
  if (any(empty)) {
    warn_irtopics(c("{cli::qty(sum(empty))}System{?s} {.val {systems[empty]}} {cli::qty(sum(empty))}ha{?s/ve} no score on any topic (all NA) and {cli::qty(sum(empty))}{?is/are} not drawn."),
                  kind = "data")
    systems <- systems[!empty]
  }
  attr(systems, "note") <- note
  attr(systems, "all") <- all
  systems
}

# The one rule by which figures of families 1-3 choose their systems when
# the user names none (sorted scores, evaluations, precision-recall curves,
# robust-track bars): the `k` best by `means` (named, one per system: the
# aggregate of the ranking measure, larger is better, as ranking_key()
# gives it for the measure's direction), ties by name (bytes, not the locale;
# means equal to within rounding are ties: tie_means()), systems without a
# mean last, best first. Colours follow this order over all systems, so a
# system keeps its colour from one figure to the next.
best_systems <- function(means, k = max_lines) {
  ord <- order(-tie_means(means), names(means), na.last = TRUE, method = "radix")
  names(means)[utils::head(ord, k)]
}

# What a default choice of `shown` of `n` systems left out, for the caption
# and the message.
dropped_note <- function(shown, n, by = NULL, aggregate = "mean") {
  sprintf("The %d best of %d systems%s; %d not drawn.", shown, n,
          if (is.null(by)) "" else paste(" by", aggregate_labels[[aggregate]], by), n - shown)
}

# Each system's scores sorted from worst to best (NA left out), long.
sorted_scores_long <- function(object, systems) {
  m <- unclass(object)
  rows <- lapply(systems, function(s) {
    v <- sort(m[s, ], na.last = NA)
    data.frame(system = rep(s, length(v)), position = seq_along(v), value = as.vector(v))
  })
  df <- do.call(rbind, rows)
  df$system <- factor(df$system, levels = systems)
  df
}

#' @rdname as.data.frame.ir_scores
#' @exportS3Method tibble::as_tibble
as_tibble.ir_scores <- function(x, ..., na.rm = FALSE) {
  tibble::as_tibble(as.data.frame(x, na.rm = na.rm))
}
# The ir_scores class -----------------------------------------------------------
#
# An ir_scores is a base double matrix (systems in rows, topics in columns,
# both named) with class c("ir_scores", "matrix", "array") and the canonical
# measure name in attr(, "measure"). Because it stays a plain matrix, base
# functions (rowMeans, cor, apply, t) work on it directly; `[` keeps the class
# when the result is still a matrix. NA marks a topic a system did not answer
# (evaluate(missing = "drop")).

#' Build a systems x topics score matrix
#'
#' `ir_scores` objects hold one measure's per-topic scores: systems in rows,
#' topics in columns. [evaluate()] and [read_scores()] return them;
#' `as_ir_scores()` turns a numeric matrix or data frame (systems in rows)
#' into one.
#'
#' @param x A numeric matrix or data frame with systems in rows and topics in
#'   columns. Missing row or column names are filled with `sys1, sys2, ...`
#'   and `t1, t2, ...`.
#' @param measure The measure: its name, stored as `attr(, "measure")`, or
#'   its record ([custom_measure()], [measure_info()]). A name the measure
#'   registry knows brings its record (how systems are summarised over
#'   topics, which way is better); a record also sets
#'   `attr(, "aggregate")` and `attr(, "direction")`, which every summary,
#'   ranking and "best" mark reads (see "Aggregate and direction" in
#'   [measure_info()]). Without either, scores are averaged and higher is
#'   better. Renaming a matrix to a name the registry does not know keeps
#'   its record.
#' @param ... Unused.
#' @param object An `ir_scores` object.
#' @param n Number of systems and topics to print.
#' @param i,j,drop As for matrices.
#' @return An `ir_scores` object: a double matrix with dimnames, class
#'   `c("ir_scores", "matrix", "array")` and attribute `measure` (with
#'   `aggregate` and `direction` when its record is known).
#'
#' @section Methods:
#' * `print()`/`format()`: the measure, the size, the mean (the geometric
#'   mean for a geometric aggregate such as `gm_map`) and the first `n`
#'   systems and topics.
#' * `summary()`: per system, its aggregate when it is not the mean (a
#'   `gmean` or `sum` column), the mean, standard deviation, minimum, median
#'   and maximum over its answered topics, best system first by the aggregate
#'   and the measure's direction (a `summary.ir_scores`, which
#'   `as.data.frame()` turns into that table).
#' * `as.data.frame()`: the long form, see [as.data.frame.ir_scores()];
#'   `autoplot()`: see [autoplot.ir_scores()].
#' * `[` keeps the class while the result is a matrix; `t()` returns a plain
#'   topics x systems matrix.
#' @seealso [read_scores()], [evaluate()], [mean_scores()].
#' @aliases ir_scores
#' @examples
#' m <- matrix(c(.2, .4, .1, .5, .3, .6), nrow = 2,
#'             dimnames = list(c("sysA", "sysB"), c("401", "402", "403")))
#' ap <- as_ir_scores(m, measure = "AP")
#' ap
#' ap[, 1:2]
#' mean_scores(ap)
#' # lower is better: state it with the measure's record
#' err <- as_ir_scores(m, measure = custom_measure("error", direction = "lower"))
#' summary(err)
#' @export
as_ir_scores <- function(x, measure = NULL, ...) {
  UseMethod("as_ir_scores")
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.ir_scores <- function(x, measure = NULL, ...) {
  if (is.null(measure)) return(x)
  check_measure_arg(measure)
  rec <- record_attributes(measure, old = x)
  for (a in names(rec)) attr(x, a) <- rec[[a]]
  x
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.data.frame <- function(x, measure = NULL, ...) {
  bad <- !vapply(x, is.numeric, logical(1))
  if (any(bad)) {
    stop_irtopics(c("Every column of {.arg x} must be numeric.",
                    x = "Column{?s} {.val {names(x)[bad]}} {?is/are} not."))
  }
  m <- as.matrix(x)
  if (is.null(attr(x, "row.names")) || is.integer(attr(x, "row.names"))) rownames(m) <- NULL
  as_ir_scores(m, measure = measure)
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.matrix <- function(x, measure = NULL, ...) {
  if (!is.numeric(x) && !is.logical(x)) {
    stop_irtopics("{.arg x} must be a numeric matrix, not a {.cls {typeof(x)}} matrix.")
  }
  measure <- measure %||% attr(x, "measure") %||% "score"
  check_measure_arg(measure)
  new_ir_scores(x, measure = measure)
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.default <- function(x, measure = NULL, ...) {
  stop_irtopics("Can't turn {.obj_type_friendly {x}} into an {.cls ir_scores}; pass a numeric matrix or data frame.")
}

# `measure`: a name or a record (record_attributes()); the record's
# attributes of `x` are kept when the name is one the registry does not know.
new_ir_scores <- function(x, measure) {
  # a malformed field is the caller's bug: the user-facing functions check
  # `measure` first (check_measure_arg())
  check_measure_arg(measure, kind = "internal")
  rec <- record_attributes(measure, old = x)
  storage.mode(x) <- "double"
  x <- unclass(x)
  attributes(x) <- list(dim = dim(x), dimnames = dimnames(x))
  if (is.null(rownames(x)) && nrow(x)) rownames(x) <- paste0("sys", seq_len(nrow(x)))
  if (is.null(colnames(x)) && ncol(x)) colnames(x) <- paste0("t", seq_len(ncol(x)))
  if (anyDuplicated(rownames(x))) {
    stop_irtopics("System names must be unique; {.val {rownames(x)[duplicated(rownames(x))][1]}} is repeated.")
  }
  if (anyDuplicated(colnames(x))) {
    stop_irtopics("Topic names must be unique; {.val {colnames(x)[duplicated(colnames(x))][1]}} is repeated.")
  }
  for (a in names(rec)) attr(x, a) <- rec[[a]]
  new_result(x, "ir_scores", base = c("matrix", "array"),
             attrs = c(measure = "string", aggregate = "string?", direction = "string?"))
}

# The `measure` of as_ir_scores() and read_scores(): one string or a
# measure record.
check_measure_arg <- function(measure, kind = "argument", call = rlang::caller_env()) {
  if (inherits(measure, "ir_measure_info") || (is.character(measure) && length(measure) == 1L && !is.na(measure))) {
    return(invisible(measure))
  }
  stop_irtopics("{.arg measure} must be a measure name or a measure record ({.fn custom_measure}), not {show_value(measure)}.",
                kind = kind, call = call)
}

#' @rdname as_ir_scores
#' @export
is_ir_scores <- function(x) inherits(x, "ir_scores")

#' Validate a score matrix argument
#'
#' The common entry check of every analysis: accepts an `ir_scores`, a
#' numeric matrix or a data frame (systems in rows) and returns a plain double
#' matrix with dimnames.
#' @param scores The argument.
#' @param allow_na Whether NA scores are allowed.
#' @param min_systems,min_topics Smallest acceptable dimensions.
#' @return A double matrix (no class) with dimnames; attribute `measure`.
#' @keywords internal
#' @noRd
check_scores <- function(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L,
                         arg = "scores", call = rlang::caller_env()) {
  if (inherits(scores, "ir_evaluation")) scores <- single_measure(scores, arg = arg, call = call)
  if (!is_ir_scores(scores)) {
    if (!(is.matrix(scores) || is.data.frame(scores))) {
      stop_irtopics("{.arg {arg}} must be an {.cls ir_scores} or a numeric matrix (systems x topics), not {.obj_type_friendly {scores}}.",
                    call = call)
    }
    if (nrow(scores) < min_systems || ncol(scores) < min_topics) {
      stop_irtopics("{.arg {arg}} must have at least {min_systems} system{?s} (rows) and {min_topics} topic{?s} (columns), not {nrow(scores)} x {ncol(scores)}.",
                    call = call)
    }
    scores <- as_ir_scores(scores)
  }
  measure <- attr(scores, "measure")
  record <- score_record(scores)
  m <- unclass(scores)
  attr(m, "measure") <- NULL
  if (!is.double(m)) storage.mode(m) <- "double"
  m <- check_score_names(m, arg = arg, call = call)
  if (nrow(m) < min_systems) {
    stop_irtopics("{.arg {arg}} must have at least {min_systems} system{?s} (rows), not {nrow(m)}.", call = call)
  }
  if (ncol(m) < min_topics) {
    stop_irtopics("{.arg {arg}} must have at least {min_topics} topic{?s} (columns), not {ncol(m)}.", call = call)
  }
  if (!allow_na && anyNA(m)) {
    check_answered_systems(m, arg, call = call)  # a system without scores: drop the system, not a topic
    where <- which(is.na(m), arr.ind = TRUE)[1, ]
    stop_irtopics(c("{.arg {arg}} must not contain NA scores.",
                    x = "System {.val {rownames(m)[where[1]]}} has NA on topic {.val {colnames(m)[where[2]]}}.",
                    i = "Evaluate with {.code missing = \"zero\"} or drop the topic."),
                  kind = "data", call = call)
  }
  if (any(!is.finite(m) & !is.na(m))) {
    stop_irtopics("{.arg {arg}} must contain finite scores.", kind = "data", call = call)
  }
  if (any(abs(m) > max_score, na.rm = TRUE)) {
    stop_irtopics("{.arg {arg}} must contain scores of magnitude at most {format(max_score)} (sums of squares of larger ones overflow).",
                  kind = "data", call = call)
  }
  attr(m, "measure") <- measure
  # the record travels with the matrix (an analysis may drop the name)
  attr(m, "aggregate") <- record$aggregate
  attr(m, "direction") <- record$direction
  m
}

# An ir_evaluation where an analysis takes one score matrix (every analysis
# goes through check_scores()): its only measure, or an error naming the
# measures and how to pick one or run the analysis per measure.
single_measure <- function(x, arg = "scores", call = rlang::caller_env()) {
  nms <- names(unclass(x))
  if (length(nms) == 1L) return(.subset2(x, 1L))
  if (!length(nms)) stop_irtopics("{.arg {arg}} is an {.cls ir_evaluation} without measures.", call = call)
  pick <- function(nm) if (make.names(nm) == nm) paste0("$", nm) else paste0("[[\"", nm, "\"]]")
  stop_irtopics(c("{.arg {arg}} must be one measure's scores, not an {.cls ir_evaluation} of {length(nms)} measures.",
                  i = "Measures: {.val {nms}}.",
                  i = "Pick one, e.g. {.code res{pick(nms[1])}}, or one result per measure: {.code lapply(res, <function>)}."),
                kind = "argument", call = call, measures = nms)
}

# Largest score magnitude the analyses accept: the variance and ANOVA
# computations square and sum scores, which overflows to Inf near 1e154.
max_score <- 1e100

# The dimnames of a score matrix, which users can edit on an ir_scores
# (`rownames<-`, `dimnames<-`): missing names are filled (sys1, t1, ...);
# NA, empty or duplicated names are an error.
check_score_names <- function(m, arg = "scores", call = rlang::caller_env()) {
  if (is.null(rownames(m)) && nrow(m)) rownames(m) <- paste0("sys", seq_len(nrow(m)))
  if (is.null(colnames(m)) && ncol(m)) colnames(m) <- paste0("t", seq_len(ncol(m)))
  for (side in c("system", "topic")) {
    nm <- if (side == "system") rownames(m) else colnames(m)
    bad <- which(is.na(nm) | !nzchar(nm))
    if (length(bad)) {
      stop_irtopics("{.arg {arg}}: {side} names must not be NA or empty ({side} {bad[1]} is {show_value(nm[bad[1]])}).",
                    kind = "data", call = call)
    }
    if (anyDuplicated(nm)) {
      dup <- show_bytes(nm[duplicated(nm)][1])
      stop_irtopics("{.arg {arg}}: {side} names must be unique; {.val {dup}} is repeated.",
                    kind = "data", call = call)
    }
  }
  m
}

#' @rdname as_ir_scores
#' @export
`[.ir_scores` <- function(x, i, j, ..., drop = TRUE) {
  measure <- attr(x, "measure")
  rec <- score_record(x)
  out <- NextMethod()
  if (!is.matrix(out)) return(out)
  attr(out, "aggregate") <- rec$aggregate
  attr(out, "direction") <- rec$direction
  new_ir_scores(out, measure)
}

#' @rdname as_ir_scores
#' @export
t.ir_scores <- function(x) {
  out <- t(unclass(x))
  for (a in c("measure", "aggregate", "direction")) attr(out, a) <- NULL
  out
}

#' @rdname as_ir_scores
#' @export
print.ir_scores <- function(x, ..., n = 6L) print_formatted(x, n = n)

#' @rdname as_ir_scores
#' @export
format.ir_scores <- function(x, ..., n = 6L) {
  check_shown(n = n)
  n_na <- sum(is.na(x))
  # the mean of every system-topic pair; the geometric one for a geometric
  # aggregate (a sum over topics is shown per system by summary())
  geometric <- score_record(x)$aggregate == "gmean"
  all_pairs <- function(v) {
    if (geometric) exp(mean(aggregate_scale(v, "gmean"), na.rm = TRUE)) else mean(v, na.rm = TRUE)
  }
  head <- sprintf("<ir_scores> %s: %d system%s x %d topic%s, %s %s%s",
                  attr(x, "measure") %||% "score",
                  nrow(x), if (nrow(x) == 1) "" else "s",
                  ncol(x), if (ncol(x) == 1) "" else "s", if (geometric) "geometric mean" else "mean",
                  if (all(is.na(x))) "NA" else formatC(all_pairs(unclass(x)), digits = 4, format = "f"),
                  if (n_na) sprintf(" (%d unanswered system-topic pairs)", n_na) else "")
  if (!length(x)) return(head)
  shown <- unclass(x)[seq_len(min(n, nrow(x))), seq_len(min(n, ncol(x))), drop = FALSE]
  attr(shown, "measure") <- NULL
  c(head, printed_lines(print(round(shown, 4))),
    more_line(system = nrow(x) - nrow(shown), topic = ncol(x) - ncol(shown)))
}

#' @rdname as_ir_scores
#' @export
summary.ir_scores <- function(object, ...) {
  m <- unclass(object)
  rec <- score_record(object)
  # Systems without any answered topic (or an empty matrix) get NA, not the
  # warnings and +-Inf of min()/max() over nothing.
  per_row <- function(f) {
    vapply(seq_len(nrow(m)), function(i) {
      v <- m[i, ][!is.na(m[i, ])]
      if (length(v)) f(v) else NA_real_
    }, numeric(1))
  }
  out <- data.frame(
    system = rownames(m) %||% character(),
    mean = per_row(mean),
    sd = per_row(stats::sd),
    min = per_row(min),
    median = per_row(stats::median),
    max = per_row(max),
    topics = as.integer(rowSums(!is.na(m))),
    row.names = NULL
  )
  # the measure's aggregate, when it is not the mean, orders the systems
  key <- if (rec$aggregate == "mean") out$mean else aggregate_rows(m, rec$aggregate)
  if (rec$aggregate != "mean") out <- cbind(out[1], stats::setNames(data.frame(unname(key)), rec$aggregate), out[-1])
  out <- out[order(-better_sign(rec$direction) * key, out$system), , drop = FALSE]
  rownames(out) <- NULL
  new_summary("ir_scores", sprintf("Per-system summary of %s over %s topics",
                                   attr(object, "measure") %||% "score", max(out$topics)), out)
}

#' Long form of a score matrix
#'
#' @param x An `ir_scores` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @param na.rm Drop unanswered (NA) system-topic pairs.
#' @return A data frame with columns `system`, `topic`, `measure`, `value`,
#'   one row per system-topic pair (systems vary slowest);
#'   `tibble::as_tibble()` gives the same as a tibble.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(as.data.frame(ap))
#' @export
as.data.frame.ir_scores <- function(x, row.names = NULL, optional = FALSE, ..., na.rm = FALSE) {
  m <- unclass(x)
  out <- data.frame(
    system = rep(rownames(m) %||% character(), times = ncol(m)),
    topic = rep(colnames(m) %||% character(), each = nrow(m)),
    measure = rep(attr(x, "measure") %||% "score", length(m)),
    value = as.vector(m),
    stringsAsFactors = FALSE
  )
  out <- out[order(match(out$system, rownames(m))), , drop = FALSE]
  if (na.rm) out <- out[!is.na(out$value), , drop = FALSE]
  rownames(out) <- NULL
  out
}
