# match_choice(): match.arg() with a classed error, used by every function
# that takes one of a set of strings.

test_that("match_choice() takes the first choice by default and refuses other values with a class", {
  f <- function(type = c("a", "bb", "ccc")) match_choice(type)
  expect_identical(f(), "a")
  expect_identical(f("bb"), "bb")
  err <- expect_error(f("zz"), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "`type` must be one of \"a\", \"bb\", \"ccc\"", fixed = TRUE)
  expect_error(f(c("a", "bb")), class = "irtopics_error_argument")
  expect_error(f(NA_character_), class = "irtopics_error_argument")
  expect_error(f(1), class = "irtopics_error_argument")
})

test_that("the functions that used match.arg() give irtopics_error_argument for a bad choice", {
  te <- function(f) system.file("extdata", "trec_eval-test", f, package = "irtopics")
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")[1:4, 1:10]
  cmp <- compare_systems(ap, test = "t")
  bad <- function(expr, arg) {
    err <- expect_error(expr, class = "irtopics_error_argument")
    expect_match(conditionMessage(err), sprintf("`%s` must be one of", arg), fixed = TRUE)
  }
  bad(format(cmp, format = "html"), "format")
  bad(ggplot2::autoplot(cmp, type = "pie"), "type")
  bad(evaluate(te("results.test"), te("qrels.test"), measures = "AP", missing = "keep"), "missing")
  bad(evaluate(te("results.test"), te("qrels.test"), measures = "AP", name = "path"), "name")
  bad(return_orders(te("results.test"), te("qrels.test"), name = "path"), "name")
  bad(read_run(te("results.test"), name = "path"), "name")
  bad(read_runs(te("results.test"), name = "path"), "name")
  bad(gmean_scores(ap, method = "mul"), "method")
  bad(gmap(c(0.1, 0.2), method = "mul"), "method")
  bad(resample_draws("coins", key = 1, n = 3), "kind")
  # and the defaults still resolve to the first choice
  expect_identical(attr(evaluate(te("results.test"), te("qrels.test"), measures = "AP"), "missing"), "drop")
  expect_identical(format(cmp), format(cmp, format = "plain"))
})
