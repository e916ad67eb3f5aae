# Label agreement: every statistic against irr, psych and the spec's worked
# example (spec/agreement.md section 1).

worked_a <- c(0, 1, 2, 3, 3, 2, 1, 0, 2, 3, 1, 1)
worked_b <- c(0, 1, 1, 3, 2, 2, 0, 0, 3, 3, 1, 2)

labels_df <- function(topic, rel, docno = paste0("d", seq_along(rel))) {
  data.frame(topic = topic, docno = docno, rel = rel, stringsAsFactors = FALSE)
}

label_values <- function(a, b, grades = NULL) {
  ref <- as_label_set(labels_df("1", a), "reference", "grade")
  cand <- as_label_set(labels_df("1", b), "candidate", "grade")
  lab <- label_agreement(ref, cand, grades, B = 0, conf = 0.95, interval = "percentile", seed = 1)$labels
  stats::setNames(lab$estimate, ifelse(is.na(lab$threshold), lab$statistic,
                                       paste0(lab$statistic, "_ge_", lab$threshold)))
}

test_that("the spec's worked example gives every published value", {
  v <- label_values(worked_a, worked_b)
  expect_equal(v[["kappa"]], 0.4444444, tolerance = 1e-6)
  expect_equal(v[["weighted_kappa_linear"]], 0.6551724, tolerance = 1e-6)
  expect_equal(v[["weighted_kappa_quadratic"]], 0.8214286, tolerance = 1e-6)
  expect_equal(v[["kappa_ge_1"]], 0.75, tolerance = 1e-6)
  expect_equal(v[["kappa_ge_2"]], 0.6666667, tolerance = 1e-6)
  expect_equal(v[["kappa_ge_3"]], 0.5555556, tolerance = 1e-6)
  expect_equal(v[["krippendorff_alpha_nominal"]], 0.4651163, tolerance = 1e-6)
  expect_equal(v[["krippendorff_alpha_ordinal"]], 0.8287102, tolerance = 1e-6)
  expect_equal(v[["krippendorff_alpha_interval"]], 0.8286140, tolerance = 1e-6)
  expect_equal(v[["observed_agreement"]], 7 / 12)
})

test_that("kappa, weighted kappa and alpha equal irr and psych on random cases", {
  skip_if_not_installed("irr")
  skip_if_not_installed("psych")
  set.seed(42)
  for (case in 1:12) {
    n <- sample(c(8, 30, 200), 1)
    k <- sample(2:5, 1)
    a <- sample(0:(k - 1), n, replace = TRUE)
    # a correlated candidate: the reference grade moved by -1, 0 or +1
    b <- pmin(k - 1, pmax(0, a + sample(-1:1, n, replace = TRUE, prob = c(0.2, 0.6, 0.2))))
    if (length(unique(c(a, b))) < 2) next
    v <- label_values(a, b)
    r <- cbind(a, b)
    expect_equal(v[["kappa"]], irr::kappa2(r)$value, tolerance = 1e-12)
    expect_equal(v[["weighted_kappa_linear"]], irr::kappa2(r, "equal")$value, tolerance = 1e-12)
    expect_equal(v[["weighted_kappa_quadratic"]], irr::kappa2(r, "squared")$value, tolerance = 1e-12)
    for (m in c("nominal", "ordinal", "interval")) {
      expect_equal(v[[paste0("krippendorff_alpha_", m)]], irr::kripp.alpha(rbind(a, b), m)$value,
                   tolerance = 1e-12)
    }
    scale <- sort(unique(c(a, b)))
    ck <- suppressWarnings(psych::cohen.kappa(r, levels = scale))
    expect_equal(v[["kappa"]], ck$kappa, tolerance = 1e-12)
    for (t in scale[-1]) {
      expect_equal(v[[paste0("kappa_ge_", t)]], irr::kappa2(cbind(a >= t, b >= t))$value, tolerance = 1e-12)
    }
  }
})

test_that("grades on a scale with gaps weight by position, as irr", {
  skip_if_not_installed("irr")
  a <- c(0, 1, 3, 3, 1, 0, 3, 1)
  b <- c(0, 3, 3, 1, 1, 0, 3, 0)
  v <- label_values(a, b)
  expect_equal(v[["weighted_kappa_linear"]], irr::kappa2(cbind(a, b), "equal")$value, tolerance = 1e-12)
  expect_equal(v[["krippendorff_alpha_interval"]], irr::kripp.alpha(rbind(a, b), "interval")$value,
               tolerance = 1e-12)
  # a declared scale with the missing grade 2 changes the linear weights
  w <- label_values(a, b, grades = 0:3)
  po <- mean(1 - abs(match(a, 0:3) - match(b, 0:3)) / 3)
  pa <- table(factor(a, 0:3)) / 8
  pb <- table(factor(b, 0:3)) / 8
  pe <- sum(outer(pa, pb) * (1 - abs(outer(1:4, 1:4, "-")) / 3))
  expect_equal(w[["weighted_kappa_linear"]], (po - pe) / (1 - pe), tolerance = 1e-12)
  expect_equal(w[["kappa"]], v[["kappa"]])
  expect_error(label_values(a, b, grades = 0:1), class = "irtopics_error_argument")
})

test_that("undefined statistics are NA", {
  v <- label_values(c(1, 1, 1), c(1, 1, 1))
  expect_true(is.na(v[["kappa"]]))
  expect_true(is.na(v[["krippendorff_alpha_nominal"]]))
  expect_equal(v[["observed_agreement"]], 1)
})

test_that("pairs, counts and per-topic values: shared pairs only, topics separately", {
  skip_if_not_installed("irr")
  set.seed(7)
  ref <- do.call(rbind, lapply(c("2", "10", "3"), function(t) labels_df(t, sample(0:2, 20, TRUE))))
  cand <- ref
  cand$rel <- pmin(2, pmax(0, cand$rel + sample(-1:1, nrow(cand), TRUE)))
  cand <- cand[-(1:3), ]                                   # 3 pairs of topic 2 only in the reference
  cand <- rbind(cand, labels_df("10", c(1, 2), c("x1", "x2")), labels_df("99", 1, "y"))  # candidate only
  ref <- rbind(ref, labels_df("10", -1, "u"))              # unjudged: dropped
  r <- as_label_set(ref, "reference", "unjudged")
  c2 <- as_label_set(cand, "candidate", "unjudged")
  res <- label_agreement(r, c2, NULL, B = 0, conf = 0.95, interval = "percentile", seed = 1)
  expect_equal(res$topics$topic, c("2", "3", "10", "99"))  # numeric order
  expect_equal(res$topics$n_both, c(17, 20, 20, 0))
  expect_equal(res$topics$n_reference_only, c(3, 0, 0, 0))
  expect_equal(res$topics$n_candidate_only, c(0, 0, 2, 1))
  expect_equal(res$counts$n_both, 57)
  expect_equal(res$counts$n_topics, 3)
  for (t in c("2", "3", "10")) {
    rr <- ref[ref$topic == t & ref$rel >= 0, ]
    cc <- cand[match(paste(rr$topic, rr$docno), paste(cand$topic, cand$docno)), ]
    ok <- !is.na(cc$rel)
    got <- res$topics[res$topics$topic == t, ]
    k_irr <- irr::kappa2(cbind(factor(rr$rel[ok], 0:2), factor(cc$rel[ok], 0:2)))$value
    expect_equal(got$kappa, k_irr, tolerance = 1e-12)
  }
  expect_true(is.na(res$topics$kappa[4]))
  # the confusion matrix is the table of the shared pairs
  all_r <- merge(ref[ref$rel >= 0, ], cand, by = c("topic", "docno"))
  tab <- table(factor(all_r$rel.x, 0:2), factor(all_r$rel.y, 0:2))
  expect_equal(res$confusion$n, as.vector(tab))
  expect_equal(res$confusion$reference_grade, rep(0:2, 3))
  # overall statistics pool the pairs of all topics
  expect_equal(res$labels$estimate[res$labels$statistic == "kappa" & is.na(res$labels$threshold)],
               irr::kappa2(cbind(all_r$rel.x, all_r$rel.y))$value, tolerance = 1e-12)
})

test_that("the bootstrap resamples topics: replicates equal a base-R recomputation", {
  skip_if_not_installed("irr")
  set.seed(3)
  ref <- do.call(rbind, lapply(sprintf("t%02d", 1:12), function(t) labels_df(t, sample(0:3, 15, TRUE))))
  cand <- ref
  cand$rel <- pmin(3, pmax(0, cand$rel + sample(-1:1, nrow(cand), TRUE, prob = c(.25, .5, .25))))
  lp <- label_pairs(ref, cand)
  scale <- 0:3
  counts <- confusion_counts(lp$pairs, scale, lp$counts$topic)
  reps <- label_bootstrap(counts, scale, B = 30, seed = 11)
  draws <- resample_draws("indices", 11, n = 12, first = 1, count = 30)
  topics <- lp$counts$topic
  for (b in c(1, 17, 30)) {
    rows <- unlist(lapply(topics[draws[, b]], function(t) which(lp$pairs$topic == t)))
    expect_equal(unname(reps[b, "kappa"]), irr::kappa2(lp$pairs[rows, c("reference", "candidate")])$value,
                 tolerance = 1e-12)
    expect_equal(unname(reps[b, "krippendorff_alpha_ordinal"]),
                 irr::kripp.alpha(t(as.matrix(lp$pairs[rows, c("reference", "candidate")])), "ordinal")$value,
                 tolerance = 1e-12)
  }
})

test_that("intervals are the same for 1 and 2 threads, any chunking and a future plan", {
  set.seed(5)
  ref <- do.call(rbind, lapply(sprintf("t%02d", 1:15), function(t) labels_df(t, sample(0:2, 10, TRUE))))
  cand <- ref
  cand$rel[sample(nrow(cand), 40)] <- sample(0:2, 40, TRUE)
  one <- compare_qrels(ref, cand, B = 600, seed = 9, n_threads = 1)
  two <- compare_qrels(ref, cand, B = 600, seed = 9, n_threads = 2)
  expect_identical(one$labels, two$labels)
  lp <- label_pairs(as_label_set(ref, "r", "unjudged"), as_label_set(cand, "c", "unjudged"))
  counts <- confusion_counts(lp$pairs, 0:2, lp$counts$topic)
  # chunks of 250: samples 251-300 come from chunk 251-500 here and 251-300 there
  whole <- label_bootstrap(counts, 0:2, B = 600, seed = 9)
  fewer <- label_bootstrap(counts, 0:2, B = 300, seed = 9)
  expect_identical(whole[251:300, ], fewer[251:300, ])
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_on_cran()
  # Multisession workers load the installed package (not this source tree):
  # run only when the installed copy is this code.
  here <- list(deparse(label_bootstrap), deparse(label_statistics), deparse(topic_bootstrap_weights))
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  there <- tryCatch(future::value(future::future({
    ns <- asNamespace("irtopics")
    list(deparse(ns$label_bootstrap), deparse(ns$label_statistics), deparse(ns$topic_bootstrap_weights))
  })), error = function(e) NULL)
  skip_if_not(identical(here, there), "multisession workers load another version of irtopics")
  fut <- compare_qrels(ref, cand, B = 600, seed = 9)
  expect_identical(fut$labels, one$labels)
})

test_that("basic and BCa intervals: the shared bootstrap_interval(), clipped to each statistic's range", {
  ref <- read_qrels(file.path(agreement_dir(), "qrels.rel_level"))
  cand <- noisy_labels(ref, 0.3, seed = 1)
  p <- compare_qrels(ref, cand, B = 300, seed = 2)
  b <- compare_qrels(ref, cand, B = 300, seed = 2, interval = "basic")
  a <- compare_qrels(ref, cand, B = 300, seed = 2, interval = "bca")
  expect_identical(p$labels$estimate, b$labels$estimate)
  # basic = 2 * estimate - the percentile bounds, reversed, then clipped
  floor <- ifelse(p$labels$statistic == "observed_agreement", 0,
                  ifelse(grepl("kappa", p$labels$statistic), -1, -Inf))
  expect_equal(b$labels$conf.low, pmax(2 * p$labels$estimate - p$labels$conf.high, floor))
  expect_equal(b$labels$conf.high, pmin(2 * p$labels$estimate - p$labels$conf.low, 1))
  expect_true(all(b$labels$conf.high <= 1))
  expect_false(isTRUE(all.equal(a$labels$conf.low, p$labels$conf.low)))
  expect_true(all(a$labels$conf.high <= 1))
})

test_that("grade scales are bounded: a classed error stating the limit and what to do", {
  ref <- data.frame(topic = rep(c("1", "2"), each = 4), docno = paste0("d", 1:8), rel = c(0:3, 0:3))
  # grades = 0:1e5 overflowed k * k (base R "missing value where TRUE/FALSE needed")
  expect_error(compare_qrels(ref, ref, grades = 0:1e5, B = 0), "at most 101.*Map the labels", class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, grades = 0:20000, B = 0), "20001 grades", class = "irtopics_error_argument")
  expect_error(compare_qrels(ref, ref, grades = c(0, 1, 2e6), B = 0), class = "irtopics_error_argument")
  # an LLM judge's 0-2000 scores read as grades ran for hours
  llm <- data.frame(topic = "1", docno = paste0("d", 1:400), rel = seq(0, 1995, by = 5))
  ref2 <- data.frame(topic = "1", docno = paste0("d", 1:400), rel = rep(0:3, 100))
  expect_error(compare_qrels(ref2, llm, B = 0), "403 grades.*at most 101.*scores rather than grades",
               class = "irtopics_error_data")
  # a 0-100 scale is within the bound
  ok <- compare_qrels(ref, ref, grades = 0:100, B = 0)
  expect_equal(length(ok$grades), 101)
  # the confusion counts are checked against the memory budget too
  withr::local_options(irtopics.max_memory = 1e5)
  expect_error(compare_qrels(ref, ref, grades = 0:100, B = 0), "confusion counts .* 101 grades",
               class = "irtopics_error_memory")
})

test_that("labels outside the declared scale are refused naming the file; outside the reference's range, a warning", {
  ref <- data.frame(topic = rep(c("1", "2"), each = 4), docno = paste0("d", 1:8), rel = c(0:3, 0:3))
  cand <- ref
  cand$rel[2] <- 5L  # a shared pair
  extra <- rbind(ref, data.frame(topic = "2", docno = "d99", rel = 10L))  # judged by the candidate alone
  f <- withr::local_tempfile(fileext = ".qrels")
  write_qrels(extra, f)
  # before: a grade outside `grades` was refused only in shared pairs, without the file
  err <- expect_error(compare_qrels(ref, f, grades = 0:3, B = 0), "outside the scale", class = "irtopics_error_data")
  expect_match(conditionMessage(err), basename(f), fixed = TRUE)
  expect_match(conditionMessage(err), "d99")
  expect_error(compare_qrels(ref, cand, grades = 0:3, B = 0), "candidate.*outside the scale",
               class = "irtopics_error_data")
  expect_error(compare_qrels(cand, ref, grades = 0:3, B = 0), "reference.*outside the scale",
               class = "irtopics_error_data")
  # without a declared scale: a warning naming the file (read_labels() keeps its path too)
  w <- expect_warning(compare_qrels(ref, read_labels(f), B = 0), class = "irtopics_warning_data")
  expect_match(conditionMessage(w), basename(f), fixed = TRUE)
  expect_match(conditionMessage(w), "0-3")
  expect_warning(compare_qrels(ref, cand, B = 0), "candidate", class = "irtopics_warning_data")
  # a candidate within the reference's range (a binary judge of a graded reference): no warning
  bin <- ref
  bin$rel <- as.integer(bin$rel >= 2)
  expect_no_warning(compare_qrels(ref, bin, B = 0))
})
