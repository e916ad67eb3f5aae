# Two-way ANOVA without replication of a systems x topics matrix (topics are
# the blocks): the table of Sakai (2015), "Information Access Evaluation
# Methodology", chapter 5, and the residual variance V_E that the blocked
# Tukey HSD, the randomised Tukey HSD, topic-set-size design and the G-study
# share. anova_impl() is the one place V_E is computed.

#' Two-way ANOVA of a score matrix (systems x topics, no replication)
#'
#' The classical two-way analysis of variance without replication, with
#' systems as the factor of interest and topics as blocks. With \eqn{m}
#' systems, \eqn{n} topics, grand mean \eqn{\bar x}, system means
#' \eqn{\bar x_{i\cdot}} and topic means \eqn{\bar x_{\cdot j}}:
#' \deqn{S_A = n \sum_i (\bar x_{i\cdot} - \bar x)^2,\quad
#'       S_B = m \sum_j (\bar x_{\cdot j} - \bar x)^2,\quad
#'       S_E = \sum_{ij} (x_{ij} - \bar x_{i\cdot} - \bar x_{\cdot j} + \bar x)^2,}
#' with \eqn{m - 1}, \eqn{n - 1} and \eqn{(m - 1)(n - 1)} degrees of
#' freedom, mean squares \eqn{V = S / \phi} and F statistics
#' \eqn{V_A / V_E} (systems) and \eqn{V_B / V_E} (topics). The table equals
#' `anova(lm(score ~ system + topic))` on the long form of the matrix.
#'
#' The residual variance \eqn{V_E} is what the blocked Tukey HSD, topic-set
#' size design and the G-study use as the within-system variance; it is
#' returned as `$residual_variance`.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, with at least 2 systems and 2 topics and no NA (the design must
#'   be complete: evaluate with `missing = "zero"` or drop the topic).
#' @return An `ir_anova` object: a list with
#'   * `table`: a data frame with one row per source (`system`, `topic`,
#'     `residual`, `total`) and columns `source`, `df`, `sum_sq`, `mean_sq`,
#'     `statistic` (F) and `p.value`;
#'   * `residual_variance` (\eqn{V_E}) and `residual_df` (\eqn{\phi_E});
#'   * `system_means`, `topic_means` (named vectors) and `grand_mean`;
#'   * `n_systems`, `n_topics` and `measure`.
#' @references Sakai, T. (2014). Statistical reform in information
#'   retrieval? *SIGIR Forum* 48(1), 3--12.
#'
#' Sakai, T. (2016). Topic set size design. *Information Retrieval Journal*
#'   19(3), 256--283.
#' @seealso [g_study()], which uses the same mean squares.
#' @examples
#' x <- rbind(a = c(.7, .3, .2, .6, .4), b = c(.5, .1, 0, .2, .4),
#'            c = c(0, 0, .2, .1, .3))
#' colnames(x) <- paste0("t", 1:5)
#' fit <- anova_scores(x)
#' fit
#' fit$residual_variance
#' as.data.frame(fit)
#' @export
anova_scores <- function(scores) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  a <- anova_impl(m)
  tab <- data.frame(
    source = c("system", "topic", "residual", "total"),
    df = c(a$df_a, a$df_b, a$df_e, a$df_a + a$df_b + a$df_e),
    sum_sq = c(a$s_a, a$s_b, a$s_e, a$s_a + a$s_b + a$s_e),
    stringsAsFactors = FALSE
  )
  tab$mean_sq <- c(a$s_a / a$df_a, a$s_b / a$df_b, a$v_e, NA_real_)
  # A residual sum of squares at rounding level (below 1e-12 of the total) is
  # a matrix that is exactly additive: F is undefined, not a huge number.
  f <- if (a$s_e > 1e-12 * (a$s_a + a$s_b + a$s_e)) tab$mean_sq[1:2] / a$v_e else c(NA_real_, NA_real_)
  tab$statistic <- c(f, NA_real_, NA_real_)
  tab$p.value <- c(stats::pf(f, tab$df[1:2], a$df_e, lower.tail = FALSE), NA_real_, NA_real_)
  new_ir_anova(list(
    table = tab,
    residual_variance = a$v_e,
    residual_df = a$df_e,
    system_means = a$system_means,
    topic_means = a$topic_means,
    grand_mean = a$grand_mean,
    n_systems = nrow(m),
    n_topics = ncol(m),
    measure = attr(m, "measure")
  ))
}

new_ir_anova <- function(x) {
  new_result(x, "ir_anova", fields = c(table = "data.frame", residual_variance = "number",
                                       residual_df = "number", system_means = "numeric",
                                       topic_means = "numeric", grand_mean = "number",
                                       n_systems = "number", n_topics = "number", measure = "string?"))
}

# The sums of squares of a complete double matrix `m` (checked by the caller).
# Deviations are formed before squaring (no S_T - S_A - S_B cancellation), so
# S_E is accurate even when the residual is tiny against the totals.
anova_impl <- function(m) {
  ns <- nrow(m)
  nt <- ncol(m)
  mu <- mean(m)
  sm <- rowMeans(m)
  tm <- colMeans(m)
  resid <- m - outer(sm, tm, "+") + mu
  s_a <- nt * sum((sm - mu)^2)
  s_b <- ns * sum((tm - mu)^2)
  s_e <- sum(resid^2)
  df_e <- (ns - 1) * (nt - 1)
  list(s_a = s_a, s_b = s_b, s_e = s_e,
       df_a = ns - 1, df_b = nt - 1, df_e = df_e, v_e = s_e / df_e,
       system_means = sm, topic_means = tm, grand_mean = mu)
}

#' @rdname anova_scores
#' @param x An `ir_anova` object.
#' @param ... Unused.
#' @export
format.ir_anova <- function(x, ...) {
  tab <- x$table
  num <- function(v, d) ifelse(is.na(v), "", formatC(v, digits = d, format = "f"))
  body <- data.frame(
    source = tab$source, df = tab$df,
    sum_sq = num(tab$sum_sq, 5), mean_sq = num(tab$mean_sq, 6),
    F = num(tab$statistic, 4),
    p.value = ifelse(is.na(tab$p.value), "", format.pval(tab$p.value, digits = 4)),
    stringsAsFactors = FALSE
  )
  lines <- printed_lines(print(body, row.names = FALSE))
  c(sprintf("<ir_anova> two-way ANOVA without replication: %d system%s x %d topic%s%s",
            x$n_systems, if (x$n_systems == 1) "" else "s",
            x$n_topics, if (x$n_topics == 1) "" else "s",
            if (!is.null(x$measure)) paste0(" (", x$measure, ")") else ""),
    lines,
    sprintf("Residual variance V_E = %.6g on %d df", x$residual_variance, x$residual_df))
}

#' @rdname anova_scores
#' @export
print.ir_anova <- function(x, ...) print_formatted(x, ...)

#' @rdname anova_scores
#' @param object An `ir_anova` object.
#' @export
summary.ir_anova <- function(object, ...) {
  new_summary("ir_anova", sprintf("Two-way ANOVA without replication (residual variance V_E = %.6g on %d df):",
                                  object$residual_variance, object$residual_df), object$table)
}

#' @rdname anova_scores
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_anova <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$table
}
