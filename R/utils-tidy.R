# broom conventions: tidy() and glance() ----------------------------------------
#
# The methods are registered on the generics package's generics when it is
# loaded (delayed S3 registration, as for tibble::as_tibble), so that
# tidy(x) from broom or generics works without irtopics importing either.

# Every result class with a tidy() and a glance() method (the classes of the
# class rules, less the context passed to indicator functions).
tidy_classes <- c(
  "ir_alpha_bootstrap", "ir_alpha_curve", "ir_anova", "ir_calibration", "ir_collection_diagnostics",
  "ir_comparison", "ir_critical_values", "ir_d_study", "ir_discriminative_power",
  "ir_evaluation", "ir_exclusion", "ir_g_study", "ir_gawm", "ir_group_agreement",
  "ir_hits", "ir_indicator_differences", "ir_margin", "ir_measure_info", "ir_pr_curve", "ir_prediction_curves",
  "ir_qrels", "ir_query_map", "ir_query_selection", "ir_return_order_dist", "ir_return_orders",
  "ir_robust_summary", "ir_run", "ir_runs", "ir_scores", "ir_sim_model", "ir_simulated_query_runs",
  "ir_smoothed", "ir_smoothing", "ir_swap_error_rates", "ir_topic_indicators",
  "ir_topic_set_size", "ir_topics_needed", "ir_weighting_correlations"
)

tidy_namespace <- function() {
  c(sprintf("S3method(generics::tidy,%s,tidy_irtopics)", tidy_classes),
    sprintf("S3method(generics::glance,%s,glance_irtopics)", tidy_classes))
}

# The help page's aliases: ?tidy.ir_comparison finds it.
tidy_aliases <- function() {
  paste0("\\alias{", c(paste0("tidy.", tidy_classes), paste0("glance.", tidy_classes)), "}")
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
#'   (e.g. `measure`, `B`, `seed`, `n_systems`, `n_topics`, `estimate`).
#'
#' `augment()` is not provided: no irtopics result is a model fitted to
#' observations that it could add columns to.
#'
#' @param x An irtopics result (any of the classes listed in
#'   `irtopics:::tidy_classes`).
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
