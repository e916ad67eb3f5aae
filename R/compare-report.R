# Views of an ir_comparison: the ranx-style report (plain, LaTeX, markdown),
# summary(), as.data.frame() and autoplot().

correction_labels <- c(
  holm = "Holm correction", hochberg = "Hochberg correction", hommel = "Hommel correction",
  bonferroni = "Bonferroni correction", BH = "Benjamini-Hochberg correction",
  BY = "Benjamini-Yekutieli correction", fdr = "Benjamini-Hochberg correction",
  none = "no correction"
)

# One label per system: letters a-z, or numbers beyond 26 systems.
system_labels <- function(systems) {
  if (length(systems) <= 26L) letters[seq_along(systems)] else as.character(seq_along(systems))
}

# For each measure and system, the labels of the systems it is significantly
# better than (a character matrix systems x measures); `systems` gives the
# order, and so the labels (the table's order, or the one a report shows).
beaten_labels <- function(x, systems = rownames(x$means)) {
  lab <- system_labels(systems)
  out <- matrix("", length(systems), ncol(x$means), dimnames = list(systems, colnames(x$means)))
  tab <- x$table[x$table$significant %in% TRUE, , drop = FALSE]
  for (meas in colnames(out)) {
    t1 <- tab[tab$measure == meas, , drop = FALSE]
    winner <- ifelse(t1$estimate > 0, t1$system1, t1$system2)
    loser <- ifelse(t1$estimate > 0, t1$system2, t1$system1)
    for (s in unique(winner)) {
      beaten <- sort(match(loser[winner == s], systems))
      out[s, meas] <- if (length(systems) <= 26L) paste(lab[beaten], collapse = "") else number_ranges(beaten)
    }
  }
  out
}

# Positions as compact ranges: 1,3-5,7 (beyond 26 systems the labels are
# numbers, and a system that beats 30 others needs a short mark).
number_ranges <- function(pos) {
  runs <- split(pos, cumsum(c(1L, diff(pos) != 1L)))
  paste(vapply(runs, function(r) {
    if (length(r) == 1L) as.character(r) else if (length(r) == 2L) paste(r, collapse = ",") else
      paste0(r[1], "-", r[length(r)])
  }, ""), collapse = ",")
}

comparison_header <- function(x) {
  ms <- colnames(x$means)
  n_top <- vapply(x$scores, ncol, integer(1))
  corr <- if (controls_familywise(x)) "familywise error controlled by the procedure" else
    correction_labels[[x$correction]]
  # a resampling test that enumerated every arrangement drew nothing
  enumerated <- isTRUE(x$exact) && identical(registered_ir_test(x$test)$p_rule, "exact_or_monte_carlo")
  extra <- c(
    if (!is.na(x$B) && !enumerated) sprintf("B = %s", format(x$B, big.mark = ",")),
    if (enumerated) "exact",
    if (!is.null(x$seed) && !is.na(x$B)) sprintf("seed = %s", x$seed)
  )
  sprintf("%s, %s, alpha = %s%s: %d systems x %s topics, %d measure%s%s",
          x$test_label, corr, format(x$alpha),
          if (length(extra)) paste0(" (", paste(extra, collapse = ", "), ")") else "",
          nrow(x$means), paste(unique(n_top), collapse = "/"), length(ms),
          if (length(ms) == 1) "" else "s",
          if (!is.null(x$baseline)) sprintf(", against baseline %s", x$baseline) else ", all pairs")
}

#' Print, format and summarise a comparison of systems
#'
#' `format()` gives the report of [compare_systems()] in the style of ranx:
#' one row per system with its mean per measure, followed by the labels of
#' the systems it is significantly better than (after the correction); the
#' best mean of each measure is marked. `format(x, "latex")` and
#' `format(x, "markdown")` give the same table ready for a paper (superscript
#' labels, best mean in bold, the baseline marked, the legend inside the
#' table). `as.data.frame()` gives the tidy table (one row per pair and
#' measure), and `summary()` counts significant pairs. [means_table()] gives
#' the same table without the marks.
#'
#' Labels are letters up to 26 systems and numbers beyond, written as ranges
#' (`1,3-5` is systems 1, 3, 4 and 5). The plain report has one line per
#' system whatever the console width. The LaTeX table is a `table` float
#' holding the caption, the label, the `tabular` and the legend (which test,
#' which correction, what the marks mean) as a `\footnotesize` paragraph under
#' the rules, so that the legend reaches the paper; `booktabs = TRUE` (the
#' default) draws `\toprule`, `\midrule` and `\bottomrule` and needs
#' `\usepackage{booktabs}`. The markdown table has its caption in pandoc's
#' `Table:` form (with `{#tbl:label}` for pandoc-crossref when `label` is
#' given) and the legend under it.
#'
#' @param x,object An `ir_comparison` from [compare_systems()] (for the `format()` method of a
#'   summary, the result of `summary()`).
#' @param format `"plain"` (the printed report), `"latex"` (a `table` with a
#'   `tabular`) or `"markdown"`.
#' @param digits Decimals of the means.
#' @param order_by `NULL` (the systems in the order of the scores) or a
#'   measure of the table: systems by decreasing mean of that measure. The
#'   labels follow the order shown.
#' @param caption,label `NULL` or the caption and the cross-reference label of
#'   the table (LaTeX and markdown).
#' @param booktabs LaTeX rules of the booktabs package (`FALSE`: `\hline`).
#' @param intervals `NULL` or an `ir_mean_intervals` ([mean_intervals()] of
#'   the comparison): each mean is shown with its interval, as in
#'   [means_table()] (`style`).
#' @param style With `intervals`: `"brackets"` (`mean [low, high]`) or
#'   `"pm"` (`mean +/- half`).
#' @param ... Unused.
#' @return `format()`: a character vector of lines. `summary()`: a
#'   `summary.ir_comparison` ([irtopics_summary]; `$table` and `$measures`:
#'   pairs and significant pairs per measure) with `$systems` (per system and measure, the number of systems it
#'   is significantly better and worse than). `as.data.frame()`: the data
#'   frame `x$table` described in [compare_systems()].
#' @examples
#' x <- rbind(a = c(.7, .3, .2, .6, .4, .5, .8, .3), b = c(.5, .1, 0, .2, .4, .3, .6, .1),
#'            c = c(0, 0, .2, .1, .3, .2, .1, 0))
#' colnames(x) <- paste0("t", 1:8)
#' cmp <- compare_systems(x, correction = "none")
#' cmp
#' summary(cmp)
#' cat(format(cmp, "latex", caption = "Mean AP.", label = "tab:ap"), sep = "\n")
#' cat(format(cmp, "markdown", order_by = "score"), sep = "\n")
#' cat(format(cmp, "latex", intervals = mean_intervals(cmp), style = "pm"), sep = "\n")
#' head(as.data.frame(cmp))
#' @export
format.ir_comparison <- function(x, format = c("plain", "latex", "markdown"), digits = 4,
                                 order_by = NULL, caption = NULL, label = NULL, booktabs = TRUE,
                                 intervals = NULL, style = c("brackets", "pm"), ...) {
  format <- match_choice(format)
  check_report_args(digits, caption, label, booktabs)
  style <- match_choice(style)
  check_comparison_intervals(intervals, x)
  systems <- report_order(x$means, order_by)
  marks <- beaten_labels(x, systems)
  n_sig <- sum(x$table$significant %in% TRUE)
  what <- switch(format, plain = "^", latex = "A superscript", markdown = "A superscript")
  shown <- interval_cells(intervals, systems, format, digits, style)
  legend <- sprintf("%s marks the systems a system is significantly better than (p.adjusted < %s); %d of %d comparisons significant.",
                    what, format(x$alpha), n_sig, nrow(x$table))
  report_table(x$means[systems, , drop = FALSE], marks, format, digits, baseline = x$baseline,
               header = comparison_header(x), legend = legend, caption = caption, label = label,
               booktabs = booktabs, ci = shown$cells, ci_note = shown$note)
}

#' A table of mean scores for a paper
#'
#' Systems x measures, the means of an [evaluate()] result, a score matrix or
#' a comparison, as plain text, LaTeX or markdown, with the options of the
#' comparison report ([format.ir_comparison()]): ordering by a measure, the
#' best mean in bold, a caption and label, booktabs rules; no significance
#' marks.
#'
#' With `interval` other than `"none"` each mean carries its confidence
#' interval from [mean_intervals()] (t, bootstrap percentile or BCa over
#' topics; see there what each assumes), written `mean [low, high]` (`style =
#' "brackets"`) or `mean +/- half` (`style = "pm"`, with a plus-minus sign in
#' LaTeX and markdown; half the interval's width: exact for the symmetric t
#' interval, a summary of the bootstrap's, which the legend says); the
#' legend names the interval, its level, `B` and the seed. `x` may also be an
#' `ir_mean_intervals`, whose intervals are shown as they are.
#'
#' In LaTeX, system and measure names, the caption and the legend are escaped
#' (`\\ { } ~ ^ _ & % # $`), so that any name compiles with pdflatex; the
#' label is written as given.
#'
#' @param x An `ir_evaluation`, an `ir_scores`, an `ir_comparison` or an
#'   `ir_mean_intervals` ([mean_intervals()]).
#' @param baseline `NULL` or the name of a system to mark as the baseline.
#' @param interval `"none"` (the means only), `"t"`, `"percentile"` or
#'   `"bca"`: the confidence interval shown with each mean
#'   ([mean_intervals()]).
#' @param style `"brackets"` (`mean [low, high]`) or `"pm"` (`mean +/- half`).
#' @inheritParams format.ir_comparison
#' @inheritParams mean_intervals
#' @return A character vector of lines.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("AP", "P@10", "nDCG@10"))
#' cat(means_table(res, "latex", caption = "Means over topics.", label = "tab:means"), sep = "\n")
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")[1:5, ]
#' cat(means_table(ap, "markdown", interval = "t", style = "pm"), sep = "\n")
#' cat(means_table(ap, interval = "bca", B = 1000, seed = 1), sep = "\n")
#' @export
means_table <- function(x, format = c("plain", "latex", "markdown"), digits = 4, order_by = NULL,
                        caption = NULL, label = NULL, booktabs = TRUE, baseline = NULL,
                        interval = c("none", "t", "percentile", "bca"), conf = 0.95,
                        style = c("brackets", "pm"), B = 1000, seed = NULL, progress = NULL) {
  format <- match_choice(format)
  check_report_args(digits, caption, label, booktabs)
  interval <- match_choice(interval)
  style <- match_choice(style)
  ci <- if (inherits(x, "ir_mean_intervals")) x else if (interval != "none") {
    mean_intervals(x, conf = conf, interval = interval, B = B, seed = seed, progress = progress)
  }
  means <- if (!is.null(ci)) {
    ci$means
  } else if (inherits(x, "ir_comparison")) {
    x$means
  } else if (inherits(x, "ir_evaluation")) {
    m <- mean_scores(x)
    out <- as.matrix(m[setdiff(names(m), "system")])
    rownames(out) <- m$system
    out
  } else if (inherits(x, "ir_scores")) {
    matrix(rowMeans(x, na.rm = TRUE), dimnames = list(rownames(x), attr(x, "measure") %||% "score"))
  } else {
    stop_irtopics("{.arg x} must be an {.cls ir_evaluation}, an {.cls ir_scores} or an {.cls ir_comparison}, not {.obj_type_friendly {x}}.")
  }
  if (!is.null(baseline)) check_names_in(baseline, rownames(means), arg = "baseline", of = "x")
  systems <- report_order(means, order_by)
  marks <- matrix("", length(systems), ncol(means))
  shown <- interval_cells(ci, systems, format, digits, style)
  report_table(means[systems, , drop = FALSE], marks, format, digits, baseline = baseline,
               header = sprintf("Mean scores of %s", plural(nrow(means), "system")), legend = NULL,
               caption = caption, label = label, booktabs = booktabs, ci = shown$cells, ci_note = shown$note)
}

# The systems in the order a report shows them.
report_order <- function(means, order_by, call = rlang::caller_env()) {
  if (is.null(order_by)) return(rownames(means))
  if (!is.character(order_by) || length(order_by) != 1L || !order_by %in% colnames(means)) {
    stop_irtopics("{.arg order_by} must be {.code NULL} or one of {.or {.val {colnames(means)}}}.", call = call)
  }
  rownames(means)[order(-means[, order_by], method = "radix")]
}

# The one table behind the comparison report and means_table(): means
# (systems in display order x measures), their marks, in a format.
# The arguments of the reports' layout, checked (issue 29: digits = NA or
# "3" and booktabs = NA reached base R's errors, digits = 2.5 printed 2).
check_report_args <- function(digits, caption, label, booktabs, call = rlang::caller_env()) {
  check_number(digits, "digits", min = 0, max = 15, integer = TRUE, call = call)
  check_flag(booktabs, "booktabs", call = call)
  for (arg in c("caption", "label")) {
    v <- list(caption = caption, label = label)[[arg]]
    if (!is.null(v) && !(is.character(v) && length(v) == 1L && !is.na(v))) {
      stop_irtopics("{.arg {arg}} must be one string or {.code NULL}, not {show_value(v)}.", call = call)
    }
  }
  invisible(NULL)
}

report_table <- function(means, marks, format, digits, baseline, header, legend, caption, label,
                         booktabs, ci = "", ci_note = NULL) {
  systems <- rownames(means)
  lab <- system_labels(systems)
  num <- matrix(formatC(means, digits = digits, format = "f"), nrow(means), dimnames = dimnames(means))
  best <- apply(means, 2, function(v) !is.na(v) & v == max(v, na.rm = TRUE))
  best <- matrix(best, nrow(means))
  is_base <- !is.null(baseline) & systems %in% baseline
  base_note <- if (any(is_base)) "The baseline is marked (baseline)." else NULL
  if (format == "plain") {
    cells <- matrix(paste0(num, ifelse(best, "*", " "), ci, ifelse(marks == "", "", paste0("^", marks))),
                    nrow(num), dimnames = dimnames(num))
    body <- data.frame(` ` = lab, system = paste0(systems, ifelse(is_base, " (baseline)", "")), cells,
                       check.names = FALSE, stringsAsFactors = FALSE)
    # one line per system whatever the console width: systems and their
    # scores side by side, never wrapped into separate blocks
    old_width <- options(width = 10000L)
    on.exit(options(old_width), add = TRUE)
    lines <- printed_lines(print(format(body, justify = "left"), row.names = FALSE))
    head <- if (is.null(legend)) header else paste0("<ir_comparison> ", header)
    return(c(head, lines, paste("#", paste(c(legend, ci_note, "* = best mean.", base_note), collapse = " "))))
  }
  if (format == "latex") {
    esc <- latex_escape
    cells <- matrix(paste0(ifelse(best, paste0("\\textbf{", num, "}"), num), ci,
                           ifelse(marks == "", "", paste0("$^{", marks, "}$"))), nrow(num))
    names_shown <- paste0(esc(systems), ifelse(is_base, " (baseline)", ""))
    rows <- paste0(paste(lab, names_shown, apply(cells, 1, paste, collapse = " & "), sep = " & "), " \\\\")
    rule <- if (booktabs) c(top = "\\toprule", mid = "\\midrule", bottom = "\\bottomrule") else
      c(top = "\\hline", mid = "\\hline", bottom = "\\hline")
    note <- paste(c(paste0(header, "."), legend, "Bold: best mean.", base_note), collapse = " ")
    note <- paste(c(esc(note), ci_note), collapse = " ")
    return(c("\\begin{table}[t]", "\\centering",
             if (!is.null(caption)) paste0("\\caption{", esc(caption), "}"),
             if (!is.null(label)) paste0("\\label{", label, "}"),
             paste0("\\begin{tabular}{ll", strrep("r", ncol(num)), "}"), rule[["top"]],
             paste0(" & System & ", paste(esc(colnames(num)), collapse = " & "), " \\\\"), rule[["mid"]],
             rows, rule[["bottom"]], "\\end{tabular}",
             paste0("\\par\\smallskip{\\footnotesize ", note, "}"), "\\end{table}"))
  }
  md_esc <- function(s) gsub("([|*_])", "\\\\\\1", s)
  cells <- matrix(paste0(ifelse(best, paste0("**", num, "**"), num), ci,
                         ifelse(marks == "", "", paste0("<sup>", marks, "</sup>"))), nrow(num))
  names_shown <- paste0(md_esc(systems), ifelse(is_base, " (baseline)", ""))
  cap <- if (!is.null(caption) || !is.null(label)) {
    paste0("Table: ", caption %||% "", if (!is.null(label)) paste0(" {#", label, "}") else "")
  }
  c(paste0("| | System | ", paste(md_esc(colnames(num)), collapse = " | "), " |"),
    paste0("|---|---|", strrep("---:|", ncol(num))),
    paste0("| ", lab, " | ", names_shown, " | ", apply(cells, 1, paste, collapse = " | "), " |"),
    "", if (!is.null(cap)) c(cap, ""),
    paste(c(paste0(header, "."), legend, ci_note, "Bold: best mean.", base_note), collapse = " "))
}

# Text for LaTeX: the ten characters with a meaning in LaTeX escaped one by
# one (a backslash becomes \textbackslash{}, whose braces are not escaped
# again).
latex_specials <- c(`\\` = "\\textbackslash{}", `{` = "\\{", `}` = "\\}", `~` = "\\textasciitilde{}",
                    `^` = "\\textasciicircum{}", `_` = "\\_", `&` = "\\&", `%` = "\\%", `#` = "\\#",
                    `$` = "\\$")
latex_escape <- function(s) {
  vapply(strsplit(as.character(s), "", fixed = TRUE), function(ch) {
    hit <- ch %in% names(latex_specials)
    ch[hit] <- latex_specials[ch[hit]]
    paste(ch, collapse = "")
  }, "", USE.NAMES = FALSE)
}

#' @rdname format.ir_comparison
#' @export
print.ir_comparison <- function(x, ...) print_formatted(x, ...)

#' @rdname format.ir_comparison
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_comparison <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$table
}

#' @rdname format.ir_comparison
#' @export
summary.ir_comparison <- function(object, ...) {
  tab <- object$table
  ms <- colnames(object$means)
  measures <- data.frame(
    measure = ms,
    pairs = vapply(ms, function(m) sum(tab$measure == m), integer(1)),
    significant = vapply(ms, function(m) sum(tab$significant[tab$measure == m]), integer(1)),
    row.names = NULL, stringsAsFactors = FALSE
  )
  measures$share <- measures$significant / measures$pairs
  sig <- tab[tab$significant, , drop = FALSE]
  winner <- ifelse(sig$estimate > 0, sig$system1, sig$system2)
  loser <- ifelse(sig$estimate > 0, sig$system2, sig$system1)
  systems <- do.call(rbind, lapply(ms, function(m) {
    s <- rownames(object$means)
    data.frame(measure = m, system = s, mean = unname(object$means[, m]),
               better_than = vapply(s, function(v) sum(winner == v & sig$measure == m), integer(1)),
               worse_than = vapply(s, function(v) sum(loser == v & sig$measure == m), integer(1)),
               row.names = NULL, stringsAsFactors = FALSE)
  }))
  header <- comparison_header(object)
  new_summary("ir_comparison", paste0("Comparison: ", paste(header, collapse = "")), measures,
              measures = measures, systems = systems, header = header)
}

#' @rdname format.ir_comparison
#' @method format summary.ir_comparison
#' @export
format.summary.ir_comparison <- function(x, ...) {
  c(x$title, printed_lines(print(x$measures, digits = 3, row.names = FALSE)),
    "", "Significant differences per system:", printed_lines(print(x$systems, digits = 4, row.names = FALSE)))
}

# Whether the comparison's test (a registry record) is a whole-matrix
# procedure that controls the familywise error itself.
controls_familywise <- function(x) identical(registered_ir_test(x$test)$needs, "matrix")
