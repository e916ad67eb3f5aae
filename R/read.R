# Reading runs and qrels ------------------------------------------------------------

#' Read TREC relevance judgements (qrels)
#'
#' Reads a qrels file in TREC format, one judgement per line:
#' `topic iter docno rel`, white-space separated, plain or gzip-compressed.
#' Grades are integers; as in trec_eval, a negative grade marks a document
#' that is in the pool but unjudged (it is neither relevant nor
#' non-relevant). The `iter` column is ignored.
#'
#' Parsing is done in C++. A malformed line (not four fields, a grade that
#' is not an integer), a document judged twice for the same topic, an empty
#' or missing file each raise a classed error (`irtopics_error_parse`,
#' `irtopics_error_duplicate`, `irtopics_error_file`) naming the file and
#' line.
#'
#' @inheritSection read_run Input format
#'
#' @param path Path to the qrels file (`.gz` allowed).
#' @return An `ir_qrels` data frame with columns `topic` (character),
#'   `docno` (character) and `rel` (integer), in file order. `print()` shows
#'   its size and first `n` lines; `summary()` the judgements per topic
#'   (judged, relevant, unjudged-in-pool; an [irtopics_summary]);
#'   `as.data.frame()` the plain data frame.
#' @param x,object An `ir_qrels` object.
#' @param n Number of lines to print.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @seealso [evaluate()], which also accepts the path directly (faster: no R
#'   strings are made).
#' @examples
#' qrels <- read_qrels(system.file("extdata", "trec_eval-test", "qrels.test",
#'                                 package = "irtopics"))
#' qrels
#' table(qrels$topic, qrels$rel)
#' @export
read_qrels <- function(path) {
  check_file(path)
  q <- qrels_pointer(path, relevance_level = 1L)
  tab <- cpp_qrels_table(q$ptr)
  new_ir_qrels(data.frame(topic = tab$topic, docno = tab$docno, rel = tab$rel,
                          stringsAsFactors = FALSE), source = normalizePath(path))
}

new_ir_qrels <- function(df, source = NA_character_) {
  structure(df, class = c("ir_qrels", "data.frame"), source = source)
}

#' @rdname read_qrels
#' @export
format.ir_qrels <- function(x, ..., n = 6L) {
  df <- unclass_qrels(x)
  c(sprintf("<ir_qrels> %s of %s (%d with grade > 0)", plural(nrow(df), "judgement"),
            plural(length(unique(df$topic)), "topic"), sum(df$rel > 0)),
    printed_lines(print(utils::head(df, n), row.names = FALSE)),
    more_line(line = nrow(df) - min(n, nrow(df))))
}

#' @rdname read_qrels
#' @export
print.ir_qrels <- function(x, ..., n = 6L) print_formatted(x, n = n)

#' @rdname read_qrels
#' @export
summary.ir_qrels <- function(object, ...) {
  df <- unclass_qrels(object)
  tops <- unique(df$topic)
  f <- factor(df$topic, levels = tops)
  tab <- data.frame(topic = tops, judged = as.vector(table(f[df$rel >= 0])),
                    relevant = as.vector(table(f[df$rel > 0])),
                    unjudged = as.vector(table(f[df$rel < 0])), stringsAsFactors = FALSE)
  new_summary("ir_qrels", sprintf("Judgements per topic (%s; relevant = grade > 0):",
                                  plural(length(tops), "topic")), tab)
}

#' @rdname read_qrels
#' @export
as.data.frame.ir_qrels <- function(x, row.names = NULL, optional = FALSE, ...) unclass_qrels(x)

unclass_qrels <- function(x) {
  class(x) <- "data.frame"
  attr(x, "source") <- NULL
  x
}

# Qrels as a C++ object: from a path (parsed in C++) or a data frame.
qrels_pointer <- function(qrels, relevance_level, call = rlang::caller_env()) {
  if (is.character(qrels)) {
    check_file(qrels, arg = "qrels", call = call)
    res <- cpp_qrels_read(path.expand(qrels), as.integer(relevance_level))
  } else if (is.data.frame(qrels)) {
    need <- c("topic", "docno", "rel")
    miss <- setdiff(need, names(qrels))
    if (length(miss)) {
      stop_irtopics("{.arg qrels} must have columns {.field {need}}; missing {.field {miss}}.", call = call)
    }
    if (anyNA(qrels$topic) || anyNA(qrels$docno)) {
      stop_irtopics("{.arg qrels}: columns {.field topic} and {.field docno} must not contain NA.",
                    kind = "data", call = call)
    }
    rel <- qrels$rel
    if (!is.numeric(rel) || anyNA(rel) || any(rel != round(rel))) {
      stop_irtopics("{.arg qrels}: column {.field rel} must hold integer grades.", kind = "parse", call = call)
    }
    res <- cpp_qrels_from_vectors(as.character(qrels$topic), as.character(qrels$docno),
                                  as.integer(rel), as.integer(relevance_level), "qrels data frame")
  } else {
    stop_irtopics("{.arg qrels} must be a file path or a data frame from {.fn read_qrels}, not {.obj_type_friendly {qrels}}.",
                  call = call)
  }
  if (!is.null(res$error)) raise_input_error(res$error, call = call)
  res
}

# Drops a UTF-8 byte order mark from the start of x[1] (text read by R):
# R drops it itself only in UTF-8 locales. Compared as bytes, so that the
# locale does not matter.
strip_bom <- function(x) {
  if (!length(x) || is.na(x[1])) return(x)
  b <- charToRaw(x[1])
  if (length(b) >= 3L && identical(b[1:3], as.raw(c(0xef, 0xbb, 0xbf)))) {
    enc <- Encoding(x[1])
    x[1] <- rawToChar(b[-(1:3)])
    Encoding(x[1]) <- enc
  }
  x
}

# Re-raise an error reported by the C++ reader as a classed R condition.
raise_input_error <- function(err, call = rlang::caller_env()) {
  what <- switch(err$kind,
    duplicate = "Duplicate document in {.file {err$file}}.",
    data = if (nzchar(err$file)) "Can't use {.file {err$file}}." else "Can't evaluate the runs.",
    "Can't read {.file {err$file}}."
  )
  detail <- if (err$line > 0) paste0("Line ", err$line, ": ", err$message, ".") else paste0(err$message, ".")
  detail <- gsub("{", "{{", gsub("}", "}}", detail, fixed = TRUE), fixed = TRUE)
  stop_irtopics(c(what, x = detail), kind = err$kind, file = err$file, line = err$line, call = call)
}

#' Read TREC run files
#'
#' `read_run()` reads one run file in TREC format (`topic Q0 docno rank score
#' tag`, white-space separated, plain or gzip-compressed); `read_runs()` reads
#' several files or every file of a directory. Parsing is done in C++ and the
#' result keeps the document ids in one raw buffer, so reading does not create
#' one R string per line; [as.data.frame()] materialises the lines when you
#' want them.
#'
#' The rank column is ignored, as in trec_eval: evaluation orders each topic's
#' documents by score, highest first, ties broken by docno in descending byte
#' order. Each line needs at least six fields (extra ones are ignored); the
#' score must be a number (see "Input format"). Malformed lines, duplicate
#' documents within a topic (detected at evaluation), empty and missing files
#' raise classed errors naming the file and line.
#'
#' @section Input format:
#' Runs (`topic Q0 docno rank score tag`) and qrels (`topic iter docno rel`)
#' are read as trec_eval reads them, and every input gives either trec_eval's
#' result or a classed error naming the file and the line (class
#' `irtopics_error_parse` for a bad line, `irtopics_error_file` for a bad
#' file): no input is read into a silently different number.
#' * White space: fields are split on any white space (spaces, tabs, `\r`,
#'   `\v`, `\f`), so CRLF line ends read as LF ones, and leading, trailing or
#'   repeated white space and blank lines do not matter. A run line with more
#'   than six fields is read (the extra fields are ignored, as in trec_eval)
#'   unless a carriage return separates them: CR-only line ends are an error.
#' * Compression: gzip is recognised by its magic bytes, not by the name (a
#'   plain file named `.gz` is read as text). A truncated gzip file is an
#'   error.
#' * A UTF-8 byte order mark at the start of a file is skipped. (trec_eval
#'   would read it into the first topic id and so treat that topic as
#'   another one.)
#' * No comments: a line whose first field starts with `#` is an error
#'   (trec_eval would read a topic named `#...`).
#' * A NUL byte is an error naming its line: the file is binary, or
#'   compressed with something other than gzip.
#' * Scores: decimal numbers with optional sign and exponent (`1e-3`, `1E-3`,
#'   `+0.5`, `.5`, `5.`); `-0` equals 0 (the tie is broken by docno);
#'   `inf`, `-inf`, `Infinity` (any case) are `Inf` and `-Inf` and rank first
#'   or last. `nan`, hexadecimal numbers (`0x1p3`), numbers out of the range
#'   of a double (`1e400`, `1e-400`) and decimal commas (`1,5`) are errors.
#'   Runs given as data frames or `ir_run` objects follow the same rule:
#'   `Inf` and `-Inf` are accepted, `NA` and `NaN` are an error naming the
#'   row.
#' * Grades: integers with optional sign (`+2`; negative ones such as `-1`
#'   mark a document in the pool but unjudged) up to 1000000; `1.5`, `1e0`,
#'   `x` or a number beyond the integer range are errors. Grades index
#'   per-topic count tables, so their sizes over all topics are bounded too
#'   (2^24 counts: a grade of 1000000 in more than 16 topics is an error);
#'   real collections use grades below 10.
#' * Empty files: a file of 0 bytes (or a gzip file with nothing inside) is
#'   "empty"; a file of white space only "holds no run lines" (or qrels
#'   lines).
#' * Ids: topic ids and docnos are byte strings of any length and encoding.
#' * Directories: every regular file of a directory is read as a run, in name
#'   order; hidden files (such as `.DS_Store`) and subdirectories are
#'   skipped. Any other file (a `README.txt`) is an error naming it: select
#'   the runs with `pattern`.
#'
#' @param path Path to a run file.
#' @param paths Paths to run files, or one directory (all its files are read,
#'   in name order; hidden files and subdirectories are skipped).
#' @param name How to name the system: `"tag"` (the run tag of the first line,
#'   the default) or `"file"` (the file name without `.gz` and extension).
#' @param pattern `NULL` (every file), or a regular expression on file names
#'   (as in [list.files()]) selecting the runs when `paths` is a directory.
#' @return `read_run()`: an `ir_run` object. `read_runs()`: a named list of
#'   them (class `ir_runs`). `as.data.frame()` gives the lines (`system,
#'   topic, docno, score`); `summary()` the lines per topic (an
#'   [irtopics_summary]); `print()` the size.
#' @param x,object An `ir_run` or `ir_runs` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @examples
#' run <- read_run(system.file("extdata", "trec_eval-test", "results.test",
#'                             package = "irtopics"))
#' run
#' head(as.data.frame(run))
#'
#' # The directory also holds qrels and a licence: select the runs by name.
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' read_runs(dir, pattern = "^results\\.test$")
#' @export
read_run <- function(path, name = c("tag", "file")) {
  name <- match.arg(name)
  check_file(path)
  res <- cpp_read_run(path.expand(path))
  if (!is.null(res$error)) raise_input_error(res$error)
  res$system <- if (name == "tag") res$tag else run_file_name(path)
  res$path <- normalizePath(path)
  structure(res, class = "ir_run")
}

#' @rdname read_run
#' @export
read_runs <- function(paths, name = c("tag", "file"), pattern = NULL) {
  name <- match.arg(name)
  paths <- expand_run_paths(paths, pattern = pattern)
  runs <- lapply(paths, read_run, name = name)
  names(runs) <- unique_system_names(vapply(runs, `[[`, "", "system"))
  for (k in seq_along(runs)) runs[[k]]$system <- names(runs)[k]
  structure(runs, class = "ir_runs")
}

run_file_name <- function(path) {
  b <- sub("\\.gz$", "", basename(path), ignore.case = TRUE)
  sub("\\.[^.]*$", "", b)
}

unique_system_names <- function(x) {
  if (anyDuplicated(x)) {
    dup <- unique(x[duplicated(x)])
    warn_irtopics(c("Several runs share the system name{?s} {.val {dup}}; made unique with suffixes.",
                    i = "Use {.code name = \"file\"} to name systems by file."), kind = "names")
    x <- make.unique(x, sep = "_")
  }
  x
}

# The run files named by `paths`: the files themselves, or the files of one
# directory (hidden files and subdirectories skipped; `pattern`, a regular
# expression on file names, selects among them).
expand_run_paths <- function(paths, pattern = NULL, arg = "paths", call = rlang::caller_env()) {
  if (!is.character(paths) || !length(paths) || anyNA(paths)) {
    stop_irtopics("{.arg {arg}} must be file paths or a directory.", call = call)
  }
  if (!is.null(pattern) && (!is.character(pattern) || length(pattern) != 1L || is.na(pattern) ||
                            !nzchar(pattern))) {
    stop_irtopics("{.arg pattern} must be NULL or one regular expression.", call = call)
  }
  if (length(paths) == 1L && dir.exists(paths)) {
    files <- tryCatch(
      list.files(paths, pattern = pattern, full.names = TRUE, all.files = FALSE),
      error = function(e) {
        stop_irtopics(c("{.arg pattern} must be a valid regular expression.", x = conditionMessage(e)),
                      call = call)
      }
    )
    files <- files[!dir.exists(files)]
    if (!length(files)) {
      what <- if (is.null(pattern)) "files" else "files matching {.val {pattern}}"
      stop_irtopics(paste0("Directory {.file {paths}} holds no ", what, "."), kind = "file", call = call)
    }
    return(sort(files))
  }
  if (!is.null(pattern)) {
    stop_irtopics("{.arg pattern} selects files of a directory; {.arg {arg}} must then be one directory.",
                  call = call)
  }
  missing <- paths[!file.exists(paths)]
  if (length(missing)) {
    stop_irtopics("Run file{?s} {.file {missing}} do{?es/} not exist.", kind = "file", call = call)
  }
  dirs <- paths[dir.exists(paths)]
  if (length(dirs)) {
    stop_irtopics("{.file {dirs}} {?is a directory/are directories}; pass one directory alone or files.",
                  kind = "file", call = call)
  }
  paths
}

#' @rdname read_run
#' @export
format.ir_run <- function(x, ...) {
  sprintf("<ir_run> %s: %s, %s%s", x$system, plural(length(x$score), "line"),
          plural(length(x$topics), "topic"), if (!is.null(x$path)) paste0(" (", basename(x$path), ")") else "")
}

#' @rdname read_run
#' @export
print.ir_run <- function(x, ...) print_formatted(x, ...)

#' @rdname read_run
#' @export
format.ir_runs <- function(x, ...) {
  c(sprintf("<ir_runs> %s", plural(length(x), "run")),
    unname(vapply(x, function(r) paste0("  ", format(r)), "")))
}

#' @rdname read_run
#' @export
print.ir_runs <- function(x, ...) print_formatted(x, ...)

#' @rdname read_run
#' @export
summary.ir_run <- function(object, ...) {
  runs <- structure(list(object), class = "ir_runs")
  summary(runs)
}

#' @rdname read_run
#' @export
summary.ir_runs <- function(object, ...) {
  tab <- do.call(rbind, lapply(object, function(r) {
    per <- tabulate(r$topic_code, nbins = length(r$topics))
    data.frame(system = r$system, lines = length(r$score), topics = length(r$topics),
               min_per_topic = if (length(per)) min(per) else 0L,
               median_per_topic = if (length(per)) stats::median(per) else 0,
               max_per_topic = if (length(per)) max(per) else 0L, stringsAsFactors = FALSE)
  }))
  new_summary("ir_runs", sprintf("Ranked lines per run and topic (%s):", plural(length(object), "run")), tab)
}

#' @rdname read_run
#' @export
as.data.frame.ir_run <- function(x, row.names = NULL, optional = FALSE, ...) {
  data.frame(system = x$system, topic = x$topics[x$topic_code],
             docno = cpp_docnos(x$docno, x$offset), score = x$score,
             stringsAsFactors = FALSE)
}

#' @rdname read_run
#' @export
as.data.frame.ir_runs <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- do.call(rbind, lapply(x, as.data.frame))
  rownames(out) <- NULL
  out
}
