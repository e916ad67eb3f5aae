# Discriminative power --------------------------------------------------------

#' Discriminative power of evaluation measures
#'
#' Sakai's (2006) discriminative power: run a significance test on every
#' pair of systems and report the share of pairs found significantly
#' different at level `alpha`. Several measures over the same systems and
#' topics (a named list of score matrices) are compared on the same random
#' draws, so they differ only by their scores. The test is any test of the
#' registry that [compare_systems()] runs (see [ir_tests()]), by name or
#' alias, a [new_ir_test()] record or a function `function(x, y)`
#' returning a p-value; the two classical choices:
#' * `method = "bootstrap"` (default; the record `"bootstrap_studentized"`):
#'   Sakai's studentized paired
#'   bootstrap test on each pair. With \eqn{d_j} the per-topic differences,
#'   \eqn{t_0 = \bar d / (s_d / \sqrt n)}; the shifted differences
#'   \eqn{w_j = d_j - \bar d} are resampled over topics `B` times, and the
#'   achieved significance level (ASL) is \eqn{(c + 1)/(B + 1)}, where
#'   \eqn{c} counts the samples with \eqn{|t^*| \ge |t_0|}. One
#'   \eqn{B \times n} bootstrap index matrix
#'   serves every pair and every measure.
#' * `method = "rthsd"`: the p-values of one randomised Tukey HSD
#'   (Carterette 2012): `B` matrices whose scores are permuted across
#'   systems within each topic; a pair's p-value is \eqn{(c + 1)/(B + 1)},
#'   where \eqn{c} counts the permuted matrices whose range of system means
#'   is at least the pair's difference. This controls the familywise error
#'   over all pairs and so is more conservative.
#'
#' Resampled statistics equal to the observed one (within a relative
#' \eqn{10^{-9}}) count as at least as extreme: IR scores are discrete and
#' ties are frequent. The observed data count as one of the \eqn{B + 1}
#' equally likely arrangements (Phipson & Smyth 2010), so no p-value is
#' below \eqn{1/(B + 1)}: with `alpha = 0.05` a pair can be significant only
#' when \eqn{B \ge 20}, and a smaller `B` gives a warning of class
#' `irtopics_warning_undecidable` (as does an exact randomisation test over
#' too few topics). (Earlier versions of irtopics used \eqn{c / B},
#' which can be 0 and is anti-conservative.)
#'
#' Per measure the result also gives the estimated *difference required*:
#' the smallest absolute difference of means among the significant pairs
#' (Sakai 2006 estimates it from the bootstrap samples; this simpler
#' estimate uses the observed differences of the pairs found significant).
#' A pair whose per-topic differences do not vary has no t statistic: its
#' p-value is `NA` and it counts as not significant (`n_undefined`).
#'
#' **No interval is given for the discriminative power itself**, on
#' purpose. The uncertainty users ask about is over topics: would another
#' set of n topics find as many pairs significant? A bootstrap over topics
#' does not answer it: a resampled set of n topics repeats some topics, and
#' each paired test then counts the copies as independent topics, so the
#' resampled tests work on fewer distinct topics than they assume; we know
#' of no check that such an interval covers the discriminative power of
#' new topic sets at its nominal level, and have not made one. What
#' stability over topic sets a measure has is what the swap method measures
#' with disjoint halves of the topics ([swap_error_rates()]); the per-pair
#' p-values in `$pairs` are exact statements about each pair.
#'
#' The random draws come from a counter-based generator keyed by `seed` and
#' the replicate number, so results are identical for any `n_threads`,
#' chunking and `future` plan; with `seed = NULL` a seed is drawn from R's
#' random stream (`set.seed()` beforehand reproduces it) and stored in the
#' result.
#'
#' @param scores A score matrix ([ir_scores][as_ir_scores] or numeric,
#'   systems x topics, no NA), or a named list of them (one per measure)
#'   over the same systems and topics (their order may differ).
#' @param method The test: `"bootstrap"` (Sakai's studentized bootstrap),
#'   `"rthsd"`, or any other test [compare_systems()] runs (a name or alias
#'   of [ir_tests()], a [new_ir_test()] record or a function).
#' @param alpha Significance level, in (0, 1).
#' @param B Number of bootstrap samples (or permuted matrices).
#' @param seed Random seed (a whole number), or `NULL`.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @return An `ir_discriminative_power` object: `$summary` (one row per
#'   measure: `measure`, `n_pairs`, `n_significant`,
#'   `discriminative_power`, `difference_required`, `n_undefined`),
#'   `$pairs` (one row per measure and pair: `measure`, `system1`,
#'   `system2`, `estimate` = mean of system1 minus mean of system2,
#'   `p.value`, `significant`), and the parameters (`method`: the test's
#'   registry name, `test_label`, `alpha`, `B`, `seed`: the key used).
#' @references Sakai, T. (2006). Evaluating evaluation metrics based on the
#'   bootstrap. *SIGIR 2006*, 525--532.
#'
#' Carterette, B. (2012). Multiple testing in statistical analysis of
#'   systems-based information retrieval experiments. *ACM TOIS* 30(1).
#'
#' Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be
#'   zero: calculating exact p-values when permutations are randomly drawn.
#'   *Statistical Applications in Genetics and Molecular Biology* 9(1), 39.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:20]
#' dp <- discriminative_power(list(AP = ap[keep, ], `P@10` = p10[keep, ]), B = 200, seed = 1)
#' dp
#' ggplot2::autoplot(dp)
#' @export
discriminative_power <- function(scores, method = "bootstrap", alpha = 0.05, B = 1000,
                                 seed = NULL, n_threads = irtopics_threads(), progress = NULL) {
  user_call <- environment()
  mats <- check_score_list(scores)
  rec <- resolve_ir_test(method, "discriminative_power", arg = "method", call = user_call)
  check_probs(alpha, "alpha", "A significance level, e.g. {.code alpha = 0.05}.", scalar = TRUE)
  check_number(B, "B", min = 1, integer = TRUE)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  seed <- resolve_seed(seed)
  B <- as.integer(B)
  m1 <- mats[[1]]
  pr <- compare_pairs(rownames(m1), NULL)
  first <- pr$first
  second <- pr$second
  ctx <- list(alpha = alpha, B = B, seed = seed, exact = NULL, n_threads = n_threads,
              call = user_call)
  per <- lapply(names(mats), function(nm) {
    x <- mats[[nm]]
    p <- with_progress_measure(nm, test_rows(rec, x, pr, pair_basics(x, pr, 0), ctx)$p.value)
    means <- rowMeans(x)
    data.frame(measure = nm, system1 = rownames(x)[first], system2 = rownames(x)[second],
               estimate = unname(means[first] - means[second]), p.value = p,
               significant = !is.na(p) & p < alpha, stringsAsFactors = FALSE)
  })
  pairs <- do.call(rbind, per)
  warn_undecidable(rec, B, ncol(m1), NULL, length(first), "none", alpha)
  summary <- do.call(rbind, lapply(per, function(d) {
    sig <- d$significant
    data.frame(measure = d$measure[1], n_pairs = nrow(d), n_significant = sum(sig),
               discriminative_power = mean(sig),
               difference_required = if (any(sig)) min(abs(d$estimate[sig])) else NA_real_,
               n_undefined = sum(is.na(d$p.value)), stringsAsFactors = FALSE)
  }))
  new_ir_discriminative_power(list(summary = summary, pairs = pairs, method = rec$name,
                                   test_label = rec$label, alpha = alpha, B = B,
                                   seed = seed, n_systems = nrow(m1), n_topics = ncol(m1)))
}

new_ir_discriminative_power <- function(x) {
  new_result(x, "ir_discriminative_power",
             fields = c(summary = "data.frame", pairs = "data.frame", method = "string", alpha = "number",
                        test_label = "string", B = "number", n_systems = "number", n_topics = "number"))
}

# One matrix or a named list of matrices over the same systems and topics:
# a named list of complete double matrices in the first one's order.
check_score_list <- function(scores, arg = "scores", min_topics = 2L, call = rlang::caller_env()) {
  if (is.list(scores) && !is.data.frame(scores)) {
    if (!length(scores)) stop_irtopics("{.arg {arg}} must hold at least one score matrix.", call = call)
    nms <- names(scores)
    if (is.null(nms)) {
      nms <- vapply(scores, function(s) attr(s, "measure") %||% "", character(1))
    }
    if (any(!nzchar(nms)) || anyDuplicated(nms)) {
      stop_irtopics(c("{.arg {arg}} must be a list named by measure, with distinct names.",
                      i = "For example {.code list(AP = ap, `P@10` = p10)}."), call = call)
    }
    mats <- lapply(seq_along(scores), function(k) {
      check_scores(scores[[k]], allow_na = FALSE, min_systems = 2L, min_topics = min_topics,
                   arg = sprintf("%s$%s", arg, nms[k]), call = call)
    })
  } else {
    m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = min_topics, arg = arg, call = call)
    mats <- list(m)
    nms <- attr(m, "measure") %||% "score"
  }
  names(mats) <- nms
  ref <- mats[[1]]
  for (k in seq_along(mats)[-1]) {
    x <- mats[[k]]
    for (dim in c("systems", "topics")) {
      a <- if (dim == "systems") rownames(ref) else colnames(ref)
      b <- if (dim == "systems") rownames(x) else colnames(x)
      if (!setequal(a, b) || length(a) != length(b)) {
        only_ref <- setdiff(a, b)
        only_x <- setdiff(b, a)
        stop_irtopics(c("The score matrices of {.arg {arg}} must share their {dim}: {.val {nms[1]}} and {.val {nms[k]}} differ.",
                        x = if (length(only_ref)) "Only in {.val {nms[1]}}: {.val {utils::head(only_ref, 10)}}{if (length(only_ref) > 10) ', ...' else ''}.",
                        x = if (length(only_x)) "Only in {.val {nms[k]}}: {.val {utils::head(only_x, 10)}}{if (length(only_x) > 10) ', ...' else ''}.",
                        i = "Subset them to the common {dim} first, e.g. {.code x[common_systems, common_topics]}."),
                      kind = "data", call = call)
      }
    }
    mats[[k]] <- x[rownames(ref), colnames(ref), drop = FALSE]
  }
  lapply(mats, function(x) {
    attr(x, "measure") <- NULL
    x
  })
}

#' @rdname discriminative_power
#' @param x An `ir_discriminative_power` object.
#' @param ... Unused.
#' @export
format.ir_discriminative_power <- function(x, ...) {
  s <- x$summary
  body <- data.frame(measure = s$measure,
                     significant = sprintf("%d/%d", s$n_significant, s$n_pairs),
                     power = sprintf("%.1f%%", 100 * s$discriminative_power),
                     difference_required = ifelse(is.na(s$difference_required), "-",
                                                  formatC(s$difference_required, digits = 4, format = "f")),
                     stringsAsFactors = FALSE)
  c(sprintf("<ir_discriminative_power> %s, alpha = %g, B = %d: %d systems (%d pairs) x %d topics",
            x$test_label, x$alpha, x$B, x$n_systems, s$n_pairs[1], x$n_topics),
    printed_lines(print(body, row.names = FALSE)),
    if (any(s$n_undefined > 0)) sprintf("Pairs with constant differences (no test, not significant): %s",
                                        paste0(s$measure, " ", s$n_undefined, collapse = ", ")))
}

#' @rdname discriminative_power
#' @export
print.ir_discriminative_power <- function(x, ...) print_formatted(x, ...)

#' @rdname discriminative_power
#' @param object An `ir_discriminative_power` object.
#' @export
summary.ir_discriminative_power <- function(object, ...) {
  new_summary("ir_discriminative_power",
              sprintf("Discriminative power at alpha = %g (%s, B = %d):", object$alpha,
                      object$test_label, object$B),
              object$summary)
}

#' @rdname discriminative_power
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_discriminative_power <- function(x, row.names = NULL, optional = FALSE, ...) x$pairs

#' Plot achieved significance level curves
#'
#' Sakai's ASL curves: each measure's pair p-values sorted increasingly and
#' drawn against the pair rank, all measures in one plot, with the
#' significance level as a horizontal line. A curve that stays lower (more
#' pairs below the line) belongs to a more discriminative measure. Curves
#' often coincide (many pairs at the smallest p-value that `B` allows), so
#' the measures differ in line width as well as colour: the first measure's
#' curve is the widest and each later one is drawn narrower on top of it,
#' and with at most 30 pairs the points are hollow marks of different shapes
#' (both readable in grey print). Built on the current ggplot2 theme (see
#' [irtopics_figures]); the legend of measures is below the panel, and
#' absent for one measure.
#'
#' @param object An `ir_discriminative_power` or `ir_collection_diagnostics`
#'   object.
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:15]
#' ggplot2::autoplot(discriminative_power(list(AP = ap[keep, ], `P@10` = p10[keep, ]),
#'                                        B = 200, seed = 1))
#' @method autoplot ir_discriminative_power
#' @export
autoplot.ir_discriminative_power <- function(object, ...) {
  d <- object$pairs
  d$p.value[is.na(d$p.value)] <- 1
  d <- d[order(match(d$measure, object$summary$measure), d$p.value), , drop = FALSE]
  d$rank <- stats::ave(seq_len(nrow(d)), d$measure, FUN = seq_along)
  d$measure <- factor(d$measure, levels = object$summary$measure)
  n_pairs <- max(d$rank)
  n_meas <- nlevels(d$measure)
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$rank, y = .data$p.value, colour = .data$measure,
                                       linewidth = .data$measure, shape = .data$measure)) +
    # one pair has no line (ggplot2 would say each group has one observation): points alone
    if (n_pairs > 1L) ggplot2::geom_line()
  p <- p +
    # few pairs: a line alone would hide single points
    sparse_points(n_pairs, ggplot2::aes(size = .data$measure), stroke = 0.6) +
    # curves often coincide (every pair at the smallest p-value B allows):
    # the first measure's line is the widest and each later one narrower,
    # drawn on top, so every curve shows as a band; hollow points of
    # different shapes, each smaller than the one before, stay visible
    # when they fall on the same spot
    ggplot2::scale_linewidth_manual(values = asl_sizes(n_meas, 1.1, 0.35, 0.5),
                                    guide = if (n_meas > 1L) "legend" else "none") +
    ggplot2::scale_size_manual(values = asl_sizes(n_meas, 3, 1.2, 1.6), guide = if (n_meas > 1L) "legend" else "none") +
    ggplot2::scale_shape_manual(values = rep_len(c(1, 2, 0, 5, 6, 4, 3, 8), n_meas),
                                guide = if (n_meas > 1L) "legend" else "none") +
    ggplot2::geom_hline(yintercept = object$alpha, linetype = "dashed", colour = "grey40") +
    ggplot2::scale_x_continuous(breaks = function(l) unique(round(pretty(l, n = 4))),
                                expand = ggplot2::expansion(mult = 0.05, add = if (n_pairs < 2L) 1 else 0)) +
    # "ASL" on the y axis: the long name is taller than a panel 2.6 in high
    ggplot2::labs(x = "System pairs sorted by ASL", y = "ASL", colour = NULL, linewidth = NULL, shape = NULL, size = NULL) +
    plot_labels(title = wrap_text(sprintf("ASL curves: %s", object$test_label)),
                subtitle = bquote(paste(.(sprintf("B = %d; dashed: ", as.integer(object$B))), alpha,
                                        .(sprintf(" = %s", format(object$alpha)))))) +
    title_theme(legend = TRUE)
  # a legend only for more than one measure (the title names none: say it)
  if (n_meas < 2L) p <- p + ggplot2::guides(colour = "none")
  p
}

# Line widths or point sizes of n overlaid ASL curves, from `from` down to
# `to` (`one` for a single curve), so that each curve or point drawn on an
# earlier, larger one leaves that one's edges visible.
asl_sizes <- function(n, from, to, one) if (n < 2L) one else seq(from, to, length.out = n)
