# Benchmark: discriminative_power() (Sakai's paired bootstrap test on every
# pair of systems) against vectorised base-R implementations of the same test
# on the TREC 2004 Robust matrices (110 systems x 249 topics, 5,995 pairs),
# B = 1,000. All use the same bootstrap index matrix (the package's draws,
# exposed by the internal resample_draws()) and must give the same p-values.
#
# Usage, from the package root:  Rscript bench/design.R
# The package is installed (optimised build) into a temporary library first,
# because pkgload::load_all() compiles without optimisation.

lib <- file.path(tempdir(), "irtopics-bench-lib")
dir.create(lib, showWarnings = FALSE)
status <- system2(file.path(R.home("bin"), "R"),
                  c("CMD", "INSTALL", "--preclean", "--no-docs", "--no-multiarch", "--no-test-load",
                    paste0("--library=", lib), "."), stdout = FALSE, stderr = FALSE)
if (status != 0) stop("R CMD INSTALL failed")
library(irtopics, lib.loc = lib)
options(irtopics.progress = FALSE)

path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
plain <- function(x) { x <- unclass(x); attr(x, "measure") <- NULL; x }
ap <- plain(read_scores(path("robust2004_ap.csv"), measure = "AP"))
p10 <- plain(read_scores(path("robust2004_p10.csv"), measure = "P@10"))
stopifnot(identical(dimnames(ap), dimnames(p10)))
B <- 1000L
seed <- 1L
n <- ncol(ap)
pr <- utils::combn(nrow(ap), 2L)
cat(sprintf("%d systems x %d topics, %d pairs, B = %d\n", nrow(ap), n, ncol(pr), B))

idx <- irtopics:::resample_draws("indices", seed = seed, n = n, first = 1, count = B)   # n x B

# (a) base R, loop over the B samples, every pair at once (matrix operations
# over pairs x topics); the package's tie rule.
boot_loop <- function(x, idx) {
  D <- x[pr[1, ], , drop = FALSE] - x[pr[2, ], , drop = FALSE]
  dbar <- rowMeans(D)
  t0 <- dbar / (sqrt(rowSums((D - dbar)^2) / (n - 1)) / sqrt(n))
  W <- D - dbar
  scale <- pmax(apply(abs(x[pr[1, ], , drop = FALSE]), 1, max), apply(abs(x[pr[2, ], , drop = FALSE]), 1, max))
  count <- numeric(nrow(D))
  for (b in seq_len(ncol(idx))) {
    Wb <- W[, idx[, b], drop = FALSE]
    mb <- rowMeans(Wb)
    sb <- sqrt(rowSums((Wb - mb)^2) / (n - 1))
    tb <- ifelse(sb <= 1e-9 * scale, 0, mb / (sb / sqrt(n)))
    count <- count + (abs(tb) >= abs(t0) * (1 - 1e-9) - 1e-9)
  }
  p <- count / ncol(idx)
  p[!(sqrt(rowSums(W^2) / (n - 1)) > 1e-9 * scale)] <- NA
  p
}

# (b) base R with BLAS: the B samples as a topics x B count matrix C, means
# W %*% C / n and sums of squares (W^2) %*% C - n mean^2 for all pairs and
# samples in two matrix products.
boot_blas <- function(x, idx) {
  D <- x[pr[1, ], , drop = FALSE] - x[pr[2, ], , drop = FALSE]
  dbar <- rowMeans(D)
  W <- D - dbar
  sd0 <- sqrt(rowSums(W^2) / (n - 1))
  t0 <- dbar / (sd0 / sqrt(n))
  C <- apply(idx, 2, tabulate, nbins = n)
  M <- W %*% C / n
  S <- sqrt(pmax((W^2) %*% C - n * M^2, 0) / (n - 1))
  scale <- pmax(apply(abs(x[pr[1, ], , drop = FALSE]), 1, max), apply(abs(x[pr[2, ], , drop = FALSE]), 1, max))
  Tb <- ifelse(S <= 1e-9 * scale, 0, M / (S / sqrt(n)))
  p <- rowMeans(abs(Tb) >= abs(t0) * (1 - 1e-9) - 1e-9)
  p[!(sd0 > 1e-9 * scale)] <- NA
  p
}

time_it <- function(expr) { gc(); t <- system.time(v <- force(expr)); list(value = v, time = t[["elapsed"]]) }

pkg2 <- time_it(discriminative_power(list(AP = ap, `P@10` = p10), B = B, seed = seed, n_threads = 2))
pkg1 <- time_it(discriminative_power(list(AP = ap, `P@10` = p10), B = B, seed = seed, n_threads = 1))
pkg_ap1 <- time_it(discriminative_power(ap, B = B, seed = seed, n_threads = 1))
stopifnot(identical(pkg1$value$pairs, pkg2$value$pairs))
loop_ap <- time_it(boot_loop(ap, idx))
blas_ap <- time_it(boot_blas(ap, idx))

p_pkg <- pkg_ap1$value$pairs$p.value
cat(sprintf("base-R loop vs package, AP: identical p-values: %s\n", isTRUE(all.equal(unname(loop_ap$value), p_pkg))))
cat(sprintf("base-R BLAS vs package, AP: largest |difference| %.4f (one-pass variance; %d of %d pairs differ)\n",
            max(abs(unname(blas_ap$value) - p_pkg), na.rm = TRUE), sum(abs(blas_ap$value - p_pkg) > 0, na.rm = TRUE),
            length(p_pkg)))
print(pkg2$value)

res <- data.frame(
  what = c("discriminative_power(), AP + P@10, 2 threads", "discriminative_power(), AP + P@10, 1 thread",
           "discriminative_power(), AP, 1 thread", "base R, loop over samples (AP)",
           "base R, BLAS products (AP)"),
  seconds = c(pkg2$time, pkg1$time, pkg_ap1$time, loop_ap$time, blas_ap$time))
print(res, row.names = FALSE)
cat(sprintf("speed-up, AP, 1 thread: %.0fx over the base-R loop, %.1fx over the BLAS version\n",
            loop_ap$time / pkg_ap1$time, blas_ap$time / pkg_ap1$time))
cat(sprintf("speed-up, AP + P@10 on 2 threads vs the base-R loop for both (2 x AP time): %.0fx\n",
            2 * loop_ap$time / pkg2$time))
cat("BLAS:", if (!is.null(La_library())) La_library() else "", extSoftVersion()[["BLAS"]], "\n")
