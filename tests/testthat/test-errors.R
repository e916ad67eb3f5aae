# Values shown in messages (R/errors.R): a user's number or string as itself,
# anything larger by class and size, never printed whole.

big_scores <- function() {
  as_ir_scores(matrix(seq(0, 1, length.out = 600), 20, dimnames = list(paste0("s", 1:20), paste0("t", 1:30))),
               measure = "AP")
}

test_that("show_value() names objects by class and size", {
  expect_identical(irtopics:::show_value(0.5), "0.5")
  expect_identical(irtopics:::show_value("holm"), "\"holm\"")
  expect_identical(irtopics:::show_value(big_scores()), "an <ir_scores> (20 x 30)")
  expect_identical(irtopics:::show_value(data.frame(a = 1:3)), "a <data.frame> (3 x 1)")
  expect_identical(irtopics:::show_value(list(1, 2)), "a <list> (length 2)")
  expect_identical(irtopics:::show_value(1:4), "an <integer> (length 4)")
  expect_identical(irtopics:::show_value(mean), "a function")
  expect_identical(irtopics:::show_values(c(0.1, 0.2)), "0.1, 0.2")
  expect_identical(irtopics:::show_values(1:10), "an <integer> (length 10)")
})

test_that("an ir_scores where a number or a name is expected is named, not printed", {
  ap <- big_scores()
  for (expr in list(quote(compare_systems(ap, alpha = ap)), quote(compare_systems(ap, B = ap)),
                    quote(compare_systems(ap, correction = ap)), quote(robust_summary(ap, eps = ap)),
                    quote(topic_difficulty(ap, by = ap)), quote(g_study(ap, drop = ap)))) {
    err <- expect_error(eval(expr), class = "irtopics_error_argument")
    msg <- conditionMessage(err)
    expect_match(msg, "<ir_scores> (20 x 30)", fixed = TRUE)
    expect_false(grepl("0.0017", msg, fixed = TRUE))  # a value of the matrix
    expect_lt(nchar(msg), 400)
  }
})
