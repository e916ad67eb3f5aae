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
                    y = expression(GAWM ~ performance ~ E[s])) +
      plot_labels(title = sprintf("Systems: Pearson r = %s (q = %s)", format(round(r, 3), nsmall = 3),
                                  format(object$q))) +
      title_theme()
  } else {
    df <- object$topics
    r <- safe_cor(df$AAP, df$ease)
    # the drawn size of each bubble (scale_size() maps the square root of
    # the discernment onto `sizes`), so that labels keep clear of the bubble,
    # not of its centre
    sizes <- c(0.5, 4)
    w <- df$discernment
    span <- diff(range(w, na.rm = TRUE))
    df$.point_size <- if (is.finite(span) && span > 0) sizes[1] + diff(sizes) * sqrt((w - min(w, na.rm = TRUE)) / span)
                      else mean(sizes)
    ggplot2::ggplot(df, ggplot2::aes(x = .data$AAP, y = .data$ease, size = .data$discernment)) +
      ggplot2::geom_abline(slope = 1, intercept = 0, linetype = "dashed", colour = "grey50") +
      ggplot2::geom_point(alpha = 0.5) +
      ggplot2::scale_size(range = sizes) +
      # labels up and to the left, off the diagonal the bubbles lie along
      label_layer(df, label, "topic", "ease", "AAP", "ease", point_size = ".point_size",
                  nudge = c(-1, 1) * 0.1 * max(diff(range(df$AAP)), diff(range(df$ease)), 0.05)) +
      ggplot2::labs(x = sprintf("AAP (mean %s over systems)", object$measure),
                    y = expression(GAWM ~ topic ~ ease ~ E[t]),
                    size = expression(Discernment ~ W[t])) +
      plot_labels(title = sprintf("Topics: Pearson r = %s (q = %s)", format(round(r, 3), nsmall = 3),
                                  format(object$q))) +
      title_theme(legend = TRUE)
  }
}
# Generalized adaptive-weight mean (Lee et al., CIKM 2009), spec section 3.1.

#' Generalized adaptive-weight mean (GAWM) of systems and topics
#'
#' Computes the generalized adaptive-weight mean of Lee et al. (2009): a
#' system's performance \eqn{E_s} is a mean of its per-topic scores weighted
#' by each topic's *discernment* \eqn{W_t} (how much the systems spread on
#' it), and a topic's *ease* \eqn{E_t} is a mean of its per-system scores
#' weighted by each system's *conformity* \eqn{W_s} (how close the system
#' stays to the topic-ease vector). The weights depend on the means and the
#' means on the weights, so the result is a fixed point.
#'
#' With the paper's choices (section 4.1; the defaults):
#' \deqn{E_s[i] = \sum_j W_t[j] P[i,j] / \sum_j W_t[j], \quad
#'       E_t[j] = \sum_i W_s[i] P[i,j] / \sum_i W_s[i]}{E_s[i] = sum_j W_t[j] P[i,j] / sum_j W_t[j],  E_t[j] = sum_i W_s[i] P[i,j] / sum_i W_s[i]}
#' \deqn{W_t[j] = \| P[\cdot,j] - E_t[j] \|_2, \quad
#'       W_s[i] = (1 - d_i / \textstyle\sum_k d_k)^q, \quad d_i = \| P[i,\cdot] - E_t \|_2}{W_t[j] = ||P[,j] - E_t[j]||_2,  W_s[i] = (1 - d_i / sum_k d_k)^q,  d_i = ||P[i,] - E_t||_2}
#' (eq. 1, 2, 7, 8). Because \eqn{W_s} and \eqn{W_t} depend on \eqn{E_t}
#' only, the fixed point is iterated in \eqn{E_t}: start from uniform system
#' weights (\eqn{E_t} = AAP, the per-topic mean over systems), update
#' \eqn{W_s} and \eqn{E_t} until \eqn{\max_j |\Delta E_t[j]| < } `tol`, then
#' read \eqn{W_s}, \eqn{W_t} and \eqn{E_s} off the final \eqn{E_t}. The
#' defaults run in C++.
#'
#' @section Built-in means:
#' `mean = "arithmetic"` (the default) is the paper's weighted arithmetic
#' mean. Two other weighted means run in C++ as well; both add `floor` to
#' every score first, so that a score of 0 is allowed:
#' * `"geometric"`: \eqn{\exp(\sum w \ln(x + f) / \sum w)}, with
#'   \eqn{f} = `floor`;
#' * `"power"`: \eqn{(\sum w (x + f)^p / \sum w)^{1/p}}, with \eqn{p} =
#'   `exponent` (\eqn{p = 1} with `floor = 0` is the arithmetic mean,
#'   \eqn{p = 0} the geometric one). It is computed in the log domain,
#'   \eqn{\ln M_p = [u_{max} + \mathrm{log1p}(\sum \tilde w\,
#'   \mathrm{expm1}(u - u_{max}))]/p} with \eqn{u = p \ln(x + f)} and
#'   \eqn{\tilde w = w / \sum w}, which is accurate for exponents as small as
#'   \eqn{10^{-17}} (it tends to the geometric mean, the exact limit, where
#'   the formula above rounds \eqn{(x + f)^p} to 1) and does not overflow
#'   for large ones.
#'
#' Only the means change: the dispersion (eq. 7) and the distances of eq. 8
#' are computed on the raw scores, and the iteration starts from the
#' unweighted mean of the same kind. The distances are summed in units of a
#' power of two near the largest score (an exact rescaling), so scores
#' around \eqn{10^{-300}}, whose squares underflow, give the same weights as
#' the same scores times \eqn{10^{300}} (`tol` is absolute: scale it too).
#'
#' @section Other means and distances:
#' `mean`, `dispersion` and `proximity` also accept R functions, so that
#' other generalized means and other distances can be tried; the iteration
#' then runs in R (the built-ins keep their meaning for any argument left as
#' a string):
#' * `mean(x, w)`: the weighted mean of the numeric vector `x` with
#'   non-negative weights `w`; used for \eqn{E_t} (a topic's column, weights
#'   \eqn{W_s}) and \eqn{E_s} (a system's row, weights \eqn{W_t}).
#' * `dispersion(x, center)`: the topic discernment \eqn{W_t[j]} from the
#'   column `x` and its ease `center`; a non-negative number.
#' * `proximity(scores, ease)` or `proximity(scores, ease, q)`: the vector of
#'   the \eqn{m} system conformity weights from the whole score matrix and
#'   the topic-ease vector (eq. 8 normalizes by a sum over systems, so it
#'   sees all systems at once). `q` is passed when the function has a `q`
#'   argument.
#'
#' @section Reconstruction:
#' The equations are the paper's; the algorithm is not given there and is
#' reconstructed: the starting point (uniform system weights), the stopping
#' rule (`tol` on \eqn{E_t}, at most `maxit` iterations) and the conventions
#' for degenerate input (all \eqn{d_i = 0} gives \eqn{W_s = 1};
#' \eqn{\sum_t W_t = 0} gives the unweighted mean, MAP for the arithmetic
#' mean). Convergence is not guaranteed; a warning is raised when the
#' iteration stops at `maxit`.
#'
#' The paper's own numbers are not reproduced by its own words. On the TREC
#' ad hoc runs it used (the automatic runs, see [trec_runs()]), the
#' weighted arithmetic mean it names gives r(MAP, \eqn{E_s}) of .988 or
#' more where its Table 2 has .904 (TREC-6), .952 (TREC-7) and .959
#' (TREC-8), and r(AAP, \eqn{E_t}) of 1.000 where it has .867, .956 and
#' .882; none of the variants we tried (`q` up to 3000, squared or
#' Manhattan distances, other weight forms, Kendall's or Spearman's
#' coefficient instead of Pearson's) closes the gap. `mean = "geometric"`
#' with `floor = 1e-7` gives .904, .945, .959 and .867, .953, .882 (the
#' TREC-7 differences come from 10 runs of the paper that cannot be
#' identified). We infer that the paper's computation
#' averaged the logarithms of AP with a tiny floor, although its text
#' (section 4.1) says "weighted arithmetic mean". This is a reading that
#' reproduces the published numbers, not the paper's stated formula, so the
#' default stays the arithmetic mean. Floors between about
#' \eqn{9 \times 10^{-8}} and \eqn{1.1 \times 10^{-7}} and \eqn{q} from 0
#' to 2 give nearly the same values; a power mean with exponent -0.05,
#' `floor = 1e-5` and `q = 15` comes within .001 of the paper on TREC-6
#' and TREC-8. See
#' `vignette("gawm", package = "irtopics")`.
#'
#' @param scores An [ir_scores][as_ir_scores] object or numeric matrix, systems in rows and
#'   topics in columns (AP or R-precision in the paper), at least two
#'   systems and two topics, no NA. Higher must be better.
#' @param q The spreading factor of eq. 8, a number \eqn{\ge 0}. `q = 0`
#'   gives uniform system weights (\eqn{E_t} = AAP).
#' @param tol Convergence tolerance on the largest change of \eqn{E_t}.
#' @param maxit Maximum number of iterations.
#' @param mean `"arithmetic"` (weighted arithmetic mean, eq. 1-2),
#'   `"geometric"`, `"power"` (see "Built-in means") or a function
#'   `function(x, w)` (see "Other means and distances").
#' @param dispersion `"euclidean"` (eq. 7) or a function
#'   `function(x, center)`.
#' @param proximity `"euclidean"` (eq. 8 with Euclidean distances) or a
#'   function `function(scores, ease[, q])` returning \eqn{m} weights.
#' @param floor For `"geometric"` and `"power"`: the number added to every
#'   score before the mean (\eqn{\ge 0}; scores plus `floor` must be
#'   positive for the geometric mean and for a negative exponent). Default
#'   \eqn{10^{-7}}, the value that reproduces the paper's Table 2.
#' @param exponent For `mean = "power"`: the exponent \eqn{p}, a number
#'   between -1000 and 1000 (0 gives the geometric mean).
#' @return An `ir_gawm` object: a list with
#'   * `E_s`, `W_s`: named vectors of system performance and conformity;
#'   * `E_t`, `W_t`: named vectors of topic ease and discernment;
#'   * `systems`: data frame `system, performance, conformity, MAP`
#'     (`performance` = \eqn{E_s}, `conformity` = \eqn{W_s}), in input order;
#'   * `topics`: data frame `topic, ease, discernment, AAP`;
#'   * `iterations`, `converged`, `change` (the final largest change of
#'     \eqn{E_t}), and the parameters `q`, `tol`, `maxit`, `method`
#'     (labels of the mean, dispersion and proximity), `floor` and
#'     `exponent` (`NA` when unused), `measure`.
#'
#'   `print()` shows the fit and the best `n` systems and topics;
#'   [summary()][summary.ir_gawm], [as.data.frame()][as.data.frame.ir_gawm]
#'   and [autoplot()][autoplot.ir_gawm] have their own pages.
#' @param x An `ir_gawm` object (for `format()` and `print()`).
#' @param n Number of systems and topics to print.
#' @param ... Unused.
#' @references Lee, C. T., Kazai, G., Vinay, V., Milic-Frayling, N., Mendes
#'   Rodrigues, E., Ignjatovic, A. (2009). Measuring system performance and
#'   topic discernment using generalized adaptive-weight mean. CIKM 2009.
#' @seealso [hits()] for the HITS authorities the paper compares with,
#'   [weighting_correlations()] for its Table 2.
#' @examples
#' P <- rbind(s1 = c(.50, .10, .30, .80), s2 = c(.40, .20, .10, .70),
#'            s3 = c(.90, .15, .20, .60))
#' fit <- gawm(P)
#' fit
#' fit$E_s          # 0.4816 0.3816 0.6345
#' gawm(P, q = 0)$E_t  # = colMeans(P)
#'
#' # The reading that reproduces the paper's Table 2 (runs in C++):
#' gawm(P, mean = "geometric", floor = 1e-7)$E_s
#' gawm(P, mean = "power", exponent = -0.05, floor = 1e-5)$E_s
#'
#' # A power mean (p = 2) and Manhattan distances instead (runs in R):
#' power_mean <- function(x, w) sqrt(sum(w * x^2) / sum(w))
#' manhattan <- function(scores, ease, q) {
#'   d <- rowSums(abs(sweep(scores, 2, ease)))
#'   (1 - d / sum(d))^q
#' }
#' gawm(P, mean = power_mean, proximity = manhattan)$E_s
#' @export
gawm <- function(scores, q = 1, tol = 1e-12, maxit = 1000,
                 mean = "arithmetic", dispersion = "euclidean",
                 proximity = "euclidean", floor = 1e-7, exponent = NULL) {
  P <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  measure <- attr(P, "measure") %||% "score"
  attr(P, "measure") <- NULL
  check_number(q, "q", min = 0, max = .Machine$double.xmax)
  check_number(tol, "tol", min = 0, max = .Machine$double.xmax)
  check_number(maxit, "maxit", min = 1, max = .Machine$integer.max, integer = TRUE)
  kernel <- gawm_mean_kernel(mean, floor, exponent, P)
  mean_fun <- if (is.function(mean)) mean else NULL
  disp_fun <- gawm_component(dispersion, "dispersion", "euclidean")
  prox_fun <- gawm_component(proximity, "proximity", "euclidean")

  builtin <- is.null(mean_fun) && is.null(disp_fun) && is.null(prox_fun)
  res <- if (builtin) {
    out <- cpp_gawm(P, as.double(q), as.double(tol), as.integer(maxit), kernel$code,
                    kernel$floor, kernel$exponent)
    if (out$weights_vanished) {
      stop_irtopics(c("Every system weight (1 - d_i / sum(d))^q underflowed to 0 with {.arg q} = {q}.",
                      i = "Use a smaller {.arg q}."), kind = "data")
    }
    out
  } else {
    gawm_r(P, q, tol, as.integer(maxit),
           mean_fun %||% kernel$fun,
           disp_fun %||% gawm_dispersion_euclidean,
           prox_fun %||% gawm_proximity_euclidean)
  }
  if (!res$converged) {
    warn_irtopics(c("GAWM did not converge in {maxit} iteration{?s}.",
                    i = "The largest change of the topic ease was {signif(res$change, 3)} (tolerance {tol}).",
                    i = "Increase {.arg maxit} or try a smaller {.arg q}."),
                  kind = "convergence")
  }
  gawm_result(P, res, q = q, tol = tol, maxit = maxit, measure = measure,
           method = c(mean = kernel$label, dispersion = gawm_label(dispersion),
                      proximity = gawm_label(proximity)),
           floor = kernel$floor, exponent = kernel$exponent)
}

# The built-in means as quasi-arithmetic means g^-1(sum w g(x) / sum w):
# `code` for src/gawm.h (0 arithmetic, 1 geometric, 2 power), the same mean
# as an R function (for the R path, when another component is a function),
# and its label. A power mean with exponent 0 is the geometric mean.
gawm_mean_kernel <- function(mean, floor, exponent, P, call = rlang::caller_env()) {
  if (is.function(mean)) {
    if (!is.null(exponent)) {
      stop_irtopics("{.arg exponent} is used only with {.code mean = \"power\"}.", call = call)
    }
    return(list(code = 0L, floor = NA_real_, exponent = NA_real_, fun = NULL, label = "custom"))
  }
  means <- c("arithmetic", "geometric", "power")
  if (!is.character(mean) || length(mean) != 1L || is.na(mean) || !mean %in% means) {
    stop_irtopics(c("{.arg mean} must be one of {quoted_list(means)}, or a function.",
                    x = "Got {.obj_type_friendly {mean}}."), call = call)
  }
  if (mean == "power") {
    if (is.null(exponent)) {
      stop_irtopics("{.code mean = \"power\"} needs an {.arg exponent}.", call = call)
    }
    check_number(exponent, "exponent", min = -1e3, max = 1e3, call = call)
    if (exponent == 0) mean <- "geometric"
  } else if (!is.null(exponent)) {
    stop_irtopics("{.arg exponent} is used only with {.code mean = \"power\"}.", call = call)
  }
  if (mean == "arithmetic") {
    return(list(code = 0L, floor = NA_real_, exponent = NA_real_, fun = gawm_mean_arithmetic,
                label = "arithmetic"))
  }
  check_number(floor, "floor", min = 0, max = .Machine$double.xmax, call = call)
  p <- if (mean == "power") as.double(exponent) else 0
  g <- if (p == 0) function(x) log(x + floor) else function(x) (x + floor)^p
  if (any(!is.finite(g(range(P))))) {
    stop_irtopics(c("The {mean} mean is undefined on these scores with {.arg floor} = {floor}.",
                    i = "Scores plus {.arg floor} must be positive (non-negative for a positive {.arg exponent})."),
                  kind = "data", call = call)
  }
  fun <- if (p == 0) {
    function(x, w) exp(sum(w * log(x + floor)) / sum(w))
  } else {
    function(x, w) power_mean_log(log(x + floor), w, p)
  }
  list(code = if (p == 0) 1L else 2L, floor = as.double(floor),
       exponent = if (p == 0) NA_real_ else p, fun = fun,
       label = if (p == 0) "geometric" else sprintf("power(%s)", format(p)))
}

# The weighted power mean (sum w exp(p y) / sum w)^(1/p) of exp(y), in the
# log domain as src/gawm.h computes it: accurate for tiny |p| (the limit
# p -> 0 is the geometric mean exp(sum w y / sum w)) and for large |p|.
power_mean_log <- function(y, w, p) {
  keep <- w > 0
  u <- p * y[keep]
  umax <- max(u)
  if (umax == -Inf) return(0)
  exp((umax + log1p(sum(w[keep] / sum(w) * expm1(u - umax)))) / p)
}

# NULL for the built-in (string) choice, else the user's function.
gawm_component <- function(x, arg, builtin, call = rlang::caller_env()) {
  if (is.function(x)) return(x)
  if (is.character(x) && length(x) == 1L && identical(x, builtin)) return(NULL)
  stop_irtopics("{.arg {arg}} must be {.val {builtin}} or a function, not {.obj_type_friendly {x}}.",
                call = call)
}

gawm_label <- function(x) if (is.function(x)) "custom" else x

gawm_mean_arithmetic <- function(x, w) sum(w * x) / sum(w)
# Euclidean norms in units of a power of two (pow2_scale()): exact, and
# right for scores whose squares underflow (~1e-300) or overflow.
gawm_dispersion_euclidean <- function(x, center) {
  r <- x - center
  s <- pow2_scale(r)
  sqrt(sum((r / s)^2)) * s
}
gawm_proximity_euclidean <- function(scores, ease, q) {
  r <- sweep(scores, 2, ease)
  d <- sqrt(rowSums((r / pow2_scale(r))^2))
  s <- sum(d)
  if (s > 0) (1 - d / s)^q else rep(1, length(d))
}

# The fixed point iteration in R, for user-supplied components. Same
# algorithm as src/gawm.h.
gawm_r <- function(P, q, tol, maxit, mean_fun, disp_fun, prox_fun, call = rlang::caller_env()) {
  m <- nrow(P)
  n <- ncol(P)
  pass_q <- any(c("q", "...") %in% names(formals(prox_fun)))
  weights_of <- function(ease) {
    w <- call_user(prox_fun, if (pass_q) list(P, ease, q = q) else list(P, ease), "`proximity`",
                   check = NULL, kind = "argument", call = call)
    if (!is.numeric(w) || length(w) != m || anyNA(w) || any(!is.finite(w)) || any(w < 0)) {
      stop_irtopics("{.arg proximity} must return {m} finite non-negative weights (one per system).",
                    call = call)
    }
    if (!(sum(w) > 0)) {
      stop_irtopics("{.arg proximity} gave every system weight 0; the topic ease is undefined.",
                    kind = "data", call = call)
    }
    as.double(w)
  }
  one_number <- function(v, arg) {
    if (!is.numeric(v) || length(v) != 1L || !is.finite(v)) {
      stop_irtopics("{.arg {arg}} must return one finite number, not {.obj_type_friendly {v}}.",
                    call = call)
    }
    as.double(v)
  }
  user <- function(fun, args, arg, where) {
    call_user(fun, args, paste0("`", arg, "`"), where = where, check = NULL, kind = "argument", call = call)
  }
  ease_of <- function(ws) vapply(seq_len(n), function(j) {
    one_number(user(mean_fun, list(P[, j], ws), "mean", list(topic = colnames(P)[j])), "mean")
  }, 0)

  ease <- ease_of(rep(1, m))
  iterations <- 0L
  converged <- FALSE
  change <- 0
  for (it in seq_len(maxit)) {
    ws <- weights_of(ease)
    nxt <- ease_of(ws)
    change <- max(abs(nxt - ease))
    ease <- nxt
    iterations <- it
    if (change < tol) {
      converged <- TRUE
      break
    }
  }
  ws <- weights_of(ease)
  wt <- vapply(seq_len(n), function(j) {
    one_number(user(disp_fun, list(P[, j], ease[j]), "dispersion", list(topic = colnames(P)[j])), "dispersion")
  }, 0)
  if (any(wt < 0)) stop_irtopics("{.arg dispersion} must return non-negative numbers.", call = call)
  wt_use <- if (sum(wt) > 0) wt else rep(1, n)
  es <- vapply(seq_len(m), function(i) {
    one_number(user(mean_fun, list(P[i, ], wt_use), "mean", list(system = rownames(P)[i])), "mean")
  }, 0)
  list(system_performance = es, system_conformity = ws, topic_ease = ease,
       topic_discernment = wt, iterations = iterations, converged = converged, change = change)
}

gawm_result <- function(P, res, q, tol, maxit, measure, method, floor = NA_real_, exponent = NA_real_) {
  sys <- rownames(P)
  top <- colnames(P)
  E_s <- stats::setNames(res$system_performance, sys)
  W_s <- stats::setNames(res$system_conformity, sys)
  E_t <- stats::setNames(res$topic_ease, top)
  W_t <- stats::setNames(res$topic_discernment, top)
  new_ir_gawm(list(
    E_s = E_s, W_s = W_s, E_t = E_t, W_t = W_t,
    systems = data.frame(system = sys, performance = unname(E_s), conformity = unname(W_s),
                         MAP = unname(rowMeans(P)), stringsAsFactors = FALSE),
    topics = data.frame(topic = top, ease = unname(E_t), discernment = unname(W_t),
                        AAP = unname(colMeans(P)), stringsAsFactors = FALSE),
    iterations = res$iterations, converged = res$converged, change = res$change,
    q = q, tol = tol, maxit = maxit, method = method, floor = floor, exponent = exponent,
    measure = measure
  ))
}

new_ir_gawm <- function(x) {
  new_result(x, "ir_gawm", fields = c(E_s = "numeric", W_s = "numeric", E_t = "numeric", W_t = "numeric",
                                      systems = "data.frame", topics = "data.frame", iterations = "number",
                                      converged = "flag", q = "number", method = "any", measure = "string?"))
}

gawm_method_text <- function(x) {
  if (all(x$method[-1] == c("euclidean", "euclidean")) && x$method[[1]] != "custom") {
    mean_text <- switch(x$method[[1]],
      arithmetic = "weighted arithmetic mean",
      geometric = sprintf("weighted geometric mean of scores + %s", format(x$floor)),
      sprintf("weighted power mean (exponent %s) of scores + %s", format(x$exponent), format(x$floor)))
    sprintf("%s, Euclidean dispersion, eq. 8 proximity, q = %s", mean_text, format(x$q))
  } else {
    sprintf("mean: %s, dispersion: %s, proximity: %s, q = %s", x$method[["mean"]],
            x$method[["dispersion"]], x$method[["proximity"]], format(x$q))
  }
}

#' @rdname gawm
#' @export
format.ir_gawm <- function(x, ..., n = 10L) {
  check_shown(n = n)
  sys <- gawm_system_table(x)
  top <- gawm_topic_table(x)
  c(sprintf("<ir_gawm> GAWM of %s: %d systems x %d topics", x$measure, nrow(x$systems), nrow(x$topics)),
    sprintf("# %s", gawm_method_text(x)),
    sprintf("# %s after %d iteration%s (last change %s)",
            if (x$converged) "converged" else "NOT converged", x$iterations,
            if (x$iterations == 1) "" else "s", format(signif(x$change, 3))),
    "", sprintf("Systems by performance E_s (top %d of %d):", min(n, nrow(sys)), nrow(sys)),
    printed_lines(print(utils::head(sys, n), digits = 4, row.names = FALSE)),
    "", sprintf("Topics by ease E_t (top %d of %d):", min(n, nrow(top)), nrow(top)),
    printed_lines(print(utils::head(top, n), digits = 4, row.names = FALSE)))
}

#' @rdname gawm
#' @export
print.ir_gawm <- function(x, ..., n = 10L) print_formatted(x, n = n)

gawm_system_table <- function(x) {
  s <- x$systems
  s$rank <- rank(-s$performance, ties.method = "min")
  s$MAP_rank <- rank(-s$MAP, ties.method = "min")
  s <- s[order(s$rank, as_bytes(s$system), method = "radix"), c("rank", "system", "performance", "MAP", "MAP_rank", "conformity")]
  names(s)[names(s) == "performance"] <- "E_s"
  names(s)[names(s) == "conformity"] <- "W_s"
  rownames(s) <- NULL
  s
}

gawm_topic_table <- function(x) {
  t <- x$topics
  t$rank <- rank(-t$ease, ties.method = "min")
  t$AAP_rank <- rank(-t$AAP, ties.method = "min")
  t <- t[order(t$rank, as_bytes(t$topic), method = "radix"), c("rank", "topic", "ease", "AAP", "AAP_rank", "discernment")]
  names(t)[names(t) == "ease"] <- "E_t"
  names(t)[names(t) == "discernment"] <- "W_t"
  rownames(t) <- NULL
  t
}

#' Summarise a GAWM fit
#'
#' @param object An `ir_gawm` object from [gawm()].
#' @param ... Unused.
#' @return A `summary.ir_gawm` object (an [irtopics_summary] whose `$table`
#'   is `$correlations`), with `systems` (ranked by
#'   \eqn{E_s}, with MAP and its rank), `topics` (ranked by \eqn{E_t}, with
#'   AAP and \eqn{W_t}), and `correlations`, a data frame of the Pearson and
#'   Kendall correlations of \eqn{E_s} with MAP and of \eqn{E_t} with AAP.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc6_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' summary(gawm(ap))
#' @export
summary.ir_gawm <- function(object, ...) {
  s <- object$systems
  t <- object$topics
  cors <- data.frame(
    pair = c("MAP vs E_s", "AAP vs E_t"),
    pearson = c(safe_cor(s$MAP, s$performance), safe_cor(t$AAP, t$ease)),
    kendall = c(safe_cor(s$MAP, s$performance, "kendall"), safe_cor(t$AAP, t$ease, "kendall")),
    stringsAsFactors = FALSE
  )
  header <- format(object, n = 0L)[1:3]
  new_summary("ir_gawm", header, cors, systems = gawm_system_table(object), topics = gawm_topic_table(object),
              correlations = cors, header = header)
}

#' @rdname summary.ir_gawm
#' @param x A `summary.ir_gawm` object.
#' @method format summary.ir_gawm
#' @export
format.summary.ir_gawm <- function(x, ...) {
  w <- x$topics[order(-x$topics$W_t), , drop = FALSE]
  cols <- c("topic", "W_t", "E_t", "AAP")
  c(x$title, "", "Correlations with the unweighted means:",
    printed_lines(print(x$correlations, digits = 4, row.names = FALSE)),
    "", "Most discerning topics (largest W_t):",
    printed_lines(print(utils::head(w[, cols], 5), digits = 4, row.names = FALSE)),
    "", "Least discerning topics (smallest W_t):",
    printed_lines(print(utils::head(w[rev(seq_len(nrow(w))), cols], 5), digits = 4, row.names = FALSE)))
}

#' Long form of a GAWM fit
#'
#' @param x An `ir_gawm` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @return A data frame with columns `entity` (`"system"` or `"topic"`),
#'   `id`, `quantity` (`performance`, `conformity`, `MAP` for systems;
#'   `ease`, `discernment`, `AAP` for topics) and `value`.
#' @examples
#' P <- rbind(s1 = c(.5, .1, .3, .8), s2 = c(.4, .2, .1, .7), s3 = c(.9, .15, .2, .6))
#' head(as.data.frame(gawm(P)))
#' @export
as.data.frame.ir_gawm <- function(x, row.names = NULL, optional = FALSE, ...) {
  weights_long(x)
}
