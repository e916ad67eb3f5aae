# Meta-analysis of one comparison over several collections (or seeds, folds):
# per-collection effects of paired differences, pooled by fixed and random
# effects models (Soboroff, CIKM 2018; Sakai's effect sizes; the estimators
# of DerSimonian & Laird 1986 and the REML Fisher scoring of Viechtbauer
# 2005, with metafor's conventions so that rma() reproduces every number).

#' Meta-analysis of a comparison over several collections
#'
#' The same comparison (a system against a baseline) measured on several
#' test collections (or on disjoint sets of topics, such as the test folds
#' of a cross-validation), summarised per collection and pooled: a fixed-effect estimate, random-effects estimates
#' (DerSimonian-Laird and REML), the between-collection variance
#' \eqn{\tau^2}, \eqn{I^2}, \eqn{H^2}, Cochran's Q with its p-value and the
#' prediction interval for a new collection (Soboroff 2018).
#'
#' @section Effects per collection:
#' On collection \eqn{i}, the paired differences \eqn{d_t = x_{system,t} -
#' x_{baseline,t}} over the \eqn{n_i} topics both systems scored (a topic
#' with NA on either side is left out) give
#' * the raw mean difference \eqn{\bar d} with sampling variance
#'   \eqn{s_d^2 / n_i};
#' * the standardised mean difference of paired data, Cohen's
#'   \eqn{d_z = \bar d / s_d} (Sakai's effect size for the paired t-test),
#'   times Hedges' small-sample correction \eqn{J = \Gamma(m/2) /
#'   (\sqrt{m/2}\,\Gamma((m-1)/2))}, \eqn{m = n_i - 1} (the exact form of
#'   \eqn{1 - 3/(4m - 1)}; `hedges = FALSE` leaves it out), with sampling
#'   variance \eqn{1/n_i + g^2/(2 n_i)} (large-sample, as metafor's
#'   `escalc(measure = "SMCC")`).
#'
#' The standardised effect is the default (`effect = "smd"`): collections
#' differ in the spread of their scores, and Soboroff (2018) pools
#' standardised effects for that reason. Both effects are reported for
#' every collection; `effect` chooses the one that is pooled.
#'
#' @section Pooling:
#' With \eqn{y_i, v_i} the chosen effects and their variances, weights
#' \eqn{w_i = 1/(v_i + \tau^2)}, the pooled estimate is \eqn{\sum w_i y_i /
#' \sum w_i} with standard error \eqn{1/\sqrt{\sum w_i}}, a z-test and a
#' normal (Wald) interval. \eqn{\tau^2 = 0} gives the fixed-effect (common
#' effect) model `"FE"`; `"DL"` is DerSimonian and Laird's moment estimate
#' \eqn{\max(0, (Q - (k-1)) / (\sum w_i - \sum w_i^2 / \sum w_i))}; `"REML"`
#' maximises the restricted likelihood by Fisher scoring from the
#' Hedges (method-of-moments) estimate, halving a step that would make
#' \eqn{\tau^2} negative, until a step changes it by less than `threshold`
#' (metafor's default 1e-5; a smaller value converges further); when
#' Fisher scoring has not converged after `max_iter` steps (it can
#' oscillate, and metafor's `rma()` then stops with an error), the
#' restricted likelihood is maximised by a line search instead, with a
#' warning of class `irtopics_warning_convergence`. Q is
#' Cochran's statistic with fixed-effect weights, on \eqn{k - 1} degrees of
#' freedom. With \eqn{s^2 = (k-1) / (\sum w_i - \sum w_i^2/\sum w_i)} the
#' "typical" within-collection variance (fixed-effect weights),
#' \eqn{I^2 = 100\,\tau^2 / (\tau^2 + s^2)} and \eqn{H^2 = 1 + \tau^2/s^2}
#' for the random-effects models; for the fixed-effect model \eqn{I^2 =
#' \max(0, 100 (Q - (k-1))/Q)} and \eqn{H^2 = Q/(k-1)}. The prediction
#' interval is \eqn{\hat\mu \pm z_{1-a/2}\sqrt{SE^2 + \tau^2}} (normal
#' quantiles, metafor's default `test = "z"`; the fixed-effect one equals
#' its confidence interval). With one collection, \eqn{\tau^2 = 0}, Q = 0
#' (p = 1), \eqn{I^2 = 0} and \eqn{H^2 = 1}. These are metafor's
#' definitions (`rma(yi, vi, method = "FE"/"DL"/"REML")`), to which the
#' tests compare every number.
#'
#' `test = "knha"` uses Knapp and Hartung's (2003) adjustment instead
#' (metafor's `test = "knha"`): the squared standard error is multiplied by
#' \eqn{\sum w_i (y_i - \hat\mu)^2 / (k - 1)}, and the test, the
#' confidence and the prediction intervals use t quantiles on \eqn{k - 1}
#' degrees of freedom. The z intervals assume that \eqn{\tau^2} and the
#' \eqn{v_i} are known; with few heterogeneous collections they are too
#' narrow. Measured coverage of nominal 95% intervals (`bench/README.md`,
#' section 17, 1,000 simulated meta-analyses per setting): without
#' heterogeneity 0.92-0.95 for every model; with it, FE 0.43-0.79, DL and
#' REML 0.83-0.90 with 3 to 5 collections and 0.92-0.93 with 20,
#' Knapp-Hartung 0.93-0.95 everywhere (twice as wide at 3 collections);
#' prediction intervals 0.75-0.92 (z) and 0.86-0.94 (Knapp-Hartung). The adjustment is meant for the random-effects models;
#' the fixed-effect row is computed the same way (as metafor does, with a
#' warning there).
#'
#' The per-collection intervals are Wald intervals \eqn{y_i \pm z
#' \sqrt{v_i}}, the intervals the pooled model assumes (for the raw
#' difference over 50 topics, 2% narrower than `t.test()`'s).
#'
#' @section Replicates on the same topics:
#' The pooled models assume independent studies. Replicates of a
#' comparison on the same topics (runs with several seeds, or several runs
#' of one configuration, scored on one collection) are not: they share the
#' topics, whose variation is most of an effect's variance, so pooling them
#' as separate collections counts it once per replicate (10 identical
#' seeds give a pooled standard error of 1/sqrt(10) of one seed's, an
#' interval about 3 times too narrow). Elements of `x` that share topics
#' (by name, among the topics both systems scored) are therefore
#' * an error (`shared_topics = "error"`, the default) of class
#'   `irtopics_error_data` naming two of them;
#' * averaged (`"average"`): elements linked by shared topics form one study
#'   whose score for each topic (the union of their topics) is the mean over
#'   the replicates that scored it, for the system and for the baseline; its
#'   effects are those of the averaged paired differences, so the seeds'
#'   variation enters through the topics' spread, once. The study is named
#'   by its elements (`"seed1+seed2"`, `"seed1+...+seed10"` beyond three) and
#'   `replicates` counts them;
#' * or pooled as independent studies (`"independent"`): for different
#'   topics that happen to have the same names.
#' Names `t1`, `t2`, ... in column order (what a matrix without topic names
#' gets, such as the shipped TREC matrices) do not identify topics, and
#' `"error"` does not take them as shared; `"average"` takes every name at
#' its word. Measured coverage of nominal 95% intervals (`bench/README.md`,
#' section 40; 1,000 simulations each): with 5 or 10 seeds of one pair on
#' the same 50 topics, pooling the seeds as independent studies covered the
#' true effect in 46% to 65% of the simulations, averaging them in 94% to
#' 95%; with 3 collections of 5 seeds each, 56% (Knapp-Hartung 54%)
#' against 87% (Knapp-Hartung 95%: with 3 studies, see Pooling).
#'
#' @section Reconstruction:
#' Our choices where the sources leave one: the effect of a collection is
#' that of the paired differences (the topics are shared by both systems),
#' standardised by their standard deviation (Sakai's paired effect size)
#' rather than by a pooled within-system one; the variance of the
#' standardised effect is the large-sample one; intervals and tests are
#' normal (z) by default, as metafor's. `effect`, `hedges`, `test` and
#' `conf` expose the choices.
#'
#' @param x A named list with one element per collection (or fold, or
#'   replicate; see "Replicates on the same topics"):
#'   [ir_scores][as_ir_scores] or numeric matrices (systems x topics), or
#'   [compare_systems()] results (`ir_comparison`), whose scores are used.
#' @param system,baseline The two systems compared (the effect is `system`
#'   minus `baseline`): one name used in every collection, or one name per
#'   collection (a character vector in the order of `x`, or named by the
#'   collections). For `ir_comparison` elements `baseline` defaults to each
#'   comparison's baseline.
#' @param effect `"smd"` (standardised mean difference, Hedges' g of the
#'   paired differences) or `"md"` (raw mean difference): the effect pooled.
#' @param method The model shown first by `print()` and used by `glance()`
#'   and the plot's subtitle: `"REML"`, `"DL"` or `"FE"`. All three are
#'   always computed.
#' @param conf Confidence level of every interval.
#' @param test `"z"` (normal, metafor's default) or `"knha"` (Knapp-Hartung
#'   t) for the pooled tests, confidence and prediction intervals.
#' @param hedges Apply Hedges' small-sample correction to the standardised
#'   effect.
#' @param measure For `ir_comparison` elements with several measures: the
#'   measure to use (default: the first).
#' @param threshold,max_iter REML: the change of \eqn{\tau^2} under which
#'   Fisher scoring stops, and the most iterations before the line search
#'   takes over.
#' @param shared_topics What to do with elements of `x` that share topics:
#'   `"error"`, `"average"` (one study per group of replicates) or
#'   `"independent"`; see "Replicates on the same topics".
#' @return An `ir_meta_analysis`: `$studies` (one row per collection, or
#'   group of replicates: `collection`, `system`, `baseline`, `n_topics`,
#'   `replicates` (elements of `x` averaged into the study), `mean_system`,
#'   `mean_baseline`, `md`, `md_var`, `md_low`, `md_high`, `smd`, `smd_var`,
#'   `smd_low`, `smd_high`, `yi`, `vi`), `$pooled` (one row per model:
#'   `method`, `estimate`, `std.error`, `statistic`, `df` (`Inf` for z),
#'   `p.value`, `conf.low`,
#'   `conf.high`, `pi.low`, `pi.high`, `tau2`, `I2`, `H2`, `iterations`),
#'   `$weights` (percent weights, collections x models), `Q`, `Q_df`, `Q_p`,
#'   `k`, `effect`, `method`, `conf`, `test`, `hedges`, `measure`, and the chosen
#'   model's `estimate`, `conf.low`, `conf.high`, `tau2`, `I2`.
#'   `as.data.frame()` (and `tidy()`) has one row per collection and per
#'   model; `summary()` the pooled table.
#' @references Soboroff, I. (2018). Meta-analysis for retrieval experiments
#'   involving multiple test collections. *CIKM 2018*.
#'
#' Sakai, T. (2014). Statistical reform in information retrieval? *SIGIR
#'   Forum* 48(1).
#'
#' DerSimonian, R. & Laird, N. (1986). Meta-analysis in clinical trials.
#'   *Controlled Clinical Trials* 7(3).
#'
#' Knapp, G. & Hartung, J. (2003). Improved tests for a random effects
#'   meta-regression with a single covariate. *Statistics in Medicine*
#'   22(17).
#'
#' Viechtbauer, W. (2005). Bias and efficiency of meta-analytic variance
#'   estimators in the random-effects model. *Journal of Educational and
#'   Behavioral Statistics* 30(3).
#' @examples
#' years <- c("adhoc6", "adhoc7", "adhoc8")
#' x <- lapply(stats::setNames(years, years), function(y) {
#'   read_scores(system.file("extdata", "score-matrices", paste0(y, "_ap.csv"),
#'                           package = "irtopics"), measure = "AP")
#' })
#' # AT&T's best automatic run of each year against that year's median
#' # automatic run (by official MAP; the lower one of the middle two)
#' auto <- subset(trec_runs(), type == "automatic")
#' pick <- function(y) {
#'   a <- auto[auto$collection == y, ]
#'   att <- a[a$participant == "ATT", ]
#'   c(att$system[which.max(att$map)], a$system[order(a$map)][ceiling(nrow(a) / 2)])
#' }
#' runs <- sapply(years, pick)
#' ma <- meta_analysis(x, system = runs[1, ], baseline = runs[2, ])
#' ma
#' summary(ma)
#' ggplot2::autoplot(ma)
#' @export
meta_analysis <- function(x, system, baseline = NULL, effect = c("smd", "md"), method = c("REML", "DL", "FE"),
                          conf = 0.95, test = c("z", "knha"), hedges = TRUE, measure = NULL, threshold = 1e-5,
                          max_iter = 100L, shared_topics = c("error", "average", "independent")) {
  effect <- match_choice(effect)
  shared_topics <- match_choice(shared_topics)
  method <- match_choice(method)
  test <- match_choice(test)
  check_probs(conf, "conf", "A confidence level, e.g. {.code conf = 0.95}.", scalar = TRUE)
  check_flag(hedges, "hedges")
  check_number(threshold, "threshold", min = 0)
  if (!(threshold > 0)) stop_irtopics("{.arg threshold} must be positive, not {show_value(threshold)}.")
  max_iter <- check_whole(max_iter, "max_iter")
  mats <- meta_scores(x, measure)
  k <- length(mats)
  system <- meta_names(system, names(mats), "system")
  baseline <- meta_names(baseline %||% meta_baselines(x), names(mats), "baseline")
  # every comparison's names are checked first, on its own collection
  for (i in seq_len(k)) meta_check_pair(mats[[i]], system[i], baseline[i], names(mats)[i])
  groups <- meta_groups(mats, system, baseline, shared_topics)
  rows <- lapply(groups, function(g) {
    if (length(g) == 1L) {
      row <- meta_effects(mats[[g]], system[g], baseline[g], names(mats)[g], conf, hedges)
    } else {
      row <- meta_effects(meta_average(mats[g], system[g], baseline[g]), ".system", ".baseline",
                          meta_group_name(names(mats)[g]), conf, hedges)
      row$system <- paste(unique(system[g]), collapse = "+")
      row$baseline <- paste(unique(baseline[g]), collapse = "+")
    }
    row$replicates <- length(g)
    row
  })
  studies <- do.call(rbind, rows)
  at <- match("n_topics", names(studies))
  studies <- studies[c(names(studies)[seq_len(at)], "replicates", setdiff(names(studies)[-seq_len(at)], "replicates"))]
  k <- nrow(studies)
  studies$yi <- studies[[effect]]
  if (anyNA(studies$yi)) {
    stop_irtopics(c("Can't standardise the effect with Hedges' correction on 2 topics (collection {.val {studies$collection[is.na(studies$yi)][1]}}).",
                    i = "Use {.code hedges = FALSE} or {.code effect = \"md\"}."), kind = "data")
  }
  studies$vi <- studies[[paste0(effect, "_var")]]
  if (test == "knha" && k < 2L) {
    stop_irtopics("{.code test = \"knha\"} needs at least 2 collections (its t distribution has k - 1 degrees of freedom).",
                  kind = "data")
  }
  fits <- lapply(c(FE = "FE", DL = "DL", REML = "REML"), function(m) {
    pool_effects(studies$yi, studies$vi, m, conf, threshold, max_iter, test)
  })
  pooled <- do.call(rbind, lapply(fits, `[[`, "row"))
  rownames(pooled) <- NULL
  weights <- vapply(fits, `[[`, numeric(k), "weights")
  weights <- matrix(weights, nrow = k, dimnames = list(studies$collection, names(fits)))
  het <- fits$FE$heterogeneity
  head <- pooled[pooled$method == method, ]
  new_ir_meta_analysis(list(
    studies = studies, pooled = pooled, weights = weights, Q = het$Q, Q_df = het$df, Q_p = het$p,
    k = k, effect = effect, method = method, conf = conf, test = test, hedges = hedges,
    measure = meta_measure(mats),
    estimate = head$estimate, conf.low = head$conf.low, conf.high = head$conf.high, tau2 = head$tau2,
    I2 = head$I2
  ))
}

new_ir_meta_analysis <- function(x) {
  new_result(x, "ir_meta_analysis",
             fields = c(studies = "data.frame", pooled = "data.frame", weights = "matrix", Q = "number",
                        Q_df = "number", Q_p = "number", k = "number", effect = "string", method = "string",
                        conf = "number", test = "string", hedges = "flag", measure = "string?", estimate = "number",
                        conf.low = "number", conf.high = "number", tau2 = "number", I2 = "number"))
}

# Input ---------------------------------------------------------------------------

# The score matrices of `x`, named by collection: ir_scores, matrices, data
# frames, or comparisons (their scores of `measure`).
meta_scores <- function(x, measure, call = rlang::caller_env()) {
  if (!is.list(x) || is.data.frame(x) || inherits(x, "ir_comparison") || is_ir_scores(x) || !length(x)) {
    stop_irtopics(c("{.arg x} must be a named list with one score matrix (or comparison) per collection.",
                    x = "Got {show_value(x)}.",
                    i = "For example {.code list(`TREC-7` = ap7, `TREC-8` = ap8)}."), call = call)
  }
  nms <- names(x)
  if (is.null(nms) || anyNA(nms) || any(!nzchar(nms)) || anyDuplicated(nms)) {
    stop_irtopics(c("{.arg x} must be named by collection, with distinct non-empty names.",
                    i = "For example {.code list(`TREC-7` = ap7, `TREC-8` = ap8)}."), call = call)
  }
  if (!is.null(measure) && !(is.character(measure) && length(measure) == 1L && !is.na(measure))) {
    stop_irtopics("{.arg measure} must be one measure name, not {show_value(measure)}.", call = call)
  }
  out <- lapply(seq_along(x), function(i) {
    arg <- sprintf("x$`%s`", nms[i])
    xi <- x[[i]]
    if (inherits(xi, "ir_comparison")) {
      m <- measure %||% names(xi$scores)[1]
      check_names_in(m, names(xi$scores), "measure", what = "measure", of = arg, call = call)
      xi <- xi$scores[[m]]
      attr(xi, "measure") <- m
    }
    check_scores(xi, allow_na = TRUE, min_systems = 2L, min_topics = 2L, arg = arg, call = call)
  })
  names(out) <- nms
  out
}

# The comparisons' baselines (for `baseline = NULL`), or an error.
meta_baselines <- function(x, call = rlang::caller_env()) {
  b <- vapply(x, function(xi) if (inherits(xi, "ir_comparison") && !is.null(xi$baseline)) xi$baseline else NA_character_,
              character(1))
  if (anyNA(b)) {
    stop_irtopics(c("{.arg baseline} is required.",
                    i = "Name the baseline system (one name, or one per collection); only comparisons made with {.code compare_systems(baseline = )} carry their own."),
                  call = call)
  }
  b
}

# One system name per collection from one name or a vector (in order, or
# named by collection).
meta_names <- function(v, collections, arg, call = rlang::caller_env()) {
  k <- length(collections)
  if (!is.character(v) || anyNA(v) || !(length(v) %in% c(1L, k))) {
    stop_irtopics(c("{.arg {arg}} must be one system name, or one per collection ({k}).",
                    x = "Got {show_values(v)}."), call = call)
  }
  if (!is.null(names(v)) && length(v) == k) {
    if (!setequal(names(v), collections)) {
      stop_irtopics(c("The names of {.arg {arg}} must be the collections of {.arg x}.",
                      x = "Got {.val {names(v)}}; the collections are {.val {collections}}."), call = call)
    }
    v <- v[collections]
  }
  unname(rep_len(v, k))
}

meta_measure <- function(mats) {
  ms <- unique(unlist(lapply(mats, function(m) attr(m, "measure"))))
  if (length(ms) == 1L) ms else NULL
}

# The two systems of one collection's comparison exist and differ.
meta_check_pair <- function(m, system, baseline, collection, call = rlang::caller_env()) {
  check_names_in(c(system, baseline), rownames(m), "system", of = sprintf("x$`%s`", collection), call = call)
  if (system == baseline) {
    stop_irtopics("{.arg system} and {.arg baseline} are the same system ({.val {system}}) in collection {.val {collection}}.",
                  call = call)
  }
  pair <- m[c(system, baseline), , drop = FALSE]
  where <- sprintf(" (collection \"%s\")", collection)
  check_answered_systems(pair, "x", where, call = call)
  check_not_tiny(pair, "x", where, call = call)
}

# Replicates on the same topics -------------------------------------------------------

# The studies as groups of the elements of `x` (positions): one element
# each, unless elements share topics (by name; topics scored by both
# systems of the comparison). Shared topics are an error ("error"), join
# their elements into one group, transitively ("average"), or are ignored
# ("independent"). Names t1, t2, ... in column order (those check_scores()
# gives a matrix without topic names) say nothing about which topics they
# are, so "error" does not take them as shared; "average" takes every name
# at its word.
meta_groups <- function(mats, system, baseline, shared_topics, call = rlang::caller_env()) {
  k <- length(mats)
  singles <- as.list(seq_len(k))
  if (shared_topics == "independent" || k == 1L) return(singles)
  topics <- lapply(seq_len(k), function(i) {
    m <- mats[[i]]
    ok <- !is.na(m[system[i], ]) & !is.na(m[baseline[i], ])
    if (shared_topics == "error" && identical(colnames(m), paste0("t", seq_len(ncol(m))))) character() else
      colnames(m)[ok]
  })
  # group of each element: elements sharing a topic get the smallest group
  # number among them, until nothing changes
  group <- seq_len(k)
  repeat {
    first <- tapply(rep(group, lengths(topics)), unlist(topics), min)
    new <- vapply(seq_len(k), function(i) min(c(group[i], first[topics[[i]]])), 0)
    if (identical(new, as.double(group))) break
    group <- new
  }
  if (all(!duplicated(group))) return(singles)
  if (shared_topics == "error") {
    i <- which(duplicated(group))[1]
    j <- which(group == group[i])[1]
    common <- intersect(topics[[j]], topics[[i]])
    nms <- names(mats)
    stop_irtopics(c("Collections {.val {nms[j]}} and {.val {nms[i]}} share {length(common)} topic{?s}, e.g. {.val {utils::head(common, 3)}}.",
                    x = "Replicates on the same topics (seeds, runs or folds scored on them) are not independent studies: pooled as if they were, the topics' variation is counted once per replicate and the interval is too narrow (10 identical seeds: 1/sqrt(10) of one seed's standard error).",
                    i = "{.code shared_topics = \"average\"} averages the replicates per topic first: one study per group of collections that share topics.",
                    i = "If they are different topics that happen to share names, give them distinct names or use {.code shared_topics = \"independent\"}."),
                  kind = "data", call = call)
  }
  unname(split(seq_len(k), group))
}

# The name of a group of replicates: "a+b+c", or "a+...+z" beyond three.
meta_group_name <- function(nms) {
  if (length(nms) <= 3L) paste(nms, collapse = "+") else paste0(nms[1], "+...+", nms[length(nms)])
}

# Replicates of one comparison as one collection: per topic (the union of
# the replicates' topics), the mean of the system's and of the baseline's
# scores over the replicates that scored both; a 2 x topics matrix with rows
# ".system" and ".baseline".
meta_average <- function(mats, system, baseline) {
  topics <- unique(unlist(lapply(mats, colnames)))
  sums <- counts <- matrix(0, 2L, length(topics), dimnames = list(c(".system", ".baseline"), topics))
  for (i in seq_along(mats)) {
    pair <- mats[[i]][c(system[i], baseline[i]), , drop = FALSE]
    ok <- colnames(pair)[!is.na(pair[1L, ]) & !is.na(pair[2L, ])]
    sums[, ok] <- sums[, ok] + pair[, ok, drop = FALSE]
    counts[, ok] <- counts[, ok] + 1
  }
  out <- sums / counts
  out[, counts[1L, ] > 0, drop = FALSE]
}

# Effects of one collection ----------------------------------------------------------

# The raw and standardised effects of `system` minus `baseline` on one
# collection, with their sampling variances and Wald intervals: one row.
meta_effects <- function(m, system, baseline, collection, conf, hedges, call = rlang::caller_env()) {
  a <- m[system, ]
  b <- m[baseline, ]
  ok <- !is.na(a) & !is.na(b)
  n <- sum(ok)
  if (n < 2L) {
    stop_irtopics("Can't compare {.val {system}} with {.val {baseline}} in collection {.val {collection}}: {n} topic{?s} scored by both; at least 2 are needed.",
                  kind = "data", call = call)
  }
  d <- a[ok] - b[ok]
  md <- mean(d)
  s <- stats::sd(d)
  # a spread at the level of rounding error of the scores is no spread
  if (!(s > 1e-12 * max(abs(c(a[ok], b[ok])), .Machine$double.xmin))) {
    stop_irtopics(c("Can't compare {.val {system}} with {.val {baseline}} in collection {.val {collection}}: their differences are all equal ({signif(md, 4)}).",
                    i = "The effect's sampling variance is 0, so the collection would have infinite weight."),
                  kind = "data", call = call)
  }
  mdf <- n - 1
  # Hedges' J is undefined for 2 topics (m = 1): the standardised effect is then NA
  J <- if (!hedges) 1 else if (mdf < 2) NA_real_ else exp(lgamma(mdf / 2) - log(sqrt(mdf / 2)) - lgamma((mdf - 1) / 2))
  g <- J * md / s
  md_var <- s^2 / n
  g_var <- 1 / n + g^2 / (2 * n)
  z <- stats::qnorm(1 - (1 - conf) / 2)
  data.frame(collection = collection, system = system, baseline = baseline, n_topics = n,
             mean_system = mean(a[ok]), mean_baseline = mean(b[ok]),
             md = md, md_var = md_var, md_low = md - z * sqrt(md_var), md_high = md + z * sqrt(md_var),
             smd = g, smd_var = g_var, smd_low = g - z * sqrt(g_var), smd_high = g + z * sqrt(g_var),
             stringsAsFactors = FALSE)
}

# Pooling -----------------------------------------------------------------------------

# Cochran's Q and the "typical" within-study variance with fixed-effect weights.
fe_heterogeneity <- function(y, v) {
  k <- length(y)
  w <- 1 / v
  mu <- sum(w * y) / sum(w)
  if (k == 1L) return(list(Q = 0, df = 0, p = 1, s2 = 0, trP = 0))
  Q <- max(0, sum(w * (y - mu)^2))
  trP <- sum(w) - sum(w^2) / sum(w)
  list(Q = Q, df = k - 1, p = stats::pchisq(Q, k - 1, lower.tail = FALSE), s2 = (k - 1) / trP, trP = trP)
}

# tau^2 by DerSimonian and Laird's moment estimator.
tau2_dl <- function(y, v, het) {
  if (length(y) == 1L) return(0)
  max(0, (het$Q - het$df) / het$trP)
}

# Restricted log likelihood of the intercept-only random-effects model
# (constants dropped).
reml_loglik <- function(y, v, tau2) {
  w <- 1 / (v + tau2)
  mu <- sum(w * y) / sum(w)
  -0.5 * sum(log(v + tau2)) - 0.5 * log(sum(w)) - 0.5 * sum(w * (y - mu)^2)
}

# tau^2 by REML: Fisher scoring (Viechtbauer 2005) from the Hedges estimate
# (the moment estimate with unit weights), a step that would make tau^2
# negative halved until it does not, stopping once a step changes tau^2 by
# at most `threshold`. As metafor, an estimate whose likelihood is below
# that at tau^2 = 0 (by more than eps^(1/4)) is replaced by 0, with a
# warning.
tau2_reml <- function(y, v, threshold, max_iter) {
  k <- length(y)
  if (k == 1L) return(list(tau2 = 0, iterations = 0L))
  he <- (sum((y - mean(y))^2) - sum(v) * (1 - 1 / k)) / (k - 1)
  tau2 <- max(0, he)
  iter <- 0L
  repeat {
    iter <- iter + 1L
    w <- 1 / (v + tau2)
    sw <- sum(w)
    mu <- sum(w * y) / sw
    # the projection P = W - w w'/sum(w): y'PPy, tr(P) and tr(PP) in closed form
    yPPy <- sum(w^2 * (y - mu)^2)
    trP <- sw - sum(w^2) / sw
    trPP <- sum(w^2) - 2 * sum(w^3) / sw + (sum(w^2) / sw)^2
    step <- (yPPy - trP) / trPP
    if (is.na(step)) step <- 0
    while (tau2 + step < 0) step <- step / 2
    old <- tau2
    tau2 <- tau2 + step
    if (abs(tau2 - old) <= threshold) break
    if (iter >= max_iter) return(tau2_reml_search(y, v, max_iter))
  }
  if (reml_loglik(y, v, 0) - reml_loglik(y, v, tau2) > .Machine$double.eps^0.25 && tau2 > threshold) {
    warn_irtopics("REML stopped at a tau^2 whose likelihood is below that of tau^2 = 0; tau^2 set to 0.",
                  kind = "convergence")
    tau2 <- 0
  }
  list(tau2 = max(0, tau2), iterations = iter)
}

# REML when Fisher scoring does not converge (it can oscillate between two
# values, as metafor's rma() does, which then stops with an error): the root
# of the REML score y'PPy - tr(P) (bracketed on [0, upper], upper doubled
# until the score is negative there), or 0 when the score is not positive
# at 0 or the likelihood is larger at 0.
tau2_reml_search <- function(y, v, max_iter) {
  warn_irtopics(c("REML: Fisher scoring did not converge in {.arg max_iter} = {max_iter} iterations.",
                  i = "tau^2 is the root of the REML score found by bisection instead (metafor's {.fn rma} stops with an error here)."),
                kind = "convergence")
  score <- function(t) {
    w <- 1 / (v + t)
    sw <- sum(w)
    sum(w^2 * (y - sum(w * y) / sw)^2) - (sw - sum(w^2) / sw)
  }
  tau2 <- 0
  if (score(0) > 0) {
    upper <- max(10 * stats::var(y), 10 * max(v))
    while (score(upper) > 0 && upper < 1e100) upper <- 2 * upper
    tau2 <- stats::uniroot(score, c(0, upper), tol = 1e-15 * upper, maxiter = 10000L)$root
    if (reml_loglik(y, v, 0) >= reml_loglik(y, v, tau2)) tau2 <- 0
  }
  list(tau2 = tau2, iterations = NA_integer_)
}

# One pooled model: its row of the pooled table, the percent weights and,
# for FE, the heterogeneity statistics.
pool_effects <- function(y, v, method, conf, threshold = 1e-5, max_iter = 100L, test = "z") {
  k <- length(y)
  het <- fe_heterogeneity(y, v)
  iterations <- NA_integer_
  tau2 <- switch(method, FE = 0, DL = tau2_dl(y, v, het), REML = {
    r <- tau2_reml(y, v, threshold, max_iter)
    iterations <- r$iterations
    r$tau2
  })
  w <- 1 / (v + tau2)
  est <- sum(w * y) / sum(w)
  se <- 1 / sqrt(sum(w))
  if (test == "knha") {
    # Knapp & Hartung (2003): the variance scaled by the weighted residual
    # mean square, and t quantiles on k - 1 degrees of freedom
    se <- se * sqrt(sum(w * (y - est)^2) / (k - 1))
    df <- k - 1
    crit <- stats::qt(1 - (1 - conf) / 2, df)
    p <- t_pvalue(est / se, df)
  } else {
    df <- Inf
    crit <- stats::qnorm(1 - (1 - conf) / 2)
    p <- 2 * stats::pnorm(-abs(est / se))
  }
  if (k == 1L) {
    I2 <- 0
    H2 <- 1
  } else if (method == "FE") {
    I2 <- max(0, 100 * (het$Q - het$df) / het$Q)
    H2 <- het$Q / het$df
  } else {
    I2 <- 100 * tau2 / (het$s2 + tau2)
    H2 <- tau2 / het$s2 + 1
  }
  row <- data.frame(method = method, estimate = est, std.error = se, statistic = est / se, df = df,
                    p.value = p, conf.low = est - crit * se, conf.high = est + crit * se,
                    pi.low = est - crit * sqrt(se^2 + tau2), pi.high = est + crit * sqrt(se^2 + tau2),
                    tau2 = tau2, I2 = I2, H2 = H2, iterations = iterations, stringsAsFactors = FALSE)
  list(row = row, weights = 100 * w / sum(w), heterogeneity = het)
}
