# match.arg() with a classed irtopics error (match.arg's own error has no
# class, and the analyses promise irtopics_error_argument for bad arguments).
match_choice <- function(arg, choices = NULL, arg_name = NULL, call = rlang::caller_env()) {
  arg_name <- arg_name %||% deparse(substitute(arg))
  if (is.null(choices)) {
    formal <- sys.function(sys.parent())
    choices <- eval(formals(formal)[[arg_name]])
  }
  if (identical(arg, choices)) return(choices[1])
  if (!is.character(arg) || length(arg) != 1L || is.na(arg) || !arg %in% choices) {
    stop_irtopics(c("{.arg {arg_name}} must be one of {quoted_list(choices)}.",
                    x = "Got {.val {format(arg)}}."), call = call)
  }
  arg
}

# "a", "b", "c" for messages listing alternatives (cli's {.val} joins with "and").
quoted_list <- function(x) paste0('"', x, '"', collapse = ", ")
