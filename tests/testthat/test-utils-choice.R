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

test_that("no function of R/ calls match.arg(): every choice is matched by match_choice() (a classed error)", {
  src <- package_source_lines()
  lines <- src$lines
  code <- src$code
  expect_identical(lines[grepl("match[.]arg\\(", code)], character())
  # the two internal functions that called it refuse a bad choice with the class
  expect_error(irtopics:::margin_family("x", type = "both", label = "x", fit = identity, df = identity),
               "type", class = "irtopics_error_argument")
  expect_error(irtopics:::bca_levels(0, c(-1, 1), numeric(), 0.5, ties = "none"), "ties",
               class = "irtopics_error_argument")
})
