# Methods of meta_analysis()'s result (`ir_meta_analysis`; the function and the
# pooling are in compare-meta-analysis.R) ---------------------------------------

# "Hedges' g (paired)" or "mean difference", for headers and axis titles.
meta_effect_label <- function(x) {
  if (x$effect == "md") return("mean difference")
  if (x$hedges) "Hedges' g of the paired differences" else "Cohen's d_z of the paired differences"
}

meta_effect_short <- function(x) {
  if (x$effect == "md") "Mean difference" else if (x$hedges) "Hedges' g" else "Cohen's d_z"
}

meta_comparison_text <- function(x) {
  s <- unique(x$studies$system)
  b <- unique(x$studies$baseline)
  if (length(s) == 1L && length(b) == 1L) sprintf("%s vs %s", s, b) else "each collection's system vs baseline"
}

# The same, short, as plotmath for a figure (tau^2 and I^2 as symbols).
meta_heterogeneity_expr <- function(x) {
  r <- x$pooled[x$pooled$method == x$method, ]
  bquote(Q == .(format(signif(x$Q, 3))) ~ (italic(p) == .(format.pval(x$Q_p, digits = 2))) * ";" ~
           .(x$method) ~ tau^2 == .(format(signif(r$tau2, 3))) * "," ~ I^2 == .(sprintf("%.0f%%", r$I2)))
}

meta_heterogeneity_text <- function(x, short = FALSE) {
  r <- x$pooled[x$pooled$method == x$method, ]
  if (short) {
    return(sprintf("Q = %s (p = %s); %s tau^2 = %s, I^2 = %.0f%%", format(signif(x$Q, 3)),
                   format.pval(x$Q_p, digits = 2), x$method, format(signif(r$tau2, 3)), r$I2))
  }
  sprintf("Q = %s (df %d, p = %s); %s: tau^2 = %s, I^2 = %.1f%%, H^2 = %s",
          format(signif(x$Q, 4)), as.integer(x$Q_df), format.pval(x$Q_p, digits = 3),
          x$method, format(signif(r$tau2, 3)), r$I2, format(signif(r$H2, 3)))
}

# Which collections are replicates averaged per topic (NULL when none).
meta_replicates_text <- function(x) {
  rep <- x$studies$replicates %||% rep(1L, nrow(x$studies))
  if (all(rep == 1L)) return(NULL)
  sprintf("Replicates on shared topics, averaged per topic first: %s",
          paste(sprintf("%s (%d)", x$studies$collection[rep > 1L], rep[rep > 1L]), collapse = ", "))
}

#' @rdname meta_analysis
#' @param object An `ir_meta_analysis`.
#' @param ... Unused.
#' @export
format.ir_meta_analysis <- function(x, ...) {
  st <- x$studies
  cl <- function(e, lo, hi, f = "%.4f") sprintf(sprintf("%s [%s, %s]", f, f, f), e, lo, hi)
  f3 <- function(v) formatC(v, digits = 3, format = "fg", flag = "#")
  c3 <- function(e, lo, hi) paste0(f3(e), " [", f3(lo), ", ", f3(hi), "]")
  pct <- sprintf("%g%%", 100 * x$conf)
  per <- data.frame(collection = st$collection, n = st$n_topics,
                    md = c3(st$md, st$md_low, st$md_high), smd = c3(st$smd, st$smd_low, st$smd_high),
                    w = sprintf("%.1f%%", x$weights[, x$method]), stringsAsFactors = FALSE)
  names(per)[3:4] <- c(paste0("diff [", pct, "]"), paste0(if (x$hedges) "g" else "d_z", " [", pct, "]"))
  if (!identical(unique(st$system), st$system[1]) || !identical(unique(st$baseline), st$baseline[1])) {
    per <- cbind(per[1], comparison = paste(st$system, "-", st$baseline), per[-1])
  }
  po <- x$pooled[order(x$pooled$method != x$method), ]
  pooled <- data.frame(model = po$method, estimate = cl(po$estimate, po$conf.low, po$conf.high),
                       prediction = sprintf("[%.4f, %.4f]", po$pi.low, po$pi.high),
                       p.value = format.pval(po$p.value, digits = 3), tau2 = signif(po$tau2, 3),
                       I2 = sprintf("%.1f%%", po$I2), stringsAsFactors = FALSE)
  c(sprintf("<ir_meta_analysis> %s over %s%s", meta_comparison_text(x), plural(x$k, "collection"),
            if (is.null(x$measure)) "" else paste0(", ", x$measure)),
    sprintf("Pooled effect: %s; %s Wald intervals; w: weights (%s)", meta_effect_label(x), pct, x$method),
    if (identical(x$test, "knha")) sprintf("Pooled: Knapp-Hartung t on %d df", as.integer(x$k - 1)),
    meta_replicates_text(x),
    printed_lines(print(per, row.names = FALSE)),
    "Pooled (FE: fixed effect; DL, REML: random effects; prediction: a new collection):",
    printed_lines(print(pooled, row.names = FALSE)),
    meta_heterogeneity_text(x))
}

#' @rdname meta_analysis
#' @export
print.ir_meta_analysis <- function(x, ...) print_formatted(x, ...)

#' @rdname meta_analysis
#' @export
summary.ir_meta_analysis <- function(object, ...) {
  new_summary("ir_meta_analysis",
              c(sprintf("Meta-analysis of %s over %s: pooled %s", meta_comparison_text(object),
                        plural(object$k, "collection"), meta_effect_label(object)),
                meta_heterogeneity_text(object)),
              object$pooled)
}

#' @rdname meta_analysis
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_meta_analysis <- function(x, row.names = NULL, optional = FALSE, ...) {
  st <- x$studies
  k <- nrow(st)
  po <- x$pooled
  data.frame(term = c(st$collection, po$method), type = rep(c("collection", "pooled"), c(k, nrow(po))),
             effect = x$effect, estimate = c(st$yi, po$estimate), std.error = c(sqrt(st$vi), po$std.error),
             conf.low = c(st[[paste0(x$effect, "_low")]], po$conf.low),
             conf.high = c(st[[paste0(x$effect, "_high")]], po$conf.high),
             pi.low = c(rep(NA_real_, k), po$pi.low), pi.high = c(rep(NA_real_, k), po$pi.high),
             p.value = c(rep(NA_real_, k), po$p.value), tau2 = c(rep(NA_real_, k), po$tau2),
             weight = c(x$weights[, x$method], rep(NA_real_, nrow(po))),
             n_topics = c(st$n_topics, rep(NA_integer_, nrow(po))), stringsAsFactors = FALSE)
}

#' Forest plot of a meta-analysis
#'
#' One row per collection (its effect as a square sized by its weight in the
#' chosen model, with its interval) and one diamond per pooled model (the
#' width of a diamond is its confidence interval); a random-effects model
#' also shows its prediction interval as a thin line through the diamond.
#' Built on the current theme. Labels and squares shrink with the number of
#' rows, the labels to 0.8 of the theme's axis text from 25 rows (as in the
#' forest plot of [compare_systems()]); labels that would overprint at the
#' size the figure is drawn are left out. At the default theme about 24 rows
#' (collections, pooled models and a gap) fit a figure 4.5 in tall, 7 to 9
#' one 2.6 in tall; beyond what fits 4.5 in a message (class
#' `irtopics_message_layout`) says how tall to save it.
#' The subtitle gives the heterogeneity (Q, tau squared and I squared as
#' symbols), the caption what the marks mean; both follow
#' `options(irtopics.plot_titles)` ([irtopics_figures]).
#'
#' @param object An [meta_analysis()] result.
#' @param models The pooled models to draw, among `"FE"`, `"DL"`, `"REML"`.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_meta_analysis
#' @examples
#' years <- c("adhoc5", "adhoc6", "adhoc7", "adhoc8")
#' x <- lapply(stats::setNames(years, years), function(y) {
#'   read_scores(system.file("extdata", "score-matrices", paste0(y, "_ap.csv"),
#'                           package = "irtopics"), measure = "AP")
#' })
#' # each year's best run (by MAP) against its median run
#' best <- sapply(x, function(m) names(which.max(rowMeans(m))))
#' median_run <- sapply(x, function(m) names(sort(rowMeans(m)))[ceiling(nrow(m) / 2)])
#' ma <- meta_analysis(x, system = best, baseline = median_run, effect = "md")
#' ggplot2::autoplot(ma, models = c("FE", "REML"))
#' @export
autoplot.ir_meta_analysis <- function(object, models = c("FE", "DL", "REML"), ...) {
  check_no_dots(..., help = "autoplot.ir_meta_analysis")
  if (!is.character(models) || !length(models) || anyNA(models) || !all(models %in% object$pooled$method) ||
      anyDuplicated(models)) {
    stop_irtopics(c("{.arg models} must be distinct names among \"FE\", \"DL\", \"REML\".",
                    x = "Got {show_values(models)}."))
  }
  st <- object$studies
  k <- nrow(st)
  po <- object$pooled[match(models, object$pooled$method), ]
  np <- nrow(po)
  # collections from the top, a gap, then the pooled models
  y_st <- rev(seq_len(k)) + np + 1
  y_po <- rev(seq_len(np))
  lo <- paste0(object$effect, "_low")
  hi <- paste0(object$effect, "_high")
  studies <- data.frame(y = y_st, estimate = st$yi, low = st[[lo]], high = st[[hi]],
                        weight = object$weights[, object$method])
  h <- 0.3
  diamonds <- data.frame(model = rep(po$method, each = 4L),
                         x = as.vector(rbind(po$conf.low, po$estimate, po$conf.high, po$estimate)),
                         y = rep(y_po, each = 4L) + c(0, h, 0, -h))
  re <- po[po$method != "FE", ]
  pred <- data.frame(y = y_po[po$method != "FE"], low = re$pi.low, high = re$pi.high)
  labels <- c(st$collection, ifelse(po$method == "FE", "FE (fixed)", paste0(po$method, " (random)")))
  pct <- sprintf("%g%%", 100 * object$conf)
  # labels sized as the comparison forest's (crowded_text()); those that would overprint at the
  # size drawn are left out, and a message says so past what fits 4.5 in
  n_rows <- k + np + 1
  if (n_rows > crowded_fit(n_rows, forest_panel_in[["tall"]])) {
    pt <- crowded_pt(n_rows)
    inform_irtopics(c("i" = "{k} collections do not fit as labels of {format(pt, digits = 2)} pt in a 4.5 in figure; labels that would overprint are left out.",
                      " " = "Save it about {crowded_height_in(n_rows)} in tall to name all."), kind = "layout")
  }
  ggplot2::ggplot() +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50") +
    interval_bars(data = pred, ggplot2::aes(xmin = .data$low, xmax = .data$high, y = .data$y), height = 0.3,
                  linewidth = 0.3) +
    interval_bars(data = studies, ggplot2::aes(xmin = .data$low, xmax = .data$high, y = .data$y),
                  height = 0.25) +
    ggplot2::geom_point(data = studies, ggplot2::aes(x = .data$estimate, y = .data$y, size = .data$weight),
                        shape = 15) +
    ggplot2::geom_polygon(data = diamonds, ggplot2::aes(x = .data$x, y = .data$y, group = .data$model),
                          fill = "grey30") +
    ggplot2::scale_size_area(max_size = max(1.5, min(4, 60 / n_rows)), guide = "none") +
    ggplot2::scale_y_continuous(breaks = c(y_st, y_po), labels = labels, expand = ggplot2::expansion(add = 0.6),
                                guide = crowded_guide()) +
    plot_labels(x = wrap_text(sprintf("%s (%s intervals)", meta_effect_short(object), pct), 40), y = NULL,
                title = wrap_text(sprintf("Meta-analysis: %s%s", meta_comparison_text(object),
                                          if (is.null(object$measure)) "" else paste0(", ", object$measure))),
                subtitle = meta_heterogeneity_expr(object),
                caption = wrap_text(sprintf("Squares: weights (%s); thin lines: prediction intervals.",
                                            object$method), 64)) +
    title_theme() + crowded_y_theme(n_rows)
}
