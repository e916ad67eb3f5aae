# Reliability of a test collection: Cronbach's alpha (Bodoff & Li 2007,
# Mandl 2009; spec 5.2) and generalizability theory (Brennan 2001): the
# G-study of a crossed systems x topics design and D-study projections.

#' Cronbach's alpha of a score matrix
#'
#' Systems are the cases and topics the items (Bodoff & Li 2007; Mandl
#' 2009): with \eqn{k} topics,
#' \deqn{\alpha = \frac{k}{k-1}\left(1 - \frac{\sum_t \mathrm{Var}(X_{\cdot t})}{\mathrm{Var}(\sum_t X_{\cdot t})}\right),}
#' variances over systems. Equals `psych::alpha(scores)$total$raw_alpha`
#' and the G-study's \eqn{E\rho^2} ([g_study()]). It can be negative (topics
#' that order the systems in opposite ways) and is not clamped.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @return A number; `NA` with fewer than 2 topics or systems, or when the
#'   systems' totals do not vary (a total variance below \eqn{10^{-12}}
#'   times the sum of the topic variances counts as 0: it is floating-point
#'   rounding of totals that are equal).
#' @references Bodoff, D. & Li, P. (2007). Test theory for assessing IR test
#'   collections. *SIGIR 2007*, 367--374.
#' @examples
#' x <- rbind(c(.20, .35, .10, .50), c(.25, .40, .05, .55), c(.10, .20, .00, .30),
#'            c(.30, .45, .15, .60), c(.15, .30, .10, .35))
#' cronbach_alpha(x)   # 0.9330514
#' @export
cronbach_alpha <- function(scores) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 1L, min_topics = 1L)
  alpha_impl(m)
}

alpha_impl <- function(m) {
  k <- ncol(m)
  if (k < 2L || nrow(m) < 2L) return(NA_real_)
  total_var <- stats::var(rowSums(m))
  item_var <- sum(apply(m, 2L, stats::var))
  # A total variance of 0 gives NA (spec 5.2). Totals that are equal in
  # exact arithmetic can differ in the last bit (e.g. rows .69 .24 .07 and
  # .08 .42 .50), leaving a variance of ~1e-33 and an alpha of ~-1e31; treat
  # a total variance below 1e-12 of the item variances as 0.
  if (!is.finite(total_var) || total_var <= 1e-12 * item_var || total_var <= 0) return(NA_real_)
  k / (k - 1) * (1 - item_var / total_var)
}

#' Generalizability study of a systems x topics matrix
#'
#' Estimates the variance components of the crossed design with one score
#' per cell, \eqn{X_{st} = \mu + \nu_s + \nu_t + \nu_{st,e}}, from the
#' two-way ANOVA mean squares (Brennan 2001):
#' \eqn{\hat\sigma^2(e) = MS_e}, \eqn{\hat\sigma^2(s) = (MS_s - MS_e)/n_t},
#' \eqn{\hat\sigma^2(t) = (MS_t - MS_e)/n_s}; and for \eqn{n'} topics the
#' generalizability coefficient \eqn{E\rho^2 = \sigma^2(s) / (\sigma^2(s) +
#' \sigma^2(e)/n')} (relative decisions: ranking systems; equals Cronbach's
#' alpha at \eqn{n' = n_t}) and the dependability index \eqn{\Phi =
#' \sigma^2(s) / (\sigma^2(s) + (\sigma^2(t) + \sigma^2(e))/n')} (absolute
#' decisions: the scores themselves). `d_study()` projects both to other
#' topic-set sizes.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @param truncate Set negative variance-component estimates to 0 (Brennan's
#'   usual convention) before computing the coefficients. Default `FALSE`,
#'   which keeps \eqn{E\rho^2} equal to Cronbach's alpha.
#' @return A `g_study` object: `$components` (data frame: `component`,
#'   `variance`, `percent`), `$Erho2`, `$Phi`, `$n_systems`, `$n_topics`.
#'   The coefficients are `NA` when their denominator is 0 (e.g. a constant
#'   matrix), as Cronbach's alpha is. `as.data.frame()` returns
#'   `$components`; `summary()` the coefficients and the topics needed for
#'   \eqn{E\rho^2} and \eqn{\Phi} of 0.8, 0.9 and 0.95 (an
#'   [irtopics_summary]).
#' @param x,object A `g_study` or `d_study` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @references Brennan, R. L. (2001). *Generalizability Theory*. Springer.
#'
#' Urbano, J., Marrero, M. & Martín, D. (2013). On the measurement of test
#' collection reliability. *SIGIR 2013*.
#' @examples
#' x <- read_scores(system.file("extdata", "score-matrices", "synthetic4.csv",
#'                              package = "irtopics"))
#' g <- g_study(x)
#' g                      # Erho2 .729, Phi .672
#' d_study(g, c(5, 12, 25, 50))
#' @export
g_study <- function(scores, truncate = FALSE) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  check_flag(truncate, "truncate")
  ns <- nrow(m)
  nt <- ncol(m)
  mu <- mean(m)
  ms <- rowMeans(m)
  mt <- colMeans(m)
  ms_s <- nt * sum((ms - mu)^2) / (ns - 1)
  ms_t <- ns * sum((mt - mu)^2) / (nt - 1)
  resid <- m - outer(ms, mt, "+") + mu
  ms_e <- sum(resid^2) / ((ns - 1) * (nt - 1))
  comp <- c(system = (ms_s - ms_e) / nt, topic = (ms_t - ms_e) / ns, residual = ms_e)
  if (truncate) comp <- pmax(comp, 0)
  out <- structure(list(
    components = data.frame(component = names(comp), variance = unname(comp),
                            percent = if (sum(pmax(comp, 0)) > 0) 100 * unname(comp) / sum(pmax(comp, 0))
                                      else NA_real_),
    mean_squares = c(system = ms_s, topic = ms_t, residual = ms_e),
    n_systems = ns, n_topics = nt, truncate = truncate
  ), class = "g_study")
  coef <- g_coefficients(out, nt)
  out$Erho2 <- coef$Erho2
  out$Phi <- coef$Phi
  out
}

g_coefficients <- function(g, n) {
  v <- stats::setNames(g$components$variance, g$components$component)
  ratio <- function(num, den) ifelse(den == 0, NA_real_, num / den)
  data.frame(n_topics = n,
             Erho2 = ratio(v[["system"]], v[["system"]] + v[["residual"]] / n),
             Phi = ratio(v[["system"]], v[["system"]] + (v[["topic"]] + v[["residual"]]) / n))
}

#' @rdname g_study
#' @param g A `g_study` object, or a score matrix (a G-study is run first).
#' @param n_topics Topic-set sizes to project to.
#' @return `d_study()`: a `d_study` data frame with columns `n_topics`,
#'   `Erho2`, `Phi`.
#' @export
d_study <- function(g, n_topics) {
  if (!inherits(g, "g_study")) g <- g_study(g)
  if (!is.numeric(n_topics) || !length(n_topics) || anyNA(n_topics) || any(n_topics < 1)) {
    stop_irtopics("{.arg n_topics} must be positive numbers of topics.")
  }
  structure(g_coefficients(g, as.double(n_topics)), class = c("d_study", "data.frame"))
}

#' @rdname g_study
#' @export
format.g_study <- function(x, ...) {
  comp <- x$components
  comp$variance <- signif(comp$variance, 5)
  comp$percent <- round(comp$percent, 1)
  c(sprintf("<g_study> %s x %s%s", plural(x$n_systems, "system"), plural(x$n_topics, "topic"),
            if (x$truncate) " (negative components set to 0)" else ""),
    printed_lines(print(comp, row.names = FALSE)),
    sprintf("Erho2 = %.4f  Phi = %.4f", x$Erho2, x$Phi))
}

#' @rdname g_study
#' @export
print.g_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.g_study <- function(object, ...) {
  v <- stats::setNames(object$components$variance, object$components$component)
  if (object$truncate) v <- pmax(v, 0)
  # topics needed for a target: n' = target/(1 - target) * (error / sigma2(s))
  need <- function(target, err) {
    if (!is.finite(v[["system"]]) || v[["system"]] <= 0) return(NA_real_)
    ceiling(target / (1 - target) * err / v[["system"]])
  }
  tab <- data.frame(coefficient = c("Erho2", "Phi"), observed = c(object$Erho2, object$Phi))
  for (target in c(0.8, 0.9, 0.95)) {
    tab[[sprintf("topics_for_%.2f", target)]] <- c(need(target, v[["residual"]]),
                                                   need(target, v[["topic"]] + v[["residual"]]))
  }
  new_summary("g_study", sprintf("Reliability with %s and the topics needed for a target:",
                                 plural(object$n_topics, "topic")), tab)
}

#' @rdname g_study
#' @export
as.data.frame.g_study <- function(x, row.names = NULL, optional = FALSE, ...) x$components

#' @rdname g_study
#' @export
format.d_study <- function(x, ...) {
  c("<d_study> projected reliability",
    printed_lines(print(structure(x, class = "data.frame"), row.names = FALSE, digits = 4)))
}

#' @rdname g_study
#' @export
print.d_study <- function(x, ...) print_formatted(x, ...)

#' @rdname g_study
#' @export
summary.d_study <- function(object, ...) {
  d <- as.data.frame(object)
  new_summary("d_study", sprintf("Projected reliability from %g to %g topics:",
                                 min(d$n_topics), max(d$n_topics)),
              d[unique(c(1L, nrow(d))), , drop = FALSE])
}

#' @rdname g_study
#' @export
as.data.frame.d_study <- function(x, row.names = NULL, optional = FALSE, ...) {
  class(x) <- "data.frame"
  x
}
