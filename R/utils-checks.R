# Argument checks --------------------------------------------------------------

check_number <- function(x, arg = deparse(substitute(x)), min = -Inf, max = Inf,
                         integer = FALSE, call = rlang::caller_env()) {
  if (integer) {
    check_whole(x, arg, min = max(min, -.Machine$integer.max), max = min(max, .Machine$integer.max),
                call = call)
    return(invisible(x))
  }
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) && x >= min && x <= max
  if (!ok) {
    stop_irtopics("{.arg {arg}} must be a number in [{min}, {max}], not {show_value(x)}.",
                  call = call)
  }
  invisible(x)
}

# The one check for integer-like arguments (depths, cut-offs, counts, trials,
# levels, seeds): a single finite whole number in [min, max], where max is at
# most the C++ int range (a double such as 3e9 or 1e300 would otherwise be
# cast to int or long with undefined behaviour). `allow_inf = TRUE` lets
# `Inf` through (as "no limit", e.g. evaluate()'s depth). Returns the value
# as an integer (or Inf).
check_whole <- function(x, arg = deparse(substitute(x)), min = 1, max = .Machine$integer.max,
                        allow_inf = FALSE, call = rlang::caller_env()) {
  max <- min(max, .Machine$integer.max)
  min <- max(min, -.Machine$integer.max)
  if (allow_inf && is.numeric(x) && length(x) == 1L && identical(as.double(x), Inf)) return(Inf)
  ok <- is.numeric(x) && length(x) == 1L && !is.na(x) &&
    is.finite(x) && x == round(x) && x >= min && x <= max
  if (!ok) {
    range <- sprintf("[%s, %s]", format(min, scientific = FALSE), format(max, scientific = FALSE))
    stop_irtopics("{.arg {arg}} must be a whole number in {range}{if (allow_inf) ' or Inf' else ''}, not {show_value(x)}.",
                  call = call)
  }
  as.integer(x)
}

# A short, printable description of a user's value for a message: a single
# plain number or string as itself (strings cut and escaped); anything else
# (a vector, a list, an ir_scores, a data frame, a function) by its class and
# size, never printed whole.
show_value <- function(x) {
  if (is.null(x)) return("NULL")
  if (is.function(x)) return("a function")
  if (is.object(x) || !is.atomic(x) || length(x) != 1L) {
    cls <- class(x)[1]
    size <- if (length(dim(x)) == 2L) paste(dim(x), collapse = " x ") else paste("length", length(x))
    return(sprintf("%s <%s> (%s)", if (grepl("^[aeiou]", cls)) "an" else "a", cls, size))
  }
  if (is.character(x)) return(if (is.na(x)) "NA" else paste0('"', show_bytes(x), '"'))
  format(x)
}

# show_value() for arguments that take several values: a short plain vector
# (at most `n` values) is listed, anything else is named by class and size.
show_values <- function(x, n = 5L) {
  if (is.atomic(x) && !is.object(x) && is.null(dim(x)) && length(x) > 1L && length(x) <= n) {
    return(paste(vapply(x, show_value, ""), collapse = ", "))
  }
  show_value(x)
}

# Strings made safe for a message: bytes that are not printable (controls,
# terminal escape sequences, invalid UTF-8) are written as \xNN and long
# strings are cut to `width` characters. Works on the bytes, so it never
# fails on a string in another encoding.
show_bytes <- function(x, width = 60L) {
  vapply(as.character(x), function(s) {
    if (is.na(s)) return("NA")
    b <- charToRaw(s)
    cut <- length(b) > 4L * width
    if (cut) b <- b[seq_len(4L * width)]
    txt <- rawToChar(b)
    Encoding(txt) <- "UTF-8"
    ok <- validUTF8(txt)
    if (ok) {
      chars <- utf8ToInt(txt)
      bad <- chars < 32L | (chars >= 127L & chars < 160L) | chars == 0x2028L | chars == 0x2029L
      out <- vapply(seq_along(chars), function(i) {
        if (bad[i]) sprintf("\\x%02x", chars[i]) else intToUtf8(chars[i])
      }, "")
    } else {
      bi <- as.integer(b)
      out <- vapply(bi, function(v) {
        if (v < 32L || v >= 127L) sprintf("\\x%02x", v) else rawToChar(as.raw(v))
      }, "")
    }
    if (length(out) > width) {
      out <- out[seq_len(width - 3L)]
      cut <- TRUE
    }
    paste0(paste(out, collapse = ""), if (cut) "..." else "")
  }, "", USE.NAMES = FALSE)
}

check_flag <- function(x, arg = deparse(substitute(x)), call = rlang::caller_env()) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    stop_irtopics("{.arg {arg}} must be TRUE or FALSE.", call = call)
  }
  invisible(x)
}

check_seed <- function(seed, arg = "seed", call = rlang::caller_env()) {
  if (is.null(seed)) return(invisible(NULL))
  check_whole(seed, arg = arg, min = -.Machine$integer.max, call = call)
  invisible(seed)
}

# Results that mean nothing (issue 40): an estimate from too few systems or
# topics to carry it (with 2 systems a rank correlation is +1 or -1 and a
# variance over systems has 1 degree of freedom). When n < need, one
# irtopics_warning_too_few saying what is estimated from how few, why that
# means nothing, and how many it needs; the numbers are still returned.
# TRUE when it warned.
warn_too_few <- function(n, need, unit, what, why) {
  if (n >= need) return(invisible(FALSE))
  warn_irtopics(c("{what}: no meaning with {n} {unit}s.", x = why,
                  i = "It needs at least {need} {unit}s; more for a useful estimate."),
                kind = "too_few")
  invisible(TRUE)
}

# A system that answered no topic (every score NA: a run without results,
# kept by evaluate(missing = "drop")) has no mean and no difference with
# any other system. Every analysis that compares or averages systems
# (compare_systems(), pair_intervals() through it, mean_intervals(),
# meta_analysis(); rank_intervals() and risk_summary() refuse any NA)
# refuses it with an irtopics_error_data naming the systems (issue 43:
# compare_systems() computed NaN rows, and pair_intervals() and the forest
# plot then stopped with base R errors). An error, not a dropped row: which
# systems are compared decides the multiple-comparison correction, so the
# user drops them. `where` (optional) says which measure or collection.
check_answered_systems <- function(m, arg = "scores", where = NULL, call = rlang::caller_env()) {
  empty <- rownames(m)[rowSums(!is.na(m)) == 0L]
  if (!length(empty)) return(invisible(m))
  stop_irtopics(c("{.arg {arg}}{where}: {cli::qty(length(empty))}system{?s} {.val {empty}} answered no topic (every score is NA).",
                  i = "Drop {cli::qty(length(empty))}{?it/them} first, or evaluate with {.code missing = \"zero\"} (an unanswered topic then scores 0)."),
                kind = "data", systems = empty, call = call)
}

# Scores all below 1e-100 in magnitude (square_scale() != 1; check_scores()
# refuses those above 1e100): the tests of compare_systems() and the effect
# variances of meta_analysis() square them in C++ and in R, where they
# underflow to zero variance (issue 43: every t-test p NA, "their per-topic
# differences have zero variance"; meta-analysis "differences all equal").
# An irtopics_error_data saying how to rescale, rather than numbers that
# are wrong. (mean_intervals() and risk_summary() compute on a scale.)
check_not_tiny <- function(m, arg = "scores", where = NULL, call = rlang::caller_env()) {
  if (square_scale(m) == 1) return(invisible(m))
  stop_irtopics(c("{.arg {arg}}{where}: every score is below 1e-100 in magnitude, so squared differences underflow.",
                  i = "Rescale the scores (e.g. multiply by 1e100): differences and intervals scale with them; statistics and p-values do not change."),
                kind = "data", call = call)
}

# A multiple-comparison correction: one of stats::p.adjust()'s methods
# (compare_systems(), risk_summary(), assisted_differences()).
check_correction <- function(correction, call = rlang::caller_env()) {
  methods <- stats::p.adjust.methods
  if (!is.character(correction) || length(correction) != 1L || !correction %in% methods) {
    stop_irtopics(c("Unknown correction: {show_value(correction)}.", i = "Use one of {.or {.val {methods}}}."),
                  call = call)
  }
  invisible(correction)
}
