# The statistical-test registry: completeness, one alias table, the p-value
# rules against base R, the calibration loop's C++ tables, and a test added
# once (a toy z-test) usable by name everywhere.

toy_scores <- function() {
  x <- real_scores("robust2004_ap.csv")[1:4, 1:30]
  x
}

# A paired z-test (the toy record: known normal reference).
z_test <- function(x, y) {
  d <- x - y
  z <- mean(d) / (stats::sd(d) / sqrt(length(d)))
  list(p.value = 2 * stats::pnorm(-abs(z)), statistic = z)
}

# Registers `rec` for the rest of the calling test.
local_ir_test <- function(rec, env = parent.frame()) {
  register_ir_test(rec)
  withr::defer(unregister_ir_test(rec$name), envir = env)
  invisible(rec)
}

test_that("every record is complete, and no name or alias selects two tests", {
  recs <- test_registry()
  fields <- c("name", "label", "aliases", "p_value", "p_rule", "needs", "resampling", "exact", "ties",
              "tie_tolerance", "undefined", "fun", "rows", "native", "native_p", "used_by")
  keys <- character()
  for (r in recs) {
    expect_s3_class(r, "ir_test")
    expect_setequal(names(r), fields)
    expect_true(nzchar(r$label) && nzchar(r$p_value) && nzchar(r$ties), info = r$name)
    expect_true(r$p_rule %in% ir_test_p_rules, info = r$name)
    expect_true(r$needs %in% c("paired", "matrix"), info = r$name)
    expect_true(is.numeric(r$tie_tolerance) || identical(r$tie_tolerance, "tie_tol"), info = r$name)
    # the built-ins state their rule; only users' tests leave it to their function
    expect_false(r$p_rule == "user", info = r$name)
    # a resampling test's rule is a Monte Carlo one, and the other way round
    expect_identical(r$resampling, r$p_rule %in% c("monte_carlo", "exact_or_monte_carlo", "count_over_b"),
                     info = r$name)
    expect_true(length(r$used_by) > 0 && all(r$used_by %in% ir_test_consumers), info = r$name)
    keys <- c(keys, r$name, r$aliases)
  }
  expect_identical(anyDuplicated(keys), 0L)
  expect_setequal(names(ir_test_alias_table()), keys)
  # the words that meant two tests: one record each now
  expect_identical(ir_test_alias_table()[["bootstrap"]], "bootstrap_studentized")
  expect_identical(ir_test_alias_table()[["permutation"]], "randomization")
  expect_identical(ir_test_alias_table()[["randomisation"]], "randomization")
  # a new record may not take a name or an alias already taken
  expect_error(register_ir_test(new_ir_test("mine", z_test, aliases = "bootstrap")),
               class = "irtopics_error_argument", regexp = "bootstrap_studentized")
  expect_error(register_ir_test(new_ir_test("t", z_test)), class = "irtopics_error_argument")
  tab <- ir_tests()
  expect_identical(tab$name, names(recs))
  native <- unname(vapply(recs, `[[`, "", "native"))
  expect_identical(tab$native, native)
})

test_that("every record runs in every function that claims it", {
  x <- toy_scores()
  for (r in test_registry()) {
    if ("compare_systems" %in% r$used_by) {
      cmp <- compare_systems(x, test = r$name, B = 200, seed = 1)
      expect_identical(cmp$test, r$name)
      expect_identical(cmp$test_label, r$label)
      p <- cmp$table$p.value
      expect_true(all(!is.na(p) & p >= 0 & p <= 1), info = r$name)
      for (a in r$aliases) expect_identical(compare_systems(x, test = a, B = 200, seed = 1)$table, cmp$table)
    } else {
      expect_error(compare_systems(x, test = r$name), class = "irtopics_error_argument",
                   regexp = "does not run in")
    }
    if ("discriminative_power" %in% r$used_by) {
      dp <- discriminative_power(x, method = r$name, B = 200, seed = 1)
      expect_identical(dp$method, r$name)
      expect_equal(dp$pairs$p.value, compare_systems(x, test = r$name, B = 200, seed = 1,
                                                     correction = "none")$table$p.value)
    }
    if ("test_calibration" %in% r$used_by) {
      cal <- test_calibration(cal_model(), tests = r$name, n_topics = 8, delta = NULL, trials = 4, B = 50,
                              seed = 1, keep_trials = TRUE, progress = FALSE)
      expect_identical(cal$tests, r$name)
      p <- cal$trials_data$p.value
      expect_true(all(is.na(p) | (p >= 0 & p <= 1)), info = r$name)
      expect_true(any(!is.na(p)), info = r$name)
    } else {
      expect_error(test_calibration(cal_model(), tests = r$name, n_topics = 8, delta = NULL, trials = 4),
                   class = "irtopics_error_argument", regexp = "does not run in")
    }
  }
})

test_that("the calibration loop's C++ tables match the registry", {
  tables <- cpp_calibration_tables()
  native <- Filter(function(r) !is.na(r$native), test_registry())
  # every test the loop computes has one record, and every native record a test in the loop
  expect_setequal(tables$tests, vapply(native, `[[`, "", "native"))
  # every field belongs to a test of the loop (or to every trial), names unique
  expect_true(all(tables$fields$test %in% c("", tables$tests)))
  expect_identical(anyDuplicated(tables$fields$name), 0L)
  expect_true(all(c("mean_diff", "baseline", "experimental") %in% tables$fields$name[tables$fields$test == ""]))
  # results cross by name; unknown names are refused in C++
  flat <- flat_model(cal_model())
  got <- cpp_calibration_trials(flat, 10L, NULL, "t", 50, 0.01, 1e-9, 0, 3, 0, 5, 1L)
  expect_identical(names(got), tables$fields$name)
  expect_true(all(is.nan(got$w)) && all(!is.na(got$t)))
  expect_error(cpp_calibration_trials(flat, 10L, NULL, c("t", "anova"), 50, 0.01, 1e-9, 0, 3, 0, 5, 1L),
               class = "irtopics_error_argument", regexp = "Unknown calibration test \"anova\"")
})

test_that("the p-value rules equal t.test(), wilcox.test() and binom.test()", {
  set.seed(3)
  for (k in 1:30) {
    n <- sample(c(5, 12, 30, 60), 1)
    e <- round(runif(n), if (k %% 2) 1 else 4)
    b <- round(runif(n), if (k %% 2) 1 else 4)
    d <- e - b
    tt <- mean(d) / (sd(d) / sqrt(n))
    expect_equal(t_pvalues(tt, n - 1)[1, ],
                 c(p2 = t.test(e, b, paired = TRUE)$p.value,
                   p1 = t.test(e, b, paired = TRUE, alternative = "greater")$p.value), tolerance = 1e-13)
    sr <- signed_rank(d, NULL)
    expect_equal(unname(wilcoxon_pvalues(sr[1], sr[2], sr[3])[1, ]),
                 suppressWarnings(c(wilcox.test(e, b, paired = TRUE)$p.value,
                                    wilcox.test(e, b, paired = TRUE, alternative = "greater")$p.value)),
                 tolerance = 1e-13)
    pos <- sum(d > 0)
    m <- sum(d != 0)
    expect_equal(unname(sign_pvalues(pos, m)[1, ]),
                 c(binom.test(pos, m)$p.value, binom.test(pos, m, alternative = "greater")$p.value),
                 tolerance = 1e-15)
  }
  expect_true(all(is.na(sign_pvalues(0, 0))))
  # the Monte Carlo rules
  expect_identical(monte_carlo_p(c(0, 9), 99), c(1, 10) / 100)
  expect_identical(count_over_b(c(0, 9), 100), c(0, 9) / 100)
})

test_that("the one t test is t.test()'s: paired, Welch and pooled, every alternative, with its interval", {
  set.seed(11)
  variants <- list(paired = list(paired = TRUE, var.equal = FALSE),
                   welch = list(paired = FALSE, var.equal = FALSE),
                   pooled = list(paired = FALSE, var.equal = TRUE))
  for (k in 1:20) {
    nx <- sample(c(3, 8, 25, 50), 1)
    x <- round(rnorm(nx, 0.3, runif(1, 0.05, 0.3)), if (k %% 2) 2 else 6)
    for (v in names(variants)) {
      ny <- if (v == "paired") nx else sample(c(2, 7, 40), 1)
      y <- round(runif(ny), if (k %% 2) 2 else 6)
      for (alt in c("two.sided", "greater", "less")) {
        a <- c(0.05, 0.1)[1 + k %% 2]
        ref <- stats::t.test(x, y, paired = variants[[v]]$paired, var.equal = variants[[v]]$var.equal,
                             alternative = alt, conf.level = 1 - a)
        got <- t_test_samples(x, y, paired = variants[[v]]$paired, var_equal = variants[[v]]$var.equal,
                              alternative = alt, alpha = a)
        info <- paste(v, alt, k)
        expect_equal(got[c("t", "df", "p")], c(t = unname(ref$statistic), df = unname(ref$parameter),
                                               p = ref$p.value), tolerance = 1e-12, info = info)
        # the interval is two-sided whatever the alternative: t.test()'s two-sided one
        two <- stats::t.test(x, y, paired = variants[[v]]$paired, var.equal = variants[[v]]$var.equal,
                             conf.level = 1 - a)$conf.int
        expect_equal(unname(got[c("conf.low", "conf.high")]), as.vector(two), tolerance = 1e-12, info = info)
      }
    }
  }
  # "less" is "greater" of -t, bit for bit pt(t)
  t <- c(-40, -2.5, -1e-3, 0, 0.7, 3, 25)
  expect_identical(t_pvalue(t, 9, "less"), stats::pt(t, 9))
  expect_identical(t_pvalue(t, 9, "greater"), stats::pt(t, 9, lower.tail = FALSE))
  expect_identical(t_pvalue(t, 9), 2 * stats::pt(-abs(t), 9))
  # undefined where t.test() stops ("essentially constant"): statistic, p and interval NA
  for (paired in c(TRUE, FALSE)) {
    for (eq in c(TRUE, FALSE)) {
      und <- t_test_samples(c(0.5, 0.5, 0.5), c(0.2, 0.2, 0.2), paired = paired, var_equal = eq)
      expect_true(all(is.na(und[c("t", "p", "conf.low", "conf.high")])))
      expect_error(stats::t.test(c(0.5, 0.5, 0.5), c(0.2, 0.2, 0.2), paired = paired, var.equal = eq),
                   "constant", class = "simpleError")
    }
  }
})

test_that("every t test of the package is t_test_core(): compare_systems(), risk_summary(), reproductions", {
  # the same paired differences through the three callers give the same bits of the one implementation
  ap <- robust()[1:4, 1:30]
  cmp <- compare_systems(ap, test = "t", baseline = rownames(ap)[4], correction = "none")
  m <- unclass(ap)
  for (i in 1:3) {
    d <- m[cmp$table$system1[i], ] - m[rownames(ap)[4], ]
    ref <- t_test_core(mean(d), sd(d) / sqrt(length(d)), length(d) - 1, abs(mean(d)), alpha = 0.05)
    row <- cmp$table[i, ]
    expect_equal(c(row$statistic, row$p.value, row$conf.low, row$conf.high),
                 c(ref$statistic, ref$p.value, ref$conf.low, ref$conf.high), tolerance = 1e-12)
  }
  risk <- risk_summary(ap, baseline = rownames(ap)[4], alpha = 0, correction = "none")
  r <- risk$table[!risk$table$is_baseline, ]
  ref <- t_test_core(r$urisk, r$std.error, r$df, abs(r$urisk), alpha = 0.05)
  expect_identical(c(r$trisk, r$p.value, r$conf.low, r$conf.high),
                   c(ref$statistic, ref$p.value, ref$conf.low, ref$conf.high))
  # the callers' numbers agree with each other (TRisk at alpha = 0 is the paired t)
  expect_equal(r$trisk, cmp$table$statistic[match(r$system, cmp$table$system1)], tolerance = 1e-12)
  expect_equal(r$conf.low, cmp$table$conf.low[match(r$system, cmp$table$system1)], tolerance = 1e-12)
})

test_that("a test added once (a toy z-test) is usable by name in compare_systems() and test_calibration()", {
  x <- toy_scores()
  before <- names(test_registry())
  local({
    local_ir_test(new_ir_test("z", z_test, label = "paired z-test", aliases = "z-test",
                              p_value = "z = mean(d) / (sd(d) / sqrt(n)) against N(0, 1)"))
    cmp <- compare_systems(x, test = "z-test", correction = "none")
    expect_identical(cmp$test, "z")
    expect_identical(cmp$test_label, "paired z-test")
    ref <- apply(utils::combn(4, 2), 2, function(p) z_test(x[p[1], ], x[p[2], ])$p.value)
    expect_equal(cmp$table$p.value, ref, tolerance = 1e-14)
    expect_equal(cmp$table$statistic,
                 apply(utils::combn(4, 2), 2, function(p) z_test(x[p[1], ], x[p[2], ])$statistic))
    cal <- test_calibration(cal_model(), tests = c("t", "z"), n_topics = 30, delta = NULL, trials = 20,
                            seed = 2, keep_trials = TRUE, progress = FALSE)
    tr <- cal$trials_data
    expect_identical(cal$tests, c("t", "z"))
    # on the same simulated data: the z-test is the t statistic against N(0, 1)
    tstat <- stats::qt(tr$p.value[tr$test == "t"] / 2, 29)
    expect_equal(tr$p.value[tr$test == "z"], 2 * stats::pnorm(tstat), tolerance = 1e-9)
    # named in a list, as a calibration user does
    cal2 <- test_calibration(cal_model(), tests = list(mine = "z"), n_topics = 30, delta = NULL, trials = 20,
                             seed = 2, keep_trials = TRUE, progress = FALSE)
    expect_identical(cal2$trials_data$p.value, tr$p.value[tr$test == "z"])
    expect_identical(discriminative_power(x, method = "z")$method, "z")
  })
  # removed again: unknown, and the error lists the registry's names
  expect_identical(names(test_registry()), before)
  expect_error(compare_systems(x, test = "z"), class = "irtopics_error_argument", regexp = "rthsd")
  err <- expect_error(test_calibration(cal_model(), tests = list(mine = "z")), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "permutation_2019")
})

test_that("a user's record works through the same constructor in every function", {
  x <- toy_scores()
  rec <- new_ir_test("z", z_test, label = "paired z-test")
  a <- compare_systems(x, test = rec)
  b <- compare_systems(x, test = z_test)
  expect_identical(a$table, b$table)
  expect_identical(a$test_label, "paired z-test")
  expect_identical(b$test_label, "user-supplied test")
  cal <- test_calibration(cal_model(), tests = list(rec, fun = z_test), n_topics = 12, delta = NULL,
                          trials = 10, keep_trials = TRUE, seed = 1, progress = FALSE)
  tr <- cal$trials_data
  expect_identical(tr$p.value[tr$test == "z"], tr$p.value[tr$test == "fun"])
  expect_identical(discriminative_power(x, method = rec)$pairs$p.value,
                   compare_systems(x, test = rec, correction = "none")$table$p.value)
  # a record may not borrow a registered name
  expect_error(compare_systems(x, test = new_ir_test("wilcoxon", z_test)), class = "irtopics_error_argument",
               regexp = "another name")
  expect_error(test_calibration(cal_model(), tests = list(sign = z_test)), class = "irtopics_error_argument",
               regexp = "name your test differently")
  expect_error(new_ir_test("z"), class = "irtopics_error_argument", regexp = "fun")
  expect_error(new_ir_test("z", "t.test"), class = "irtopics_error_argument", regexp = "function")
  expect_error(new_ir_test(c("a", "b"), z_test), class = "irtopics_error_argument", regexp = "name")
  expect_error(new_ir_test("z", z_test, needs = "pairs"), class = "irtopics_error_argument")
})
