ex_ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
ex_p10 <- c(0, .1, .2, .5, .6, 0, .9, 0, .3, .1, .7, .2)

test_that("the spec's worked example (section 2.5)", {
  rs <- robust_summary(matrix(ex_ap, 1), matrix(ex_p10, 1))
  t <- rs$table
  expect_equal(t$MAP, 0.2341666667, tolerance = 1e-9)
  expect_equal(t$P10, 0.3)
  expect_equal(t$pct_no, 25)
  expect_equal(t$area, 0.002222222222, tolerance = 1e-9)
  expect_equal(t$GMAP, 0.0316370627, tolerance = 1e-9)
  expect_equal(robust_summary(matrix(ex_ap, 1), gmean_method = "floor")$table$GMAP, 0.03164378155, tolerance = 1e-9)
  expect_equal(robust_summary(matrix(ex_ap, 1), eps = 1e-4, gmean_method = "replace0")$table$GMAP,
               0.04644671938, tolerance = 1e-9)
  expect_true(is.na(robust_summary(matrix(c(.1, .2, .3), 1))$table$area))
})

test_that("topic sets on the Robust 2004 matrix agree with base R", {
  f <- function(x) system.file("extdata", "score-matrices", x, package = "irtopics")
  ap <- read_scores(f("robust2004_ap.csv"), measure = "AP")
  p10 <- read_scores(f("robust2004_p10.csv"), measure = "P@10")
  sets <- list(old = c(301:450, 601:650), new = 651:700)
  rs <- robust_summary(ap, p10, topic_sets = sets)
  expect_equal(levels(rs$table$topic_set), c("all", "old", "new"))
  expect_equal(vapply(rs$topic_sets, length, 1L), c(all = 249L, old = 200L, new = 49L))
  new <- rs$table[rs$table$topic_set == "new", ]
  cols <- colnames(ap) %in% as.character(651:700)
  expect_equal(new$MAP, unname(rowMeans(unclass(ap)[, cols])))
  expect_equal(new$pct_no, unname(100 * rowMeans(unclass(p10)[, cols] == 0)))
  one <- unclass(ap)[5, cols]
  w <- sort(one)[1:12]
  expect_equal(new$area[5], mean(cumsum(w) / 1:12))
  expect_equal(new$GMAP[5], exp(mean(log(one + 1e-5))) - 1e-5)
  wide <- as.data.frame(rs, wide = TRUE)
  expect_equal(nrow(wide), 110)
  expect_false(is.unsorted(-wide$MAP.all))
  expect_true(all(c("MAP.old", "GMAP.new", "pct_no.all") %in% names(wide)))
  # the best run's all-topic MAP, as in the paper's Table 7 (pircRB04td2, 0.359)
  expect_equal(round(max(wide$MAP.all), 3), 0.359)
  expect_output(print(rs), "robust_summary")
  expect_s3_class(as.data.frame(summary(rs)), "data.frame")
})

test_that("P@10 is matched by name and bad inputs give classed errors", {
  ap <- matrix(c(.1, .2, .3, .4, 0, .5), 2, dimnames = list(c("a", "b"), c("1", "2", "3")))
  p10 <- ap[2:1, 3:1]
  rs <- robust_summary(ap, p10)
  expect_equal(rs$table$P10, unname(rowMeans(ap)))
  expect_error(robust_summary(ap, p10[, 1:2]), class = "irtopics_error_argument")
  expect_error(robust_summary(ap, topic_sets = list(x = 10:20)), class = "irtopics_error_data")
  expect_error(robust_summary(ap, topic_sets = list(1:2)), class = "irtopics_error_argument")
  expect_error(robust_summary(ap, topic_sets = list(all = 1)), class = "irtopics_error_argument")
  bad <- ap; bad[1, 1] <- NA
  expect_error(robust_summary(bad), class = "irtopics_error_data")
  expect_error(robust_summary(-ap), class = "irtopics_error_data")
  expect_error(robust_summary("x"), class = "irtopics_error_argument")
})

test_that("area_divisor divides the sum of MAP(X) by a fixed number", {
  # Worked example: T = 12, Q = 3, MAP(1..3) = 0, 0, 0.02 / 3.
  rs <- robust_summary(matrix(ex_ap, 1), area_divisor = 12)
  expect_equal(rs$table$area, (0 + 0 + 0.02 / 3) / 12, tolerance = 1e-12)
  expect_equal(rs$table$area, robust_summary(matrix(ex_ap, 1))$table$area * 3 / 12, tolerance = 1e-12)
  expect_equal(rs$area_divisor, 12)
  expect_error(robust_summary(matrix(ex_ap, 1), area_divisor = -1), class = "irtopics_error_argument")
})
