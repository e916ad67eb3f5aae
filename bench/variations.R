# Benchmark: return-order dissimilarities of one topic (Liggett & Buckley 2005,
# spec 1.4-1.5) with 50 query variants x 8 systems = 400 lists and 500
# relevant documents, C++ (return_order_dissimilarity) beside a plain base-R
# implementation with rank() and cor(), on the same data, checking that both
# give the same numbers.
# Usage (from the package root, after installing the package): Rscript bench/variations.R
# Run against an optimised installed build (pkgload::load_all compiles with -O0):
#   R CMD INSTALL --library=/tmp/irtopics-lib . && R_LIBS=/tmp/irtopics-lib Rscript bench/variations.R
suppressMessages(library(irtopics))
new_ir_return_orders <- irtopics:::new_ir_return_orders

set.seed(2005)
n_rel <- 500L; n_queries <- 50L; n_systems <- 8L; depth <- 1000L
lists <- expand.grid(query = sprintf("q%02d", seq_len(n_queries)),
                     system = sprintf("sys%d", seq_len(n_systems)), stringsAsFactors = FALSE)
lists$list <- paste(lists$system, lists$query, sep = "|")
# each list returns 40-95% of the relevant documents at distinct positions
pos <- vapply(seq_len(nrow(lists)), function(k) {
  n_ret <- sample(round(0.4 * n_rel):round(0.95 * n_rel), 1L)
  p <- rep(depth + 1L, n_rel)
  p[sample(n_rel, n_ret)] <- sample(depth, n_ret)
  p
}, integer(n_rel))
dimnames(pos) <- list(sprintf("doc%04d", seq_len(n_rel)), lists$list)
orders <- new_ir_return_orders(list(t1 = pos),
                               data.frame(lists[c("list", "system", "query")], topic = "t1",
                                          n_returned = depth),
                               data.frame(query = unique(lists$query), topic = "t1", text = NA),
                               depth = depth)

base_r <- function(p) {
  r <- apply(p, 2L, rank)          # midranks, unreturned (1001) tied
  s <- stats::cor(r)               # Spearman with ties = Pearson on midranks
  sqrt(pmax(2 * (1 - s), 0))
}

time_it <- function(f, reps = 5L) {
  t <- vapply(seq_len(reps), function(i) system.time(f())[["elapsed"]], 0)
  stats::median(t)
}

ref <- base_r(pos)
cpp1 <- as.matrix(return_order_dissimilarity(orders, topic = "t1", n_threads = 1))
cpp2 <- as.matrix(return_order_dissimilarity(orders, topic = "t1", n_threads = 2))
stopifnot(identical(cpp1, cpp2))
max_diff <- max(abs(cpp1 - ref[rownames(cpp1), colnames(cpp1)]))
stopifnot(max_diff < 1e-10)

t_base <- time_it(function() base_r(pos))
t_cpp1 <- time_it(function() return_order_dissimilarity(orders, topic = "t1", n_threads = 1))
t_cpp2 <- time_it(function() return_order_dissimilarity(orders, topic = "t1", n_threads = 2))
t_ind <- time_it(function() topic_indicators(orders, n = 20, n_threads = 1), reps = 3L)

cat(sprintf("lists: %d (%d queries x %d systems), relevant documents: %d, pairs: %d\n",
            ncol(pos), n_queries, n_systems, n_rel, ncol(pos) * (ncol(pos) - 1) / 2))
cat(sprintf("max |C++ - base R| = %.3g; 1 vs 2 threads identical: %s\n", max_diff,
            identical(cpp1, cpp2)))
cat(sprintf("base R rank() + cor():                 %.3f s\n", t_base))
cat(sprintf("return_order_dissimilarity, 1 thread:  %.3f s (%.1fx)\n", t_cpp1, t_base / t_cpp1))
cat(sprintf("return_order_dissimilarity, 2 threads: %.3f s (%.1fx)\n", t_cpp2, t_base / t_cpp2))
cat(sprintf("topic_indicators (selection of 20, E/U/C/S for 8 systems), 1 thread: %.3f s\n", t_ind))
