# The values of a measure ----------------------------------------------------------
#
# What a measure's per-topic scores can be: its record's value domain,
# aggregate and direction (src/measure_table.h, read by measure_registry())
# with the parameters of its name (parse_measure()). measure_info() shows it
# and custom_measure() makes one for a measure the registry does not know;
# score_support() and simulation_model() (simulation_spec()) ask here, the
# families that label AP ask is_measure(), and every summary, ranking and
# "best" asks score_record() (a score matrix's aggregate and direction): no
# other code reads a measure name to find out what it is.

# The most support values listed (P@k, Hits@k, RR with n up to this - 1);
# a larger support is described but not built.
max_support_values <- 1e7
# relative_P@k lists {j/m : 0 <= j <= m <= k} up to this k (about 1.2
# million values; the count grows as 3 k^2 / pi^2).
max_ratio_cutoff <- 2000

# A parsed measure (parse_measure()), or NULL when the registry does not know
# the name: a custom measure's name, "score", NULL or NA.
parse_known_measure <- function(measure) {
  if (!is.character(measure) || length(measure) != 1L || is.na(measure)) return(NULL)
  tryCatch(parse_measure(measure), irtopics_error_measure = function(e) NULL)
}

# Whether `measure` is the registry's measure `name`, parameters included
# ("map", "MAP" and "AP" are "AP"; "AP@10" and "AP(rel=2)" are not).
is_measure <- function(measure, name) {
  p <- parse_known_measure(measure)
  !is.null(p) && identical(p$name, name)
}

# The measure_info() of a score matrix's measure, whose evaluation depth is
# not known (a support that depends on it is then not built), or NULL for a
# name the registry does not know.
known_measure_info <- function(measure) {
  p <- parse_known_measure(measure)
  if (is.null(p)) NULL else measure_info_of(p, NA_real_)
}

# The parameters a parsed measure's name sets, by name (rel, then the one
# of its record's parameter type).
measure_parameters <- function(r, x) {
  par <- switch(r$param,
    cutoff = , optcut = if (x$cutoff > 0) list(cutoff = x$cutoff),
    recall = list(recall = x$param), mult = list(mult = x$param), beta = list(beta = x$param),
    p = list(p = x$param), utility = list(utility = x$utility),
    NULL)
  c(if (x$rel > 0) list(rel = x$rel), par, if (isTRUE(x$judged_only)) list(judged_only = TRUE), list())
}

# The support of a discrete measure from its record's support kind: `n` is
# the cut-off, else `depth` (NA: not known). `values` (sorted; NULL when the
# support has no bound, depends on an unknown depth or is too large to
# list), `size` (number of values: Inf without a bound, NA when not known),
# `range` (a count's upper bound is n), `rule` (the support in words),
# `by_depth` (n is the depth).
measure_values <- function(r, x, depth) {
  n <- if (x$cutoff > 0) x$cutoff else depth
  nn <- if (is.na(n)) "n (the evaluation depth)" else fmt_num(n)
  size <- switch(r$support, none = NA_real_, fractions = , reciprocals = , counts = n + 1, ratios = NA_real_,
                 binary = 2, wholes = Inf, one = 1)
  listed <- if (r$support == "ratios") n <= max_ratio_cutoff else isTRUE(size <= max_support_values)
  values <- if (listed) {
    switch(r$support,
      fractions = (0:n) / n,
      ratios = sort(unique((sequence(seq_len(n) + 1L) - 1L) / rep.int(seq_len(n), seq_len(n) + 1L))),
      reciprocals = c(0, 1 / rev(seq_len(n))),
      binary = c(0, 1),
      counts = as.double(0:n),
      one = 1)
  }
  if (!is.null(values)) size <- length(values)
  range <- r$range
  if (r$support == "counts" && !is.na(n)) range[2] <- n
  rule <- switch(r$support,
    none = sprintf("any number in [%s, %s]", fmt_num(range[1]), fmt_num(range[2])),
    fractions = sprintf("i/%s for i = 0, ..., %s", nn, nn),
    ratios = sprintf("j/m for 0 <= j <= m <= %s", nn),
    reciprocals = if (identical(n, Inf)) "0 and 1/r for r = 1, 2, ..." else sprintf("0 and 1/r for r = 1, ..., %s", nn),
    binary = "0 and 1",
    counts = if (identical(n, Inf)) "0, 1, 2, ..." else sprintf("0, 1, ..., %s", nn),
    wholes = "0, 1, 2, ...",
    one = "1")
  list(values = values, size = as.double(size), range = range, rule = rule,
       by_depth = x$cutoff == 0 && r$support %in% c("reciprocals", "counts"))
}

measure_info_of <- function(p, depth) {
  r <- measure_rows()[[p$row]]
  v <- measure_values(r, p, depth)
  new_ir_measure_info(list(
    name = p$name, measure = r$id, parameters = measure_parameters(r, p), domain = r$domain,
    support = v$values, support_size = v$size, support_rule = v$rule, support_by_depth = v$by_depth,
    range = v$range,
    direction = r$direction, aggregate = r$aggregate, trec_eval = trec_eval_name(p), description = r$desc,
    depth = as.double(depth), fun = NULL, relevance = r$relevance))
}

new_ir_measure_info <- function(x) {
  new_result(x, "ir_measure_info", fields = c(
    name = "string", measure = "string", parameters = "list", domain = "string", support = "numeric?",
    support_size = "number", support_rule = "string", support_by_depth = "flag", range = "numeric",
    direction = "string",
    aggregate = "string", trec_eval = "string", description = "string", depth = "number", fun = "function?",
    relevance = "string?"))
}

#' What a measure's scores can be
#'
#' The facts the measure registry keeps about a measure (any spelling
#' [measure_name()] accepts), for the name's parameters: whether its
#' per-topic scores are **discrete** (only the values of a finite or
#' countable *support*) or **continuous** (any number of a *range*), that
#' support or range, which way is better, and how trec_eval summarises it.
#' [score_support()] and [simulation_model()] take the support of a
#' discrete measure from here.
#'
#' @section Value domains:
#' A measure is discrete when the values it can take are fixed by its
#' parameters: a count in the top k over k (`P@k`, `Judged@k`, `unj@k`:
#' \eqn{\{0, 1/k, \dots, 1\}}); a count over \eqn{\min(k, R)}
#' (`relative_P@k`: \eqn{j/m} for \eqn{0 \le j \le m \le k}); one over
#' the first relevant rank (`RR@k`: 0 and \eqn{1/r} for \eqn{r \le k};
#' `RR` without a cut-off: ranks up to the evaluation `depth`); `Success@k`
#' (0 or 1); and the counts (`Hits@k`: \eqn{0, \dots, k}; `NumRet`,
#' `NumRelRet`, `NumNonrelJudgedRet`: \eqn{0, \dots,} `depth`; `NumRel`:
#' any whole number; `NumQ`: 1).
#'
#' Ratios over a per-topic count that the name does not bound are
#' continuous on their range: `R-Prec` (\eqn{j/R}), `R@k` (\eqn{j/R}),
#' `Rprec_mult`, `IPrec`, `11pt_avg` and the set measures can take a
#' fraction \eqn{j/m} for every \eqn{m} up to the number of relevant
#' documents or of retrieved ones, hundreds of thousands of values close
#' together, which a margin fitted to tens of topics could not tell apart;
#' so are the sums (AP, nDCG, Bpref, infAP, ERR, RBP, ...). The ranges of
#' the gain measures (nDCG, G, ...) assume gains \eqn{\ge 0}.
#'
#' Direction: `"higher"` is better for the effectiveness measures; counts
#' that describe the run or the judgements (`NumRet`, `NumRel`, `NumQ`,
#' `NumNonrelJudgedRet`), the judged and unjudged fractions (`Judged@k`,
#' `unj@k`) and the RBP residual have none (`"none"`).
#'
#' @section Aggregate and direction:
#' Every number the package shows for a system over topics uses the
#' measure's **aggregate** (`aggregate`, what trec_eval prints on its `all`
#' line): the mean (MAP for AP), the geometric mean of the values floored
#' at \eqn{10^{-5}} for `gm_map` and `gm_bpref` (GMAP), the sum for the
#' counts (`NumRet`, `NumRel`, `NumRelRet`, `NumQ`, `NumNonrelJudgedRet`):
#' [mean_scores()], the print, `summary()` and `glance()` of an evaluation,
#' [means_table()], [mean_intervals()] (computed on the log scale for a
#' geometric mean), [rank_intervals()] and the systems a figure draws.
#' Where a number is something else it says so (the means that
#' [compare_systems()] tests are arithmetic means; its report labels them).
#' Every ranking, "best" mark and risk asks the **direction**: with
#' `"lower"` the smallest value is best ([rank_intervals()], the "best"
#' mark and order of [means_table()] and of a comparison's report,
#' [risk_summary()], [compare_qrels()]' leaderboards, [tau_interval()],
#' the default systems of a figure); `"none"` is ordered as `"higher"`.
#'
#' A score matrix whose measure the registry does not know (a user's
#' matrix, `"score"`, a custom function in [evaluate()]) is a mean and
#' higher is better, unless its record says otherwise: make one with
#' `custom_measure()` and give it to [as_ir_scores()] or [read_scores()]
#' (`measure = `) or to [evaluate()] (a custom measure with its function).
#'
#' @param measure Measure names (any spelling of [measures]).
#' @param depth The evaluation depth ([evaluate()]'s `depth`): the largest
#'   rank of `RR` without a cut-off and the largest count of `NumRet`,
#'   `NumRelRet` and `NumNonrelJudgedRet`. `Inf`: no bound.
#' @return For one name, an `ir_measure_info`: a list with `name` (canonical),
#'   `measure` (the registry's record), `parameters` (a named list: `rel`,
#'   `cutoff`, `recall`, `mult`, `beta`, `p` or `utility`, those the name
#'   sets), `domain` (`"discrete"` or `"continuous"`), `support` (the sorted
#'   values of a discrete measure; `NULL` when continuous, without a bound,
#'   or of more than 10 million values), `support_size` (`Inf` without a
#'   bound, `NA` when continuous or not counted), `support_rule` (the support
#'   in words), `support_by_depth` (whether the support's bound is `depth`),
#'   `range` (lowest and highest value), `direction` (`"higher"`,
#'   `"lower"` or `"none"`), `aggregate` (the summary over topics, as
#'   trec_eval's `all` line: `"mean"`, `"sum"` or `"gmean"`), `trec_eval`
#'   (trec_eval's name, or `NA`), `description`, `depth`, `fun` (`NULL`;
#'   a custom measure's function) and `relevance` (how the measure reads
#'   the grades: `"binary"`, relevant when the grade is at least the
#'   relevance level; `"graded"`, the grade as a gain, as nDCG and ERR do;
#'   `"none"`, counts that do not ask relevance; `NA` for a custom
#'   measure). For several names, `as.data.frame()` of
#'   each, bound by rows (one row per name; no `support` column).
#'
#'   `custom_measure()`: an `ir_measure_info` of a measure the registry
#'   does not know (`measure` and `trec_eval` are `NA`, `domain`
#'   `"continuous"`).
#' @seealso [measures] for the names, [score_support()].
#' @examples
#' measure_info("P.10")
#' measure_info("mrr@10")$support
#' measure_info("RR", depth = 100)
#' measure_info("R-Prec")
#' measure_info("gm_map")$aggregate
#' measure_info(c("AP", "P@10", "hits@5", "NumRel", "RBP_resid"))
#'
#' # A measure where lower is better: an error rate
#' err <- custom_measure("error rate", direction = "lower", range = c(0, 1))
#' m <- matrix(c(.10, .30, .20, .15, .25, .35), 2,
#'             dimnames = list(c("sysA", "sysB"), c("t1", "t2", "t3")))
#' summary(as_ir_scores(m, measure = err))  # sysA (mean 0.15) first
#'
#' # ... or computed by evaluate(): 1 when the top 10 hold no relevant document
#' miss10 <- custom_measure("Miss@10", function(grades, n_rel) {
#'   as.numeric(!any(grades[seq_len(min(10, length(grades)))] >= 1, na.rm = TRUE))
#' }, direction = "lower", range = c(0, 1))
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'          measures = list("AP", miss10))
#' @export
measure_info <- function(measure, depth = 1000) {
  if (!is.character(measure) || !length(measure) || anyNA(measure)) {
    stop_irtopics("{.arg measure} must be measure names (a character vector without NA), not {show_value(measure)}.")
  }
  depth <- check_whole(depth, "depth", min = 1, allow_inf = TRUE)
  call <- environment()
  out <- lapply(measure, function(s) measure_info_of(parse_measure(s, call = call), depth))
  if (length(out) == 1L) return(out[[1]])
  do.call(rbind, lapply(out, as.data.frame))
}

#' @rdname measure_info
#' @param name The custom measure's name (how results are labelled).
#' @param fun `NULL`, or the custom measure's function for [evaluate()]:
#'   `function(grades, n_rel)` (see "Measures" in [evaluate()]).
#' @param direction `"higher"` (default), `"lower"` or `"none"`: which
#'   values are better.
#' @param aggregate `"mean"` (default), `"gmean"` (the geometric mean of the
#'   values floored at \eqn{10^{-5}}, as trec_eval's `gm_map`) or `"sum"`:
#'   a system's summary over topics.
#' @param range The lowest and highest value the measure can take.
#' @param description One line saying what it is.
#' @export
custom_measure <- function(name, fun = NULL, direction = c("higher", "lower", "none"),
                           aggregate = c("mean", "gmean", "sum"), range = c(-Inf, Inf), description = NULL) {
  one_string <- function(v) is.character(v) && length(v) == 1L && !is.na(v) && nzchar(v)
  if (!one_string(name)) stop_irtopics("{.arg name} must be one non-empty string, not {show_value(name)}.")
  if (!is.null(fun) && !is.function(fun)) {
    stop_irtopics("{.arg fun} must be {.code NULL} or a function {.code function(grades, n_rel)}, not {.obj_type_friendly {fun}}.")
  }
  direction <- match_choice(direction)
  aggregate <- match_choice(aggregate)
  if (!is.numeric(range) || length(range) != 2L || anyNA(range) || range[1] > range[2]) {
    stop_irtopics("{.arg range} must be two numbers, lowest first, not {show_values(range)}.")
  }
  description <- description %||% "a custom measure"
  if (!one_string(description)) {
    stop_irtopics("{.arg description} must be one non-empty string, not {show_value(description)}.")
  }
  new_ir_measure_info(list(
    name = name, measure = NA_character_, parameters = list(), domain = "continuous", support = NULL,
    support_size = NA_real_, support_rule = sprintf("any number in [%s, %s]", fmt_num(range[1]), fmt_num(range[2])),
    support_by_depth = FALSE, range = as.double(range), direction = direction, aggregate = aggregate,
    trec_eval = NA_character_, description = description, depth = NA_real_, fun = fun,
    relevance = NA_character_))
}

# The record of a score matrix (an ir_scores, or the plain matrix of
# check_scores()): its measure's `name`, `aggregate` and `direction`, from
# the matrix's attributes (set from the record when the matrix was made:
# evaluate(), read_scores(), as_ir_scores(), read_trec_eval()), else from
# the registry by the name, else a mean where higher is better (a user's
# matrix). Every summary, ranking and "best" asks here.
score_record <- function(x) {
  name <- attr(x, "measure") %||% "score"
  r <- if (is.null(attr(x, "aggregate")) || is.null(attr(x, "direction"))) known_record(name)
  list(name = name, aggregate = attr(x, "aggregate") %||% r$aggregate %||% "mean",
       direction = attr(x, "direction") %||% r$direction %||% "higher")
}

# The registry's record of a measure name, or NULL when it knows no such
# name.
known_record <- local({
  cache <- new.env(parent = emptyenv())  # by name: the registry does not change
  function(name) {
    if (!is.character(name) || length(name) != 1L || is.na(name) || !nzchar(name)) return(NULL)
    if (!exists(name, envir = cache, inherits = FALSE)) {
      p <- parse_known_measure(name)
      assign(name, if (!is.null(p)) measure_rows()[[p$row]], envir = cache)
    }
    get(name, envir = cache, inherits = FALSE)
  }
})

# The records of several score matrices (a named list): a data frame
# measure, aggregate, direction, one row per matrix, in order.
score_records <- function(mats) {
  recs <- lapply(mats, score_record)
  data.frame(measure = names(mats) %||% character(), aggregate = vapply(recs, `[[`, "", "aggregate"),
             direction = vapply(recs, `[[`, "", "direction"), stringsAsFactors = FALSE, row.names = NULL)
}

# The record attributes a score matrix gets from `measure`: a name (the
# registry's record; for a name it does not know, `old`'s attributes, so
# that relabelling a matrix keeps its record) or an ir_measure_info
# (custom_measure(), measure_info()). A list of measure, aggregate and
# direction (NULL: not known).
record_attributes <- function(measure, old = NULL) {
  if (inherits(measure, "ir_measure_info")) {
    return(list(measure = measure$name, aggregate = measure$aggregate, direction = measure$direction))
  }
  r <- known_record(measure)
  list(measure = measure, aggregate = r$aggregate %||% attr(old, "aggregate"),
       direction = r$direction %||% attr(old, "direction"))
}

# +1 when larger values are better (also for a measure without direction:
# ordered by value, largest first), -1 when smaller ones are.
better_sign <- function(direction) if (identical(direction, "lower")) -1 else 1

# Methods -------------------------------------------------------------------------

#' @rdname measure_info
#' @param x An `ir_measure_info`.
#' @param ... Unused.
#' @export
format.ir_measure_info <- function(x, ...) {
  values <- if (x$domain == "continuous") {
    sprintf("continuous on [%s, %s]", fmt_num(x$range[1]), fmt_num(x$range[2]))
  } else {
    size <- if (is.na(x$support_size)) "" else if (is.infinite(x$support_size)) " (no bound)" else {
      sprintf(" (%s)", plural(x$support_size, "value"))
    }
    sprintf("discrete, %s%s", x$support_rule, size)
  }
  shown <- x$support
  if (length(shown) > 12L) shown <- c(utils::head(shown, 5L), NA, utils::tail(shown, 5L))
  support <- if (length(shown)) {
    paste0("support: ", paste(ifelse(is.na(shown), "...", format(shown, digits = 4, trim = TRUE)), collapse = ", "))
  }
  par <- if (length(x$parameters)) {
    paste0("parameters: ", paste(names(x$parameters), vapply(x$parameters, function(v) paste(fmt_num(v), collapse = ","), ""),
                                 sep = " = ", collapse = ", "))
  }
  better <- switch(x$direction, higher = "higher is better", lower = "lower is better",
                   "no direction (a count or a diagnostic)")
  total <- aggregate_labels[[x$aggregate]]
  c(sprintf("<ir_measure_info> %s: %s", x$name, x$description),
    paste0("values: ", values), support, par,
    sprintf("%s; trec_eval: %s (%s over topics)", better, if (is.na(x$trec_eval)) "none" else x$trec_eval, total))
}

#' @rdname measure_info
#' @export
print.ir_measure_info <- function(x, ...) print_formatted(x, ...)

#' @rdname measure_info
#' @param object An `ir_measure_info`.
#' @export
summary.ir_measure_info <- function(object, ...) {
  new_summary("ir_measure_info", format(object)[1], as.data.frame(object))
}

#' @rdname measure_info
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_measure_info <- function(x, row.names = NULL, optional = FALSE, ...) {
  data.frame(name = x$name, measure = x$measure, domain = x$domain, support_size = x$support_size,
             lower = x$range[1], upper = x$range[2], direction = x$direction, aggregate = x$aggregate,
             trec_eval = x$trec_eval, description = x$description, stringsAsFactors = FALSE)
}
