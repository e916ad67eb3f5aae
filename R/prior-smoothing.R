# More systems than this: the rows are too close for names (one row each).
smoothed_max_names <- 25L

#' Plot how smoothing moves each system's mean
#'
#' One row per system, ordered by smoothed mean: the mean on the new topics
#' (open circle), the prior mean (cross) and the smoothed mean (filled
#' point), joined by a segment from the new to the smoothed mean. With more
#' than 25 systems the rows are too close for names, which are left out
#' (the caption says so). Built on the current ggplot2 theme (see
#' [irtopics_figures]).
#'
#' @param object An `ir_smoothed` object from [smooth_scores()].
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_smoothed
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc6_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' prior <- ap[, 1:25]
#' prior[1:37, 13:25] <- NA      # half the systems saw topics 1-12,
#' prior[38:74, 1:12] <- NA      # the other half topics 13-25
#' sm <- smooth_scores(ap[, 26:50], prior, lambda = 0.8)
#' ggplot2::autoplot(sm)
#' @export
autoplot.ir_smoothed <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_smoothed")
  df <- object$means
  df$system <- factor(df$system, levels = df$system[order(df$smoothed_mean, as_bytes(df$system), method = "radix")])
  long <- rbind(
    data.frame(system = df$system, mean = df$new_mean, kind = "new topics"),
    data.frame(system = df$system, mean = df$prior_mean, kind = "prior"),
    data.frame(system = df$system, mean = df$smoothed_mean, kind = "smoothed")
  )
  long <- long[!is.na(long$mean), , drop = FALSE]
  long$kind <- factor(long$kind, levels = c("new topics", "prior", "smoothed"))
  ggplot2::ggplot() +
    ggplot2::geom_segment(data = df, ggplot2::aes(x = .data$new_mean, xend = .data$smoothed_mean,
                                                  y = .data$system, yend = .data$system),
                          colour = "grey60") +
    ggplot2::geom_point(data = long, ggplot2::aes(x = .data$mean, y = .data$system, shape = .data$kind)) +
    ggplot2::scale_shape_manual(values = c("new topics" = 1, "prior" = 4, "smoothed" = 16)) +
    ggplot2::labs(x = sprintf("Mean %s", object$measure), y = NULL, shape = NULL) +
    plot_labels(title = bquote("Smoothing with" ~ lambda == .(format(object$lambda))),
                note = if (nlevels(df$system) > smoothed_max_names) {
                  sprintf("%d systems, ordered by smoothed mean; names not shown.", nlevels(df$system))
                }) +
    # many systems: their names would overprint; a tick each is left
    (if (nlevels(df$system) > smoothed_max_names) {
      ggplot2::theme(axis.text.y = ggplot2::element_blank())
    }) +
    title_theme(legend = TRUE)
}
# Smoothing with partial prior information (Ravana, Park & Moffat, SIGIR 2009),
# spec sections 4.1-4.2.

#' Smoothed scores with partial prior information
#'
#' Ravana, Park and Moffat's (2009) smoothing: each system's scores on the
#' new topics \eqn{Q_c} are pulled towards the system's mean score on its
#' own prior topics \eqn{Q(s)},
#' \deqn{SAP_{s,q}(\lambda) = \lambda \, AP_{s,q} + (1 - \lambda)\, MAP_{s,Q(s)},}{SAP[s,q] = lambda AP[s,q] + (1 - lambda) MAP[s, Q(s)],}
#' so the smoothed mean is \eqn{SMAP_s = \lambda MAP_{s,Q_c} + (1-\lambda)
#' MAP_{s,Q(s)}}. The prior topics may differ from system to system; only
#' the new topics must be common to all systems. A system without prior
#' scores keeps its new scores (\eqn{\lambda = 1} for it). Any per-topic
#' measure can be smoothed, e.g. standardized AP from
#' [standardize_scores()].
#'
#' @section Reconstruction:
#' Ravana, Park and Moffat (2009) give the symbols but not the equation in
#' a usable form; irtopics rebuilds it from the symbols and checks it
#' against the poster's text (\eqn{\lambda = 0} uses the prior only,
#' \eqn{\lambda = 1} the new topics only, and at \eqn{\lambda = 0.8} the
#' prior gets a quarter of the weight of the new scores).
#'
#' @param new An [ir_scores][as_ir_scores] object or numeric matrix: every system's scores
#'   on the new topics \eqn{Q_c}, no NA.
#' @param prior The prior information, matched to `new` by system name:
#'   either a score matrix (systems x prior topics) where `NA` marks a topic
#'   a system was not evaluated on, so different systems may have different
#'   prior topics; or a named numeric vector of prior mean scores. Systems
#'   of `new` that are missing from `prior`, or have only `NA`, have no
#'   prior.
#' @param lambda The weight of the new scores, a number in \[0, 1\].
#' @return An `ir_smoothed` object: a list with `scores`, the smoothed
#'   per-topic [ir_scores][as_ir_scores] (same shape as `new`); `means`, a data frame
#'   `system, new_mean, prior_mean, prior_topics, lambda, smoothed_mean`
#'   (`lambda` is the weight actually used: 1 for a system without prior);
#'   and `lambda`. `print()` shows the best `n` systems by smoothed mean;
#'   `summary()` how far smoothing moved the means and how many systems had
#'   a prior (an [irtopics_summary]); `as.data.frame()` returns `means`.
#' @param x,object An `ir_smoothed` object.
#' @param n Number of systems to print.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Ravana, S. D., Park, L. A. F., Moffat, A. (2009). System
#'   scoring using partial prior information. SIGIR 2009, 788-789.
#' @seealso [smoothing_experiment()].
#' @examples
#' ap <- rbind(s1 = c(.30, .50, .20, .40, .60, .10), s2 = c(.20, .40, .30, .10, .50, .30),
#'             s3 = c(.10, .20, .40, .50, .32, .20), s4 = c(.40, .10, .10, .20, .40, .05))
#' colnames(ap) <- paste0("t", 1:6)
#' prior <- ap[, 1:4]
#' prior[c("s1", "s2"), c("t3", "t4")] <- NA   # s1, s2 were evaluated on t1, t2
#' prior[c("s3", "s4"), c("t1", "t2")] <- NA   # s3, s4 on t3, t4
#' sm <- smooth_scores(ap[, 5:6], prior, lambda = 0.8)
#' sm$means$smoothed_mean                      # .36 .38 .298 .21
#' @export
smooth_scores <- function(new, prior, lambda) {
  N <- check_scores(new, allow_na = FALSE, min_systems = 1L, min_topics = 1L, arg = "new")
  measure <- attr(N, "measure") %||% "score"
  attr(N, "measure") <- NULL
  check_number(lambda, "lambda", min = 0, max = 1)
  systems <- rownames(N)

  if (is.numeric(prior) && is.null(dim(prior))) {
    if (is.null(names(prior)) || anyNA(names(prior))) {
      stop_irtopics("{.arg prior} as a vector of prior means must be named by system.")
    }
    if (anyDuplicated(names(prior))) {
      stop_irtopics("{.arg prior} must name each system once; {.val {names(prior)[duplicated(names(prior))][1]}} is repeated.")
    }
    if (any(!is.finite(prior) & !is.na(prior))) {
      stop_irtopics("{.arg prior} must contain finite means.", kind = "data")
    }
    hit <- match(systems, names(prior))
    prior_mean <- unname(prior[hit])
    prior_topics <- rep(NA_integer_, length(systems))
  } else {
    Q <- check_scores(prior, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = "prior")
    hit <- match(systems, rownames(Q))
    prior_topics <- ifelse(is.na(hit), 0L, rowSums(!is.na(Q))[hit])
    prior_mean <- ifelse(prior_topics > 0, rowMeans(Q, na.rm = TRUE)[hit], NA_real_)
    prior_mean <- unname(prior_mean)
    prior_topics <- unname(as.integer(prior_topics))
  }
  if (all(is.na(hit))) {
    stop_irtopics(c("{.arg prior} shares no system name with {.arg new}.",
                    i = "Systems are matched by row name."))
  }
  has_prior <- !is.na(prior_mean)
  lam <- ifelse(has_prior, lambda, 1)
  pm <- ifelse(has_prior, prior_mean, 0)
  S <- N * lam + pm * (1 - lam)
  means <- data.frame(system = systems, new_mean = unname(rowMeans(N)), prior_mean = prior_mean,
                      prior_topics = prior_topics, lambda = lam,
                      smoothed_mean = unname(rowMeans(S)), stringsAsFactors = FALSE)
  new_ir_smoothed(list(scores = new_ir_scores(S, paste0("smoothed_", measure)), means = means,
                       lambda = lambda, measure = measure))
}

new_ir_smoothed <- function(x) {
  new_result(x, "ir_smoothed", fields = c(scores = "scores", means = "data.frame", lambda = "numeric",
                                          measure = "string"))
}

#' @rdname smooth_scores
#' @export
format.ir_smoothed <- function(x, ..., n = 10L) {
  check_shown(n = n)
  m <- x$means[order(-x$means$smoothed_mean, x$means$system), , drop = FALSE]
  shown <- utils::head(m, n)
  c(sprintf("<ir_smoothed> %s smoothed with lambda = %s: %s x %s (%d without prior)",
            x$measure, format(x$lambda), plural(nrow(x$means), "system"),
            plural(ncol(x$scores), "new topic"), sum(is.na(x$means$prior_mean))),
    printed_lines(print(shown, digits = 4, row.names = FALSE)),
    more_line(system = nrow(m) - nrow(shown)))
}

#' @rdname smooth_scores
#' @export
print.ir_smoothed <- function(x, ..., n = 10L) print_formatted(x, n = n)

#' @rdname smooth_scores
#' @export
summary.ir_smoothed <- function(object, ...) {
  m <- object$means
  shift <- m$smoothed_mean - m$new_mean
  has <- !is.na(m$prior_mean)
  new_summary("ir_smoothed", sprintf("Smoothing of %s with lambda = %s:", object$measure, format(object$lambda)),
              data.frame(systems = nrow(m), with_prior = sum(has),
                         mean_shift = mean(shift), max_abs_shift = max(abs(shift)),
                         rank_changes = sum(rank(-m$new_mean, ties.method = "first") !=
                                              rank(-m$smoothed_mean, ties.method = "first"))))
}

#' @rdname smooth_scores
#' @export
as.data.frame.ir_smoothed <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$means
}
