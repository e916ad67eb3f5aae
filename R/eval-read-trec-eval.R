# Reading per-topic score files back into an ir_evaluation ------------------------
#
# The reader of what write_trec_eval() writes and of trec_eval -q output:
# `measure <white space> topic <white space> value` lines, one block per
# run (its per-topic lines, then its `all` lines with the `runid`). A block
# ends where a per-topic line follows an `all` line. Measure names resolve
# through the registry (parse_measure()), so "map", "P_10" and
# "iprec_at_recall_0.10" become AP, P@10 and IPrec@0.1 as in evaluate().
#
# The same reader takes the per-topic files of other evaluators, which name
# the run on every line: `tot` (`run measure topic value`, the TREC RAG,
# RAGTIME, DRAGUN and Auto-Judge leaderboards), ir_measures' order (`run
# topic measure value`) and JSON lines (one flat object per line with the
# run, topic, measure and value). All three become the same table of lines
# (measure, topic, value, x, line, with the run in `run`) and then the same
# evaluation.

#' Read per-topic scores (trec_eval, tot, ir_measures, JSON lines) into an evaluation
#'
#' Reads a file written by [write_trec_eval()], the output of
#' `trec_eval -q` (one run, or several runs' outputs one after the other),
#' or the per-topic score files of other evaluators (see "Formats"),
#' into an `ir_evaluation`, as [evaluate()] returns it: one
#' [ir_scores][as_ir_scores()] matrix per measure, systems (the `runid`
#' lines, or the run column) in rows, topics in columns, measures under
#' their canonical names (`map` is `AP`, `P_10` is `P@10`, `ndcg_cut_10` is
#' `nDCG@10`; names the registry does not know, such as a custom measure's
#' or a RAG evaluator's `nugget_score`, are kept as they are).
#'
#' The values are those printed: 4 decimals (counts as whole numbers), so a
#' round trip `read_trec_eval(write_trec_eval(res, f))` gives `res` with its
#' values rounded to the printed digits. A topic without a line for a
#' system is `NA` for it (trec_eval's default, [evaluate()]'s
#' `missing = "drop"`).
#'
#' What the file does not hold per topic is rebuilt: `gm_map` and
#' `gm_bpref` (trec_eval prints only their `all` line) get the per-topic
#' values of `map` and `bpref`, which are what they summarise (without those
#' measures in the file they are left out, with a warning), and `num_q` is 1
#' for every topic a system answered. `relstring` (not a number) and the
#' `all` lines (summaries of the per-topic values, which
#' [mean_scores()] recomputes) are not kept, in every format. trec_eval 10's
#' own `rbp` and `rbp_resid` values read uninitialised memory; they are read
#' as printed, under the names irtopics gives them (`RBP(p=0.9)`).
#'
#' @section Formats:
#' * `"trec_eval"`: `measure topic value`, white-space separated, as
#'   `trec_eval -q` and [write_trec_eval()] write it; runs are named by their
#'   `runid` lines.
#' * `"tot"`: `run measure topic value`, white-space separated: the
#'   per-topic leaderboards of TREC's 2024-2025 RAG, RAGTIME and DRAGUN
#'   tracks and of the Auto-Judge track (its tools call the order `tot`).
#' * `"ir_measures"`: `run topic measure value`, white-space separated (the
#'   order the Auto-Judge tools call `ir_measures`), or ir_measures' own
#'   `-q` output, `topic measure value` (one run, named `run1`).
#' * `"jsonl"`: JSON lines, one flat object per line with the run (key
#'   `run_id` or `run`; without it on every line, as ir_measures' `--output
#'   jsonl` writes, one run named `run1`), the topic (`topic_id`, `topic`,
#'   `query_id` or `qid`; a string or a number), the measure (`measure` or
#'   `metric`) and the value (a number, or `null` for NaN); other keys are
#'   ignored. The reader is irtopics' own (no JSON package needed) and
#'   strict: a line that is not one such object (nested values, a missing
#'   key, a value that is not a number, two objects on a line) is an error.
#' * `"auto"` (default): JSON lines when the first line starts with `{`;
#'   with three fields `"trec_eval"`, unless `all` is in the first column
#'   only or measure names in the second column only (ir_measures' `-q`
#'   output); with four fields, `"tot"`
#'   or `"ir_measures"` by the column that holds the summary topic `all`, or
#'   else the one whose every value is a measure name the registry knows. A
#'   four-field file where neither decides is an error asking for
#'   `format`.
#'
#' In the four-field formats a first line naming the columns (such as
#' `run_id topic_id measure value`) is skipped. Every bad line is a classed
#' error (`irtopics_error_parse`) naming the file and the line; the run,
#' topic and measure are never guessed from a malformed line.
#'
#' The evaluation's settings are not in the file: `depth`, `missing` and
#' `judged_only` are recorded as the caller gives them (shown by `print()`
#' and kept as attributes, as [evaluate()] keeps them).
#'
#' @param file A file path (plain or gzip).
#' @param depth The evaluation depth the file was computed with (`NA`: not
#'   known).
#' @param missing `"drop"` or `"zero"`: how the file treated topics a run
#'   did not answer (trec_eval `-c` is `"zero"`).
#' @param judged_only Whether the file was computed on judged documents
#'   only (trec_eval `-J`).
#' @param format The file's layout: `"auto"` (default), `"trec_eval"`,
#'   `"tot"`, `"ir_measures"` or `"jsonl"` (see "Formats").
#' @return An `ir_evaluation` (see [ir_evaluation]).
#' @seealso [write_trec_eval()], [evaluate()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("map", "P_10", "num_rel_ret", "gm_map"))
#' f <- tempfile()
#' write_trec_eval(res, f)
#' back <- read_trec_eval(f, depth = 1000)
#' back
#' all.equal(back$AP, res$AP, tolerance = 5e-5)
#'
#' # The same scores in the `tot` layout of TREC's RAG leaderboards
#' # (`run measure topic value`)
#' d <- as.data.frame(res)
#' tot <- tempfile()
#' writeLines(paste(d$system, d$measure, d$topic, d$value), tot)
#' read_trec_eval(tot, format = "tot")
#' @export
read_trec_eval <- function(file, depth = NA, missing = c("drop", "zero"), judged_only = FALSE,
                           format = c("auto", "trec_eval", "tot", "ir_measures", "jsonl")) {
  check_file(file, arg = "file")
  missing <- match_choice(missing)
  format <- match_choice(format)
  check_flag(judged_only, "judged_only")
  # as evaluate() records it: 0 for no cut (Inf), NA when not known
  depth <- if (length(depth) == 1L && is.na(depth) && !is.character(depth)) NA_real_ else {
    check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  }
  if (is.infinite(depth)) depth <- 0
  text <- score_file_text(file)
  if (format == "auto") format <- detect_score_format(text, file)
  lines <- if (format == "trec_eval") trec_eval_lines(text, file) else run_score_lines(text, file, format)
  if (format == "trec_eval") {
    blocks <- split(seq_len(nrow(lines)), lines$block)
    systems <- character(length(blocks))
    for (b in seq_along(blocks)) {
      d <- lines[blocks[[b]], , drop = FALSE]
      runid <- d[d$measure == "runid", , drop = FALSE]  # at most one (a second starts a block)
      systems[b] <- if (nrow(runid)) runid$value else paste0("run", b)
    }
  } else {
    systems <- unique(lines$run)
    blocks <- split(seq_len(nrow(lines)), factor(lines$run, levels = systems))
  }
  measures <- character()
  entries <- vector("list", length(blocks))
  for (b in seq_along(blocks)) {
    d <- lines[blocks[[b]], , drop = FALSE]
    d <- d[!text_measure(d$measure), , drop = FALSE]
    measures <- union(measures, c(d$measure[d$topic == "all"], d$measure))
    entries[[b]] <- d[d$topic != "all", , drop = FALSE]
  }
  if (!any(vapply(entries, nrow, 1L) > 0L)) {
    stop_irtopics(c("Can't read {.file {file}}: it holds no per-topic lines.",
                    i = "An evaluation holds per-topic scores: write it with trec_eval {.code -q} (or {.code write_trec_eval(per_topic = TRUE)})."),
                  kind = "data", file = file)
  }
  systems <- if (format == "trec_eval") unique_system_names(systems) else systems
  topics <- order_topics(unique(unlist(lapply(entries, `[[`, "topic"))))
  build_trec_eval_evaluation(entries, systems, topics, measures, file,
                             settings = list(missing = missing, depth = depth, judged_only = judged_only))
}

# The file's lines (gzip or plain), byte order mark dropped; a classed file
# error when it cannot be read or holds nothing but white space.
score_file_text <- function(file, call = rlang::caller_env()) {
  con <- gzfile(file, "rb")
  text <- tryCatch(readLines(con, warn = FALSE),
                   error = function(e) stop_irtopics(c("Can't read {.file {file}}.", x = conditionMessage(e)),
                                                     kind = "file", file = file, call = call),
                   finally = close(con))
  text <- strip_bom(text)
  if (!any(grepl("[^[:space:]]", text, perl = TRUE))) {
    stop_irtopics("Can't read {.file {file}}: it holds no trec_eval lines (nor other score lines).", kind = "file",
                  file = file, call = call)
  }
  text
}

# The white-space separated fields of the non-blank lines, with their line
# numbers: list(fields = list of character vectors, line = integer).
split_score_lines <- function(text) {
  keep <- which(grepl("[^[:space:]]", text, perl = TRUE))
  # trailing white space makes no field; leading white space is removed first
  trimmed <- sub("^[[:space:]]+", "", text[keep], perl = TRUE)
  list(fields = strsplit(trimmed, "[[:space:]]+", perl = TRUE), line = keep)
}

# The format of a score file, from its lines (read_trec_eval(format = "auto")).
detect_score_format <- function(text, file, call = rlang::caller_env()) {
  s <- split_score_lines(text)
  first <- s$fields[[1]]
  if (startsWith(first[1], "{")) return("jsonl")
  n <- lengths(s$fields)
  if (n[1] == 3L) {
    # trec_eval (measure topic value) unless the file is clearly ir_measures'
    # own -q output (topic measure value): `all` in the first column only,
    # or measure names in the second column only
    rows <- s$fields[n == 3L]
    first <- vapply(rows, `[`, "", 1L)
    second <- vapply(rows, `[`, "", 2L)
    all1 <- any(first == "all")
    all2 <- any(second == "all")
    if (all1 && !all2) return("ir_measures")
    if (!all1 && !all2 && all_measure_names(second) && !all_measure_names(first)) return("ir_measures")
    return("trec_eval")
  }
  if (n[1] != 4L) {
    trec_eval_line_error(file, s$line[1], "a score line holds 3 fields (trec_eval: measure topic value) or 4 (tot: run measure topic value; ir_measures: run topic measure value), not {n[1]}",
                         call = call)
  }
  rows <- s$fields[n == 4L]
  if (is_score_header(rows[[1]])) rows <- rows[-1]
  second <- vapply(rows, `[`, "", 2L)
  third <- vapply(rows, `[`, "", 3L)
  all2 <- any(second == "all")
  all3 <- any(third == "all")
  if (all2 != all3) return(if (all3) "tot" else "ir_measures")
  k2 <- all_measure_names(second)
  k3 <- all_measure_names(third)
  if (k2 != k3) return(if (k2) "tot" else "ir_measures")
  stop_irtopics(c("Can't tell the layout of {.file {file}}: its lines have 4 fields, but neither the 2nd nor the 3rd column is recognisably the topic.",
                  i = "Say which with {.code format = \"tot\"} (run measure topic value) or {.code format = \"ir_measures\"} (run topic measure value)."),
                kind = "parse", file = file, line = s$line[1], call = call)
}

# Whether every one of `x` is a measure name the registry parses.
all_measure_names <- function(x) {
  u <- unique(x)
  all(vapply(u, function(m) !is.null(tryCatch(parse_measure(m), irtopics_error = function(e) NULL)), TRUE))
}

# Whether the fields of a four-field line name the columns (a header line).
is_score_header <- function(f) {
  names <- c("run", "run_id", "runid", "runtag", "system", "topic", "topic_id", "query_id", "qid",
             "request_id", "narrative_id", "measure", "metric", "value", "score")
  is.na(parse_trec_eval_values(f[4])) && all(tolower(f) %in% names)
}

# The file's lines as a data frame (measure, topic, value, numeric `x`,
# line number, block), with classed errors naming file and line.
trec_eval_lines <- function(text, file, call = rlang::caller_env()) {
  s <- split_score_lines(text)
  parts <- s$fields
  keep <- s$line
  n_fields <- lengths(parts)
  bad <- which(n_fields != 3L)
  if (length(bad)) {
    trec_eval_line_error(file, keep[bad[1]], "a line must hold a measure, a topic and a value, not {n_fields[bad[1]]} field{?s}",
                         call = call)
  }
  fields <- matrix(unlist(parts, use.names = FALSE), nrow = 3L)
  d <- data.frame(measure = fields[1, ], topic = fields[2, ], value = fields[3, ], line = keep,
                  stringsAsFactors = FALSE)
  d <- score_line_values(d, file, call = call)
  bad <- which(text_measure(d$measure) & d$topic != "all" & d$measure == "runid")
  if (length(bad)) trec_eval_line_error(file, d$line[bad[1]], "a {.val runid} line must be for topic {.val all}", call = call)
  # A run's block: its per-topic lines, then its `all` lines; a per-topic
  # line after an `all` line starts the next run, and so does a second
  # `runid` line among one block's `all` lines (a run that answered no
  # topic, as write_trec_eval() writes it: no per-topic line at all).
  all <- d$topic == "all"
  start <- c(TRUE, !all[-1] & all[-nrow(d)])
  runid <- d$measure == "runid"
  key <- ifelse(runid, cumsum(start), -seq_len(nrow(d)))
  d$block <- cumsum(start | duplicated(key))
  d
}

# The numeric values `x` of lines (measure, topic, value, line): trec_eval's
# numbers, nan as NaN; text measures (runid, relstring) keep NA.
score_line_values <- function(d, file, call = rlang::caller_env()) {
  numeric_line <- !text_measure(d$measure)
  d$x <- NA_real_
  d$x[numeric_line] <- parse_trec_eval_values(d$value[numeric_line])
  nan <- grepl("^[-+]?nan$", d$value, ignore.case = TRUE)
  bad <- which(numeric_line & is.na(d$x) & !nan)
  if (length(bad)) {
    trec_eval_line_error(file, d$line[bad[1]], "the value {.val {d$value[bad[1]]}} of {.val {d$measure[bad[1]]}} is not a number",
                         call = call)
  }
  d$x[numeric_line & nan] <- NaN
  d
}

# The lines of a file that names the run on every line (tot, ir_measures,
# JSON lines) as a data frame (run, measure, topic, value, x, line).
run_score_lines <- function(text, file, format, call = rlang::caller_env()) {
  if (format == "jsonl") {
    d <- jsonl_score_lines(text, file, call = call)
  } else {
    s <- split_score_lines(text)
    parts <- s$fields
    keep <- s$line
    if (length(parts) && is_score_header(parts[[1]])) {
      parts <- parts[-1]
      keep <- keep[-1]
    }
    if (!length(parts)) {
      stop_irtopics("Can't read {.file {file}}: it holds no score lines.", kind = "file", file = file, call = call)
    }
    n_fields <- lengths(parts)
    # ir_measures' own -q output has no run column (topic measure value):
    # one run, named as trec_eval's output without a runid line is
    three <- format == "ir_measures" && n_fields[1] == 3L
    if (three) {
      parts <- lapply(parts, function(p) c("run1", p))
      n_fields <- n_fields + 1L
    }
    bad <- which(n_fields != 4L)
    order <- if (format == "tot") "run measure topic value" else if (three) "topic measure value" else "run topic measure value"
    if (length(bad)) {
      trec_eval_line_error(file, keep[bad[1]], "a {format} line holds {4 - three} fields ({order}), not {n_fields[bad[1]] - three}",
                           call = call)
    }
    f <- matrix(unlist(parts, use.names = FALSE), nrow = 4L)
    m_row <- if (format == "tot") 2L else 3L
    d <- data.frame(run = f[1, ], measure = f[m_row, ], topic = f[5L - m_row, ], value = f[4, ], line = keep,
                    stringsAsFactors = FALSE)
  }
  check_utf8_ids(d$run, file, d$line, "a run name", call = call)
  check_utf8_ids(d$topic, file, d$line, "a topic id", call = call)
  # trec_eval's text lines have no place here: a `runid` is the run column
  bad <- which(d$measure == "runid")
  if (length(bad)) {
    trec_eval_line_error(file, d$line[bad[1]], "{.val runid} is not a measure in a {format} file (the run is its first column)",
                         call = call)
  }
  score_line_values(d, file, call = call)
}

# JSON lines: one flat object per line; the run, topic, measure and value
# from the keys each may have. A small strict reader (the package does not
# depend on a JSON library): strings with JSON's escapes, numbers, null,
# true and false; nested objects and arrays are errors.
jsonl_score_lines <- function(text, file, call = rlang::caller_env()) {
  keep <- which(grepl("[^[:space:]]", text, perl = TRUE))
  src <- text[keep]
  str <- '"(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*"'
  num <- "-?(?:0|[1-9][0-9]*)(?:[.][0-9]+)?(?:[eE][-+]?[0-9]+)?"
  scalar <- paste0("(?:", str, "|", num, "|null|true|false)")
  pair <- paste0("[[:space:]]*", str, "[[:space:]]*:[[:space:]]*", scalar, "[[:space:]]*")
  object <- paste0("^[[:space:]]*\\{(?:", pair, "(?:,", pair, ")*|[[:space:]]*)\\}[[:space:]]*$")
  bad <- which(!grepl(object, src, perl = TRUE))
  if (length(bad)) {
    trec_eval_line_error(file, keep[bad[1]], "a JSON line must be one flat object of keys and strings or numbers (run, topic, measure, value)",
                         call = call)
  }
  pair_re <- paste0("(", str, ")[[:space:]]*:[[:space:]]*(", scalar, ")")
  hits <- regmatches(src, gregexpr(pair_re, src, perl = TRUE))
  keys <- lapply(hits, function(h) json_string(sub(paste0("^(", str, ").*$"), "\\1", h, perl = TRUE)))
  vals <- lapply(hits, function(h) sub(paste0("^", str, "[[:space:]]*:[[:space:]]*"), "", h, perl = TRUE))
  pick <- function(names, what, allow_number = FALSE, optional = FALSE) {
    vapply(seq_along(src), function(i) {
      k <- match(names, keys[[i]])
      k <- k[!is.na(k)]
      if (!length(k) && optional) return(NA_character_)
      if (!length(k)) {
        trec_eval_line_error(file, keep[i], "the JSON object has no {what} (key {.val {names}})", call = call)
      }
      v <- vals[[i]][k[1]]
      if (startsWith(v, "\"")) return(json_string(v))
      if (allow_number && grepl(paste0("^", num, "$"), v, perl = TRUE)) return(v)
      trec_eval_line_error(file, keep[i], "the {what} (key {.val {keys[[i]][k[1]]}}) must be a string, not {.val {v}}",
                           call = call)
    }, "")
  }
  # ir_measures' own JSON lines have no run: one run, "run1" (as trec_eval's
  # output without a runid line); a file naming the run on some lines only
  # is an error at the first line without it
  run <- pick(c("run_id", "run", "runid"), "run", optional = TRUE)
  if (all(is.na(run))) run[] <- "run1"
  if (anyNA(run)) {
    i <- which(is.na(run))[1]
    trec_eval_line_error(file, keep[i], "the JSON object has no run (key {.val run_id}), which line {keep[which(!is.na(run))[1]]} has",
                         call = call)
  }
  topic <- pick(c("topic_id", "topic", "query_id", "qid"), "topic", allow_number = TRUE)
  measure <- pick(c("measure", "metric"), "measure")
  value <- vapply(seq_along(src), function(i) {
    k <- match("value", keys[[i]])
    if (is.na(k)) trec_eval_line_error(file, keep[i], "the JSON object has no {.val value}", call = call)
    v <- vals[[i]][k]
    if (v == "null") return("nan")
    if (!grepl(paste0("^", num, "$"), v, perl = TRUE)) {
      trec_eval_line_error(file, keep[i], "the value must be a number (or null), not {.val {v}}", call = call)
    }
    v
  }, "")
  data.frame(run = run, measure = measure, topic = topic, value = value, line = keep, stringsAsFactors = FALSE)
}

# The text of JSON string literals (with their quotes), escapes decoded.
json_string <- function(x) {
  x <- substr(x, 2L, nchar(x) - 1L)
  vapply(x, function(s) {
    if (!grepl("\\", s, fixed = TRUE)) return(s)
    out <- character()
    i <- 1L
    n <- nchar(s)
    while (i <= n) {
      ch <- substr(s, i, i)
      if (ch != "\\") {
        out <- c(out, ch)
        i <- i + 1L
        next
      }
      e <- substr(s, i + 1L, i + 1L)
      if (e == "u") {
        out <- c(out, intToUtf8(strtoi(substr(s, i + 2L, i + 5L), 16L)))
        i <- i + 6L
      } else {
        out <- c(out, switch(e, b = "\b", f = "\f", n = "\n", r = "\r", t = "\t", e))
        i <- i + 2L
      }
    }
    paste(out, collapse = "")
  }, "", USE.NAMES = FALSE)
}

# trec_eval's lines whose value is text: the run id, and the relevance
# string of the top documents (relstring, relstring_20).
text_measure <- function(measure) measure == "runid" | grepl("^relstring(_.*)?$", measure)

# Numbers as trec_eval prints them (%6.4f, %ld; inf and nan as printf
# writes them); NA for anything else.
parse_trec_eval_values <- function(v) {
  ok <- grepl("^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$", v) |
    grepl("^[-+]?inf(inity)?$", v, ignore.case = TRUE)
  out <- rep(NA_real_, length(v))
  out[ok] <- suppressWarnings(as.numeric(v[ok]))
  out
}

trec_eval_line_error <- function(file, line, msg, call = rlang::caller_env(), .envir = parent.frame()) {
  stop_irtopics(c("Can't read {.file {file}}.", x = paste0("Line ", line, ": ", msg, ".")),
                kind = "parse", file = file, line = line, call = call, .envir = .envir)
}

# One ir_scores per measure from the blocks' per-topic entries.
build_trec_eval_evaluation <- function(entries, systems, topics, measures, file, settings,
                                       call = rlang::caller_env()) {
  parsed <- lapply(measures, function(m) tryCatch(parse_measure(m), irtopics_error_measure = function(e) NULL))
  canonical <- vapply(seq_along(measures), function(k) parsed[[k]]$name %||% measures[k], "")
  dup <- canonical[duplicated(canonical)]
  if (length(dup)) {
    stop_irtopics("Can't read {.file {file}}: measure {.val {dup[1]}} appears under two names ({.val {measures[canonical == dup[1]]}}).",
                  kind = "data", file = file, call = call)
  }
  n_s <- length(systems)
  n_t <- length(topics)
  values <- lapply(measures, function(m) matrix(NA_real_, n_s, n_t, dimnames = list(systems, topics)))
  names(values) <- measures
  answered <- matrix(FALSE, n_s, n_t)
  has_lines <- stats::setNames(logical(length(measures)), measures)
  for (s in seq_len(n_s)) {
    d <- entries[[s]]
    if (!nrow(d)) next
    twice <- duplicated(d[c("measure", "topic")])
    if (any(twice)) {
      k <- which(twice)[1]
      trec_eval_line_error(file, d$line[k], "{.val {d$measure[k]}} is given twice for topic {.val {d$topic[k]}} of run {.val {systems[s]}}",
                           call = call)
    }
    col <- match(d$topic, topics)
    answered[s, col] <- TRUE
    for (m in unique(d$measure)) {
      i <- d$measure == m
      values[[m]][s, col[i]] <- d$x[i]
      has_lines[[m]] <- TRUE
    }
  }
  # What trec_eval prints only on its `all` line, rebuilt per topic.
  from <- c(gm_map = "AP", gm_bpref = "Bpref")
  keep <- rep(TRUE, length(measures))
  for (k in which(!has_lines)) {
    if (identical(canonical[k], "NumQ")) {
      values[[k]][answered] <- 1
    } else if (canonical[k] %in% names(from) && from[[canonical[k]]] %in% canonical) {
      values[[k]] <- values[[match(from[[canonical[k]]], canonical)]]
    } else {
      keep[k] <- FALSE
    }
  }
  if (any(!keep)) {
    left <- measures[!keep]
    warn_irtopics(c("{length(left)} measure{?s} of {.file {file}} {?has/have} no per-topic values and {?was/were} left out: {.val {left}}.",
                    i = "gm_map and gm_bpref are rebuilt from map and bpref when the file has those."),
                  kind = "data")
  }
  out <- list()
  for (k in which(keep)) {
    # as evaluate() marks them: built-in measures carry their record's
    # aggregate and direction (new_ir_scores() of a canonical name)
    out[[canonical[k]]] <- new_ir_scores(values[[k]], canonical[k])
  }
  attr(out, "missing") <- settings$missing
  attr(out, "depth") <- settings$depth
  attr(out, "unknown_topics") <- character()
  attr(out, "canonical") <- unname(canonical[keep])
  attr(out, "judged_only") <- settings$judged_only
  new_ir_evaluation(out)
}
