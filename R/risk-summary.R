# Risk-sensitive evaluation against a baseline: URisk (Wang, Bennett &
# Collins-Thompson, SIGIR 2012; the TREC 2013-14 Web track's risk measure),
# its inferential form TRisk (Dincer, Macdonald & Ounis, SIGIR 2014), and
# ZRisk / GeoRisk over all systems as baselines (Dincer, Macdonald & Ounis,
# SIGIR 2016). One call, one result class `ir_risk_summary`, its methods and
# its two plots.

#' Risk-sensitive evaluation against a baseline: URisk, TRisk, ZRisk, GeoRisk
#'
#' Compares every system of a score matrix with one baseline system, weighting
#' the topics where a system loses to the baseline more heavily than those it
#' wins: how much does a system gain on average once its failures are
#' penalised, is that gain significant, and which systems are robust across
#' all the others?
#'
#' @section Definitions:
#' For a system with scores \eqn{r_i} and the baseline with \eqn{b_i} on
#' \eqn{c} topics, \eqn{\delta_i = r_i - b_i}; wins are \eqn{\delta_i > 0},
#' losses \eqn{\delta_i < 0}, ties \eqn{\delta_i = 0}.
#' * **URisk** (Wang et al. 2012) is the mean of the risk-reward
#'   differences \eqn{\delta'_i = \delta_i} for wins and ties,
#'   \eqn{(1 + \alpha)\delta_i} for losses:
#'   \deqn{U = \frac{1}{c}\Big[\sum_{wins} \delta_i - (1 + \alpha)
#'   \sum_{losses} |\delta_i|\Big].}
#'   **Sign convention**: higher is better (a reward, not a loss), as the
#'   TREC 2013-14 Web track's evaluation tools computed it with a baseline
#'   run (per topic \eqn{r - b} if \eqn{r \ge b}, else
#'   \eqn{(1 + \alpha)(r - b)}, averaged over topics). \eqn{\alpha = 0} gives
#'   the mean difference; the track reported \eqn{\alpha = 0, 1, 5, 10}.
#' * **TRisk** (Dincer et al. 2014) is URisk over its standard error,
#'   \eqn{T = U / (s_{\delta'} / \sqrt{c})}: the one-sample t statistic of
#'   the \eqn{\delta'_i} (at \eqn{\alpha = 0} the paired t statistic of
#'   system against baseline), with \eqn{c - 1} degrees of freedom. The
#'   paper reads \eqn{T > 2} as a significant gain and \eqn{T < -2} as a
#'   significant risk of losing to the baseline; here p-values come from
#'   Student's t (`alternative`), corrected over the systems (`correction`,
#'   separately for each \eqn{\alpha}), and `conf.low`, `conf.high` are the
#'   t interval of URisk (per system, not adjusted for the number of
#'   systems). It assumes topics are a random sample and the mean
#'   of the \eqn{\delta'_i} is about normal (many topics, or differences not
#'   too skewed). A large \eqn{\alpha} skews the \eqn{\delta'_i}: resampling
#'   topics of TREC 2004 Robust (measured in `bench/README.md`, section
#'   15), the 95% interval covered 94-95% at
#'   \eqn{\alpha \le 1} from 10 topics on, but at \eqn{\alpha = 5} only 87%
#'   with 10 topics, 91% with 25 and 93% with 50 (so TRisk's p-values are
#'   then somewhat too small).
#' * **ZRisk** (Dincer et al. 2016) uses every system of `scores` as a
#'   baseline. With \eqn{x_{ij}} the score of system \eqn{j} on topic
#'   \eqn{i}, \eqn{T_i} the topic's total over systems, \eqn{S_j} the
#'   system's total over topics and \eqn{N} the grand total, the expected
#'   score is \eqn{e_{ij} = T_i S_j / N} (as for a chi-squared test of
#'   independence) and \eqn{z_{ij} = (x_{ij} - e_{ij}) / \sqrt{e_{ij}}};
#'   \deqn{Z_j = \sum_{x_{ij} > e_{ij}} z_{ij} + (1 + \alpha)
#'   \sum_{x_{ij} < e_{ij}} z_{ij}.}
#' * **GeoRisk** \eqn{= \sqrt{\bar{x}_j \, \Phi(Z_j / c)}}, the geometric
#'   mean of the system's mean score and the normal probability of its
#'   average ZRisk. ZRisk and GeoRisk do not depend on `baseline` (the
#'   baseline system is one of the systems they use); higher is better.
#' * **Direction.** The definitions are for a measure where higher is
#'   better. Where the measure's record says lower is better (see
#'   [measure_info()]; a [custom_measure()] such as an error rate), a win is
#'   a lower score: \eqn{\delta_i = b_i - r_i}, ZRisk sums \eqn{-z_{ij}}
#'   (a score below its expected value is a gain), and GeoRisk, which
#'   multiplies by the mean score, is `NA` with an
#'   `irtopics_warning_undefined`. URisk, TRisk and ZRisk stay "higher is
#'   better". A plain matrix is taken as higher is better.
#'
#' @section Reconstruction:
#' The papers' text is not part of the package's specification; the
#' definitions above were recalled and checked against the TREC Web track's
#' evaluation code (URisk), a published TRisk tool and open implementations
#' of ZRisk/GeoRisk. Where they leave a choice it is an argument:
#' * `se`: the standard deviation of the \eqn{\delta'_i} in TRisk's standard
#'   error. `"sample"` (default, divisor \eqn{c - 1}) makes TRisk a t
#'   statistic exactly as [t.test()] computes it; `"population"` (divisor
#'   \eqn{c}) is what the TRisk tool of Benham & Culpepper (rmit-ir/trisk)
#'   computes, and gives slightly larger |TRisk|.
#' * Ties (\eqn{\delta_i = 0}) add 0 whatever \eqn{\alpha}; they are counted
#'   apart in `ties`.
#' * ZRisk needs non-negative scores (the expected scores are products of
#'   totals): with a negative score, or all scores 0, ZRisk and GeoRisk are
#'   `NA` with an `irtopics_warning_undefined`. A cell with
#'   \eqn{e_{ij} = 0} (a topic every system scores 0 on, or a system scoring
#'   0 everywhere) has \eqn{x_{ij} = 0} and contributes \eqn{z_{ij} = 0}.
#' * Undefined TRisk (one topic, or risk-reward differences of zero variance,
#'   e.g. all ties) is `NA` with an `irtopics_warning_undefined`; URisk is
#'   still reported.
#' * `NA` scores are refused (`irtopics_error_data`): the totals of ZRisk and
#'   the pairing of URisk need every system on every topic. Evaluate with
#'   `missing = "zero"` (trec_eval's `-c`) or drop the topics first.
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix (systems x
#'   topics), or an `ir_evaluation` of one measure; no `NA`.
#' @param baseline The name of the baseline system (a row of `scores`).
#' @param alpha The risk-aversion parameter(s) \eqn{\alpha \ge 0}: losses
#'   weigh \eqn{1 + \alpha} times. A vector gives one row per system and
#'   value.
#' @param correction A [stats::p.adjust()] method applied to TRisk's p-values
#'   over the systems (the baseline excluded), separately for each `alpha`:
#'   `"holm"` (default), `"bonferroni"`, `"hochberg"`, `"hommel"`, `"BH"`,
#'   `"BY"`, `"fdr"` or `"none"`.
#' @param sig_level Significance level of `significant` (and \eqn{1 -}
#'   `sig_level` confidence of the URisk interval).
#' @param alternative TRisk's alternative: `"two.sided"` (default),
#'   `"greater"` (URisk above 0: a gain over the baseline) or `"less"`
#'   (a risk of doing worse than the baseline).
#' @param se `"sample"` or `"population"`: the standard deviation in TRisk's
#'   standard error (see Reconstruction).
#' @return An `ir_risk_summary`: a list with `table`, a data frame with one
#'   row per `alpha` and system: `measure`, `alpha`, `system`, `is_baseline`,
#'   `mean` (the system's mean score), `urisk`, `conf.low`, `conf.high` (t
#'   interval of URisk), `std.error`, `trisk`, `df`, `p.value`,
#'   `p.adjusted`, `significant` (`p.adjusted < sig_level`), `zrisk`,
#'   `georisk`, `wins`, `ties`, `losses`, `n_topics` (the baseline's row has
#'   URisk 0 and no test); `topics`, a data frame with one row per
#'   non-baseline system and topic: `system`, `topic`, `score`,
#'   `baseline_score`, `difference` (score minus baseline's; the other way
#'   round where lower is better), `outcome` (`"win"`, `"tie"`, `"loss"`)
#'   and `z` (ZRisk's \eqn{z_{ij}}, negated where lower is better); and the
#'   settings `measure`, `baseline`,
#'   `alpha`, `correction`, `sig_level`, `alternative`, `se`, `n_systems`,
#'   `n_topics`.
#'
#'   `autoplot()` draws `type = "topics"` (default): per system, the
#'   per-topic differences from the baseline sorted from the largest win to
#'   the largest loss, wins and losses coloured, with URisk as a dashed line
#'   (the systems named in `system`, default the 9 of highest URisk); or
#'   `type = "systems"`: URisk of every system with its interval, coloured by
#'   the TRisk test's verdict, one panel per `alpha`.
#' @references Wang, L., Bennett, P. N. & Collins-Thompson, K. (2012). Robust
#'   ranking models via risk-sensitive optimization. *SIGIR 2012*, 761--770.
#'
#' Collins-Thompson, K., Bennett, P., Diaz, F., Clarke, C. L. A. &
#'   Voorhees, E. M. (2014). TREC 2013 Web track overview. *TREC 2013*.
#'
#' Dinçer, B. T., Macdonald, C. & Ounis, I. (2014). Hypothesis testing for
#'   the risk-sensitive evaluation of retrieval systems. *SIGIR 2014*,
#'   23--32.
#'
#' Dinçer, B. T., Macdonald, C. & Ounis, I. (2016). Risk-sensitive
#'   evaluation and learning to rank using multiple baselines. *SIGIR 2016*,
#'   483--492.
#' @seealso [compare_systems()] for other tests against a baseline.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' # the six best runs by MAP against the 30th
#' top <- ap[order(-rowMeans(ap))[c(1:6, 30)], ]
#' base <- rownames(top)[7]
#' risk <- risk_summary(top, baseline = base, alpha = c(0, 1, 5))
#' risk
#' summary(risk)
#' head(as.data.frame(risk))
#' autoplot(risk, system = rownames(top)[1:4])
#' autoplot(risk, type = "systems")
#' @export
risk_summary <- function(scores, baseline, alpha = 1, correction = "holm", sig_level = 0.05,
                         alternative = c("two.sided", "greater", "less"),
                         se = c("sample", "population")) {
  call <- environment()
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 1L, call = call)
  measure <- attr(m, "measure") %||% "score"
  better <- better_sign(score_record(m)$direction)
  if (missing(baseline) || !is.character(baseline) || length(baseline) != 1L || is.na(baseline)) {
    stop_irtopics("{.arg baseline} must be the name of one system.")
  }
  check_names_in(baseline, rownames(m), arg = "baseline")
  if (!is.numeric(alpha) || !length(alpha) || anyNA(alpha) || any(!is.finite(alpha)) || any(alpha < 0)) {
    stop_irtopics(c("{.arg alpha} must be one or more finite numbers >= 0.", x = "Got {show_value(alpha)}."))
  }
  if (anyDuplicated(alpha)) stop_irtopics("{.arg alpha} must not repeat a value.")
  check_correction(correction)
  check_number(sig_level, "sig_level", min = 0, max = 1)
  if (sig_level <= 0 || sig_level >= 1) stop_irtopics("{.arg sig_level} must be strictly between 0 and 1.")
  alternative <- match_choice(alternative)
  se <- match_choice(se)
  alpha <- as.numeric(alpha)

  systems <- rownames(m)
  n <- ncol(m)
  others <- setdiff(systems, baseline)
  # the gain over the baseline: score - baseline's, the other way round where lower is better
  d <- m[others, , drop = FALSE] - rep(m[baseline, ], each = length(others))
  if (better < 0) d <- -d
  zr <- zrisk_cells(m)
  if (better < 0 && !is.null(zr)) zr <- -zr
  tables <- lapply(alpha, function(a) {
    tab <- urisk_rows(d, a, se, sig_level, alternative)
    tab$p.adjusted <- stats::p.adjust(tab$p.value, method = correction)
    tab$significant <- !is.na(tab$p.adjusted) & tab$p.adjusted < sig_level
    tab <- rbind(tab, baseline_row(baseline, n))
    tab <- tab[match(systems, tab$system), , drop = FALSE]
    zg <- zrisk_values(m, zr, a)
    if (better < 0) zg$georisk[] <- NA_real_  # the mean score of a lower-is-better measure is no gain
    cbind(data.frame(measure = measure, alpha = a, stringsAsFactors = FALSE), tab[1],
          data.frame(is_baseline = systems == baseline, mean = rowMeans(m)),
          tab[-1], data.frame(zrisk = zg$zrisk, georisk = zg$georisk))
  })
  table <- do.call(rbind, tables)
  rownames(table) <- NULL
  table <- table[c("measure", "alpha", "system", "is_baseline", "mean", "urisk", "conf.low", "conf.high",
                   "std.error", "trisk", "df", "p.value", "p.adjusted", "significant", "zrisk", "georisk",
                   "wins", "ties", "losses", "n_topics")]
  risk_undefined_warning(table, measure, georisk = better > 0)
  topics <- data.frame(system = rep(others, times = n), topic = rep(colnames(m), each = length(others)),
                       score = as.vector(m[others, , drop = FALSE]),
                       baseline_score = rep(unname(m[baseline, ]), each = length(others)),
                       difference = as.vector(d), stringsAsFactors = FALSE)
  topics$outcome <- factor(sign(topics$difference), levels = c(1, 0, -1), labels = c("win", "tie", "loss"))
  topics$z <- if (is.null(zr)) NA_real_ else as.vector(zr[others, , drop = FALSE])
  topics <- topics[order(match(topics$system, others)), , drop = FALSE]
  rownames(topics) <- NULL
  new_ir_risk_summary(list(table = table, topics = topics, measure = measure, baseline = baseline,
                           alpha = alpha, correction = correction, sig_level = sig_level,
                           alternative = alternative, se = se, n_systems = length(systems), n_topics = n))
}

new_ir_risk_summary <- function(x) {
  new_result(x, "ir_risk_summary",
             fields = c(table = "data.frame", topics = "data.frame", measure = "string", baseline = "string",
                        alpha = "numeric", correction = "string", sig_level = "number", alternative = "string",
                        se = "string", n_systems = "number", n_topics = "number"))
}

# URisk, its t interval and TRisk for each row of d (systems x topics of
# differences from the baseline) at one alpha.
urisk_rows <- function(d, alpha, se, sig_level, alternative) {
  w <- ifelse(d < 0, (1 + alpha) * d, d)
  n <- ncol(d)
  u <- rowMeans(w)
  div <- if (se == "sample") n - 1 else n
  # tiny differences on a scale where their squares do not underflow
  # (square_scale(): exact, 1 unless every |w| is below 1e-100 or above 1e100,
  # e.g. losses times 1 + alpha = 1e300)
  k <- square_scale(w)
  s <- if (n >= 2) sqrt(rowSums((w * k - rowMeans(w * k))^2) / div) / k else rep(NA_real_, nrow(d))
  std_error <- s / sqrt(n)
  # the package's t test (the t record's rule of compare_systems())
  tt <- t_test_core(u, std_error, rep(n - 1, length(u)), abs(u), alternative, alpha = sig_level)
  data.frame(system = rownames(d), urisk = u, conf.low = tt$conf.low, conf.high = tt$conf.high,
             std.error = std_error, trisk = tt$statistic, df = n - 1, p.value = tt$p.value,
             p.adjusted = NA_real_, significant = FALSE,
             wins = as.integer(rowSums(d > 0)), ties = as.integer(rowSums(d == 0)),
             losses = as.integer(rowSums(d < 0)), n_topics = n,
             stringsAsFactors = FALSE, row.names = NULL)
}

# The baseline against itself: URisk 0, every topic a tie, no test.
baseline_row <- function(baseline, n) {
  data.frame(system = baseline, urisk = 0, conf.low = NA_real_, conf.high = NA_real_, std.error = NA_real_,
             trisk = NA_real_, df = n - 1, p.value = NA_real_, p.adjusted = NA_real_, significant = FALSE,
             wins = 0L, ties = as.integer(n), losses = 0L, n_topics = n, stringsAsFactors = FALSE)
}

# ZRisk's z_ij (systems x topics), or NULL where it is undefined (a negative
# score, or all scores 0). e_ij = 0 only where x_ij = 0: z_ij = 0 there.
zrisk_cells <- function(m) {
  if (any(m < 0) || sum(m) <= 0) return(NULL)
  # tiny scores: e's products would underflow; z scales as sqrt(k), exactly
  # for an even power of two (1 unless every score is below 1e-100)
  k <- square_scale(m)
  m <- m * k
  e <- outer(rowSums(m), colSums(m)) / sum(m)
  z <- (m - e) / sqrt(e)
  z[e <= 0] <- 0
  z / sqrt(k)
}

zrisk_values <- function(m, z, alpha) {
  if (is.null(z)) return(list(zrisk = rep(NA_real_, nrow(m)), georisk = rep(NA_real_, nrow(m))))
  zr <- rowSums(ifelse(z < 0, (1 + alpha) * z, z))
  list(zrisk = unname(zr), georisk = unname(sqrt(rowMeans(m) * stats::pnorm(zr / ncol(m)))))
}

risk_undefined_warning <- function(table, measure, georisk = TRUE) {
  bad <- !table$is_baseline & is.na(table$trisk)
  if (any(bad)) {
    why <- if (table$n_topics[1] < 2) "one topic has no standard error" else
      "their risk-reward differences have no variance (e.g. all ties with the baseline)"
    warn_irtopics(c("TRisk of {.val {measure}} is NA for {length(unique(table$system[bad]))} system{?s}: {why}.",
                    x = "{.val {utils::head(unique(table$system[bad]), 5)}}"), kind = "undefined")
  }
  if (all(is.na(table$zrisk))) {
    warn_irtopics(c("ZRisk and GeoRisk of {.val {measure}} are NA: they need non-negative scores, not all 0.",
                    i = "URisk and TRisk do not need them."), kind = "undefined")
  } else if (!georisk) {
    warn_irtopics(c("GeoRisk of {.val {measure}} is NA: lower is better for it, and GeoRisk takes the mean score as a gain.",
                    i = "URisk, TRisk and ZRisk count a lower score as a win."), kind = "undefined")
  }
}

# Methods -----------------------------------------------------------------------

risk_settings <- function(x) {
  sprintf("%s against %s, alpha = %s, %s, %s", x$measure, x$baseline, paste(format(x$alpha), collapse = ", "),
          plural(x$n_topics, "topic"),
          if (x$correction == "none") "p uncorrected" else sprintf("p corrected by %s", x$correction))
}

#' @rdname risk_summary
#' @param x,object An `ir_risk_summary`.
#' @param n Rows to print.
#' @param ... Unused.
#' @export
format.ir_risk_summary <- function(x, n = 20L, ...) {
  check_shown(n = n)
  tab <- x$table[!x$table$is_baseline, , drop = FALSE]
  tab <- tab[order(tab$alpha, -tab$urisk, tab$system), , drop = FALSE]
  shown <- data.frame(alpha = tab$alpha, system = tab$system, URisk = tab$urisk, TRisk = tab$trisk,
                      p.adj = tab$p.adjusted, `W/T/L` = sprintf("%d/%d/%d", tab$wins, tab$ties, tab$losses),
                      ZRisk = tab$zrisk, GeoRisk = tab$georisk, check.names = FALSE)
  k <- min(n, nrow(shown))
  c(sprintf("<ir_risk_summary> %s", risk_settings(x)),
    sprintf("%s; TRisk: t test (%s); ZRisk, GeoRisk: all systems as baselines",
            plural(x$n_systems, "system"), sub(".", "-", x$alternative, fixed = TRUE)),
    printed_lines(print(round_df(shown[seq_len(k), , drop = FALSE]), row.names = FALSE)),
    more_line(row = nrow(shown) - k))
}

#' @rdname risk_summary
#' @export
print.ir_risk_summary <- function(x, ...) print_formatted(x, ...)

#' @rdname risk_summary
#' @export
summary.ir_risk_summary <- function(object, ...) {
  tab <- object$table
  rows <- lapply(object$alpha, function(a) {
    t <- tab[tab$alpha == a & !tab$is_baseline, , drop = FALSE]
    best <- function(v) if (all(is.na(v))) NA_character_ else t$system[which.max(v)]
    data.frame(alpha = a, systems = nrow(t), gain = sum(t$significant & t$trisk > 0, na.rm = TRUE),
               risk = sum(t$significant & t$trisk < 0, na.rm = TRUE), not_significant = sum(!t$significant),
               best_urisk = best(t$urisk), best_georisk = best(t$georisk), stringsAsFactors = FALSE)
  })
  new_summary("ir_risk_summary",
              c(sprintf("Risk-sensitive evaluation: %s", risk_settings(object)),
                sprintf("Systems significantly better (gain) or worse (risk) than the baseline at %s:",
                        format(object$sig_level))),
              do.call(rbind, rows))
}

#' @rdname risk_summary
#' @param row.names,optional Unused, for compatibility with the generic.
#' @export
as.data.frame.ir_risk_summary <- function(x, row.names = NULL, optional = FALSE, ...) x$table

# Plots -------------------------------------------------------------------------

# Systems the topic plot draws by default (one panel each: a 2 x 2 grid fits
# one column).
risk_panels <- 4L
short_numbers <- function(b) vapply(b, function(v) if (is.na(v)) NA_character_ else format(signif(v, 2)), "")

#' @rdname risk_summary
#' @param type `"topics"` (per-topic differences of each system) or
#'   `"systems"` (URisk of every system).
#' @param system For `type = "topics"`: the systems to draw (default: the 4
#'   of highest URisk at the first `alpha`, 4 panels that fit one column).
#' @param at_alpha The `alpha` whose URisk the topic plot marks (default
#'   the first); the systems plot draws every `alpha`.
#' @method autoplot ir_risk_summary
#' @export
autoplot.ir_risk_summary <- function(object, type = c("topics", "systems"), system = NULL, at_alpha = NULL,
                                     ...) {
  check_no_dots(..., help = "risk_summary")
  type <- match_choice(type)
  check_type_args(c(system = !is.null(system), at_alpha = !is.null(at_alpha)),
                  used = if (type == "topics") c("system", "at_alpha") else character(), type = type)
  if (type == "topics") risk_topics_plot(object, system, at_alpha, call = environment()) else risk_systems_plot(object)
}

risk_topics_plot <- function(object, system, at_alpha, call) {
  a <- at_alpha %||% object$alpha[1]
  if (!is.numeric(a) || length(a) != 1L || !a %in% object$alpha) {
    stop_irtopics(c("{.arg at_alpha} must be one of the result's alpha values ({object$alpha}).",
                    x = "Got {show_value(a)}."), call = call)
  }
  tab <- object$table[object$table$alpha == a & !object$table$is_baseline, , drop = FALSE]
  if (is.null(system)) {
    system <- tab$system[order(-tab$urisk, tab$system)]
    if (length(system) > risk_panels) {
      inform_irtopics(c("i" = "Drawing the {risk_panels} systems of highest URisk of {length(system)}; name others with {.arg system}."),
                      kind = "layout")
      system <- system[seq_len(risk_panels)]
    }
  } else {
    check_names_in(system, tab$system, arg = "system", of = "object", call = call)
    system <- unique(system)
  }
  d <- object$topics[object$topics$system %in% system, , drop = FALSE]
  d <- d[order(match(d$system, system), -d$difference, d$topic), , drop = FALSE]
  d$position <- stats::ave(seq_len(nrow(d)), d$system, FUN = seq_along)
  d$system <- factor(d$system, levels = system)
  u <- tab[match(system, tab$system), c("system", "urisk")]
  u$system <- factor(u$system, levels = system)
  ggplot2::ggplot(d, ggplot2::aes(x = .data$position, y = .data$difference, fill = .data$outcome)) +
    ggplot2::geom_hline(yintercept = 0, colour = "grey40") +
    ggplot2::geom_col(width = 1) +
    ggplot2::geom_hline(data = u, ggplot2::aes(yintercept = .data$urisk), linetype = "dashed") +
    ggplot2::scale_fill_manual(values = outcome_colours(c("win", "tie", "loss")), drop = FALSE) +
    # the topics' positions need no ticks: the axis title gives their number
    ggplot2::scale_x_continuous(breaks = NULL, expand = ggplot2::expansion(0.01)) +
    ggplot2::facet_wrap(ggplot2::vars(.data$system)) +
    plot_labels(x = sprintf("Topics, largest win to largest loss (%d)", object$n_topics),
                y = sprintf("%s - baseline", object$measure), fill = NULL,
                title = wrap_text(sprintf("%s: per-topic differences from %s", object$measure, object$baseline)),
                subtitle = bquote("Dashed: URisk at" ~ alpha == .(format(a)) ~
                                    "(losses weigh" ~ .(format(1 + a)) * ")")) +
    title_theme(legend = TRUE)
}

risk_systems_plot <- function(object) {
  tab <- object$table[!object$table$is_baseline, , drop = FALSE]
  first <- tab[tab$alpha == object$alpha[1], , drop = FALSE]
  tab$system <- factor(tab$system, levels = first$system[order(first$urisk, first$system)])
  lab <- c("gain", "risk", "not significant")
  tab$verdict <- factor(ifelse(!tab$significant, lab[3], ifelse(tab$trisk > 0, lab[1], lab[2])), levels = lab)
  # plotmath strip labels: the Greek letter
  tab$panel <- factor(sprintf("alpha == %s", format(tab$alpha)), levels = sprintf("alpha == %s", format(object$alpha)))
  n_rows <- nlevels(tab$system)
  ci <- tab[!is.na(tab$conf.low), , drop = FALSE]
  p <- ggplot2::ggplot(tab, ggplot2::aes(y = .data$system, colour = .data$verdict)) +
    ggplot2::geom_vline(xintercept = 0, linetype = "dashed", colour = "grey50")
  if (nrow(ci)) {
    p <- p + interval_bars(data = ci, ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high), height = 0.3)
  }
  p + ggplot2::geom_point(ggplot2::aes(x = .data$urisk), size = if (n_rows > 35L) 0.8 else 1.5) +
    ggplot2::scale_colour_manual(values = outcome_colours(c("win", "loss", "none"), lab), drop = FALSE) +
    ggplot2::scale_x_continuous(n.breaks = if (length(object$alpha) > 1L) 3 else 5, labels = short_numbers,
                                guide = crowded_guide()) +
    ggplot2::scale_y_discrete(guide = crowded_guide()) +
    ggplot2::facet_wrap(ggplot2::vars(.data$panel), scales = "free_x", labeller = ggplot2::label_parsed) +
    plot_labels(x = wrap_text(sprintf("URisk of %s against %s, %g%% t interval", object$measure, object$baseline,
                                      100 * (1 - object$sig_level)), 38L),
                y = NULL, colour = NULL,
                title = wrap_text(sprintf("%s: risk-reward against %s, %s", object$measure, object$baseline,
                                          plural(n_rows, "system"))),
                subtitle = bquote("Colour: TRisk at" ~ italic(p) < .(format(object$sig_level)) ~
                                    .(sprintf("(%s, %s)", sub(".", "-", object$alternative, fixed = TRUE),
                                              if (object$correction == "none") "uncorrected" else
                                                paste(object$correction, "corrected"))))) +
    title_theme(legend = TRUE) +
    crowded_y_theme(n_rows) + ggplot2::theme(panel.spacing.x = ggplot2::unit(1, "lines"))
}
