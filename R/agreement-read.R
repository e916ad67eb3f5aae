# Reading label files of other layouts: read_labels() -------------------------------

#' Read relevance labels from files with more columns or a score
#'
#' [read_qrels()] reads TREC qrels (`topic iter docno rel`). Label sets made
#' by LLM judges and annotation tools come in other layouts: a tab-separated
#' file with a header (`query_id  doc_id  relevance  confidence`), extra
#' columns (a rationale, a model name), or a real-valued score instead of a
#' grade. `read_labels()` reads them into the same `ir_qrels` data frame.
#'
#' Lines are split on `sep` (`NULL`: any run of white space, as TREC files;
#' `"\t"` for TSV, `","` for simple CSV without quoted fields). `columns`
#' names the fields that hold the topic, the document and the label, by
#' position (`c(topic = 1, docno = 3, rel = 4)`, TREC qrels) or, with
#' `header = TRUE`, by name (`c(topic = "query_id", docno = "doc_id", rel =
#' "relevance")`); other fields are ignored. Labels must be whole numbers,
#' unless `breaks` is given: then the label column is a score and the grade
#' is the number of breaks at or below it (`breaks = c(0.5, 1.5, 2.5)` rounds
#' an expected grade on a 0-3 scale to the nearest grade; `breaks = 0.5`
#' turns a probability into 0/1).
#'
#' Blank lines are skipped. A line with too few fields, a label that is not a
#' number (or not whole, without `breaks`), an empty topic or document id, or
#' a document labelled twice for one topic is an error naming the file and
#' the line (`irtopics_error_parse`, `irtopics_error_duplicate`); a missing
#' or empty file is an `irtopics_error_file`. gzip files are read as such.
#' Ids are read as [read_qrels()] reads them: the file's bytes, in any
#' encoding (a Latin-1 document id is the same id in both), so bytes that
#' are not UTF-8 in a column that is not read do no harm; a NUL byte is an
#' error naming its line. Lines end with `\n`, `\r\n` or `\r`; a UTF-8
#' byte order mark is skipped. Labels are decimal numbers (`2`, `2.0`,
#' `0.75`, `1e-3`); hexadecimal numbers, `Inf` and `NaN` are errors.
#'
#' @param path Path to the label file (gzip allowed).
#' @param columns Named vector with elements `topic`, `docno` and `rel`:
#'   field positions (whole numbers), or header names with `header = TRUE`.
#' @param header Whether the first non-blank line names the fields.
#' @param sep `NULL` (white space) or a single character separating fields.
#' @param breaks `NULL` (labels are grades) or increasing numbers turning a
#'   score into a grade (`findInterval(score, breaks)`).
#' @return An `ir_qrels` data frame (`topic`, `docno`, `rel`), as
#'   [read_qrels()] returns.
#' @seealso [compare_qrels()]
#' @examples
#' f <- tempfile(fileext = ".tsv")
#' writeLines(c("query_id\tdoc_id\tscore\tmodel",
#'              "q1\td1\t2.7\tllm", "q1\td2\t0.2\tllm", "q2\td1\t1.4\tllm"), f)
#' read_labels(f, columns = c(topic = "query_id", docno = "doc_id", rel = "score"),
#'             header = TRUE, sep = "\t", breaks = c(0.5, 1.5, 2.5))
#' @export
read_labels <- function(path, columns = c(topic = 1, docno = 3, rel = 4), header = FALSE, sep = NULL,
                        breaks = NULL) {
  check_file(path)
  check_flag(header, "header")
  if (!is.null(sep) && (!is.character(sep) || length(sep) != 1L || is.na(sep) || nchar(sep) != 1L)) {
    stop_irtopics("{.arg sep} must be NULL (white space) or one character, not {show_value(sep)}.")
  }
  if (!is.null(breaks) && (!is.numeric(breaks) || !length(breaks) || anyNA(breaks) ||
                           any(!is.finite(breaks)) || is.unsorted(breaks, strictly = TRUE))) {
    stop_irtopics("{.arg breaks} must be NULL or strictly increasing finite numbers, not {show_values(breaks)}.")
  }
  need <- c("topic", "docno", "rel")
  if (is.null(names(columns)) || !setequal(intersect(names(columns), need), need) ||
      length(columns) != 3L || anyNA(columns)) {
    stop_irtopics("{.arg columns} must name the fields {.field {need}}, e.g. {.code c(topic = 1, docno = 3, rel = 4)}.")
  }
  if (!header && !is.numeric(columns)) {
    stop_irtopics("{.arg columns} must give field positions (whole numbers) when {.code header = FALSE}.")
  }
  if (is.numeric(columns)) {
    for (nm in need) check_whole(columns[[nm]], sprintf("columns[[\"%s\"]]", nm), min = 1)
  }

  text <- label_lines(path)
  line_no <- attr(text, "line")
  # trec_eval's white space (isspace); fields split and trimmed as bytes, so
  # ids in any encoding read as read_qrels() reads them
  ws <- "[ \t\n\v\f\r]"
  split <- if (is.null(sep)) {
    strsplit(sub(paste0("^", ws, "+"), "", text, useBytes = TRUE), paste0(ws, "+"), useBytes = TRUE)
  } else {
    strsplit(text, sep, fixed = TRUE, useBytes = TRUE)  # fields trimmed when taken (trim() below)
  }
  trim <- if (is.null(sep)) identity else function(x) gsub(paste0("^", ws, "+|", ws, "+$"), "", x, useBytes = TRUE)
  if (header) {
    header_line <- line_no[1]
    names_row <- trim(split[[1]])
    split <- split[-1]
    line_no <- line_no[-1]
    if (is.character(columns)) {
      pos <- match(columns[need], names_row)
      if (anyNA(pos)) {
        miss <- unname(columns[need][is.na(pos)])
        stop_irtopics(c("Can't read {.file {path}}: the header has no field {.val {miss}}.",
                        i = "Its fields: {.val {show_bytes(names_row)}}."), kind = "parse", file = path, line = header_line)
      }
      columns <- stats::setNames(pos, need)
    }
    if (!length(split)) stop_irtopics("File {.file {path}} holds no label lines.", kind = "file", file = path)
  }
  pos <- as.integer(columns[need])
  nf <- lengths(split)
  short <- which(nf < max(pos))
  if (length(short)) {
    i <- short[1]
    label_parse_error(path, line_no[i], sprintf("%d field%s, at least %d needed", nf[i], if (nf[i] == 1) "" else "s", max(pos)))
  }
  field <- function(k) trim(vapply(split, `[`, "", k))
  topic <- native_bytes(field(pos[1]))
  docno <- native_bytes(field(pos[2]))
  raw <- field(pos[3])
  empty <- which(!nzchar(topic) | !nzchar(docno))
  if (length(empty)) label_parse_error(path, line_no[empty[1]], "an empty topic or document id")
  # decimal numbers only (as.numeric() would take hexadecimal "0x1A", "Inf", "NaN")
  decimal <- grepl("^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$", raw, useBytes = TRUE)
  value <- rep(NA_real_, length(raw))
  value[decimal] <- suppressWarnings(as.numeric(raw[decimal]))
  bad <- which(is.na(value) | !is.finite(value))
  if (length(bad)) {
    label_parse_error(path, line_no[bad[1]], sprintf("label \"%s\" is not a number", show_bytes(raw[bad[1]])))
  }
  if (is.null(breaks)) {
    frac <- which(value != round(value) | abs(value) > 1e6)
    if (length(frac)) {
      label_parse_error(path, line_no[frac[1]],
                        sprintf("label %s is not a whole-number grade (give `breaks` to turn scores into grades)", raw[frac[1]]))
    }
    rel <- as.integer(value)
  } else {
    rel <- findInterval(value, breaks)
  }
  dup <- which(duplicated(data.frame(topic, docno, stringsAsFactors = FALSE)))
  if (length(dup)) {
    msg <- sprintf("Line %d labels document \"%s\" of topic \"%s\" again.", line_no[dup[1]],
                   show_bytes(docno[dup[1]]), show_bytes(topic[dup[1]]))
    stop_irtopics(c("Duplicate document in {.file {path}}.", x = "{msg}"),
                  kind = "duplicate", file = path, line = line_no[dup[1]])
  }
  new_ir_qrels(data.frame(topic = topic, docno = docno, rel = rel, stringsAsFactors = FALSE),
               source = normalizePath(path))
}

# The non-blank lines of a label file (gzip by its magic bytes; read by the
# C++ readers' read_whole_file(), so a truncated or corrupt gzip file is an
# error), as read_qrels() reads its bytes: no re-encoding and no UTF-8 check (ids are byte strings),
# a leading UTF-8 byte order mark dropped, "\r\n", "\n" and "\r" ending
# lines. attr(, "line") holds their line numbers. A NUL byte (a binary or
# compressed file; R's readLines() cut such a line short without a word) is
# an error naming its line; an empty file, a file of blank lines and a file
# that cannot be read are irtopics_error_file.
label_lines <- function(path, call = rlang::caller_env()) {
  # the C++ readers' file reading: a truncated gzip stream is an error (R's
  # gzfile() returned what it had, and a cut at a line end lost labels
  # without a word)
  bytes <- cpp_read_file_bytes(path.expand(path))
  if (!length(bytes)) stop_irtopics("Can't read {.file {path}}: the file is empty.", kind = "file", file = path, call = call)
  line_ends <- "\r\n|\n|\r"
  # rawToChar() refuses an embedded NUL: only then is it looked for
  whole <- tryCatch(rawToChar(bytes), error = function(e) {
    nul <- which(bytes == as.raw(0L))[1]
    before <- if (nul > 1L) rawToChar(bytes[seq_len(nul - 1L)]) else ""
    line <- sum(gregexpr(line_ends, before, useBytes = TRUE)[[1]] > 0L) + 1L
    label_parse_error(path, line, "a NUL byte (is it a binary or compressed file?)", call = call)
  })
  # "\r\n", then a lone "\r", as "\n" (fixed-string passes: a regular
  # expression split took 1.6 s for 15 MB)
  whole <- gsub("\r\n", "\n", whole, fixed = TRUE, useBytes = TRUE)
  if (grepl("\r", whole, fixed = TRUE, useBytes = TRUE)) whole <- gsub("\r", "\n", whole, fixed = TRUE, useBytes = TRUE)
  text <- strip_bom(strsplit(whole, "\n", fixed = TRUE, useBytes = TRUE)[[1]])
  keep <- which(grepl("[^ \t\n\v\f\r]", text, useBytes = TRUE))
  if (!length(keep)) stop_irtopics("File {.file {path}} holds no label lines.", kind = "file", file = path, call = call)
  structure(text[keep], line = keep)
}

# Strings as the C++ readers make them: the same bytes, no encoding mark.
native_bytes <- function(x) {
  Encoding(x) <- "unknown"
  x
}

label_parse_error <- function(path, line, what, call = rlang::caller_env(2)) {
  msg <- sprintf("Line %d: %s.", line, what)
  stop_irtopics(c("Can't read {.file {path}}.", x = "{msg}"),
                kind = "parse", file = path, line = line, call = call)
}
