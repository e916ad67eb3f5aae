# Topic set size ---------------------------------------------------------------

test_that("topic_set_size(): the Sakai Table 5.1 values of the inference spec", {
  t1 <- topic_set_size("t", min_diff = c(.05, .10), sd_diff = .15853, alpha = .05, beta = .20)
  expect_equal(t1$n_topics, c(81L, 22L))
  av <- topic_set_size("anova", min_diff = .10, m = 3, variance = .021886)
  expect_equal(av$n_topics, 44L)
  expect_equal(round(av$power, 4), .8080)
  expect_equal(topic_set_size("ci", width = .10, variance = .021886)$n_topics, 70L)
  expect_equal(topic_set_size("ci", width = .10, sd_diff = .15853)$n_topics, 41L)
  # from the pilot matrix: V_E of the two-way ANOVA, or the a - b differences
  x <- sakai_table51()
  pv <- topic_set_size("anova", min_diff = .10, m = 3, pilot = x)
  expect_equal(pv$variance, anova_scores(x)$residual_variance)
  expect_equal(round(pv$variance, 6), .021886)
  expect_equal(pv$n_topics, 44L)
  expect_equal(topic_set_size("ci", width = .10, pilot = x)$n_topics, 70L)
  pd <- topic_set_size("t", min_diff = c(.05, .10), pilot = x, systems = c("a", "b"))
  expect_equal(round(pd$sd_diff[1], 5), .15853)
  expect_equal(pd$n_topics, c(81L, 22L))
})

test_that("topic_set_size('t') equals a search over power.t.test", {
  grid <- expand.grid(d = c(.02, .05, .08, .15), alpha = c(.01, .05), beta = c(.1, .2, .5))
  res <- topic_set_size("t", min_diff = c(.02, .05, .08, .15), alpha = c(.01, .05), beta = c(.1, .2, .5),
                        sd_diff = .2)
  expect_equal(nrow(res), nrow(grid))
  expect_equal(res$min_diff, grid$d)
  search <- vapply(seq_len(nrow(grid)), function(i) {
    n <- 2
    while (power.t.test(n = n, delta = grid$d[i], sd = .2, sig.level = grid$alpha[i],
                        type = "paired")$power < 1 - grid$beta[i]) n <- n + 1
    n
  }, numeric(1))
  expect_equal(res$n_topics, as.integer(search))
  expect_equal(res$power, vapply(seq_len(nrow(grid)), function(i) {
    power.t.test(n = search[i], delta = grid$d[i], sd = .2, sig.level = grid$alpha[i], type = "paired")$power
  }, numeric(1)))
})

test_that("topic_set_size('anova') equals power.anova.test with the same effect; 'ci' is the smallest n", {
  res <- topic_set_size("anova", min_diff = c(.05, .1, .2), m = c(2, 5, 20), variance = .02)
  expect_equal(nrow(res), 9)
  for (i in seq_len(nrow(res))) {
    m <- res$m[i]
    # two systems at -minD/2 and +minD/2, the others at the middle: the
    # variance of the means is minD^2 / (2 (m - 1))
    pw <- function(n) power.anova.test(groups = m, n = n, between.var = res$min_diff[i]^2 / (2 * (m - 1)),
                                       within.var = .02)$power
    expect_gte(pw(res$n_topics[i]), .8)
    expect_lt(pw(res$n_topics[i] - 1), .8)
    expect_equal(res$power[i], pw(res$n_topics[i]))
  }
  ci <- topic_set_size("ci", width = c(.05, .1, .2), alpha = c(.05, .1), sd_diff = .2)
  w <- function(n, a) 2 * qt(1 - a / 2, n - 1) * .2 * (1 - 1 / (4 * (n - 1))) / sqrt(n)
  for (i in seq_len(nrow(ci))) {
    n <- 2:5000
    expect_equal(ci$n_topics[i], min(n[w(n, ci$alpha[i]) <= ci$width[i]]))
  }
})

test_that("topic_set_size(): print, as.data.frame, autoplot one line per m", {
  res <- topic_set_size("anova", min_diff = seq(.05, .2, by = .05), m = c(2, 10), variance = .02)
  expect_output(print(res), "one-way ANOVA")
  df <- as.data.frame(res)
  expect_s3_class(df, "data.frame")
  expect_false(inherits(df, "ir_topic_set_size"))
  ld <- ggplot2::layer_data(ggplot2::autoplot(res), 1)
  expect_equal(length(unique(ld$colour)), 2)
  expect_equal(sort(ld$y), sort(res$n_topics))
  ta <- topic_set_size("t", min_diff = c(.05, .1), alpha = c(.01, .05), variance = .02)
  expect_equal(length(unique(ggplot2::layer_data(ggplot2::autoplot(ta), 1)$colour)), 2)
  expect_warning(big <- topic_set_size("t", min_diff = 1e-4, variance = 1, max_topics = 1000),
                 class = "irtopics_warning_warning")
  expect_true(is.na(big$n_topics))
})

test_that("topic_set_size(): bad input is a classed error naming the argument", {
  expect_error(topic_set_size("t", min_diff = 0, variance = .02), class = "irtopics_error_argument", regexp = "min_diff")
  expect_error(topic_set_size("t", min_diff = -.1, variance = .02), class = "irtopics_error_argument", regexp = "min_diff")
  expect_error(topic_set_size("t", variance = .02), class = "irtopics_error_argument", regexp = "min_diff")
  expect_error(topic_set_size("t", min_diff = .1, beta = 1, variance = .02), class = "irtopics_error_argument", regexp = "beta")
  expect_error(topic_set_size("t", min_diff = .1, beta = 0, variance = .02), class = "irtopics_error_argument", regexp = "beta")
  expect_error(topic_set_size("t", min_diff = .1, alpha = 1.2, variance = .02), class = "irtopics_error_argument", regexp = "alpha")
  expect_error(topic_set_size("ci", width = 0, variance = .02), class = "irtopics_error_argument", regexp = "width")
  expect_error(topic_set_size("anova", min_diff = .1, m = 1, variance = .02), class = "irtopics_error_argument", regexp = "m")
  expect_error(topic_set_size("t", min_diff = .1), class = "irtopics_error_argument", regexp = "exactly one")
  expect_error(topic_set_size("t", min_diff = .1, variance = .02, sd_diff = .2), class = "irtopics_error_argument",
               regexp = "exactly one")
  expect_error(topic_set_size("t", min_diff = .1, variance = -1), class = "irtopics_error_argument", regexp = "variance")
  x <- sakai_table51()
  x[2, 3] <- NA
  expect_error(topic_set_size("t", min_diff = .1, pilot = x), class = "irtopics_error_data", regexp = "pilot")
  expect_error(topic_set_size("t", min_diff = .1, pilot = sakai_table51(), systems = c("a", "z")),
               class = "irtopics_error_argument", regexp = "systems")
  expect_error(topic_set_size("anova", min_diff = .1, m = 3, pilot = sakai_table51(), systems = c("a", "b")),
               class = "irtopics_error_argument", regexp = "systems")
  expect_error(topic_set_size("x", min_diff = .1, variance = .02), class = "irtopics_error_argument")
})

# Discriminative power -------------------------------------------------------------

design_pair <- function(k = 10) {
  path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
  ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
  p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
  keep <- rownames(ap)[seq_len(k)]
  list(AP = ap[keep, ], `P@10` = p10[keep, ])
}

# Sakai's studentized bootstrap in base R, given the n x B index matrix.
base_bootstrap <- function(x, i, k, idx) {
  d <- x[i, ] - x[k, ]
  n <- length(d)
  t0 <- mean(d) / (sd(d) / sqrt(n))
  w <- d - mean(d)
  scale <- max(abs(x[c(i, k), ]))
  ts <- apply(idx, 2, function(j) {
    s <- sd(w[j])
    if (s <= 1e-9 * scale) 0 else mean(w[j]) / (s / sqrt(n))
  })
  mc_pvalue(abs(ts) >= abs(t0) * (1 - 1e-9) - 1e-9)
}

test_that("discriminative power equals a base-R bootstrap on the same draws (10 systems, both measures)", {
  mats <- design_pair(10)
  dp <- discriminative_power(mats, B = 200, seed = 42)
  expect_equal(dp$summary$measure, c("AP", "P@10"))
  expect_equal(dp$summary$n_pairs, c(45L, 45L))
  idx <- resample_draws("indices", key = 42, n = 50, first = 1, count = 200)
  for (nm in names(mats)) {
    x <- unclass(mats[[nm]])[, ]
    pr <- combn(10, 2)
    ref <- apply(pr, 2, function(p) base_bootstrap(x, p[1], p[2], idx))
    got <- dp$pairs[dp$pairs$measure == nm, ]
    expect_equal(got$p.value, ref)
    if (nm == "P@10") {
      # systems 9 and 10 have the same P@10 mean: t0 is rounding noise and
      # every sample ties with it
      expect_equal(got$p.value[45], 1)
    }
    expect_equal(got$system1, rownames(x)[pr[1, ]])
    expect_equal(got$estimate, unname(rowMeans(x)[pr[1, ]] - rowMeans(x)[pr[2, ]]))
    s <- dp$summary[dp$summary$measure == nm, ]
    expect_equal(s$discriminative_power, mean(ref < .05))
    expect_equal(s$difference_required, min(abs(got$estimate[ref < .05])))
  }
  # threads, seeds and the single-matrix form
  expect_identical(discriminative_power(mats, B = 200, seed = 42, n_threads = 2)$pairs, dp$pairs)
  one <- discriminative_power(mats$AP, B = 200, seed = 42)
  expect_equal(one$summary$measure, "AP")
  expect_equal(one$pairs$p.value, dp$pairs$p.value[dp$pairs$measure == "AP"])
  # an unnamed list takes the measure attributes; order of rows/columns is aligned
  un <- discriminative_power(list(mats$AP, mats$`P@10`[rev(rownames(mats$AP)), rev(colnames(mats$AP))]),
                             B = 200, seed = 42)
  expect_equal(un$pairs$p.value, dp$pairs$p.value)
  # seed = NULL draws the key from R's stream
  set.seed(9)
  a <- discriminative_power(mats$AP, B = 50)
  set.seed(9)
  expect_identical(discriminative_power(mats$AP, B = 50)$pairs, a$pairs)
  expect_identical(discriminative_power(mats$AP, B = 50, seed = a$seed)$pairs, a$pairs)
})

test_that("discriminative power by the randomised Tukey HSD equals base R on the same permutations", {
  mats <- design_pair(6)
  dp <- discriminative_power(mats, method = "rthsd", B = 100, seed = 3)
  perms <- resample_draws("permutations", key = 3, n = 50, m = 6, first = 1, count = 100)
  for (nm in names(mats)) {
    x <- unclass(mats[[nm]])[, ]
    r <- vapply(seq_len(100), function(b) {
      s <- vapply(1:6, function(i) sum(x[cbind(perms[i, , b], 1:50)]), numeric(1))
      max(s) - min(s)
    }, numeric(1))
    pr <- combn(6, 2)
    sums <- rowSums(x)
    ref <- apply(pr, 2, function(p) mc_pvalue(r >= abs(sums[p[1]] - sums[p[2]]) - 1e-9 * max(abs(x))))
    expect_equal(dp$pairs$p.value[dp$pairs$measure == nm], ref)
  }
  expect_output(print(dp), "randomised Tukey HSD")
})

test_that("discriminative power: ASL curves, print, as.data.frame", {
  mats <- design_pair(8)
  dp <- discriminative_power(mats, B = 100, seed = 1)
  expect_output(print(dp), "paired bootstrap")
  expect_identical(as.data.frame(dp), dp$pairs)
  expect_equal(as.data.frame(summary(dp)), dp$summary, ignore_attr = "row.names")
  ld <- ggplot2::layer_data(ggplot2::autoplot(dp), 1)
  expect_equal(nrow(ld), 2 * 28)
  expect_equal(length(unique(ld$colour)), 2)
  ap_curve <- ld[ld$group == 1, ]
  expect_equal(ap_curve$x, 1:28)
  expect_equal(ap_curve$y, sort(dp$pairs$p.value[dp$pairs$measure == "AP"]))
  expect_equal(ggplot2::layer_data(ggplot2::autoplot(dp), 2)$yintercept, .05)
})

test_that("discriminative power: lists that disagree, NA and other bad input", {
  mats <- design_pair(6)
  bad <- mats
  bad$`P@10` <- bad$`P@10`[-2, ]
  expect_error(discriminative_power(bad), class = "irtopics_error_data",
               regexp = rownames(mats$AP)[2], fixed = TRUE)
  expect_error(discriminative_power(bad), class = "irtopics_error_data", regexp = "systems")
  bad <- mats
  bad$`P@10` <- bad$`P@10`[, -c(1, 5)]
  expect_error(discriminative_power(bad), class = "irtopics_error_data", regexp = "topics")
  expect_error(discriminative_power(bad), regexp = colnames(mats$AP)[5], fixed = TRUE)
  bad <- mats
  bad$AP[1, 1] <- NA
  expect_error(discriminative_power(bad), class = "irtopics_error_data", regexp = "scores\\$AP")
  expect_error(discriminative_power(list(mats$AP, mats$AP)), class = "irtopics_error_argument", regexp = "named")
  expect_error(discriminative_power(mats, alpha = 0), class = "irtopics_error_argument", regexp = "alpha")
  expect_error(discriminative_power(mats, B = 0), class = "irtopics_error_argument", regexp = "B")
  expect_error(discriminative_power(mats, method = "x"), class = "irtopics_error_argument")
  # identical systems: no t statistic, counted as not significant
  x <- mats$AP
  x[2, ] <- x[1, ]
  d <- discriminative_power(x, B = 50, seed = 1)
  expect_equal(d$summary$n_undefined, 1L)
  expect_false(d$pairs$significant[1])
})

# Collection diagnostics --------------------------------------------------------------

test_that("collection_diagnostics(): the table is the parts", {
  mats <- design_pair(10)
  cd <- collection_diagnostics(mats, n_topics = 20, B = 100, trials = 30, seed = 7)
  tab <- cd$table
  expect_equal(tab$measure, c("AP", "P@10"))
  dp <- discriminative_power(mats, B = 100, seed = 7)
  expect_equal(tab$discriminative_power, dp$summary$discriminative_power)
  for (k in 1:2) {
    sw <- swap_error_rates(mats[[k]], sizes = 20, trials = 30, seed = 7)
    expect_equal(tab$swap_error_rate[k], sw$error$error_rate)
    d <- d_study(g_study(mats[[k]]), 20, target = .95)
    expect_equal(tab$Erho2[k], d$Erho2)
    expect_equal(tab$Phi[k], d$Phi)
    need <- topics_needed(d)
    expect_equal(c(tab$topics_needed[k], tab$topics_needed_low[k], tab$topics_needed_high[k]),
                 unlist(need[1, c("n_topics", "conf.low", "conf.high")], use.names = FALSE))
  }
  expect_output(print(cd), "topics needed")
  expect_identical(as.data.frame(cd), tab)
  expect_equal(nrow(ggplot2::layer_data(ggplot2::autoplot(cd), 1)), 2 * 45)
  expect_error(collection_diagnostics(mats, n_topics = 26), class = "irtopics_error_argument", regexp = "n_topics")
  expect_error(collection_diagnostics(mats, target = 1.5), class = "irtopics_error_argument", regexp = "target")
  bad <- mats
  bad$AP <- bad$AP[-1, ]
  expect_error(collection_diagnostics(bad), class = "irtopics_error_data", regexp = "systems")
})

test_that("a future plan gives the same results (discriminative power, alpha resampling)", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_if_not(future::supportsMulticore(), "multicore futures not supported here")
  mats <- design_pair(8)
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"))
  dp <- discriminative_power(mats, B = 600, seed = 5)
  bt <- alpha_bootstrap(x, B = 2500, seed = 5)
  old <- future::plan(future::multicore, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_true(use_future())
  expect_identical(discriminative_power(mats, B = 600, seed = 5)$pairs, dp$pairs)
  expect_identical(alpha_bootstrap(x, B = 2500, seed = 5)$draws, bt$draws)
})

test_that("an interrupt stops discriminative_power() and leaves the session usable", {
  skip_if_no_interrupts()
  withr::local_options(irtopics.progress = FALSE)
  ap <- design_pair(129)$AP
  t_small <- system.time(discriminative_power(ap, B = 250, seed = 1))[["elapsed"]]
  B <- as.integer(250 * max(2, ceiling(4 / max(t_small, 0.01))))
  res <- with_interrupt_after(0.4, discriminative_power(ap, B = B, seed = 1))
  expect_true(res$interrupted)
  expect_lt(res$elapsed, 0.4 + 0.6 * (B / 250 * t_small - 0.4) + 0.2)
  small <- design_pair(6)$AP
  expect_identical(discriminative_power(small, B = 50, seed = 2)$pairs,
                   discriminative_power(small, B = 50, seed = 2)$pairs)
})

test_that("topic_set_size() keeps answers beyond the integer range, ends, and never exceeds max_topics", {
  # Between 2^31 and 2^53: a whole number (not NA) with its achieved power;
  # the normal approximation ((z_.975 + z_.8) sd / diff)^2 is within a topic
  # or two of the exact answer at this size.
  big <- topic_set_size("t", min_diff = 1e-5, sd_diff = 1, max_topics = 2^53)
  normal <- ((qnorm(.975) + qnorm(.8)) / 1e-5)^2
  expect_gt(big$n_topics, 2^31)
  expect_lt(abs(big$n_topics - normal), 5)
  expect_equal(big$n_topics, round(big$n_topics))
  expect_gte(big$power, .8)
  # Beyond 2^53 (about 1.6e19 topics): the search ends with NA (and NA power).
  expect_warning(huge <- topic_set_size("t", min_diff = 1e-9, sd_diff = 1, max_topics = 2^53),
                 class = "irtopics_warning")
  expect_true(is.na(huge$n_topics))
  expect_true(is.na(huge$power))
  expect_error(topic_set_size("t", min_diff = 1e-9, sd_diff = 1, max_topics = 1e20),
               class = "irtopics_error_argument", regexp = "max_topics")
  # min_diff = 2, sd_d = 1 needs 5 topics (pw(4) < .8 <= pw(5)):
  pw <- function(n) power.t.test(n, delta = 2, sd = 1, type = "paired")$power
  expect_lt(pw(4), .8)
  expect_gte(pw(5), .8)
  expect_equal(topic_set_size("t", min_diff = 2, sd_diff = 1, max_topics = 5)$n_topics, 5)
  for (mx in c(3, 4, 4.9)) {
    expect_warning(small <- topic_set_size("t", min_diff = 2, sd_diff = 1, max_topics = mx),
                   class = "irtopics_warning")
    expect_true(is.na(small$n_topics))
  }
})

test_that("collection_diagnostics() and topics_needed() agree at the same drop, and print it", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  ap <- ap[order(-rowMeans(ap))[1:40], ]
  for (drop in c(0, 0.25)) {
    cd <- collection_diagnostics(list(AP = ap), B = 20, trials = 5, seed = 1, drop = drop)
    need <- topics_needed(g_study(ap, drop = drop))
    expect_equal(cd$table$topics_needed, need$n_topics[1])
    expect_equal(c(cd$table$topics_needed_low, cd$table$topics_needed_high),
                 c(need$conf.low[1], need$conf.high[1]))
    setting <- if (drop == 0) "all 40 systems, drop = 0" else "30 of 40 systems, drop = 0.25"
    expect_match(paste(format(cd), collapse = "\n"), setting, fixed = TRUE)
    expect_match(paste(format(need), collapse = "\n"), setting, fixed = TRUE)
    expect_match(paste(format(d_study(g_study(ap, drop = drop), 50)), collapse = "\n"), setting, fixed = TRUE)
  }
  # The two settings give different answers: the setting is what tells them apart.
  expect_false(identical(topics_needed(g_study(ap))$n_topics, topics_needed(g_study(ap, drop = .25))$n_topics))
  expect_s3_class(as.data.frame(topics_needed(g_study(ap))), "data.frame", exact = TRUE)
})

test_that("topic_set_size() prints large answers in full", {
  big <- topic_set_size("t", min_diff = 1e-5, sd_diff = 1, max_topics = 2^53)
  expect_match(paste(format(big), collapse = "\n"), format(big$n_topics, scientific = FALSE), fixed = TRUE)
  expect_match(paste(format(topic_set_size("t", min_diff = .1, sd_diff = .15853)), collapse = "\n"), " 22 ")
})

test_that("collection_diagnostics(seed = NULL) draws one set of swap trials for every measure", {
  x <- design_pair()
  set.seed(3)
  d <- collection_diagnostics(x, B = 50, trials = 10)
  # the same topic sets for both measures: one seed, recorded in both results
  expect_true(is.numeric(d$swap[[1]]$seed) && length(d$swap[[1]]$seed) == 1L)
  expect_identical(d$swap[[1]]$seed, d$swap[[2]]$seed)
  again <- swap_error_rates(x$AP, sizes = d$swap[[1]]$sizes, trials = 10, seed = d$swap[[1]]$seed)
  expect_identical(again$error$error_rate, d$swap[[1]]$error$error_rate)
  set.seed(3)
  d2 <- collection_diagnostics(x, B = 50, trials = 10)
  expect_identical(d2$table, d$table)
})
