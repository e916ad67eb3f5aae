# mean_intervals(): t intervals against t.test(), bootstrap percentile and
# BCa against boot::boot.ci() on the same resamples.

means_ap <- function() {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  ap[order(-rowMeans(ap))[1:6], ]
}

test_that("t intervals are t.test()'s", {
  x <- means_ap()
  ci <- mean_intervals(x, conf = 0.9)
  for (i in seq_len(nrow(x))) {
    ref <- stats::t.test(as.numeric(x[i, ]), conf.level = 0.9)$conf.int
    expect_equal(ci$table$conf.low[i], ref[1], tolerance = 1e-12)
    expect_equal(ci$table$conf.high[i], ref[2], tolerance = 1e-12)
  }
  expect_equal(ci$table$estimate, unname(rowMeans(x)))
  # unanswered topics: the interval is over the answered ones
  y <- x
  y[2, 1:5] <- NA
  ci2 <- mean_intervals(y)
  ref <- stats::t.test(as.numeric(x[2, -(1:5)]))$conf.int
  expect_equal(c(ci2$table$conf.low[2], ci2$table$conf.high[2]), as.numeric(ref), tolerance = 1e-12)
  expect_identical(ci2$table$n_topics[2], 45)
})

test_that("percentile and BCa intervals are boot.ci()'s with the same resamples", {
  skip_if_not_installed("boot")
  x <- means_ap()
  B <- 999
  for (interval in c("percentile", "bca")) {
    ci <- mean_intervals(x, interval = interval, B = B, seed = 42)
    for (i in c(1L, 4L)) {
      v <- as.numeric(x[i, ])
      # boot() draws its resamples as mean_intervals() does after set.seed()
      set.seed(42, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
      b <- boot::boot(v, function(d, j) mean(d[j]), R = B)
      expect_equal(unname(ci$replicates$AP[, i]), b$t[, 1], tolerance = 1e-12)
      # the influence values of the mean (boot's own default estimates them by regression)
      ref <- boot::boot.ci(b, conf = 0.95, type = c("perc", "bca"), L = v - mean(v))
      got <- c(ci$table$conf.low[i], ci$table$conf.high[i])
      want <- if (interval == "bca") ref$bca[4:5] else ref$percent[4:5]
      expect_equal(got, want, tolerance = 1e-10)
    }
  }
  # jackknife influence values give the same acceleration
  v <- as.numeric(x[1, ])
  set.seed(42, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  b <- boot::boot(v, function(d, j) mean(d[j]), R = B)
  jack <- boot::boot.ci(b, type = "bca", L = boot::empinf(b, type = "jack"))$bca[4:5]
  ci <- mean_intervals(x, interval = "bca", B = B, seed = 42)
  expect_equal(c(ci$table$conf.low[1], ci$table$conf.high[1]), jack, tolerance = 1e-10)
})

test_that("the quantile rule is Davison and Hinkley's normal-scale interpolation", {
  t <- c(0.3, 0.1, 0.7, 0.2, 0.5, 0.9, 0.4, 0.6, 0.8)  # R = 9
  s <- sort(t)
  # (R + 1) p whole: the order statistic
  q <- function(p) as.vector(irtopics:::normal_scale_quantiles(t, p))
  expect_identical(q(0.5), s[5])
  # between order statistics k and k + 1, on the normal scale (by hand)
  p <- 0.23
  k <- 2
  w <- (qnorm(p) - qnorm(k / 10)) / (qnorm((k + 1) / 10) - qnorm(k / 10))
  expect_equal(q(p), s[k] + w * (s[k + 1] - s[k]))
  # beyond the extremes: the extreme order statistics
  expect_identical(q(c(0.01, 0.995)), c(s[1], s[9]))
  expect_true(attr(irtopics:::normal_scale_quantiles(t, 0.01), "extreme"))
  expect_false(attr(irtopics:::normal_scale_quantiles(t, 0.5), "extreme"))
})

test_that("an endpoint at the most extreme resample warns", {
  x <- means_ap()
  expect_warning(ci <- mean_intervals(x, interval = "percentile", B = 20, seed = 1),
                 class = "irtopics_warning_extreme")
  # (B + 1) * 0.025 < 1: the smallest and largest resampled means
  expect_equal(ci$table$conf.low, unname(apply(ci$replicates$AP, 2, min)))
  expect_equal(ci$table$conf.high, unname(apply(ci$replicates$AP, 2, max)))
  expect_no_warning(mean_intervals(x, interval = "percentile", B = 199, seed = 1))
})

test_that("resamples are the same for any chunking and any future plan", {
  x <- means_ap()
  a <- mean_intervals(x, interval = "bca", B = 200, seed = 7)
  b <- mean_intervals(x, interval = "bca", B = 200, seed = 7)
  expect_identical(a, b)
  # other chunks: the driver cuts B = 200 into 4 chunks of 50; one chunk here
  reps1 <- irtopics:::bootstrap_means(unclass(x), a$indices$AP)
  one <- sapply(seq_len(200), function(r) rowMeans(unclass(x)[, a$indices$AP[r, ]]))
  expect_equal(reps1, t(one), tolerance = 1e-14, ignore_attr = TRUE)
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_on_cran()
  # forked workers run this code (multisession workers would load the
  # installed copy of the package)
  skip_if_not(future::supportsMulticore(), "no forked futures here")
  old <- future::plan(future::multicore, workers = 2)
  expect_true(irtopics:::use_future())
  on.exit(future::plan(old), add = TRUE)
  c2 <- mean_intervals(x, interval = "bca", B = 200, seed = 7)
  expect_identical(c2, a)
  # a seed fixes the draws whatever the RNG kind; seed = NULL follows set.seed()
  set.seed(3)
  d1 <- mean_intervals(x, interval = "percentile", B = 50)
  set.seed(3)
  d2 <- mean_intervals(x, interval = "percentile", B = 50)
  expect_identical(d1$table, d2$table)
})

test_that("an evaluation and a comparison give one row per measure and system", {
  te <- function(f) system.file("extdata", "trec_eval-test", f, package = "irtopics")
  res <- evaluate(te("results.test"), te("qrels.test"), measures = c("AP", "P@10"))
  ci <- mean_intervals(res, interval = "percentile", B = 100, seed = 1)
  expect_identical(unique(ci$table$measure), c("AP", "P@10"))
  expect_equal(ci$means[, "AP"], unname(rowMeans(res$AP, na.rm = TRUE)), ignore_attr = TRUE)
  cmp <- compare_systems(means_ap()[1:3, ], test = "t")
  expect_identical(nrow(mean_intervals(cmp)$table), 3L)
  td <- as.data.frame(ci)
  expect_true(all(c("estimate", "conf.low", "conf.high", "conf.level", "method") %in% names(td)))
  expect_true(all(td$conf.low <= td$estimate & td$estimate <= td$conf.high))
  expect_error(mean_intervals(list(1)), class = "irtopics_error_argument")
  expect_error(mean_intervals(means_ap(), conf = 95), class = "irtopics_error_argument")
  expect_error(mean_intervals(means_ap(), interval = "normal"), class = "irtopics_error_argument")
  expect_error(mean_intervals(means_ap(), interval = "bca", B = 1), class = "irtopics_error_argument")
})

test_that("the plot draws each mean with its error bar", {
  ci <- mean_intervals(means_ap())
  p <- ggplot2::autoplot(ci)
  b <- ggplot2::ggplot_build(p)
  bars <- b$data[[1]]
  pts <- b$data[[2]]
  expect_equal(sort(bars$xmin), sort(ci$table$conf.low))
  expect_equal(sort(bars$xmax), sort(ci$table$conf.high))
  expect_equal(sort(pts$x), sort(ci$table$estimate))
  # systems ordered by mean: the best on top
  best <- ci$table$system[which.max(ci$table$estimate)]
  expect_identical(tail(levels(p$data$system), 1), best)
  expect_match(b$plot$labels$subtitle, "95% t intervals")
  expect_error(ggplot2::autoplot(ci, type = "x"), class = "irtopics_error_argument")
  for (size in list(c(3.5, 2.6), c(7, 4.5))) {
    ggplot2::ggsave(tempfile(fileext = ".png"), p, width = size[1], height = size[2], dpi = 150)
  }
  # a system answered on one topic has no interval; the rows stay in order of the means (ggplot2
  # sorted them by name when the bars' layer lacked a system the points' layer had)
  x <- unclass(means_ap())
  x[2, -1] <- NA
  one <- suppressWarnings(mean_intervals(x))
  expect_true(is.na(one$table$conf.low[2]))
  p1 <- ggplot2::autoplot(one)
  pts <- ggplot2::layer_data(p1, 2)
  expect_equal(as.numeric(pts$y), as.numeric(p1$data$system))
  expect_true(all(diff(pts$x[order(pts$y)]) >= 0))
})

test_that("the mean-interval plot fits one column with 2, 17 and 110 systems and follows the user's theme", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  for (k in c(2, 17, 110)) {
    mi <- mean_intervals(ap[seq_len(k), ])
    p <- autoplot(mi)
    expect_figure_ready(p, min_panel = 0.3)
    expect_figure_ready(p, width = 7, height = 4.5)
    # names that would overprint are dropped when drawn; no tick bar past 20 rows
    expect_true(guide_checks_overlap(p))
    expect_identical(inherits(p$theme$axis.ticks.y, "element_blank"), k > 20)
  }
  expect_follows_user_theme(function() autoplot(mean_intervals(ap[1:17, ])))
})

test_that("mean_intervals() of a geometric mean or a sum is the measure's aggregate with its interval (issue 40)", {
  ap <- robust()[1:5, 1:40]
  gm <- as_ir_scores(ap, measure = "gm_map")
  ci <- mean_intervals(gm)
  expect_equal(ci$table$estimate, unname(mean_scores(gm)))
  # the t interval of the mean log, taken back by exp()
  lg <- log(pmax(unclass(ap)[1, ], 1e-5))
  tt <- stats::t.test(lg)
  expect_equal(c(ci$table$conf.low[1], ci$table$conf.high[1]), exp(as.vector(tt$conf.int)))
  expect_equal(ci$table$std.error[1], exp(mean(lg)) * unname(tt$stderr))
  expect_identical(ci$records$aggregate, "gmean")
  expect_match(format(ci)[2], "gm_map: geometric means", fixed = TRUE)
  # the bootstrap of the geometric mean: the bootstrap of the mean log, taken back
  b <- mean_intervals(gm, interval = "bca", B = 500, seed = 3)
  logs <- mean_intervals(log(pmax(plain(ap), 1e-5)), interval = "bca", B = 500, seed = 3)
  expect_equal(b$table$conf.low, exp(logs$table$conf.low))
  expect_equal(b$replicates[[1]], exp(logs$replicates[[1]]))
  # a count: n times the interval of the mean
  n <- as_ir_scores(matrix(c(3, 5, 4, 8, 6, 7, 2, 9), 2, dimnames = list(c("a", "b"), 1:4)), measure = "NumRelRet")
  cs <- mean_intervals(n)
  cm <- mean_intervals(plain(n))
  expect_equal(cs$table$estimate, c(15, 29))
  expect_equal(cs$table$conf.low, 4 * cm$table$conf.low)
  # the figure puts the best at the top: the lowest where lower is better
  p <- ggplot2::autoplot(mean_intervals(error_matrix()))
  expect_identical(rev(levels(p$data$system))[1], "sysF")
})

test_that("the topic bootstrap stays within the memory budget at the largest B it accepts (issue 43)", {
  # before: the check counted 4 bytes a topic and 8 a system per resample
  # (tau_interval() one system) while the calls held B x systems matrices,
  # their transposes, copies and ranks: at the B it accepted, the peak was
  # 3.8 (means), 5.6 (ranks) and 21.8 (tau) times the budget
  skip_on_cran()
  budget <- 1.5e8
  run <- function(what, B) {
    set.seed(1)
    m <- matrix(stats::runif(5 * 2000), 5, dimnames = list(paste0("s", 1:5), paste0("t", 1:2000)))
    switch(what,
           means = irtopics::mean_intervals(m, interval = "percentile", B = B, seed = 1, progress = FALSE),
           ranks = irtopics::rank_intervals(m, B = B, seed = 1, progress = FALSE),
           tau = irtopics::tau_interval(m, m + stats::runif(length(m), 0, 0.1), B = B, seed = 1, progress = FALSE))
  }
  environment(run) <- globalenv()
  withr::local_options(irtopics.max_memory = budget)
  for (what in c("means", "ranks", "tau")) {
    err <- expect_error(run(what, 1e6), class = "irtopics_error_memory", regexp = "`B`")
    fits <- as.numeric(gsub(",", "", sub(".*at most ([0-9,]+) fit.*", "\\1", conditionMessage(err))))
    expect_gt(fits, 2000)
    expect_error(run(what, fits + 1), class = "irtopics_error_memory")
    # the advice is taken: the largest B accepted runs, and R's peak (its
    # vectors, garbage not yet collected included) stays within the budget;
    # measured in a fresh R process, whose GC thresholds are not those left
    # by the tests before
    peak <- fresh_process(function(run, what, fits, budget) {
      options(irtopics.max_memory = budget)
      invisible(gc(reset = TRUE))
      start <- gc()[2, 2]
      res <- run(what, fits)
      c(peak = (gc()[2, 6] - start) * 2^20, B = res$B)
    }, list(run = run, what = what, fits = fits, budget = budget))
    expect_equal(peak[["B"]], fits)
    expect_lt(peak[["peak"]], budget)
    # and what was counted is not far from what R used
    expect_gt(peak[["peak"]], budget / 4)
  }
})

test_that("the bootstrap's blocks change no value (issue 43)", {
  # 200 systems: blocks of 655 resamples, so B = 1500 runs in three
  set.seed(2)
  m <- matrix(round(stats::runif(200 * 30), 1), 200, dimnames = list(sprintf("s%03d", 1:200), paste0("t", 1:30)))
  expect_gt(1500, 2 * irtopics:::bootstrap_block_size(200))
  ri <- rank_intervals(m, B = 1500, seed = 4, progress = FALSE)
  means <- sapply(seq_len(1500), function(b) rowMeans(m[, ri$indices[b, ]]))
  ranks <- apply(tie_means(means, max(abs(m))), 2, function(v) rank(-v, ties.method = "min"))
  expect_identical(unname(ri$ranks), unname(t(ranks)))
  ci <- mean_intervals(m, interval = "percentile", B = 1500, seed = 4, progress = FALSE)
  expect_identical(ci$indices[[1]], ri$indices)
  expect_identical(unname(ci$replicates[[1]]), unname(t(means)))
  tau <- tau_interval(m, m^2 + 0.1 * m[, 30:1], B = 1500, seed = 4, progress = FALSE)
  my <- m^2 + 0.1 * m[, 30:1]
  ref <- vapply(seq_len(1500), function(b) {
    kendall_tau(tie_means(means[, b], max(abs(m))), tie_means(rowMeans(my[, ri$indices[b, ]]), max(abs(my))))
  }, numeric(1))
  expect_identical(tau$replicates, ref)
})

test_that("scores of magnitude 1e-300 get the intervals of the same scores at scale 1, scaled (issue 43)", {
  # before: the squared deviations underflowed: zero-width t intervals, NA BCa
  x <- means_ap()
  # (subnormal scores, 1e-315, carry about 28 bits: compared to 1e-6)
  for (f in c(1e-300, 1e-315)) {
    tol <- if (f < 1e-307) 1e-6 else 1e-12
    tiny <- x * f
    a <- mean_intervals(x)$table
    b <- mean_intervals(tiny)$table
    expect_gt(min(b$conf.high - b$conf.low), 0)
    for (col in c("estimate", "conf.low", "conf.high", "std.error")) {
      expect_equal(b[[col]] / f, a[[col]], tolerance = tol, label = sprintf("%s at %g", col, f))
    }
    a <- mean_intervals(x, interval = "bca", B = 300, seed = 1)
    b <- mean_intervals(tiny, interval = "bca", B = 300, seed = 1)
    expect_false(anyNA(b$table$conf.low))
    for (col in c("estimate", "conf.low", "conf.high", "std.error")) {
      expect_equal(b$table[[col]] / f, a$table[[col]], tolerance = tol)
    }
    expect_equal(b$replicates$AP / f, a$replicates$AP, tolerance = tol)
  }
  # scores of ordinary size are computed as before, to the bit
  expect_identical(irtopics:::square_scale(x), 1)
  expect_identical(irtopics:::square_scale(x * 1e-99), 1)
})
