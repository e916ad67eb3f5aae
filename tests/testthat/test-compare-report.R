
test_that("a report of 40 systems prints each system with its scores on one line, marks as ranges", {
  x <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                   measure = "AP")[1:40, ]
  cmp <- compare_systems(x, test = "t")
  withr::local_options(width = 60)
  lines <- format(cmp)
  rows <- lines[grepl("^ *[0-9]+ +sys", lines)]
  expect_length(rows, 40L)
  # every system's line holds its mean
  means <- formatC(cmp$means[, "AP"], digits = 4, format = "f")
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

test_that("means_table() gives the means of an evaluation, a score matrix or a comparison", {
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                   measure = "AP")[1:5, ]
  tab <- means_table(x, "markdown", digits = 3)
  rows <- tab[grepl("^\\| [a-e] \\|", tab)]
  expect_length(rows, 5L)
  means <- formatC(rowMeans(x), digits = 3, format = "f")
  expect_true(all(vapply(seq_along(rows), function(i) grepl(means[i], rows[i], fixed = TRUE), TRUE)))
  expect_false(any(grepl("<sup>", tab)))
  te <- function(f) system.file("extdata", "trec_eval-test", f, package = "irtopics")
  res <- evaluate(te("results.test"), te("qrels.test"), measures = c("AP", "P@10"))
  tex <- means_table(res, "latex", caption = "C", label = "L")
  expect_true(any(grepl("0.1785", tex, fixed = TRUE)))  # trec_eval's MAP of the test run
  expect_true(all(c("\\caption{C}", "\\label{L}") %in% tex))
  expect_error(means_table(list(1)), class = "irtopics_error_argument")
  expect_error(means_table(x, baseline = "nope"), class = "irtopics_error_argument")
})

test_that("means_table() shows intervals as [low, high] or +- half, in every format", {
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv", package = "irtopics"),
                   measure = "AP")[1:4, ]
  ref <- t.test(as.numeric(x[2, ]))$conf.int
  f <- function(v) formatC(v, digits = 3, format = "f")
  md <- means_table(x, "markdown", digits = 3, interval = "t")
  row <- md[grepl(rownames(x)[2], md, fixed = TRUE)]
  expect_match(row, sprintf("[%s, %s]", f(ref[1]), f(ref[2])), fixed = TRUE)
  expect_true(any(grepl("95% t interval, [low, high]", md, fixed = TRUE)))
  tex <- means_table(x, "latex", digits = 3, interval = "t", style = "pm", conf = 0.9)
  worst <- which.min(rowMeans(x))
  ref90 <- t.test(as.numeric(x[worst, ]), conf.level = 0.9)$conf.int
  row <- tex[grepl(paste0(" ", rownames(x)[worst], " "), tex, fixed = TRUE)]
  expect_match(row, sprintf("%s $\\pm$ %s", f(mean(x[worst, ])), f(diff(ref90) / 2)), fixed = TRUE)
  expect_true(any(grepl("90\\% t interval, $\\pm$ half its width", tex, fixed = TRUE)))
  plain <- means_table(x, interval = "percentile", B = 200, seed = 3)
  ci <- mean_intervals(x, interval = "percentile", B = 200, seed = 3)
  expect_match(plain[grepl(rownames(x)[1], plain)], sprintf("[%s, %s]",
               formatC(ci$table$conf.low[1], digits = 4, format = "f"),
               formatC(ci$table$conf.high[1], digits = 4, format = "f")), fixed = TRUE)
  expect_true(any(grepl("B = 200, seed = 3", plain, fixed = TRUE)))
  # an ir_mean_intervals object is shown as it is
  expect_identical(means_table(ci), plain)
  # without an interval the table is unchanged
  expect_false(any(grepl("[", means_table(x), fixed = TRUE)))
  expect_error(means_table(x, interval = "z"), class = "irtopics_error_argument")
  expect_error(means_table(x, style = "z", interval = "t"), class = "irtopics_error_argument")
})

test_that("LaTeX tables escape names and captions, and compile with pdflatex", {
  specials <- c("a^b", "c{d}", "e~f", "g\\h", "i%j", "k_l", "m&n", "o#p", "q$r")
  withr::local_seed(1)
  x <- matrix(round(runif(9 * 6), 3), 9, dimnames = list(specials, paste0("t", 1:6)))
  x <- as_ir_scores(x, measure = "P_10 & more")
  tex <- means_table(x, "latex", caption = "Means_1 & 50% of {x} ~ y^2 $z$ #1 \\o", label = "tab:a_b",
                     interval = "t")
  expect_true(all(c("a\\textasciicircum{}b", "c\\{d\\}", "e\\textasciitilde{}f", "g\\textbackslash{}h",
                    "i\\%j", "k\\_l", "m\\&n", "o\\#p", "q\\$r") %in%
                    sub("^[a-z] & ([^ ]+) & .*", "\\1", tex[grepl("^[a-z] & ", tex)])))
  expect_true(paste0("\\caption{Means\\_1 \\& 50\\% of \\{x\\} \\textasciitilde{} y\\textasciicircum{}2 ",
                     "\\$z\\$ \\#1 \\textbackslash{}o}") %in% tex)
  expect_true("\\label{tab:a_b}" %in% tex)
  expect_true(any(grepl("P\\_10 \\& more", tex, fixed = TRUE)))
  expect_identical(irtopics:::latex_escape("\\{}"), "\\textbackslash{}\\{\\}")
  # .ci/run installs pdflatex: there its absence is a failure, not a skip
  if (identical(Sys.getenv("CI"), "true")) expect_true(nzchar(Sys.which("pdflatex")))
  skip_if(!nzchar(Sys.which("pdflatex")), "pdflatex is not installed")
  dir <- withr::local_tempdir()
  cmp <- compare_systems(x[1:4, ], correction = "none")
  doc <- c("\\documentclass{article}", "\\usepackage{booktabs}", "\\begin{document}", tex,
           format(cmp, "latex", caption = "A & B_1", intervals = mean_intervals(cmp, interval = "bca", B = 200, seed = 1)),
           means_table(x, "latex", interval = "t", style = "pm", booktabs = FALSE), "\\end{document}")
  writeLines(doc, file.path(dir, "t.tex"))
  out <- withr::with_dir(dir, system2("pdflatex", c("-interaction=nonstopmode", "-halt-on-error", "t.tex"),
                                      stdout = TRUE, stderr = TRUE))
  expect_null(attr(out, "status"))
  expect_true(file.exists(file.path(dir, "t.pdf")))
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
