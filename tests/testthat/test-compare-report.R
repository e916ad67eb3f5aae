
test_that("a report of 40 systems prints each system with its scores on one line, marks as ranges", {
  x <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                   measure = "AP")[1:40, ]
  cmp <- compare_systems(x, test = "t")
  withr::local_options(width = 60)
  lines <- format(cmp)
  rows <- lines[grepl("^ *[0-9]+ +sys", lines)]
  expect_length(rows, 40L)
  # every system's line holds its mean, by decreasing mean (the default order_by = 1)
  ranked <- order(-rowMeans(x))
  expect_identical(sub("^ *[0-9]+ +(sys[0-9]+) .*", "\\1", rows), rownames(x)[ranked])
  means <- formatC(cmp$means[ranked, "AP"], digits = 4, format = "f")
  expect_true(all(vapply(seq_along(rows), function(i) grepl(means[i], rows[i], fixed = TRUE), TRUE)))
  expect_identical(irtopics:::number_ranges(c(1L, 3L, 4L, 5L, 7L, 9L, 10L)), "1,3-5,7,9,10")
  expect_identical(irtopics:::number_ranges(5L), "5")
  # the ranges name the same systems as the table's significant pairs
  tab <- cmp$table[cmp$table$significant, ]
  winner <- ifelse(tab$estimate > 0, tab$system1, tab$system2)
  loser <- ifelse(tab$estimate > 0, tab$system2, tab$system1)
  beaten <- sort(match(loser[winner == "sys2"], rownames(x)))
  expect_identical(irtopics:::beaten_labels(cmp)["sys2", "AP"], irtopics:::number_ranges(beaten))
})

test_that("the LaTeX and markdown reports carry caption, label, rules, order, baseline and legend", {
  x <- rbind(a = c(.7, .3, .2, .6, .4, .5, .8, .3), b = c(.5, .1, 0, .2, .4, .3, .6, .1),
             c = c(0, 0, .2, .1, .3, .2, .1, 0), d = c(.9, .5, .4, .8, .6, .7, .9, .5))
  colnames(x) <- paste0("t", 1:8)
  cmp <- compare_systems(x, correction = "none")
  tex <- format(cmp, "latex", caption = "Mean scores.", label = "tab:x")
  expect_identical(tex[1], "\\begin{table}[t]")
  expect_identical(tex[length(tex)], "\\end{table}")
  expect_true(all(c("\\caption{Mean scores.}", "\\label{tab:x}", "\\toprule", "\\midrule", "\\bottomrule") %in% tex))
  # the legend is inside the float, as text (not a % comment)
  legend <- tex[grepl("footnotesize", tex)]
  expect_length(legend, 1L)
  expect_match(legend, "superscript marks the systems", fixed = TRUE)
  expect_false(any(startsWith(tex, "%")))
  expect_true(which(grepl("footnotesize", tex)) < length(tex))
  plain_rules <- format(cmp, "latex", booktabs = FALSE)
  expect_false(any(grepl("toprule", plain_rules)))
  expect_true(sum(plain_rules == "\\hline") == 3L)
  # ordered by the measure: d (highest mean) first, and labels follow the order shown
  md <- format(cmp, "markdown", order_by = "score", caption = "Cap", label = "tbl:x")
  rows <- md[grepl("^\\| [a-d] \\|", md)]
  expect_identical(sub("^\\| [a-d] \\| ([a-d]) .*", "\\1", rows), rownames(x)[order(-rowMeans(x))])
  expect_match(rows[1], "^\\| a \\| d \\| \\*\\*")  # best mean first, in bold, label a
  expect_true("Table: Cap {#tbl:x}" %in% md)
  expect_error(format(cmp, "latex", order_by = "AP"), class = "irtopics_error_argument")
  # the baseline is marked
  cb <- compare_systems(x, baseline = "b", correction = "none")
  expect_true(any(grepl("b (baseline)", format(cb, "latex"), fixed = TRUE)))
  expect_true(any(grepl("b (baseline)", format(cb), fixed = TRUE)))
})

test_that("the comparison report shows the intervals of mean_intervals()", {
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                   measure = "AP")[1:4, ]
  cmp <- compare_systems(x, test = "t")
  ci <- mean_intervals(cmp)
  md <- format(cmp, "markdown", intervals = ci, digits = 3)
  ref <- t.test(as.numeric(x[3, ]))$conf.int
  row <- md[grepl(paste0(" ", rownames(x)[3], " "), md, fixed = TRUE)]
  expect_match(row, sprintf("[%s, %s]", formatC(ref[1], digits = 3, format = "f"),
                            formatC(ref[2], digits = 3, format = "f")), fixed = TRUE)
  expect_true(any(grepl("Each mean with its 95% t interval", md, fixed = TRUE)))
  # without intervals the report is unchanged
  expect_false(any(grepl("[", format(cmp, "markdown"), fixed = TRUE)))
  expect_error(format(cmp, intervals = "t"), class = "irtopics_error_argument")
  expect_error(format(cmp, intervals = mean_intervals(x[1:3, ])), class = "irtopics_error_argument")
})

test_that("the layout arguments of the reports are checked (issue 29: digits, booktabs, caption, label)", {
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                   measure = "AP")[1:4, ]
  cmp <- compare_systems(x, test = "t")
  for (fmt in c("plain", "latex", "markdown")) {
    for (bad in list(NA, "3", 2.5, -1, 16, c(2, 3), NULL)) {
      expect_error(format(cmp, fmt, digits = bad), class = "irtopics_error_argument", regexp = "digits")
      expect_error(means_table(x, fmt, digits = bad), class = "irtopics_error_argument", regexp = "digits")
    }
    for (bad in list(NA, "yes", c(TRUE, FALSE), 1, NULL)) {
      expect_error(format(cmp, fmt, booktabs = bad), class = "irtopics_error_argument", regexp = "booktabs")
      expect_error(means_table(x, fmt, booktabs = bad), class = "irtopics_error_argument", regexp = "booktabs")
    }
    for (bad in list(NA, NA_character_, c("a", "b"), 1, character())) {
      expect_error(format(cmp, fmt, caption = bad), class = "irtopics_error_argument", regexp = "caption")
      expect_error(means_table(x, fmt, label = bad), class = "irtopics_error_argument", regexp = "label")
    }
  }
  expect_error(print(cmp, digits = "3"), class = "irtopics_error_argument")
  # whole numbers as doubles are fine, and give that many decimals
  expect_true(any(grepl(formatC(mean(x[1, ]), digits = 2, format = "f"), format(cmp, digits = 2), fixed = TRUE)))
  expect_true(any(grepl(formatC(mean(x[1, ]), digits = 0, format = "f"), format(cmp, "latex", digits = 0L),
                        fixed = TRUE)))
})

test_that("the report orders, marks and labels by the measure's record (issue 40)", {
  err <- error_matrix()
  cmp <- compare_systems(err, correction = "none")
  neg <- compare_systems(negated(err), correction = "none")
  # the lower error rate is the better system: the same marks as the negated scores
  expect_identical(unname_cols(beaten_labels(cmp, rownames(err))), unname_cols(beaten_labels(neg, rownames(err))))
  expect_match(beaten_labels(cmp, rownames(err))["sysF", 1], "a")
  out <- format(cmp)
  expect_match(out[3], "sysF", fixed = TRUE)  # best first
  expect_match(out[3], "*", fixed = TRUE)
  s <- summary(cmp)$systems
  expect_identical(s$better_than, summary(neg)$systems$better_than)
  # gm_map's means are arithmetic here: labelled, and said in the legend
  gm <- compare_systems(as_ir_scores(robust()[1:4, ], measure = "gm_map"))
  out <- format(gm)
  expect_match(out[2], "gm_map (mean)", fixed = TRUE)
  expect_match(out[length(out)], "the arithmetic mean of the per-topic values, which the tests compare",
               fixed = TRUE)
  expect_match(format(gm, "latex"), "gm\\_map (mean)", fixed = TRUE, all = FALSE)
})
