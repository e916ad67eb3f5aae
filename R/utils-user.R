# The user-function boundary --------------------------------------------------
#
# Every function a user passes in (custom measures, GAWM components, swap
# aggregates, topic indicators, custom significance tests) is called through
# call_user(), and nowhere else. It
#   * calls `fn` with `args`;
#   * turns an error inside it into an `irtopics_error_user` (also classed
#     with the old kind of the calling analysis, e.g. `irtopics_error_test`,
#     so handlers written for that class keep working) whose message names the
#     argument and where it was called (measure, system, topic, ...), with the
#     user's error as `parent`: the user sees both;
#   * checks what it returned: "number" (one number), "numbers" (`n`
#     numbers), or a function `check(value)` returning NULL when the value is
#     right and else a sentence saying what was expected, or NULL (the caller
#     checks it); `finite = TRUE` also refuses NA, NaN and +-Inf;
#   * lets interrupts and warnings through unchanged.

call_user <- function(fn, args, what, where = NULL, check = "number", n = 1L, finite = FALSE,
                      kind = "user", call = rlang::caller_env()) {
  place <- user_place(where)
  value <- tryCatch(do.call(fn, args), error = function(e) {
    user_abort(c("{what} failed{place}.", i = "The error it raised is shown below."),
               kind = kind, parent = e, call = call)
  })
  problem <- if (is.null(check)) {
    NULL
  } else if (is.function(check)) {
    check(value)
  } else {
    want <- if (identical(check, "number")) 1L else n
    if (!is.numeric(value) || length(value) != want) {
      if (want == 1L) "one number" else sprintf("%d numbers", want)
    } else if (finite && any(!is.finite(value))) {
      if (want == 1L) "one finite number" else sprintf("%d finite numbers", want)
    }
  }
  if (!is.null(problem)) {
    user_abort(c("{what} must return {problem}{place}.",
                 x = "It returned {.obj_type_friendly {value}}{user_value_text(value)}."),
               kind = kind, call = call)
  }
  if (is.character(check)) as.double(value) else value
}

user_abort <- function(message, kind, ..., call, .envir = parent.frame()) {
  cls <- unique(c("irtopics_error_user", paste0("irtopics_error_", kind), "irtopics_error"))
  cli::cli_abort(message, class = cls, ..., call = call, .envir = .envir)
}

# ' (measure "mine", system "s1", topic "301")' for a message.
user_place <- function(where) {
  where <- where[!vapply(where, is.null, logical(1))]
  if (!length(where)) return("")
  parts <- vapply(names(where), function(nm) {
    sprintf('%s "%s"', nm, show_bytes(as.character(where[[nm]])[1], width = 40L))
  }, "")
  paste0(" (", paste(parts, collapse = ", "), ")")
}

# A few values of a short numeric answer, for the message.
user_value_text <- function(value) {
  if (is.numeric(value) && length(value) >= 1L && length(value) <= 3L) {
    paste0(": ", paste(format(value, digits = 4), collapse = ", "))
  } else ""
}
