test_that("per-topic and averaged values match trec_eval -q (out.test.aq)", {
  n <- expect_trec_eval_parity("out.test.aq", "results.test", "qrels.test")
  expect_gt(n, 150)
})

test_that("missing = 'zero' matches trec_eval -q -c on a run lacking a topic (out.test.aqc)", {
  n <- expect_trec_eval_parity("out.test.aqc", "results.trunc", "qrels.test", missing = "zero")
  expect_gt(n, 150)
})

test_that("depth matches trec_eval -q -c -M100 (out.test.aqcM)", {
  n <- expect_trec_eval_parity("out.test.aqcM", "results.trunc", "qrels.test",
                               missing = "zero", depth = 100)
  expect_gt(n, 150)
})

test_that("relevance_level = 2 matches trec_eval -q -l2 on graded qrels (out.test.aql)", {
  n <- expect_trec_eval_parity("out.test.aql", "results.test", "qrels.rel_level",
                               relevance_level = 2)
  expect_gt(n, 150)
})

test_that("parametrised cutoffs and nDCG gains match trec_eval (out.test.meas_params)", {
  n <- expect_trec_eval_parity("out.test.meas_params", "results.test", "qrels.test",
                               measures = c("P_3", "P_5", "P_7", "recall_20", "recall_2000",
                                            "ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23",
                                            "success_2", "success_5", "success_20"))
  expect_gt(n, 40)
  # trec_eval -m ndcg.1=3,2=9,4=4.5: gains apply to nDCG
  exp <- read_trec_eval_output(te_expected("out.test.meas_params"))
  e <- exp[exp$measure == "ndcg_1=3,2=9,4=4.5", ]
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = "nDCG",
                  gains = c("1" = 3, "2" = 9, "4" = 4.5))
  expect_identical(sprintf("%.4f", res$nDCG[1, e$topic[e$topic != "all"]]), e$value[e$topic != "all"])
  expect_identical(sprintf("%.4f", mean_scores(res$nDCG)[[1]]), e$value[e$topic == "all"])
})

test_that("the v9.0.8 expected outputs agree too", {
  exp <- read_trec_eval_output(te_expected("v9.0.8-expected/out.test.aq"))
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("map", "P_10", "bpref"))
  e <- exp[exp$measure == "map" & exp$topic != "all", ]
  expect_identical(sprintf("%.4f", res$AP[1, e$topic]), e$value)
})

# Hand-made cases ---------------------------------------------------------------

tie_run <- function() {
  # spec section 0.1: d2 and d3 tie at .8; trec_eval puts d3 first
  docs <- paste0("d", 1:10)
  scores <- c(.9, .8, .8, .7, .6, .5, .4, .3, .2, .1)
  data.frame(system = "s", topic = "1", docno = docs, score = scores)
}
tie_qrels <- function() data.frame(topic = "1", docno = c("d3", "d4", "d9", "d12"), rel = 1L)

test_that("ties are broken by docno descending (spec 0.1 worked example)", {
  res <- evaluate(tie_run(), tie_qrels(), measures = c("AP", "P@10", "R-Prec"))
  expect_equal(res$AP[1, 1], (1 / 2 + 2 / 4 + 3 / 9) / 4)
  expect_equal(res$AP[1, 1], 0.3333333333, tolerance = 1e-9)
  expect_equal(res$`P@10`[1, 1], 0.3)
  expect_equal(res$`R-Prec`[1, 1], 0.5)
  # the other tie order would give 0.291667: the rank column must not matter
  run <- tie_run()
  run <- run[c(1, 2, 3, 10:4), ]
  expect_equal(evaluate(run, tie_qrels(), "AP")$AP[1, 1], 0.3333333333, tolerance = 1e-9)
  # and the same from a file in a different line order
  f <- tmp_file(sprintf("1 Q0 %s %d %s tag", run$docno, seq_len(10), run$score))
  expect_equal(evaluate(f, tie_qrels(), "AP")$AP[1, 1], 0.3333333333, tolerance = 1e-9)
  # byte order: "d10" < "d2", so with equal scores d2 comes first
  r2 <- data.frame(system = "s", topic = "1", docno = c("d10", "d2"), score = c(1, 1))
  q2 <- data.frame(topic = "1", docno = "d2", rel = 1L)
  expect_equal(evaluate(r2, q2, "RR")$RR[1, 1], 1)
})

test_that("empty topics, topics without relevant documents and unknown topics", {
  run <- rbind(tie_run(), data.frame(system = "s", topic = "2", docno = "x", score = 1),
               data.frame(system = "s", topic = "99", docno = "x", score = 1))
  qrels <- rbind(tie_qrels(), data.frame(topic = "2", docno = "x", rel = 0L),
                 data.frame(topic = "3", docno = "y", rel = 1L))
  expect_warning(res <- evaluate(run, qrels, c("AP", "NumRel", "P@5"), missing = "drop"),
                 class = "irtopics_warning_unknown_topics")
  # topic 2 has no relevant document: evaluated, AP = 0; topic 3 unanswered: dropped
  expect_equal(colnames(res$AP), c("1", "2"))
  expect_equal(res$AP[1, "2"], 0)
  expect_equal(unname(mean_scores(res$AP)), mean(c(1 / 3, 0)))
  suppressWarnings(res0 <- evaluate(run, qrels, c("AP", "NumRel", "P@5"), missing = "zero"))
  expect_equal(colnames(res0$AP), c("1", "2", "3"))
  expect_equal(res0$AP[1, "3"], 0)
  expect_equal(res0$NumRel[1, "3"], 1)   # trec_eval -c keeps num_rel of an unanswered topic
  expect_equal(unname(mean_scores(res0$AP)), mean(c(1 / 3, 0, 0)))
})

test_that("depth cuts after sorting", {
  res <- evaluate(tie_run(), tie_qrels(), c("AP", "NumRet", "P@10"), depth = 3)
  expect_equal(res$NumRet[1, 1], 3)
  expect_equal(res$AP[1, 1], 0.5 / 4)
  expect_equal(res$`P@10`[1, 1], 0.1)
  expect_error(evaluate(tie_run(), tie_qrels(), "AP", depth = 0), class = "irtopics_error_argument")
  expect_equal(evaluate(tie_run(), tie_qrels(), "NumRet", depth = Inf)$NumRet[1, 1], 10)
})

test_that("graded relevance with relevance_level = 2", {
  run <- data.frame(system = "s", topic = "1", docno = paste0("d", 1:5), score = 5:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2", "d4", "d6"), rel = c(1L, 2L, 2L, 3L))
  r1 <- evaluate(run, qrels, c("AP", "NumRel", "nDCG"))
  r2 <- evaluate(run, qrels, c("AP", "NumRel", "nDCG"), relevance_level = 2)
  expect_equal(r1$NumRel[1, 1], 4)
  expect_equal(r2$NumRel[1, 1], 3)
  expect_equal(r2$AP[1, 1], (1 / 2 + 2 / 4) / 3)
  expect_equal(r1$AP[1, 1], (1 + 1 + 3 / 4) / 4)
  # nDCG uses grades as gains whatever the relevance level
  dcg <- 1 / log2(2) + 2 / log2(3) + 2 / log2(5)
  idcg <- 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 1 / log2(5)
  expect_equal(r2$nDCG[1, 1], dcg / idcg)
})

test_that("the Liggett-Buckley exclusion measure follows spec 1.3's worked examples", {
  # n_R = 8 relevant documents r1..r8; list A returns them at these positions
  pos_a <- c(3, 7, 1001, 15, 40, 1001, 2, 900)
  pos_b <- c(1, 4, 10, 1001, 30, 1001, 1001, 55)
  make_run <- function(pos, sys) {
    docs <- paste0("n", 1:1000)
    for (i in seq_along(pos)) if (pos[i] <= 1000) docs[pos[i]] <- paste0("r", i)
    data.frame(system = sys, topic = "1", docno = docs, score = 1000:1)
  }
  qrels <- data.frame(topic = "1", docno = paste0("r", 1:8), rel = 1L)
  run <- rbind(make_run(pos_a, "A"), make_run(pos_b, "B"),
               make_run(c(1001, 1001, 1001, 500, 1001, 1001, 1001, 1001), "C"),
               make_run(rep(1001, 8), "D"))
  res <- evaluate(run, qrels, c("Exclusion", "AP"))
  expect_equal(unname(res$Exclusion[, 1]),
               c(-0.3010299957, -0.4771212547, -3.300812794, -3.301247089), tolerance = 1e-9)
  expect_equal(unname(res$AP[1:2, 1]), c(0.2491964286, 0.2530303030), tolerance = 1e-9)
  # no relevant documents: NA
  q0 <- data.frame(topic = "1", docno = "n1", rel = 0L)
  expect_true(is.na(evaluate(make_run(pos_a, "A"), q0, "Exclusion")$Exclusion[1, 1]))
})

test_that("results are identical with 1 and 2 threads, from files and from memory", {
  dir <- withr::local_tempdir()
  base <- read.table(te_data("results.test"), col.names = c("topic", "q0", "docno", "rank", "score", "tag"),
                     colClasses = c("character", "character", "character", "integer", "numeric", "character"))
  set.seed(1)
  for (k in 1:5) {
    r <- base
    r$score <- round(r$score + stats::rnorm(nrow(r), sd = 0.2), 2)   # many ties
    r$tag <- paste0("run", k)
    utils::write.table(r, file.path(dir, paste0("run", k, ".txt")), quote = FALSE,
                       row.names = FALSE, col.names = FALSE)
  }
  m <- c("AP", "P@10", "nDCG@10", "Bpref", "R-Prec")
  r1 <- evaluate(dir, te_data("qrels.test"), m, n_threads = 1)
  r2 <- evaluate(dir, te_data("qrels.test"), m, n_threads = 2)
  expect_identical(r1, r2)
  expect_equal(rownames(r1$AP), paste0("run", 1:5))
  rm <- evaluate(read_runs(dir), te_data("qrels.test"), m)
  expect_identical(unclass(rm$AP), unclass(r1$AP))
  df <- as.data.frame(read_runs(dir))
  rd <- evaluate(df, read_qrels(te_data("qrels.test")), m)
  expect_identical(unclass(rd$`nDCG@10`), unclass(r1$`nDCG@10`))
})

test_that("custom measures receive the profile and the relevant count", {
  seen <- list()
  f <- function(grades, n_rel) {
    seen[[length(seen) + 1]] <<- list(grades = grades, n_rel = n_rel)
    sum(!is.na(grades) & grades >= 1) / n_rel
  }
  res <- evaluate(tie_run(), tie_qrels(), list("NumRelRet", "NumRel", rec = f))
  expect_equal(res$rec[1, 1], 3 / 4)
  expect_equal(seen[[1]]$grades, c(NA, 1L, NA, 1L, NA, NA, NA, NA, 1L, NA))
  expect_equal(seen[[1]]$n_rel, 4L)
  expect_error(evaluate(tie_run(), tie_qrels(), list(function(g, n) 1)), class = "irtopics_error_argument")
  expect_error(evaluate(tie_run(), tie_qrels(), list(bad = function(g, n) c(1, 2))),
               class = "irtopics_error_measure")
})

test_that("measure names accept both spellings and reject unknown ones", {
  res <- evaluate(tie_run(), tie_qrels(), c("map", "P_10", "ndcg_cut_5", "recip_rank", "Rprec",
                                            "R@5", "success_1", "AP@5", "num_rel_ret"))
  expect_named(res, c("AP", "P@10", "nDCG@5", "RR", "R-Prec", "R@5", "Success@1", "AP@5", "NumRelRet"))
  expect_equal(attr(res$`P@10`, "measure"), "P@10")
  expect_error(evaluate(tie_run(), tie_qrels(), "P@0"), class = "irtopics_error_measure")
  expect_error(evaluate(tie_run(), tie_qrels(), "MAPX"), class = "irtopics_error_measure")
  expect_error(evaluate(tie_run(), tie_qrels(), c("AP", "map")), class = "irtopics_error_measure")
})

test_that("query maps evaluate each query against its topic", {
  run <- rbind(transform(tie_run(), topic = "1a"),
               transform(tie_run()[c(3, 2, 1, 4:10), ], topic = "1b", score = 10:1))
  qm <- data.frame(query = c("1a", "1b"), topic = "1")
  res <- evaluate(run, tie_qrels(), "AP", query_map = qm)
  expect_equal(colnames(res$AP), c("1a", "1b"))
  expect_equal(unname(attr(res$AP, "topic")), c("1", "1"))
  expect_equal(res$AP[1, "1a"], 1 / 3)
  expect_equal(res$AP[1, "1b"], (1 + 2 / 4 + 3 / 9) / 4)
  expect_error(evaluate(run, tie_qrels(), "AP", query_map = qm[1, ]), class = "irtopics_error_data")
})

test_that("a run file whose topics are interleaved gives the same scores", {
  lines <- readLines(te_data("results.test"))
  set.seed(3)
  f <- tempfile()
  writeLines(sample(lines), f)          # topics no longer grouped: general path
  g <- tempfile()
  writeLines(lines, g)                  # grouped: streaming path
  m <- c("AP", "P@10", "nDCG", "Bpref", "R-Prec", "NumRet")
  a <- evaluate(f, te_data("qrels.test"), m)
  b <- evaluate(g, te_data("qrels.test"), m)
  expect_identical(lapply(a, unclass), lapply(b, unclass))
  expect_equal(round(unname(a$AP[1, ]), 4), c(0.0324, 0.4175, 0.0858))
  # a topic that comes back after another one, with a duplicate docno in it
  h <- tempfile()
  writeLines(c("1 Q0 a 1 3 t", "2 Q0 b 1 3 t", "1 Q0 a 2 2 t"), h)
  q <- data.frame(topic = c("1", "2"), docno = c("a", "b"), rel = 1L)
  err <- expect_error(evaluate(h, q, "AP"), class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "Line 3")
})

test_that("evaluate(qrels, runs) with the arguments swapped says so", {
  run <- te_data("results.test")
  qrels <- te_data("qrels.test")
  err <- expect_error(evaluate(qrels, run), "look swapped", class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "evaluate(runs, qrels)", fixed = TRUE)
  expect_error(return_orders(qrels, run), "look swapped", class = "irtopics_error_argument")
  # data frames and objects too
  expect_error(evaluate(read_qrels(qrels), run), "`runs` looks like relevance judgements")
  run_df <- data.frame(system = "s", topic = "301", docno = "d1", score = 1)
  expect_error(evaluate(qrels, run_df), "`qrels` looks like a run")
  # gzip files are looked into as well
  gz <- tempfile(fileext = ".gz")
  writeLines(readLines(run), con <- gzfile(gz, "w")); close(con)
  expect_error(evaluate(qrels, gz), "look swapped")
  # the right order is untouched
  expect_s3_class(evaluate(gz, qrels, measures = "AP"), "ir_evaluation")
})
