# Per-topic agreement between two evaluations of the same systems and topics
# (issue 27): on which topics does the candidate evaluation (an LLM judge, a
# reproduction) score the systems differently from the reference? Internal:
# compare_qrels() calls it.

#' Per-topic agreement of two evaluations
#'
#' Internal (called by `compare_qrels()`).
#'
#' @param reference,candidate Score matrices with the same systems and
#'   topics, no NA (`check_score_pair()`).
#' @return A data frame with one row per topic, in the reference's column
#'   order: `topic`; `kendall_tau`, tau-b of the systems' scores on the
#'   topic under the two evaluations (as `cor(method = "kendall")`; `NA`
#'   when either evaluation gives every system the same score, e.g. a topic
#'   without relevant documents); `spearman` (likewise); `top1` (`TRUE` when
#'   the best system on the topic is the same, ties broken by system name in
#'   byte order); `mean_reference`, `mean_candidate` (the topic's mean score
#'   over the systems); `mean_difference` (candidate minus reference,
#'   averaged over the systems: a judge that is too lenient on the topic is
#'   positive); `mean_abs_difference` (mean of |candidate - reference| over
#'   the systems); `n_systems`. Sort by `kendall_tau` to find the topics
#'   where the candidate fails.
#' @noRd
topic_agreement <- function(reference, candidate, call = rlang::caller_env()) {
  pair <- check_score_pair(reference, candidate, min_topics = 1L, call = call)
  ref <- pair$reference
  cand <- pair$candidate
  name_rank <- order(order(as_bytes(rownames(ref)), method = "radix"))
  better <- better_sign(score_record(ref)$direction)
  best <- function(v) order(-better * v, name_rank, method = "radix")[1L]
  per_topic <- vapply(seq_len(ncol(ref)), function(j) {
    r <- ref[, j]
    c <- cand[, j]
    c(rank_cor_impl(r, c, "b"), rank_cor_impl(r, c, "spearman"), best(r) == best(c))
  }, numeric(3))
  diff <- cand - ref
  data.frame(topic = colnames(ref), kendall_tau = per_topic[1, ], spearman = per_topic[2, ],
             top1 = per_topic[3, ] == 1, mean_reference = unname(colMeans(ref)),
             mean_candidate = unname(colMeans(cand)), mean_difference = unname(colMeans(diff)),
             mean_abs_difference = unname(colMeans(abs(diff))), n_systems = nrow(ref),
             stringsAsFactors = FALSE)
}
