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
# better than (a character matrix systems x measures).
beaten_labels <- function(x) {
  systems <- rownames(x$means)
  lab <- system_labels(systems)
  sep <- if (length(systems) <= 26L) "" else ","
  out <- matrix("", length(systems), ncol(x$means), dimnames = dimnames(x$means))
  tab <- x$table[x$table$significant, , drop = FALSE]
  for (meas in colnames(out)) {
    t1 <- tab[tab$measure == meas, , drop = FALSE]
    winner <- ifelse(t1$estimate > 0, t1$system1, t1$system2)
    loser <- ifelse(t1$estimate > 0, t1$system2, t1$system1)
    for (s in unique(winner)) {
      beaten <- sort(match(loser[winner == s], systems))
      out[s, meas] <- paste(lab[beaten], collapse = sep)
    }
  }
  out
}

comparison_header <- function(x) {
  ms <- colnames(x$means)
  n_top <- vapply(x$scores, ncol, integer(1))
  corr <- if (x$test %in% c("tukey", "rthsd")) "familywise error controlled by the procedure" else
    correction_labels[[x$correction]]
  extra <- c(
    if (!is.na(x$B) && !(x$test == "randomization" && isTRUE(x$exact))) sprintf("B = %s", format(x$B, big.mark = ",")),
    if (x$test == "randomization" && isTRUE(x$exact)) "exact",
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
#' labels, best mean in bold). `as.data.frame()` gives the tidy table (one
#' row per pair and measure), and `summary()` counts significant pairs.
#'
#' @param x,object An `ir_comparison` from [compare_systems()] (for the `print()` method of a
#'   summary, the result of `summary()`).
#' @param format `"plain"` (the printed report), `"latex"` (a `tabular`) or
#'   `"markdown"`.
#' @param digits Decimals of the means.
#' @param ... Unused.
#' @return `format()`: a character vector of lines. `summary()`: a
#'   `summary.ir_comparison` with `measures` (pairs and significant pairs per
#'   measure) and `systems` (per system and measure, the number of systems it
#'   is significantly better and worse than). `as.data.frame()`: the data
#'   frame `x$table` described in [compare_systems()].
#' @examples
#' x <- rbind(a = c(.7, .3, .2, .6, .4, .5, .8, .3), b = c(.5, .1, 0, .2, .4, .3, .6, .1),
#'            c = c(0, 0, .2, .1, .3, .2, .1, 0))
#' colnames(x) <- paste0("t", 1:8)
#' cmp <- compare_systems(x, correction = "none")
#' cmp
#' summary(cmp)
#' cat(format(cmp, "latex"), sep = "\n")
#' head(as.data.frame(cmp))
#' @export
format.ir_comparison <- function(x, format = c("plain", "latex", "markdown"), digits = 4, ...) {
  format <- match.arg(format)
  systems <- rownames(x$means)
  lab <- system_labels(systems)
  marks <- beaten_labels(x)
  num <- matrix(formatC(x$means, digits = digits, format = "f"), nrow(x$means),
                dimnames = dimnames(x$means))
  best <- apply(x$means, 2, function(v) !is.na(v) & v == max(v, na.rm = TRUE))
  best <- matrix(best, nrow(x$means))
  n_sig <- sum(x$table$significant)
  foot <- sprintf("%s marks the systems a system is significantly better than (p.adjusted < %s); %d of %d comparisons significant.",
                  switch(format, plain = "^", latex = "A superscript", markdown = "A superscript"),
                  format(x$alpha), n_sig, nrow(x$table))
  if (format == "plain") {
    cells <- matrix(paste0(num, ifelse(best, "*", " "), ifelse(marks == "", "", paste0("^", marks))),
                    nrow(num), dimnames = dimnames(num))
    body <- data.frame(` ` = lab, system = systems, cells, check.names = FALSE,
                       stringsAsFactors = FALSE)
    lines <- printed_lines(print(format(body, justify = "left"), row.names = FALSE))
    return(c(paste0("<ir_comparison> ", comparison_header(x)), lines,
             paste("#", foot, "* = best mean.")))
  }
  if (format == "latex") {
    esc <- function(s) gsub("([_&%#$])", "\\\\\\1", s)
    cells <- matrix(paste0(ifelse(best, paste0("\\textbf{", num, "}"), num),
                           ifelse(marks == "", "", paste0("$^{", marks, "}$"))),
                    nrow(num))
    rows <- paste0(paste(lab, esc(systems), apply(cells, 1, paste, collapse = " & "), sep = " & "),
                   " \\\\")
    return(c(paste0("% ", comparison_header(x)),
             paste0("\\begin{tabular}{ll", strrep("r", ncol(num)), "}"), "\\hline",
             paste0(" & System & ", paste(esc(colnames(num)), collapse = " & "), " \\\\"), "\\hline",
             rows, "\\hline", "\\end{tabular}", paste("%", foot)))
  }
  md_esc <- function(s) gsub("([|*_])", "\\\\\\1", s)
  cells <- matrix(paste0(ifelse(best, paste0("**", num, "**"), num),
                         ifelse(marks == "", "", paste0("<sup>", marks, "</sup>"))), nrow(num))
  c(paste0("| | System | ", paste(md_esc(colnames(num)), collapse = " | "), " |"),
    paste0("|---|---|", strrep("---:|", ncol(num))),
    paste0("| ", lab, " | ", md_esc(systems), " | ", apply(cells, 1, paste, collapse = " | "), " |"),
    "", paste0(comparison_header(x), ". ", foot, " Bold: best mean."))
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
  structure(list(measures = measures, systems = systems, header = comparison_header(object)),
            class = "summary.ir_comparison")
}

#' @rdname format.ir_comparison
#' @export
print.summary.ir_comparison <- function(x, ...) {
  cat("Comparison: ", x$header, "\n", sep = "")
  print(x$measures, digits = 3, row.names = FALSE)
  cat("\nSignificant differences per system:\n")
  print(x$systems, digits = 4, row.names = FALSE)
  invisible(x)
}

#' Plot a comparison of systems
#'
#' Three views of [compare_systems()]:
#' * `"forest"`: the difference of each pair (system1 - system2, or system -
#'   baseline) with its confidence interval when the test has one (t-test,
#'   Tukey HSD, or a user test returning `conf.int`), coloured by
#'   significance, one panel per measure;
#' * `"heatmap"`: the adjusted p-values of all pairs as a systems x systems
#'   heat map;
#' * `"topics"`: the per-topic differences of one pair, sorted, coloured by
#'   win / tie / loss: where the mean difference comes from.
#'
#' @param object An `ir_comparison`.
#' @param type `"forest"`, `"heatmap"` or `"topics"`.
#' @param measure For `"heatmap"` and `"topics"`: the measure to draw
#'   (default: the first).
#' @param pair For `"topics"`: two system names (default: the first pair of
#'   the table).
#' @param ... Unused.
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
#' @export
autoplot.ir_comparison <- function(object, type = c("forest", "heatmap", "topics"),
                                   measure = NULL, pair = NULL, ...) {
  type <- match.arg(type)
  ms <- colnames(object$means)
  if (is.null(measure)) measure <- ms[1] else if (!is.character(measure) || length(measure) != 1L || !measure %in% ms) {
    stop_irtopics("{.arg measure} must be one of {.or {.val {ms}}}.")
  }
  tab <- object$table
  switch(type,
    forest = comparison_forest(object, tab),
    heatmap = comparison_heatmap(object, tab[tab$measure == measure, , drop = FALSE], measure),
    topics = comparison_topics(object, tab[tab$measure == measure, , drop = FALSE], measure, pair)
  )
}

comparison_forest <- function(object, tab) {
  tab$pair <- factor(paste(tab$system1, "-", tab$system2),
                     levels = rev(unique(paste(tab$system1, "-", tab$system2))))
  tab$significance <- ifelse(tab$significant, "significant", "not significant")
  ci <- tab[!is.na(tab$conf.low) & !is.na(tab$conf.high), , drop = FALSE]
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$pair, colour = .data$significance)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50")
  if (nrow(ci)) {
    p <- p + ggplot2::geom_segment(data = ci, ggplot2::aes(x = .data$conf.low, xend = .data$conf.high,
                                                           yend = .data$pair))
  }
  p <- p + ggplot2::geom_point(ggplot2::aes(x = .data$estimate)) +
    ggplot2::scale_colour_manual(values = c(significant = "#b2182b", `not significant` = "grey40"),
                                 drop = FALSE) +
    ggplot2::labs(x = "Difference of means", y = NULL, colour = NULL,
                  title = paste0(object$test_label, if (nrow(ci)) ": differences and confidence intervals" else ": differences")) +
    ggplot2::theme_minimal()
  if (ncol(object$means) > 1L) p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$measure), scales = "free_x")
  p
}

comparison_heatmap <- function(object, tab, measure) {
  systems <- rownames(object$means)
  both <- rbind(data.frame(row = tab$system1, col = tab$system2, p = tab$p.adjusted),
                data.frame(row = tab$system2, col = tab$system1, p = tab$p.adjusted))
  both$row <- factor(both$row, levels = rev(systems))
  both$col <- factor(both$col, levels = systems)
  ggplot2::ggplot(both, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$p)) +
    ggplot2::geom_tile(colour = "white") +
    ggplot2::scale_fill_gradient(low = "#08306b", high = "#f7fbff", limits = c(0, 1),
                                 name = "adjusted p") +
    ggplot2::labs(x = NULL, y = NULL,
                  title = sprintf("%s: adjusted p-values (%s)", measure, object$test_label)) +
    ggplot2::theme_minimal() +
    ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1))
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
                  title = sprintf("%s vs %s: %d wins, %d ties, %d losses", pair[1], pair[2],
                                  sum(outcome == "win"), sum(outcome == "tie"), sum(outcome == "loss"))) +
    ggplot2::theme_minimal()
}
