#' Plot error rates by topic-set size
#'
#' Error rate against topic-set size, one line per measure (use
#' [bind_error_rates()] to put several measures in one plot); with
#' `what = "ties"` the rate of ties instead. Both are shown as percentages.
#'
#' @param object A [swap_error_rates()] result.
#' @param what `"error"` or `"ties"`.
#' @param ... Unused; unknown arguments are an error.
#' @return A ggplot object.
#' @method autoplot ir_swap_error_rates
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' e <- swap_error_rates(ap, sizes = c(5, 10, 20), trials = 30, seed = 1)
#' ggplot2::autoplot(e)
#' @export
autoplot.ir_swap_error_rates <- function(object, what = c("error", "ties"), ...) {
  check_no_dots(..., help = "autoplot.ir_swap_error_rates")
  what <- match_choice(what)
  d <- object$error
  d$value <- 100 * if (what == "error") d$error_rate else d$tie_rate
  d$measure <- factor(d$measure, levels = unique(d$measure))
  n_measures <- nlevels(d$measure)
  # a legend only for several measures; the one measure is in the title
  guide <- if (n_measures > 1L) "legend" else "none"
  ggplot2::ggplot(d, ggplot2::aes(x = .data$size, y = .data$value, colour = .data$measure,
                                  shape = .data$measure)) +
    ggplot2::geom_line() +
    sparse_points(length(unique(d$size))) +
    ggplot2::scale_colour_manual(values = line_colours(n_measures), guide = guide) +
    ggplot2::scale_shape_discrete(guide = guide) +
    plot_labels(x = "Topic-set size", y = if (what == "error") "Error rate (%)" else "Ties (%)",
                colour = NULL, shape = NULL,
                title = wrap_text(sprintf("Swap method: %s of %s", if (what == "error") "error rate" else "ties",
                                          if (n_measures > 1L) plural(n_measures, "measure") else object$measure)),
                subtitle = wrap_text(sprintf("%s x %s topics, %s trials per size, fuzziness %s",
                                             plural(object$n_systems, "system"), format(object$n_topics),
                                             format(object$trials, big.mark = ","), format(object$fuzz)), 48L)) +
    title_theme(legend = n_measures > 1L)
}
# The swap method: error rates, ties and critical values of an evaluation
# measure by topic-set size (Buckley & Voorhees 2000; Voorhees & Buckley 2002;
# Voorhees 2004, Tables 5, 6 and 8). Spec section 2.6.

builtin_aggregates <- c(mean = 0L, gmean = 1L, pct_no = 4L, area = 5L)
gmean_codes <- c(add = 1L, floor = 2L, replace0 = 3L)

#' Error rate and ties of a measure by topic-set size (the swap method)
#'
#' For each topic-set size \eqn{n}, draws `trials` random permutations of the
#' topics; each gives two disjoint topic sets (its first \eqn{n} and its next
#' \eqn{n} topics), so `2 * trials` topic sets in all. For every system the
#' aggregate is computed on every set; every unordered pair of systems on
#' every set is then greater (GT), less (LT) or equal (EQ: the difference is
#' at most `fuzz` times the larger absolute score; the boundary is widened by
#' a relative \eqn{10^{-9}} so that differences exactly on it are ties
#' whatever the floating-point rounding). Over all pairs,
#' \deqn{\mathrm{error} = \frac{\sum_{pairs}\min(GT, LT)}{\sum_{pairs}(GT + LT + EQ)},\quad
#' \mathrm{ties} = \frac{\sum_{pairs} EQ}{\sum_{pairs}(GT + LT + EQ)}.}
#'
#' @section Which matrix to pass:
#' The aggregate is applied to the matrix you pass, so pass the matrix the
#' measure needs: an AP matrix for MAP (`"mean"`), GMAP (`"gmean"`) and
#' area (`"area"`); a P@10 matrix for P@10 (`"mean"`) and for %no
#' (`"pct_no"`, the percentage of topics with a score of 0, i.e. no relevant
#' document in the top ten). A function of a numeric vector (one system's
#' scores on one topic set) gives any other aggregate; it runs in R and is
#' slower.
#'
#' @section Reconstruction:
#' The procedure is reconstructed from the description in Voorhees (2004)
#' and the first pages of Buckley & Voorhees (2000) and Voorhees & Buckley
#' (2002), the only parts of those papers that could be read.
#' Choices exposed as arguments: the number of trials (`trials`, 500 =
#' the papers' 1000 topic sets), the relative fuzziness (`fuzz`, 5%, with
#' "at most" so that equal scores tie), and the same permutations are used
#' for every size (the sets of different sizes share their first topics;
#' each size on its own is an exact random draw). The binned variant of
#' Voorhees & Buckley (2002) is `method = "binned"`, see
#' [binned_error_rates()].
#'
#' @section The area scale:
#' Area is the mean of MAP(X) over the worst X = 1 .. \eqn{Q} topics,
#' \eqn{Q = \lfloor n/4 \rfloor}: the worst quarter of the topics, so its
#' scale is about the same at every topic-set size. The critical values of
#' Voorhees (2004), Table 6 are absolute differences of area, and they and
#' its "% significant" are reproduced (within 0.3 points at 50, 75, 100 and
#' 124 topics) only if the sum of the MAP(X) is divided by 12 at every
#' size, as if a program written for 50-topic sets (\eqn{\lfloor 50/4
#' \rfloor = 12}) had been reused: area \eqn{= \frac{1}{12}\sum_{X=1}^{Q}
#' \mathrm{MAP}(X)}, the official value times \eqn{Q/12} (the same at 50
#' topics, about twice as large at 100). The relative fuzziness of the
#' error rate and ties is not affected. The divisor is inferred from the
#' published numbers (a free fit gives 12.0 to 12.1 at every size), not
#' stated in the paper; it is offered as `area_divisor = 12`, and the
#' official scale stays the default.
#'
#' @section Reproducibility and speed:
#' All permutations are drawn in R after `set.seed(seed)` (the user's RNG
#' state is restored); the loops over topic sets and system pairs run in
#' C++ for the built-in aggregates, on `n_threads` threads, with identical
#' results for any number of threads. Trials are processed in chunks: with a
#' parallel [future::plan()] the chunks run as futures, otherwise in turn
#' with a progress bar (see `progress`).
#'
#' @param scores An [ir_scores][as_ir_scores] or numeric matrix, systems x
#'   topics, without NA.
#' @param sizes Topic-set sizes, whole numbers from 1 to half the number of
#'   topics. Default: about 10 sizes in equal steps up to half the topics
#'   (5, 10, ..., 50 for 100 topics), plus that half.
#' @param aggregate `"mean"`, `"gmean"`, `"pct_no"`, `"area"`, or a function
#'   of a numeric vector returning one number.
#' @param trials Number of trials (permutations) per size.
#' @param fuzz Relative difference at or below which two scores tie.
#' @param seed Integer seed, or `NULL` to use the current RNG stream.
#' @inheritParams irtopics_threads
#' @inheritParams irtopics_progress
#' @param eps,gmean_method The epsilon convention of `"gmean"` (see
#'   [gmap()]).
#' @param method `"pairs"` (default, Buckley & Voorhees 2000) or `"binned"`
#'   (also compute the Voorhees & Buckley 2002 binned swap rates, stored in
#'   `$binned`).
#' @param label Name of the measure in the results; default from the
#'   aggregate and the matrix's measure (`"MAP"`, `"P@10"`, `"GMAP"`, `"%no"`,
#'   `"area"`).
#' @param keep_sets Keep the per-set aggregates (needed by
#'   [critical_values()] and [binned_error_rates()]).
#' @param area_divisor For `aggregate = "area"`: `NULL` (default) divides
#'   the sum of MAP(X), X = 1 .. \eqn{\lfloor n/4 \rfloor}, by
#'   \eqn{\lfloor n/4 \rfloor}, as NIST's `robust_eval.pl` does for a run;
#'   a number divides it by that number at every topic-set size instead.
#'   `area_divisor = 12` is the track's scale, see "The area scale".
#' @return An `ir_swap_error_rates` object: `$error`, a data frame with columns
#'   `measure`, `size`, `error_rate` (a proportion), `tie_rate`,
#'   `trial_swap_rate` (share of pair-trials with GT on one set and LT on the
#'   other), `comparisons`; `$sets`, per size the systems x `2 * trials`
#'   matrix of aggregates; and the parameters.
#'
#' @section Units and methods:
#' Error, tie and swap rates are proportions in the data (`$error`,
#' `as.data.frame()`) and are shown as percentages, with a % sign, by
#' `print()`, `format()`, `summary()` and `autoplot()`, here and in
#' [critical_values()]. `summary()` gives, per measure, the error and tie
#' rates at the smallest and largest topic-set size (an [irtopics_summary]);
#' `as.data.frame()` returns `$error`.
#' @param x,object For the methods: an `ir_swap_error_rates` object.
#' @param row.names,optional Unused, for compatibility with the generic.
#' @param ... Unused.
#' @seealso [critical_values()], [binned_error_rates()],
#'   [bind_error_rates()].
#' @references
#' Buckley, C. & Voorhees, E. M. (2000). Evaluating evaluation measure
#' stability. *SIGIR 2000*.
#'
#' Voorhees, E. M. (2004). Overview of the TREC 2004 Robust Retrieval Track.
#' *TREC 2004*.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' err <- swap_error_rates(ap, sizes = c(10, 25), trials = 50, seed = 1)
#' err
#' critical_values(err)
#' @export
swap_error_rates <- function(scores, sizes = NULL, aggregate = "mean", trials = 500, fuzz = 0.05,
                             seed = NULL, n_threads = irtopics_threads(), eps = 1e-5,
                             gmean_method = c("add", "floor", "replace0"),
                             method = c("pairs", "binned"), label = NULL, keep_sets = TRUE,
                             area_divisor = NULL, progress = NULL) {
  m <- check_scores(scores, allow_na = FALSE, min_systems = 2L, min_topics = 2L)
  gmean_method <- match_choice(gmean_method)
  method <- match_choice(method)
  n_top <- ncol(m)
  half <- n_top %/% 2L
  sizes <- sizes %||% default_swap_sizes(half)
  if (!is.numeric(sizes) || !length(sizes) || anyNA(sizes) || any(sizes != round(sizes)) || any(sizes < 1)) {
    stop_irtopics("{.arg sizes} must be whole numbers of at least 1.")
  }
  if (any(sizes > half)) {
    stop_irtopics(c("{.arg sizes} must be at most half the number of topics ({half} of {n_top}).",
                    x = "Got {.val {sizes[sizes > half]}}."))
  }
  sizes <- sort(unique(as.integer(sizes)))
  check_number(trials, "trials", min = 1, integer = TRUE)
  check_number(fuzz, "fuzz", min = 0, max = 1)
  check_seed(seed)
  check_number(eps, "eps", min = .Machine$double.xmin)
  check_flag(keep_sets, "keep_sets")
  n_threads <- resolve_threads(n_threads)
  local_progress(progress)
  agg <- resolve_aggregate(aggregate, m)
  if (agg$name == "area" && any(sizes < 4)) {
    stop_irtopics("{.arg sizes} must be at least 4 for the area measure (it uses the worst quarter).")
  }
  check_area_divisor(area_divisor, agg$name)
  label <- label %||% default_label(agg$name, attr(m, "measure"))
  code <- if (agg$name == "gmean") gmean_codes[[gmean_method]] else agg$code
  attr(m, "measure") <- NULL
  trials <- as.integer(trials)

  # Per trial: its permutation (and a copy) and, per size, the aggregates of
  # every system on two sets (and the copies made when binding chunks).
  plan <- plan_chunks(trials, "swap trials", pieces = 20L,
                      bytes_per_item = 8 * n_top + 32 * nrow(m) * length(sizes), arg = "trials")
  perms <- with_seed(seed, vapply(seq_len(trials), function(b) sample.int(n_top) - 1L, integer(n_top)))
  perms <- matrix(perms, nrow = n_top)

  sets <- lapply(sizes, function(n) {
    pieces <- with_progress_measure(label, run_chunks(plan, function(idx, threads) {
      set_aggregates_r(m, perms[, idx, drop = FALSE], n, code, agg$fun, eps, threads)
    }, n_threads = n_threads, what = sprintf("swap trials, %d topics", n)))
    out <- do.call(cbind, pieces) * area_rescale(agg$name, n, NULL, area_divisor)
    dimnames(out) <- list(rownames(m), NULL)
    out
  })
  names(sets) <- sizes
  rows <- lapply(seq_along(sizes), function(k) {
    s <- sets[[k]]
    if (any(!is.finite(s))) {
      stop_irtopics("The aggregate returned NA, NaN or an infinite value on some topic sets.",
                    kind = "data")
    }
    cnt <- cpp_pair_counts(s, fuzz, n_threads)
    data.frame(measure = label, size = sizes[k],
               error_rate = cnt[["min_sum"]] / cnt[["comparisons"]],
               tie_rate = cnt[["ties"]] / cnt[["comparisons"]],
               trial_swap_rate = cnt[["trial_swaps"]] / cnt[["trial_pairs"]],
               comparisons = cnt[["comparisons"]])
  })
  out <- new_ir_swap_error_rates(
    error = do.call(rbind, rows), sets = sets,
    measure = label, aggregate = agg$name, sizes = sizes, trials = trials, fuzz = fuzz,
    seed = seed, n_topics = n_top, n_systems = nrow(m),
    eps = eps, gmean_method = gmean_method, area_divisor = area_divisor
  )
  if (method == "binned") out$binned <- binned_error_rates(out)
  if (!keep_sets) out["sets"] <- list(NULL)
  out
}

# Aggregates of every system on both sets of the given trials.
set_aggregates_r <- function(m, perms, n, code, fun, eps, n_threads) {
  if (!is.null(code)) return(cpp_set_aggregates(m, perms, n, code, eps, n_threads))
  out <- matrix(NA_real_, nrow(m), 2L * ncol(perms))
  for (b in seq_len(ncol(perms))) {
    for (h in 0:1) {
      topics <- perms[h * n + seq_len(n), b] + 1L
      out[, 2L * (b - 1L) + h + 1L] <- vapply(seq_len(nrow(m)), function(i) {
        call_user(fun, list(m[i, topics]), "`aggregate`", where = list(system = rownames(m)[i]),
                  kind = "argument")
      }, 0)
    }
  }
  out
}

resolve_aggregate <- function(aggregate, m, call = rlang::caller_env()) {
  if (is.function(aggregate)) {
    call_user(aggregate, list(m[1, ]), "`aggregate`", where = list(system = rownames(m)[1]),
              kind = "argument", call = call)
    return(list(name = "custom", code = NULL, fun = aggregate))
  }
  if (!is.character(aggregate) || length(aggregate) != 1L || !aggregate %in% names(builtin_aggregates)) {
    stop_irtopics(c("{.arg aggregate} must be one of {quoted_list(names(builtin_aggregates))}, or a function.",
                    x = "Got {show_values(aggregate)}."), call = call)
  }
  if (aggregate %in% c("gmean", "area") && any(m < 0)) {
    stop_irtopics("{.arg scores} must be non-negative for the {aggregate} aggregate.", kind = "data", call = call)
  }
  list(name = aggregate, code = builtin_aggregates[[aggregate]], fun = NULL)
}

# About 10 topic-set sizes in equal whole steps up to `half`, and `half`:
# enough points for an error-rate curve (and for fitting it).
default_swap_sizes <- function(half) {
  half <- max(1L, as.integer(half))
  step <- max(1L, as.integer(ceiling(half / 10)))
  unique(c(seq(step, half, by = step), half))
}

default_label <- function(agg, measure) {
  measure <- measure %||% "score"
  is_ap <- is_measure(measure, "AP")
  switch(agg,
    mean = if (is_ap) "MAP" else measure,
    gmean = if (is_ap) "GMAP" else paste0("gmean(", measure, ")"),
    pct_no = "%no",
    area = "area",
    custom = paste0("custom(", measure, ")"))
}

# The official area divides by floor(n/4); a fixed divisor d rescales every
# set aggregate of size n by floor(n/4) / d. `from` and `to` are divisors
# (NULL = official); the factor turns aggregates on the `from` scale into the
# `to` scale (1 for other aggregates).
area_rescale <- function(aggregate, n, from, to) {
  if (!identical(aggregate, "area")) return(1)
  q <- n %/% 4L
  (from %||% q) / (to %||% q)
}

check_area_divisor <- function(area_divisor, aggregate, call = rlang::caller_env()) {
  if (is.null(area_divisor)) return(invisible(NULL))
  check_number(area_divisor, "area_divisor", min = .Machine$double.xmin, max = .Machine$double.xmax,
               call = call)
  if (!identical(aggregate, "area")) {
    stop_irtopics("{.arg area_divisor} applies only to the {.val area} aggregate, not {.val {aggregate}}.",
                  call = call)
  }
  invisible(area_divisor)
}

area_scale_text <- function(area_divisor) {
  if (is.null(area_divisor)) "" else sprintf(", area divided by %s", format(area_divisor))
}

#' @rdname swap_error_rates
#' @export
format.ir_swap_error_rates <- function(x, ...) {
  df <- x$error
  df$error_rate <- pct_text(df$error_rate)
  df$tie_rate <- pct_text(df$tie_rate)
  df$trial_swap_rate <- pct_text(df$trial_swap_rate)
  head <- if (!is.null(x$n_systems)) {
    sprintf("<ir_swap_error_rates> %s: %s, %s, %s per size, fuzz %g%s", x$measure,
            plural(x$n_systems, "system"), plural(x$n_topics, "topic"), plural(x$trials, "trial"),
            x$fuzz, area_scale_text(x$area_divisor))
  } else {
    sprintf("<ir_swap_error_rates> %s", paste(unique(x$error$measure), collapse = ", "))
  }
  c(head, printed_lines(print(df[c("measure", "size", "error_rate", "tie_rate", "trial_swap_rate")],
                              row.names = FALSE)))
}

#' @rdname swap_error_rates
#' @export
print.ir_swap_error_rates <- function(x, ...) print_formatted(x, ...)

#' @rdname swap_error_rates
#' @export
as.data.frame.ir_swap_error_rates <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$error
}

#' @rdname swap_error_rates
#' @export
summary.ir_swap_error_rates <- function(object, ...) {
  e <- object$error
  tab <- do.call(rbind, lapply(split(e, factor(e$measure, levels = unique(e$measure))), function(d) {
    lo <- which.min(d$size)
    hi <- which.max(d$size)
    data.frame(measure = d$measure[1], sizes = nrow(d), smallest = d$size[lo],
               error_smallest = pct_text(d$error_rate[lo]), ties_smallest = pct_text(d$tie_rate[lo]),
               largest = d$size[hi], error_largest = pct_text(d$error_rate[hi]),
               ties_largest = pct_text(d$tie_rate[hi]), stringsAsFactors = FALSE)
  }))
  new_summary("ir_swap_error_rates", "Swap-method error and tie rates at the smallest and largest topic-set size:",
              tab)
}

#' Combine swap-method results of several measures
#'
#' Stacks the error-rate tables of several [swap_error_rates()] results (for
#' example MAP and GMAP on an AP matrix and P@10 and %no on a P@10 matrix),
#' so that [autoplot()][autoplot.ir_swap_error_rates] draws one line per measure.
#'
#' @param ... `ir_swap_error_rates` objects, or one list of them.
#' @return An `ir_swap_error_rates` object without per-set aggregates; `$error`
#'   holds all rows, `$parts` the inputs.
#' @examples
#' path <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
#' ap <- read_scores(path("adhoc5_ap.csv"), measure = "AP")
#' p10 <- read_scores(path("adhoc5_p10.csv"), measure = "P@10")
#' both <- bind_error_rates(
#'   swap_error_rates(ap, sizes = c(10, 25), trials = 30, seed = 1),
#'   swap_error_rates(p10, sizes = c(10, 25), trials = 30, seed = 1))
#' both$error
#' @export
bind_error_rates <- function(...) {
  parts <- list(...)
  if (length(parts) == 1L && !inherits(parts[[1]], "swap_error_rates") && is.list(parts[[1]])) parts <- parts[[1]]
  ok <- vapply(parts, inherits, logical(1), what = "swap_error_rates")
  if (!length(parts) || !all(ok)) stop_irtopics("{.arg ...} must be {.cls ir_swap_error_rates} objects.")
  first <- parts[[1]]
  new_ir_swap_error_rates(
    error = do.call(rbind, lapply(parts, `[[`, "error")), sets = NULL,
    measure = paste(vapply(parts, `[[`, "", "measure"), collapse = ", "),
    aggregate = "several", sizes = sort(unique(unlist(lapply(parts, `[[`, "sizes")))),
    trials = first$trials, fuzz = first$fuzz, seed = first$seed, n_topics = first$n_topics,
    n_systems = first$n_systems, parts = parts
  )
}

# The one shape of an `ir_swap_error_rates` (from swap_error_rates() and
# bind_error_rates()): every field is always present; `sets` (per-set
# aggregates, unless keep_sets = FALSE), `binned` (method = "binned"),
# `parts` (the inputs of bind_error_rates()) and the aggregate's settings
# (`eps`, `gmean_method`, `area_divisor`; not for bound results) may be NULL.
new_ir_swap_error_rates <- function(error, sets, measure, aggregate, sizes, trials, fuzz, seed, n_topics,
                                    n_systems, eps = NULL, gmean_method = NULL, area_divisor = NULL,
                                    binned = NULL, parts = NULL) {
  x <- list(error = error, sets = sets, measure = measure, aggregate = aggregate, sizes = sizes,
            trials = trials, fuzz = fuzz, seed = seed, eps = eps, gmean_method = gmean_method,
            n_topics = n_topics, n_systems = n_systems, area_divisor = area_divisor, binned = binned,
            parts = parts)
  new_result(x, "ir_swap_error_rates", old = "swap_error_rates",
             fields = c(error = "data.frame", sets = "list?", measure = "string", aggregate = "string",
                        sizes = "numeric", trials = "number", fuzz = "number", n_topics = "number",
                        n_systems = "number", binned = "data.frame?", parts = "list?"))
}

# Binned variant -----------------------------------------------------------------

#' Binned swap rates (Voorhees & Buckley 2002) and their extrapolation
#'
#' Per topic-set size, every (system pair, trial) comparison is put in a bin
#' by the absolute difference \eqn{|D_1|} on the trial's first topic set
#' (bins `bin_width` wide, the last one open: with the defaults 0-.01, ...,
#' .19-.20, >= .20); it is a swap when the difference on the second set has
#' the opposite sign. The error rate of a bin is swaps / comparisons.
#' `extrapolate_to` fits \eqn{\ln(\mathrm{error}) = a + b n} per bin over the
#' computed sizes (bins with at least two non-zero rates) and predicts larger
#' sizes, as Voorhees & Buckley did from 25 to 50 topics.
#'
#' @section Reconstruction:
#' Reconstructed from the description in Voorhees & Buckley (2002), of
#' which only the first page could be read: the bin widths and the
#' log-linear extrapolation follow that description, not published
#' equations.
#'
#' @param x A [swap_error_rates()] result with per-set aggregates.
#' @param bin_width,n_bins Bin width and number of bins (the last one open;
#'   at most \eqn{10^6}). `bin_width = NULL` (default) means 0.01 for
#'   aggregates on the 0-1 scale and 1 (one percentage point) for `"pct_no"`,
#'   whose values are percentages.
#' @param extrapolate_to Sizes to extrapolate to, or `NULL`.
#' @param fit_sizes The computed sizes the extrapolation is fitted on
#'   (default: all of them).
#' @return A data frame: `measure`, `size`, `bin` (lower edge), `count`,
#'   `swaps`, `error_rate`, `extrapolated` (logical).
#' @references Voorhees, E. M. & Buckley, C. (2002). The effect of topic set
#'   size on retrieval experiment error. *SIGIR 2002*.
#' @examples
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv",
#'                               package = "irtopics"), measure = "AP")
#' err <- swap_error_rates(ap, sizes = c(5, 10, 15), trials = 50, seed = 1)
#' b <- binned_error_rates(err, extrapolate_to = 25)
#' b[b$bin < 0.03, ]
#' @export
binned_error_rates <- function(x, bin_width = NULL, n_bins = 21, extrapolate_to = NULL,
                               fit_sizes = NULL) {
  if (!inherits(x, "swap_error_rates") || is.null(x$sets)) {
    stop_irtopics("{.arg x} must be a {.cls ir_swap_error_rates} result with per-set aggregates.")
  }
  bin_width <- bin_width %||% if (identical(x$aggregate, "pct_no")) 1 else 0.01
  check_number(bin_width, "bin_width", min = .Machine$double.eps)
  check_number(n_bins, "n_bins", min = 1, max = 1e6, integer = TRUE)
  rows <- lapply(seq_along(x$sizes), function(k) {
    b <- cpp_binned_swaps(x$sets[[k]], bin_width, as.integer(n_bins))
    data.frame(measure = x$measure, size = x$sizes[k], bin = (seq_len(n_bins) - 1) * bin_width,
               count = b$count, swaps = b$swaps,
               error_rate = ifelse(b$count > 0, b$swaps / b$count, NA_real_), extrapolated = FALSE)
  })
  out <- do.call(rbind, rows)
  if (!is.null(extrapolate_to)) {
    if (!is.numeric(extrapolate_to) || anyNA(extrapolate_to) || any(extrapolate_to < 1)) {
      stop_irtopics("{.arg extrapolate_to} must be positive topic-set sizes.")
    }
    fit_sizes <- fit_sizes %||% x$sizes
    if (!is.numeric(fit_sizes) || !all(fit_sizes %in% x$sizes)) {
      stop_irtopics("{.arg fit_sizes} must be sizes computed in {.arg x} ({.val {x$sizes}}).")
    }
    ext <- lapply(split(out, out$bin), function(d) {
      ok <- !is.na(d$error_rate) & d$error_rate > 0 & d$size %in% fit_sizes
      pred <- if (sum(ok) >= 2) {
        fit <- stats::lm(log(error_rate) ~ size, data = d[ok, ])
        exp(stats::predict(fit, newdata = data.frame(size = extrapolate_to)))
      } else rep(NA_real_, length(extrapolate_to))
      data.frame(measure = x$measure, size = extrapolate_to, bin = d$bin[1], count = NA_real_,
                 swaps = NA_real_, error_rate = unname(pred), extrapolated = TRUE)
    })
    out <- rbind(out, do.call(rbind, ext))
  }
  rownames(out) <- NULL
  out
}
