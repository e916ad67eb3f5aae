# Tables for papers: means_table() and the one table behind it and the
# comparison report (plain, LaTeX, markdown). The LaTeX float and the text
# rules are in R/utils-latex.R.

#' A table of mean scores for a paper
#'
#' Systems x measures, the means of an [evaluate()] result, a score matrix or
#' a comparison, as plain text, LaTeX or markdown, with the options of the
#' comparison report ([format.ir_comparison()]): ordering by a measure, the
#' best mean in bold, a caption and label, booktabs rules, decimal
#' alignment, the width; no significance marks.
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
#' @section Tables for papers:
#' The same rules hold for every table of the package ([format.ir_comparison()],
#' [means_table()]):
#' * **Order.** Rows are ordered best first by the first measure
#'   (`order_by = 1`: decreasing mean, or increasing where lower is better,
#'   see "Aggregate and direction" in [measure_info()]), by another measure
#'   (its name or position), in the order the user gives (`order_by` = every
#'   system's name, in that order), or in the order of the scores
#'   (`order_by = NULL`); ties keep the order of the scores. The best value
#'   of each measure (the lowest where lower is better) is marked.
#' * **Aggregates.** A table of an evaluation or a score matrix shows each
#'   measure's aggregate (the geometric mean for `gm_map`, the sum for the
#'   counts: [mean_scores()]) and its legend says which are not means; a
#'   comparison's table shows the arithmetic means its tests compare, and
#'   labels a measure whose aggregate is something else ("gm_map (mean)").
#' * **Text.** The caption is plain text and is escaped: "5% better",
#'   "P_10", "&", "#", "$" print as typed. To write LaTeX (or markdown) on
#'   purpose, wrap the caption in [I()]: `caption = I("MAP, $\\alpha = 0.01$")`.
#'   System and measure names are always escaped. The legend writes symbols
#'   as math (\eqn{p}, \eqn{\alpha}, \eqn{<}, \eqn{\times}, \eqn{\pm}), so
#'   no "<" is set as text (under pdflatex's default OT1 font encoding it
#'   would print as an inverted exclamation mark).
#' * **Alignment.** Each measure is two LaTeX columns, `r@{}l`: the integer
#'   part right-aligned, then the decimal point, the decimals and the
#'   superscript (`\textsuperscript`) left-aligned, so the decimal points
#'   line up whatever the length of the marks and whether the number is bold
#'   (no LaTeX package needed). With intervals a third column holds them.
#' * **Width.** The table is a `table` float (one column of a two-column
#'   page); `environment = "table*"` spans the page. To fit one column,
#'   `size = "small"`, `"footnotesize"` or `"scriptsize"` sets the font size
#'   of the tabular (the legend is at most `\footnotesize` and never larger
#'   than the table), `compact = TRUE` halves the space between columns
#'   (`\tabcolsep` 3pt, inside the float only) and writes three or more
#'   consecutive letters of a mark as a range (`c-f`), and fewer `digits`
#'   help. E.g. 3 measures of 17 systems with their marks are 87pt too wide
#'   for one column of `\documentclass[twocolumn]{article}` by default, and
#'   fit with `size = "small", compact = TRUE`. There is no `\resizebox`:
#'   text keeps its size. The width is estimated before the table is
#'   written (from Computer Modern's character widths as pdflatex sets them
#'   in a 10pt article; within a point of the compiled table): one that
#'   will not fit its float (a `table` one column, 229.5pt; a `table*` the
#'   page, 469pt; `options(irtopics.latex_width = )` sets the column width
#'   of your document, or both as `c(table = , "table*" = )`) comes with a
#'   warning of class `irtopics_warning_width` that names the first of
#'   `size`, `compact` and `environment = "table*"` that makes it fit.
#' * **LaTeX packages.** `booktabs = TRUE` (the default) draws `\toprule`,
#'   `\midrule` and `\bottomrule` and needs `\usepackage{booktabs}`;
#'   `booktabs = FALSE` uses `\hline` and needs nothing. The float holds the
#'   caption (above), the label, the `tabular` and the legend (which test,
#'   which correction, what the marks mean) as a paragraph under the rules,
#'   so that the legend reaches the paper.
#' * **Markdown.** The caption is in pandoc's `Table:` form (with
#'   `{#tbl:label}` for pandoc-crossref when `label` is given) and the legend
#'   under it; `|`, `*`, `_` and backslashes in text are escaped.
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
#' # one column of a two-column paper, or the width of the page
#' cat(means_table(ap, "latex", size = "footnotesize", compact = TRUE, digits = 3), sep = "\n")
#' cat(means_table(ap, "latex", environment = "table*", order_by = NULL), sep = "\n")
#' @export
means_table <- function(x, format = c("plain", "latex", "markdown"), digits = 4, order_by = 1L,
                        caption = NULL, label = NULL, booktabs = TRUE, baseline = NULL,
                        interval = c("none", "t", "percentile", "bca"), conf = 0.95,
                        style = c("brackets", "pm"), B = 1000, seed = NULL, progress = NULL,
                        environment = c("table", "table*"),
                        size = c("normalsize", "small", "footnotesize", "scriptsize"), compact = FALSE) {
  format <- match_choice(format)
  check_report_args(digits, caption, label, booktabs, compact)
  interval <- match_choice(interval)
  style <- match_choice(style)
  layout <- list(environment = match_choice(environment), size = match_choice(size), compact = compact)
  ci <- if (inherits(x, "ir_mean_intervals")) x else if (interval != "none") {
    mean_intervals(x, conf = conf, interval = interval, B = B, seed = seed, progress = progress)
  }
  if (inherits(x, "ir_comparison")) {
    means <- ci$means %||% x$means
    records <- score_records(x$scores)
  } else if (!is.null(ci)) {
    means <- ci$means
    records <- ci$records
  } else if (inherits(x, "ir_evaluation")) {
    m <- mean_scores(x)
    means <- as.matrix(m[setdiff(names(m), "system")])
    rownames(means) <- m$system
    records <- score_records(unclass(x))
  } else if (inherits(x, "ir_scores")) {
    measure <- attr(x, "measure") %||% "score"
    means <- matrix(mean_scores(x), dimnames = list(rownames(x), measure))
    records <- score_records(stats::setNames(list(x), measure))
  } else {
    stop_irtopics("{.arg x} must be an {.cls ir_evaluation}, an {.cls ir_scores} or an {.cls ir_comparison}, not {.obj_type_friendly {x}}.")
  }
  if (!is.null(baseline)) check_names_in(baseline, rownames(means), arg = "baseline", of = "x")
  direction <- stats::setNames(records$direction, records$measure)
  systems <- report_order(means, order_by, direction)
  marks <- matrix("", length(systems), ncol(means))
  shown <- interval_cells(ci, systems, format, digits, style)
  # a comparison's means are arithmetic whatever the measure's aggregate: labelled
  if (inherits(x, "ir_comparison")) {
    labelled <- mean_column_labels(records, format)
    colnames(means) <- labelled$labels
    note <- labelled$note
  } else {
    note <- aggregate_note(records)
    if (!is.null(note)) note <- table_text(format, note, ".")
  }
  report_table(means[systems, , drop = FALSE], marks, format, digits, baseline = baseline,
               header = sprintf("Mean scores of %s", plural(nrow(means), "system")), legend = NULL,
               caption = caption, label = label, booktabs = booktabs, ci = shown$cells,
               ci_note = c(shown$note, note), layout = layout, direction = unname(direction))
}

# The column labels of a comparison's means (arithmetic means of the
# per-topic values, which its tests compare): a measure whose aggregate is
# not the mean is labelled "gm_map (mean)", and `note` (text of `format`, or
# NULL) says what that is.
mean_column_labels <- function(records, format) {
  other <- records$aggregate != "mean"
  labels <- ifelse(other, paste0(records$measure, " (mean)"), records$measure)
  note <- if (any(other)) {
    table_text(format, paste(records$measure[other], collapse = ", "),
               " (mean): the arithmetic mean of the per-topic values, which the tests compare, not the measure's ",
               paste(unique(aggregate_labels[records$aggregate[other]]), collapse = " or "), ".")
  }
  list(labels = labels, note = note)
}

# The systems in the order a report shows them (`order_by`: a measure by
# name or position, every system's name, or NULL for the order of the scores).
# `direction`: NULL (higher is better) or each measure's, named by measure:
# best first.
report_order <- function(means, order_by, direction = NULL, call = rlang::caller_env()) {
  systems <- rownames(means)
  if (is.null(order_by)) return(systems)
  if (is.numeric(order_by) && length(order_by) == 1L && !is.na(order_by) &&
      order_by %in% seq_len(ncol(means))) {
    order_by <- colnames(means)[order_by]
  }
  if (is.character(order_by) && length(order_by) == 1L && order_by %in% colnames(means)) {
    return(systems[order(-better_sign(direction[order_by][[1]]) * means[, order_by], method = "radix")])
  }
  if (is.character(order_by) && length(order_by) == length(systems) && !anyNA(order_by) &&
      setequal(order_by, systems) && !anyDuplicated(order_by)) {
    return(order_by)
  }
  stop_irtopics(c("{.arg order_by} must be a measure of the table ({.or {.val {colnames(means)}}}, or its position), every system's name once, or {.code NULL}.",
                  x = "Got {show_values(order_by)}."), call = call)
}

# The arguments of the reports' layout, checked (issue 29: digits = NA or
# "3" and booktabs = NA reached base R's errors, digits = 2.5 printed 2).
check_report_args <- function(digits, caption, label, booktabs, compact = FALSE, call = rlang::caller_env()) {
  check_number(digits, "digits", min = 0, max = 15, integer = TRUE, call = call)
  check_flag(booktabs, "booktabs", call = call)
  check_flag(compact, "compact", call = call)
  for (arg in c("caption", "label")) {
    v <- list(caption = caption, label = label)[[arg]]
    if (!is.null(v) && !(is.character(v) && length(v) == 1L && !is.na(v))) {
      stop_irtopics("{.arg {arg}} must be one string or {.code NULL}, not {show_value(v)}.", call = call)
    }
  }
  invisible(NULL)
}

# The one table behind the comparison report and means_table(): means
# (systems in display order x measures), their marks, in a format. `header`,
# `legend` and `ci_note` are text of the format (escaped); `caption` is the
# user's (escaped here unless I()).
report_table <- function(means, marks, format, digits, baseline, header, legend, caption, label,
                         booktabs, ci = "", ci_note = NULL, layout = list(), direction = NULL) {
  systems <- rownames(means)
  lab <- system_labels(systems)
  num <- matrix(formatC(means, digits = digits, format = "f"), nrow(means), dimnames = dimnames(means))
  # the best value of each measure in its direction (`direction`: one per
  # column, NULL: higher is better)
  signs <- vapply(seq_len(ncol(means)), function(j) better_sign(direction[j]), numeric(1))
  best <- apply(sweep(means, 2, signs, `*`), 2, function(v) !is.na(v) & v == max(v, na.rm = TRUE))
  best <- matrix(best, nrow(means))
  is_base <- !is.null(baseline) & systems %in% baseline
  base_note <- if (any(is_base)) "The baseline is marked (baseline)." else NULL
  caption <- table_caption(caption, format)
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
  note <- paste(c(paste0(header, "."), legend, ci_note, "Bold: best mean.", base_note), collapse = " ")
  if (format == "latex") {
    names_shown <- paste0(latex_escape(systems), ifelse(is_base, " (baseline)", ""))
    bold <- function(s) ifelse(best & nzchar(s), paste0("\\textbf{", s, "}"), s)
    parts <- split_decimal(num)
    # marks as text superscripts: ranges get an en dash, not a minus sign
    frac <- paste0(bold(parts$frac), ifelse(marks == "", "", paste0("\\textsuperscript{", gsub("-", "--", marks), "}")))
    has_ci <- !identical(ci, "")
    ci <- sub("^ ", "", ci)
    k <- if (has_ci) 3L else 2L
    # per measure: integer part, point + decimals + marks, [interval]
    cells <- lapply(seq_len(ncol(num)), function(j) {
      i <- (j - 1L) * nrow(num) + seq_len(nrow(num))
      cbind(bold(parts$int)[i], frac[i], if (has_ci) ci[i])
    })
    body <- cbind(lab, names_shown, do.call(cbind, cells))
    align <- paste0("ll", strrep(if (has_ci) "r@{}l@{\\ }l" else "r@{}l", ncol(num)))
    head <- c("", "System", sprintf("\\multicolumn{%d}{c}{%s}", k, latex_escape(colnames(num))))
    return(latex_table(head, body, align, caption = caption, label = label, note = note,
                       booktabs = booktabs, environment = layout$environment %||% "table",
                       size = layout$size %||% "normalsize", compact = isTRUE(layout$compact)))
  }
  cells <- matrix(paste0(ifelse(best, paste0("**", num, "**"), num), ci,
                         ifelse(marks == "", "", paste0("<sup>", gsub("-", "\u2013", marks), "</sup>"))), nrow(num))
  names_shown <- paste0(markdown_escape(systems), ifelse(is_base, " (baseline)", ""))
  cap <- if (!is.null(caption) || !is.null(label)) {
    paste0("Table: ", caption %||% "", if (!is.null(label)) paste0(" {#", label, "}") else "")
  }
  c(paste0("| | System | ", paste(markdown_escape(colnames(num)), collapse = " | "), " |"),
    paste0("|---|---|", strrep("---:|", ncol(num))),
    paste0("| ", lab, " | ", names_shown, " | ", apply(cells, 1, paste, collapse = " | "), " |"),
    "", if (!is.null(cap)) c(cap, ""), note)
}
