test_that("means_table() gives the means of an evaluation, a score matrix or a comparison", {
  x <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                   measure = "AP")[1:5, ]
  tab <- means_table(x, "markdown", digits = 3)
  rows <- tab[grepl("^\\| [a-e] \\|", tab)]
  expect_length(rows, 5L)
  # by decreasing mean (order_by = 1, the first measure)
  means <- formatC(sort(rowMeans(x), decreasing = TRUE), digits = 3, format = "f")
  expect_true(all(vapply(seq_along(rows), function(i) grepl(means[i], rows[i], fixed = TRUE), TRUE)))
  expect_false(any(grepl("<sup>", tab)))
  te <- function(f) system.file("extdata", "trec_eval-test", f, package = "irtopics")
  res <- evaluate(te("results.test"), te("qrels.test"), measures = c("AP", "P@10"))
  tex <- means_table(res, "latex", caption = "C", label = "L")
  # trec_eval's MAP of the test run, split at the point for decimal alignment
  expect_true(any(grepl("0} & \\textbf{.1785}", tex, fixed = TRUE)))
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
  # integer part, point and decimals, interval: three columns
  m <- split_decimal(f(mean(x[worst, ])))
  expect_match(row, sprintf("%s & %s & $\\pm$ %s", m$int, m$frac, f(diff(ref90) / 2)), fixed = TRUE)
  expect_true(any(grepl("{tabular}{llr@{}l@{\\ }l}", tex, fixed = TRUE)))
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

test_that("rows are ordered by the first measure, another measure, the user's order or the scores'", {
  # (too wide for a column: that warning is tested in test-utils-latex-width.R)
  withr::local_options(irtopics.latex_width = c(table = Inf, `table*` = Inf))
  ev <- three_measures()
  cmp <- compare_systems(ev)
  shown <- function(lines) sub("^[a-q] & (.*?) & .*", "\\1", grep("^[a-q] & ", lines, value = TRUE), perl = TRUE)
  by_ap <- rownames(ev$AP)[order(-rowMeans(ev$AP))]
  expect_identical(shown(format(cmp, "latex")), latex_escape(by_ap))
  expect_identical(shown(means_table(ev, "latex")), latex_escape(by_ap))
  by_p10 <- rownames(ev$AP)[order(-rowMeans(ev$`P@10`))]
  expect_identical(shown(format(cmp, "latex", order_by = "P@10")), latex_escape(by_p10))
  expect_identical(shown(means_table(ev, "latex", order_by = 2)), latex_escape(by_p10))
  mine <- rev(rownames(ev$AP))
  expect_identical(shown(format(cmp, "latex", order_by = mine)), latex_escape(mine))
  expect_identical(shown(means_table(ev, "latex", order_by = NULL)), latex_escape(rownames(ev$AP)))
  # the labels follow the order shown: the first row is a, and a mark names rows below
  first <- grep("^a & ", format(cmp, "latex"), value = TRUE)
  expect_true(startsWith(first, paste0("a & ", latex_escape(by_ap[1]), " & ")))
  for (bad in list("MAP", 4, c("run_1", "run_2"), c(mine[-1], mine[1], mine[1]), NA, TRUE)) {
    expect_error(format(cmp, order_by = bad), class = "irtopics_error_argument", regexp = "order_by")
    expect_error(means_table(ev, order_by = bad), class = "irtopics_error_argument", regexp = "order_by")
  }
})

test_that("the legend says p after the correction < alpha in math, never p.adjusted", {
  x <- real_scores("robust2004_ap.csv")[1:5, ]
  cases <- list(list(correction = "holm", words = "$p$ after Holm's correction $< 0.05$"),
                list(correction = "bonferroni", words = "$p$ after Bonferroni's correction $< 0.05$"),
                list(correction = "BH", words = "$p$ after the Benjamini-Hochberg correction $< 0.05$"),
                list(correction = "none", words = "($p$ $< 0.05$)"))
  for (case in cases) {
    tex <- format(compare_systems(x, correction = case$correction), "latex")
    expect_true(any(grepl(case$words, tex, fixed = TRUE)), label = case$correction)
    expect_false(any(grepl("p.adjusted", tex, fixed = TRUE)))
  }
  tk <- compare_systems(x, test = "tukey", alpha = 0.01)
  tex <- format(tk, "latex")
  expect_true(any(grepl("$p$ of the Tukey HSD (blocked) $< 0.01$", tex, fixed = TRUE)))
  expect_true(any(grepl("$\\alpha = 0.01$", tex, fixed = TRUE)))
  expect_true(any(grepl("5 systems $\\times$ 249 topics", tex, fixed = TRUE)))
  # no < or > as text anywhere: outside math they print as inverted ! and ? under OT1
  outside_math <- gsub("\\$[^$]*\\$", "", gsub("\\\\\\$", "", tex))
  expect_false(any(grepl("[<>]", outside_math)))
  md <- format(tk, "markdown")
  expect_true(any(grepl("*p* of the Tukey HSD (blocked) < 0.01", md, fixed = TRUE)))
  expect_true(any(grepl("\u03b1 = 0.01", md, fixed = TRUE)))
  expect_match(format(tk)[length(format(tk))], "(p of the Tukey HSD (blocked) < 0.01)", fixed = TRUE)
})

test_that("captions are escaped unless I(); names are always escaped", {
  x <- real_scores("robust2004_ap.csv")[1:3, ]
  rownames(x) <- c("a_b", "50%", "x<y")
  cap <- "5% better_than & #1 $x$"
  tex <- means_table(x, "latex", caption = cap)
  expect_true("\\caption{5\\% better\\_than \\& \\#1 \\$x\\$}" %in% tex)
  expect_true("\\caption{MAP, $\\alpha = 0.01$}" %in% means_table(x, "latex", caption = I("MAP, $\\alpha = 0.01$")))
  expect_true(all(c("a\\_b", "50\\%", "x\\textless{}y") %in% sub("^[a-c] & (.*?) & .*", "\\1",
                                                                     grep("^[a-c] & ", tex, value = TRUE), perl = TRUE)))
  md <- means_table(x, "markdown", caption = "P_10 *all*")
  expect_true("Table: P\\_10 \\*all\\*" %in% md)
  expect_true("Table: P_10 *all*" %in% means_table(x, "markdown", caption = I("P_10 *all*")))
  cmp <- compare_systems(x, correction = "none")
  expect_true("\\caption{5\\% better\\_than \\& \\#1 \\$x\\$}" %in% format(cmp, "latex", caption = cap))
  expect_true("\\caption{$x$}" %in% format(cmp, "latex", caption = I("$x$")))
})

test_that("numbers line up on the decimal point whatever the marks (r@{}l columns)", {
  withr::local_options(irtopics.latex_width = c(table = Inf, `table*` = Inf))  # (width: test-utils-latex-width.R)
  cmp <- compare_systems(three_measures())
  tex <- format(cmp, "latex")
  expect_true(any(grepl("\\begin{tabular}{llr@{}lr@{}lr@{}l}", tex, fixed = TRUE)))
  expect_true(any(grepl("& \\multicolumn{2}{c}{AP} &", tex, fixed = TRUE)))
  rows <- strsplit(grep("^[a-q] & ", tex, value = TRUE), " & ", fixed = TRUE)
  cells <- do.call(rbind, lapply(rows, function(r) sub(" \\\\\\\\$", "", r)))
  int <- cells[, c(3, 5, 7)]
  frac <- cells[, c(4, 6, 8)]
  expect_true(all(grepl("^(\\\\textbf\\{)?0\\}?$", int)))
  expect_true(all(grepl("^(\\\\textbf\\{)?\\.[0-9]{4}", frac)))
  # the marks are where the issue had them, after the number, of different lengths
  marks <- sub("^.*textsuperscript\\{(.*)\\}$", "\\1", grep("textsuperscript", frac, value = TRUE))
  expect_gt(length(unique(nchar(marks))), 2L)
  # compact: runs of three or more letters as ranges, with an en dash
  expect_identical(letter_ranges(letters[c(1, 3, 4, 5, 6, 8, 10, 11)], c(1, 3, 4, 5, 6, 8, 10, 11)), "ac-fhjk")
  expect_true(any(grepl("\\textsuperscript{n--q}", format(cmp, "latex", compact = TRUE), fixed = TRUE)))
  expect_true(any(grepl("<sup>n\u2013q</sup>", format(cmp, "markdown", compact = TRUE), fixed = TRUE)))
  skip_without_tool("pdflatex")
  skip_without_tool("pdftotext")
  out <- compile_latex(tex, twocolumn = FALSE)
  expect_true(out$ok)
  words <- pdf_words(out$pdf)
  ap <- formatC(cmp$means[, "AP"], digits = 4, format = "f")
  w <- words[words$word %in% ap, ]
  expect_identical(nrow(w), 17L)
  best <- w$word == ap[which.max(cmp$means[, "AP"])]
  # the plain numbers start at one x, marks or not; the bold one within the
  # extra width of a bold "0" (right-aligned with its marks it was 10 pt off)
  expect_lt(diff(range(w$x_min[!best])), 0.05)
  expect_lt(abs(w$x_min[best] - w$x_min[!best][1]), 1.2)
})

test_that("LaTeX tables compile with pdflatex in one and two columns, and fit with the width options", {
  specials <- c("a^b", "c{d}", "e~f", "g\\h", "i%j", "k_l", "m&n", "o#p", "q$r", "s<t")
  withr::local_seed(1)
  x <- matrix(round(runif(10 * 6), 3), 10, dimnames = list(specials, paste0("t", 1:6)))
  x <- as_ir_scores(x, measure = "P_10 & more")
  tex <- means_table(x, "latex", caption = "Means_1 & 50% of {x} ~ y^2 $z$ #1 \\o", label = "tab:a_b",
                     interval = "t")
  expect_true(all(c("a\\textasciicircum{}b", "c\\{d\\}", "e\\textasciitilde{}f", "g\\textbackslash{}h",
                    "i\\%j", "k\\_l", "m\\&n", "o\\#p", "q\\$r", "s\\textless{}t") %in%
                    sub("^[a-z] & ([^ ]+) & .*", "\\1", tex[grepl("^[a-z] & ", tex)])))
  expect_true(paste0("\\caption{Means\\_1 \\& 50\\% of \\{x\\} \\textasciitilde{} y\\textasciicircum{}2 ",
                     "\\$z\\$ \\#1 \\textbackslash{}o}") %in% tex)
  expect_true("\\label{tab:a_b}" %in% tex)
  expect_true(any(grepl("P\\_10 \\& more", tex, fixed = TRUE)))
  skip_without_tool("pdflatex")
  cmp <- compare_systems(x[1:4, ], correction = "holm")
  body <- c(tex, format(cmp, "latex", caption = "A & B_1 % #2 $",
                        intervals = mean_intervals(cmp, interval = "bca", B = 200, seed = 1)),
            means_table(x, "latex", interval = "t", style = "pm", booktabs = FALSE))
  for (twocolumn in c(FALSE, TRUE)) {
    out <- compile_latex(body, twocolumn = twocolumn)
    expect_true(out$ok, label = paste("compiles, twocolumn =", twocolumn))
  }
  # without booktabs nothing but LaTeX itself is needed
  expect_true(compile_latex(means_table(x, "latex", booktabs = FALSE), packages = NULL)$ok)
  skip_without_tool("pdftotext")
  text <- pdf_text(out$pdf)
  expect_match(text, "correction < 0.05", fixed = TRUE)
  expect_match(text, "s<t", fixed = TRUE)
  # (under OT1 an escaped _ is drawn as a rule, which pdftotext reads as a space)
  expect_match(text, "A & B 1 % #2 $", fixed = TRUE)
  expect_false(grepl("\u00a1", text, fixed = TRUE))
  # width: three measures of 17 systems overfill one column of a two-column
  # page; table*, or size and compact, make them fit
  cmp3 <- compare_systems(three_measures())
  expect_warning(wide <- format(cmp3, "latex"), class = "irtopics_warning_width")
  too_wide <- compile_latex(wide, twocolumn = TRUE)
  expect_true(too_wide$ok)
  expect_length(too_wide$overfull, 1L)
  page <- compile_latex(format(cmp3, "latex", environment = "table*"), twocolumn = TRUE)
  expect_true(page$ok)
  expect_length(page$overfull, 0L)
  column <- compile_latex(format(cmp3, "latex", size = "small", compact = TRUE), twocolumn = TRUE)
  expect_true(column$ok)
  expect_length(column$overfull, 0L)
  column3 <- compile_latex(means_table(three_measures(), "latex", interval = "t", style = "pm", digits = 2,
                                       size = "scriptsize", compact = TRUE), twocolumn = TRUE)
  expect_true(column3$ok)
})

test_that("the width options are checked and written", {
  x <- real_scores("robust2004_ap.csv")[1:3, ]
  tex <- means_table(x, "latex", environment = "table*", size = "footnotesize", compact = TRUE)
  expect_identical(c(tex[1], tex[length(tex)]), c("\\begin{table*}[t]", "\\end{table*}"))
  expect_true(all(c("\\footnotesize", "\\setlength{\\tabcolsep}{3pt}") %in% tex))
  # the legend is never larger than the table, nor than footnotesize
  expect_true(any(grepl("^\\\\par\\\\smallskip\\{\\\\footnotesize", tex)))
  expect_true(any(grepl("^\\\\par\\\\smallskip\\{\\\\scriptsize", means_table(x, "latex", size = "scriptsize"))))
  expect_false(any(grepl("tabcolsep|\\\\small$", means_table(x, "latex"))))
  cmp <- compare_systems(x)
  for (bad in list("figure", NA, 1)) {
    expect_error(means_table(x, "latex", environment = bad), class = "irtopics_error_argument", regexp = "environment")
    expect_error(format(cmp, "latex", size = bad), class = "irtopics_error_argument", regexp = "size")
  }
  expect_error(format(cmp, "latex", compact = NA), class = "irtopics_error_argument", regexp = "compact")
  expect_error(means_table(x, compact = "yes"), class = "irtopics_error_argument", regexp = "compact")
})

test_that("means_table() orders and marks the best by the measure's direction and shows its aggregate (issue 40)", {
  err <- error_matrix()
  plain <- means_table(err)
  expect_match(plain[3], "sysF +0\\.[0-9]+\\*")  # the lowest error first, marked best
  expect_identical(sub("^ *[a-z] +(sys[A-F]).*", "\\1", plain[3:8]), paste0("sys", LETTERS[6:1]))
  tex <- means_table(err, "latex")
  expect_match(tex[grepl("sysF", tex)], "\\textbf{", fixed = TRUE)
  expect_false(any(grepl("\\textbf{", tex[grepl("sysA", tex)], fixed = TRUE)))
  # an evaluation's gm_map: the geometric mean, and the legend says so
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("AP", "gm_map"))
  out <- means_table(res)
  expect_match(out[3], sprintf("%.4f", mean_scores(res)$gm_map), fixed = TRUE)
  expect_match(out[4], "gm_map: geometric means", fixed = TRUE)
  ci <- means_table(res, interval = "t")
  expect_match(ci[3], sprintf("%.4f", mean_scores(res)$gm_map), fixed = TRUE)
  expect_match(ci[4], "gm_map: geometric means", fixed = TRUE)
  # a comparison's means are arithmetic: the column says so
  ap <- robust()[1:4, ]
  cmp <- compare_systems(as_ir_scores(ap, measure = "gm_map"))
  out <- means_table(cmp)
  expect_match(out[2], "gm_map (mean)", fixed = TRUE)
  expect_match(out[length(out)], "gm_map (mean): the arithmetic mean of the per-topic values", fixed = TRUE)
})
