# assisted_differences() and assisted_ranks(): the means machinery on
# paired differences, tests, corrections, conclusions and rank intervals.

diff_case <- function(seed, systems = 5, n = 20, N = 40, gap = 0.06, top = 0.7) {
  set.seed(seed)
  topics <- paste0("q", seq_len(n + N))
  base <- stats::runif(n + N, 0.1, top)
  truth <- t(vapply(seq_len(systems), function(s) pmin(1, pmax(0, base + gap * (systems - s) +
                                                                  stats::rnorm(n + N, 0, 0.05))),
                    numeric(n + N)))
  dimnames(truth) <- list(paste0("s", seq_len(systems)), topics)
  judge <- truth + matrix(stats::rnorm(length(truth), -0.05, 0.05), systems)
  lab <- sample(topics, n)
  list(ref = truth[, lab], judge = judge, lab = lab, unl = setdiff(topics, lab))
}

test_that("differences are the means machinery applied to Y_A - Y_B, with x's se and interval", {
  cs <- diff_case(1)
  n <- length(cs$lab)
  pairs <- utils::combn(rownames(cs$ref), 2)
  dy <- cs$ref[pairs[1, ], ] - cs$ref[pairs[2, ], ]
  dj <- cs$judge[pairs[1, ], ] - cs$judge[pairs[2, ], ]
  rownames(dy) <- rownames(dj) <- paste(pairs[1, ], pairs[2, ])
  settings <- list(list(se = "jackknife", interval = "t"), list(se = "plugin", interval = "normal"),
                   list(se = "jackknife", interval = "normal"))
  for (st in settings) {
    am <- assisted_means(cs$ref, cs$judge, se = st$se, interval = st$interval)
    d <- assisted_differences(am, correction = "none")
    expect_equal(d$se, st$se)
    expect_true(any(grepl(if (st$se == "jackknife") "PPI++ jackknife se" else "PPI++ plug-in se", format(d), fixed = TRUE)))
    ref <- as.data.frame(assisted_means(dy, dj, se = st$se, interval = st$interval))
    tab <- as.data.frame(d)
    expect_equal(nrow(tab), 3 * ncol(pairs))
    p_of <- function(z, df) if (st$interval == "t") 2 * stats::pt(-abs(z), df) else 2 * stats::pnorm(-abs(z))
    for (m in c("ppi++", "ppi", "classical")) {
      a <- tab[tab$method == m, ]
      b <- ref[ref$method == m, ]
      expect_equal(paste(a$system1, a$system2), b$system)
      for (col in c("lambda", "estimate", "std.error", "conf.low", "conf.high")) {
        expect_equal(a[[col]], b[[col]], tolerance = 1e-12)
      }
      expect_equal(a$statistic, a$estimate / a$std.error, tolerance = 1e-12)
      expect_equal(a$p.value, p_of(a$statistic, n - 1), tolerance = 1e-12)
      expect_equal(a$p.adjusted, a$p.value)
    }
    # the conclusions: judge only is the classical test on the judge's
    # scores of all topics, human only the classical estimate on the labelled
    z <- rowMeans(dj) / (apply(dj, 1, stats::sd) / sqrt(ncol(dj)))
    sig <- p_of(z, ncol(dj) - 1) < 0.05
    want <- ifelse(!sig, "none", ifelse(z > 0, "system1", "system2"))
    expect_equal(d$conclusions$judge_only, unname(want))
    cl <- tab[tab$method == "classical", ]
    expect_equal(d$conclusions$human_only, ifelse(!cl$significant, "none", ifelse(cl$estimate > 0, "system1", "system2")))
    lead <- tab[tab$method == "ppi++", ]
    expect_equal(d$conclusions$assisted, ifelse(!lead$significant, "none", ifelse(lead$estimate > 0, "system1", "system2")))
    expect_equal(d$conclusions$changed_from_judge, d$conclusions$assisted != d$conclusions$judge_only)
    # the ranks inherit the same tests
    r <- assisted_ranks(am)
    expect_equal(c(r$se, r$interval), c(st$se, st$interval))
    dh <- assisted_differences(am)
    lead <- as.data.frame(dh)
    lead <- lead[lead$method == "ppi++" & lead$significant, ]
    better <- table(factor(ifelse(lead$estimate > 0, lead$system2, lead$system1), rownames(cs$ref)))
    expect_equal(r$table$better[match(names(better), r$table$system)], as.vector(better))
    expect_true(grepl(if (st$interval == "t") "t tests" else "z tests", format(r)[1]))
  }
  # format() checks n (and digits, as compare_systems()' report)
  for (bad in list(NA, -1, 2.5, "3")) {
    expect_error(format(d, n = bad), class = "irtopics_error_argument")
    expect_error(format(d, digits = bad), class = "irtopics_error_argument")
    expect_error(format(r, n = bad), class = "irtopics_error_argument")
  }
  expect_length(grep("^ *s[0-9] ", format(r, n = 2)), 2L)
  # jackknife and plug-in give different PPI++ tests
  a <- as.data.frame(assisted_differences(assisted_means(cs$ref, cs$judge, se = "plugin")))
  b <- as.data.frame(assisted_differences(assisted_means(cs$ref, cs$judge)))
  expect_false(isTRUE(all.equal(a$std.error[a$method == "ppi++"], b$std.error[b$method == "ppi++"])))
  expect_equal(a$std.error[a$method == "ppi"], b$std.error[b$method == "ppi"], tolerance = 1e-12)
})

test_that("every correction of compare_systems() applies over the pairs of each method", {
  cs <- diff_case(2, gap = 0.02)
  am <- assisted_means(cs$ref, cs$judge)
  raw <- as.data.frame(assisted_differences(am, correction = "none"))
  for (corr in stats::p.adjust.methods) {
    tab <- as.data.frame(assisted_differences(am, correction = corr))
    for (m in unique(tab$method)) {
      expect_equal(tab$p.adjusted[tab$method == m], stats::p.adjust(raw$p.value[raw$method == m], corr))
    }
    expect_equal(tab$significant, tab$p.adjusted < 0.05)
  }
  expect_error(assisted_differences(am, correction = "tukey"), class = "irtopics_error_argument")
  expect_error(assisted_differences(am, alpha = 0), class = "irtopics_error_argument")
  expect_error(assisted_differences(cs$ref), class = "irtopics_error_argument")
})

test_that("t intervals test with the t distribution; a baseline gives system minus baseline", {
  cs <- diff_case(3)
  am <- assisted_means(cs$ref, cs$judge, interval = "t")
  d <- assisted_differences(am, baseline = "s3")
  tab <- as.data.frame(d)
  expect_true(all(tab$system2 == "s3"))
  expect_setequal(unique(tab$system1), c("s1", "s2", "s4", "s5"))
  expect_equal(tab$p.value, 2 * stats::pt(-abs(tab$estimate / tab$std.error), length(cs$lab) - 1), tolerance = 1e-12)
  r <- tab[tab$system1 == "s1" & tab$method == "classical", ]
  tt <- stats::t.test(cs$ref["s1", ], cs$ref["s3", ], paired = TRUE)
  expect_equal(c(r$conf.low, r$conf.high), as.vector(tt$conf.int), tolerance = 1e-12)
  expect_equal(r$p.value, tt$p.value, tolerance = 1e-12)
  expect_error(assisted_differences(am, baseline = "s9"), class = "irtopics_error_argument")
})

test_that("the print is compare_systems()'s decision table with the conclusions", {
  cs <- diff_case(4)
  am <- assisted_means(cs$ref, cs$judge)
  d <- assisted_differences(am)
  txt <- format(d)
  expect_match(txt[1], "^<ir_assisted_differences> PPI\\+\\+ decisions; Holm correction")
  lead <- d$table[d$table$method == "ppi++", ]
  marks <- beaten_labels(list(table = lead, means = d$means, scores = d$scores), rownames(d$means)[order(-d$means[, 1])])
  for (s in rownames(marks)) {
    line <- grep(paste0(" ", s, " "), txt, value = TRUE)[1]
    if (nzchar(marks[s, 1])) expect_match(line, paste0("\\^", marks[s, 1]), fixed = FALSE) else expect_false(grepl("\\^", line))
  }
  expect_true(any(grepl("Conclusions:", txt)))
  expect_equal(as.data.frame(d, what = "conclusions"), d$conclusions)
  s <- summary(d)
  expect_equal(sum(s$table$significant[s$table$method == "ppi++"]), sum(lead$significant))
})

test_that("a measure where lower is better names the better system by its direction", {
  cs <- diff_case(5)
  ref <- as_ir_scores(cs$ref, measure = custom_measure("err", function(...) 0, direction = "lower"))
  jud <- as_ir_scores(cs$judge, measure = custom_measure("err", function(...) 0, direction = "lower"))
  d <- assisted_differences(assisted_means(ref, jud))
  lead <- d$table[d$table$method == "ppi++", ]
  want <- ifelse(!lead$significant, "none", ifelse(lead$estimate < 0, "system1", "system2"))
  expect_equal(d$conclusions$assisted, want)
  r <- assisted_ranks(assisted_means(ref, jud))
  expect_equal(r$table$system[1], names(which.min(d$means[, 1])))
})

test_that("rank intervals count the systems significantly better and worse", {
  cs <- diff_case(6, gap = 0.03)
  am <- assisted_means(cs$ref, cs$judge)
  r <- assisted_ranks(am, correction = "bonferroni")
  d <- assisted_differences(am, correction = "bonferroni")
  K <- nrow(cs$ref)
  for (s in rownames(cs$ref)) {
    c1 <- d$conclusions
    better <- sum((c1$system1 == s & c1$assisted == "system2") | (c1$system2 == s & c1$assisted == "system1"))
    worse <- sum((c1$system1 == s & c1$assisted == "system1") | (c1$system2 == s & c1$assisted == "system2"))
    row <- r$table[r$table$system == s, ]
    expect_equal(row$conf.low, 1L + better)
    expect_equal(row$conf.high, K - worse)
    expect_true(row$conf.low <= row$rank && row$rank <= row$conf.high)
  }
  expect_equal(r$table$rank, rank(-r$table$estimate, ties.method = "min"))
  # well separated systems: every rank is sure
  far <- diff_case(7, gap = 0.15, top = 0.25)
  sure <- assisted_ranks(assisted_means(far$ref, far$judge))
  expect_true(all(sure$table$conf.low == sure$table$conf.high))
  expect_equal(summary(sure)$table$sure_of_rank, K)
  b <- ggplot2::ggplot_build(ggplot2::autoplot(r))
  bars <- b$data[[1]]
  expect_equal(sort(bars$xmin), sort(r$table$conf.low))
  expect_equal(sort(bars$xmax), sort(r$table$conf.high))
})

test_that("the differences plot draws every pair and method", {
  cs <- diff_case(8)
  d <- assisted_differences(assisted_means(cs$ref, cs$judge))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(d))
  bars <- b$data[[2]]
  expect_equal(nrow(bars), nrow(d$table))
  expect_equal(sort(bars$xmin), sort(d$table$conf.low), tolerance = 1e-12)
  pts <- b$data[[3]]
  expect_equal(sum(pts$shape == 16), sum(d$table$significant))
})

test_that("beyond 30 pairs the figure draws the changed and most significant ones, and says so", {
  cs <- diff_case(9, systems = 9, gap = 0.02)
  d <- assisted_differences(assisted_means(cs$ref, cs$judge))
  expect_message(p <- ggplot2::autoplot(d), class = "irtopics_message_layout")
  lead <- d$table[d$table$method == "ppi++", ]
  drawn <- levels(ggplot2::ggplot_build(p)$plot$data$pair)
  expect_length(drawn, 30L)
  changed <- d$conclusions$changed_from_judge | d$conclusions$changed_from_human
  want <- paste(lead$system1, "-", lead$system2)[order(!changed, lead$p.value)][1:30]
  expect_setequal(drawn, want)
  p2 <- ggplot2::autoplot(d, pairs = c("s1 - s2", "s3 - s9"))
  expect_setequal(as.character(unique(ggplot2::ggplot_build(p2)$plot$data$pair)), c("s1 - s2", "s3 - s9"))
  expect_error(ggplot2::autoplot(d, pairs = "s1 - s99"), class = "irtopics_error_argument")
})

test_that("the decision table is written for papers as compare_systems() writes it", {
  cs <- diff_case(10)
  d <- assisted_differences(assisted_means(cs$ref, cs$judge))
  tex <- format(d, "latex", caption = "AP", label = "tab:ap")
  expect_true(any(grepl("\\\\begin\\{tabular\\}", tex)))
  expect_true(any(grepl("\\\\label\\{tab:ap\\}", tex)))
  expect_true(any(grepl("$p$ after Holm's correction $< 0.05$", tex, fixed = TRUE)))
  lead <- d$table[d$table$method == "ppi++", ]
  expect_equal(sum(grepl("\\\\textsuperscript", tex)) > 0, any(lead$significant))
  md <- format(d, "markdown")
  expect_match(md[1], "^\\| \\| System \\| ")
  expect_error(format(d, "html"), class = "irtopics_error_argument")
  expect_error(format(d, digits = -1), class = "irtopics_error_argument")
})
