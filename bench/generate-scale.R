# Generates the scale test of bench/README.md: one run of 10 million lines
# (10,000 topics x 1,000 documents, ~390 MB) and qrels for the 10,000 topics
# (200 judged documents per topic, 20 of them relevant, grades 1-2).
# Lines are in rank order, scores rounded to 3 decimals (many ties), as in
# bench/generate.R, but generated column-wise so that it takes seconds.
#
# Usage: Rscript bench/generate-scale.R [out_dir] [n_topics] [depth]
#   defaults: bench/scale 10000 1000
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else file.path("bench", "scale")
n_topics <- if (length(args) >= 2) as.integer(args[2]) else 10000L
depth <- if (length(args) >= 3) as.integer(args[3]) else 1000L
n_judged <- 200L
n_rel <- 20L
n_docs <- 2000000L

stopifnot(requireNamespace("data.table", quietly = TRUE))
set.seed(20261122)
dir.create(out, recursive = TRUE, showWarnings = FALSE)
docno <- sprintf("GX%03d-%02d-%07d", seq_len(n_docs) %% 997L, seq_len(n_docs) %% 89L, seq_len(n_docs))
topics <- as.character(100000L + seq_len(n_topics))

# Judged documents of topic t: n_judged distinct ids from a per-topic window.
judged <- matrix(0L, n_judged, n_topics)
for (t in seq_len(n_topics)) judged[, t] <- sample.int(n_docs, n_judged)
qrels <- data.table::data.table(
  topic = rep(topics, each = n_judged), iter = 0L, docno = docno[judged],
  rel = rep(c(sample(1:2, n_rel, replace = TRUE, prob = c(.7, .3)), integer(n_judged - n_rel)),
            times = n_topics))
data.table::fwrite(qrels, file.path(out, "qrels.txt"), sep = " ", col.names = FALSE)

# The run: per topic, 60% of the judged documents (relevant ones first with
# probability 0.3) and the rest unjudged ids, sorted by a noisy score.
ret <- matrix(0L, depth, n_topics)
n_judged_ret <- min(depth, 120L)
for (t in seq_len(n_topics)) {
  j <- judged[, t]
  pick <- c(sample(j, n_judged_ret), sample.int(n_docs, depth))
  pick <- unique(pick)[seq_len(depth)]
  ret[, t] <- pick
}
rel_ids <- judged[seq_len(n_rel), , drop = FALSE]
is_rel <- matrix(FALSE, depth, n_topics)
for (t in seq_len(n_topics)) is_rel[, t] <- ret[, t] %in% rel_ids[, t]
base <- matrix(stats::rbeta(depth * n_topics, 2, 3), depth) + 0.4 * is_rel
score <- round(base * 20, 3)
ord <- apply(-score, 2, order)
idx <- ord + rep((seq_len(n_topics) - 1L) * depth, each = depth)
run <- data.table::data.table(topic = rep(topics, each = depth), q0 = "Q0", docno = docno[ret[idx]],
                              rank = rep(seq_len(depth) - 1L, n_topics), score = score[idx],
                              tag = "scale")
data.table::fwrite(run, file.path(out, "run.txt"), sep = " ", col.names = FALSE)
cat(sprintf("wrote %s lines of run and %s qrels lines to %s\n", format(nrow(run), big.mark = ","),
            format(nrow(qrels), big.mark = ","), out))
