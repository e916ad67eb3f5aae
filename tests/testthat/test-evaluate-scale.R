# Scale-out of evaluate() over the workers of a future plan.

scale_runs <- function() {
  # six run files: the trec_eval test run and five reshuffled copies
  run <- as.data.frame(read_run(te_data("results.test")))
  dir <- tempfile("runs")
  dir.create(dir)
  set.seed(11)
  for (k in 1:6) {
    r <- run
    if (k > 1) r$score <- sample(r$score)
    r$system <- paste0("sys", k)
    write_run(r, file.path(dir, paste0("run", k, if (k %% 2) ".gz" else ".txt")))
  }
  dir
}

scale_measures <- c("AP", "P@10", "nDCG@10", "infAP", "IPrec@0.5", "NumRelRet")

test_that("a forked future plan gives the in-process results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  dir <- scale_runs()
  qrels <- read_qrels(te_data("qrels.test"))
  ref <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  expect_identical(evaluate(dir, te_data("qrels.test"), measures = scale_measures), ref)
  # qrels as a data frame travel with the futures
  expect_identical(evaluate(dir, qrels, measures = scale_measures), ref)
  # input errors from a worker keep their class
  bad <- file.path(dir, "run9.txt")
  writeLines("301 Q0 d1 1 x tag", bad)
  expect_error(evaluate(dir, te_data("qrels.test"), measures = "AP"), class = "irtopics_error_parse")
})

test_that("chunks of run files under plan(multisession, workers = 2) give identical results", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  # the workers load the installed irtopics: skip when testing a source tree
  # loaded with pkgload (runs under R CMD check)
  skip_if(isNamespaceLoaded("pkgload") && pkgload::is_dev_package("irtopics"))
  dir <- scale_runs()
  ref <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(irtopics:::use_future())
  res <- evaluate(dir, te_data("qrels.test"), measures = scale_measures)
  expect_identical(res, ref)
  expect_identical(rownames(res$AP), paste0("sys", 1:6))
})

test_that("relative run paths reach multisession workers as absolute paths", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if(isNamespaceLoaded("pkgload") && pkgload::is_dev_package("irtopics"))
  dir <- scale_runs()
  ref <- evaluate(dir, te_data("qrels.test"), measures = "AP")
  withr::local_dir(dir)
  rel <- sort(list.files("."))
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  res <- evaluate(rel, te_data("qrels.test"), measures = "AP")
  expect_identical(res$AP, ref$AP)
})
