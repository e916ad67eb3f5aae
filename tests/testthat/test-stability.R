# Spec 2.6 worked example: 3 runs, 8 topics, two deterministic trials.
spec_ap <- rbind(A = c(.30, .10, .50, .20, .40, .05, .60, .25),
                 B = c(.28, .15, .45, .30, .35, .10, .50, .20),
                 C = c(.10, .05, .20, .10, .30, .00, .40, .15))
colnames(spec_ap) <- paste0("t", 1:8)
spec_perms <- matrix(as.integer(c(0:7, 4:7, 0:3)), 8)   # {t1,t2} vs {t3,t4}; {t5,t6} vs {t7,t8}

# A plain base-R swap method (independent of the C++ code).
swap_reference <- function(m, perms, n, f, fuzz = 0.05) {
  sets <- do.call(cbind, lapply(seq_len(ncol(perms)), function(b) {
    p <- perms[, b] + 1L
    cbind(apply(m[, p[1:n], drop = FALSE], 1, f), apply(m[, p[n + 1:n], drop = FALSE], 1, f))
  }))
  min_sum <- ties <- total <- 0
  for (i in 1:(nrow(m) - 1)) for (j in (i + 1):nrow(m)) {
    a <- sets[i, ]; b <- sets[j, ]
    eq <- abs(a - b) <= (fuzz + 1e-9) * pmax(abs(a), abs(b))
    gt <- sum(!eq & a > b); lt <- sum(!eq & a < b)
    min_sum <- min_sum + min(gt, lt); ties <- ties + sum(eq); total <- total + length(a)
  }
  list(sets = unname(sets), error = min_sum / total, ties = ties / total)
}

area_ref <- function(v) { q <- length(v) %/% 4; w <- sort(v)[seq_len(q)]; mean(cumsum(w) / seq_len(q)) }

test_that("the spec's worked example: set MAPs, error rate, ties, per-trial swaps", {
  aggs <- irtopics:::cpp_set_aggregates(spec_ap, spec_perms, 2L, 0L, 1e-5, 1L)
  expect_equal(aggs[, 1], c(.2, .215, .075))
  expect_equal(aggs[, 2], c(.35, .375, .15))
  expect_equal(aggs[, 3], c(.225, .225, .15))
  expect_equal(aggs[, 4], c(.425, .35, .275))
  cnt <- irtopics:::cpp_pair_counts(aggs, 0.05, 1L)
  expect_equal(cnt[["min_sum"]] / cnt[["comparisons"]], 1 / 12)
  expect_equal(cnt[["ties"]] / cnt[["comparisons"]], 1 / 12)
  expect_equal(cnt[["trial_swaps"]], 0)
  expect_equal(cnt[["trial_pairs"]], 6)
  x <- structure(list(sets = list(`2` = aggs), sizes = 2L, measure = "MAP", aggregate = "mean"),
                 class = "swap_error_rates")
  cv <- critical_values(x, grid = seq(0, 0.2, by = 0.001), definition = "threshold")
  expect_equal(cv$table$critical_value, 0.026)
  expect_equal(cv$table$pct_significant, 75)
})

test_that("C++ aggregates equal base R for every built-in aggregate", {
  set.seed(3)
  m <- matrix(round(runif(6 * 40), 3), 6, dimnames = list(paste0("s", 1:6), 1:40))
  m[sample(length(m), 30)] <- 0
  perms <- replicate(5, sample.int(40) - 1L)
  n <- 13L
  refs <- list(`0` = mean, `1` = function(v) gmap_impl(v, 1e-5, "add"),
               `2` = function(v) gmap_impl(v, 1e-5, "floor"), `3` = function(v) gmap_impl(v, 1e-5, "replace0"),
               `4` = function(v) 100 * mean(v == 0), `5` = area_ref)
  for (code in names(refs)) {
    got <- irtopics:::cpp_set_aggregates(m, perms, n, as.integer(code), 1e-5, 1L)
    expect_equal(got, swap_reference(m, perms, n, refs[[code]])$sets, tolerance = 1e-12, info = code)
  }
})

test_that("swap_error_rates equals a base-R implementation with the same draws", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  res <- swap_error_rates(ap, sizes = c(10, 25), trials = 40, seed = 5)
  perms <- with_seed(5, vapply(1:40, function(b) sample.int(50) - 1L, integer(50)))
  for (k in 1:2) {
    ref <- swap_reference(unclass(ap), perms, res$sizes[k], mean)
    expect_equal(res$error$error_rate[k], ref$error, tolerance = 1e-12)
    expect_equal(res$error$tie_rate[k], ref$ties, tolerance = 1e-12)
    expect_equal(unname(res$sets[[k]]), ref$sets, tolerance = 1e-12)
  }
  expect_equal(res$error$measure, c("MAP", "MAP"))
  # a user function gives the same as the built-in mean
  custom <- swap_error_rates(ap, sizes = c(10, 25), trials = 40, seed = 5, aggregate = function(v) sum(v) / length(v))
  expect_equal(custom$error$error_rate, res$error$error_rate)
  # the user's RNG state is left alone
  set.seed(99); before <- runif(1); set.seed(99)
  swap_error_rates(ap, sizes = 10, trials = 5, seed = 1)
  expect_equal(runif(1), before)
})

test_that("results are identical for 1 and 2 threads", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics"),
                    measure = "AP")
  for (agg in c("mean", "gmean", "area")) {
    r1 <- swap_error_rates(ap, sizes = c(12, 25), aggregate = agg, trials = 60, seed = 2, n_threads = 1)
    r2 <- swap_error_rates(ap, sizes = c(12, 25), aggregate = agg, trials = 60, seed = 2, n_threads = 2)
    expect_identical(r1$error, r2$error)
    expect_identical(r1$sets, r2$sets)
    expect_identical(critical_values(r1, definition = "threshold", n_threads = 1)$curves,
                     critical_values(r2, definition = "threshold", n_threads = 2)$curves)
  }
})

test_that("chunks under a multisession future plan give the same result", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  # the workers load the installed irtopics: skip when testing a source tree
  # loaded with pkgload (the installed copy may be older)
  skip_if(isNamespaceLoaded("pkgload") && pkgload::is_dev_package("irtopics"))
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  seq_res <- swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 4)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(irtopics:::use_future())
  par_res <- swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 4)
  expect_identical(par_res$error, seq_res$error)
  expect_identical(par_res$sets, seq_res$sets)
})

test_that("critical values: swap definition by hand, %no in whole topics", {
  set.seed(8)
  m <- matrix(runif(5 * 30), 5, dimnames = list(paste0("s", 1:5), 1:30))
  res <- swap_error_rates(m, sizes = 10, trials = 30, seed = 3)
  s <- res$sets[[1]]
  d1 <- d2 <- c()
  for (b in 1:30) for (i in 1:4) for (j in (i + 1):5) {
    d1 <- c(d1, s[i, 2 * b - 1] - s[j, 2 * b - 1]); d2 <- c(d2, s[i, 2 * b] - s[j, 2 * b])
  }
  grid <- seq(0, 0.2, by = 0.01)
  cv <- critical_values(res, grid = grid)
  ref_err <- sapply(grid, function(c) { dec <- abs(d1) >= c - 1e-12; if (!any(dec)) NA else sum(dec & d1 * d2 < 0) / sum(dec) })
  # % significant: share of all comparisons, both sets of every trial.
  ref_sig <- sapply(grid, function(c) 100 * mean(abs(c(d1, d2)) >= c - 1e-12))
  expect_equal(cv$curves$error_rate, ref_err)
  expect_equal(cv$curves$pct_significant, ref_sig)
  both <- critical_values(res, grid = grid, both_sets = TRUE)
  ref_both <- sapply(grid, function(c) { dec <- abs(d1) >= c - 1e-12; if (!any(dec)) NA else
    sum(dec & abs(d2) >= c - 1e-12 & d1 * d2 < 0) / sum(dec) })
  expect_equal(both$curves$error_rate, ref_both)
  hit <- which(ref_err <= 0.05)[1]
  expect_equal(cv$table$critical_value, if (is.na(hit)) NA_real_ else grid[hit])

  p10 <- read_scores(system.file("extdata", "score-matrices", "adhoc5_p10.csv", package = "irtopics"),
                     measure = "P@10")
  nores <- swap_error_rates(p10, sizes = 20, aggregate = "pct_no", trials = 50, seed = 1)
  expect_equal(nores$measure, "%no")
  cvn <- critical_values(nores)
  expect_equal(cvn$curves$value, 0:20)
  expect_equal(cvn$table$critical_pct, 100 * cvn$table$critical_value / 20)
})

test_that("binned error rates count swaps by |D1| and extrapolate exponentially", {
  set.seed(9)
  m <- matrix(runif(6 * 40) * 0.5, 6, dimnames = list(paste0("s", 1:6), 1:40))
  res <- swap_error_rates(m, sizes = c(5, 10, 15, 20), trials = 40, seed = 1, method = "binned")
  b <- res$binned
  expect_equal(sum(b$count[b$size == 5]), 15 * 40)
  # per size: every (pair, trial) binned by |D1| on the first set, a swap when
  # D2 on the second set has the opposite sign (a plain-R count)
  for (k in seq_along(res$sizes)) {
    s <- res$sets[[k]]
    d1 <- d2 <- c()
    for (tr in 1:40) for (i in 1:5) for (j in (i + 1):6) {
      d1 <- c(d1, s[i, 2 * tr - 1] - s[j, 2 * tr - 1])
      d2 <- c(d2, s[i, 2 * tr] - s[j, 2 * tr])
    }
    bin <- pmin(floor(abs(d1) / 0.01 + 1e-9), 20)
    got <- b[b$size == res$sizes[k], ]
    expect_equal(got$count, tabulate(bin + 1, 21), info = k)
    expect_equal(got$swaps, tabulate(bin[d1 * d2 < 0] + 1, 21), info = k)
  }
  expect_true(any(b$swaps > 0))
  e <- binned_error_rates(res, extrapolate_to = 50)
  # bins with at least two non-zero rates are extrapolated by a log-linear fit
  fitted_bins <- 0
  for (lo in unique(e$bin)) {
    one <- e[e$bin == lo & !e$extrapolated, ]
    ok <- !is.na(one$error_rate) & one$error_rate > 0
    ext <- e$error_rate[e$bin == lo & e$extrapolated]
    if (sum(ok) >= 2) {
      fit <- lm(log(error_rate) ~ size, data = one[ok, ])
      expect_equal(ext, unname(exp(predict(fit, data.frame(size = 50)))))
      fitted_bins <- fitted_bins + 1
    } else {
      expect_true(is.na(ext))
    }
  }
  expect_gt(fitted_bins, 0)
})

test_that("bad arguments give classed errors", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"))
  expect_error(swap_error_rates(ap, sizes = 26), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 0), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 2.5), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, aggregate = "median"), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, aggregate = function(v) c(1, 2)), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 3, aggregate = "area"), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, trials = 0), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, fuzz = -1), class = "irtopics_error_argument")
  bad <- unclass(ap); bad[1, 1] <- NA
  expect_error(swap_error_rates(bad), class = "irtopics_error_data")
  expect_error(swap_error_rates(ap[1, , drop = FALSE]), class = "irtopics_error_argument")
  expect_error(critical_values(list()), class = "irtopics_error_argument")
  r <- swap_error_rates(ap, sizes = 5, trials = 3, seed = 1, keep_sets = FALSE)
  expect_error(critical_values(r), class = "irtopics_error_argument")
  expect_error(bind_error_rates(1), class = "irtopics_error_argument")
  expect_error(binned_error_rates(r), class = "irtopics_error_argument")
  # method = "binned" works without keeping the sets (it used to fail)
  rb <- swap_error_rates(ap, sizes = 5, trials = 3, seed = 1, keep_sets = FALSE, method = "binned")
  expect_null(rb$sets)
  expect_equal(rb$binned, swap_error_rates(ap, sizes = 5, trials = 3, seed = 1, method = "binned")$binned)
  r2 <- swap_error_rates(ap, sizes = 5, trials = 3, seed = 1)
  expect_error(binned_error_rates(r2, n_bins = 3e9), class = "irtopics_error_argument")
})

test_that("a custom aggregate returning Inf or NaN is an error, not a silent count", {
  # a zero score makes 1 / min(x) infinite on some sets: Inf - Inf comparisons
  # used to be counted as LT and binned with an undefined bin index
  m <- matrix(c(0, .2, .3, .4, .5, .6, .7, .8, .1, .3, .5, .7, .2, .4, .6, .8,
                0, .9, .8, .7), 2, dimnames = list(c("a", "b"), 1:10))
  m <- rbind(m, c = 0)
  m["c", ] <- seq(.05, .5, length.out = 10)
  m["b", 1] <- 0
  expect_error(swap_error_rates(m, sizes = 4, trials = 20, seed = 1,
                                aggregate = function(x) 1 / min(x)),
               class = "irtopics_error_data")
  expect_error(swap_error_rates(m, sizes = 4, trials = 20, seed = 1,
                                aggregate = function(x) log(min(x)) - log(min(x))),
               class = "irtopics_error_data")
})

test_that("print and as.data.frame", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  r <- swap_error_rates(ap, sizes = 10, trials = 5, seed = 1)
  expect_output(print(r), "swap_error_rates")
  expect_output(print(critical_values(r)), "critical_values")
  expect_s3_class(as.data.frame(r), "data.frame")
  expect_named(as.data.frame(critical_values(r)),
               c("measure", "size", "critical_value", "critical_pct", "error_rate", "pct_significant"))
})

test_that("error messages are stable", {
  m <- matrix(runif(20), 2, dimnames = list(c("a", "b"), 1:10))
  expect_snapshot(swap_error_rates(m, sizes = c(3, 6, 8)), error = TRUE)
  expect_snapshot(swap_error_rates(m, aggregate = "median"), error = TRUE)
})

test_that("binned_error_rates bins %no in percentage points by default", {
  p10 <- read_scores(system.file("extdata", "score-matrices", "adhoc8_p10.csv", package = "irtopics"),
                     measure = "P@10")
  r <- swap_error_rates(p10, sizes = c(10, 20), trials = 20, seed = 3, aggregate = "pct_no")
  b <- binned_error_rates(r)
  expect_equal(unique(diff(b$bin[b$size == 10])), 1)
  # differences of a few percentage points land in the first bins, not all in the open last one
  last <- sum(b$count[b$size == 10 & b$bin == max(b$bin)])
  expect_lt(last, sum(b$count[b$size == 10]) / 2)
  expect_equal(sum(b$count[b$size == 10]), sum(binned_error_rates(r, bin_width = 0.01)$count[b$size == 10]))
})

test_that("area_divisor rescales the area to a fixed divisor at every size", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  off <- swap_error_rates(ap, sizes = c(8, 20), aggregate = "area", trials = 20, seed = 5)
  fix <- swap_error_rates(ap, sizes = c(8, 20), aggregate = "area", trials = 20, seed = 5, area_divisor = 12)
  # base-R reference: (1 / 12) * sum over X = 1..floor(n/4) of MAP(X)
  area12 <- function(v) { q <- length(v) %/% 4; w <- sort(v)[seq_len(q)]; sum(cumsum(w) / seq_len(q)) / 12 }
  perms <- matrix(with_seed(5, vapply(1:20, function(b) sample.int(50) - 1L, integer(50))), 50)
  m <- unclass(ap)
  attr(m, "measure") <- NULL
  for (k in 1:2) {
    n <- c(8, 20)[k]
    ref <- swap_reference(m, perms, n, area12)$sets
    expect_equal(unname(fix$sets[[k]]), ref, tolerance = 1e-12)
    expect_equal(fix$sets[[k]], off$sets[[k]] * (n %/% 4) / 12, tolerance = 1e-14)
  }
  # The relative fuzz of the error rate does not see a fixed scale per size.
  expect_equal(fix$error, off$error)
  # critical_values(area_divisor =) rescales a stored result the same way.
  expect_equal(critical_values(off, area_divisor = 12)$curves, critical_values(fix)$curves, tolerance = 1e-12)
  # (Up to swaps between systems whose areas are equal: the sign of their
  # difference, +-1e-17, depends on the order of the rounding.)
  five <- critical_values(swap_error_rates(ap, sizes = c(8, 20), aggregate = "area", trials = 20,
                                           seed = 5, area_divisor = 5))
  five_re <- critical_values(fix, area_divisor = 5)
  expect_equal(five_re$table, five$table, tolerance = 1e-12)
  expect_equal(five_re$curves$pct_significant, five$curves$pct_significant, tolerance = 1e-12)
  expect_equal(five_re$curves$error_rate, five$curves$error_rate, tolerance = 1e-3)
  expect_false(identical(critical_values(off)$curves$pct_significant,
                         critical_values(fix)$curves$pct_significant))
  expect_output(print(fix), "area divided by 12")
  expect_output(print(critical_values(fix)), "area divided by 12")
  expect_error(swap_error_rates(ap, sizes = 8, trials = 5, area_divisor = 12), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 8, aggregate = "area", trials = 5, area_divisor = 0),
               class = "irtopics_error_argument")
  expect_error(critical_values(swap_error_rates(ap, sizes = 8, trials = 5, seed = 1), area_divisor = 12),
               class = "irtopics_error_argument")
})

test_that("Voorhees (2004) Table 6, area row at 124 topics, with the track's area scale", {
  skip_on_cran()
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  e <- swap_error_rates(ap, sizes = 124, aggregate = "area", trials = 500, seed = 1, area_divisor = 12)
  cv <- critical_values(e)
  # Paper: critical value .015, 68.8% significant (spec: .015 in every seed; within 0.3 points).
  expect_equal(cv$table$critical_value, 0.015)
  expect_lte(max(abs(cv$table$pct_significant - 68.8)), 0.3)
  # Official scale (divided by floor(124 / 4) = 31): not the paper's values.
  off <- critical_values(e, area_divisor = 31)
  expect_equal(off$table$critical_value, 0.010)
})
