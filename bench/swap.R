# Benchmark: swap_error_rates() against a straightforward base-R
# implementation of the same procedure (spec 2.6, steps 1-3) on the TREC 2004
# Robust AP matrix (110 systems x 249 topics), 500 trials, 5 topic-set sizes.
# Both use the same permutations (seed 1) and must give the same numbers.
#
# Usage, from the package root:  Rscript bench/swap.R
# The package is installed (optimised build) into a temporary library first,
# because pkgload::load_all() compiles without optimisation.

lib <- file.path(tempdir(), "irtopics-bench-lib")
dir.create(lib, showWarnings = FALSE)
status <- system2(file.path(R.home("bin"), "R"),
                  c("CMD", "INSTALL", "--preclean", "--no-docs", "--no-multiarch", "--no-test-load",
                    paste0("--library=", lib), "."), stdout = FALSE, stderr = FALSE)
if (status != 0) stop("R CMD INSTALL failed")
library(irtopics, lib.loc = lib)

ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                  measure = "AP")
m <- unclass(ap); attr(m, "measure") <- NULL
sizes <- c(25, 50, 75, 100, 124)
trials <- 500
fuzz <- 0.05

# --- base R: the same draws, aggregates with rowMeans/apply, pairs with outer()
area_base <- function(v) { q <- length(v) %/% 4; w <- sort(v)[seq_len(q)]; mean(cumsum(w) / seq_len(q)) }
swap_base <- function(m, sizes, trials, seed, agg) {
  set.seed(seed)
  perms <- vapply(seq_len(trials), function(b) sample.int(ncol(m)), integer(ncol(m)))
  upper <- upper.tri(matrix(0, nrow(m), nrow(m)))
  out <- data.frame(size = sizes, error_rate = NA_real_, tie_rate = NA_real_)
  for (k in seq_along(sizes)) {
    n <- sizes[k]
    gt <- lt <- eq <- matrix(0, nrow(m), nrow(m))
    for (b in seq_len(trials)) {
      for (h in 0:1) {
        topics <- perms[h * n + seq_len(n), b]
        a <- if (agg == "mean") rowMeans(m[, topics]) else apply(m[, topics], 1, area_base)
        d <- outer(a, a, "-")
        tie <- abs(d) <= (fuzz + 1e-9) * outer(abs(a), abs(a), pmax)   # boundary tolerance as in irtopics
        gt <- gt + (!tie & d > 0)
        lt <- lt + (!tie & d < 0)
        eq <- eq + tie
      }
    }
    total <- sum((gt + lt + eq)[upper])
    out$error_rate[k] <- sum(pmin(gt, lt)[upper]) / total
    out$tie_rate[k] <- sum(eq[upper]) / total
  }
  out
}

timeit <- function(expr) { t <- system.time(res <- force(expr))[["elapsed"]]; list(res = res, t = t) }
rows <- list()
for (agg in c("mean", "area")) {
  base <- timeit(swap_base(m, sizes, trials, 1, agg))
  pkg1 <- timeit(swap_error_rates(ap, sizes, aggregate = agg, trials = trials, seed = 1, n_threads = 1))
  pkg2 <- timeit(swap_error_rates(ap, sizes, aggregate = agg, trials = trials, seed = 1, n_threads = 2))
  stopifnot(isTRUE(all.equal(pkg1$res$error$error_rate, base$res$error_rate, tolerance = 1e-12)),
            isTRUE(all.equal(pkg1$res$error$tie_rate, base$res$tie_rate, tolerance = 1e-12)),
            identical(pkg1$res$error, pkg2$res$error))
  rows[[agg]] <- data.frame(aggregate = agg, base_R_s = base$t, irtopics_1_thread_s = pkg1$t,
                            irtopics_2_threads_s = pkg2$t, speedup_1 = base$t / pkg1$t,
                            speedup_2 = base$t / pkg2$t)
  cat(sprintf("%s: error rates by size %s (same in base R and irtopics)\n", agg,
              paste(sprintf("%.4f", pkg1$res$error$error_rate), collapse = " ")))
}
res <- do.call(rbind, rows)
rownames(res) <- NULL
print(res, digits = 3)
cv <- timeit(critical_values(swap_error_rates(ap, sizes, aggregate = "area", trials = trials, seed = 1)))
cat(sprintf("critical_values() (swap definition, 41 grid values, 5 sizes) incl. swap_error_rates: %.2f s\n", cv$t))
cat(sprintf("R %s, %s, %d cores\n", getRversion(), R.version$platform, parallel::detectCores()))
