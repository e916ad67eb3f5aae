# Fixtures of the agreement family (compare_qrels()): the trec_eval test
# collection's qrels as the reference, a simulated noisy judge as the
# candidate, and simulated systems made from its one run by perturbing the
# scores (labelled as simulated wherever they are used).

agreement_dir <- function() system.file("extdata", "trec_eval-test", package = "irtopics")

# A noisy judge: a share `p` of the reference's grades moved one step up or
# down (kept within the grade range), drawn under `seed`.
noisy_labels <- function(ref, p = 0.25, seed = 1) {
  ref <- as.data.frame(ref)
  set.seed(seed)
  flip <- sample(nrow(ref), round(p * nrow(ref)))
  top <- max(ref$rel)
  ref$rel[flip] <- pmin(top, pmax(0L, ref$rel[flip] + sample(c(-1L, 1L), length(flip), TRUE)))
  ref
}

# `n` simulated systems from the collection's run: its scores plus normal
# noise (sd `noise`), as a data frame of runs.
perturbed_runs <- function(n = 6, noise = 2, seed = 2) {
  run <- as.data.frame(read_run(file.path(agreement_dir(), "results.test")))
  set.seed(seed)
  do.call(rbind, lapply(seq_len(n), function(k) {
    data.frame(system = sprintf("sys%d", k), topic = run$topic, docno = run$docno,
               score = run$score + stats::rnorm(nrow(run), sd = noise * k / n), stringsAsFactors = FALSE)
  }))
}
