# How wide a LaTeX table will be, before anyone compiles it (issue 40): the
# one writer latex_table() (R/utils-latex.R) estimates the width of its
# tabular from the fonts' character widths (R/utils-latex-metrics.R,
# measured by pdflatex) and warns when the table will not fit the page
# (article, 10 pt: a `table` is one column of a two-column page, 229.5pt; a
# `table*` the page, 469pt; option irtopics.latex_width changes both),
# naming the options that make it fit.

# The page widths a table is checked against (pt): a `table` fills a column,
# a `table*` the width of the text; both of \documentclass[twocolumn]{article}
# unless the option irtopics.latex_width gives them (a number: the column, or
# c(table = , `table*` = )).
latex_target_widths <- function() {
  w <- getOption("irtopics.latex_width", c(table = 229.5, `table*` = 469))
  if (!is.numeric(w) || !length(w) || anyNA(w) || any(w <= 0)) {
    stop_irtopics(c("The option {.code irtopics.latex_width} must be a width in pt (the column width), or {.code c(table = , `table*` = )}.",
                    x = "Got {show_value(w)}."))
  }
  if (is.null(names(w))) w <- c(table = w[[1]], `table*` = if (length(w) > 1L) w[[2]] else 2 * w[[1]] + 10)
  w
}

# The fonts of a table's text at a `size`: roman and bold, and the roman of
# its superscripts (\textsuperscript: article's \sf@size).
latex_size_fonts <- list(normalsize = c(rm = "rm10", bf = "bf10", sup = "rm7"),
                         small = c(rm = "rm9", bf = "bf9", sup = "rm6"),
                         footnotesize = c(rm = "rm8", bf = "bf8", sup = "rm6"),
                         scriptsize = c(rm = "rm7", bf = "bf7", sup = "rm5"))

# LaTeX text as the package's tables write it, as the keys of its
# characters into a font's widths (1-95: ASCII 32-126, escaped ones as
# latex_escape() writes them, other UTF-8 characters as an "n"; 96: "--",
# 97: $\pm$, 98: TeX's \scriptspace after a superscript; "\ " is a space)
# and the role of each: "rm", "bf" inside
# \textbf{}, "sup" inside \textsuperscript{}. Other commands, braces and "$"
# add nothing. Kerning and ligatures are left out (a few tenths of a point
# per name).
latex_tokens <- function(text, role = "rm") {
  key <- integer()
  roles <- character()
  s <- text
  add <- function(k, r = role) {
    key <<- c(key, k)
    roles <<- c(roles, r)
  }
  while (nzchar(s)) {
    group <- regmatches(s, regexec("^\\\\(textbf|textsuperscript)\\{", s))[[1]]
    if (length(group)) {
      inner <- latex_group_body(substring(s, nchar(group[1]) + 1L))
      sub_tokens <- latex_tokens(inner, if (group[2] == "textbf") "bf" else "sup")
      add(sub_tokens$key, sub_tokens$role)
      # a superscript is math: TeX adds \scriptspace (0.5pt) after it
      if (group[2] == "textsuperscript") add(98L)
      s <- substring(s, nchar(group[1]) + nchar(inner) + 2L)
      next
    }
    special <- match(TRUE, startsWith(s, latex_specials))
    if (!is.na(special)) {
      add(utf8ToInt(names(latex_specials)[special]) - 31L)
      s <- substring(s, nchar(latex_specials[[special]]) + 1L)
      next
    }
    hit <- match(TRUE, startsWith(s, latex_tokens_extra))
    if (!is.na(hit)) {
      add(c(96L, 97L, 1L)[hit])
      s <- substring(s, nchar(latex_tokens_extra[hit]) + 1L)
      next
    }
    ch <- substr(s, 1L, 1L)
    code <- utf8ToInt(ch)
    if (!ch %in% c("{", "}", "$", "\\")) {
      add(if (length(code) == 1L && code >= 32L && code <= 126L) code - 31L else 79L)
    }
    s <- substring(s, 2L)
  }
  list(key = key, role = roles)
}

latex_tokens_extra <- c("--", "$\\pm$", "\\ ")

# The natural width (pt) of tokens (latex_tokens()) in a size's fonts.
latex_tokens_width <- function(tok, fonts) {
  width <- 0
  for (r in unique(tok$role)) {
    m <- latex_font_metrics[[fonts[[r]]]]
    width <- width + sum(c(m$chars, m$endash, m$pm, 0.5)[tok$key[tok$role == r]])
  }
  width
}

# The natural width (pt) of LaTeX text in a size's fonts.
latex_text_width <- function(text, fonts) latex_tokens_width(latex_tokens(text), fonts)

# The text of a brace group whose opening brace has been read: up to the
# matching closing brace.
latex_group_body <- function(s) {
  chars <- strsplit(s, "", fixed = TRUE)[[1]]
  depth <- cumsum((chars == "{") - (chars == "}"))
  end <- match(-1L, depth)
  if (is.na(end)) s else paste(chars[seq_len(end - 1L)], collapse = "")
}

# The columns of a tabular specification as the package writes them ("l",
# "c", "r" and @{...} between them): for each column, whether LaTeX puts
# \tabcolsep on its left and on its right (not next to an @-expression) and
# the width of the @-expression after it (0: none).
latex_columns <- function(align, fonts) {
  tokens <- regmatches(align, gregexpr("@\\{([^{}]|\\{[^{}]*\\})*\\}|[lcr]", align))[[1]]
  at <- startsWith(tokens, "@")
  cols <- which(!at)
  at_width <- ifelse(at, vapply(sub("^@\\{(.*)\\}$", "\\1", tokens), latex_text_width, 0, fonts), 0)
  list(n = length(cols), left = !c(FALSE, at)[cols], right = !c(at, FALSE)[cols + 1L],
       after = c(at_width, 0)[cols + 1L], before = sum(at_width[seq_len(cols[1] - 1L)]))
}

# The estimated natural width (pt) of the tabular latex_table() writes:
# each column as wide as its widest cell, \tabcolsep on the sides that have
# it, the @-expressions, and a \multicolumn{k}{c}{} header widening the last
# of its k columns when its text needs more than they give. `body` may be
# given as its cells' tokens (a list matrix of latex_tokens()), so that
# several sizes are measured from one parse.
latex_table_width <- function(head, body, align, size = "normalsize", compact = FALSE) {
  fonts <- latex_size_fonts[[size]]
  sep <- if (compact) 3 else 6
  cols <- latex_columns(align, fonts)
  if (!is.list(body)) body <- latex_body_tokens(body)
  w <- vapply(seq_len(cols$n), function(j) {
    max(0, vapply(body[, j], latex_tokens_width, 0, fonts))
  }, 0)
  span <- as.integer(ifelse(grepl("^\\\\multicolumn\\{", head), sub("^\\\\multicolumn\\{([0-9]+)\\}.*$", "\\1", head), 1L))
  first <- cumsum(c(1L, span))[seq_along(head)]
  for (h in seq_along(head)) {
    idx <- first[h] + seq_len(span[h]) - 1L
    if (span[h] == 1L) {
      w[idx] <- max(w[idx], latex_text_width(head[h], fonts))
      next
    }
    text <- latex_group_body(sub("^\\\\multicolumn\\{[0-9]+\\}\\{[^}]*\\}\\{", "", head[h]))
    # the span's inner separations and @-expressions (the outer separations
    # the \multicolumn's c has too)
    given <- sum(w[idx]) + sep * (sum(cols$left[idx][-1L]) + sum(cols$right[idx][-span[h]])) +
      sum(cols$after[idx][-span[h]])
    need <- latex_text_width(text, fonts)
    if (need > given) w[idx[span[h]]] <- w[idx[span[h]]] + need - given
  }
  sum(w) + sep * (sum(cols$left) + sum(cols$right)) + sum(cols$after) + cols$before
}

# The tokens of every cell of a body (a list matrix).
latex_body_tokens <- function(body) {
  matrix(lapply(body, latex_tokens), nrow(body))
}

# The layouts a warning may propose, from the least change to the most:
# a smaller font, half the column separation, both, then the page width.
latex_layouts <- function(environment) {
  sizes <- c("normalsize", "small", "footnotesize", "scriptsize")
  grid <- expand.grid(size = sizes, compact = c(FALSE, TRUE), stringsAsFactors = FALSE)
  grid <- grid[order(grid$compact + match(grid$size, sizes) - 1L, grid$compact), ]
  grid$environment <- environment
  if (environment == "table") grid <- rbind(grid, transform(grid, environment = "table*"))
  rownames(grid) <- NULL
  grid
}

# The marks of a compact table: three or more consecutive letters of a
# superscript as a range (letter_ranges(), as beaten_labels(ranges = TRUE)).
latex_compact_marks <- function(cells) {
  pattern <- "\\\\textsuperscript\\{[a-z]+\\}"
  vapply(cells, function(cell) {
    hits <- regmatches(cell, gregexpr(pattern, cell))[[1]]
    for (h in hits) {
      labs <- strsplit(sub("^\\\\textsuperscript\\{(.*)\\}$", "\\1", h), "")[[1]]
      ranged <- gsub("-", "--", letter_ranges(labs, match(labs, letters)), fixed = TRUE)
      cell <- sub(h, paste0("\\textsuperscript{", ranged, "}"), cell, fixed = TRUE)
    }
    cell
  }, "", USE.NAMES = FALSE)
}

# One irtopics_warning_width when the tabular will be wider than the
# `environment` allows: how wide it is estimated to be, the page it is
# checked against, and the first layout of latex_layouts() that fits (with
# its width), or that none does; the condition's fields `width` and
# `target` hold the estimate and the page width (pt). Returns the estimate.
warn_latex_width <- function(head, body, align, environment, size, compact) {
  target <- latex_target_widths()
  tokens <- latex_body_tokens(body)
  width <- latex_table_width(head, tokens, align, size, compact)
  if (width <= target[[environment]]) return(invisible(width))
  ranged <- latex_body_tokens(matrix(latex_compact_marks(body), nrow(body)))
  options <- latex_layouts(environment)
  # only layouts at least as narrow as the one asked for
  sizes <- names(latex_size_fonts)
  options <- options[match(options$size, sizes) >= match(size, sizes) & options$compact >= compact, , drop = FALSE]
  fits <- vapply(seq_len(nrow(options)), function(i) {
    o <- options[i, ]
    latex_table_width(head, if (o$compact && !compact) ranged else tokens, align, o$size, o$compact)
  }, 0)
  ok <- which(fits <= target[options$environment])
  page <- c(table = "one column", `table*` = "the page")[[environment]]
  advice <- if (length(ok)) {
    o <- options[ok[1], ]
    args <- c(if (o$size != size) sprintf("size = \"%s\"", o$size), if (o$compact && !compact) "compact = TRUE",
              if (o$environment != environment) sprintf("environment = \"%s\"", o$environment))
    sprintf("With %s it is about %.0fpt, and fits %s (%.1fpt).", paste(args, collapse = ", "), fits[ok[1]],
            c(table = "one column", `table*` = "the page")[[o$environment]], target[[o$environment]])
  } else {
    "No size, compact or environment option makes it fit: show fewer measures or systems, fewer digits, shorter names, or intervals as +/- (style = \"pm\")."
  }
  warn_irtopics(c("The LaTeX table is about {sprintf('%.0f', width)}pt wide: {sprintf('%.1f', width - target[[environment]])}pt wider than {page} ({target[[environment]]}pt).",
                  i = advice,
                  i = "Widths are estimated for pdflatex's Computer Modern in a 10pt article; set {.code options(irtopics.latex_width = )} to your column width in pt."),
                kind = "width", width = width, target = target[[environment]])
  invisible(width)
}
