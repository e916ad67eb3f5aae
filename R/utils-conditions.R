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
#   memory    - an allocation failed (C++ std::bad_alloc, via glue_guard.h)
#   internal  - a result constructor got a malformed field (a bug, not user input)

stop_irtopics <- function(message, kind = "argument", ..., call = rlang::caller_env(),
                          .envir = parent.frame()) {
  cli::cli_abort(message, class = c(paste0("irtopics_error_", kind), "irtopics_error"),
                 ..., call = call, .envir = .envir)
}

warn_irtopics <- function(message, kind = "warning", ..., .envir = parent.frame()) {
  cli::cli_warn(message, class = c(paste0("irtopics_warning_", kind), "irtopics_warning"),
                ..., .envir = .envir)
}

# Raised from the C++ glue (glue_guard.h) when an allocation fails.
stop_out_of_memory <- function() {
  stop_irtopics(c("Can't allocate the memory this needs.",
                  i = "The input is too large for the memory available to R."),
                kind = "memory", call = NULL)
}
