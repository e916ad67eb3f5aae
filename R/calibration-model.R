# Stochastic simulation of new topics (Urbano & Nagler 2018): the fitted
# model of one or more collections (margins per system, a copula per pair)
# and simulate_scores().

#' Fit the simulation model of a collection
#'
#' Fits what the stochastic simulation of new topics needs (Urbano & Nagler
#' 2018): for every system a distribution of its per-topic scores (a
#' *margin*, see [fit_margin()]), and for every pair of systems a bivariate
#' copula of their pseudo-observations. [simulate_scores()] draws new
#' systems x topics matrices from it, and [test_calibration()] uses it to
#' measure the error rates of significance tests.
#'
#' @section Preparation: As in Urbano, Lima & Hanjalic (2019), each
#'   collection first loses its duplicate systems (score vectors equal within
#'   `duplicate_tol` on every topic; the first is kept) and then the systems
#'   whose mean score is below the `drop_bottom` quantile of the means (the
#'   bottom 10% by default). At least 3 systems must remain.
#'
#' @section Copulas: For every pair (i, j), i before j, the pseudo-observations
#'   are \eqn{u = rank / (n + 1)} of the two score vectors, with ties handled
#'   by `ties`: `"random"` (the default, as the 2019 study: tied scores get
#'   their ranks in a random order fixed by `seed`) or `"average"` (tied
#'   scores share their mean rank, so no seed is involved). A copula is fitted by maximum likelihood to
#'   each candidate family and the one with the lowest AIC is kept. The
#'   families and their codes are VineCopula's (90, 180, 270: rotated by
#'   that many degrees): `r copula_code_list()`.
#'   As in `VineCopula::BiCopSelect()`, the rotations by 90 and 270 degrees
#'   (negative dependence) are candidates only when the pair's Kendall tau is
#'   negative, those by 0 and 180 degrees only when it is positive.
#'
#' `copulas` takes codes, or the name of a set:
#'
#' `r copula_sets_help()`
#'
#' The default, `"study2019"`, is what the 2019 study used
#' (`BiCopSelect()` with its default family set). `"all"` was the
#' default's name when those were all the families the package had, and
#' stays that set: a family added since is in no set but `"registered"`
#' until its record says otherwise, so no default moves.
#'
#' Our specification named only the one-parameter families, the t copula and
#' their rotations (`copulas = "basic"`), and said that the rotations make
#' simulated pairs non-exchangeable; in fact the asymmetric Tawn copulas
#' are what do (the others are exchangeable, except the 90 and 270 degree
#' rotations, which fit negatively dependent pairs and are rarely chosen).
#' An exchangeable pair has differences symmetric around 0 when both
#' systems share a margin, so with `"basic"` the Wilcoxon and sign tests
#' keep their level, and the study's inflated Type I errors of those tests
#' are not reproduced (`vignette("calibration")`).
#'
#' The fits are our own C++ implementation; the tests compare densities,
#' h-functions and selected families with VineCopula's (when installed).
#'
#' @param scores An `ir_scores` (or numeric matrix, systems x topics) of one
#'   collection, or a named list of them (collections of the same measure).
#' @param type `"continuous"` or `"discrete"` margins; `NULL` (default)
#'   asks the measure registry about the scores' measure (any spelling:
#'   `"P@10"`, `"P.10"`, `"precision@10"`, `"mrr@10"`; see [measure_info()]):
#'   a discrete measure gets discrete margins on its support (P@k:
#'   \eqn{\{0, 1/k, \ldots, 1\}}; RR@k: 0 and \eqn{1/r}, \eqn{r \le k};
#'   Success@k, Judged@k, relative_P@k), a continuous one continuous
#'   margins. `RR` without a cut-off needs `support` (its values depend on
#'   the evaluation depth, which a score matrix does not record); a measure
#'   the registry does not know (a custom measure) is continuous.
#' @param support The support of a discrete measure (the values its scores
#'   can take), e.g. `measure_info("RR", depth = 1000)$support` for RR at
#'   depth 1000; `NULL` for the registry's.
#' @param margins The candidate margin families, names or the name of a set
#'   (`"default"`, the default; `NULL` is the same; see [fit_margin()],
#'   Sets of families).
#' @param atom_share,mean_tol Passed to [fit_margin()] for every margin: the
#'   share of scores at 0 or 1 from which a point mass is modelled, and the
#'   largest distance between a margin's expected value and its scores'
#'   mean left as fitted (`mean_tol = Inf`: the maximum likelihood fits as
#'   they are, as the 2019 study used them).
#' @param copulas The candidate copula families: the name of a set
#'   (`"study2019"`, the default, `"all"`, `"basic"`, `"registered"`) or a
#'   vector of codes (see Copulas).
#' @param drop_bottom Share of systems with the lowest mean to drop (0 keeps
#'   all).
#' @param duplicate_tol Systems whose scores differ by at most this on every
#'   topic are duplicates.
#' @param ties How tied scores of a system are ranked for its
#'   pseudo-observations: `"random"` or `"average"` (see Copulas). Ties
#'   matter where many scores are equal: on nDCG@20 with a fifth of the
#'   topics at 0, the random order of the zeros is part of the fitted
#'   copulas, and Wilcoxon and sign-test rates differ by about 3 Monte Carlo
#'   standard errors between fits with different seeds (issue 29's audit).
#'   `"average"` removes that dependence on the seed; `"random"` keeps the
#'   study's choice.
#' @param seed Seed of the random tie-breaking of the pseudo-observations
#'   (`NULL`: the current RNG stream).
#' @param n_threads Threads for the copula fits. With 2 or more (counted
#'   after the limits of [irtopics_threads()]: 1 in a forked child, at most
#'   `OMP_THREAD_LIMIT`), that many C++ workers fit the copulas of a
#'   collection while R fits its margins on its own thread; with 1, the
#'   copulas are fitted after the margins, on R's thread (one core
#'   throughout).
#' @inheritParams irtopics_progress
#' @return An `ir_sim_model`: a list with `collections` (per collection: its
#'   `systems`, `margins` (a list of `ir_margin`), `copulas` (a data frame,
#'   one row per pair: `system1`, `system2`, `family` (code), `copula`
#'   (name), `par`, `par2`, `tau` (of the fitted copula), `tau_empirical`,
#'   `loglik`, `aic`), the pseudo-observations `pobs` (topics x systems) and
#'   `dropped` (the systems left out and why)), `measure`, `type`, `support`,
#'   `margin_families` (the candidate margin families' names),
#'   `copula_families` (the candidate codes), `drop_bottom`, `ties`,
#'   `atom_share`, `mean_tol`.
#' @references J. Urbano and T. Nagler (2018). Stochastic simulation of test
#'   collections: evaluation scores. SIGIR.
#'
#'   J. Urbano, H. Lima and A. Hanjalic (2019). Statistical significance
#'   testing in information retrieval: an empirical analysis of Type I, Type
#'   II and Type III errors. SIGIR.
#' @seealso [simulate_scores()], [test_calibration()], [fit_margin()].
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' ap <- read_scores(path, measure = "AP")
#' model <- simulation_model(ap[1:12, ], seed = 1)
#' model
#' head(as.data.frame(model))
#' @export
simulation_model <- function(scores, type = NULL, support = NULL, margins = "default",
                             copulas = "study2019", drop_bottom = 0.1, duplicate_tol = 1e-5,
                             ties = c("random", "average"), atom_share = 0.1, mean_tol = 0.001, seed = NULL,
                             n_threads = irtopics_threads(), progress = NULL) {
  mats <- collection_list(scores)
  measure <- common_measure(mats)
  spec <- simulation_spec(measure, type, support)
  check_number(drop_bottom, "drop_bottom", min = 0, max = 0.9)
  check_number(duplicate_tol, "duplicate_tol", min = 0)
  ties <- match_choice(ties)
  check_number(atom_share, "atom_share", min = 0, max = 1)
  check_number(mean_tol, "mean_tol", min = 0)
  check_seed(seed)
  margins <- check_families(margins, spec$type, arg = "margins")
  copulas <- check_copula_families(copulas)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  cols <- with_seed(seed, lapply(names(mats), function(nm) {
    prepared <- prepare_collection(mats[[nm]], nm, drop_bottom, duplicate_tol)
    m <- prepared$scores
    # pseudo-observations: ranks / (n + 1), ties in a random order (R's RNG,
    # seeded, drawn here) or at their mean rank
    pobs <- apply(m, 1L, function(x) rank(x, ties.method = ties)) / (ncol(m) + 1)
    dimnames(pobs) <- list(colnames(m), rownames(m))
    list(name = nm, scores = m, pobs = pobs, dropped = prepared$dropped)
  }))
  # the margins are fitted in R, system by system: a progress bar over all of
  # them (option irtopics.progress, else in interactive sessions)
  total <- sum(vapply(cols, function(col) nrow(col$scores), 1L))
  show <- irtopics_progress() && total > 1L
  pb <- if (show) cli::cli_progress_bar(progress_label("fitting margins"), total = total, .envir = environment())
  # the copulas need only the pseudo-observations: C++ threads fit them
  # while R fits the margins (calibration-copula-jobs.R)
  out <- lapply(cols, function(col) {
    m <- col$scores
    fitted <- fit_beside_copulas(col$pobs, copulas, n_threads, function() {
      fits <- lapply(rownames(m), function(s) {
        if (show) cli::cli_progress_update(id = pb)
        tryCatch(fit_margin(m[s, ], type = spec$type, support = spec$support, families = margins,
                            atom_share = atom_share, mean_tol = mean_tol),
                 irtopics_error = function(e) {
                   stop_irtopics(c("Can't fit a margin to system {.val {s}} of collection {.val {col$name}}.",
                                   x = conditionMessage(e)), kind = "data", parent = e)
                 })
      })
      names(fits) <- rownames(m)
      fits
    })
    list(name = col$name, systems = rownames(m), scores = m, margins = fitted$margins,
         copulas = fitted$copulas, pobs = col$pobs, dropped = col$dropped)
  })
  names(out) <- names(mats)
  new_ir_sim_model(list(collections = out, measure = measure, type = spec$type, support = spec$support,
                        margin_families = margins, copula_families = copulas, drop_bottom = drop_bottom,
                        ties = ties, atom_share = atom_share, mean_tol = mean_tol))
}

new_ir_sim_model <- function(x) {
  new_result(x, "ir_sim_model", fields = c(collections = "list", measure = "string", type = "string",
                                           support = "numeric?", margin_families = "character",
                                           copula_families = "numeric",
                                           drop_bottom = "number", ties = "string", atom_share = "number",
                                           mean_tol = "number"))
}

# One matrix or a named list of them, as a named list of checked matrices.
collection_list <- function(scores, arg = "scores", call = rlang::caller_env()) {
  if (is.list(scores) && !is.data.frame(scores) && !inherits(scores, "ir_evaluation")) {
    if (!length(scores)) stop_irtopics("{.arg {arg}} is an empty list.", call = call)
    nms <- names(scores)
    if (is.null(nms) || any(is.na(nms) | !nzchar(nms)) || anyDuplicated(nms)) {
      stop_irtopics(c("{.arg {arg}} must be a named list of score matrices (one per collection).",
                      i = "Name every element with a unique collection name, e.g. {.code list(trec5 = ap5, trec6 = ap6)}."),
                    call = call)
    }
    out <- lapply(nms, function(nm) check_scores(scores[[nm]], min_systems = 3L, min_topics = 3L,
                                                  arg = sprintf("%s$%s", arg, nm), call = call))
    names(out) <- nms
    return(out)
  }
  list(collection = check_scores(scores, min_systems = 3L, min_topics = 3L, arg = arg, call = call))
}

# The measure shared by all collections: matrices of different measures are
# an error (their rates would be mixed).
common_measure <- function(mats, arg = "scores", call = rlang::caller_env()) {
  meas <- vapply(mats, function(m) attr(m, "measure") %||% "score", "")
  if (length(unique(meas)) > 1L) {
    stop_irtopics(c("{.arg {arg}} mixes measures: {.val {unique(meas)}}.",
                    i = "Every collection must hold the scores of one measure; run one analysis per measure."),
                  kind = "data", call = call, measures = unname(meas))
  }
  unname(meas[1])
}

# The margin type and support from the measure registry (measure_info() of
# the scores' measure: a discrete measure gets its support), or the user's.
# A name the registry does not know (a custom measure, "score") is
# continuous unless `type` says otherwise.
simulation_spec <- function(measure, type, support, call = rlang::caller_env()) {
  info <- known_measure_info(measure)
  discrete <- !is.null(info) && info$domain == "discrete"
  if (!is.null(type)) type <- match_choice(type, c("continuous", "discrete"), arg_name = "type", call = call)
  type <- type %||% if (discrete) "discrete" else "continuous"
  if (type == "continuous") {
    if (!is.null(support)) {
      stop_irtopics("{.arg support} is only for discrete measures; this one is continuous ({.arg type} = {.val continuous}).",
                    call = call)
    }
    return(list(type = type, support = NULL))
  }
  if (is.null(support) && discrete) {
    if (info$range[1] < 0 || info$range[2] > 1) {
      stop_irtopics(c("{.val {measure}} takes values outside [0, 1] ({info$support_rule}); the margins are distributions on [0, 1].",
                      i = "Simulate a measure whose scores lie in [0, 1]."),
                    kind = "measure", call = call, measure = measure)
    }
    support <- info$support
  }
  if (is.null(support)) {
    hint <- if (discrete && info$support_by_depth) {
      c(i = "Its values depend on the evaluation depth: {.code support = measure_info({deparse(measure)}, depth = 1000)$support} for depth 1000.")
    } else if (discrete) {
      c(i = "Its support ({info$support_rule}) is too large to list.")
    } else {
      c(i = "E.g. {.code support = measure_info(\"RR\", depth = 1000)$support} for reciprocal rank at depth 1000, or {.code (0:10) / 10} for P@10.")
    }
    stop_irtopics(c("{.val {measure}} is a discrete measure and needs its {.arg support}: the values its scores can take.",
                    hint), call = call)
  }
  if (!is.numeric(support) || length(support) < 2L || anyNA(support) || any(support < 0 | support > 1) ||
      anyDuplicated(support)) {
    stop_irtopics("{.arg support} must be at least 2 distinct numbers in [0, 1], not {show_value(support)}.",
                  call = call)
  }
  list(type = type, support = sort(as.double(support)))
}

# Drops duplicate systems and the bottom share by mean.
prepare_collection <- function(m, name, drop_bottom, tol, call = rlang::caller_env()) {
  if (anyNA(m)) {
    stop_irtopics("Collection {.val {name}} has NA scores; simulate from complete matrices.", kind = "data",
                  call = call)
  }
  if (any(m < 0 | m > 1)) {
    stop_irtopics("Collection {.val {name}} has scores outside [0, 1]; the margins are distributions on [0, 1].",
                  kind = "data", call = call)
  }
  dup <- rep(FALSE, nrow(m))
  for (i in seq_len(nrow(m) - 1L)) {
    if (dup[i]) next
    later <- (i + 1L):nrow(m)
    same <- later[!dup[later] & apply(abs(m[later, , drop = FALSE] - rep(m[i, ], each = length(later))) <= tol,
                                      1L, all)]
    dup[same] <- TRUE
  }
  dropped <- data.frame(system = rownames(m)[dup], reason = rep("duplicate", sum(dup)), stringsAsFactors = FALSE)
  m <- m[!dup, , drop = FALSE]
  if (drop_bottom > 0 && nrow(m)) {
    mu <- rowMeans(m)
    low <- mu < stats::quantile(mu, drop_bottom, names = FALSE)
    dropped <- rbind(dropped, data.frame(system = rownames(m)[low], reason = rep("bottom", sum(low)),
                                         stringsAsFactors = FALSE))
    m <- m[!low, , drop = FALSE]
  }
  if (nrow(m) < 3L) {
    stop_irtopics(c("Collection {.val {name}} has {nrow(m)} system{?s} left after dropping duplicates and the bottom {100 * drop_bottom}%; the simulation needs at least 3.",
                    i = "Add systems, or lower {.arg drop_bottom}."),
                  kind = "data", call = call)
  }
  list(scores = m, dropped = dropped)
}

# The flat model of calibration.h (see src/glue_calibration.cpp).
flat_model <- function(model) {
  cols <- model$collections
  sizes <- vapply(cols, function(col) length(col$systems), 1L)
  tables <- unlist(lapply(cols, function(col) lapply(col$margins, margin_table)), recursive = FALSE)
  pairs <- sizes * (sizes - 1L) / 2L
  cops <- do.call(rbind, lapply(cols, `[[`, "copulas"))
  list(knots = lapply(tables, function(t) as.double(t$knots)),
       cdf = lapply(tables, function(t) as.double(t$cdf)),
       discrete = vapply(tables, function(t) isTRUE(t$discrete), TRUE),
       sys_start = as.integer(c(0L, cumsum(sizes))),
       cop_start = as.integer(c(0L, cumsum(pairs))[seq_along(sizes)]),
       family = as.integer(cops$family), par = as.double(cops$par), par2 = as.double(cops$par2))
}

# Methods -------------------------------------------------------------------

#' @rdname simulation_model
#' @export
format.ir_sim_model <- function(x, ...) {
  cols <- x$collections
  n_sys <- vapply(cols, function(col) length(col$systems), 1L)
  n_top <- vapply(cols, function(col) nrow(col$pobs), 1L)
  head <- sprintf("<ir_sim_model> %s: %s, %s margins", x$measure, plural(length(cols), "collection"), x$type)
  per <- sprintf("  %-12s %d systems x %d topics (%d dropped)", names(cols), n_sys, n_top,
                 vapply(cols, function(col) nrow(col$dropped), 1L))
  fam <- table(unlist(lapply(cols, function(col) vapply(col$margins, `[[`, "", "family"))))
  cop <- table(unlist(lapply(cols, function(col) col$copulas$copula)))
  share <- function(tab) paste(sprintf("%s %s", names(tab), pct_text(tab / sum(tab), 0))[order(-tab)],
                               collapse = ", ")
  c(head, per, paste0("Margins: ", share(fam)), paste0("Copulas: ", share(cop)))
}

#' @rdname simulation_model
#' @export
print.ir_sim_model <- function(x, ...) print_formatted(x, ...)

#' @rdname simulation_model
#' @param object An `ir_sim_model`.
#' @export
summary.ir_sim_model <- function(object, ...) {
  tab <- as.data.frame(object, what = "margins")
  cops <- as.data.frame(object, what = "copulas")
  new_summary("ir_sim_model", format(object)[1], tab,
              copulas = as.data.frame(table(copula = cops$copula), responseName = "pairs"))
}

#' @param what `"margins"` (one row per system) or `"copulas"` (one row per
#'   pair).
#' @rdname simulation_model
#' @param x An `ir_sim_model`.
#' @param row.names,optional Ignored (for the generic).
#' @param ... Unused.
#' @export
as.data.frame.ir_sim_model <- function(x, row.names = NULL, optional = FALSE, ..., what = c("margins", "copulas")) {
  what <- match_choice(what, c("margins", "copulas"), arg_name = "what")
  rows <- lapply(names(x$collections), function(nm) {
    col <- x$collections[[nm]]
    if (what == "copulas") return(cbind(collection = nm, col$copulas, stringsAsFactors = FALSE))
    data.frame(collection = nm, system = col$systems,
               family = vapply(col$margins, `[[`, "", "family"),
               mean = vapply(col$margins, `[[`, 0, "mean"),
               observed_mean = rowMeans(col$scores),
               aic = vapply(col$margins, `[[`, 0, "aic"), stringsAsFactors = FALSE, row.names = NULL)
  })
  do.call(rbind, rows)
}

#' Plot a fitted simulation model
#'
#' For one pair of systems, the pseudo-observations of their scores (the
#' data the copula was fitted to; each axis is one system) beside a sample of
#' the same size drawn from the fitted copula, with Kendall's tau of both and
#' the number of topics in the subtitle; or one system's margin against the
#' histogram of its scores (see [autoplot.ir_margin()]). Built on the current
#' ggplot2 theme (see [irtopics_figures]).
#' @param object An `ir_sim_model`.
#' @param systems Two system names (a pair; the copula plot) or one (its
#'   margin). Default: the first two systems of the collection.
#' @param collection The collection's name or number.
#' @param seed Seed of the copula sample drawn for comparison.
#' @param ... Unused.
#' @return A ggplot.
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' model <- simulation_model(read_scores(path, measure = "AP")[1:12, ], seed = 1)
#' ggplot2::autoplot(model)
#' @export
autoplot.ir_sim_model <- function(object, systems = NULL, collection = 1L, seed = 1L, ...) {
  check_no_dots(..., help = "autoplot.ir_sim_model")
  col <- model_collection(object, collection)
  systems <- systems %||% col$systems[1:2]
  if (!is.character(systems) || !length(systems) %in% 1:2 || !all(systems %in% col$systems)) {
    stop_irtopics("{.arg systems} must be one or two system names of collection {.val {col$name}}.")
  }
  if (length(systems) == 1L) return(ggplot2::autoplot(col$margins[[systems]]))
  if (systems[1] == systems[2]) stop_irtopics("{.arg systems} must be two different systems.")
  cop <- pair_row(col, systems[1], systems[2])
  n <- nrow(col$pobs)
  sim <- copula_sample(cop, n, seed)
  df <- rbind(data.frame(u1 = col$pobs[, systems[1]], u2 = col$pobs[, systems[2]], what = "observed"),
              data.frame(u1 = sim[, 1], u2 = sim[, 2], what = "simulated from the fit"))
  df$what <- factor(df$what, c("observed", "simulated from the fit"))
  ggplot2::ggplot(df, ggplot2::aes(.data$u1, .data$u2, colour = .data$what, shape = .data$what)) +
    ggplot2::geom_point(size = 1.8, alpha = 0.8) +
    # not coord_equal(): a fixed aspect leaves a short figure's titles and
    # axis labels misplaced; both axes are [0, 1]
    ggplot2::coord_cartesian(xlim = c(0, 1), ylim = c(0, 1)) +
    ggplot2::scale_colour_manual(values = c("black", "#D55E00"), name = NULL) +
    ggplot2::scale_shape_manual(values = c(16, 4), name = NULL) +
    # the axes name the systems only: "pseudo-observation of <name>" is
    # longer than a short panel is high; the title says what the values are
    ggplot2::labs(x = systems[1], y = systems[2]) +
    plot_labels(title = wrap_text(sprintf("%s copula: pseudo-observations", cop$copula)),
                subtitle = copula_subtitle(cop, n, if (length(object$collections) > 1L) col$name)) +
    title_theme(legend = TRUE)
}

# What the copula plot's subtitle says: Kendall's tau of the fit and of the
# data, the number of topics, and the collection only when the model has
# several (a single matrix's collection is just "collection").
copula_subtitle <- function(cop, n, collection = NULL) {
  where <- if (is.null(collection)) sprintf("%d topics", n) else sprintf("%d topics of %s", n, collection)
  bquote(paste("Kendall's ", tau, .(sprintf(": %.2f fitted, %.2f observed; %s", cop$tau, cop$tau_empirical, where))))
}

model_collection <- function(model, collection, call = rlang::caller_env()) {
  cols <- model$collections
  ok <- (is.numeric(collection) && length(collection) == 1L && collection %in% seq_along(cols)) ||
    (is.character(collection) && length(collection) == 1L && collection %in% names(cols))
  if (!ok) {
    stop_irtopics("{.arg collection} must be one of {.val {names(cols)}} (or its number).", call = call)
  }
  cols[[collection]]
}

# The copula of (a, b) oriented so that its first variable is a: a row of
# the copulas table plus `swap`.
pair_row <- function(col, a, b) {
  i <- match(a, col$systems)
  j <- match(b, col$systems)
  m <- length(col$systems)
  lo <- min(i, j)
  hi <- max(i, j)
  row <- col$copulas[(lo - 1) * m - (lo - 1) * lo / 2 + (hi - lo), ]
  row$swap <- i > j
  row
}

# n pairs from a copula row (oriented by its swap flag).
copula_sample <- function(cop, n, seed) {
  u <- cpp_copula_sim(cop$family, cop$par, cop$par2, n, as.double(seed), 0)
  u <- matrix(u, ncol = 2L)
  if (isTRUE(cop$swap)) u[, 2:1] else u
}

#' Simulate new topics
#'
#' Draws a systems x topics matrix of new topics from a fitted simulation
#' model: each system's scores follow its fitted margin, and each pair of
#' systems adjacent in `systems` has its fitted copula.
#'
#' With two systems this is exactly the simulation of Urbano & Nagler (2018)
#' for a pair. With more, the pairwise copulas of a collection do not define
#' a joint distribution by themselves; the package chains them (a D-vine
#' truncated after its first tree): system k + 1 is drawn from its copula
#' with system k, given system k's draw, so adjacent systems keep their
#' fitted dependence and systems further apart are conditionally independent
#' given the ones between them. This is our construction, not the paper's;
#' put the pairs you care about next to each other.
#'
#' @param model An `ir_sim_model` from [simulation_model()].
#' @param n_topics Number of new topics.
#' @param systems System names of one collection, in chain order (default:
#'   all of them).
#' @param collection The collection's name or number.
#' @param seed Seed of the draws (`NULL`: a seed drawn from R's RNG).
#' @return An `ir_scores` (systems x `n_topics`), topics named `sim1`,
#'   `sim2`, ....
#' @examples
#' path <- system.file("extdata", "score-matrices", "adhoc5_ap.csv", package = "irtopics")
#' model <- simulation_model(read_scores(path, measure = "AP")[1:12, ], seed = 1)
#' sim <- simulate_scores(model, 50, systems = model$collections[[1]]$systems[1:3], seed = 2)
#' rowMeans(sim)
#' @export
simulate_scores <- function(model, n_topics, systems = NULL, collection = 1L, seed = NULL) {
  if (!inherits(model, "ir_sim_model")) {
    stop_irtopics("{.arg model} must be an {.cls ir_sim_model} from {.fn simulation_model}, not {show_value(model)}.")
  }
  n_topics <- check_whole(n_topics, "n_topics", min = 1, max = 1e7)
  col <- model_collection(model, collection)
  systems <- systems %||% col$systems
  if (!is.character(systems) || !length(systems) || anyNA(systems) || !all(systems %in% col$systems) ||
      anyDuplicated(systems)) {
    stop_irtopics("{.arg systems} must be distinct system names of collection {.val {col$name}}.")
  }
  check_seed(seed)
  # memory (issue 29: n_topics = 1e7 was accepted and passed 17 GB): per
  # topic and system the uniforms, the scores, their transpose and the
  # named copy (4 doubles), per topic the pair's draws (2) and the
  # quantile's temporaries of one system (about 24 doubles, Newton steps on
  # a kernel CDF in blocks)
  check_memory(n_topics, 8 * (4 * length(systems) + 26), "n_topics")
  seed <- resolve_seed(seed)
  u <- matrix(NA_real_, length(systems), n_topics)
  if (length(systems) == 1L) {
    u[1, ] <- cpp_copula_sim(0L, 0, 0, n_topics, seed, 0)[seq_len(n_topics)]
  } else {
    for (k in seq_len(length(systems) - 1L)) {
      cop <- pair_row(col, systems[k], systems[k + 1L])
      draw <- matrix(cpp_copula_sim(cop$family, cop$par, cop$par2, n_topics, seed, k), ncol = 2L)
      if (k == 1L) {
        u[1:2, ] <- t(if (isTRUE(cop$swap)) draw[, 2:1] else draw)
      } else {
        # the second column of a draw is the conditional quantile of an
        # independent uniform w given the first; here the first is fixed at
        # the previous system's u
        w <- draw[, 1]
        u[k + 1L, ] <- conditional_quantile(cop, u[k, ], w)
      }
    }
  }
  scores <- t(vapply(seq_along(systems), function(k) qmargin(u[k, ], col$margins[[systems[k]]]),
                     numeric(n_topics)))
  if (n_topics == 1L) scores <- matrix(scores, ncol = 1L)
  dimnames(scores) <- list(systems, paste0("sim", seq_len(n_topics)))
  as_ir_scores(scores, measure = model$measure)
}

# u2 with P(U2 <= u2 | U1 = u1) = w for the oriented copula row: the first
# h-function's inverse, or for a swapped row the second h-function inverted
# by bisection (vectorised, to 1e-12).
conditional_quantile <- function(cop, u1, w) {
  if (!isTRUE(cop$swap)) return(cpp_copula_hinv1(cop$family, cop$par, cop$par2, u1, w))
  lo <- rep(0, length(w))
  hi <- rep(1, length(w))
  for (it in 1:45) {
    mid <- (lo + hi) / 2
    below <- cpp_copula_h2(cop$family, cop$par, cop$par2, mid, u1) < w
    lo[below] <- mid[below]
    hi[!below] <- mid[!below]
  }
  (lo + hi) / 2
}
