# Leaderboard agreement between two evaluations of the same systems and
# topics (issue 27): do the reference and the candidate evaluation (human and
# LLM-made judgments; original and reproduced scores) rank the systems
# alike? Internal: compare_qrels() calls it and shapes the result.

# The two evaluations ------------------------------------------------------------

# Checks two score matrices of the same systems and topics and returns them
# as plain double matrices, the candidate's rows and columns in the
# reference's order. No NA (each statistic is a mean over the same topics
# under both evaluations). Differences in systems or topics are an
# irtopics_error_data naming what only one side has.
check_score_pair <- function(reference, candidate, min_systems = 2L, min_topics = 2L,
                             call = rlang::caller_env()) {
  ref <- check_scores(reference, allow_na = FALSE, min_systems = min_systems, min_topics = min_topics,
                      arg = "reference", call = call)
  cand <- check_scores(candidate, allow_na = FALSE, min_systems = min_systems, min_topics = min_topics,
                       arg = "candidate", call = call)
  for (dim in c("systems", "topics")) {
    a <- if (dim == "systems") rownames(ref) else colnames(ref)
    b <- if (dim == "systems") rownames(cand) else colnames(cand)
    if (length(a) != length(b) || !setequal(a, b)) {
      only_ref <- show_bytes(utils::head(setdiff(a, b), 10))
      only_cand <- show_bytes(utils::head(setdiff(b, a), 10))
      stop_irtopics(c("{.arg reference} and {.arg candidate} must hold the same {dim}.",
                      x = if (length(only_ref)) "Only in {.arg reference}: {.val {only_ref}}.",
                      x = if (length(only_cand)) "Only in {.arg candidate}: {.val {only_cand}}.",
                      i = "Subset both to the common {dim} first."),
                    kind = "data", call = call)
    }
  }
  # reordered with its record (subsetting drops the attributes: the
  # candidate's conclusions were labelled "score" instead of its measure)
  keep <- attributes(cand)[c("measure", "aggregate", "direction")]
  cand <- cand[rownames(ref), colnames(ref), drop = FALSE]
  attributes(cand)[names(keep)] <- keep
  list(reference = ref, candidate = cand)
}

# Leaderboard statistics -----------------------------------------------------------

leaderboard_statistics <- c("kendall_tau", "tau_ap", "rbo", "spearman", "top1", "topk_overlap")

# Bytes per bootstrap sample of the leaderboard: its statistics, the two
# evaluations' means and the topic draws (compare_qrels() checks B with it
# before any work).
leaderboard_bootstrap_bytes <- function(n_systems, n_topics) {
  8 * (length(leaderboard_statistics) + 2 * n_systems + n_topics)
}

#' Agreement of two leaderboards, with topic-bootstrap intervals
#'
#' Internal (called by `compare_qrels()`). The leaderboard of an evaluation
#' is its systems ordered by mean score over the topics, best first by the
#' reference's measure record (`score_record()`): the lowest first where
#' lower is better, by the geometric mean for `gm_map`.
#'
#' @param reference,candidate Score matrices (`ir_scores` or numeric,
#'   systems x topics) with the same systems and topics, no NA.
#' @param top_k The k of `topk_overlap` (capped at the number of systems).
#' @param conf Confidence level of the percentile intervals.
#' @param B Number of bootstrap samples of topics (0: no intervals).
#' @param interval `"percentile"` (default), `"basic"`, `"bca"`, `"normal"`
#'   or `"jackknife"` (what each is an interval for:
#'   `agreement_interval_targets`, R/kendall.R).
#' @param seed Seed of the bootstrap (`resolve_seed()`).
#' @param rbo_p Persistence of the RBO row.
#' @param tau_ap_ties `"a"` (default) or `"b"`: the tau_AP variant of
#'   Urbano & Marrero (2017) for ties, see below.
#' @param progress Progress bar between chunks of replicates.
#' @return A data frame with one row per statistic, in this order:
#'   * `statistic`: `"kendall_tau"` (tau-b of the two vectors of means, as
#'     `cor(method = "kendall")`), `"tau_ap"` (AP correlation of Yilmaz et
#'     al. 2008 with the reference as the truth and the candidate as the
#'     ranking evaluated, `ircor::tauAP(reference, candidate)`; ties:
#'     `tau_ap_ties = "a"` is the expected value over random orders of tied
#'     systems, which is Urbano & Marrero's tau_AP_a when the reference has
#'     no ties (`ircor::tauAP_a`); `"b"` their symmetric tau_AP_b, ties as
#'     real ties (`ircor::tauAP_b`)), `"rbo"` (extrapolated `rbo()` with
#'     persistence `rbo_p` of the two system orderings, every system),
#'     `"spearman"` (of the means), `"top1"` (1 when both evaluations have
#'     the same best system, else 0), `"topk_overlap"` (the share of the
#'     reference's top k systems that are also in the candidate's top k).
#'     Means within 1e-9 times the evaluation's largest absolute score are
#'     ties (`tie_means()`), in the estimate, every sample and the
#'     jackknife; orderings break ties by system name (byte order).
#'   * `estimate`: the statistic on all topics.
#'   * `conf.low`, `conf.high`: the `interval` (see `bootstrap_interval()`)
#'     from `B` bootstrap samples of topics (the same sample for both
#'     evaluations; systems fixed); `NA` for `top1` (a 0/1 value has no
#'     useful interval) and when `B = 0`. The percentile and normal
#'     intervals are for the agreement to expect from an evaluation on this
#'     many topics (coverage .97-1.00 and .90-.99 in bench/README.md, section
#'     40), the jackknife's (the estimate +- z times the jackknife's
#'     standard error over topics) for the agreement over the topic
#'     population, which finite topic sets bias down (coverage .90-1.00,
#'     conservative); `"basic"` and `"bca"` try to remove the bias and
#'     undercover both (.26-.81 for tau-b). `boot_mean - estimate` shows the
#'     bootstrap's bias. Intervals are clipped to the statistic's range.
#'   * `boot_mean`: the mean of the statistic over the bootstrap samples; for
#'     `top1` the share of topic samples on which both evaluations pick the
#'     same best system.
#'   * `parameter`: `rbo_p` for `rbo`, k for `topk_overlap`, else `NA`.
#'
#'   Attributes: `draws` (B x statistics matrix of the bootstrap values),
#'   `means` (systems x 2 matrix of the means, columns `reference`,
#'   `candidate`), `B`, `conf`, `interval`, `seed`, `top_k`, `tau_ap_ties`.
#' @noRd
leaderboard_agreement <- function(reference, candidate, top_k = 10L, conf = 0.95, B = 1000L,
                                  seed = NULL, interval = c("percentile", "basic", "bca", "normal", "jackknife"),
                                  rbo_p = 0.9,
                                  tau_ap_ties = c("a", "b"), progress = NULL, call = rlang::caller_env()) {
  tau_ap_ties <- match_choice(tau_ap_ties, call = call)
  interval <- match_choice(interval, call = call)
  pair <- check_score_pair(reference, candidate, call = call)
  warn_too_few(nrow(pair$reference), 3L, "system", "The leaderboard agreement and its intervals",
               "Two leaderboards of 2 systems agree (tau 1) or not (-1).")
  top_k <- check_whole(top_k, "top_k", min = 1, call = call)
  check_number(conf, "conf", min = 0, max = 1, call = call)
  if (conf <= 0 || conf >= 1) stop_irtopics("{.arg conf} must be strictly between 0 and 1.", call = call)
  B <- check_whole(B, "B", min = 0, call = call)
  check_seed(seed, call = call)
  check_number(rbo_p, "rbo_p", min = 0, max = 1, call = call)
  if (rbo_p <= 0 || rbo_p >= 1) stop_irtopics("{.arg rbo_p} must be strictly between 0 and 1.", call = call)
  local_progress(progress)

  # values whose means order the systems, best largest (the measure's aggregate and direction)
  rec <- score_record(pair$reference)
  ref <- ranking_values(pair$reference, rec)
  cand <- ranking_values(pair$candidate, rec)
  n_topics <- ncol(ref)
  k <- min(top_k, nrow(ref))
  # ties in the means are broken by system name, in byte order
  name_rank <- order(order(as_bytes(rownames(ref)), method = "radix"))
  # statistics of the columns of two means matrices (systems x samples):
  # a samples x statistics matrix; means equal to within rounding are ties
  # (tie_means(): the weighted sums below round P@10's exact ties apart)
  scale_r <- max(abs(ref))
  scale_c <- max(abs(cand))
  stats_of <- function(mr, mc) {
    leaderboard_columns(tie_means(mr, scale_r), tie_means(mc, scale_c), name_rank, k, rbo_p, tau_ap_ties)
  }
  estimate <- stats_of(as.matrix(rowMeans(ref)), as.matrix(rowMeans(cand)))[1L, ]

  seed <- if (B > 0) resolve_seed(seed) else NULL
  draws <- matrix(NA_real_, 0, length(leaderboard_statistics),
                  dimnames = list(NULL, leaderboard_statistics))
  if (B > 0) {
    plan <- resample_chunks(B, "leaderboard bootstrap samples",
                            bytes = leaderboard_bootstrap_bytes(nrow(ref), n_topics), call = call)
    parts <- run_chunks(plan, function(idx, threads) {
      w <- topic_bootstrap_weights(seed, n_topics, idx[1L], length(idx))
      mr <- ref %*% w
      mc <- cand %*% w
      stats_of(mr, mc)
    })
    draws <- do.call(rbind, parts)
  }
  # leave-one-topic-out means, for the BCa acceleration
  jack <- if (interval %in% c("bca", "jackknife") && B > 0) {
    jr <- (rowSums(ref) - ref) / (n_topics - 1)
    jc <- (rowSums(cand) - cand) / (n_topics - 1)
    stats_of(jr, jc)
  }
  bounds <- vapply(leaderboard_statistics, function(s) {
    if (B == 0 || s == "top1") return(c(NA_real_, NA_real_))
    range <- if (s %in% c("rbo", "topk_overlap")) c(0, 1) else c(-1, 1)
    if (interval == "jackknife") return(normal_bounds(estimate[[s]], jackknife_se(jack[, s]), conf, range))
    pmin(pmax(bootstrap_interval(estimate[[s]], draws[, s], jack[, s], conf, interval), range[1]), range[2])
  }, numeric(2))
  out <- data.frame(statistic = leaderboard_statistics, estimate = unname(estimate),
                    conf.low = bounds[1, ], conf.high = bounds[2, ],
                    boot_mean = if (B > 0) unname(colMeans(draws, na.rm = TRUE)) else NA_real_,
                    parameter = c(NA, NA, rbo_p, NA, NA, k), stringsAsFactors = FALSE)
  rownames(out) <- NULL
  attr(out, "draws") <- draws
  attr(out, "means") <- cbind(reference = aggregate_rows(pair$reference, rec$aggregate),
                              candidate = aggregate_rows(pair$candidate, rec$aggregate))
  attr(out, "B") <- B
  attr(out, "conf") <- conf
  attr(out, "interval") <- interval
  attr(out, "seed") <- seed
  attr(out, "top_k") <- k
  attr(out, "tau_ap_ties") <- tau_ap_ties
  out
}

# Topic weights of bootstrap samples first..first + count - 1 (1-based) of
# `seed`: an n_topics x count matrix whose column b holds how often each
# topic was drawn, divided by n_topics, so that scores %*% w are the means
# over the resampled topics. The draws are resample_draws("indices"): the
# counter-based stream of src/resample.h, sample b the same in every chunk.
topic_bootstrap_weights <- function(seed, n_topics, first, count) {
  idx <- resample_draws("indices", seed, n = n_topics, first = first, count = count)
  cells <- as.vector(idx) + n_topics * rep(seq_len(count) - 1L, each = n_topics)
  matrix(tabulate(cells, n_topics * count) / n_topics, n_topics, count)
}

# The statistics of each column pair of two means matrices (reference mr,
# candidate mc, systems x samples): a samples x statistics matrix. With
# tau_ap_ties = "a", all of it in C++ (src/leaderboard.h, the same values
# as leaderboard_values()); "b" calls leaderboard_values() per column.
leaderboard_columns <- function(mr, mc, name_rank, k, rbo_p, tau_ap_ties) {
  out <- if (tau_ap_ties == "a") {
    cpp_leaderboard_values(mr, mc, as.integer(name_rank), as.integer(k), rbo_p)
  } else {
    t(vapply(seq_len(ncol(mr)), function(b) {
      leaderboard_values(mr[, b], mc[, b], name_rank, k, rbo_p, tau_ap_ties)
    }, numeric(length(leaderboard_statistics))))
  }
  dimnames(out) <- list(NULL, leaderboard_statistics)
  out
}

# The statistics of two vectors of means (reference mr, candidate mc), named
# as leaderboard_statistics; `name_rank` breaks ties in the orderings.
leaderboard_values <- function(mr, mc, name_rank, k, rbo_p, tau_ap_ties) {
  ord_r <- order(-mr, name_rank, method = "radix")
  ord_c <- order(-mc, name_rank, method = "radix")
  c(kendall_tau = rank_cor_impl(mr, mc, "b"),
    tau_ap = if (tau_ap_ties == "a") rank_cor_impl(mc, mr, "ap") else tau_ap_b(mr, mc),
    rbo = rbo_impl(ord_r, ord_c, rbo_p),
    spearman = rank_cor_impl(mr, mc, "spearman"),
    top1 = as.double(ord_r[1L] == ord_c[1L]),
    topk_overlap = sum(ord_c[seq_len(k)] %in% ord_r[seq_len(k)]) / k)
}

# Urbano & Marrero's (2017) tau_AP_b: ties are real ties of both rankings;
# the mean of the two directed coefficients, so it is symmetric. In a
# direction with positions from `a` (larger first), an item i below the top
# (p_i = 1 + the number of items with a larger a) scores the share of the
# p_i - 1 items above it that `b` also places strictly above it; the
# coefficient is 2 / (number of such items) * their sum - 1. NA when every
# item is tied in `a` (no item below the top).
tau_ap_b <- function(x, y) {
  above_x <- outer(x, x, "<")  # [i, j]: j is above i in x
  above_y <- outer(y, y, "<")
  # items above i in one ranking that the other also places above it: the
  # same count in both directions
  agree <- rowSums(above_x & above_y)
  directed <- function(above) {
    p <- 1 + rowSums(above)
    below_top <- p > 1
    if (!any(below_top)) return(NA_real_)
    2 / sum(below_top) * sum(agree[below_top] / (p[below_top] - 1)) - 1
  }
  (directed(above_x) + directed(above_y)) / 2
}

# Bootstrap intervals -----------------------------------------------------------

# A two-sided `conf` interval for a statistic from its bootstrap draws
# (Davison & Hinkley 1997, chapter 5; Efron & Tibshirani 1993, chapter 14):
# * "percentile": the draws' alpha and 1 - alpha quantiles;
# * "basic": 2 * estimate minus those quantiles (reversed), which removes the
#   bootstrap's estimate of the bias;
# * "normal": estimate +- z times the draws' standard deviation;
# * "bca": the percentile interval at the levels of bca_levels()
#   (compare-means.R) with its "half" tie rule (draws equal to the estimate
#   count one half: our choice, so that a discrete statistic with many draws
#   at the estimate gets no spurious bias correction; boot::boot.ci counts
#   only the draws below) and the acceleration from the jackknife values
#   `jack` (L = mean(jack) - jack).
# Quantiles are order statistics interpolated on the normal scale
# (normal_scale_quantiles(), shared with mean_intervals()), as
# boot::boot.ci does. NA draws are dropped; no finite draw gives NA bounds.
bootstrap_interval <- function(estimate, draws, jack, conf, type) {
  draws <- draws[is.finite(draws)]
  n <- length(draws)
  if (!n || !is.finite(estimate)) return(c(NA_real_, NA_real_))
  if (type == "normal") return(normal_bounds(estimate, stats::sd(draws), conf, c(-Inf, Inf)))
  alpha <- c((1 - conf) / 2, (1 + conf) / 2)
  if (type == "bca") alpha <- bca_levels(estimate, draws, mean(jack) - jack, alpha, "half")
  q <- as.vector(normal_scale_quantiles(draws, alpha))
  if (type == "basic") rev(2 * estimate - q) else q
}
