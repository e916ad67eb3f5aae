test_that("error rates and critical values plots", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"), measure = "AP")
  e <- bind_error_rates(swap_error_rates(ap, sizes = c(5, 10), trials = 10, seed = 1),
                        swap_error_rates(ap, sizes = c(5, 10), aggregate = "gmean", trials = 10, seed = 1))
  d <- ggplot2::layer_data(ggplot2::autoplot(e))
  expect_equal(nrow(d), 4)
  expect_equal(sort(d$y), sort(100 * e$error$error_rate))
  expect_equal(length(unique(d$colour)), 2)
  t <- ggplot2::layer_data(ggplot2::autoplot(e, what = "ties"))
  expect_equal(sort(t$y), sort(100 * e$error$tie_rate))
  cv <- critical_values(swap_error_rates(ap, sizes = 10, trials = 10, seed = 1))
  c1 <- ggplot2::layer_data(ggplot2::autoplot(cv))
  expect_equal(c1$y, 100 * cv$curves$error_rate[!is.na(cv$curves$error_rate)])
})

test_that("the swap method's default sizes give a curve on 100 topics", {
  ap <- robust()
  e <- swap_error_rates(ap[best(ap, 20), 1:100], trials = 20, seed = 1)
  expect_identical(e$sizes, seq(5L, 50L, by = 5L))
  p <- ggplot2::autoplot(e)
  expect_identical(nrow(layers_of(p, "GeomPoint")[[1]]), 10L)
  expect_match(p$labels$title, "MAP")
  expect_identical(irtopics:::default_swap_sizes(124), c(seq(13L, 117L, by = 13L), 124L))
  expect_identical(irtopics:::default_swap_sizes(1), 1L)
  ec <- swap_error_rates(ap[best(ap, 20), ], sizes = c(10, 20), aggregate = "area", trials = 20, seed = 1)
  expect_match(ggplot2::autoplot(critical_values(ec))$labels$x, "area")
})

# 3. n_threads bounds ------------------------------------------------------------

test_that("n_threads is a whole number, capped at the cores, in every function", {
  expect_identical(resolve_threads(400), thread_cap())
  expect_identical(resolve_threads(1e5), thread_cap())
  expect_true(thread_cap() >= 2L)
  for (bad in list(1e10, 2.5, 0, NA, "2", c(1, 2), Inf)) {
    expect_error(resolve_threads(bad), class = "irtopics_error_argument")
  }
  withr::local_options(irtopics.n_threads = 1e10)
  expect_error(resolve_threads(NULL), class = "irtopics_error_argument")
  m <- matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3))
  expect_error(swap_error_rates(m, n_threads = 1e10), class = "irtopics_error_argument")
  withr::local_options(irtopics.n_threads = 1L)
  expect_s3_class(swap_error_rates(m, sizes = 1, trials = 5, seed = 1, n_threads = 100000),
                  "swap_error_rates")
})

# 10. Integer-like arguments -------------------------------------------------------

test_that("depths, cut-offs, counts and trials beyond the integer range are classed errors", {
  run <- data.frame(system = "s", topic = "1", docno = c("d1", "d2"), score = 2:1)
  qrels <- data.frame(topic = "1", docno = c("d1", "d2"), rel = c(1L, 0L))
  for (d in list(3e9, 1e300, 0, 2.5, NA, "10", c(5, 10))) {
    expect_error(evaluate(run, qrels, "AP", depth = d), class = "irtopics_error_argument")
    expect_error(return_orders(run, qrels, depth = d), class = "irtopics_error_argument")
  }
  expect_equal(evaluate(run, qrels, "AP", depth = Inf)$AP[1, 1], 1)
  expect_error(return_orders(run, qrels, depth = Inf), class = "irtopics_error_argument")
  for (m in list("P@99999999999999999999", list(x = "P@99999999999999999999"), "nDCG@3000000000",
                 "ndcg_cut_3000000000")) {
    expect_error(evaluate(run, qrels, m), class = "irtopics_error_measure")
  }
  expect_equal(evaluate(run, qrels, "P@2147483647")[[1]][1, 1], 1 / 2147483647)
  m <- matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3))
  for (t in list(1e10, 0, 2.5)) {
    expect_error(swap_error_rates(m, trials = t), class = "irtopics_error_argument")
  }
  expect_error(swap_error_rates(m, sizes = 1, trials = 5, seed = 3e9), class = "irtopics_error_argument")
  expect_identical(check_whole(5), 5L)
  expect_identical(check_whole(Inf, allow_inf = TRUE), Inf)
  expect_error(check_whole(.Machine$integer.max + 1), class = "irtopics_error_argument")
  expect_error(check_number(3e9, "x", integer = TRUE), class = "irtopics_error_argument")
})

# 14. Score matrices and seeds ------------------------------------------------------

test_that("edited names and huge values of score matrices give classed errors", {
  m <- as_ir_scores(matrix(c(.1, .5, .3, .2, .4, .6), 2, dimnames = list(c("a", "b"), 1:3)))
  dup <- m
  rownames(dup) <- c("a", "a")
  na <- m
  rownames(na) <- c("a", NA)
  empty <- m
  rownames(empty) <- c("a", "")
  huge <- m
  huge[1, 1] <- 1e308
  for (x in list(dup, na, empty, huge)) {
    expect_error(check_scores(x), class = "irtopics_error_data")
    expect_error(swap_error_rates(x, sizes = 1, trials = 5, seed = 1), class = "irtopics_error_data")
    expect_error(cronbach_alpha(x), class = "irtopics_error_data")
  }
  nonames <- m
  dimnames(nonames) <- NULL
  expect_identical(rownames(check_scores(nonames)), c("sys1", "sys2"))
  expect_error(check_scores(matrix(1:4, 2, dimnames = list(c("a", "a"), NULL))), "must be unique",
               class = "irtopics_error_argument")
})

test_that("a seed fixes the RNG kind and leaves the user's kind and state alone", {
  m <- matrix(c(.1, .5, .3, .2, .4, .6, .7, .2, .1, .3, .3, .8), 3,
              dimnames = list(c("a", "b", "c"), 1:4))
  ref <- swap_error_rates(m, sizes = 2, trials = 30, seed = 42)
  old_kind <- RNGkind()
  withr::defer(do.call(RNGkind, as.list(old_kind)))
  suppressWarnings(RNGkind("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  set.seed(7)
  state <- .Random.seed
  expect_equal(swap_error_rates(m, sizes = 2, trials = 30, seed = 42), ref)
  expect_identical(RNGkind(), c("L'Ecuyer-CMRG", "Box-Muller", "Rounding"))
  expect_identical(.Random.seed, state)
  expect_identical(with_seed(1, sample.int(1000, 3)),
                   local({ withr::local_seed(1, .rng_kind = "Mersenne-Twister", .rng_sample_kind = "Rejection",
                                             .rng_normal_kind = "Inversion"); sample.int(1000, 3) }))
})

test_that("an interrupt stops the swap method between chunks and leaves the session usable", {
  skip_if_no_interrupts()
  withr::local_options(irtopics.progress = FALSE)
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
  # the countdown runs across the chunks' C++ calls: the signal comes in a
  # later chunk
  res <- with_interrupt_in(swap_error_rates(ap, sizes = c(25, 50), trials = 2000, seed = 1), polls = 20L)
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
  a <- swap_error_rates(ap, sizes = 25, trials = 50, seed = 3)
  b <- swap_error_rates(ap, sizes = 25, trials = 50, seed = 3)
  expect_identical(a$error, b$error)
})

test_that("an interrupt stops critical_values(definition = 'threshold') inside one C++ call", {
  skip_if_no_interrupts()
  withr::local_options(irtopics.progress = FALSE)
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
  small <- swap_error_rates(ap, sizes = 25, trials = 100, seed = 1, keep_sets = TRUE)
  big <- swap_error_rates(ap, sizes = 25, trials = 1000, seed = 1, keep_sets = TRUE)
  for (threads in 1:2) {
    res <- with_interrupt_in(critical_values(big, definition = "threshold", n_threads = threads), polls = 2L)
    expect_true(res$interrupted, label = sprintf("interrupted with %d threads", threads))
    expect_identical(res$raised, 1L)
  }
  expect_identical(critical_values(small, definition = "threshold", n_threads = 2),
                   critical_values(small, definition = "threshold", n_threads = 1))
})

test_that("error and tie rates are percentages in prints, proportions in the data", {
  fx <- methods_fixtures()
  e <- fx$swap_error_rates
  lines <- format(e)
  for (k in seq_len(nrow(e$error))) {
    expect_true(any(grepl(sprintf("%.2f%%", 100 * e$error$error_rate[k]), lines, fixed = TRUE)))
    expect_true(any(grepl(sprintf("%.2f%%", 100 * e$error$tie_rate[k]), lines, fixed = TRUE)))
  }
  expect_true(all(as.data.frame(e)$error_rate <= 1))
  cv <- fx$critical_values
  ok <- !is.na(cv$table$error_rate)
  if (any(ok)) {
    expect_true(any(grepl(sprintf("%.2f%%", 100 * cv$table$error_rate[ok][1]), format(cv), fixed = TRUE)))
  }
  expect_match(format(cv)[1], "error <= 5.0%", fixed = TRUE)
})

test_that("swap_error_rates() and bind_error_rates() give one shape", {
  ap <- class_fixtures()$ir_scores
  a <- swap_error_rates(ap, sizes = 3, trials = 5, seed = 1)
  b <- bind_error_rates(a, swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = "gmean"))
  expect_identical(names(a), names(b))
  expect_identical(class(a), class(b))
  expect_identical(class(a), c("ir_swap_error_rates", "swap_error_rates"))
  # users' code on the old class name keeps working
  expect_true(inherits(b, "swap_error_rates"))
  expect_s3_class(critical_values(a), "critical_values")
})

test_that("seeds must be whole numbers in R's integer range", {
  ap <- read_scores(extdata("score-matrices", "adhoc3.csv"), measure = "AP")
  expect_error(swap_error_rates(ap, sizes = 5, trials = 2, seed = 1e10), class = "irtopics_error_argument")
  expect_error(swap_error_rates(ap, sizes = 5, trials = 2, seed = 1.5), class = "irtopics_error_argument")
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

test_that("results do not change with the default thread count", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  withr::local_options(irtopics.progress = FALSE)
  one <- withr::with_options(list(irtopics.n_threads = 1L), list(
    swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 2)$error,
    alpha_bootstrap(ap, B = 300, seed = 2)$draws,
    compare_systems(ap[1:6, ], test = "bootstrap", B = 600, seed = 2)$table
  ))
  two <- withr::with_options(list(irtopics.n_threads = 2L), list(
    swap_error_rates(ap, sizes = c(10, 20), trials = 40, seed = 2)$error,
    alpha_bootstrap(ap, B = 300, seed = 2)$draws,
    compare_systems(ap[1:6, ], test = "bootstrap", B = 600, seed = 2)$table
  ))
  expect_identical(one, two)
})

test_that("the error-rate figure fits a column and a page, in the user's theme; a legend only for several measures", {
  ap <- robust()
  e <- swap_error_rates(ap[best(ap, 17), ], sizes = c(10, 25, 50), trials = 10, seed = 1)
  e2 <- bind_error_rates(e, swap_error_rates(robust("P@10")[best(ap, 17), ], sizes = c(10, 25, 50),
                                              trials = 10, seed = 1))
  for (x in list(e, e2)) {
    for (what in c("error", "ties")) {
      make <- function() ggplot2::autoplot(x, what = what)
      expect_follows_user_theme(make)
      expect_figure_ready(make())
      expect_figure_ready(make(), width = 7, height = 4.5)
    }
  }
  expect_false(has_legend(ggplot2::autoplot(e)))
  expect_true(has_legend(ggplot2::autoplot(e2)))
  # a title of words, not cut mid-phrase
  expect_identical(ggplot2::autoplot(e)$labels$title, "Swap method: error rate of MAP")
  expect_identical(ggplot2::autoplot(e2)$labels$title, "Swap method: error rate of 2 measures")
})
