test_that("latex_escape() escapes the twelve characters LaTeX reads specially, one by one", {
  expect_identical(latex_escape(c("\\{}", "a^b~c", "_&%#$", "x<y>z", "plain")),
                   c("\\textbackslash{}\\{\\}", "a\\textasciicircum{}b\\textasciitilde{}c",
                     "\\_\\&\\%\\#\\$", "x\\textless{}y\\textgreater{}z", "plain"))
  expect_identical(markdown_escape("a|b*c_d\\e"), "a\\|b\\*c\\_d\\\\e")
})

test_that("table_text() escapes plain pieces and passes I() pieces and symbols as they are", {
  expect_identical(table_text("latex", "5% of ", table_symbol("alpha", "latex"), " & ", I("$x_1$")),
                   "5\\% of $\\alpha$ \\& $x_1$")
  expect_identical(table_text("markdown", "a_b ", table_symbol("times", "markdown")), "a\\_b \u00d7")
  expect_identical(table_text("plain", "a_b ", table_symbol("lt", "plain"), " 1"), "a_b < 1")
  # every symbol exists in every format, as math in LaTeX
  for (s in names(table_symbols)) {
    expect_true(all(c("plain", "latex", "markdown") %in% names(table_symbols[[s]])))
    expect_match(table_symbols[[s]][["latex"]], "^\\$.*\\$$")
    expect_true(all(utf8ToInt(table_symbols[[s]][["plain"]]) < 128L))
  }
  expect_identical(unclass(table_relation("alpha", "=", 0.05, "latex")), "$\\alpha = 0.05$")
  expect_identical(unclass(table_relation(NULL, "lt", 0.05, "latex")), "$< 0.05$")
  expect_identical(unclass(table_relation("alpha", "=", 0.05, "plain")), "alpha = 0.05")
  expect_identical(unclass(table_relation(NULL, "lt", 0.05, "markdown")), "< 0.05")
  expect_null(table_caption(NULL, "latex"))
  expect_identical(table_caption("50%", "latex"), "50\\%")
  expect_identical(table_caption(I("$50\\%$"), "latex"), "$50\\%$")
})

test_that("split_decimal() splits at the point for r@{}l columns", {
  expect_identical(split_decimal(c("0.3172", "-1.50", "12", "NA")),
                   list(int = c("0", "-1", "12", "NA"), frac = c(".3172", ".50", "", "")))
})

test_that("latex_table() writes one float: caption, label, size, columns, rules, legend", {
  body <- matrix(c("a", "b", "1", "2"), 2)
  tex <- latex_table(c("x", "y"), body, "lr", caption = "C", label = "tab:c", note = "N.",
                     environment = "table*", size = "small", compact = TRUE)
  expect_identical(tex, c("\\begin{table*}[t]", "\\centering", "\\caption{C}", "\\label{tab:c}", "\\smallskip",
                          "\\small",
                          "\\setlength{\\tabcolsep}{3pt}", "\\begin{tabular}{lr}", "\\toprule", "x & y \\\\",
                          "\\midrule", "a & 1 \\\\", "b & 2 \\\\", "\\bottomrule", "\\end{tabular}",
                          "\\par\\smallskip{\\footnotesize\\raggedright N.\\par}", "\\end{table*}"))
  plain <- latex_table(c("x", "y"), body, "lr", booktabs = FALSE)
  expect_identical(sum(plain == "\\hline"), 3L)
  expect_false(any(grepl("caption|label|tabcolsep|smallskip", plain)))
  skip_without_tool("pdflatex")
  expect_true(compile_latex(tex, twocolumn = TRUE)$ok)
})
