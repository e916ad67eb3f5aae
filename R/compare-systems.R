# Comparing systems: paired significance tests on a score matrix (topics are
# the blocks), multiple-comparison corrections, the blocked Tukey HSD and the
# randomised Tukey HSD. One tidy row per pair and measure; the report, the
# LaTeX / markdown tables and the plots (R/compare-report.R) are views of it.
# Resampling runs in C++ (src/resample.h via R/compare-resample.R).

# The tests are records of the registry (R/compare-tests.R); the rows
# functions below compute them over all pairs at once.

# Largest number of non-zero differences an exact randomisation test enumerates.
exact_max_topics <- 30L

#' Compare systems with paired significance tests
#'
#' Tests whether systems differ on a score matrix, with topics as the blocks
#' (each system is paired with the others topic by topic): all pairs of
#' systems, or every system against a `baseline`, with a correction for
#' multiple comparisons. The result has one row per pair (and measure),
#' a ranx-style report when printed, tables for papers (`format(x, "latex")`,
#' `format(x, "markdown")`) and three plots (see [autoplot.ir_comparison()]).
#'
#' @section Tests:
#' Tests are chosen by name or alias from the test registry ([ir_tests()],
#' [new_ir_test()]). With \eqn{d_j = x_j - y_j} the per-topic differences
#' of a pair over the \eqn{n} topics both systems have (a topic with NA on
#' either side is left out of that pair; `n_topics` reports what is used;
#' a pair without a common topic has an `NA` difference, and a system
#' that answered no topic at all is an error of class
#' `irtopics_error_data` naming it: drop it, or evaluate with `missing =
#' "zero"`):
#' * `"t"`: paired t-test, \eqn{t = \bar d / (s_d / \sqrt n)} on \eqn{n - 1}
#'   df, the same as `t.test(x, y, paired = TRUE)`, with the
#'   \eqn{1 - \alpha} confidence interval of the mean difference.
#' * `"wilcoxon"`: Wilcoxon signed-rank test as `wilcox.test(x, y, paired =
#'   TRUE)` (R 4.2), with the same defaults and rules: zero differences are
#'   dropped and ties get midranks; the exact distribution of V is used when
#'   fewer than 50 non-zero differences remain (`exact = NULL`, the default)
#'   or when `exact = TRUE`, but only if there are no ties and no zero
#'   differences; otherwise the normal approximation with continuity
#'   correction and the tie-corrected variance. Where `exact = TRUE` cannot
#'   be honoured (ties or zeros) the normal approximation is used with a
#'   warning, as `wilcox.test()` does; with the default there is no warning.
#'   The statistic is V.
#' * `"sign"`: sign test; differences with \eqn{|d_j| \le} `tie_tol` are ties
#'   and dropped, and with \eqn{k} wins out of \eqn{n'} the p-value is
#'   `binom.test(k, n', 0.5)$p.value`. The statistic is \eqn{k}.
#' * `"randomization"` (aliases `"randomisation"`, `"permutation"`):
#'   Fisher's sign-flip randomisation test (Smucker, Allan & Carterette
#'   2007) of \eqn{T = \sum_j d_j} (the statistic reported): each
#'   difference keeps or flips its sign with probability 1/2. Exact (all sign
#'   vectors enumerated; the p-value is the share of them at least as
#'   extreme) when `exact = TRUE`, or when `exact = NULL` and
#'   \eqn{2^n \le B}; otherwise `B` random sign vectors (see Monte Carlo
#'   p-values).
#' * `"bootstrap_studentized"` (alias `"bootstrap"`): Sakai's (2006)
#'   studentized bootstrap test: the observed \eqn{t_0} against \eqn{B}
#'   bootstrap samples of the centred differences \eqn{w_j = d_j - \bar d}
#'   (the null hypothesis holds in them); the
#'   achieved significance level counts the \eqn{|t^*_b| \ge |t_0|} (see
#'   Monte Carlo p-values).
#'   A bootstrap sample whose differences are all equal has \eqn{t^* = 0}.
#' * `"tukey"`: Tukey's HSD on the two-way (systems x topics) ANOVA:
#'   \eqn{q = |\bar x_i - \bar x_k| / \sqrt{V_E / n}} against the studentized
#'   range distribution with \eqn{m} means and the residual df, simultaneous
#'   confidence intervals, and the effect size
#'   \eqn{ES_E = (\bar x_i - \bar x_k)/\sqrt{V_E}} (Sakai 2014).
#' * `"rthsd"`: randomised Tukey HSD (Carterette 2012; Sakai 2014): each of
#'   `B` replicates permutes every topic's scores across the systems and
#'   records the range (max - min) of the permuted system means; a pair's
#'   p-value counts the ranges at least its observed difference (see Monte
#'   Carlo p-values). With two systems this is the randomisation test.
#' * A record made by [new_ir_test()], or a function `function(x, y)` of the
#'   paired per-topic scores of two systems (NA topics removed), returning a
#'   p-value, or a list (an `htest` for instance) with `p.value` and
#'   optionally `statistic` and `conf.int`.
#'
#' The 2019 study's `"bootstrap_2019"` and `"permutation_2019"` (\eqn{c / B}
#' p-values) run only in [test_calibration()].
#'
#' `"tukey"` and `"rthsd"` control the familywise error over all
#' \eqn{m(m-1)/2} pairs themselves: `correction` is not applied to them, and
#' they need a complete matrix (no NA).
#'
#' @section Monte Carlo p-values:
#' With \eqn{c} the number of the \eqn{B} random replicates whose statistic
#' is at least as extreme as the observed one, the Monte Carlo randomisation
#' test, the bootstrap test and the randomised Tukey HSD report
#' \eqn{p = (c + 1)/(B + 1)} (Phipson & Smyth 2010): the observed data are
#' one of the equally likely arrangements. It is never 0 (at least
#' \eqn{1/(B + 1)}), and under the null hypothesis
#' \eqn{P(p \le a) \le a}, so a correction for multiple comparisons keeps
#' its promise. \eqn{c / B} can be 0, which no correction can raise: over
#' the 136 pairs of 17 systems with no true difference and Holm's
#' correction at \eqn{B = 1000}, its familywise error was .082
#' (randomisation) and .086 (bootstrap) in 500 simulated data sets
#' (`bench/pvalues.R`), instead of at most .05; with \eqn{(c + 1)/(B + 1)}
#' it is .022 and .016 at \eqn{B = 10000}. A consequence to plan for: the smallest possible
#' Holm-adjusted p-value over \eqn{P} pairs is \eqn{P/(B + 1)}, so with 136
#' pairs no pair can be significant at .05 unless \eqn{B \ge 2720}; the
#' default \eqn{B = 10000} allows 500 pairs. Exact enumeration
#' (`exact = TRUE`) counts every arrangement and is not affected by `B`,
#' but its smallest p-value over \eqn{n} topics is \eqn{2/2^n}. When `B` (or
#' \eqn{n}) leaves no pair a chance whatever the data (the smallest p-value,
#' corrected as if every pair had it, is not below `alpha`), a warning of
#' class `irtopics_warning_undecidable` says so and which `B` (or how many
#' topics) would do.
#' (Earlier versions of irtopics reported \eqn{c / B}.)
#'
#' @section Ties and effect sizes:
#' IR scores are discrete (P@10 is a multiple of 0.1), so a resampled
#' statistic often equals the observed one in exact arithmetic but not in
#' floating point. The resampling tests count such ties as "at least as
#' extreme", with a relative tolerance of \eqn{10^{-9}} of the largest
#' absolute score summed; a strict comparison visibly lowers the p-values.
#' `effect_size` is \eqn{\bar d / s_d} (Sakai's effect size for the paired
#' t-test, Cohen's \eqn{d_z}) for the two-system tests and \eqn{ES_E} for
#' `"tukey"` and `"rthsd"`.
#'
#' @section Random draws:
#' The resampling tests draw in C++ from a counter-based generator keyed by
#' `seed`: replicate \eqn{b} always gets the same draws, so the p-values are
#' identical for any `n_threads` and any `future` plan (with a parallel plan
#' such as `future::plan(future::multisession)`, chunks of replicates run as
#' futures). With `seed = NULL` a seed is drawn from R's random number
#' generator, so `set.seed()` before the call also reproduces the results;
#' with a seed, R's random number stream is not used. All pairs (and all
#' measures of an `ir_evaluation`) share the same draws. A progress bar is
#' shown when a run takes more than a couple of seconds (see `progress`).
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix (systems x
#'   topics), or an `ir_evaluation` from [evaluate()] (one comparison per
#'   measure).
#' @param baseline `NULL` (all pairs) or the name of one system: compare every
#'   other system with it (differences are system minus baseline).
#' @param test A test of the registry by name or alias:
#'   `r ir_tests_of_help("compare_systems")`; a [new_ir_test()] record;
#'   or a function (see Tests).
#' @param correction A [stats::p.adjust()] method applied over the pairs of
#'   each measure: `"holm"` (default), `"bonferroni"`, `"hochberg"`,
#'   `"hommel"`, `"BH"`, `"BY"`, `"fdr"` or `"none"`.
#' @param alpha Significance level (and \eqn{1 - \alpha} confidence).
#' @param B Number of random replicates of the resampling tests.
#' @param seed `NULL` or a whole number fixing the random draws.
#' @param exact For `"randomization"`: `TRUE` enumerates all sign vectors
#'   (up to 30 topics with a non-zero difference), `FALSE` draws `B`, `NULL`
#'   enumerates when \eqn{2^n \le B}. For `"wilcoxon"`, as in
#'   `wilcox.test()`: `NULL` is exact below 50 non-zero differences, `TRUE`
#'   exact, `FALSE` the normal approximation; the exact distribution is used
#'   only without ties and zero differences.
#' @param tie_tol Differences with \eqn{|d_j| \le} `tie_tol` are ties in the
#'   sign test and in the wins / ties / losses counts. A difference equal to
#'   `tie_tol` up to floating-point rounding is a tie too (the threshold is
#'   widened by a relative \eqn{10^{-9}} and a few units in the last place of
#'   the scores), so that .80 - .75 and .15 - .10 are both ties at
#'   `tie_tol = 0.05`. With `tie_tol = 0` only equal scores tie.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @return An `ir_comparison` object: a list whose `table` is a data frame
#'   with one row per pair and measure: `measure`, `system1`, `system2`,
#'   `mean1`, `mean2`, `estimate` (mean1 - mean2 over the topics used),
#'   `conf.low`, `conf.high` (the test's own interval at level \eqn{1 - \alpha},
#'   not adjusted for the correction: the t interval, Tukey's simultaneous
#'   intervals, a user test's `conf.int`; NA where the test has none;
#'   [pair_intervals()] gives intervals that agree with the corrected decisions),
#'   `effect_size`, `statistic`, `p.value`, `p.adjusted`, `significant`
#'   (`p.adjusted < alpha`), `wins`, `ties`, `losses` (topics where system1
#'   is better, tied, worse) and `n_topics`; plus the settings (`test`,
#'   `correction`, `alpha`, `B`, `seed`, `exact`, `baseline`), `interval`
#'   (the test's interval kind for [pair_intervals()], from its record; see
#'   [new_ir_test()]), `means` (a
#'   systems x measures matrix of mean scores) and `scores` (the matrices
#'   compared, for the plots).
#' @references Sakai, T. (2006). Evaluating evaluation metrics based on the
#'   bootstrap. *SIGIR 2006*, 525--532.
#'
#' Smucker, M. D., Allan, J. & Carterette, B. (2007). A comparison of
#'   statistical significance tests for information retrieval evaluation.
#'   *CIKM 2007*, 623--632.
#'
#' Carterette, B. (2012). Multiple testing in statistical analysis of
#'   systems-based information retrieval experiments. *ACM TOIS* 30(1), 4.
#'
#' Sakai, T. (2014). Statistical reform in information retrieval? *SIGIR
#'   Forum* 48(1), 3--12.
#'
#' Phipson, B. & Smyth, G. K. (2010). Permutation p-values should never be
#'   zero: calculating exact p-values when permutations are randomly drawn.
#'   *Statistical Applications in Genetics and Molecular Biology* 9(1), 39.
#' @seealso [anova_scores()] for the ANOVA table behind `"tukey"`; [ir_tests()]
#'   for the test registry.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:4], ]
#' cmp <- compare_systems(top)
#' cmp
#' as.data.frame(cmp)[, c("system1", "system2", "estimate", "p.value", "p.adjusted")]
#' compare_systems(top, test = "rthsd", B = 1000, seed = 1)
#' compare_systems(top, baseline = rownames(top)[4], test = "randomization",
#'                 B = 2000, seed = 1)
#' cat(format(cmp, "markdown"), sep = "\n")
#' @export
compare_systems <- function(scores, baseline = NULL, test = "t", correction = "holm",
                            alpha = 0.05, B = 10000, seed = NULL, exact = NULL, tie_tol = 0,
                            n_threads = irtopics_threads(), progress = NULL) {
  call <- environment()
  rec <- resolve_ir_test(test, "compare_systems", call = call)
  check_correction(correction)
  check_number(alpha, "alpha", min = 0, max = 1)
  if (alpha <= 0 || alpha >= 1) stop_irtopics("{.arg alpha} must be strictly between 0 and 1.")
  check_number(B, "B", min = 1, max = .Machine$integer.max, integer = TRUE)
  check_seed(seed)
  if (!is.null(exact)) check_flag(exact)
  check_number(tie_tol, "tie_tol", min = 0)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  B <- as.integer(B)

  mats <- if (inherits(scores, "ir_evaluation")) {
    if (!length(scores)) stop_irtopics("{.arg scores} has no measures.")
    scores
  } else {
    list(scores)
  }
  familywise <- rec$needs == "matrix"
  mats <- lapply(mats, check_scores, allow_na = !familywise, min_systems = 2L,
                 min_topics = 2L, call = call)
  names(mats) <- if (inherits(scores, "ir_evaluation")) names(scores) else
    attr(mats[[1]], "measure") %||% "score"
  for (meas in names(mats)) {
    where <- if (length(mats) > 1L) sprintf(" (%s)", meas)
    check_answered_systems(mats[[meas]], where = where, call = call)
    check_not_tiny(mats[[meas]], where = where, call = call)
  }
  if (!is.null(baseline)) {
    if (!is.character(baseline) || length(baseline) != 1L || is.na(baseline)) {
      stop_irtopics("{.arg baseline} must be the name of one system, or NULL for all pairs.")
    }
    for (s in mats) check_names_in(baseline, rownames(s), arg = "baseline")
  }
  if (rec$resampling) seed <- resolve_seed(seed)
  ctx <- list(alpha = alpha, B = B, seed = seed, exact = exact, n_threads = n_threads, call = call)

  tables <- lapply(names(mats), function(meas) {
    m <- mats[[meas]]
    pr <- compare_pairs(rownames(m), baseline)
    base <- pair_basics(m, pr, tie_tol)
    tab <- with_progress_measure(meas, test_rows(rec, m, pr, base, ctx))
    tab <- cbind(data.frame(measure = meas, system1 = rownames(m)[pr$first],
                            system2 = rownames(m)[pr$second], stringsAsFactors = FALSE),
                 base[c("mean1", "mean2", "estimate")], tab,
                 base[c("wins", "ties", "losses", "n_topics")])
    undefined_warning(tab, meas, rec)
    tab$p.adjusted <- if (familywise) tab$p.value else stats::p.adjust(tab$p.value, method = correction)
    tab$significant <- !is.na(tab$p.adjusted) & tab$p.adjusted < alpha
    tab
  })
  table <- do.call(rbind, tables)
  rownames(table) <- NULL
  table <- table[c("measure", "system1", "system2", "mean1", "mean2", "estimate", "conf.low",
                   "conf.high", "effect_size", "statistic", "p.value", "p.adjusted", "significant",
                   "wins", "ties", "losses", "n_topics")]
  systems <- unique(unlist(lapply(mats, rownames), use.names = FALSE))
  means <- vapply(mats, function(s) rowMeans(s, na.rm = TRUE)[systems], numeric(length(systems)))
  means <- matrix(means, nrow = length(systems), dimnames = list(systems, names(mats)))
  exact_used <- if (rec$p_rule == "exact_or_monte_carlo") exact_decision(exact, mats, B) else exact
  warn_undecidable(rec, B, max(vapply(mats, ncol, 1L)), exact_used, max(vapply(tables, nrow, 1L)),
                   if (familywise) "none" else correction, alpha)
  new_ir_comparison(list(
    table = table, test = rec$name, test_label = rec$label, interval = rec$interval,
    correction = if (familywise) "none" else correction,
    alpha = alpha, B = if (rec$resampling) B else NA_integer_,
    seed = seed, exact = exact_used, tie_tol = tie_tol, baseline = baseline,
    means = means, scores = lapply(mats, function(s) { attr(s, "measure") <- NULL; s })
  ))
}

new_ir_comparison <- function(x) {
  new_result(x, "ir_comparison", fields = c(table = "data.frame", test = "string", test_label = "string",
                                            interval = "string", correction = "string", alpha = "number", B = "number",
                                            tie_tol = "number", means = "matrix", scores = "list"))
}

# Pairs as row indices: all i < k, or (other, baseline).
compare_pairs <- function(systems, baseline) {
  if (is.null(baseline)) {
    cb <- utils::combn(length(systems), 2L)
    return(list(first = cb[1, ], second = cb[2, ]))
  }
  b <- match(baseline, systems)
  others <- setdiff(seq_along(systems), b)
  list(first = others, second = rep(b, length(others)))
}

# Means, difference, wins / ties / losses and n over the topics each pair shares.
pair_basics <- function(m, pr, tie_tol) {
  s <- cpp_pair_summaries(m, as.integer(pr$first) - 1L, as.integer(pr$second) - 1L, tie_tol)
  data.frame(mean1 = s[, 2], mean2 = s[, 3], estimate = s[, 4], wins = as.integer(s[, 5]),
             ties = as.integer(s[, 6]), losses = as.integer(s[, 7]), n_topics = as.integer(s[, 1]),
             sd = s[, 8])
}

# Whether the randomisation test enumerates (one decision for the call).
exact_decision <- function(exact, mats, B) {
  if (!is.null(exact)) return(exact)
  all(vapply(mats, function(m) 2^ncol(m) <= B, logical(1)))
}

undefined_warning <- function(tab, measure, rec) {
  bad <- is.na(tab$p.value)
  if (!any(bad) || is.null(rec$rows)) return(invisible())
  pairs <- paste(tab$system1[bad], tab$system2[bad], sep = " - ")
  warn_irtopics(c("{sum(bad)} pair{?s} of {.val {measure}} {?has/have} p = NA: {rec$undefined}.",
                  x = "{.val {utils::head(pairs, 5)}}{if (length(pairs) > 5) ', ...' else ''}",
                  i = "Use another test (the randomisation test is defined for any differences) or drop these systems."),
                kind = "undefined")
}

# The rows of one test over the pairs pr of m: conf.low, conf.high,
# effect_size, statistic, p.value. A user's test runs under `seed` (its own
# draws, not the user's stream).
test_rows <- function(rec, m, pr, base, ctx) {
  if (!is.null(rec$rows)) return(rec$rows(m, pr, base, ctx))
  with_seed(ctx$seed, custom_rows(m, pr, rec, ctx$call))
}

# Two-system tests over all pairs -------------------------------------------------

# The rows of a two-system test before its statistic and p-value: the
# effect size mean(d) / sd(d).
paired_frame <- function(base) {
  es <- ifelse(base$n_topics >= 2 & base$sd > 0, base$estimate / base$sd, NA_real_)
  data.frame(conf.low = rep(NA_real_, nrow(base)), conf.high = NA_real_, effect_size = es,
             statistic = NA_real_, p.value = NA_real_)
}

# The per-topic differences of the pairs (pairs x topics).
pair_differences <- function(m, pr) m[pr$first, , drop = FALSE] - m[pr$second, , drop = FALSE]

rows_t <- function(m, pr, base, ctx) {
  out <- paired_frame(base)
  res <- t_test_core(base$estimate, base$sd / sqrt(base$n_topics), base$n_topics - 1, abs(base$estimate),
                     alpha = ctx$alpha)
  out[c("statistic", "p.value", "conf.low", "conf.high")] <- res[c("statistic", "p.value", "conf.low", "conf.high")]
  out
}

rows_wilcoxon <- function(m, pr, base, ctx) {
  out <- paired_frame(base)
  d <- pair_differences(m, pr)
  res <- vapply(seq_along(pr$first), function(p) signed_rank(d[p, !is.na(d[p, ])], ctx$exact), numeric(4))
  out$statistic <- res[1, ]
  out$p.value <- wilcoxon_pvalues(res[1, ], res[2, ], res[3, ])[, "p2"]
  if (any(res[4, ] > 0)) {
    warn_irtopics(c("Exact Wilcoxon p-values need differences without ties or zeros: {sum(res[4, ] > 0)} of {length(pr$first)} pair{?s} use{?s/} the normal approximation with continuity correction instead, as {.code wilcox.test()} does.",
                    i = "Ties and zero differences are common in IR scores; {.code exact = NULL} (the default) chooses without warning."),
                  kind = "exact")
  }
  out
}

rows_sign <- function(m, pr, base, ctx) {
  out <- paired_frame(base)
  k <- base$wins
  nn <- k + base$losses
  out$statistic <- ifelse(nn > 0, k, NA_real_)
  out$p.value <- sign_pvalues(k, nn)[, "p2"]
  out
}

rows_randomization <- function(m, pr, base, ctx) {
  out <- paired_frame(base)
  out$statistic <- base$estimate * base$n_topics
  out$p.value <- randomization_p(m, pr, base$n_topics, ctx$B, ctx$seed, ctx$exact, ctx$n_threads, ctx$call)
  out
}

rows_bootstrap_studentized <- function(m, pr, base, ctx) {
  out <- paired_frame(base)
  n <- base$n_topics
  out$statistic <- ifelse(n >= 2 & base$sd > 0, base$estimate / (base$sd / sqrt(n)), NA_real_)
  out$p.value <- bootstrap_p(m, pr, n, ctx$B, ctx$seed, ctx$n_threads)
  out
}

# Wilcoxon signed-rank statistic V of differences d (no NA) with what
# wilcoxon_pvalues() needs, by the rules of R's wilcox.test(x, y, paired =
# TRUE) (R 4.2): zero differences dropped; exact = NULL means exact when
# fewer than 50 non-zero differences remain; the exact distribution only
# when there are neither ties nor zeros, else the normal approximation's
# tie-corrected sd. Returns c(V, n, sd (NA: exact), fallback): fallback = 1
# when an exact p-value was asked for (exact = TRUE) but ties or zeros
# forced the normal approximation (wilcox.test warns then).
signed_rank <- function(d, exact) {
  zeroes <- any(d == 0)
  d <- d[d != 0]
  n <- length(d)
  if (n < 1L) return(c(NA_real_, 0, NA_real_, 0))
  use_exact <- if (is.null(exact)) n < 50L else exact
  r <- rank(abs(d))
  v <- sum(r[d > 0])
  ties <- anyDuplicated(r) > 0L
  if (use_exact && !ties && !zeroes) return(c(v, n, NA_real_, 0))
  nt <- table(r)
  sigma <- sqrt(n * (n + 1) * (2 * n + 1) / 24 - sum(nt^3 - nt) / 48)
  c(v, n, sigma, as.numeric(isTRUE(exact) && (ties || zeroes)))
}

randomization_p <- function(m, pr, n, B, seed, exact, n_threads, call) {
  P <- length(pr$first)
  complete <- n == ncol(m)
  use_exact <- if (is.null(exact)) 2^ncol(m) <= B else exact
  if (use_exact) {
    dz <- pair_differences(m, pr)
    ok <- !is.na(dz)
    dz[!ok] <- 0
    nz <- rowSums(dz != 0)
    if (any(nz > exact_max_topics)) {
      w <- which.max(nz)
      stop_irtopics(c("An exact randomisation test enumerates at most {exact_max_topics} topics with a non-zero difference.",
                      x = "Systems {.val {rownames(m)[pr$first[w]]}} and {.val {rownames(m)[pr$second[w]]}} differ on {nz[w]} topics.",
                      i = "Use {.code exact = FALSE} (a Monte Carlo test with {.arg B} random sign vectors)."),
                    kind = "exact", call = call)
    }
    a <- abs(m)
    a[is.na(a)] <- 0
    a1 <- a[pr$first, , drop = FALSE]
    a2 <- a[pr$second, , drop = FALSE]
    a1[!ok] <- 0
    a2[!ok] <- 0
    scale <- pmax(apply(a1, 1, max), apply(a2, 1, max))
    return(signflip_exact_pvalues(t(dz), scale))
  }
  p <- rep(NA_real_, P)
  if (any(complete)) {
    p[complete] <- signflip_pvalues(m, pr$first[complete], pr$second[complete], B, seed, n_threads)
  }
  # A pair with missing topics: its two rows with 0 on the topics it does not
  # use (zero differences do not change a sign-flip statistic), so it sees
  # the same sign vectors as the complete pairs.
  for (p_i in which(!complete)) {
    x2 <- m[c(pr$first[p_i], pr$second[p_i]), , drop = FALSE]
    x2[, is.na(x2[1, ]) | is.na(x2[2, ])] <- 0
    p[p_i] <- signflip_pvalues(x2, 1L, 2L, B, seed, n_threads)
  }
  p
}

bootstrap_p <- function(m, pr, n, B, seed, n_threads) {
  P <- length(pr$first)
  complete <- n == ncol(m)
  p <- rep(NA_real_, P)
  if (any(complete)) {
    p[complete] <- bootstrap_pvalues(m, pr$first[complete], pr$second[complete], B, seed, n_threads)
  }
  # A pair with missing topics resamples its own n topics.
  for (p_i in which(!complete & n >= 2)) {
    x2 <- m[c(pr$first[p_i], pr$second[p_i]), , drop = FALSE]
    x2 <- x2[, !is.na(x2[1, ]) & !is.na(x2[2, ]), drop = FALSE]
    p[p_i] <- bootstrap_pvalues(x2, 1L, 2L, B, seed, n_threads)
  }
  p
}

# Blocked multi-system procedures ---------------------------------------------------

rows_tukey <- function(m, pr, base, ctx) tukey_rows(m, pr, ctx$alpha)

rows_rthsd <- function(m, pr, base, ctx) rthsd_rows(m, pr, ctx$B, ctx$seed, ctx$n_threads, ctx$call)

tukey_rows <- function(m, pr, alpha) {
  a <- anova_impl(m)
  k <- nrow(m)
  n <- ncol(m)
  diff <- a$system_means[pr$first] - a$system_means[pr$second]
  ok <- a$s_e > 1e-12 * (a$s_a + a$s_b + a$s_e)
  se <- sqrt(a$v_e / n)
  half <- stats::qtukey(1 - alpha, k, a$df_e) * se
  q <- abs(diff) / se
  data.frame(
    conf.low = if (ok) unname(diff - half) else NA_real_,
    conf.high = if (ok) unname(diff + half) else NA_real_,
    effect_size = if (ok) unname(diff / sqrt(a$v_e)) else NA_real_,
    statistic = if (ok) unname(q) else NA_real_,
    p.value = if (ok) unname(stats::ptukey(q, k, a$df_e, lower.tail = FALSE)) else NA_real_
  )
}

rthsd_rows <- function(m, pr, B, seed, n_threads, call = rlang::caller_env()) {
  a <- anova_impl(m)
  ranges <- rthsd_ranges(m, B, seed, n_threads, call = call)
  diff <- a$system_means[pr$first] - a$system_means[pr$second]
  es <- if (a$v_e > 0) unname(diff / sqrt(a$v_e)) else NA_real_
  data.frame(conf.low = NA_real_, conf.high = NA_real_, effect_size = es,
             statistic = unname(abs(diff)),
             p.value = rthsd_pvalues(m, pr$first, pr$second, ranges))
}

# A user-supplied test ---------------------------------------------------------

# The rows of a user's record over the pairs: its function called on each
# pair's paired scores.
custom_rows <- function(m, pr, rec, call) {
  P <- length(pr$first)
  out <- data.frame(conf.low = rep(NA_real_, P), conf.high = NA_real_, effect_size = NA_real_,
                    statistic = NA_real_, p.value = NA_real_)
  for (p in seq_len(P)) {
    s1 <- rownames(m)[pr$first[p]]
    s2 <- rownames(m)[pr$second[p]]
    keep <- !is.na(m[s1, ]) & !is.na(m[s2, ])
    val <- user_test_result(rec, m[s1, keep], m[s2, keep], list(system1 = s1, system2 = s2), call)
    dd <- m[s1, keep] - m[s2, keep]
    if (length(dd) >= 2L && stats::sd(dd) > 0) out$effect_size[p] <- mean(dd) / stats::sd(dd)
    out$p.value[p] <- val$p
    out$statistic[p] <- val$statistic
    out$conf.low[p] <- val$ci[1]
    out$conf.high[p] <- val$ci[2]
  }
  out
}

# A user record's function on (x, y), called as fun(x, y) through
# call_user(): list(p, statistic, ci). Every consumer calls users' tests
# here.
user_test_result <- function(rec, x, y, where, call) {
  what <- if (rec$name == "custom") "The test function" else
    sprintf("The test {.val %s}", gsub("([{}])", "\\1\\1", rec$name))
  res <- call_user(rec$fun, list(x, y), what, where = where, kind = "test", call = call,
                   check = function(v) if (is.null(custom_result(v))) {
                     "a p-value in [0, 1], or a list with p.value (and optionally statistic, conf.int)"
                   })
  custom_result(res)
}

custom_result <- function(res) {
  num1 <- function(v) is.numeric(v) && length(v) == 1L
  p <- if (num1(res)) res else if (is.list(res) && num1(res$p.value)) res$p.value else NULL
  if (is.null(p) || (!is.na(p) && (p < 0 || p > 1))) return(NULL)
  st <- if (is.list(res) && num1(res$statistic)) unname(res$statistic) else NA_real_
  ci <- if (is.list(res) && is.numeric(res$conf.int) && length(res$conf.int) == 2L)
    unname(as.double(res$conf.int)) else c(NA_real_, NA_real_)
  list(p = unname(as.double(p)), statistic = as.double(st), ci = ci)
}
