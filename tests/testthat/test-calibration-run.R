# test_calibration(): the trial loop against base R's tests on the very
# simulated data, reproducibility, the rates, errors, methods and plots.

# The simulated (b, e) of the trials of one setting, as the loop drew them.
cal_draws <- function(cal, setting, count) {
  grid <- calibration_settings(cal$model, cal$n_topics, cal$delta, cal$closest)
  g <- grid$grid[setting + 1L, ]
  power <- if (g$delta_index > 0L) grid$designs[[g$delta_index]] else NULL
  cpp_calibration_draw(flat_model(cal$model), g$n_topics, power, setting, cal$seed, 0, count, 1L)
}

test_that("t, Wilcoxon and sign p-values equal t.test(), wilcox.test() and binom.test() on every trial", {
  cal <- test_calibration(cal_model(), n_topics = c(12, 60), delta = 0.03, trials = 150, B = 100,
                          seed = 11, keep_trials = TRUE, progress = FALSE)
  tr <- cal$trials_data
  grid <- calibration_settings(cal$model, cal$n_topics, cal$delta, cal$closest)$grid
  for (s in grid$setting) {
    g <- grid[s + 1L, ]
    d <- cal_draws(cal, s, 150)
    rows <- tr[tr$n_topics == g$n_topics & tr$delta == g$delta, ]
    ref <- t(vapply(seq_len(150), function(r) {
      b <- d$b[, r]
      e <- d$e[, r]
      diff <- e - b
      pos <- sum(diff > 0.01)
      n_s <- sum(abs(diff) > 0.01)
      c(t2 = t.test(e, b, paired = TRUE)$p.value,
        t1 = t.test(e, b, paired = TRUE, alternative = "greater")$p.value,
        w2 = suppressWarnings(wilcox.test(e, b, paired = TRUE)$p.value),
        w1 = suppressWarnings(wilcox.test(e, b, paired = TRUE, alternative = "greater")$p.value),
        s2 = if (n_s) binom.test(pos, n_s)$p.value else NA,
        s1 = if (n_s) binom.test(pos, n_s, alternative = "greater")$p.value else NA,
        mean = mean(e - b))
    }, numeric(7)))
    pick <- function(test, col) rows[rows$test == test, col][order(rows$trial[rows$test == test])]
    expect_equal(pick("t", "p.value"), unname(ref[, "t2"]), tolerance = 1e-12)
    expect_equal(pick("t", "p.one_sided"), unname(ref[, "t1"]), tolerance = 1e-12)
    expect_equal(pick("wilcoxon", "p.value"), unname(ref[, "w2"]), tolerance = 1e-12)
    expect_equal(pick("wilcoxon", "p.one_sided"), unname(ref[, "w1"]), tolerance = 1e-12)
    expect_equal(pick("sign", "p.value"), unname(ref[, "s2"]), tolerance = 1e-12)
    expect_equal(pick("sign", "p.one_sided"), unname(ref[, "s1"]), tolerance = 1e-12)
    expect_equal(pick("t", "mean_diff"), unname(ref[, "mean"]), tolerance = 1e-14)
  }
  # the small sets use the exact Wilcoxon distribution, the large ones the
  # normal approximation: both branches were compared
  expect_true(any(grid$n_topics < 50) && any(grid$n_topics >= 50))
})

test_that("the study's bootstrap and permutation p-values agree with exact and base-R references within Monte Carlo error", {
  cal <- test_calibration(cal_model(), tests = c("bootstrap_2019", "permutation_2019"), n_topics = 9, delta = NULL,
                          trials = 12, B = 20000, seed = 3, keep_trials = TRUE, progress = FALSE)
  d <- cal_draws(cal, 0, 12)
  tr <- cal$trials_data
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), 9)))
  for (r in seq_len(12)) {
    diff <- d$e[, r] - d$b[, r]
    obs <- sum(diff)
    flips <- signs %*% diff
    exact2 <- mean(abs(flips) >= abs(obs) - 1e-9)
    exact1 <- mean(flips >= obs - 1e-9)
    row <- tr[tr$test == "permutation_2019" & tr$trial == r - 1, ]
    se <- sqrt(exact2 * (1 - exact2) / 20000)
    expect_lt(abs(row$p.value - exact2), 4 * se + 1e-9)
    expect_lt(abs(row$p.one_sided - exact1), 4 * sqrt(exact1 * (1 - exact1) / 20000) + 1e-9)
    # bootstrap: the same definition in base R with R's generator
    set.seed(r)
    means <- colMeans(matrix(sample(diff, 9 * 20000, replace = TRUE), 9))
    z <- means - mean(means)
    ref2 <- mean(abs(z) >= abs(mean(diff)))
    row <- tr[tr$test == "bootstrap_2019" & tr$trial == r - 1, ]
    expect_lt(abs(row$p.value - ref2), 5 * sqrt(max(ref2 * (1 - ref2), 1e-4) / 20000) * sqrt(2))
  }
})

test_that("rates are the shares of the trials' p-values, with their Monte Carlo standard errors", {
  cal <- test_calibration(cal_model(), n_topics = 20, delta = 0.04, trials = 400, B = 200, seed = 8,
                          keep_trials = TRUE, progress = FALSE)
  tr <- cal$trials_data
  tab <- as.data.frame(cal)
  for (test in cal$tests) {
    p0 <- tr$p.value[tr$test == test & tr$delta == 0]
    r <- tab[tab$test == test & tab$error == "type1" & tab$alpha == 0.05 & tab$alternative == "two.sided", ]
    expect_equal(r$rate, sum(p0 <= 0.05, na.rm = TRUE) / 400)
    expect_equal(r$se, sqrt(r$rate * (1 - r$rate) / 400))
    sel <- tr$test == test & tr$delta == 0.04
    pw <- tab[tab$test == test & tab$error == "power" & tab$alpha == 0.05 & tab$alternative == "two.sided", ]
    expect_equal(pw$rate, sum(tr$p.value[sel] <= 0.05, na.rm = TRUE) / 400)
    t2 <- tab[tab$test == test & tab$error == "type2" & tab$alpha == 0.05 & tab$alternative == "two.sided", ]
    expect_equal(t2$rate, 1 - pw$rate)
    t3 <- tab[tab$test == test & tab$error == "type3" & tab$alpha == 0.05, ]
    expect_equal(t3$rate, sum(tr$p.value[sel] <= 0.05 & tr$mean_diff[sel] < 0, na.rm = TRUE) / 400)
  }
  # the power trials' pairs: a bottom-75% baseline, a candidate among the 10 closest
  mu <- vapply(cal$model$collections[[1]]$margins, `[[`, 0, "mean")
  top <- names(sort(mu, decreasing = TRUE))[seq_len(round(length(mu) / 4))]
  sel <- tr$delta == 0.04 & tr$test == "t"
  expect_false(any(tr$baseline[sel] %in% top))
  ok <- mapply(function(b, e) {
    target <- mu[[b]] + 0.04
    e %in% names(sort(abs(mu[names(mu) != b] - target)))[1:10]
  }, tr$baseline[sel], tr$experimental[sel])
  expect_true(all(ok))
  # Type I pairs are two distinct systems
  sel0 <- tr$delta == 0 & tr$test == "t"
  expect_true(all(tr$baseline[sel0] != tr$experimental[sel0]))
})

test_that("results are identical for 1 and 2 threads and for any chunking", {
  run <- function(threads) {
    test_calibration(cal_model(), n_topics = c(10, 30), delta = 0.05, trials = 600, B = 150, seed = 4,
                     n_threads = threads, progress = FALSE)$table
  }
  one <- run(1)
  expect_identical(run(2), one)
  # a chunk of trials drawn alone equals the same trials inside a larger run
  flat <- flat_model(cal_model())
  native <- calibration_tests("study2019")$native
  all <- cpp_calibration_trials(flat, 17L, NULL, native, 100, 0.01, 1e-9, 0, 9, 0, 50, 2L)
  part <- cpp_calibration_trials(flat, 17L, NULL, native, 100, 0.01, 1e-9, 0, 9, 20, 10, 1L)
  expect_identical(part, lapply(all, `[`, 21:30))
})

test_that("under a parallel future plan the result is the same", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  ref <- test_calibration(cal_model(), n_topics = 15, delta = NULL, trials = 2000, B = 100, seed = 2,
                          progress = FALSE)$table
  skip_if_not(future::supportsMulticore(), "no multicore futures here")
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  got <- test_calibration(cal_model(), n_topics = 15, delta = NULL, trials = 2000, B = 100, seed = 2,
                          progress = FALSE)$table
  expect_identical(got, ref)
})

test_that("the simulated margins and pairs reproduce the fit: KS against the margin, Kendall tau of the copula", {
  model <- cal_model()
  col <- model$collections[[1]]
  # Type I trials of 2,000 topics: both columns follow the baseline's margin
  flat <- flat_model(model)
  d <- cpp_calibration_draw(flat, 2000L, NULL, 0, 77, 0, 6, 1L)
  for (r in 1:6) {
    m <- col$margins[[d$systems[1, r] + 1]]
    expect_gt(suppressWarnings(ks.test(d$b[, r], function(q) pmargin(q, m)))$p.value, 0.001)
    expect_gt(suppressWarnings(ks.test(d$e[, r], function(q) pmargin(q, m)))$p.value, 0.001)
    cop <- pair_row(col, col$systems[d$systems[1, r] + 1], col$systems[d$systems[2, r] + 1])
    tau <- cor(d$b[, r], d$e[, r], method = "kendall")
    # Kendall tau of 2,000 pairs: standard error below 0.02
    expect_lt(abs(tau - cop$tau), 0.06)
  }
})

test_that("several collections: trials drawn in proportion to their systems", {
  ap5 <- real_scores("adhoc5_ap.csv")
  ap6 <- real_scores("adhoc6_ap.csv")
  model <- simulation_model(list(a = ap5[1:10, ], b = ap6[1:30, ]), seed = 1)
  cal <- test_calibration(model, tests = "t", n_topics = 10, delta = NULL, trials = 3000, seed = 1,
                          keep_trials = TRUE, progress = FALSE)
  share <- mean(cal$trials_data$collection == "a")
  m <- vapply(model$collections, function(c) length(c$systems), 1L)
  expect_lt(abs(share - m[["a"]] / sum(m)), 4 * sqrt(0.25 / 3000))
  # power trials across collections: quietly
  expect_silent(test_calibration(model, tests = "t", n_topics = 10, delta = 0.05, trials = 100, seed = 1,
                                 progress = FALSE))
})

test_that("user tests and compare_systems() tests run on the same trials", {
  mine <- function(x, y) t.test(y, x, paired = TRUE)$p.value
  cal <- test_calibration(cal_model(), tests = list("t", mine = mine, cs_t = "t"), n_topics = 12,
                          delta = 0.05, trials = 60, B = 100, seed = 6, keep_trials = TRUE, progress = FALSE)
  tr <- cal$trials_data
  expect_equal(tr$p.value[tr$test == "mine"], tr$p.value[tr$test == "t"], tolerance = 1e-12)
  expect_equal(tr$p.value[tr$test == "cs_t"], tr$p.value[tr$test == "t"], tolerance = 1e-10)
  # compare_systems()'s tests run in R on the very simulated data, with
  # the trial's seed; the old words now select the package's tests
  cal <- test_calibration(cal_model(), tests = list("randomization", "bootstrap", cs = "wilcoxon"), n_topics = 12,
                          delta = NULL, trials = 6, B = 300, seed = 6, keep_trials = TRUE, progress = FALSE)
  expect_identical(cal$tests, c("randomization", "bootstrap_studentized", "cs"))
  tr <- cal$trials_data
  d <- cal_draws(cal, 0, 6)
  for (r in 1:6) {
    m <- rbind(baseline = d$b[, r], experimental = d$e[, r])
    colnames(m) <- paste0("t", 1:12)
    seed <- stream_seed(cal$seed, trial_stream(0, r - 1))  # the trial's seed (setting 0)
    for (test in c("randomization", "bootstrap_studentized")) {
      ref <- suppressWarnings(compare_systems(m, test = test, B = 300, seed = seed, correction = "none"))
      expect_identical(tr$p.value[tr$test == test & tr$trial == r - 1], ref$table$p.value)
    }
  }
  bad <- function(x, y) stop("boom")
  expect_error(test_calibration(cal_model(), tests = list(bad = bad), n_topics = 5, delta = NULL,
                                trials = 3, progress = FALSE),
               class = "irtopics_error_user")
  expect_error(test_calibration(cal_model(), tests = list(bad = function(x, y) 2), n_topics = 5,
                                delta = NULL, trials = 3, progress = FALSE),
               class = "irtopics_error_test")
})

test_that("bad input is a classed error naming the argument", {
  ap <- real_scores("adhoc5_ap.csv")[1:12, ]
  p10 <- real_scores("adhoc5_p10.csv", measure = "P@10")[1:12, ]
  expect_error(test_calibration(list(a = ap, b = p10)), class = "irtopics_error_data")
  expect_error(test_calibration(list(ap, ap)), class = "irtopics_error_argument")
  # fewer than 3 systems after dropping duplicates and the bottom 10%
  dup <- unclass(ap)[c(1, 1, 1, 2), ]
  rownames(dup) <- c("a", "b", "c", "d")
  dup <- as_ir_scores(dup, measure = "AP")
  err <- expect_error(test_calibration(dup, trials = 10), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "at least 3")
  # a discrete measure without its support
  rr <- as_ir_scores(ap, measure = "RR")
  err <- expect_error(simulation_model(rr), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "support")
  expect_error(test_calibration(cal_model(), alpha = 1.2), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), alpha = 0), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), delta = -0.1), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), delta = 1), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), n_topics = 2), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), tests = "anova"), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), trials = 0), class = "irtopics_error_argument")
  expect_error(test_calibration(cal_model(), type = "discrete"), class = "irtopics_error_argument")
  # trials or B that cannot fit in memory
  withr::local_options(irtopics.max_memory = 1e6)
  err <- expect_error(test_calibration(cal_model(), trials = 1e6), class = "irtopics_error_memory")
  expect_equal(err$arg, "trials")
  err <- expect_error(test_calibration(cal_model(), B = 1e7, trials = 10), class = "irtopics_error_memory")
  expect_equal(err$arg, "B")
})

test_that("power-design exponents give the candidate's table exactly the target mean, as transform_margin() does", {
  ap <- real_scores("adhoc6_ap.csv")
  p10 <- real_scores("adhoc6_p10.csv", measure = "P@10")
  margins <- list(fit_margin(ap[3, ]), fit_margin(ap[40, ]),
                  fit_margin(p10[3, ], type = "discrete", support = score_support("P@10")))
  for (m in margins) {
    for (target in m$mean + c(-0.04, -0.005, 0.01, 0.05)) {
      ex <- cpp_transform_exponents(list(m$knots), list(m$cdf), m$discrete, 0L, target, 1e-12)
      expect_true(min(ex) == 1 && max(ex) > 1)
      # the table's mean under the transform (closed form) ...
      expect_equal(cpp_margin_mean(m$knots, m$cdf, m$discrete, ex[1], ex[2]), target, tolerance = 1e-9)
      # ... is what the simulator draws: quantiles of a fine grid of u
      u <- (seq_len(2e5) - 0.5) / 2e5
      draws <- cpp_margin_quantile(m$knots, m$cdf, m$discrete, ex[1], ex[2], u)
      expect_equal(mean(draws), target, tolerance = 1e-4)
      # transform_margin() (R, written separately) finds the same exponent
      tr <- transform_margin(m, target)$transform
      expect_equal(c(tr$a %||% 1, tr$b %||% 1), as.vector(ex), tolerance = 1e-5)
    }
  }
  # out of reach: NaN
  m <- margins[[1]]
  expect_true(all(is.nan(cpp_transform_exponents(list(m$knots), list(m$cdf), FALSE, 0L, 0.99999, 1e-9))))
})

test_that("the 2019 study's AP Type I table and power at 50 topics are reproduced (20,000 trials per cell)", {
  # 140,000 trials and the fits of 4 collections: about a minute on an
  # optimised build. .ci/run sets IRTOPICS_LONG_TESTS=true for R CMD check.
  skip_if_not(identical(Sys.getenv("IRTOPICS_LONG_TESTS"), "true"),
              "long test: set IRTOPICS_LONG_TESTS=true to run it")
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- lapply(stats::setNames(file.path(dir, sprintf("adhoc%d_ap.csv", 5:8)), 5:8), read_scores, measure = "AP")
  # the study's margins are the maximum likelihood fits, not recentred on
  # the scores' means (mean_tol = Inf); recentring (the default) leaves
  # these Type I rates within their Monte Carlo error but raises power at 50
  # topics by 0.016-0.022 (bench/README.md, section 21)
  model <- simulation_model(ap, seed = 2019, mean_tol = Inf)
  cal <- test_calibration(model, n_topics = c(25, 50, 100), delta = NULL, trials = 20000, seed = 2019,
                          progress = FALSE)
  # Urbano, Lima & Hanjalic (2019), output/type_1/type_1_ap_<n>.csv, alpha = .05, two-sided
  paper <- rbind(`25` = c(.0509, .0607, .0464, .0689, .0534), `50` = c(.0512, .0722, .0779, .0597, .0522),
                 `100` = c(.0511, .0965, .1251, .0553, .0517))
  colnames(paper) <- c("t", "wilcoxon", "sign", "bootstrap_2019", "permutation_2019")
  tab <- as.data.frame(cal)
  tab <- tab[tab$error == "type1" & tab$alpha == 0.05 & tab$alternative == "two.sided", ]
  got <- paper * NA
  for (k in seq_len(nrow(tab))) got[as.character(tab$n_topics[k]), as.character(tab$test[k])] <- tab$rate[k]
  expect_true(all(abs(got - paper) <= 0.01), info = paste(capture.output(print(round(got - paper, 4))), collapse = "\n"))
  pw <- test_calibration(model, n_topics = 50, delta = c(0.01, 0.03, 0.05), trials = 20000, seed = 2019,
                         progress = FALSE)
  tab <- as.data.frame(pw)
  tab <- tab[tab$error == "power" & tab$alpha == 0.05 & tab$alternative == "two.sided", ]
  paper <- rbind(c(.0947, .1212, .1119, .1068, .0966), c(.3595, .3874, .3133, .3827, .3632),
                 c(.6697, .6843, .5656, .6918, .6730))
  got <- t(vapply(c(0.01, 0.03, 0.05), function(d) {
    tab$rate[tab$delta == d][match(colnames(got), tab$test[tab$delta == d])]
  }, numeric(5)))
  expect_true(all(abs(got - paper) <= 0.02), info = paste(capture.output(print(round(got - paper, 4))), collapse = "\n"))
})

test_that("a long trial loop can be interrupted, and the progress bar path gives the same results", {
  skip_if_no_interrupts()
  for (threads in 1:2) {
    # the signal comes at the main thread's 4th poll of the 200 trials
    res <- with_interrupt_in(test_calibration(cal_model(), tests = "permutation_2019", n_topics = 50,
                                              delta = NULL, trials = 200, B = 1e4, seed = 1,
                                              n_threads = threads, progress = FALSE), polls = 3L)
    expect_true(res$interrupted)
    expect_identical(res$raised, 1L)
  }
  withr::local_options(irtopics.progress = TRUE)
  a <- test_calibration(cal_model(), n_topics = 10, delta = NULL, trials = 1000, B = 50, seed = 9)
  withr::local_options(irtopics.progress = FALSE)
  expect_identical(a$table, test_calibration(cal_model(), n_topics = 10, delta = NULL, trials = 1000, B = 50,
                                             seed = 9)$table)
})

test_that("the memory check counts what the trials really allocate (issue 29)", {
  # before: 8 bytes per field and trial, accepted under 100 MB, a peak of 353 MB
  model <- cal_model()
  n_fields <- nrow(cpp_calibration_tables()$fields) + length(ir_test_set("study2019"))
  trials <- 20000
  settings <- 4  # 2 sizes x (null, one delta)
  for (keep in c(FALSE, TRUE)) {
    need <- trials * settings * calibration_memory_factor * (8 * n_fields + if (keep) 16 * 5 else 0)
    run <- function() test_calibration(model, n_topics = c(10, 20), delta = 0.05, trials = trials, B = 10,
                                       seed = 1, progress = FALSE, n_threads = 1, keep_trials = keep)
    withr::with_options(list(irtopics.max_memory = need * 0.99), {
      expect_error(run(), class = "irtopics_error_memory", regexp = "trials")
    })
    # The peak is measured in a fresh R process: R's gc() maximum also holds
    # garbage not yet collected, and how much depends on the session's GC
    # thresholds (in the whole suite's session it came to 1.04 x need once).
    peak <- fresh_process(function(model, trials, keep, need) {
      invisible(gc(reset = TRUE))
      start <- gc()[2, 2]
      cal <- withr::with_options(list(irtopics.max_memory = need * 1.01), {
        irtopics::test_calibration(model, n_topics = c(10, 20), delta = 0.05, trials = trials, B = 10, seed = 1,
                                   progress = FALSE, n_threads = 1, keep_trials = keep)
      })
      c(peak = (gc()[2, 6] - start) * 2^20, ok = inherits(cal, "ir_calibration"))
    }, list(model = model, trials = trials, keep = keep, need = need))
    expect_equal(peak[["ok"]], 1)
    # the real peak (R's vectors) stays within what the check counted
    expect_lt(peak[["peak"]], need)
    expect_gt(peak[["peak"]], need / 4)
  }
})

test_that("the draws of tests run in R come in blocks of trials, with the same p-values (issue 29)", {
  rnd <- function(x, y) stats::t.test(x, y + stats::rnorm(length(y), sd = 1e-3), paired = TRUE)$p.value
  run <- function() {
    test_calibration(cal_model(), tests = list("t", mine = rnd), n_topics = c(5, 30), delta = 0.05,
                     trials = 30, seed = 4, keep_trials = TRUE, progress = FALSE)
  }
  whole <- run()
  # by default one draw per chunk; 1 KB blocks: two trials of 30 topics per draw
  expect_identical(length(row_blocks(30, 2 * 30)), 1L)
  withr::with_options(list(irtopics.kernel_block_bytes = 1024), {
    expect_identical(length(row_blocks(30, 2 * 30)), 15L)
    blocks <- run()
  })
  expect_identical(blocks$table, whole$table)
  expect_identical(blocks$trials_data, whole$trials_data)
})

test_that("the help names every field of the result where it is stored (issue 29: $trials_data)", {
  path <- testthat::test_path("..", "..", "man", "test_calibration.Rd")
  skip_if_not(file.exists(path), "no man/ beside the tests (installed package)")
  rd <- paste(readLines(path), collapse = " ")
  value <- sub(".*\\\\value\\{(.*?)\\}\\s*\\\\(section|description|details|references).*", "\\1", rd, perl = TRUE)
  expect_lt(nchar(value), nchar(rd))
  cal <- test_calibration(cal_model(), tests = "t", n_topics = 5, delta = NULL, trials = 3, seed = 1,
                          keep_trials = TRUE, progress = FALSE)
  for (field in names(cal)) {
    expect_true(grepl(paste0("\\code{", field, "}"), value, fixed = TRUE), label = field)
  }
  # keep_trials documents where the trials are kept, and they are there
  expect_true(grepl("frame in \\verb{$trials_data}", rd, fixed = TRUE))
  expect_false(grepl("frame in \\verb{$trials}", rd, fixed = TRUE))
  expect_s3_class(cal$trials_data, "data.frame")
  expect_identical(cal$trials, 3L)
})

test_that("one long trial can be interrupted: the resampling loops ask inside the trial (issue 29)", {
  skip_if_no_interrupts()
  # before issue 29 the token was asked only between trials: a single trial
  # (2,000 topics, B = 1e5 sign flips or bootstrap means) had no poll at all
  for (test in c("permutation_2019", "bootstrap_2019")) {
    for (threads in 1:2) {
      res <- with_interrupt_in(test_calibration(cal_model(), tests = test, n_topics = 2000,
                                                delta = NULL, trials = 1, B = 1e5, seed = 1,
                                                n_threads = threads, progress = FALSE), polls = 2L)
      expect_true(res$interrupted, label = paste(test, threads))
      expect_identical(res$raised, 1L, label = paste(test, threads))
    }
  }
})

test_that("a user's test with random draws is reproducible from the seed (one seed per trial stream)", {
  rnd <- function(x, y) stats::runif(1)
  run <- function(seed) {
    test_calibration(cal_model(), tests = list(rnd = rnd), n_topics = 5, delta = NULL, trials = 20,
                     seed = seed, keep_trials = TRUE, progress = FALSE)$trials_data
  }
  a <- run(8)
  b <- run(8)
  expect_identical(a$p.value, b$p.value)
  expect_identical(anyDuplicated(a$p.value), 0L)
  # each trial's seed is stream_seed() of its stream: the first uniform of that seed
  first <- a[a$trial == 0, ]
  expect_equal(first$p.value, with_seed(stream_seed(8, trial_stream(0, 0)), stats::runif(1)))
  expect_false(identical(run(9)$p.value, a$p.value))
})
