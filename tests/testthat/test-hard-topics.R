# The official TREC 2003 Robust hard-topic list shipped in inst/extdata
# (provenance in inst/extdata/README.md), checked against Voorhees (2004),
# Table 3: hard-set MAP of the title-only runs.

test_that("the hard-topic list has the 50 official topics", {
  path <- system.file("extdata", "robust2003_hard_topics.txt", package = "irtopics")
  hard <- scan(path, quiet = TRUE)
  expect_length(hard, 50L)
  expect_false(anyDuplicated(hard) > 0)
  expect_true(all(hard >= 301 & hard <= 450))
  expect_true(346 %in% hard)
  expect_false(405 %in% hard)
})

test_that("with it, the hard-set MAPs of Table 3 agree with the paper to 0.001", {
  f <- function(x) system.file("extdata", x, package = "irtopics")
  ap <- read_scores(f("score-matrices/robust2004_ap.csv"), measure = "AP")
  hard <- scan(f("robust2003_hard_topics.txt"), quiet = TRUE)
  rs <- robust_summary(ap, topic_sets = list(old = c(301:450, 601:650), new = 651:700,
                                             hard = hard))
  w <- as.data.frame(rs, wide = TRUE)
  paper <- data.frame(
    old = c(.317, .298, .305, .296, .278, .272, .255, .244, .239, .225),
    new = c(.401, .351, .325, .322, .299, .298, .271, .290, .270, .255),
    hard = c(.183, .145, .194, .136, .136, .136, .116, .115, .113, .083),
    all = c(.333, .309, .309, .301, .282, .277, .258, .253, .245, .231))
  # runs are anonymised: match each paper run by its (old, new, all) MAP
  idx <- vapply(seq_len(nrow(paper)), function(i) {
    which.min((w$MAP.old - paper$old[i])^2 + (w$MAP.new - paper$new[i])^2 +
                (w$MAP.all - paper$all[i])^2)
  }, 1L)
  expect_false(anyDuplicated(idx) > 0)
  expect_lte(max(abs(w$MAP.hard[idx] - paper$hard)), 0.001)
  # nine of ten equal at the printed precision
  expect_gte(sum(abs(w$MAP.hard[idx] - paper$hard) <= 0.0005), 9L)
})
