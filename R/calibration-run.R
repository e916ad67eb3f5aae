# Test calibration by stochastic simulation (Urbano, Lima & Hanjalic 2019):
# Type I, II and III error rates of paired significance tests on new topics
# simulated from the user's own collections.

# The significance levels of the study (and of the plots).
calibration_alpha_grid <- c(1:9 / 1000, 1:9 / 100, 0.1)

#' Calibrate significance tests on your own collection
#'
#' Before choosing a test, ask how it behaves on collections like yours:
#' how often it declares a difference that is not there (Type I error), how
#' often it misses one that is (Type II error; power is 1 minus that rate),
#' and how often it declares one in the wrong direction (Type III error).
#' `test_calibration()` answers by stochastic simulation (Urbano, Lima &
#' Hanjalic 2019): it fits the collection's simulation model
#' ([simulation_model()]: a margin per system, a copula per pair), draws many
#' trials of new topics for pairs of systems, runs every test on each and
#' counts.
#'
#' @section Trials:
#' * **Type I.** A collection is drawn with probability proportional to its
#'   number of systems, then two distinct systems i, j uniformly; `n` topics
#'   are simulated from the copula of (i, j), but both columns go through the
#'   margin of i, so the two systems have exactly the same distribution (the
#'   null hypothesis is true). Every rejection at level alpha is a Type I
#'   error.
#' * **Power, Type II and Type III at effect size delta.** A baseline i is
#'   drawn uniformly among the bottom 75% of systems by expected score (so
#'   that adding delta stays inside \eqn{[0, 1]}); the experimental system j is
#'   drawn uniformly among the `closest` systems whose expected score is
#'   nearest to E\[i\] + delta, and its margin is transformed so that its
#'   expected score is exactly E\[i\] + delta (see [transform_margin()]).
#'   Power is the share of trials with p <= alpha (two-sided), the Type II
#'   rate is 1 minus power, and the Type III rate is the share of trials
#'   that are significant although the simulated mean difference
#'   (experimental minus baseline) is negative. The 2019 study drew the
#'   experimental system among the 10 closest (`closest = 10`, the default);
#'   `closest = 1` always takes the single closest one.
#' * Every test runs on the same simulated data in a trial, so the tests are
#'   compared on equal terms.
#'
#' @section Tests:
#' Tests are records of the test registry ([ir_tests()], [new_ir_test()]),
#' chosen by name or alias, or a set of them by its name. The default,
#' `tests = "study2019"`, is the 2019 study's five tests (two-sided, and
#' one-sided for "the experimental system is better"), which the trial loop
#' computes in C++:
#'
#' `r ir_test_members_help("study2019")`
#'
#' The sign test's tie threshold is `sign_tol` here (the study used 0.01);
#' the two tests whose p-value is \eqn{c / B} are the study's bootstrap and
#' permutation tests.
#'
#' "At least as extreme" in these two tests has a tolerance for rounding
#' (a choice of this package, not the study's): a resampled mean counts when
#' it is at least the observed one minus \eqn{10^{-9}} times the largest
#' absolute difference of the trial (for the permutation test's sums: times
#' `n` as well). Resampled statistics of discrete scores (P@10, or scores
#' with many zeros) are often equal to the observed one in exact arithmetic
#' but differ in the last bits; without the tolerance such ties would count
#' or not by the order of additions.
#'
#' Every other two-system test of the registry runs too, in R, trial by
#' trial (much slower): `"randomization"` (aliases `"permutation"`,
#' `"randomisation"`) and `"bootstrap_studentized"` (alias `"bootstrap"`)
#' are [compare_systems()]'s tests, whose Monte Carlo p-values are
#' \eqn{(c + 1)/(B + 1)} and whose bootstrap is Sakai's studentized one; each
#' trial runs `compare_systems(rbind(baseline, experimental), test = <name>,
#' B = B)`. So do [new_ir_test()] records and named functions
#' `function(x, y)` (x the baseline's simulated scores, y the experimental
#' system's) returning a two-sided p-value:
#' `tests = list("t", studentized = "bootstrap", mine = function(x, y) ...)`.
#' The `test` column of the results holds the registry's name of each test
#' (or the name you gave it in the list). Before the registry, the words
#' `"bootstrap"` and `"permutation"` (and `"randomization"`) named the
#' study's tests here and the package's in [compare_systems()]; they now
#' name the package's everywhere.
#'
#' @section Reproducibility and speed:
#' Trial t of every setting uses its own random stream, derived from `seed`
#' and (setting, t) only, so the results are the same for any `n_threads`,
#' any chunking and any `future` plan (`future::plan(multisession)` runs the
#' chunks of trials in parallel). Trials and tests run in C++; the margins
#' and copulas are fitted once, before the trials (pass a fitted
#' [simulation_model()] as `scores` to reuse it).
#'
#' @section Approximations:
#' The margins are tabulated for the trials (the CDF of a continuous
#' margin is interpolated linearly between 4097 points and inverted, see
#' [fit_margin()]); the Monte Carlo standard error of a rate r from T trials
#' is \eqn{\sqrt{r(1-r)/T}}. A test whose p-value is undefined on a trial (all
#' differences zero, or all ties of the sign test, or a test run in R that
#' fails on the trial's data) does not reject on it: it counts as a
#' non-rejection in every rate (Type I, power and Type III alike, so `rate`
#' is rejections over all `trials`, not over the defined ones), and the
#' column `undefined` counts such trials.
#'
#' The verdicts of `print()` and `summary()` ("liberal", "conservative", "at
#' nominal") come from an exact binomial test of a test's count of
#' rejections among the `trials` against `alpha`, equal-tailed at `level`
#' (99% by default), not from the standard error of the rate: 0 rejections
#' in 500 trials at alpha = 0.001 happens 61% of the time for a calibrated
#' test, and is "at nominal".
#'
#' @section Intervals: the model's uncertainty:
#' The `se` of a rate is its Monte Carlo error: it treats the fitted model
#' as exact. But the model is fitted to a sample of topics, and its fitting
#' error can dominate: on a known model (a Tawn copula, 3,000 topics) the
#' fitted model's sign-test rate at 100 topics was .388 against a true
#' .358, far beyond the Monte Carlo error. With `refits = R` (at least 2)
#' the model is refitted R times, each time on half of every collection's
#' topics drawn without replacement (systems whose half is constant sit that
#' refit out; no system is dropped as a duplicate or as bottom: the systems
#' are those of the model), and `refit_trials` trials are run under each
#' refit (each refit with its own seed, from `seed`). The spread of a rate
#' over the refits, less the refits' own Monte Carlo error, estimates the
#' variance of the rate due to fitting (the delete-d jackknife of Shao and
#' Wu (1989) with d = n / 2, whose factor \eqn{m / (n - m)} is 1 for an
#' even number of topics): `model_se`. The table's `conf.low` and
#' `conf.high` are then the normal 95% interval \eqn{rate \pm 1.96
#' \sqrt{se^2 + model\_se^2}}, kept in \eqn{[0, 1]}; without refits they
#' are \eqn{rate \pm 1.96\, se} (Monte Carlo only) and `model_se` is `NA`.
#' Print, summary and the plots say which interval they show. Half-samples
#' rather than resampling with replacement are our choice: repeated topics
#' are tied scores, which collapse the beta kernel's cross-validated
#' bandwidth and are ordered at random in the pseudo-observations, so a
#' refit would differ from the fit for reasons unrelated to sampling. The
#' interval is approximate: it assumes the rate's fitting error is roughly
#' normal and as large for half the topics, rescaled, as for all of them.
#'
#' The model's term is a difference of two noisy variances, set to 0 when
#' the refits' spread is within their own Monte Carlo error; with few
#' refits (or few `refit_trials`) it comes out 0 in most cells and the
#' interval is the Monte Carlo one again. `model_term_zero` counts the cells
#' (two-sided Type I and power at `alpha`, of `model_term_cells`) where it
#' is 0. With fewer than 10 refits (the relative standard error of R refits'
#' variance, \eqn{\sqrt{2/(R-1)}}, is then above 47%: 82% with 4) or a term
#' of 0 in more than half of those cells, a warning of class
#' `irtopics_warning_refits` and a line of `print()` say that the refits are
#' too few to estimate it and what to set: at least 20 refits, and 4 times
#' the `refit_trials` (half their Monte Carlo error) when the term was
#' mostly 0.
#'
#' Measured coverage of the true Type I rates by the 95% intervals, on a
#' known model (6 systems, 50 topics drawn from it and refitted; 40 data
#' sets x 12 cells; `bench/README.md`, section 40): Monte Carlo only 0.42
#' to 0.97 (0.83 over all cells; worst for the sign and Wilcoxon tests at
#' 50 topics, whose rates depend most on the fitted margins); with 4 refits
#' 0.88 to 1.00 (0.94; the model term 0 in 47% of the cells); with 20
#' refits 0.95 to 1.00 (0.98).
#'
#' Cost: each refit fits a whole model (every margin and every pair's
#' copula, about as long as [simulation_model()] on half the topics: some
#' seconds for a TREC collection of 100 systems, 15-40 s for Robust 2004
#' on all topics) and runs `refit_trials` trials per setting; the default
#' `refits = 0` adds nothing. `refits = 20` with 1,000 trials each is a
#' reasonable start.
#'
#' @param scores An `ir_scores` (systems x topics) of one collection, a named
#'   list of them (collections of one measure), or a fitted `ir_sim_model`.
#' @param tests The tests to calibrate (see Tests): names or aliases of
#'   the test registry ([ir_tests()]), or a list of them, of [new_ir_test()]
#'   records and of named functions; or the name of a set of the registry
#'   (`"study2019"`, the default; see [new_ir_test()], Sets).
#' @param n_topics Topic-set sizes of the simulated trials.
#' @param alpha Significance level(s) the print and summary judge at. The
#'   table holds the rates at these levels and at the study's 19 levels
#'   0.001, ..., 0.009, 0.01, ..., 0.1 (for the plots).
#' @param delta Effect sizes (differences in expected score) for power and
#'   Type III errors; `NULL` or `numeric(0)` for Type I only.
#' @param trials Trials per topic-set size and effect size.
#' @param B Resamples of the bootstrap and permutation tests. A test whose
#'   smallest p-value (1/(B + 1), or 2/2^n for an exact randomisation test
#'   over n topics) is not below the smallest `alpha` can never reject: a
#'   warning of class `irtopics_warning_undecidable` says so.
#' @param closest Number of systems nearest in expected score among which
#'   the experimental system of a power trial is drawn.
#' @param sign_tol Differences of at most this size are ties of the sign
#'   test.
#' @param type,support The measure's margins, see [simulation_model()] (only when `scores`
#'   are scores, not a fitted model).
#' @param seed Seed of the simulation (model fits and trials); `NULL` draws
#'   one from R's RNG.
#' @param n_threads Threads of the trial loop.
#' @inheritParams irtopics_progress
#' @param keep_trials Keep every trial's p-values and systems (a long data
#'   frame in `$trials_data`; `$trials` is the number of trials per
#'   setting).
#' @param refits Number of refits of the model on half of the topics for
#'   intervals that include the model's fitting error (see Intervals); 0
#'   (default) for Monte Carlo intervals only.
#' @param refit_trials Trials per setting under each refit (default:
#'   `trials`, at most 1,000).
#' @return An `ir_calibration`: a list with `table` (one row per test,
#'   topic-set size, delta (0 for Type I), alpha, alternative and error
#'   (`"type1"`, `"power"`, `"type2"`, `"type3"`): `rate`, `se` (Monte Carlo
#'   standard error), `trials`, `undefined`, `model_se` (the model's fitting
#'   error, `NA` without refits), `conf.low`, `conf.high` (95% interval,
#'   see Intervals)), `refits`, `refit_trials`, `refit_rates` (a matrix,
#'   the rate of each table row under each refit; `NULL` without refits),
#'   `model_term_zero` and `model_term_cells` (in how many of the cells
#'   shown the model's term came out 0, and of how many; see Intervals),
#'   `model` (the
#'   `ir_sim_model`), the settings (`tests`, `alpha`, `delta`, `n_topics`,
#'   `trials`, `B`, `closest`, `sign_tol`, `seed`), `power_design` and
#'   `trials_data` (every trial's p-values, with `keep_trials = TRUE`; else
#'   `NULL`).
#' @references J. Urbano, H. Lima and A. Hanjalic (2019). Statistical
#'   significance testing in information retrieval: an empirical analysis of
#'   Type I, Type II and Type III errors. SIGIR.
#' @seealso [simulation_model()], [compare_systems()], `vignette("calibration")`.
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' ap <- read_scores(path, measure = "AP")
#' cal <- test_calibration(ap[1:15, ], n_topics = 25, delta = 0.05, trials = 500,
#'                         B = 200, seed = 1)
#' cal
#' ggplot2::autoplot(cal)
#' @export
test_calibration <- function(scores, tests = "study2019", n_topics = c(25, 50, 100),
                             alpha = 0.05, delta = c(0.01, 0.03, 0.05), trials = 10000, B = 1000,
                             closest = 10, sign_tol = 0.01, type = NULL, support = NULL, seed = NULL,
                             n_threads = irtopics_threads(), progress = NULL, keep_trials = FALSE,
                             refits = 0, refit_trials = NULL) {
  call <- rlang::current_env()
  spec <- calibration_tests(tests)
  if (!is.numeric(n_topics) || !length(n_topics) || anyNA(n_topics) || any(n_topics != round(n_topics)) ||
      any(n_topics < 3) || any(n_topics > 1e5)) {
    stop_irtopics("{.arg n_topics} must be whole numbers in [3, 100000], not {show_values(n_topics) %||% show_value(n_topics)}.")
  }
  n_topics <- sort(unique(as.integer(n_topics)))
  if (!is.numeric(alpha) || !length(alpha) || anyNA(alpha) || any(alpha <= 0 | alpha >= 1)) {
    stop_irtopics(c("{.arg alpha} must be significance levels strictly between 0 and 1, not {show_values(alpha) %||% show_value(alpha)}.",
                    i = "E.g. {.code alpha = 0.05}."))
  }
  delta <- delta %||% numeric()
  if (!is.numeric(delta) || anyNA(delta) || any(delta <= 0 | delta >= 1)) {
    stop_irtopics(c("{.arg delta} must be effect sizes strictly between 0 and 1 (differences in expected score), not {show_values(delta) %||% show_value(delta)}.",
                    i = "E.g. {.code delta = c(0.01, 0.03, 0.05)}; {.code delta = NULL} for Type I errors only."))
  }
  delta <- sort(unique(as.double(delta)))
  trials <- check_whole(trials, "trials", min = 1, max = 2^31 - 1)
  B <- check_whole(B, "B", min = 1, max = 1e8)
  closest <- check_whole(closest, "closest", min = 1)
  check_number(sign_tol, "sign_tol", min = 0, max = 1)
  check_seed(seed)
  check_flag(keep_trials, "keep_trials")
  refits <- check_whole(refits, "refits", min = 0, max = 1e4)
  refit_trials <- if (is.null(refit_trials)) min(trials, 1000) else
    check_whole(refit_trials, "refit_trials", min = 1, max = 2^31 - 1)
  if (refits == 1) {
    stop_irtopics(c("{.arg refits} must be 0 (no model interval) or at least 2, not 1.",
                    i = "The model's share of the interval is the spread between refits."))
  }
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  seed <- resolve_seed(seed)
  # a test that cannot reject at the smallest topic set and alpha whatever the data
  for (nm in spec$names) {
    warn_undecidable(spec$records[[nm]], B, min(n_topics), NULL, 1L, "none", min(alpha),
                     what = sprintf("trial of \"%s\"", nm))
  }

  if (inherits(scores, "ir_sim_model") && (!is.null(type) || !is.null(support))) {
    stop_irtopics(c("{.arg type} and {.arg support} belong to the fit; {.arg scores} is a fitted model already.",
                    i = "Refit with {.code simulation_model(<scores>, type = , support = )}, or leave them out."))
  }
  model <- if (inherits(scores, "ir_sim_model")) scores else
    simulation_model(scores, type = type, support = support, seed = seed, n_threads = n_threads)
  alphas <- sort(unique(c(alpha, calibration_alpha_grid)))
  run <- calibration_run(model, spec, n_topics, delta, closest, trials, B, sign_tol, seed, n_threads, alphas,
                         keep_trials, call)
  refit <- calibration_refits(model, spec, n_topics, delta, closest, refits, refit_trials, B, sign_tol, seed,
                              n_threads, alphas, call)
  table <- calibration_intervals(run$table, refit, level = 0.95)
  terms <- calibration_model_terms(table, refits, sort(unique(alpha)))
  out <- new_ir_calibration(list(table = table, model = model, tests = spec$names, alpha = sort(unique(alpha)),
                                 delta = delta, n_topics = n_topics, trials = trials, B = B, closest = closest,
                                 sign_tol = sign_tol, seed = seed, power_design = run$settings$summary,
                                 trials_data = run$kept, refits = refits, refit_trials = refit_trials,
                                 refit_rates = refit$rates, model_term_zero = terms[["zero"]],
                                 model_term_cells = terms[["cells"]]))
  advice <- calibration_refits_advice(out)
  if (!is.null(advice)) warn_irtopics(advice, kind = "refits")
  out
}

# The trials of one fitted model: the settings, the long table of rates and
# (keep_trials) the trials' frame.
calibration_run <- function(model, spec, n_topics, delta, closest, trials, B, sign_tol, seed, n_threads, alphas,
                            keep_trials, call) {
  settings <- calibration_settings(model, n_topics, delta, closest, call = call)
  # memory: the statistics of every trial (and the kept p-values), and the
  # bootstrap's B means per thread. The statistics exist about 6 times at
  # the peak (the C++ list, cbind() per chunk, rbind() of the chunks, the
  # p-values and the selections of calibration_rates()): measured 870-1050
  # bytes per trial and setting for 18 fields (1340-1540 with the kept
  # p-values), where counting each field once had said 144 (issue 29: a
  # call accepted under 100 MB peaked at 353 MB). calibration_memory_factor
  # is that measured multiple with room for R's garbage collector: in a long
  # session (the whole test suite) it collects later, and the same call
  # peaked at about 8.2 copies, and at just over 10 in R CMD check's run of
  # the tests.
  n_fields <- nrow(cpp_calibration_tables()$fields) + length(spec$names)
  per_trial <- nrow(settings$grid) * calibration_memory_factor *
    (8 * n_fields + if (keep_trials) 16 * length(spec$names) else 0)
  check_memory(trials, per_trial, "trials", call = call)
  if (any(vapply(spec$records, `[[`, NA, "resampling"))) check_memory(B, 8 * max(1L, n_threads), "B", call = call)

  total <- nrow(settings$grid) * trials
  plan <- plan_chunks(total, "calibration trials", min_size = 200L, pieces = 50L, arg = "trials", call = call)
  flat <- flat_model(model)
  pieces <- with_progress_measure(model$measure, run_chunks(plan, function(idx, threads) {
    calibration_chunk(idx, trials, settings, flat, spec, B, sign_tol, seed, threads)
  }, n_threads = n_threads))
  stats <- do.call(rbind, pieces)
  pv <- calibration_pvalues(stats, spec, settings$grid, B)
  list(settings = settings, table = calibration_rates(pv, settings$grid, spec, alphas, trials),
       kept = if (keep_trials) calibration_trial_frame(pv, settings$grid, spec, model) else NULL)
}

# Copies of the trial statistics at the peak of test_calibration() (see
# the memory check there; bench/README.md has the measurements).
calibration_memory_factor <- 12

new_ir_calibration <- function(x) {
  new_result(x, "ir_calibration", fields = c(table = "data.frame", model = "any", tests = "character",
                                             alpha = "numeric", delta = "numeric", n_topics = "numeric",
                                             trials = "number", B = "number", closest = "number",
                                             sign_tol = "number", seed = "number",
                                             power_design = "data.frame", trials_data = "data.frame?",
                                             refits = "number", refit_trials = "number",
                                             refit_rates = "matrix?", model_term_zero = "number",
                                             model_term_cells = "number"))
}

# The tests as registry records, named by the results' test names: `native`
# are the C++ names the trial loop computes; the other records run in R.
calibration_tests <- function(tests, call = rlang::caller_env()) {
  usable <- names(Filter(function(r) "test_calibration" %in% r$used_by, test_registry()))
  bad <- function() {
    stop_irtopics(c("{.arg tests} must name tests of the registry ({.val {usable}}), or be a list of them, of {.fn new_ir_test} records and of named functions.",
                    i = "E.g. {.code tests = list(\"t\", \"wilcoxon\", mine = function(x, y) wilcox.test(x, y, paired = TRUE)$p.value)}."),
                  call = call)
  }
  if (is.character(tests) && length(tests) == 1L && tests %in% names(ir_test_set_info)) {
    tests <- ir_test_set(tests)
  }
  if (is.character(tests)) tests <- as.list(tests)
  if (inherits(tests, "ir_test")) tests <- list(tests)
  if (!is.list(tests) || !length(tests)) bad()
  nms <- names(tests) %||% rep("", length(tests))
  records <- list()
  for (k in seq_along(tests)) {
    el <- tests[[k]]
    nm <- if (is.na(nms[k])) "" else nms[k]
    if (!(is.function(el) && nzchar(nm)) && !inherits(el, "ir_test") &&
        !(is.character(el) && length(el) == 1L && !is.na(el))) {
      bad()
    }
    rec <- resolve_ir_test(el, "test_calibration", arg = "tests", name = if (nzchar(nm)) nm else "custom",
                           call = call)
    name <- if (nzchar(nm)) nm else rec$name
    taken <- registered_ir_test(name)
    if (!is.null(taken) && !identical(taken, rec)) {
      stop_irtopics("{.arg tests}: the name {.val {name}} selects the registered test {.val {taken$name}}; name your test differently.",
                    call = call)
    }
    if (name %in% names(records)) {
      stop_irtopics("{.arg tests} names a test twice ({.val {name}}).", call = call)
    }
    records[[name]] <- rec
  }
  native <- vapply(records, function(r) r$native, "")
  list(records = records, names = names(records), native = unique(native[!is.na(native)]))
}

# The settings grid (topic-set size x (null + each delta)) and the power
# designs.
calibration_settings <- function(model, n_topics, delta, closest, call = rlang::caller_env()) {
  flat <- flat_model(model)
  designs <- lapply(delta, function(d) power_design(model, d, closest, flat = flat, call = call))
  grid <- expand.grid(delta_index = c(0L, seq_along(delta)), size_index = seq_along(n_topics))
  grid$setting <- seq_len(nrow(grid)) - 1L
  grid$n_topics <- n_topics[grid$size_index]
  grid$delta <- c(0, delta)[grid$delta_index + 1L]
  summary <- data.frame(delta = delta,
                        baselines = vapply(designs, function(d) length(d$baseline), 1L),
                        candidates = vapply(designs, function(d) length(d$cand_system), 1L))
  list(grid = grid, designs = designs, summary = summary)
}

# The power design of one delta (see calibration.h, PowerDesign): per
# baseline (bottom 75% by expected score) the `closest` other systems by
# |E[j] - (E[i] + delta)| whose margin can be moved to E[i] + delta; the
# exponents come from the simulator's own tables (cpp_transform_exponents(),
# exact for what the trials draw).
power_design <- function(model, delta, closest, flat = flat_model(model), call = rlang::caller_env()) {
  cols <- model$collections
  sizes <- vapply(cols, function(col) length(col$systems), 1L)
  starts <- unname(c(0L, cumsum(sizes)))
  pairs <- lapply(seq_along(cols), function(k) {
    mu <- vapply(cols[[k]]$margins, `[[`, 0, "mean")
    n_top <- round(length(mu) * 0.25)
    baselines <- order(mu, decreasing = TRUE)
    if (n_top > 0) baselines <- baselines[-seq_len(n_top)]
    rows <- lapply(baselines, function(i) {
      others <- setdiff(order(abs(mu - mu[[i]] - delta)), i)
      others <- others[seq_len(min(closest, length(others)))]
      data.frame(base = starts[k] + i - 1L, cand = starts[k] + others - 1L, target = mu[[i]] + delta)
    })
    do.call(rbind, rows)
  })
  pairs <- do.call(rbind, pairs)
  ex <- cpp_transform_exponents(flat$knots, flat$cdf, flat$discrete, as.integer(pairs$cand),
                                as.double(pairs$target), 1e-9)
  ok <- !is.na(ex[1, ])
  pairs <- pairs[ok, , drop = FALSE]
  ex <- ex[, ok, drop = FALSE]
  if (!nrow(pairs)) {
    stop_irtopics(c("No baseline system can be improved by {.arg delta} = {delta}: no margin reaches an expected score {delta} above a baseline's.",
                    i = "Use a smaller {.arg delta}."),
                  call = call)
  }
  base <- unique(pairs$base)
  counts <- tabulate(match(pairs$base, base), length(base))
  list(baseline = as.integer(base), cand_start = as.integer(c(0L, cumsum(counts))),
       cand_system = as.integer(pairs$cand), cand_a = as.double(ex[1, ]), cand_b = as.double(ex[2, ]))
}

# The statistics (and the p-values of the tests run in R) of global trial
# items `idx` (1-based; item = setting * trials + trial + 1): a matrix with
# the trial loop's named fields.
calibration_chunk <- function(idx, trials, settings, flat, spec, B, sign_tol, seed, threads) {
  s_of <- (idx - 1) %/% trials
  in_r <- spec$records[vapply(spec$records, function(r) is.na(r$native), NA)]
  out <- lapply(split(idx, s_of), function(items) {
    s <- (items[1] - 1) %/% trials
    first <- (items[1] - 1) %% trials
    g <- settings$grid[s + 1L, ]
    power <- if (g$delta_index > 0L) settings$designs[[g$delta_index]] else NULL
    st <- do.call(cbind, cpp_calibration_trials(flat, g$n_topics, power, spec$native, B, sign_tol, 1e-9, s,
                                                seed, first, length(items), threads))
    if (length(in_r)) {
      # the simulated scores of the tests run in R, drawn in blocks of
      # trials of at most kernel_block_bytes() (issue 29: a chunk of
      # thousands of trials of 1e5 topics held gigabytes); trial r's draws
      # depend on (seed, setting, r) only, so blocks change nothing
      ex <- matrix(NA_real_, length(items), length(in_r),
                   dimnames = list(NULL, paste0("extra_", names(in_r))))
      for (b in row_blocks(length(items), 2 * g$n_topics)) {
        draw <- cpp_calibration_draw(flat, g$n_topics, power, s, seed, first + b[1] - 1, length(b), threads)
        for (j in seq_along(in_r)) {
          ex[b, j] <- vapply(seq_along(b), function(r) {
            extra_pvalue(in_r[[j]], draw$b[, r], draw$e[, r], B,
                         seed = stream_seed(seed, trial_stream(s, first + b[r] - 1)))
          }, 0)
        }
      }
      st <- cbind(st, ex)
    }
    cbind(setting = s, trial = first + seq_along(items) - 1, st)
  })
  do.call(rbind, out)
}

# The two-sided p-value of a test run in R on (baseline x, experimental y), under
# the trial's stream_seed():
# a user's function through user_test_result(), a built-in record through
# compare_systems() (NA where it refuses the trial's data).
extra_pvalue <- function(rec, x, y, B, seed) {
  # a user's function runs under the trial's stream_seed(): its draws are fixed by the seed
  if (!is.null(rec$fun)) return(with_seed(seed, user_test_result(rec, x, y, where = NULL, call = NULL))$p)
  m <- rbind(baseline = x, experimental = y)
  colnames(m) <- paste0("t", seq_along(x))
  res <- tryCatch(suppressWarnings(compare_systems(m, test = rec, B = B, seed = seed, correction = "none",
                                                   n_threads = 1L)),
                  irtopics_error = function(e) NULL)
  if (is.null(res)) NA_real_ else res$table$p.value[1]
}

# p-values (two-sided p2 and one-sided p1, "experimental better") of every
# test: the native ones from the trials' fields by their records'
# native_p(), the others as computed in R (two-sided only).
calibration_pvalues <- function(st, spec, grid, B) {
  fields <- as.data.frame(st)
  n_topics <- grid$n_topics[match(st[, "setting"], grid$setting)]
  p <- lapply(spec$names, function(nm) {
    rec <- spec$records[[nm]]
    if (is.na(rec$native)) return(cbind(p2 = st[, paste0("extra_", nm)], p1 = NA_real_))
    rec$native_p(fields, n_topics, B)
  })
  names(p) <- spec$names
  list(p = p, mean_diff = st[, "mean_diff"], setting = st[, "setting"], trial = st[, "trial"],
       baseline = st[, "baseline"], experimental = st[, "experimental"])
}

# The long table of rates.
calibration_rates <- function(pv, grid, spec, alphas, trials) {
  rows <- list()
  for (k in seq_len(nrow(grid))) {
    g <- grid[k, ]
    sel <- pv$setting == g$setting
    d <- pv$mean_diff[sel]
    for (nm in spec$names) {
      p <- pv$p[[nm]][sel, , drop = FALSE]
      for (alt in c("two.sided", "greater")) {
        pp <- p[, if (alt == "two.sided") "p2" else "p1"]
        if (all(is.na(pp)) && alt == "greater") next
        und <- sum(is.na(pp))
        rej <- vapply(alphas, function(a) sum(pp <= a, na.rm = TRUE), 0)
        if (g$delta_index == 0L) {
          errs <- list(type1 = rej)
        } else {
          errs <- list(power = rej, type2 = trials - rej)
          if (alt == "two.sided") {
            errs$type3 <- vapply(alphas, function(a) sum(d < 0 & pp <= a, na.rm = TRUE), 0)
          }
        }
        for (e in names(errs)) {
          r <- errs[[e]] / trials
          rows[[length(rows) + 1L]] <- data.frame(
            test = nm, n_topics = g$n_topics, delta = g$delta, alpha = alphas, alternative = alt, error = e,
            rate = r, se = sqrt(r * (1 - r) / trials), trials = trials, undefined = und,
            stringsAsFactors = FALSE)
        }
      }
    }
  }
  out <- do.call(rbind, rows)
  out$test <- factor(out$test, levels = spec$names)
  rownames(out) <- NULL
  out
}

calibration_trial_frame <- function(pv, grid, spec, model) {
  sys <- unlist(lapply(model$collections, `[[`, "systems"), use.names = FALSE)
  coll <- rep(names(model$collections), vapply(model$collections, function(c) length(c$systems), 1L))
  g <- grid[match(pv$setting, grid$setting), ]
  base <- data.frame(n_topics = g$n_topics, delta = g$delta, trial = pv$trial,
                     collection = coll[pv$baseline + 1], baseline = sys[pv$baseline + 1],
                     experimental = sys[pv$experimental + 1], mean_diff = pv$mean_diff,
                     stringsAsFactors = FALSE)
  rows <- lapply(spec$names, function(nm) {
    cbind(base, test = nm, p.value = pv$p[[nm]][, "p2"], p.one_sided = pv$p[[nm]][, "p1"],
          stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}
