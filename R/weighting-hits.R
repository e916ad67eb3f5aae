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
    ylab <- quote(HITS ~ system ~ authority ~ italic(A)(s))
    ttl <- "Systems"
  } else {
    df <- object$topics
    id <- "topic"
    xlab <- sprintf("AAP (mean %s over systems)", object$measure)
    df$x <- df$AAP
    ylab <- quote(HITS ~ topic ~ authority ~ italic(A)(t))
    ttl <- "Topics"
  }
  r <- safe_cor(df$x, df$authority)
  ggplot2::ggplot(df, ggplot2::aes(x = .data$x, y = .data$authority)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey70") +
    ggplot2::geom_point() +
    label_layer(df, label, id, "authority", "x", "authority") +
    ggplot2::labs(x = xlab, y = ylab) +
    plot_labels(title = sprintf("%s: Pearson r = %s", ttl, format(round(r, 3), nsmall = 3))) +
    title_theme()
}
# HITS on the systems-topics graph (Mizzaro & Robertson, SIGIR 2007), spec 3.2.

#' HITS hubs and authorities of systems and topics
#'
#' Mizzaro and Robertson's (2007) network analysis of an evaluation: a
#' bipartite graph of systems and topics whose edges carry mean-subtracted
#' scores. With \eqn{AP_A[s,t] = AP[s,t] - AAP[t]} (how much better than the
#' topic's average the system did) and \eqn{AP_M[s,t] = AP[s,t] - MAP[s]}
#' (how much easier than the system's average the topic was), the edge
#' \eqn{s \to t} weighs \eqn{AP_M[s,t]} and the edge \eqn{t \to s} weighs
#' \eqn{AP_A[s,t]}. The HITS equations \eqn{h = A a}, \eqn{a = A^T h}
#' decouple into two singular value problems:
#' \itemize{
#'   \item system authority \eqn{A(s)} and topic hubness \eqn{H(t)}: the
#'     first left and right singular vectors of \eqn{AP_A};
#'   \item topic authority \eqn{A(t)} and system hubness \eqn{H(s)}: the
#'     first right and left singular vectors of \eqn{AP_M}.
#' }
#'
#' Conventions: each of the four vectors has unit Euclidean norm. Signs are
#' fixed so that the hub vectors sum to a positive number (\eqn{\sum_t H(t)
#' > 0}, \eqn{\sum_s H(s) > 0}); this is what power iteration started from
#' all-ones converges to, and it makes \eqn{A(s)} increase with MAP and
#' \eqn{A(t)} with AAP. (The authorities themselves sum to 0 because of the
#' centring, so their own sum cannot fix the sign.) If the two largest
#' singular values are equal the direction is not unique and a warning is
#' raised.
#'
#' @section Reconstruction:
#' Only part of Mizzaro and Robertson (2007) could be read, so the graph's
#' edge directions and weights follow its description of the method rather
#' than its equations, and the computation is irtopics' own: the reduction
#' to singular vectors, the unit-norm normalization per block and the sign
#' rule. With them \eqn{A(s)} tracks MAP and \eqn{A(t)} tracks AAP, as both
#' Mizzaro and Robertson (2007) and Lee et al. (2009) report.
#'
#' On the TREC-6/7/8 ad hoc runs that Lee et al. (2009) used (the automatic
#' runs; see [trec_runs()]), r(MAP, \eqn{A(s)}) is .958, .995 and .996 and
#' r(AAP, \eqn{A(t)}) is .999: their Table 2's HITS column exactly.
#'
#' @inheritParams gawm
#' @return An `ir_hits` object: a list with named vectors `A_s`, `H_s`
#'   (systems) and `A_t`, `H_t` (topics); data frames `systems`
#'   (`system, MAP, authority, hub`) and `topics` (`topic, AAP, authority,
#'   hub`); the singular values `sigma_A` of \eqn{AP_A} and `sigma_M` of
#'   \eqn{AP_M}; and `measure`. `print()` shows the best `n` systems and
#'   topics by authority; `summary()` the correlations of authorities and
#'   hubs with MAP and AAP (Pearson and Kendall; an [irtopics_summary] whose
#'   `$table` is `$correlations`);
#'   [as.data.frame()][as.data.frame.ir_hits] and
#'   [autoplot()][autoplot.ir_hits] have their own pages.
#' @param x,object An `ir_hits` object (a `summary.ir_hits` for its
#'   `print()`).
#' @param n Number of systems and topics to print.
#' @param ... Unused.
#' @references Mizzaro, S., Robertson, S. (2007). HITS hits TREC: exploring
#'   IR evaluation results with network analysis. SIGIR 2007, 479-486.
#' @seealso [gawm()], [weighting_correlations()].
#' @examples
#' P <- rbind(s1 = c(.50, .10, .30, .80), s2 = c(.40, .20, .10, .70),
#'            s3 = c(.90, .15, .20, .60))
#' h <- hits(P)
#' h$A_s                  # -0.3008 -0.5070  0.8078
#' cor(h$A_s, rowMeans(P))
#' @export
hits <- function(scores) {
  P <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  measure <- attr(P, "measure") %||% "score"
  attr(P, "measure") <- NULL
  map <- rowMeans(P)
  aap <- colMeans(P)
  ap_a <- sweep(P, 2, aap)
  ap_m <- sweep(P, 1, map)
  sa <- hits_pair(ap_a, "AP_A")
  sm <- hits_pair(ap_m, "AP_M")
  # AP_A: authority of systems = u, hub of topics = v; AP_M: hub of systems = u,
  # authority of topics = v. Sign: the hub vector sums to a positive number.
  A_s <- sa$u
  H_t <- sa$v
  H_s <- sm$u
  A_t <- sm$v
  sys <- rownames(P)
  top <- colnames(P)
  new_ir_hits(list(
    A_s = stats::setNames(A_s, sys), H_s = stats::setNames(H_s, sys),
    A_t = stats::setNames(A_t, top), H_t = stats::setNames(H_t, top),
    systems = data.frame(system = sys, MAP = unname(map), authority = A_s, hub = H_s,
                         stringsAsFactors = FALSE),
    topics = data.frame(topic = top, AAP = unname(aap), authority = A_t, hub = H_t,
                        stringsAsFactors = FALSE),
    sigma_A = sa$d, sigma_M = sm$d, measure = measure
  ))
}

new_ir_hits <- function(x) {
  new_result(x, "ir_hits", fields = c(A_s = "numeric", H_s = "numeric", A_t = "numeric", H_t = "numeric",
                                      systems = "data.frame", topics = "data.frame", sigma_A = "numeric",
                                      sigma_M = "numeric", measure = "string?"))
}

# First singular pair of x with the sign rule "the right vector (hubs of
# topics for AP_A) or the left vector (hubs of systems for AP_M) sums > 0".
hits_pair <- function(x, label) {
  s <- svd(x)
  d <- s$d
  u <- s$u[, 1]
  v <- s$v[, 1]
  if (!(d[1] > 0)) {
    warn_irtopics("{label} is all zero; its singular vectors are undefined (returned as NA).",
                  kind = "hits")
    return(list(u = rep(NA_real_, nrow(x)), v = rep(NA_real_, ncol(x)), d = d))
  }
  if (length(d) > 1 && abs(d[1] - d[2]) <= 1e-10 * d[1]) {
    warn_irtopics("The two largest singular values of {label} are equal; the HITS vectors are not unique.",
                  kind = "hits")
  }
  hub <- if (label == "AP_A") v else u
  sgn <- sum(hub)
  if (sgn < 0) {
    u <- -u
    v <- -v
  }
  list(u = u, v = v, d = d)
}

#' @rdname hits
#' @export
format.ir_hits <- function(x, ..., n = 10L) {
  check_shown(n = n)
  s <- x$systems[order(-x$systems$authority, x$systems$system), , drop = FALSE]
  names(s)[3:4] <- c("A(s)", "H(s)")
  t <- x$topics[order(-x$topics$authority, x$topics$topic), , drop = FALSE]
  names(t)[3:4] <- c("A(t)", "H(t)")
  c(hits_header(x),
    "", sprintf("Systems by authority A(s) (top %d of %d):", min(n, nrow(s)), nrow(s)),
    printed_lines(print(utils::head(s, n), digits = 4, row.names = FALSE)),
    "", sprintf("Topics by authority A(t) (top %d of %d):", min(n, nrow(t)), nrow(t)),
    printed_lines(print(utils::head(t, n), digits = 4, row.names = FALSE)))
}

hits_header <- function(x) {
  c(sprintf("<ir_hits> HITS of %s: %d systems x %d topics", x$measure, nrow(x$systems), nrow(x$topics)),
    sprintf("# sigma_1(AP_A) = %s, sigma_1(AP_M) = %s; r(MAP, A(s)) = %s, r(AAP, A(t)) = %s",
            format(signif(x$sigma_A[1], 4)), format(signif(x$sigma_M[1], 4)),
            format(round(safe_cor(x$systems$MAP, x$systems$authority), 4)),
            format(round(safe_cor(x$topics$AAP, x$topics$authority), 4))))
}

#' @rdname hits
#' @export
print.ir_hits <- function(x, ..., n = 10L) print_formatted(x, n = n)

#' @rdname hits
#' @export
summary.ir_hits <- function(object, ...) {
  s <- object$systems
  t <- object$topics
  cors <- data.frame(
    pair = c("MAP vs A(s)", "MAP vs H(s)", "AAP vs A(t)", "AAP vs H(t)"),
    pearson = c(safe_cor(s$MAP, s$authority), safe_cor(s$MAP, s$hub),
                safe_cor(t$AAP, t$authority), safe_cor(t$AAP, t$hub)),
    kendall = c(safe_cor(s$MAP, s$authority, "kendall"), safe_cor(s$MAP, s$hub, "kendall"),
                safe_cor(t$AAP, t$authority, "kendall"), safe_cor(t$AAP, t$hub, "kendall")),
    stringsAsFactors = FALSE
  )
  header <- hits_header(object)
  new_summary("ir_hits", header, cors, correlations = cors, header = header)
}

#' @rdname hits
#' @method format summary.ir_hits
#' @export
format.summary.ir_hits <- function(x, ...) {
  c(x$title, "", "Correlations with the plain means:",
    printed_lines(print(x$correlations, digits = 4, row.names = FALSE)))
}

#' Long form of HITS results
#'
#' @param x An `ir_hits` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @return A data frame with columns `entity` (`"system"` or `"topic"`),
#'   `id`, `quantity` (`MAP`/`AAP`, `authority`, `hub`) and `value`.
#' @examples
#' P <- rbind(s1 = c(.5, .1, .3, .8), s2 = c(.4, .2, .1, .7), s3 = c(.9, .15, .2, .6))
#' as.data.frame(hits(P))
#' @export
as.data.frame.ir_hits <- function(x, row.names = NULL, optional = FALSE, ...) {
  weights_long(x)
}
