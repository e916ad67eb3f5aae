# Benchmark: reproduction_measures() at the scale of a TREC ad hoc
# reproduction study: 50 topics, runs of 1,000 documents per topic, 10
# reproduced pairs (20 runs + 2 originals), AP and nDCG, the paper's six
# cut-offs 5-1000 (KTU and RBO for 2 x 10 x 6 x 50 = 6,000 pairs of lists).
# Synthetic runs and qrels (made here, seeded): only the sizes matter.
#
# Usage, from the package root, with an optimised build installed into a
# private library (pkgload::load_all() compiles with -O0):
#   mkdir -p /tmp/repro-lib && R CMD INSTALL --preclean --no-test-load -l /tmp/repro-lib . && rm -f src/*.o src/*.so
#   R_LIBS=/tmp/repro-lib Rscript bench/reproduction.R
library(irtopics)
set.seed(1)
n_topics <- 50
depth <- 1000
pool <- sprintf("doc%05d", 1:5000)
topics <- sprintf("%d", 401:(400 + n_topics))
qrels <- do.call(rbind, lapply(topics, function(t) {
  data.frame(topic = t, docno = sample(pool, 300), rel = sample(0:2, 300, replace = TRUE, prob = c(.6, .3, .1)))
}))
make_run <- function(shift) {
  do.call(rbind, lapply(topics, function(t) {
    d <- sample(pool, depth)
    rel <- qrels$rel[qrels$topic == t][match(d, qrels$docno[qrels$topic == t])]
    data.frame(topic = t, docno = d, score = rnorm(depth) + shift * ifelse(is.na(rel), 0, rel))
  }))
}
jitter <- function(run, sd) transform(run, score = score + rnorm(nrow(run), sd = sd))
baseline <- make_run(0.5)
advanced <- make_run(1)
reps <- lapply(setNames(seq(0.05, 1, length.out = 10), sprintf("rep%02d", 1:10)), function(sd) {
  list(baseline = jitter(baseline, sd), advanced = jitter(advanced, sd))
})
time_it <- function(expr, times = 3) {
  e <- substitute(expr)
  env <- parent.frame()
  t <- vapply(seq_len(times), function(i) {
    st <- system.time(eval(e, env))
    c(st[["elapsed"]], st[["user.self"]] + st[["sys.self"]])
  }, numeric(2))
  # elapsed and CPU time of this process (its threads included), each the minimum of `times`
  sprintf("%.2f s elapsed, %.2f s CPU", min(t[1, ]), min(t[2, ]))
}
cutoffs <- c(5, 10, 20, 50, 100, 1000)
cat(sprintf("R %s, irtopics %s, %d threads\n", getRversion(), packageVersion("irtopics"), irtopics_threads()))
t_all <- time_it(x <- reproduction_measures(baseline, advanced, reps, qrels, measures = c("AP", "nDCG"),
                                            cutoffs = cutoffs))
all_runs <- do.call(rbind, c(list(cbind(system = "b", baseline), cbind(system = "a", advanced)),
                             unlist(lapply(names(reps), function(r) {
                               list(cbind(system = paste0(r, "b"), reps[[r]]$baseline),
                                    cbind(system = paste0(r, "a"), reps[[r]]$advanced))
                             }), recursive = FALSE)))
t_eval <- time_it(evaluate(all_runs, qrels, measures = c("AP", "nDCG"), missing = "zero"))
t_rpd <- time_it(reproduction_measures(baseline, advanced, reps, qrels, qrels_reproduced = qrels,
                                       type = "reproducibility", measures = c("AP", "nDCG")))
t_re <- time_it(reproduction_measures(baseline, advanced, reps, qrels, measures = c("AP", "nDCG"),
                                      cutoffs = cutoffs, ktu = "repro_eval"))
cat("minimum of 3 runs each\n")
cat(sprintf("replicability, 10 pairs, 6 cut-offs:  %s\n", t_all))
cat(sprintf("  evaluate() of the 22 runs alone:     %s\n", t_eval))
cat(sprintf("reproducibility (no ranked lists):     %s\n", t_rpd))
cat(sprintf("replicability, ktu = \"repro_eval\":     %s\n", t_re))
print(utils::head(x$lists, 6))
