# Methods of ir_evaluation (R/evaluation.R): it converts, summarises and plots
# like its ir_scores parts.

# Two systems, three topics; sysB does not answer topic 303 (NA with
# missing = "drop").
two_system_evaluation <- function() {
  qrels <- data.frame(topic = rep(c("301", "302", "303"), each = 3),
                      docno = paste0("d", 1:9), rel = c(1, 0, 1, 1, 1, 0, 0, 0, 1))
  runs <- rbind(
    data.frame(system = "sysA", topic = rep(c("301", "302", "303"), each = 3),
               docno = paste0("d", c(1, 2, 3, 4, 5, 6, 7, 8, 9)), score = rep(3:1, 3)),
    data.frame(system = "sysB", topic = rep(c("301", "302"), each = 3),
               docno = paste0("d", c(3, 2, 1, 6, 5, 4)), score = rep(3:1, 2)))
  evaluate(runs, qrels, measures = c("AP", "P@2", "RR"))
}

test_that("as.data.frame() is tidy long over all measures and matches the parts", {
  res <- two_system_evaluation()
  df <- as.data.frame(res)
  expect_named(df, c("system", "topic", "measure", "value"))
  expect_identical(nrow(df), 3L * 2L * 3L)
  expect_identical(unique(df$measure), c("AP", "P@2", "RR"))
  for (m in names(res)) {
    d <- df[df$measure == m, ]
    expect_identical(d$value, as.vector(t(unclass(res[[m]]))[, 1:2][cbind(rep(1:3, 2), rep(1:2, each = 3))]))
    # hand values: sysA on 301 returns d1 (rel), d2, d3 (rel): AP = (1 + 2/3) / 2
    if (m == "AP") expect_equal(d$value[d$system == "sysA" & d$topic == "301"], (1 + 2 / 3) / 2)
  }
  expect_true(is.na(df$value[df$system == "sysB" & df$topic == "303" & df$measure == "RR"]))
  expect_identical(nrow(as.data.frame(res, na.rm = TRUE)), 15L)
  tb <- tibble::as_tibble(res)
  expect_s3_class(tb, "tbl_df")
  expect_identical(as.data.frame(tb), df)
})

test_that("mean_scores() gives one column per measure, skipping unanswered topics", {
  res <- two_system_evaluation()
  ms <- mean_scores(res)
  expect_named(ms, c("system", "AP", "P@2", "RR"))
  expect_identical(ms$system, c("sysA", "sysB"))
  for (m in names(res)) {
    expect_equal(ms[[m]], unname(rowMeans(unclass(res[[m]]), na.rm = TRUE)))
  }
  # sysB's P@2: 301 (d3, d2) = 1/2, 302 (d6, d5) = 1/2; 303 not answered
  expect_equal(ms[["P@2"]][2], 0.5)
})

test_that("summary() reports each measure's size, NAs and system means", {
  res <- two_system_evaluation()
  s <- summary(res)
  expect_s3_class(s, "irtopics_summary")
  tab <- as.data.frame(s)
  expect_identical(tab$measure, names(res))
  expect_identical(tab$unanswered, c(1L, 1L, 1L))
  expect_equal(tab$max_mean, vapply(res, function(m) max(rowMeans(unclass(m), na.rm = TRUE)), 0),
               ignore_attr = TRUE)
  expect_snapshot(print(s))
})

test_that("print() is cat(format()) with the system means", {
  res <- two_system_evaluation()
  expect_identical(capture.output(print(res)), format(res))
  expect_snapshot(print(res))
  # no "... 0 more systems" line
  expect_false(any(grepl("more system", format(res))))
  expect_match(format(res, n = 1)[5], "# ... 1 more system$")
})

test_that("autoplot() draws one panel per measure with sorted scores", {
  res <- two_system_evaluation()
  p <- ggplot2::autoplot(res)
  ld <- ggplot2::layer_data(p)
  expect_identical(sort(unique(as.integer(ld$PANEL))), 1:3)
  # panel 1 (AP): sysA's sorted AP values
  a <- ld[ld$PANEL == 1 & ld$group == 1, ]
  expect_equal(a$y, sort(unclass(res$AP)["sysA", ]), ignore_attr = TRUE)
  p2 <- ggplot2::autoplot(res, measures = "RR", systems = "sysB")
  expect_identical(nrow(ggplot2::layer_data(p2)), 2L)
  expect_error(ggplot2::autoplot(res, sytems = "sysA"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(res, measures = "MAP"), class = "irtopics_error_argument")
})

test_that("an ir_scores converts to the same long tibble as its evaluation", {
  skip_if_not_installed("tibble")
  res <- two_system_evaluation()
  tb <- tibble::as_tibble(res$AP)
  expect_s3_class(tb, "tbl_df")
  expect_identical(as.data.frame(tb), as.data.frame(res$AP))
  expect_identical(nrow(tibble::as_tibble(res$AP, na.rm = TRUE)), 5L)
})

# Four systems, four topics, through evaluate() (data-frame runs).
four_system_evaluation <- function() {
  topics <- c("301", "302", "303", "304")
  qrels <- data.frame(topic = rep(topics, each = 4), docno = paste0("d", 1:16),
                      rel = rep(c(1, 0, 1, 0), 4))
  perms <- list(alpha = c(1, 2, 3, 4), beta = c(2, 1, 4, 3), gamma = c(4, 3, 2, 1), delta = c(3, 1, 2, 4))
  runs <- do.call(rbind, lapply(names(perms), function(s) {
    do.call(rbind, lapply(seq_along(topics), function(k) {
      p <- if (k %% 2) perms[[s]] else rev(perms[[s]])
      data.frame(system = s, topic = topics[k], docno = paste0("d", (k - 1) * 4 + p), score = 4:1)
    }))
  }))
  evaluate(runs, qrels, measures = c("AP", "P@2", "RR"))
}

test_that("res[measures] keeps the class, any spelling, and compare_systems() takes it", {
  res <- four_system_evaluation()
  sub <- res[c("P_2", "map")]
  expect_s3_class(sub, "ir_evaluation")
  expect_identical(names(sub), c("P@2", "AP"))
  expect_identical(attr(sub, "canonical"), c("P@2", "AP"))
  expect_identical(attr(sub, "missing"), attr(res, "missing"))
  expect_identical(sub$AP, res$AP)
  expect_identical(names(res[2:3]), c("P@2", "RR"))
  expect_identical(names(res[c(TRUE, FALSE, TRUE)]), c("AP", "RR"))
  expect_identical(names(res[-1]), c("P@2", "RR"))
  cmp <- compare_systems(sub, test = "randomization", correction = "none")
  expect_identical(colnames(cmp$means), c("P@2", "AP"))
  expect_equal(unname(cmp$means[, "AP"]), unname(rowMeans(unclass(res$AP))))
  expect_error(res["nDGC"], "not in this evaluation", class = "irtopics_error_measure")
})

test_that("res[systems, ] and res[, topics] subset every measure like a matrix", {
  res <- four_system_evaluation()
  s <- res[c("gamma", "alpha"), ]
  expect_s3_class(s, "ir_evaluation")
  expect_identical(names(s), names(res))
  for (m in names(res)) {
    expect_s3_class(s[[m]], "ir_scores")
    expect_identical(unclass(s[[m]])[, ], unclass(res[[m]])[c("gamma", "alpha"), ])
    expect_identical(attr(s[[m]], "measure"), attr(res[[m]], "measure"))
    expect_identical(attr(s[[m]], "summary"), attr(res[[m]], "summary"))
  }
  t2 <- res[, c("302", "304")]
  expect_identical(colnames(t2$RR), c("302", "304"))
  expect_identical(unclass(t2$RR)[, ], unclass(res$RR)[, c("302", "304")])
  one <- res[1, 2]  # never dropped to a vector
  expect_identical(dim(one$AP), c(1L, 1L))
  expect_identical(dim(res[-1, c(TRUE, FALSE)]$AP), c(3L, 2L))
  expect_identical(dim(res[rownames(res$AP) != "beta", , drop = TRUE]$AP), c(3L, 4L))
  expect_error(res["gama", ], "Did you mean.*gamma", class = "irtopics_error_argument")
  expect_error(res[, "399"], "must name topics", class = "irtopics_error_argument")
  expect_error(res[, 9], "must select topics", class = "irtopics_error_argument")
  expect_error(res[1, 1, 1], "two dimensions", class = "irtopics_error_argument")
})

test_that("analyses of one score matrix take a one-measure evaluation and name the choice otherwise", {
  res <- four_system_evaluation()
  expect_identical(robust_summary(res["AP"])$table, robust_summary(res$AP)$table)
  for (f in list(function(x) robust_summary(x), function(x) swap_error_rates(x, trials = 5, seed = 1),
                 function(x) cronbach_alpha(x), function(x) gawm(x), function(x) topic_difficulty(x))) {
    err <- expect_error(f(res), "not an <ir_evaluation> of 3 measures", class = "irtopics_error_argument")
    expect_match(conditionMessage(err), "res$AP", fixed = TRUE)
    expect_identical(err$measures, c("AP", "P@2", "RR"))
  }
  # subset_systems() keeps the same systems of every measure
  sub <- subset_systems(res, c("delta", "beta"))
  expect_s3_class(sub, "ir_evaluation")
  expect_identical(rownames(sub$RR), c("beta", "delta"))
  expect_error(subset_systems(res, "dleta"), "Did you mean.*delta")
})
