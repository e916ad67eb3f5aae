# risk_summary(): URisk, TRisk, ZRisk and GeoRisk against formulas worked
# here independently (loops over topics, not the package's vectorised code),
# t.test() for TRisk, and the edge cases' stated rules.

# A tiny collection: 3 systems x 4 topics, baseline "B".
risk_tiny <- function() {
  m <- rbind(B = c(0.2, 0.4, 0.6, 0.8),
             A = c(0.3, 0.4, 0.5, 1.0),
             C = c(0.1, 0.5, 0.2, 0.6))
  colnames(m) <- paste0("t", 1:4)
  as_ir_scores(m, measure = "AP")
}

# URisk of one system by a loop: wins add the difference, losses (1 + alpha) times it.
loop_urisk <- function(r, b, alpha) {
  total <- 0
  for (i in seq_along(r)) {
    d <- r[i] - b[i]
    if (d > 0) total <- total + d
    if (d < 0) total <- total - (1 + alpha) * abs(d)
  }
  unname(total / length(r))
}

# The risk-reward differences by a loop.
loop_weighted <- function(r, b, alpha) {
  out <- numeric(length(r))
  for (i in seq_along(r)) {
    d <- r[i] - b[i]
    out[i] <- if (d < 0) (1 + alpha) * d else d
  }
  unname(out)
}

# ZRisk and GeoRisk of every system by loops over cells (topics x systems as in the paper).
loop_zrisk <- function(m, alpha) {
  x <- t(unclass(m))
  q <- nrow(x)
  r <- ncol(x)
  N <- 0
  for (i in 1:q) for (j in 1:r) N <- N + x[i, j]
  zr <- geo <- numeric(r)
  for (j in 1:r) {
    S <- 0
    for (i in 1:q) S <- S + x[i, j]
    z_sum <- 0
    for (i in 1:q) {
      Ti <- 0
      for (k in 1:r) Ti <- Ti + x[i, k]
      e <- Ti * S / N
      z <- if (e == 0) 0 else (x[i, j] - e) / sqrt(e)
      z_sum <- z_sum + if (z < 0) (1 + alpha) * z else z
    }
    zr[j] <- z_sum
    geo[j] <- sqrt((S / q) * pnorm(z_sum / q))
  }
  stats::setNames(data.frame(zr, geo), c("zrisk", "georisk"))
}

row_of <- function(res, system, alpha) {
  res$table[res$table$system == system & res$table$alpha == alpha, , drop = FALSE]
}

test_that("URisk equals the hand-worked values and the loop formula", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1, 5))
  # A - B = (0.1, 0, -0.1, 0.2): one loss, one tie, two wins
  expect_equal(row_of(res, "A", 0)$urisk, (0.1 + 0.2 - 0.1) / 4)
  expect_equal(row_of(res, "A", 1)$urisk, (0.1 + 0.2 - 2 * 0.1) / 4)
  expect_equal(row_of(res, "A", 5)$urisk, (0.1 + 0.2 - 6 * 0.1) / 4)
  # C - B = (-0.1, 0.1, -0.4, -0.2)
  expect_equal(row_of(res, "C", 1)$urisk, (0.1 - 2 * (0.1 + 0.4 + 0.2)) / 4)
  for (a in c(0, 1, 5)) for (s in c("A", "C")) {
    expect_equal(row_of(res, s, a)$urisk, loop_urisk(m[s, ], m["B", ], a))
  }
  expect_equal(row_of(res, "A", 1)[c("wins", "ties", "losses", "n_topics")],
               data.frame(wins = 2L, ties = 1L, losses = 1L, n_topics = 4L), ignore_attr = TRUE)
  # the baseline against itself
  b <- row_of(res, "B", 1)
  expect_true(b$is_baseline)
  expect_equal(b$urisk, 0)
  expect_true(is.na(b$trisk) && is.na(b$p.value) && !b$significant)
  expect_equal(row_of(res, "A", 0)$mean, mean(m["A", ]))
  # a plain matrix or a data frame (systems in rows) gives the same numbers
  plain <- risk_summary(as.data.frame(unclass(m)), baseline = "B", alpha = c(0, 1, 5))
  expect_equal(plain$table$urisk, res$table$urisk)
  expect_equal(plain$measure, "score")
})

test_that("TRisk is t.test()'s one-sample t of the risk-reward differences", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1, 5), correction = "none")
  for (a in c(0, 1, 5)) for (s in c("A", "C")) {
    w <- loop_weighted(m[s, ], m["B", ], a)
    tt <- t.test(w)
    r <- row_of(res, s, a)
    expect_equal(r$trisk, unname(tt$statistic))
    expect_equal(r$p.value, tt$p.value)
    expect_equal(r$df, 3)
    expect_equal(c(r$conf.low, r$conf.high), as.vector(tt$conf.int))
    expect_equal(r$std.error, sd(w) / 2)
    expect_equal(r$p.adjusted, r$p.value)
  }
  # alpha = 0: the paired t-test of system against baseline
  tp <- t.test(m["C", ], m["B", ], paired = TRUE)
  expect_equal(row_of(res, "C", 0)$trisk, unname(tp$statistic))
  # one-sided alternatives
  for (alt in c("greater", "less")) {
    r1 <- risk_summary(m, baseline = "B", alpha = 1, alternative = alt, correction = "none")
    expect_equal(row_of(r1, "C", 1)$p.value, t.test(loop_weighted(m["C", ], m["B", ], 1), alternative = alt)$p.value)
  }
  # the population standard deviation (divisor c) of rmit-ir/trisk
  rp <- risk_summary(m, baseline = "B", alpha = 1, se = "population")
  w <- loop_weighted(m["A", ], m["B", ], 1)
  pop_sd <- sqrt(sum((w - mean(w))^2) / 4)
  expect_equal(row_of(rp, "A", 1)$trisk, mean(w) / (pop_sd / 2))
  expect_equal(row_of(rp, "A", 1)$p.value, 2 * pt(-abs(mean(w) / (pop_sd / 2)), 3))
})

test_that("TRisk's p-values and interval are the package's one t rule, bit for bit", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics"),
                    measure = "AP")[1:8, ]
  for (alt in c("two.sided", "greater", "less")) {
    res <- risk_summary(ap, baseline = rownames(ap)[8], alpha = c(0, 2), alternative = alt, sig_level = 0.1)
    r <- res$table[!res$table$is_baseline, ]
    # the t record's p-value rule of compare_systems() (t_pvalues()), for each alternative
    expect_identical(r$p.value, t_pvalue(r$trisk, r$df, alt), info = alt)
    # the interval as t.test() forms it, (t -/+ q) se
    q <- stats::qt(1 - 0.1 / 2, r$df)
    expect_identical(r$conf.low, (r$trisk - q) * r$std.error, info = alt)
    expect_identical(r$conf.high, (r$trisk + q) * r$std.error, info = alt)
  }
})

test_that("p-values are corrected over the systems, separately for each alpha", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics"),
                    measure = "AP")[1:6, ]
  res <- risk_summary(ap, baseline = rownames(ap)[6], alpha = c(1, 3), correction = "BH", sig_level = 0.1)
  for (a in c(1, 3)) {
    r <- res$table[res$table$alpha == a & !res$table$is_baseline, ]
    raw <- vapply(r$system, function(s) t.test(loop_weighted(ap[s, ], ap[6, ], a))$p.value, numeric(1))
    expect_equal(r$p.value, unname(raw))
    expect_equal(r$p.adjusted, p.adjust(unname(raw), "BH"))
    expect_equal(r$significant, p.adjust(unname(raw), "BH") < 0.1)
  }
})

test_that("ZRisk and GeoRisk equal the chi-square formulas worked by loops", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1, 5))
  for (a in c(0, 1, 5)) {
    ref <- loop_zrisk(m, a)
    got <- res$table[res$table$alpha == a, ]
    expect_equal(got$zrisk, ref$zrisk)
    expect_equal(got$georisk, ref$georisk)
  }
  # one cell worked by hand: system A on t1. N = 2.0 + 2.2 + 1.4 = 5.6, S_A = 2.2, T_1 = 0.6
  e <- 0.6 * 2.2 / 5.6
  z <- res$topics[res$topics$system == "A" & res$topics$topic == "t1", "z"]
  expect_equal(z, (0.3 - e) / sqrt(e))
  # ZRisk does not depend on the baseline
  other <- risk_summary(m, baseline = "C", alpha = c(0, 1, 5))
  expect_equal(other$table$zrisk, res$table$zrisk)
  # on real data too
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")[1:8, 1:20]
  r2 <- risk_summary(ap, baseline = rownames(ap)[1], alpha = 2)
  expect_equal(r2$table$zrisk, loop_zrisk(ap, 2)$zrisk)
  expect_equal(r2$table$georisk, loop_zrisk(ap, 2)$georisk)
})

test_that("a topic every system scores 0 on contributes z = 0", {
  m <- unclass(risk_tiny())
  m <- cbind(m, t5 = 0)
  res <- risk_summary(m, baseline = "B", alpha = 1)
  expect_equal(res$topics$z[res$topics$topic == "t5"], c(0, 0))
  expect_equal(res$table$zrisk, loop_zrisk(m, 1)$zrisk)
  expect_false(anyNA(res$table$georisk))
})

test_that("edge cases follow the stated rules", {
  m <- unclass(risk_tiny())
  # no losses: URisk is the mean difference whatever alpha
  up <- rbind(B = m["B", ], W = m["B", ] + c(0.1, 0, 0.2, 0.05))
  res <- risk_summary(up, baseline = "B", alpha = c(0, 1, 10))
  expect_equal(res$table$urisk[res$table$system == "W"], rep(mean(c(0.1, 0, 0.2, 0.05)), 3))
  # all ties: URisk 0, TRisk undefined with a classed warning
  tied <- rbind(B = m["B", ], D = m["B", ], A = m["A", ])
  expect_warning(res <- risk_summary(tied, baseline = "B"), class = "irtopics_warning_undefined")
  expect_equal(row_of(res, "D", 1)$urisk, 0)
  expect_true(is.na(row_of(res, "D", 1)$trisk))
  expect_equal(row_of(res, "D", 1)$ties, 4L)
  expect_false(is.na(row_of(res, "A", 1)$trisk))
  # equal differences on every topic: no variance, TRisk NA (t.test refuses too)
  flat <- rbind(B = m["B", ], E = m["B", ] + 0.1)
  expect_warning(res <- risk_summary(flat, baseline = "B"), class = "irtopics_warning_undefined")
  expect_equal(row_of(res, "E", 1)$urisk, 0.1)
  expect_true(is.na(row_of(res, "E", 1)$trisk))
  # one topic: URisk, ZRisk, GeoRisk defined, TRisk NA
  one <- m[, 1, drop = FALSE]
  expect_warning(res <- risk_summary(one, baseline = "B", alpha = 1), class = "irtopics_warning_undefined")
  expect_equal(row_of(res, "C", 1)$urisk, -0.2)
  expect_true(is.na(row_of(res, "C", 1)$trisk))
  expect_equal(res$table$zrisk, loop_zrisk(one, 1)$zrisk)
  # NA scores are refused
  na <- m
  na["A", 2] <- NA
  expect_error(risk_summary(na, baseline = "B"), class = "irtopics_error_data")
  # negative scores: ZRisk and GeoRisk NA with a warning, URisk and TRisk as usual
  neg <- m - 0.5
  expect_warning(res <- risk_summary(neg, baseline = "B", alpha = 1), class = "irtopics_warning_undefined")
  expect_true(all(is.na(res$table$zrisk)) && all(is.na(res$table$georisk)))
  expect_equal(row_of(res, "A", 1)$urisk, loop_urisk(m["A", ], m["B", ], 1))
  expect_true(all(is.na(res$topics$z)))
})

test_that("arguments are checked with classed errors", {
  m <- risk_tiny()
  expect_error(risk_summary(m), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "Z"), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = c("A", "B")), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", alpha = -1), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", alpha = c(1, 1)), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", alpha = Inf), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", correction = "nope"), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", sig_level = 1), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", se = "other"), class = "irtopics_error_argument")
  expect_error(risk_summary(m, baseline = "B", alternative = "up"), class = "irtopics_error_argument")
  expect_error(risk_summary(m["B", , drop = FALSE], baseline = "B"), class = "irtopics_error_argument")
})

test_that("the result's methods show the numbers", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1))
  out <- format(res)
  expect_match(out[1], "<ir_risk_summary> AP against B, alpha = 0, 1, 4 topics", fixed = TRUE)
  expect_true(any(grepl("2/1/1", out, fixed = TRUE)))
  expect_identical(as.data.frame(res), res$table)
  expect_named(res$table, c("measure", "alpha", "system", "is_baseline", "mean", "urisk", "conf.low", "conf.high",
                            "std.error", "trisk", "df", "p.value", "p.adjusted", "significant", "zrisk",
                            "georisk", "wins", "ties", "losses", "n_topics"))
  s <- summary(res)
  expect_s3_class(s, "summary.ir_risk_summary")
  expect_equal(s$table$alpha, c(0, 1))
  expect_equal(s$table$best_urisk, c("A", "A"))
  t0 <- res$table[res$table$alpha == 0 & !res$table$is_baseline, ]
  expect_equal(s$table$gain[1], sum(t0$significant & t0$trisk > 0))
  expect_equal(nrow(res$topics), 2 * 4)
  expect_equal(as.character(res$topics$outcome[res$topics$system == "A"]), c("win", "tie", "loss", "win"))
})

test_that("the topic plot draws each system's sorted differences and URisk", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1))
  p <- autoplot(res, at_alpha = 1)
  b <- ggplot2::ggplot_build(p)
  bars <- ggplot2::layer_data(p, 2)
  expect_equal(nrow(bars), 2 * 4)
  a <- bars[bars$PANEL == 1, ]
  value <- a$ymin + a$ymax  # a bar spans 0 to its value
  # the panel of highest URisk first (A), its differences sorted from win to loss
  expect_equal(value, c(0.2, 0.1, 0, -0.1))
  expect_equal(unique(a$fill[value < 0]), "#b2182b")
  expect_equal(unique(a$fill[value > 0]), "#2166ac")
  expect_equal(unique(a$fill[value == 0]), "grey60")
  lines <- ggplot2::layer_data(p, 3)
  expect_equal(lines$yintercept, c(row_of(res, "A", 1)$urisk, row_of(res, "C", 1)$urisk))
  # alpha as the Greek letter (plotmath)
  expect_match(paste(deparse(b$plot$labels$subtitle), collapse = ""), "alpha == \"1\"", fixed = TRUE)
  expect_equal(levels(b$layout$layout$system), c("A", "C"))
  # one named system
  p1 <- autoplot(res, system = "C")
  c1 <- ggplot2::layer_data(p1, 2)
  expect_equal(c1$ymin + c1$ymax, unname(sort(m["C", ] - m["B", ], decreasing = TRUE)))
  expect_error(autoplot(res, system = "B"), class = "irtopics_error_argument")
  expect_error(autoplot(res, at_alpha = 3), class = "irtopics_error_argument")
  expect_error(autoplot(res, colour = "red"), class = "irtopics_error_argument")
  expect_error(autoplot(res, type = "systems", system = "A"), class = "irtopics_error_argument")
})

test_that("the systems plot draws URisk with its interval per alpha and drops overprinting labels", {
  m <- risk_tiny()
  res <- risk_summary(m, baseline = "B", alpha = c(0, 1))
  p <- autoplot(res, type = "systems")
  seg <- ggplot2::layer_data(p, 2)
  pts <- ggplot2::layer_data(p, 3)
  tab <- res$table[!res$table$is_baseline, ]
  expect_equal(sort(pts$x), sort(tab$urisk))
  expect_s3_class(p$layers[[2]]$geom, "GeomErrorbar")
  expect_equal(sort(seg$xmin), sort(tab$conf.low))
  expect_equal(sort(seg$xmax), sort(tab$conf.high))
  expect_equal(length(unique(pts$PANEL)), 2L)
  # alpha as a Greek letter in the strips
  expect_identical(levels(ggplot2::layer_data(p, 3)$PANEL), c("1", "2"))
  expect_identical(levels(p$data$panel), c("alpha == 0", "alpha == 1"))
  # many systems: names that would overprint are dropped when drawn (check.overlap), at any size
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  big <- risk_summary(ap, baseline = rownames(ap)[1], alpha = c(0, 1, 5))
  p2 <- autoplot(big, type = "systems")
  expect_true(guide_checks_overlap(p2))
  expect_lt(as.numeric(ggplot2::calc_element("axis.text.y", ggplot2::theme_get() + p2$theme)$size), 8.8)
  expect_figure_ready(p2, min_panel = 0.3)
  expect_figure_ready(p2, width = 7, height = 4.5)
  expect_follows_user_theme(function() autoplot(big, type = "systems"))
  # the topic plot: 4 panels by default (a 2 x 2 grid fits one column), said by a message
  expect_message(p3 <- autoplot(big), "4 systems of highest URisk of 109", class = "irtopics_message_layout")
  expect_equal(nlevels(ggplot2::layer_data(p3, 2)$PANEL), 4L)
  expect_length(ggplot2::ggplot_build(p3)$layout$panel_params[[1]]$x$get_labels(), 0L)
  expect_figure_ready(p3, min_panel = 0.3)
  expect_figure_ready(p3, width = 7, height = 4.5)
  expect_follows_user_theme(function() autoplot(big))
})

test_that("identical systems on real data tie on every topic", {
  ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                    measure = "AP")
  same <- ap[c("sys67", "sys69", "sys74"), ]
  expect_warning(res <- risk_summary(same, baseline = "sys69", alpha = c(0, 5)),
                 class = "irtopics_warning_undefined")
  r <- row_of(res, "sys67", 5)
  expect_equal(c(r$wins, r$ties, r$losses), c(0, ncol(ap), 0))
  r74 <- row_of(res, "sys74", 5)
  expect_equal(r74$urisk, loop_urisk(ap["sys74", ], ap["sys69", ], 5))
  expect_equal(r74$trisk, unname(t.test(loop_weighted(ap["sys74", ], ap["sys69", ], 5))$statistic))
})

test_that("risk counts a lower score as a win where lower is better (issue 40)", {
  err <- error_matrix()
  high <- matrix(1 - as.vector(err), nrow(err), dimnames = dimnames(err))  # the same gains, higher is better
  expect_warning(r <- risk_summary(err, baseline = "sysA", alpha = c(0, 2)), "GeoRisk",
                 class = "irtopics_warning_undefined")
  h <- risk_summary(high, baseline = "sysA", alpha = c(0, 2))
  for (col in c("urisk", "conf.low", "conf.high", "trisk", "p.value", "p.adjusted")) {
    expect_equal(r$table[[col]], h$table[[col]], label = col)
  }
  expect_identical(r$table[c("wins", "ties", "losses", "significant")], h$table[c("wins", "ties", "losses", "significant")])
  expect_true(all(r$table$urisk[!r$table$is_baseline] > 0))  # every system beats the worst one
  expect_equal(r$topics$difference, h$topics$difference)
  # ZRisk: a score below its expected value is a gain (at alpha = 0, minus
  # the ZRisk of the same scores read as higher is better); GeoRisk has no meaning
  as_higher <- risk_summary(plain(err), baseline = "sysA", alpha = 0)
  expect_equal(r$table$zrisk[r$table$alpha == 0], -as_higher$table$zrisk)
  expect_equal(r$topics$z, -as_higher$topics$z)
  expect_true(all(is.na(r$table$georisk)))
  expect_identical(summary(r)$table$best_urisk[1], "sysF")
})

test_that("scores of magnitude 1e-300 give the risks of the same scores at scale 1, scaled (issue 43)", {
  # before: the squared differences and ZRisk's expected values underflowed:
  # TRisk, ZRisk and GeoRisk NA
  ap <- as_ir_scores(robust()[1:6, 1:40], measure = "AP")
  base <- rownames(ap)[1]
  a <- risk_summary(ap, baseline = base, alpha = c(0, 2))$table
  # (subnormal scores, 1e-315, carry about 28 bits: compared to 1e-6)
  for (f in c(1e-300, 1e-315)) {
    tol <- if (f < 1e-307) 1e-6 else 1e-12
    b <- expect_no_warning(risk_summary(ap * f, baseline = base, alpha = c(0, 2)))$table
    for (col in c("urisk", "conf.low", "conf.high", "std.error", "mean")) {
      expect_equal(b[[col]] / f, a[[col]], tolerance = tol, label = sprintf("%s at %g", col, f))
    }
    expect_equal(b$trisk, a$trisk, tolerance = tol)
    expect_equal(b$p.value, a$p.value, tolerance = tol)
    # z scales as the square root of the scores; GeoRisk from its definition
    expect_equal(b$zrisk / sqrt(f), a$zrisk, tolerance = tol)
    expect_equal(b$georisk, sqrt(a$mean * f * stats::pnorm(a$zrisk * sqrt(f) / ncol(ap))), tolerance = tol)
  }
})

test_that("a huge alpha does not overflow the standard error of URisk (issue 43)", {
  # before: (1 + alpha) times a loss squared to Inf: std.error Inf, TRisk 0, p = 1
  ap <- as_ir_scores(robust()[1:6, 1:40], measure = "AP")
  base <- rownames(ap)[1]
  r <- risk_summary(ap, baseline = base, alpha = 1e300)$table
  r <- r[!r$is_baseline, ]
  d <- unclass(ap)[r$system, ] - rep(unclass(ap)[base, ], each = nrow(r))
  # URisk's values over 1 + alpha (= 1e300 in doubles): the t statistic does not depend on the scale
  w <- ifelse(d < 0, d, d / 1e300)
  ref <- apply(w, 1, function(v) mean(v) / (stats::sd(v) / sqrt(length(v))))
  expect_true(all(is.finite(r$std.error)))
  expect_equal(r$trisk, unname(ref), tolerance = 1e-12)
  expect_equal(r$std.error / 1e300, unname(apply(w, 1, stats::sd) / sqrt(ncol(w))), tolerance = 1e-12)
})
