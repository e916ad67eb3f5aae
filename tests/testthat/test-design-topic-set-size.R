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
  expect_identical(unname(vapply(ggplot2::autoplot(ta)$layers, function(l) class(l$geom)[1], "")), c("GeomLine", "GeomPoint"))
  # one size per curve: points alone (a line of one point draws nothing, and ggplot2 says so)
  one <- ggplot2::autoplot(topic_set_size("t", min_diff = .1, alpha = c(.01, .05), variance = .02))
  expect_identical(unname(vapply(one$layers, function(l) class(l$geom)[1], "")), "GeomPoint")
  expect_silent(ggplot2::ggplot_build(one))
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

test_that("topic_set_size() prints large answers in full", {
  big <- topic_set_size("t", min_diff = 1e-5, sd_diff = 1, max_topics = 2^53)
  expect_match(paste(format(big), collapse = "\n"), format(big$n_topics, scientific = FALSE), fixed = TRUE)
  expect_match(paste(format(topic_set_size("t", min_diff = .1, sd_diff = .15853)), collapse = "\n"), " 22 ")
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("topic-set-size figures follow the user's theme, fit a column, and show a legend only for what varies", {
  d <- seq(.03, .15, by = .01)
  cases <- list(t = topic_set_size("t", min_diff = d, alpha = c(.01, .05), variance = .02),
                anova = topic_set_size("anova", min_diff = d, m = c(2, 10, 50), variance = .02),
                ci = topic_set_size("ci", width = d, variance = .02),
                beta = topic_set_size("t", min_diff = d, beta = c(.2, .1), variance = .02))
  for (x in cases) {
    make <- function() ggplot2::autoplot(x)
    expect_follows_user_theme(make)
    expect_figure_ready(make())
    expect_figure_ready(make(), width = 7, height = 4.5)
  }
  shown <- function(p) {
    g <- ggplot2::ggplotGrob(p)
    boxes <- g$grobs[startsWith(g$layout$name, "guide-box")]
    any(!vapply(boxes, inherits, logical(1), "zeroGrob"))
  }
  expect_true(shown(ggplot2::autoplot(cases$t)))       # two alphas
  expect_false(shown(ggplot2::autoplot(cases$ci)))     # one line: no legend
  # alpha and beta as symbols (plotmath), not spelt out
  p <- ggplot2::autoplot(cases$beta)
  expect_true(is.expression(p$labels$linetype))
  expect_true(is.expression(ggplot2::autoplot(cases$t)$labels$colour))
  expect_identical(ggplot2::autoplot(cases$anova)$labels$colour, "Systems")
  expect_error(ggplot2::autoplot(cases$t, bogus = 1), class = "irtopics_error_argument")
})
