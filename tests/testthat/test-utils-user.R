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
