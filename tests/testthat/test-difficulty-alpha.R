test_that("Cronbach's alpha: spec example and psych::alpha", {
  x <- rbind(c(.20, .35, .10, .50), c(.25, .40, .05, .55), c(.10, .20, .00, .30),
             c(.30, .45, .15, .60), c(.15, .30, .10, .35))
  expect_equal(cronbach_alpha(x), 0.9330514447, tolerance = 1e-9)
  expect_equal(cronbach_alpha(t(x)), 0.9855182927, tolerance = 1e-9)   # wrong orientation differs
  skip_if_not_installed("psych")
  expect_equal(cronbach_alpha(x), psych::alpha(x, warnings = FALSE)$total$raw_alpha)
  set.seed(2)
  y <- matrix(runif(60), 10)
  expect_equal(cronbach_alpha(y), suppressWarnings(psych::alpha(y, warnings = FALSE, check.keys = FALSE))$total$raw_alpha)
})

test_that("G-study reproduces Brennan's synthetic data set 4", {
  s4 <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv", package = "irtopics"))
  g <- g_study(s4)
  v <- setNames(g$components$variance, g$components$component)
  expect_equal(unname(round(v, 4)), c(.6258, .8840, 2.7872))
  expect_equal(round(g$Erho2, 3), .729)
  expect_equal(round(g$Phi, 3), .672)
  expect_equal(round(cronbach_alpha(s4), 4), .7293)
  expect_equal(g$Erho2, cronbach_alpha(s4))
  # the same components from lm()'s ANOVA table
  df <- as.data.frame(s4)
  tab <- anova(lm(value ~ factor(system) + factor(topic), data = df))
  ms <- tab[["Mean Sq"]]
  expect_equal(unname(g$mean_squares), ms)
  d <- d_study(g, c(12, 24, 100))
  expect_equal(d$Erho2[1], g$Erho2)
  expect_equal(d$Phi[2], v[["system"]] / (v[["system"]] + (v[["topic"]] + v[["residual"]]) / 24))
  expect_equal(d_study(s4, 12)$Phi, g$Phi)
  expect_output(print(g), "Erho2")
  expect_output(print(d), "d_study")
})

test_that("edge cases and errors", {
  expect_identical(cronbach_alpha(matrix(1:3, 3)), NA_real_)
  expect_warning(a2 <- cronbach_alpha(matrix(c(1, 1, 2, 2), 2)), class = "irtopics_warning_too_few")
  expect_identical(a2, NA_real_)
  neg <- cbind(c(1, 2, 3), c(3, 1, 2))
  expect_equal(cronbach_alpha(neg), -2)
  g <- g_study(cbind(c(1, 2, 3, 4), c(4, 3, 2, 1), c(2, 2, 3, 3)), truncate = TRUE)
  expect_true(all(g$components$variance >= 0))
  expect_error(d_study(g, 0), class = "irtopics_error_argument")
  # a constant matrix has no variance at all: NA (as alpha), not NaN
  g0 <- g_study(matrix(.5, 3, 3))
  expect_identical(g0$Erho2, NA_real_)
  expect_identical(g0$Phi, NA_real_)
  expect_true(all(is.na(g0$components$percent)) && !any(is.nan(g0$components$percent)))
  expect_identical(d_study(g0, c(5, 10))$Erho2, c(NA_real_, NA_real_))
  expect_identical(cronbach_alpha(matrix(.5, 3, 3)), NA_real_)
  # every system's total is 1 in exact arithmetic, but the parsed decimals
  # sum to different doubles: the total variance is ~4e-33 and alpha was -6.9e31
  eq <- rbind(c(.69, .24, .07), c(.08, .42, .50), c(.35, .08, .57), c(.35, .60, .05))
  expect_gt(var(rowSums(eq)), 0)
  expect_identical(cronbach_alpha(eq), NA_real_)
  expect_identical(g_study(eq)$Erho2, NA_real_)
  expect_error(g_study(matrix(1:3, 1)), class = "irtopics_error_argument")
  expect_error(cronbach_alpha(matrix(c(1, NA, 2, 3), 2)), class = "irtopics_error_data")
})

test_that("drop = 0 keeps the G-study unchanged and the Erho2 interval is Feldt's", {
  x <- adhoc3()
  g0 <- g_study(x)
  expect_identical(g_study(x, drop = 0)$components, g0$components)
  expect_equal(g0$n_systems, 40)
  expect_equal(g0$Erho2, cronbach_alpha(x))
  # at the observed size the Erho2 interval is Feldt's (1965) interval for alpha
  d <- d_study(g0, ncol(x))
  skip_if_not_installed("psych")
  ci <- psych::alpha.ci(cronbach_alpha(x), n.obs = nrow(x), n.var = ncol(x), p.val = 0.05)
  expect_equal(c(d$Erho2_low, d$Erho2_high), c(ci$lower.ci, ci$upper.ci))
})

test_that("the C++ alpha kernel: base R, psych, shift invariance, group_agreement", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"))
  m <- unclass(ap)[, ]
  base_alpha <- function(m) {
    k <- ncol(m)
    k / (k - 1) * (1 - sum(apply(m, 2, var)) / var(rowSums(m)))
  }
  expect_equal(cronbach_alpha(ap), base_alpha(m), tolerance = 1e-12)
  # a large common offset does not change alpha (centred columns)
  expect_equal(cronbach_alpha(m + 1e6), cronbach_alpha(m), tolerance = 1e-9)
  ga <- group_agreement(ap)
  sub <- m[, ga$topics$topic[ga$topics$group == 1]]
  expect_equal(ga$groups$alpha[1], base_alpha(sub), tolerance = 1e-12)
  skip_if_not_installed("psych")
  ref <- NULL
  utils::capture.output(ref <- suppressMessages(psych::alpha(sub, warnings = FALSE, check.keys = FALSE)))
  expect_equal(ga$groups$alpha[1], ref$total$raw_alpha)
})

test_that("alpha_bootstrap(): the same draws in base R, threads, seeds, Feldt", {
  x <- adhoc3()
  m <- unclass(x)[, ]
  bt <- alpha_bootstrap(x, B = 300, seed = 11)
  expect_equal(dim(bt$indices), c(ncol(m), 300))
  ref <- apply(bt$indices, 2, function(j) {
    s <- m[, j]
    k <- ncol(s)
    k / (k - 1) * (1 - sum(apply(s, 2, var)) / var(rowSums(s)))
  })
  expect_equal(bt$draws, ref, tolerance = 1e-12)
  expect_equal(unname(bt$percentile), unname(quantile(ref, c(.025, .975))), tolerance = 1e-12)
  expect_equal(bt$estimate, cronbach_alpha(x))
  expect_identical(alpha_bootstrap(x, B = 300, seed = 11, n_threads = 2)$draws, bt$draws)
  # the resamples are boot::boot()'s after set.seed(seed), and mean_intervals()'s for the seed
  expect_identical(t(bt$indices), bootstrap_topic_indices(ncol(m), 300, 11, nrow(m)))
  skip_if_not_installed("boot")
  set.seed(11, kind = "Mersenne-Twister", normal.kind = "Inversion", sample.kind = "Rejection")
  b <- boot::boot(t(m), function(d, j) {
    s <- t(d[j, ])
    k <- ncol(s)
    k / (k - 1) * (1 - sum(apply(s, 2, var)) / var(rowSums(s)))
  }, R = 300)
  expect_equal(bt$draws, b$t[, 1], tolerance = 1e-12)
  expect_equal(mean_intervals(x, interval = "percentile", B = 300, seed = 11)$replicates[[1]][, 1],
               apply(bt$indices, 2, function(j) mean(m[1, j])), tolerance = 1e-12)
  set.seed(5)
  before <- runif(1)
  set.seed(5)
  alpha_bootstrap(x, B = 10, seed = 1)
  expect_identical(runif(1), before)
  # Feldt's interval is the one reported by default
  expect_identical(bt$interval, "feldt")
  expect_equal(c(bt$conf.low, bt$conf.high), unname(bt$feldt))
  pc <- alpha_bootstrap(x, B = 300, seed = 11, interval = "percentile")
  expect_equal(c(pc$conf.low, pc$conf.high), unname(bt$percentile))
  expect_identical(pc$draws, bt$draws)
  expect_error(alpha_bootstrap(x, B = 10, interval = "bca"), class = "irtopics_error_argument", regexp = "interval")
  skip_if_not_installed("psych")
  ci <- psych::alpha.ci(cronbach_alpha(x), n.obs = nrow(x), n.var = ncol(x))
  expect_equal(unname(bt$feldt), c(ci$lower.ci, ci$upper.ci))
  out <- paste(capture.output(print(bt)), collapse = "\n")
  expect_match(out, "* feldt", fixed = TRUE)
  expect_match(out, "undercovers", fixed = TRUE)
  df <- as.data.frame(bt)
  expect_equal(df$method, c("feldt", "noncentral", "percentile"))
  expect_equal(df$reported, c(TRUE, FALSE, FALSE))
  p <- ggplot2::autoplot(bt)
  expect_equal(sum(ggplot2::layer_data(p, 1)$count), 300)
  expect_equal(sort(ggplot2::layer_data(p, 2)$xintercept),
               sort(unname(c(bt$estimate, bt$percentile, bt$feldt, bt$noncentral))))
  expect_error(alpha_bootstrap(x, B = 0), class = "irtopics_error_argument", regexp = "B")
  expect_error(alpha_bootstrap(x, conf = 1), class = "irtopics_error_argument", regexp = "conf")
})

test_that("alpha_curve(): subsets without replacement, base R on the same draws, projection", {
  x <- adhoc3()
  m <- unclass(x)[, ]
  cv <- alpha_curve(x, sizes = c(5, 20, 50), trials = 40, seed = 3)
  expect_equal(cv$curve$n_topics, c(5, 20, 50))
  expect_true(all(apply(cv$sets[[2]], 2, anyDuplicated) == 0))
  ref <- apply(cv$sets[[1]], 2, function(j) psych_free_alpha(m[, j]))
  expect_equal(cv$draws[[1]], ref, tolerance = 1e-12)
  expect_equal(cv$curve$mean[1], mean(ref), tolerance = 1e-12)
  expect_equal(cv$curve$conf.low[1], unname(quantile(ref, .025)), tolerance = 1e-12)
  # all topics: every subset is the whole matrix
  expect_equal(cv$curve$mean[3], cronbach_alpha(x))
  expect_equal(cv$curve$projected, d_study(g_study(x), c(5, 20, 50))$Erho2)
  expect_identical(alpha_curve(x, sizes = c(5, 20, 50), trials = 40, seed = 3, n_threads = 2)$draws, cv$draws)
  p <- ggplot2::autoplot(cv)
  expect_equal(ggplot2::layer_data(p, 1)$ymin, cv$curve$conf.low)
  expect_equal(ggplot2::layer_data(p, 2)$y, cv$curve$mean)
  expect_output(print(cv), "random topic subsets")
  expect_error(alpha_curve(x, sizes = 1), class = "irtopics_error_argument", regexp = "sizes")
  expect_error(alpha_curve(x, sizes = 51), class = "irtopics_error_argument", regexp = "sizes")
})

test_that("cronbach_alpha() keeps zero-variance topics; psych::alpha drops them, as documented", {
  skip_if_not_installed("psych")
  x <- unclass(read_scores(system.file("extdata", "score-matrices", "adhoc5_p10.csv", package = "irtopics")))
  const <- apply(x, 2, var) == 0
  expect_equal(sum(const), 1L)
  k <- ncol(x)
  z <- sum(const)
  a <- cronbach_alpha(x)
  expect_equal(a, 0.93427, tolerance = 1e-5 / 0.93)
  expect_equal(a, g_study(x)$Erho2, tolerance = 1e-12)
  psych_alpha <- function(m) suppressWarnings(suppressMessages(
    psych::alpha(m, warnings = FALSE, check.keys = FALSE)))$total$raw_alpha
  # Without the constant topic the two agree ...
  y <- x[, !const]
  expect_equal(cronbach_alpha(y), psych_alpha(y), tolerance = 1e-12)
  # ... and psych on the full matrix is psych on the reduced one, which
  # differs from ours on the full matrix by the documented factor.
  expect_equal(psych_alpha(x), psych_alpha(y), tolerance = 1e-12)
  expect_equal(psych_alpha(x), a * (k - 1) * (k - z) / (k * (k - z - 1)), tolerance = 1e-12)
  expect_equal(psych_alpha(x), 0.93466, tolerance = 1e-5 / 0.93)
})

test_that("alpha_bootstrap(interval = 'noncentral') inverts the non-central F of MS_s / MS_e", {
  x <- unclass(adhoc3())[, ]
  bt <- alpha_bootstrap(x, B = 10, seed = 1, interval = "noncentral")
  expect_equal(c(bt$conf.low, bt$conf.high), unname(bt$noncentral))
  # mean squares by hand (two-way ANOVA without replication)
  ns <- nrow(x)
  nt <- ncol(x)
  mu <- mean(x)
  ms_s <- nt * sum((rowMeans(x) - mu)^2) / (ns - 1)
  res <- x - outer(rowMeans(x), colMeans(x), "+") + mu
  ms_e <- sum(res^2) / ((ns - 1) * (nt - 1))
  f_obs <- ms_s / ms_e
  expect_equal(bt$estimate, 1 - 1 / f_obs, tolerance = 1e-12)
  lambda <- function(a) (ns - 1) * a / (1 - a)
  expect_equal(pf(f_obs, ns - 1, (ns - 1) * (nt - 1), ncp = lambda(bt$conf.low)), 0.975, tolerance = 1e-6)
  expect_equal(pf(f_obs, ns - 1, (ns - 1) * (nt - 1), ncp = lambda(bt$conf.high)), 0.025, tolerance = 1e-6)
  expect_true(bt$conf.low < bt$estimate && bt$estimate < bt$conf.high)
  # narrower than Feldt's (no system-sampling variance)
  expect_lt(diff(unname(bt$noncentral)), diff(unname(bt$feldt)))
  # Patnaik's approximation, used where pf() loses precision, is close to
  # pf() where both work
  expect_equal(irtopics:::pf_noncentral(1.2, 40, 2000, 10), pf(1.2, 40, 2000, ncp = 10))
  cc <- (40 + 20) / (40 + 10)
  nu <- (40 + 10)^2 / (40 + 20)
  expect_equal(pf(1.2 * 40 / (cc * nu), nu, 2000), pf(1.2, 40, 2000, ncp = 10), tolerance = 2e-3)
  # at ncp = 1.28e7 pf() warns and returns 6e-4; F' has mean about
  # (df1 + ncp) / df1 = 1e5 + 1, so P(F' <= 1e5) is near 1/2
  expect_s3_class(tryCatch(pf(1e5, 128, 6272, ncp = 1.28e7), warning = function(w) w), "warning")
  pat <- irtopics:::pf_noncentral(1e5, 128, 6272, 1.28e7)
  expect_gt(pat, 0.4)
  expect_lt(pat, 0.6)
})

test_that("empty matrices are classed errors in analyses, and empty ir_scores can be built", {
  expect_error(cronbach_alpha(matrix(numeric(0), 0, 3)), class = "irtopics_error_argument")
  expect_error(gawm(matrix(numeric(0), 3, 0)), class = "irtopics_error_argument")
  expect_error(mean_scores(matrix(numeric(0), 0, 0)), class = "irtopics_error_argument")
  e <- as_ir_scores(matrix(numeric(0), 0, 2))
  expect_s3_class(e, "ir_scores")
  expect_equal(dim(e), c(0L, 2L))
  expect_equal(colnames(e), c("t1", "t2"))
})

test_that("replicate counts that cannot fit in memory are refused before allocating", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                    measure = "AP")
  withr::local_options(irtopics.max_memory = 2^30)
  invisible(gc(reset = TRUE))
  mb0 <- sum(gc()[, 6])
  err <- expect_error(alpha_bootstrap(ap, B = 2e9), class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "alpha_bootstrap")
  expect_match(conditionMessage(err), "`B`", fixed = TRUE)
  expect_match(conditionMessage(err), "smaller", fixed = TRUE)
  expect_match(conditionMessage(err), "irtopics.max_memory", fixed = TRUE)
  err <- expect_error(compare_systems(ap[1:5, ], test = "rthsd", B = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "compare_systems")  # the user's call, not a helper
  err <- expect_error(discriminative_power(ap[1:5, ], method = "rthsd", B = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "B")
  expect_identical(as.character(err$call[[1]]), "discriminative_power")
  err <- expect_error(swap_error_rates(ap, sizes = 10, trials = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "trials")
  expect_identical(as.character(err$call[[1]]), "swap_error_rates")
  err <- expect_error(alpha_curve(ap, sizes = 5, trials = 2e9, seed = 1), class = "irtopics_error_memory")
  expect_identical(err$arg, "trials")
  expect_identical(as.character(err$call[[1]]), "alpha_curve")
  err <- expect_error(smoothing_experiment(ap, topics_per_set = 5, trials = 2e9, seed = 1),
                      class = "irtopics_error_memory")
  expect_identical(err$arg, "trials")
  expect_identical(as.character(err$call[[1]]), "smoothing_experiment")
  # Nothing was drawn or allocated: R's peak memory grew by tens of MB at most
  # (the refused calls would each have needed GBs)
  expect_lt(sum(gc()[, 6]) - mb0, 500)
  # The limit is the option: the same call fits under a larger one.
  withr::local_options(irtopics.max_memory = 100)
  expect_error(alpha_bootstrap(ap, B = 10, seed = 1), class = "irtopics_error_memory")
  withr::local_options(irtopics.max_memory = 1e9)
  expect_s3_class(alpha_bootstrap(ap, B = 10, seed = 1), "ir_alpha_bootstrap")
})

test_that("alpha figures fit a column and a page, in the user's theme, with alpha in plotmath", {
  ap <- robust()
  x <- ap[best(ap, 17), ]
  bt <- alpha_bootstrap(x, B = 200, seed = 1)
  make <- function() ggplot2::autoplot(bt)
  expect_follows_user_theme(make)
  # expect_figure_ready() also checks that the x tick labels (0.985, 0.99, ...) do not collide
  expect_figure_ready(make())
  expect_figure_ready(make(), width = 7, height = 4.5)
  expect_lte(legend_width(make()), 3.5)
  p <- make()
  expect_true("alpha" %in% all.names(p$labels$x))
  expect_length(unique(ggplot2::layer_data(p, 2)$colour), 4L)
  expect_error(ggplot2::autoplot(bt, bins = 3), class = "irtopics_error_argument")
  cv <- alpha_curve(x, sizes = c(10, 25, 50, 100), trials = 10, seed = 1)
  make_cv <- function() ggplot2::autoplot(cv)
  expect_follows_user_theme(make_cv)
  expect_figure_ready(make_cv())
  expect_figure_ready(make_cv(), width = 7, height = 4.5)
  expect_lte(legend_width(make_cv()), 3.5)
  expect_true("alpha" %in% all.names(make_cv()$labels$y))
  # the target's label follows the user's text size
  old <- ggplot2::theme_set(ggplot2::theme_bw(base_size = 8))
  withr::defer(ggplot2::theme_set(old))
  txt <- layers_of(ggplot2::autoplot(cv), "GeomText")[[1]]
  expect_equal(txt$size, 0.8 * 8 / ggplot2::.pt)
})
