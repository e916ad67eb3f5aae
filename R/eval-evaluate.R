# Evaluation: runs + qrels -> one ir_scores per measure ---------------------------------

#' Evaluate runs against qrels: systems x topics score matrices
#'
#' Computes per-topic effectiveness scores of every run with the conventions
#' of trec_eval 10.0, in C++, one run at a time (threaded over runs), and
#' returns one [ir_scores][as_ir_scores()] matrix per measure. Passing file paths (or a
#' directory) streams the files: only `n_threads` runs are in memory at once
#' (each as its text plus the lines of the topic being scored) and no R string
#' is made per line. A run of 10 million lines takes about 1.3 s and its
#' file's size in memory (`bench/README.md`). An interrupt (Ctrl-C, Esc in
#' RStudio) stops the evaluation within about a tenth of a second, between
#' topics, and returns nothing.
#'
#' @section Ordering and cut-off:
#' As in trec_eval, the rank column of a run is ignored: each topic's
#' documents are ordered by score, highest first, and ties are broken by
#' docno in *descending* byte order (`strcmp`); the list is then cut at
#' `depth` (trec_eval's `-M`). A document retrieved twice for a topic is an
#' error (trec_eval checks only within the cut; irtopics checks the whole
#' list).
#'
#' @inheritSection read_run Input format
#'
#' @section Measures:
#' Every per-topic measure of trec_eval 10's `-m all_trec`, with its
#' parameters and trec_eval's exact semantics, plus `Judged@k`, `ERR@k`,
#' `RBP(p=)` and its residual, `RR@k`, `Hits@k` and the exclusion measure; the full
#' list with every accepted spelling is in [measures]. Names follow
#' ir_measures (`AP`, `P@10`, `nDCG@10`, `R-Prec`, `RR`, `Bpref`, `IPrec@0.1`,
#' `Judged@10`), and the trec_eval spellings with `_` or `.` before the
#' parameter (`map`, `P_10`, `P.10`, `ndcg_cut.10`, `iprec_at_recall_0.10`,
#' `Rprec_mult_0.20`, `relative_P_5`, `unj_10`, `set_F`, `infAP`) and the
#' ranx spellings (`map@100`, `mrr@10`, `precision@10`, `r-precision`,
#' `hit_rate@10` for success, `hits@10` for the count of relevant documents
#' in the top 10) are accepted; the result is named by the canonical name,
#' and `res[["map"]]` or `res$P_10` finds a measure by any spelling.
#' A relevance threshold per measure, `P(rel=2)@10` or `AP(rel=2)`,
#' overrides `relevance_level` for that measure.
#' * Sets and families, as trec_eval's `-m` takes them: `"all_trec"` (every
#'   measure of `-m all_trec` but `runid`, `relstring` and trec_eval 10's
#'   `rbp`/`rbp_resid`, whose values read uninitialised memory: 96 measures),
#'   `"official"` (trec_eval's default output) and `"set"`, and a family's
#'   trec_eval name for its default parameters: `"P"` and `"recall"`
#'   (cut-offs 5, 10, 15, 20, 30, 100, 200, 500, 1000, also for `"map_cut"`,
#'   `"ndcg_cut"` and `"relative_P"`), `"success"` (1, 5, 10), `"unj"`
#'   (5, 10, 20), `"iprec_at_recall"` (recall 0, 0.1, ..., 1),
#'   `"Rprec_mult"` (0.2, 0.4, ..., 2). They mix with single names
#'   (`c("official", "nDCG@10")`); a measure that a set brings and the list
#'   names too is computed once. [measure_set()] shows what a set stands
#'   for. trec_eval's preference sets (`"prefs"`, `"all_prefs"`,
#'   `"qrels_jg"`) need qrels formats irtopics does not read and are refused.
#' * Gains: nDCG, G, Rndcg and ndcg_rel use the grades as gains (trec_eval's
#'   default) or the `gains` map; the ideal ranking sorts every judged
#'   document of the topic by gain. Which measures read grades as gains and
#'   which as relevant or not is the `relevance` field of their record
#'   ([measure_info()]: `"graded"` or `"binary"`).
#' * Fractional grades (autoqrels' floats, a judge's probability of
#'   relevance; see [read_qrels()]): the graded measures take each grade as
#'   its gain (ERR as its grade), the binary ones count a document as
#'   relevant when its grade is >= `relevance_level` (default 1: give
#'   `relevance_level = 0.5` for probabilities). Integer qrels are evaluated
#'   exactly as before (trec_eval's results).
#' * `infAP` reads a negative qrels grade (trec_eval writes -1) as "in the
#'   pool but not judged"; judged and not in the pool are told apart as in
#'   trec_eval.
#' * `gm_map` and `gm_bpref` hold the per-topic AP and bpref; their
#'   `mean_scores(accumulate = "trec_eval")` is trec_eval's geometric mean.
#' * `"Exclusion"`: the Liggett & Buckley (2005) exclusion measure
#'   \eqn{-\log_{10}(N_{25} + 1)}, where \eqn{N_{25}} is the number of
#'   irrelevant documents returned before a quarter of the relevant ones,
#'   with the list length \eqn{L} = `depth`. **Reconstructed**: the paper's
#'   case analysis was lost; irtopics uses \eqn{H = \lceil n_R/4 \rceil},
#'   \eqn{N_{25} = r_{(H)} - H} when at least \eqn{H} relevant documents are
#'   returned, the linear extrapolation \eqn{(L - n)H/n} when \eqn{1 \le n <
#'   H}, and the cap \eqn{LH} when none is returned (`NA` for a topic without
#'   relevant documents). See [exclusion_measure()] to change the fraction.
#' * A custom measure: a named element of a list, a function
#'   `function(grades, n_rel)` of the grades of the retrieved documents in
#'   trec_eval order (after the depth cut; `NA` for unjudged documents) and
#'   the topic's number of relevant documents (grade >= `relevance_level`).
#'   It must return one number. Built-in measures run in C++; custom ones
#'   are called once per system and topic. Its systems are averaged over
#'   topics and higher is better, unless it comes as a record
#'   [custom_measure()] with its function, its `direction` (e.g. `"lower"`
#'   for an error rate) and `aggregate`, which every summary and ranking
#'   then follows.
#'
#' @section Judged documents only:
#' `judged_only = TRUE` is trec_eval's `-J`: a topic's ranking is ordered
#' and cut at `depth` as usual, then every document without a judgement
#' (not in the qrels, or in them with a negative grade) is removed, the
#' others keeping their order, and every measure is computed on that
#' shorter list (`NumRet` counts judged documents only; a topic whose top
#' `depth` holds no judged document is an empty ranking, scored 0, not a
#' missing topic). Custom measures get the grades of that list. For one
#' measure only, use ir_measures' spelling `nDCG(judged_only=True)@10`
#' (also `nDCG(judged_only)@10` and `nDCG@10(judged_only)`), which can sit
#' next to `nDCG@10` in one evaluation. Judged-only values are higher than
#' the usual ones for runs with many unjudged documents and are not
#' comparable with them (Sakai's "condensed lists", SIGIR 2007); say so
#' when reporting them. One deviation from trec_eval 10: on a topic whose
#' judged list is empty it prints `-nan` (a 0/0) for `iprec_at_recall` at
#' low recall and `11pt_avg` (and so for their `all` line); irtopics gives
#' the empty ranking's 0, as without `-J`.
#'
#' @section Scale-out:
#' With a parallel `future` plan set ([future::plan()]: `multisession` on one
#' machine, `cluster` or `future.batchtools` on a cluster), run *files* are
#' split into chunks, one future per chunk: each worker reads the qrels
#' (from the path, or the data frame sent with the future) and streams its
#' files in C++ with one thread. Nothing else changes and the result is
#' identical to the in-process evaluation. The run paths must be readable
#' from the workers (a shared file system on a cluster). Runs already in
#' memory (`ir_run`, data frames) are evaluated in-process with
#' `n_threads`.
#'
#' @section Threads:
#' Small inputs (run files of less than 4 MB in all, or runs in memory of
#' fewer than 100,000 lines) are evaluated on one thread whatever
#' `n_threads` says: waking a second thread can cost more than it saves
#' (tens of milliseconds on a busy machine, against about 10 ms of work).
#' The limit, our choice, is `options(irtopics.eval_thread_bytes = )` in
#' bytes (runs in memory count 40 bytes a line); 0 always uses `n_threads`.
#' It changes the speed only: results do not depend on the thread count.
#'
#' @section Missing topics:
#' Topics of the runs that are not in the qrels are ignored (with a warning
#' giving their number); runs with no topic in common with the qrels are an
#' error that shows a few ids of each side.
#' With `missing = "drop"` (trec_eval's default) a qrels topic that a run did
#' not answer is `NA` for that run and left out of its mean; columns that no
#' run answered are dropped. With `missing = "zero"` (trec_eval `-c`) every
#' qrels topic is a column and an unanswered topic gets the value of an empty
#' ranking (0 for AP, P@k, ...; `NumRel` still counts the relevant documents).
#'
#' @param runs Run file paths, a directory of run files, an `ir_run` or
#'   `ir_runs` object from [read_run()], or a data frame with columns
#'   `system`, `topic`, `docno`, `score` (also `run_id`/`tag` for `system`,
#'   `q_id`/`query_id`/`qid` for `topic`, `doc_id`/`docid` for `docno`, as
#'   in ranx, ir_measures and pandas exports; without a system column the
#'   data frame is one system, `"run"`).
#' @param qrels A qrels file path or a data frame from [read_qrels()]
#'   (columns `topic`, `docno`, `rel`; also `q_id`/`query_id`/`qid`,
#'   `doc_id`/`docid`, `relevance`).
#' @param measures A character vector of measure names, or a list mixing
#'   names and named functions (custom measures). Names may be trec_eval's
#'   sets and families (`"all_trec"`, `"official"`, `"P"`, ...): see the
#'   section "Measures".
#' @param depth Evaluation depth (trec_eval `-M`): the number of top-ranked
#'   documents per topic that count, a whole number up to 2147483647; `Inf`
#'   for all.
#' @param relevance_level Smallest grade that counts as relevant (trec_eval
#'   `-l`): a document is relevant when its grade is >= `relevance_level`
#'   (default 1). A number above 0 and at most 2147483647; with integer
#'   grades a threshold with a fraction acts as the next whole number (1.5
#'   as 2), with fractional grades (see [read_qrels()]) it is compared with
#'   the grades as they are.
#' @param missing `"drop"` or `"zero"`; see the section.
#' @inheritParams irtopics_threads
#' @param query_map `NULL`, or a data frame with columns `query` and `topic`
#'   (or a path to a white-space separated file `query topic [text]`): the
#'   runs' topic field holds query ids and the map ties each query to the
#'   qrels topic. Columns are then queries, with `attr(, "topic")` naming
#'   each query's topic.
#' @param gains `NULL` (gain = grade) or a named numeric vector mapping grades
#'   to nDCG gains, such as `c("1" = 3, "2" = 9)` (trec_eval's
#'   `-m ndcg.1=3,2=9`); unlisted grades keep their grade as gain. Gains
#'   must be finite and below about 1e298 in magnitude (larger ones would
#'   overflow the sums of nDCG).
#' @param name How to name systems when reading files: `"tag"` or `"file"`.
#' @inheritParams irtopics_progress
#' @param pattern `NULL` (every file), or a regular expression on file names
#'   (as in [list.files()]) selecting the runs when `runs` is a directory,
#'   e.g. `"^input\\."` for the `input.*` files of a TREC track.
#' @param judged_only Compute every measure on the judged documents only
#'   (trec_eval `-J`); see the section "Judged documents only".
#' @return A named list of [ir_scores][as_ir_scores()] objects (class `ir_evaluation`), one
#'   per measure, systems in rows and topics in columns.
#' @seealso [ir_evaluation] for converting, summarising and plotting the
#'   result; [mean_scores()], [read_run()], [read_qrels()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("AP", "P@10", "nDCG@10", "Bpref"))
#' res
#' res$AP
#' sapply(res, mean_scores)
#'
#' # trec_eval's measure sets and families, and judged documents only (-J)
#' all <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = "all_trec")
#' length(all)
#' evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'          measures = c("nDCG@10", "nDCG(judged_only=True)@10", "success"))
#' evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'          measures = "official", judged_only = TRUE)
#'
#' # A custom measure: precision at the first relevant document's rank
#' first_rel <- function(grades, n_rel) {
#'   hit <- which(!is.na(grades) & grades >= 1)
#'   if (length(hit)) 1 / hit[1] else 0
#' }
#' evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'          measures = list("RR", my_rr = first_rel))
#' # ... with its record: lower is better
#' miss5 <- custom_measure("Miss@5", function(grades, n_rel) {
#'   as.numeric(!any(grades[seq_len(min(5, length(grades)))] >= 1, na.rm = TRUE))
#' }, direction = "lower")
#' mean_scores(evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                      measures = list("AP", miss5)))
#'
#' # Scale-out: chunks of run files go to the workers of a future plan
#' \donttest{
#' if (requireNamespace("future", quietly = TRUE)) {
#'   old <- future::plan(future::multisession, workers = 2)
#'   runs <- c(file.path(dir, "results.test"), file.path(dir, "results.trunc"))
#'   res2 <- evaluate(runs, file.path(dir, "qrels.test"), measures = "AP", name = "file")
#'   future::plan(old)
#'   res2$AP[, 1:5]
#' }
#' }
#'
#' # A directory of runs that also holds other files: select the runs by name
#' evaluate(dir, file.path(dir, "qrels.test"), measures = "AP",
#'          pattern = "^results\\.test$")
#' @export
evaluate <- function(runs, qrels, measures = c("AP", "P@10", "R-Prec", "nDCG"),
                     depth = 1000, relevance_level = 1, missing = c("drop", "zero"),
                     n_threads = irtopics_threads(), query_map = NULL, gains = NULL,
                     name = c("tag", "file"), progress = NULL, pattern = NULL, judged_only = FALSE) {
  missing <- match_choice(missing)
  check_flag(judged_only, "judged_only")
  name <- match_choice(name)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  depth <- check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  depth_c <- if (is.infinite(depth)) 0 else depth
  relevance_level <- check_relevance_level(relevance_level)
  spec <- measure_spec(measures, judged_only)
  gain_vec <- gain_vector(gains)
  qmap <- read_query_map(query_map)
  check_not_swapped(runs, qrels)
  phase_mark("arguments")
  q <- qrels_pointer(qrels, relevance_level)
  qinfo <- cpp_qrels_info(q$ptr, with_relevant = FALSE)
  # the level as the evaluation reads it: integer grades compare with the
  # next whole number
  q$source <- list(qrels = if (is.character(qrels)) normalizePath(qrels) else qrels,
                   level = if (qinfo$fractional) relevance_level else as.integer(ceiling(relevance_level)))
  if (qinfo$fractional && length(gain_vec)) {
    stop_irtopics(c("Can't use {.arg gains} with fractional grades: a gains map is for integer grades, and fractional grades are their own gains.",
                    i = "Drop {.arg gains}, or map the grades to gains in the qrels' {.field rel} column."),
                  kind = "data")
  }
  check_measure_thresholds(spec, qinfo, relevance_level)
  phase_mark("qrels", q$timing)

  source <- run_source(runs, name, pattern)
  phase_mark("paths")
  results <- run_evaluation(source, q, spec, depth_c, gain_vec, qmap, n_threads,
                            want_profiles = length(spec$custom) > 0, want_orders = FALSE,
                            progress = progress)
  phase_mark("runs")
  check_topic_overlap(results, qinfo)
  systems <- unique_system_names(vapply(results, function(r) r$system, ""))
  out <- assemble_scores(results, systems, q, qinfo, spec, depth_c, gain_vec, qmap, missing)
  phase_mark("assemble")
  out
}

# Measures: built-in spec for C++ plus custom R functions, in the user's order.
measure_spec <- function(measures, judged_only = FALSE, call = rlang::caller_env()) {
  if (inherits(measures, "ir_measure_info")) measures <- list(measures)
  measures <- expand_measures(measures, call = call)
  if (is.character(measures)) measures <- as.list(measures)
  if (!is.list(measures) || !length(measures)) {
    stop_irtopics("{.arg measures} must be a character vector or a list of names and functions.", call = call)
  }
  nm <- names(measures) %||% rep("", length(measures))
  builtin <- NULL
  custom <- list()
  records <- list()
  order <- character()
  for (k in seq_along(measures)) {
    m <- measures[[k]]
    if (is.function(m) || inherits(m, "ir_measure_info")) {
      # a custom measure: a function (averaged, higher is better) or its record
      rec <- if (is.function(m)) NULL else m
      if (!is.null(rec) && is.null(rec$fun)) {
        stop_irtopics(c("The measure record {.val {rec$name}} in {.arg measures} has no function to compute it.",
                        i = "Give it one: {.code custom_measure(\"{rec$name}\", fun = function(grades, n_rel) ...)}; name the registry's measures as strings."),
                      kind = "measure", call = call, measure = rec$name)
      }
      name <- if (nzchar(nm[k])) nm[k] else rec$name %||% ""
      if (!nzchar(name)) stop_irtopics("Custom measures must be named, e.g. {.code list(my_measure = fun)}.", call = call)
      custom[[name]] <- rec$fun %||% m
      records[[name]] <- rec
      order <- c(order, name)
    } else if (is.character(m) && length(m) == 1L && !is.na(m)) {
      p <- parse_measure(m, call = call)
      r <- measure_rows()[[p$row]]
      row <- data.frame(measure = p$measure, cutoff = p$cutoff, param = p$param, rel = p$rel,
                        u1 = p$utility[1], u2 = p$utility[2], u3 = p$utility[3], u4 = p$utility[4],
                        judged_only = judged_only || p$judged_only,
                        canonical = p$name, name = if (nzchar(nm[k])) nm[k] else p$name,
                        aggregate = r$aggregate, direction = r$direction, asked = m, stringsAsFactors = FALSE)
      builtin <- rbind(builtin, row)
      order <- c(order, row$name)
    } else {
      stop_irtopics("Each element of {.arg measures} must be a measure name or a function.", call = call)
    }
  }
  if (anyDuplicated(order)) {
    stop_irtopics("Measure {.val {order[duplicated(order)][1]}} is requested twice.", kind = "measure", call = call)
  }
  if (is.null(builtin)) {
    builtin <- data.frame(measure = character(), cutoff = numeric(), param = numeric(), rel = integer(),
                          u1 = numeric(), u2 = numeric(), u3 = numeric(), u4 = numeric(),
                          judged_only = logical(), name = character())
  }
  list(builtin = builtin, custom = custom, records = records, order = order, judged_only = judged_only)
}

# The built-in measures as C++ takes them (measures_from_r() in
# src/glue_measures.cpp): by the name of their record, with their parameters
# as named fields, one element per measure.
measure_fields <- function(b) {
  list(measure = as.character(b$measure), cutoff = as.double(b$cutoff), param = as.double(b$param),
       rel = as.integer(b$rel), u1 = as.double(b$u1), u2 = as.double(b$u2), u3 = as.double(b$u3),
       u4 = as.double(b$u4), judged_only = as.logical(b$judged_only))
}

# evaluate()'s relevance_level: a number in (0, 2147483647] (a threshold on
# grades: whole for trec_eval's -l, fractional for fractional grades).
check_relevance_level <- function(x, call = rlang::caller_env()) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !(x > 0) || x > .Machine$integer.max) {
    stop_irtopics("{.arg relevance_level} must be a number above 0 and at most {(.Machine$integer.max)}, not {show_value(x)}.",
                  call = call)
  }
  as.double(x)
}

# A relevance threshold above every grade of the qrels leaves no relevant
# document in any topic: refused rather than scoring every topic 0.
check_measure_thresholds <- function(spec, qinfo, relevance_level, call = rlang::caller_env()) {
  b <- spec$builtin
  top <- suppressWarnings(max(qinfo$max_grade))
  for (k in seq_len(nrow(b))) {
    if (!is.null(b$rel) && b$rel[k] > 0 && b$rel[k] > top) {
      stop_irtopics(c("Can't use measure {.val {b$asked[k]}}: its relevance threshold {b$rel[k]} is above every grade of the qrels.",
                      i = "The largest grade is {top}."), kind = "measure", call = call, measure = b$asked[k])
    }
  }
  invisible(spec)
}


gain_vector <- function(gains, call = rlang::caller_env()) {
  if (is.null(gains)) return(numeric())
  g <- suppressWarnings(as.integer(names(gains)))
  # Grades above 1e6 are refused by the qrels readers too (kMaxGrade in C++).
  if (!is.numeric(gains) || is.null(names(gains)) || anyNA(g) || any(g < 0) || any(g > 1000000L) ||
      anyNA(gains) || any(as.character(g) != names(gains)) || anyDuplicated(g)) {
    stop_irtopics("{.arg gains} must be a numeric vector named by grades between 0 and 1000000, e.g. {.code c(\"1\" = 3, \"2\" = 9)}.",
                  call = call)
  }
  # nDCG sums gains over up to 2^32 documents: larger gains could overflow to
  # Inf and make the value NaN.
  if (any(!is.finite(gains) | abs(gains) > max_gain)) {
    stop_irtopics("{.arg gains} must be finite numbers of magnitude at most {format(max_gain, digits = 3)}.",
                  call = call)
  }
  out <- as.numeric(seq_len(max(g) + 1L) - 1L)
  out[g + 1L] <- unname(gains)
  out
}

max_gain <- .Machine$double.xmax / 2^34

read_query_map <- function(query_map, call = rlang::caller_env()) {
  if (is.null(query_map)) return(NULL)
  if (is.character(query_map) && length(query_map) == 1L) {
    check_file(query_map, arg = "query_map", call = call)
    lines <- strip_bom(readLines(query_map, warn = FALSE))
    lines <- lines[nzchar(trimws(lines))]
    parts <- strsplit(trimws(lines), "[[:space:]]+")
    short <- which(lengths(parts) < 2L)
    if (length(short)) {
      stop_irtopics("{.file {query_map}}: line {short[1]} must hold a query id and a topic id.",
                    kind = "parse", call = call)
    }
    query_map <- data.frame(
      query = vapply(parts, `[`, "", 1L), topic = vapply(parts, `[`, "", 2L),
      text = vapply(parts, function(p) if (length(p) > 2L) paste(p[-(1:2)], collapse = " ") else NA_character_, ""),
      stringsAsFactors = FALSE)
  }
  if (!is.data.frame(query_map) || !all(c("query", "topic") %in% names(query_map))) {
    stop_irtopics("{.arg query_map} must be a data frame with columns {.field query} and {.field topic}, or a file path.",
                  call = call)
  }
  qm <- data.frame(query = as_id_strings(query_map$query, "query_map", "query", call = call),
                   topic = as_id_strings(query_map$topic, "query_map", "topic", call = call),
                   text = if (is.null(query_map$text)) NA_character_ else as.character(query_map$text),
                   stringsAsFactors = FALSE)
  if (anyDuplicated(qm$query)) {
    stop_irtopics("{.arg query_map} maps query {.val {qm$query[duplicated(qm$query)][1]}} twice.", kind = "data", call = call)
  }
  qm
}

# A list describing where runs come from: files (streamed in C++) or runs in
# memory (converted to C++ chunk by chunk).
# What an input looks like: "qrels" (an ir_qrels, a data frame with a grade
# column and no score, or a file whose first line has qrels' 4 fields), "run"
# (an ir_run(s), a data frame with a score column, or a file whose first line
# has a run's 6 fields), or NA (can't tell: leave it to the readers).
input_shape <- function(x) {
  if (inherits(x, "ir_qrels")) return("qrels")
  if (inherits(x, c("ir_run", "ir_runs"))) return("run")
  if (is.data.frame(x)) {
    nm <- tolower(names(x))
    if ("score" %in% nm && !any(c("rel", "relevance") %in% nm)) return("run")
    if (any(c("rel", "relevance") %in% nm) && !"score" %in% nm) return("qrels")
    return(NA_character_)
  }
  # only a regular file, and only its first 4 KB (inflated): never a FIFO or
  # a device (opening one could block), never a whole huge line
  if (!is.character(x) || length(x) != 1L || is.na(x) || !file.exists(x) ||
      cpp_file_kind(path.expand(x)) != "regular") {
    return(NA_character_)
  }
  head <- tryCatch({
    con <- gzfile(x, "rb")
    on.exit(close(con))
    readBin(con, "raw", 4096L)
  }, error = function(e) raw(), warning = function(w) raw())
  nl <- which(head == as.raw(10L))
  if (!length(nl) || any(head[seq_len(nl[1])] == as.raw(0L))) return(NA_character_)
  first <- rawToChar(head[seq_len(nl[1] - 1L)])
  fields <- length(strsplit(trimws(first), "[[:space:]]+")[[1]])
  if (fields == 4L) "qrels" else if (fields == 6L) "run" else NA_character_
}

# evaluate(qrels, runs) with the arguments swapped: say so instead of
# reporting a parse error on the first line of each file.
check_not_swapped <- function(runs, qrels, call = rlang::caller_env()) {
  r <- input_shape(runs)
  q <- input_shape(qrels)
  if (identical(r, "qrels") || identical(q, "run")) {
    stop_irtopics(c("{.arg runs} and {.arg qrels} look swapped.",
                    x = if (identical(r, "qrels")) "{.arg runs} looks like relevance judgements (topic, iteration, docno, grade).",
                    x = if (identical(q, "run")) "{.arg qrels} looks like a run (topic, Q0, docno, rank, score, tag).",
                    i = "The runs come first: {.code evaluate(runs, qrels)}."),
                  call = call)
  }
  invisible()
}

run_source <- function(runs, name, pattern = NULL, call = rlang::caller_env()) {
  if (is.character(runs)) {
    paths <- expand_run_paths(runs, pattern = pattern, arg = "runs", call = call)
    return(list(type = "files", paths = path.expand(paths), name = name))
  }
  if (!is.null(pattern)) {
    stop_irtopics("{.arg pattern} selects files of a directory; {.arg runs} must then be one directory.",
                  call = call)
  }
  if (inherits(runs, "ir_run")) runs <- new_ir_runs(list(runs))
  if (inherits(runs, "ir_runs")) {
    mem <- lapply(runs, validate_ir_run, call = call)
    return(list(type = "memory", runs = mem))
  }
  if (is.data.frame(runs)) {
    runs <- alias_columns(runs, c("system", "topic", "docno", "score"), "runs")
    if (is.null(runs$system) && all(c("topic", "docno", "score") %in% names(runs))) runs$system <- "run"
    need <- c("system", "topic", "docno", "score")
    miss <- setdiff(need, names(runs))
    if (length(miss)) stop_irtopics("{.arg runs} must have columns {.field {need}}; missing {.field {miss}}.", call = call)
    sys <- as_id_strings(runs$system, "runs", "system", call = call)
    topic <- as_id_strings(runs$topic, "runs", "topic", call = call)
    docno <- as_id_strings(runs$docno, "runs", "docno", call = call)
    check_run_scores(runs$score, "the runs data frame", call = call)
    groups <- split(seq_len(nrow(runs)), factor(sys, levels = unique(sys)))
    mem <- lapply(names(groups), function(s) {
      i <- groups[[s]]
      list(name = s, topic = topic[i], docno = docno[i], score = as.double(runs$score[i]))
    })
    return(list(type = "memory", runs = mem))
  }
  stop_irtopics("{.arg runs} must be run file paths, a directory, an {.cls ir_run}/{.cls ir_runs} object or a data frame, not {.obj_type_friendly {runs}}.",
                call = call)
}

# Scores of a run in memory follow the file rule: numbers, +-Inf allowed
# (they rank first and last), NA and NaN refused (trec_eval's order has no
# place for them, and NaN must never reach the C++ sort).
check_run_scores <- function(score, what, call = rlang::caller_env()) {
  if (!is.numeric(score)) {
    stop_irtopics("{.arg runs}: column {.field score} must be numeric, not {.obj_type_friendly {score}}.",
                  kind = "data", call = call)
  }
  bad <- which(is.na(score))
  if (length(bad)) {
    row <- bad[1]
    value <- format(score[row])
    stop_irtopics(c("{.arg runs}: the scores of {what} must be numbers (Inf and -Inf are allowed).",
                    x = "Row {row} holds {value}{if (length(bad) > 1) paste0(' (', length(bad), ' rows hold NA or NaN)') else ''}."),
                  kind = "data", row = row, call = call)
  }
  invisible(score)
}
