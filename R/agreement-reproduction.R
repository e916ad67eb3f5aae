# Did this reproduction reproduce? The measures of Breuer, Ferro, Fuhr,
# Maistro, Sakai, Schaer & Soboroff (SIGIR 2020) at four levels: ranked lists
# (KTU, RBO), per-topic effectiveness (ARP, RMSE), overall effect (Effect
# Ratio, Delta RI) and t tests, for many reproduced pairs of runs at once.
# Methods (print, summary, plots) are in agreement-reproduction-methods.R.

#' Replicability and reproducibility of system-oriented IR experiments
#'
#' Compares an original pair of runs (a `baseline` and an `advanced` run)
#' with one or more reproduced pairs at the four levels of Breuer et al.
#' (2020): the ranked lists, the per-topic effectiveness, the overall effect
#' of the advanced run over its baseline, and statistical tests. The ACM
#' terms are the paper's: **replicability** is another team on the *same*
#' collection (`type = "replicability"`: one `qrels`, per-topic pairs exist,
#' every level applies), **reproducibility** another team on *another*
#' collection (`type = "reproducibility"`: `qrels` for the original runs and
#' `qrels_reproduced` for the reproduced ones; topics differ, so only ARP,
#' the overall effect and the unpaired t test apply). repro_eval (Breuer et
#' al.'s Python tool) names the two settings the other way round, after
#' the ACM's later wording: its `RpdEvaluator` ("reproducibility") is the
#' paper's and this function's replicability (the same collection, paired
#' test), and its `RplEvaluator` ("replicability") is reproducibility
#' here (another collection, unpaired test).
#'
#' @section Evaluation and empty topics:
#' Every run is scored by [evaluate()] with `missing = "zero"` (trec_eval
#' `-c`): each topic of the qrels counts, and a topic the run retrieved
#' nothing for scores as an empty ranking (0 for AP, P@k, nDCG...). Topics of
#' a run that are not in its qrels are ignored (with [evaluate()]'s warning).
#' A reproduced run that retrieves nothing for a topic therefore never fails
#' (repro_eval does): its scores are 0, its RBO with the original list is 0,
#' and its KTU is `NA` (Kendall's tau is undefined when one ranking is
#' empty: every document is then tied in it). Means of KTU and RBO over
#' topics skip `NA` and report how many topics they used (`n_topics_ktu`,
#' `n_topics_rbo`).
#'
#' @section Ranked lists (replicability only):
#' Per topic, each reproduced run's list is compared with the original
#' run's (baseline with baseline, advanced with advanced) at every cut-off
#' k of `cutoffs`, on the top k documents of each list in trec_eval's order
#' (score descending, ties broken by docno in descending byte order, as
#' [evaluate()]), after the `depth` cut.
#' * **KTU**, Kendall's tau on the union. `ktu = "union"` (the default):
#'   the union U of the two top-k lists; each document of U gets its rank
#'   in each list, and the documents a list does not hold share the rank
#'   below its last one (a tie; the paper does not say how they are
#'   ranked, so this is **our choice**); KTU is
#'   Kendall's tau-b (corrected for those ties, as `cor(method =
#'   "kendall")`) between the two rank vectors over U. Identical lists give
#'   1, the same documents in reverse order -1; `NA` when a list is empty or
#'   U has one document. `ktu = "repro_eval"` is repro_eval's computation:
#'   the union is sorted by docno, each list is replaced by the positions of
#'   its documents in that sorted union, and tau-b is taken between the two
#'   position vectors paired by rank (lists of different lengths are paired
#'   over the shorter length; repro_eval fails there). It rewards lists that
#'   order their documents alike *by docno*, not by rank: two disjoint lists
#'   can reach 1. It is offered to compare with published numbers.
#' * **RBO** at depth k with persistence `p` (the paper's 0.8), computed as
#'   [rbo()] computes it (`rbo(original, reproduced, p, depth = k, form =
#'   rbo_form)`). The default form is `"extrapolated"`, Webber et al.'s
#'   \eqn{RBO_{ext}}{RBO_ext} (1 for identical top-k lists, 0 for disjoint ones;
#'   their equation 32 when one list is shorter than k); repro_eval reports
#'   `"normalised"` (the truncated sum over its largest value), and
#'   `"truncated"` is the residual-free lower bound. An empty list has RBO 0
#'   with a list that is not empty, and two empty lists 1 (the same
#'   ranking), as [rbo()] defines them.
#' * **Where repro_eval differs**, its convention is an option (the
#'   defaults are ours):
#'   - a topic the reproduced run retrieved nothing for has RBO 0 and counts
#'     in the mean (`rbo_missing = "zero"`); repro_eval goes through the
#'     topics of the reproduced run and so leaves such a topic out of the
#'     means of KTU and RBO (`rbo_missing = "omit"`: its RBO is `NA` in
#'     `$topics`; its KTU is `NA` anyway). A topic the original run lacks
#'     keeps RBO 0 (repro_eval fails there);
#'   - when both lists are shorter than the cut-off k, [rbo()] evaluates
#'     them at the depth of the longer list (`rbo_depth = "lists"`: below it
#'     nothing is known), while repro_eval sums to k whatever the lengths
#'     (`rbo_depth = "cutoff"`: the lists share no further documents, and
#'     the normalised form divides by \eqn{\sum_{d=1}^{k} p^{d-1}}{sum_{d=1..k}
#'     p^(d-1)}). The extrapolated form has no meaning beyond both lists, so
#'     `"cutoff"` needs `rbo_form = "truncated"` or `"normalised"`;
#'   - nRMSE: see below (`nrmse = "max"`).
#'
#'   Together, `ktu = "repro_eval"`, `rbo_form = "normalised"`,
#'   `rbo_depth = "cutoff"`, `rbo_missing = "omit"` and `nrmse = "max"` give
#'   repro_eval's conventions (with the default `t_test = "pooled"`).
#'
#' @section Effectiveness, effect and tests:
#' * **ARP**: each run's mean per-topic score over its qrels' topics.
#' * **RMSE** (replicability): \eqn{\sqrt{\frac{1}{n}\sum_j (s_j -
#'   s'_j)^2}}{sqrt(mean_j (s_j - s'_j)^2)} between the original run's and
#'   the reproduced run's per-topic scores. The normalised RMSE divides it by the range (`nrmse =
#'   "range"`, the default: max - min of the original run's per-topic
#'   scores), by the original ARP (`"mean"`), or by the largest RMSE a
#'   reproduction of scores in \[0, 1\] can have, \eqn{\sqrt{\frac{1}{n}\sum_j
#'   \max(s_j, 1 - s_j)^2}}{sqrt(mean_j max(s_j, 1 - s_j)^2)} of the original
#'   scores (`"max"`, repro_eval's nRMSE; for measures bounded by 0 and 1).
#'   The paper reports RMSE only, so the default normalisation is **our
#'   choice**, exposed as the argument. `NA` when the divisor is 0.
#' * **Effect Ratio** \eqn{ER = \overline{a' - b'} / \overline{a -
#'   b}}{ER = mean(a' - b') / mean(a - b)} (each mean over its own
#'   collection's topics): 1 is the original effect, below
#'   1 a smaller one, below 0 the opposite direction. `NA` when the original
#'   pair has no effect (equal ARPs).
#' * **Delta RI** = RI - RI', RI = (ARP(a) - ARP(b)) / ARP(b): 0
#'   is the original relative improvement; `NA` when a baseline's ARP is 0.
#' * **t tests** of each original run against its reproduction: the paired t
#'   test over topics (replicability) or an unpaired t test
#'   (reproducibility), two-sided, of original minus reproduced scores. The
#'   unpaired test is by default the two-sample t test with pooled (equal)
#'   variances on \eqn{n + n' - 2} df (`t_test = "pooled"`), as the paper's
#'   MATLAB `ttest2` and repro_eval's `scipy.stats.ttest_ind`; `t_test =
#'   "welch"` gives Welch's test (unequal variances, Welch-Satterthwaite df),
#'   whose p-values can differ from the pooled test's by orders of magnitude
#'   when the numbers of topics differ (50 against 15). Statistics, degrees
#'   of freedom and p-values are those of `t.test(original, reproduced,
#'   paired = TRUE)`, `t.test(original, reproduced, var.equal = TRUE)` and
#'   `t.test(original, reproduced)` ([stats::t.test()]). A small p-value says
#'   the reproduction's scores differ from the original's. When the
#'   differences (paired) or both samples (unpaired) are constant the
#'   statistic is undefined: `NA`, with an `irtopics_warning_undefined`.
#'
#' @param baseline,advanced The original baseline and advanced runs: a run
#'   file path, an `ir_run` from [read_run()], or a data frame of one
#'   system (`topic`, `docno`, `score`; as [evaluate()] takes them).
#' @param reproduced The reproduced pairs: a named list whose elements are
#'   lists with elements `baseline` and `advanced` (runs as above), one per
#'   reproduction; or one such pair, `list(baseline = , advanced = )`, named
#'   `"reproduction"`.
#' @param qrels The relevance judgements of the original runs (a path or a
#'   data frame, as [evaluate()] takes them); also of the reproduced runs
#'   for replicability.
#' @param qrels_reproduced For `type = "reproducibility"`: the judgements
#'   of the other collection, on which the reproduced runs are scored;
#'   `NULL` for replicability.
#' @param type `"replicability"` (same collection) or `"reproducibility"`
#'   (another collection).
#' @param measures Measure names (see [measures]); each level is computed
#'   for each.
#' @param cutoffs Cut-offs k of the ranked-list comparison: whole numbers.
#' @param p RBO persistence, in (0, 1).
#' @param ktu `"union"` or `"repro_eval"`: the KTU definition (see the
#'   section).
#' @param rbo_form The form of RBO: `"extrapolated"`, `"truncated"` or
#'   `"normalised"` (see [rbo()]).
#' @param rbo_depth `"lists"` or `"cutoff"`: the depth of RBO when both lists
#'   are shorter than the cut-off (see the section).
#' @param rbo_missing `"zero"` or `"omit"`: whether a topic the reproduced
#'   run retrieved nothing for counts with RBO 0 or is left out of the means
#'   (see the section).
#' @param nrmse `"range"`, `"mean"` or `"max"`: what RMSE is divided by in
#'   its normalised form.
#' @param t_test `"pooled"` or `"welch"`: the unpaired t test of
#'   reproducibility (replicability is always paired).
#' @param depth,relevance_level As in [evaluate()].
#' @param ... Unused (methods).
#' @inheritParams irtopics_threads
#' @return An `ir_reproduction` object, a list:
#'   * `$effect`: one row per reproduction and measure: the four ARPs
#'     (`arp_baseline`, `arp_advanced` of the original, `arp_baseline_rep`,
#'     `arp_advanced_rep`), `ri`, `ri_rep`, `effect_ratio`, `delta_ri`.
#'   * `$runs`: one row per reproduction, measure and run (`"baseline"`,
#'     `"advanced"`): `arp_original`, `arp_reproduced`, `rmse`, `nrmse`
#'     (NA for reproducibility), the t test's `statistic`, `df`, `p.value`,
#'     and `test` (`"paired t"`, `"pooled t"` or `"Welch t"`).
#'   * `$lists`: one row per reproduction, run and cut-off: the means over
#'     topics of `ktu` and `rbo` and the numbers of topics they used
#'     (`NULL` for reproducibility); `$topics` the same per topic.
#'   * `$original`, `$reproduced`: the [ir_evaluation][evaluate()] score
#'     matrices (original: systems `"baseline"`, `"advanced"`; reproduced:
#'     `"<reproduction>|baseline"`, `"<reproduction>|advanced"`).
#'   * the settings: `type`, `measures`, `cutoffs`, `p`, `ktu`, `rbo_form`,
#'     `rbo_depth`, `rbo_missing`, `nrmse`, `t_test`, `reproductions`,
#'     `n_topics`, `n_topics_reproduced`.
#'
#'   `as.data.frame()` gives one row per statistic (see
#'   [autoplot.ir_reproduction()] for the plots).
#' @references
#' Breuer, T., Ferro, N., Fuhr, N., Maistro, M., Sakai, T., Schaer, P. &
#' Soboroff, I. (2020). How to measure the reproducibility of
#' system-oriented IR experiments. *SIGIR 2020*, 349--358.
#'
#' Webber, W., Moffat, A. & Zobel, J. (2010). A similarity measure for
#' indefinite rankings. *ACM TOIS* 28(4), 20.
#' @seealso [rbo()], [kendall_tau()], [evaluate()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' qrels <- file.path(dir, "qrels.test")
#' advanced <- as.data.frame(read_run(file.path(dir, "results.test")))
#' # made-up data: a weaker "baseline" (the run with noisy scores), and a
#' # "reproduction" of both runs (a little more noise)
#' jitter <- function(r, sd, seed) {
#'   set.seed(seed)
#'   transform(r, score = score + rnorm(nrow(r), sd = sd))
#' }
#' baseline <- jitter(advanced, 1, 2)
#' rep <- reproduction_measures(baseline, advanced,
#'                              list(jittered = list(baseline = jitter(baseline, 0.2, 3),
#'                                                   advanced = jitter(advanced, 0.2, 4))),
#'                              qrels, measures = c("AP", "nDCG"), cutoffs = c(5, 10, 50))
#' rep
#' summary(rep)
#' head(as.data.frame(rep))
#' @order 1
#' @export
reproduction_measures <- function(baseline, advanced, reproduced, qrels, qrels_reproduced = NULL,
                                  type = c("replicability", "reproducibility"), measures = "AP",
                                  cutoffs = c(5, 10, 20, 50, 100, 1000), p = 0.8,
                                  ktu = c("union", "repro_eval"),
                                  rbo_form = c("extrapolated", "truncated", "normalised"),
                                  rbo_depth = c("lists", "cutoff"), rbo_missing = c("zero", "omit"),
                                  nrmse = c("range", "mean", "max"), t_test = c("pooled", "welch"),
                                  depth = 1000, relevance_level = 1, n_threads = irtopics_threads()) {
  type <- match_choice(type)
  ktu <- match_choice(ktu)
  rbo_form <- match_choice(rbo_form)
  rbo_depth <- match_choice(rbo_depth)
  rbo_missing <- match_choice(rbo_missing)
  nrmse <- match_choice(nrmse)
  t_test <- match_choice(t_test)
  if (rbo_depth == "cutoff" && rbo_form == "extrapolated") {
    stop_irtopics(c("{.code rbo_depth = \"cutoff\"} needs {.code rbo_form = \"truncated\"} or {.code \"normalised\"}.",
                    i = "The extrapolated form assumes that the lists go on as they began: beyond both lists there is nothing to extrapolate from."))
  }
  n_threads <- resolve_threads(n_threads)
  check_number(p, "p", min = 0, max = 1)
  if (p <= 0 || p >= 1) stop_irtopics("{.arg p} must be in (0, 1), not {p}.")
  cutoffs <- check_cutoffs(cutoffs)
  depth <- check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  if (!is.character(measures) || !length(measures) || anyNA(measures)) {
    stop_irtopics("{.arg measures} must be a character vector of measure names.")
  }
  if (type == "reproducibility" && is.null(qrels_reproduced)) {
    stop_irtopics(c("{.arg qrels_reproduced} is needed for {.code type = \"reproducibility\"}.",
                    i = "Reproducibility scores the reproduced runs on another collection's judgements."))
  }
  if (type == "replicability" && !is.null(qrels_reproduced)) {
    stop_irtopics(c("{.arg qrels_reproduced} is only used for {.code type = \"reproducibility\"}.",
                    i = "Replicability scores every run on {.arg qrels}."))
  }
  if (type == "replicability" && t_test == "welch") {
    stop_irtopics(c("{.code t_test = \"welch\"} is for {.code type = \"reproducibility\"}.",
                    i = "Replicability pairs the topics: its test is the paired t test."))
  }
  pairs <- reproduced_pairs(reproduced)
  orig <- list(baseline = repro_run_lines(baseline, "baseline"),
               advanced = repro_run_lines(advanced, "advanced"))
  reps <- lapply(names(pairs), function(r) {
    list(baseline = repro_run_lines(pairs[[r]]$baseline, sprintf("reproduced$%s$baseline", r)),
         advanced = repro_run_lines(pairs[[r]]$advanced, sprintf("reproduced$%s$advanced", r)))
  })
  names(reps) <- names(pairs)

  ev <- function(lines, q) {
    evaluate(bind_run_lines(lines), q, measures = measures, depth = depth,
             relevance_level = relevance_level, missing = "zero", n_threads = n_threads, progress = FALSE)
  }
  ev_orig <- ev(orig, qrels)
  rep_lines <- unlist(lapply(names(reps), function(r) stats::setNames(reps[[r]], paste0(r, "|", names(reps[[r]])))),
                      recursive = FALSE)
  ev_rep <- ev(rep_lines, if (type == "reproducibility") qrels_reproduced else qrels)

  tabs <- lapply(seq_along(ev_orig), function(i) {
    effect_tables(unclass(ev_orig[[i]]), unclass(ev_rep[[i]]), names(ev_orig)[i], names(reps), type, nrmse, t_test)
  })
  by_rep <- function(d) {
    d <- d[order(match(d$reproduction, names(reps)), match(d$measure, names(ev_orig))), , drop = FALSE]
    rownames(d) <- NULL
    d
  }
  effect <- by_rep(do.call(rbind, lapply(tabs, `[[`, "effect")))
  runs <- by_rep(do.call(rbind, lapply(tabs, `[[`, "runs")))
  warn_undefined_tests(runs)

  topics <- lists <- NULL
  if (type == "replicability") {
    topic_ids <- colnames(ev_orig[[1]])
    topics <- list_agreement(orig, reps, topic_ids, cutoffs, depth, p, ktu, rbo_form, rbo_depth, rbo_missing)
    lists <- list_means(topics)
  }
  new_ir_reproduction(list(
    effect = effect, runs = runs, lists = lists, topics = topics,
    original = ev_orig, reproduced = ev_rep, type = type, measures = names(ev_orig),
    cutoffs = as.numeric(cutoffs), p = p, ktu = ktu, rbo_form = rbo_form, rbo_depth = rbo_depth,
    rbo_missing = rbo_missing, nrmse = nrmse, t_test = t_test,
    reproductions = names(reps), n_topics = ncol(ev_orig[[1]]), n_topics_reproduced = ncol(ev_rep[[1]])))
}

new_ir_reproduction <- function(x) {
  new_result(x, "ir_reproduction", fields = c(
    effect = "data.frame", runs = "data.frame", lists = "data.frame?", topics = "data.frame?",
    original = "list", reproduced = "list", type = "string", measures = "character",
    cutoffs = "numeric", p = "number", ktu = "string", rbo_form = "string", rbo_depth = "string?",
    rbo_missing = "string?", nrmse = "string", t_test = "string?",
    reproductions = "character", n_topics = "number", n_topics_reproduced = "number"))
}

# Inputs -------------------------------------------------------------------------

check_cutoffs <- function(cutoffs, call = rlang::caller_env()) {
  if (!is.numeric(cutoffs) || !length(cutoffs)) {
    stop_irtopics("{.arg cutoffs} must be whole numbers, not {.obj_type_friendly {cutoffs}}.", call = call)
  }
  out <- vapply(cutoffs, function(k) as.numeric(check_whole(k, "cutoffs", min = 1, call = call)), numeric(1))
  sort(unique(out))
}

# The reproduced pairs as a named list of list(baseline, advanced).
reproduced_pairs <- function(reproduced, call = rlang::caller_env()) {
  is_pair <- function(x) is.list(x) && !inherits(x, c("ir_run", "data.frame")) &&
    setequal(names(x), c("baseline", "advanced")) && length(x) == 2L
  if (is_pair(reproduced)) return(list(reproduction = reproduced))
  nms <- names(reproduced)
  ok <- is.list(reproduced) && !inherits(reproduced, c("ir_run", "data.frame")) && length(reproduced) > 0 &&
    !is.null(nms) && all(!is.na(nms) & nzchar(nms)) && !anyDuplicated(nms) &&
    all(vapply(reproduced, is_pair, logical(1)))
  if (!ok) {
    stop_irtopics(c("{.arg reproduced} must be a named list of pairs {.code list(baseline = , advanced = )}, or one such pair.",
                    i = "Names must be unique and non-empty: they name the reproductions."), call = call)
  }
  if (any(grepl("|", nms, fixed = TRUE))) {
    stop_irtopics("The names of {.arg reproduced} must not contain {.val |}.", call = call)
  }
  reproduced
}

# One run as its lines (topic, docno, score), from a path, an ir_run or a
# data frame of one system, checked by the readers' rules.
repro_run_lines <- function(x, what, call = rlang::caller_env()) {
  if (is.character(x)) {
    if (length(x) != 1L || is.na(x)) {
      stop_irtopics("{.arg {what}} must be one run file path, not {length(x)} strings.", call = call)
    }
    x <- read_run(x)
  }
  if (inherits(x, "ir_run")) {
    d <- as.data.frame(x)
    return(list(topic = d$topic, docno = d$docno, score = d$score))
  }
  if (!is.data.frame(x)) {
    stop_irtopics("{.arg {what}} must be a run file path, an {.cls ir_run} or a data frame, not {.obj_type_friendly {x}}.",
                  call = call)
  }
  src <- run_source(x, "tag", call = call)
  if (length(src$runs) != 1L) {
    stop_irtopics("{.arg {what}} must hold one system, not {length(src$runs)}.", call = call)
  }
  r <- src$runs[[1]]
  list(topic = r$topic, docno = r$docno, score = r$score)
}

# Named run lines -> one data frame for evaluate() (systems named by the list).
bind_run_lines <- function(lines) {
  col <- function(f) unlist(lapply(lines, `[[`, f), use.names = FALSE)
  data.frame(system = rep(names(lines), vapply(lines, function(l) length(l$topic), 1L)),
             topic = col("topic"), docno = col("docno"), score = col("score"), stringsAsFactors = FALSE)
}

# Effectiveness, effect and tests ---------------------------------------------------

# The divisor of nRMSE for the original per-topic scores s.
nrmse_divisor <- function(s, nrmse) {
  switch(nrmse, range = diff(range(s)), mean = mean(s), max = sqrt(mean(pmax(s, 1 - s)^2)))
}

effect_tables <- function(mo, mr, measure, reps, type, nrmse, t_test) {
  arp <- function(m, s) mean(m[s, ])
  effect <- lapply(reps, function(r) {
    sb <- paste0(r, "|baseline")
    sa <- paste0(r, "|advanced")
    b <- arp(mo, "baseline")
    a <- arp(mo, "advanced")
    b2 <- arp(mr, sb)
    a2 <- arp(mr, sa)
    ri <- if (b == 0) NA_real_ else (a - b) / b
    ri2 <- if (b2 == 0) NA_real_ else (a2 - b2) / b2
    data.frame(reproduction = r, measure = measure, arp_baseline = b, arp_advanced = a,
               arp_baseline_rep = b2, arp_advanced_rep = a2, ri = ri, ri_rep = ri2,
               effect_ratio = if (a == b) NA_real_ else (a2 - b2) / (a - b),
               delta_ri = ri - ri2, stringsAsFactors = FALSE)
  })
  runs <- lapply(reps, function(r) {
    do.call(rbind, lapply(c("baseline", "advanced"), function(run) {
      s <- mo[run, ]
      s2 <- mr[paste0(r, "|", run), ]
      if (type == "replicability") {
        rmse <- sqrt(mean((s - s2)^2))
        div <- nrmse_divisor(s, nrmse)
        tt <- t_test_samples(s, s2, paired = TRUE)
        nr <- if (div == 0) NA_real_ else rmse / div
      } else {
        rmse <- nr <- NA_real_
        tt <- t_test_samples(s, s2, var_equal = t_test == "pooled")
      }
      data.frame(reproduction = r, measure = measure, run = run, arp_original = mean(s),
                 arp_reproduced = mean(s2), rmse = rmse, nrmse = nr, statistic = tt[["t"]],
                 df = tt[["df"]], p.value = tt[["p"]],
                 test = if (type == "replicability") "paired t" else
                   c(pooled = "pooled t", welch = "Welch t")[[t_test]], stringsAsFactors = FALSE)
    }))
  })
  list(effect = do.call(rbind, effect), runs = do.call(rbind, runs))
}

warn_undefined_tests <- function(runs) {
  bad <- runs[is.na(runs$p.value), , drop = FALSE]
  if (!nrow(bad)) return(invisible())
  what <- unique(sprintf("%s %s (%s)", bad$reproduction, bad$run, bad$measure))
  warn_irtopics(c("The t test is undefined for {length(what)} comparison{?s}: the scores do not vary.",
                  i = "{.val {utils::head(what, 5)}}{if (length(what) > 5) ', ...' else ''} get {.code NA}."),
                kind = "undefined")
}

# Ranked lists ------------------------------------------------------------------------

# Each run's documents per topic in trec_eval's order (score descending, ties
# by docno in descending byte order), cut at `n`: a list named by topic.
ranked_lists <- function(lines, topics, n) {
  o <- order(lines$topic, -lines$score, as_bytes(lines$docno), decreasing = c(FALSE, FALSE, TRUE),
             method = "radix")
  docs <- split(lines$docno[o], factor(lines$topic[o], levels = topics))
  lapply(docs, function(d) d[seq_len(min(length(d), n))])
}

# KTU as defined on the help page: ranks over the union, absent documents
# tied below the last rank of their list; tau-b between the two rank vectors.
ktu_union <- function(s, t) {
  if (!length(s) || !length(t)) return(NA_real_)
  u <- union(s, t)
  rs <- match(u, s, nomatch = length(s) + 1L)
  rt <- match(u, t, nomatch = length(t) + 1L)
  if (length(u) < 2) return(NA_real_)
  rank_cor_impl(as.double(rs), as.double(rt), "b")
}

# repro_eval's KTU: positions of each list's documents in the docno-sorted
# union, paired by rank (over the shorter list), tau-b.
ktu_repro_eval <- function(s, t) {
  n <- min(length(s), length(t))
  if (n < 2) return(NA_real_)
  u <- sort_bytes(union(s, t))
  rank_cor_impl(as.double(match(s[seq_len(n)], u)), as.double(match(t[seq_len(n)], u)), "b")
}


# KTU and RBO per reproduction, run, cut-off and topic. `rbo_depth =
# "cutoff"` evaluates RBO at depth k even below both lists; `rbo_missing =
# "omit"` gives RBO NA where the reproduced list is empty (left out of the
# means, as repro_eval does).
list_agreement <- function(orig, reps, topics, cutoffs, depth, p, ktu, form, rbo_depth = "lists",
                           rbo_missing = "zero") {
  n <- min(max(cutoffs), depth)
  ktu_fun <- if (ktu == "union") ktu_union else ktu_repro_eval
  lo <- lapply(orig, ranked_lists, topics = topics, n = n)
  out <- list()
  for (r in names(reps)) {
    for (run in c("baseline", "advanced")) {
      lr <- ranked_lists(reps[[r]][[run]], topics, n)
      for (k in cutoffs) {
        vals <- vapply(topics, function(tp) {
          s <- utils::head(lo[[run]][[tp]], k)
          t <- utils::head(lr[[tp]], k)
          rb <- if (rbo_missing == "omit" && !length(t)) NA_real_ else
            rbo_impl(s, t, p, k, form, fixed_depth = rbo_depth == "cutoff")
          c(ktu_fun(s, t), rb)
        }, numeric(2))
        out[[length(out) + 1L]] <- data.frame(reproduction = r, run = run, cutoff = k, topic = topics,
                                              ktu = vals[1, ], rbo = vals[2, ], stringsAsFactors = FALSE)
      }
    }
  }
  res <- do.call(rbind, out)
  rownames(res) <- NULL
  res
}

list_means <- function(topics) {
  key <- paste(topics$reproduction, topics$run, topics$cutoff, sep = "\r")
  g <- split(seq_len(nrow(topics)), factor(key, levels = unique(key)))
  res <- do.call(rbind, lapply(g, function(i) {
    d <- topics[i, ]
    data.frame(reproduction = d$reproduction[1], run = d$run[1], cutoff = d$cutoff[1],
               ktu = if (all(is.na(d$ktu))) NA_real_ else mean(d$ktu, na.rm = TRUE),
               rbo = if (all(is.na(d$rbo))) NA_real_ else mean(d$rbo, na.rm = TRUE),
               n_topics_ktu = sum(!is.na(d$ktu)), n_topics_rbo = sum(!is.na(d$rbo)),
               stringsAsFactors = FALSE)
  }))
  rownames(res) <- NULL
  res
}
