# Fractional grades (issue 41: autoqrels' float grades, a judge's probability
# of relevance) and the grade range of the qrels readers (issue 43).

# Topic 1: five judged documents with fractional grades, d6 in the pool but
# unjudged (negative grade); topic 2: grades on both sides of 0.5.
frac_qrels_df <- function() {
  data.frame(topic = c(rep("1", 6), rep("2", 3)),
             docno = c("d1", "d2", "d3", "d4", "d5", "d6", "e1", "e2", "e3"),
             rel = c(0.9, 0.2, 0.6, 0, 1.7, -1, 0.5, 0.49, 0), stringsAsFactors = FALSE)
}
# Topic 1 ranked d3, x1 (not judged), d1, d2, d6, d5, d4; topic 2 e2, e1, e3.
frac_run_df <- function() {
  data.frame(system = "s", topic = c(rep("1", 7), rep("2", 3)),
             docno = c("d3", "x1", "d1", "d2", "d6", "d5", "d4", "e2", "e1", "e3"),
             score = c(7:1, 3:1), stringsAsFactors = FALSE)
}
# The grades of the ranked documents as gains (unjudged and negative: 0).
frac_ranked_gains <- list("1" = c(0.6, 0, 0.9, 0.2, 0, 1.7, 0), "2" = c(0.49, 0.5, 0))
frac_judged <- list("1" = c(0.9, 0.2, 0.6, 0, 1.7), "2" = c(0.5, 0.49, 0))

dcg_by_hand <- function(g, k = length(g)) {
  g <- utils::head(g, k)
  sum(g / log2(seq_along(g) + 1))
}
ndcg_by_hand <- function(ranked, judged, k = Inf) {
  ideal <- sort(judged[judged > 0], decreasing = TRUE)
  dcg_by_hand(ranked, min(k, length(ranked))) / dcg_by_hand(ideal, min(k, length(ideal)))
}
err_by_hand <- function(g, max_grade = 4) {
  r <- (2^pmin(g, max_grade) - 1) / 2^max_grade
  sum(r / seq_along(r) * cumprod(c(1, 1 - r))[seq_along(r)])
}

test_that("read_qrels() reads fractional grades as written; integer qrels stay integer", {
  f <- tmp_file(c("1 0 d1 0.9", "1 0 d2 2", "1 0 d3 -0.5", "2 0 e1 1e-3", "2 0 e2 .25"))
  q <- read_qrels(f)
  expect_type(q$rel, "double")
  expect_identical(q$rel, c(0.9, 2, -0.5, 1e-3, 0.25))
  expect_type(read_qrels(good_qrels())$rel, "integer")
  # summary() counts grade > 0 as relevant, negative as unjudged
  s <- as.data.frame(summary(q))
  expect_identical(s$relevant, c(2L, 2L))
  expect_identical(s$unjudged, c(1L, 0L))
})

test_that("graded measures take fractional grades as gains, binary ones the threshold", {
  res <- evaluate(frac_run_df(), frac_qrels_df(), c("nDCG", "nDCG@3", "ERR", "P@10", "AP", "NumRel", "RR"),
                  relevance_level = 0.5)
  for (t in c("1", "2")) {
    expect_equal(res$nDCG["s", t], ndcg_by_hand(frac_ranked_gains[[t]], frac_judged[[t]]), tolerance = 1e-14)
    expect_equal(res$`nDCG@3`["s", t], ndcg_by_hand(frac_ranked_gains[[t]], frac_judged[[t]], k = 3),
                 tolerance = 1e-14)
    expect_equal(res$ERR["s", t], err_by_hand(frac_ranked_gains[[t]]), tolerance = 1e-14)
  }
  # relevant: grade >= 0.5 (d3, d1, d5 at ranks 1, 3, 6; e1 at rank 2)
  expect_equal(unname(res$`P@10`["s", ]), c(0.3, 0.1))
  expect_equal(unname(res$NumRel["s", ]), c(3, 1))
  expect_equal(res$AP["s", "1"], (1 / 1 + 2 / 3 + 3 / 6) / 3, tolerance = 1e-15)
  expect_equal(unname(res$RR["s", ]), c(1, 1 / 2))
  # the default threshold, 1: only d5 (1.7) is relevant
  one <- evaluate(frac_run_df(), frac_qrels_df(), c("AP", "P@10", "nDCG"))
  expect_equal(unname(one$AP["s", "1"]), 1 / 6)
  expect_equal(unname(one$`P@10`["s", ]), c(0.1, 0))
  expect_identical(one$nDCG, res$nDCG)  # gains do not depend on the threshold
  # a measure's own threshold (rel=k) on the grades as written
  own <- evaluate(frac_run_df(), frac_qrels_df(), c("P(rel=1)@10", "AP(rel=1)"), relevance_level = 0.5)
  expect_equal(unname(own$`P(rel=1)@10`["s", ]), c(0.1, 0))
  expect_equal(unname(own$`AP(rel=1)`["s", "1"]), 1 / 6)
})

test_that("fractional qrels from a file and from a data frame evaluate the same, on any thread count", {
  f <- tempfile()
  write_qrels(frac_qrels_df(), f)
  ms <- c("nDCG", "ERR@5", "P@5", "AP", "Bpref", "infAP", "Judged@5", "G", "Rndcg", "ndcg_rel",
          "nDCG(judged_only=True)@5", "P(judged_only)@5")
  a <- evaluate(frac_run_df(), f, ms, relevance_level = 0.5)
  b <- evaluate(frac_run_df(), frac_qrels_df(), ms, relevance_level = 0.5, n_threads = 2)
  expect_identical(unclass(a), unclass(b), ignore_attr = TRUE)
})

test_that("judged-only measures and unanswered topics (missing = \"zero\") use the fractional gains", {
  # judged only: x1 (not judged) drops out of topic 1's ranking
  res <- evaluate(frac_run_df(), frac_qrels_df(), c("nDCG(judged_only=True)", "P(judged_only)@2"),
                  relevance_level = 0.5)
  # d3, d1, d2, d5, d4 (d6, in the pool but unjudged at -1, drops out too)
  judged_1 <- c(0.6, 0.9, 0.2, 1.7, 0)
  expect_equal(res$`nDCG(judged_only=True)`["s", "1"], ndcg_by_hand(judged_1, frac_judged[["1"]]),
               tolerance = 1e-14)
  expect_equal(unname(res$`P(judged_only)@2`["s", "1"]), 1)
  # a run that answers topic 1 only: topic 2 scores as an empty ranking
  one <- frac_run_df()[1:7, ]
  z <- evaluate(one, frac_qrels_df(), c("nDCG", "NumRel", "AP"), relevance_level = 0.5, missing = "zero")
  expect_equal(unname(z$nDCG["s", ]), c(ndcg_by_hand(frac_ranked_gains[["1"]], frac_judged[["1"]]), 0))
  expect_equal(unname(z$NumRel["s", ]), c(3, 1))
  expect_equal(unname(z$AP["s", "2"]), 0)
})

test_that("a custom measure sees the fractional grades as written", {
  first <- function(grades, n_rel) grades[1]
  res <- evaluate(frac_run_df(), frac_qrels_df(), list(first = first, "NumRel"), relevance_level = 0.5)
  expect_equal(unname(res$first["s", ]), c(0.6, 0.49))
})

test_that("integer grades written with a fraction (2.0) evaluate exactly as the integers", {
  lines <- readLines(te_data("qrels.rel_level"))
  dotted <- tmp_file(sub("([0-9-]+)[[:space:]]*$", "\\1.0", lines))
  expect_type(read_qrels(dotted)$rel, "double")
  run <- te_data("results.test")
  for (lvl in 1:2) {
    a <- evaluate(run, te_data("qrels.rel_level"), c("all_trec", "ERR@20", "nDCG@10"), relevance_level = lvl)
    b <- evaluate(run, dotted, c("all_trec", "ERR@20", "nDCG@10"), relevance_level = lvl)
    for (nm in names(a)) expect_identical(unclass(b[[nm]]), unclass(a[[nm]]), label = paste(lvl, nm))
  }
})

test_that("a threshold with a fraction acts as the next whole number on integer grades", {
  run <- te_data("results.test")
  a <- evaluate(run, te_data("qrels.rel_level"), c("AP", "P@10", "NumRel"), relevance_level = 1.5)
  b <- evaluate(run, te_data("qrels.rel_level"), c("AP", "P@10", "NumRel"), relevance_level = 2)
  expect_identical(unclass(a$AP), unclass(b$AP))
  expect_identical(unclass(a$NumRel), unclass(b$NumRel))
})

test_that("write_qrels() then read_qrels() gives fractional grades back exactly", {
  df <- frac_qrels_df()
  df$rel[1:4] <- c(1 / 3, 0.1, 2^-30, pi)
  f <- tempfile()
  write_qrels(df, f)
  back <- read_qrels(f)
  expect_identical(back$rel, df$rel)
  written <- vapply(strsplit(readLines(f), " "), `[`, "", 4L)
  # the fewest digits that read back: 0.1 and 0.5 short, 1/3 with 17
  expect_identical(written[c(2, 7)], c("0.1", "0.5"))
  expect_identical(written[1], "0.33333333333333331")
  expect_identical(as.numeric(written), df$rel)
  # and read_qrels()'s own object writes back
  g <- tempfile()
  write_qrels(back, g)
  expect_identical(readLines(g), readLines(f))
})

test_that("malformed fractional grades are classed errors naming the file and line, or the row", {
  for (bad in c("NaN", "Inf", "-inf", "0.5.1", "0x1p3", ".")) {
    f <- tmp_file(c("1 0 d1 0.5", "1 0 d2 0.25", sprintf("1 0 d3 %s", bad)))
    err <- expect_error(read_qrels(f), class = "irtopics_error_parse")
    expect_equal(err$line, 3)
    expect_identical(basename(err$file), basename(f))
    expect_match(conditionMessage(err), "must be an integer or a finite decimal number", fixed = TRUE)
  }
  for (g in list(NaN, Inf, NA_real_, 1e6 + 0.5)) {
    q <- frac_qrels_df()
    q$rel[3] <- g
    err <- expect_error(evaluate(frac_run_df(), q, "AP"), class = "irtopics_error_parse")
    expect_identical(err$row, 3L)
  }
})

test_that("the grade -2147483648 (R's NA_integer_) is refused when read, naming the line (issue 43)", {
  f <- tmp_file(c("1 0 d1 1", "1 0 d2 -2147483648"))
  err <- expect_error(read_qrels(f), class = "irtopics_error_parse")
  expect_equal(err$line, 2)
  expect_match(conditionMessage(err), "-2147483648 is outside the accepted range -2147483647 to 1000000",
               fixed = TRUE)
  # the same file through evaluate() and compare_qrels()
  run <- tmp_file(c("1 Q0 d1 1 2 s", "1 Q0 d2 2 1 s"))
  expect_error(evaluate(run, f, "AP"), class = "irtopics_error_parse")
  expect_error(compare_qrels(f, good_qrels()), class = "irtopics_error_parse")
  # the lowest grade accepted reads as itself, and writes back
  ok <- tmp_file(c("1 0 d1 1", "1 0 d2 -2147483647"))
  q <- read_qrels(ok)
  expect_identical(q$rel, c(1L, -2147483647L))
  g <- tempfile()
  write_qrels(q, g)
  expect_identical(read_qrels(g)$rel, q$rel)
  # data frames: the same range, naming the row
  for (v in list(-2147483648, NA_integer_)) {
    d <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1, 0))
    d$rel[2] <- v
    err <- expect_error(evaluate(run, d, "AP"), class = "irtopics_error_parse")
    expect_identical(err$row, 2L)
  }
})

test_that("gains maps and label agreement refuse fractional grades with classed errors", {
  expect_error(evaluate(frac_run_df(), frac_qrels_df(), "nDCG", gains = c("1" = 3)),
               class = "irtopics_error_data")
  expect_error(compare_qrels(frac_qrels_df(), frac_qrels_df()), "fractional grades",
               class = "irtopics_error_data")
})

test_that("the measure record says how a measure reads the grades", {
  expect_identical(measure_info("nDCG@10")$relevance, "graded")
  expect_identical(measure_info("ERR@20")$relevance, "graded")
  expect_identical(measure_info("AP")$relevance, "binary")
  expect_identical(measure_info("P@10")$relevance, "binary")
  expect_identical(measure_info("NumRet")$relevance, "none")
  expect_identical(custom_measure("x")$relevance, NA_character_)
  # every record has one of the three
  rel <- vapply(measure_rows(), `[[`, "", "relevance")
  expect_true(all(rel %in% c("binary", "graded", "none")))
  # graded measures take no per-measure threshold
  takes_rel <- vapply(measure_rows(), `[[`, TRUE, "rel")
  expect_false(any(takes_rel[rel == "graded"]))
})

test_that("read_labels() reads a judge's probabilities as fractional grades that evaluate() takes", {
  q <- frac_qrels_df()
  f <- tempfile(fileext = ".tsv")
  writeLines(c("query_id\tdoc_id\tprob\tmodel", paste(q$topic, q$docno, q$rel, "llm", sep = "\t")), f)
  labels <- read_labels(f, columns = c(topic = "query_id", docno = "doc_id", rel = "prob"), header = TRUE,
                        sep = "\t")
  expect_identical(labels$rel, q$rel)
  ms <- c("nDCG", "P@5", "ERR")
  expect_identical(unclass(evaluate(frac_run_df(), labels, ms, relevance_level = 0.5)),
                   unclass(evaluate(frac_run_df(), q, ms, relevance_level = 0.5)), ignore_attr = TRUE)
})
