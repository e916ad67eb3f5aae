# Collection diagnostics --------------------------------------------------------

#' Diagnostics of measures on a test collection, side by side
#'
#' One row per measure (a named list of score matrices over the same
#' systems and topics): the swap-method error rate at `n_topics` topics
#' ([swap_error_rates()], system means compared), the discriminative power
#' on the whole collection ([discriminative_power()]), \eqn{E\rho^2} and
#' \eqn{\Phi} of the G-study projected to `n_topics` topics, and the
#' topics needed for \eqn{E\rho^2} to reach `target`, with its interval
#' ([g_study()], [d_study()]).
#'
#' @param scores A named list of score matrices (or one matrix).
#' @param n_topics Topic-set size for the swap error rate and the
#'   reliability projections: a whole number from 2 to half the number of
#'   topics (the swap method needs two disjoint sets). Default: half.
#' @param target Target \eqn{E\rho^2} for the topics needed, in (0, 1).
#' @param alpha Significance level of the discriminative power.
#' @param B Bootstrap samples of the discriminative power (its p-values are
#'   \eqn{(c + 1)/(B + 1)}, see [discriminative_power()]).
#' @param trials,fuzz Swap-method trials and fuzziness (see
#'   [swap_error_rates()]).
#' @param drop Passed to [g_study()]: `0` (the default, as in [g_study()])
#'   keeps every system; `0.25` drops the bottom quarter as Urbano, Marrero &
#'   Martín (2013) do, which can change the topics needed several fold. The
#'   printed table names the setting used.
#' @param seed Random seed, or `NULL`.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @return An `ir_collection_diagnostics` object: `$table` (one row per
#'   measure: `measure`, `n_topics`, `swap_error_rate`,
#'   `discriminative_power`, `difference_required`, `Erho2`, `Phi`,
#'   `topics_needed`, `topics_needed_low`, `topics_needed_high`), and the
#'   parts: `$power`, `$swap` (list), `$g_study` (list).
#' @section Reconstruction:
#' The table combines existing analyses (no paper gives this exact table):
#' the swap error rate and the reliability projections are at `n_topics`,
#' the discriminative power on all topics of the collection.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc8_p10.csv"), measure = "P@10")
#' keep <- rownames(ap)[1:20]
#' cd <- collection_diagnostics(list(AP = ap[keep, ], `P@10` = p10[keep, ]), n_topics = 25,
#'                              B = 200, trials = 50, seed = 1)
#' cd
#' ggplot2::autoplot(cd)
#' @export
collection_diagnostics <- function(scores, n_topics = NULL, target = 0.95, alpha = 0.05, B = 1000,
                                   trials = 500, fuzz = 0.05, drop = 0, seed = NULL, n_threads = irtopics_threads(),
                                   progress = NULL) {
  mats <- check_score_list(scores, min_topics = 4L)
  nt <- ncol(mats[[1]])
  half <- nt %/% 2L
  n_topics <- n_topics %||% half
  if (!is.numeric(n_topics) || length(n_topics) != 1L || is.na(n_topics) || n_topics != round(n_topics) ||
      n_topics < 2 || n_topics > half) {
    stop_irtopics(c("{.arg n_topics} must be a whole number from 2 to half the number of topics ({half} of {nt}).",
                    x = "Got {show_values(n_topics)}.",
                    i = "The swap method compares two disjoint topic sets of that size."))
  }
  check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.", scalar = TRUE)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  # One seed for the whole call (resolved once: with seed = NULL it is drawn
  # once from R's stream, so set.seed() reproduces it): discriminative power
  # and one draw of topic sets for every measure, so that the measures are
  # compared on the same topic sets.
  seed <- resolve_seed(seed)
  power <- discriminative_power(mats, alpha = alpha, B = B, seed = seed, n_threads = n_threads)
  swap <- lapply(names(mats), function(nm) {
    swap_error_rates(mats[[nm]], sizes = n_topics, trials = trials, fuzz = fuzz, seed = seed,
                     n_threads = n_threads, label = nm, keep_sets = FALSE)
  })
  gs <- lapply(mats, g_study, drop = drop)
  rows <- lapply(seq_along(mats), function(k) {
    d <- d_study(gs[[k]], n_topics, target = target)
    need <- attr(d, "topics_needed")[1, ]
    data.frame(measure = names(mats)[k], n_topics = as.integer(n_topics),
               swap_error_rate = swap[[k]]$error$error_rate,
               discriminative_power = power$summary$discriminative_power[k],
               difference_required = power$summary$difference_required[k],
               Erho2 = d$Erho2, Phi = d$Phi, topics_needed = need$n_topics,
               topics_needed_low = need$conf.low, topics_needed_high = need$conf.high,
               stringsAsFactors = FALSE)
  })
  names(swap) <- names(gs) <- names(mats)
  new_ir_collection_diagnostics(list(table = do.call(rbind, rows), power = power, swap = swap, g_study = gs,
                                     target = target, drop = drop, n_systems = nrow(mats[[1]]), n_topics = nt))
}

new_ir_collection_diagnostics <- function(x) {
  new_result(x, "ir_collection_diagnostics",
             fields = c(table = "data.frame", power = "list", swap = "list", g_study = "list",
                        target = "number", drop = "number", n_systems = "number", n_topics = "number"))
}

#' @rdname collection_diagnostics
#' @param x An `ir_collection_diagnostics` object.
#' @param ... Unused.
#' @export
format.ir_collection_diagnostics <- function(x, ...) {
  t <- x$table
  body <- data.frame(measure = t$measure,
                     swap_error = sprintf("%.2f%%", 100 * t$swap_error_rate),
                     disc_power = sprintf("%.1f%%", 100 * t$discriminative_power),
                     diff_required = formatC(t$difference_required, digits = 4, format = "f"),
                     Erho2 = sprintf("%.4f", t$Erho2), Phi = sprintf("%.4f", t$Phi),
                     topics_needed = sprintf("%g [%g, %g]", t$topics_needed, t$topics_needed_low,
                                             t$topics_needed_high),
                     stringsAsFactors = FALSE)
  c(sprintf("<ir_collection_diagnostics> %d systems x %d topics; swap error, Erho2 and Phi at %d topics; topics needed for Erho2 = %g",
            x$n_systems, x$n_topics, t$n_topics[1], x$target),
    sprintf("Erho2, Phi and topics needed (95%% interval) from the %s.",
            g_settings_text(g_settings(x$g_study[[1]]))),
    printed_lines(print(body, row.names = FALSE)))
}

#' @rdname collection_diagnostics
#' @export
print.ir_collection_diagnostics <- function(x, ...) print_formatted(x, ...)

#' @rdname collection_diagnostics
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_collection_diagnostics <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname collection_diagnostics
#' @param object An `ir_collection_diagnostics` object.
#' @export
summary.ir_collection_diagnostics <- function(object, ...) {
  new_summary("ir_collection_diagnostics",
              sprintf("Collection diagnostics per measure (%d systems x %d topics):", object$n_systems,
                      object$n_topics),
              object$table)
}

#' @rdname autoplot.ir_discriminative_power
#' @method autoplot ir_collection_diagnostics
#' @export
autoplot.ir_collection_diagnostics <- function(object, ...) ggplot2::autoplot(object$power)
