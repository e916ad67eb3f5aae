# Decisions that the number of resamples (or of topics) makes impossible
# (issue 40): a Monte Carlo p-value is never below 1/(B + 1) and an exact
# randomisation p-value over n topics never below 2/2^n, so with few
# replicates, many pairs and a correction for multiple comparisons no pair
# can be significant whatever the data (136 pairs, Holm, B = 2000: the
# smallest adjusted p-value is 136/2001 = 0.068). compare_systems(),
# discriminative_power() and test_calibration() say so, and which B (or how
# many topics) would do.

# The smallest p-value a test's rule can give, read from its record's
# p_rule: (c + 1)/(B + 1) is at least 1/(B + 1); exact enumeration over n
# topics, c/2^n, at least 2/2^n (a two-sided test counts the observed signs
# and their mirror image); a reference distribution, c/B and a user's test
# have no floor that B sets (0). `exact` NULL: the randomisation test
# enumerates when 2^n <= B, as compare_systems() decides.
smallest_p <- function(rec, B, n_topics, exact = NULL) {
  switch(rec$p_rule,
    monte_carlo = 1 / (B + 1),
    exact_or_monte_carlo = if (isTRUE(exact %||% (2^n_topics <= B))) 2 / 2^n_topics else 1 / (B + 1),
    0)
}

# The smallest adjusted p-value of n_pairs pairs that all have p-value p
# (the corrections are monotone in every p-value, so this is the smallest
# any data can give).
smallest_adjusted <- function(p, n_pairs, correction) min(stats::p.adjust(rep(p, n_pairs), correction))

# One irtopics_warning_undecidable when the test's smallest p-value, adjusted
# by `correction` over `n_pairs` pairs, is not below `alpha`: no decision
# (`what`: "pair", "trial") can be significant, whatever the data. It names
# the smallest B with which the most extreme pair can reach p < alpha (a
# Monte Carlo floor), or the number of topics an exact test needs. TRUE when
# it warned.
warn_undecidable <- function(rec, B, n_topics, exact, n_pairs, correction, alpha, what = "pair") {
  floor <- smallest_p(rec, B, n_topics, exact)
  if (!(floor > 0) || n_pairs < 1L) return(invisible(FALSE))
  low <- smallest_adjusted(floor, n_pairs, correction)
  if (low < alpha) return(invisible(FALSE))
  num <- function(x) format(signif(x, 3), scientific = FALSE)
  corrected <- if (correction == "none" || n_pairs == 1L) "" else
    sprintf(", and after the %s over %d pairs %s", correction_labels[[correction]], n_pairs, num(low))
  enumerated <- rec$p_rule == "exact_or_monte_carlo" && floor == 2 / 2^n_topics && floor != 1 / (B + 1)
  if (enumerated) {
    n <- n_topics
    while (smallest_adjusted(2 / 2^n, n_pairs, correction) >= alpha) n <- n + 1L
    warn_irtopics(c("No {what} can be significant at alpha = {alpha}: the exact {rec$label} over {n_topics} topics gives p-values of at least 2/2^{n_topics} = {num(floor)}{corrected}.",
                    i = "That needs at least {n} topics with a non-zero difference; no {.arg B} changes it."),
                  kind = "undecidable")
  } else {
    # the corrections scale a small p-value by a factor (136 for Holm over 136 pairs)
    factor <- smallest_adjusted(1e-12, n_pairs, correction) / 1e-12
    need <- max(B + 1, floor(factor / alpha) - 1)
    while (smallest_adjusted(1 / (need + 1), n_pairs, correction) >= alpha) need <- need + 1
    warn_irtopics(c("No {what} can be significant at alpha = {alpha}: with B = {B} the {rec$label} gives p-values of at least 1/(B + 1) = {num(floor)}{corrected}.",
                    i = "Use {.code B >= {need}}: then the most extreme {what} can reach p < alpha (less extreme ones need more)."),
                  kind = "undecidable")
  }
  invisible(TRUE)
}
