# autoplot() methods of the robust-evaluation, stability and difficulty
# analyses. Each returns a ggplot and never prints.

#' Plot a robust-track summary
#'
#' * `type = "sorted"`: per-topic AP sorted from worst to best, one line per
#'   run (Figure 3 of Voorhees 2004; the [autoplot()][autoplot.ir_scores]
#'   method of the AP matrix).
#' * `type = "gmap"`: MAP against GMAP per system over one topic set, which
#'   shows the runs whose MAP hides many poor topics (`label` names them).
#' * `type = "sets"`: one measure per topic set for chosen systems (bars;
#'   MAP with error bars, its 95% t interval over the set's topics, see
#'   [mean_intervals()]).
#'
#' @param object A [robust_summary()] result.
#' @param type `"sorted"`, `"gmap"` or `"sets"`.
#' @param systems Systems to show; default for `"sorted"` and `"sets"`: the
#'   8 best by MAP, ties by name, best first (the rule of
#'   [autoplot.ir_scores()], so that both figures show the same systems; a
#'   message and the caption say how many were left out); all for `"gmap"`.
#' @param topic_set For `"gmap"`: which topic set (default `"all"`).
#' @param measure For `"sets"`: `"MAP"`, `"P10"`, `"pct_no"`, `"area"` or
#'   `"GMAP"`.
#' @param label For `"gmap"`: which points to label with their system
#'   names: `"auto"` (the default: all when there are at most 20
#'   points, else the 5 largest, as for a whole number), `NULL` (none), `"all"`, a whole number \eqn{k} (the
#'   \eqn{k} best by MAP) or a character vector of names. Labels are placed
#'   without overlaps by ggrepel when it is installed, else above the
#'   points.
#' @param layout,highlight For `"sorted"`: how the lines are told apart,
#'   see [autoplot.ir_scores()].
#' @param ... Unused; unknown arguments are an error, and so are
#'   arguments the chosen `type` does not use.
#' @return A ggplot object.
#' @method autoplot ir_robust_summary
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' rs <- robust_summary(ap)
#' ggplot2::autoplot(rs, type = "gmap", label = 5)
#' @export
autoplot.ir_robust_summary <- function(object, type = c("sorted", "gmap", "sets"), systems = NULL,
                                    topic_set = "all", measure = "MAP", label = "auto",
                                    layout = c("auto", "lines", "facets", "highlight"), highlight = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_robust_summary")
  type <- match_choice(type)
  used <- list(sorted = c("systems", "layout", "highlight"), gmap = c("systems", "topic_set", "label"),
               sets = c("systems", "measure"))[[type]]
  given <- c(systems = !is.null(systems), topic_set = !missing(topic_set),
             measure = !missing(measure), label = !missing(label), layout = !missing(layout),
             highlight = !is.null(highlight))
  check_type_args(given, used, type)
  tab <- object$table
  if (type == "sorted") return(ggplot2::autoplot(object$ap, systems = systems, layout = layout,
                                                 highlight = highlight))
  if (type == "gmap") {
    if (!topic_set %in% levels(tab$topic_set)) {
      stop_irtopics("{.arg topic_set} must be one of {.val {levels(tab$topic_set)}}.")
    }
    d <- tab[tab$topic_set == topic_set, , drop = FALSE]
    if (!is.null(systems)) {
      check_names_in(systems, unique(d$system), arg = "systems", of = "object")
      d <- d[d$system %in% systems, , drop = FALSE]
    }
    return(ggplot2::ggplot(d, ggplot2::aes(x = .data$MAP, y = .data$GMAP)) +
      ggplot2::geom_point() +
      label_layer(d, label, "system", "MAP", "MAP", "GMAP") +
      plot_labels(x = sprintf("MAP (%s topics)", topic_set), y = sprintf("GMAP (%s topics)", topic_set),
                  title = sprintf("MAP and GMAP of %s", plural(nrow(d), "system"))) +
      title_theme())
  }
  meas <- c("MAP", "P10", "pct_no", "area", "GMAP")
  if (!measure %in% meas) stop_irtopics("{.arg measure} must be one of {.val {meas}}.")
  all <- tab[tab$topic_set == "all", , drop = FALSE]
  note <- NULL
  if (is.null(systems)) {
    # the rule of the sorted plot (and of every figure of scores): the 8 best by mean AP
    systems <- best_systems(rowMeans(unclass(object$ap), na.rm = TRUE))
    if (length(systems) < nrow(object$ap)) {
      note <- dropped_note(length(systems), nrow(object$ap), "AP")
      inform_irtopics(note, kind = "layout")
    }
  }
  unknown <- setdiff(systems, all$system)
  if (length(unknown)) stop_irtopics("{.arg systems} must name systems; unknown: {.val {unknown}}.")
  d <- tab[tab$system %in% systems, , drop = FALSE]
  d$system <- factor(d$system, levels = systems)
  d$value <- d[[measure]]
  n_sets <- length(levels(d$topic_set))
  p <- ggplot2::ggplot(d, ggplot2::aes(x = .data$system, y = .data$value, fill = .data$topic_set)) +
    ggplot2::geom_col(position = ggplot2::position_dodge(width = 0.9)) +
    # greys: topic sets, not systems (colours are for systems across figures)
    ggplot2::scale_fill_grey(start = 0.55, end = 0.85, guide = if (n_sets > 1L) "legend" else "none")
  subtitle <- NULL
  if (measure == "MAP") {
    # MAP is a mean over the set's topics: its 95% t interval as an error bar
    ap <- unclass(object$ap)
    sets <- c(list(all = colnames(ap)), object$topic_sets)
    ci <- mapply(function(s, set) {
      v <- ap[as.character(s), sets[[as.character(set)]]]
      t_mean_bounds(matrix(v, 1L), 0.95)[c("low", "high")]
    }, d$system, d$topic_set)
    d$conf.low <- unlist(ci["low", ])
    d$conf.high <- unlist(ci["high", ])
    p <- p + ggplot2::geom_errorbar(data = d, ggplot2::aes(ymin = .data$conf.low, ymax = .data$conf.high),
                                    position = ggplot2::position_dodge(width = 0.9), width = 0.3,
                                    colour = "grey20", na.rm = TRUE)
    subtitle <- "Error bars: 95% t intervals of the mean over the set's topics"
  }
  label <- if (measure == "pct_no") "%no" else measure
  p +
    plot_labels(title = wrap_text(sprintf("%s per topic set, %s", label, plural(length(systems), "system"))),
                subtitle = if (!is.null(subtitle)) wrap_text(subtitle, 48L), caption = note,
                x = NULL, y = label, fill = "Topic set") +
    title_theme(legend = n_sets > 1L) +
    ggplot2::theme(axis.text.x = ggplot2::element_text(angle = 45, hjust = 1))
}
# Robust-track measures: MAP, P@10, %no, area and GMAP over topic sets
# (Voorhees 2004, Tables 3 and 7; NIST's robust_eval.pl; spec 2.1-2.2).

#' Robust-track evaluation table
#'
#' Per system: MAP, P@10, %no (percentage of topics with P@10 = 0, i.e. no
#' relevant document in the top ten), area (mean of MAP(X) over the worst
#' X = 1 .. floor(T/4) topics) and GMAP, over all topics and over named
#' topic subsets: the layout of Tables 3 and 7 of the TREC 2004 Robust track
#' overview (Voorhees 2004).
#'
#' * MAP \eqn{= \frac1T\sum_t AP_t}, P@10 likewise on the P@10 matrix.
#' * %no \eqn{= 100\,\#\{t: P10_t = 0\}/T}.
#' * area: with \eqn{a_{(1)} \le \dots \le a_{(T)}} the sorted AP values and
#'   \eqn{Q = \lfloor T/4 \rfloor}, \eqn{\mathrm{MAP}(X) = \frac1X\sum_{i\le X}
#'   a_{(i)}} and area \eqn{= \frac1Q\sum_{X=1}^{Q}\mathrm{MAP}(X)}
#'   (NIST's `robust_eval.pl`); `NA` when \eqn{T < 4}.
#' * GMAP with the epsilon convention of [gmap()] (default: add
#'   \eqn{10^{-5}}, then subtract it, as in the overview).
#'
#' @param ap AP scores, an [ir_scores][as_ir_scores] or numeric matrix
#'   (systems x topics) without NA.
#' @param p10 P@10 scores with the same systems and topics (matched by name),
#'   or `NULL` (P@10 and %no are then `NA`).
#' @param topic_sets A named list of topic ids (character or numeric), e.g.
#'   `list(old = c(301:450, 601:650), new = 651:700)`. Ids absent from `ap`
#'   are ignored (so ranges may include dropped topics such as 672); a set
#'   with no topic in `ap` is an error. The set `"all"` (every topic) is
#'   always added first.
#' @param eps,gmean_method GMAP convention, see [gmap()].
#' @param area_divisor `NULL` (default): area divides the sum of MAP(X) by
#'   \eqn{Q = \lfloor T/4 \rfloor} as above. A number: divide by that
#'   number instead (`12` is the fixed scale the track's stability
#'   computations appear to have used at every topic-set size; see
#'   [swap_error_rates()], "The area scale").
#' @return An `ir_robust_summary` object: `$table`, a data frame with one row per
#'   system and topic set (columns `system`, `topic_set`, `n_topics`, `MAP`,
#'   `P10`, `pct_no`, `area`, `GMAP`); the AP matrix (`$ap`) for plots; and
#'   the parameters. `as.data.frame(x, wide = TRUE)` gives one row per
#'   system, as in the paper's tables. `summary()` gives the mean of each
#'   column over the systems per topic set (an [irtopics_summary]); `print()` the
#'   best `n` systems in the wide layout.
#' @references Voorhees, E. M. (2004). Overview of the TREC 2004 Robust
#'   Retrieval Track. *TREC 2004*.
#' @seealso [gmap()], [swap_error_rates()].
#' @examples
#' f <- function(x) system.file("extdata", "score-matrices", x, package = "irtopics")
#' ap <- read_scores(f("robust2004_ap.csv"), measure = "AP")
#' p10 <- read_scores(f("robust2004_p10.csv"), measure = "P@10")
#' rs <- robust_summary(ap, p10, topic_sets = list(old = c(301:450, 601:650),
#'                                                 new = 651:700))
#' rs
#' head(as.data.frame(rs, wide = TRUE))
#' @export
robust_summary <- function(ap, p10 = NULL, topic_sets = NULL, eps = 1e-5,
                           gmean_method = c("add", "floor", "replace0"), area_divisor = NULL) {
  a <- check_scores(ap, allow_na = FALSE, min_systems = 1L, min_topics = 1L, arg = "ap")
  check_area_divisor(area_divisor, "area")
  gmean_method <- match_choice(gmean_method)
  check_number(eps, "eps", min = .Machine$double.xmin)
  if (any(a < 0)) stop_irtopics("{.arg ap} must not contain negative scores.", kind = "data")
  p <- NULL
  if (!is.null(p10)) {
    p <- check_scores(p10, allow_na = FALSE, min_systems = 1L, min_topics = 1L, arg = "p10")
    miss_s <- setdiff(rownames(a), rownames(p))
    miss_t <- setdiff(colnames(a), colnames(p))
    if (length(miss_s) || length(miss_t)) {
      stop_irtopics(c("{.arg p10} must have the systems and topics of {.arg ap}.",
                      x = if (length(miss_s)) "Missing system{?s}: {.val {head(miss_s, 3)}}.",
                      x = if (length(miss_t)) "Missing topic{?s}: {.val {head(miss_t, 3)}}."))
    }
    p <- p[rownames(a), colnames(a), drop = FALSE]
  }
  sets <- resolve_topic_sets(topic_sets, colnames(a))
  rows <- lapply(names(sets), function(nm) {
    idx <- sets[[nm]]
    sub <- a[, idx, drop = FALSE]
    data.frame(
      system = rownames(a), topic_set = nm, n_topics = length(idx),
      MAP = rowMeans(sub),
      P10 = if (is.null(p)) NA_real_ else rowMeans(p[, idx, drop = FALSE]),
      pct_no = if (is.null(p)) NA_real_ else 100 * rowMeans(p[, idx, drop = FALSE] == 0),
      area = apply(sub, 1L, area_impl, divisor = area_divisor),
      GMAP = apply(sub, 1L, gmap_impl, eps = eps, method = gmean_method),
      row.names = NULL, stringsAsFactors = FALSE
    )
  })
  tab <- do.call(rbind, rows)
  tab$topic_set <- factor(tab$topic_set, levels = names(sets))
  ap_scores <- new_ir_scores(a, attr(a, "measure") %||% "AP")
  new_ir_robust_summary(list(table = tab, ap = ap_scores, topic_sets = lapply(sets, function(i) colnames(a)[i]),
                             eps = eps, gmean_method = gmean_method, area_divisor = area_divisor))
}

new_ir_robust_summary <- function(x) {
  new_result(x, "ir_robust_summary", old = "robust_summary",
             fields = c(table = "data.frame", ap = "scores", topic_sets = "list", eps = "number"))
}

resolve_topic_sets <- function(topic_sets, topics, call = rlang::caller_env()) {
  out <- list(all = seq_along(topics))
  if (is.null(topic_sets)) return(out)
  if (!is.list(topic_sets) || is.null(names(topic_sets)) || any(names(topic_sets) == "") ||
      anyDuplicated(names(topic_sets))) {
    stop_irtopics("{.arg topic_sets} must be a list with unique names, e.g. {.code list(old = 301:450)}.",
                  call = call)
  }
  if ("all" %in% names(topic_sets)) stop_irtopics("{.arg topic_sets} must not use the name {.val all}.", call = call)
  for (nm in names(topic_sets)) {
    ids <- topic_sets[[nm]]
    if (!(is.numeric(ids) || is.character(ids)) || !length(ids)) {
      stop_irtopics("{.arg topic_sets${nm}} must be a vector of topic ids.", call = call)
    }
    idx <- which(topics %in% as_ids(ids))
    if (!length(idx)) {
      stop_irtopics("Topic set {.val {nm}} has no topic in the score matrix.", kind = "data", call = call)
    }
    out[[nm]] <- idx
  }
  out
}

# area of one run's AP vector (spec 2.1): NA when fewer than 4 topics. A
# `divisor` replaces floor(T/4) as the denominator (spec 2.6, track scale).
area_impl <- function(v, divisor = NULL) {
  q <- length(v) %/% 4L
  if (q == 0L) return(NA_real_)
  worst <- sort(v)[seq_len(q)]
  if (is.null(divisor)) mean(cumsum(worst) / seq_len(q)) else sum(cumsum(worst) / seq_len(q)) / divisor
}

#' @rdname robust_summary
#' @export
format.ir_robust_summary <- function(x, ..., n = 10L) {
  check_shown(n = n)
  sets <- levels(x$table$topic_set)
  wide <- as.data.frame(x, wide = TRUE)
  shown <- round_df(utils::head(wide, n))
  c(sprintf("<ir_robust_summary> %s; topic sets: %s", plural(nrow(x$ap), "system"),
            paste(sprintf("%s (%d)", sets, vapply(x$topic_sets, length, 1L)), collapse = ", ")),
    sprintf("Top %s by MAP over all topics (pct_no in %%):", plural(nrow(shown), "system")),
    printed_lines(print(shown, row.names = FALSE)),
    more_line(system = nrow(wide) - nrow(shown)))
}

#' @rdname robust_summary
#' @export
print.ir_robust_summary <- function(x, ..., n = 10L) print_formatted(x, n = n)

#' @param x,object A `robust_summary`.
#' @param n Number of systems to print.
#' @param row.names,optional Unused.
#' @param wide One row per system with columns `<measure>.<set>`, sorted by
#'   MAP over all topics (the paper's layout), instead of the long table.
#' @param ... Unused.
#' @rdname robust_summary
#' @export
as.data.frame.ir_robust_summary <- function(x, row.names = NULL, optional = FALSE, ..., wide = FALSE) {
  tab <- x$table
  if (!wide) return(tab)
  meas <- c("MAP", "P10", "pct_no", "area", "GMAP")
  pieces <- lapply(levels(tab$topic_set), function(s) {
    d <- tab[tab$topic_set == s, c("system", meas)]
    names(d)[-1] <- paste(meas, s, sep = ".")
    d
  })
  out <- Reduce(function(l, r) merge(l, r, by = "system", sort = FALSE), pieces)
  out <- out[order(-out$MAP.all, out$system), , drop = FALSE]
  rownames(out) <- NULL
  out
}

#' @rdname robust_summary
#' @export
summary.ir_robust_summary <- function(object, ...) {
  tab <- object$table
  meas <- c("MAP", "P10", "pct_no", "area", "GMAP")
  agg <- stats::aggregate(tab[meas], by = list(topic_set = tab$topic_set), FUN = mean)
  agg$n_topics <- vapply(object$topic_sets, length, 1L)[as.character(agg$topic_set)]
  new_summary("ir_robust_summary", sprintf("Means over %s per topic set:", plural(nrow(object$ap), "system")),
              agg)
}
