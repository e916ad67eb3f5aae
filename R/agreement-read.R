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
#' "relevance")`); other fields are ignored. Labels are grades: whole
#' numbers, or fractional grades (a judge's probability of relevance, read
#' as written: [evaluate()] takes them as gains and relevant at
#' `relevance_level`, see [read_qrels()]; [compare_qrels()], which compares
#' grades on a whole-number scale, refuses them). With `breaks` the label
#' column is a score and the grade is the number of breaks at or below it
#' (`breaks = c(0.5, 1.5, 2.5)` rounds an expected grade on a 0-3 scale to
#' the nearest grade; `breaks = 0.5` turns a probability into 0/1).
#'
#' Blank lines are skipped. A line with too few fields, a label that is not a
#' finite number (or out of the grades' range, without `breaks`), an empty
#' topic or document id, or
#' a document labelled twice for one topic is an error naming the file and
#' the line (`irtopics_error_parse`, `irtopics_error_duplicate`); a missing
#' or empty file is an `irtopics_error_file`. gzip files are read as such.
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

  con <- file(path, "r")  # gzip is recognised by its magic bytes
  text <- tryCatch(readLines(con, warn = FALSE, encoding = "UTF-8"), error = function(e) {
    stop_irtopics("Can't read {.file {path}}: {conditionMessage(e)}", kind = "file", file = path)
  }, finally = close(con))
  text <- strip_bom(text)
  line_no <- seq_along(text)
  keep <- grepl("[^[:space:]]", text)
  text <- text[keep]
  line_no <- line_no[keep]
  if (!length(text)) stop_irtopics("File {.file {path}} holds no label lines.", kind = "file", file = path)
  split <- if (is.null(sep)) strsplit(trimws(text), "[[:space:]]+") else strsplit(text, sep, fixed = TRUE)
  if (!is.null(sep)) split <- lapply(split, trimws)
  if (header) {
    names_row <- split[[1]]
    split <- split[-1]
    line_no <- line_no[-1]
    if (is.character(columns)) {
      pos <- match(columns[need], names_row)
      if (anyNA(pos)) {
        miss <- unname(columns[need][is.na(pos)])
        stop_irtopics(c("Can't read {.file {path}}: the header has no field {.val {miss}}.",
                        i = "Its fields: {.val {names_row}}."), kind = "parse", file = path, line = 1L)
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
  field <- function(k) vapply(split, `[`, "", k)
  topic <- field(pos[1])
  docno <- field(pos[2])
  raw <- field(pos[3])
  empty <- which(!nzchar(topic) | !nzchar(docno))
  if (length(empty)) label_parse_error(path, line_no[empty[1]], "an empty topic or document id")
  value <- suppressWarnings(as.numeric(raw))
  bad <- which(is.na(value) | !is.finite(value))
  if (length(bad)) {
    label_parse_error(path, line_no[bad[1]], sprintf("label \"%s\" is not a number", show_bytes(raw[bad[1]])))
  }
  if (is.null(breaks)) {
    # grades: whole numbers, or fractional ones (a judge's probability of
    # relevance), in read_qrels()'s range
    out <- which(value < -.Machine$integer.max | value > 1e6)
    if (length(out)) {
      label_parse_error(path, line_no[out[1]],
                        sprintf("label %s is outside the grades' range -2147483647 to 1000000 (give `breaks` to turn scores into grades)", raw[out[1]]))
    }
    rel <- if (all(value == round(value))) as.integer(value) else value
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

label_parse_error <- function(path, line, what, call = rlang::caller_env(2)) {
  msg <- sprintf("Line %d: %s.", line, what)
  stop_irtopics(c("Can't read {.file {path}}.", x = "{msg}"),
                kind = "parse", file = path, line = line, call = call)
}
