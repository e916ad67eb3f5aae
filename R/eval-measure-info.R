# The values of a measure ----------------------------------------------------------
#
# What a measure's per-topic scores can be: its record's value domain and
# direction (src/measure_table.h, read by measure_registry()) with the
# parameters of its name (parse_measure()). measure_info() shows it;
# score_support() and simulation_model() (simulation_spec()) ask here, and
# the families that label AP ask is_measure(): no other code reads a
# measure name to find out what it is.

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
    direction = r$direction, summary = r$summary, trec_eval = trec_eval_name(p), description = r$desc,
    depth = as.double(depth)))
}

new_ir_measure_info <- function(x) {
  new_result(x, "ir_measure_info", fields = c(
    name = "string", measure = "string", parameters = "list", domain = "string", support = "numeric?",
    support_size = "number", support_rule = "string", support_by_depth = "flag", range = "numeric",
    direction = "string",
    summary = "string", trec_eval = "string", description = "string", depth = "number"))
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
#'   `"lower"` or `"none"`), `summary` (trec_eval's summary over topics:
#'   `"mean"`, `"sum"` or `"gmean"`), `trec_eval` (trec_eval's name, or `NA`),
#'   `description` and `depth`. For several names, `as.data.frame()` of
#'   each, bound by rows (one row per name; no `support` column).
#' @seealso [measures] for the names, [score_support()].
#' @examples
#' measure_info("P.10")
#' measure_info("mrr@10")$support
#' measure_info("RR", depth = 100)
#' measure_info("R-Prec")
#' measure_info(c("AP", "P@10", "hits@5", "NumRel", "RBP_resid"))
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
  total <- switch(x$summary, mean = "mean", sum = "sum", gmean = "geometric mean")
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
             lower = x$range[1], upper = x$range[2], direction = x$direction, summary = x$summary,
             trec_eval = x$trec_eval, description = x$description, stringsAsFactors = FALSE)
}
