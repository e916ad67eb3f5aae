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
                    x = "Got {show_value(arg)}."), call = call)
  }
  arg
}

# "a", "b", "c" for messages listing alternatives (cli's {.val} joins with "and").
quoted_list <- function(x) paste0('"', x, '"', collapse = ", ")
# The same as code in a help page written by roxygen's inline R code.
rd_quoted <- function(x) paste0('`"', x, '"`', collapse = ", ")

# Names users type ---------------------------------------------------------------

# The names of `known` closest to what the user typed, for a "Did you mean"
# hint: names that contain it or that it contains (case-insensitive) first,
# then the names fewest edits away (utils::adist: within 2, or the smallest
# number if that is at most half the typed length), at most `n`.
closest_names <- function(x, known, n = 3L) {
  known <- unique(known[!is.na(known)])
  if (!length(known) || !is.character(x) || length(x) != 1L || is.na(x) || !nzchar(x)) {
    return(character())
  }
  low <- tolower(x)
  kl <- tolower(known)
  d <- utils::adist(low, kl)[1, ]
  part <- startsWith(kl, low) | startsWith(low, kl) |
    (nchar(low) >= 3L & grepl(low, kl, fixed = TRUE))
  near <- d <= max(2, min(d)) & d <= max(2, ceiling(nchar(low) / 2))
  ord <- order(!part, d, kl)
  ord <- ord[(part | near)[ord]]
  known[utils::head(ord, n)]
}

# The check of every argument naming systems (or topics, measures): each
# value must be one of `known`; an unknown one is an error that suggests
# the closest names. Returns `x`.
check_names_in <- function(x, known, arg, what = "system", of = "scores",
                           call = rlang::caller_env()) {
  if (!is.character(x) || anyNA(x)) {
    stop_irtopics("{.arg {arg}} must be {what} names (a character vector without NA), not {show_value(x)}.",
                  call = call)
  }
  unknown <- unique(x[!x %in% known])
  if (!length(unknown)) return(invisible(x))
  first <- unknown[1]
  close <- closest_names(first, known)
  listed <- show_bytes(utils::head(known, 8L))
  not_one <- sprintf("%s not %s of {.arg %s}", if (length(unknown) == 1L) "is" else "are",
                     if (length(unknown) == 1L) paste("a", what) else paste0(what, "s"), of)
  not_one <- cli::format_inline(not_one)
  all_known <- sprintf("The %s %s", plural(length(known), what), if (length(known) == 1L) "is" else "are")
  stop_irtopics(c("{.arg {arg}} must name {what}s of {.arg {of}}.",
                  x = "{.val {show_bytes(utils::head(unknown, 5L))}}{if (length(unknown) > 5L) paste0(' (', length(unknown), ' in all)') else ''} {not_one}.",
                  i = if (length(close)) "Did you mean {.or {.val {close}}}?" else
                    "{all_known} {.val {listed}}{if (length(known) > 8L) ', ...' else ''}."),
                call = call)
}
