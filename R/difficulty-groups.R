#' Plot group agreement and reliability
#'
#' Mandl's (2009) Figure 1, in two panels with their own y axes: for each
#' difficulty group (1 = hardest), bars for the correlation (the `method` of
#' [group_agreement()], e.g. Kendall's \eqn{\tau_b}) of the group's MAP and
#' GMAP system rankings with the full-set rankings, and points for the
#' group's Cronbach's alpha. (Mandl drew both on one axis; a correlation and
#' a reliability are different quantities, so here each has its own.)
#'
#' @param object A [group_agreement()] result.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_group_agreement
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ggplot2::autoplot(group_agreement(ap))
#' @export
autoplot.ir_group_agreement <- function(object, ...) {
  check_no_dots(..., help = "autoplot.ir_group_agreement")
  g <- object$groups[object$groups$group != "all", , drop = FALSE]
  g$group <- droplevels(g$group)
  # two quantities, two panels with their own y axes (plotmath strip labels)
  panels <- c(group_cor_label(object$method), "\"Cronbach's\"~alpha")
  bars <- data.frame(group = rep(g$group, 2L),
                     aggregate = factor(rep(c("MAP", "GMAP"), each = nrow(g)), levels = c("MAP", "GMAP")),
                     value = c(g$cor_map, g$cor_gmap), panel = factor(panels[1], levels = panels))
  pts <- data.frame(group = g$group, value = g$alpha, panel = factor(panels[2], levels = panels))
  ggplot2::ggplot() +
    ggplot2::geom_col(data = bars, ggplot2::aes(x = .data$group, y = .data$value, fill = .data$aggregate),
                      position = ggplot2::position_dodge(width = 0.8), width = 0.7) +
    ggplot2::geom_point(data = pts, ggplot2::aes(x = .data$group, y = .data$value), size = 2) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_y", labeller = ggplot2::label_parsed) +
    ggplot2::scale_fill_grey(start = 0.3, end = 0.7) +
    plot_labels(x = "Difficulty group (1 = hardest)", y = NULL, fill = "Ranking by",
                title = wrap_text(sprintf("%d difficulty groups of topics", nrow(g))),
                subtitle = sprintf("%s; groups by %s", plural(object$n_systems, "system"), object$by)) +
    title_theme(legend = TRUE) + compact_legend()
}

# The strip label (plotmath) of the agreement panel: the correlation used.
group_cor_label <- function(method) {
  sym <- switch(method, kendall = "tau[b]", tau_a = "tau[a]", tau_ap = "tau[AP]", spearman = "rho",
                pearson = "r")
  paste0('"Correlation ("*', sym, '*")"')
}
# Topic difficulty groups and their agreement with the full ranking (Mandl
# 2009, "Easy tasks dominate information retrieval evaluation results";
# spec 5.1).

#' Topic difficulty
#'
#' The difficulty of each topic from the systems' scores on it: by default
#' the mean score over systems (Mandl 2009: "mean average performance of all
#' systems for that topic"); the maximum, minimum and variance, which Mandl
#' tried and rejected, are alternatives.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @param by `"mean"`, `"max"`, `"min"` or `"var"`.
#' @return A data frame with columns `topic`, `difficulty` (the statistic:
#'   low means hard) and `rank` (1 = hardest; ties broken by topic id), in
#'   the matrix's topic order.
#' @references Mandl, T. (2009). Easy tasks dominate information retrieval
#'   evaluation results. *BTW 2009*, LNI P-144.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' head(topic_difficulty(ap))
#' @export
topic_difficulty <- function(scores, by = c("mean", "max", "min", "var")) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 1L, min_topics = 1L)
  by <- match_choice(by)
  difficulty_impl(m, by)
}

difficulty_impl <- function(m, by) {
  d <- switch(by,
    mean = colMeans(m),
    max = apply(m, 2L, max),
    min = apply(m, 2L, min),
    var = if (nrow(m) < 2L) rep(NA_real_, ncol(m)) else apply(m, 2L, stats::var))
  ids <- colnames(m)
  num <- suppressWarnings(as.numeric(ids))
  key <- if (!anyNA(num)) order(num) else order(as_bytes(ids), method = "radix")
  tie_rank <- integer(length(ids))
  tie_rank[key] <- seq_along(ids)
  ord <- order(d, tie_rank)
  rank <- integer(length(d))
  rank[ord] <- seq_along(d)
  data.frame(topic = ids, difficulty = unname(d), rank = rank, stringsAsFactors = FALSE)
}

#' Split topics into difficulty groups
#'
#' Sorts the topics by difficulty ([topic_difficulty()]), hardest first,
#' ties by topic id, and cuts them into `k` consecutive groups at
#' \eqn{\lfloor jT/k \rfloor}, \eqn{j = 0..k} (Mandl 2009: quartiles; 4 x 25
#' for 100 topics).
#'
#' @section Reconstruction:
#' Mandl (2009) cuts 100 topics into four groups of 25 and says nothing
#' about ties or about sizes that do not divide evenly; irtopics breaks ties
#' in difficulty by topic id and uses the boundaries above, which give
#' groups whose sizes differ by at most one.
#'
#' @inheritParams topic_difficulty
#' @param k Number of groups, at most the number of topics.
#' @return A data frame: `topic`, `difficulty`, `rank`, `group` (integer, 1
#'   = hardest), sorted hardest first.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' g <- difficulty_groups(ap)
#' table(g$group)
#' @export
difficulty_groups <- function(scores, k = 4, by = c("mean", "max", "min", "var")) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 1L, min_topics = 1L)
  by <- match_choice(by)
  check_k(k, ncol(m))
  groups_impl(m, as.integer(k), by)
}

check_k <- function(k, n_top, call = rlang::caller_env()) {
  check_number(k, "k", min = 1, integer = TRUE, call = call)
  if (k > n_top) {
    stop_irtopics("{.arg k} must be at most the number of topics ({n_top}), not {k}.", call = call)
  }
}

groups_impl <- function(m, k, by) {
  d <- difficulty_impl(m, by)
  d <- d[order(d$rank), , drop = FALSE]
  n_top <- nrow(d)
  bounds <- floor(seq(0, k) * n_top / k)
  d$group <- findInterval(seq_len(n_top), bounds + 1L, rightmost.closed = FALSE)
  rownames(d) <- NULL
  d
}

#' Agreement of difficulty groups with the full ranking
#'
#' Mandl's (2009) analysis: topics are split into `k` difficulty groups
#' ([difficulty_groups()]); for each group the systems are ranked by MAP
#' and by GMAP over the group's topics, and these rankings are correlated
#' with the rankings over all topics (MAP with MAP, GMAP with GMAP). Also
#' reported: Cronbach's alpha of each group's scores ([cronbach_alpha()],
#' one per group, not per aggregate), and the correlation of full MAP with
#' full GMAP.
#'
#' @section Reconstruction:
#' Mandl (2009) does not name the correlation coefficient: Kendall's tau-b,
#' the usual choice for comparing system rankings, is the default, and
#' `method` gives the others. For GMAP, AP = 0 is replaced by \eqn{10^{-4}} and
#' other values kept (`gmean_method = "replace0"`, `eps = 1e-4`), as in the
#' paper. His manual removal of outlier runs is the explicit `exclude` list,
#' and his choice of the best ten runs is `top = 10`.
#'
#' @inheritParams difficulty_groups
#' @param method `"kendall"` (tau-b), `"tau_a"`, `"tau_ap"` (Yilmaz et al.'s
#'   AP correlation, the group ranking evaluated against the full one),
#'   `"spearman"` or `"pearson"`.
#' @param eps,gmean_method GMAP convention, see [gmap()].
#' @param exclude Systems (names) to leave out before anything is computed.
#' @param top Keep only the `top` systems by MAP over all topics (after
#'   `exclude`), or `NULL` for all.
#' @param conf `NULL` (no intervals) or a confidence level: `$groups` then
#'   has `cor_map_low`, `cor_map_high`, `cor_gmap_low` and `cor_gmap_high`,
#'   the jackknife interval over systems of each correlation (as
#'   [tau_interval()] with `method = "jackknife"`: leave one system out, normal
#'   approximation, cut to \[-1, 1\]). It treats the systems as a sample and
#'   the topics of each group as fixed: the topic groups are defined by the
#'   topics' difficulty, which a bootstrap over topics would redraw.
#' @details With fewer than 3 systems (after `exclude` and `top`) the numbers mean
#' nothing (two rankings of 2 systems correlate +1 or -1, and alpha's
#' variance between systems has 1 degree of freedom): a warning of class
#' `irtopics_warning_too_few` says so.
#' @return An `ir_group_agreement` object: `$groups`, a data frame with one row
#'   per group (`group` 1 = hardest, then `"all"`), columns `n_topics`,
#'   `mean_difficulty`, `cor_map`, `cor_gmap`, `alpha`; `$cor_map_gmap`;
#'   `$topics` (the groups, see [difficulty_groups()]); the parameters.
#'   `as.data.frame()` returns `$groups`; `summary()` the hardest and easiest
#'   group next to the whole set (an [irtopics_summary]).
#' @param x,object An `ir_group_agreement` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Mandl, T. (2009). Easy tasks dominate information retrieval
#'   evaluation results. *BTW 2009*, LNI P-144.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' ga <- group_agreement(ap)
#' ga
#' ggplot2::autoplot(ga)
#' @export
group_agreement <- function(scores, k = 4, method = c("kendall", "tau_a", "tau_ap", "spearman", "pearson"),
                            by = c("mean", "max", "min", "var"), eps = 1e-4,
                            gmean_method = c("replace0", "add", "floor"), exclude = NULL, top = NULL,
                            conf = NULL) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 1L)
  method <- match_choice(method)
  by <- match_choice(by)
  gmean_method <- match_choice(gmean_method)
  check_number(eps, "eps", min = .Machine$double.xmin)
  if (!is.null(conf)) check_conf(conf)
  if (any(m < 0)) stop_irtopics("{.arg scores} must not contain negative scores.", kind = "data")
  if (!is.null(exclude)) {
    check_names_in(exclude, rownames(m), arg = "exclude")
    m <- m[setdiff(rownames(m), exclude), , drop = FALSE]
  }
  if (!is.null(top)) {
    check_number(top, "top", min = 2, integer = TRUE)
    keep <- order(-rowMeans(m), rownames(m))[seq_len(min(top, nrow(m)))]
    m <- m[keep, , drop = FALSE]
  }
  if (nrow(m) < 2L) stop_irtopics("At least 2 systems must remain after {.arg exclude} and {.arg top}.", kind = "data")
  warn_too_few(nrow(m), 3L, "system", "The groups' correlations and Cronbach's alpha",
               "The rankings of 2 systems correlate +1 or -1, and alpha's variance between systems has 1 degree of freedom (it can be -6).")
  check_k(k, ncol(m))
  k <- as.integer(k)
  type <- switch(method, kendall = "b", tau_a = "a", tau_ap = "ap", method)
  topics <- groups_impl(m, k, by)
  gm <- function(sub) apply(sub, 1L, gmap_impl, eps = eps, method = gmean_method)
  full_map <- rowMeans(m)
  full_gmap <- gm(m)
  rows <- lapply(seq_len(k), function(g) {
    ids <- topics$topic[topics$group == g]
    sub <- m[, ids, drop = FALSE]
    data.frame(group = as.character(g), n_topics = length(ids),
               mean_difficulty = mean(topics$difficulty[topics$group == g]),
               cor_map = rank_cor_impl(rowMeans(sub), full_map, type),
               cor_gmap = rank_cor_impl(gm(sub), full_gmap, type),
               alpha = alpha_impl(sub))
  })
  # the full ranking against itself, by the same coefficient as the groups:
  # 1 for tau-b, Spearman and Pearson (NA if constant), but below 1 for tau-a
  # and tau_AP when systems tie
  all_row <- data.frame(group = "all", n_topics = ncol(m), mean_difficulty = mean(topics$difficulty),
                        cor_map = rank_cor_impl(full_map, full_map, type),
                        cor_gmap = rank_cor_impl(full_gmap, full_gmap, type), alpha = alpha_impl(m))
  groups <- rbind(do.call(rbind, rows), all_row)
  groups$group <- factor(groups$group, levels = c(as.character(seq_len(k)), "all"))
  if (!is.null(conf)) groups <- cbind(groups, group_cor_intervals(m, topics, k, gm, full_map, full_gmap, type, conf))
  new_ir_group_agreement(list(groups = groups, cor_map_gmap = rank_cor_impl(full_gmap, full_map, type),
                              topics = topics, method = method, by = by, eps = eps,
                              gmean_method = gmean_method, n_systems = nrow(m), systems = rownames(m)))
}

# Jackknife intervals over systems of each group's correlations (MAP and
# GMAP rankings against the full ones), rows as $groups.
group_cor_intervals <- function(m, topics, k, gm, full_map, full_gmap, type, conf) {
  jk <- function(x, y) {
    n <- length(x)
    if (n < 3L) return(c(NA_real_, NA_real_))
    est <- rank_cor_impl(x, y, type)
    loo <- vapply(seq_len(n), function(i) rank_cor_impl(x[-i], y[-i], type), numeric(1))
    half <- stats::qnorm(1 - (1 - conf) / 2) * sqrt((n - 1) / n * sum((loo - mean(loo))^2))
    c(max(-1, est - half), min(1, est + half))
  }
  sets <- c(lapply(seq_len(k), function(g) topics$topic[topics$group == g]), list(colnames(m)))
  b <- vapply(sets, function(ids) {
    sub <- m[, ids, drop = FALSE]
    c(jk(rowMeans(sub), full_map), jk(gm(sub), full_gmap))
  }, numeric(4))
  data.frame(cor_map_low = b[1, ], cor_map_high = b[2, ], cor_gmap_low = b[3, ], cor_gmap_high = b[4, ])
}

new_ir_group_agreement <- function(x) {
  new_result(x, "ir_group_agreement", old = "group_agreement",
             fields = c(groups = "data.frame", cor_map_gmap = "number", topics = "data.frame",
                        method = "string", n_systems = "number", systems = "character"))
}

#' @rdname group_agreement
#' @export
format.ir_group_agreement <- function(x, ...) {
  c(sprintf("<ir_group_agreement> %s, %s in %d difficulty groups (1 = hardest), %s correlation",
            plural(x$n_systems, "system"), plural(nrow(x$topics), "topic"), nrow(x$groups) - 1L,
            x$method),
    printed_lines(print(round_df(x$groups), row.names = FALSE)),
    sprintf("Correlation of full MAP with full GMAP: %.4f", x$cor_map_gmap))
}

#' @rdname group_agreement
#' @export
print.ir_group_agreement <- function(x, ...) print_formatted(x, ...)

#' @rdname group_agreement
#' @export
summary.ir_group_agreement <- function(object, ...) {
  g <- object$groups
  k <- nrow(g) - 1L
  new_summary("ir_group_agreement",
              sprintf("Hardest and easiest of %d difficulty groups against all topics (%s correlation):",
                      k, object$method),
              g[c(1L, k, k + 1L)[!duplicated(c(1L, k, k + 1L))], , drop = FALSE])
}

#' @rdname group_agreement
#' @export
as.data.frame.ir_group_agreement <- function(x, row.names = NULL, optional = FALSE, ...) x$groups
