# Can these judgments replace those? compare_qrels() -------------------------------

#' Compare two sets of relevance judgments: labels, leaderboards, conclusions
#'
#' Measures how far a candidate set of relevance labels (an LLM judge's, a
#' second assessor's, a cheaper pool's) agrees with a reference set (the
#' human qrels), at three levels:
#' 1. **labels**, on the (topic, document) pairs both sets judged: Cohen's
#'    kappa on all grades and at every binarisation threshold, linearly and
#'    quadratically weighted kappa, Krippendorff's alpha (nominal, ordinal,
#'    interval), the share of equal labels and the confusion matrix, overall
#'    and per topic, with how many pairs each set judged alone;
#' 2. with `runs`, the **leaderboard**: the runs are evaluated under both
#'    label sets (one score matrix each, `measure`) and the two orderings of
#'    the systems by mean score compared (Kendall's tau-b, tau_AP, RBO,
#'    Spearman, top-1 and top-k agreement). Means within \eqn{10^{-9}} times
#'    the largest absolute score of each other are ties, in the estimate and
#'    in every bootstrap sample (the equal means of P@10 would otherwise be
#'    ordered by the rounding of their sums), and the orderings break ties by
#'    system name;
#' 3. with `runs`, the **conclusions**: which pairs of systems a paired test
#'    (`test`, corrected by `correction`) calls significantly different
#'    under each label set, the share of pairs with the same decision and
#'    the pairs that flip; and per topic, how well the candidate's scores
#'    order the systems (the topics where the candidate judge fails).
#'
#' @section Definitions:
#' All label statistics are computed from the confusion matrix of the shared
#' pairs (reference grade in rows, candidate grade in columns) over the
#' grade scale `grades`:
#' * `observed_agreement`: the share of pairs with the same grade, p_o.
#' * `kappa` (`threshold` NA): Cohen's kappa, (p_o - p_e) / (1 - p_e) with
#'   p_e = sum_g p_ref(g) p_cand(g) from the two marginals (as
#'   `irr::kappa2(weight = "unweighted")`, `psych::cohen.kappa()`).
#' * `kappa` with `threshold` t: Cohen's kappa of the binary labels
#'   "grade >= t", for every grade t of the scale above the lowest (the
#'   LLMJudge papers report t = 1, 2, 3 on a 0-3 scale).
#' * `weighted_kappa_linear`, `weighted_kappa_quadratic`: Cohen's weighted
#'   kappa with agreement weights 1 - |i - j| / (K - 1) and
#'   1 - (i - j)^2 / (K - 1)^2, i and j the positions of the two grades on
#'   the scale of K grades (`irr::kappa2(weight = "equal")` and
#'   `"squared"`). Weights follow the positions, not the grade values: on a
#'   scale 0, 1, 3 the grades 1 and 3 are one step apart.
#' * `krippendorff_alpha_nominal`, `_ordinal`, `_interval`: Krippendorff's
#'   alpha = 1 - D_o / D_e (Krippendorff, "Computing Krippendorff's
#'   Alpha-Reliability", 2011) for two coders and no missing value, with the
#'   nominal, ordinal (ranks from the pooled value counts) and interval
#'   (squared difference of the grade values) difference functions
#'   (`irr::kripp.alpha()`). Alpha is not kappa: it estimates the expected
#'   disagreement from the pooled labels of both sets (one distribution),
#'   kappa from the two sets' own marginals.
#'
#' A statistic that is undefined is `NA`: kappa when chance agreement is 1
#' (both sets give every shared pair one grade, common on a single topic),
#' alpha when the labels do not vary (irr returns 1 there).
#'
#' @section Intervals:
#' `conf.low` and `conf.high` come from a bootstrap over topics (`B`
#' samples of the topics with shared pairs, drawn with replacement; the
#' documents of a topic stay together, since labels within a topic are not
#' independent): the statistic is recomputed from the pooled confusion
#' matrix of each sample. `interval = "percentile"` (the default) takes the
#' samples' quantiles; `"basic"` and `"bca"` (with a leave-one-topic-out
#' jackknife) are the other two of Davison & Hinkley (1997); bounds are
#' clipped to the statistic's range (at most 1; kappa at least -1, the
#' share of equal labels at least 0). Samples where a
#' statistic is undefined are left out of its interval. The samples are
#' drawn from the counter-based streams of the package (`seed`), the same for
#' every thread count, chunking and `future` plan, and the label and
#' leaderboard bootstraps of one call use the same topic samples when they
#' resample the same topics. In a simulation of judges whose error rate
#' varies by topic (the package's `bench/README.md`, section 20b), all three
#' intervals covered 95% at 50 topics and 91-92% at 15 topics. Choices that
#' were ours: resampling topics
#' rather than documents (documents of a topic share its difficulty and
#' its assessor), and the percentile interval as the default.
#'
#' @section Leaderboard intervals:
#' The leaderboard statistics compare two rankings of the systems by mean
#' score over a sample of topics, and are biased on it: systems whose means
#' are close are ordered at random, so two evaluations on 50 topics agree
#' less than over the whole topic population, and bootstrap samples of the
#' topics (which repeat topics) agree less again. An interval is therefore
#' for one of two quantities (`target`), as in [tau_interval()]:
#' * `"expected"` (the default): the agreement to expect from an evaluation
#'   on this many topics (the mean of the estimate over topic samples of
#'   this size), of which the estimate is one draw. Its interval
#'   (`leaderboard_interval = "percentile"`, the default) takes the
#'   quantiles of the `B` bootstrap values; it follows the resampled
#'   leaderboards, which agree less than the observed ones, so it can lie
#'   below the estimate: `print()` then says so and why. `"normal"` is the
#'   estimate \eqn{\pm z} times their standard deviation.
#' * `"population"`: the agreement of the two leaderboards over the
#'   population of topics (the systems' means over infinitely many topics),
#'   which can be well above the expected one. Its interval
#'   (`leaderboard_interval = "jackknife"`) leaves one topic out at a time:
#'   the estimate \eqn{\pm z\, se} with the jackknife standard error, cut to
#'   the statistic's range; it is conservative and wide. `"basic"` and
#'   `"bca"` are bootstrap attempts at this target; they undercover it.
#'
#' Measured coverage of nominal 95% intervals (30 systems, 25-50 topics,
#' 500 data sets per setting; `bench/README.md`, section 40; population /
#' expected): Kendall's tau, jackknife 1.00 / 1.00 at 2.2-2.6 times the
#' width of the normal interval, percentile 0.00-0.97 / 0.97-1.00, normal
#' 0.46-0.91 / 0.93-0.96, basic and BCa 0.26-0.81 / 0.69-0.81. The jackknife
#' covered the population value of tau_AP, Spearman and RBO in 0.97-1.00 of
#' the data sets and of the top-k overlap (a count of a few systems) in
#' 0.90-0.98; the percentile interval their expected value in 0.97-1.00,
#' the normal one in 0.90-0.99. The percentile interval lay wholly below
#' its estimate in up to 7% of the data sets (Spearman's, when the
#' leaderboards agree almost perfectly). For tau between two rankings of
#' 110 systems, see [tau_interval()]: percentile 0.92.
#'
#' @section Runs:
#' `runs` (paths, a directory, `ir_runs` or a data frame, as for
#' [evaluate()]) are evaluated once under the reference and once under each
#' candidate with `measure`, `depth`, `relevance_level` and `missing`
#' (default `"zero"`, trec_eval `-c`: a topic a run did not answer scores 0).
#' The two score matrices are then restricted to the topics both label sets
#' judge. Run files are read once more after the reference's evaluation:
#' for a measure with a cut-off k (`nDCG@10`, `P@10`, `AP@100`), each
#' candidate's evaluation uses, per system and topic, only the documents
#' scored at least as high as the k-th (ties at the cut kept), which gives
#' the scores of the whole runs (tested) from far fewer lines; runs given
#' as a data frame are evaluated as given.
#' Negative grades are handled by the evaluator as trec_eval does
#' (in the pool, not judged) whatever `negative` says. Leaderboard
#' statistics are those of the reference's ordering taken as the truth
#' where a statistic is asymmetric (tau_AP, top-k overlap); conclusions use
#' the test registry ([ir_tests()]) through [compare_systems()].
#'
#' @param reference The reference labels: a qrels file path, an `ir_qrels`
#'   from [read_qrels()] or [read_labels()], or a data frame with columns
#'   `topic`, `docno`, `rel` (or their aliases, as for [evaluate()]).
#' @param candidate The candidate labels, in the same forms; or several: a
#'   named list of them, or a character vector of paths (named by `names()`,
#'   else by file name).
#' @param runs `NULL` (labels only) or the runs to evaluate under both label
#'   sets: run file paths, a directory, an `ir_runs` object or a data frame,
#'   as for [evaluate()].
#' @param measure The measure of the leaderboards and conclusions (one name
#'   of [measures]).
#' @param grades `NULL` (the grades the shared pairs use, sorted) or the
#'   grade scale as whole numbers: the categories of the confusion matrix,
#'   the positions of weighted kappa and the binarisation thresholds. At
#'   most 101 grades (a 0-100 scale; the statistics take a grades x grades
#'   matrix per topic and bootstrap sample, and their time grows as the
#'   cube of the number of grades): map finer scores to grades first
#'   (`read_labels(breaks = )`). A label of either set outside a given
#'   scale is an error naming the set (and its file); without `grades`, a
#'   candidate's grades outside the range of the reference's are a warning
#'   (`irtopics_warning_data`).
#' @param negative What a negative grade means: `"unjudged"` (trec_eval: in
#'   the pool but not judged; such lines are dropped before the labels are
#'   paired) or `"grade"` (a grade like any other).
#' @param B Number of bootstrap samples of topics for the intervals (0: no
#'   intervals). The memory of the label and leaderboard bootstraps is
#'   checked once, before any work (`irtopics_error_memory` naming the
#'   largest `B` that fits).
#' @param conf Confidence level of the intervals.
#' @param interval `"percentile"`, `"basic"` or `"bca"`: the intervals of
#'   the label statistics; see "Intervals".
#' @param target `NULL`, `"expected"` or `"population"`: what the
#'   leaderboard intervals are for; see "Leaderboard intervals". `NULL`:
#'   the target of `leaderboard_interval`, or `"expected"`.
#' @param leaderboard_interval `NULL` (the target's default: `"percentile"`
#'   for the expected agreement, `"jackknife"` for the population's),
#'   `"percentile"`, `"normal"`, `"jackknife"`, `"basic"` or `"bca"`.
#' @param seed `NULL` or a whole number: the seed of the bootstrap (with
#'   `NULL`, one is drawn from R's RNG, so `set.seed()` before the call
#'   reproduces it; the result records it).
#' @param top_k The k of the top-k overlap of the leaderboards.
#' @param test,correction,alpha The test (a name of [ir_tests()]), the
#'   multiple-comparison correction (as [compare_systems()]) and the level
#'   of the conclusions.
#' @param B_test Resamples of a resampling `test` (its `B` in
#'   [compare_systems()]); the same `seed` is used under both label sets.
#' @param depth,relevance_level,missing Passed to [evaluate()].
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @return An `ir_qrels_agreement` object: a list with
#'   * `labels`: one row per candidate and label statistic (`candidate`,
#'     `statistic`, `threshold`, `estimate`, `conf.low`, `conf.high`);
#'   * `counts`: per candidate, the pairs both judged (`n_both`), judged by
#'     one set only (`n_reference_only`, `n_candidate_only`) and the topics
#'     with shared pairs;
#'   * `topics`: one row per candidate and topic: the counts, the label
#'     statistics of the topic's pairs and, with runs, the topic's
#'     agreement of the systems' scores;
#'   * `confusion`: the confusion matrices, long (`candidate`,
#'     `reference_grade`, `candidate_grade`, `n`);
#'   * `leaderboard`, `conclusions`, `flips`, `means`: with runs, the
#'     leaderboard statistics, the conclusion summary, the system pairs
#'     with their decisions under both label sets, and the system means
#'     under both (`NULL` without runs);
#'   * `scores`: with runs, `list(reference = <ir_scores>, candidates =
#'     <list of ir_scores>)`, else `NULL`;
#'   * `grades`, `measure`, `B`, `conf`, `interval`, `target`,
#'     `leaderboard_interval`, `seed`, `test`, `correction`, `alpha`,
#'     `n_candidates`.
#'
#'   `as.data.frame(x, what = )` gives `"labels"` (the default), `"topics"`,
#'   `"confusion"`, `"leaderboard"`, `"conclusions"` or `"flips"`;
#'   `autoplot(x, type = )` draws `"means"` (system means under both label
#'   sets, the identity line and Kendall's tau), `"kappa"` (per-topic kappa)
#'   or `"flips"` (the pairs whose decision changes).
#' @seealso [read_labels()] for label files in other layouts, [rbo()].
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' ref <- read_qrels(file.path(dir, "qrels.rel_level"))  # grades 0-4
#' # a simulated noisy judge: a quarter of the grades moved one step
#' set.seed(1)
#' cand <- as.data.frame(ref)
#' flip <- sample(nrow(cand), nrow(cand) %/% 4)
#' cand$rel[flip] <- pmin(4L, pmax(0L, cand$rel[flip] + sample(c(-1L, 1L), length(flip), TRUE)))
#' agr <- compare_qrels(ref, cand, B = 200, seed = 1)
#' agr
#' as.data.frame(agr, what = "topics")
#'
#' # with runs: ten systems simulated from the collection's one run
#' run <- as.data.frame(read_run(file.path(dir, "results.test")))
#' runs <- do.call(rbind, lapply(1:10, function(k) {
#'   data.frame(system = paste0("sim", k), topic = run$topic, docno = run$docno,
#'              score = run$score + rnorm(nrow(run), sd = 0.3 * k))
#' }))
#' agr2 <- compare_qrels(ref, cand, runs = runs, measure = "AP", B = 200, seed = 1)
#' summary(agr2)
#' autoplot(agr2)
#' @export
compare_qrels <- function(reference, candidate, runs = NULL, measure = "nDCG@10", grades = NULL,
                          negative = c("unjudged", "grade"), B = 1000, conf = 0.95,
                          interval = c("percentile", "basic", "bca"), target = NULL, leaderboard_interval = NULL,
                          seed = NULL, top_k = 10, test = "t", correction = "holm", alpha = 0.05, B_test = 10000, depth = 1000,
                          relevance_level = 1, missing = c("zero", "drop"),
                          n_threads = irtopics_threads(), progress = NULL) {
  negative <- match_choice(negative)
  interval <- match_choice(interval)
  lb <- agreement_interval(target, leaderboard_interval, names(agreement_interval_targets),
                           method_arg = "leaderboard_interval")
  missing <- match_choice(missing)
  n_threads <- resolve_threads(n_threads)
  B <- check_whole(B, "B", min = 0)
  check_number(conf, "conf", min = 0, max = 1)
  if (conf <= 0 || conf >= 1) stop_irtopics("{.arg conf} must be strictly between 0 and 1, not {show_value(conf)}.")
  check_seed(seed)
  if (!is.character(measure) || length(measure) != 1L || is.na(measure)) {
    stop_irtopics("{.arg measure} must be one measure name, not {show_value(measure)}.")
  }
  if (!is.null(runs)) parse_measure(measure)  # an unknown measure fails before any work
  top_k <- check_whole(top_k, "top_k", min = 1)
  check_number(alpha, "alpha", min = 0, max = 1)
  B_test <- check_whole(B_test, "B_test", min = 1)
  local_progress(progress)
  seed <- resolve_seed(seed)

  grades <- check_grade_scale(grades)
  env <- environment()  # errors raised in the loops below name compare_qrels()
  ref <- check_labels_in_scale(as_label_set(reference, "reference", negative), grades)
  cands <- candidate_list(candidate)
  # every label set read and paired, and the memory of the whole call
  # checked once, before any statistic or evaluation is computed
  setups <- lapply(names(cands), function(nm) {
    cand <- as_label_set(cands[[nm]], label_arg(nm, length(cands)), negative, call = env)
    if (!is.null(grades)) check_labels_in_scale(cand, grades, call = env)
    setup <- label_setup(ref, cand, grades, call = env)
    if (is.null(grades)) check_labels_in_scale(cand, NULL, ref, call = env)
    list(cand = cand, setup = setup)
  })
  if (!is.null(runs) && isTRUE(count_run_systems(runs) < 2L)) {
    stop_irtopics(c("{.arg runs} must hold at least 2 systems: leaderboards and conclusions compare systems.",
                    i = "For the labels alone, leave {.arg runs} out."), kind = "data")
  }
  check_qrels_memory(setups, ref, runs, B)
  labels <- lapply(setups, function(st) {
    label_agreement(ref, st$cand, grades, B, conf, interval, seed, setup = st$setup, call = env)
  })
  names(labels) <- names(cands)
  stack <- function(part) bind_candidates(lapply(labels, `[[`, part))
  confusion <- stack("confusion")
  grades_used <- sort(unique(unlist(lapply(labels, `[[`, "scale"))))

  x <- list(labels = stack("labels"), counts = stack("counts"), topics = stack("topics"),
            confusion = confusion, leaderboard = NULL, conclusions = NULL, flips = NULL,
            means = NULL, scores = NULL, grades = grades_used, measure = NULL, B = as.double(B),
            conf = conf, interval = interval, target = lb$target, leaderboard_interval = lb$method, seed = seed,
            test = NULL, correction = NULL, alpha = NULL, n_candidates = length(cands))
  if (!is.null(runs)) {
    x <- add_run_agreement(x, reference, cands, runs, measure, depth, relevance_level, missing,
                           top_k, test, correction, alpha, B, B_test, conf, lb$method, seed, n_threads)
  }
  new_ir_qrels_agreement(x)
}

# The memory compare_qrels() needs, checked once before any work (it was
# checked by the label bootstrap, then by the leaderboard bootstrap after
# the labels and evaluations had run, and the second check refused the B
# the first one's "at most N fit" advised): every candidate's confusion
# counts (K^2 x topics cells), and per bootstrap sample the most that the
# label or the leaderboard bootstrap holds (they run one after the other).
# The leaderboard's systems and topics are counted from the runs and the
# reference before they are evaluated.
check_qrels_memory <- function(setups, ref, runs, B, call = rlang::caller_env()) {
  budget <- memory_budget()
  cells <- max(vapply(setups, function(st) st$setup$cells, numeric(1)))
  if (cells * label_cell_bytes > budget || cells > .Machine$integer.max) {
    st <- setups[[which.max(vapply(setups, function(st) st$setup$cells, numeric(1)))]]$setup
    stop_irtopics(c("The confusion counts of {length(st$shared)} topics on a scale of {length(st$scale)} grades need about {format_bytes(cells * label_cell_bytes)} of memory; {format_bytes(budget)} is available.",
                    i = "Map the labels to fewer grades (e.g. {.code read_labels(breaks = )}), compare fewer topics at a time, or raise the limit with {.code options(irtopics.max_memory = <bytes>)}."),
                  kind = "memory", call = call)
  }
  if (B == 0) return(invisible())
  per <- max(vapply(setups, function(st) label_bootstrap_bytes(length(st$setup$scale), length(st$setup$shared)),
                    numeric(1)))
  if (!is.null(runs)) {
    n_sys <- count_run_systems(runs)
    if (!is.na(n_sys)) per <- max(per, leaderboard_bootstrap_bytes(n_sys, attr(ref, "n_topics")))
  }
  check_memory(B, per, "B", call = call)
}

# How many systems `runs` hold, without reading them (files: one each); NA
# when that can't be told (bad paths, not runs: evaluate() says what is wrong).
count_run_systems <- function(runs) {
  if (is.character(runs)) {
    return(tryCatch(length(expand_run_paths(runs, arg = "runs")), error = function(e) NA_integer_))
  }
  if (inherits(runs, "ir_run")) return(1L)
  if (inherits(runs, "ir_runs")) return(length(runs))
  if (is.data.frame(runs)) {
    runs <- alias_columns(runs, "system", "runs")
    return(if (is.null(runs$system)) 1L else length(unique(runs$system)))
  }
  NA_integer_
}

new_ir_qrels_agreement <- function(x) {
  new_result(x, "ir_qrels_agreement",
             fields = c(labels = "data.frame", counts = "data.frame", topics = "data.frame",
                        confusion = "data.frame", leaderboard = "data.frame?", conclusions = "data.frame?",
                        flips = "data.frame?", means = "data.frame?", scores = "list?", grades = "numeric",
                        measure = "string?", B = "number", conf = "number", interval = "string",
                        target = "string", leaderboard_interval = "string", seed = "number", test = "string?",
                        correction = "string?", alpha = "number?", n_candidates = "number"))
}

# The candidates as a named list of label sets: one (named "candidate"), a
# named list, or a character vector of paths.
candidate_list <- function(candidate, call = rlang::caller_env()) {
  several <- (is.list(candidate) && !is.data.frame(candidate)) ||
    (is.character(candidate) && length(candidate) > 1L)
  if (!several) return(list(candidate = candidate))
  if (!length(candidate)) stop_irtopics("{.arg candidate} must hold at least one label set.", call = call)
  nm <- names(candidate)
  if (is.null(nm) || any(is.na(nm) | !nzchar(nm))) {
    fallback <- if (is.character(candidate)) basename(candidate) else paste0("candidate", seq_along(candidate))
    nm <- if (is.null(nm)) fallback else ifelse(is.na(nm) | !nzchar(nm), fallback, nm)
  }
  if (anyDuplicated(nm)) {
    stop_irtopics("{.arg candidate} must have distinct names; {.val {unique(nm[duplicated(nm)])}} repeats.",
                  call = call)
  }
  out <- as.list(candidate)
  names(out) <- nm
  out
}

label_arg <- function(name, n) if (n == 1L) "candidate" else sprintf("candidate[[\"%s\"]]", name)

# With runs: both score matrices (one evaluate() per label set), then the
# leaderboard, conclusion and topic agreement of each candidate.
add_run_agreement <- function(x, reference, cands, runs, measure, depth, relevance_level, missing,
                              top_k, test, correction, alpha, B, B_test, conf, lb_interval, seed, n_threads,
                              call = rlang::caller_env()) {
  score_of <- function(labels) {
    q <- if (is.character(labels)) labels else unclass_qrels(labels)
    if (is.data.frame(q)) q <- alias_columns(q, c("topic", "docno", "rel"), "qrels")
    evaluate(runs, q, measures = measure, depth = depth, relevance_level = relevance_level,
             missing = missing, n_threads = n_threads)[[1L]]
  }
  ref_scores <- score_of(reference)
  # the reference's evaluation read every line (and checked it); the
  # candidates' need only the documents that can reach the measure's cut
  runs <- runs_cut(runs, measure, depth, call = call)
  per <- lapply(names(cands), function(nm) {
    cs <- score_of(cands[[nm]])
    topics <- intersect(colnames(ref_scores), colnames(cs))
    systems <- intersect(rownames(ref_scores), rownames(cs))
    if (length(topics) < 2L) {
      stop_irtopics("The runs' scores under the reference and candidate {.val {nm}} share {length(topics)} topic{?s}; at least 2 are needed.",
                    kind = "data", call = call)
    }
    r <- ref_scores[systems, topics, drop = FALSE]
    cs <- cs[systems, topics, drop = FALSE]
    lb <- leaderboard_agreement(r, cs, top_k = top_k, conf = conf, B = B, seed = seed,
                                interval = lb_interval, call = call)
    cl <- conclusion_agreement(r, cs, test = test, correction = correction, alpha = alpha, B = B_test,
                               seed = seed, n_threads = n_threads, call = call)
    tp <- topic_agreement(r, cs)
    means <- attr(lb, "means")
    list(scores = cs, leaderboard = strip_attributes(lb), conclusions = cl$summary, flips = cl$pairs,
         topics = tp, means = data.frame(system = rownames(means), reference = means[, "reference"],
                                         candidate_score = means[, "candidate"], stringsAsFactors = FALSE))
  })
  names(per) <- names(cands)
  bind <- function(part) bind_candidates(lapply(per, `[[`, part))
  x$leaderboard <- bind("leaderboard")
  x$conclusions <- bind("conclusions")
  x$flips <- bind("flips")
  x$means <- bind("means")
  names(x$means)[names(x$means) == "candidate_score"] <- "candidate_mean"
  names(x$means)[names(x$means) == "reference"] <- "reference_mean"
  tp <- bind("topics")
  x$topics <- merge(x$topics, tp, by = c("candidate", "topic"), all.x = TRUE, sort = FALSE)
  x$topics <- x$topics[order(match(x$topics$candidate, names(cands)),
                             match(x$topics$topic, unique(x$topics$topic))), , drop = FALSE]
  rownames(x$topics) <- NULL
  x$scores <- list(reference = ref_scores, candidates = lapply(per, `[[`, "scores"))
  x$measure <- attr(ref_scores, "measure") %||% measure
  x$test <- if (is.character(test)) test else "custom"
  x$correction <- correction
  x$alpha <- alpha
  x
}

# Runs cut for the candidates' evaluations. A measure whose record reads
# only its first k documents (`depth` "cutoff": P@10, nDCG@10, AP@100,
# RR@10, ...) depends only on each topic's first k documents in trec_eval's
# order, and every measure only on the first `depth`; a judged-only measure
# reads the first k judged documents, which can lie anywhere down to
# `depth` (measure_read_depth()). Keeping, per system and topic, the
# documents scored at least as high as the m-th (m the depth the measure
# reads; ties at the cut kept, so that trec_eval's tie-breaking by docno
# still picks the same first m) gives the same scores from fewer lines.
# Run files are read and cut one at a time, so only one whole run is in
# memory at once. Returns an ir_runs object, or `runs` unchanged when
# nothing would be cut (the measure reads every line to `depth`: the
# evaluator streams the files itself) or when they are a data frame
# (already in R, evaluated as given).
runs_cut <- function(runs, measure, depth, call = rlang::caller_env()) {
  keep <- measure_read_depth(parse_measure(measure, call = call), depth)
  if (!is.finite(keep) || keep >= depth) return(runs)
  if (is.character(runs)) {
    paths <- expand_run_paths(runs, arg = "runs", call = call)
    cut <- lapply(paths, function(p) cut_run(read_run(p), keep))
    # the names evaluate() gave them (it warned about shared names already)
    sys <- withCallingHandlers(unique_system_names(vapply(cut, `[[`, "", "system")),
                               irtopics_warning_names = function(w) invokeRestart("muffleWarning"))
    for (k in seq_along(cut)) cut[[k]]$system <- sys[k]
    return(new_ir_runs(cut))
  }
  if (inherits(runs, "ir_run")) runs <- new_ir_runs(list(runs))
  if (!inherits(runs, "ir_runs")) return(runs)
  new_ir_runs(lapply(runs, cut_run, keep = keep))
}

# One ir_run cut to the lines scored at least as high as each topic's
# keep-th line (its docno buffer sliced, no R string made per line).
cut_run <- function(r, keep) {
  code <- r$topic_code
  score <- r$score
  o <- order(code, -score, method = "radix")
  g <- code[o]
  starts <- which(!duplicated(g))
  size <- tabulate(g, length(r$topics))
  bound <- rep(Inf, length(r$topics))
  bound[g[starts]] <- score[o][starts + pmin(keep, size[g[starts]]) - 1L]
  i <- which(score >= bound[code])
  lens <- r$offset[i + 1L] - r$offset[i]
  new_ir_run(list(system = r$system, topics = r$topics, topic_code = code[i], score = score[i],
                  docno = r$docno[rep(r$offset[i], lens) + sequence(lens)], offset = c(0, cumsum(lens)),
                  path = NULL))
}

# One data frame from a named list of per-candidate data frames: a first
# column `candidate`, columns a candidate lacks (a threshold of its own grade
# scale) filled with NA.
bind_candidates <- function(parts) {
  cols <- unique(unlist(lapply(parts, names)))
  out <- do.call(rbind, lapply(names(parts), function(nm) {
    d <- parts[[nm]]
    for (cl in setdiff(cols, names(d))) d[[cl]] <- NA_real_
    cbind(data.frame(candidate = rep(nm, nrow(d)), stringsAsFactors = FALSE), d[cols])
  }))
  rownames(out) <- NULL
  out
}

strip_attributes <- function(df) {
  keep <- c("names", "row.names", "class")
  attributes(df)[setdiff(names(attributes(df)), keep)] <- NULL
  df
}
