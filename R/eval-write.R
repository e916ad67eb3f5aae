# Writing runs, qrels and evaluations in TREC formats -----------------------------------

# Column names of ranx / ir_measures / pandas exports, mapped to ours.
column_aliases <- list(
  topic = c("topic", "q_id", "query_id", "qid", "query"),
  docno = c("docno", "doc_id", "docid", "document"),
  rel = c("rel", "relevance", "label", "judgment", "grade"),
  system = c("system", "run", "run_id", "runid", "tag", "name"),
  score = c("score")
)

# Renames the first alias found of each column; `need` are our names.
alias_columns <- function(df, need, arg, call = rlang::caller_env()) {
  nms <- names(df)
  for (col in need) {
    if (col %in% nms) next
    hit <- intersect(column_aliases[[col]], nms)
    if (length(hit)) names(df)[match(hit[1], nms)] <- col
    nms <- names(df)
  }
  df
}

check_writable <- function(path, overwrite, call = rlang::caller_env()) {
  if (!is.character(path) || length(path) != 1L || is.na(path) || !nzchar(path)) {
    stop_irtopics("{.arg path} must be one file path.", call = call)
  }
  check_flag(overwrite, "overwrite")
  path <- path.expand(path)
  if (dir.exists(path)) {
    stop_irtopics("Can't write {.file {path}}: it is a directory.", kind = "file", call = call)
  }
  if (file.exists(path) && !overwrite) {
    stop_irtopics(c("Can't write {.file {path}}: the file exists.",
                    i = "Use {.code overwrite = TRUE} to replace it."), kind = "file", call = call)
  }
  dir <- dirname(path)
  if (!dir.exists(dir)) {
    stop_irtopics("Can't write {.file {path}}: directory {.file {dir}} does not exist.", kind = "file", call = call)
  }
  if (file.access(dir, 2L) != 0L || (file.exists(path) && file.access(path, 2L) != 0L)) {
    stop_irtopics("Can't write {.file {path}}: permission denied.", kind = "file", call = call)
  }
  path
}

# Writes lines to a plain or (by extension) gzip file, raising a classed
# error if the system refuses.
write_text_lines <- function(lines, path, call = rlang::caller_env()) {
  gz <- grepl("\\.gz$", path, ignore.case = TRUE)
  con <- tryCatch(if (gz) gzfile(path, "wb") else file(path, "wb"),
                  error = function(e) stop_irtopics(c("Can't write {.file {path}}.", x = conditionMessage(e)),
                                                    kind = "file", call = call),
                  warning = function(w) stop_irtopics(c("Can't write {.file {path}}.", x = conditionMessage(w)),
                                                      kind = "file", call = call))
  on.exit(close(con))
  if (length(lines)) writeLines(lines, con, sep = "\n", useBytes = TRUE)
  invisible(path)
}

# Scores as the shortest of 15 or 17 significant digits that parses back to
# the same double ("%.17g" always does); infinities as "inf" / "-inf".
format_scores <- function(x) {
  s <- sprintf("%.15g", x)
  back <- suppressWarnings(as.numeric(s))
  long <- !is.na(back) & back != x
  s[long] <- sprintf("%.17g", x[long])
  s[x == Inf] <- "inf"
  s[x == -Inf] <- "-inf"
  s
}

check_no_space <- function(x, what, call) {
  bad <- grepl("[[:space:]]", x) | !nzchar(x)
  if (any(bad)) {
    stop_irtopics(c("Can't write {what} {.val {x[bad][1]}}: TREC files are white-space separated, so ids must be non-empty and hold no white space."),
                  kind = "data", call = call)
  }
}

# What a writer must refuse because the package's own reader would not read
# it back as written: no lines at all (an empty file is an error when read),
# and a topic starting with "#" (a line starting with "#" is refused as a
# comment line).
check_round_trip <- function(n, topic, what, call) {
  if (n == 0L) {
    stop_irtopics(c("Can't write {what} with no lines.",
                    i = "An empty file can't be read back: {.fn read_run} and {.fn read_qrels} refuse it."),
                  kind = "data", call = call)
  }
  hash <- startsWith(topic, "#")
  if (any(hash)) {
    stop_irtopics(c("Can't write topic {.val {topic[hash][1]}}: a line starting with {.val #} reads as a comment line.",
                    i = "Rename the topic."), kind = "data", call = call)
  }
}

#' Write runs and qrels in TREC format
#'
#' `write_run()` writes one run as `topic Q0 docno rank score tag` lines and
#' `write_qrels()` writes judgements as `topic 0 docno rel` lines; a path
#' ending in `.gz` is gzip-compressed. Reading the file back with
#' [read_run()] / [read_qrels()] gives the same run and judgements:
#' scores are printed with 15 significant digits, or 17 where 15 would not
#' parse back to the same double, so the trec_eval order (score descending,
#' then docno descending) and every evaluation are unchanged. A run's lines
#' are written topic by topic in trec_eval order, with ranks 1, 2, ...;
#' qrels lines keep their order.
#'
#' Data frames may use the column names of ranx, ir_measures or pandas
#' exports: `q_id`, `query_id` or `qid` for `topic`; `doc_id` or `docid`
#' for `docno`; `relevance` for `rel`; `run_id` or `tag` for `system` (a
#' run data frame without one is one system). [evaluate()] accepts the same
#' names.
#'
#' @param run An `ir_run` from [read_run()], or a data frame with columns
#'   `topic`, `docno`, `score` (and `system`, holding one name).
#' @param qrels An `ir_qrels` from [read_qrels()] or a data frame with
#'   columns `topic`, `docno`, `rel`.
#' @param path File to write (`.gz` for gzip).
#' @param tag The run tag written in the last column (default: the run's
#'   system name).
#' @param overwrite Replace an existing file? (default `FALSE`: an error).
#' @return `path`, invisibly.
#' @seealso [write_trec_eval()] for evaluations.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' run <- read_run(file.path(dir, "results.test"))
#' f <- tempfile(fileext = ".gz")
#' write_run(run, f)
#' # the same lines (in trec_eval order), so the same evaluation
#' qrels <- file.path(dir, "qrels.test")
#' identical(evaluate(f, qrels, "AP"), evaluate(run, qrels, "AP"))
#'
#' q <- data.frame(query_id = c("1", "1"), doc_id = c("d1", "d2"), relevance = c(1L, 0L))
#' g <- tempfile()
#' write_qrels(q, g)
#' readLines(g)
#' @export
write_run <- function(run, path, tag = NULL, overwrite = FALSE) {
  # the tag is checked first: before issue 29, tag = c("a", "b") reached
  # base R's "replacement has 2 rows" when filling the system column
  if (!is.null(tag) && (!is.character(tag) || length(tag) != 1L || is.na(tag))) {
    stop_irtopics("{.arg tag} must be one string (the run's tag), not {show_value(tag)}.")
  }
  path <- check_writable(path, overwrite)
  if (inherits(run, "ir_runs")) {
    if (length(run) != 1L) {
      stop_irtopics("{.arg run} holds {length(run)} runs; write each to its own file.", call = rlang::current_env())
    }
    run <- run[[1]]
  }
  if (inherits(run, "ir_run")) {
    df <- as.data.frame(run)
  } else if (is.data.frame(run)) {
    df <- alias_columns(run, c("topic", "docno", "score", "system"), "run")
    miss <- setdiff(c("topic", "docno", "score"), names(df))
    if (length(miss)) stop_irtopics("{.arg run} must have columns {.field topic}, {.field docno}, {.field score}; missing {.field {miss}}.")
    if (is.null(df$system)) df$system <- rep(tag %||% "irtopics", nrow(df))
    if (length(unique(df$system)) > 1L) {
      stop_irtopics("{.arg run} holds {length(unique(df$system))} systems; write each to its own file.")
    }
    check_run_scores(df$score, "the run")
  } else {
    stop_irtopics("{.arg run} must be an {.cls ir_run} or a data frame, not {.obj_type_friendly {run}}.")
  }
  if (!nrow(df)) check_round_trip(0L, character(), "a run", rlang::current_env())
  tag <- tag %||% as.character(df$system[1])
  if (!length(tag)) tag <- "irtopics"
  if (is.na(tag)) stop_irtopics("The run's system name is NA; give its tag in {.arg tag}.", kind = "data")
  # ids exactly as the readers take them: whole numbers in full (docno
  # 100000, never "1e+05"), NA and fractions refused
  topic <- as_id_strings(df$topic, "run", "topic")
  docno <- as_id_strings(df$docno, "run", "docno")
  score <- as.double(df$score)
  check_round_trip(length(topic), topic, "a run", rlang::current_env())
  check_no_space(c(tag), "tag", rlang::current_env())
  check_no_space(unique(topic), "topic", rlang::current_env())
  check_no_space(docno, "docno", rlang::current_env())
  # trec_eval order within each topic; topics in order of first appearance.
  t_code <- match(topic, unique(topic))
  o <- order(t_code, -score, as_bytes(docno), decreasing = c(FALSE, FALSE, TRUE), method = "radix")
  rank <- stats::ave(seq_along(o), t_code[o], FUN = seq_along)
  lines <- paste(topic[o], "Q0", docno[o], rank, format_scores(score[o]), tag)
  write_text_lines(lines, path)
}

#' @rdname write_run
#' @export
write_qrels <- function(qrels, path, overwrite = FALSE) {
  path <- check_writable(path, overwrite)
  if (!is.data.frame(qrels)) {
    stop_irtopics("{.arg qrels} must be a data frame from {.fn read_qrels}, not {.obj_type_friendly {qrels}}.")
  }
  df <- alias_columns(qrels, c("topic", "docno", "rel"), "qrels")
  miss <- setdiff(c("topic", "docno", "rel"), names(df))
  if (length(miss)) stop_irtopics("{.arg qrels} must have columns {.field topic}, {.field docno}, {.field rel}; missing {.field {miss}}.")
  # grades in the range the readers accept (beyond it they would be written
  # as "NA"); ids as the readers take them
  rel <- check_grades(df$rel)
  topic <- as_id_strings(df$topic, "qrels", "topic")
  docno <- as_id_strings(df$docno, "qrels", "docno")
  check_round_trip(length(topic), topic, "qrels", rlang::current_env())
  check_no_space(unique(topic), "topic", rlang::current_env())
  check_no_space(docno, "docno", rlang::current_env())
  write_text_lines(paste(topic, "0", docno, sprintf("%d", rel)), path)
}

#' Write an evaluation in trec_eval's output format
#'
#' Writes an [evaluate()] result as trec_eval prints it with `-q`: one line
#' per measure and topic (`measure`, topic, value, tab separated, the
#' measure name padded to 22 characters), then the `runid` line and one `all`
#' line per measure, so scripts that parse trec_eval output read it
#' unchanged. Values have 4 decimals, counts (`num_ret`, ...) none; the `all`
#' values are those of `mean_scores(accumulate = "trec_eval")` (trec_eval's
#' running sum, sums for counts, geometric means for `gm_map` and
#' `gm_bpref`, which have no per-topic lines). Measures are named as
#' trec_eval names them (`map`, `P_10`, `ndcg_cut_10`, `iprec_at_recall_0.10`);
#' measures trec_eval lacks keep their irtopics name (`ERR@20`, `Judged@10`).
#' Topics come in trec_eval's order (ids in byte order); a topic a system did
#' not answer has no line. Several systems are written one after the other,
#' each block as trec_eval prints one run.
#'
#' The file reads back ([read_trec_eval()]) as the evaluation it was written
#' from, its values rounded to the printed digits; what the format cannot
#' hold is refused before anything is written (`irtopics_error_data`, naming
#' it): a system name, topic id or measure name with white space in it (the
#' fields are white-space separated; `"BM25 + RM3"` from a data frame), the
#' topic id `"all"` (it would read as a summary line) and a custom measure
#' named `runid` or `relstring` (read as text). A system that answered no
#' topic (`missing = "drop"`) is written as its `runid` line, with `num_q`
#' and the other sums 0 and no line for the measures whose mean over no
#' topic is undefined; it reads back as a row of `NA`. Values of a summed
#' measure are written as whole numbers when they are whole (as trec_eval
#' prints counts), else with 4 decimals.
#'
#' @param x An `ir_evaluation` from [evaluate()].
#' @param path File to write (`.gz` for gzip).
#' @param per_topic Write the per-topic lines (`-q`)? `FALSE` writes only
#'   the `all` lines, as trec_eval without `-q`.
#' @param overwrite Replace an existing file? (default `FALSE`: an error).
#' @return `path`, invisibly.
#' @seealso [read_trec_eval()] reads the file back into an evaluation.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("map", "P_10", "num_rel_ret", "gm_map"))
#' f <- tempfile()
#' write_trec_eval(res, f)
#' cat(readLines(f), sep = "\n")
#' @export
write_trec_eval <- function(x, path, per_topic = TRUE, overwrite = FALSE) {
  if (!inherits(x, "ir_evaluation")) {
    stop_irtopics("{.arg x} must be an {.cls ir_evaluation} from {.fn evaluate}, not {.obj_type_friendly {x}}.")
  }
  check_flag(per_topic, "per_topic")
  check_evaluation_nonempty(x)
  path <- check_writable(path, overwrite)
  # formatted (and checked) before the file is opened: a refusal leaves no file
  lines <- format_trec_eval(x, per_topic)
  write_text_lines(lines, path)
}

# What a trec_eval file cannot hold, refused before anything is written:
# white space inside a field (fields are white-space separated), a topic
# named "all" (the summary lines' topic) and a measure the reader takes as
# text (runid, relstring). `labels` are the measures as they will be written.
check_trec_eval_fields <- function(systems, topics, labels, call = rlang::caller_env()) {
  refuse <- function(what, id, why, fix) {
    id <- show_bytes(id)
    stop_irtopics(c(paste0("Can't write ", what, " {.val {id}} to a trec_eval file: ", why, "."), i = fix),
                  kind = "data", call = call)
  }
  space <- function(x) grepl("[ \t\n\v\f\r]", x, useBytes = TRUE) | !nzchar(x)
  fields <- "its lines are white-space separated, so the file would not read back"
  if (any(space(systems))) {
    refuse("system", systems[space(systems)][1], fields,
           "Rename the systems without white space (the run's {.field system} column or tag, e.g. {.code gsub(\" \", \"_\", system)}).")
  }
  if (any(space(topics))) refuse("topic", topics[space(topics)][1], fields, "Rename the topic without white space.")
  if (any(topics == "all")) {
    refuse("topic", "all", "{.val all} is the topic of trec_eval's summary lines, so its lines would read as another run's summary",
           "Rename the topic (e.g. {.val all_}).")
  }
  if (any(space(labels))) refuse("measure", labels[space(labels)][1], fields, "Name the measure without white space.")
  text <- text_measure(labels)
  if (any(text)) {
    refuse("measure", labels[text][1], "trec_eval's {.val runid} and {.val relstring} lines hold text, so its values would not read back",
           "Name the custom measure otherwise.")
  }
  invisible()
}

format_trec_eval <- function(x, per_topic = TRUE) {
  nms <- names(unclass(x))
  canon <- attr(x, "canonical") %||% nms
  labels <- vapply(seq_along(nms), function(k) {
    p <- tryCatch(parse_measure(canon[k]), irtopics_error_measure = function(e) NULL)
    if (is.null(p)) return(nms[k])
    te <- trec_eval_name(p)
    if (is.na(te)) canon[k] else te
  }, "")
  summary <- vapply(nms, function(m) score_record(.subset2(x, m))$aggregate, "")
  first <- .subset2(x, 1L)
  topics <- colnames(first)
  ord <- topics[order(as_bytes(topics), method = "radix")]
  check_trec_eval_fields(rownames(first), topics, labels)
  line <- function(label, topic, value, count) {
    # each value formatted once: a count (a summed measure's whole value) in
    # full, anything else with 4 decimals (a custom summed measure's 0.5 was
    # rounded to 0 before, and counts past the integer range written "NA")
    v <- character(length(value))
    count <- count & !is.na(value) & value == round(value)
    v[count] <- sprintf("%.0f", value[count])
    v[!count] <- sprintf("%6.4f", value[!count])
    sprintf("%-22s\t%s\t%s", label, topic, v)
  }
  shown <- which(summary != "gmean" & labels != "num_q")
  # plain matrices, and every run's "all" values at once (a summary is per row)
  mats <- lapply(seq_along(nms), function(k) unclass(.subset2(x, k)))
  alls <- matrix(vapply(seq_along(nms), function(k) aggregate_rows(mats[[k]], summary[k], "trec_eval"),
                        numeric(nrow(first))), nrow = nrow(first))
  out <- vector("list", nrow(first))
  for (s in seq_len(nrow(first))) {
    block <- character()
    if (per_topic && length(shown)) {
      # values[measure, topic] in trec_eval order: topic-major lines
      values <- vapply(shown, function(k) mats[[k]][s, ord], numeric(length(ord)))
      values <- matrix(values, nrow = length(ord))
      keep <- !is.na(t(values))
      block <- line(rep(labels[shown], length(ord))[keep], rep(ord, each = length(shown))[keep],
                    t(values)[keep], rep(summary[shown] == "sum", length(ord))[keep])
    }
    # a system that answered no topic: its sums are 0, its means undefined
    # (no line; it reads back as a row of NA)
    a <- alls[s, ]
    a[is.na(a) & summary == "sum"] <- 0
    def <- !is.na(a)
    out[[s]] <- c(block, sprintf("%-22s\t%s\t%s", "runid", "all", rownames(first)[s]),
                  line(labels[def], "all", a[def], (summary == "sum")[def]))
  }
  unlist(out)
}
