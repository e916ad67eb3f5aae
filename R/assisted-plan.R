# How many topics must humans label? The planning of judge-assisted
# evaluation (issue 41) from a pilot assisted_means() result: the labelled
# set that gives a target half-width, and the judge's worth in human-labelled
# topics (n_eff).

#' Plan judge-assisted evaluation: topics humans must label
#'
#' From a pilot [assisted_means()] result, how many topics humans must label
#' for the interval of every system's mean to have half-width at most
#' `half_width`, per measure and method, and what the judge is worth in
#' human-labelled topics. With the pilot's variances and covariance
#' (\eqn{\mathrm{var}(Y)}, \eqn{\mathrm{cov}(Y, f)}, \eqn{\mathrm{var}(f)} on
#' its labelled topics, \eqn{\mathrm{var}(\tilde f)} on its unlabelled ones),
#' the half-width with \eqn{n} labelled and \eqn{N} unlabelled topics is
#' \deqn{h(n) = z_{1-\alpha/2} \sqrt{\mathrm{var}(Y - \lambda f)/n +
#' \lambda^2 \mathrm{var}(\tilde f)/N},} the specification's planning
#' formula, with \eqn{\lambda = 0} (human only), 1 (PPI), or PPI++'s
#' \eqn{\lambda} retuned at \eqn{n} and \eqn{N} from the pilot's moments
#' (at the pilot's own size this is the pilot's estimate exactly). The plan
#' gives the smallest whole \eqn{n} with \eqn{h(n) \le} `half_width`:
#' * with \eqn{N} fixed (the pilot's unlabelled topics, or `n_unlabelled`),
#'   searched up to \eqn{10^6}; `Inf` when out of reach (for PPI, when the
#'   judge's own term \eqn{\lambda^2 \mathrm{var}(\tilde f)/N} alone is
#'   wider than the target: more unlabelled topics are needed, not more
#'   labels);
#' * in a fixed collection of `n_topics` topics (\eqn{N = } `n_topics`
#'   \eqn{- n}), every \eqn{n} up to `n_topics` - 2 is tried.
#'
#' The judge's worth is \eqn{n_{eff} = \mathrm{var}(Y) / se(\lambda)^2} at
#' the pilot: the number of human-labelled topics a human-only estimate would
#' need for the pilot's standard error (\eqn{n} itself for `"classical"`;
#' with strata, \eqn{n\, se(0)^2 / se(\lambda)^2}). `needed` is the
#' largest \eqn{n} over systems (every interval within the target).
#' With strata, each stratum keeps its share of the labelled and of the
#' unlabelled topics.
#'
#' @section Reconstruction:
#' Ours (DERIVED): the pilot's variances are taken as known (a pilot of few
#' topics gives a rough plan); PPI++'s \eqn{\lambda} is retuned at each
#' \eqn{n} (holding the pilot's \eqn{\lambda} would plan more topics than
#' human only needs when the pilot's judge term dominates); normal quantiles
#' (`z`) whatever the pilot's interval, since the planned \eqn{n} is usually
#' well above 10; strata keep the pilot's allocation.
#'
#' @param x An `ir_assisted_means` from [assisted_means()] (the pilot).
#' @param half_width Target half-widths of the intervals (one or more
#'   positive numbers).
#' @param conf Confidence level of the planned intervals.
#' @param n_unlabelled `NULL` (the pilot's) or the number of unlabelled
#'   topics the judge will score.
#' @param n_topics `NULL` or the size of a fixed collection: the unlabelled
#'   topics are those not labelled.
#' @param ... Unused.
#' @return An `ir_assisted_plan` list: `table` (per measure, system, method
#'   and target: `measure`, `system`, `method`, `lambda`, `half_width`,
#'   `n_needed`, `n_labelled` (pilot), `pilot_half_width`, `n_eff`),
#'   `needed` (per measure, method and target, the largest `n_needed`
#'   over systems), `curve` (per measure, method and \eqn{n}, the largest
#'   half-width over systems; what `autoplot()` draws), `conf`,
#'   `n_unlabelled`, `n_topics`.
#' @seealso [topic_set_size()] for collections without a judge.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:5], ]
#' set.seed(1)
#' judge <- top
#' judge[] <- pmin(1, pmax(0, top + rnorm(length(top), -0.05, 0.05)))
#' pilot <- assisted_means(top[, sample(colnames(top), 15)], judge, interval = "t")
#' plan <- assisted_plan(pilot, half_width = c(0.03, 0.05))
#' plan
#' ggplot2::autoplot(plan)
#' @export
assisted_plan <- function(x, half_width, conf = 0.95, n_unlabelled = NULL, n_topics = NULL, ...) {
  check_assisted(x)
  check_no_dots(..., help = "assisted_plan")
  if (!is.numeric(half_width) || !length(half_width) || anyNA(half_width) || any(!is.finite(half_width)) ||
      any(half_width <= 0)) {
    stop_irtopics("{.arg half_width} must be positive numbers, not {show_values(half_width)}.")
  }
  check_conf(conf)
  n0 <- length(x$labelled)
  if (!is.null(n_unlabelled) && !is.null(n_topics)) {
    stop_irtopics("Give {.arg n_unlabelled} or {.arg n_topics}, not both.")
  }
  N <- if (is.null(n_unlabelled)) length(x$unlabelled) else check_whole(n_unlabelled, "n_unlabelled", min = 2)
  if (!is.null(n_topics)) n_topics <- check_whole(n_topics, "n_topics", min = 4)
  z <- stats::qnorm(1 - (1 - conf) / 2)
  half_width <- sort(unique(as.double(half_width)))
  N0 <- length(x$unlabelled)
  parts <- lapply(names(x$data), function(meas) {
    d <- x$data[[meas]]
    lapply(x$methods, function(m) {
      se2 <- plan_se2(d, m, x$strata, x$stratum_lambda)
      unl <- function(n) if (is.null(n_topics)) N else n_topics - n
      pilot <- se2(n0, N0)
      classical <- plan_se2(d, "classical", x$strata, x$stratum_lambda)(n0, N0)
      rows <- do.call(rbind, lapply(half_width, function(h) {
        need <- vapply(seq_len(nrow(d$Y)), function(i) {
          plan_smallest_n(function(n) z^2 * se2(n, unl(n))$se2[i, ] <= h^2 * (1 + 1e-12), n_topics)
        }, numeric(1))
        data.frame(measure = meas, system = rownames(d$Y), method = m, lambda = pilot$lambda, half_width = h,
                   n_needed = need, n_labelled = n0, pilot_half_width = z * sqrt(pilot$se2[, 1]),
                   n_eff = n0 * classical$se2[, 1] / pilot$se2[, 1], stringsAsFactors = FALSE)
      }))
      list(rows = rows, se2 = se2, unl = unl, measure = meas, method = m)
    })
  })
  parts <- unlist(parts, recursive = FALSE)
  table <- do.call(rbind, lapply(parts, `[[`, "rows"))
  rownames(table) <- NULL
  # one grid of n for every curve
  grid <- plan_grid(table$n_needed, n0, n_topics)
  curve <- do.call(rbind, lapply(parts, function(p) {
    half <- z * sqrt(apply(p$se2(grid, p$unl(grid))$se2, 2L, max))
    data.frame(measure = p$measure, method = p$method, n = grid, half_width = half, stringsAsFactors = FALSE)
  }))
  rownames(curve) <- NULL
  needed <- stats::aggregate(n_needed ~ measure + method + half_width, data = table, FUN = max)
  needed <- needed[order(match(needed$measure, names(x$data)), match(needed$method, x$methods), needed$half_width), ]
  rownames(needed) <- NULL
  new_ir_assisted_plan(list(table = table, needed = needed, curve = curve, conf = conf, n_unlabelled = N,
                            n_topics = n_topics, methods = x$methods, n_labelled = n0,
                            targets = half_width))
}

# The largest labelled set the plan searches with the unlabelled topics
# fixed: beyond it, "Inf".
plan_max_n <- 1e6

new_ir_assisted_plan <- function(x) {
  new_result(x, "ir_assisted_plan",
             fields = c(table = "data.frame", needed = "data.frame", curve = "data.frame", conf = "number",
                        n_unlabelled = "number", n_topics = "number?", methods = "character",
                        n_labelled = "number", targets = "numeric"))
}

# se^2 of every system (rows) for n labelled and N unlabelled topics (vectors
# of the same length, or N one number), from the pilot's moments per stratum:
# each stratum keeps its share of the labelled and unlabelled topics; lambda
# is 0 (classical), 1 (PPI) or PPI++'s, retuned at n and N with the pilot's
# covariance and variances (as PPI++ would tune it on the larger set; at the
# pilot's n and N this is the pilot's estimate exactly). Returns a function
# of (n, N) giving list(se2 = systems x length(n), lambda = the first n's
# lambda per system, NA when the strata's differ).
plan_se2 <- function(d, method, st, stratum_lambda) {
  n0 <- length(st$labelled)
  N0 <- length(st$unlabelled)
  H <- length(st$weights)
  mom <- lapply(seq_len(H), function(h) {
    l <- st$labelled == h
    u <- st$unlabelled == h
    Y <- d$Y[, l, drop = FALSE]
    f <- d$f[, l, drop = FALSE]
    fu <- d$fu[, u, drop = FALSE]
    flat <- row_constant(f, c(f, fu))
    list(vY = row_var(Y), c = ifelse(flat, 0, row_cov(Y, f)), vf = row_var(f), vall = row_var(cbind(f, fu)),
         vU = row_var(fu), sn = sum(l) / n0, sN = sum(u) / N0)
  })
  w <- st$weights
  function(n, N) {
    N <- rep_len(N, length(n))
    k <- length(n)
    lam <- lapply(mom, function(m) matrix(if (method == "ppi") 1 else 0, length(m$vY), k))
    if (method == "ppi++") {
      nh <- lapply(mom, function(m) m$sn * n)
      Nh <- lapply(mom, function(m) m$sN * N)
      if (stratum_lambda == "stratum") {
        for (h in seq_len(H)) {
          den <- outer(mom[[h]]$vall, 1 + nh[[h]] / Nh[[h]])
          lam[[h]] <- ifelse(den > 0, mom[[h]]$c / den, 0)
        }
      } else {
        num <- Reduce(`+`, lapply(seq_len(H), function(h) outer(w[h]^2 * mom[[h]]$c, 1 / nh[[h]])))
        den <- Reduce(`+`, lapply(seq_len(H), function(h) outer(w[h]^2 * mom[[h]]$vall, 1 / nh[[h]] + 1 / Nh[[h]])))
        pooled <- ifelse(den > 0, num / den, 0)
        lam <- lapply(seq_len(H), function(h) pooled)
      }
    }
    se2 <- Reduce(`+`, lapply(seq_len(H), function(h) {
      m <- mom[[h]]
      L <- lam[[h]]
      a <- m$vY - 2 * L * m$c + L^2 * m$vf
      w[h]^2 * (sweep(a, 2L, m$sn * n, `/`) + sweep(L^2 * m$vU, 2L, m$sN * N, `/`))
    }))
    first <- vapply(lam, function(L) L[, 1], numeric(length(mom[[1]]$vY)))
    first <- matrix(first, ncol = H)
    same <- apply(first, 1L, function(v) all(v == v[1]))
    list(se2 = se2, lambda = ifelse(same, first[, 1], NA_real_))
  }
}

# The smallest whole n >= 2 for which ok(n) holds, or Inf. With a fixed
# collection (n_topics), every n up to n_topics - 2 is tried; otherwise the
# half-width falls with n, and a doubling then bisection search up to
# plan_max_n finds it.
plan_smallest_n <- function(ok, n_topics) {
  if (!is.null(n_topics)) {
    n <- seq.int(2L, max(2L, n_topics - 2L))
    hit <- which(ok(n))
    return(if (length(hit)) n[hit[1]] else Inf)
  }
  if (ok(2)) return(2)
  hi <- 4
  while (!ok(hi)) {
    if (hi >= plan_max_n) return(Inf)
    hi <- min(hi * 2, plan_max_n)
  }
  lo <- hi / 2
  while (hi - lo > 1) {
    mid <- floor((lo + hi) / 2)
    if (ok(mid)) hi <- mid else lo <- mid
  }
  hi
}

# The labelled-set sizes the curve is drawn at: 2 to beyond the largest
# finite n needed (and the pilot's), at most 200 points.
plan_grid <- function(need, n0, n_topics) {
  top <- max(c(n0, need[is.finite(need)]), na.rm = TRUE) * 1.25
  if (!is.null(n_topics)) top <- min(top, n_topics - 2)
  top <- max(3, ceiling(top))
  unique(round(seq(2, top, length.out = min(200L, top - 1L))))
}

#' @rdname assisted_plan
#' @export
format.ir_assisted_plan <- function(x, ...) {
  nd <- x$needed
  nd$method <- assisted_method_labels[nd$method]
  c(sprintf("<ir_assisted_plan> labelled topics for %g%% intervals of every system's mean within a half-width, %s",
            100 * x$conf, if (is.null(x$n_topics)) sprintf("with %d unlabelled topics", x$n_unlabelled) else
              sprintf("in a collection of %d topics", x$n_topics)),
    sprintf("# pilot: %d labelled topics; Inf: the target is out of reach by labelling alone", x$n_labelled),
    printed_lines(print(nd, row.names = FALSE)),
    "# per system, with n_eff (the judge's worth in human-labelled topics): as.data.frame(x)")
}

#' @rdname assisted_plan
#' @export
print.ir_assisted_plan <- function(x, ...) print_formatted(x, ...)

#' @rdname assisted_plan
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_assisted_plan <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname assisted_plan
#' @param object An `ir_assisted_plan` object.
#' @export
summary.ir_assisted_plan <- function(object, ...) {
  tab <- object$table
  key <- do.call(rbind, lapply(split(tab, list(tab$measure, tab$method), drop = TRUE), function(r) {
    data.frame(measure = r$measure[1], method = r$method[1], median_n_eff = stats::median(r$n_eff),
               min_n_eff = min(r$n_eff), stringsAsFactors = FALSE)
  }))
  new_summary("ir_assisted_plan", sprintf("Assisted plan: the judge's worth in human-labelled topics (pilot of %d)",
                                          object$n_labelled), key, needed = object$needed)
}

#' @rdname assisted_plan
#' @param measure With several measures, the one drawn (name or position).
#' @export
#' @method autoplot ir_assisted_plan
autoplot.ir_assisted_plan <- function(object, measure = 1L, ...) {
  check_no_dots(..., help = "autoplot.ir_assisted_plan")
  ms <- unique(object$table$measure)
  meas <- pick_assisted_measure(list(data = stats::setNames(as.list(ms), ms)), measure)
  cv <- object$curve[object$curve$measure == meas, , drop = FALSE]
  labels <- assisted_method_labels[object$methods]
  cv$method <- factor(assisted_method_labels[cv$method], levels = labels)
  nd <- object$needed[object$needed$measure == meas & is.finite(object$needed$n_needed), , drop = FALSE]
  nd$method <- factor(assisted_method_labels[nd$method], levels = labels)
  types <- stats::setNames(c("solid", "42", "13")[seq_along(labels)], labels)
  ggplot2::ggplot(cv, ggplot2::aes(x = .data$n, y = .data$half_width)) +
    ggplot2::geom_hline(yintercept = object$targets, colour = "grey60", linetype = "dashed") +
    ggplot2::geom_line(ggplot2::aes(colour = .data$method, linetype = .data$method)) +
    ggplot2::geom_point(data = nd, ggplot2::aes(x = .data$n_needed, y = .data$half_width, colour = .data$method)) +
    ggplot2::scale_colour_manual(values = stats::setNames(assisted_method_colours[object$methods], labels), name = NULL) +
    ggplot2::scale_linetype_manual(values = types, name = NULL) +
    plot_labels(x = "Human-labelled topics", y = "Half-width",
                title = wrap_text(sprintf("Topics to label for %s", meas)),
                subtitle = wrap_text(sprintf("%g%% intervals, widest system; %s; dashed: targets",
                                             100 * object$conf,
                                             if (is.null(object$n_topics)) sprintf("%d unlabelled topics", object$n_unlabelled) else
                                               sprintf("%d topics in all", object$n_topics)), 45L)) +
    title_theme(legend = TRUE)
}
