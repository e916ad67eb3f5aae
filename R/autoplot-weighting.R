# Plots for adaptive weighting (GAWM, HITS) and smoothing.

#' Plot GAWM performance against the plain means
#'
#' `type = "systems"` draws each system's GAWM performance \eqn{E_s}
#' against its MAP; `type = "topics"` draws each topic's ease \eqn{E_t}
#' against its AAP, with the point size showing the topic discernment
#' \eqn{W_t}. The dashed line is the identity.
#'
#' @param object An `ir_gawm` object from [gawm()].
#' @param type `"systems"` or `"topics"`.
#' @param label Which points to label with their system or topic names:
#'   `"auto"` (the default: all when there are at most 20
#'   points, else the 5 largest, as for a whole number), `NULL` (none), `"all"`, a whole number \eqn{k} (the
#'   \eqn{k} with the largest \eqn{E_s}, or \eqn{E_t}) or a character
#'   vector of names. Labels are placed without overlaps by ggrepel when it
#'   is installed, else above the points.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_gawm
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc6_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' fit <- gawm(ap)
#' ggplot2::autoplot(fit)
#' ggplot2::autoplot(fit, type = "topics")
#' ggplot2::autoplot(fit, label = 5)
#' @export
autoplot.ir_gawm <- function(object, type = c("systems", "topics"), label = "auto", ...) {
  check_no_dots(..., help = "autoplot.ir_gawm")
  type <- match_choice(type)
  if (type == "systems") {
    df <- object$systems
    r <- safe_cor(df$MAP, df$performance)
    ggplot2::ggplot(df, ggplot2::aes(x = .data$MAP, y = .data$performance)) +
      ggplot2::geom_abline(slope = 1, intercept = 0, linetype = "dashed", colour = "grey50") +
      ggplot2::geom_point() +
      label_layer(df, label, "system", "performance", "MAP", "performance") +
      ggplot2::labs(x = sprintf("MAP (mean %s)", object$measure),
                    y = expression(GAWM ~ system ~ performance ~ E[s]),
                    title = sprintf("Systems: Pearson r = %.3f (q = %s)", r, format(object$q))) +
      ggplot2::theme_bw() + title_theme()
  } else {
    df <- object$topics
    r <- safe_cor(df$AAP, df$ease)
    ggplot2::ggplot(df, ggplot2::aes(x = .data$AAP, y = .data$ease, size = .data$discernment)) +
      ggplot2::geom_abline(slope = 1, intercept = 0, linetype = "dashed", colour = "grey50") +
      ggplot2::geom_point(alpha = 0.6) +
      label_layer(df, label, "topic", "ease", "AAP", "ease") +
      ggplot2::labs(x = sprintf("AAP (mean %s over systems)", object$measure),
                    y = expression(GAWM ~ topic ~ ease ~ E[t]),
                    size = expression(Discernment ~ W[t]),
                    title = sprintf("Topics: Pearson r = %.3f (q = %s)", r, format(object$q))) +
      ggplot2::theme_bw() + title_theme()
  }
}

#' Plot HITS authorities against the plain means
#'
#' `type = "systems"` draws each system's authority \eqn{A(s)} against its
#' MAP; `type = "topics"` draws each topic's authority \eqn{A(t)} against its
#' AAP.
#'
#' @param object An `ir_hits` object from [hits()].
#' @param type `"systems"` or `"topics"`.
#' @param label Which points to label with their system or topic names:
#'   `"auto"` (the default: all when there are at most 20
#'   points, else the 5 largest, as for a whole number), `NULL` (none), `"all"`, a whole number \eqn{k} (the
#'   \eqn{k} largest authorities) or a character vector of names. Labels
#'   are placed without overlaps by ggrepel when it is installed, else above
#'   the points.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_hits
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc6_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ggplot2::autoplot(hits(ap), label = 3)
#' @export
autoplot.ir_hits <- function(object, type = c("systems", "topics"), label = "auto", ...) {
  check_no_dots(..., help = "autoplot.ir_hits")
  type <- match_choice(type)
  if (type == "systems") {
    df <- object$systems
    id <- "system"
    xlab <- sprintf("MAP (mean %s)", object$measure)
    df$x <- df$MAP
    ylab <- "HITS system authority A(s)"
    ttl <- "Systems"
  } else {
    df <- object$topics
    id <- "topic"
    xlab <- sprintf("AAP (mean %s over systems)", object$measure)
    df$x <- df$AAP
    ylab <- "HITS topic authority A(t)"
    ttl <- "Topics"
  }
  r <- safe_cor(df$x, df$authority)
  ggplot2::ggplot(df, ggplot2::aes(x = .data$x, y = .data$authority)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_point() +
    label_layer(df, label, id, "authority", "x", "authority") +
    ggplot2::labs(x = xlab, y = ylab, title = sprintf("%s: Pearson r = %.3f", ttl, r)) +
    ggplot2::theme_bw() + title_theme()
}

#' Plot the distribution of Kendall's tau in a smoothing experiment
#'
#' Figures 2 and 3 of Ravana, Park and Moffat (2009): one box per
#' \eqn{\lambda} showing the distribution of Kendall's tau between the
#' smoothed ordering and the all-topics ordering over the repetitions, and
#' the 50-topic baseline as a separate box whose median is marked by a
#' dashed line across the plot.
#'
#' @param object An `ir_smoothing` object from [smoothing_experiment()].
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_smoothing
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ggplot2::autoplot(smoothing_experiment(ap, reps = 200, seed = 1))
#' @export
autoplot.ir_smoothing <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_smoothing")
  df <- as.data.frame(object)
  labels <- c(as.character(object$lambdas), "baseline")
  df$x <- factor(ifelse(is.na(df$lambda), "baseline", as.character(df$lambda)), levels = labels)
  df$kind <- ifelse(is.na(df$lambda), "baseline (Q_a + Q_c, all systems)", "smoothed")
  df <- df[!is.na(df$tau), , drop = FALSE]
  base_median <- object$summary$median[nrow(object$summary)]
  ggplot2::ggplot(df, ggplot2::aes(x = .data$x, y = .data$tau, fill = .data$kind)) +
    ggplot2::geom_hline(yintercept = base_median, linetype = "dashed", colour = "grey40") +
    ggplot2::geom_boxplot(outlier.size = 0.5) +
    ggplot2::scale_fill_manual(values = c("smoothed" = "grey85",
                                          "baseline (Q_a + Q_c, all systems)" = "steelblue")) +
    ggplot2::labs(x = expression(lambda), y = "Kendall's tau vs all-topics ordering", fill = NULL,
                  title = sprintf("Smoothed %s%s, %s repetitions", if (object$standardize) "standardized " else "",
                                  object$measure, format(object$reps, big.mark = ","))) +
    ggplot2::theme_bw() + title_theme() +
    ggplot2::theme(legend.position = "bottom")
}

#' Plot how smoothing moves each system's mean
#'
#' One row per system, ordered by smoothed mean: the mean on the new topics
#' (open circle), the prior mean (cross) and the smoothed mean (filled
#' point), joined by a segment from the new to the smoothed mean.
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
    ggplot2::labs(x = sprintf("Mean %s", object$measure), y = NULL, shape = NULL,
                  title = sprintf("Smoothing with lambda = %s", format(object$lambda))) +
    ggplot2::theme_bw() + title_theme() +
    ggplot2::theme(legend.position = "bottom")
}
