# The width of a LaTeX table before it is compiled, and the warning when it
# will not fit (R/utils-latex-width.R, issue 40).

width_warning <- "irtopics_warning_width"

test_that("the width of a small table, by hand from Computer Modern's widths", {
  fonts <- irtopics:::latex_size_fonts$normalsize
  # cmr10: a 5, b 5.5556, digits 5, . 2.7778; cmbx10 digits 5.75; cmr7 (superscripts) b 4.4167
  expect_equal(irtopics:::latex_text_width("ab", fonts), 10.5556, tolerance = 1e-4)
  expect_equal(irtopics:::latex_text_width("\\textbf{0}", fonts), 5.75, tolerance = 1e-4)
  expect_equal(irtopics:::latex_text_width("k\\_l", fonts), 5.2778 + 3.6 + 2.7778, tolerance = 1e-4)
  # a superscript is set in cmr7, and TeX puts \scriptspace (0.5pt) after it
  expect_equal(irtopics:::latex_text_width("0\\textsuperscript{b}", fonts), 5 + 4.4167 + 0.5, tolerance = 1e-4)
  # tabular{llr@{}l}: columns a | ab, widened by the header System (S y s t e m: 31.4445) |
  # 0 | .50; \tabcolsep 6pt on both sides of the l columns, outside of the r@{}l pair:
  # 5 + 31.4445 + 5 + 12.7778 + 6 * 6
  head <- c("", "System", "\\multicolumn{2}{c}{AP}")
  body <- matrix(c("a", "ab", "0", ".50"), 1)
  expect_equal(irtopics:::latex_table_width(head, body, "llr@{}l"), 90.2223, tolerance = 1e-4)
  expect_equal(irtopics:::latex_table_width(head, body, "llr@{}l", compact = TRUE), 90.2223 - 18, tolerance = 1e-4)
  # a header wider than its two columns widens the second: nDCG@10 is 46.0417 + 2 * 6
  wide <- irtopics:::latex_table_width(c("", "System", "\\multicolumn{2}{c}{nDCG@10}"), body, "llr@{}l")
  expect_equal(wide, 90.2223 + (46.0417 + 12) - (6 + 5 + 12.7778 + 6), tolerance = 1e-4)
  # an interval column after @{\ }: the space (3.3333) and [0.1, 0.2] (5 * 5 + 2 * 2.7778 + 2 * 2.7778
  # for the brackets + 2.7778 for the comma + 3.3333 for the space)
  ci <- irtopics:::latex_table_width(head, cbind(body, "[0.1, 0.2]"), "llr@{}l@{\\ }l")
  expect_equal(ci - 90.2223, 3.3333 + 5 * 4 + 2.7778 * 2 + 2.7778 * 2 + 2.7778 + 3.3333, tolerance = 1e-4)
  # compact marks: three or more consecutive letters as a range
  expect_identical(irtopics:::latex_compact_marks(c(".5\\textsuperscript{bcdef}", ".4\\textsuperscript{bd}")),
                   c(".5\\textsuperscript{b--f}", ".4\\textsuperscript{bd}"))
})

test_that("the estimate equals pdflatex's width of the tabular within a point", {
  skip_without_tool("pdflatex")
  x <- three_measures()
  cmp <- compare_systems(x)
  # the tabular of the lines, typeset alone in a box (lines joined by % so
  # that no space is added), its width read from the log
  tex_width <- function(lines) {
    i <- grep("^\\\\begin\\{tabular\\}", lines)
    j <- grep("^\\\\end\\{tabular\\}", lines)
    setup <- grep("^\\\\(small|footnotesize|scriptsize|setlength)", lines[seq_len(i - 1L)], value = TRUE)
    box <- paste0("\\setbox0\\hbox{", paste(c(setup, lines[i:j]), collapse = "%\n"), "}\\typeout{TABLE-WIDTH=\\the\\wd0}")
    out <- compile_latex(box)
    as.numeric(sub("pt$", "", sub("^TABLE-WIDTH=", "", grep("^TABLE-WIDTH=", out$log, value = TRUE))))
  }
  # latex_table()'s estimate: the warning's field `width` (every table warns on a 1pt page)
  estimate <- function(lines) {
    withr::local_options(irtopics.latex_width = c(table = 1, `table*` = 1))
    cnd <- tryCatch(lines, irtopics_warning_width = identity)
    cnd$width
  }
  quiet <- function(expr) suppressWarnings(expr, classes = width_warning)
  cases <- list(
    quote(format(cmp, "latex")),
    quote(format(cmp, "latex", size = "small", compact = TRUE)),
    quote(format(cmp, "latex", size = "footnotesize")),
    quote(means_table(x, "latex")),
    quote(means_table(x, "latex", interval = "t", digits = 3, size = "scriptsize")),
    quote(means_table(x, "latex", interval = "t", style = "pm", compact = TRUE))
  )
  for (cs in cases) {
    lines <- quiet(eval(cs))
    est <- estimate(eval(cs))
    expect_lt(abs(est - tex_width(lines)), 1, label = deparse(cs))
  }
})

test_that("a table too wide for its page warns and names the option that fits", {
  cmp <- compare_systems(three_measures())
  # 3 measures of 17 systems with their marks: about 316pt, a column is 229.5pt
  expect_warning(format(cmp, "latex"), "size = \"small\", compact = TRUE", class = width_warning)
  expect_no_warning(format(cmp, "latex", size = "small", compact = TRUE))
  expect_no_warning(format(cmp, "latex", environment = "table*"))
  # only narrower layouts than the one asked for are proposed
  expect_warning(format(cmp, "latex", compact = TRUE), "With size = \"small\" it", class = width_warning)
  # the means with BCa intervals fit no column: the page
  x <- three_measures()
  expect_warning(means_table(x, "latex", interval = "t"), "environment = \"table\\*\"", class = width_warning)
  # nothing fits: eight measures with intervals even in table*, scriptsize, compact
  many <- rep(unclass(x), 3)[1:8]
  names(many) <- paste0("measure_", 1:8)
  many <- irtopics:::new_ir_evaluation(structure(many, missing = "drop", judged_only = FALSE, depth = 1000,
                                                 canonical = names(many)))
  expect_warning(means_table(many, "latex", interval = "t", environment = "table*", size = "scriptsize",
                             compact = TRUE), "No size, compact or environment option", class = width_warning)
  # plain and markdown tables have no page
  expect_no_warning(format(cmp))
  expect_no_warning(format(cmp, "markdown"))
  # the column width is an option: a one-column article's 345pt
  withr::local_options(irtopics.latex_width = 345)
  expect_no_warning(means_table(x, "latex"))
  expect_no_warning(format(cmp, "latex"))
  expect_warning(means_table(x, "latex", interval = "t"), "wider than one column \\(345pt\\)", class = width_warning)
  withr::local_options(irtopics.latex_width = "wide")
  expect_error(means_table(x, "latex"), "irtopics.latex_width", class = "irtopics_error_argument")
})
