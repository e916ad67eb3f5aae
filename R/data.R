# Run metadata of the shipped TREC ad hoc score matrices, and subsetting a
# score matrix by systems.

#' Who the systems of the TREC-6/7/8 ad hoc matrices are
#'
#' The score matrices `adhoc6_ap.csv`, `adhoc7_ap.csv` and `adhoc8_ap.csv`
#' (and their P@10 twins) shipped in `extdata/score-matrices` have anonymous
#' systems `run1`, `run2`, ... `trec_runs()` tells which official TREC run
#' each one is, so that a matrix can be restricted to, say, the automatic
#' runs with [subset_systems()].
#'
#' The run names, participants and types come from NIST's public TREC run
#' listings (the ad hoc "Runs" and "Results" pages of 1997, 1998 and 1999 in
#' usnistgov/trec-browser). They were matched to the anonymous columns by
#' MAP: every column's mean AP equals its run's official MAP within
#' \eqn{6 \times 10^{-5}}, the columns are in the listing's order, and P@10
#' agrees too.
#'
#' `lee2009_subset` marks the runs that reproduce the run counts of Lee et
#' al. (2009), Table 2 (56, 96 and 116 runs): TREC-6, the 57 automatic
#' Category A runs without `nmsu1` (56 runs; `nmsu1`, MAP 0.0028, is not
#' in the subset); TREC-7, the 86 automatic runs (the paper had 96: its 10
#' further runs were manual runs that cannot be identified, so they are
#' left out); TREC-8, the 116 automatic runs. This choice is a
#' reconstruction: the paper gives only the counts. It is supported by the
#' HITS column of that table, which these subsets reproduce exactly
#' (r(MAP, A(s)) = .958, .995 and .996), while the full run sets give
#' .991 to .998.
#'
#' @param collection `NULL` (all three) or some of `"adhoc6"`, `"adhoc7"`,
#'   `"adhoc8"`.
#' @return A data frame with one row per system: `collection`, `system` (the
#'   row name in the score matrix), `run` (official run tag), `participant`,
#'   `type` (`"automatic"` or `"manual"`), `map` (official MAP, 4 decimals)
#'   and `lee2009_subset` (logical).
#' @references Lee, C. T., Kazai, G., Vinay, V., Milic-Frayling, N., Mendes
#'   Rodrigues, E., Ignjatovic, A. (2009). Measuring system performance and
#'   topic discernment using generalized adaptive-weight mean. CIKM 2009.
#' @seealso [subset_systems()]; `vignette("gawm", package = "irtopics")`.
#' @examples
#' runs <- trec_runs("adhoc7")
#' head(runs)
#' table(runs$type)
#' @export
trec_runs <- function(collection = NULL) {
  all <- utils::read.csv(system.file("extdata", "trec-runs", "adhoc678_runs.csv", package = "irtopics"),
                         stringsAsFactors = FALSE)
  if (is.null(collection)) return(all)
  known <- unique(all$collection)
  if (!is.character(collection) || !length(collection) || anyNA(collection) || !all(collection %in% known)) {
    stop_irtopics(c("{.arg collection} must be some of {quoted_list(known)}.",
                    x = "Got {show_values(collection)}."))
  }
  out <- all[all$collection %in% collection, , drop = FALSE]
  rownames(out) <- NULL
  out
}

#' Keep some systems of a score matrix
#'
#' Restricts a score matrix to some of its systems (rows), either named
#' directly or selected by a condition on a table of run metadata such as
#' [trec_runs()]. The result keeps the class and measure of the input and
#' the order of its rows.
#'
#' @param scores An [ir_scores][as_ir_scores] object or numeric matrix,
#'   systems in rows, or an [ir_evaluation] (the same systems are kept for
#'   every measure).
#' @param subset Without `runs`: a character vector of system names (row
#'   names), or a logical vector with one value per system. With `runs`: a
#'   condition evaluated in `runs`, e.g. `type == "automatic"` (rows where
#'   it is `NA` are dropped).
#' @param runs `NULL`, or a data frame describing the systems, with a column
#'   `system` holding the row names of `scores` (as returned by
#'   [trec_runs()]). Every system of `scores` must be in it. When `runs`
#'   has a column `map` and `scores` is an AP matrix, each system's mean
#'   must equal its `map` within 1e-4, which catches metadata of the wrong
#'   collection.
#' @return `scores` restricted to the selected systems.
#' @seealso [trec_runs()].
#' @examples
#' ap7 <- read_scores(system.file("extdata", "score-matrices", "adhoc7_ap.csv",
#'                                package = "irtopics"), measure = "AP")
#' # The automatic runs of TREC-7:
#' auto7 <- subset_systems(ap7, type == "automatic", runs = trec_runs("adhoc7"))
#' dim(auto7)
#' # The runs of Lee et al. (2009), Table 2:
#' dim(subset_systems(ap7, lee2009_subset, runs = trec_runs("adhoc7")))
#' # By name:
#' subset_systems(ap7, c("run1", "run5"))
#' @export
subset_systems <- function(scores, subset, runs = NULL) {
  # An ir_evaluation: the same systems of every measure (its `[` method).
  first <- if (inherits(scores, "ir_evaluation") && length(scores)) .subset2(scores, 1L) else scores
  m <- check_scores(first, allow_na = TRUE, min_systems = 1L, min_topics = 1L)
  sys <- rownames(m)
  if (is.null(runs)) {
    keep <- subset_by_value(subset, sys)
  } else {
    check_runs(runs, m)
    cond <- rlang::eval_tidy(rlang::enquo(subset), data = runs)
    if (!is.logical(cond) || !length(cond) %in% c(1L, nrow(runs))) {
      stop_irtopics("{.arg subset} must be a condition on the columns of {.arg runs} (one TRUE/FALSE per run).")
    }
    chosen <- runs$system[rep_len(cond, nrow(runs)) %in% TRUE]
    keep <- sys %in% chosen
  }
  if (!any(keep)) stop_irtopics("{.arg subset} selects no system.", kind = "data")
  scores[keep, , drop = FALSE]
}

subset_by_value <- function(subset, sys, call = rlang::caller_env()) {
  if (is.logical(subset)) {
    if (length(subset) != length(sys) || anyNA(subset)) {
      stop_irtopics("A logical {.arg subset} must have one TRUE/FALSE per system ({length(sys)}), without NA.",
                    call = call)
    }
    return(subset)
  }
  if (!is.character(subset) || anyNA(subset)) {
    stop_irtopics("{.arg subset} must be system names or a logical vector, not {.obj_type_friendly {subset}}.",
                  call = call)
  }
  check_names_in(subset, sys, arg = "subset", call = call)
  sys %in% subset
}

check_runs <- function(runs, m, call = rlang::caller_env()) {
  if (!is.data.frame(runs) || !"system" %in% names(runs) || anyDuplicated(runs$system)) {
    stop_irtopics("{.arg runs} must be a data frame with a column {.field system} of distinct system names.",
                  call = call)
  }
  missing <- setdiff(rownames(m), runs$system)
  if (length(missing)) {
    stop_irtopics(c("{.arg runs} does not describe every system of {.arg scores}.",
                    x = "{length(missing)} system{?s} not in {.arg runs}, e.g. {.val {missing[1]}}."),
                  kind = "data", call = call)
  }
  if ("map" %in% names(runs) && is_measure(attr(m, "measure"), "AP")) {
    official <- runs$map[match(rownames(m), runs$system)]
    off <- abs(rowMeans(m) - official) > 1e-4
    if (any(off, na.rm = TRUE)) {
      stop_irtopics(c("The MAPs in {.arg runs} do not match the scores: the metadata describe another collection?",
                      x = "{sum(off, na.rm = TRUE)} system{?s} differ{?s/} by more than 1e-4, e.g. {.val {rownames(m)[which(off)[1]]}}."),
                    kind = "data", call = call)
    }
  }
  invisible(runs)
}
