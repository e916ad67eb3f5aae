# Agreement between two relevance label sets --------------------------------------
#
# Label agreement of compare_qrels(): the (topic, docno) pairs both sets
# judged, as per-topic confusion counts over one grade scale; every statistic
# (Cohen's kappa, weighted kappa, Krippendorff's alpha, kappa at each
# binarisation threshold) is a function of a confusion matrix, so the overall
# values, the per-topic values and the bootstrap replicates over topics all
# come from the same code: label_statistics() on a K^2 x M matrix of counts
# (one column per confusion matrix). A bootstrap replicate's confusion matrix
# is the per-topic counts times the number of times each topic was drawn
# (one matrix product for all replicates).

# A label set as a plain data frame (topic, docno, rel): an ir_qrels, a data
# frame with qrels columns (or their aliases), or a path read by read_qrels().
# `negative = "unjudged"` drops negative grades (trec_eval: in the pool, not
# judged); "grade" keeps them as grades.
as_label_set <- function(x, arg, negative, call = rlang::caller_env()) {
  if (is.character(x) && length(x) == 1L) {
    check_file(x, arg = arg, call = call)
    df <- unclass_qrels(read_qrels(x))
  } else if (is.data.frame(x)) {
    df <- alias_columns(if (inherits(x, "ir_qrels")) unclass_qrels(x) else x, c("topic", "docno", "rel"), arg)
    need <- c("topic", "docno", "rel")
    miss <- setdiff(need, names(df))
    if (length(miss)) {
      stop_irtopics("{.arg {arg}} must have columns {.field {need}}; missing {.field {miss}}.", call = call)
    }
    df <- data.frame(topic = as_id_strings(df$topic, arg, "topic", call = call),
                     docno = as_id_strings(df$docno, arg, "docno", call = call),
                     rel = check_grades(df$rel, call = call), stringsAsFactors = FALSE)
    dup <- duplicated(df[c("topic", "docno")])
    if (any(dup)) {
      row <- which(dup)[1]
      stop_irtopics("{.arg {arg}} judges document {.val {show_bytes(df$docno[row])}} of topic {.val {show_bytes(df$topic[row])}} twice (row {row}).",
                    kind = "duplicate", call = call)
    }
  } else {
    stop_irtopics("{.arg {arg}} must be a qrels file path, an {.cls ir_qrels} or a data frame with columns {.field topic}, {.field docno}, {.field rel}, not {show_value(x)}.",
                  call = call)
  }
  n_topics <- length(unique(df$topic))  # evaluate() scores them all, judged or not
  if (negative == "unjudged") df <- df[df$rel >= 0, , drop = FALSE]
  df$rel <- as.integer(df$rel)
  rownames(df) <- NULL
  # where the labels come from, for messages: the file, else the argument
  src <- if (is.character(x)) x else attr(x, "source")
  attr(df, "origin") <- if (is.character(src) && length(src) == 1L && !is.na(src)) src else NA_character_
  attr(df, "arg") <- arg
  attr(df, "n_topics") <- n_topics
  df
}

# A label set as messages name it: "`candidate` ('file.tsv')".
label_origin <- function(df) {
  file <- attr(df, "origin")
  arg <- attr(df, "arg") %||% "labels"
  if (is.character(file) && !is.na(file)) sprintf("`%s` ('%s')", arg, file) else sprintf("`%s`", arg)
}

# Grade scales ------------------------------------------------------------------
#
# Every label statistic works on a K x K confusion matrix per topic and
# bootstrap sample, with R loops over the K^2 grade pairs and K - 1
# thresholds: time grows as K^3 (B = 1000, 50 topics: 0.7 s at K = 4, 4.4 s
# at K = 51, 20 s at K = 101), memory as K^2 x topics. Scales are bounded:
# at most `max_label_grades` grades (a 0-100 scale), and K^2 x topics cells
# within the memory budget. An LLM judge's scores on a finer scale are
# mapped to grades first (read_labels(breaks =)).
max_label_grades <- 101L

# Bytes held per cell of the K^2 x topics confusion counts (the counts as
# integers and doubles, the per-topic statistics' temporaries, the BCa
# jackknife's leave-one-out counts).
label_cell_bytes <- 40

# Bytes per bootstrap sample of the label statistics: the topic draws and
# their weights, the sample's confusion matrix with label_statistics()'
# copies of it, and the sample's statistics.
label_bootstrap_bytes <- function(k, n_topics) 8 * (2 * n_topics + 3 * k * k + 2 * (k + 7))

# `grades` of compare_qrels(): NULL or distinct whole numbers in the readers'
# grade range, at most max_label_grades of them; returned sorted, integer.
check_grade_scale <- function(grades, call = rlang::caller_env()) {
  if (is.null(grades)) return(NULL)
  if (!is.numeric(grades) || !length(grades) || anyNA(grades) || any(!is.finite(grades)) ||
      any(grades != round(grades)) || anyDuplicated(grades) || any(abs(grades) > 1e6)) {
    stop_irtopics("{.arg grades} must be NULL or distinct whole numbers (the grade scale, between -1000000 and 1000000), not {show_values(grades)}.",
                  call = call)
  }
  if (length(grades) > max_label_grades) {
    stop_irtopics(c("{.arg grades} has {length(grades)} grades; label agreement handles at most {max_label_grades} (a 0-100 scale).",
                    i = "Its statistics need a confusion matrix of grades x grades per topic and bootstrap sample.",
                    i = "Map the labels to fewer grades first, e.g. {.code read_labels(breaks = )} or {.code cut()}."),
                  call = call)
  }
  sort(as.integer(grades))
}

# Labels outside a declared scale are refused, naming the label set, its
# file and the first such label; without a declared scale, a candidate's
# grades outside the range of the reference's are a warning (a judge that
# answered 5 on a 0-3 scale), since its scale would silently grow.
check_labels_in_scale <- function(df, grades, ref = NULL, call = rlang::caller_env()) {
  if (!nrow(df)) return(invisible(df))
  if (!is.null(grades)) {
    out <- which(!df$rel %in% grades)
    if (length(out)) {
      i <- out[1]
      stop_irtopics(c(paste0(label_origin(df), " holds grades outside the scale {.arg grades}: ",
                             "{.val {sort(unique(df$rel[out]))}}."),
                      x = "Topic {.val {show_bytes(df$topic[i])}}, document {.val {show_bytes(df$docno[i])}} has grade {df$rel[i]}{if (length(out) > 1) paste0(' (', length(out), ' labels are outside it)') else ''}.",
                      i = "The scale is {.val {grades}}: map the labels onto it, or give the scale they use."),
                    kind = "data", call = call)
    }
  } else if (!is.null(ref) && nrow(ref)) {
    lim <- range(ref$rel)
    out <- which(df$rel < lim[1] | df$rel > lim[2])
    if (length(out)) {
      warn_irtopics(c(paste0(label_origin(df), " uses grades outside the reference's range ",
                             "{lim[1]}-{lim[2]}: {.val {sort(unique(df$rel[out]))}} ({length(out)} label{?s})."),
                      i = "Each is a category of its own in the statistics; give {.arg grades} to declare the scale (then they are refused) or map them."),
                    kind = "data")
    }
  }
  invisible(df)
}


# The pairs both sets judged, and per topic how many each judged alone.
# Returns list(pairs = data.frame(topic, docno, reference, candidate),
# counts = data.frame(topic, n_both, n_reference_only, n_candidate_only)),
# topics in order_topics() order (numeric ids numerically).
label_pairs <- function(ref, cand) {
  key_r <- paste(ref$topic, ref$docno, sep = "\r")
  key_c <- paste(cand$topic, cand$docno, sep = "\r")
  m <- match(key_r, key_c)
  both <- !is.na(m)
  pairs <- data.frame(topic = ref$topic[both], docno = ref$docno[both], reference = ref$rel[both],
                      candidate = cand$rel[m[both]], stringsAsFactors = FALSE)
  topics <- order_topics(unique(c(ref$topic, cand$topic)))
  f <- function(t) tabulate(match(t, topics), length(topics))
  counts <- data.frame(topic = topics, n_both = f(pairs$topic), n_reference_only = f(ref$topic[!both]),
                       n_candidate_only = f(cand$topic[!(key_c %in% key_r)]), stringsAsFactors = FALSE)
  list(pairs = pairs, counts = counts)
}

# The grade scale: the user's `grades`, else the sorted grades the shared
# pairs use (as irr::kappa2 and irr::kripp.alpha take the levels of their
# data). Every statistic of a call (overall, per topic, replicates) uses it.
# At most max_label_grades grades (`what` names the candidate for the error).
grade_scale <- function(pairs, grades, what = "`candidate`", call = rlang::caller_env()) {
  seen <- sort(unique(c(pairs$reference, pairs$candidate)))
  if (is.null(grades)) {
    if (length(seen) > max_label_grades) {
      stop_irtopics(c(paste0("The reference and ", what, " use {length(seen)} grades ({min(seen)} to {max(seen)}); ",
                             "label agreement handles at most {max_label_grades} (a 0-100 scale)."),
                      i = "Are they scores rather than grades (an LLM judge's 0-2000)? Map them to grades first, e.g. {.code read_labels(breaks = )} or {.code cut()}."),
                    kind = "data", call = call)
    }
    return(seen)
  }
  grades <- check_grade_scale(grades, call = call)
  out <- setdiff(seen, grades)
  if (length(out)) {
    stop_irtopics("{.arg grades} must hold every grade of the shared judgements; missing {.val {out}}.",
                  call = call)
  }
  sort(as.integer(grades))
}

# Per-topic confusion counts: a K^2 x T matrix, column t the K x K matrix
# (reference grade in rows, candidate grade in columns, column-major) of
# topic t's shared pairs.
confusion_counts <- function(pairs, scale, topics) {
  k <- length(scale)
  cell <- match(pairs$reference, scale) + k * (match(pairs$candidate, scale) - 1L)
  t <- match(pairs$topic, topics)
  matrix(tabulate(cell + k * k * (t - 1L), k * k * length(topics)), k * k, length(topics))
}

# Agreement weights of weighted kappa over K ordered grades (by position on
# the scale, as irr::kappa2): 1 - |i - j| / (K - 1) or 1 - (i - j)^2 / (K - 1)^2.
kappa_weights <- function(k, type) {
  if (k < 2L) return(matrix(1, k, k))
  d <- abs(outer(seq_len(k), seq_len(k), "-")) / (k - 1)
  if (type == "linear") 1 - d else 1 - d^2
}

# The statistics of label agreement from confusion counts `counts` (K^2 x M,
# one confusion matrix per column) on grade scale `scale`: a data frame of M
# rows, one column per statistic (label_statistic_names()). Undefined values
# (no pairs; chance agreement 1; no variation for alpha) are NA.
label_statistics <- function(counts, scale) {
  k <- length(scale)
  counts <- matrix(as.double(counts), nrow = k * k)
  m <- ncol(counts)
  n <- colSums(counts)
  rows <- function(i) (seq_len(k) - 1L) * k + i   # cells of reference grade i (all candidate grades)
  cols <- function(j) (j - 1L) * k + seq_len(k)   # cells of candidate grade j
  r <- matrix(0, k, m)
  cc <- matrix(0, k, m)
  for (i in seq_len(k)) {
    r[i, ] <- colSums(counts[rows(i), , drop = FALSE])
    cc[i, ] <- colSums(counts[cols(i), , drop = FALSE])
  }
  undefined <- function(x) ifelse(is.finite(x), x, NA_real_)
  # kappa_w = (sum w o - sum w e) / (1 - sum w e), o and e cell shares
  weighted <- function(w) {
    po <- colSums(counts * as.vector(w)) / n
    pe <- colSums(r * (w %*% cc)) / n^2
    undefined((po - pe) / (1 - pe))
  }
  out <- list(observed_agreement = undefined(colSums(counts[(seq_len(k) - 1L) * k + seq_len(k), , drop = FALSE]) / n),
              kappa = weighted(diag(k)),
              weighted_kappa_linear = weighted(kappa_weights(k, "linear")),
              weighted_kappa_quadratic = weighted(kappa_weights(k, "quadratic")))
  # Krippendorff's alpha, two coders and no missing value: the coincidence
  # matrix is O + t(O), the value totals n_c = r + c over 2n values, and
  # alpha = 1 - (2n - 1) * 2 sum(O * D) / (n_c' D n_c) with D the squared
  # difference function (nominal, ordinal, interval; Krippendorff 2011).
  nc <- r + cc
  alpha <- function(d_of) {
    num <- numeric(m)
    den <- numeric(m)
    for (i in seq_len(k)) for (j in seq_len(k)) {
      if (i == j) next
      d <- d_of(i, j)
      num <- num + counts[(j - 1L) * k + i, ] * d
      den <- den + nc[i, ] * nc[j, ] * d
    }
    undefined(1 - (2 * n - 1) * 2 * num / den)
  }
  cum <- rbind(0, apply(nc, 2, cumsum))  # cum[g + 1, ] = n_1 + ... + n_g
  out$krippendorff_alpha_nominal <- alpha(function(i, j) 1)
  out$krippendorff_alpha_ordinal <- alpha(function(i, j) {
    lo <- min(i, j)
    hi <- max(i, j)
    (cum[hi + 1L, ] - cum[lo, ] - (nc[i, ] + nc[j, ]) / 2)^2
  })
  out$krippendorff_alpha_interval <- alpha(function(i, j) (scale[i] - scale[j])^2)
  # Cohen's kappa at each binarisation threshold t: relevant when grade >= t
  for (t in binary_thresholds(scale)) {
    hi <- scale >= t
    cell_hi <- outer(hi, hi, "&")
    cell_lo <- outer(!hi, !hi, "&")
    po <- (colSums(counts[as.vector(cell_hi), , drop = FALSE]) + colSums(counts[as.vector(cell_lo), , drop = FALSE])) / n
    r1 <- colSums(r[hi, , drop = FALSE])
    c1 <- colSums(cc[hi, , drop = FALSE])
    pe <- (r1 * c1 + (n - r1) * (n - c1)) / n^2
    out[[paste0("kappa_ge_", t)]] <- undefined((po - pe) / (1 - pe))
  }
  as.data.frame(out, stringsAsFactors = FALSE, optional = TRUE)
}

# The thresholds of binarised kappa: every grade of the scale above its lowest.
binary_thresholds <- function(scale) scale[-1L]

# Long rows (statistic, threshold) for the columns label_statistics() makes.
label_statistic_rows <- function(columns) {
  bin <- startsWith(columns, "kappa_ge_")
  data.frame(statistic = ifelse(bin, "kappa", columns),
             threshold = ifelse(bin, suppressWarnings(as.numeric(sub("^kappa_ge_", "", columns))), NA_real_),
             stringsAsFactors = FALSE)
}

# Label agreement of one candidate against the reference: overall statistics
# with bootstrap intervals over topics (bootstrap_interval() of `interval`
# type: percentile, basic, BCa), per-topic statistics, the confusion matrix
# and the counts.
label_agreement <- function(ref, cand, grades, B, conf, interval, seed,
                            setup = label_setup(ref, cand, grades, call = call), call = rlang::caller_env()) {
  lp <- setup$pairs
  scale <- setup$scale
  shared <- setup$shared
  counts <- confusion_counts(lp$pairs, scale, shared)
  total <- rowSums(counts)
  overall <- label_statistics(matrix(total), scale)
  per_topic <- label_statistics(counts, scale)
  long <- label_statistic_rows(names(overall))
  long$estimate <- unlist(overall, use.names = FALSE)
  long$conf.low <- NA_real_
  long$conf.high <- NA_real_
  if (B > 0) {
    reps <- label_bootstrap(counts, scale, B, seed, call = call)
    # leave-one-topic-out values, for the BCa acceleration
    jack <- if (interval == "bca") label_statistics(total - counts, scale)
    bounds <- vapply(seq_len(ncol(reps)), function(s) {
      bootstrap_interval(long$estimate[s], reps[, s], jack[[s]], conf, interval)
    }, numeric(2))
    # the basic interval can leave a statistic's range: clip it (every
    # statistic is at most 1; kappa at least -1, a share at least 0)
    low <- ifelse(long$statistic == "observed_agreement", 0,
                  ifelse(long$statistic == "kappa" | startsWith(long$statistic, "weighted_kappa"), -1, -Inf))
    long$conf.low <- pmax(bounds[1, ], low)
    long$conf.high <- pmin(bounds[2, ], 1)
  }
  topics <- lp$counts
  stats_t <- per_topic[match(topics$topic, shared), , drop = FALSE]
  topics <- cbind(topics, stats_t)
  rownames(topics) <- NULL
  k <- length(scale)
  confusion <- data.frame(reference_grade = rep(scale, times = k), candidate_grade = rep(scale, each = k),
                          n = as.integer(total))
  list(labels = long, topics = topics, confusion = confusion, scale = scale,
       counts = data.frame(n_both = sum(lp$counts$n_both), n_reference_only = sum(lp$counts$n_reference_only),
                           n_candidate_only = sum(lp$counts$n_candidate_only),
                           n_topics = length(shared)))
}

# The pairs, the grade scale and the topics with shared pairs of one
# candidate, before any statistic is computed (compare_qrels() checks the
# memory of every candidate's confusion counts and bootstraps from these
# first): list(pairs, scale, shared, cells), `cells` = K^2 x topics.
label_setup <- function(ref, cand, grades, call = rlang::caller_env()) {
  lp <- label_pairs(ref, cand)
  what <- if (is.null(attr(cand, "arg"))) "the candidate" else label_origin(cand)
  if (!nrow(lp$pairs)) {
    stop_irtopics(paste0("The reference and ", what, " judge no (topic, document) pair in common."),
                  kind = "data", call = call)
  }
  scale <- grade_scale(lp$pairs, grades, what = what, call = call)
  shared <- lp$counts$topic[lp$counts$n_both > 0]
  list(pairs = lp, scale = scale, shared = shared, cells = length(scale)^2 * length(shared))
}

# Bootstrap replicates (B x statistics) of label_statistics() over topics,
# from the topic samples of the leaderboard's bootstrap
# (topic_bootstrap_weights(): the counter-based stream of src/resample.h,
# sample b the same in every chunk, thread count and future plan): replicate
# b's confusion counts are the per-topic counts times the number of times
# each topic was drawn.
label_bootstrap <- function(counts, scale, B, seed, call = rlang::caller_env()) {
  n_topics <- ncol(counts)
  plan <- resample_chunks(B, "label bootstrap samples",
                          bytes = label_bootstrap_bytes(sqrt(nrow(counts)), n_topics), call = call)
  parts <- run_chunks(plan, function(idx, threads) {
    times <- topic_bootstrap_weights(seed, n_topics, idx[1L], length(idx)) * n_topics
    label_statistics(counts %*% times, scale)
  })
  as.matrix(do.call(rbind, parts))
}
