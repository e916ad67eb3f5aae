#' Cronbach's alpha against the number of topics
#'
#' For each topic-set size, draws `trials` random subsets of the topics
#' (without replacement) and reports the mean alpha over the subsets and
#' the central `conf` range of their values: how reliable a collection
#' with fewer topics drawn from the same pool would be. The column
#' `projected` is the G-study projection of \eqn{E\rho^2} (Spearman-Brown)
#' from the whole matrix to that size ([d_study()]), for comparison.
#'
#' @inheritParams alpha_bootstrap
#' @param sizes Topic-set sizes, whole numbers from 2 to the number of
#'   topics (default: up to 20 sizes spread over that range).
#' @param trials Random subsets per size.
#' @return An `ir_alpha_curve` object: `$curve`, a data frame with columns
#'   `n_topics`, `mean`, `conf.low`, `conf.high`, `projected`,
#'   `n_undefined`; `$draws` (a list, per size, of the subsets' alphas);
#'   `$sets` (a list, per size, of the subsets: size x trials column
#'   numbers); the parameters.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' cv <- alpha_curve(ap, sizes = c(5, 10, 20, 30, 50), trials = 100, seed = 1)
#' cv
#' ggplot2::autoplot(cv)
#' @export
alpha_curve <- function(scores, sizes = NULL, trials = 200, conf = 0.95, seed = NULL, n_threads = irtopics_threads(),
                        progress = NULL) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 3L, min_topics = 2L)
  nt <- ncol(m)
  sizes <- sizes %||% unique(round(seq(2, nt, length.out = min(nt - 1L, 20L))))
  if (!is.numeric(sizes) || !length(sizes) || anyNA(sizes) || any(sizes != round(sizes)) ||
      any(sizes < 2) || any(sizes > nt)) {
    stop_irtopics(c("{.arg sizes} must be whole numbers of topics from 2 to {nt}.",
                    x = "Got {show_values(sizes)}."))
  }
  sizes <- sort(unique(as.integer(sizes)))
  check_number(trials, "trials", min = 1, integer = TRUE)
  check_conf(conf)
  check_seed(seed)
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  measure <- attr(m, "measure")
  attr(m, "measure") <- NULL
  plan <- alpha_plan(trials, sum(sizes), "alpha trials", "trials")
  sets <- with_seed(seed, lapply(sizes, function(k) {
    matrix(vapply(seq_len(trials), function(b) sample.int(nt, k), integer(k)), k)
  }))
  draws <- lapply(seq_along(sizes), function(i) {
    alpha_sets(m, sets[[i]] - 1L, n_threads, plan, measure,
               what = sprintf("alpha trials over %d topics", sizes[i]))
  })
  a <- (1 - conf) / 2
  q <- vapply(draws, function(d) {
    if (all(is.na(d))) c(NA_real_, NA_real_) else stats::quantile(d, c(a, 1 - a), na.rm = TRUE, names = FALSE)
  }, numeric(2))
  curve <- data.frame(n_topics = sizes,
                      mean = vapply(draws, function(d) if (all(is.na(d))) NA_real_ else mean(d, na.rm = TRUE), numeric(1)),
                      conf.low = q[1, ], conf.high = q[2, ],
                      projected = d_study(g_study(m), sizes)$Erho2,
                      n_undefined = vapply(draws, function(d) sum(is.na(d)), integer(1)))
  new_ir_alpha_curve(list(curve = curve, draws = draws, sets = sets, trials = as.integer(trials), conf = conf,
                          seed = seed, measure = measure, n_systems = nrow(m), n_topics = nt))
}

new_ir_alpha_curve <- function(x) {
  new_result(x, "ir_alpha_curve",
             fields = c(curve = "data.frame", draws = "list", sets = "list", trials = "number", conf = "number",
                        measure = "string?", n_systems = "number", n_topics = "number"))
}

#' @rdname alpha_curve
#' @param x An `ir_alpha_curve` object.
#' @param ... Unused.
#' @export
format.ir_alpha_curve <- function(x, ...) {
  d <- x$curve
  num <- vapply(d, is.double, logical(1))
  d[num] <- lapply(d[num], round, 4)
  c(sprintf("<ir_alpha_curve> Cronbach's alpha%s of random topic subsets: %d systems, %d topics, %d subsets per size, %g%% ranges",
            if (!is.null(x$measure)) paste0(" (", x$measure, ")") else "", x$n_systems, x$n_topics,
            x$trials, 100 * x$conf),
    printed_lines(print(d, row.names = FALSE)))
}

#' @rdname alpha_curve
#' @export
print.ir_alpha_curve <- function(x, ...) print_formatted(x, ...)

#' @rdname alpha_curve
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_alpha_curve <- function(x, row.names = NULL, optional = FALSE, ...) x$curve

#' @rdname alpha_curve
#' @param object An `ir_alpha_curve` object.
#' @export
summary.ir_alpha_curve <- function(object, ...) {
  new_summary("ir_alpha_curve", sprintf("Alpha of random topic subsets (%d per size, %g%% ranges):",
                                        object$trials, 100 * object$conf),
              object$curve)
}

#' @rdname alpha_curve
#' @param target For `autoplot()`: a target alpha drawn as a dotted line
#'   (`NULL`: none).
#' @method autoplot ir_alpha_curve
#' @export
autoplot.ir_alpha_curve <- function(object, target = 0.95, ...) {
  check_no_dots(..., help = "alpha_curve")
  if (!is.null(target)) check_probs(target, "target", "A target reliability, e.g. {.code target = 0.95}.")
  d <- object$curve
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$n_topics)) +
    ggplot2::geom_ribbon(data = complete_bounds("conf.low", "conf.high"),
                         ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high), fill = "steelblue",
                         alpha = 0.2, na.rm = TRUE) +
    ggplot2::geom_line(ggplot2::aes(y = .data$mean, linetype = "mean over subsets"), colour = "steelblue") +
    sparse_points(nrow(d), ggplot2::aes(y = .data$mean), colour = "steelblue", size = 1) +
    ggplot2::geom_line(ggplot2::aes(y = .data$projected, linetype = "G-study projection"), colour = "grey30") +
    ggplot2::scale_linetype_manual(values = c("mean over subsets" = "solid", "G-study projection" = "dashed"))
  if (!is.null(target)) {
    p <- p + ggplot2::geom_hline(yintercept = target, linetype = "dotted", colour = "grey30") +
      ggplot2::annotate("text", x = min(d$n_topics), y = target, label = sprintf("target %s", format(target)),
                        hjust = 0, vjust = -0.4, size = panel_text_size(), colour = "grey30")
  }
  p + plot_labels(x = "Number of topics", y = quote("Cronbach's" ~ alpha), linetype = NULL,
                  title = "Cronbach's alpha of random topic subsets",
                  subtitle = sprintf("%s%s per size, %g%% ranges",
                                     if (is.null(object$measure)) "" else paste0(object$measure, "; "),
                                     format(object$trials, big.mark = ","), 100 * object$conf)) +
    title_theme(legend = TRUE)
}
