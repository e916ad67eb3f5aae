# Indicators ------------------------------------------------------------------

#' Topic indicators of system behaviour over query variants
#'
#' For every topic and system, Liggett & Buckley's (2005) four indicators over
#' the topic's \eqn{n_Q} best queries (chosen by [select_queries()]):
#' exclusion \eqn{E} (the mean of \eqn{-\log_{10}(N_{25}+1)}), uniformity
#' \eqn{U} of the relevant-document return order (how tightly the queries'
#' return orders cluster), centering \eqn{C} of the best query (how near the
#' best query is to the centre of the cloud compared with the average query)
#' and sphericity \eqn{S} (how round the cloud is), plus the mean average
#' precision over the same queries (the paper's appendix).
#'
#' @section Reconstruction:
#' The equations of Liggett & Buckley (2005) did not survive in the available
#' copy of the paper; irtopics reconstructs them from the paper's verbal
#' definitions and its figures, so that the indicators behave as the paper
#' describes. With \eqn{\delta_{jk}} the
#' return-order dissimilarity ([return_order_dissimilarity()]) between the
#' lists of queries \eqn{j, k} of the same system, \eqn{B = -\frac12 J D_2 J}
#' the double-centred matrix of \eqn{\delta^2} (classical multidimensional
#' scaling), \eqn{\bar a = \mathrm{tr}(B)/n}, and \eqn{\lambda_1} the
#' largest eigenvalue of \eqn{B}:
#' * \eqn{E = \frac1n \sum_j -\log_{10}(N_{25,j} + 1)} (see
#'   [exclusion_measure()] for \eqn{N_{25}});
#' * \eqn{U = -\log \bar a};
#' * \eqn{C = -\log(B_{11} / \bar a)}, query 1 being the best query;
#' * \eqn{S = -\log \lambda_1 - U = -\log(\lambda_1/\bar a)}.
#'
#' The logarithm of \eqn{U, C, S} is natural by default (`base`); the paper
#' states base 10 only for the exclusion measure. The conversion
#' \eqn{\delta = \sqrt{2(1-s)}} (`dissimilarity`) is also a reconstruction.
#' Indicators are `NA` when fewer than two queries are selected or a
#' dissimilarity is undefined; \eqn{C} is `Inf` when the best query sits at
#' the centre.
#'
#' @section Your own indicators:
#' `indicators` adds indicators of your own next to \eqn{E, U, C, S}: a
#' named list of functions, each called once per topic and system with one
#' argument, the *context* of that topic and system, and returning one
#' number. The context (class `ir_indicator_context`) is a list with
#' * `topic`, `system`: the ids;
#' * `queries`: the selected queries in selection order (the first is the
#'   best query), `letters` their letters and `selection_order` (`1..n`);
#' * `delta`: the \eqn{n \times n} matrix of return-order dissimilarities
#'   between the selected queries' lists, in selection order;
#' * `B`: its double-centred matrix \eqn{-\frac12 J \delta^2 J}, and
#'   `eigenvalues`: the eigenvalues of `B`, largest first (`NA` when
#'   \eqn{n < 2} or a dissimilarity is undefined);
#' * per selected query, in selection order: `n_returned` (relevant
#'   documents returned within `depth`), `n25` (\eqn{N_{25}}), `exclusion`
#'   (\eqn{-\log_{10}(N_{25}+1)}) and `ap` (average precision);
#' * `n_rel`, `depth`, `fraction`, `base`: the topic's number of relevant
#'   documents and the parameters of the call.
#'
#' The built-in indicators are exported in this form
#' ([indicator_exclusion()], [indicator_uniformity()],
#' [indicator_centering()], [indicator_sphericity()], all four in
#' [builtin_indicators()]), so a new indicator can start from one of them;
#' `topic_indicators()` computes \eqn{E, U, C, S} with these very functions.
#'
#' @inheritParams select_queries
#' @inheritParams return_order_dissimilarity
#' @param fraction Fraction of relevant documents for \eqn{N_{25}}.
#' @param base Base of the logarithm of \eqn{U, C, S}.
#' @param indicators `NULL`, or a named list of functions of the context
#'   (see "Your own indicators"), computed next to \eqn{E, U, C, S}; their
#'   names become columns and must differ from the built-in columns.
#' @return An object of class `ir_topic_indicators`: `indicators`, a tidy
#'   data frame (`topic, system, n_rel, n_queries, E, U, C, S, AP`, then
#'   your own indicators); `indicator_names`, the indicator columns; `queries`,
#'   the per-list values over the selected queries (`topic, system, query,
#'   letter, text, selection_order, n_returned, n25, exclusion, ap`);
#'   `selection` (as [select_queries()]); and the parameters. `autoplot()`
#'   draws the per-query exclusion of one topic (Figure 1 of the paper) or
#'   the mean AP against \eqn{E} (Figure 13); [indicator_differences()] gives
#'   Figures 7 and 8.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' ind
#'
#' # An indicator of your own: the spread of AP over the selected queries
#' ind2 <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200,
#'                          indicators = list(sd_AP = function(context) sd(context$ap)))
#' head(as.data.frame(ind2))
#' @export
topic_indicators <- function(runs, qrels = NULL, query_map = NULL, n = 20L, fraction = 0.25,
                             depth = 1000L, dissimilarity = c("sqrt2", "sqrt"),
                             tie_correction = TRUE, base = exp(1), tol = 1e-12, use_text = TRUE,
                             topics = NULL, relevance_level = 1L, n_threads = irtopics_threads(),
                             indicators = NULL) {
  check_number(n, "n", min = 2, integer = TRUE)
  check_number(fraction, "fraction", min = 0, max = 1)
  if (fraction <= 0) stop_irtopics("{.arg fraction} must be larger than 0.")
  check_number(base, "base", min = 0, max = .Machine$double.xmax)
  if (base == 1 || base == 0) stop_irtopics("{.arg base} must be positive and not 1.")
  check_number(tol, "tol", min = 0)
  check_flag(use_text)
  check_flag(tie_correction)
  dissimilarity <- match_dissimilarity(dissimilarity)
  n_threads <- resolve_threads(n_threads)
  user <- check_indicators(indicators)
  all_ind <- c(builtin_indicators(), user)
  prep <- prepare_orders(runs, qrels, query_map, depth, !missing(depth), relevance_level, topics,
                         n_threads)
  orders <- prep$orders
  depth <- prep$depth
  tops <- selected_topics(orders, topics)
  n_rel <- vapply(tops, function(t) nrow(orders$orders[[t]]), 0L)
  if (any(n_rel == 0L)) {
    warn_irtopics(c("{sum(n_rel == 0L)} topic{?s} without relevant documents {?is/are} left out.",
                    "i" = "{.val {tops[n_rel == 0L]}}"), kind = "data")
    tops <- tops[n_rel > 0L]
    if (!length(tops)) stop_irtopics("No topic has relevant documents.", kind = "data")
  }
  env <- environment()
  per_topic <- lapply(tops, function(t) {
    a <- analyse_topic(orders, t, n, fraction, depth, dissimilarity, tie_correction, tol,
                       use_text, n_threads, call = env)
    sel <- a$accepted
    ind <- lapply(a$systems, function(s) {
      li <- a$lists[a$lists$system == s, ]
      li <- li[match(sel, li$query), ]
      dl <- a$deltas[[s]][list_id(s, sel), list_id(s, sel), drop = FALSE]
      ctx <- indicator_context(t, s, sel, dl, li, a$n_rel, depth, fraction, base)
      vals <- lapply(names(all_ind), function(nm) call_indicator(all_ind[[nm]], nm, ctx, env))
      names(vals) <- names(all_ind)
      row <- as.data.frame(c(list(topic = t, system = s, n_rel = a$n_rel, n_queries = length(sel)),
                             vals[c("E", "U", "C", "S")], list(AP = mean(li$ap)), vals[names(user)]),
                           check.names = FALSE, stringsAsFactors = FALSE)
      attr(row, "reason") <- undefined_reason(length(sel), a$n_rel, li$n_returned, dl)
      row
    })
    q <- a$lists[a$lists$query %in% sel, ]
    q$selection_order <- match(q$query, sel)
    q$letter <- query_letters(length(sel))[q$selection_order]
    q <- q[order(q$system, q$selection_order),
           c("topic", "system", "query", "letter", "text", "selection_order", "n_rel",
             "n_returned", "n25", "exclusion", "ap")]
    reason <- vapply(ind, attr, "", "reason")
    ind <- do.call(rbind, ind)
    attr(ind, "reason") <- NULL
    list(ind = ind, reason = reason, queries = q,
         selection = a$selection)
  })
  ind <- do.call(rbind, lapply(per_topic, `[[`, "ind"))
  rownames(ind) <- NULL
  undefined <- undefined_table(ind, unlist(lapply(per_topic, `[[`, "reason")))
  if (nrow(undefined)) warn_irtopics(undefined_line(undefined, length(tops)), kind = "data")
  queries <- do.call(rbind, lapply(per_topic, `[[`, "queries"))
  rownames(queries) <- NULL
  selection <- do.call(rbind, lapply(per_topic, `[[`, "selection"))
  rownames(selection) <- NULL
  new_ir_topic_indicators(list(indicators = ind, queries = queries, selection = selection,
                 undefined = undefined,
                 indicator_names = c("E", "U", "C", "S", "AP", names(user)),
                 n = as.integer(n), fraction = fraction, depth = depth,
                 dissimilarity = dissimilarity, tie_correction = tie_correction, base = base,
                 tol = tol, use_text = use_text,
                 simulated = isTRUE(attr(orders, "simulated"))))
}

new_ir_topic_indicators <- function(x) {
  new_result(x, "ir_topic_indicators",
             fields = c(indicators = "data.frame", queries = "data.frame", selection = "data.frame",
                        undefined = "data.frame", indicator_names = "character", n = "number", fraction = "number", depth = "number",
                        simulated = "flag"))
}

# Indicator functions -----------------------------------------------------------

# The per-topic, per-system context every indicator function receives (see
# "Your own indicators" in ?topic_indicators).
indicator_context <- function(topic, system, queries, delta, lists, n_rel, depth, fraction, base) {
  n <- length(queries)
  delta <- unname(delta)
  dimnames(delta) <- list(queries, queries)
  B <- matrix(NA_real_, n, n, dimnames = list(queries, queries))
  eig <- rep(NA_real_, n)
  if (n >= 2L && !anyNA(delta)) {
    d2 <- delta^2
    B[] <- -0.5 * (d2 - outer(rowMeans(d2), colMeans(d2), `+`) + mean(d2))
    eig <- eigen(B, symmetric = TRUE, only.values = TRUE)$values
  }
  new_ir_indicator_context(list(topic = topic, system = system, queries = queries,
                 letters = query_letters(max(1L, n))[seq_len(n)], selection_order = seq_len(n),
                 delta = delta, B = B, eigenvalues = eig,
                 n_returned = lists$n_returned, n25 = lists$n25, exclusion = lists$exclusion,
                 ap = lists$ap, n_rel = n_rel, depth = depth, fraction = fraction, base = base))
}

new_ir_indicator_context <- function(x) {
  new_result(x, "ir_indicator_context",
             fields = c(topic = "string", system = "string", queries = "character", letters = "character",
                        delta = "matrix", B = "matrix", eigenvalues = "numeric", n_rel = "number",
                        depth = "number", fraction = "number"))
}

check_indicators <- function(indicators, call = rlang::caller_env()) {
  if (is.null(indicators)) return(list())
  nms <- names(indicators)
  if (!is.list(indicators) || !length(indicators) || is.null(nms) || any(!nzchar(nms)) ||
      anyNA(nms) || anyDuplicated(nms) || !all(vapply(indicators, is.function, TRUE))) {
    stop_irtopics("{.arg indicators} must be a list of functions with unique names, e.g. {.code list(my_indicator = function(context) ...)}.",
                  call = call)
  }
  taken <- c("topic", "system", "n_rel", "n_queries", "E", "U", "C", "S", "AP")
  clash <- intersect(nms, taken)
  if (length(clash)) {
    stop_irtopics(c("{.arg indicators} must not use the name{?s} {.val {clash}}, which {?is a built-in column/are built-in columns}.",
                    i = "Give your version another name, e.g. {.val {paste0(clash[1], '2')}}."),
                  call = call)
  }
  indicators
}

call_indicator <- function(f, name, context, call) {
  call_user(f, list(context), sprintf('Indicator "%s"', name),
            where = list(topic = context$topic, system = context$system), kind = "data", call = call)
}

#' The built-in topic indicators as functions of the context
#'
#' The four indicators of Liggett & Buckley (2005) that [topic_indicators()]
#' computes, written as functions of the per-topic, per-system context
#' described in "Your own indicators" of [topic_indicators()]. They are the
#' functions `topic_indicators()` itself uses, so passing them as
#' `indicators` (under other names) gives identical values; copy one to
#' start an indicator of your own.
#' * `indicator_exclusion()`: \eqn{E}, the mean of \eqn{-\log_{10}(N_{25} +
#'   1)} over the selected queries.
#' * `indicator_uniformity()`: \eqn{U = -\log \bar a} with
#'   \eqn{\bar a = \mathrm{tr}(B)/n}.
#' * `indicator_centering()`: \eqn{C = -\log(B_{11}/\bar a)}.
#' * `indicator_sphericity()`: \eqn{S = -\log(\lambda_1/\bar a)}.
#'
#' Logarithms are in `context$base`. \eqn{U, C, S} are `NA` when fewer than
#' two queries are selected or a dissimilarity is undefined, and \eqn{C} and
#' \eqn{S} are `NA` when all queries coincide (\eqn{\bar a = 0}).
#'
#' @param context An `ir_indicator_context`, as passed by
#'   [topic_indicators()].
#' @return One number; `builtin_indicators()` returns the named list
#'   `list(E = , U = , C = , S = )` of the four functions.
#' @references Liggett, W. & Buckley, C. (2005). System performance and
#'   natural language expression of information needs. *Information
#'   Retrieval* 8, 101-128.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 1)
#' # log10 uniformity next to the natural-log U, built from indicator_uniformity()
#' u10 <- function(context) indicator_uniformity(context) / log(10)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
#'                         indicators = list(U10 = u10, E_again = indicator_exclusion))
#' as.data.frame(ind)[, c("topic", "system", "E", "E_again", "U", "U10")]
#' @export
builtin_indicators <- function() {
  list(E = indicator_exclusion, U = indicator_uniformity, C = indicator_centering,
       S = indicator_sphericity)
}

#' @rdname builtin_indicators
#' @export
indicator_exclusion <- function(context) mean(context$exclusion)

#' @rdname builtin_indicators
#' @param x An `ir_indicator_context` (`format()` gives its lines, `print()`
#'   shows them: what an indicator function sees).
#' @param ... Unused.
#' @export
format.ir_indicator_context <- function(x, ...) {
  c(sprintf("<ir_indicator_context> topic %s, system %s: %s selected (%d relevant, depth %d)", x$topic, x$system,
            plural(length(x$queries), "query", "queries"), as.integer(x$n_rel), as.integer(x$depth)),
    if (length(x$queries)) {
      printed_lines(print(round_df(data.frame(letter = x$letters, query = x$queries, n_returned = x$n_returned,
                                              n25 = x$n25, exclusion = x$exclusion, ap = x$ap)),
                          row.names = FALSE))
    })
}

#' @rdname builtin_indicators
#' @export
print.ir_indicator_context <- function(x, ...) print_formatted(x, ...)

# tr(B) / n, NA when the cloud is undefined.
cloud_abar <- function(context) {
  n <- length(context$queries)
  if (n < 2L || anyNA(context$B)) return(NA_real_)
  sum(diag(context$B)) / n
}

#' @rdname builtin_indicators
#' @export
indicator_uniformity <- function(context) -log(cloud_abar(context)) / log(context$base)

#' @rdname builtin_indicators
#' @export
indicator_centering <- function(context) {
  abar <- cloud_abar(context)
  if (is.na(abar) || abar <= 0) return(NA_real_)
  -log(context$B[1, 1] / abar) / log(context$base)
}

#' @rdname builtin_indicators
#' @export
indicator_sphericity <- function(context) {
  abar <- cloud_abar(context)
  if (is.na(abar) || abar <= 0) return(NA_real_)
  -log(max(context$eigenvalues) / abar) / log(context$base)
}

#' @rdname topic_indicators
#' @param x,object An `ir_topic_indicators` object.
#' @param digits Digits of the printed numbers.
#' @param ... Unused.
#' @export
format.ir_topic_indicators <- function(x, digits = 3, ...) {
  check_shown(digits = digits)
  df <- x$indicators
  c(sprintf("<ir_topic_indicators> %s x %s, up to %d queries each%s",
            plural(length(unique(df$topic)), "topic"), plural(length(unique(df$system)), "system"),
            x$n, if (x$simulated) " (simulated data)" else ""),
    undefined_line(x$undefined, length(unique(df$topic))),
    printed_lines(print(round_df(utils::head(df, 12), digits), row.names = FALSE)),
    more_line(row = nrow(df) - 12))
}

#' @rdname topic_indicators
#' @export
print.ir_topic_indicators <- function(x, digits = 3, ...) print_formatted(x, digits = digits)

#' @rdname topic_indicators
#' @export
summary.ir_topic_indicators <- function(object, ...) {
  df <- object$indicators
  vars <- indicator_columns(object)
  und <- object$undefined
  out <- do.call(rbind, lapply(split(df, df$system), function(d) {
    data.frame(system = d$system[1], topics = nrow(d),
               undefined = if (is.null(und)) NA_integer_ else sum(und$system == d$system[1]),
               t(vapply(vars, function(v) mean(d[[v]][is.finite(d[[v]])]), 0)),
               check.names = FALSE)
  }))
  new_summary("ir_topic_indicators",
              c("Mean indicators per system over the topics where each is finite (`undefined`: topics with NA U, C, S):",
                undefined_line(und, length(unique(df$topic)))), out)
}

#' @rdname topic_indicators
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_topic_indicators <- function(x, row.names = NULL, optional = FALSE, ...) x$indicators

# Indicator columns of a result (objects made before user indicators existed
# have the four built-ins and AP).
indicator_columns <- function(x) x$indicator_names %||% c("E", "U", "C", "S", "AP")

#' System-to-system differences of the topic indicators
#'
#' For two systems, the per-topic differences \eqn{a - b} of the indicators
#' of [topic_indicators()] (the paper's Figures 7 and 8 plot them, one point
#' per topic, to find topics worth studying), and of the mean AP over the
#' same queries.
#'
#' @param x An `ir_topic_indicators` object; for the methods, an
#'   `ir_indicator_differences` object.
#' @param system_a,system_b The two systems (differences are `a - b`).
#' @return An object of class `ir_indicator_differences`: `differences`, a
#'   data frame (`topic, E, U, C, S, AP` and any indicator of your own, each
#'   a difference), and the system names. `autoplot(type = "EU")` draws Figure 7 (exclusion against
#'   uniformity), `"CS"` Figure 8 (centering against sphericity), `"AP"` the
#'   AP difference against the exclusion difference.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 3, n_queries = 8, n_docs = 300,
#'                            depth = 200, seed = 1)
#' ind <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 5, depth = 200)
#' indicator_differences(ind, sim$truth$systems$system[1], sim$truth$systems$system[2])
#' @export
indicator_differences <- function(x, system_a, system_b) {
  if (!inherits(x, "ir_topic_indicators")) {
    stop_irtopics("{.arg x} must be an {.cls ir_topic_indicators} object.")
  }
  df <- x$indicators
  for (s in list(system_a, system_b)) {
    if (!is.character(s) || length(s) != 1L || !s %in% df$system) {
      stop_irtopics("{.arg system_a} and {.arg system_b} must name systems of {.arg x}: {.val {unique(df$system)}}.")
    }
  }
  a <- df[df$system == system_a, ]
  b <- df[df$system == system_b, ]
  tops <- intersect(a$topic, b$topic)
  a <- a[match(tops, a$topic), ]
  b <- b[match(tops, b$topic), ]
  vars <- indicator_columns(x)
  out <- data.frame(topic = tops, a[vars] - b[vars], check.names = FALSE)
  rownames(out) <- NULL
  und <- x$undefined
  if (!is.null(und)) {
    und <- und[und$system %in% c(system_a, system_b) & und$topic %in% tops, , drop = FALSE]
    rownames(und) <- NULL
  }
  new_ir_indicator_differences(list(differences = out, system_a = system_a, system_b = system_b,
                                    indicator_names = vars, undefined = und, simulated = x$simulated))
}

new_ir_indicator_differences <- function(x) {
  new_result(x, "ir_indicator_differences",
             fields = c(differences = "data.frame", system_a = "string", system_b = "string",
                        indicator_names = "character", undefined = "data.frame?", simulated = "flag"))
}

#' @rdname indicator_differences
#' @param digits Digits of the printed numbers.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @export
format.ir_indicator_differences <- function(x, digits = 3, ...) {
  check_shown(digits = digits)
  c(sprintf("<ir_indicator_differences> %s - %s over %s%s", x$system_a, x$system_b,
            plural(nrow(x$differences), "topic"), if (x$simulated) " (simulated data)" else ""),
    sub("U, C and S are NA", "The U, C and S differences are NA",
        undefined_line(x$undefined, nrow(x$differences))),
    printed_lines(print(round_df(x$differences, digits), row.names = FALSE)))
}

#' @rdname indicator_differences
#' @export
print.ir_indicator_differences <- function(x, digits = 3, ...) print_formatted(x, digits = digits)

#' @rdname indicator_differences
#' @param object An `ir_indicator_differences` object.
#' @export
summary.ir_indicator_differences <- function(object, ...) {
  d <- object$differences
  vars <- indicator_columns(object)
  tab <- do.call(rbind, lapply(vars, function(v) {
    f <- d[[v]][is.finite(d[[v]])]
    data.frame(indicator = v, topics = length(f), a_higher = sum(f > 0), b_higher = sum(f < 0),
               mean_difference = if (length(f)) mean(f) else NA_real_,
               median_difference = if (length(f)) stats::median(f) else NA_real_)
  }))
  new_summary("ir_indicator_differences",
              c(sprintf("Indicator differences %s - %s over the topics where both are finite (`topics`):",
                        object$system_a, object$system_b),
                sub("U, C and S are NA", "The U, C and S differences are NA",
                    undefined_line(object$undefined, nrow(d)))),
              tab)
}

#' @rdname indicator_differences
#' @export
as.data.frame.ir_indicator_differences <- function(x, row.names = NULL, optional = FALSE, ...) x$differences
