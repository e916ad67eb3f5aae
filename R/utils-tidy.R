# broom conventions: tidy() and glance() ----------------------------------------
#
# The methods are registered on the generics package's generics when it is
# loaded (delayed S3 registration, as for tibble::as_tibble), so that
# tidy(x) from broom or generics works without irtopics importing either.

# Every result class with a tidy() and a glance() method: derived, not kept by
# hand, as every class with an as.data.frame() method (all result classes but
# the context passed to indicator functions). Read from the namespace's
# functions, so roxygen's @evalNamespace below registers a new class's methods
# when NAMESPACE is regenerated.
tidy_classes <- function() {
  ns <- topenv(environment(tidy_classes))
  methods <- ls(ns, pattern = "^as[.]data[.]frame[.]ir_", all.names = TRUE)
  sort(sub("^as[.]data[.]frame[.]", "", methods))
}

tidy_namespace <- function() {
  c(sprintf("S3method(generics::tidy,%s,tidy_irtopics)", tidy_classes()),
    sprintf("S3method(generics::glance,%s,glance_irtopics)", tidy_classes()))
}

# The help page's aliases: ?tidy.ir_comparison finds it.
tidy_aliases <- function() {
  paste0("\\alias{", c(paste0("tidy.", tidy_classes()), paste0("glance.", tidy_classes())), "}")
}

#' Tidy and glance at irtopics results (broom conventions)
#'
#' Every irtopics result has methods for the `tidy()` and `glance()`
#' generics of the generics package, which broom re-exports: with broom (or
#' generics) loaded, `tidy(x)` and `glance(x)` work on any of them, and so do
#' tools built on broom (e.g. modelsummary). irtopics does not import broom.
#' * `tidy()`: the tidy long table of the result, one row per estimate,
#'   identical to `as.data.frame(x)` (for a comparison: one row per pair and
#'   measure with `estimate`, `conf.low`, `conf.high`, `statistic`,
#'   `p.value`, as broom names them).
#' * `glance()`: one row of the result's scalar settings and summary numbers
#'   (e.g. `measure`, `B`, `seed`, `n_systems`, `n_topics`, `estimate`; for
#'   an evaluation, the numbers of [ir_evaluation]'s "At a glance").
#'
#' `augment()` is not provided: no irtopics result is a model fitted to
#' observations that it could add columns to.
#'
#' @param x An irtopics result (any of the classes listed in
#'   `irtopics:::tidy_classes()`: every class with an `as.data.frame()`
#'   method).
#' @param ... Unused.
#' @return A data frame.
#' @name irtopics_tidy
#' @evalNamespace tidy_namespace()
#' @evalRd tidy_aliases()
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                              package = "irtopics"), measure = "AP")
#' cmp <- compare_systems(x[1:4, ], test = "t")
#' if (requireNamespace("generics", quietly = TRUE)) {
#'   head(generics::tidy(cmp))
#'   generics::glance(cmp)
#' }
NULL

tidy_irtopics <- function(x, ...) {
  out <- as.data.frame(x)
  rownames(out) <- NULL
  out
}

glance_irtopics <- function(x, ...) {
  if (inherits(x, "ir_evaluation")) return(glance_evaluation(x))  # R/eval-evaluation.R
  if (is.matrix(x)) {
    return(data.frame(measure = attr(x, "measure") %||% NA_character_, n_systems = nrow(x),
                      n_topics = ncol(x), mean = mean(x, na.rm = TRUE), stringsAsFactors = FALSE))
  }
  fields <- if (is.data.frame(x)) {
    a <- attributes(x)
    a[setdiff(names(a), c("names", "row.names", "class"))]
  } else if (is.list(x)) {
    unclass(x)
  } else {
    list()
  }
  one <- Filter(function(v) is.atomic(v) && length(v) == 1L && !is.null(names(fields)), fields)
  one <- one[nzchar(names(one))]
  if (is.data.frame(x)) one <- c(list(n_rows = nrow(x)), one)
  if (!length(one)) return(data.frame(n = length(x)))
  as.data.frame(lapply(one, function(v) if (is.factor(v)) as.character(v) else unname(v)),
                stringsAsFactors = FALSE, optional = TRUE)
}

#' Convert scores and evaluations to data.table
#'
#' `data.table::as.data.table()` of an `ir_scores` or an `ir_evaluation`
#' gives the tidy long form of `as.data.frame()` (columns `system`, `topic`,
#' and the value columns), so the system names are kept: data.table's own
#' matrix and list methods would drop the row names (the systems) or spread
#' each matrix into columns. Registered when data.table is loaded; irtopics
#' does not import it.
#'
#' @param x An `ir_scores` or `ir_evaluation`.
#' @param keep.rownames,... Unused (the systems are a column).
#' @return A data.table.
#' @name irtopics_data_table
#' @examples
#' if (requireNamespace("data.table", quietly = TRUE)) {
#'   x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                                package = "irtopics"), measure = "AP")
#'   data.table::as.data.table(x[1:3, 1:4])
#' }
NULL

#' @rdname irtopics_data_table
#' @exportS3Method data.table::as.data.table
as.data.table.ir_scores <- function(x, keep.rownames = FALSE, ...) {
  data.table::as.data.table(as.data.frame(x))
}

#' @rdname irtopics_data_table
#' @exportS3Method data.table::as.data.table
as.data.table.ir_evaluation <- function(x, keep.rownames = FALSE, ...) {
  data.table::as.data.table(as.data.frame(x))
}
