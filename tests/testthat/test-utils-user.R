# The user-function boundary (R/utils-user.R): every function a user passes
# in fails as an irtopics_error_user naming where it was called, with the
# user's error as parent, and a wrong answer is refused before it is used.

test_that("call_user() wraps errors and checks answers", {
  call_user <- irtopics:::call_user
  expect_identical(call_user(function(a, b) a + b, list(1, 2), "f"), 3)
  err <- expect_error(call_user(function() stop("inner problem"), list(), "My function",
                                where = list(system = "s1", topic = "301")),
                      class = "irtopics_error_user")
  expect_s3_class(err$parent, "simpleError")
  expect_identical(conditionMessage(err$parent), "inner problem")
  expect_match(conditionMessage(err), 'My function failed (system "s1", topic "301")', fixed = TRUE)
  # the old kind stays on the class vector
  err <- expect_error(call_user(function() stop("x"), list(), "f", kind = "test"), class = "irtopics_error_test")
  expect_s3_class(err, "irtopics_error_user")
  expect_error(call_user(function() 1:2, list(), "f"), "must return one number", class = "irtopics_error_user")
  expect_error(call_user(function() "a", list(), "f"), "must return one number", class = "irtopics_error_user")
  expect_error(call_user(function() c(1, NA), list(), "f", check = "numbers", n = 2L, finite = TRUE),
               "2 finite numbers", class = "irtopics_error_user")
  expect_identical(call_user(function() c(1L, 2L), list(), "f", check = "numbers", n = 2L), c(1, 2))
  expect_identical(call_user(function() "ok", list(), "f", check = NULL), "ok")
  expect_error(call_user(function() 5, list(), "f", check = function(v) if (v > 1) "a value in [0, 1]"),
               "must return a value in \\[0, 1\\]", class = "irtopics_error_user")
  # warnings from user code are not swallowed
  expect_warning(call_user(function() { warning("careful"); 1 }, list(), "f"), "careful")
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

test_that("GAWM components, swap aggregates, indicators and tests all cross the boundary", {
  ap <- real_scores("adhoc8_ap.csv")[1:6, 1:12]
  err <- expect_error(gawm(ap, dispersion = function(x, center) stop("no dispersion")),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), "`dispersion` failed (topic", fixed = TRUE)
  expect_identical(conditionMessage(err$parent), "no dispersion")
  err <- expect_error(gawm(ap, proximity = function(scores, ease) stop("no proximity")),
                      class = "irtopics_error_user")
  expect_identical(conditionMessage(err$parent), "no proximity")
  err <- expect_error(gawm(ap, mean = function(x, w) stop("no mean")), class = "irtopics_error_user")
  expect_s3_class(err, "irtopics_error_argument")
  # swap aggregates: failing on a later system, not only on the probe
  fails_late <- function(v) if (sum(v) < 0.5) stop("small sum") else mean(v)
  err <- expect_error(swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = fails_late),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), "`aggregate` failed (system", fixed = TRUE)
  wrong_late <- function(v) if (sum(v) < 0.5) c(1, 2) else mean(v)
  expect_error(swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = wrong_late),
               "must return one number", class = "irtopics_error_user")
  # indicators
  sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300, depth = 200, seed = 3)
  err <- expect_error(topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                                       indicators = list(bad = function(context) stop("no indicator"))),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), 'Indicator "bad" failed (topic "', fixed = TRUE)
  expect_error(topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                                indicators = list(bad = function(context) 1:3)),
               "must return one number", class = "irtopics_error_data")
  # custom tests
  err <- expect_error(compare_systems(ap[1:3, ], test = function(x, y) stop("boom")),
                      class = "irtopics_error_test")
  expect_s3_class(err, "irtopics_error_user")
  expect_match(conditionMessage(err), 'The test function failed (system1 "', fixed = TRUE)
  expect_error(compare_systems(ap[1:3, ], test = function(x, y) 2), "p-value in \\[0, 1\\]",
               class = "irtopics_error_user")
})

test_that("a seed fixes what a custom test draws, and leaves the user's stream alone", {
  ap <- real_scores("adhoc8_ap.csv")[1:4, 1:20]
  draw_test <- function(x, y) mean(sample(c(0, 1), 20, replace = TRUE))
  set.seed(99)
  before <- runif(1)
  set.seed(99)
  a <- compare_systems(ap, test = draw_test, seed = 42)
  after <- runif(1)
  b <- compare_systems(ap, test = draw_test, seed = 42)
  expect_identical(a$table$p.value, b$table$p.value)
  expect_identical(after, before)  # the call did not consume the user's stream
  c <- compare_systems(ap, test = draw_test, seed = 7)
  expect_false(identical(a$table$p.value, c$table$p.value))
})
