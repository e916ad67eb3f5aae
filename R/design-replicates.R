# G- and D-study with replicates: several runs of each system (seeds, folds,
# re-trainings) enter as replicates nested in their system, crossed with the
# topics: the (r:s) x t design of Brennan (2001), whose variance components
# come from the mean squares by their expected values, and whose D-study
# answers "how many seeds (and topics) do I need".

#' G-study with replicate runs of each system (seeds, folds)
#'
#' When a system was run several times (training seeds, cross-validation
#' folds, re-indexings), its runs are replicates of one system, not
#' separate systems. `g_study_replicates()` estimates the variance
#' components of the design with replicates \eqn{r} nested in systems
#' \eqn{s}, crossed with topics \eqn{t} (Brennan 2001, design
#' \eqn{(r{:}s) \times t}{(r:s) x t}, one score per cell):
#' \deqn{X_{srt} = \mu + \nu_s + \nu_{r:s} + \nu_t + \nu_{st} + \nu_{rt:s,e},}
#' and projects the reliability of system means over \eqn{n'_r} replicates
#' and \eqn{n'_t} topics (a D-study), so that it says how many replicates
#' (seeds) a comparison needs.
#'
#' @details
#' With \eqn{n_s} systems, \eqn{n_r} replicates each and \eqn{n_t} topics,
#' the sums of squares are those of the balanced nested-crossed ANOVA and
#' the components solve the expected mean squares (random effects):
#' \eqn{\sigma^2(rt{:}s,e) = MS_{rt:s}},
#' \eqn{\sigma^2(st) = (MS_{st} - MS_{rt:s})/n_r},
#' \eqn{\sigma^2(r{:}s) = (MS_{r:s} - MS_{rt:s})/n_t},
#' \eqn{\sigma^2(t) = (MS_t - MS_{st})/(n_s n_r)},
#' \eqn{\sigma^2(s) = (MS_s - MS_{st} - MS_{r:s} + MS_{rt:s})/(n_r n_t)}.
#' For a system's mean over \eqn{n'_r} replicates and \eqn{n'_t} topics the
#' relative error variance is \eqn{\sigma^2_\delta = \sigma^2(st)/n'_t +
#' \sigma^2(r{:}s)/n'_r + \sigma^2(rt{:}s,e)/(n'_r n'_t)}, the absolute one
#' adds \eqn{\sigma^2(t)/n'_t}, and \eqn{E\rho^2 = \sigma^2(s)/(\sigma^2(s) +
#' \sigma^2_\delta)}, \eqn{\Phi = \sigma^2(s)/(\sigma^2(s) + \sigma^2_\Delta)}.
#' Replicates needed for a target \eqn{\pi} at \eqn{n'_t} topics: the
#' smallest \eqn{n'_r \ge (\sigma^2(r{:}s) + \sigma^2(rt{:}s,e)/n'_t) /
#' (\sigma^2(s)(1-\pi)/\pi - \sigma^2(st)/n'_t)}, and `Inf` when no number
#' of replicates reaches the target at that many topics (more topics are
#' needed first).
#'
#' Averaging the replicates first and running [g_study()] on the system
#' means folds \eqn{\sigma^2(r{:}s)/n_r} into the system variance and
#' \eqn{\sigma^2(rt{:}s,e)/n_r} into the residual: its coefficients then
#' describe the replicates you happened to run, not the system.
#'
#' @section Reconstruction:
#' The design must be balanced (the same number of replicates, at least 2,
#' for every system; no NA): the expected mean squares above hold only
#' then. Negative estimates are kept unless `truncate = TRUE`, as in
#' [g_study()].
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix with one row
#'   per run (replicates of the same system are separate rows) and one
#'   column per topic, without NA.
#' @param replicate Which system each run is a replicate of: a character
#'   vector (or factor) named by run, with one entry per row of `scores`;
#'   an unnamed one in the order of the rows; or a data frame with columns
#'   `run` and `system`.
#' @param n_topics Topic-set sizes to project to (default: the observed
#'   number of topics).
#' @param n_replicates Numbers of replicates to project to.
#' @param target Target reliabilities for the replicates needed.
#' @param truncate Set negative variance components to 0 before the
#'   coefficients.
#' @return An `ir_g_study_replicates`: `$components` (data frame:
#'   `component`, `variance`, `percent`), `$mean_squares`, `$df`,
#'   `$n_systems`, `$n_replicates`, `$n_topics`, `$Erho2` and `$Phi` (at the
#'   observed design), `$projection` (data frame: `n_topics`, `n_replicates`,
#'   `Erho2`, `Phi`), `$replicates_needed` (data frame: `n_topics`,
#'   `target`, `Erho2`, `Phi`: replicates needed), `$systems` (the runs of
#'   each system), `$truncate`, `$measure`. `as.data.frame()` returns the
#'   projection; `summary()` the components.
#' @references Brennan, R. L. (2001). *Generalizability Theory*. Springer
#'   (the \eqn{(r{:}s) \times t}{(r:s) x t} design, its expected mean squares and
#'   D-studies).
#' @examples
#' # three systems, each trained with four seeds, on 40 topics (simulated)
#' set.seed(1)
#' runs <- paste0(rep(c("bm25", "dense", "hybrid"), each = 4), "_seed", 1:4)
#' topic <- rnorm(40, 0.3, 0.1)
#' sys <- rep(c(0, 0.03, 0.05), each = 4)
#' seed <- rnorm(12, 0, 0.02)
#' x <- outer(sys + seed, topic, "+") + rnorm(12 * 40, 0, 0.05)
#' dimnames(x) <- list(runs, paste0("t", 1:40))
#' g <- g_study_replicates(x, replicate = sub("_seed.*", "", runs), n_replicates = 1:10)
#' g
#' g$replicates_needed
#' ggplot2::autoplot(g)
#' @export
g_study_replicates <- function(scores, replicate, n_topics = NULL, n_replicates = 1:10, target = 0.95,
                               truncate = FALSE) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 4L, min_topics = 2L)
  measure <- attr(m, "measure")
  check_flag(truncate, "truncate")
  check_probs(target, "target", "Target reliabilities, e.g. {.code target = 0.95}.")
  nt_obs <- ncol(m)
  n_topics <- replicate_sizes(n_topics %||% nt_obs, "n_topics")
  n_replicates <- replicate_sizes(n_replicates, "n_replicates")
  systems <- replicate_map(replicate, rownames(m))
  sys_names <- unique(systems)
  per <- table(factor(systems, levels = sys_names))
  if (length(sys_names) < 2L || any(per != per[[1]]) || per[[1]] < 2L) {
    shown <- paste(sprintf("%s: %d", names(per), as.integer(per)), collapse = ", ")
    stop_irtopics(c("The design must be balanced: at least 2 systems with the same number (2 or more) of replicates each.",
                    x = "Runs per system: {shown}.",
                    i = "Leave out runs so that every system has as many replicates as the one with the fewest."),
                  kind = "data")
  }
  ns <- length(sys_names)
  nr <- as.integer(per[[1]])
  # runs grouped by system, replicates in their order: an ns x nr x nt array
  ord <- order(match(systems, sys_names), seq_along(systems))
  unit <- pow2_scale(m)
  a <- array(t(m[ord, , drop = FALSE] / unit), dim = c(nt_obs, nr, ns))
  a <- aperm(a, c(3, 2, 1))
  ms <- replicate_mean_squares(a)
  q <- ms$ms
  v <- c(system = (q[["system"]] - q[["system:topic"]] - q[["replicate:system"]] + q[["residual"]]) / (nr * nt_obs),
         `replicate:system` = (q[["replicate:system"]] - q[["residual"]]) / nt_obs,
         topic = (q[["topic"]] - q[["system:topic"]]) / (ns * nr),
         `system:topic` = (q[["system:topic"]] - q[["residual"]]) / nr,
         residual = q[["residual"]])
  if (truncate) v <- pmax(v, 0)
  grid <- expand.grid(n_replicates = n_replicates, n_topics = n_topics)
  proj <- replicate_coefficients(v, grid$n_topics, grid$n_replicates)
  obs <- replicate_coefficients(v, nt_obs, nr)
  need <- do.call(rbind, lapply(n_topics, function(n) {
    data.frame(n_topics = n, target = target, Erho2 = replicates_needed(v, n, target, absolute = FALSE),
               Phi = replicates_needed(v, n, target, absolute = TRUE))
  }))
  total <- sum(pmax(v, 0))
  new_ir_g_study_replicates(list(
    components = data.frame(component = names(v), variance = unname(v) * unit^2,
                            percent = if (total > 0) 100 * unname(v) / total else NA_real_,
                            stringsAsFactors = FALSE),
    mean_squares = ms$ms * unit^2, df = ms$df, n_systems = ns, n_replicates = nr, n_topics = nt_obs,
    Erho2 = obs$Erho2, Phi = obs$Phi,
    projection = data.frame(n_topics = grid$n_topics, n_replicates = grid$n_replicates,
                            Erho2 = proj$Erho2, Phi = proj$Phi),
    replicates_needed = need, systems = split(rownames(m), factor(systems, levels = sys_names)),
    truncate = truncate, measure = measure
  ))
}

new_ir_g_study_replicates <- function(x) {
  new_result(x, "ir_g_study_replicates",
             fields = c(components = "data.frame", mean_squares = "numeric", df = "numeric", n_systems = "number",
                        n_replicates = "number", n_topics = "number", Erho2 = "number", Phi = "number",
                        projection = "data.frame", replicates_needed = "data.frame", systems = "list",
                        truncate = "flag", measure = "string?"))
}

replicate_sizes <- function(x, arg, call = rlang::caller_env()) {
  if (!is.numeric(x) || !length(x) || anyNA(x) || any(!is.finite(x)) || any(x < 1)) {
    stop_irtopics("{.arg {arg}} must be positive numbers, not {show_values(x)}.", call = call)
  }
  as.double(x)
}

# The system of each run (in the order of `runs`) from the user's mapping.
replicate_map <- function(replicate, runs, call = rlang::caller_env()) {
  if (is.data.frame(replicate)) {
    if (!all(c("run", "system") %in% names(replicate))) {
      stop_irtopics("{.arg replicate} as a data frame must have columns {.field run} and {.field system}.", call = call)
    }
    replicate <- stats::setNames(as.character(replicate$system), as.character(replicate$run))
  }
  if (is.factor(replicate)) replicate <- stats::setNames(as.character(replicate), names(replicate))
  if (!is.character(replicate) || anyNA(replicate) || any(!nzchar(replicate))) {
    stop_irtopics("{.arg replicate} must give a system name for each run (a character vector without NA), not {show_value(replicate)}.",
                  call = call)
  }
  if (is.null(names(replicate))) {
    if (length(replicate) != length(runs)) {
      stop_irtopics("{.arg replicate} without names must have one system per row of {.arg scores} ({length(runs)}), not {length(replicate)}.",
                    call = call)
    }
    return(unname(replicate))
  }
  if (anyDuplicated(names(replicate))) {
    stop_irtopics("{.arg replicate} names a run twice ({.val {names(replicate)[duplicated(names(replicate))][1]}}).",
                  call = call)
  }
  check_names_in(runs, names(replicate), "scores", what = "run", of = "replicate", call = call)
  unname(replicate[runs])
}

# Mean squares and degrees of freedom of the balanced (r:s) x t design from
# an ns x nr x nt array.
replicate_mean_squares <- function(a) {
  d <- dim(a)
  ns <- d[1]
  nr <- d[2]
  nt <- d[3]
  grand <- mean(a)
  m_s <- apply(a, 1, mean)
  m_t <- apply(a, 3, mean)
  m_sr <- apply(a, c(1, 2), mean)                      # ns x nr
  m_st <- apply(a, c(1, 3), mean)                      # ns x nt
  ss <- c(system = nr * nt * sum((m_s - grand)^2),
          `replicate:system` = nt * sum((m_sr - m_s)^2),
          topic = ns * nr * sum((m_t - grand)^2),
          `system:topic` = nr * sum((m_st - outer(m_s, rep(1, nt)) - outer(rep(1, ns), m_t) + grand)^2))
  res <- a - array(m_sr, d) - aperm(array(m_st, c(ns, nt, nr)), c(1, 3, 2)) + array(m_s, d)
  ss <- c(ss, residual = sum(res^2))
  df <- c(system = ns - 1, `replicate:system` = ns * (nr - 1), topic = nt - 1,
          `system:topic` = (ns - 1) * (nt - 1), residual = ns * (nr - 1) * (nt - 1))
  list(ms = ss / df, df = df)
}

replicate_coefficients <- function(v, n_t, n_r) {
  rel <- v[["system:topic"]] / n_t + v[["replicate:system"]] / n_r + v[["residual"]] / (n_r * n_t)
  abs <- rel + v[["topic"]] / n_t
  ratio <- function(num, den) ifelse(den == 0, NA_real_, num / den)
  list(Erho2 = ratio(v[["system"]], v[["system"]] + rel), Phi = ratio(v[["system"]], v[["system"]] + abs))
}

# Smallest number of replicates reaching each target at n_t topics (Inf: none).
replicates_needed <- function(v, n_t, target, absolute) {
  fixed <- v[["system:topic"]] / n_t + if (absolute) v[["topic"]] / n_t else 0
  per_rep <- v[["replicate:system"]] + v[["residual"]] / n_t
  room <- v[["system"]] * (1 - target) / target - fixed
  r <- per_rep / room
  out <- ifelse(room > 0, pmax(1, ceiling(r - 1e-9 * abs(r))), Inf)
  out[is.na(room)] <- NA_real_
  out
}

# Methods ------------------------------------------------------------------------------

#' @rdname g_study_replicates
#' @param x,object An `ir_g_study_replicates`.
#' @param ... Unused.
#' @export
format.ir_g_study_replicates <- function(x, ...) {
  comp <- x$components
  comp$variance <- signif(comp$variance, 5)
  comp$percent <- round(comp$percent, 1)
  need <- x$replicates_needed
  c(sprintf("<ir_g_study_replicates> %s x %s x %s (replicates nested in systems)%s",
            plural(x$n_systems, "system"), plural(x$n_replicates, "replicate"), plural(x$n_topics, "topic"),
            if (is.null(x$measure)) "" else paste0(", ", x$measure)),
    printed_lines(print(comp, row.names = FALSE)),
    sprintf("Erho2 = %.3f, Phi = %.3f (means over %d replicates and %d topics)", x$Erho2, x$Phi,
            as.integer(x$n_replicates), as.integer(x$n_topics)),
    "Replicates needed per system for each target (Inf: not reachable with that many topics):",
    printed_lines(print(need, row.names = FALSE)))
}

#' @rdname g_study_replicates
#' @export
print.ir_g_study_replicates <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study_replicates
#' @export
summary.ir_g_study_replicates <- function(object, ...) {
  new_summary("ir_g_study_replicates",
              sprintf("Variance components, %d systems x %d replicates x %d topics; Erho2 = %.3f, Phi = %.3f:",
                      as.integer(object$n_systems), as.integer(object$n_replicates), as.integer(object$n_topics),
                      object$Erho2, object$Phi),
              object$components)
}

#' @rdname g_study_replicates
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_g_study_replicates <- function(x, row.names = NULL, optional = FALSE, ...) x$projection

#' Plot projected reliability over replicates
#'
#' \eqn{E\rho^2} and \eqn{\Phi} of system means against the number of
#' replicates (seeds, folds) per system, one line per topic-set size of the
#' projection, from [g_study_replicates()]; the target is a dashed line and
#' the observed number of replicates a dotted one (the caption says so).
#' Built on the current ggplot2 theme (see [irtopics_figures]).
#'
#' @param object A [g_study_replicates()] result.
#' @param target Target reliability drawn as a dashed line (`NULL`: none).
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_g_study_replicates
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(8 * 30, rep(c(0.30, 0.32), each = 4), 0.05), 8, 30,
#'             dimnames = list(paste0(rep(c("a", "b"), each = 4), 1:4), paste0("t", 1:30)))
#' g <- g_study_replicates(x, replicate = rep(c("a", "b"), each = 4), n_topics = c(30, 100))
#' ggplot2::autoplot(g)
#' @export
autoplot.ir_g_study_replicates <- function(object, target = 0.95, ...) {
  check_no_dots(..., help = "autoplot.ir_g_study_replicates")
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  p <- object$projection
  d <- data.frame(n_replicates = rep(p$n_replicates, 2L), topics = factor(rep(p$n_topics, 2L)),
                  coefficient = factor(rep(c("Erho2", "Phi"), each = nrow(p)), levels = c("Erho2", "Phi")),
                  value = c(p$Erho2, p$Phi))
  symbols <- coefficient_symbols()
  g <- ggplot2::ggplot(d, ggplot2::aes(x = .data$n_replicates, y = .data$value, colour = .data$topics)) +
    ggplot2::geom_line() +
    sparse_points(length(unique(p$n_replicates)), size = 1) +
    ggplot2::geom_vline(xintercept = object$n_replicates, linetype = "dotted", colour = "grey40") +
    # strips by the coefficients' symbols (E rho^2, Phi), parsed as plotmath
    ggplot2::facet_wrap(ggplot2::vars(.data$coefficient),
                        labeller = ggplot2::as_labeller(stats::setNames(vapply(symbols, deparse, ""), names(symbols)),
                                                        default = ggplot2::label_parsed)) +
    ggplot2::scale_x_continuous(breaks = function(l) unique(round(pretty(l))))
  if (!is.null(target)) g <- g + ggplot2::geom_hline(yintercept = target, linetype = "dashed", colour = "grey30")
  if (nlevels(d$topics) < 2L) g <- g + ggplot2::guides(colour = "none")
  note <- sprintf("Dotted: the %d replicates run.%s", as.integer(object$n_replicates),
                  if (!is.null(target)) sprintf(" Dashed: the target, %s.", format(target)) else "")
  g + ggplot2::labs(x = "Replicates per system", y = "Reliability", colour = "Topics") +
    plot_labels(title = wrap_text(sprintf("D-study over replicates%s", if (is.null(object$measure)) "" else
                  paste0(" of ", object$measure))),
                subtitle = coefficient_subtitle(),
                note = if (nlevels(d$topics) < 2L) paste(note, sprintf("%s topics.", levels(d$topics))) else note) +
    title_theme(legend = TRUE)
}
