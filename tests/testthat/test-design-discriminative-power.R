test_that("discriminative power equals a base-R bootstrap on the same draws (10 systems, both measures)", {
  mats <- design_pair(10)
  dp <- discriminative_power(mats, B = 200, seed = 42)
  expect_equal(dp$summary$measure, c("AP", "P@10"))
  expect_equal(dp$summary$n_pairs, c(45L, 45L))
  idx <- resample_draws("indices", seed = 42, n = 50, first = 1, count = 200)
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
  # seed = NULL draws the seed from R's stream
  set.seed(9)
  a <- discriminative_power(mats$AP, B = 50)
  set.seed(9)
  expect_identical(discriminative_power(mats$AP, B = 50)$pairs, a$pairs)
  expect_identical(discriminative_power(mats$AP, B = 50, seed = a$seed)$pairs, a$pairs)
})

test_that("discriminative power by the randomised Tukey HSD equals base R on the same permutations", {
  mats <- design_pair(6)
  dp <- discriminative_power(mats, method = "rthsd", B = 100, seed = 3)
  perms <- resample_draws("permutations", seed = 3, n = 50, m = 6, first = 1, count = 100)
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
  expect_output(print(dp), "studentized bootstrap test")
  expect_identical(as.data.frame(dp), dp$pairs)
  expect_equal(as.data.frame(summary(dp)), dp$summary, ignore_attr = "row.names")
  ld <- ggplot2::layer_data(ggplot2::autoplot(dp), 1)
  expect_equal(nrow(ld), 2 * 28)
  expect_equal(length(unique(ld$colour)), 2)
  ap_curve <- ld[ld$group == 1, ]
  expect_equal(ap_curve$x, 1:28)
  expect_equal(ap_curve$y, sort(dp$pairs$p.value[dp$pairs$measure == "AP"]))
  expect_equal(layers_of(ggplot2::autoplot(dp), "GeomHline")[[1]]$yintercept, .05)
})

test_that("ASL curves follow the user's theme, fit a column and a page, and a legend only for several measures", {
  dp <- discriminative_power(design_pair(8), B = 50, seed = 1)
  make <- function() ggplot2::autoplot(dp)
  expect_follows_user_theme(make)
  expect_figure_ready(make())
  expect_figure_ready(make(), width = 7, height = 4.5)
  th <- ggplot2::theme_get() + make()$theme
  expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
  one <- discriminative_power(design_pair(8)[1], B = 50, seed = 1)
  g <- ggplot2::ggplotGrob(ggplot2::autoplot(one))
  expect_false(any(!vapply(g$grobs[startsWith(g$layout$name, "guide-box")], inherits, logical(1), "zeroGrob")))
  g <- ggplot2::ggplotGrob(make())
  expect_true(any(!vapply(g$grobs[startsWith(g$layout$name, "guide-box")], inherits, logical(1), "zeroGrob")))
  # the subtitle's alpha is the Greek letter (plotmath), not the word
  expect_true(is.language(make()$labels$subtitle))
  # two systems, one pair: a point is drawn, the x axis has whole numbers
  two <- discriminative_power(lapply(design_pair(8), function(m) m[1:2, ]), B = 50, seed = 1)
  p2 <- ggplot2::autoplot(two)
  expect_length(layers_of(p2, "GeomPoint"), 1L)
  expect_length(layers_of(p2, "GeomLine"), 0L)
  expect_silent(ggplot2::ggplot_build(p2))
  expect_figure_ready(p2)
})

test_that("ASL curves that coincide stay visible: nested line widths, hollow points of different shapes and sizes", {
  # one pair, both measures at the smallest p-value: two points on one spot
  two <- discriminative_power(lapply(design_pair(8), function(m) m[c(1, 2), ]), B = 50, seed = 1)
  expect_identical(length(unique(two$pairs$p.value)), 1L)
  pts <- ggplot2::layer_data(ggplot2::autoplot(two), 1)
  expect_identical(nrow(pts), 2L)
  expect_identical(length(unique(pts$shape)), 2L)
  expect_true(all(pts$shape %in% c(0:6, 8)))  # hollow marks: none hides another
  expect_true(pts$size[pts$group == 1] > pts$size[pts$group == 2])  # the later mark inside the earlier
  # many pairs: lines only, the first measure's the widest, one legend
  dp <- discriminative_power(design_pair(8), B = 50, seed = 1)
  p <- ggplot2::autoplot(dp)
  ln <- ggplot2::layer_data(p, 1)
  w <- tapply(ln$linewidth, ln$group, unique)
  expect_length(w, 2L)
  expect_true(w[[1]] > w[[2]])
  g <- ggplot2::ggplotGrob(p)
  expect_identical(sum(!vapply(g$grobs[startsWith(g$layout$name, "guide-box")], inherits, logical(1), "zeroGrob")),
                   1L)
  # one measure: an ordinary line, no legend
  one <- ggplot2::layer_data(ggplot2::autoplot(discriminative_power(design_pair(8)[1], B = 50, seed = 1)), 1)
  expect_identical(unique(one$linewidth), 0.5)
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
  expect_error(discriminative_power(bad), class = "irtopics_error_data", regexp = colnames(mats$AP)[5], fixed = TRUE)
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
  res <- with_interrupt_in(discriminative_power(ap, B = 5000, seed = 1), polls = 2L)
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
  small <- design_pair(6)$AP
  expect_identical(discriminative_power(small, B = 50, seed = 2)$pairs,
                   discriminative_power(small, B = 50, seed = 2)$pairs)
})
