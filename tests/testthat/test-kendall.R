# tau_AP (Yilmaz, Aslam & Robertson 2008) -------------------------------------

# The published definition, O(n^2): items in the order of x (largest first),
# C(i) = items above position i that y also ranks above the item at i.
tau_ap_reference <- function(x, y) {
  ys <- y[order(-x)]
  n <- length(x)
  s <- 0
  for (i in 2:n) s <- s + sum(ys[seq_len(i - 1)] > ys[i]) / (i - 1)
  2 / (n - 1) * s - 1
}

# Every total order consistent with v (tie groups permuted), as rank vectors.
consistent_orders <- function(v) {
  perms <- function(k) {
    if (k == 1) return(matrix(1L))
    p <- perms(k - 1)
    do.call(rbind, lapply(seq_len(k), function(i) cbind(i, p + (p >= i))))
  }
  base <- rank(v, ties.method = "min")
  out <- list(base)
  for (grp in split(seq_along(v), v)) {
    P <- perms(length(grp))
    out <- unlist(lapply(out, function(r) lapply(seq_len(nrow(P)), function(j) {
      r[grp] <- base[grp[1]] + P[j, ] - 1
      r
    })), recursive = FALSE)
  }
  out
}

test_that("kendall_tau equals cor(method = 'kendall') with and without ties", {
  set.seed(42)
  for (i in 1:50) {
    n <- sample(2:60, 1)
    x <- sample(1:8, n, replace = TRUE) / 8
    y <- sample(1:8, n, replace = TRUE) / 8 + (i %% 2) * runif(n)
    ref <- suppressWarnings(cor(x, y, method = "kendall"))
    expect_equal(kendall_tau(x, y), ref, tolerance = 1e-12)
  }
  x <- rnorm(200); y <- x + rnorm(200)
  expect_equal(kendall_tau(x, y), cor(x, y, method = "kendall"), tolerance = 1e-12)
})

test_that("tau-a and tau-b follow the spec's worked example (section 2.5)", {
  ap <- c(0, .02, .10, .35, .50, .05, .80, 0, .20, .04, .60, .15)
  pred <- c(12, 9, 6, 3, 4, 11, 1, 10, 5, 8, 2, 7)
  expect_equal(kendall_tau(-pred, ap, type = "a"), 0.8333333333, tolerance = 1e-9)
  expect_equal(kendall_tau(-pred, ap), 0.8397191228, tolerance = 1e-9)
})

test_that("degenerate inputs give NA and bad inputs classed errors", {
  expect_identical(kendall_tau(1, 2), NA_real_)
  expect_identical(kendall_tau(c(1, 1, 1), c(1, 2, 3)), NA_real_)
  expect_error(kendall_tau(1:3, 1:2), class = "irtopics_error_argument")
  expect_error(kendall_tau(c(1, NA), 1:2), class = "irtopics_error_data")
})

test_that("tau_AP equals the published O(n^2) definition without ties", {
  set.seed(7)
  for (i in 1:30) {
    n <- sample(2:80, 1)
    x <- rnorm(n)
    y <- x + rnorm(n, sd = runif(1, 0.1, 2))
    expect_equal(kendall_tau(x, y, type = "ap"), tau_ap_reference(x, y), tolerance = 1e-12)
  }
  # identical and reversed rankings
  expect_equal(kendall_tau(1:10, 1:10, type = "ap"), 1)
  expect_equal(kendall_tau(1:10, 10:1, type = "ap"), -1)
})

test_that("tau_AP is top-weighted and not symmetric", {
  truth <- 5:1
  top_swap <- kendall_tau(c(4, 5, 3, 2, 1), truth, type = "ap")
  bottom_swap <- kendall_tau(c(5, 4, 3, 1, 2), truth, type = "ap")
  expect_equal(top_swap, 0.5)
  expect_equal(bottom_swap, 0.875)
  # tau-b does not see the difference
  expect_equal(kendall_tau(c(4, 5, 3, 2, 1), truth), kendall_tau(c(5, 4, 3, 1, 2), truth))
  x <- c(3, 1, 4, 5, 2, 6); y <- c(1, 2, 3, 6, 5, 4)
  expect_false(isTRUE(all.equal(kendall_tau(x, y, type = "ap"), kendall_tau(y, x, type = "ap"))))
})

test_that("tau_AP with ties is the expectation over random tie-breaking", {
  set.seed(11)
  for (i in 1:12) {
    x <- sample(1:4, 7, replace = TRUE)
    y <- sample(1:4, 7, replace = TRUE)
    if (length(unique(x)) < 2 || length(unique(y)) < 2) next
    ref <- mean(vapply(consistent_orders(x), function(a) {
      mean(vapply(consistent_orders(y), function(b) tau_ap_reference(a, b), 0))
    }, 0))
    expect_equal(kendall_tau(x, y, type = "ap"), ref, tolerance = 1e-12)
  }
  expect_identical(kendall_tau(c(1, 1, 1), 1:3, type = "ap"), NA_real_)
  expect_identical(kendall_tau(1:3, c(2, 2, 2), type = "ap"), NA_real_)
  expect_identical(kendall_tau(1, 1, type = "ap"), NA_real_)
})

test_that("tau_interval(): the bootstrap over topics is boot.ci()'s percentile interval", {
  skip_if_not_installed("boot")
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP")[1:15, ]
  p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")[rownames(ap), colnames(ap)]
  B <- 499
  ti <- tau_interval(ap, p10, B = B, seed = 5, method = "percentile")
  # the reference ranks exact means: AP is given to 4 decimals and P@10 in
  # tenths, so sums of whole numbers of 1e-4 and of 0.1 have the exact ties
  # that rowMeans() rounds apart (issue 40: the estimate was 0.7143)
  whole_ap <- round(unclass(ap) * 1e4)
  whole_p10 <- round(unclass(p10) * 10)
  expect_equal(ti$estimate, cor(rowSums(whole_ap), rowSums(whole_p10), method = "kendall"))
  expect_false(isTRUE(all.equal(ti$estimate, cor(rowMeans(ap), rowMeans(p10), method = "kendall"))))
  # boot() over topic columns, the same resamples after set.seed()
  both <- t(rbind(whole_ap, whole_p10))
  n <- nrow(ap)
  set.seed(5, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  b <- boot::boot(both, function(d, i) {
    cor(colSums(d[i, 1:n]), colSums(d[i, n + 1:n]), method = "kendall")
  }, R = B)
  expect_equal(ti$replicates, b$t[, 1], tolerance = 1e-12)
  ref <- boot::boot.ci(b, type = "perc")$percent[4:5]
  expect_equal(c(ti$conf.low, ti$conf.high), ref, tolerance = 1e-10)
  expect_identical(tau_interval(ap, p10, B = B, seed = 5, method = "percentile"), ti)
  # BCa with the jackknife's influence values
  tb <- tau_interval(ap, p10, B = B, seed = 5, method = "bca")
  expect_identical(tb$method, "bca")
  expect_identical(tb$target, "population")
  # the influence values of Efron & Tibshirani's acceleration (14.15), by hand
  loo <- vapply(seq_len(ncol(ap)), function(i) {
    cor(rowSums(whole_ap[, -i]), rowSums(whole_p10[, -i]), method = "kendall")
  }, 0)
  L <- (ncol(ap) - 1) * (mean(loo) - loo)
  ref <- boot::boot.ci(b, type = "bca", L = L)$bca[4:5]
  expect_equal(c(tb$conf.low, tb$conf.high), ref, tolerance = 1e-10)
})

test_that("tau_interval(): the jackknife interval by hand", {
  set.seed(1)
  x <- rnorm(30)
  y <- x + rnorm(30)
  ti <- tau_interval(x, y, method = "jackknife", conf = 0.9)
  loo <- vapply(1:30, function(i) cor(x[-i], y[-i], method = "kendall"), 0)
  se <- sqrt(29 / 30 * sum((loo - mean(loo))^2))
  est <- cor(x, y, method = "kendall")
  expect_equal(ti$replicates, loo)
  expect_equal(c(ti$conf.low, ti$conf.high), est + c(-1, 1) * qnorm(0.95) * se)
  expect_equal(ti$std.error, se)
  # cut to [-1, 1]
  expect_identical(tau_interval(1:10, c(1:9, 11), method = "jackknife")$conf.high, 1)
  # jackknife over topics for matrices
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP")[1:10, 1:12]
  p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")[rownames(ap), colnames(ap)]
  tj <- tau_interval(ap, p10, method = "jackknife")
  expect_equal(tj$replicates[3], cor(rowMeans(ap[, -3]), rowMeans(p10[, -3]), method = "kendall"))
  expect_error(tau_interval(x, y, method = "bca"), class = "irtopics_error_argument")
  expect_identical(tau_interval(x, y)$method, "jackknife")
  expect_error(tau_interval(ap, p10[, 1:11]), class = "irtopics_error_data")
  expect_error(tau_interval(c(1, NA, 3), 1:3, method = "jackknife"), class = "irtopics_error_data")
  p <- ggplot2::autoplot(ti)
  b <- ggplot2::ggplot_build(p)
  expect_equal(sum(b$data[[1]]$count), 30)
  expect_equal(sort(b$data[[2]]$xintercept), sort(c(ti$estimate, ti$conf.low, ti$conf.high)))
})

test_that("tau_interval(): the target names the tau the interval is for, and picks the method that covers it", {
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP")[1:15, ]
  p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")[rownames(ap), colnames(ap)]
  # the tau expected on 50 topics (the default): the bootstrap's percentile
  # interval, or the normal one (estimate +- z sd(resampled tau))
  ex <- tau_interval(ap, p10, B = 499, seed = 5)
  expect_identical(c(ex$target, ex$method), c("expected", "percentile"))
  expect_identical(ex$conf.low, tau_interval(ap, p10, method = "percentile", B = 499, seed = 5)$conf.low)
  expect_identical(ex$conf.high, tau_interval(ap, p10, target = "expected", B = 499, seed = 5)$conf.high)
  nm <- tau_interval(ap, p10, method = "normal", B = 499, seed = 5)
  expect_identical(nm$target, "expected")
  expect_identical(nm$replicates, ex$replicates)
  expect_equal(c(nm$conf.low, nm$conf.high), nm$estimate + c(-1, 1) * qnorm(0.975) * sd(ex$replicates))
  expect_equal(nm$std.error, sd(ex$replicates))
  # the population tau: the jackknife over topics
  pop <- tau_interval(ap, p10, target = "population")
  expect_identical(c(pop$target, pop$method), c("population", "jackknife"))
  expect_identical(pop$conf.low, tau_interval(ap, p10, method = "jackknife")$conf.low)
  # (P@10's means from the exact sums of relevant documents: its equal means are ties)
  loo <- vapply(seq_len(ncol(ap)), function(i) {
    cor(rowMeans(ap[, -i]), rowSums(round(unclass(p10)[, -i] * 10)), method = "kendall")
  }, 0)
  se <- sqrt(49 / 50 * sum((loo - mean(loo))^2))
  expect_equal(c(pop$conf.low, pop$conf.high), pmin(pmax(pop$estimate + c(-1, 1) * qnorm(0.975) * se, -1), 1))
  expect_identical(tau_interval(ap, p10, method = "bca", B = 499, seed = 5)$target, "population")
  # a method of the other target is an error that names the right one
  expect_error(tau_interval(ap, p10, target = "population", method = "percentile"),
               class = "irtopics_error_argument", regexp = "jackknife")
  expect_error(tau_interval(ap, p10, target = "expected", method = "bca"), class = "irtopics_error_argument",
               regexp = "percentile")
  expect_error(tau_interval(ap, p10, target = "all"), class = "irtopics_error_argument")
  # two vectors: the items are the sample, the jackknife's population of items the only target
  expect_error(tau_interval(rowMeans(ap), rowMeans(p10), target = "expected"), class = "irtopics_error_argument")
  v <- tau_interval(rowMeans(ap), rowMeans(p10))
  expect_identical(c(v$target, v$method), c("population", "jackknife"))
  # print, summary, the data frame and the figure say which tau
  expect_match(format(pop)[3], "interval for the tau over the population of topics")
  expect_match(format(ex)[3], "interval for the tau to expect from an evaluation on 50 topics")
  expect_match(format(v)[3], "interval for the tau of the population of items")
  expect_match(summary(ex)$title, "to expect from an evaluation on 50 topics")
  expect_identical(as.data.frame(ex)$target, "expected")
  expect_match(ggplot2::autoplot(pop)$labels$subtitle, "population\\s+tau")
  expect_match(ggplot2::autoplot(ex)$labels$subtitle, "tau\\s+expected\\s+on\\s+50\\s+topics")
})

test_that("tau_interval(): print says so when the interval lies below its estimate", {
  # 30 systems, two evaluations that agree closely on 25 topics: the resampled
  # topic sets rank the systems less alike, and the percentile interval
  # lies below the estimate
  set.seed(1)
  x <- outer(seq(0.2, 0.4, length.out = 30), rnorm(25, 0, 0.1), "+") + matrix(rnorm(30 * 25, 0, 0.08), 30)
  y <- x + matrix(rnorm(30 * 25, 0, 0.04), 30)
  dimnames(x) <- dimnames(y) <- list(paste0("s", 1:30), paste0("t", 1:25))
  pc <- tau_interval(x, y, B = 500, seed = 1)
  expect_identical(pc$method, "percentile")
  expect_lt(pc$conf.high, pc$estimate)
  expect_match(format(pc)[4], "^Note: the interval of tau \\[.*\\] lies below its estimate")
  expect_match(format(pc)[4], "expect on 25 topics")
  # the jackknife and the normal interval contain the estimate: no note
  for (ti in list(tau_interval(x, y, target = "population"), tau_interval(x, y, method = "normal", B = 500, seed = 1))) {
    expect_true(ti$conf.low <= ti$estimate && ti$estimate <= ti$conf.high)
    expect_length(format(ti), 3L)
  }
})

test_that("the tau interval's figure writes tau as a symbol, follows the user's theme and fits a column", {
  dir <- system.file("extdata", "score-matrices", package = "irtopics")
  ap <- read_scores(file.path(dir, "adhoc8_ap.csv"), measure = "AP")
  p10 <- read_scores(file.path(dir, "adhoc8_p10.csv"), measure = "P@10")[rownames(ap), colnames(ap)]
  top <- order(-rowMeans(ap))[1:20]
  # with B = 200 the BCa interval's upper end is the largest resample, and the package says so
  expect_warning(ti <- tau_interval(ap[top, ], p10[top, ], method = "bca", B = 200, seed = 1),
                 class = "irtopics_warning_extreme")
  p <- ggplot2::autoplot(ti)
  # plotmath, not "tau-b" spelt out: the title and the axis are expressions with tau[b]
  expect_true(is.call(p$labels$title))
  expect_match(paste(deparse(p$labels$title), collapse = ""), "tau[b]", fixed = TRUE)
  expect_match(paste(deparse(p$labels$x), collapse = ""), "tau[b]", fixed = TRUE)
  expect_match(paste(deparse(p$labels$title), collapse = ""), sprintf("%.3f", ti$estimate), fixed = TRUE)
  expect_match(paste(deparse(ggplot2::autoplot(tau_interval(rowMeans(ap), rowMeans(p10), type = "ap"))$labels$x),
                     collapse = ""), "tau[AP]", fixed = TRUE)
  # the legend names the interval's level
  expect_identical(as.vector(ggplot2::ggplot_build(p)$plot$scales$get_scales("linetype")$get_labels()),
                   c("estimate", "95% interval"))
  expect_follows_user_theme(function() ggplot2::autoplot(ti))
  expect_figure_ready(p, 3.5, 2.6)
  expect_figure_ready(p, 7, 4.5)
})

test_that("tau_interval() ranks each matrix by its own direction (issue 40)", {
  err <- error_matrix()
  # the same ranking, once as error rates (lower is better) and once negated (higher is better)
  ti <- tau_interval(err, negated(err), B = 200, seed = 1)
  expect_identical(ti$estimate, 1)
  expect_identical(tau_interval(err, negated(err), method = "jackknife")$estimate, 1)
  expect_identical(tau_interval(err, negated(err), type = "ap", method = "jackknife")$estimate, 1)
})

test_that("kendall_tau() stops on an interrupt inside its C++ kernels (issue 43)", {
  # the kernels ask every 2^16 items (sorts included): an interrupt at the
  # third ask stops each of them in the middle of 1e6 scores
  skip_if_no_interrupts()
  x <- withr::with_seed(31, runif(1e6))
  y <- withr::with_seed(32, round(x + runif(1e6), 2))
  for (type in c("b", "a", "ap")) {
    before <- kendall_tau(x, y, type)
    res <- with_interrupt_in(kendall_tau(x, y, type), polls = 2L)
    expect_true(res$interrupted, label = type)
    expect_identical(res$raised, 1L, label = type)
    # and the session gives the same number afterwards
    expect_identical(kendall_tau(x, y, type), before, label = type)
  }
})
