# compare_qrels(): inputs, the runs' evaluations, the result class and its
# plots. The label statistics themselves are tested in test-agreement-labels.R.

test_that("labels only: one row per statistic, named as the issue asks", {
  skip_if_not_installed("irr")
  ref <- read_qrels(file.path(agreement_dir(), "qrels.rel_level"))
  cand <- noisy_labels(ref, 0.3, seed = 4)
  x <- compare_qrels(ref, cand, B = 100, seed = 1)
  expect_s3_class(x, "ir_qrels_agreement")
  d <- as.data.frame(x)
  expect_identical(class(d), "data.frame")
  expect_named(d, c("candidate", "statistic", "threshold", "estimate", "conf.low", "conf.high"))
  expect_setequal(unique(d$statistic),
                  c("observed_agreement", "kappa", "weighted_kappa_linear", "weighted_kappa_quadratic",
                    "krippendorff_alpha_nominal", "krippendorff_alpha_ordinal", "krippendorff_alpha_interval"))
  expect_equal(d$threshold[d$statistic == "kappa"], c(NA, 1, 2, 3, 4))
  # qrels.rel_level marks unjudged documents with -1: dropped from both sides
  r <- as.data.frame(ref)
  r <- r[r$rel >= 0, ]
  cc <- cand[cand$rel >= 0, ]
  both <- merge(r, cc, by = c("topic", "docno"))
  expect_equal(x$counts$n_both, nrow(both))
  expect_equal(d$estimate[d$statistic == "kappa" & is.na(d$threshold)],
               irr::kappa2(cbind(both$rel.x, both$rel.y))$value, tolerance = 1e-12)
  expect_equal(d$estimate[d$statistic == "weighted_kappa_quadratic"],
               irr::kappa2(cbind(both$rel.x, both$rel.y), "squared")$value, tolerance = 1e-12)
  expect_true(all(d$conf.low <= d$estimate + 1e-12 | is.na(d$conf.low)))
  expect_null(x$leaderboard)
  expect_error(as.data.frame(x, what = "leaderboard"), class = "irtopics_error_argument")
  # a path, an ir_qrels and a data frame give the same labels
  y <- compare_qrels(file.path(agreement_dir(), "qrels.rel_level"), cand, B = 100, seed = 1)
  expect_identical(y$labels, x$labels)
  names(cand) <- c("query_id", "doc_id", "relevance")
  z <- compare_qrels(as.data.frame(ref), cand, B = 100, seed = 1)
  expect_identical(z$labels, x$labels)
  # negative grades kept as a grade
  g <- compare_qrels(ref, ref, B = 0, negative = "grade")
  expect_equal(g$grades, c(-1, 0, 1, 2, 3, 4))
  expect_equal(g$labels$estimate[g$labels$statistic == "kappa" & is.na(g$labels$threshold)], 1)
})

test_that("several candidates: a named list or paths, each against the reference", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.test"))
  a <- noisy_labels(ref, 0.2, seed = 1)
  b <- noisy_labels(ref, 0.5, seed = 2)
  x <- compare_qrels(ref, list(mild = a, strong = b), B = 50, seed = 3)
  expect_equal(x$n_candidates, 2)
  expect_equal(unique(x$labels$candidate), c("mild", "strong"))
  one <- compare_qrels(ref, b, B = 50, seed = 3)
  expect_equal(x$labels$estimate[x$labels$candidate == "strong"], one$labels$estimate)
  expect_equal(x$labels$conf.low[x$labels$candidate == "strong"], one$labels$conf.low)
  k <- x$labels[x$labels$statistic == "kappa" & is.na(x$labels$threshold), ]
  expect_gt(k$estimate[1], k$estimate[2])
  f1 <- withr::local_tempfile()
  f2 <- withr::local_tempfile()
  write_qrels(a, f1)
  write_qrels(b, f2)
  p <- compare_qrels(ref, c(mild = f1, strong = f2), B = 50, seed = 3)
  expect_identical(p$labels, x$labels)
  expect_error(compare_qrels(ref, list(a = a, a = b)), class = "irtopics_error_argument")
  expect_match(paste(format(x), collapse = "\n"), "2 candidate label sets")
})

test_that("with runs: both score matrices, leaderboard, conclusions and topics from the shared functions", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.rel_level"))
  cand <- noisy_labels(ref, 0.4, seed = 5)
  runs <- perturbed_runs(6)
  x <- compare_qrels(ref, cand, runs = runs, measure = "nDCG@10", B = 100, seed = 7, n_threads = 1)
  sr <- evaluate(runs, ref, measures = "nDCG@10", missing = "zero")[[1]]
  sc <- evaluate(runs, cand, measures = "nDCG@10", missing = "zero")[[1]]
  expect_equal(unclass(x$scores$reference), unclass(sr))
  xc <- x$scores$candidates$candidate
  expect_equal(dimnames(xc), dimnames(sc))
  expect_equal(as.vector(xc), as.vector(sc))
  lb <- as.data.frame(x, what = "leaderboard")
  expect_equal(lb$estimate[lb$statistic == "kendall_tau"], cor(rowMeans(sr), rowMeans(sc), method = "kendall"))
  ref_lb <- leaderboard_agreement(sr, sc, B = 100, seed = 7)
  expect_equal(lb$conf.low, ref_lb$conf.low)
  expect_equal(x$means$reference_mean, unname(rowMeans(sr)))
  expect_equal(x$means$candidate_mean, unname(rowMeans(sc)))
  cl <- conclusion_agreement(sr, sc, test = "t", correction = "holm")
  fl <- as.data.frame(x, what = "flips")
  expect_equal(fl$p_candidate, cl$pairs$p_candidate)
  expect_equal(as.data.frame(x, what = "conclusions")$count, cl$summary$count)
  tp <- as.data.frame(x, what = "topics")
  for (t in colnames(sr)) {
    expect_equal(tp$kendall_tau[tp$topic == t], cor(sr[, t], sc[, t], method = "kendall"))
  }
  expect_false(is.null(tp$kappa))
  s <- summary(x)
  expect_s3_class(s, "irtopics_summary")
  expect_equal(s$table$kendall_tau, lb$estimate[lb$statistic == "kendall_tau"])
  expect_match(paste(format(x), collapse = "\n"), "Leaderboards \\(nDCG@10")
  # the same with the runs as files, and 2 threads
  dir <- withr::local_tempdir()
  for (s2 in unique(runs$system)) {
    r <- runs[runs$system == s2, ]
    writeLines(sprintf("%s Q0 %s 0 %.10f %s", r$topic, r$docno, r$score, s2), file.path(dir, s2))
  }
  y <- compare_qrels(ref, cand, runs = dir, measure = "nDCG@10", B = 100, seed = 7, n_threads = 2)
  expect_equal(y$leaderboard, x$leaderboard, tolerance = 1e-9)
  expect_identical(y$labels, x$labels)
})

test_that("P@10 leaderboards: exactly tied means are ties, broken by name, in the estimate and the samples", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.rel_level"))
  cand <- noisy_labels(ref, 0.4, seed = 5)
  # zero-variance pairs make the t test undefined for some pairs (said by warning)
  x <- suppressWarnings(compare_qrels(ref, cand, runs = perturbed_runs(12, noise = 3), measure = "P@10",
                                      B = 200, seed = 7, n_threads = 1),
                        classes = "irtopics_warning_undefined")
  # relevant documents in the top ten: whole numbers, summed exactly
  wr <- round(unclass(x$scores$reference) * 10)
  wc <- round(unclass(x$scores$candidates$candidate) * 10)
  expect_true(anyDuplicated(rowSums(wr)) > 0 && anyDuplicated(rowSums(wc)) > 0)
  lb <- as.data.frame(x, what = "leaderboard")
  est <- stats::setNames(lb$estimate, lb$statistic)
  expect_equal(est[["kendall_tau"]], cor(rowSums(wr), rowSums(wc), method = "kendall"), tolerance = 1e-14)
  expect_equal(est[["spearman"]], cor(rowSums(wr), rowSums(wc), method = "spearman"), tolerance = 1e-14)
  first <- function(v) names(v)[order(-v, names(v))][1]
  expect_identical(est[["top1"]], as.double(first(rowSums(wr)) == first(rowSums(wc))))
  # the interval: percentile of tau-b on the exact sums of the same samples
  counts <- apply(resample_draws("indices", 7, n = ncol(wr), first = 1, count = 200), 2, tabulate, ncol(wr))
  sr <- wr %*% counts
  sc <- wc %*% counts
  exact <- vapply(1:200, function(b) cor(sr[, b], sc[, b], method = "kendall"), 0)
  want <- bootstrap_interval(est[["kendall_tau"]], exact, NULL, 0.95, "percentile")
  expect_equal(c(lb$conf.low[1], lb$conf.high[1]), pmin(pmax(want, -1), 1), tolerance = 1e-12)
})

# A synthetic collection for the leaderboard intervals: 25 topics of 30
# judged documents (grades 0-2), a candidate that moves 10% of the grades one
# step, and 30 simulated systems of increasing quality (a document's score is
# quality times its reference grade plus noise).
close_judges <- function(seed = 2) {
  set.seed(seed)
  q <- expand.grid(docno = sprintf("d%02d", 1:30), topic = as.character(1:25), stringsAsFactors = FALSE)
  q$rel <- sample(0:2, nrow(q), TRUE, prob = c(0.6, 0.25, 0.15))
  cand <- q
  flip <- sample(nrow(q), round(0.1 * nrow(q)))
  cand$rel[flip] <- pmin(2L, pmax(0L, cand$rel[flip] + sample(c(-1L, 1L), length(flip), TRUE)))
  quality <- seq(0.5, 1.5, length.out = 30)
  runs <- do.call(rbind, lapply(1:30, function(k) {
    data.frame(system = sprintf("sys%02d", k), topic = q$topic, docno = q$docno,
               score = quality[k] * q$rel + stats::rnorm(nrow(q)), stringsAsFactors = FALSE)
  }))
  list(reference = q[c("topic", "docno", "rel")], candidate = cand[c("topic", "docno", "rel")], runs = runs)
}

test_that("leaderboard intervals say what they are for, and print says when one lies below its estimate", {
  d <- close_judges()
  agree <- function(...) compare_qrels(d$reference, d$candidate, runs = d$runs, measure = "nDCG@10", B = 200,
                                       seed = 1, n_threads = 1, ...)
  # the default: the percentile interval, for the agreement to expect on 25 topics
  x <- agree()
  expect_identical(c(x$target, x$leaderboard_interval, x$interval), c("expected", "percentile", "percentile"))
  sr <- x$scores$reference
  sc <- x$scores$candidates$candidate
  expect_equal(x$leaderboard$conf.low, leaderboard_agreement(sr, sc, B = 200, seed = 1)$conf.low)
  text <- format(x)
  expect_match(paste(text, collapse = "\n"),
               "95% percentile bootstrap intervals (200 samples of topics) for the agreement to expect on this many topics",
               fixed = TRUE)
  # it follows the resampled leaderboards, which agree less than the
  # observed ones: here tau_AP's and RBO's intervals lie below their
  # estimates, and print says so and why
  below <- x$leaderboard$statistic[which(x$leaderboard$conf.high < x$leaderboard$estimate)]
  expect_identical(below, c("tau_ap", "rbo"))
  notes <- grep("^Note:", text, value = TRUE)
  expect_length(notes, 1L)
  expect_match(notes, "the intervals of tau_ap \\[.*\\] and rbo \\[.*\\] lie below their estimates")
  expect_match(notes, "agreement to expect on 25 topics")
  # the population's interval: the jackknife over topics, by hand for tau-b
  pop <- agree(target = "population")
  expect_identical(pop$leaderboard_interval, "jackknife")
  expect_equal(pop$leaderboard$conf.low, leaderboard_agreement(sr, sc, B = 200, seed = 1, interval = "jackknife")$conf.low)
  loo <- vapply(seq_len(ncol(sr)), function(i) cor(rowMeans(sr[, -i]), rowMeans(sc[, -i]), method = "kendall"), 0)
  se <- sqrt((ncol(sr) - 1) / ncol(sr) * sum((loo - mean(loo))^2))
  tau <- pop$leaderboard[pop$leaderboard$statistic == "kendall_tau", ]
  expect_equal(c(tau$conf.low, tau$conf.high), pmin(tau$estimate + c(-1, 1) * qnorm(0.975) * se, 1))
  ptext <- paste(format(pop), collapse = "\n")
  expect_match(ptext, "95% jackknife intervals (one topic left out at a time) for the agreement over the topic population",
               fixed = TRUE)
  expect_no_match(ptext, "Note: the interval")
  # the normal interval, for the expected agreement: estimate +- z sd(bootstrap values)
  nm <- agree(leaderboard_interval = "normal")
  expect_identical(nm$target, "expected")
  draws <- attr(leaderboard_agreement(sr, sc, B = 200, seed = 1), "draws")
  tau <- nm$leaderboard[nm$leaderboard$statistic == "kendall_tau", ]
  expect_equal(tau$conf.low, tau$estimate - qnorm(0.975) * sd(draws[, "kendall_tau"]))
  expect_error(agree(target = "population", leaderboard_interval = "percentile"), class = "irtopics_error_argument",
               regexp = "jackknife")
  expect_error(agree(leaderboard_interval = "t"), class = "irtopics_error_argument")
})

test_that("errors are classed and name the argument", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.test"))
  expect_error(compare_qrels(42, ref), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, "no/such/file"), class = "irtopics_error_file")
  expect_error(compare_qrels(ref, data.frame(topic = "1", docno = "x")), class = "irtopics_error_argument")
  other <- data.frame(topic = "999", docno = "x", rel = 1)
  expect_error(compare_qrels(ref, other), class = "irtopics_error_data")
  dup <- data.frame(topic = c("1", "1"), docno = c("x", "x"), rel = c(0, 1))
  expect_error(compare_qrels(ref, dup), class = "irtopics_error_duplicate")
  expect_error(compare_qrels(ref, ref, conf = 1), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, B = -1), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, interval = "normal"), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, negative = "zero"), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, measure = c("AP", "P@10")), class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, runs = perturbed_runs(2), measure = "nDGC@10"),
               class = "irtopics_error_measure")
  x <- compare_qrels(ref, ref, B = 0)
  expect_error(autoplot(x, type = "means"), class = "irtopics_error_argument")
  expect_error(autoplot(x, candidates = "nope"), class = "irtopics_error_argument")
  expect_error(autoplot(x, colour = "red"), class = "irtopics_error_argument")
})

test_that("plots: means with the identity line and tau, per-topic kappa, the flip matrix", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.rel_level"))
  runs <- perturbed_runs(5)
  x <- compare_qrels(ref, list(a = noisy_labels(ref, 0.3, 1), b = noisy_labels(ref, 0.6, 2)), runs = runs,
                     measure = "AP", B = 50, seed = 1)
  p <- autoplot(x)
  b <- ggplot2::ggplot_build(p)
  ab <- ggplot2::layer_data(p, 1)
  expect_equal(unique(ab$slope), 1)
  expect_equal(unique(ab$intercept), 0)
  pts <- ggplot2::layer_data(p, 2)
  expect_equal(sort(pts$x), sort(x$means$reference_mean))
  expect_equal(sort(pts$y), sort(x$means$candidate_mean))
  lab <- ggplot2::layer_data(p, 3)
  tau <- x$leaderboard$estimate[x$leaderboard$statistic == "kendall_tau"]
  expect_setequal(lab$label, sprintf("tau == \"%.2f\"", tau))  # plotmath: the Greek letter
  expect_match(b$plot$labels$x, "reference")
  expect_match(b$plot$labels$title, "Mean AP")
  expect_equal(nrow(b$layout$layout), 2)  # one panel per candidate
  # equal axes carry the same breaks, at least two of them inside the panel
  pp <- b$layout$panel_params[[1]]
  xb <- pp$x$breaks[!is.na(pp$x$breaks)]
  expect_equal(xb, pp$y$breaks[!is.na(pp$y$breaks)])
  expect_gte(length(xb), 2)
  expect_lte(length(xb), 3)
  k <- autoplot(x, type = "kappa", candidates = "a")
  kd <- ggplot2::layer_data(k, 2)
  expect_equal(sort(kd$x), sort(x$topics$kappa[x$topics$candidate == "a"]))
  est <- ggplot2::layer_data(k, 4)
  expect_equal(est$x, x$labels$estimate[x$labels$candidate == "a" & x$labels$statistic == "kappa" &
                                          is.na(x$labels$threshold)])
  f <- autoplot(x, type = "flips", candidates = "b")
  fd <- ggplot2::layer_data(f, 1)
  expect_equal(nrow(fd), choose(5, 2))
  expect_s3_class(autoplot(x, type = "flips"), "ggplot")
  expect_error(autoplot(x, type = "flips", candidates = c("a", "b")), class = "irtopics_error_argument")
  # every type fits one column and a page and follows the user's theme and titles option
  for (type in c("means", "kappa", "flips")) {
    make <- function() autoplot(x, type = type, candidates = if (type == "flips") "a" else NULL)
    expect_figure_ready(make())
    expect_figure_ready(make(), width = 7, height = 4.5)
    expect_follows_user_theme(make)
  }
  expect_true(is.call(k$labels$x))  # "Cohen's kappa" with the Greek letter
})

test_that("the means plot's breaks: at least two inside the range, few for several panels", {
  # means from 0.15 to 0.9 (a real-scale nDCG@10 leaderboard): ggplot2's
  # n.breaks = 3 gave 0, 0.5, 1, one tick inside
  expect_equal(equal_axis_breaks(c(0.15, 0.9), 3), c(0.25, 0.5, 0.75))
  expect_equal(equal_axis_breaks(c(0.15, 0.9), 6), c(0.2, 0.4, 0.6, 0.8))
  expect_equal(equal_axis_breaks(c(0.1, 0.22), 3), c(0.1, 0.15, 0.2))
  expect_equal(equal_axis_breaks(c(0.4, 0.45), 3), c(0.4, 0.42, 0.44))
  # three panels side by side: two breaks (0.25, 0.5, 0.75 ran together at 3.5 in)
  expect_equal(equal_axis_breaks(c(0.15, 0.9), 2), c(0.25, 0.75))
  expect_equal(equal_axis_breaks(c(0.1, 0.22), 2), c(0.1, 0.2))
  for (lim in list(c(0.013, 0.0141), c(2, 97), c(0.5, 0.51))) {
    b <- equal_axis_breaks(lim, 3)
    expect_true(length(b) >= 2 && length(b) <= 3 && all(b >= lim[1] & b <= lim[2]))
  }
  expect_s3_class(equal_axis_breaks(c(0.3, 0.3), 3), "waiver")
})

# Run files whose lists tie at ranks 9-12 (the cut of a cut-off 10).
tied_run_files <- function(runs) {
  runs <- runs[order(runs$system, runs$topic, -runs$score), ]
  pos <- stats::ave(seq_len(nrow(runs)), runs$system, runs$topic, FUN = seq_along)
  runs$score[pos %in% 9:12] <- 0.5
  runs$score[pos > 12] <- runs$score[pos > 12] - 10
  files <- withr::local_tempdir(.local_envir = parent.frame())
  for (s in unique(runs$system)) {
    r <- runs[runs$system == s, ]
    writeLines(sprintf("%s Q0 %s 0 %.10f %s", r$topic, r$docno, r$score, s), file.path(files, s))
  }
  files
}

test_that("runs cut at the measure's cut-off score as the whole runs do, for every record", {
  dir <- agreement_dir()
  qrels <- file.path(dir, "qrels.rel_level")
  runs <- perturbed_runs(3)
  files <- tied_run_files(runs)
  # every record that takes a cut-off, as asked and judged-only; and some without
  rows <- irtopics:::measure_rows()
  cut_ids <- vapply(Filter(function(r) r$param %in% c("cutoff", "optcut"), rows), `[[`, "", "id")
  ms <- c(paste0(cut_ids, "@10"), paste0(cut_ids, "@10(judged_only)"), "AP", "Bpref", "R@50")
  for (m in ms) {
    cut <- runs_cut(files, m, depth = 1000)
    whole <- evaluate(files, qrels, measures = m, missing = "zero")[[1]]
    part <- evaluate(cut, qrels, measures = m, missing = "zero")[[1]]
    expect_identical(as.vector(part), as.vector(whole), label = m)
    p <- irtopics:::parse_measure(m)
    if (isTRUE(p$cutoff > 0) && !p$judged_only) {
      expect_s3_class(cut, "ir_runs")
      if (p$cutoff == 10) expect_lt(sum(vapply(cut, function(r) length(r$score), numeric(1))), 0.2 * nrow(runs))
    } else {
      # a judged-only measure reads its first k judged documents, which can
      # lie anywhere: the files are left to the evaluator
      expect_identical(cut, files, label = m)
    }
  }
  # the record says how deep a measure reads, the name's flag whether the list is filtered
  expect_equal(irtopics:::measure_read_depth(irtopics:::parse_measure("P@10"), 1000), 10)
  expect_equal(irtopics:::measure_read_depth(irtopics:::parse_measure("P@10(judged_only)"), 1000), 1000)
  expect_equal(irtopics:::measure_read_depth(irtopics:::parse_measure("Rprec_mult@0.2"), 1000), 1000)
  expect_equal(irtopics:::measure_read_depth(irtopics:::parse_measure("P@10"), 1000, judged_only = TRUE), 1000)
  # a data frame is evaluated as given; an ir_runs is cut in memory
  expect_identical(runs_cut(runs, "P@10", 1000), runs)
  rr <- read_runs(files)
  expect_identical(runs_cut(rr, "P@10", 1000), runs_cut(files, "P@10", 1000))
})

test_that("judged-only measures: the candidate's scores are those of the whole runs", {
  # the candidate judged every other document of the reference: the first
  # ten judged documents of a list lie well below rank 10
  dir <- agreement_dir()
  ref <- as.data.frame(read_qrels(file.path(dir, "qrels.rel_level")))
  ref <- ref[ref$rel >= 0, ]
  cand <- ref[seq(1, nrow(ref), by = 2), ]
  files <- tied_run_files(perturbed_runs(4))
  for (m in c("P@10(judged_only)", "nDCG(judged_only=True)@10", "RR@10(judged_only)", "AP@100(judged_only)")) {
    # (RR@10 of two systems can tie on every topic: t's p is NA then)
    x <- withCallingHandlers(compare_qrels(ref, cand, runs = files, measure = m, B = 0, progress = FALSE),
                             irtopics_warning_undefined = function(w) invokeRestart("muffleWarning"))
    whole <- evaluate(files, cand, measures = m, missing = "zero")[[1]]
    got <- x$scores$candidates$candidate
    expect_identical(unclass(got)[, colnames(got)], unclass(whole)[rownames(got), colnames(got)], label = m)
    # the first ten lines alone give other values: the case needs the fix
    if (m == "P@10(judged_only)") {
      first <- evaluate(runs_cut(files, "P@10", 1000), cand, measures = m, missing = "zero")[[1]]
      expect_false(identical(as.vector(first[, colnames(got)]), as.vector(got)))
    }
  }
})

test_that("the memory of the label and leaderboard bootstraps is checked once, before any work", {
  # 100 systems on 3 topics: a leaderboard sample needs more than a label sample
  ref <- data.frame(topic = rep(c("1", "2", "3"), each = 4), docno = paste0("d", 1:12), rel = rep(0:3, 3))
  cand <- noisy_labels(ref, 0.3, seed = 2)
  set.seed(3)
  runs <- data.frame(system = rep(sprintf("s%03d", 1:100), each = 12), topic = ref$topic, docno = ref$docno,
                     score = stats::runif(1200))
  label_b <- irtopics:::label_bootstrap_bytes(4, 3)
  lb_b <- irtopics:::leaderboard_bootstrap_bytes(100, 3)
  expect_gt(lb_b, label_b)
  budget <- 1000 * (label_b + lb_b) / 2
  withr::local_options(irtopics.max_memory = budget)
  fits <- floor(budget / lb_b)
  # before: the label bootstrap's check advised at most floor(budget / label_b),
  # and the leaderboard's refused that B after the labels and evaluations ran
  err <- expect_error(compare_qrels(ref, cand, runs = runs, measure = "P@5", B = 1000),
                      class = "irtopics_error_memory")
  expect_match(conditionMessage(err), sprintf("at most %s fit", format(fits, big.mark = ",")))
  # refused before the runs are evaluated: runs that evaluate() would refuse
  # (no topic of the qrels) still give the memory error
  stray <- runs
  stray$topic <- "99"
  expect_error(compare_qrels(ref, cand, runs = stray, measure = "P@5", B = 1000), class = "irtopics_error_memory")
  expect_error(compare_qrels(ref, cand, runs = stray, measure = "P@5", B = 10), class = "irtopics_error_data")
  # the advised B runs through
  # (P@5 ties every pair on these runs, and t's p is NA; the warning names
  # the measure under both label sets: the candidate's was "score")
  w <- character()
  x <- withCallingHandlers(compare_qrels(ref, cand, runs = runs, measure = "P@5", B = fits, progress = FALSE),
                           irtopics_warning_undefined = function(c) {
                             w <<- c(w, conditionMessage(c))
                             invokeRestart("muffleWarning")
                           })
  expect_equal(x$B, fits)
  expect_length(w, 2)
  expect_true(all(grepl("P@5", w)))
})

test_that("runs of one system are refused before any work, naming runs", {
  ref <- data.frame(topic = rep(c("1", "2"), each = 4), docno = paste0("d", 1:8), rel = c(0:3, 0:3))
  runs <- data.frame(system = "a", topic = ref$topic, docno = ref$docno, score = 8:1)
  # before: "`reference` must have at least 2 systems" after both evaluations
  expect_error(compare_qrels(ref, ref, runs = runs, measure = "P@2", B = 0), "runs.*at least 2 systems",
               class = "irtopics_error_data")
  # what is not runs, or a missing file, is still named as such
  expect_error(compare_qrels(ref, ref, runs = 5, B = 0), "run file paths", class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, runs = "no/such/file", B = 0), "does not exist", class = "irtopics_error_file")
})
