#' irtopics: statistical analysis of information-retrieval evaluation results
#'
#' Read TREC runs and qrels into systems x topics score matrices
#' ([evaluate()], [read_scores()]) and analyse them: robust evaluation and
#' measure stability, topic difficulty and reliability, adaptive weighting,
#' prior-informed scoring and query variations.
#'
#' @section Results:
#' Every analysis returns a small S3 object with the same methods: `print()`
#' (the lines of `format()`), `summary()` (an [irtopics_summary]: a title and a data frame),
#' `as.data.frame()` (a tidy data frame) and, where a picture helps,
#' `autoplot()` (a ggplot; arguments it does not use are an error, and
#' scatter plots take `label =` to name their points). Rates (error, tie and
#' swap rates of the swap method) are proportions in the data and are shown
#' as percentages, with a % sign, in every print and plot; quantities whose
#' name says `pct` (`pct_no`, `pct_significant`) are percentages in the
#' data too.
#'
#' @section Extending:
#' Custom measures ([evaluate()]), aggregates ([swap_error_rates()]), means,
#' dispersions and proximities ([gawm()]) and topic indicators
#' ([topic_indicators()]) are R functions; see
#' `vignette("extending", package = "irtopics")`.
#'
#' @section Options:
#' * `irtopics.n_threads`: number of threads of the C++ loops; without it,
#'   half the logical cores (at least 2) within the environment's limits (see
#'   [irtopics_threads()]).
#' * `irtopics.max_memory`: bytes a resampling call may hold for its draws
#'   and results (default: the memory the system reports available, else
#'   16 GiB); a replicate count beyond it is refused before anything is
#'   allocated, with an `irtopics_error_memory` naming the argument.
#' * `irtopics.progress`: show progress bars for long loops (default `TRUE`
#'   in interactive sessions).
#' * `irtopics.kernel_exact_max`, `irtopics.kernel_bins`: above how many
#'   scores the kernel margins of [fit_margin()] are binned (default 5000),
#'   and on how many grid intervals (default 4096).
#'
#' @keywords internal
#' @useDynLib irtopics, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom ggplot2 autoplot
#' @importFrom rlang %||% .data
"_PACKAGE"

#' @export
ggplot2::autoplot
