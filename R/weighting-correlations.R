# Long form shared by gawm() and hits() results: one row per system or topic
# and quantity, from their `systems` and `topics` data frames.
weights_long <- function(x) {
  long <- function(df, entity, id) {
    qs <- setdiff(names(df), id)
    data.frame(entity = entity, id = rep(df[[id]], times = length(qs)),
               quantity = rep(qs, each = nrow(df)), value = unlist(df[qs], use.names = FALSE),
               stringsAsFactors = FALSE)
  }
  out <- rbind(long(x$systems, "system", "system"), long(x$topics, "topic", "topic"))
  rownames(out) <- NULL
  out
}

# Table 2 ---------------------------------------------------------------------

#' Correlations of adaptive weights with the plain means (GAWM Table 2)
#'
#' For each score matrix, the Pearson correlations of Lee et al. (2009),
#' Table 2: MAP with the GAWM system performance \eqn{E_s} and with the HITS
#' system authority \eqn{A(s)}; AAP (the per-topic mean over systems) with
#' the GAWM topic ease \eqn{E_t} and with the HITS topic authority
#' \eqn{A(t)}.
#'
#' @param list_of_scores A list of [ir_scores][as_ir_scores] objects or numeric matrices
#'   (systems x topics), one per collection. Names label the rows (default
#'   `collection1`, ...).
#' @param ... For `weighting_correlations()`: passed to [gawm()], e.g. `q`,
#'   or `mean = "geometric"` (with `floor`) for the reading that reproduces
#'   the paper's GAWM columns; unused by the methods.
#' @param x,object An `ir_weighting_correlations` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @return An `ir_weighting_correlations` data frame with columns
#'   `collection`, `systems`, `topics`, `MAP_E_s`, `MAP_A_s`, `AAP_E_t`,
#'   `AAP_A_t`, `iterations` and `converged` (of GAWM); attribute `gawm`
#'   describes the GAWM variant. `print()` shows it as
#'   the paper's Table 2; `summary()` gives the range of each correlation
#'   over the collections (an [irtopics_summary]); `as.data.frame()` the
#'   plain data frame.
#' @seealso [gawm()], [hits()].
#' @examples
#' dir <- system.file("extdata", "score-matrices", package = "irtopics")
#' ap <- list(ta6 = read_scores(file.path(dir, "adhoc6_ap.csv"), measure = "AP"),
#'            ta7 = read_scores(file.path(dir, "adhoc7_ap.csv"), measure = "AP"))
#' weighting_correlations(ap)
#' # Lee et al.'s runs and the geometric reading:
#' auto <- list(ta6 = subset_systems(ap$ta6, lee2009_subset, runs = trec_runs("adhoc6")))
#' weighting_correlations(auto, mean = "geometric")
#' @export
weighting_correlations <- function(list_of_scores, ...) {
  if (is.matrix(list_of_scores) || is.data.frame(list_of_scores) || !is.list(list_of_scores) ||
      !length(list_of_scores)) {
    stop_irtopics("{.arg list_of_scores} must be a non-empty list of score matrices.")
  }
  nms <- names(list_of_scores) %||% rep("", length(list_of_scores))
  nms[nms == ""] <- paste0("collection", seq_along(list_of_scores))[nms == ""]
  rows <- lapply(seq_along(list_of_scores), function(k) {
    P <- check_scores(list_of_scores[[k]], arg = sprintf("list_of_scores[[%d]]", k))
    g <- gawm(P, ...)
    h <- hits(P)
    row <- data.frame(collection = nms[k], systems = nrow(P), topics = ncol(P),
                      MAP_E_s = safe_cor(g$systems$MAP, g$systems$performance),
                      MAP_A_s = safe_cor(h$systems$MAP, h$systems$authority),
                      AAP_E_t = safe_cor(g$topics$AAP, g$topics$ease),
                      AAP_A_t = safe_cor(h$topics$AAP, h$topics$authority),
                      iterations = g$iterations, converged = g$converged,
                      stringsAsFactors = FALSE)
    attr(row, "gawm") <- gawm_method_text(g)
    row
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  attr(out, "gawm") <- attr(rows[[1]], "gawm")
  new_ir_weighting_correlations(out)
}

new_ir_weighting_correlations <- function(x) {
  new_result(x, "ir_weighting_correlations", base = "data.frame",
             fields = c(MAP_E_s = "numeric", MAP_A_s = "numeric", AAP_E_t = "numeric", AAP_A_t = "numeric",
                        converged = "logical"), attrs = c(gawm = "string?"))
}

#' @rdname weighting_correlations
#' @export
format.ir_weighting_correlations <- function(x, ...) {
  df <- as.data.frame(x)
  names(df)[4:7] <- c("r(MAP,E_s)", "r(MAP,A(s))", "r(AAP,E_t)", "r(AAP,A(t))")
  c("<ir_weighting_correlations> Pearson correlations of adaptive weights with plain means (Lee et al. 2009, Table 2)",
    if (!is.null(attr(x, "gawm"))) sprintf("# GAWM: %s", attr(x, "gawm")),
    printed_lines(print(df, digits = 3, row.names = FALSE)))
}

#' @rdname weighting_correlations
#' @export
print.ir_weighting_correlations <- function(x, ...) print_formatted(x, ...)

#' @rdname weighting_correlations
#' @export
summary.ir_weighting_correlations <- function(object, ...) {
  df <- as.data.frame(object)
  cols <- c("MAP_E_s", "MAP_A_s", "AAP_E_t", "AAP_A_t")
  tab <- data.frame(correlation = c("r(MAP, E_s)", "r(MAP, A(s))", "r(AAP, E_t)", "r(AAP, A(t))"),
                    min = vapply(cols, function(v) min(df[[v]], na.rm = TRUE), 0),
                    mean = vapply(cols, function(v) mean(df[[v]], na.rm = TRUE), 0),
                    max = vapply(cols, function(v) max(df[[v]], na.rm = TRUE), 0))
  new_summary("ir_weighting_correlations",
              sprintf("Correlations over %s (GAWM converged on %d):", plural(nrow(df), "collection"),
                      sum(df$converged)), tab)
}

#' @rdname weighting_correlations
#' @export
as.data.frame.ir_weighting_correlations <- function(x, row.names = NULL, optional = FALSE, ...) {
  class(x) <- "data.frame"
  attr(x, "gawm") <- NULL
  x
}
