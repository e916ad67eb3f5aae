# Reading trec_eval's output back into an ir_evaluation --------------------------
#
# The reader of what write_trec_eval() writes and of trec_eval -q output:
# `measure <white space> topic <white space> value` lines, one block per
# run (its per-topic lines, then its `all` lines with the `runid`). A block
# ends where a per-topic line follows an `all` line. Measure names resolve
# through the registry (parse_measure()), so "map", "P_10" and
# "iprec_at_recall_0.10" become AP, P@10 and IPrec@0.1 as in evaluate().

#' Read trec_eval's per-topic output into an evaluation
#'
#' Reads a file written by [write_trec_eval()], or the output of
#' `trec_eval -q` (one run, or several runs' outputs one after the other),
#' into an `ir_evaluation`, as [evaluate()] returns it: one
#' [ir_scores][as_ir_scores()] matrix per measure, systems (the `runid`
#' lines) in rows, topics in columns, measures under their canonical names
#' (`map` is `AP`, `P_10` is `P@10`, `ndcg_cut_10` is `nDCG@10`; names the
#' registry does not know, such as a custom measure's, are kept as they
#' are).
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
#' [mean_scores()] recomputes) are not kept. trec_eval 10's own `rbp` and
#' `rbp_resid` values read uninitialised memory; they are read as printed,
#' under the names irtopics gives them (`RBP(p=0.9)`).
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
#' @export
read_trec_eval <- function(file, depth = NA, missing = c("drop", "zero"), judged_only = FALSE) {
  check_file(file, arg = "file")
  missing <- match_choice(missing)
  check_flag(judged_only, "judged_only")
  # as evaluate() records it: 0 for no cut (Inf), NA when not known
  depth <- if (length(depth) == 1L && is.na(depth) && !is.character(depth)) NA_real_ else {
    check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  }
  if (is.infinite(depth)) depth <- 0
  lines <- trec_eval_lines(file)
  blocks <- split(seq_len(nrow(lines)), lines$block)
  systems <- character(length(blocks))
  measures <- character()
  entries <- vector("list", length(blocks))
  for (b in seq_along(blocks)) {
    d <- lines[blocks[[b]], , drop = FALSE]
    runid <- d[d$measure == "runid", , drop = FALSE]  # at most one (a second starts a block)
    systems[b] <- if (nrow(runid)) runid$value else paste0("run", b)
    d <- d[!text_measure(d$measure), , drop = FALSE]
    measures <- union(measures, c(d$measure[d$topic == "all"], d$measure))
    entries[[b]] <- d[d$topic != "all", , drop = FALSE]
  }
  if (!any(vapply(entries, nrow, 1L) > 0L)) {
    stop_irtopics(c("Can't read {.file {file}}: it holds no per-topic lines.",
                    i = "An evaluation holds per-topic scores: write it with trec_eval {.code -q} (or {.code write_trec_eval(per_topic = TRUE)})."),
                  kind = "data", file = file)
  }
  systems <- unique_system_names(systems)
  topics <- order_topics(unique(unlist(lapply(entries, `[[`, "topic"))))
  build_trec_eval_evaluation(entries, systems, topics, measures, file,
                             settings = list(missing = missing, depth = depth, judged_only = judged_only))
}

# The file's lines as a data frame (measure, topic, value, numeric `x`,
# line number, block), with classed errors naming file and line.
trec_eval_lines <- function(file, call = rlang::caller_env()) {
  con <- gzfile(file, "rb")
  text <- tryCatch(readLines(con, warn = FALSE),
                   error = function(e) stop_irtopics(c("Can't read {.file {file}}.", x = conditionMessage(e)),
                                                     kind = "file", file = file, call = call),
                   finally = close(con))
  text <- strip_bom(text)
  keep <- which(grepl("[^[:space:]]", text, perl = TRUE))
  if (!length(keep)) {
    stop_irtopics("Can't read {.file {file}}: it holds no trec_eval lines.", kind = "file", file = file, call = call)
  }
  # split on white space (trailing white space makes no field; leading
  # white space is removed first)
  text <- sub("^[[:space:]]+", "", text[keep], perl = TRUE)
  parts <- strsplit(text, "[[:space:]]+", perl = TRUE)
  n_fields <- lengths(parts)
  bad <- which(n_fields != 3L)
  if (length(bad)) {
    trec_eval_line_error(file, keep[bad[1]], "a line must hold a measure, a topic and a value, not {n_fields[bad[1]]} field{?s}",
                         call = call)
  }
  fields <- matrix(unlist(parts, use.names = FALSE), nrow = 3L)
  d <- data.frame(measure = fields[1, ], topic = fields[2, ], value = fields[3, ], line = keep,
                  stringsAsFactors = FALSE)
  numeric_line <- !text_measure(d$measure)
  d$x <- NA_real_
  d$x[numeric_line] <- parse_trec_eval_values(d$value[numeric_line])
  bad <- which(numeric_line & is.na(d$x) & !grepl("^[-+]?nan$", d$value, ignore.case = TRUE))
  if (length(bad)) {
    trec_eval_line_error(file, d$line[bad[1]], "the value {.val {d$value[bad[1]]}} of {.val {d$measure[bad[1]]}} is not a number",
                         call = call)
  }
  bad <- which(!numeric_line & d$topic != "all" & d$measure == "runid")
  if (length(bad)) trec_eval_line_error(file, d$line[bad[1]], "a {.val runid} line must be for topic {.val all}", call = call)
  nan <- numeric_line & grepl("^[-+]?nan$", d$value, ignore.case = TRUE)
  d$x[nan] <- NaN
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
