#' irtopics: statistical analysis of information-retrieval evaluation results
#'
#' Read TREC runs and qrels into systems x topics score matrices
#' ([evaluate()], [read_scores()]) and analyse them: robust evaluation and
#' measure stability, topic difficulty and reliability, adaptive weighting,
#' prior-informed scoring and query variations.
#'
#' @section Options:
#' * `irtopics.n_threads`: default number of threads of the C++ loops
#'   (default: 1, so that examples and checks stay single-threaded; set it
#'   to `parallel::detectCores()` for speed).
#' * `irtopics.progress`: show progress bars for long loops (default `TRUE`
#'   in interactive sessions).
#'
#' @keywords internal
#' @useDynLib irtopics, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom ggplot2 autoplot
#' @importFrom rlang %||% .data
"_PACKAGE"

#' @export
ggplot2::autoplot
