test_that("autoplot of a GAWM fit draws E_s against MAP and E_t against AAP", {
  P <- spec_gawm_matrix()
  g <- gawm(P)
  p <- ggplot2::autoplot(g)
  expect_s3_class(p, "ggplot")
  d <- ggplot2::layer_data(p, 2)
  expect_equal(d$x, unname(rowMeans(P)))
  expect_equal(d$y, unname(g$E_s))
  pt <- ggplot2::autoplot(g, type = "topics")
  dt <- ggplot2::layer_data(pt, 2)
  expect_equal(dt$x, unname(colMeans(P)))
  expect_equal(dt$y, unname(g$E_t))
  expect_equal(order(dt$size), order(g$W_t))
  expect_error(ggplot2::autoplot(g, type = "pairs"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(hits(P), type = "pairs"), class = "irtopics_error_argument")
})
test_that("GAWM reproduces the worked example of spec 3.1 (q = 1)", {
  P <- spec_gawm_matrix()
  g <- gawm(P)
  expect_s3_class(g, "ir_gawm")
  expect_equal(unname(g$E_t), c(0.5639248948, 0.1482604265, 0.2034791470, 0.7143444664), tolerance = 1e-9)
  expect_equal(unname(g$W_s), c(0.7854907560, 0.7159078162, 0.4986014278), tolerance = 1e-9)
  expect_equal(unname(g$W_t), c(0.3793471229, 0.07077484262, 0.1415496852, 0.1435872249), tolerance = 1e-9)
  expect_equal(unname(g$E_s), c(0.4815796761, 0.3815796761, 0.6344580452), tolerance = 1e-9)
  expect_equal(g$iterations, 27L)
  expect_true(g$converged)
  expect_lt(g$change, 1e-12)
  expect_named(g$E_s, c("s1", "s2", "s3"))
  expect_equal(g$systems$MAP, c(.425, .35, .4625))
  expect_equal(g$topics$AAP, c(.6, .15, .2, .7))
})

test_that("GAWM reproduces the worked example for q = 2 and q = 0", {
  P <- spec_gawm_matrix()
  g2 <- gawm(P, q = 2)
  expect_equal(unname(g2$E_t), c(0.5045775449, 0.1469036943, 0.2061926114, 0.7359358926), tolerance = 1e-9)
  expect_equal(unname(g2$E_s), c(0.4866324294, 0.3866324294, 0.6438888109), tolerance = 1e-9)
  expect_equal(g2$iterations, 31L)
  g0 <- gawm(P, q = 0)
  expect_equal(unname(g0$E_t), colMeans(P), tolerance = 1e-15)
  expect_equal(unname(g0$W_s), rep(1, 3))
  expect_equal(unname(g0$W_t), c(0.3741657387, 0.07071067812, 0.1414213562, 0.1414213562), tolerance = 1e-9)
  expect_equal(unname(g0$E_s), c(0.4805664919, 0.3805664919, 0.6327892630), tolerance = 1e-9)
  expect_equal(g0$iterations, 1L)
})

test_that("the first step uses W_s from the distances to AAP (spec 3.1)", {
  P <- spec_gawm_matrix()
  w1 <- c(0.7515585883, 0.6842364765, 0.5642049351)
  expect_warning(g <- gawm(P, maxit = 1), class = "irtopics_warning_convergence")
  expect_false(g$converged)
  expect_equal(g$iterations, 1L)
  expect_equal(unname(g$E_t), colSums(w1 * P) / sum(w1), tolerance = 1e-9)
})

test_that("q = 0 gives column means and a W_t-weighted E_s on real data", {
  ap <- real_scores("adhoc7_ap.csv")
  g <- gawm(ap, q = 0)
  m <- unclass(ap)
  expect_equal(unname(g$E_t), unname(colMeans(m)), tolerance = 1e-14)
  wt <- apply(m, 2, function(x) sqrt(sum((x - mean(x))^2)))
  expect_equal(unname(g$W_t), unname(wt), tolerance = 1e-12)
  expect_equal(unname(g$E_s), unname(drop(m %*% wt) / sum(wt)), tolerance = 1e-12)
})

test_that("an affine image of a column gets |factor| times its discernment", {
  P <- spec_gawm_matrix()
  # In the worked example t3 = 0.5 - 2 * t2 (up to rounding of the inputs).
  expect_equal(P[, 3], 0.5 - 2 * P[, 2])
  for (q in c(0, 1, 2)) {
    g <- gawm(P, q = q)
    expect_equal(g$W_t[[3]], 2 * g$W_t[[2]], tolerance = 1e-12)
    expect_equal(g$E_t[[3]], 0.5 - 2 * g$E_t[[2]], tolerance = 1e-12)
  }
  set.seed(7)
  X <- matrix(runif(40), 8, 5)
  X[, 5] <- 0.2 + 0.3 * X[, 2]
  g <- gawm(X, q = 3)
  expect_equal(g$W_t[[5]], 0.3 * g$W_t[[2]], tolerance = 1e-12)
})

test_that("GAWM agrees with a plain base-R implementation on real data", {
  for (f in c("adhoc6_ap.csv", "terabyte2006_ap.csv")) {
    m <- unclass(real_scores(f))
    attr(m, "measure") <- NULL
    for (q in c(1, 10)) {
      g <- gawm(m, q = q)
      r <- reference_gawm(m, q = q)
      expect_equal(unname(g$E_s), unname(r$E_s), tolerance = 1e-12)
      expect_equal(unname(g$E_t), unname(r$E_t), tolerance = 1e-12)
      expect_equal(unname(g$W_s), unname(r$W_s), tolerance = 1e-12)
      expect_equal(unname(g$W_t), unname(r$W_t), tolerance = 1e-12)
      expect_equal(g$iterations, r$iterations)
    }
  }
})

test_that("the R-function path equals the C++ path", {
  ap <- real_scores("adhoc6_ap.csv")
  wmean <- function(x, w) sum(w * x) / sum(w)
  disp <- function(x, center) sqrt(sum((x - center)^2))
  prox <- function(scores, ease, q) {
    d <- sqrt(rowSums(sweep(scores, 2, ease)^2))
    (1 - d / sum(d))^q
  }
  for (q in c(0, 1, 4)) {
    cpp <- gawm(ap, q = q)
    r <- gawm(ap, q = q, mean = wmean, dispersion = disp, proximity = prox)
    expect_equal(r$E_s, cpp$E_s, tolerance = 1e-12)
    expect_equal(r$E_t, cpp$E_t, tolerance = 1e-12)
    expect_equal(r$W_s, cpp$W_s, tolerance = 1e-12)
    expect_equal(r$W_t, cpp$W_t, tolerance = 1e-12)
    expect_equal(r$iterations, cpp$iterations)
    expect_equal(unname(r$method), c("custom", "custom", "custom"))
  }
  # One custom component alone: the others keep their built-in meaning.
  r1 <- gawm(ap, mean = wmean)
  expect_equal(r1$E_s, gawm(ap)$E_s, tolerance = 1e-12)
  # A proximity without q is called without it.
  r2 <- gawm(ap, q = 1, proximity = function(scores, ease) prox(scores, ease, 1))
  expect_equal(r2$W_s, gawm(ap)$W_s, tolerance = 1e-12)
})

test_that("custom generalized means change the result as documented", {
  P <- spec_gawm_matrix()
  power_mean <- function(p) function(x, w) (sum(w * x^p) / sum(w))^(1 / p)
  expect_equal(gawm(P, mean = power_mean(1))$E_s, gawm(P)$E_s, tolerance = 1e-12)
  g2 <- gawm(P, q = 0, mean = power_mean(2))
  # With q = 0 the system weights are 1: E_t is the quadratic column mean.
  expect_equal(unname(g2$E_t), sqrt(colMeans(P^2)), tolerance = 1e-14)
  geo <- function(x, w) exp(sum(w * log(x)) / sum(w))
  g3 <- gawm(P, q = 0, mean = geo)
  expect_equal(unname(g3$E_t), exp(colMeans(log(P))), tolerance = 1e-14)
  manhattan <- function(scores, ease, q) {
    d <- rowSums(abs(sweep(scores, 2, ease)))
    (1 - d / sum(d))^q
  }
  g4 <- gawm(P, q = 0, proximity = manhattan)
  expect_equal(unname(g4$W_s), rep(1, 3))
})

test_that("degenerate inputs follow spec 6", {
  # All systems identical: every d_i = 0 (W_s = 1), every W_t = 0 (E_s = MAP).
  P <- rbind(a = c(.1, .5, .3), b = c(.1, .5, .3))
  g <- gawm(P)
  expect_equal(unname(g$W_s), c(1, 1))
  expect_equal(unname(g$W_t), c(0, 0, 0))
  expect_equal(unname(g$E_s), unname(rowMeans(P)))
  expect_true(g$converged)
})

test_that("GAWM rejects bad arguments with classed errors", {
  P <- spec_gawm_matrix()
  bad <- P
  bad[2, 3] <- NA
  expect_error(gawm(bad), class = "irtopics_error_data")
  expect_error(gawm(P[1, , drop = FALSE]), class = "irtopics_error_argument")
  expect_error(gawm(P[, 1, drop = FALSE]), class = "irtopics_error_argument")
  expect_error(gawm(P, q = -1), class = "irtopics_error_argument")
  expect_error(gawm(P, q = NA), class = "irtopics_error_argument")
  expect_error(gawm(P, tol = -1), class = "irtopics_error_argument")
  expect_error(gawm(P, maxit = 0), class = "irtopics_error_argument")
  expect_error(gawm(P, mean = "harmonic"), class = "irtopics_error_argument")
  expect_error(gawm(P, dispersion = 2), class = "irtopics_error_argument")
  expect_error(gawm(P, proximity = function(scores, ease) 1), class = "irtopics_error_argument")
  expect_error(gawm(P, proximity = function(scores, ease) rep(0, 3)), class = "irtopics_error_data")
  expect_error(gawm(P, mean = function(x, w) c(1, 2)), class = "irtopics_error_argument")
  expect_error(gawm("a"), class = "irtopics_error_argument")
  # (1 - d_i / sum d)^q underflows to 0 for every system.
  expect_error(gawm(P, q = 1e6), class = "irtopics_error_data")
  expect_error(gawm(P, q = 1e6, mean = function(x, w) sum(w * x) / sum(w)),
               class = "irtopics_error_data")
})

test_that("print, summary and as.data.frame describe the fit", {
  P <- spec_gawm_matrix()
  g <- gawm(P)
  expect_snapshot(print(g))
  s <- summary(g)
  expect_s3_class(s, "summary.ir_gawm")
  expect_equal(s$correlations$pearson[1], cor(rowMeans(P), g$E_s))
  expect_equal(s$correlations$kendall[2], cor(colMeans(P), g$E_t, method = "kendall"))
  expect_equal(s$systems$system, c("s3", "s1", "s2"))
  expect_equal(s$systems$MAP_rank, c(1, 2, 3))
  expect_snapshot(print(s))
  df <- as.data.frame(g)
  expect_equal(nrow(df), 3 * 3 + 4 * 3)
  expect_equal(df$value[df$entity == "system" & df$quantity == "performance"], unname(g$E_s))
  expect_equal(df$value[df$entity == "topic" & df$quantity == "discernment"], unname(g$W_t))
})

test_that("weighting_correlations gives Table 2's four correlations", {
  ap6 <- real_scores("adhoc6_ap.csv")
  ap7 <- real_scores("adhoc7_ap.csv")
  tab <- weighting_correlations(list(ta6 = ap6, ta7 = ap7))
  expect_s3_class(tab, "ir_weighting_correlations")
  expect_equal(tab$collection, c("ta6", "ta7"))
  expect_equal(tab$systems, c(nrow(ap6), nrow(ap7)))
  g <- gawm(ap6)
  h <- hits(ap6)
  expect_equal(tab$MAP_E_s[1], cor(rowMeans(unclass(ap6)), g$E_s))
  expect_equal(tab$MAP_A_s[1], cor(rowMeans(unclass(ap6)), h$A_s))
  expect_equal(tab$AAP_E_t[1], cor(colMeans(unclass(ap6)), g$E_t))
  expect_equal(tab$AAP_A_t[1], cor(colMeans(unclass(ap6)), h$A_t))
  # q is passed on to gawm()
  tab0 <- weighting_correlations(list(ap6), q = 0)
  expect_equal(tab0$collection, "collection1")
  expect_equal(tab0$AAP_E_t, 1)
  expect_output(print(tab), "Table 2")
  expect_error(weighting_correlations(ap6), class = "irtopics_error_argument")
  expect_error(weighting_correlations(list()), class = "irtopics_error_argument")
})

test_that("the geometric built-in equals the same mean given as an R function", {
  wgeo <- function(x, w) exp(sum(w * log(x + 1e-7)) / sum(w))
  P <- spec_gawm_matrix()
  P[1, 2] <- 0  # the floor makes zeros admissible
  m <- unclass(real_scores("adhoc6_ap.csv"))
  attr(m, "measure") <- NULL
  for (X in list(P, m)) {
    for (q in c(0, 1, 3)) {
      a <- gawm(X, q = q, mean = "geometric", floor = 1e-7)
      b <- gawm(X, q = q, mean = wgeo)
      for (v in c("E_s", "E_t", "W_s", "W_t")) expect_equal(a[[v]], b[[v]], tolerance = 1e-12, info = v)
      expect_equal(a$iterations, b$iterations)
    }
  }
  # q = 0: E_t is the plain geometric mean of each column (with the floor).
  g0 <- gawm(P, q = 0, mean = "geometric", floor = 1e-3)
  expect_equal(unname(g0$E_t), exp(colMeans(log(P + 1e-3))), tolerance = 1e-14)
  wt <- unname(g0$W_t)
  expect_equal(wt, sqrt(colSums((P - rep(g0$E_t, each = 3))^2)), tolerance = 1e-14)
  expect_equal(unname(g0$E_s), unname(exp(drop(log(P + 1e-3) %*% wt) / sum(wt))), tolerance = 1e-14)
  # The R path with a built-in geometric mean (another component is a function).
  manhattan <- function(scores, ease, q) { d <- rowSums(abs(sweep(scores, 2, ease))); (1 - d / sum(d))^q }
  expect_equal(gawm(m, mean = "geometric", proximity = manhattan)$E_s,
               gawm(m, mean = wgeo, proximity = manhattan)$E_s, tolerance = 1e-12)
})

test_that("power means: the built-in equals the R function, and p = 0 is the geometric mean", {
  m <- unclass(real_scores("adhoc7_ap.csv"))
  attr(m, "measure") <- NULL
  for (p in c(-0.05, 0.5, 2)) {
    wpow <- function(x, w) (sum(w * (x + 1e-5)^p) / sum(w))^(1 / p)
    a <- gawm(m, q = 2, mean = "power", exponent = p, floor = 1e-5)
    b <- gawm(m, q = 2, mean = wpow)
    expect_equal(a$E_s, b$E_s, tolerance = 1e-12, info = p)
    expect_equal(a$E_t, b$E_t, tolerance = 1e-12, info = p)
    expect_equal(a$method[["mean"]], sprintf("power(%s)", format(p)))
  }
  # exponent 1 without floor is the arithmetic mean (the paper's).
  expect_equal(gawm(m, mean = "power", exponent = 1, floor = 0)$E_s, gawm(m)$E_s, tolerance = 1e-13)
  g0 <- gawm(m, mean = "power", exponent = 0)
  expect_identical(g0$E_s, gawm(m, mean = "geometric")$E_s)
  expect_equal(g0$method[["mean"]], "geometric")
  expect_output(print(gawm(m, mean = "geometric")), "weighted geometric mean of scores \\+ 1e-07")
})

test_that("the means' arguments are checked", {
  P <- spec_gawm_matrix()
  expect_error(gawm(P, mean = "power"), class = "irtopics_error_argument")
  expect_error(gawm(P, exponent = 2), class = "irtopics_error_argument")
  expect_error(gawm(P, mean = "geometric", exponent = 2), class = "irtopics_error_argument")
  expect_error(gawm(P, mean = function(x, w) 1, exponent = 2), class = "irtopics_error_argument")
  expect_error(gawm(P, mean = "power", exponent = NA), class = "irtopics_error_argument")
  expect_error(gawm(P, mean = "geometric", floor = -1), class = "irtopics_error_argument")
  P[2, 2] <- 0
  expect_error(gawm(P, mean = "geometric", floor = 0), class = "irtopics_error_data")
  expect_error(gawm(P, mean = "power", exponent = -1, floor = 0), class = "irtopics_error_data")
  expect_no_error(gawm(P, mean = "power", exponent = 2, floor = 0))
})

test_that("power means are accurate for tiny exponents: the limit p -> 0 is the geometric mean", {
  m <- unclass(real_scores("adhoc7_ap.csv"))[1:30, ]
  attr(m, "measure") <- NULL
  geo <- gawm(m, q = 2, mean = "geometric", floor = 1e-5)
  for (p in c(1e-17, -1e-17, 1e-12, -1e-9)) {
    a <- gawm(m, q = 2, mean = "power", exponent = p, floor = 1e-5)
    # ln M_p = mean_w(y) + p var_w(y) / 2 + O(p^2): within 1e-9 relative here
    expect_equal(a$E_s, geo$E_s, tolerance = 1e-8, info = p)
    expect_equal(a$E_t, geo$E_t, tolerance = 1e-8, info = p)
    expect_true(all(a$E_s > 0 & a$E_s < 1), info = p)
  }
  # p = 1e-4: reference from the cumulant expansion of ln M_p in p,
  # mean_w(y) + p k2 / 2 + p^2 k3 / 6 + p^3 k4 / 24 (truncation ~ p^4 y^5,
  # far below double precision), run through gawm()'s R iteration.
  p <- 1e-4
  series <- function(x, w) {
    y <- log(x + 1e-5)
    w <- w / sum(w)
    mu <- sum(w * y)
    c2 <- sum(w * (y - mu)^2)
    c3 <- sum(w * (y - mu)^3)
    c4 <- sum(w * (y - mu)^4) - 3 * c2^2
    exp(mu + p * c2 / 2 + p^2 * c3 / 6 + p^3 * c4 / 24)
  }
  a <- gawm(m, q = 2, mean = "power", exponent = p, floor = 1e-5)
  b <- gawm(m, q = 2, mean = series)
  expect_equal(a$E_s, b$E_s, tolerance = 1e-12)
  expect_equal(a$E_t, b$E_t, tolerance = 1e-12)
  # Large exponents do not overflow: p = 1000 approaches the maximum.
  big <- gawm(m, q = 0, mean = "power", exponent = 1000, floor = 0)
  expect_true(all(is.finite(big$E_s)))
  expect_equal(unname(big$E_t), unname(apply(m, 2, max)), tolerance = 0.01)
})

test_that("scores around 1e-300: GAWM, standardized scores and alpha are scale-invariant", {
  m <- unclass(real_scores("adhoc7_ap.csv"))[1:20, 1:30]
  attr(m, "measure") <- NULL
  tiny <- m * 1e-300
  a <- gawm(m)
  b <- gawm(tiny, tol = 1e-12 * 1e-300)
  expect_equal(b$E_s / 1e-300, a$E_s, tolerance = 1e-12)
  expect_equal(b$E_t / 1e-300, a$E_t, tolerance = 1e-12)
  expect_equal(b$W_s, a$W_s, tolerance = 1e-12)
  expect_equal(b$W_t / 1e-300, a$W_t, tolerance = 1e-12)
  expect_equal(b$iterations, a$iterations)
  # the R path (a user component) too
  manhattan <- function(scores, ease, q) { d <- rowSums(abs(sweep(scores, 2, ease))); (1 - d / sum(d))^q }
  ar <- gawm(m, proximity = manhattan)
  br <- gawm(tiny, tol = 1e-12 * 1e-300, proximity = manhattan)
  expect_equal(br$W_t / 1e-300, ar$W_t, tolerance = 1e-12)
  expect_equal(unclass(standardize_scores(tiny)), unclass(standardize_scores(m)), tolerance = 1e-12,
               ignore_attr = TRUE)
  expect_equal(attr(standardize_scores(tiny), "standardization")$sd / 1e-300,
               attr(standardize_scores(m), "standardization")$sd, tolerance = 1e-12)
  expect_equal(cronbach_alpha(tiny), cronbach_alpha(m), tolerance = 1e-12)
  expect_equal(alpha_bootstrap(tiny, B = 20, seed = 1)$draws, alpha_bootstrap(m, B = 20, seed = 1)$draws,
               tolerance = 1e-12)
  expect_equal(alpha_bootstrap(tiny, B = 20, seed = 1)$intervals, alpha_bootstrap(m, B = 20, seed = 1)$intervals,
               tolerance = 1e-12)
  # the G-study's coefficients, intervals and topics needed are ratios
  gt <- g_study(tiny)
  gm <- g_study(m)
  expect_equal(c(gt$Erho2, gt$Phi), c(gm$Erho2, gm$Phi), tolerance = 1e-12)
  expect_equal(gt$Erho2, cronbach_alpha(m), tolerance = 1e-12)
  expect_equal(as.data.frame(d_study(gt, c(10, 50))), as.data.frame(d_study(gm, c(10, 50))), tolerance = 1e-12)
  expect_equal(as.data.frame(topics_needed(gt)), as.data.frame(topics_needed(gm)))
  expect_equal(gt$components$percent, gm$components$percent, tolerance = 1e-12)
})

test_that("an interrupt stops the GAWM fixed point inside its C++ loop", {
  skip_if_no_interrupts()
  # tol = 0 never converges: the loop runs maxit iterations in one C++ call.
  m <- matrix(seq(0.01, 0.99, length.out = 60 * 200)[c(matrix(1:(60 * 200), 60, byrow = TRUE))], 60)
  res <- with_interrupt_in(suppressWarnings(gawm(m, tol = 0, maxit = 1e6)), polls = 2L)
  expect_true(res$interrupted)
  expect_identical(res$raised, 1L)
  # The session is usable and gives the same numbers.
  a <- suppressWarnings(gawm(m, tol = 0, maxit = 50))
  b <- suppressWarnings(gawm(m, tol = 0, maxit = 50))
  expect_identical(a$system_performance, b$system_performance)
})

test_that("GAWM, HITS and the prediction scatter label their points", {
  ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                    measure = "AP")
  g <- gawm(ap)
  d <- label_data(ggplot2::autoplot(g, label = 2))
  expect_setequal(d$label, utils::head(g$systems$system[order(-g$systems$performance)], 2))
  d <- label_data(ggplot2::autoplot(g, type = "topics", label = "t7"))
  expect_identical(d$label, "t7")
  # the label is nudged off the diagonal; it points at the topic's bubble
  expect_equal(d$y_orig %||% d$y, g$topics$ease[g$topics$topic == "t7"])
  h <- hits(ap)
  d <- label_data(ggplot2::autoplot(h, type = "topics", label = 4))
  expect_setequal(d$label, utils::head(h$topics$topic[order(-h$topics$authority)], 4))
  pred <- t(apply(ap, 1, function(v) rank(-v, ties.method = "first")))
  pc <- prediction_curves(ap[1:6, ], pred[1:6, ])
  d <- label_data(ggplot2::autoplot(pc, type = "scatter", label = 1))
  expect_identical(d$label, pc$runs$system[which.max(pc$runs$tau)])
})

test_that("GAWM components, swap aggregates, indicators and tests all cross the boundary", {
  ap <- real_scores("adhoc8_ap.csv")[1:6, 1:12]
  err <- expect_error(gawm(ap, dispersion = function(x, center) stop("no dispersion")),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), "`dispersion` failed (topic", fixed = TRUE)
  expect_identical(conditionMessage(err$parent), "no dispersion")
  err <- expect_error(gawm(ap, proximity = function(scores, ease) stop("no proximity")),
                      class = "irtopics_error_user")
  expect_identical(conditionMessage(err$parent), "no proximity")
  err <- expect_error(gawm(ap, mean = function(x, w) stop("no mean")), class = "irtopics_error_user")
  expect_s3_class(err, "irtopics_error_argument")
  # swap aggregates: failing on a later system, not only on the probe
  fails_late <- function(v) if (sum(v) < 0.5) stop("small sum") else mean(v)
  err <- expect_error(swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = fails_late),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), "`aggregate` failed (system", fixed = TRUE)
  wrong_late <- function(v) if (sum(v) < 0.5) c(1, 2) else mean(v)
  expect_error(swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = wrong_late),
               "must return one number", class = "irtopics_error_user")
  # indicators
  sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300, depth = 200, seed = 3)
  err <- expect_error(topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                                       indicators = list(bad = function(context) stop("no indicator"))),
                      class = "irtopics_error_user")
  expect_match(conditionMessage(err), 'Indicator "bad" failed (topic "', fixed = TRUE)
  expect_error(topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                                indicators = list(bad = function(context) 1:3)),
               "must return one number", class = "irtopics_error_data")
  # custom tests
  err <- expect_error(compare_systems(ap[1:3, ], test = function(x, y) stop("boom")),
                      class = "irtopics_error_test")
  expect_s3_class(err, "irtopics_error_user")
  expect_match(conditionMessage(err), 'The test function failed (system1 "', fixed = TRUE)
  expect_error(compare_systems(ap[1:3, ], test = function(x, y) 2), "p-value in \\[0, 1\\]",
               class = "irtopics_error_user")
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("GAWM and HITS figures follow the user's theme and fit a column and a page", {
  ap <- real_scores("robust2004_ap.csv")
  g <- gawm(ap[1:17, ])
  h <- hits(ap[1:17, ])
  for (type in c("systems", "topics")) {
    for (fit in list(g, h)) {
      make <- function() ggplot2::autoplot(fit, type = type)
      expect_follows_user_theme(make)
      expect_figure_ready(make())
      expect_figure_ready(make(), width = 7, height = 4.5)
    }
  }
  # the size legend of the bubbles sits below the panel
  th <- ggplot2::theme_get() + ggplot2::autoplot(g, type = "topics")$theme
  expect_identical(ggplot2::calc_element("legend.position", th), "bottom")
  # A(s) as plotmath, not "A(s)" in words
  expect_true(is.language(ggplot2::autoplot(h)$labels$y))
})

test_that("GAWM topic labels keep clear of the bubbles: each label knows its bubble's size", {
  skip_if_not_installed("ggrepel")
  ap <- real_scores("robust2004_ap.csv")
  g <- gawm(ap[1:17, ])
  p <- ggplot2::autoplot(g, type = "topics", label = 5)
  points <- ggplot2::layer_data(p, 2)
  labels <- ggplot2::layer_data(p, 3)
  # ggrepel keeps labels off a circle of `point.size`: it must be the bubble's drawn size
  expect_equal(labels$point.size, points$size)
  expect_gt(diff(range(points$size)), 2)
  # by hand: scale_size() maps sqrt(discernment) linearly onto its range (0.5, 4)
  w <- g$topics$discernment
  expect_equal(points$size, 0.5 + 3.5 * sqrt((w - min(w)) / diff(range(w))))
  # and the labels start up and to the left of their bubbles, off the diagonal
  shown <- nzchar(labels$label)
  expect_true(all(labels$x[shown] < labels$x_orig[shown] & labels$y[shown] > labels$y_orig[shown]))
})
