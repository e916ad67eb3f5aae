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

#' Plot a comparison of systems
#'
#' Three views of [compare_systems()]:
#' * `"forest"`: the difference of each pair (system1 - system2, or system -
#'   baseline) with its confidence interval when the test has one (t-test,
#'   Tukey HSD, or a user test returning `conf.int`), coloured by
#'   significance, one panel per measure, pairs ordered by difference;
#' * `"heatmap"`: every pair of systems as a cell, row system against column
#'   system (systems ordered by mean score, best first): the colour says
#'   which of the two has the higher mean, dark where the adjusted p-value is
#'   below `alpha`, pale where it is not; the p-values are printed in the
#'   cells when they fit (up to 12 systems);
#' * `"topics"`: the per-topic differences of one pair, sorted, coloured by
#'   win / tie / loss: where the mean difference comes from.
#'
#' A forest plot labels each pair on its axis; about 35 labels fit in a
#' figure 4.5 in tall. Beyond that the labels shrink to 5 pt and a message
#' says how tall a figure needs to be, or how to show fewer pairs:
#' `significant_only`, `baseline` and `systems` select pairs, and the heat
#' map shows all pairs of many systems in one figure.
#'
#' @param object An `ir_comparison`.
#' @param type `"forest"`, `"heatmap"` or `"topics"`.
#' @param measure The measure to draw (default: the first; for `"forest"`,
#'   all measures, one panel each).
#' @param pair For `"topics"`: two system names (default: the first pair of
#'   the table).
#' @param systems For `"forest"` and `"heatmap"`: the systems shown (the
#'   pairs between them); default all.
#' @param baseline For `"forest"`: only the pairs with this system, drawn as
#'   other system minus `baseline` (default: the comparison's own baseline,
#'   if it has one).
#' @param significant_only For `"forest"`: only the pairs whose adjusted
#'   p-value is below `alpha`.
#' @param order `"effect"` (default: pairs by difference, systems of the heat
#'   map by mean score) or `"table"` (the order of the comparison's table).
#' @param ... Unused; unknown arguments are an error, and so are arguments
#'   the chosen `type` does not use.
#' @return A ggplot object.
#' @method autoplot ir_comparison
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:5], ]
#' cmp <- compare_systems(top, test = "tukey")
#' ggplot2::autoplot(cmp)
#' ggplot2::autoplot(cmp, type = "heatmap")
#' ggplot2::autoplot(cmp, type = "topics", pair = rownames(top)[1:2])
#' # against one system, significant pairs only
#' ggplot2::autoplot(cmp, baseline = rownames(top)[5], significant_only = TRUE)
#' @export
autoplot.ir_comparison <- function(object, type = c("forest", "heatmap", "topics"),
                                   measure = NULL, pair = NULL, systems = NULL, baseline = NULL,
                                   significant_only = FALSE, order = c("effect", "table"), ...) {
  check_no_dots(..., help = "autoplot.ir_comparison")
  given <- c(measure = FALSE, pair = !is.null(pair), systems = !is.null(systems),
             baseline = !is.null(baseline), significant_only = !missing(significant_only),
             order = !missing(order))
  type <- match_choice(type)
  order <- match_choice(order)
  used <- list(forest = c("measure", "systems", "baseline", "significant_only", "order"),
               heatmap = c("measure", "systems", "order"), topics = c("measure", "pair"))[[type]]
  check_type_args(given, used, type)
  ms <- colnames(object$means)
  if (!is.null(measure) && (!is.character(measure) || length(measure) != 1L || !measure %in% ms)) {
    stop_irtopics("{.arg measure} must be one of {.or {.val {ms}}}.")
  }
  all_systems <- rownames(object$means)
  if (!is.null(systems)) {
    unknown <- setdiff(systems, all_systems)
    if (!is.character(systems) || anyNA(systems) || length(unknown)) {
      stop_irtopics("{.arg systems} must name systems of the comparison; unknown: {.val {unknown}}.")
    }
  }
  if (!is.null(baseline) && (!is.character(baseline) || length(baseline) != 1L || !baseline %in% all_systems)) {
    stop_irtopics("{.arg baseline} must name one system of the comparison.")
  }
  check_flag(significant_only, "significant_only")
  tab <- object$table
  if (!is.null(measure) || type != "forest") {
    measure <- measure %||% ms[1]
    tab <- tab[tab$measure == measure, , drop = FALSE]
  }
  if (!is.null(systems)) tab <- tab[tab$system1 %in% systems & tab$system2 %in% systems, , drop = FALSE]
  switch(type,
    forest = comparison_forest(object, tab, baseline %||% object$baseline, significant_only, order),
    heatmap = comparison_heatmap(object, tab, measure, systems %||% all_systems, order),
    topics = comparison_topics(object, tab, measure, pair)
  )
}

# Whether the comparison's test (a registry record) is a whole-matrix
# procedure that controls the familywise error itself.
controls_familywise <- function(x) identical(registered_ir_test(x$test)$needs, "matrix")

# "paired t-test, Holm correction, alpha = 0.05" for plot subtitles.
comparison_settings <- function(object) {
  corr <- if (controls_familywise(object)) NULL else correction_labels[[object$correction]]
  paste(c(object$test_label, corr, sprintf("alpha = %s", format(object$alpha))), collapse = ", ")
}

# Pairs a forest plot labels readably at 4.5 in tall, and the label size.
forest_fit <- 35L
forest_label_size <- function(n) max(5, min(9, 175 / max(n, 1)))

comparison_forest <- function(object, tab, baseline, significant_only, ordering) {
  if (!is.null(baseline)) {
    tab <- tab[tab$system1 == baseline | tab$system2 == baseline, , drop = FALSE]
    flip <- tab$system1 == baseline
    tab[flip, c("system1", "system2")] <- tab[flip, c("system2", "system1")]
    tab$estimate[flip] <- -tab$estimate[flip]
    low <- tab$conf.low[flip]
    tab$conf.low[flip] <- -tab$conf.high[flip]
    tab$conf.high[flip] <- -low
  }
  n_all <- nrow(tab)
  if (significant_only) tab <- tab[tab$significant, , drop = FALSE]
  if (!nrow(tab)) {
    stop_irtopics(c("No pair to draw{if (significant_only) ' (none is significant)' else ''}.",
                    i = "Draw all pairs with {.code significant_only = FALSE}."), kind = "data")
  }
  tab$label <- if (is.null(baseline)) paste(tab$system1, "-", tab$system2) else tab$system1
  first <- tab[tab$measure == tab$measure[1], , drop = FALSE]
  lv <- if (ordering == "effect") first$label[order(first$estimate)] else rev(first$label)
  tab$label <- factor(tab$label, levels = unique(c(lv, rev(unique(tab$label)))))
  tab$significance <- factor(ifelse(tab$significant, sprintf("p < %s", format(object$alpha)), "not significant"),
                             levels = c(sprintf("p < %s", format(object$alpha)), "not significant"))
  n_rows <- nlevels(tab$label)
  if (n_rows > forest_fit) {
    cli::cli_inform(c("i" = "{n_rows} pairs do not fit as readable labels in a 4.5 in figure; labels are 5 pt.",
                      " " = "Save it about {ceiling(n_rows * 0.1 + 1)} in tall, or show fewer with {.arg significant_only}, {.arg baseline} or {.arg systems}; {.code type = \"heatmap\"} shows all pairs."),
                    class = "irtopics_message_layout")
  }
  ci <- tab[!is.na(tab$conf.low) & !is.na(tab$conf.high), , drop = FALSE]
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$label, colour = .data$significance)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50")
  if (nrow(ci)) {
    p <- p + ggplot2::geom_segment(data = ci, ggplot2::aes(x = .data$conf.low, xend = .data$conf.high,
                                                           yend = .data$label))
  }
  ms <- unique(tab$measure)
  what <- if (is.null(baseline)) "system1 - system2" else sprintf("system - %s", baseline)
  shown <- if (significant_only) sprintf("%d significant of %d pairs", nrow(tab) / length(ms), n_all / length(ms)) else
    plural(n_rows, "pair")
  p <- p + ggplot2::geom_point(ggplot2::aes(x = .data$estimate)) +
    ggplot2::scale_colour_manual(values = stats::setNames(c("#b2182b", "grey40"), levels(tab$significance)),
                                 drop = FALSE) +
    ggplot2::labs(x = wrap_text(sprintf("Difference of mean %s (%s)%s", paste(ms, collapse = ", "), what,
                                        if (nrow(ci)) sprintf(", %g%% CI", 100 * (1 - object$alpha)) else ""), 38L),
                  y = NULL, colour = NULL,
                  title = wrap_text(sprintf("%s: differences of means, %s", paste(ms, collapse = ", "), shown)),
                  subtitle = wrap_text(comparison_settings(object), 45L)) +
    ggplot2::theme_minimal() + title_theme() +
    ggplot2::theme(axis.text.y = ggplot2::element_text(size = forest_label_size(n_rows)),
                   legend.position = "bottom")
  if (length(ms) > 1L) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$measure), scales = "free_x")
  p
}

# Systems a heat map names readably at 7 in wide (5 pt labels).
heatmap_fit <- 40L

comparison_heatmap <- function(object, tab, measure, systems, ordering) {
  means <- object$means[systems, measure]
  if (ordering == "effect") systems <- systems[order(-means, systems)]
  n <- length(systems)
  a <- format(object$alpha)
  both <- rbind(data.frame(row = tab$system1, col = tab$system2, p = tab$p.adjusted,
                           d = tab$estimate, sig = tab$significant),
                data.frame(row = tab$system2, col = tab$system1, p = tab$p.adjusted,
                           d = -tab$estimate, sig = tab$significant))
  lv <- c(sprintf("row better,\np < %s", a), "row better,\nnot significant",
          "column better,\nnot significant", sprintf("column better,\np < %s", a))
  verdict <- ifelse(both$d >= 0, ifelse(both$sig, lv[1], lv[2]), ifelse(both$sig, lv[4], lv[3]))
  fills <- c("#2166ac", "#b8d3ea", "#f4c6bd", "#b2182b")
  if (anyNA(both$p)) {
    verdict[is.na(both$p)] <- "no p-value"
    lv <- c(lv, "no p-value")
    fills <- c(fills, "grey85")
  }
  both$verdict <- factor(verdict, levels = lv)
  both$row <- factor(both$row, levels = rev(systems))
  both$col <- factor(both$col, levels = systems)
  text_size <- max(5, min(9, 320 / n))
  # past heatmap_fit systems, every k-th is named so that the names do not overprint
  step <- max(1L, as.integer(ceiling(n / heatmap_fit)))
  named <- systems[seq(1L, n, by = step)]
  if (step > 1L) {
    cli::cli_inform(c("i" = "{n} systems do not fit as labels in a 7 in figure; one in {step} is named (in order of mean {measure}).",
                      " " = "Choose fewer with {.arg systems}, or save the figure larger."),
                    class = "irtopics_message_layout")
  }
  p <- ggplot2::ggplot(both, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$verdict)) +
    ggplot2::geom_tile(colour = if (n <= heatmap_fit) "white" else NA) +
    ggplot2::scale_fill_manual(values = stats::setNames(fills, lv),
                               drop = FALSE, name = NULL) +
    ggplot2::scale_x_discrete(drop = FALSE, position = "top", breaks = named) +
    ggplot2::scale_y_discrete(drop = FALSE, breaks = named) +
    ggplot2::coord_fixed() +
    ggplot2::labs(x = NULL, y = NULL,
                  title = wrap_text(sprintf("%s: row vs column system, adjusted p-values", measure)),
                  subtitle = wrap_text(sprintf("%s; systems by mean %s, best first",
                                               comparison_settings(object), measure), 45L)) +
    ggplot2::theme_minimal() + title_theme() +
    ggplot2::theme(axis.text.x.top = ggplot2::element_text(angle = 90, hjust = 0, vjust = 0.5, size = text_size),
                   axis.text.y = ggplot2::element_text(size = text_size),
                   panel.grid = ggplot2::element_blank(),
                   legend.text = ggplot2::element_text(size = 7),
                   legend.key.height = ggplot2::unit(1.6, "lines"))
  if (ordering != "effect") p <- p + ggplot2::labs(subtitle = wrap_text(comparison_settings(object), 45L))
  if (n <= 12L) {
    # two decimals, without the leading zero: the cells stay narrow
    both$ptext <- ifelse(is.na(both$p), "NA", ifelse(both$p < 0.01, "<.01",
                                                     ifelse(both$p >= 0.995, "1", sub("^0", "", sprintf("%.2f", both$p)))))
    p <- p + ggplot2::geom_text(data = both, ggplot2::aes(label = .data$ptext,
                                                          colour = .data$sig & !is.na(.data$p)),
                                size = min(2.5, 24 / n), show.legend = FALSE) +
      ggplot2::scale_colour_manual(values = c(`TRUE` = "white", `FALSE` = "grey20"))
  }
  p
}

comparison_topics <- function(object, tab, measure, pair) {
  m <- object$scores[[measure]]
  if (is.null(pair)) pair <- c(tab$system1[1], tab$system2[1])
  if (!is.character(pair) || length(pair) != 2L || anyNA(pair) || pair[1] == pair[2]) {
    stop_irtopics("{.arg pair} must name two different systems of the comparison.")
  }
  check_names_in(pair, rownames(m), arg = "pair", of = "object")
  d <- m[pair[1], ] - m[pair[2], ]
  d <- sort(d[!is.na(d)])
  tol <- object$tie_tol
  outcome <- ifelse(d > tol, "win", ifelse(d < -tol, "loss", "tie"))
  df <- data.frame(topic = names(d), rank = seq_along(d), difference = unname(d),
                   outcome = factor(outcome, levels = c("loss", "tie", "win")))
  ggplot2::ggplot(df, ggplot2::aes(x = .data$rank, y = .data$difference, fill = .data$outcome)) +
    ggplot2::geom_col(width = 1) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey30") +
    ggplot2::scale_fill_manual(values = c(loss = "#b2182b", tie = "grey60", win = "#2166ac"),
                               drop = FALSE) +
    ggplot2::labs(x = "Topics, sorted by difference", y = sprintf("%s: %s - %s", measure, pair[1], pair[2]),
                  fill = NULL,
                  title = wrap_text(sprintf("%s, %s vs %s: %d wins, %d ties, %d losses", measure, pair[1], pair[2],
                                            sum(outcome == "win"), sum(outcome == "tie"), sum(outcome == "loss")))) +
    ggplot2::theme_minimal() + title_theme()
}
