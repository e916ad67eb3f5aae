# Helpers shared by the print/format/summary/autoplot methods of the result
# classes: every print() is cat(format(x)), summaries are `irtopics_summary`
# objects, autoplot() methods refuse arguments they would otherwise ignore,
# and scatter plots label their points the same way.

# print() of every result class: the lines of format(), then invisibly x.
print_formatted <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

# The arguments of the format() and print() methods (issue 43: `n` and
# `digits` reached base R's "invalid 'n'", "invalid format '%d'",
# "non-numeric argument"): `n` (rows shown) a whole number >= 0 or Inf,
# `digits` a whole number in [min_digits, 15] (1 where print() rounds:
# it refuses 0), as check_report_args() checks the reports'. Only the
# arguments given are checked.
check_shown <- function(n, digits, min_digits = 0, call = rlang::caller_env()) {
  if (!missing(n)) check_whole(n, "n", min = 0, allow_inf = TRUE, call = call)
  if (!missing(digits)) check_number(digits, "digits", min = min_digits, max = 15, integer = TRUE, call = call)
  invisible(NULL)
}

# The lines that `expr` prints, for format() methods that show tables.
printed_lines <- function(expr) utils::capture.output(expr)

# "3 systems", "1 system".
plural <- function(n, word, words = paste0(word, "s")) {
  sprintf("%s %s", format(n, big.mark = ","), if (n == 1) word else words)
}

# "# ... 2 more systems, 5 more topics" (parts with 0 left out), or nothing.
more_line <- function(...) {
  parts <- list(...)
  txt <- character()
  for (nm in names(parts)) {
    k <- parts[[nm]]
    if (k > 0) txt <- c(txt, paste(format(k, big.mark = ","), "more", if (k == 1) nm else paste0(nm, "s")))
  }
  if (!length(txt)) return(character())
  # and how to see them: every result converts with as.data.frame()
  c(paste0("# ... ", paste(txt, collapse = ", ")), "# as.data.frame() of this result has all of them")
}

# A data frame with its double columns rounded, for printing.
round_df <- function(df, digits = 4) {
  num <- vapply(df, is.double, logical(1))
  df[num] <- lapply(df[num], round, digits = digits)
  df
}

# Error rates and other rates are proportions in the data and shown as
# percentages (with a % sign) in every print and plot.
pct_text <- function(p, digits = 2) {
  ifelse(is.na(p), "NA", sprintf(paste0("%.", digits, "f%%"), 100 * p))
}

# Result classes -------------------------------------------------------------------

# Every result class has one constructor new_<class>() beside the class's code.
# It checks the fields (names and types; cheap checks, for programming
# mistakes: irtopics_error_internal) and calls new_result(), the only place a
# class attribute is set. Classes renamed to the ir_ prefix keep their old name
# second (`old`), so users' inherits(x, "swap_error_rates") and their own S3
# methods on the old name keep working; our methods dispatch on the new name.
#
# `fields` (list elements, or columns of a data frame) and `attrs` (attributes)
# map names to a type of `field_types`; a trailing "?" also allows NULL.
new_result <- function(x, class, old = NULL, base = NULL, fields = character(), attrs = character()) {
  check_fields(x, fields, class, what = "field")
  check_fields(x, attrs, class, what = "attribute")
  class(x) <- c(class, old, base)
  x
}

field_types <- list(
  any = function(v) TRUE,
  list = is.list,
  data.frame = is.data.frame,
  matrix = is.matrix,
  character = is.character,
  numeric = is.numeric,
  logical = is.logical,
  string = function(v) is.character(v) && length(v) == 1L,
  number = function(v) is.numeric(v) && length(v) == 1L,
  flag = function(v) is.logical(v) && length(v) == 1L && !is.na(v),
  scores = function(v) inherits(v, "ir_scores"),
  `function` = is.function,
  function_or_string = function(v) is.function(v) || (is.character(v) && length(v) == 1L)
)

check_fields <- function(x, spec, class, what = "field") {
  if (!length(spec)) return(invisible(x))
  get <- if (what == "field") function(nm) if (nm %in% names(x)) x[[nm]] else NULL else function(nm) attr(x, nm, exact = TRUE)
  has <- if (what == "field") function(nm) nm %in% names(x) else function(nm) nm %in% names(attributes(x))
  for (nm in names(spec)) {
    type <- spec[[nm]]
    nullable <- endsWith(type, "?")
    type <- sub("?", "", type, fixed = TRUE)
    v <- get(nm)
    if (!has(nm) && !nullable) {
      stop_irtopics("Can't build {.cls {class}}: {what} {.field {nm}} is missing.", kind = "internal",
                    call = NULL)
    }
    if (is.null(v) && nullable) next
    if (!field_types[[type]](v)) {
      stop_irtopics("Can't build {.cls {class}}: {what} {.field {nm}} must be {type}, not {.obj_type_friendly {v}}.",
                    kind = "internal", call = NULL)
    }
  }
  invisible(x)
}

# Summaries ----------------------------------------------------------------------

# The summary() of every result class: a title (character lines) and a data
# frame `table` of the key numbers, plus further named parts (`...`) where a
# class has more to show; class c("summary.<class>", "irtopics_summary").
# Printed by format.irtopics_summary() (or a format.summary.<class>() method
# when there are further parts), converted by as.data.frame() to `table`.
new_summary <- function(class, title, table, ...) {
  rownames(table) <- NULL
  new_result(list(title = title, table = table, ...), c(paste0("summary.", class), "irtopics_summary"),
             fields = c(title = "character", table = "data.frame"))
}

#' Summaries of irtopics results
#'
#' `summary()` of every irtopics result returns an `irtopics_summary` (class
#' `c("summary.<class>", "irtopics_summary")`): a list with `$title` (the
#' heading lines) and `$table`, a data frame of the key numbers, plus, for
#' some classes, further named parts (e.g. `$systems` of a comparison,
#' `$best_lambda` of a smoothing experiment). It prints as text
#' (`format()` gives the lines) and converts to `$table` with
#' `as.data.frame()`. The help page of each result class says what its
#' summary holds.
#'
#' @param x An `irtopics_summary` object.
#' @param digits Significant digits of the printed numbers.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @return `format()`: a character vector of lines; `print()`: `x`,
#'   invisibly; `as.data.frame()`: the summary's data frame.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' s <- summary(ap)
#' s
#' as.data.frame(s)
#' @name irtopics_summary
NULL

#' @rdname irtopics_summary
#' @export
format.irtopics_summary <- function(x, digits = 4, ...) {
  check_shown(digits = digits, min_digits = 1)
  c(x$title, printed_lines(print(x$table, digits = digits, row.names = FALSE)))
}

#' @rdname irtopics_summary
#' @export
print.irtopics_summary <- function(x, ...) print_formatted(x, ...)

#' @rdname irtopics_summary
#' @export
as.data.frame.irtopics_summary <- function(x, row.names = NULL, optional = FALSE, ...) x$table

# Layer data for an interval band (geom_ribbon): the rows whose bounds are
# both known. A band over undefined bounds (e.g. the intervals of identical
# systems, all NA) would fail when the plot is drawn, not when it is built.
complete_bounds <- function(low, high) {
  function(d) d[!is.na(d[[low]]) & !is.na(d[[high]]), , drop = FALSE]
}
