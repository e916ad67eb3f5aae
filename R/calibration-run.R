# Test calibration by stochastic simulation (Urbano, Lima & Hanjalic 2019):
# Type I, II and III error rates of paired significance tests on new topics
# simulated from the user's own collections.

calibration_builtin <- c("t", "wilcoxon", "sign", "bootstrap", "permutation")
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
#' The built-in tests follow the definitions of the 2019 study (two-sided,
#' and one-sided for "the experimental system is better"):
#' * `"t"`: paired t-test, as `t.test(e, b, paired = TRUE)`.
#' * `"wilcoxon"`: Wilcoxon signed-rank test as `wilcox.test(e, b, paired =
#'   TRUE)` with its defaults (exact below 50 non-zero differences without
#'   ties, else the normal approximation with continuity correction).
#' * `"sign"`: sign test, `binom.test()` on the differences with \eqn{|d| >}
#'   `sign_tol` (smaller ones are ties and dropped; the study used 0.01).
#' * `"bootstrap"`: bootstrap test of the mean difference: `B` means of the
#'   differences resampled with replacement, centred at their own mean; p is
#'   the share of centred means at least as extreme as the observed mean.
#' * `"permutation"`: permutation test by `B` random sign flips of the
#'   differences; p is the share of flipped means at least as extreme.
#'
#' These differ from [compare_systems()]'s tests of the same names where
#' the study differs from the package: compare_systems()'s Monte Carlo
#' p-values are (count + 1) / (B + 1) and its `"bootstrap"` is Sakai's
#' studentized bootstrap. Here the p-values are count / B, as in the study.
#' To calibrate compare_systems()'s own version, name it in a list, e.g.
#' `tests = list("t", studentized = "bootstrap", fisher = "randomization")`:
#' a named string element runs `compare_systems(rbind(baseline, experimental),
#' test = <string>, B = B)` on every trial. A named function element
#' `function(x, y)` (x the baseline's simulated scores, y the experimental
#' system's) returning a two-sided p-value calibrates your own test. These
#' run in R, trial by trial: much slower than the built-in ones.
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
#' differences zero, or all ties of the sign test) does not reject on it; the
#' column `undefined` counts such trials.
#'
#' @param scores An `ir_scores` (systems x topics) of one collection, a named
#'   list of them (collections of one measure), or a fitted `ir_sim_model`.
#' @param tests The tests to calibrate (see Tests).
#' @param n_topics Topic-set sizes of the simulated trials.
#' @param alpha Significance level(s) the print and summary judge at. The
#'   table holds the rates at these levels and at the study's 19 levels
#'   0.001, ..., 0.009, 0.01, ..., 0.1 (for the plots).
#' @param delta Effect sizes (differences in expected score) for power and
#'   Type III errors; `NULL` or `numeric(0)` for Type I only.
#' @param trials Trials per topic-set size and effect size.
#' @param B Resamples of the bootstrap and permutation tests.
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
#'   frame in `$trials`).
#' @return An `ir_calibration`: a list with `table` (one row per test,
#'   topic-set size, delta (0 for Type I), alpha, alternative and error
#'   (`"type1"`, `"power"`, `"type2"`, `"type3"`): `rate`, `se` (Monte Carlo
#'   standard error), `trials`, `undefined`), `model` (the
#'   `ir_sim_model`), the settings (`tests`, `alpha`, `delta`, `n_topics`,
#'   `trials`, `B`, `closest`, `sign_tol`, `seed`) and `trials` (with
#'   `keep_trials = TRUE`).
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
test_calibration <- function(scores, tests = calibration_builtin, n_topics = c(25, 50, 100),
                             alpha = 0.05, delta = c(0.01, 0.03, 0.05), trials = 10000, B = 1000,
                             closest = 10, sign_tol = 0.01, type = NULL, support = NULL, seed = NULL,
                             n_threads = irtopics_threads(), progress = NULL, keep_trials = FALSE) {
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
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  seed <- resolve_seed(seed)

  if (inherits(scores, "ir_sim_model") && (!is.null(type) || !is.null(support))) {
    stop_irtopics(c("{.arg type} and {.arg support} belong to the fit; {.arg scores} is a fitted model already.",
                    i = "Refit with {.code simulation_model(<scores>, type = , support = )}, or leave them out."))
  }
  model <- if (inherits(scores, "ir_sim_model")) scores else
    simulation_model(scores, type = type, support = support, seed = seed, n_threads = n_threads)
  settings <- calibration_settings(model, n_topics, delta, closest)
  # memory: the statistics of every trial (and the kept p-values), and the
  # bootstrap's B means per thread
  per_trial <- nrow(settings$grid) * (8 * calibration_cols + if (keep_trials) 16 * length(spec$names) else 0)
  check_memory(trials, per_trial, "trials", call = call)
  if (spec$builtin[["bootstrap"]]) check_memory(B, 8 * max(1L, n_threads), "B", call = call)

  total <- nrow(settings$grid) * trials
  plan <- plan_chunks(total, "calibration trials", min_size = 200L, pieces = 50L, arg = "trials", call = call)
  flat <- flat_model(model)
  pieces <- with_progress_measure(model$measure, run_chunks(plan, function(idx, threads) {
    calibration_chunk(idx, trials, settings, flat, spec, B, sign_tol, seed, threads)
  }, n_threads = n_threads, progress = progress))
  stats <- do.call(rbind, pieces)
  pv <- calibration_pvalues(stats, spec, settings$grid)
  table <- calibration_rates(pv, settings$grid, spec, sort(unique(c(alpha, calibration_alpha_grid))), trials)
  kept <- if (keep_trials) calibration_trial_frame(pv, settings$grid, spec, model) else NULL
  new_ir_calibration(list(table = table, model = model, tests = spec$names, alpha = sort(unique(alpha)),
                          delta = delta, n_topics = n_topics, trials = trials, B = B, closest = closest,
                          sign_tol = sign_tol, seed = seed, power_design = settings$summary,
                          trials_data = kept))
}

new_ir_calibration <- function(x) {
  new_result(x, "ir_calibration", fields = c(table = "data.frame", model = "any", tests = "character",
                                             alpha = "numeric", delta = "numeric", n_topics = "numeric",
                                             trials = "number", B = "number", closest = "number",
                                             sign_tol = "number", seed = "number",
                                             power_design = "data.frame", trials_data = "data.frame?"))
}

# Columns of a trial's statistics (calibration.h, TrialCol).
calibration_cols <- 13L
calibration_col_names <- c("mean_diff", "t", "w", "w_n", "w_sigma", "sign_pos", "sign_n", "boot_p2",
                           "boot_p1", "perm_p2", "perm_p1", "baseline", "experimental")

# The tests: built-in flags and the R-side extras (functions, or
# compare_systems() test names).
calibration_tests <- function(tests, call = rlang::caller_env()) {
  bad <- function() {
    stop_irtopics(c("{.arg tests} must name the built-in tests ({.val {calibration_builtin}}) or be a list of them and of named functions or {.fn compare_systems} test names.",
                    i = "E.g. {.code tests = list(\"t\", \"wilcoxon\", mine = function(x, y) wilcox.test(x, y, paired = TRUE)$p.value)}."),
                  call = call)
  }
  if (is.character(tests)) tests <- as.list(tests)
  if (!is.list(tests) || !length(tests)) bad()
  nms <- names(tests) %||% rep("", length(tests))
  builtin <- stats::setNames(rep(FALSE, length(calibration_builtin)), calibration_builtin)
  extras <- list()
  names_out <- character()
  for (k in seq_along(tests)) {
    el <- tests[[k]]
    nm <- nms[k]
    if (is.character(el) && length(el) == 1L && !is.na(el) && (!nzchar(nm) || nm == el)) {
      if (el %in% c("randomization", "randomisation")) el <- "permutation"
      if (!el %in% calibration_builtin) {
        stop_irtopics(c("Unknown built-in test {.val {el}}.",
                        i = "Built-in tests: {.val {calibration_builtin}}. To calibrate {.fn compare_systems}'s version, name it: {.code list(mine = \"{el}\")}."),
                      call = call)
      }
      builtin[[el]] <- TRUE
      names_out <- c(names_out, el)
    } else if (nzchar(nm) && (is.function(el) || (is.character(el) && length(el) == 1L && !is.na(el)))) {
      if (is.character(el)) {
        if (!el %in% c("t", "wilcoxon", "sign", "randomization", "randomisation", "permutation", "bootstrap")) {
          stop_irtopics("{.arg tests}${nm}: {.val {el}} is not a two-system test of {.fn compare_systems}.",
                        call = call)
        }
      }
      if (nm %in% calibration_builtin) {
        stop_irtopics("{.arg tests}: the name {.val {nm}} belongs to a built-in test; name your test differently.",
                      call = call)
      }
      extras[[nm]] <- el
      names_out <- c(names_out, nm)
    } else {
      bad()
    }
  }
  if (anyDuplicated(names_out)) {
    stop_irtopics("{.arg tests} names a test twice ({.val {names_out[duplicated(names_out)][1]}}).", call = call)
  }
  list(builtin = builtin, extras = extras, names = names_out)
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

# The statistics (and extra tests' p-values) of global trial items `idx`
# (1-based; item = setting * trials + trial + 1).
calibration_chunk <- function(idx, trials, settings, flat, spec, B, sign_tol, seed, threads) {
  s_of <- (idx - 1) %/% trials
  out <- lapply(split(idx, s_of), function(items) {
    s <- (items[1] - 1) %/% trials
    first <- (items[1] - 1) %% trials
    g <- settings$grid[s + 1L, ]
    power <- if (g$delta_index > 0L) settings$designs[[g$delta_index]] else NULL
    st <- t(cpp_calibration_trials(flat, g$n_topics, power, unname(spec$builtin), B, sign_tol, 1e-9, s, seed,
                                   first, length(items), threads))
    colnames(st) <- calibration_col_names
    if (length(spec$extras)) {
      draw <- cpp_calibration_draw(flat, g$n_topics, power, s, seed, first, length(items), threads)
      ex <- vapply(names(spec$extras), function(nm) {
        vapply(seq_along(items), function(r) {
          extra_pvalue(spec$extras[[nm]], nm, draw$b[, r], draw$e[, r], B,
                       seed = stream_seed(seed, trial_stream(s, first + r - 1)))
        }, 0)
      }, numeric(length(items)))
      ex <- matrix(ex, nrow = length(items), dimnames = list(NULL, paste0("extra_", names(spec$extras))))
      st <- cbind(st, ex)
    }
    cbind(setting = s, trial = first + seq_along(items) - 1, st)
  })
  do.call(rbind, out)
}

# A two-sided p-value of an extra test on (baseline x, experimental y), under the trial's stream_seed().
extra_pvalue <- function(test, name, x, y, B, seed) {
  if (is.character(test)) {
    m <- rbind(baseline = x, experimental = y)
    colnames(m) <- paste0("t", seq_along(x))
    res <- tryCatch(suppressWarnings(compare_systems(m, test = test, B = B, seed = seed, correction = "none",
                                                     n_threads = 1L)),
                    irtopics_error = function(e) NULL)
    return(if (is.null(res)) NA_real_ else res$table$p.value[1])
  }
  p <- with_seed(seed, call_user(test, list(x, y), what = sprintf("The test {.val %s}", name),
                                 check = "number", kind = "test"))
  if (!is.na(p) && (p < 0 || p > 1)) {
    user_abort("The test {.val {name}} must return a p-value in [0, 1], not {p}.", kind = "test",
               call = NULL)
  }
  p
}

# p-values (two-sided p2 and one-sided p1, "experimental better") of every
# test from the trials' statistics, with R's own distribution functions.
calibration_pvalues <- function(st, spec, grid) {
  out <- list()
  b <- spec$builtin
  if (b[["t"]]) {
    tt <- st[, "t"]
    nn <- grid$n_topics[match(st[, "setting"], grid$setting)]
    out$t <- cbind(p2 = 2 * stats::pt(-abs(tt), nn - 1), p1 = stats::pt(tt, nn - 1, lower.tail = FALSE))
  }
  if (b[["wilcoxon"]]) out$wilcoxon <- wilcoxon_pvalues(st[, "w"], st[, "w_n"], st[, "w_sigma"])
  if (b[["sign"]]) out$sign <- sign_pvalues(st[, "sign_pos"], st[, "sign_n"])
  if (b[["bootstrap"]]) out$bootstrap <- cbind(p2 = st[, "boot_p2"], p1 = st[, "boot_p1"])
  if (b[["permutation"]]) out$permutation <- cbind(p2 = st[, "perm_p2"], p1 = st[, "perm_p1"])
  for (nm in names(spec$extras)) out[[nm]] <- cbind(p2 = st[, paste0("extra_", nm)], p1 = NA_real_)
  list(p = out[spec$names], mean_diff = st[, "mean_diff"], setting = st[, "setting"], trial = st[, "trial"],
       baseline = st[, "baseline"], experimental = st[, "experimental"])
}

# wilcox.test()'s p-values from V, the number of non-zero differences and
# the normal approximation's sd (NA: exact).
wilcoxon_pvalues <- function(v, n, sigma) {
  p2 <- p1 <- rep(NA_real_, length(v))
  exact <- is.na(sigma) & n > 0
  if (any(exact)) {
    ve <- v[exact]
    ne <- n[exact]
    upper <- ve > ne * (ne + 1) / 4
    p <- ifelse(upper, stats::psignrank(ve - 1, ne, lower.tail = FALSE), stats::psignrank(ve, ne))
    p2[exact] <- pmin(2 * p, 1)
    p1[exact] <- stats::psignrank(ve - 1, ne, lower.tail = FALSE)
  }
  approx <- !is.na(sigma) & n > 0 & sigma > 0
  if (any(approx)) {
    z0 <- v[approx] - n[approx] * (n[approx] + 1) / 4
    s <- sigma[approx]
    z2 <- (z0 - sign(z0) * 0.5) / s
    p2[approx] <- 2 * pmin(stats::pnorm(z2), stats::pnorm(z2, lower.tail = FALSE))
    p1[approx] <- stats::pnorm((z0 - 0.5) / s, lower.tail = FALSE)
  }
  cbind(p2 = p2, p1 = p1)
}

# binom.test(pos, n, 0.5)'s p-values (two-sided, and "greater").
sign_pvalues <- function(pos, n) {
  p2 <- p1 <- rep(NA_real_, length(pos))
  ok <- n > 0
  x <- pos[ok]
  m <- n[ok]
  half <- m / 2
  two <- ifelse(x == half, 1,
                ifelse(x < half,
                       stats::pbinom(x, m, 0.5) + stats::pbinom(m - x - 1, m, 0.5, lower.tail = FALSE),
                       stats::pbinom(m - x, m, 0.5) + stats::pbinom(x - 1, m, 0.5, lower.tail = FALSE)))
  p2[ok] <- pmin(1, two)
  p1[ok] <- stats::pbinom(x - 1, m, 0.5, lower.tail = FALSE)
  cbind(p2 = p2, p1 = p1)
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

# Methods -------------------------------------------------------------------

# Type I verdicts at level a: a rate above (below) alpha by more than 2.58
# Monte Carlo standard errors (99%) is liberal (conservative).
calibration_verdict <- function(rate, se, alpha) {
  ifelse(rate - alpha > 2.58 * pmax(se, 1e-12), "liberal",
         ifelse(alpha - rate > 2.58 * pmax(se, 1e-12), "conservative", "at nominal"))
}

calibration_cells <- function(x, error, a, alt = "two.sided") {
  tab <- x$table
  tab[tab$error == error & abs(tab$alpha - a) < 1e-12 & tab$alternative == alt, , drop = FALSE]
}

#' @export
format.ir_calibration <- function(x, ...) {
  cols <- x$model$collections
  n_sys <- sum(vapply(cols, function(col) length(col$systems), 1L))
  out <- c(sprintf("<ir_calibration> %s: %s (%s after preparation); %s trials per setting, B = %s",
                   x$model$measure, plural(length(cols), "collection"), plural(n_sys, "system"),
                   format(x$trials, big.mark = ","), format(x$B, big.mark = ",")))
  for (a in x$alpha) {
    t1 <- calibration_cells(x, "type1", a)
    verdict <- calibration_verdict(t1$rate, t1$se, a)
    mark <- c(liberal = "+", conservative = "-", "at nominal" = " ")[verdict]
    text <- paste0(pct_text(t1$rate), mark)
    shown <- data.frame(topics = x$n_topics)
    for (test in x$tests) shown[[test]] <- text[t1$test == test][match(x$n_topics, t1$n_topics[t1$test == test])]
    out <- c(out, "", sprintf("Type I error at alpha = %s (two-sided; + liberal, - conservative beyond 2.58 Monte Carlo SE):",
                              format(a)),
             printed_lines(print(shown, row.names = FALSE)))
    for (n in x$n_topics) {
      sel <- t1$n_topics == n
      v <- verdict[sel]
      tests <- as.character(t1$test[sel])
      say <- function(kind) {
        k <- v == kind
        if (!any(k)) "none" else paste(sprintf("%s (%s)", tests[k], pct_text(t1$rate[sel][k])), collapse = ", ")
      }
      out <- c(out, sprintf("  %d topics: liberal: %s; conservative: %s.", n, say("liberal"), say("conservative")))
    }
    if (length(x$delta)) {
      pw <- calibration_cells(x, "power", a)
      shown <- unique(pw[, c("n_topics", "delta")])
      key <- paste(pw$n_topics, pw$delta)
      for (test in x$tests) {
        sel <- pw$test == test
        shown[[test]] <- pct_text(pw$rate[sel][match(paste(shown$n_topics, shown$delta), key[sel])])
      }
      names(shown)[1:2] <- c("topics", "delta")
      out <- c(out, "", sprintf("Power at alpha = %s (two-sided):", format(a)),
               printed_lines(print(shown, row.names = FALSE)))
      t3 <- calibration_cells(x, "type3", a)
      worst <- t3[which.max(t3$rate), ]
      out <- c(out, sprintf("Type III errors at alpha = %s: at most %s (%s, %d topics, delta %s).", format(a),
                            pct_text(worst$rate, 3), worst$test, worst$n_topics, format(worst$delta)))
    }
  }
  c(out, "", "# as.data.frame() has every rate with its Monte Carlo standard error; autoplot() draws them")
}

#' @export
print.ir_calibration <- function(x, ...) print_formatted(x, ...)

#' @export
summary.ir_calibration <- function(object, ...) {
  t1 <- object$table[object$table$error %in% c("type1", "power", "type3") &
                       object$table$alpha %in% object$alpha & object$table$alternative == "two.sided", ]
  t1$verdict <- ifelse(t1$error == "type1", calibration_verdict(t1$rate, t1$se, t1$alpha), NA_character_)
  new_summary("ir_calibration", format(object)[1],
              t1[, c("test", "n_topics", "delta", "alpha", "error", "rate", "se", "verdict")])
}

#' @rdname test_calibration
#' @param x An `ir_calibration`.
#' @param row.names,optional Unused (for the generic).
#' @param ... Unused.
#' @export
as.data.frame.ir_calibration <- function(x, row.names = NULL, optional = FALSE, ...) x$table

# At most 4 labelled effect sizes on the x axis.
delta_breaks <- function(delta) {
  if (length(delta) <= 4L) return(delta)
  pretty(range(delta), n = 4L)
}

#' Plot test calibration
#'
#' `type = "type1"`: the Type I error rate against the significance level,
#' one line per test and a panel per topic-set size; the dashed diagonal is
#' perfect calibration (a line above it is a liberal test). `type =
#' "power"`: power against the effect size delta at level `alpha`.
#' `type = "type3"`: Type III error rate against delta. Bands are
#' \eqn{\pm 2} Monte Carlo standard errors.
#' @param object An `ir_calibration`.
#' @param type `"type1"`, `"power"` or `"type3"`.
#' @param alpha The level of the power and Type III plots (default: the
#'   first of the call's `alpha`).
#' @param alternative `"two.sided"` or `"greater"` (one-sided).
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' cal <- test_calibration(read_scores(path, measure = "AP")[1:15, ], n_topics = 25,
#'                         delta = c(0.02, 0.05), trials = 300, B = 200, seed = 1)
#' ggplot2::autoplot(cal)
#' ggplot2::autoplot(cal, type = "power")
#' @export
autoplot.ir_calibration <- function(object, type = c("type1", "power", "type3"), alpha = NULL,
                                    alternative = c("two.sided", "greater"), ...) {
  check_no_dots(..., help = "autoplot.ir_calibration")
  type <- match_choice(type, c("type1", "power", "type3"), arg_name = "type")
  alternative <- match_choice(alternative, c("two.sided", "greater"), arg_name = "alternative")
  tab <- object$table
  tab <- tab[tab$alternative == alternative & tab$error == type, , drop = FALSE]
  if (!nrow(tab)) {
    stop_irtopics(c("This calibration has no {type} rates{if (alternative == 'greater') ' for one-sided tests' else ''}.",
                    i = if (type != "type1") "Run {.fn test_calibration} with effect sizes {.arg delta}."))
  }
  tab$facet <- factor(sprintf("%d topics", tab$n_topics), levels = sprintf("%d topics", object$n_topics))
  tab$low <- pmax(0, tab$rate - 2 * tab$se)
  tab$high <- pmin(1, tab$rate + 2 * tab$se)
  n_tests <- length(levels(tab$test))
  colours <- line_colours(n_tests)
  side <- if (alternative == "two.sided") "two-sided" else "one-sided"
  if (type == "type1") {
    p <- ggplot2::ggplot(tab, ggplot2::aes(.data$alpha, .data$rate, colour = .data$test, fill = .data$test)) +
      ggplot2::geom_abline(slope = 1, intercept = 0, linetype = "dashed", colour = "grey40") +
      ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$low, ymax = .data$high), alpha = 0.15, colour = NA) +
      ggplot2::geom_line() +
      ggplot2::scale_x_continuous(breaks = c(0, 0.05, 0.1), labels = function(v) format(v, drop0trailing = TRUE)) +
      ggplot2::labs(x = "significance level alpha", y = "Type I error rate",
                    title = sprintf("Type I errors of %s tests, %s", side, object$model$measure),
                    subtitle = sprintf("%s trials per size; dashed: perfect calibration",
                                       format(object$trials, big.mark = ",")))
  } else {
    a <- alpha %||% object$alpha[1]
    check_number(a, "alpha", min = 0, max = 1)
    tab <- tab[abs(tab$alpha - a) < 1e-12, , drop = FALSE]
    if (!nrow(tab)) stop_irtopics("{.arg alpha} = {a} is not a level of this calibration.")
    p <- ggplot2::ggplot(tab, ggplot2::aes(.data$delta, .data$rate, colour = .data$test, fill = .data$test)) +
      ggplot2::geom_ribbon(ggplot2::aes(ymin = .data$low, ymax = .data$high), alpha = 0.15, colour = NA) +
      ggplot2::geom_line() + ggplot2::geom_point(size = 1.2) +
      ggplot2::scale_x_continuous(breaks = delta_breaks(object$delta), labels = function(v) format(v, drop0trailing = TRUE)) +
      ggplot2::labs(x = "effect size delta (difference in expected score)",
                    y = if (type == "power") "power" else "Type III error rate",
                    title = sprintf("%s of %s tests, %s, alpha = %s",
                                    if (type == "power") "Power" else "Type III errors", side,
                                    object$model$measure, format(a)),
                    subtitle = sprintf("%s trials per setting", format(object$trials, big.mark = ",")))
  }
  p + ggplot2::facet_wrap(~facet, nrow = 1) +
    ggplot2::scale_colour_manual(values = colours, name = "test") +
    ggplot2::scale_fill_manual(values = colours, name = "test") +
    ggplot2::theme_bw() + title_theme() +
    ggplot2::theme(legend.position = "bottom", panel.spacing.x = ggplot2::unit(1, "lines"))
}
