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
#' formula, with \eqn{\lambda = 0} (human only), 1 (PPI), or for PPI++
#' the \eqn{\lambda} that minimises \eqn{h(n)} at each \eqn{n}: setting
#' the derivative in \eqn{\lambda} to 0, \deqn{\lambda^*(n) =
#' \mathrm{cov}(Y, f) / (\mathrm{var}(f) + (n/N)\, \mathrm{var}(\tilde
#' f)),} with the judge's variances on the labelled and unlabelled topics
#' apart (with strata, per stratum, or pooled as the pilot's
#' `stratum_lambda` says). PPI++'s planned half-width is therefore never
#' above PPI's nor human only's, at any \eqn{n}, and neither is its planned
#' \eqn{n}. (The estimator's \eqn{\lambda}, tuned with the judge's
#' variance over all topics, is what the data estimate; planned at larger
#' \eqn{n} it can ask for more topics than PPI when the judge's variance
#' differs between the pilot's labelled and unlabelled topics.) The plan
#' gives the smallest whole \eqn{n} with \eqn{h(n) \le} `half_width`:
#' * with \eqn{N} fixed (the pilot's unlabelled topics, or `n_unlabelled`),
#'   searched up to \eqn{10^6}; `Inf` when out of reach (for PPI, when the
#'   judge's own term \eqn{\lambda^2 \mathrm{var}(\tilde f)/N} alone is
#'   wider than the target: more unlabelled topics are needed, not more
#'   labels);
#' * in a fixed collection of `n_topics` topics (\eqn{N = } `n_topics`
#'   \eqn{- n}), every \eqn{n} up to `n_topics` - 2 is tried.
#'
#' **The plan uses the plug-in standard error**, the pilot's variances taken
#' as known: it is optimistic for PPI++, whose interval (with
#' [assisted_means()]' default `se = "jackknife"`) is wider, since its
#' \eqn{\lambda} is estimated. `se_ratio` is the pilot's own standard error
#' over the plan's at the pilot's size (1 for PPI and classical; for PPI++
#' the plan's optimism there). The ratio shrinks as \eqn{n} grows; in the
#' coverage simulation of `bench/README.md` section 42 the jackknife
#' interval was on average 1.30 times the plug-in one at 10 labelled topics
#' and 1.12--1.15 at 25 with a good judge, 1.15 and 1.05 with a poor one.
#' The plan does not inflate \eqn{n} by it (the ratio is not a fixed
#' factor of \eqn{n}): plan for a smaller `half_width` (by about the
#' pilot's `se_ratio`) to be safe. The plan also takes PPI++'s tuned
#' \eqn{\lambda} as used: [assisted_means()]' fallback (`fallback =
#' "gain"`) gives human only where the judge's estimated gain is below the
#' cost of tuning \eqn{\lambda} on \eqn{n} topics (a poor judge, few
#' topics), where the planned PPI++ and human-only \eqn{n} are close anyway;
#' a pilot's PPI++ that fell back has the classical standard error, and its
#' `se_ratio` says so.
#'
#' The judge's worth is \eqn{n_{eff} = \mathrm{var}(Y) / se(\lambda)^2} at
#' the pilot (the plan's plug-in se): the number of human-labelled topics a human-only estimate would
#' need for the pilot's standard error (\eqn{n} itself for `"classical"`;
#' with strata, \eqn{n\, se(0)^2 / se(\lambda)^2}). `needed` is the
#' largest \eqn{n} over systems (every interval within the target).
#' With strata, each stratum keeps its share of the labelled and of the
#' unlabelled topics.
#'
#' @section From the judge's agreement:
#' Before any pilot, `x` may be a data frame with one row per system (or
#' one row for a typical system; optional columns `system` and `measure`):
#' `sd`, the standard deviation of the human scores over topics, and
#' `correlation`, the per-topic correlation of human and judge scores (what
#' [compare_qrels()] or an earlier collection gives); `n_unlabelled` or
#' `n_topics` is then required. Taking the judge's variance equal on labelled
#' and unlabelled topics, PPI++ at its lambda has \eqn{se^2 = \sigma^2/n
#' \, (1 - \rho^2 N/(n + N))} and \eqn{n_{eff} = n / (1 - \rho^2 N/(n +
#' N))} at the \eqn{n} planned; with a column `sd_judge` (\eqn{\sigma_f}),
#' PPI too: \eqn{se^2 = (\sigma^2 + \sigma_f^2 - 2\rho\sigma\sigma_f)/n +
#' \sigma_f^2/N}, and PPI++'s lambda \eqn{\rho\sigma / (\sigma_f (1 +
#' n/N))} is reported.
#'
#' @section Reconstruction:
#' Ours (DERIVED): the pilot's variances are taken as known (a pilot of few
#' topics gives a rough plan); the plug-in standard error (see above);
#' PPI++'s \eqn{\lambda} is the planned half-width's minimiser at each
#' \eqn{n} (holding the pilot's \eqn{\lambda}, or retuning the
#' estimator's formula, can plan more topics than PPI or human only);
#' `autoplot()`'s axis runs to 1.5 times the largest \eqn{n} PPI++ and
#' human only need (and the pilot's \eqn{n}; at most the collection), and
#' a caption names the targets beyond it (plain PPI with a poor judge can
#' need thousands of topics); normal quantiles
#' (`z`) whatever the pilot's interval, since the planned \eqn{n} is usually
#' well above 10; strata keep the pilot's allocation.
#'
#' @param x An `ir_assisted_means` from [assisted_means()] (the pilot), or a
#'   data frame of the judge's agreement (see From the judge's agreement).
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
#'   `n_needed`, `n_labelled` (pilot; `NA` from agreement),
#'   `pilot_half_width` (the pilot's own standard error times the normal
#'   quantile; `NA` from agreement), `n_eff`, `se_ratio` (`NA` from
#'   agreement)), `lambda` being PPI++'s planning \eqn{\lambda^*} at the
#'   pilot's size (from agreement, at the \eqn{n} planned),
#'   `needed` (per measure, method and target, the largest `n_needed`
#'   over systems), `curve` (per measure, method and \eqn{n}, the largest
#'   half-width over systems; what `autoplot()` draws), `conf`,
#'   `n_unlabelled`, `n_topics`, `source` (`"pilot"` or `"agreement"`).
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
#'
#' # before any label: a judge whose per-topic scores correlate 0.8 with
#' # the humans', scores with sd 0.2, 200 topics in the collection
#' assisted_plan(data.frame(sd = 0.2, correlation = 0.8), half_width = 0.03,
#'               n_topics = 200)
#' @export
assisted_plan <- function(x, half_width, conf = 0.95, n_unlabelled = NULL, n_topics = NULL, ...) {
  check_no_dots(..., help = "assisted_plan")
  if (!is.numeric(half_width) || !length(half_width) || anyNA(half_width) || any(!is.finite(half_width)) ||
      any(half_width <= 0)) {
    stop_irtopics("{.arg half_width} must be positive numbers, not {show_values(half_width)}.")
  }
  check_conf(conf)
  if (!is.null(n_unlabelled) && !is.null(n_topics)) {
    stop_irtopics("Give {.arg n_unlabelled} or {.arg n_topics}, not both.")
  }
  if (!is.null(n_unlabelled)) n_unlabelled <- check_whole(n_unlabelled, "n_unlabelled", min = 2)
  if (!is.null(n_topics)) n_topics <- check_whole(n_topics, "n_topics", min = 4)
  src <- if (is.data.frame(x) && !inherits(x, "ir_scores")) plan_agreement_source(x, n_unlabelled, n_topics) else
    plan_pilot_source(x)
  N <- n_unlabelled %||% src$N0
  z <- stats::qnorm(1 - (1 - conf) / 2)
  half_width <- sort(unique(as.double(half_width)))
  unl <- function(n) if (is.null(n_topics)) N else n_topics - n
  parts <- lapply(src$measures, function(u) {
    lapply(src$methods, function(m) {
      se2 <- u$se2(m)
      classical <- u$se2("classical")
      rows <- do.call(rbind, lapply(half_width, function(h) {
        need <- vapply(seq_along(u$systems), function(i) {
          plan_smallest_n(function(n) z^2 * se2(n, unl(n))$se2[i, ] <= h^2 * (1 + 1e-12), n_topics)
        }, numeric(1))
        # lambda and n_eff at the pilot's size, or (agreement) at the n planned
        pilot <- !is.na(src$n0)
        at <- if (pilot) rep(src$n0, length(need)) else need
        lam <- eff <- rep(NA_real_, length(at))
        for (i in which(is.finite(at))) {
          Ni <- if (pilot) src$N0 else unl(at[i])
          here <- se2(at[i], Ni)
          lam[i] <- here$lambda[i]
          eff[i] <- at[i] * classical(at[i], Ni)$se2[i, 1] / here$se2[i, 1]
        }
        data.frame(measure = u$measure, system = u$systems, method = m, lambda = lam, half_width = h,
                   n_needed = need, n_labelled = src$n0,
                   pilot_half_width = if (pilot) z * u$pilot_se(m) else NA_real_, n_eff = eff,
                   se_ratio = if (pilot) u$pilot_se(m) / sqrt(se2(src$n0, src$N0)$se2[, 1]) else NA_real_,
                   stringsAsFactors = FALSE)
      }))
      list(rows = rows, se2 = se2, measure = u$measure, method = m)
    })
  })
  parts <- unlist(parts, recursive = FALSE)
  table <- do.call(rbind, lapply(parts, `[[`, "rows"))
  rownames(table) <- NULL
  # one grid of n for every curve
  needed <- stats::aggregate(n_needed ~ measure + method + half_width, data = table, FUN = max)
  ms <- vapply(src$measures, `[[`, "", "measure")
  needed <- needed[order(match(needed$measure, ms), match(needed$method, src$methods), needed$half_width), ]
  rownames(needed) <- NULL
  grid <- plan_grid(needed, if (is.na(src$n0)) 10 else src$n0, n_topics)
  curve <- do.call(rbind, lapply(parts, function(p) {
    half <- z * sqrt(apply(p$se2(grid, unl(grid))$se2, 2L, max))
    data.frame(measure = p$measure, method = p$method, n = grid, half_width = half, stringsAsFactors = FALSE)
  }))
  rownames(curve) <- NULL
  new_ir_assisted_plan(list(table = table, needed = needed, curve = curve, conf = conf, n_unlabelled = N,
                            n_topics = n_topics, methods = src$methods, n_labelled = src$n0,
                            targets = half_width, source = src$source))
}

# What a plan starts from: per measure its systems and se2(method), a
# function of (n, N) (plan_se2()); the pilot's sizes n0, N0 (NA without one).
plan_pilot_source <- function(x, call = rlang::caller_env()) {
  if (!inherits(x, "ir_assisted_means")) {
    stop_irtopics("{.arg x} must be an {.cls ir_assisted_means} (a pilot) or a data frame of the judge's agreement ({.field sd}, {.field correlation}), not {.obj_type_friendly {x}}.",
                  call = call)
  }
  measures <- lapply(names(x$data), function(meas) {
    d <- x$data[[meas]]
    tab <- x$table[x$table$measure == meas, , drop = FALSE]
    list(measure = meas, systems = rownames(d$Y), se2 = function(m) plan_se2(d, m, x$strata, x$stratum_lambda),
         pilot_se = function(m) {
           r <- tab[tab$method == m, , drop = FALSE]
           r$std.error[match(rownames(d$Y), r$system)]
         })
  })
  list(measures = measures, methods = x$methods, n0 = length(x$labelled), N0 = length(x$unlabelled),
       source = "pilot")
}

# From the judge's agreement, before any pilot: per row (a system, or one
# row for all) the human scores' standard deviation `sd` and the per-topic
# correlation of human and judge scores `correlation` (and `sd_judge` for
# PPI). With the judge's variance the same on labelled and unlabelled
# topics, PPI++'s se^2 at its lambda is sd^2 / n (1 - rho^2 N / (n + N)).
plan_agreement_source <- function(x, n_unlabelled, n_topics, call = rlang::caller_env()) {
  need <- c("sd", "correlation")
  miss <- setdiff(need, names(x))
  if (length(miss) || !nrow(x)) {
    stop_irtopics("{.arg x} as the judge's agreement must have rows and columns {.field {need}}; missing {.field {miss}}.",
                  call = call)
  }
  num_ok <- function(v, lo, hi) is.numeric(v) && !anyNA(v) && all(v >= lo & v <= hi)
  if (!num_ok(x$sd, 0, Inf) || any(x$sd <= 0) || !num_ok(x$correlation, -1, 1) ||
      (!is.null(x$sd_judge) && (!num_ok(x$sd_judge, 0, Inf) || any(x$sd_judge <= 0)))) {
    stop_irtopics("{.arg x}: {.field sd} (and {.field sd_judge}) must be positive numbers and {.field correlation} numbers in [-1, 1].",
                  call = call)
  }
  if (is.null(n_unlabelled) && is.null(n_topics)) {
    stop_irtopics("Planning from the judge's agreement needs {.arg n_unlabelled} or {.arg n_topics}.", call = call)
  }
  systems <- if (!is.null(x$system)) as.character(x$system) else paste0("system", seq_len(nrow(x)))
  meas <- if (!is.null(x$measure)) as.character(x$measure) else rep("score", nrow(x))
  sdj <- x$sd_judge
  methods <- c("ppi++", if (!is.null(sdj)) "ppi", "classical")
  measures <- lapply(unique(meas), function(m) {
    k <- meas == m
    s <- x$sd[k]
    rho <- x$correlation[k]
    sj <- if (is.null(sdj)) NULL else sdj[k]
    list(measure = m, systems = systems[k], se2 = function(method) function(n, N) {
      N <- rep_len(N, length(n))
      keep <- switch(method,
                     classical = matrix(1, length(s), length(n)),
                     `ppi++` = 1 - outer(rho^2, N / (n + N)),
                     ppi = outer((s^2 + sj^2 - 2 * rho * s * sj) / s^2, rep(1, length(n))) +
                       outer(sj^2 / s^2, n / N))
      lam <- switch(method, classical = rep(0, length(s)), ppi = rep(1, length(s)),
                    `ppi++` = if (is.null(sj)) rep(NA_real_, length(s)) else rho * s / (sj * (1 + n[1] / N[1])))
      list(se2 = sweep(keep, 2L, n, `/`) * s^2, lambda = lam)
    })
  })
  list(measures = measures, methods = methods, n0 = NA_real_, N0 = n_unlabelled %||% NA_real_,
       source = "agreement")
}

# The largest labelled set the plan searches with the unlabelled topics
# fixed: beyond it, "Inf".
plan_max_n <- 1e6

new_ir_assisted_plan <- function(x) {
  new_result(x, "ir_assisted_plan",
             fields = c(table = "data.frame", needed = "data.frame", curve = "data.frame", conf = "number",
                        n_unlabelled = "number?", n_topics = "number?", methods = "character",
                        n_labelled = "number", targets = "numeric", source = "string"))
}

# se^2 of every system (rows) for n labelled and N unlabelled topics (vectors
# of the same length, or N one number), from the pilot's moments per stratum:
# each stratum keeps its share of the labelled and unlabelled topics; lambda
# is 0 (classical), 1 (PPI) or, for PPI++, the lambda minimising this se^2
# at n and N (with the labelled and unlabelled judge variances apart, so
# that PPI++'s planned se is never above PPI's nor human only's; at the
# pilot's size it differs from the pilot's tuned lambda, which uses the
# judge's variance over all topics). Returns a function
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
    list(vY = row_var(Y), c = ifelse(flat, 0, row_cov(Y, f)), vf = row_var(f), vU = row_var(fu), sn = sum(l) / n0,
         sN = sum(u) / N0)
  })
  w <- st$weights
  function(n, N) {
    N <- rep_len(N, length(n))
    k <- length(n)
    lam <- lapply(mom, function(m) matrix(if (method == "ppi") 1 else 0, length(m$vY), k))
    if (method == "ppi++") {
      nh <- lapply(mom, function(m) m$sn * n)
      Nh <- lapply(mom, function(m) m$sN * N)
      # the lambda minimising the planned se^2 (its derivative in lambda
      # is 0): c / (var_L(f) + (n / N) var_U(f)) per stratum, or pooled
      # sum w^2 c / n / sum w^2 (var_L(f) / n + var_U(f) / N)
      if (stratum_lambda == "stratum") {
        for (h in seq_len(H)) {
          den <- outer(mom[[h]]$vf, rep(1, k)) + outer(mom[[h]]$vU, nh[[h]] / Nh[[h]])
          lam[[h]] <- ifelse(den > 0, mom[[h]]$c / den, 0)
        }
      } else {
        num <- Reduce(`+`, lapply(seq_len(H), function(h) outer(w[h]^2 * mom[[h]]$c, 1 / nh[[h]])))
        den <- Reduce(`+`, lapply(seq_len(H), function(h) {
          outer(w[h]^2 * mom[[h]]$vf, 1 / nh[[h]]) + outer(w[h]^2 * mom[[h]]$vU, 1 / Nh[[h]])
        }))
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

# The methods whose n sets the figure's axis: the cheapest (PPI++) and
# the reference (human only); plain PPI with a poor judge can need thousands
# of topics, which would squash the other curves.
plan_axis_methods <- c("ppi++", "classical")

# The largest n the figure shows: 1.5 times the largest finite n needed by
# plan_axis_methods (all methods if none of them is finite) and the pilot's
# n, within the collection (n_topics - 2) when it is fixed.
plan_axis_max <- function(needed, n0, n_topics) {
  fin <- needed[is.finite(needed$n_needed), , drop = FALSE]
  own <- fin$n_needed[fin$method %in% plan_axis_methods]
  top <- 1.5 * max(c(n0, if (length(own)) own else fin$n_needed, 3), na.rm = TRUE)
  if (!is.null(n_topics)) top <- min(top, n_topics - 2)
  max(3, ceiling(top))
}

# The labelled-set sizes the curve is drawn at: up to 200 from 2 to the
# figure's axis (plan_axis_max()), and up to 50 beyond it to 1.25 times the
# largest finite n needed (as.data.frame()'s curve covers every n planned).
plan_grid <- function(needed, n0, n_topics) {
  axis <- plan_axis_max(needed, n0, n_topics)
  top <- max(c(axis, needed$n_needed[is.finite(needed$n_needed)] * 1.25), na.rm = TRUE)
  if (!is.null(n_topics)) top <- min(top, n_topics - 2)
  top <- max(axis, ceiling(top))
  near <- round(seq(2, axis, length.out = min(200L, axis - 1L)))
  far <- if (top > axis) round(seq(axis, top, length.out = min(50L, top - axis + 1L))) else numeric()
  unique(c(near, far))
}

#' @rdname assisted_plan
#' @export
format.ir_assisted_plan <- function(x, ...) {
  nd <- x$needed
  nd$method <- assisted_method_labels[nd$method]
  c(sprintf("<ir_assisted_plan> labelled topics for %g%% intervals of every system's mean within a half-width, %s",
            100 * x$conf, if (is.null(x$n_topics)) sprintf("with %d unlabelled topics", x$n_unlabelled) else
              sprintf("in a collection of %d topics", x$n_topics)),
    if (x$source == "pilot") {
      sprintf("# from a pilot of %d labelled topics; Inf: the target is out of reach by labelling alone", x$n_labelled)
    } else {
      "# from the judge's agreement (sd, correlation); Inf: the target is out of reach by labelling alone"
    },
    printed_lines(print(nd, row.names = FALSE)),
    plan_optimism_line(x),
    "# per system, with n_eff (the judge's worth in human-labelled topics): as.data.frame(x)")
}

# The plan's plug-in standard error against the pilot's own for PPI++ (its
# jackknife by default): how optimistic the plan is at the pilot's size.
plan_optimism_line <- function(x) {
  r <- x$table$se_ratio[x$table$method == "ppi++"]
  if (!length(r) || all(is.na(r))) return("# planned with the plug-in standard error (lambda taken as known)")
  sprintf("# planned with the plug-in se: at the pilot's size PPI++'s own se is %.2f times the planned one for the median system (%.2f-%.2f, se_ratio); where above 1 the plan is optimistic by about that",
          stats::median(r, na.rm = TRUE), min(r, na.rm = TRUE), max(r, na.rm = TRUE))
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
    data.frame(measure = r$measure[1], method = r$method[1], median_n_eff = stats::median(r$n_eff, na.rm = TRUE),
               min_n_eff = suppressWarnings(min(r$n_eff, na.rm = TRUE)), stringsAsFactors = FALSE)
  }))
  new_summary("ir_assisted_plan", sprintf("Assisted plan: the judge's worth in human-labelled topics (%s)",
                                          if (object$source == "pilot") sprintf("pilot of %d", object$n_labelled) else
                                            "from the judge's agreement, at the n planned"),
              key, needed = object$needed)
}

#' @rdname assisted_plan
#' @param measure With several measures, the one drawn (name or position).
#' @export
#' @method autoplot ir_assisted_plan
autoplot.ir_assisted_plan <- function(object, measure = 1L, ...) {
  check_no_dots(..., help = "autoplot.ir_assisted_plan")
  ms <- unique(object$table$measure)
  meas <- pick_assisted_measure(list(data = stats::setNames(as.list(ms), ms)), measure)
  needed <- object$needed[object$needed$measure == meas, , drop = FALSE]
  axis <- plan_axis_max(needed, if (is.na(object$n_labelled)) 10 else object$n_labelled, object$n_topics)
  cv <- object$curve[object$curve$measure == meas & object$curve$n <= axis, , drop = FALSE]
  labels <- assisted_method_labels[object$methods]
  cv$method <- factor(assisted_method_labels[cv$method], levels = labels)
  nd <- needed[is.finite(needed$n_needed) & needed$n_needed <= axis, , drop = FALSE]
  nd$method <- factor(assisted_method_labels[nd$method], levels = labels)
  cut <- needed[!(is.finite(needed$n_needed) & needed$n_needed <= axis), , drop = FALSE]
  cut_note <- if (nrow(cut)) {
    paste0("Beyond the axis (", axis, " topics): ",
           paste(sprintf("%s at \u00b1%g %s", assisted_method_labels[cut$method], cut$half_width,
                         ifelse(is.finite(cut$n_needed), sprintf("needs %s", format(cut$n_needed, big.mark = ",")),
                                "out of reach")), collapse = "; "), ".")
  }
  types <- stats::setNames(c("solid", "42", "13")[seq_along(labels)], labels)
  ggplot2::ggplot(cv, ggplot2::aes(x = .data$n, y = .data$half_width)) +
    ggplot2::geom_hline(yintercept = object$targets, colour = "grey60", linetype = "dashed") +
    ggplot2::geom_line(ggplot2::aes(colour = .data$method, linetype = .data$method)) +
    ggplot2::geom_point(data = nd, ggplot2::aes(x = .data$n_needed, y = .data$half_width, colour = .data$method)) +
    ggplot2::scale_colour_manual(values = stats::setNames(assisted_method_colours[object$methods], labels), name = NULL) +
    ggplot2::scale_linetype_manual(values = types, name = NULL) +
    ggplot2::scale_x_continuous(limits = c(0, axis)) +
    plot_labels(x = "Human-labelled topics", y = "Half-width",
                title = wrap_text(sprintf("Topics to label for %s", meas)),
                subtitle = wrap_text(sprintf("%g%% intervals (plug-in se), widest system; %s; dashed: targets",
                                             100 * object$conf,
                                             if (is.null(object$n_topics)) sprintf("%d unlabelled topics", object$n_unlabelled) else
                                               sprintf("%d topics in all", object$n_topics)), 45L),
                note = if (!is.null(cut_note)) wrap_text(cut_note, 60L)) +
    title_theme(legend = TRUE)
}
