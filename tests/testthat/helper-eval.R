# Fixtures shared by tests that came from test-evaluation.R
# Methods of ir_evaluation (R/evaluation.R): it converts, summarises and plots
# like its ir_scores parts.

# Two systems, three topics; sysB does not answer topic 303 (NA with
# missing = "drop").
two_system_evaluation <- function() {
  qrels <- data.frame(topic = rep(c("301", "302", "303"), each = 3),
                      docno = paste0("d", 1:9), rel = c(1, 0, 1, 1, 1, 0, 0, 0, 1))
  runs <- rbind(
    data.frame(system = "sysA", topic = rep(c("301", "302", "303"), each = 3),
               docno = paste0("d", c(1, 2, 3, 4, 5, 6, 7, 8, 9)), score = rep(3:1, 3)),
    data.frame(system = "sysB", topic = rep(c("301", "302"), each = 3),
               docno = paste0("d", c(3, 2, 1, 6, 5, 4)), score = rep(3:1, 2)))
  evaluate(runs, qrels, measures = c("AP", "P@2", "RR"))
}

# Four systems, four topics, through evaluate() (data-frame runs).
four_system_qrels <- function() {
  data.frame(topic = rep(c("301", "302", "303", "304"), each = 4), docno = paste0("d", 1:16),
             rel = rep(c(1, 0, 1, 0), 4))
}
four_system_runs <- function() {
  topics <- c("301", "302", "303", "304")
  perms <- list(alpha = c(1, 2, 3, 4), beta = c(2, 1, 4, 3), gamma = c(4, 3, 2, 1), delta = c(3, 1, 2, 4))
  do.call(rbind, lapply(names(perms), function(s) {
    do.call(rbind, lapply(seq_along(topics), function(k) {
      p <- if (k %% 2) perms[[s]] else rev(perms[[s]])
      data.frame(system = s, topic = topics[k], docno = paste0("d", (k - 1) * 4 + p), score = 4:1)
    }))
  }))
}
four_system_evaluation <- function() {
  evaluate(four_system_runs(), four_system_qrels(), measures = c("AP", "P@2", "RR"))
}

# Fixtures shared by tests that came from test-figures.R
# Figures at real scale (issue 18): every requested system drawn, layouts
# past what colour tells apart, comparison plots of many pairs, plots that
# say what they show, and the interpolated precision-recall curves.

robust <- function(measure = "AP") {
  f <- if (measure == "AP") "robust2004_ap.csv" else "robust2004_p10.csv"
  read_scores(system.file("extdata", "score-matrices", f, package = "irtopics"), measure = measure)
}
best <- function(m, k) names(sort(rowMeans(unclass(m)), decreasing = TRUE))[seq_len(k)]
# The best k systems without sys69, a copy of sys67 (a t-test of the two is undefined).
best_distinct <- function(m, k) setdiff(best(m, k + 1L), "sys69")[seq_len(k)]

# Layers of a built plot whose geom is `cls`.
layers_of <- function(p, cls) {
  b <- ggplot2::ggplot_build(p)
  keep <- vapply(p$layers, function(l) inherits(l$geom, cls), logical(1))
  b$data[keep]
}

# Fixtures shared by tests that came from test-hardening2.R
# Hardening, round 2 (issue 12): no crash, no hang, no silently wrong number
# from any input or calling pattern. One block per class of the issue; every
# fixture is made here.

h2_run <- function() read_run(te_data("results.test"))
h2_qrels <- function() te_data("qrels.test")

# Bytes written as they are (no encoding translation).
h2_bytes <- function(bytes, ext = ".txt") {
  f <- tempfile(fileext = ext)
  writeBin(if (is.raw(bytes)) bytes else charToRaw(bytes), f)
  f
}

h2_gzip <- function(lines) {
  f <- tempfile(fileext = ".gz")
  con <- gzfile(f, "wb")
  writeLines(lines, con)
  close(con)
  f
}

# 2. Forked workers ----------------------------------------------------------------

# Runs `expr` in a forked child and returns its value, or fails the test when
# the child does not finish within `timeout` seconds (it is then killed), so a
# regression fails instead of hanging the suite.
in_fork <- function(expr, timeout = 60) {
  job <- parallel::mcparallel(expr, silent = TRUE)
  res <- parallel::mccollect(job, wait = FALSE, timeout = timeout)
  if (is.null(res)) {
    tools::pskill(job$pid, tools::SIGKILL)
    parallel::mccollect(job, wait = FALSE, timeout = 5)
    fail(sprintf("the forked child did not finish within %d s (deadlock?)", timeout))
    return(NULL)
  }
  res[[1]]
}

# Fixtures shared by tests that came from test-hostile.R
# Hostile inputs: each must give the trec_eval result or a classed error
# naming file and line, never a crash, a hang or a silently changed number.

all_measures <- c("AP", "P@10", "R-Prec", "nDCG", "nDCG@10", "Bpref", "RR", "R@100", "NumRet",
                  "NumRelRet")

# Writes `bytes` (a raw vector or a string) to a new file, gzip-compressed
# when `gzip` is TRUE.
write_bytes <- function(bytes, ext = ".txt", gzip = FALSE) {
  if (is.character(bytes)) bytes <- charToRaw(bytes)
  f <- tempfile(fileext = if (gzip) ".gz" else ext)
  con <- if (gzip) gzfile(f, "wb") else file(f, "wb")
  writeBin(bytes, con)
  close(con)
  f
}

# The lines of a file joined with another line end, or prefixed.
rewrite_lines <- function(path, eol = "\n", prefix = raw(), gzip = FALSE) {
  lines <- readLines(path)
  write_bytes(c(prefix, charToRaw(paste0(lines, eol, collapse = ""))), gzip = gzip)
}

bom <- as.raw(c(0xef, 0xbb, 0xbf))

expect_same_evaluation <- function(run, qrels, ref_run = te_data("results.test"),
                                   ref_qrels = te_data("qrels.test"), measures = all_measures) {
  ref <- evaluate(ref_run, ref_qrels, measures)
  got <- evaluate(run, qrels, measures)
  for (m in measures) expect_identical(unclass(got[[m]]), unclass(ref[[m]]), label = m)
}

expect_input_error <- function(expr, class, file, line, pattern) {
  err <- expect_error(expr, class = class)
  expect_identical(basename(err$file), basename(file))
  expect_identical(as.numeric(err$line), as.numeric(line))
  expect_match(conditionMessage(err), pattern, fixed = TRUE)
  invisible(err)
}

# 10. Directories -------------------------------------------------------------

runs_dir <- function() {
  dir <- withr::local_tempdir(.local_envir = parent.frame())
  file.copy(te_data("results.test"), file.path(dir, "input.a.txt"))
  file.copy(te_data("results.trunc"), file.path(dir, "input.b.txt"))
  dir
}

# Fixtures shared by tests that came from test-measures.R
# One topic by hand: grades in trec_eval order 2, 0, (not pooled), 1,
# (pooled, grade -1); a grade-3 document is not retrieved.
hand_eval <- function(measures, ...) {
  qrels <- tmp_file(c("1 0 d1 2", "1 0 d2 1", "1 0 d3 0", "1 0 d4 -1", "1 0 d5 3"))
  run <- tmp_file(c("1 Q0 d1 1 5 r", "1 Q0 d3 2 4 r", "1 Q0 dx 3 3 r", "1 Q0 d2 4 2 r", "1 Q0 d4 5 1 r"))
  res <- evaluate(run, qrels, measures = measures, ...)
  vapply(res, function(m) m[1, 1], numeric(1))
}

# Fixtures shared by tests that came from test-scores.R
extdata <- function(...) system.file("extdata", ..., package = "irtopics")


# Fixtures shared by the tests of the measure registry's value domains
# (test-eval-measure-info.R, test-calibration-model.R, test-calibration-margins.R).

# Every spelling of every record that the registry can generate, as a named
# vector (spelling -> the record's name): the canonical name, the trec_eval
# stems and every other accepted stem (ir_measures, ranx), with the
# parameter after `@`, `_` and `.` (cut-offs 1 and 10, recall levels,
# multiples of R), without one where the record's parameter is optional,
# with a p, beta or utility argument, and with a `(rel=2)` threshold where
# the record takes one. Generated from the table, never a hand list.
registry_spellings <- function() {
  out <- list()
  for (r in measure_rows()) {
    stems <- unique(c(r$id, stats::na.omit(c(r$trec, r$trec_cut)), r$spell))
    par <- switch(r$param, cutoff = , optcut = c("1", "10"), recall = c("0", "0.5"), mult = "0.6", NULL)
    bare <- if (r$param %in% c("none", "optcut", "beta", "p", "utility")) stems
    with_par <- if (length(par)) c(outer(stems, par, paste, sep = "@"), outer(stems, par, paste, sep = "_"),
                                   outer(stems, par, paste, sep = "."))
    args <- switch(r$param, beta = paste0(stems, "(beta=0.5)"), p = paste0(stems, "(p=0.5)"),
                   utility = paste0(stems, "(1,-2,0,0)"), NULL)
    rel <- if (r$rel) {
      c(if (length(bare)) paste0(bare, "(rel=2)"), if (length(par)) c(outer(paste0(stems, "(rel=2)"), par, paste, sep = "@")))
    }
    s <- unique(c(bare, with_par, args, rel))
    out[[r$id]] <- stats::setNames(rep(r$id, length(s)), s)
  }
  unlist(unname(out))
}

# The support of a discrete measure written from the issue's formulas (by
# support kind, with n the cut-off or else the depth), to check
# measure_info() against: NULL when it has no bound.
support_by_formula <- function(kind, n) {
  if (is.infinite(n) && kind %in% c("reciprocals", "counts")) return(NULL)
  switch(kind,
    fractions = seq(0, n) / n,
    ratios = sort(unique(unlist(lapply(seq_len(n), function(m) seq(0, m) / m)))),
    reciprocals = sort(c(0, 1 / seq_len(n))),
    binary = c(0, 1),
    counts = as.double(seq(0, n)),
    wholes = NULL,
    one = 1)
}

# A lower-is-better measure (issue 40): an error rate, by a custom measure
# record. `lower_is_better(m)` is `m` as that measure's scores.
error_rate <- function() custom_measure("error rate", direction = "lower", range = c(0, 1))
lower_is_better <- function(m) as_ir_scores(m, measure = error_rate())
# Six systems x 12 topics of error rates with distinct means: sysF lowest
# (best), sysA highest (worst).
error_matrix <- function() {
  set.seed(40)
  m <- matrix(stats::runif(72, 0, 0.4), 6, dimnames = list(paste0("sys", LETTERS[1:6]), paste0("t", 1:12)))
  m <- m + (6:1) / 10
  lower_is_better(m)
}
# The scores of `m` as a plain matrix (no measure: higher is better), and
# negated.
plain <- function(m) matrix(as.vector(m), nrow(m), dimnames = dimnames(m))
negated <- function(m) -plain(m)
