# Methods of ir_qrels_agreement: print, summary, as.data.frame, autoplot ------------

# The label statistics printed for several candidates (one column each).
key_label_statistics <- c(kappa = "kappa", weighted_kappa_linear = "wkappa_lin",
                          weighted_kappa_quadratic = "wkappa_quad",
                          krippendorff_alpha_ordinal = "alpha_ord")

interval_text <- function(x) {
  if (x$B == 0) return("no intervals (B = 0)")
  sprintf("%g%% %s intervals from %s bootstrap samples of topics", 100 * x$conf, x$interval,
          format(x$B, big.mark = ","))
}

# What the leaderboard intervals are and what they are for.
leaderboard_interval_text <- function(x) {
  if (x$B == 0) return("no intervals (B = 0)")
  # (results stored before the leaderboard had an interval of its own)
  method <- x$leaderboard_interval %||% x$interval
  target <- x$target %||% agreement_interval_targets[[method]]
  how <- if (method == "jackknife") "jackknife intervals (one topic left out at a time)" else
    sprintf("%s bootstrap intervals (%s samples of topics)", method, format(x$B, big.mark = ","))
  sprintf("%g%% %s for the agreement %s", 100 * x$conf, how,
          if (target == "population") "over the topic population" else "to expect on this many topics")
}

# A note per candidate whose leaderboard intervals lie on one side of their
# estimates (the first `n` candidates, then how many more).
leaderboard_notes <- function(x, n = 3L) {
  lb <- x$leaderboard
  method <- x$leaderboard_interval %||% x$interval
  out <- unlist(lapply(unique(lb$candidate), function(cn) {
    d <- lb[lb$candidate == cn, , drop = FALSE]
    what <- if (x$n_candidates > 1L) sprintf("%s (%s)", d$statistic, cn) else d$statistic
    excluded_estimate_note(what, d$estimate, d$conf.low, d$conf.high, ncol(x$scores$candidates[[cn]]), method)
  }))
  if (length(out) > n) {
    out <- c(out[seq_len(n)], sprintf("(%d more candidates have intervals on one side of their estimates.)",
                                      length(out) - n))
  }
  out
}

#' @rdname compare_qrels
#' @param x,object An `ir_qrels_agreement` object.
#' @param n Rows of each table to print.
#' @param ... Unused.
#' @export
format.ir_qrels_agreement <- function(x, ..., n = 12L) {
  check_shown(n = n)
  cn <- x$counts
  grades <- paste(x$grades, collapse = ", ")
  lines <- sprintf("<ir_qrels_agreement> %s against the reference; grades %s",
                   plural(x$n_candidates, "candidate label set"), grades)
  if (x$n_candidates == 1L) {
    lines <- c(lines, sprintf("Pairs judged by both: %s on %s (%s by the reference only, %s by the candidate only)",
                              format(cn$n_both, big.mark = ","), plural(cn$n_topics, "topic"),
                              format(cn$n_reference_only, big.mark = ","),
                              format(cn$n_candidate_only, big.mark = ",")),
               sprintf("Labels (%s):", interval_text(x)),
               printed_lines(print(round_df(x$labels[, -1L]), row.names = FALSE)))
  } else {
    wide <- labels_wide(x)
    shown <- utils::head(wide, n)
    lines <- c(lines, sprintf("Labels: %s; estimates:", interval_text(x)),
               printed_lines(print(round_df(shown), row.names = FALSE)),
               more_line(candidate = nrow(wide) - nrow(shown)))
  }
  if (!is.null(x$leaderboard)) {
    lb <- x$leaderboard[, c("candidate", "statistic", "estimate", "conf.low", "conf.high")]
    if (x$n_candidates > 1L) lb <- lb[lb$statistic %in% c("kendall_tau", "tau_ap"), , drop = FALSE]
    shown <- utils::head(lb, n)
    lines <- c(lines, sprintf("Leaderboards (%s, %s systems by mean; %s):", x$measure,
                              format(length(unique(x$means$system))), leaderboard_interval_text(x)),
               printed_lines(print(round_df(if (x$n_candidates == 1L) shown[, -1L] else shown), row.names = FALSE)),
               more_line(row = nrow(lb) - nrow(shown)), leaderboard_notes(x))
    cl <- conclusions_wide(x)
    shown <- utils::head(cl, n)
    lines <- c(lines, sprintf("Conclusions (%s test, %s correction, alpha = %g), pairs of systems:", x$test,
                              x$correction, x$alpha),
               printed_lines(print(round_df(if (x$n_candidates == 1L) shown[, -1L] else shown), row.names = FALSE)),
               more_line(candidate = nrow(cl) - nrow(shown)))
  }
  lines
}

# One row per candidate, the key label statistics as columns.
labels_wide <- function(x) {
  lab <- x$labels[is.na(x$labels$threshold) & x$labels$statistic %in% names(key_label_statistics), ]
  cands <- unique(x$labels$candidate)
  out <- data.frame(candidate = cands, n_both = x$counts$n_both[match(cands, x$counts$candidate)],
                    stringsAsFactors = FALSE)
  for (s in names(key_label_statistics)) {
    d <- lab[lab$statistic == s, ]
    out[[key_label_statistics[[s]]]] <- d$estimate[match(cands, d$candidate)]
  }
  out
}

# One row per candidate: the pairs, the share with the same decision and the
# counts of each kind of change.
conclusions_wide <- function(x) {
  cl <- x$conclusions
  cands <- unique(cl$candidate)
  get <- function(s, col = "count") {
    d <- cl[cl$statistic == s, ]
    d[[col]][match(cands, d$candidate)]
  }
  pairs <- vapply(cands, function(cn) sum(x$flips$candidate == cn), numeric(1))
  data.frame(candidate = cands, pairs = unname(pairs), same_decision = get("same_decision", "share"),
             gained = get("gained"), lost = get("lost"), swapped = get("swapped"),
             sig_reference = get("significant_reference"),
             sig_candidate = get("significant_candidate"), stringsAsFactors = FALSE)
}

#' @rdname compare_qrels
#' @export
print.ir_qrels_agreement <- function(x, ..., n = 12L) print_formatted(x, n = n)

#' @rdname compare_qrels
#' @export
summary.ir_qrels_agreement <- function(object, ...) {
  tab <- labels_wide(object)
  kap <- object$labels[object$labels$statistic == "kappa" & is.na(object$labels$threshold), ]
  tab$kappa_low <- kap$conf.low[match(tab$candidate, kap$candidate)]
  tab$kappa_high <- kap$conf.high[match(tab$candidate, kap$candidate)]
  if (!is.null(object$leaderboard)) {
    for (s in c("kendall_tau", "tau_ap")) {
      d <- object$leaderboard[object$leaderboard$statistic == s, ]
      tab[[s]] <- d$estimate[match(tab$candidate, d$candidate)]
    }
    same <- object$conclusions[object$conclusions$statistic == "same_decision", ]
    tab$same_decision <- same$share[match(tab$candidate, same$candidate)]
  }
  new_summary("ir_qrels_agreement",
              c(sprintf("Agreement of %s with the reference labels (%s):",
                        plural(object$n_candidates, "candidate label set"), interval_text(object)),
                if (!is.null(object$measure)) sprintf("leaderboards and conclusions under %s", object$measure)),
              tab)
}

#' @rdname compare_qrels
#' @param what Which table: `"labels"`, `"topics"`, `"confusion"`,
#'   `"leaderboard"`, `"conclusions"` or `"flips"`.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_qrels_agreement <- function(x, row.names = NULL, optional = FALSE, ...,
                                             what = c("labels", "topics", "confusion", "leaderboard",
                                                      "conclusions", "flips")) {
  what <- match_choice(what)
  out <- x[[what]]
  if (is.null(out)) {
    stop_irtopics(c("This comparison has no {what} table: it was made without runs.",
                    i = "Give {.arg runs} to {.fn compare_qrels} for leaderboards, conclusions and flips."),
                  kind = "argument")
  }
  rownames(out) <- NULL
  out
}

#' @rdname compare_qrels
#' @param type The figure: `"means"` (each system's mean under the reference
#'   against its mean under the candidate, with the identity line and
#'   Kendall's tau; needs runs), `"kappa"` (each topic's kappa, a point per
#'   topic, and the overall kappa with its interval) or `"flips"` (the
#'   system pairs, coloured by their decisions under both label sets; needs
#'   runs). `NULL`: `"means"` with runs, else `"kappa"`.
#' @param candidates `NULL` (all; for `"flips"` the first) or names of the
#'   candidates to draw (`"flips"`: one).
#' @method autoplot ir_qrels_agreement
#' @export
autoplot.ir_qrels_agreement <- function(object, type = NULL, candidates = NULL, ...) {
  check_no_dots(..., help = "compare_qrels")
  type <- type %||% if (is.null(object$means)) "kappa" else "means"
  type <- match_choice(type, c("means", "kappa", "flips"), arg_name = "type")
  all <- unique(object$labels$candidate)
  if (!is.null(candidates) && (!is.character(candidates) || anyNA(candidates) ||
                               length(setdiff(candidates, all)))) {
    stop_irtopics("{.arg candidates} must name candidates of the comparison ({.val {all}}).")
  }
  if (is.null(candidates)) {
    candidates <- if (type == "flips") all[1] else if (type == "means" && length(all) > 6L) all[1:6] else all
    if (length(candidates) < length(all) && type == "means") {
      inform_irtopics(c(i = "Drawing the first 6 of {length(all)} candidates (one panel each).",
                        " " = "Choose others with {.arg candidates}; {.code type = \"kappa\"} shows all."), kind = "layout")
    }
  }
  if (type != "kappa" && is.null(object$means)) {
    stop_irtopics(c("{.code type = \"{type}\"} needs runs: this comparison was made without them.",
                    i = "Give {.arg runs} to {.fn compare_qrels}, or use {.code type = \"kappa\"}."))
  }
  switch(type,
    means = agreement_means_plot(object, candidates),
    kappa = agreement_kappa_plot(object, candidates),
    flips = agreement_flips_plot(object, candidates))
}

agreement_means_plot <- function(object, candidates) {
  d <- object$means[object$means$candidate %in% candidates, , drop = FALSE]
  d$candidate <- factor(d$candidate, levels = candidates)
  tau <- object$leaderboard[object$leaderboard$statistic == "kendall_tau" &
                              object$leaderboard$candidate %in% candidates, , drop = FALSE]
  lab <- data.frame(candidate = factor(tau$candidate, levels = candidates),
                    label = sprintf("tau == \"%.2f\"", tau$estimate), stringsAsFactors = FALSE)
  lim <- range(c(d$reference_mean, d$candidate_mean), na.rm = TRUE)
  br <- equal_axis_breaks(lim, c(6L, 3L, 2L)[min(length(candidates), 3L)])
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$reference_mean, y = .data$candidate_mean)) +
    ggplot2::geom_abline(slope = 1, intercept = 0, colour = "grey50", linetype = "dashed") +
    ggplot2::geom_point(size = 1.6) +
    ggplot2::geom_text(data = lab, ggplot2::aes(x = -Inf, y = Inf, label = .data$label),
                       hjust = -0.1, vjust = 1.4, size = if (length(candidates) > 2L) 2.5 else 3,
                       parse = TRUE, inherit.aes = FALSE) +
    ggplot2::coord_equal(xlim = lim, ylim = lim) +
    ggplot2::scale_x_continuous(breaks = br) +
    ggplot2::scale_y_continuous(breaks = br) +
    plot_labels(x = "reference labels", y = "candidate labels",
                title = wrap_text(sprintf("Mean %s of each system", object$measure)),
                subtitle = quote("Dashed: equal means;" ~ tau ~ "is Kendall's" ~ tau[b])) +
    title_theme()
  if (length(candidates) > 1L) {
    p <- p + ggplot2::facet_wrap(ggplot2::vars(.data$candidate)) +
      ggplot2::theme(strip.text = ggplot2::element_text(size = ggplot2::rel(0.9)))
  }
  p
}

# The breaks of both axes of the means plot (equal axes, so the same
# breaks): steps of 1, 2, 2.5 or 5 times a power of ten, the finest with at
# most `max_n` breaks inside the data's range and at least two; when no step
# fits, every other break of the last step with two or more. ggplot2's
# n.breaks = 3, which kept side-by-side panels' tick labels apart, could
# leave a single tick (0, 0.5, 1 on means from 0.15 to 0.9).
equal_axis_breaks <- function(lim, max_n) {
  span <- diff(lim)
  if (!is.finite(span) || span <= 0) return(ggplot2::waiver())
  steps <- sort(outer(c(1, 2, 2.5, 5), 10^(floor(log10(span)) + (-2:1))))
  last <- NULL
  for (st in steps) {
    b <- round(st * seq(ceiling(lim[1] / st - 1e-9), floor(lim[2] / st + 1e-9)), 10)
    if (length(b) < 2L) break
    if (length(b) <= max_n) return(b)
    last <- b
  }
  if (is.null(last)) return(ggplot2::waiver())
  thinned <- last[seq(1L, length(last), by = 2L)]
  if (length(thinned) >= 2L) thinned else last
}

agreement_kappa_plot <- function(object, candidates) {
  d <- object$topics[object$topics$candidate %in% candidates & !is.na(object$topics$kappa), , drop = FALSE]
  d$candidate <- factor(d$candidate, levels = rev(candidates))
  k <- object$labels[object$labels$statistic == "kappa" & is.na(object$labels$threshold) &
                       object$labels$candidate %in% candidates, , drop = FALSE]
  k$candidate <- factor(k$candidate, levels = rev(candidates))
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$kappa, y = .data$candidate)) +
    ggplot2::geom_vline(xintercept = 0, colour = "grey70") +
    ggplot2::geom_point(position = ggplot2::position_jitter(width = 0, height = 0.15, seed = 1),
                        alpha = 0.5, size = 1.2, colour = "grey30") +
    interval_bars(data = k[!is.na(k$conf.low), , drop = FALSE],
                  ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high, y = .data$candidate),
                  height = 0.3, colour = "#D55E00", inherit.aes = FALSE) +
    ggplot2::geom_point(data = k, ggplot2::aes(x = .data$estimate, y = .data$candidate),
                        colour = "#D55E00", size = 2.6, shape = 18, inherit.aes = FALSE) +
    plot_labels(x = quote("Cohen's" ~ kappa ~ " (all grades)"), y = NULL,
                title = quote("Per-topic" ~ kappa ~ " (grey) and overall" ~ kappa ~ " (orange)"),
                subtitle = wrap_text(interval_text(object), 45)) +
    # the levels as limits: a candidate without per-topic kappas must not reorder the rows
    ggplot2::scale_y_discrete(limits = levels(k$candidate), guide = crowded_guide()) +
    title_theme()
  p
}

# The flip matrix of one candidate (plot_flip_matrix()), systems by their
# mean under the reference, best first.
agreement_flips_plot <- function(object, candidates) {
  if (length(candidates) != 1L) {
    stop_irtopics(c("{.code type = \"flips\"} draws one candidate; {.arg candidates} names {length(candidates)}.",
                    i = "Choose one, e.g. {.code candidates = \"{candidates[1]}\"}."))
  }
  f <- object$flips[object$flips$candidate == candidates, , drop = FALSE]
  m <- object$means[object$means$candidate == candidates, , drop = FALSE]
  systems <- m$system[order(-m$reference_mean, as_bytes_rank(m$system))]
  plot_flip_matrix(f, systems, title = wrap_text(sprintf("Conclusions under both label sets (%s, %s)",
                                                         object$measure, object$test)))
}

as_bytes_rank <- function(x) order(order(as_bytes(x), method = "radix"))
