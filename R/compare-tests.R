# The statistical-test registry: one record per test, made by new_ir_test(),
# read by every function that runs a test (compare_systems(),
# test_calibration(), discriminative_power()) and by nothing else. A record
# holds the test's names, its label, how its statistic becomes a p-value,
# what it needs, its tie and zero rules, its exact mode and whether the
# calibration trial loop (src/calibration.h) computes it natively. The
# p-value functions below (and monte_carlo_p() / count_over_b() in
# R/compare-resample.R) are the only implementations of each rule.

#' Statistical tests: the registry, and your own tests
#'
#' Every significance test of the package is one record of a registry:
#' [compare_systems()], [test_calibration()] and [discriminative_power()]
#' look tests up there by name (or alias), and a test of your own made by
#' `new_ir_test()` works in all of them the same way. `ir_tests()` lists the
#' registry.
#'
#' @section Built-in tests:
#' \tabular{lll}{
#'   **name** \tab **aliases** \tab **test** \cr
#'   `t` \tab `t-test` \tab paired t-test, as `t.test(x, y, paired = TRUE)` \cr
#'   `wilcoxon` \tab `signed-rank` \tab Wilcoxon signed-rank test, as `wilcox.test(x, y, paired = TRUE)` \cr
#'   `sign` \tab \tab sign test, as `binom.test(wins, wins + losses)` \cr
#'   `randomization` \tab `randomisation`, `permutation` \tab sign-flip randomisation test: exact, or \eqn{(c + 1)/(B + 1)} \cr
#'   `bootstrap_studentized` \tab `bootstrap` \tab Sakai's (2006) studentized bootstrap test, \eqn{(c + 1)/(B + 1)} \cr
#'   `tukey` \tab `tukey_hsd` \tab Tukey's HSD on the two-way ANOVA (whole matrix) \cr
#'   `rthsd` \tab `randomised_tukey` \tab randomised Tukey HSD, \eqn{(c + 1)/(B + 1)} (whole matrix) \cr
#'   `bootstrap_2019` \tab \tab the 2019 study's bootstrap test of the mean difference, \eqn{c / B} \cr
#'   `permutation_2019` \tab \tab the 2019 study's sign-flip permutation test, \eqn{c / B} \cr
#' }
#' `compare_systems()` runs all but the two `_2019` tests, which only the
#' calibration trial loop computes (they reproduce Urbano, Lima & Hanjalic
#' 2019); `test_calibration()` runs every two-system test (the `_2019`
#' ones, `t`, `wilcoxon` and `sign` in its C++ loop, the others in R, trial
#' by trial); `discriminative_power()` runs every test `compare_systems()`
#' runs.
#'
#' @section p-values:
#' The rules, each implemented once:
#' * **Reference distributions**: t from `pt()` as `t.test()`; Wilcoxon's V
#'   from `psignrank()` (exact: below 50 non-zero differences, no ties, no
#'   zeros) or the normal approximation with continuity correction and
#'   tie-corrected variance, as `wilcox.test()`; the sign test from
#'   `pbinom()` exactly as `binom.test()`; Tukey's q from `ptukey()`.
#' * **Monte Carlo, \eqn{(c + 1)/(B + 1)}** (Phipson & Smyth 2010): with
#'   \eqn{c} of the \eqn{B} random replicates at least as extreme as the
#'   observed statistic, the observed data count as one of the equally
#'   likely arrangements; never 0, and \eqn{P(p \le a) \le a} under the
#'   null hypothesis. The package's resampling tests (`randomization`,
#'   `bootstrap_studentized`, `rthsd`).
#' * **Exact enumeration, \eqn{c / 2^n}**: the randomisation test when it
#'   enumerates every sign vector.
#' * **\eqn{c / B}**: only the 2019 study's `bootstrap_2019` and
#'   `permutation_2019`, kept so that the study's error rates are
#'   reproduced. It can be 0, which no correction for multiple comparisons
#'   can raise.
#'
#' @section Your own test:
#' `new_ir_test(name, fun)` with `fun = function(x, y)` of the paired
#' per-topic scores of two systems (topics missing on either side
#' removed) returning a p-value, or a list (an `htest` for instance) with
#' `p.value` and optionally `statistic` and `conf.int`. Pass the record
#' wherever a test name is accepted: `compare_systems(x, test = rec)`,
#' `test_calibration(x, tests = list(rec))`,
#' `discriminative_power(x, method = rec)`. A bare function works too
#' (`compare_systems(test = fun)`, `test_calibration(tests = list(mine =
#' fun))`): it is made into a record by `new_ir_test()`.
#'
#' @param name The test's name: the `test` of the results.
#' @param fun `function(x, y)` returning a p-value or a list with `p.value`
#'   (see Your own test); `NULL` for the built-in records, which give
#'   `rows` instead.
#' @param label A label for tables and plots.
#' @param aliases Other names that select the test.
#' @param p_value How the statistic becomes a p-value (a sentence).
#' @param p_rule `"user"`, `"distribution"`, `"monte_carlo"` (\eqn{(c +
#'   1)/(B + 1)}), `"exact_or_monte_carlo"` or `"count_over_b"`.
#' @param needs `"paired"` (a two-system test on the topics both systems
#'   have) or `"matrix"` (a procedure on the whole, complete matrix, which
#'   controls the familywise error itself).
#' @param resampling Whether it draws `B` random replicates from the seed.
#' @param exact Whether it has an exact mode (the `exact` argument of
#'   [compare_systems()]).
#' @param ties Its tie and zero rules (a sentence).
#' @param tie_tolerance The numeric tie rule: a relative tolerance (a
#'   number) on the resampled statistic, or the name of the argument that
#'   sets the tie threshold on differences (`"tie_tol"`).
#' @param undefined Why its p-value can be NA (for the warning).
#' @param rows Internal: `function(m, pr, base, ctx)` computing the rows of
#'   every pair at once (the built-in records).
#' @param native The name under which the calibration trial loop computes
#'   the test in C++, or `NA`.
#' @param native_p Internal: `function(fields, n_topics, B)` giving the
#'   two-sided and one-sided p-values of the native test from the trial
#'   loop's named fields.
#' @param used_by The functions that run it (default: every function whose
#'   needs it meets).
#' @return `new_ir_test()`: an `ir_test` record (a list of the arguments).
#'   `ir_tests()`: a data frame with one row per registered test.
#' @references Phipson, B. & Smyth, G. K. (2010). Permutation p-values
#'   should never be zero: calculating exact p-values when permutations are
#'   randomly drawn. *Statistical Applications in Genetics and Molecular
#'   Biology* 9(1), 39.
#'
#' Urbano, J., Lima, H. & Hanjalic, A. (2019). Statistical significance
#'   testing in information retrieval: an empirical analysis of Type I,
#'   Type II and Type III errors. *SIGIR 2019*.
#' @examples
#' ir_tests()[, c("name", "aliases", "label")]
#' z <- new_ir_test("z", function(x, y) {
#'   d <- x - y
#'   2 * pnorm(-abs(mean(d) / (sd(d) / sqrt(length(d)))))
#' }, label = "paired z-test")
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' compare_systems(ap[1:4, ], test = z)
#' @export
new_ir_test <- function(name, fun = NULL, label = name, aliases = character(), p_value = NULL,
                        p_rule = "user", needs = "paired", resampling = FALSE, exact = FALSE,
                        ties = NULL, tie_tolerance = NA_real_, undefined = "the statistic is undefined",
                        rows = NULL, native = NA_character_, native_p = NULL, used_by = NULL) {
  is_string <- function(x) is.character(x) && length(x) == 1L && !is.na(x) && nzchar(x)
  if (!is_string(name)) stop_irtopics("{.arg name} must be one non-empty string, not {show_value(name)}.")
  if (!is.null(fun) && !is.function(fun)) {
    stop_irtopics("{.arg fun} must be a function {.code function(x, y)} returning a p-value, not {.obj_type_friendly {fun}}.")
  }
  if (is.null(fun) && is.null(rows) && is.na(native)) {
    stop_irtopics(c("A test needs {.arg fun}: {.code function(x, y)} of two systems' paired scores returning a p-value.",
                    i = "E.g. {.code new_ir_test(\"mine\", function(x, y) wilcox.test(x, y, paired = TRUE)$p.value)}."))
  }
  if (!is_string(label)) stop_irtopics("{.arg label} must be one string, not {show_value(label)}.")
  if (!is.character(aliases) || anyNA(aliases) || any(!nzchar(aliases))) {
    stop_irtopics("{.arg aliases} must be a character vector of names.")
  }
  p_rule <- match_choice(p_rule, ir_test_p_rules, arg_name = "p_rule")
  needs <- match_choice(needs, c("paired", "matrix"), arg_name = "needs")
  check_flag(resampling, "resampling")
  check_flag(exact, "exact")
  if (!is.na(native) && (!is_string(native) || !is.function(native_p))) {
    stop_irtopics("A native test needs its C++ name ({.arg native}) and {.arg native_p}.", kind = "internal")
  }
  if (p_rule == "user" && !is.null(rows)) {
    stop_irtopics("A built-in record ({.arg rows}) states its {.arg p_rule}.", kind = "internal")
  }
  # by default every function whose needs the record meets
  computes <- !is.null(fun) || !is.null(rows)
  used_by <- used_by %||% ir_test_consumers[c(computes, needs == "paired" && (computes || !is.na(native)), computes)]
  if (!is.character(used_by) || !all(used_by %in% ir_test_consumers)) {
    stop_irtopics("{.arg used_by} must name some of {.val {ir_test_consumers}}.")
  }
  if ("test_calibration" %in% used_by && needs != "paired") {
    stop_irtopics("{.fn test_calibration} runs two-system tests only ({.code needs = \"paired\"}).", kind = "internal")
  }
  if (any(c("compare_systems", "discriminative_power") %in% used_by) && !computes) {
    stop_irtopics("A test run by {.fn compare_systems} needs {.arg fun} or {.arg rows}.", kind = "internal")
  }
  new_result(list(name = name, label = label, aliases = unique(setdiff(aliases, name)),
                  p_value = p_value %||% "the p-value the function returns",
                  p_rule = p_rule, needs = needs, resampling = resampling, exact = exact,
                  ties = ties %||% "as the function treats them", tie_tolerance = tie_tolerance,
                  undefined = undefined, fun = fun, rows = rows, native = native, native_p = native_p,
                  used_by = used_by),
             "ir_test",
             fields = c(name = "string", label = "string", aliases = "character", p_value = "string",
                        p_rule = "string", needs = "string", resampling = "flag", exact = "flag",
                        ties = "string", undefined = "string", used_by = "character"))
}

ir_test_p_rules <- c("user", "distribution", "monte_carlo", "exact_or_monte_carlo", "count_over_b")
ir_test_consumers <- c("compare_systems", "test_calibration", "discriminative_power")

#' @rdname new_ir_test
#' @export
ir_tests <- function() {
  out <- do.call(rbind, lapply(test_registry(), as.data.frame))
  rownames(out) <- NULL
  out
}

#' @rdname new_ir_test
#' @param x,object An `ir_test` record.
#' @param row.names,optional Ignored (for the generic).
#' @param ... Unused.
#' @export
as.data.frame.ir_test <- function(x, row.names = NULL, optional = FALSE, ...) {
  data.frame(name = x$name, aliases = paste(x$aliases, collapse = ", "), label = x$label,
             p_rule = x$p_rule, needs = x$needs, resampling = x$resampling, exact = x$exact,
             native = x$native, used_by = paste(x$used_by, collapse = ", "), stringsAsFactors = FALSE)
}

#' @rdname new_ir_test
#' @export
format.ir_test <- function(x, ...) {
  also <- if (length(x$aliases)) sprintf(" (also %s)", paste(dQuote(x$aliases, FALSE), collapse = ", ")) else ""
  c(sprintf("<ir_test> \"%s\"%s: %s", x$name, also, x$label),
    sprintf("  p-value: %s [%s]", x$p_value, x$p_rule),
    sprintf("  needs: %s%s%s", if (x$needs == "paired") "paired topics" else "the whole, complete matrix",
            if (x$resampling) ", B resampled replicates" else "", if (x$exact) ", has an exact mode" else ""),
    sprintf("  ties: %s", x$ties),
    sprintf("  run by: %s", paste0(x$used_by, "()", collapse = ", ")))
}

#' @rdname new_ir_test
#' @export
print.ir_test <- function(x, ...) print_formatted(x, ...)

#' @rdname new_ir_test
#' @export
summary.ir_test <- function(object, ...) {
  new_summary("ir_test", sprintf("Test \"%s\" (%s):", object$name, object$label), as.data.frame(object))
}

# The registry ---------------------------------------------------------------

ir_test_env <- new.env(parent = emptyenv())

# The registered records, by canonical name (the built-ins on first use).
test_registry <- function() {
  if (is.null(ir_test_env$records)) {
    ir_test_env$records <- list()
    for (rec in builtin_ir_tests()) register_ir_test(rec)
  }
  ir_test_env$records
}

# Adds a record; no name or alias may select two tests. Returns the name
# (remove it again with unregister_ir_test()).
register_ir_test <- function(rec, call = rlang::caller_env()) {
  if (!inherits(rec, "ir_test")) stop_irtopics("{.arg rec} must be made by {.fn new_ir_test}.", call = call)
  recs <- if (is.null(ir_test_env$records)) test_registry() else ir_test_env$records
  taken <- ir_test_alias_table(recs)
  clash <- intersect(c(rec$name, rec$aliases), names(taken))
  if (length(clash)) {
    stop_irtopics("The name {.val {clash[1]}} already selects the test {.val {taken[[clash[1]]]}}.", call = call)
  }
  recs[[rec$name]] <- rec
  ir_test_env$records <- recs
  invisible(rec$name)
}

unregister_ir_test <- function(name) {
  recs <- test_registry()
  recs[[name]] <- NULL
  ir_test_env$records <- recs
  invisible(name)
}

# name or alias -> canonical name, over every record.
ir_test_alias_table <- function(recs = test_registry()) {
  keys <- unlist(lapply(recs, function(r) c(r$name, r$aliases)), use.names = FALSE)
  vals <- unlist(lapply(recs, function(r) rep(r$name, 1L + length(r$aliases))), use.names = FALSE)
  stats::setNames(as.list(vals), keys)
}

# The record a name, an alias, a record or a function selects, for
# `consumer`; a function becomes a user record named `name`. Unknown names
# and tests the consumer cannot run are argument errors listing the
# registry's tests.
resolve_ir_test <- function(test, consumer, arg = "test", name = "custom", call = rlang::caller_env()) {
  if (is.function(test)) {
    return(new_ir_test(name, test, label = if (name == "custom") "user-supplied test" else name))
  }
  usable <- names(Filter(function(r) consumer %in% r$used_by, test_registry()))
  rec <- if (inherits(test, "ir_test")) {
    taken <- registered_ir_test(test$name)
    if (!is.null(taken) && !identical(taken, test)) {
      stop_irtopics(c("The name {.val {test$name}} of your test selects the registered test {.val {taken$name}} ({taken$label}).",
                      i = "Give your test another name."), call = call)
    }
    test
  } else if (is.character(test) && length(test) == 1L && !is.na(test)) {
    canon <- ir_test_alias_table()[[test]]
    if (is.null(canon)) {
      stop_irtopics(c("Unknown test {.val {test}} in {.arg {arg}}.",
                      i = "Use one of {.or {.val {usable}}} (see {.fn ir_tests} for their aliases), a {.fn new_ir_test} record or a function {.code function(x, y)} returning a p-value."),
                    call = call)
    }
    test_registry()[[canon]]
  } else {
    stop_irtopics(c("{.arg {arg}} must be a test name, a {.fn new_ir_test} record or a function {.code function(x, y)} returning a p-value, not {.obj_type_friendly {test}}.",
                    i = "Tests: {.val {usable}}."), call = call)
  }
  if (!consumer %in% rec$used_by) {
    stop_irtopics(c("The test {.val {rec$name}} ({rec$label}) does not run in {.fn {consumer}}.",
                    i = "Tests it runs: {.or {.val {usable}}}."), call = call)
  }
  rec
}

# The record of a result's test name, or NULL (a user test).
registered_ir_test <- function(name) {
  canon <- ir_test_alias_table()[[name]]
  if (is.null(canon)) NULL else test_registry()[[canon]]
}

# p-values from statistics: one implementation per rule ------------------------

# t.test()'s p-values of t on df degrees of freedom: two-sided and "greater".
t_pvalues <- function(t, df) {
  cbind(p2 = 2 * stats::pt(-abs(t), df), p1 = stats::pt(t, df, lower.tail = FALSE))
}

# The p-value of t for one alternative of t.test() by the rule above: "less"
# is "greater" of -t (pt() is symmetric to the bit: pt(-t, lower.tail =
# FALSE) is pt(t)).
t_pvalue <- function(t, df, alternative = "two.sided") {
  switch(alternative,
         two.sided = t_pvalues(t, df)[, "p2"],
         greater = t_pvalues(t, df)[, "p1"],
         less = t_pvalues(-t, df)[, "p1"])
}

# The t test, the package's one implementation: compare_systems()'s "t"
# record (rows_t()), risk_summary()'s TRisk and reproduction_measures()'s
# paired and unpaired tests all end here. From an estimate (a mean or a
# difference of means), its standard error and degrees of freedom, as
# t.test() computes them, vectorised: the statistic, the p-value of
# `alternative` (t_pvalue()) and, for an `alpha`, the two-sided 1 - alpha
# interval, (t -/+ q) se as t.test() forms it. `scale` is the size of the
# means (t.test()'s |mean|, or the larger |mean| of two samples): a standard
# error at most 10 eps of it counts as zero, where t.test() stops with "data
# are essentially constant"; such a test (or one with df <= 0 or an NA
# standard error) is undefined: statistic, p-value and interval NA.
t_test_core <- function(estimate, se, df, scale, alternative = "two.sided", alpha = NULL) {
  defined <- !is.na(se) & !is.na(df) & df > 0 & se > 10 * .Machine$double.eps * scale
  t <- ifelse(defined, estimate / se, NA_real_)
  p <- rep(NA_real_, length(t))
  if (any(defined)) p[defined] <- t_pvalue(t[defined], df[defined], alternative)
  out <- list(statistic = t, df = df, p.value = p, defined = defined)
  if (!is.null(alpha)) {
    q <- rep(NA_real_, length(t))
    q[defined] <- stats::qt(1 - alpha / 2, df[defined])
    out$conf.low <- ifelse(defined, (t - q) * se, NA_real_)
    out$conf.high <- ifelse(defined, (t + q) * se, NA_real_)
  }
  out
}

# t.test(x, y, paired =, var.equal =) from the samples, through
# t_test_core(): c(t, df, p, conf.low, conf.high) (1 - alpha interval). The
# paired test is the one-sample test of x - y; the unpaired test is Welch's
# (df by the Welch-Satterthwaite formula) or, with var_equal, the pooled
# two-sample test (df nx + ny - 2). Where the test is undefined the unpaired
# df is NA too (Welch's df divides zero variances).
t_test_samples <- function(x, y, paired = FALSE, var_equal = FALSE, alternative = "two.sided", alpha = 0.05) {
  if (paired) {
    d <- x - y
    n <- length(d)
    est <- mean(d)
    se <- if (n > 1) stats::sd(d) / sqrt(n) else NA_real_
    res <- t_test_core(est, se, n - 1, abs(est), alternative, alpha)
  } else {
    nx <- length(x)
    ny <- length(y)
    mx <- mean(x)
    my <- mean(y)
    vx <- if (nx > 1) stats::var(x) else 0
    vy <- if (ny > 1) stats::var(y) else 0
    if (var_equal) {
      df <- nx + ny - 2
      se <- sqrt(((nx - 1) * vx + (ny - 1) * vy) / df * (1 / nx + 1 / ny))
      if (nx < 1 || ny < 1) se <- NA_real_
    } else {
      vx <- vx / nx
      vy <- vy / ny
      se <- if (nx < 2 || ny < 2) NA_real_ else sqrt(vx + vy)
      df <- (vx + vy)^2 / (vx^2 / (nx - 1) + vy^2 / (ny - 1))
    }
    res <- t_test_core(mx - my, se, df, max(abs(mx), abs(my)), alternative, alpha)
    if (!res$defined) res$df <- NA_real_
  }
  c(t = res$statistic, df = res$df, p = res$p.value, conf.low = res$conf.low, conf.high = res$conf.high)
}

# wilcox.test()'s p-values from V, the number n of non-zero differences and
# the normal approximation's tie-corrected sd (NA: the exact distribution).
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

# binom.test(pos, n, 0.5)'s p-values (two-sided, and "greater"); NA when
# n = 0.
sign_pvalues <- function(pos, n) {
  p2 <- p1 <- rep(NA_real_, length(pos))
  ok <- !is.na(n) & n > 0
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

# The built-in records ---------------------------------------------------------

builtin_ir_tests <- function() {
  resample_ties <- "A resampled statistic within a relative 1e-9 of the observed one (of the largest |score| summed) counts as at least as extreme."
  list(
    new_ir_test(
      "t", label = "paired t-test", aliases = "t-test", p_rule = "distribution",
      p_value = "t = mean(d) / (sd(d) / sqrt(n)) against t on n - 1 df, as t.test(x, y, paired = TRUE)",
      ties = "Every paired topic counts; differences without variance leave t undefined.",
      tie_tolerance = 0,
      undefined = "their per-topic differences have zero variance (or fewer than 2 topics), so t is undefined",
      rows = rows_t, native = "t",
      native_p = function(f, n_topics, B) t_pvalues(f[["t"]], n_topics - 1)),
    new_ir_test(
      "wilcoxon", label = "Wilcoxon signed-rank test", aliases = "signed-rank", p_rule = "distribution",
      exact = TRUE,
      p_value = "V (rank sum of the positive differences) against the signed-rank distribution, exact below 50 non-zero differences without ties or zeros, else the normal approximation with continuity correction, as wilcox.test(x, y, paired = TRUE)",
      ties = "Zero differences are dropped; tied |differences| get midranks (exact equality) and the tie-corrected variance.",
      tie_tolerance = 0,
      undefined = "every per-topic difference is a tie (or fewer than 2 topics)",
      rows = rows_wilcoxon, native = "wilcoxon",
      native_p = function(f, n_topics, B) wilcoxon_pvalues(f[["w"]], f[["w_n"]], f[["w_sigma"]])),
    new_ir_test(
      "sign", label = "sign test", p_rule = "distribution",
      p_value = "the wins k of n' untied topics against Binomial(n', 1/2), as binom.test(k, n')",
      ties = "Differences with |d| <= tie_tol (compare_systems(); sign_tol in test_calibration()) are ties and dropped.",
      tie_tolerance = "tie_tol",
      undefined = "every per-topic difference is a tie (or fewer than 2 topics)",
      rows = rows_sign, native = "sign",
      native_p = function(f, n_topics, B) sign_pvalues(f[["sign_pos"]], f[["sign_n"]])),
    new_ir_test(
      "randomization", label = "randomisation (sign-flip) test", aliases = c("randomisation", "permutation"),
      p_rule = "exact_or_monte_carlo", resampling = TRUE, exact = TRUE,
      p_value = "T = sum(d) against its sign flips: every sign vector enumerated (c / 2^n) when exact, else B random ones with (c + 1) / (B + 1)",
      ties = paste("Zero differences do not change T.", resample_ties), tie_tolerance = 1e-9,
      rows = rows_randomization,
      used_by = c("compare_systems", "test_calibration", "discriminative_power")),
    new_ir_test(
      "bootstrap_studentized", label = "studentized bootstrap test", aliases = "bootstrap",
      p_rule = "monte_carlo", resampling = TRUE,
      p_value = "t0 against B bootstrap t* of the centred differences (Sakai 2006), (c + 1) / (B + 1)",
      ties = paste(resample_ties, "A bootstrap sample without variance has t* = 0."), tie_tolerance = 1e-9,
      undefined = "their per-topic differences have zero variance (or fewer than 2 topics), so t is undefined",
      rows = rows_bootstrap_studentized),
    new_ir_test(
      "tukey", label = "Tukey HSD (blocked)", aliases = "tukey_hsd", p_rule = "distribution", needs = "matrix",
      p_value = "q = |mean_i - mean_k| / sqrt(V_E / n) against the studentized range of m means on the residual df (ptukey)",
      ties = "No tie rule; a zero residual variance leaves q undefined.", tie_tolerance = 0,
      undefined = "the residual variance is zero", rows = rows_tukey),
    new_ir_test(
      "rthsd", label = "randomised Tukey HSD", aliases = "randomised_tukey", p_rule = "monte_carlo",
      needs = "matrix", resampling = TRUE,
      p_value = "|sum_i - sum_k| against the ranges of B matrices permuted within topics, (c + 1) / (B + 1)",
      ties = paste(resample_ties, "(largest |score| of the matrix)"), tie_tolerance = 1e-9,
      undefined = "the residual variance is zero", rows = rows_rthsd),
    new_ir_test(
      "bootstrap_2019", label = "bootstrap test of the mean (2019 study, c / B)",
      p_rule = "count_over_b", resampling = TRUE,
      p_value = "mean(d) against B centred means of differences resampled with replacement, c / B (Urbano, Lima & Hanjalic 2019)",
      ties = resample_ties, tie_tolerance = 1e-9,
      native = "bootstrap_2019", used_by = "test_calibration",
      native_p = function(f, n_topics, B) cbind(p2 = count_over_b(f[["boot_count2"]], B),
                                                p1 = count_over_b(f[["boot_count1"]], B))),
    new_ir_test(
      "permutation_2019", label = "permutation test (2019 study, c / B)",
      p_rule = "count_over_b", resampling = TRUE,
      p_value = "sum(d) against B random sign flips, c / B (Urbano, Lima & Hanjalic 2019)",
      ties = paste("Zero differences do not change the sum.", resample_ties), tie_tolerance = 1e-9,
      native = "permutation_2019", used_by = "test_calibration",
      native_p = function(f, n_topics, B) cbind(p2 = count_over_b(f[["perm_count2"]], B),
                                                p1 = count_over_b(f[["perm_count1"]], B)))
  )
}
