# Judged-only evaluation (trec_eval -J; src/judged_only.h): every value of
# trec_eval 10's -J output, on its own test collection and on a small
# collection of ours (tests/testthat/fixtures/trec_eval-J/README.md).

j_data <- function(name) test_path("fixtures", "trec_eval-J", name)

test_that("judged_only = TRUE matches trec_eval -J -q -m all_trec on its test collection", {
  n <- expect_trec_eval_parity("out.test.Jaq", "results.test", "qrels.test", judged_only = TRUE,
                               dir = "trec_eval-J")
  expect_gt(n, 350)
  # -J changes the numbers: the test would fail on an evaluation without it
  exp <- read_trec_eval_output(j_data("out.test.Jaq"))
  plain <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = "num_ret")
  expect_false(identical(sprintf("%d", as.integer(plain$NumRet[1, "301"])),
                         exp$value[exp$measure == "num_ret" & exp$topic == "301"]))
})

test_that("judged_only = TRUE matches trec_eval -J with -c -M100 and with -l2", {
  n <- expect_trec_eval_parity("out.test.JaqcM", "results.trunc", "qrels.test", judged_only = TRUE,
                               missing = "zero", depth = 100, dir = "trec_eval-J", empty_nan = TRUE)
  expect_gt(n, 350)
  n <- expect_trec_eval_parity("out.test.Jaql", "results.test", "qrels.rel_level", judged_only = TRUE,
                               relevance_level = 2, dir = "trec_eval-J")
  expect_gt(n, 350)
})

test_that("judged_only = TRUE matches trec_eval -J (official measures, no -q)", {
  n <- expect_trec_eval_parity("out.test.J", "results.test", "qrels.test", judged_only = TRUE,
                               dir = "trec_eval-J")
  expect_gt(n, 25)
})

test_that("-J on an empty judged list, unjudged pool documents and a depth cut before the filter", {
  for (case in list(list("out.J.Jaq", "qrels.J"), list("out.J.JaqM3", "qrels.J", depth = 3),
                    list("out.J.Jaqc", "qrels.Jc", missing = "zero"))) {
    args <- c(list(case[[1]], "results.J", case[[2]], judged_only = TRUE, dir = "trec_eval-J", data = j_data,
                   empty_nan = TRUE), case[-(1:2)])
    expect_gt(do.call(expect_trec_eval_parity, args), 250)
  }
  # by hand: topic 1 ranks x (unpooled), a (1), d (-1), y, c (2), b (0); judged: a, c, b
  res <- evaluate(j_data("results.J"), j_data("qrels.J"), measures = c("NumRet", "AP", "P@2", "RR"),
                  judged_only = TRUE)
  expect_equal(res$NumRet[1, ], c("1" = 3, "2" = 0, "3" = 1))
  expect_equal(res$AP[1, "1"], (1 + 2 / 2) / 3)  # relevant a, c at ranks 1, 2 of 3 relevant (a, c, g)
  expect_equal(res$`P@2`[1, "1"], 1)
  expect_equal(res$RR[1, "2"], 0)  # an empty list still answers the topic
  # where trec_eval -J prints -nan (0/0 on an empty list), the empty ranking's 0
  ip <- evaluate(j_data("results.J"), j_data("qrels.J"), measures = c("IPrec@0", "11pt_avg"), judged_only = TRUE)
  expect_identical(unname(c(ip$`IPrec@0`[1, "2"], ip$`11pt_avg`[1, "2"])), c(0, 0))
  expect_true(attr(res, "judged_only"))
  # depth cuts first: the top 3 (x, a, d) hold one judged document
  cut <- evaluate(j_data("results.J"), j_data("qrels.J"), measures = "NumRet", judged_only = TRUE, depth = 3)
  expect_equal(cut$NumRet[1, "1"], 1)
})

test_that("per measure: ir_measures' (judged_only=True) next to the full ranking in one evaluation", {
  both <- evaluate(te_data("results.test"), te_data("qrels.test"),
                   measures = c("nDCG@10", "nDCG(judged_only=True)@10", "AP", "AP(judged_only=True)", "P@5"))
  j <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("nDCG@10", "AP"),
                judged_only = TRUE)
  plain <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("nDCG@10", "AP", "P@5"))
  expect_identical(unclass(both$`nDCG(judged_only=True)@10`)[, ], unclass(j$`nDCG@10`)[, ])
  expect_identical(unclass(both$`AP(judged_only=True)`)[, ], unclass(j$AP)[, ])
  expect_identical(both$`nDCG@10`, plain$`nDCG@10`)
  expect_identical(both$`P@5`, plain$`P@5`)
  expect_false(isTRUE(all.equal(unclass(both$AP)[, ], unclass(both$`AP(judged_only=True)`)[, ])))
  expect_false(attr(both, "judged_only"))
})

test_that("the spellings of judged_only resolve to one canonical name", {
  expect_identical(measure_name(c("nDCG(judged_only=True)@10", "ndcg@10(judged_only)", "nDCG(judged_only)@10",
                                  "ndcg_cut_10", "nDCG(judged_only=False)@10")),
                   c(rep("nDCG(judged_only=True)@10", 3), "nDCG@10", "nDCG@10"))
  expect_identical(measure_name("P(rel=2,judged_only=1)@5"), "P(rel=2,judged_only=True)@5")
  # trec_eval has no per-measure -J: no trec_eval name
  expect_identical(trec_eval_measure_name("AP(judged_only=True)"), NA_character_)
  expect_identical(measure_info("P(judged_only=True)@10")$parameters, list(cutoff = 10, judged_only = TRUE))
  expect_error(measure_name("nDCG(judged_only=maybe)@10"), "judged_only", class = "irtopics_error_measure")
  expect_error(measure_name("nDCG(judged_only)@10(judged_only)"), "twice", class = "irtopics_error_measure")
  expect_error(measure_name("nDCG(judged_only,judged_only=0)@10"), "twice", class = "irtopics_error_measure")
  expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), judged_only = NA),
               "judged_only", class = "irtopics_error_argument")
})

test_that("custom measures get the judged documents only under judged_only = TRUE", {
  count <- function(grades, n_rel) length(grades)
  res <- evaluate(j_data("results.J"), j_data("qrels.J"), measures = list("NumRet", n = count),
                  judged_only = TRUE)
  expect_equal(unclass(res$n)[1, ], unclass(res$NumRet)[1, ])
  res <- evaluate(j_data("results.J"), j_data("qrels.J"), measures = list(n = count))
  expect_equal(unclass(res$n)[1, ], c("1" = 6, "2" = 2, "3" = 1))
})

test_that("judged-only values are the same with 1 and 2 threads", {
  runs <- file.path(tempdir(), c("j1.txt", "j2.txt", "j3.txt"))
  file.copy(te_data(c("results.test", "results.trunc", "results.test")), runs, overwrite = TRUE)
  m <- c("AP", "nDCG(judged_only=True)@10", "P@5")
  one <- evaluate(runs, te_data("qrels.test"), measures = m, name = "file", n_threads = 1, judged_only = TRUE)
  two <- evaluate(runs, te_data("qrels.test"), measures = m, name = "file", n_threads = 2, judged_only = TRUE)
  expect_identical(one, two)
})
