test_that("trec_runs describes every system of the adhoc6/7/8 matrices", {
  runs <- trec_runs()
  expect_named(runs, c("collection", "system", "run", "participant", "type", "map", "lee2009_subset"))
  for (k in 6:8) {
    col <- sprintf("adhoc%d", k)
    r <- trec_runs(col)
    ap <- unclass(real_scores(sprintf("adhoc%d_ap.csv", k)))
    expect_equal(r$system, rownames(ap))
    # Matched by MAP: every system's mean AP is its run's official MAP.
    expect_lt(max(abs(rowMeans(ap) - r$map)), 6e-5)
    expect_setequal(unique(r$type), c("automatic", "manual"))
  }
  counts <- tapply(runs$lee2009_subset, runs$collection, sum)
  expect_equal(as.vector(counts), c(56, 86, 116))
  auto <- tapply(runs$type == "automatic", runs$collection, sum)
  expect_equal(as.vector(auto), c(57, 86, 116))
  # TREC-6: the automatic runs without nmsu1.
  r6 <- trec_runs("adhoc6")
  expect_equal(r6$run[r6$type == "automatic" & !r6$lee2009_subset], "nmsu1")
  expect_error(trec_runs("adhoc9"), class = "irtopics_error_argument")
  expect_error(trec_runs(7), class = "irtopics_error_argument")
})

test_that("subset_systems selects by condition, name or logical, and keeps the class", {
  ap7 <- real_scores("adhoc7_ap.csv")
  runs <- trec_runs("adhoc7")
  auto <- subset_systems(ap7, type == "automatic", runs = runs)
  expect_s3_class(auto, "ir_scores")
  expect_equal(attr(auto, "measure"), "AP")
  expect_equal(rownames(auto), runs$system[runs$type == "automatic"])
  expect_equal(unclass(auto)[, 5], unclass(ap7)[runs$type == "automatic", 5])
  # A previously subset matrix can be subset again.
  expect_equal(nrow(subset_systems(auto, participant == "okapi", runs = runs)),
               sum(runs$participant == "okapi" & runs$type == "automatic"))
  two <- subset_systems(ap7, c("run5", "run1"))
  expect_equal(rownames(two), c("run1", "run5"))
  expect_equal(nrow(subset_systems(ap7, rep(c(TRUE, FALSE), length.out = nrow(ap7)))), 52)
  m <- matrix(1:6 / 10, 3, dimnames = list(c("a", "b", "c"), c("t1", "t2")))
  expect_equal(subset_systems(m, c("a", "c")), m[c("a", "c"), , drop = FALSE])
})

test_that("subset_systems rejects mismatched metadata and bad selections", {
  ap7 <- real_scores("adhoc7_ap.csv")
  # adhoc8's metadata has the same system names but other MAPs.
  expect_error(subset_systems(ap7, type == "automatic", runs = trec_runs("adhoc8")),
               class = "irtopics_error_data")
  # adhoc6's metadata lacks run75..run103.
  expect_error(subset_systems(ap7, type == "automatic", runs = trec_runs("adhoc6")),
               class = "irtopics_error_data")
  expect_error(subset_systems(ap7, "nope"), class = "irtopics_error_argument")
  expect_error(subset_systems(ap7, c(TRUE, FALSE)), class = "irtopics_error_argument")
  expect_error(subset_systems(ap7, 1:3), class = "irtopics_error_argument")
  expect_error(subset_systems(ap7, type, runs = trec_runs("adhoc7")), class = "irtopics_error_argument")
  expect_error(subset_systems(ap7, type == "none", runs = trec_runs("adhoc7")), class = "irtopics_error_data")
  expect_error(subset_systems(ap7, TRUE, runs = data.frame(x = 1)), class = "irtopics_error_argument")
})
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
