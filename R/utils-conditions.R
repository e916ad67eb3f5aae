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
#   memory    - an allocation failed (C++ std::bad_alloc, via glue_guard.h), or
#               a resampling call would need more than memory_budget()
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

# A message of class irtopics_message_<kind> (e.g. "layout": what a figure
# left out or how it laid itself out).
inform_irtopics <- function(message, kind = "layout", ..., .envir = parent.frame()) {
  cli::cli_inform(message, class = c(paste0("irtopics_message_", kind), "irtopics_message"),
                  ..., .envir = .envir)
}

# A deprecated argument name: an irtopics_warning_deprecated, once per session
# and argument (the old name keeps working, with the new one's meaning).
warn_deprecated <- function(old, new, fn) {
  key <- paste0("deprecated: ", fn, "(", old, ")")
  if (isTRUE(irtopics_state[[key]])) return(invisible(FALSE))
  assign(key, TRUE, envir = irtopics_state)
  warn_irtopics(c("{.arg {old}} of {.fn {fn}} is deprecated; use {.arg {new}}.",
                  i = "This warning is shown once per session."),
                kind = "deprecated")
  invisible(TRUE)
}

# Errors from C++ ---------------------------------------------------------------
#
# The one route of a C++ error to R: the glue's adapter (guard() in
# src/glue_guard.h) calls stop_from_cpp() with the kind of an
# irtopics::Error (src/errors.h), its message and, for input read from a
# file, the file and line (0: none). The condition has the fields `file` and
# `line`, and names the user's call: the outermost exported irtopics function
# on the stack (e.g. evaluate()), else the internal cpp_*() wrapper (a direct
# call).
stop_from_cpp <- function(kind, message, file = "", line = 0) {
  if (kind == "memory") {
    return(stop_irtopics(c("Can't allocate the memory this needs.",
                           i = "The input is too large for the memory available to R."),
                         kind = "memory", call = error_frame()))
  }
  header <- switch(kind,
    duplicate = "Duplicate document in {.file {file}}.",
    measure = "Can't evaluate these measures.",
    data = if (nzchar(file)) "Can't use {.file {file}}." else "Can't use this input.",
    file = ,
    parse = "Can't read {.file {file}}.",
    "Internal error in irtopics's C++ code."
  )
  detail <- if (line > 0) paste0("Line ", line, ": ", message, ".") else paste0(message, ".")
  detail <- gsub("{", "{{", gsub("}", "}}", detail, fixed = TRUE), fixed = TRUE)
  bullets <- if (kind == "argument") {
    paste0(toupper(substr(detail, 1, 1)), substring(detail, 2))
  } else {
    c(header, x = detail)
  }
  if (kind == "internal") bullets <- c(bullets, i = "This is a bug in irtopics; please report it.")
  stop_irtopics(bullets, kind = if (kind %in% cpp_error_kinds) kind else "internal",
                file = file, line = line, call = error_frame())
}

# The kinds of irtopics::ErrorKind (src/errors.h).
cpp_error_kinds <- c("argument", "data", "file", "parse", "duplicate", "measure", "memory", "internal")

# The frame a C++ error names: the outermost call of an exported function of
# the package, else the innermost call of a cpp_*() wrapper, else none.
error_frame <- function() {
  ns <- asNamespace("irtopics")
  exports <- getNamespaceExports(ns)
  calls <- sys.calls()[-sys.nframe()]  # not this frame
  wrapper <- NULL
  for (i in seq_along(calls)) {
    head <- calls[[i]][[1]]
    name <- if (is.symbol(head)) {
      as.character(head)
    } else if (is.call(head) && as.character(head[[1]]) %in% c("::", ":::")) {
      as.character(head[[3]])
    } else {
      ""
    }
    if (!nzchar(name) || !identical(environment(sys.function(i)), ns)) next
    if (name %in% exports) return(sys.frame(i))
    if (startsWith(name, "cpp_")) wrapper <- sys.frame(i)
  }
  wrapper
}
