#' Plot an isoMDS map of a topic's lists
#'
#' One point per list at its isoMDS coordinates, labelled by the query
#' letter and coloured by system: Figure 2 of Liggett & Buckley (2005).
#'
#' @param object An `ir_query_map` object from [query_map_mds()].
#' @param systems The systems to draw (the map itself is of all lists). By
#'   default all, up to 8; of more systems, the first 8 by name, and the
#'   caption (or, with titles off, a message) says how many were left out.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_query_map
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 2)
#' d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, depth = 200)
#' ggplot2::autoplot(query_map_mds(d))
#' @export
autoplot.ir_query_map <- function(object, systems = NULL, ...) {
  check_no_dots(..., help = "autoplot.ir_query_map")
  df <- object$points
  if (!"dim2" %in% names(df)) df$dim2 <- 0
  shown <- variation_plot_systems(unique(df$system), systems)
  df <- df[df$system %in% shown$systems, , drop = FALSE]
  systems <- shown$systems
  df$system <- factor(df$system, levels = systems)
  shared <- shared_points_text(object)
  p <- ggplot2::ggplot(df, ggplot2::aes(x = .data$dim1, y = .data$dim2, colour = .data$system,
                                        shape = .data$system)) +
    ggplot2::geom_point(size = 1.5, alpha = 0.8) +
    query_letter_layer(df) +
    system_point_scales(systems, unique(object$points$system), below = FALSE) +
    ggplot2::coord_equal() +
    plot_labels(title = if (!is.null(object$topic)) paste("Topic", object$topic),
                note = caption_lines(sim_caption(object$simulated), shown$note, shared),
                x = "Dimension 1", y = "Dimension 2")
  p
}

# Shapes that stay visible when points of several systems coincide: one
# filled disc, then open shapes and strokes (an open shape drawn over another
# leaves both visible), recycled beyond 10 systems.
system_shapes <- function(n) rep_len(c(16, 2, 0, 1, 5, 6, 3, 4, 8, 17), n)

# The query letters beside their points, repelled from one another with
# ggrepel (letters of lists at one point then stay readable), else nudged.
query_letter_layer <- function(df) {
  if (requireNamespace("ggrepel", quietly = TRUE)) {
    ggrepel::geom_text_repel(ggplot2::aes(label = .data$letter), size = 3, fontface = "bold",
                             max.overlaps = Inf, seed = 1, show.legend = FALSE,
                             min.segment.length = 0.3, box.padding = 0.15, point.padding = 0.1)
  } else {
    ggplot2::geom_text(ggplot2::aes(label = .data$letter), size = 3, fontface = "bold",
                       vjust = -0.6, show.legend = FALSE)
  }
}

# MDS ----------------------------------------------------------------------------

#' Map the lists of a topic by non-metric multidimensional scaling
#'
#' Kruskal's isotonic multidimensional scaling (`MASS::isoMDS`) of a topic's
#' return-order dissimilarities, one point per list: the paper's Figures 2, 4
#' and 6, drawn by `autoplot()` with the query letter as label and one colour
#' per system. Dissimilarities above 1e100 or below 1e-100 are
#' divided by the largest one before isoMDS (the scaling is non-metric) and
#' the points multiplied back; dissimilarities more than 100 orders of
#' magnitude apart are refused (transform them first, e.g. to ranks).
#'
#' @section Lists at distance 0:
#' Lists that return the relevant documents in the same order are at
#' dissimilarity 0, and isoMDS can't place two points on one spot. This
#' happens across systems (two near-identical runs, such as two settings of
#' one system) as well as within one (duplicate queries, which
#' [select_queries()] removes). With `duplicates = "merge"` (the default, our
#' choice) the lists at distance 0 from one another are merged into one point
#' before the scaling (the dissimilarity between two merged points is the
#' mean over their lists, which for a true distance are all equal), every
#' list gets its point's coordinates, and a message names them; `print()`,
#' `summary()` and the plot say how many lists share a point. `"error"`
#' refuses them instead, as earlier versions did.
#'
#' @param d A `dist` from [return_order_dissimilarity()] (or any `dist` with
#'   labels).
#' @param k Number of dimensions.
#' @param maxit,tol,p Passed to `MASS::isoMDS()` (its defaults); `p`, the
#'   Minkowski power of the configuration distances, must be at least 1.
#' @param duplicates `"merge"` (default) or `"error"`: what to do with lists
#'   at distance 0 (see "Lists at distance 0").
#' @return An object of class `ir_query_map`: `points`, a data frame (`list,
#'   system, query, letter, point, dim1, dim2, ...`; `point` numbers the
#'   distinct points, shared by lists at distance 0), `stress` (percent) and the
#'   topic. `as.data.frame()` returns `points`; `print()` the stress and the
#'   first points; `summary()` the stress and the spread of each system's
#'   points (an [irtopics_summary]); `autoplot()` draws the map.
#' @param x,object An `ir_query_map` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @examples
#' sim <- simulate_query_runs(n_systems = 2, n_topics = 1, n_queries = 6, n_docs = 300,
#'                            depth = 200, seed = 2)
#' d <- return_order_dissimilarity(sim$runs, sim$qrels, "sim01", sim$query_map, depth = 200)
#' m <- query_map_mds(d)
#' ggplot2::autoplot(m)
#' @export
query_map_mds <- function(d, k = 2L, maxit = 50L, tol = 1e-3, p = 2,
                          duplicates = c("merge", "error")) {
  duplicates <- match_choice(duplicates)
  if (!inherits(d, "dist")) stop_irtopics("{.arg d} must be a {.cls dist} object.")
  check_number(k, "k", min = 1, integer = TRUE)
  check_number(maxit, "maxit", min = 0, integer = TRUE)
  check_number(tol, "tol", min = 0, max = .Machine$double.xmax)
  check_number(p, "p", min = 1, max = .Machine$double.xmax)
  m <- as.matrix(d)
  labs <- rownames(m) %||% as.character(seq_len(nrow(m)))
  if (nrow(m) < k + 2L) {
    stop_irtopics("isoMDS in {k} dimension{?s} needs at least {k + 2} lists, not {nrow(m)}.",
                  kind = "data")
  }
  off <- row(m) < col(m)
  bad_na <- which(off & is.na(m), arr.ind = TRUE)
  if (nrow(bad_na)) {
    stop_irtopics(c("Can't scale lists with an undefined dissimilarity (a list that returns no relevant document).",
                    "x" = "{nrow(bad_na)} pair{?s}, first: {.val {labs[bad_na[1, 1]]}} and {.val {labs[bad_na[1, 2]]}}."),
                  kind = "data")
  }
  bad_inf <- which(off & !is.finite(m), arr.ind = TRUE)
  if (nrow(bad_inf)) {
    stop_irtopics(c("isoMDS needs finite dissimilarities, but {nrow(bad_inf)} pair{?s} of lists {?is/are} at an infinite (or NaN) distance.",
                    "x" = "First: {.val {labs[bad_inf[1, 1]]}} and {.val {labs[bad_inf[1, 2]]}}."),
                  kind = "data")
  }
  dup <- merge_zero_distances(m, labs, duplicates)
  m <- dup$m
  off <- row(m) < col(m)
  if (nrow(m) < k + 2L) {
    stop_irtopics(c("isoMDS in {k} dimension{?s} needs at least {k + 2} distinct points, not {nrow(m)}.",
                    i = "{length(labs) - nrow(m)} list{?s} share{?s/} a point with another (distance 0)."),
                  kind = "data")
  }
  # Extreme but finite dissimilarities (issue 29: 1e308 reached cmdscale()'s
  # "infinite or missing values", 1e-300 isoMDS's "invalid initial
  # configuration"): the scaling is non-metric (only the order of the
  # dissimilarities defines the stress), so beyond 1e100 (or below 1e-100)
  # the map is isoMDS's of d / max(d), with its points scaled back by
  # max(d). Values spanning more than 1e100 cannot be scaled into range.
  span <- range(m[off])
  scale <- 1
  if (span[2] > 1e100 || span[1] < 1e-100) {
    if (span[2] / span[1] > 1e100) {
      stop_irtopics(c("isoMDS can't scale dissimilarities from {format(span[1])} to {format(span[2])}: more than 100 orders of magnitude apart.",
                      i = "Transform them first (their ranks or logs keep the order isoMDS uses)."),
                    kind = "data")
    }
    scale <- span[2]
    m <- m / scale
  }
  fit <- MASS::isoMDS(stats::as.dist(m), k = k, maxit = maxit, tol = tol, p = p, trace = FALSE)
  fit$points <- fit$points * scale
  if (!all(is.finite(fit$points))) {
    stop_irtopics("isoMDS's points at the dissimilarities' scale ({format(scale)}) are beyond the range of doubles.",
                  kind = "data")
  }
  pts <- as.data.frame(fit$points[dup$point, , drop = FALSE])
  names(pts) <- paste0("dim", seq_len(ncol(pts)))
  lists <- attr(d, "lists")
  if (is.null(lists)) {
    lists <- data.frame(list = labs, system = sub("\\|.*$", "", labs),
                        query = sub("^[^|]*\\|", "", labs))
    lists$letter <- query_letters(length(unique(lists$query)))[match(lists$query, unique(lists$query))]
  }
  out <- cbind(lists[, c("list", "system", "query", "letter")], point = dup$point, pts)
  rownames(out) <- NULL
  map <- new_ir_query_map(list(points = out, stress = fit$stress, topic = attr(d, "topic"), k = as.integer(k),
                               simulated = isTRUE(attr(d, "simulated"))))
  shared <- shared_points_text(map)
  if (length(shared)) inform_irtopics(c(shared, i = "They are drawn as one point each, labelled once per list."),
                                      kind = "data")
  map
}

new_ir_query_map <- function(x) {
  new_result(x, "ir_query_map", fields = c(points = "data.frame", stress = "number", topic = "string?",
                                           k = "number", simulated = "flag"))
}

#' @rdname query_map_mds
#' @export
format.ir_query_map <- function(x, ...) {
  c(sprintf("<ir_query_map> isoMDS of %s%s in %s, stress %s%%%s", plural(nrow(x$points), "list"),
            if (!is.null(x$topic)) paste0(" of topic ", x$topic) else "", plural(x$k, "dimension"),
            format(x$stress, digits = 3), if (x$simulated) " (simulated data)" else ""),
    shared_points_text(x),
    printed_lines(print(round_df(utils::head(x$points, 8), 3), row.names = FALSE)),
    more_line(list = nrow(x$points) - 8))
}

#' @rdname query_map_mds
#' @export
print.ir_query_map <- function(x, ...) print_formatted(x, ...)

#' @rdname query_map_mds
#' @export
summary.ir_query_map <- function(object, ...) {
  p <- object$points
  dims <- grep("^dim[0-9]+$", names(p), value = TRUE)
  tab <- do.call(rbind, lapply(split(p, factor(p$system, levels = unique(p$system))), function(d) {
    centre <- colMeans(d[dims])
    data.frame(system = d$system[1], lists = nrow(d),
               mean_distance_to_centre = mean(sqrt(rowSums(sweep(as.matrix(d[dims]), 2, centre)^2))))
  }))
  new_summary("ir_query_map", c(sprintf("isoMDS stress %s%%; spread of each system's lists:",
                                      format(object$stress, digits = 3)), shared_points_text(object)), tab)
}

#' @rdname query_map_mds
#' @export
as.data.frame.ir_query_map <- function(x, row.names = NULL, optional = FALSE, ...) x$points

# Lists at distance 0 -------------------------------------------------------------

# Groups of lists at distance 0 from one another (connected components of the
# zero pairs), merged into one row of the dissimilarity matrix each: the mean
# dissimilarity between the groups' lists (equal for a true distance). Returns
# the reduced matrix and, for every list, the index of its point. With
# duplicates = "error", zero pairs are refused with the fix that applies.
merge_zero_distances <- function(m, labs, duplicates, call = rlang::caller_env()) {
  n <- nrow(m)
  neg <- which(row(m) < col(m) & m < 0, arr.ind = TRUE)
  if (nrow(neg)) {
    stop_irtopics(c("isoMDS needs dissimilarities of at least 0, but {nrow(neg)} pair{?s} of lists {?is/are} negative.",
                    "x" = "First: {.val {labs[neg[1, 1]]}} and {.val {labs[neg[1, 2]]}}."),
                  kind = "data", call = call)
  }
  zero <- which(row(m) < col(m) & m == 0, arr.ind = TRUE)
  if (!nrow(zero)) return(list(m = m, point = seq_len(n)))
  if (duplicates == "error") {
    pairs <- paste0(labs[zero[, 1]], " = ", labs[zero[, 2]])
    stop_irtopics(c("isoMDS needs positive dissimilarities, but {nrow(zero)} pair{?s} of lists {?is/are} at distance 0:",
                    stats::setNames(utils::head(pairs, 5), rep("x", min(5, length(pairs)))),
                    "i" = "Use {.code duplicates = \"merge\"} to draw each group of identical lists as one point.",
                    "i" = "Within one system, {.fn select_queries} removes duplicate queries."),
                  kind = "data", call = call)
  }
  group <- seq_len(n)
  find <- function(i) {
    while (group[i] != i) i <- group[i]
    i
  }
  for (r in seq_len(nrow(zero))) {
    a <- find(zero[r, 1])
    b <- find(zero[r, 2])
    if (a != b) group[max(a, b)] <- min(a, b)
  }
  root <- vapply(seq_len(n), find, integer(1))
  point <- match(root, unique(root))
  np <- max(point)
  reduced <- matrix(0, np, np)
  for (i in seq_len(np)) for (j in seq_len(np)) {
    if (i != j) reduced[i, j] <- mean(m[point == i, point == j])
  }
  dimnames(reduced) <- list(labs[!duplicated(point)], labs[!duplicated(point)])
  list(m = reduced, point = point)
}

# One line saying which lists share a point (empty when none do).
shared_points_text <- function(x) {
  p <- x$points
  if (is.null(p$point) || !anyDuplicated(p$point)) return(character())
  shared <- p$point %in% p$point[duplicated(p$point)]
  n_points <- length(unique(p$point[shared]))
  # systems whose lists coincide with another system's: "a = b"
  pairs <- unique(unlist(lapply(split(p$system, p$point), function(s) {
    s <- unique(s)
    if (length(s) > 4L) s <- c(s[1:3], sprintf("%d more", length(s) - 3L))
    if (length(s) > 1L) paste(s, collapse = " = ")
  })))
  sprintf("%d of %d lists share %d point%s (identical return orders%s).",
          sum(shared), nrow(p), n_points, if (n_points == 1L) "" else "s",
          if (length(pairs)) paste0(": ", paste(utils::head(pairs, 3), collapse = ", "),
                                    if (length(pairs) > 3) ", ..." else "") else "")
}
