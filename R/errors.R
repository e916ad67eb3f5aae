# Conditions -----------------------------------------------------------------
#
# Every error the package raises goes through stop_irtopics(), so that it has
# class c("irtopics_error_<kind>", "irtopics_error", "rlang_error", ...) and a
# cli-formatted message that names the user's call. Kinds in use:
#   argument  - an argument has the wrong type, shape or value
#   parse     - a malformed line in a run, qrels or score file (file + line)
#   file      - a missing, unreadable or empty file
#   duplicate - a docno repeated within a topic of a run or of the qrels
#   measure   - an unknown measure name
#   data      - input data that cannot support the analysis (e.g. NA scores)

stop_irtopics <- function(message, kind = "argument", ..., call = rlang::caller_env(),
                          .envir = parent.frame()) {
  cli::cli_abort(message, class = c(paste0("irtopics_error_", kind), "irtopics_error"),
                 ..., call = call, .envir = .envir)
}

warn_irtopics <- function(message, kind = "warning", ..., .envir = parent.frame()) {
  cli::cli_warn(message, class = c(paste0("irtopics_warning_", kind), "irtopics_warning"),
                ..., .envir = .envir)
}

# Argument checks --------------------------------------------------------------

check_number <- function(x, arg = deparse(substitute(x)), min = -Inf, max = Inf,
                         integer = FALSE, call = rlang::caller_env()) {
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && x >= min && x <= max &&
    (!integer || x == round(x))
  if (!ok) {
    what <- if (integer) "a whole number" else "a number"
    stop_irtopics("{.arg {arg}} must be {what} in [{min}, {max}], not {.val {format(x)}}.",
                  call = call)
  }
  invisible(x)
}

check_flag <- function(x, arg = deparse(substitute(x)), call = rlang::caller_env()) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    stop_irtopics("{.arg {arg}} must be TRUE or FALSE.", call = call)
  }
  invisible(x)
}

check_seed <- function(seed, arg = "seed", call = rlang::caller_env()) {
  if (is.null(seed)) return(invisible(NULL))
  check_number(seed, arg = arg, min = -.Machine$integer.max, max = .Machine$integer.max,
               integer = TRUE, call = call)
}

#' Number of threads used by the C++ loops
#'
#' `n_threads` arguments default to `getOption("irtopics.n_threads", 1)`.
#' Results never depend on the number of threads.
#' @param n_threads `NULL` (the option) or a positive whole number.
#' @return An integer.
#' @keywords internal
#' @noRd
resolve_threads <- function(n_threads, call = rlang::caller_env()) {
  if (is.null(n_threads)) n_threads <- getOption("irtopics.n_threads", 1L)
  check_number(n_threads, "n_threads", min = 1, integer = TRUE, call = call)
  as.integer(n_threads)
}
