# assisted_means(): the spec's worked example, the formulas against a direct
# implementation, stratified PPI, the qrels + runs path, and the pitfalls.

spec_example <- function() {
  Y <- c(0.42, 0.10, 0.55, 0.31, 0.08)
  f <- c(0.38, 0.15, 0.49, 0.36, 0.02)
  fu <- c(0.27, 0.61, 0.05, 0.44, 0.19, 0.33, 0.12, 0.50)
  list(ref = matrix(Y, 1, dimnames = list("sys", paste0("t", 1:5))),
       judge = matrix(c(f, fu), 1, dimnames = list("sys", paste0("t", 1:13))))
}

# The spec's formulas written out for one system (no strata).
direct_ppi <- function(Y, f, fu, lambda, conf = 0.95, q = stats::qnorm(1 - (1 - conf) / 2)) {
  n <- length(Y)
  N <- length(fu)
  if (identical(lambda, "tuned")) lambda <- stats::cov(Y, f) / ((1 + n / N) * stats::var(c(f, fu)))
  est <- mean(Y - lambda * f) + lambda * mean(fu)
  se <- sqrt(stats::var(Y - lambda * f) / n + lambda^2 * stats::var(fu) / N)
  c(lambda = lambda, estimate = est, std.error = se, conf.low = est - q * se, conf.high = est + q * se)
}

# The spec prints 10 decimals: equal to within 1e-10 (absolute).
expect_within <- function(actual, expected, tol = 1e-10) {
  expect_length(actual, length(expected))
  expect_lte(max(abs(actual - expected)), tol)
}

random_case <- function(seed, systems = 4, n = 12, N = 30) {
  set.seed(seed)
  topics <- paste0("q", seq_len(n + N))
  truth <- matrix(stats::runif(systems * (n + N)), systems, dimnames = list(paste0("s", seq_len(systems)), topics))
  judge <- truth + matrix(stats::rnorm(length(truth), 0.05, 0.1), systems)
  lab <- sample(topics, n)
  list(ref = truth[, lab], judge = judge, lab = lab, unl = setdiff(topics, lab))
}

test_that("the spec's worked example is reproduced to 1e-10", {
  ex <- spec_example()
  expect_warning(am <- assisted_means(ex$ref, ex$judge, se = "plugin", interval = "normal", fallback = "never"),
                 class = "irtopics_warning_too_few")
  tab <- as.data.frame(am)
  expect_equal(tab$method, c("ppi++", "ppi", "classical"))
  expect_within(tab$lambda, c(0.6662429431, 1, 0))
  expect_within(tab$estimate, c(0.3144856993, 0.3257500000, 0.2920000000))
  expect_within(tab$std.error, c(0.0605224740, 0.0731450980, 0.0908515272))
  expect_within(tab$conf.low, c(0.1958638301, 0.1823882423, 0.1139342787))
  expect_within(tab$conf.high, c(0.4331075686, 0.4691117577, 0.4700657213))
  expect_within(am$baselines$judge_only, 0.3007692308)
  expect_within(am$baselines$human_only, 0.292)
  expect_equal(tab$n_labelled, rep(5L, 3))
  expect_equal(tab$n_unlabelled, rep(8L, 3))
  expect_named(tab, c("measure", "system", "method", "lambda", "estimate", "std.error", "conf.low", "conf.high",
                      "n_labelled", "n_unlabelled"))
  txt <- format(am)
  expect_true(any(grepl("judge only", txt)) && any(grepl("0.3008", txt)))
  expect_true(any(grepl("95% normal (z) intervals; PPI++: plug-in se (lambda taken as known), lambda tuned per system",
                        txt, fixed = TRUE)))
})

test_that("estimates, standard errors, lambda and intervals equal a direct implementation", {
  for (seed in 1:5) {
    cs <- random_case(seed)
    for (interval in c("normal", "t")) {
      am <- assisted_means(cs$ref, cs$judge, conf = 0.9, interval = interval, se = "plugin")
      tab <- as.data.frame(am)
      q <- if (interval == "t") stats::qt(0.95, 11) else stats::qnorm(0.95)
      for (s in rownames(cs$ref)) {
        Y <- cs$ref[s, cs$lab]
        f <- cs$judge[s, cs$lab]
        fu <- cs$judge[s, cs$unl]
        for (m in list(c("ppi++", "tuned"), c("ppi", 1), c("classical", 0))) {
          lam <- if (m[2] == "tuned") "tuned" else as.numeric(m[2])
          want <- direct_ppi(Y, f, fu, lam, q = q)
          got <- unlist(tab[tab$system == s & tab$method == m[1], names(want)])
          expect_equal(unname(got), unname(want), tolerance = 1e-12)
        }
      }
    }
  }
  # lambda = 0 is the classical estimate: mean and t.test()'s interval
  cs <- random_case(9)
  am <- assisted_means(cs$ref, cs$judge, method = "classical", interval = "t")
  tt <- stats::t.test(cs$ref["s1", ])
  r <- as.data.frame(am)[1, ]
  expect_equal(r$estimate, unname(tt$estimate), tolerance = 1e-12)
  expect_equal(c(r$conf.low, r$conf.high), as.vector(tt$conf.int), tolerance = 1e-12)
})

test_that("the labelled set can be named; NA columns of the reference elsewhere are allowed", {
  cs <- random_case(3)
  # the judge's systems and topics in another order: the same numbers
  shuffled <- cs$judge[rev(rownames(cs$judge)), rev(colnames(cs$judge))]
  expect_equal(as.data.frame(assisted_means(cs$ref, shuffled)), as.data.frame(assisted_means(cs$ref, cs$judge)),
               tolerance = 1e-14)
  ref <- cs$judge * NA
  ref[, cs$lab] <- cs$ref
  a <- assisted_means(ref, cs$judge, labelled = cs$lab)
  b <- assisted_means(cs$ref, cs$judge)
  expect_equal(as.data.frame(a), as.data.frame(b))
})

test_that("stratified PPI equals a direct per-stratum implementation", {
  cs <- random_case(4, n = 16, N = 40)
  topics <- colnames(cs$judge)
  strata <- stats::setNames(rep(c("easy", "hard"), length.out = length(topics)), topics)
  # each stratum must have 2 labelled and 2 unlabelled topics
  expect_true(all(table(strata[cs$lab]) >= 2) && all(table(strata[cs$unl]) >= 2))
  w <- c(easy = 0.3, hard = 0.7)
  for (mode in c("stratum", "pooled")) {
    am <- assisted_means(cs$ref, cs$judge, strata = strata, weights = w, stratum_lambda = mode, se = "plugin",
                         interval = "normal", fallback = "never")
    tab <- as.data.frame(am)
    for (s in rownames(cs$ref)) {
      per <- lapply(names(w), function(h) {
        l <- cs$lab[strata[cs$lab] == h]
        u <- cs$unl[strata[cs$unl] == h]
        list(Y = cs$ref[s, l], f = cs$judge[s, l], fu = cs$judge[s, u])
      })
      names(per) <- names(w)
      lam_h <- vapply(per, function(p) {
        n <- length(p$Y); N <- length(p$fu)
        stats::cov(p$Y, p$f) / ((1 + n / N) * stats::var(c(p$f, p$fu)))
      }, numeric(1))
      if (mode == "pooled") {
        num <- sum(vapply(names(w), function(h) w[[h]]^2 * stats::cov(per[[h]]$Y, per[[h]]$f) / length(per[[h]]$Y), 1))
        den <- sum(vapply(names(w), function(h) {
          p <- per[[h]]
          w[[h]]^2 * (1 / length(p$Y) + 1 / length(p$fu)) * stats::var(c(p$f, p$fu))
        }, 1))
        lam_h[] <- num / den
      }
      parts <- vapply(names(w), function(h) direct_ppi(per[[h]]$Y, per[[h]]$f, per[[h]]$fu, lam_h[[h]]), numeric(5))
      est <- sum(w * parts["estimate", ])
      se <- sqrt(sum(w^2 * parts["std.error", ]^2))
      r <- tab[tab$system == s & tab$method == "ppi++", ]
      expect_equal(r$estimate, est, tolerance = 1e-12)
      expect_equal(r$std.error, se, tolerance = 1e-12)
      expect_equal(r$conf.low, est - stats::qnorm(0.975) * se, tolerance = 1e-12)
      lams <- am$lambdas[am$lambdas$system == s & am$lambdas$method == "ppi++", ]
      expect_equal(lams$lambda, unname(lam_h), tolerance = 1e-12)
      if (mode == "pooled") expect_equal(r$lambda, unname(lam_h[1]), tolerance = 1e-12) else expect_true(is.na(r$lambda))
      cl <- tab[tab$system == s & tab$method == "classical", ]
      expect_equal(cl$estimate, sum(w * vapply(per, function(p) mean(p$Y), 1)), tolerance = 1e-12)
    }
  }
  # t intervals on n - H degrees of freedom
  tt <- as.data.frame(assisted_means(cs$ref, cs$judge, strata = strata, weights = w, interval = "t"))
  expect_equal(tt$conf.low, tt$estimate - stats::qt(0.975, length(cs$lab) - 2) * tt$std.error, tolerance = 1e-12)
  # one stratum is the unstratified estimator
  one <- stats::setNames(rep("all", length(topics)), topics)
  expect_equal(as.data.frame(assisted_means(cs$ref, cs$judge, strata = one))[, 4:8],
               as.data.frame(assisted_means(cs$ref, cs$judge))[, 4:8], tolerance = 1e-14)
  expect_error(assisted_means(cs$ref, cs$judge, strata = strata, weights = c(easy = 0.5, hard = 0.6)),
               class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, strata = strata[-1]), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, weights = w), class = "irtopics_error_argument")
})

test_that("qrels and runs give the matrix path's numbers", {
  dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
  human <- as.data.frame(read_qrels(file.path(dir, "qrels.test")))
  graded <- as.data.frame(read_qrels(file.path(dir, "qrels.rel_level")))
  run <- as.data.frame(read_run(file.path(dir, "results.test")))
  # twelve topics from the collection's three (four copies each, ids
  # renamed) and five systems simulated from its one run
  copy <- function(d, k) transform(d, topic = paste0(d$topic, letters[k]))
  set.seed(11)
  runs <- do.call(rbind, lapply(1:5, function(s) do.call(rbind, lapply(1:4, function(k) {
    r <- copy(run, k)
    r$system <- paste0("sys", s)
    r$score <- r$score + stats::rnorm(nrow(r), sd = 0.2 * s)
    r
  }))))
  judge <- do.call(rbind, lapply(1:4, function(k) {
    g <- copy(graded, k)
    g$rel <- ifelse(stats::runif(nrow(g)) < 0.1, 1L - pmin(g$rel, 1L), pmin(g$rel, 1L))
    g
  }))
  all_human <- do.call(rbind, lapply(1:4, function(k) copy(human, k)))
  lab <- c("301a", "302b", "303c", "301d", "302a", "303b")
  reference <- all_human[all_human$topic %in% lab, ]
  am <- assisted_means(reference, judge, runs = runs, measures = c("AP", "P@10"), interval = "t")
  e_ref <- evaluate(runs, all_human, measures = c("AP", "P@10"))
  e_jud <- evaluate(runs, judge, measures = c("AP", "P@10"))
  for (meas in c("AP", "P@10")) {
    mm <- assisted_means(e_ref[[meas]][, lab], e_jud[[meas]], interval = "t")
    a <- as.data.frame(am)
    a <- a[a$measure == meas, ]
    b <- as.data.frame(mm)
    expect_equal(a[c("system", "method", "lambda", "estimate", "std.error", "conf.low", "conf.high")],
                 b[c("system", "method", "lambda", "estimate", "std.error", "conf.low", "conf.high")],
                 ignore_attr = TRUE)
  }
  expect_setequal(am$labelled, lab)
  # two ir_evaluations (several measures) give the qrels path's numbers
  ev <- assisted_means(e_ref[, lab], e_jud, interval = "t")
  expect_equal(as.data.frame(ev), as.data.frame(am))
  # the same for any thread count of evaluate()
  one <- assisted_means(reference, judge, runs = runs, measures = "AP", interval = "t", n_threads = 1)
  two <- assisted_means(reference, judge, runs = runs, measures = "AP", interval = "t", n_threads = 2)
  expect_identical(as.data.frame(one), as.data.frame(two))
  expect_equal(sort(names(am$data)), c("AP", "P@10"))
  # a labelled topic without a relevant document under the reference
  empty <- reference
  empty$rel[empty$topic == "302b"] <- 0L
  expect_warning(assisted_means(empty, judge, runs = runs, measures = "AP", interval = "t"),
                 class = "irtopics_warning_undefined", regexp = "302b")
  # a labelled topic the judge did not judge
  expect_error(assisted_means(reference, judge[judge$topic != "301a", ], runs = runs, measures = "AP"),
               class = "irtopics_error_data", regexp = "judge")
})

test_that("pitfalls give classed conditions naming the argument", {
  cs <- random_case(5)
  expect_error(assisted_means(cs$ref, cs$judge, selected = TRUE), class = "irtopics_error_data",
               regexp = "random sample")
  # fewer than 10 labelled topics: a warning offering t; none with t
  small <- random_case(6, n = 6)
  expect_warning(assisted_means(small$ref, small$judge, interval = "normal"), class = "irtopics_warning_too_few",
                 regexp = "interval = \"t\"")
  expect_no_warning(assisted_means(small$ref, small$judge, interval = "t"))
  # a judge constant on the labelled topics: classical, said
  j <- cs$judge
  j["s2", cs$lab] <- 0.4
  expect_warning(am <- assisted_means(cs$ref, j), class = "irtopics_warning_constant_judge")
  tab <- as.data.frame(am)
  expect_equal(tab$lambda[tab$system == "s2" & tab$method == "ppi++"], 0)
  expect_equal(tab$estimate[tab$system == "s2" & tab$method == "ppi++"],
               tab$estimate[tab$system == "s2" & tab$method == "classical"])
  expect_equal(am$constant$system, "s2")
  # labelled topics missing from the judge
  expect_error(assisted_means(cs$ref, cs$judge[, -match(cs$lab[1], colnames(cs$judge))]),
               class = "irtopics_error_data", regexp = "judge")
  expect_error(assisted_means(cs$ref, cs$judge, labelled = c(cs$lab[1:3], "nope")),
               class = "irtopics_error_argument", regexp = "labelled")
  # different systems
  expect_error(assisted_means(cs$ref, cs$judge[-1, ]), class = "irtopics_error_data", regexp = "same systems")
  # a labelled set of 1
  expect_error(assisted_means(cs$ref[, 1, drop = FALSE], cs$judge), class = "irtopics_error_data",
               regexp = "reference")
  expect_error(assisted_means(cs$ref, cs$judge, labelled = cs$lab[1]), class = "irtopics_error_data",
               regexp = "labelled")
  # fewer than 2 unlabelled topics
  expect_error(assisted_means(cs$ref, cs$judge[, c(cs$lab, cs$unl[1])]), class = "irtopics_error_data",
               regexp = "unlabelled")
  # NA scores: an error naming the matrix, or the topics dropped with a warning
  r <- cs$ref
  r["s1", 2] <- NA
  expect_error(assisted_means(r, cs$judge), class = "irtopics_error_data", regexp = "reference")
  j <- cs$judge
  j["s3", cs$unl[1]] <- NA
  expect_error(assisted_means(cs$ref, j), class = "irtopics_error_data", regexp = "judge")
  expect_warning(dropped <- assisted_means(r, j, na = "drop"), class = "irtopics_warning_data")
  expect_equal(dropped$table$n_labelled[1], ncol(r) - 1L)
  expect_equal(dropped$table$n_unlabelled[1], length(cs$unl) - 1L)
  direct <- assisted_means(r[, -2], j[, setdiff(colnames(j), c(colnames(r)[2], cs$unl[1]))])
  expect_equal(as.data.frame(dropped), as.data.frame(direct))
  # bad arguments
  expect_error(assisted_means(cs$ref, cs$judge, method = "bayes"), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, interval = "boot"), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, se = "bootstrap"), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, fallback = "sometimes"), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, fallback = NA), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, conf = 2), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, depth = 10), class = "irtopics_error_argument")
  expect_error(assisted_means(cs$ref, cs$judge, measures = "AP"), class = "irtopics_error_argument")
})

test_that("only the methods asked for are computed, the first leads", {
  cs <- random_case(7)
  am <- assisted_means(cs$ref, cs$judge, method = c("classical", "ppi++"))
  expect_equal(unique(as.data.frame(am)$method), c("classical", "ppi++"))
  expect_equal(am$methods[1], "classical")
  s <- summary(am)
  expect_s3_class(s, "summary.ir_assisted_means")
  expect_equal(s$table$median_width_vs_human[s$table$method == "classical"], 1)
})

test_that("the plot draws every method's interval and the judge-only mean", {
  cs <- random_case(8)
  am <- assisted_means(cs$ref, cs$judge)
  p <- ggplot2::autoplot(am)
  b <- ggplot2::ggplot_build(p)
  bars <- b$data[[1]]
  expect_equal(nrow(bars), 3 * nrow(cs$ref))
  tab <- as.data.frame(am)
  expect_equal(sort(bars$xmin), sort(tab$conf.low), tolerance = 1e-12)
  expect_equal(sort(bars$xmax), sort(tab$conf.high), tolerance = 1e-12)
  judge_pts <- b$data[[3]]
  expect_equal(sort(judge_pts$x), sort(am$baselines$judge_only), tolerance = 1e-12)
  # the subtitle names the interval in short (3 lines at most in one column)
  sub <- b$plot$labels$subtitle
  expect_match(gsub("\n", " ", sub), "95% skewness-corrected t, PPI++ jackknife se", fixed = TRUE)
  expect_lte(length(strsplit(sub, "\n")[[1]]), 3L)
  expect_error(ggplot2::autoplot(am, measure = "nope"), class = "irtopics_error_argument")
})

# The stratified delete-one jackknife by recomputation: every topic left out
# in turn (labelled and unlabelled, per stratum), the estimate recomputed by
# assisted_means() (plug-in, so no jackknife inside), the strata's weights
# held fixed.
jackknife_by_recomputation <- function(ref, judge, lab, unl, method, strata = NULL, weights = NULL,
                                       stratum_lambda = "stratum") {
  est <- function(keep_l, keep_u) {
    st <- if (!is.null(strata)) strata[c(keep_l, keep_u)]
    r <- as.data.frame(suppressWarnings(assisted_means(ref[, keep_l, drop = FALSE], judge[, c(keep_l, keep_u)],
                                                       method = method, se = "plugin", strata = st, fallback = "never",
                                                       weights = weights, stratum_lambda = stratum_lambda)))
    r$estimate
  }
  groups <- if (is.null(strata)) list(list(l = lab, u = unl)) else
    lapply(sort(unique(strata)), function(h) list(l = lab[strata[lab] == h], u = unl[strata[unl] == h]))
  se2 <- 0
  for (g in groups) {
    tl <- sapply(g$l, function(t) est(setdiff(lab, t), unl))
    tu <- sapply(g$u, function(t) est(lab, setdiff(unl, t)))
    for (th in list(tl, th2 = tu)) {
      k <- ncol(th)
      se2 <- se2 + (k - 1) / k * rowSums((th - rowMeans(th))^2)
    }
  }
  sqrt(se2)
}

test_that("PPI++'s jackknife se equals the jackknife by recomputation; for PPI and classical it is the plug-in se", {
  cs <- random_case(12, n = 9, N = 14)
  jk <- as.data.frame(assisted_means(cs$ref, cs$judge, interval = "t", fallback = "never"))
  pl <- as.data.frame(assisted_means(cs$ref, cs$judge, se = "plugin", interval = "t", fallback = "never"))
  expect_equal(jk$estimate, pl$estimate)
  expect_equal(jk$lambda, pl$lambda)
  for (m in c("ppi++", "ppi", "classical")) {
    want <- jackknife_by_recomputation(cs$ref, cs$judge, cs$lab, cs$unl, m)
    expect_equal(jk$std.error[jk$method == m], unname(want), tolerance = 1e-12)
  }
  # the fixed-lambda jackknife is the plug-in se exactly; PPI++'s differs
  expect_equal(jk$std.error[jk$method != "ppi++"], pl$std.error[pl$method != "ppi++"], tolerance = 1e-12)
  expect_true(all(abs(jk$std.error[jk$method == "ppi++"] / pl$std.error[pl$method == "ppi++"] - 1) > 1e-3))
  # t on n - 1 df
  expect_equal(jk$conf.high, jk$estimate + stats::qt(0.975, 8) * jk$std.error, tolerance = 1e-12)
  expect_equal(pl$conf.high, pl$estimate + stats::qt(0.975, 8) * pl$std.error, tolerance = 1e-12)
  # with strata, per stratum (stratum and pooled lambdas), weights held fixed
  cs <- random_case(13, n = 12, N = 16)
  topics <- colnames(cs$judge)
  strata <- stats::setNames(rep(c("a", "b"), length.out = length(topics)), topics)
  w <- c(a = 0.4, b = 0.6)
  for (mode in c("stratum", "pooled")) {
    jk <- as.data.frame(assisted_means(cs$ref, cs$judge, strata = strata, weights = w, stratum_lambda = mode,
                                       interval = "t", fallback = "never"))
    for (m in c("ppi++", "ppi")) {
      want <- jackknife_by_recomputation(cs$ref, cs$judge, cs$lab, cs$unl, m, strata, w, mode)
      expect_equal(jk$std.error[jk$method == m], unname(want), tolerance = 1e-12)
    }
    expect_equal(jk$conf.low, jk$estimate - stats::qt(0.975, 12 - 2) * jk$std.error, tolerance = 1e-12)
  }
  # a constant judge: lambda 0 without every topic too, the classical se
  j <- cs$judge
  j["s2", cs$lab] <- 0.4
  jk <- as.data.frame(suppressWarnings(assisted_means(cs$ref, j)))
  expect_equal(jk$std.error[jk$system == "s2" & jk$method == "ppi++"],
               jk$std.error[jk$system == "s2" & jk$method == "classical"], tolerance = 1e-12)
})

test_that("the jackknife needs 3 labelled topics per stratum: the plug-in se otherwise, said", {
  cs <- random_case(14, n = 5, N = 10)
  topics <- colnames(cs$judge)
  strata <- stats::setNames(ifelse(topics %in% c(cs$lab[1:2], cs$unl[1:3]), "x", "y"), topics)
  expect_warning(am <- assisted_means(cs$ref, cs$judge, strata = strata), class = "irtopics_warning_too_few",
                 regexp = "3 labelled")
  expect_equal(am$se, "plugin")
  pl <- assisted_means(cs$ref, cs$judge, strata = strata, se = "plugin")
  expect_equal(as.data.frame(am), as.data.frame(pl))
  # PPI and classical alone need no jackknife: no warning
  expect_no_warning(assisted_means(cs$ref, cs$judge, strata = strata, method = c("ppi", "classical")))
})

test_that("the print shows one column per estimate, says which se and interval, and checks n and digits", {
  cs <- random_case(15)
  am <- assisted_means(cs$ref, cs$judge)
  txt <- format(am)
  expect_true(any(grepl("95% skewness-corrected t (11 df) intervals; PPI++: jackknife se (lambda re-tuned without each topic)", txt,
                        fixed = TRUE)))
  header <- txt[grep("^ *system", txt)]
  expect_length(header, 1L)
  expect_match(header, "system +judge only +human only +PPI\\+\\+ +PPI +lambda")
  expect_false(grepl("human_only|judge_only", header))
  tab <- as.data.frame(am)
  cl <- tab[tab$method == "classical" & tab$system == "s1", ]
  expect_true(any(grepl(sprintf("%.4f [%.4f, %.4f]", cl$estimate, cl$conf.low, cl$conf.high), txt, fixed = TRUE)))
  # without "classical" among the methods, the same human-only column
  am2 <- assisted_means(cs$ref, cs$judge, method = "ppi++")
  expect_true(any(grepl(sprintf("%.4f [%.4f, %.4f]", cl$estimate, cl$conf.low, cl$conf.high), format(am2),
                        fixed = TRUE)))
  expect_equal(summary(am2)$table$median_width_vs_human,
               summary(am)$table$median_width_vs_human[summary(am)$table$method == "ppi++"])
  expect_length(grep("^ *s[0-9]", format(am, n = 2)), 2L)
  expect_true(any(grepl("0.12 ", format(am, digits = 2))) || any(grepl("\\[0\\.[0-9]{2},", format(am, digits = 2))))
  for (bad in list(NA, -1, 2.5, "3", c(1, 2))) {
    expect_error(format(am, n = bad), class = "irtopics_error_argument")
    expect_error(format(am, digits = bad), class = "irtopics_error_argument")
  }
  expect_error(print(am, digits = 99), class = "irtopics_error_argument")
})

# The defaults: PPI++'s fallback to human only and the skewness-corrected t
# interval, written from the help's formulas for one system. `mode`: "gain"
# (the default rule), "never" (the tuned lambda kept) or "classical".
skew_case <- function(seed, n = 10, N = 40) {
  set.seed(seed)
  topics <- paste0("q", seq_len(n + N))
  # skewed like AP; judges from good to useless
  truth <- matrix(stats::rbeta(6 * (n + N), 0.6, 2), 6, dimnames = list(paste0("s", 1:6), topics))
  judge <- truth + matrix(stats::rnorm(length(truth)), 6) * c(0.02, 0.05, 0.1, 0.3, 0.6, 1)
  lab <- sample(topics, n)
  list(ref = truth[, lab], judge = judge, lab = lab, unl = setdiff(topics, lab))
}
third_cumulant <- function(x) {
  n <- length(x)
  n * sum((x - mean(x))^3) / ((n - 1) * (n - 2))
}
direct_default <- function(Y, f, fu, jack, mode = "gain", conf = 0.95) {
  n <- length(Y)
  N <- length(fu)
  pp <- direct_ppi(Y, f, fu, "tuned")
  cl <- direct_ppi(Y, f, fu, 0)
  gain <- 1 - pp[["std.error"]]^2 / cl[["std.error"]]^2
  keep <- switch(mode, gain = 1 - (1 - gain) * (n - 1) / (n - 2) > 3 / (n - 3), never = TRUE, classical = FALSE)
  lam <- if (keep) pp[["lambda"]] else 0
  est <- if (keep) pp[["estimate"]] else cl[["estimate"]]
  se <- if (keep) jack else cl[["std.error"]]
  d <- Y - lam * f
  v <- stats::var(d) / n + lam^2 * stats::var(fu) / N
  kappa <- third_cumulant(d) / n^2 + lam^3 * third_cumulant(fu) / N^2
  q <- stats::qt(1 - (1 - conf) / 2, n - 1)
  centre <- est + (1 + 2 * q^2) / 6 * kappa / v
  c(lambda = lam, estimate = est, std.error = se, conf.low = centre - q * se, conf.high = centre + q * se,
    kept = keep)
}
cols <- c("lambda", "estimate", "std.error", "conf.low", "conf.high")

test_that("the defaults (fallback to human only, skewness-corrected t) equal a direct implementation", {
  kept <- logical(0)
  for (seed in 1:3) {
    cs <- skew_case(seed)
    am <- assisted_means(cs$ref, cs$judge)
    expect_identical(c(am$interval, am$se, am$fallback), c("skew_t", "jackknife", "gain"))
    never <- as.data.frame(assisted_means(cs$ref, cs$judge, fallback = "never"))
    tab <- as.data.frame(am)
    jk <- jackknife_by_recomputation(cs$ref, cs$judge, cs$lab, cs$unl, "ppi++")
    for (i in seq_len(nrow(cs$ref))) {
      s <- rownames(cs$ref)[i]
      args <- list(cs$ref[s, ], cs$judge[s, cs$lab], cs$judge[s, cs$unl], jk[i])
      want <- do.call(direct_default, args)
      got <- unlist(tab[tab$system == s & tab$method == "ppi++", cols])
      expect_equal(got, want[cols], tolerance = 1e-12)
      kept <- c(kept, want[["kept"]] == 1)
      expect_equal(s %in% am$fell_back$system, want[["kept"]] == 0)
      # fallback = "never": the tuned lambda everywhere
      expect_equal(unlist(never[never$system == s & never$method == "ppi++", cols]),
                   do.call(direct_default, c(args, mode = "never"))[cols], tolerance = 1e-12)
      # human only with the same interval
      expect_equal(unlist(tab[tab$system == s & tab$method == "classical", cols]),
                   do.call(direct_default, c(args, mode = "classical"))[cols], tolerance = 1e-12)
    }
  }
  # both branches were taken: the good judges kept, the useless ones not
  expect_true(any(kept) && any(!kept))
  # the print says where PPI++ fell back
  expect_true(any(grepl("PPI++ fell back to human only", format(am), fixed = TRUE)))
})

test_that("the fallback rule needs the degrees of freedom: with 5 labelled topics PPI++ is human only", {
  cs <- skew_case(4, n = 5)
  tab <- suppressWarnings(as.data.frame(assisted_means(cs$ref, cs$judge)))
  pp <- tab[tab$method == "ppi++", ]
  cl <- tab[tab$method == "classical", ]
  expect_equal(pp$lambda, rep(0, 6))
  expect_equal(pp[, cols], cl[, cols], ignore_attr = TRUE)
  # the rule's threshold 3 / (n - 3) cannot be passed below 7 topics, and
  # fallback = "never" keeps the tuned lambda there
  expect_false(any(ppi_gain_exceeds_cost(c(0, 1e-9), c(1, 1), n = 6, H = 1, k = 1)))
  expect_false(any(ppi_gain_exceeds_cost(c(0, 1e-9), c(1, 1), n = 3, H = 1, k = 1)))
  expect_identical(ppi_gain_exceeds_cost(c(0, 0.2, 0.3), c(1, 1, 1), n = 7, H = 1, k = 1), c(TRUE, TRUE, FALSE))
  never <- suppressWarnings(as.data.frame(assisted_means(cs$ref, cs$judge, fallback = "never")))
  expect_true(all(never$lambda[never$method == "ppi++"] != 0))
})

test_that("the skewness correction with strata sums the strata's third cumulants", {
  cs <- random_case(21, n = 16, N = 40)
  cs$ref[] <- cs$ref^3   # skewed
  topics <- colnames(cs$judge)
  strata <- stats::setNames(rep(c("easy", "hard"), length.out = length(topics)), topics)
  w <- c(easy = 0.3, hard = 0.7)
  tab <- as.data.frame(assisted_means(cs$ref, cs$judge, strata = strata, weights = w, se = "plugin",
                                      fallback = "never", method = c("ppi", "classical")))
  q <- stats::qt(0.975, 16 - 2)
  for (m in c("ppi", "classical")) for (s in rownames(cs$ref)) {
    lam <- if (m == "ppi") 1 else 0
    per <- lapply(names(w), function(h) {
      l <- cs$lab[strata[cs$lab] == h]
      u <- cs$unl[strata[cs$unl] == h]
      d <- cs$ref[s, l] - lam * cs$judge[s, l]
      fu <- cs$judge[s, u]
      c(est = mean(d) + lam * mean(fu), v = stats::var(d) / length(d) + lam^2 * stats::var(fu) / length(fu),
        k = third_cumulant(d) / length(d)^2 + lam^3 * third_cumulant(fu) / length(fu)^2)
    })
    est <- sum(w * vapply(per, `[[`, 1, "est"))
    v <- sum(w^2 * vapply(per, `[[`, 1, "v"))
    kappa <- sum(w^3 * vapply(per, `[[`, 1, "k"))
    centre <- est + (1 + 2 * q^2) / 6 * kappa / v
    r <- tab[tab$system == s & tab$method == m, ]
    expect_equal(c(r$conf.low, r$conf.high), centre + c(-1, 1) * q * sqrt(v), tolerance = 1e-12)
  }
})

test_that("the skewness-corrected test's p-value is the level at which its interval reaches 0", {
  set.seed(5)
  rows <- data.frame(estimate = stats::rnorm(200, 0, 0.05), std.error = stats::runif(200, 0.01, 0.05),
                     df = sample(5:30, 200, TRUE), skew = stats::rnorm(200, 0, 0.01))
  b <- ppi_bounds(rows, 0.95, "skew_t")
  reached <- !is.na(skew_zero_quantile(rows$estimate, rows$std.error, rows$skew))
  expect_gt(mean(reached), 0.5)
  at_p <- ppi_bounds(rows, 1 - b$p.value, "skew_t")
  end <- pmin(abs(at_p$conf.low), abs(at_p$conf.high))
  expect_lt(max(end[reached & b$p.value > 1e-12]), 1e-10)
  # the decision agrees with the interval at the same level
  inside <- b$conf.low <= 0 & b$conf.high >= 0
  expect_equal(b$p.value[reached] >= 0.05, inside[reached])
  # without skewness it is the t test
  rows$skew <- 0
  b0 <- ppi_bounds(rows, 0.95, "skew_t")
  bt <- ppi_bounds(rows, 0.95, "t")
  expect_equal(b0[c("conf.low", "conf.high", "p.value")], bt[c("conf.low", "conf.high", "p.value")],
               tolerance = 1e-12)
  # where the interval never reaches 0, Johnson's modified t
  r1 <- data.frame(estimate = 0.1, std.error = 0.05, df = 9, skew = 0.5 * 0.05)
  expect_true(is.na(skew_zero_quantile(r1$estimate, r1$std.error, r1$skew)))
  tj <- 2 + 0.5 * (1 + 2 * 2^2) / 6
  expect_equal(ppi_bounds(r1, 0.95, "skew_t")$p.value, 2 * stats::pt(-tj, 9), tolerance = 1e-12)
  # assisted_differences(): significant exactly where the interval excludes 0
  cs <- skew_case(7, n = 12)
  am <- assisted_means(cs$ref, cs$judge)
  for (itv in list(NULL, "skew_t")) {
    d <- as.data.frame(assisted_differences(am, correction = "none", alpha = 0.05, interval = itv))
    expect_equal(d$significant, d$conf.low > 0 | d$conf.high < 0)
  }
})

test_that("differences use t where the means use the skewness-corrected t, unless asked", {
  cs <- skew_case(8, n = 12)
  am <- assisted_means(cs$ref, cs$judge)
  d <- assisted_differences(am)
  expect_identical(d$interval, "t")
  expect_true(any(grepl("t tests", format(d), fixed = TRUE)))
  # t: estimate -/+ q se, p from t on n - 1 df
  tab <- as.data.frame(d)
  q <- stats::qt(0.975, 11)
  expect_equal(tab$conf.low, tab$estimate - q * tab$std.error, tolerance = 1e-12)
  expect_equal(tab$p.value, 2 * stats::pt(-abs(tab$estimate / tab$std.error), 11), tolerance = 1e-12)
  expect_identical(assisted_differences(am, interval = "skew_t")$interval, "skew_t")
  expect_identical(assisted_ranks(am)$interval, "t")
  expect_identical(assisted_ranks(am, interval = "skew_t")$interval, "skew_t")
  # other intervals are kept
  nm <- suppressWarnings(assisted_means(cs$ref, cs$judge, interval = "normal"))
  expect_identical(assisted_differences(nm)$interval, "normal")
  expect_error(assisted_differences(am, interval = "boot"), class = "irtopics_error_argument")
  expect_error(assisted_ranks(am, interval = 1), class = "irtopics_error_argument")
})
