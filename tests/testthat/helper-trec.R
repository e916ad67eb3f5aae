# Paths to the shipped trec_eval test collection and expected outputs.
te_data <- function(...) system.file("extdata", "trec_eval-test", ..., package = "irtopics")
te_expected <- function(name) test_path("fixtures", "trec_eval", name)

# A temporary file holding `lines`, and a small valid qrels file.
tmp_file <- function(lines, ext = ".txt") {
  f <- tempfile(fileext = ext)
  writeLines(lines, f)
  f
}
good_qrels <- function() tmp_file(c("1 0 d1 1", "1 0 d2 0", "2 0 d3 2"))

# Reads a trec_eval -q output: data frame measure, topic, value (character).
read_trec_eval_output <- function(path) {
  lines <- readLines(path)
  parts <- strsplit(lines, "[[:space:]]+")
  data.frame(measure = vapply(parts, `[`, "", 1L), topic = vapply(parts, `[`, "", 2L),
             value = vapply(parts, `[`, "", 3L), stringsAsFactors = FALSE)
}

# The trec_eval measures irtopics computes: every name of trec_eval's output
# that the measure registry resolves to a record whose number trec_eval
# prints (not the run id, relstring, or trec_eval 10's rbp / rbp_resid).
supported_trec_measure <- function(m) trec_parity_measure(m)

# Compares evaluate() with a trec_eval output, per topic and for "all", to the
# printed digits (the 'all' value from mean_scores(accumulate = "trec_eval")).
# Returns the number of values compared.
# `dir` is the fixtures folder of the expected output and `data` finds the
# inputs (the shipped collection, or files beside the expected outputs).
# `empty_nan`: trec_eval -J prints "-nan" (a 0/0) for iprec_at_recall and
# 11pt_avg of a topic whose judged list is empty, where irtopics gives the
# empty ranking's 0 (documented in ?evaluate); such a per-topic cell must
# then be 0 here and the 'all' line built from it is not compared.
expect_trec_eval_parity <- function(expected_file, run, qrels, ..., gains = NULL,
                                    measures = NULL, dir = "trec_eval", data = te_data,
                                    empty_nan = FALSE) {
  exp <- read_trec_eval_output(test_path("fixtures", dir, expected_file))
  nan <- exp$value == "-nan"
  if (any(nan)) {
    expect_true(empty_nan, label = paste(expected_file, "has -nan values"))
    expect_true(all(grepl("^(iprec_at_recall_|11pt_avg)", exp$measure[nan])))
    exp$value[nan & exp$topic != "all"] <- "0.0000"
    exp <- exp[!(nan & exp$topic == "all"), ]
  }
  meas <- unique(exp$measure[supported_trec_measure(exp$measure)])
  if (!is.null(measures)) meas <- intersect(meas, measures)
  res <- evaluate(data(run), data(qrels), measures = as.list(stats::setNames(meas, meas)),
                  gains = gains, ...)
  n <- 0L
  for (m in meas) {
    e <- exp[exp$measure == m, ]
    counts <- identical(attr(res[[m]], "aggregate"), "sum")
    per_topic <- e[e$topic != "all", ]
    if (nrow(per_topic)) {
      ours <- res[[m]][1, per_topic$topic]
      fmt <- if (counts) sprintf("%d", as.integer(round(ours))) else sprintf("%.4f", ours)
      expect_identical(fmt, per_topic$value, label = paste(expected_file, m, "per topic"))
    }
    n <- n + nrow(e)
    all <- e$value[e$topic == "all"]
    if (!length(all)) next
    agg <- mean_scores(res[[m]], accumulate = "trec_eval")[[1]]
    agg <- if (counts) sprintf("%d", as.integer(agg)) else sprintf("%.4f", agg)
    expect_identical(agg, all, label = paste(expected_file, m, "all"))
  }
  n
}
