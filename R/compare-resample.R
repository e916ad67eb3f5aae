# Resampling p-values for comparing systems (and for discriminative power):
# thin R drivers over src/resample.h (see CONTRIBUTING.md, "Comparing
# systems").
#
# Seeds: the C++ generator is keyed by the call's seed, a whole number from
# resolve_seed() (R/utils-resampling.R): the user's, or one drawn from R's RNG
# when seed = NULL (so set.seed() before the call reproduces it). Replicate b
# (0-based) of a seed always gets the same draws, whatever the threads,
# chunks or future workers, so the p-values of a seed never depend on how the
# B replicates are split.

# Relative tie tolerance of the resampling tests (ties with the observed
# statistic count as "at least as extreme").
resample_rel_tol <- 1e-9

# Replicate chunks: at most 40 chunks (progress bar, future scale-out), at
# least 250 replicates each; `bytes` is what the caller keeps per replicate.
resample_chunks <- function(B, what = "replicates", bytes = 0, call = rlang::caller_env()) {
  plan_chunks(B, what, min_size = 250L, pieces = 40L, bytes_per_item = bytes, arg = "B", call = call)
}

# Sum a C++ counting kernel `kernel(first, count, threads)` over chunks of
# the B replicates.
resample_sum <- function(B, kernel, n_threads, what) {
  parts <- run_chunks(resample_chunks(B, what), function(idx, threads) {
    kernel(idx[1L] - 1, length(idx), threads)
  }, n_threads = n_threads)
  Reduce(`+`, parts)
}

# Monte Carlo sign-flip (randomisation) p-values of pairs (first[p],
# second[p]) (1-based rows of the complete double matrix x), B replicates.
signflip_pvalues <- function(x, first, second, B, seed, n_threads = 1L) {
  counts <- resample_sum(B, function(f, cnt, threads) {
    cpp_signflip_counts(x, as.integer(first) - 1L, as.integer(second) - 1L, seed, f, cnt,
                        resample_rel_tol, threads)
  }, n_threads, "randomisation test replicates")
  monte_carlo_p(counts, B)
}

# A Monte Carlo p-value from the count of replicates at least as extreme as
# the observed statistic: (count + 1) / (B + 1) (Phipson & Smyth 2010), the
# observed data counting as one of the equally likely arrangements. It is
# never 0, so a multiplicity correction can act on it, and it keeps
# P(p <= a) <= a under the null hypothesis (count / B does not: with 136 null
# pairs and Holm it gave a familywise error of .107). Exact enumeration
# (signflip_exact_pvalues) is not affected: it counts every arrangement.
monte_carlo_p <- function(count, B) (count + 1) / (B + 1)

# The 2019 study's Monte Carlo p-value, count / B: kept only for its two
# records (bootstrap_2019, permutation_2019 in R/compare-tests.R) so that
# test_calibration() reproduces the study. It can be 0.
count_over_b <- function(count, B) count / B

# Studentized bootstrap ASLs (Sakai 2006) of pairs of x; NA for a pair whose
# differences have zero variance.
bootstrap_pvalues <- function(x, first, second, B, seed, n_threads = 1L) {
  counts <- resample_sum(B, function(f, cnt, threads) {
    cpp_bootstrap_counts(x, as.integer(first) - 1L, as.integer(second) - 1L, seed, f, cnt,
                         resample_rel_tol, threads)
  }, n_threads, "bootstrap test replicates")
  p <- monte_carlo_p(counts, B)
  p[is.nan(p)] <- NA_real_
  p
}

# Ranges r_b (max - min of the permuted system sums) of the randomised Tukey
# HSD, B replicates.
# `call` is the user's function, named by a memory error.
rthsd_ranges <- function(x, B, seed, n_threads = 1L, call = rlang::caller_env()) {
  # Per replicate: its range, the copy unlist() makes, the sorted copy.
  plan <- resample_chunks(B, "randomised Tukey HSD replicates", bytes = 24, call = call)
  unlist(run_chunks(plan, function(idx, threads) {
    cpp_rthsd_ranges(x, seed, idx[1L] - 1, length(idx), threads)
  }, n_threads = n_threads), use.names = FALSE)
}

# Randomised Tukey HSD p-values of pairs of x from the ranges r: (the number
# of replicates whose range is at least the pair's |difference of sums|,
# plus 1) / (B + 1) (ties within resample_rel_tol * max|x| count).
rthsd_pvalues <- function(x, first, second, ranges) {
  sums <- rowSums(x)
  thr <- abs(sums[first] - sums[second]) - resample_rel_tol * max(abs(x))
  below <- findInterval(thr, sort(ranges), left.open = TRUE)
  unname(monte_carlo_p(length(ranges) - below, length(ranges)))
}

# Exact sign-flip p-values by enumeration; d is a topics x pairs matrix of
# differences with 0 for topics a pair does not use, scale the per-pair
# largest |score|.
signflip_exact_pvalues <- function(d, scale) {
  res <- cpp_signflip_exact(d, resample_rel_tol * scale)
  res[, 1] / res[, 2]
}

# The random draws of replicates first..(first + count - 1) (1-based) of seed:
# "signs" (n x count of +1/-1), "indices" (n x count of 1-based topics) or
# "permutations" (m x n x count array; [i, j, b] is the system whose score
# system i receives on topic j).
resample_draws <- function(kind = c("signs", "indices", "permutations"), seed, n, m = 2L,
                           first = 1L, count = 1L) {
  kind <- match_choice(kind)
  code <- match(kind, c("signs", "indices", "permutations")) - 1L
  cpp_resample_draws(code, as.integer(n), as.integer(m), seed, first - 1, as.integer(count))
}
