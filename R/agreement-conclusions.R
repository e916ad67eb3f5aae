# Conclusion agreement between two evaluations of the same systems and topics
# (issue 27): would a paper draw the same significance conclusions under
# the reference and under the candidate evaluation? Internal: compare_qrels()
# calls it; plot_flip_matrix() draws its pairs.

decision_levels <- c("better", "not significant", "worse")
change_levels <- c("same", "gained", "lost", "swapped")

#' Agreement of the significance conclusions of two evaluations
#'
#' Internal (called by `compare_qrels()`). Runs `compare_systems()` with the
#' same test, correction, alpha and seed on both evaluations (a resampling
#' test draws the same samples for both), and compares each pair's decision.
#'
#' @param reference,candidate Score matrices with the same systems and
#'   topics, no NA (`check_score_pair()`).
#' @param test Any test of the registry (`ir_tests()`), by name, alias or
#'   record.
#' @param correction,alpha,B,seed,exact,tie_tol,n_threads,progress As
#'   `compare_systems()`.
#' @return A list of three data frames:
#'   * `pairs`: one row per pair of systems (system1 before system2 in the
#'     reference's row order): `system1`, `system2`, `estimate_reference`,
#'     `estimate_candidate` (mean of system1 minus mean of system2 under
#'     each), `p_reference`, `p_candidate` (the p-values after the
#'     correction, `p.adjusted` of `compare_systems()`), `decision_reference`,
#'     `decision_candidate` (factors `"better"` (system1 significantly
#'     better), `"not significant"`, `"worse"`), `change` (factor: `"same"`
#'     decision; `"gained"`: not significant under the reference,
#'     significant under the candidate; `"lost"`: the reverse; `"swapped"`:
#'     significant under both in opposite directions), `estimate_shift`
#'     (candidate minus reference estimate) and `p_shift` (candidate minus
#'     reference adjusted p-value).
#'   * `summary`: one row per statistic, `statistic` (`"same_decision"`,
#'     `"gained"`, `"lost"`, `"swapped"`, `"significant_reference"`,
#'     `"significant_candidate"`), `count` (pairs) and `share` (of all
#'     pairs).
#'   * `decisions`: the 3 x 3 table as a data frame, `reference`,
#'     `candidate` (decisions) and `count`.
#'
#'   Attributes: `test` (the test's label), `correction`, `alpha`, `seed`
#'   (`NULL` for tests without resampling).
#' @noRd
conclusion_agreement <- function(reference, candidate, test = "t", correction = "holm", alpha = 0.05,
                                 B = 10000, seed = NULL, exact = NULL, tie_tol = 0,
                                 n_threads = irtopics_threads(), progress = NULL,
                                 call = rlang::caller_env()) {
  pair <- check_score_pair(reference, candidate, call = call)
  rec <- resolve_ir_test(test, "compare_systems", call = call)
  check_seed(seed, call = call)
  if (rec$resampling) seed <- resolve_seed(seed)
  run <- function(m) {
    compare_systems(m, test = rec, correction = correction, alpha = alpha, B = B, seed = seed,
                    exact = exact, tie_tol = tie_tol, n_threads = n_threads, progress = progress)$table
  }
  tr <- run(pair$reference)
  tc <- run(pair$candidate)
  better <- better_sign(score_record(pair$reference)$direction)
  dr <- pair_decision(tr, better)
  dc <- pair_decision(tc, better)
  change <- ifelse(dr == dc, "same",
                   ifelse(dr == "not significant", "gained",
                          ifelse(dc == "not significant", "lost", "swapped")))
  pairs <- data.frame(system1 = tr$system1, system2 = tr$system2,
                      estimate_reference = tr$estimate, estimate_candidate = tc$estimate,
                      p_reference = tr$p.adjusted, p_candidate = tc$p.adjusted,
                      decision_reference = factor(dr, decision_levels),
                      decision_candidate = factor(dc, decision_levels),
                      change = factor(change, change_levels),
                      estimate_shift = tc$estimate - tr$estimate,
                      p_shift = tc$p.adjusted - tr$p.adjusted, stringsAsFactors = FALSE)
  n <- nrow(pairs)
  counts <- c(same_decision = sum(change == "same"), gained = sum(change == "gained"),
              lost = sum(change == "lost"), swapped = sum(change == "swapped"),
              significant_reference = sum(dr != "not significant"),
              significant_candidate = sum(dc != "not significant"))
  summary <- data.frame(statistic = names(counts), count = unname(counts), share = unname(counts) / n,
                        stringsAsFactors = FALSE)
  decisions <- as.data.frame(table(reference = pairs$decision_reference,
                                   candidate = pairs$decision_candidate),
                             responseName = "count", stringsAsFactors = FALSE)
  out <- list(pairs = pairs, summary = summary, decisions = decisions)
  attr(out, "test") <- rec$label
  attr(out, "correction") <- correction
  attr(out, "alpha") <- alpha
  attr(out, "seed") <- if (rec$resampling) seed
  out
}

# The decision on each pair of a compare_systems() table: "better" when
# significant with system1's mean above system2's, "worse" when below, else
# "not significant" (also for an NA p-value: an undefined test decides
# nothing).
pair_decision <- function(tab, better = 1) {
  sig <- tab$significant %in% TRUE
  gain <- better * tab$estimate  # where lower is better, a negative difference is a gain
  ifelse(sig & gain > 0, "better", ifelse(sig & gain < 0, "worse", "not significant"))
}

#' The flip matrix: which pairs of systems change their conclusion
#'
#' Internal helper for `compare_qrels()`'s autoplot: a systems x systems
#' tile plot of the `pairs` data frame of `conclusion_agreement()`. Rows and
#' columns are the systems in the order given by `systems` (default: by the
#' reference's mean, best first, when `means` is given, else as they appear);
#' the lower triangle shows each pair once, coloured by `change`, with the
#' pairs significant under both evaluations and unchanged ("same,
#' significant") darker than those significant under neither ("same,
#' n.s."). System names are shown up to 40 systems (names that would
#' overlap in a small figure are left out by ggplot2's `check.overlap`);
#' beyond, the subtitle says they are omitted.
#'
#' @param pairs The `pairs` element of `conclusion_agreement()`.
#' @param systems Optional order of the systems.
#' @param title Plot title.
#' @return A ggplot.
#' @noRd
plot_flip_matrix <- function(pairs, systems = NULL, title = "Conclusions under the two evaluations") {
  systems <- systems %||% unique(c(pairs$system1, pairs$system2))
  n <- length(systems)
  cls <- as.character(pairs$change)
  cls[cls == "same"] <- ifelse(pairs$decision_reference[cls == "same"] == "not significant",
                               "same, n.s.", "same, significant")
  lv <- c("same, significant", "same, n.s.", "gained", "lost", "swapped")
  i <- match(pairs$system1, systems)
  j <- match(pairs$system2, systems)
  df <- data.frame(row = pmax(i, j), col = pmin(i, j), change = factor(cls, lv))
  colours <- c("same, significant" = "grey40", "same, n.s." = "grey85",
               gained = "#0072B2", lost = "#E69F00", swapped = "#D55E00")
  flips <- sum(pairs$change != "same")
  subtitle <- sprintf("Pairs whose conclusion changes: %s of %s (%s)", format(flips, big.mark = ","),
                      format(nrow(pairs), big.mark = ","), pct_text(flips / max(1, nrow(pairs))))
  # names up to 40 systems, sized by the package's rule for crowded axes; where
  # the figure is too small for all of them, ggplot2 leaves out the names that
  # would overlap (check.overlap)
  text_size <- if (n <= 40) crowded_text(n) else 0
  if (text_size == 0) {
    subtitle <- paste0(subtitle, "; ", n, " systems in the order given, names omitted")
  }
  ggplot2::ggplot(df, ggplot2::aes(x = .data$col, y = .data$row, fill = .data$change)) +
    ggplot2::geom_tile(colour = if (n <= 40) "white" else NA) +
    ggplot2::scale_fill_manual(values = colours, drop = FALSE, name = NULL,
                               guide = rows_legend(nrow = 2, byrow = TRUE)) +
    ggplot2::scale_x_continuous(breaks = seq_len(n), labels = systems, expand = c(0, 0),
                                guide = crowded_guide()) +
    ggplot2::scale_y_reverse(breaks = seq_len(n), labels = systems, expand = c(0, 0),
                             guide = crowded_guide()) +
    plot_labels(x = NULL, y = NULL, title = wrap_text(title), subtitle = wrap_text(subtitle, 52)) +
    title_theme(legend = TRUE) +
    ggplot2::theme(axis.text.x = if (text_size > 0) ggplot2::element_text(angle = 90, hjust = 1, vjust = 0.5, size = text_size) else ggplot2::element_blank(),
                   axis.text.y = if (text_size > 0) ggplot2::element_text(size = text_size) else ggplot2::element_blank(),
                   axis.ticks = ggplot2::element_blank(), panel.grid = ggplot2::element_blank(),
                   panel.background = ggplot2::element_blank(),
                   legend.text = ggplot2::element_text(size = ggplot2::rel(0.8)),
                   legend.key.size = ggplot2::unit(0.8, "lines"))
}
