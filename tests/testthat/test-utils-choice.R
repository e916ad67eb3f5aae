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

# Names users type (R/utils-choice.R): one "Did you mean" for measures,
# systems and topics.

test_that("closest_names() prefers names containing the typed one, then few edits", {
  known <- c("input.uwmt6a0", "input.uwmt6a1", "input.CL99XT", "input.Flab8as", "run12")
  expect_identical(irtopics:::closest_names("uwmt6a0", known)[1], "input.uwmt6a0")
  expect_identical(irtopics:::closest_names("run21", known), "run12")  # 2 edits
  expect_identical(irtopics:::closest_names("zz", known), character())   # nothing close
  expect_identical(irtopics:::closest_names("RUN12", known), "run12")
  expect_identical(irtopics:::closest_names(NA_character_, known), character())
  expect_identical(utils::adist("run21", "run12")[1, 1], 2)  # the reference distance
})

test_that("a mistyped system name gets a did-you-mean in every systems argument", {
  ap <- as_ir_scores(rbind(bm25 = c(.5, .4, .3, .6), dirichlet = c(.4, .5, .2, .6),
                           splade = c(.7, .6, .5, .9)), measure = "AP")
  colnames(ap) <- paste0("t", 1:4)
  expect_error(compare_systems(ap, baseline = "bm52"), "Did you mean \"bm25\"",
               class = "irtopics_error_argument")
  expect_error(compare_systems(ap, baseline = "BM25"), "Did you mean \"bm25\"",
               class = "irtopics_error_argument")
  err <- expect_error(compare_systems(ap, baseline = "xyz"), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "The 3 systems are")
  expect_error(subset_systems(ap, c("splade", "dirichet")), "Did you mean \"dirichlet\"")
  expect_error(ggplot2::autoplot(ap, systems = "splad"), "Did you mean \"splade\"")
  expect_error(topic_set_size(pilot = ap, systems = c("bm25", "splde"), min_diff = 0.1),
               "Did you mean \"splade\"")
  expect_error(standardize_scores(ap, reference = "bm2"), "Did you mean \"bm25\"")
  cmp <- compare_systems(ap, correction = "none")
  expect_error(ggplot2::autoplot(cmp, type = "topics", pair = c("bm25", "spalde")),
               "Did you mean \"splade\"")
})
