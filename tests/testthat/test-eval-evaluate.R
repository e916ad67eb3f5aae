# Scale-out of evaluate() over the workers of a future plan.

scale_runs <- function() {
  # six run files: the trec_eval test run and five reshuffled copies
  run <- as.data.frame(read_run(te_data("results.test")))
  dir <- tempfile("runs")
  dir.create(dir)
  set.seed(11)
  for (k in 1:6) {
    r <- run
    if (k > 1) r$score <- sample(r$score)
    r$system <- paste0("sys", k)
    write_run(r, file.path(dir, paste0("run", k, if (k %% 2) ".gz" else ".txt")))
  }
  dir
}

scale_measures <- c("AP", "P@10", "nDCG@10", "infAP", "IPrec@0.5", "NumRelRet")

# Hand-made cases ---------------------------------------------------------------

tie_run <- function() {
  # spec section 0.1: d2 and d3 tie at .8; trec_eval puts d3 first
  docs <- paste0("d", 1:10)
  scores <- c(.9, .8, .8, .7, .6, .5, .4, .3, .2, .1)
  data.frame(system = "s", topic = "1", docno = docs, score = scores)
}
tie_qrels <- function() data.frame(topic = "1", docno = c("d3", "d4", "d9", "d12"), rel = 1L)


test_that("a forked future plan gives the in-process results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  dir <- scale_runs()
  qrels <- read_qrels(te_data("qrels.test"))
  ref <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  expect_identical(evaluate(dir, te_data("qrels.test"), measures = scale_measures), ref)
  # qrels as a data frame travel with the futures
  expect_identical(evaluate(dir, qrels, measures = scale_measures), ref)
  # input errors from a worker keep their class, file and line (the one
  # route: the worker's C++ error is raised there and future relays it)
  bad <- file.path(dir, "run9.txt")
  writeLines("301 Q0 d1 1 x tag", bad)
  err <- expect_error(evaluate(dir, te_data("qrels.test"), measures = "AP"), class = "irtopics_error_parse")
  expect_identical(basename(err$file), "run9.txt")
  expect_identical(err$line, 1)
})

test_that("chunks of run files under plan(multisession, workers = 2) give identical results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  # the workers load the installed irtopics: skip when testing a source tree
  # loaded with pkgload (runs under R CMD check)
  skip_if(isNamespaceLoaded("pkgload") && pkgload::is_dev_package("irtopics"))
  dir <- scale_runs()
  ref <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(irtopics:::use_future())
  res <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  expect_identical(res, ref)
  expect_identical(rownames(res$AP), paste0("sys", 1:6))
})

test_that("relative run paths reach multisession workers as absolute paths", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if(isNamespaceLoaded("pkgload") && pkgload::is_dev_package("irtopics"))
  dir <- scale_runs()
  ref <- evaluate(dir, te_data("qrels.test"), measures = "AP")
  withr::local_dir(dir)
  rel <- sort(list.files("."))
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  res <- evaluate(rel, te_data("qrels.test"), measures = "AP")
  expect_identical(res$AP, ref$AP)
})
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
  # 2 threads even for these small files (one thread is chosen below 4 MB)
  r2 <- withr::with_options(list(irtopics.eval_thread_bytes = 0),
                            evaluate(dir, te_data("qrels.test"), m, n_threads = 2))
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
  expect_error(evaluate(read_qrels(qrels), run), "`runs` looks like relevance judgements",
               class = "irtopics_error_argument")
  run_df <- data.frame(system = "s", topic = "301", docno = "d1", score = 1)
  expect_error(evaluate(qrels, run_df), "`qrels` looks like a run", class = "irtopics_error_argument")
  # gzip files are looked into as well
  gz <- tempfile(fileext = ".gz")
  writeLines(readLines(run), con <- gzfile(gz, "w")); close(con)
  expect_error(evaluate(qrels, gz), "look swapped", class = "irtopics_error_argument")
  # the right order is untouched
  expect_s3_class(evaluate(gz, qrels, measures = "AP"), "ir_evaluation")
})

test_that("the swapped-arguments check reads at most the first 4 KB of a run file", {
  # one 10 MB line: the check gives up (no newline in 4 KB) and the reader decides
  f <- tempfile()
  writeBin(charToRaw(strrep("x", 1e7)), f)
  expect_identical(irtopics:::input_shape(f), NA_character_)
  expect_identical(irtopics:::input_shape(te_data("qrels.test")), "qrels")
  expect_identical(irtopics:::input_shape(te_data("results.test")), "run")
})

# 1. Modified ir_run objects ----------------------------------------------------

test_that("a modified ir_run is refused with a classed error, never evaluated or crashed", {
  run <- h2_run()
  n <- length(run$score)
  edits <- list(
    longer_score = function(r) { r$score <- c(r$score, 1); r },
    shorter_score = function(r) { r$score <- r$score[-1]; r },
    topic_code_0 = function(r) { r$topic_code[1] <- 0L; r },
    topic_code_big = function(r) { r$topic_code[2] <- 99L; r },
    topic_code_na = function(r) { r$topic_code[2] <- NA; r },
    offset_past_end = function(r) { r$offset[5] <- 100000000L; r },
    offset_decreasing = function(r) { r$offset[3] <- r$offset[2] - 1L; r },
    offset_last = function(r) { r$offset[n + 1] <- r$offset[n + 1] + 1L; r },
    docno_character = function(r) { r$docno <- as.data.frame(run)$docno; r },
    docno_shorter = function(r) { r$docno <- r$docno[-1]; r },
    topics_na = function(r) { r$topics[1] <- NA; r },
    system_empty = function(r) { r$system <- ""; r },
    score_character = function(r) { r$score <- as.character(r$score); r }
  )
  for (nm in names(edits)) {
    bad <- edits[[nm]](run)
    expect_error(evaluate(bad, h2_qrels(), "AP"), class = "irtopics_error_data", info = nm)
    expect_error(as.data.frame(bad), class = "irtopics_error_data", info = nm)
    expect_error(return_orders(bad, h2_qrels()), class = "irtopics_error_data", info = nm)
  }
  # Unmodified runs (and a double topic_code that is still whole) still work.
  ok <- run
  ok$topic_code <- as.double(ok$topic_code)
  expect_equal(evaluate(ok, h2_qrels(), "AP")$AP, evaluate(run, h2_qrels(), "AP")$AP)
})

# 7. Relevance levels and grades beyond the integer range ----------------------------

test_that("relevance_level and data-frame grades outside the integer range are refused", {
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  for (lvl in list(Inf, 3e9, 1e300, -1, 0, NA, 1.5)) {
    expect_error(evaluate(run, qrels, "NumRel", relevance_level = lvl), class = "irtopics_error_argument")
    expect_error(return_orders(run, qrels, relevance_level = lvl), class = "irtopics_error_argument")
  }
  # The largest level is allowed and judges nothing relevant.
  expect_equal(evaluate(run, qrels, "NumRel", relevance_level = .Machine$integer.max,
                        missing = "zero")$NumRel[1, 1], 0)
  for (g in list(3e9, Inf, -Inf, -2147483648, NaN, 1e6 + 1)) {
    q <- qrels
    q$rel[1] <- g
    err <- expect_error(evaluate(run, q, "NumRel"), class = "irtopics_error_parse")
    expect_identical(err$row, 1L)
  }
  q <- qrels
  q$rel <- c(-.Machine$integer.max, 1e6)
  expect_equal(evaluate(run, q, "NumRel")$NumRel[1, 1], 1)
})

test_that("Latin-1 and UTF-8 strings that R considers equal match, and Latin-1 ids evaluate", {
  ids <- c("caf\xe9", "na\xefve")
  Encoding(ids) <- "latin1"
  utf8 <- enc2utf8(ids)
  run <- data.frame(system = "s", topic = ids, docno = c("d1", "d2"), score = 2:1,
                    stringsAsFactors = FALSE)
  qrels <- data.frame(topic = utf8, docno = c("d1", "d2"), rel = 1L, stringsAsFactors = FALSE)
  res <- evaluate(run, qrels, "AP")$AP
  expect_equal(unname(res[1, ]), c(1, 1))
  expect_setequal(colnames(res), utf8)
  # Docnos too.
  run2 <- data.frame(system = "s", topic = "1", docno = ids, score = 2:1, stringsAsFactors = FALSE)
  qrels2 <- data.frame(topic = "1", docno = utf8, rel = 1L, stringsAsFactors = FALSE)
  expect_equal(evaluate(run2, qrels2, "AP")$AP[1, 1], 1)
  # Latin-1 bytes in files (read as bytes on both sides) evaluate and print.
  rf <- h2_bytes(as.raw(c(charToRaw("caf"), 0xe9, charToRaw(" Q0 d1 1 2 t\n"))))
  qf <- h2_bytes(as.raw(c(charToRaw("caf"), 0xe9, charToRaw(" 0 d1 1\n"))))
  res <- evaluate(rf, qf, "AP")
  expect_equal(res$AP[1, 1], 1)
  expect_output(print(res))
})

test_that("ids padded with white space are refused at every data-frame entry point, naming the column", {
  # before: evaluate() matched nothing and returned AP 0 for every topic
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1, stringsAsFactors = FALSE)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = 1L, stringsAsFactors = FALSE)
  expect_equal(evaluate(run, qrels, "AP")$AP[1, 1], 1)
  pad <- function(d, col, v) {
    d[[col]][1] <- v
    d
  }
  for (v in c(" 1", "1 ", "1\t", "\r1")) {
    expect_error(evaluate(pad(run, "topic", v), qrels, "AP"), "column .*topic.* white space",
                 class = "irtopics_error_data")
    expect_error(evaluate(run, pad(qrels, "topic", v), "AP"), "column .*topic.* white space",
                 class = "irtopics_error_data")
  }
  err <- expect_error(evaluate(pad(run, "docno", "d1 "), qrels, "AP"), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "docno")
  expect_match(conditionMessage(err), "Row 1 holds \"d1 \"")
  expect_equal(err$row, 1L)
  expect_error(evaluate(run, pad(qrels, "docno", " d1"), "AP"), "docno", class = "irtopics_error_data")
  expect_error(evaluate(pad(run, "system", "s "), qrels, "AP"), "system", class = "irtopics_error_data")
  # labels (compare_qrels), query maps, writers
  expect_error(compare_qrels(qrels, pad(qrels, "docno", "d2 "), B = 0), "docno", class = "irtopics_error_data")
  qm <- data.frame(query = c("1 ", "2"), topic = "1")
  expect_error(evaluate(run, qrels, "AP", query_map = qm), "query", class = "irtopics_error_data")
  expect_error(write_run(pad(run, "docno", " d1"), withr::local_tempfile()), "white space",
               class = "irtopics_error_data")
  # interior white space is still an id of a data frame (it only can't be written to a TREC file)
  run2 <- run
  run2$docno <- c("d 1", "d2")
  qrels2 <- qrels
  qrels2$docno <- c("d 1", "d2")
  expect_equal(evaluate(run2, qrels2, "AP")$AP[1, 1], 1)
})

# 13. Topic overlap -------------------------------------------------------------------

test_that("no topic in common is an error with ids of both sides; partial overlap warns", {
  run <- data.frame(system = "s", topic = c("q301", "q302"), docno = "d1", score = 1)
  qrels <- data.frame(topic = c("301", "302"), docno = "d1", rel = 1L)
  err <- expect_error(evaluate(run, qrels, "AP"), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "\"q301\", \"q302\"", fixed = TRUE)
  expect_match(conditionMessage(err), "\"301\", \"302\"", fixed = TRUE)
  expect_error(evaluate(run, qrels, "AP", missing = "zero"), class = "irtopics_error_data")
  expect_error(return_orders(run, qrels), class = "irtopics_error_data")
  run$topic[2] <- "302"
  w <- expect_warning(res <- evaluate(run, qrels, "AP"), class = "irtopics_warning_unknown_topics")
  expect_match(conditionMessage(w), "1 topic of the runs is not in the qrels")
  expect_identical(colnames(res$AP), "302")
})

test_that("query maps and score files with a byte order mark read as without", {
  withr::local_locale(c(LC_CTYPE = "C"))  # R itself drops a BOM only in UTF-8 locales
  map <- write_bytes(c(bom, charToRaw("301 301 first\n302 302\n303 303\n")))
  q <- read_query_map(map)
  expect_identical(q$query, c("301", "302", "303"))
  ro <- return_orders(te_data("results.test"), te_data("qrels.test"), query_map = map)
  ro_ref <- return_orders(te_data("results.test"), te_data("qrels.test"))
  expect_identical(unname(ro$orders), unname(ro_ref$orders))
  csv <- write_bytes(c(bom, charToRaw("topic,a,b\n1,0.5,0.25\n2,0.1,0.2\n")), ext = ".csv")
  s <- read_scores(csv)
  expect_identical(dimnames(s), list(c("a", "b"), c("1", "2")))
  expect_equal(s["b", "2"], 0.2)
})

test_that("-0 ties with 0 and the tie is broken by docno, descending", {
  # trec_eval: equal scores, so "b" (the larger docno) ranks first.
  run <- tmp_file(c("1 Q0 a 1 0 tag", "1 Q0 b 2 -0 tag"))
  qrels <- tmp_file(c("1 0 a 0", "1 0 b 1"))
  res <- evaluate(run, qrels, c("AP", "P@1"))
  expect_equal(res$AP[1, 1], 1)
  expect_equal(res$`P@1`[1, 1], 1)
  df <- data.frame(system = "s", topic = "1", docno = c("a", "b"), score = c(0, -0))
  expect_equal(evaluate(df, qrels, "AP")$AP[1, 1], 1)
})

test_that("inf, -inf, -0 and exponent scores give trec_eval 10.0's printed values", {
  # trec_eval -q -m map -m P.5 -m recip_rank on these files printed
  # map 0.7333, P_5 0.6000, recip_rank 1.0000. By hand: order b (inf), a, f
  # (1e-3), then the tie d (0) / c (-0) by docno descending, e (-inf);
  # relevant b, f, c, e at ranks 1, 3, 5, 6: AP = (1 + 2/3 + 3/5 + 4/6) / 4.
  run <- tmp_file(c("1 Q0 a 1 0.5 t", "1 Q0 b 2 inf t", "1 Q0 c 3 -0 t", "1 Q0 d 4 0 t",
                    "1 Q0 e 5 -inf t", "1 Q0 f 6 1e-3 t"))
  qrels <- tmp_file(c("1 0 a 0", "1 0 b 1", "1 0 c 1", "1 0 d 0", "1 0 e 1", "1 0 f 1"))
  res <- evaluate(run, qrels, c("AP", "P@5", "RR"))
  expect_identical(sprintf("%.4f", c(res$AP[1, 1], res$`P@5`[1, 1], res$RR[1, 1])),
                   c("0.7333", "0.6000", "1.0000"))
  expect_equal(res$AP[1, 1], (1 + 2 / 3 + 3 / 5 + 4 / 6) / 4)
})

test_that("a FIFO among the runs is refused at once instead of waiting for a writer", {
  skip_on_os("windows")
  skip_if(Sys.which("mkfifo") == "")
  dir <- runs_dir()
  fifo <- file.path(dir, "input.c.txt")
  system2("mkfifo", fifo)
  err <- expect_error(evaluate(dir, te_data("qrels.test"), "AP"), class = "irtopics_error_file")
  expect_identical(basename(err$file), "input.c.txt")
  expect_match(conditionMessage(err), "not a regular file")
})
# Ctrl-C during long computations: the C++ evaluation polls R for interrupts
# from the main thread between topics, resampling loops between chunks. An
# interrupt must stop the work well before it would have finished and leave
# the session usable (same results afterwards).

test_that("an interrupt stops a long evaluation inside one C++ call, with 1 and 2 threads", {
  skip_if_no_interrupts()
  dir <- withr::local_tempdir()
  big <- write_big_run(dir, n_topics = 1000L)
  ref <- evaluate(big$run, big$qrels, "AP", progress = FALSE)
  # Up to 16 paths are one chunk, i.e. one C++ call: only the C++ polling can
  # stop it early.
  paths <- rep(big$run, 4L)
  for (threads in 1:2) {
    res <- with_interrupt_in(evaluate(paths, big$qrels, "AP", n_threads = threads,
                                      progress = FALSE, name = "file"), polls = 2L)
    expect_true(res$interrupted, label = sprintf("interrupted with %d threads", threads))
    expect_identical(res$raised, 1L)
    # The session is usable and gives the same numbers.
    again <- evaluate(big$run, big$qrels, "AP", progress = FALSE)
    expect_identical(unclass(again), unclass(ref))
  }
})

test_that("res[[name]] and res$name find a measure whatever spelling was asked", {
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("map", "P@10", "ndcg_cut.10"))
  expect_identical(names(res), c("AP", "P@10", "nDCG@10"))
  expect_identical(res[["map"]], res[["AP"]])
  expect_identical(res$P_10, res[["P@10"]])
  expect_identical(res$P.10, res[["P@10"]])
  expect_identical(res[["ndcg@10"]], res[[3]])
  expect_error(res$P_20, "not in this evaluation", class = "irtopics_error_measure")
  expect_error(res[["nDGC@10"]], "Did you mean.*nDCG@10", class = "irtopics_error_measure")
  # user names are kept and the canonical spellings still find them
  res2 <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c(prec = "P_5", "map"))
  expect_identical(names(res2), c("prec", "AP"))
  expect_identical(res2[["P@5"]], res2$prec)
})

test_that("absurdly large grades are refused instead of allocating per-grade arrays", {
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 2147483647"))
  err <- expect_error(read_qrels(f), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "Line 2: the relevance grade 2147483647 is larger than 1000000")
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 1000000"))
  expect_equal(max(read_qrels(f)$rel), 1000000L)
  df <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 5000000L))
  expect_error(evaluate(data.frame(topic = "1", docno = "d1", score = 1), df, "nDCG"),
               "Row 2 holds 5000000", class = "irtopics_error_parse")
  expect_error(gain_vector(c("2000000" = 1)), class = "irtopics_error_argument")
})

test_that("bad arguments give classed errors", {
  expect_error(evaluate(42, good_qrels(), "AP"), class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), 42, "AP"), class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "AP", relevance_level = 0),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "AP", n_threads = 0),
               class = "irtopics_error_argument")
  expect_error(evaluate(data.frame(system = "s", topic = "1", docno = "a"), good_qrels(), "AP"),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), data.frame(topic = "1", docno = "a", rel = 0.5), "AP"),
               class = "irtopics_error_parse")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c(3, 9)),
               class = "irtopics_error_argument")
  expect_error(evaluate(data.frame(system = "s", topic = NA, docno = "a", score = 1), good_qrels(), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(data.frame(system = "s", topic = "1", docno = NA, score = 1), good_qrels(), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(te_data("results.test"), data.frame(topic = "1", docno = NA, rel = 1L), "AP"),
               class = "irtopics_error_data")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c("1.5" = 3)),
               class = "irtopics_error_argument")
  expect_error(evaluate(te_data("results.test"), good_qrels(), "nDCG", gains = c("1" = 3, "1" = 4)),
               class = "irtopics_error_argument")
})

test_that("simulated files are valid TREC files matching the data frames", {
  dir <- withr::local_tempdir()
  a <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 3, n_docs = 100,
                           depth = 20, seed = 1, dir = dir)
  expect_true(all(file.exists(c(a$files$runs, a$files$qrels, a$files$query_map))))
  run <- utils::read.table(a$files$runs[1], col.names = c("topic", "q0", "docno", "rank", "score", "tag"))
  ref <- a$runs[a$runs$system == "sim_w3", ]
  expect_equal(run$docno, ref$docno)
  expect_equal(run$score, ref$score)
  expect_true(all(run$tag == "sim_w3"))
  qrels <- utils::read.table(a$files$qrels, col.names = c("topic", "iter", "docno", "rel"))
  expect_equal(qrels$docno, a$qrels$docno)
  qm <- irtopics:::read_query_map(a$files$query_map)
  expect_equal(qm$query, a$query_map$query)
  expect_equal(qm$text, a$query_map$text)
})

test_that("evaluate() chunks with a progress bar labelled 'evaluate: runs' and gives the same scores", {
  bars <- record_progress_bars()
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  runs <- do.call(rbind, lapply(1:40, function(i) {
    data.frame(system = sprintf("s%02d", i), topic = "1", docno = c("d1", "d2", "x"),
               score = c(i %% 3, 2, 1))
  }))
  a <- evaluate(runs, qrels, "AP", progress = TRUE, n_threads = 1)
  b <- withr::with_options(list(irtopics.eval_thread_bytes = 0),
                           evaluate(runs, qrels, "AP", progress = FALSE, n_threads = 2))
  expect_identical(bars$labels, "evaluate: runs")
  expect_identical(unclass(a), unclass(b))
})

test_that("a failing custom measure names the measure, system and topic", {
  boom <- function(grades, n_rel) if (length(grades) > 3) stop("too long") else 0
  err <- expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = list(mine = boom)),
                      class = "irtopics_error_user")
  expect_s3_class(err, "irtopics_error_measure")
  expect_match(conditionMessage(err), 'Custom measure "mine" failed (system "', fixed = TRUE)
  expect_match(conditionMessage(err), 'topic "', fixed = TRUE)
  expect_identical(conditionMessage(err$parent), "too long")
  two <- function(grades, n_rel) c(1, 2)
  err <- expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = list(two = two)),
                      "must return one number", class = "irtopics_error_user")
  expect_s3_class(err, "irtopics_error_measure")
})
