# Reading runs and qrels ------------------------------------------------------------

#' Read TREC relevance judgements (qrels)
#'
#' Reads a qrels file in TREC format, one judgement per line:
#' `topic iter docno rel`, white-space separated, plain or gzip-compressed.
#' Grades are integers, or fractional (see below); as in trec_eval, a
#' negative grade marks a document that is in the pool but unjudged (it is
#' neither relevant nor non-relevant). The `iter` column is ignored.
#'
#' Parsing is done in C++. A malformed line (not four fields, a grade that
#' is not a finite number or out of range), a document judged twice for the
#' same topic, an empty or missing file each raise a classed error
#' (`irtopics_error_parse`, `irtopics_error_duplicate`,
#' `irtopics_error_file`) naming the file and line.
#'
#' @section Fractional grades:
#' Judge workflows write grades with a fraction: autoqrels' float grades,
#' a judge's probability of relevance (`q1 0 d7 0.83`). A qrels file or
#' data frame with any such grade is read as it is written (`rel` is then a
#' double column) and evaluated as follows by [evaluate()]:
#' * the graded measures (the measure record's `relevance` is `"graded"`:
#'   `nDCG`, `nDCG@k`, `G`, `Rndcg`, `ndcg_rel`, `ERR`) take each grade as
#'   the document's gain (`ERR` as its grade g in (2^g - 1) / 2^gmax);
#' * the binary measures (`relevance` `"binary"`: `AP`, `P@k`, `RR`,
#'   `Bpref`, ...)
#'   count a document as relevant when its grade is at least
#'   `relevance_level` (trec_eval's `-l`; default 1, so give
#'   `relevance_level = 0.5` for probabilities), and a measure's own
#'   `(rel=k)` threshold likewise;
#' * a negative grade is in the pool but unjudged, as for integer grades.
#' Integer qrels keep trec_eval's integer path unchanged. Grades must be
#' finite and between -2147483647 and 1000000 (`nan`, `inf`, `0.5.1` are
#' errors naming the line). A `gains` map (for integer grades) cannot be
#' combined with fractional grades, which are their own gains.
#' [write_qrels()] writes fractional grades so that they read back
#' identically.
#'
#' @inheritSection read_run Input format
#'
#' @param path Path to the qrels file (`.gz` allowed).
#' @return An `ir_qrels` data frame with columns `topic` (character),
#'   `docno` (character) and `rel` (integer; double for fractional
#'   grades), in file order. `print()` shows
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
  attr(df, "source") <- source
  new_result(df, "ir_qrels", base = "data.frame",
             fields = c(topic = "character", docno = "character", rel = "numeric"),
             attrs = c(source = "character"))
}

#' @rdname read_qrels
#' @export
format.ir_qrels <- function(x, ..., n = 6L) {
  check_shown(n = n)
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
    res <- cpp_qrels_read(path.expand(qrels), as.double(relevance_level))
  } else if (is.data.frame(qrels)) {
    qrels <- alias_columns(qrels, c("topic", "docno", "rel"), "qrels")  # q_id, doc_id, relevance (R/write.R)
    need <- c("topic", "docno", "rel")
    miss <- setdiff(need, names(qrels))
    if (length(miss)) {
      stop_irtopics("{.arg qrels} must have columns {.field {need}}; missing {.field {miss}}.", call = call)
    }
    topic <- as_id_strings(qrels$topic, "qrels", "topic", call = call)
    docno <- as_id_strings(qrels$docno, "qrels", "docno", call = call)
    rel <- check_grades(qrels$rel, call = call)
    res <- cpp_qrels_from_vectors(topic, docno, rel, as.double(relevance_level), "qrels data frame")
  } else {
    stop_irtopics("{.arg qrels} must be a file path or a data frame from {.fn read_qrels}, not {.obj_type_friendly {qrels}}.",
                  call = call)
  }
  res
}

# Validation of what reaches C++ ----------------------------------------------
#
# Everything a user can hand over in memory (data-frame runs and qrels,
# `ir_run` objects, which are plain lists anyone can edit) is checked here
# before C++ sees it; the glue checks the same invariants again (types,
# lengths, offsets, codes) so that no call can make C++ read out of bounds.

# Ids given as numbers (a topic argument, a numeric topic column) as strings
# without scientific notation: topic 100000 is "100000", not "1e+05" (which
# as.character() gives). Whole doubles up to 2^53 are written in full; other
# values as as.character() writes them. Used wherever a user's id becomes a
# string.
as_ids <- function(x) {
  if (is.factor(x)) return(as.character(x))
  if (is.double(x)) {
    out <- as.character(x)
    whole <- !is.na(x) & is.finite(x) & x == round(x) & abs(x) <= 2^53
    out[whole] <- sprintf("%.0f", x[whole] + 0)  # + 0 turns -0 into 0
    return(out)
  }
  as.character(x)
}

# Ids (topics, docnos, systems, queries) as UTF-8 strings. Numbers are written
# without scientific notation or loss (docno 100000 is "100000", not
# "1e+05"); doubles that are not whole numbers (or beyond 2^53, where they
# are not exact) are refused, as are NA and empty ids, and ids that start or
# end with white space: the file readers cannot produce them (white space
# separates fields) and the writers refuse them, so " 401" would match no
# topic of a file and score 0 without a word. Refused rather than trimmed:
# trimming could merge two ids ("d1" and "d1 ") and would change the user's
# data behind their back. Strings marked latin1 and UTF-8 that R considers
# equal become the same bytes.
as_id_strings <- function(x, what, column, call = rlang::caller_env()) {
  if (is.factor(x)) x <- as.character(x)
  if (anyNA(x)) {
    row <- which(is.na(x))[1]
    stop_irtopics("{.arg {what}}: column {.field {column}} must not contain NA (row {row}).",
                  kind = "data", row = row, call = call)
  }
  if (is.double(x)) {
    bad <- which(!is.finite(x) | x != round(x) | abs(x) > 2^53)
    if (length(bad)) {
      row <- bad[1]
      value <- format(x[row], digits = 17)
      stop_irtopics(c("{.arg {what}}: column {.field {column}} holds numbers that are not exact whole numbers, so they can't be ids.",
                      x = "Row {row} holds {value}.", i = "Store the ids as character."),
                    kind = "data", row = row, call = call)
    }
    x <- sprintf("%.0f", x + 0)  # + 0 turns -0 into 0
  } else if (is.integer(x)) {
    x <- as.character(x)
  } else if (!is.character(x)) {
    stop_irtopics("{.arg {what}}: column {.field {column}} must hold character ids (or whole numbers), not {.obj_type_friendly {x}}.",
                  kind = "data", call = call)
  }
  empty <- which(!nzchar(x))
  if (length(empty)) {
    stop_irtopics("{.arg {what}}: column {.field {column}} must not contain empty strings (row {empty[1]}).",
                  kind = "data", row = empty[1], call = call)
  }
  # trec_eval's white space (isspace), compared as bytes (any encoding)
  # (PCRE: 10 times faster than the default engine on 5 million docnos)
  padded <- which(grepl("^[ \t\n\v\f\r]|[ \t\n\v\f\r]$", x, perl = TRUE, useBytes = TRUE))
  if (length(padded)) {
    row <- padded[1]
    example <- show_bytes(x[row])
    stop_irtopics(c("{.arg {what}}: column {.field {column}} holds ids with leading or trailing white space, which match no id of a TREC file.",
                    x = "Row {row} holds {.val {example}}{if (length(padded) > 1) paste0(' (', length(padded), ' rows are padded)') else ''}.",
                    i = "Trim them first, e.g. with {.code trimws()}."),
                  kind = "data", row = row, call = call)
  }
  enc2utf8(x)
}

# Grades of a qrels data frame: finite numbers in the range the file reader
# accepts (-2147483647, the C++ int range without R's NA_integer_, to
# kMaxGrade = 1000000). Whole numbers are returned as integer; when any grade
# has a fraction (autoqrels' floats, a judge's probability of relevance) all
# are returned as double: fractional grades.
check_grades <- function(rel, call = rlang::caller_env()) {
  if (!is.numeric(rel)) {
    stop_irtopics("{.arg qrels}: column {.field rel} must hold numeric grades, not {.obj_type_friendly {rel}}.",
                  kind = "parse", call = call)
  }
  bad <- which(is.na(rel) | !is.finite(rel) | rel < -.Machine$integer.max | rel > 1000000)
  if (length(bad)) {
    row <- bad[1]
    value <- format(rel[row], digits = 17)
    stop_irtopics(c("{.arg qrels}: column {.field rel} must hold finite grades between {-.Machine$integer.max} and 1000000.",
                    x = "Row {row} holds {value}."),
                  kind = "parse", row = row, call = call)
  }
  if (!fractional_grades(rel)) return(as.integer(rel))
  as.double(rel)
}

# Whether grades are fractional (a double vector from check_grades() or
# read_qrels()).
fractional_grades <- function(rel) is.double(rel) && any(rel != round(rel))

# An `ir_run` (from read_run(), possibly edited) must still be consistent:
# `score`, `topic_code` and the `offset`s into the `docno` buffer describe the
# same lines. Returns the fields C++ needs.
validate_ir_run <- function(r, call = rlang::caller_env()) {
  fail <- function(msg) {
    stop_irtopics(c("Can't use a modified {.cls ir_run}.", x = msg,
                    i = "Build runs from data frames (columns {.field system, topic, docno, score}) instead of editing one."),
                  kind = "data", call = call)
  }
  if (!is.list(r)) fail("It is not a list.")
  sys <- r$system
  if (!is.character(sys) || length(sys) != 1L || is.na(sys) || !nzchar(sys)) {
    fail("{.field system} must be one non-empty string.")
  }
  if (!is.character(r$topics) || anyNA(r$topics) || any(!nzchar(r$topics))) {
    fail("{.field topics} must be a character vector of non-empty topic ids.")
  }
  if (!is.raw(r$docno)) fail("{.field docno} must be the raw buffer of {.fn read_run}, not {.obj_type_friendly {r$docno}}.")
  score <- r$score
  check_run_scores(score, paste0("run ", show_bytes(sys)), call = call)
  n <- length(score)
  code <- r$topic_code
  if (!is.numeric(code) || length(code) != n || length(r$offset) != n + 1L) {
    fail("{.field score}, {.field topic_code} and {.field offset} must describe the same lines: {n} score{?s}, {length(code)} topic code{?s}, {length(r$offset)} offset{?s} (one per line plus one).")
  }
  if (anyNA(code) || any(code < 1 | code > length(r$topics) | code != round(code))) {
    fail("{.field topic_code} must index {.field topics} (1 to {length(r$topics)}).")
  }
  off <- r$offset
  if (!is.numeric(off) || length(off) != n + 1L || anyNA(off) || any(off != round(off))) {
    fail("{.field offset} must be {n + 1} whole numbers (one per line, plus the end).")
  }
  if (off[1] != 0 || is.unsorted(off) || off[n + 1L] != length(r$docno)) {
    fail("{.field offset} must start at 0, never decrease and end at the size of {.field docno} ({length(r$docno)}).")
  }
  list(name = enc2utf8(sys), topic = enc2utf8(r$topics), topic_code = as.integer(code),
       docno = r$docno, offset = as.integer(off), score = as.double(score))
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
#'   error. Concatenated gzip members are read one after the other (as
#'   `gzip -d` does) and zero padding after the last one is ignored; any
#'   other bytes after the gzip data (a plain run appended to a `.gz`) are an
#'   error. A decompressed file needs about its decompressed size in memory;
#'   a NUL byte stops the decompression at once, and running out of memory
#'   is an error (`irtopics_error_file` or `irtopics_error_memory`), not a
#'   crash.
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
#'   mark a document in the pool but unjudged) from -2147483647 (the lowest
#'   int, -2147483648, is R's `NA` and refused) to 1000000, or fractional
#'   grades, finite decimal numbers in the same range (`0.75`, `1e-3`: see
#'   [read_qrels()]); `x`, `nan`, `inf`, `0.5.1` or a number beyond the
#'   range are errors. Grades index
#'   per-topic count tables, so their sizes over all topics are bounded too
#'   (2^24 counts: a grade of 1000000 in more than 16 topics is an error);
#'   real collections use grades below 10.
#' * Empty files: a file of 0 bytes (or a gzip file with nothing inside) is
#'   "empty"; a file of white space only "holds no run lines" (or qrels
#'   lines).
#' * One run per file: every line of a run file must carry the run tag of
#'   the first line (two runs concatenated into one file would otherwise be
#'   merged into one system's lists); a different tag is an error naming the
#'   line. Split such a file by tag, or pass the runs as a data frame.
#' * Ids: topic ids and docnos are byte strings of any length and encoding;
#'   error messages show them escaped (`\xNN` for control bytes and bytes
#'   that are not UTF-8) and cut to about 60 bytes.
#' * Data frames (runs, qrels, query maps): ids may be character, factor or
#'   whole numbers, which are written in full (`100000`, never `1e+05`);
#'   numbers with a fraction, `NA` and empty strings (including an empty
#'   system name) are errors, and so are ids with leading or trailing white
#'   space (`" 401"`, `"d1 "`: no id of a TREC file can carry it, so they
#'   would match nothing; an error naming the column and the row, not a
#'   silent trim). Strings are compared as UTF-8, so a string
#'   marked latin1 and the same string marked UTF-8 are the same id. Grades are
#'   finite numbers between -2147483647 and 1000000 (whole, or fractional:
#'   see [read_qrels()]); anything else (`3e9`, `Inf`, `NA`) is an error
#'   naming the row.
#' * `ir_run` objects are checked before use: an edited one whose scores,
#'   topic codes and docno offsets no longer describe the same lines is an
#'   error (`irtopics_error_data`).
#' * Not regular files: a device, FIFO or socket is refused as such (not as
#'   "empty"); files that report size 0 but have content (`/proc`) are read.
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
  name <- match_choice(name)
  check_file(path)
  res <- cpp_read_run(path.expand(path))
  res$system <- if (name == "tag") res$tag else run_file_name(path)
  res$path <- normalizePath(path)
  new_ir_run(res)
}

# An `ir_run`: the lines of one run file, docnos in one raw buffer with
# offsets (validate_ir_run() checks the lines agree before C++ uses them).
new_ir_run <- function(x) {
  new_result(x, "ir_run", fields = c(system = "string", topics = "character", topic_code = "numeric",
                                     score = "numeric", docno = "any", offset = "numeric",
                                     path = "string?"))
}

# An `ir_runs`: a list of `ir_run`s named by their (unique) system names.
new_ir_runs <- function(runs) {
  if (!is.list(runs) || !all(vapply(runs, inherits, logical(1), what = "ir_run"))) {
    stop_irtopics("Can't build {.cls ir_runs}: it must be a list of {.cls ir_run}.", kind = "internal",
                  call = NULL)
  }
  names(runs) <- vapply(runs, `[[`, "", "system")
  new_result(runs, "ir_runs")
}

#' @rdname read_run
#' @export
read_runs <- function(paths, name = c("tag", "file"), pattern = NULL) {
  name <- match_choice(name)
  paths <- expand_run_paths(paths, pattern = pattern)
  runs <- lapply(paths, read_run, name = name)
  names(runs) <- unique_system_names(vapply(runs, `[[`, "", "system"))
  for (k in seq_along(runs)) runs[[k]]$system <- names(runs)[k]
  new_ir_runs(runs)
}

# The system name of a run file under name = "file": the file name without
# ".gz" and without its last extension ("results.test" -> "results"), except
# that TREC's own run files, "input.<runid>" with no further extension, keep
# their run id: "input.CnQst2" stays "input.CnQst2" (it must not become
# "input", which every TREC run would then share).
run_file_name <- function(path) {
  b <- sub("\\.gz$", "", basename(path), ignore.case = TRUE)
  stem <- sub("\\.[^.]*$", "", b)
  ifelse(tolower(stem) == "input" & nzchar(sub("^[^.]*\\.?", "", b)), b, stem)
}

unique_system_names <- function(x) {
  if (anyDuplicated(x)) {
    dup <- unique(x[duplicated(x)])
    warn_irtopics(c("Several runs share the system name{?s} {.val {dup}}; made unique with suffixes.",
                    i = "Name systems by run tag ({.code name = \"tag\"}) or by file ({.code name = \"file\"}), or give the runs distinct tags or file names."), kind = "names")
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
    files <- sort_bytes(files)  # byte order: the same in every locale
    if (!length(files)) {
      what <- if (is.null(pattern)) "files" else "files matching {.val {pattern}}"
      stop_irtopics(paste0("Directory {.file {paths}} holds no ", what, "."), kind = "file", call = call)
    }
    return(files)
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
summary.ir_run <- function(object, ...) runs_summary(new_ir_runs(list(object)), "ir_run")

#' @rdname read_run
#' @export
summary.ir_runs <- function(object, ...) runs_summary(object, "ir_runs")

runs_summary <- function(object, class) {
  tab <- do.call(rbind, lapply(object, function(r) {
    per <- tabulate(r$topic_code, nbins = length(r$topics))
    data.frame(system = r$system, lines = length(r$score), topics = length(r$topics),
               min_per_topic = if (length(per)) min(per) else 0L,
               median_per_topic = if (length(per)) stats::median(per) else 0,
               max_per_topic = if (length(per)) max(per) else 0L, stringsAsFactors = FALSE)
  }))
  new_summary(class, sprintf("Ranked lines per run and topic (%s):", plural(length(object), "run")), tab)
}

#' @rdname read_run
#' @export
as.data.frame.ir_run <- function(x, row.names = NULL, optional = FALSE, ...) {
  v <- validate_ir_run(x)
  data.frame(system = x$system, topic = x$topics[v$topic_code],
             docno = cpp_docnos(v$docno, v$offset), score = v$score,
             stringsAsFactors = FALSE)
}

#' @rdname read_run
#' @export
as.data.frame.ir_runs <- function(x, row.names = NULL, optional = FALSE, ...) {
  out <- do.call(rbind, lapply(x, as.data.frame))
  rownames(out) <- NULL
  out
}
