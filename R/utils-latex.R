# Tables for papers: the one writer of LaTeX tables, and the text rules every
# table of the package follows (the comparison report and means_table() in
# R/compare-report.R, the intervals of R/compare-means.R).
# * Text arguments (a caption) are plain text, escaped for the format; a
#   string wrapped in I() is LaTeX (or markdown) written on purpose and passed
#   as it is. Names of systems and measures are data: always escaped.
# * Symbols are math in LaTeX ($p$, $\alpha$, $<$, $\times$, $\pm$), Unicode in
#   markdown and ASCII in plain text; never R names (p.adjusted). Under
#   pdflatex's default OT1 encoding a "<" typed as text prints as an inverted
#   exclamation mark, so no table writes one outside math.
# * Numbers line up on the decimal point: each number column is two, "r@{}l",
#   the integer part right-aligned and the point, decimals and marks
#   left-aligned, so bold numbers and superscripts of any length do not move
#   the point (no LaTeX package needed).
# * Width: `environment = "table*"` spans both columns of a two-column page;
#   `size` and `compact` (half the column separation) shrink a table to fit
#   one column; a table estimated wider than its page warns and names the
#   option that fits (R/utils-latex-width.R).

# Text for LaTeX: the ten characters with a meaning in LaTeX escaped one by
# one (a backslash becomes \textbackslash{}, whose braces are not escaped
# again).
latex_specials <- c(`\\` = "\\textbackslash{}", `{` = "\\{", `}` = "\\}", `~` = "\\textasciitilde{}",
                    `^` = "\\textasciicircum{}", `_` = "\\_", `&` = "\\&", `%` = "\\%", `#` = "\\#",
                    `$` = "\\$", `<` = "\\textless{}", `>` = "\\textgreater{}")
latex_escape <- function(s) {
  vapply(strsplit(as.character(s), "", fixed = TRUE), function(ch) {
    hit <- ch %in% names(latex_specials)
    ch[hit] <- latex_specials[ch[hit]]
    paste(ch, collapse = "")
  }, "", USE.NAMES = FALSE)
}

# Text for a markdown table cell or caption: the characters that would end a
# cell or start emphasis.
markdown_escape <- function(s) gsub("([\\\\|*_])", "\\\\\\1", as.character(s))

escape_text <- function(s, format) {
  switch(format, latex = latex_escape(s), markdown = markdown_escape(s), plain = as.character(s))
}

# A sentence of a table in `format`: the pieces pasted together, plain pieces
# escaped, I() pieces (symbols, LaTeX on purpose) as they are.
table_text <- function(format, ...) {
  parts <- list(...)
  paste(vapply(parts, function(p) {
    if (inherits(p, "AsIs")) paste(as.character(p), collapse = "") else paste(escape_text(p, format), collapse = "")
  }, ""), collapse = "")
}

table_symbols <- list(
  p = c(plain = "p", latex = "$p$", markdown = "*p*"),
  alpha = c(plain = "alpha", latex = "$\\alpha$", markdown = "\u03b1"),
  times = c(plain = "x", latex = "$\\times$", markdown = "\u00d7"),
  lt = c(plain = "<", latex = "$<$", markdown = "<"),
  pm = c(plain = "+/-", latex = "$\\pm$", markdown = "\u00b1")
)

# A symbol in a format, as an I() piece of table_text().
table_symbol <- function(name, format) I(table_symbols[[name]][[format]])

# A relation with its number as one I() piece, one formula in LaTeX:
# table_relation("alpha", "=", 0.05) is "$\alpha = 0.05$", and
# table_relation(NULL, "lt", 0.05) is "$< 0.05$" ("alpha = 0.05", "< 0.05"
# in plain text).
table_relation <- function(lhs, op, value, format) {
  op <- if (op %in% names(table_symbols)) table_symbols[[op]][[format]] else op
  lhs <- if (is.null(lhs)) NULL else table_symbols[[lhs]][[format]]
  if (format == "latex") {
    return(I(paste0("$", paste(gsub("$", "", c(lhs, op), fixed = TRUE), collapse = " "), " ", value, "$")))
  }
  I(paste(c(lhs, op, value), collapse = " "))
}

# The caption a user gave: escaped, unless it is I("...").
table_caption <- function(caption, format) {
  if (is.null(caption)) return(NULL)
  table_text(format, caption)
}

# Font sizes of a table (`size =`), largest first.
latex_sizes <- c("normalsize", "small", "footnotesize", "scriptsize")

# The LaTeX float of a table: `head` the header cells (LaTeX), `body` a matrix
# of cells (LaTeX), `align` the tabular's column specification, `caption`
# (LaTeX, above the table) and `label`, `note` (LaTeX) the legend under the
# rules, as a paragraph of the float's width, no larger than footnotesize and
# than the table. A table wider than its page comes with a warning
# (warn_latex_width(), R/utils-latex-width.R).
latex_table <- function(head, body, align, caption = NULL, label = NULL, note = NULL, booktabs = TRUE,
                        environment = "table", size = "normalsize", compact = FALSE) {
  warn_latex_width(head, body, align, environment, size, compact)
  rule <- if (booktabs) c(top = "\\toprule", mid = "\\midrule", bottom = "\\bottomrule") else
    c(top = "\\hline", mid = "\\hline", bottom = "\\hline")
  note_size <- latex_sizes[max(match(size, latex_sizes), 3L)]
  c(sprintf("\\begin{%s}[t]", environment), "\\centering",
    if (!is.null(caption)) paste0("\\caption{", caption, "}"),
    if (!is.null(label)) paste0("\\label{", label, "}"),
    # article's captions have no space below them: a caption above a table
    # would sit on its top rule
    if (!is.null(caption)) "\\smallskip",
    if (size != "normalsize") paste0("\\", size),
    # floats are groups: the narrower columns stay inside this table
    if (compact) "\\setlength{\\tabcolsep}{3pt}",
    paste0("\\begin{tabular}{", align, "}"), rule[["top"]],
    paste0(paste(head, collapse = " & "), " \\\\"), rule[["mid"]],
    paste0(apply(body, 1, paste, collapse = " & "), " \\\\"),
    rule[["bottom"]], "\\end{tabular}",
    if (!is.null(note)) paste0("\\par\\smallskip{\\", note_size, "\\raggedright ", note, "\\par}"),
    sprintf("\\end{%s}", environment))
}

# Formatted numbers split for an "r@{}l" column pair: the integer part, and
# the decimal point with the decimals ("" for a whole number or NA).
split_decimal <- function(num) {
  has_point <- grepl(".", num, fixed = TRUE)
  list(int = sub("\\..*$", "", num), frac = ifelse(has_point, sub("^[^.]*", "", num), ""))
}
