# Reading score files ------------------------------------------------------------

#' Read a per-topic score file
#'
#' Reads a CSV of per-topic scores with topics in rows and systems in
#' columns (the layout of the published TREC score matrices shipped in
#' `inst/extdata/score-matrices`) and returns an `ir_scores` with systems in
#' rows.
#'
#' @param path Path to a CSV file (plain or `.gz`).
#' @param measure The measure's name to store, or its record
#'   ([custom_measure()]): see [as_ir_scores()].
#' @param topic_col The column holding topic ids: a name or number, `NULL`
#'   (default) to use a column named `topic`, `topics`, `query` or `qid` if
#'   there is one, or `FALSE` for none (topics are then numbered `t1, t2, ...`).
#' @return An `ir_scores` (systems x topics).
#' @examples
#' path <- system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                     package = "irtopics")
#' ap <- read_scores(path, measure = "AP")
#' ap
#' @export
read_scores <- function(path, measure = "score", topic_col = NULL) {
  check_file(path)
  check_measure_arg(measure)
  # Every line must have as many fields as the header: read.csv() would
  # otherwise take a line with one extra field as a row name (every system
  # moving one column) or pad a short line silently.
  nf <- tryCatch(utils::count.fields(path, sep = ",", quote = "\"", blank.lines.skip = FALSE,
                                     comment.char = ""),
                 error = function(e) {
                   stop_irtopics(c("Can't read {.file {path}} as CSV.", x = conditionMessage(e)),
                                 kind = "parse", file = path)
                 })
  bad <- which(!is.na(nf) & nf > 0 & nf != nf[1])
  if (length(bad)) {
    line <- bad[1]
    stop_irtopics(c("{.file {path}}: line {line} has {nf[line]} field{?s}, but the header has {nf[1]}.",
                    i = "Every line needs one value per column (a topic id and one score per system)."),
                  kind = "parse", file = path, line = line)
  }
  # Everything as text first: ids are kept exactly as written ("001" stays
  # "001"), and scores are converted below, naming the line of a bad one.
  df <- tryCatch(
    utils::read.csv(path, check.names = FALSE, stringsAsFactors = FALSE, strip.white = TRUE,
                    colClasses = "character", row.names = NULL, na.strings = c("NA", ""),
                    comment.char = ""),
    error = function(e) {
      stop_irtopics(c("Can't read {.file {path}} as CSV.", x = conditionMessage(e)), kind = "parse", file = path)
    }
  )
  if (!nrow(df) || !ncol(df)) stop_irtopics("{.file {path}} holds no scores.", kind = "file", file = path)
  # the data lines' physical line numbers (blank lines are skipped)
  lines <- which(!is.na(nf) & nf > 0)[-1]
  # Ids must be UTF-8 (issue 29: a Latin-1 byte in the header reached base
  # R's "invalid multibyte string" from the string functions below).
  check_utf8_ids(names(df), path, 1L, "the header")
  names(df) <- strip_bom(names(df))
  if (is.null(topic_col)) {
    hit <- which(tolower(names(df)) %in% c("topic", "topics", "query", "qid"))
    # write.csv() writes the row names (the topic ids) under an empty name
    if (!length(hit) && !nzchar(names(df)[1])) hit <- 1L
    topic_col <- if (length(hit)) hit[1] else FALSE
  }
  topics <- NULL
  if (!isFALSE(topic_col)) {
    idx <- if (is.character(topic_col)) match(topic_col, names(df)) else topic_col
    if (length(idx) != 1L || is.na(idx) || idx < 1 || idx > ncol(df)) {
      stop_irtopics("{.arg topic_col} must name a column of {.file {path}}.")
    }
    topics <- df[[idx]]
    check_utf8_ids(topics, path, lines, "a topic id")
    if (anyNA(topics)) {
      row <- which(is.na(topics))[1]
      stop_irtopics("{.file {path}}: line {lines[row]} has no topic id.", kind = "parse", file = path,
                    line = lines[row])
    }
    df <- df[-idx]
  }
  if (!ncol(df)) stop_irtopics("{.file {path}} holds no scores.", kind = "file", file = path)
  unnamed <- which(!nzchar(names(df)))
  if (length(unnamed)) {
    stop_irtopics(c("{.file {path}}: column {unnamed[1] + !isFALSE(topic_col)} has no system name.",
                    i = "Name every system in the header line."), kind = "parse", file = path, line = 1L)
  }
  for (col in names(df)) {
    v <- df[[col]]
    num <- suppressWarnings(as.numeric(v))
    # as.numeric() also takes hex and white space; scores are decimal numbers
    wrong <- which((is.na(num) & !is.na(v)) | grepl("^[+-]?0[xX]", v))
    if (length(wrong)) {
      row <- wrong[1]
      stop_irtopics(c("{.file {path}}: column {.val {col}} must hold numbers.",
                      x = "Line {lines[row]} has {.val {v[row]}}."), kind = "parse", file = path,
                    line = lines[row])
    }
    df[[col]] <- num
  }
  m <- t(as.matrix(df))
  colnames(m) <- topics %||% paste0("t", seq_len(ncol(m)))
  new_ir_scores(m, measure)
}

# A parse error naming the first id of `x` that is not valid UTF-8 and its
# line (`lines[k]` for x[k]; one number for the header).
check_utf8_ids <- function(x, path, lines, what, call = rlang::caller_env()) {
  bad <- which(!is.na(x) & !validUTF8(x))
  if (!length(bad)) return(invisible(x))
  k <- bad[1]
  line <- if (length(lines) == 1L) lines else lines[k]
  stop_irtopics(c("{.file {path}}: line {line}: {what} is not valid UTF-8 ({show_value(x[k])}).",
                  i = "Save the file as UTF-8 (e.g. {.code iconv -f latin1 -t utf-8})."),
                kind = "parse", file = path, line = line, call = call)
}
