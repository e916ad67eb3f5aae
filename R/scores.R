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
#' @param measure The measure's name, stored as `attr(, "measure")`.
#' @param ... Unused.
#' @param object An `ir_scores` object.
#' @param n Number of systems and topics to print.
#' @param i,j,drop As for matrices.
#' @return An `ir_scores` object: a double matrix with dimnames, class
#'   `c("ir_scores", "matrix", "array")` and attribute `measure`.
#'
#' @section Methods:
#' * `print()`/`format()`: the measure, the size, the mean and the first `n`
#'   systems and topics.
#' * `summary()`: per system, the mean, standard deviation, minimum, median
#'   and maximum over its answered topics, best system first (a
#'   `summary.ir_scores`, which `as.data.frame()` turns into that table).
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
#' @export
as_ir_scores <- function(x, measure = NULL, ...) {
  UseMethod("as_ir_scores")
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.ir_scores <- function(x, measure = NULL, ...) {
  if (!is.null(measure)) attr(x, "measure") <- measure
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
  new_ir_scores(x, measure = measure %||% attr(x, "measure") %||% "score")
}

#' @rdname as_ir_scores
#' @export
as_ir_scores.default <- function(x, measure = NULL, ...) {
  stop_irtopics("Can't turn {.obj_type_friendly {x}} into an {.cls ir_scores}; pass a numeric matrix or data frame.")
}

new_ir_scores <- function(x, measure) {
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
  attr(x, "measure") <- measure
  new_result(x, "ir_scores", base = c("matrix", "array"), attrs = c(measure = "string"))
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
  out <- NextMethod()
  if (is.matrix(out)) new_ir_scores(out, measure) else out
}

#' @rdname as_ir_scores
#' @export
t.ir_scores <- function(x) {
  out <- t(unclass(x))
  attr(out, "measure") <- NULL
  out
}

#' @rdname as_ir_scores
#' @export
print.ir_scores <- function(x, ..., n = 6L) print_formatted(x, n = n)

#' @rdname as_ir_scores
#' @export
format.ir_scores <- function(x, ..., n = 6L) {
  n_na <- sum(is.na(x))
  head <- sprintf("<ir_scores> %s: %d system%s x %d topic%s, mean %s%s",
                  attr(x, "measure") %||% "score",
                  nrow(x), if (nrow(x) == 1) "" else "s",
                  ncol(x), if (ncol(x) == 1) "" else "s",
                  if (all(is.na(x))) "NA" else formatC(mean(unclass(x), na.rm = TRUE), digits = 4, format = "f"),
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
  out <- out[order(-out$mean, out$system), , drop = FALSE]
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

# Aggregates -------------------------------------------------------------------

#' Per-system means of a score matrix
#'
#' `mean_scores()` is the arithmetic mean over topics (MAP for an AP matrix),
#' `gmean_scores()` the geometric mean (GMAP), computed with [gmap()] per
#' system.
#'
#' Unanswered topics (NA, from `evaluate(missing = "drop")`) are left out of
#' each system's mean, as trec_eval does without `-c`.
#'
#' With `accumulate = "trec_eval"`, `mean_scores()` returns the value
#' trec_eval prints on its `all` line, to the last bit: the topics are
#' added in trec_eval's order (topic ids in byte order) with a running
#' double-precision sum, then divided by their number (`rowMeans()` sums in
#' extended precision, which can change the 4th printed decimal, e.g. for
#' P@200 or P@1000); counts from [evaluate()] (`NumRet`, `NumRel`,
#' `NumRelRet`, `NumQ`, `NumNonrelJudgedRet`) are summed and `gm_map` /
#' `gm_bpref` are geometric means of the values floored at 1e-5, as
#' trec_eval does. [write_trec_eval()] prints these values.
#'
#' @param x An `ir_scores` object or numeric matrix (systems in rows); for
#'   `mean_scores()` also an [ir_evaluation] from [evaluate()].
#' @param accumulate `"exact"` (default; [rowMeans()]) or `"trec_eval"`
#'   (trec_eval's `all` value; see Details).
#' @inheritParams gmap
#' @return A named numeric vector, one value per system; for an
#'   `ir_evaluation`, a data frame with a `system` column and one column per
#'   measure.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(mean_scores(ap))
#' head(mean_scores(ap, accumulate = "trec_eval"))
#' head(gmean_scores(ap))
#' head(gmean_scores(ap, method = "floor"))   # trec_eval's gm_map
#' @export
mean_scores <- function(x, accumulate = c("exact", "trec_eval")) {
  accumulate <- match_choice(accumulate, c("exact", "trec_eval"), "accumulate")
  if (inherits(x, "ir_evaluation")) return(evaluation_means(x, accumulate))
  summary <- attr(x, "summary") %||% "mean"
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x")
  if (accumulate == "trec_eval") return(trec_eval_summary(m, summary))
  out <- rowMeans(m, na.rm = TRUE)
  out[is.nan(out)] <- NA_real_  # a system without any answered topic
  out
}

#' @rdname mean_scores
#' @export
gmean_scores <- function(x, eps = 1e-5, method = c("add", "floor", "replace0")) {
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "x")
  method <- match_choice(method)
  check_number(eps, "eps", min = .Machine$double.xmin)
  if (any(m < 0, na.rm = TRUE)) {
    stop_irtopics("{.arg x} must not contain negative scores for a geometric mean.", kind = "data")
  }
  apply(m, 1, function(v) gmap_impl(v[!is.na(v)], eps, method))
}

#' Geometric mean average precision
#'
#' The geometric mean of per-topic scores with one of three conventions for
#' zero scores:
#' * `"add"` (default): \eqn{\exp(\frac{1}{T}\sum_t \ln(AP_t + \epsilon)) -
#'   \epsilon}, as in the TREC 2004 Robust track overview (Voorhees 2004).
#' * `"floor"`: \eqn{\exp(\frac{1}{T}\sum_t \ln\max(AP_t, \epsilon))}, as
#'   trec_eval's `gm_map` (which uses \eqn{\epsilon = 10^{-5}}).
#' * `"replace0"`: zeros are replaced by \eqn{\epsilon} and other values are
#'   left alone, as in CLEF and Mandl (2009), who use \eqn{\epsilon = 10^{-4}}.
#'
#' @param ap A numeric vector of non-negative per-topic scores.
#' @param eps The \eqn{\epsilon} of the convention.
#' @param method One of `"add"`, `"floor"`, `"replace0"`.
#' @return A number; `NA` for an empty vector.
#' @references Voorhees, E. M. (2004). Overview of the TREC 2004 Robust
#'   Retrieval Track. TREC 2004.
#' @examples
#' ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
#' gmap(ap)                                  # 0.0316370627
#' gmap(ap, method = "floor")                # 0.0316437816
#' gmap(ap, eps = 1e-4, method = "replace0") # 0.0464467194
#' @export
gmap <- function(ap, eps = 1e-5, method = c("add", "floor", "replace0")) {
  method <- match_choice(method)
  if (!is.numeric(ap)) stop_irtopics("{.arg ap} must be a numeric vector.")
  if (anyNA(ap)) stop_irtopics("{.arg ap} must not contain NA.", kind = "data")
  if (any(ap < 0)) stop_irtopics("{.arg ap} must not contain negative scores.", kind = "data")
  check_number(eps, "eps", min = .Machine$double.xmin)
  gmap_impl(ap, eps, method)
}

gmap_impl <- function(ap, eps, method) {
  if (!length(ap)) return(NA_real_)
  switch(method,
    # exp(log(eps)) - eps is not exactly 0 in floating point: a mean of zeros
    # would come out as -3.4e-21. A geometric mean is never negative.
    add = max(0, exp(mean(log(ap + eps))) - eps),
    floor = exp(mean(log(pmax(ap, eps)))),
    replace0 = exp(mean(log(ifelse(ap == 0, eps, ap))))
  )
}

# Reading score files ------------------------------------------------------------

#' Read a per-topic score file
#'
#' Reads a CSV of per-topic scores with topics in rows and systems in
#' columns (the layout of the published TREC score matrices shipped in
#' `inst/extdata/score-matrices`) and returns an `ir_scores` with systems in
#' rows.
#'
#' @param path Path to a CSV file (plain or `.gz`).
#' @param measure The measure's name to store.
#' @param topic_col The column holding topic ids: a name or number, `NULL`
#'   (default) to use a column named `topic`, `topics`, `query` or `qid` if
#'   there is one, or `FALSE` for none (topics are then numbered `t1, t2, ...`).
#' @return An `ir_scores` (systems x topics).
#' @examples
#' path <- system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                     package = "irtopics")
#' ap <- read_scores(path, measure = "AP")
#' ap
#' @export
read_scores <- function(path, measure = "score", topic_col = NULL) {
  check_file(path)
  # Every line must have as many fields as the header: read.csv() would
  # otherwise take a line with one extra field as a row name (every system
  # moving one column) or pad a short line silently.
  nf <- tryCatch(utils::count.fields(path, sep = ",", quote = "\"", blank.lines.skip = FALSE,
                                     comment.char = ""),
                 error = function(e) {
                   stop_irtopics(c("Can't read {.file {path}} as CSV.", x = conditionMessage(e)),
                                 kind = "parse", file = path)
                 })
  bad <- which(!is.na(nf) & nf > 0 & nf != nf[1])
  if (length(bad)) {
    line <- bad[1]
    stop_irtopics(c("{.file {path}}: line {line} has {nf[line]} field{?s}, but the header has {nf[1]}.",
                    i = "Every line needs one value per column (a topic id and one score per system)."),
                  kind = "parse", file = path, line = line)
  }
  # Everything as text first: ids are kept exactly as written ("001" stays
  # "001"), and scores are converted below, naming the line of a bad one.
  df <- tryCatch(
    utils::read.csv(path, check.names = FALSE, stringsAsFactors = FALSE, strip.white = TRUE,
                    colClasses = "character", row.names = NULL, na.strings = c("NA", ""),
                    comment.char = ""),
    error = function(e) {
      stop_irtopics(c("Can't read {.file {path}} as CSV.", x = conditionMessage(e)), kind = "parse", file = path)
    }
  )
  if (!nrow(df) || !ncol(df)) stop_irtopics("{.file {path}} holds no scores.", kind = "file", file = path)
  names(df) <- strip_bom(names(df))
  # the data lines' physical line numbers (blank lines are skipped)
  lines <- which(!is.na(nf) & nf > 0)[-1]
  if (is.null(topic_col)) {
    hit <- which(tolower(names(df)) %in% c("topic", "topics", "query", "qid"))
    # write.csv() writes the row names (the topic ids) under an empty name
    if (!length(hit) && !nzchar(names(df)[1])) hit <- 1L
    topic_col <- if (length(hit)) hit[1] else FALSE
  }
  topics <- NULL
  if (!isFALSE(topic_col)) {
    idx <- if (is.character(topic_col)) match(topic_col, names(df)) else topic_col
    if (length(idx) != 1L || is.na(idx) || idx < 1 || idx > ncol(df)) {
      stop_irtopics("{.arg topic_col} must name a column of {.file {path}}.")
    }
    topics <- df[[idx]]
    if (anyNA(topics)) {
      row <- which(is.na(topics))[1]
      stop_irtopics("{.file {path}}: line {lines[row]} has no topic id.", kind = "parse", file = path,
                    line = lines[row])
    }
    df <- df[-idx]
  }
  if (!ncol(df)) stop_irtopics("{.file {path}} holds no scores.", kind = "file", file = path)
  unnamed <- which(!nzchar(names(df)))
  if (length(unnamed)) {
    stop_irtopics(c("{.file {path}}: column {unnamed[1] + !isFALSE(topic_col)} has no system name.",
                    i = "Name every system in the header line."), kind = "parse", file = path, line = 1L)
  }
  for (col in names(df)) {
    v <- df[[col]]
    num <- suppressWarnings(as.numeric(v))
    # as.numeric() also takes hex and white space; scores are decimal numbers
    wrong <- which((is.na(num) & !is.na(v)) | grepl("^[+-]?0[xX]", v))
    if (length(wrong)) {
      row <- wrong[1]
      stop_irtopics(c("{.file {path}}: column {.val {col}} must hold numbers.",
                      x = "Line {lines[row]} has {.val {v[row]}}."), kind = "parse", file = path,
                    line = lines[row])
    }
    df[[col]] <- num
  }
  m <- t(as.matrix(df))
  colnames(m) <- topics %||% paste0("t", seq_len(ncol(m)))
  new_ir_scores(m, measure)
}

check_file <- function(path, arg = "path", call = rlang::caller_env()) {
  if (!is.character(path) || length(path) != 1L || is.na(path)) {
    stop_irtopics("{.arg {arg}} must be a single file path.", call = call)
  }
  # `file` as on the C++ reader's errors (raise_input_error()).
  if (!file.exists(path)) stop_irtopics("File {.file {path}} does not exist.", kind = "file", file = path, call = call)
  # The reason matters: a device, a FIFO or a socket is not "empty", and a
  # /proc file has size 0 but content (cpp_file_kind() reads one byte).
  what <- cpp_file_kind(path.expand(path))
  if (what == "directory") stop_irtopics("{.file {path}} is a directory, not a file.", kind = "file", file = path, call = call)
  if (what == "empty") stop_irtopics("File {.file {path}} is empty.", kind = "file", file = path, call = call)
  if (what %in% c("fifo", "device", "socket", "other")) {
    label <- c(fifo = "a FIFO (named pipe)", device = "a device", socket = "a socket", other = "not a regular file")[[what]]
    stop_irtopics("{.file {path}} is {label}, not a regular file.", kind = "file", file = path, call = call)
  }
  invisible(path)
}
