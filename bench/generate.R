# Generates the synthetic benchmark collection of bench/README.md:
#   100 runs x 250 topics x 1000 documents (25 million run lines, ~1.2 GB),
#   qrels with 1500 judged documents per topic, 70 of them relevant.
# Documents come from a collection of 500,000 ids ("FT9xx-yyyyyy" style).
# Each run retrieves, per topic, a mix of judged documents (more often the
# relevant ones, with a run-specific skill) and unjudged ones; scores are
# rounded to 3 decimals so that about a third of the lines tie with a
# neighbour, and lines are written in rank order like real TREC runs.
# qrels-pool.txt is the same qrels with 10% of the non-relevant judgements
# turned into grade -1 ("in the pool, not judged", trec_eval's convention for
# infAP), for the all_trec parity check of bench/evaluate.R.
#
# Usage: Rscript bench/generate.R [out_dir] [n_runs] [n_topics]
#   defaults: bench/data 100 250
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else file.path("bench", "data")
n_runs <- if (length(args) >= 2) as.integer(args[2]) else 100L
n_topics <- if (length(args) >= 3) as.integer(args[3]) else 250L
depth <- 1000L
n_judged <- 1500L
n_rel <- 70L
n_docs <- 500000L

stopifnot(requireNamespace("data.table", quietly = TRUE))
set.seed(20261122)
dir.create(file.path(out, "runs"), recursive = TRUE, showWarnings = FALSE)
docno <- sprintf("FT9%02d-%06d", (seq_len(n_docs) %% 40L) + 10L, seq_len(n_docs))
topics <- as.character(300L + seq_len(n_topics))

# qrels: per topic 1500 judged documents, the first 70 relevant (grades 1-2)
judged <- lapply(seq_len(n_topics), function(t) sample.int(n_docs, n_judged))
qrels <- data.table::data.table(
  topic = rep(topics, each = n_judged), iter = 0L,
  docno = docno[unlist(judged)],
  rel = rep(c(sample(1:2, n_rel, replace = TRUE, prob = c(.7, .3)), integer(n_judged - n_rel)),
            times = n_topics))
data.table::fwrite(qrels, file.path(out, "qrels.txt"), sep = " ", col.names = FALSE)

for (r in seq_len(n_runs)) {
  skill <- runif(1, 0.1, 0.6)
  lines <- vector("list", n_topics)
  for (t in seq_len(n_topics)) {
    j <- judged[[t]]
    n_rel_ret <- rbinom(1, n_rel, skill)
    n_judged_ret <- min(600L, n_judged - n_rel)
    pick <- c(sample(j[seq_len(n_rel)], n_rel_ret),
              sample(j[-seq_len(n_rel)], n_judged_ret),
              sample.int(n_docs, depth))
    pick <- unique(pick)
    # relevant documents tend to score higher
    base <- c(rbeta(n_rel_ret, 2 + 6 * skill, 2), rbeta(length(pick) - n_rel_ret, 2, 3))
    take <- order(-base)[seq_len(depth)]
    score <- round(base[take] * 20, 3)
    lines[[t]] <- data.table::data.table(topic = topics[t], q0 = "Q0", docno = docno[pick[take]],
                                         rank = seq_len(depth) - 1L, score = score,
                                         tag = sprintf("run%03d", r))
  }
  data.table::fwrite(data.table::rbindlist(lines), file.path(out, "runs", sprintf("run%03d.txt", r)),
                     sep = " ", col.names = FALSE)
}
set.seed(20261123)
pool <- data.table::copy(qrels)
nonrel <- which(pool$rel == 0L)
pool$rel[sample(nonrel, round(length(nonrel) / 10))] <- -1L
data.table::fwrite(pool, file.path(out, "qrels-pool.txt"), sep = " ", col.names = FALSE)
cat(sprintf("wrote %d runs x %d topics to %s\n", n_runs, n_topics, out))
