# Judge-assisted evaluation (issue 41, family 10): every system's mean under
# human labels from a few human-labelled topics and judge labels on all of
# them, by prediction-powered inference (PPI) and its tuned form PPI++.
# The estimator (ppi_rows()) is written once and serves the means, the
# differences (R/assisted-differences.R), the ranks and the plan
# (R/assisted-plan.R).

assisted_methods <- c("ppi++", "ppi", "classical")
assisted_method_labels <- c(`ppi++` = "PPI++", ppi = "PPI", classical = "human only")

# The estimator ---------------------------------------------------------------------

# Row-wise sample variance and covariance (n - 1 denominators) of matrices
# whose rows are the units (systems, or pairs of systems).
row_var <- function(a) rowSums((a - rowMeans(a))^2) / (ncol(a) - 1)
row_cov <- function(a, b) rowSums((a - rowMeans(a)) * (b - rowMeans(b))) / (ncol(a) - 1)

# Whether each row of `a` is constant (to 1e-12 of the largest magnitude of
# `scale`): a judge constant on the labelled topics leaves lambda undefined.
row_constant <- function(a, scale) {
  tol <- 1e-12 * max(abs(scale), .Machine$double.xmin)
  (apply(a, 1L, max) - apply(a, 1L, min)) <= tol
}

# The PPI estimate of every row (unit) for one method. Y, f: units x labelled
# topics (human and judge scores); fu: units x unlabelled topics (judge).
# `strata`: list(labelled = integer stratum of each labelled topic,
# unlabelled = of each unlabelled topic, weights = one per stratum). Per
# stratum h: theta_h(l) = mean_Lh(Y - l f) + l mean_Uh(fu), se_h^2 =
# var_Lh(Y - l f) / n_h + l^2 var_Uh(fu) / N_h; theta = sum w_h theta_h, se^2
# = sum w_h^2 se_h^2. lambda: 0 (classical), 1 (PPI), or PPI++'s
# cov_Lh(Y, f) / ((1 + n_h / N_h) var_{Lh+Uh}(f)) per stratum (`stratum_lambda
# = "stratum"`) or one lambda for all strata minimising se^2 with the same
# variance estimates ("pooled"); one stratum is the spec's formula either way.
# A judge constant on a stratum's labelled topics gets lambda 0 there
# (`constant` says which rows). Returns a data frame: lambda (NA when the
# strata's lambdas differ), estimate, std.error, df (n - number of strata),
# constant, fallback (PPI++ made human only by the rule), skew (the
# estimate's third cumulant over its plug-in variance, for "skew_t"), and the
# strata's lambdas as attribute "lambdas" (units x strata). `se`: "plugin"
# (the formula above, lambda taken as known) or "jackknife" (PPI++ only:
# ppi_jackknife_se2(), lambda re-tuned without each topic). `fallback`:
# "never", or "gain" (PPI++ only: lambda 0 where ppi_gain_exceeds_cost()
# says the judge does not pay for the tuning).
ppi_rows <- function(Y, f, fu, method, strata, stratum_lambda = "stratum", se = "plugin", fallback = "never") {
  H <- length(strata$weights)
  w <- strata$weights
  units <- nrow(Y)
  parts <- lapply(seq_len(H), function(h) {
    l <- strata$labelled == h
    u <- strata$unlabelled == h
    list(Y = Y[, l, drop = FALSE], f = if (!is.null(f)) f[, l, drop = FALSE],
         fu = if (!is.null(fu)) fu[, u, drop = FALSE], n = sum(l), N = sum(u))
  })
  lambdas <- matrix(0, units, H)
  constant <- rep(FALSE, units)
  if (method == "ppi") lambdas[] <- 1
  if (method == "ppi++") {
    flat <- lapply(parts, function(p) row_constant(p$f, c(p$f, p$fu)))
    cc <- lapply(seq_len(H), function(h) cbind(ifelse(flat[[h]], 0, row_cov(parts[[h]]$Y, parts[[h]]$f))))
    v <- lapply(parts, function(p) cbind(row_var(cbind(p$f, p$fu))))
    lam <- tuned_lambdas(cc, v, lapply(parts, `[[`, "n"), lapply(parts, `[[`, "N"), lapply(flat, cbind), w,
                         stratum_lambda)
    lambdas[] <- vapply(lam, function(l) l[, 1], numeric(units))
    flat <- vapply(flat, identity, logical(units))
    flat <- matrix(flat, units, H)
    constant <- if (stratum_lambda == "stratum") rowSums(flat) > 0 else rowSums(flat) == H
  }
  fit <- ppi_plugin(parts, lambdas, w)
  fell_back <- rep(FALSE, units)
  if (method == "ppi++" && fallback == "gain") {
    human <- ppi_plugin(parts, matrix(0, units, H), w)
    fell_back <- !ppi_gain_exceeds_cost(fit$se2, human$se2, length(strata$labelled), H,
                                        if (stratum_lambda == "stratum") H else 1L)
    if (any(fell_back)) {
      lambdas[fell_back, ] <- 0
      for (k in c("est", "se2", "kappa")) fit[[k]][fell_back] <- human[[k]][fell_back]
    }
  }
  se2 <- fit$se2
  # with lambda fixed (PPI, classical) the jackknife is the plug-in se
  # exactly: only PPI++'s tuned lambda makes them differ (and where PPI++
  # fell back to lambda = 0, the classical se is the one used)
  if (se == "jackknife" && method == "ppi++" && !all(fell_back)) {
    se2[!fell_back] <- ppi_jackknife_se2(parts, w, stratum_lambda)[!fell_back]
  }
  same <- apply(lambdas, 1L, function(v) all(v == v[1]))
  # skew: the estimate's third cumulant over its (plug-in) variance, the
  # location unit of the skewness correction (ppi_bounds(), "skew_t")
  out <- data.frame(lambda = ifelse(same, lambdas[, 1], NA_real_), estimate = fit$est, std.error = sqrt(se2),
                    df = length(strata$labelled) - H, constant = constant, fallback = fell_back,
                    skew = ifelse(fit$se2 > 0, fit$kappa / fit$se2, 0))
  attr(out, "lambdas") <- lambdas
  out
}

# The plug-in estimate, its variance and its third cumulant for given
# lambdas (units x strata): per stratum theta_h = mean_L(Y - l f) + l
# mean_U(fu), var_h = var_L(Y - l f) / n_h + l^2 var_U(fu) / N_h, kappa_h =
# k3_L(Y - l f) / n_h^2 + l^3 k3_U(fu) / N_h^2 (k3 the unbiased third
# cumulant; 0 below 3 topics); weighted by w, w^2 and w^3.
ppi_plugin <- function(parts, lambdas, w) {
  est <- se2 <- kappa <- 0
  for (h in seq_along(parts)) {
    p <- parts[[h]]
    lam <- lambdas[, h]
    r <- if (is.null(p$f)) p$Y else p$Y - lam * p$f
    theta <- rowMeans(r)
    var_h <- row_var(r) / p$n
    kap_h <- row_k3(r) / p$n^2
    if (!is.null(p$fu)) {
      theta <- theta + lam * rowMeans(p$fu)
      var_h <- var_h + ifelse(lam == 0, 0, lam^2 * row_var(p$fu) / p$N)
      kap_h <- kap_h + ifelse(lam == 0, 0, lam^3 * row_k3(p$fu) / p$N^2)
    }
    est <- est + w[h] * theta
    se2 <- se2 + w[h]^2 * var_h
    kappa <- kappa + w[h]^3 * kap_h
  }
  list(est = est, se2 = se2, kappa = kappa)
}

# Row-wise unbiased third cumulant, n sum (x - mean)^3 / ((n - 1)(n - 2));
# 0 with fewer than 3 values.
row_k3 <- function(a) {
  n <- ncol(a)
  if (n < 3L) return(rep(0, nrow(a)))
  n * rowSums((a - rowMeans(a))^3) / ((n - 1) * (n - 2))
}

# PPI++'s fallback rule (fallback = "gain", DERIVED): use the tuned lambda
# only where the judge's estimated gain exceeds what tuning lambda on n
# topics costs. gain = 1 - se2(PPI++) / se2(classical), both plug-in;
# adjusted for the k tuned lambdas as an adjusted R^2 is, 1 - (1 - gain)
# df / (df - k) with df = n - H; the cost of estimating the lambdas is k /
# (df - 1 - k) (the regression estimator's variance inflation, 1 / (n - 3)
# for one lambda), and the gain must exceed three times it. Units without the
# degrees of freedom (df - 1 - k <= 0) always fall back.
ppi_gain_exceeds_cost <- function(se2_pp, se2_cl, n, H, k, factor = 3) {
  df <- n - H
  if (df - 1 - k <= 0) return(rep(FALSE, length(se2_pp)))
  gain <- ifelse(se2_cl > 0, 1 - se2_pp / se2_cl, -Inf)
  adjusted <- 1 - (1 - gain) * df / (df - k)
  is.finite(adjusted) & adjusted > factor * k / (df - 1 - k)
}

# PPI++'s lambda of every unit and stratum from the strata's moments: lists
# over strata h of units x k matrices (k versions of the data: the data
# itself, or the data with one topic left out in turn) of cc = cov_L(Y, f)
# (0 where the judge is flat), v = var_{L+U}(f), flat; n, N: the strata's
# sizes (one per version, or one number). "stratum": cov_Lh / ((1 + n_h /
# N_h) var_h) in each stratum; "pooled": one lambda minimising se^2 over the
# strata. 0 where the judge is flat (or without variance). Returns a list
# over strata of units x k lambdas.
tuned_lambdas <- function(cc, v, n, N, flat, w, stratum_lambda) {
  H <- length(w)
  by_col <- function(x, like) matrix(x, nrow(like), ncol(like), byrow = TRUE)
  if (stratum_lambda == "stratum") {
    return(lapply(seq_len(H), function(h) {
      den <- by_col(1 + n[[h]] / N[[h]], v[[h]]) * v[[h]]
      ifelse(flat[[h]] | !(den > 0), 0, cc[[h]] / den)
    }))
  }
  num <- den <- 0
  for (h in seq_len(H)) {
    num <- num + w[h]^2 * cc[[h]] / by_col(n[[h]], cc[[h]])
    den <- den + w[h]^2 * by_col(1 / n[[h]] + 1 / N[[h]], v[[h]]) * v[[h]]
  }
  pooled <- ifelse(Reduce(`&`, flat) | !(den > 0), 0, num / den)
  rep(list(pooled), H)
}

# The moments of one stratum's data PPI++ needs (p: Y, f, fu, n, N), for
# the data itself (`leave = "none"`) or with each labelled (`"labelled"`) or
# unlabelled (`"unlabelled"`) topic left out in turn (one column per topic
# left out), from running sums of the scores centred on their means: cc =
# cov_L(Y, f), v = var_{L+U}(f), mY = mean_L(Y), d = mean_U(fu) - mean_L(f)
# (the estimate is mY + lambda d), and the sizes n, N.
ppi_moments <- function(p, leave) {
  n <- p$n
  N <- p$N
  M <- n + N
  cy <- rowMeans(p$Y)
  cf <- rowMeans(cbind(p$f, p$fu))
  Y <- p$Y - cy
  f <- p$f - cf
  g <- p$fu - cf
  Sy <- rowSums(Y)
  Sf <- rowSums(f)
  Sg <- rowSums(g)
  Syf <- rowSums(Y * f)
  S2 <- rowSums(f^2) + rowSums(g^2)
  S <- Sf + Sg
  cov_all <- (Syf - Sy * Sf / n) / (n - 1)
  switch(leave,
    none = list(cc = cbind(cov_all), v = cbind((S2 - S^2 / M) / (M - 1)), mY = cbind(cy + Sy / n),
                d = cbind(Sg / N - Sf / n), n = n, N = N),
    labelled = {
      sy <- Sy - Y
      sf <- Sf - f
      list(cc = (Syf - Y * f - sy * sf / (n - 1)) / (n - 2), v = (S2 - f^2 - (S - f)^2 / (M - 1)) / (M - 2),
           mY = cy + sy / (n - 1), d = Sg / N - sf / (n - 1), n = n - 1, N = N)
    },
    unlabelled = {
      k <- ncol(g)
      list(cc = matrix(cov_all, nrow(g), k), v = (S2 - g^2 - (S - g)^2 / (M - 1)) / (M - 2),
           mY = matrix(cy + Sy / n, nrow(g), k), d = (Sg - g) / (N - 1) - Sf / n, n = n, N = N - 1)
    })
}

# se^2 of PPI++ by the delete-one jackknife over topics, lambda re-tuned
# without each topic: the labelled and the unlabelled topics of each stratum
# are independent samples, so the jackknife is stratified by them (2 H
# groups g of m_g topics): se^2 = sum_g (m_g - 1) / m_g sum_i (theta_(i) -
# mean_g theta_(.))^2, theta the whole (weighted) estimate with topic i of
# group g left out, the strata's weights held fixed. Needs 3 labelled topics
# per stratum (a covariance without one topic).
ppi_jackknife_se2 <- function(parts, w, stratum_lambda) {
  H <- length(parts)
  full <- lapply(parts, ppi_moments, leave = "none")
  flat <- lapply(parts, function(p) row_constant(p$f, c(p$f, p$fu)))
  se2 <- 0
  for (h in seq_len(H)) for (side in c("labelled", "unlabelled")) {
    left <- ppi_moments(parts[[h]], side)
    k <- ncol(left$cc)
    mom <- lapply(seq_len(H), function(g) {
      if (g == h) return(left)
      m <- full[[g]]
      m[c("cc", "v", "mY", "d")] <- lapply(m[c("cc", "v", "mY", "d")], function(a) matrix(a, nrow(a), k))
      m
    })
    flats <- lapply(flat, function(fl) matrix(fl, length(fl), k))
    cc <- lapply(seq_len(H), function(g) ifelse(flats[[g]], 0, mom[[g]]$cc))
    lam <- tuned_lambdas(cc, lapply(mom, `[[`, "v"), lapply(mom, `[[`, "n"), lapply(mom, `[[`, "N"), flats, w,
                         stratum_lambda)
    theta <- 0
    for (g in seq_len(H)) theta <- theta + w[g] * (mom[[g]]$mY + lam[[g]] * mom[[g]]$d)
    se2 <- se2 + (k - 1) / k * rowSums((theta - rowMeans(theta))^2)
  }
  se2
}

# The interval and the two-sided test of each row of ppi_rows(): normal
# (z), t on df degrees of freedom, or "skew_t": t with the estimate's
# skewness corrected to second order (ppi_skew_bounds()).
ppi_bounds <- function(rows, conf, interval) {
  if (interval == "skew_t") return(ppi_skew_bounds(rows, conf))
  q <- if (interval == "t") stats::qt(1 - (1 - conf) / 2, rows$df) else stats::qnorm(1 - (1 - conf) / 2)
  rows$conf.low <- rows$estimate - q * rows$std.error
  rows$conf.high <- rows$estimate + q * rows$std.error
  z <- ifelse(rows$std.error > 0, rows$estimate / rows$std.error, NA_real_)
  rows$statistic <- z
  rows$p.value <- if (interval == "t") 2 * stats::pt(-abs(z), rows$df) else 2 * stats::pnorm(-abs(z))
  rows
}

# The skewness-corrected t interval (DERIVED): with s = kappa3 / var the
# estimate's third cumulant over its variance (rows$skew), both endpoints
# of the t interval move by (1 + 2 q^2) s / 6, q the t quantile: the
# Edgeworth expansion of the studentised mean, as in Johnson's (1978)
# modified t, whose statistic is t_J = T + s (1 + 2 T^2) / (6 se), T =
# estimate / se. The p-value is that of the interval: the level at which
# the interval's end reaches 0, i.e. the smallest q > 0 with |estimate + (1
# + 2 q^2) s / 6| = q se (two quadratics in q); where no q reaches 0 (the
# correction outgrows the interval: a large skewness), Johnson's t_J. The
# statistic column holds the q at which 0 is reached (signed as the
# estimate; t_J where none), on df degrees of freedom.
ppi_skew_bounds <- function(rows, conf) {
  q <- stats::qt(1 - (1 - conf) / 2, rows$df)
  s <- ifelse(is.finite(rows$skew), rows$skew, 0)
  centre <- rows$estimate + (1 + 2 * q^2) * s / 6
  rows$conf.low <- centre - q * rows$std.error
  rows$conf.high <- centre + q * rows$std.error
  qstar <- skew_zero_quantile(rows$estimate, rows$std.error, s)
  tj <- ifelse(rows$std.error > 0, (rows$estimate + s * (1 + 2 * (rows$estimate / rows$std.error)^2) / 6) /
                 rows$std.error, NA_real_)
  stat <- ifelse(is.na(qstar), tj, sign(rows$estimate + s / 6) * qstar)
  rows$statistic <- ifelse(rows$std.error > 0, stat, NA_real_)
  rows$p.value <- 2 * stats::pt(-abs(rows$statistic), rows$df)
  rows
}

# The smallest q > 0 at which the skewness-corrected interval's end reaches
# 0: roots of a q^2 - se q + c = 0 and a q^2 + se q + c = 0, a = s / 3, c =
# estimate + s / 6; NA where neither has a positive root.
skew_zero_quantile <- function(estimate, se, s) {
  a <- s / 3
  c0 <- estimate + s / 6
  vapply(seq_along(estimate), function(i) {
    if (!is.finite(se[i]) || se[i] <= 0) return(NA_real_)
    roots <- if (abs(a[i]) < 1e-15 * max(abs(c0[i]), se[i])) {
      c(c0[i], -c0[i]) / se[i]
    } else {
      unlist(lapply(c(-1, 1), function(b) {
        disc <- se[i]^2 - 4 * a[i] * c0[i]
        if (disc < 0) return(numeric())
        (-b * se[i] + c(-1, 1) * sqrt(disc)) / (2 * a[i])
      }))
    }
    roots <- roots[roots >= 0]
    if (length(roots)) min(roots) else NA_real_
  }, numeric(1))
}

# The strata of the judge-only estimate: every topic labelled.
all_topic_strata <- function(strata) {
  list(labelled = c(strata$labelled, strata$unlabelled), unlabelled = integer(), weights = strata$weights)
}

# Estimates of every method for one measure's data (d: Y, f, fu), plus the
# judge-only (mean of the judge's scores over all topics, weighted by
# stratum) and the human-only (classical) numbers.
assisted_estimates <- function(d, methods, strata, stratum_lambda, conf, interval, se, fallback = "never") {
  rows <- lapply(methods, function(m) {
    r <- ppi_rows(d$Y, d$f, d$fu, m, strata, stratum_lambda, se, fallback)
    r <- ppi_bounds(r, conf, interval)
    r$method <- m
    r$system <- rownames(d$Y)
    r
  })
  judge <- ppi_rows(cbind(d$f, d$fu), NULL, NULL, "classical", all_topic_strata(strata))
  human <- ppi_rows(d$Y, NULL, NULL, "classical", strata)
  list(rows = rows, judge = judge, human = human)
}

# Inputs -------------------------------------------------------------------------------

# A named list of score matrices (one per measure) from an ir_scores, a
# matrix or data frame, or an ir_evaluation.
score_list <- function(x, arg, call) {
  if (inherits(x, "ir_evaluation")) {
    if (!length(x)) stop_irtopics("{.arg {arg}} has no measures.", call = call)
    out <- lapply(names(x), function(nm) check_scores(x[[nm]], allow_na = TRUE, min_systems = 1L,
                                                      min_topics = 1L, arg = arg, call = call))
    names(out) <- names(x)
    return(out)
  }
  m <- check_scores(x, allow_na = TRUE, min_systems = 1L, min_topics = 1L, arg = arg, call = call)
  out <- list(m)
  names(out) <- attr(m, "measure") %||% "score"
  out
}

# The labelled and unlabelled topics, checked: the labelled ones scored by
# the reference and the judge, at least 2 of each kind.
assisted_topics <- function(ref, judge, labelled, call) {
  topics_j <- colnames(judge)
  if (is.null(labelled)) {
    lab <- colnames(ref)
    arg <- "reference"
  } else {
    if (!is.character(labelled) || anyNA(labelled) || anyDuplicated(labelled)) {
      stop_irtopics("{.arg labelled} must be distinct topic names (a character vector without NA), not {show_value(labelled)}.",
                    call = call)
    }
    check_names_in(labelled, colnames(ref), arg = "labelled", what = "topic", of = "reference", call = call)
    lab <- labelled
    arg <- "labelled"
  }
  missing <- setdiff(lab, topics_j)
  if (length(missing)) {
    stop_irtopics(c("{.arg judge} must score every labelled topic.",
                    x = "{length(missing)} labelled topic{?s} {?is/are} not among its topics: {show_ids(missing)}."),
                  kind = "data", call = call)
  }
  if (length(lab) < 2L) {
    stop_irtopics(c("{.arg {arg}} gives {length(lab)} labelled topic{?s}; at least 2 are needed.",
                    x = "With one labelled topic the human scores have no variance, so no interval exists."),
                  kind = "data", call = call)
  }
  list(labelled = lab, unlabelled = setdiff(topics_j, lab))
}

# Systems of the two matrices must be the same set; the judge's rows are put
# in the reference's order.
assisted_systems <- function(ref, judge, call) {
  only_r <- setdiff(rownames(ref), rownames(judge))
  only_j <- setdiff(rownames(judge), rownames(ref))
  if (length(only_r) || length(only_j)) {
    stop_irtopics(c("{.arg reference} and {.arg judge} must score the same systems.",
                    x = if (length(only_r)) "Only in {.arg reference}: {show_ids(only_r)}.",
                    x = if (length(only_j)) "Only in {.arg judge}: {show_ids(only_j)}."),
                  kind = "data", call = call)
  }
  judge[rownames(ref), , drop = FALSE]
}

# NA scores: an error naming the matrix, system and topic ("error"), or the
# topics with an NA for any system of any measure left out, with a warning
# ("drop").
assisted_na <- function(ref_l, judge_l, topics, na, call) {
  bad <- character()
  for (k in seq_along(ref_l)) {
    for (side in c("reference", "judge")) {
      m <- if (side == "reference") ref_l[[k]][, topics$labelled, drop = FALSE] else judge_l[[k]]
      if (!anyNA(m)) next
      if (na == "error") {
        where <- which(is.na(m), arr.ind = TRUE)[1, ]
        stop_irtopics(c("{.arg {side}} must not contain NA scores on the topics used.",
                        x = "{.val {names(ref_l)[k]}}: system {.val {rownames(m)[where[1]]}} has NA on topic {.val {colnames(m)[where[2]]}}.",
                        i = "Use {.code na = \"drop\"} to leave out the topics with an NA, or evaluate with {.code missing = \"zero\"}."),
                      kind = "data", call = call)
      }
      bad <- union(bad, colnames(m)[colSums(is.na(m)) > 0])
    }
  }
  if (!length(bad)) return(topics)
  n_l <- sum(topics$labelled %in% bad)
  warn_irtopics(c("{length(bad)} topic{?s} with NA scores left out ({n_l} labelled, {length(bad) - n_l} unlabelled): {show_ids(bad)}.",
                  i = "The estimand is the mean over the topics where every system has a score."),
                kind = "data")
  list(labelled = setdiff(topics$labelled, bad), unlabelled = setdiff(topics$unlabelled, bad))
}

# The strata of the labelled and unlabelled topics (integer codes) and their
# weights; without `strata`, one stratum of weight 1.
assisted_strata <- function(strata, weights, topics, call) {
  n_l <- length(topics$labelled)
  n_u <- length(topics$unlabelled)
  if (is.null(strata)) {
    if (!is.null(weights)) stop_irtopics("{.arg weights} needs {.arg strata}.", call = call)
    return(list(labelled = rep(1L, n_l), unlabelled = rep(1L, n_u), weights = 1, names = "all"))
  }
  all_topics <- c(topics$labelled, topics$unlabelled)
  if (!(is.atomic(strata) && !is.null(names(strata))) || anyNA(strata)) {
    stop_irtopics("{.arg strata} must be a named vector (topic names -> stratum) without NA, not {show_value(strata)}.",
                  call = call)
  }
  miss <- setdiff(all_topics, names(strata))
  if (length(miss)) {
    stop_irtopics(c("{.arg strata} must give the stratum of every topic.",
                    x = "{length(miss)} topic{?s} without a stratum: {show_ids(miss)}."), call = call)
  }
  s <- as.character(strata[all_topics])
  levels <- sort(unique(s))
  if (is.null(weights)) {
    weights <- as.vector(table(factor(s, levels))) / length(s)
    names(weights) <- levels
  } else {
    ok <- is.numeric(weights) && !is.null(names(weights)) && !anyNA(weights) && all(is.finite(weights)) &&
      all(weights > 0) && abs(sum(weights) - 1) <= 1e-8
    if (!ok) {
      stop_irtopics("{.arg weights} must be positive numbers named by stratum that sum to 1, not {show_values(weights)}.",
                    call = call)
    }
    check_names_in(levels, names(weights), arg = "strata", what = "stratum", of = "weights", call = call)
    weights <- weights[levels]
  }
  code <- match(s, levels)
  lab <- code[seq_len(n_l)]
  unl <- code[n_l + seq_len(n_u)]
  small <- levels[tabulate(lab, length(levels)) < 2L | tabulate(unl, length(levels)) < 2L]
  if (length(small)) {
    stop_irtopics(c("Every stratum needs at least 2 labelled and 2 unlabelled topics.",
                    x = "{.arg strata}: stratum {.val {small}} ha{?s/ve} fewer."), kind = "data", call = call)
  }
  list(labelled = lab, unlabelled = unl, weights = unname(as.double(weights)), names = levels)
}

# The per-measure data (Y, f, fu) from the two lists of matrices.
assisted_data <- function(ref_l, judge_l, topics) {
  out <- lapply(names(ref_l), function(meas) {
    r <- unclass_scores(ref_l[[meas]])
    j <- unclass_scores(judge_l[[meas]])
    list(Y = r[, topics$labelled, drop = FALSE], f = j[, topics$labelled, drop = FALSE],
         fu = j[, topics$unlabelled, drop = FALSE])
  })
  names(out) <- names(ref_l)
  out
}

# The score matrices of both label sets from qrels and runs: evaluate() once
# per label set; the labelled topics default to those the reference judged.
assisted_evaluations <- function(reference, judge, runs, measures, dots, call) {
  ref <- as_label_set(reference, "reference", "unjudged", call = call)
  jud <- as_label_set(judge, "judge", "unjudged", call = call)
  args <- c(list(runs = runs), if (!is.null(measures)) list(measures = measures), dots)
  run_eval <- function(q) {
    # runs have topics the reference did not judge: that is the design
    withCallingHandlers(do.call(evaluate, c(args, list(qrels = q))),
                        irtopics_warning_unknown_topics = function(w) invokeRestart("muffleWarning"))
  }
  list(reference = run_eval(ref), judge = run_eval(jud), judged = unique(ref$topic), labels = ref,
       relevance_level = dots$relevance_level %||% 1)
}

# Labelled topics without a relevant document under the reference: the
# measures are undefined there, and evaluate() scores them 0 (trec_eval's
# convention), which the human-label mean then counts; said by a warning.
warn_undefined_labelled <- function(labels, labelled, level) {
  rel <- unique(labels$topic[labels$rel >= level])
  none <- setdiff(labelled, rel)
  if (!length(none)) return(invisible(none))
  warn_irtopics(c("{length(none)} labelled topic{?s} {?has/have} no relevant document under {.arg reference}: {show_ids(none)}.",
                  i = "Their measures are undefined; {.fn evaluate} scores them 0 (trec_eval's convention), and the human-label mean counts them as 0.",
                  i = "Leave them out with {.arg labelled} (and out of the judge's topics) if your estimand excludes such topics."),
                kind = "undefined")
  invisible(none)
}

# assisted_means() -------------------------------------------------------------------

#' Judge-assisted means: few human labels, many judge labels, valid intervals
#'
#' Every system's mean of a measure under human labels, estimated from the
#' human-labelled topics (the labelled set \eqn{L}, \eqn{n} topics) and a
#' cheaper judge's labels on all topics (an LLM, a second assessor, a
#' classifier), by prediction-powered inference (PPI; Angelopoulos et al.
#' 2023) and its tuned form PPI++ (Angelopoulos, Duchi & Zrnic 2023). The
#' judge-only mean is biased by an unknown amount; the human-only mean is
#' unbiased but wide; the assisted estimate is unbiased for the human-label
#' mean, with an interval that is narrower the better the judge tracks the
#' humans.
#'
#' @section Formulas:
#' The unit is the topic. For a system, \eqn{Y_t} is its score under human
#' labels on labelled topic \eqn{t}, \eqn{f_t} under the judge's labels on
#' the same topic, and \eqn{\tilde f_t} the judge's on the \eqn{N}
#' unlabelled topics \eqn{U}. With sample variances (denominators
#' \eqn{n - 1}, \eqn{N - 1}):
#' * estimate \eqn{\hat\theta(\lambda) = \overline{(Y - \lambda f)}_L + \lambda \bar{\tilde f}_U};
#' * standard error \eqn{\sqrt{\mathrm{var}_L(Y - \lambda f)/n + \lambda^2 \mathrm{var}_U(\tilde f)/N}}
#'   (the plug-in standard error, `se = "plugin"`);
#' * interval \eqn{\hat\theta \pm z_{1 - \alpha/2}\, se} (`interval =
#'   "normal"`) or with \eqn{t_{n-1}} (`interval = "t"`);
#' * `"classical"` is \eqn{\lambda = 0} (human only), `"ppi"` is
#'   \eqn{\lambda = 1}, and `"ppi++"` tunes \eqn{\lambda =
#'   \mathrm{cov}_L(Y, f) / ((1 + n/N)\, \mathrm{var}_{L+U}(f))}, the
#'   variance over all \eqn{n + N} judge scores, separately for each system.
#'   Plain PPI can be wider than human only when the judge is poor; PPI++
#'   cannot be much wider, and is the default.
#'
#' The judge-only number printed beside them is the mean of the judge's
#' scores over all \eqn{n + N} topics (biased); the human-only number is the
#' classical estimate.
#'
#' `se = "plugin", interval = "normal"` is the specification's formulas
#' exactly (its worked example is reproduced to \eqn{10^{-10}}); the
#' defaults differ (next section).
#'
#' @section Standard error and interval (DERIVED defaults):
#' The defaults `se = "jackknife"`, `fallback = "gain"` and `interval =
#' "skew_t"` are our choices, not the specification's, made from a coverage
#' simulation (`bench/README.md` section 42, `bench/assisted-coverage.R`):
#' 100 topics, \eqn{n} = 10 or 25 of them human-labelled, 12 systems, 1,000
#' labelled sets per row, a judge whose per-topic scores correlate .9 (good)
#' or .3 (poor) with the humans' and are biased unevenly by system; two
#' populations of topics, a skewed synthetic one and the 249 topics of TREC
#' 2004 Robust (AP).
#'
#' * **Jackknife standard error.** The plug-in standard error takes PPI++'s
#'   \eqn{\lambda} as known, but \eqn{\lambda} is tuned on the same
#'   labelled topics, toward the value that makes the estimated variance
#'   smallest: the plug-in standard error is too small, and with normal
#'   intervals PPI++ covered only .86--.92 of the true means at 95%. The
#'   jackknife standard error (`se = "jackknife"`) re-tunes \eqn{\lambda}
#'   without each topic in turn: the delete-one jackknife over the labelled
#'   and, separately, the unlabelled topics (two independent samples; with
#'   strata, over each stratum's labelled and unlabelled topics, the
#'   strata's weights held fixed), \eqn{se^2 = \sum_g (m_g - 1)/m_g \sum_i
#'   (\hat\theta_{(i)} - \bar\theta_{(\cdot)})^2} over the groups \eqn{g}
#'   of \eqn{m_g} topics, \eqn{\hat\theta_{(i)}} the whole estimate (every
#'   stratum, lambda re-tuned) without topic \eqn{i}. It applies to PPI++
#'   only: with \eqn{\lambda} fixed (PPI, classical) this jackknife equals
#'   the plug-in standard error exactly, which is then used. It needs 3
#'   labelled topics per stratum; with fewer, PPI++ uses the plug-in
#'   standard error with a warning (`irtopics_warning_too_few`).
#' * **Fallback to human only.** With a poor judge and few topics, tuning
#'   \eqn{\lambda} costs more than the judge gives, and the jackknife
#'   interval was wider than human only (1.05 times at 10 topics). With
#'   `fallback = "gain"` a system's PPI++ keeps its tuned \eqn{\lambda} only
#'   where the judge's estimated gain, \eqn{G = 1 - se^2_{PPI++} /
#'   se^2_{human}} (both plug-in), adjusted for the \eqn{k} tuned lambdas
#'   as an adjusted \eqn{R^2} is, \eqn{1 - (1 - G)\, d/(d - k)} with
#'   \eqn{d = n - H}, exceeds three times the cost of tuning them, \eqn{k /
#'   (d - 1 - k)} (the regression estimator's variance inflation, \eqn{1/(n
#'   - 3)} for one \eqn{\lambda}); elsewhere it is the human-only estimate
#'   (\eqn{\lambda = 0}, the classical standard error), listed in
#'   `x$fell_back` and counted in the print. \eqn{k} is 1, or \eqn{H} with
#'   per-stratum lambdas. So PPI++ needs at least 7 labelled topics (with one
#'   stratum) to use the judge. In the simulation the fallback was taken for
#'   83--95% of the systems with the poor judge and for 25--31% with the
#'   good one at 10 topics (0.2% at 25).
#' * **Skewness-corrected t interval** (`interval = "skew_t"`). AP-like
#'   scores are skewed, and with 10 topics the t interval of a mean covered
#'   only .92--.93. Both endpoints of the \eqn{t_{n-1}} interval (\eqn{n - H}
#'   degrees of freedom with \eqn{H} strata) move by \eqn{(1 + 2q^2)\, s /
#'   6}, \eqn{q} the t quantile and \eqn{s = \kappa_3 / v} the estimate's
#'   third cumulant over its variance: \eqn{\kappa_3 = \sum_h w_h^3
#'   (k_3(Y - \lambda f)/n_h^2 + \lambda^3 k_3(\tilde f)/N_h^2)}, \eqn{k_3} the
#'   unbiased sample third cumulant, \eqn{v} the plug-in variance. This is
#'   the second-order (Edgeworth) correction of the studentised mean, as in
#'   Johnson's (1978) modified t. The interval's width is the t interval's.
#'   [assisted_differences()] uses t by default, since differences of
#'   systems are nearly symmetric and the correction's noise cost them
#'   coverage.
#'
#' Coverage of the true mean by 95% intervals (Monte Carlo standard error
#' about .007), and mean width against human only with the same kind of
#' interval:
#' \tabular{llllllll}{
#'   population \tab judge \tab n \tab human only: t / skew_t \tab PPI++ plug-in, normal \tab PPI++ jackknife, t \tab defaults \tab defaults' width / human only's \cr
#'   synthetic \tab good \tab 10 \tab .932 / .949 \tab .881 \tab .960 \tab .951 \tab .79 \cr
#'   synthetic \tab good \tab 25 \tab .943 / .953 \tab .914 \tab .959 \tab .964 \tab .72 \cr
#'   synthetic \tab poor \tab 10 \tab .932 / .949 \tab .875 \tab .930 \tab .947 \tab .99 \cr
#'   synthetic \tab poor \tab 25 \tab .943 / .953 \tab .921 \tab .943 \tab .948 \tab .98 \cr
#'   Robust AP \tab good \tab 10 \tab .923 / .935 \tab .872 \tab .951 \tab .938 \tab .82 \cr
#'   Robust AP \tab good \tab 25 \tab .938 / .951 \tab .905 \tab .950 \tab .958 \tab .74 \cr
#'   Robust AP \tab poor \tab 10 \tab .923 / .935 \tab .861 \tab .921 \tab .931 \tab .99 \cr
#'   Robust AP \tab poor \tab 25 \tab .938 / .951 \tab .915 \tab .935 \tab .947 \tab .98
#' }
#' The defaults cover .931--.964 in every setting, and their interval is
#' narrower on average than the human-only one in every setting and for
#' every system (the widest system's ratio .78--.995); the jackknife with
#' plain t, the former default, covered .921 on Robust AP with the poor
#' judge and was 1.05 times as wide as human only there. The worst of the
#' 12 systems is covered .908--.951 by the defaults (human only with the
#' same interval: .916--.942). Differences from the best system (with
#' [assisted_differences()]' default t) are covered .944--.960.
#'
#' @section Stratified labelling:
#' When the labelled topics were sampled within strata (topic groups) with
#' known population shares \eqn{w_h} (`strata`, `weights`), each stratum gets
#' its own PPI estimate \eqn{\hat\theta_h} and standard error \eqn{se_h}
#' from its labelled and unlabelled topics, and \eqn{\hat\theta = \sum_h w_h
#' \hat\theta_h}, \eqn{se^2 = \sum_h w_h^2 se_h^2}. PPI++'s \eqn{\lambda} is
#' tuned in each stratum with the formula above (`stratum_lambda =
#' "stratum"`, the default: each stratum's term of \eqn{se^2} is minimised
#' on its own, so this is the smallest \eqn{se^2} the estimates allow), or
#' once for all strata (`"pooled"`: \eqn{\lambda = \sum_h w_h^2 c_h / n_h /
#' \sum_h w_h^2 (1/n_h + 1/N_h) v_h}, \eqn{c_h} and \eqn{v_h} the stratum's
#' covariance and judge variance as above; fewer estimated quantities in
#' small strata). With per-stratum lambdas that differ, the `lambda` column
#' is `NA` and `x$lambdas` has them. The t interval then has \eqn{n - H}
#' degrees of freedom (\eqn{H} strata). Every stratum needs at least 2
#' labelled and 2 unlabelled topics. Without `weights`, a stratum's weight
#' is its share of all topics (labelled and unlabelled).
#'
#' @section Pitfalls:
#' * **The labelled set must be a random sample of the topics** (simple, or
#'   within strata), chosen before any score was seen. Nothing in the
#'   scores can check it. `selected = TRUE` says the labelled topics were
#'   picked otherwise (the hardest ones, those where the judge looked
#'   wrong): the call is refused (`irtopics_error_data`), since no interval
#'   is then valid.
#' * **Few labelled topics**: below `small_n` (10) labelled topics a normal
#'   interval under-covers; with `interval = "normal"` a warning of class
#'   `irtopics_warning_too_few` says so and offers `interval = "t"`
#'   (\eqn{t_{n-1}} quantiles; the default, `"skew_t"`, is its
#'   skewness-corrected form).
#' * **A judge constant on the labelled topics** (for a system): the
#'   covariance is 0 and PPI++'s \eqn{\lambda} is undefined; that system
#'   falls back to the classical estimate (\eqn{\lambda = 0}) with a warning
#'   of class `irtopics_warning_constant_judge`. PPI keeps \eqn{\lambda = 1}
#'   (its estimate is defined).
#' * **Undefined measures**: with qrels and runs, scores are those of
#'   [evaluate()], where a topic without relevant documents under a label
#'   set scores 0 (trec_eval's convention); labelled topics without a
#'   relevant document under the reference get a warning of class
#'   `irtopics_warning_undefined` (they count as 0 in the human-label mean);
#'   on the judge's side any fixed
#'   rule keeps the estimate unbiased (the judge's scores are predictions,
#'   used alike on \eqn{L} and \eqn{U}). `NA` scores (an unanswered topic,
#'   `evaluate(missing = "drop")`, or a matrix with gaps) are an
#'   `irtopics_error_data` naming the matrix, system and topic with `na =
#'   "error"` (the default); `na = "drop"` leaves out every topic with an
#'   `NA` for any system, with a warning (`irtopics_warning_data`).
#' * Labelled topics the judge did not score, different systems in the two
#'   inputs, fewer than 2 labelled or 2 unlabelled topics: classed errors
#'   (`irtopics_error_data`) naming the argument.
#'
#' @section Reconstruction:
#' Choices that are ours (DERIVED), each an argument: the defaults `se =
#' "jackknife"`, `interval = "skew_t"` and `fallback = "gain"` (see Standard
#' error and interval; the specification's normal interval with the plug-in
#' standard error is `se = "plugin", interval = "normal", fallback =
#' "never"`); the warning threshold
#' `small_n = 10` ("about 10" in the specification); per-stratum tuning of
#' lambda (`stratum_lambda`); the t interval's \eqn{n - H} degrees of freedom
#' with strata; the fallback to \eqn{\lambda = 0} for a constant judge; the
#' stratum weights as topic shares when `weights` is not given; dropping NA
#' topics for every system (`na = "drop"`), so that the differences of any
#' two systems are paired on the same topics.
#'
#' There is no resampling: results are the same for any thread count and any
#' `future` plan (the jackknife leaves out each topic in turn, no random
#' draw).
#'
#' @param reference Human-label scores: an [ir_scores][as_ir_scores], numeric
#'   matrix (systems x topics) or `ir_evaluation` whose topics are the
#'   labelled set (unless `labelled` names them; other columns may be `NA`);
#'   or, with `runs`, the human qrels (a file path, an `ir_qrels` from
#'   [read_qrels()] or a data frame as [read_labels()] gives).
#' @param judge Judge-label scores on all topics (same form as `reference`:
#'   the same systems and measures), or with `runs` the judge's qrels.
#' @param labelled `NULL` (the reference's topics; with `runs`, the topics
#'   the reference judged) or the names of the labelled topics.
#' @param runs `NULL` (score matrices) or runs, as [evaluate()] takes them:
#'   both label sets are evaluated with `evaluate()`.
#' @param measures With `runs`: measures of the registry (several allowed;
#'   `NULL`: [evaluate()]'s default).
#' @param method One or more of `"ppi++"`, `"ppi"`, `"classical"`; all
#'   listed are computed, and the first leads the print and the decisions of
#'   [assisted_differences()].
#' @param conf Confidence level.
#' @param se `"jackknife"` (default) or `"plugin"`: PPI++'s standard error
#'   (see Standard error and interval); PPI and classical use the plug-in
#'   standard error, equal to their jackknife.
#' @param interval `"skew_t"` (default: \eqn{t_{n-1}} with the estimate's
#'   skewness corrected, see Standard error and interval), `"t"`
#'   (\eqn{t_{n-1}}) or `"normal"` (z) intervals.
#' @param strata `NULL` or a named vector giving each topic's stratum (names
#'   are topic names; every labelled and unlabelled topic).
#' @param weights `NULL` or the strata's population shares, named by stratum,
#'   summing to 1.
#' @param selected `TRUE` if the labelled topics were not a random sample:
#'   the call is refused (see Pitfalls).
#' @param na `"error"` or `"drop"`: what NA scores do (see Pitfalls).
#' @param stratum_lambda `"stratum"` or `"pooled"`: PPI++'s lambda with
#'   strata.
#' @param small_n Below this many labelled topics, normal intervals warn.
#' @param fallback `"gain"` (default) or `"never"`: whether PPI++ falls back
#'   to human only (\eqn{\lambda = 0}) for a system where the judge's
#'   estimated gain is below the cost of tuning \eqn{\lambda} on the
#'   labelled topics (see Standard error and interval).
#' @param ... With `runs`: further arguments of [evaluate()] (`depth`,
#'   `relevance_level`, `missing`, `n_threads`, ...). Otherwise unused.
#' @return An `ir_assisted_means` list: `table` (one row per measure, system
#'   and method: `measure`, `system`, `method`, `lambda`, `estimate`,
#'   `std.error`, `conf.low`, `conf.high`, `n_labelled`, `n_unlabelled`;
#'   what `as.data.frame()` gives), `baselines` (per measure and system the
#'   `judge_only` mean over all topics and the `human_only` mean), `lambdas`
#'   (per measure, system, method and stratum), `data` (per measure,
#'   `Y`, `f`, `fu`: the human and judge scores on the labelled topics and
#'   the judge's on the unlabelled ones, systems x topics), `strata` (the
#'   strata codes and weights), `constant` (systems whose judge was constant
#'   on the labelled topics), `records` (each measure's aggregate and
#'   direction), `methods`, `conf`, `interval`, `se`, `stratum_lambda`,
#'   `fallback`, `fell_back` (the measures and systems where PPI++ fell back
#'   to human only; not those of `constant`).
#'   `print()` shows per system the judge-only mean, the human-only and the
#'   assisted estimates with their intervals, and PPI++'s lambda, and says
#'   which standard error and interval were used;
#'   `autoplot()` draws them per system.
#' @references Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I.
#'   & Zrnic, T. (2023). Prediction-powered inference. *Science* 382(6671),
#'   669--674.
#'
#' Angelopoulos, A. N., Duchi, J. C. & Zrnic, T. (2023). PPI++: Efficient
#'   prediction-powered inference. arXiv:2311.01453.
#'
#' Boyeau, P., Angelopoulos, A. N., Yosef, N., Malik, J. & Jordan, M. I.
#'   (2024). AutoEval done right: Using synthetic data for model evaluation.
#'   arXiv:2403.07008.
#'
#' Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed., chapter 7 (the
#'   regression estimator). Wiley.
#'
#' Johnson, N. J. (1978). Modified t tests and confidence intervals for
#'   asymmetrical populations. *Journal of the American Statistical
#'   Association* 73(363), 536--544.
#' @seealso [assisted_differences()], [assisted_ranks()], [assisted_plan()];
#'   [compare_qrels()] for whether a judge agrees with humans at all.
#' @examples
#' # the worked example of the specification: one system, 5 labelled topics
#' Y <- c(0.42, 0.10, 0.55, 0.31, 0.08)
#' f <- c(0.38, 0.15, 0.49, 0.36, 0.02)
#' fu <- c(0.27, 0.61, 0.05, 0.44, 0.19, 0.33, 0.12, 0.50)
#' ref <- matrix(Y, 1, dimnames = list("sys", paste0("t", 1:5)))
#' jud <- matrix(c(f, fu), 1, dimnames = list("sys", paste0("t", 1:13)))
#' am <- suppressWarnings(assisted_means(ref, jud, se = "plugin", interval = "normal",
#'                                       fallback = "never"))
#' am
#' # the defaults: with 5 labelled topics PPI++ is human only (it needs 7 to
#' # tune lambda), skewness-corrected t intervals
#' assisted_means(ref, jud)
#' as.data.frame(am)
#'
#' # TREC-8 AP as the "human" scores, a noisy copy as the judge, 25 of 50
#' # topics labelled
#' ap <- read_scores(system.file("extdata", "score-matrices", "adhoc8_ap.csv",
#'                               package = "irtopics"), measure = "AP")
#' top <- ap[order(-rowMeans(ap))[1:5], ]
#' set.seed(1)
#' judge <- top
#' judge[] <- pmin(1, pmax(0, top + rnorm(length(top), -0.05, 0.08)))
#' lab <- sample(colnames(top), 25)
#' am2 <- assisted_means(top[, lab], judge)
#' am2
#' ggplot2::autoplot(am2)
#' @export
assisted_means <- function(reference, judge, labelled = NULL, runs = NULL, measures = NULL,
                           method = c("ppi++", "ppi", "classical"), conf = 0.95,
                           se = c("jackknife", "plugin"), interval = c("skew_t", "t", "normal"), strata = NULL,
                           weights = NULL, selected = FALSE,
                           na = c("error", "drop"), stratum_lambda = c("stratum", "pooled"), small_n = 10,
                           fallback = c("gain", "never"), ...) {
  call <- environment()
  check_flag(selected, "selected")
  if (selected) {
    stop_irtopics(c("Can't estimate from a labelled set that is not a random sample of the topics.",
                    x = "{.code selected = TRUE}: the labelled topics were chosen, not sampled.",
                    i = "PPI is unbiased only when the labelled topics are a random sample (simple, or within {.arg strata}); no interval is valid otherwise."),
                  kind = "data")
  }
  methods <- check_assisted_methods(method)
  check_conf(conf)
  se <- match_choice(se)
  interval <- match_choice(interval)
  na <- match_choice(na)
  stratum_lambda <- match_choice(stratum_lambda)
  fallback <- match_choice(fallback)
  check_number(small_n, "small_n", min = 0)
  if (is.null(runs)) {
    check_no_dots(..., help = "assisted_means")
    if (!is.null(measures)) stop_irtopics("{.arg measures} needs {.arg runs}; score matrices carry their measure.")
    ref_l <- score_list(reference, "reference", call)
    judge_l <- score_list(judge, "judge", call)
    judged <- NULL
  } else {
    ev <- assisted_evaluations(reference, judge, runs, measures, list(...), call)
    ref_l <- score_list(ev$reference, "reference", call)
    judge_l <- score_list(ev$judge, "judge", call)
    if (is.null(labelled)) labelled <- intersect(colnames(ref_l[[1]]), ev$judged)
    warn_undefined_labelled(ev$labels, labelled, ev$relevance_level)
  }
  if (!setequal(names(ref_l), names(judge_l))) {
    stop_irtopics(c("{.arg reference} and {.arg judge} must hold the same measures.",
                    x = "{.arg reference}: {.val {names(ref_l)}}; {.arg judge}: {.val {names(judge_l)}}."),
                  kind = "data")
  }
  judge_l <- judge_l[names(ref_l)]
  judge_l <- lapply(judge_l, function(j) assisted_systems(ref_l[[1]], j, call))
  for (r in ref_l) assisted_systems(ref_l[[1]], r, call)
  topics <- assisted_topics(ref_l[[1]], judge_l[[1]], labelled, call)
  topics <- assisted_na(ref_l, lapply(judge_l, function(j) j[, c(topics$labelled, topics$unlabelled), drop = FALSE]),
                        topics, na, call)
  if (length(topics$labelled) < 2L) {
    stop_irtopics("Fewer than 2 labelled topics are left after dropping the topics with NA scores.", kind = "data")
  }
  if (length(topics$unlabelled) < 2L) {
    stop_irtopics(c("{.arg judge} must score at least 2 unlabelled topics, not {length(topics$unlabelled)}.",
                    i = "The judge's worth comes from the topics humans did not label."), kind = "data")
  }
  st <- assisted_strata(strata, weights, topics, call)
  data <- assisted_data(ref_l, judge_l, topics)
  n <- length(topics$labelled)
  if (interval == "normal" && n < small_n) {
    warn_irtopics(c("{n} labelled topic{?s}: normal intervals under-cover below about {small_n}.",
                    i = "Use {.code interval = \"t\"} ({.emph t} quantiles on {n - length(st$weights)} df)."),
                  kind = "too_few")
  }
  se <- assisted_se_possible(se, methods, st)
  fit <- assisted_fit(data, methods, st, stratum_lambda, conf, interval, se, fallback)
  if (nrow(fit$constant)) {
    warn_irtopics(c("The judge's scores are constant on the labelled topics for {nrow(fit$constant)} system-measure pair{?s}: PPI++'s lambda is undefined there.",
                    i = "Those systems fall back to the classical (human-only) estimate, lambda = 0: {show_ids(paste(fit$constant$system, fit$constant$measure, sep = ' / '))}."),
                  kind = "constant_judge")
  }
  records <- score_records(ref_l)
  new_ir_assisted_means(list(
    table = fit$table, baselines = fit$baselines, lambdas = fit$lambdas, data = data,
    strata = st, constant = fit$constant, records = records, methods = methods, conf = conf,
    interval = interval, se = se, stratum_lambda = stratum_lambda, fallback = fallback,
    fell_back = fit$fell_back, labelled = topics$labelled, unlabelled = topics$unlabelled
  ))
}

new_ir_assisted_means <- function(x) {
  new_result(x, "ir_assisted_means",
             fields = c(table = "data.frame", baselines = "data.frame", lambdas = "data.frame", data = "list",
                        strata = "list", constant = "data.frame", records = "data.frame", methods = "character",
                        conf = "number", interval = "string", se = "string", stratum_lambda = "string",
                        fallback = "string", fell_back = "data.frame", labelled = "character",
                        unlabelled = "character"))
}

# The jackknife needs 3 labelled topics in every stratum (PPI++'s
# covariance without one topic); with fewer, the plug-in se, with a warning.
assisted_se_possible <- function(se, methods, st) {
  if (se != "jackknife" || !"ppi++" %in% methods) return(se)
  fewest <- min(tabulate(st$labelled, length(st$weights)))
  if (fewest >= 3L) return(se)
  warn_irtopics(c("The jackknife standard error needs at least 3 labelled topics in every stratum; the fewest is {fewest}.",
                  i = "PPI++ uses the plug-in standard error ({.code se = \"plugin\"}), which takes its tuned lambda as known and is too narrow with few topics."),
                kind = "too_few")
  "plugin"
}

check_assisted_methods <- function(method, call = rlang::caller_env()) {
  if (!is.character(method) || !length(method) || anyNA(method) || !all(method %in% assisted_methods) ||
      anyDuplicated(method)) {
    stop_irtopics(c("{.arg method} must be distinct values of {quoted_list(assisted_methods)}.",
                    x = "Got {show_values(method)}."), call = call)
  }
  method
}

# The tables of every measure: estimates, judge/human-only numbers, the
# strata's lambdas and the systems whose judge was constant.
assisted_fit <- function(data, methods, st, stratum_lambda, conf, interval, se, fallback) {
  n <- length(st$labelled)
  N <- length(st$unlabelled)
  parts <- lapply(names(data), function(meas) {
    e <- assisted_estimates(data[[meas]], methods, st, stratum_lambda, conf, interval, se, fallback)
    rows <- do.call(rbind, lapply(e$rows, function(r) {
      data.frame(measure = meas, system = r$system, method = r$method, lambda = r$lambda, estimate = r$estimate,
                 std.error = r$std.error, conf.low = r$conf.low, conf.high = r$conf.high, n_labelled = n,
                 n_unlabelled = N, stringsAsFactors = FALSE)
    }))
    lambdas <- do.call(rbind, lapply(e$rows, function(r) {
      lam <- attr(r, "lambdas")
      data.frame(measure = meas, system = rep(r$system, ncol(lam)), method = r$method[1],
                 stratum = rep(st$names, each = nrow(lam)), lambda = as.vector(lam), stringsAsFactors = FALSE)
    }))
    con <- do.call(rbind, lapply(e$rows, function(r) {
      data.frame(measure = rep(meas, sum(r$constant)), system = r$system[r$constant], stringsAsFactors = FALSE)
    }))
    fb <- do.call(rbind, lapply(e$rows, function(r) {
      keep <- r$fallback & !r$constant
      data.frame(measure = rep(meas, sum(keep)), system = r$system[keep], stringsAsFactors = FALSE)
    }))
    base <- data.frame(measure = meas, system = rownames(data[[meas]]$Y), judge_only = e$judge$estimate,
                       human_only = e$human$estimate, stringsAsFactors = FALSE)
    list(rows = rows, lambdas = lambdas, constant = unique(con), fell_back = fb, baselines = base)
  })
  bind <- function(k) {
    out <- do.call(rbind, lapply(parts, `[[`, k))
    rownames(out) <- NULL
    out
  }
  list(table = bind("rows"), lambdas = bind("lambdas"), constant = bind("constant"), fell_back = bind("fell_back"),
       baselines = bind("baselines"))
}

# Methods ---------------------------------------------------------------------------

# "95% t intervals (9 df); PPI++: jackknife se, lambda tuned per system":
# what the interval is, and which standard error.
assisted_interval_words <- function(x) {
  strat <- length(x$strata$weights) > 1L
  se <- x$se %||% "plugin"
  paste0(sprintf("%g%% %s intervals", 100 * x$conf,
                 switch(x$interval,
                   t = sprintf("t (%d df)", length(x$labelled) - length(x$strata$weights)),
                   skew_t = sprintf("skewness-corrected t (%d df)", length(x$labelled) - length(x$strata$weights)),
                   "normal (z)")),
         if ("ppi++" %in% x$methods) {
           paste0("; PPI++: ", if (se == "jackknife") "jackknife se (lambda re-tuned without each topic)" else
                    "plug-in se (lambda taken as known)",
                  ", lambda tuned per system",
                  if (identical(x$fallback, "gain")) " (0 where the judge's gain is below the tuning's cost)" else "",
                  if (strat) if (x$stratum_lambda == "stratum") " and stratum" else " (pooled over strata)" else "")
         } else "; plug-in se",
         if (strat) sprintf("; %d strata", length(x$strata$weights)) else "")
}

# The figure's short form: "95% skewness-corrected t, PPI++ jackknife se"
# (the print has the long one).
assisted_interval_short <- function(x) {
  paste0(sprintf("%g%% %s", 100 * x$conf,
                 switch(x$interval, t = "t", skew_t = "skewness-corrected t", "normal (z)")),
         if ("ppi++" %in% x$methods && identical(x$se, "jackknife")) ", PPI++ jackknife se" else "")
}

assisted_header <- function(x) {
  sprintf("%s x %s: %d labelled and %d unlabelled topics (human labels on the labelled ones only)",
          plural(length(unique(x$table$system)), "system"), plural(length(x$data), "measure"),
          length(x$labelled), length(x$unlabelled))
}

#' @rdname assisted_means
#' @param x,object An `ir_assisted_means` object.
#' @param n Systems printed per measure.
#' @param digits Decimals of the printed numbers.
#' @export
format.ir_assisted_means <- function(x, n = 10L, digits = 4L, ...) {
  check_number(n, "n", min = 0, integer = TRUE)
  check_number(digits, "digits", min = 0, max = 15, integer = TRUE)
  tab <- x$table
  lead <- x$methods[1]
  out <- c(paste("<ir_assisted_means>", assisted_header(x)), paste0("# ", assisted_interval_words(x)))
  fmt <- function(v) formatC(v, digits = digits, format = "f")
  with_interval <- function(r) sprintf("%s [%s, %s]", fmt(r$estimate), fmt(r$conf.low), fmt(r$conf.high))
  # one line per system whatever the console width
  old_width <- options(width = 10000L)
  on.exit(options(old_width), add = TRUE)
  assisted <- setdiff(x$methods, "classical")
  for (meas in names(x$data)) {
    b <- x$baselines[x$baselines$measure == meas, , drop = FALSE]
    human <- human_only_rows(x, meas)
    shown <- data.frame(system = b$system, judge = fmt(b$judge_only), human = with_interval(human),
                        stringsAsFactors = FALSE)
    names(shown)[2:3] <- c("judge only", "human only")
    for (m in assisted) {
      r <- tab[tab$measure == meas & tab$method == m, , drop = FALSE]
      shown[[assisted_method_labels[[m]]]] <- with_interval(r[match(b$system, r$system), , drop = FALSE])
    }
    if ("ppi++" %in% x$methods) {
      r <- tab[tab$measure == meas & tab$method == "ppi++", , drop = FALSE]
      lam <- r$lambda[match(b$system, r$system)]
      shown$lambda <- ifelse(is.na(lam), "strata", formatC(lam, digits = 3, format = "f"))
    }
    lead_r <- tab[tab$measure == meas & tab$method == lead, , drop = FALSE]
    ord <- order(-better_sign(x$records$direction[x$records$measure == meas]) *
                   lead_r$estimate[match(b$system, lead_r$system)])
    shown <- shown[ord, , drop = FALSE]
    out <- c(out, paste0(meas, ":"), printed_lines(print(utils::head(shown, n), row.names = FALSE, right = FALSE)),
             more_line(system = nrow(shown) - min(n, nrow(shown))))
  }
  if (nrow(x$constant)) {
    out <- c(out, sprintf("# %d system-measure pair(s) with a judge constant on the labelled topics: classical estimate (lambda = 0).",
                          nrow(x$constant)))
  }
  if (NROW(x$fell_back)) {
    out <- c(out, sprintf("# %d system-measure pair(s) where PPI++ fell back to human only (lambda = 0): the judge's estimated gain was below the cost of tuning lambda on %d topics.",
                          nrow(x$fell_back), length(x$labelled)))
  }
  strat <- length(x$strata$weights) > 1L
  c(out, sprintf("# judge only: the judge's mean over all topics (biased, no valid interval); human only: the labelled topics' human scores (classical)%s%s.",
                 if (strat) ", both weighted by stratum" else "",
                 if ("ppi++" %in% x$methods) "; lambda: PPI++'s weight on the judge" else ""))
}

# The human-only (classical) estimate and interval of every system of a
# measure, in the order of x$baselines, at x's level and interval (the
# "classical" rows when computed, the same numbers otherwise).
human_only_rows <- function(x, meas) {
  r <- ppi_rows(x$data[[meas]]$Y, NULL, NULL, "classical", x$strata)
  ppi_bounds(r, x$conf, x$interval)
}

#' @rdname assisted_means
#' @export
print.ir_assisted_means <- function(x, ...) print_formatted(x, ...)

#' @rdname assisted_means
#' @param row.names,optional Ignored (for the generic).
#' @export
as.data.frame.ir_assisted_means <- function(x, row.names = NULL, optional = FALSE, ...) x$table

#' @rdname assisted_means
#' @export
summary.ir_assisted_means <- function(object, ...) {
  tab <- object$table
  cl <- classical_widths(object)
  key <- do.call(rbind, lapply(object$methods, function(m) {
    r <- tab[tab$method == m, , drop = FALSE]
    data.frame(method = m, median_half_width = stats::median((r$conf.high - r$conf.low) / 2),
               median_width_vs_human = stats::median((r$conf.high - r$conf.low) / cl[paste(r$measure, r$system)]),
               median_lambda = stats::median(r$lambda, na.rm = TRUE), stringsAsFactors = FALSE)
  }))
  new_summary("ir_assisted_means", c(paste("Judge-assisted means:", assisted_header(object)),
                                     paste0("# ", assisted_interval_words(object))), key)
}

# Width of the classical (human-only) interval of each measure and system,
# named "measure system" (computed when not among the methods).
classical_widths <- function(x) {
  unlist(lapply(names(x$data), function(meas) {
    r <- human_only_rows(x, meas)
    stats::setNames(r$conf.high - r$conf.low, paste(meas, rownames(x$data[[meas]]$Y)))
  }))
}

#' @rdname assisted_means
#' @param measure With several measures, the one drawn (name or position).
#' @export
#' @method autoplot ir_assisted_means
autoplot.ir_assisted_means <- function(object, measure = 1L, ...) {
  check_no_dots(..., help = "autoplot.ir_assisted_means")
  meas <- pick_assisted_measure(object, measure)
  tab <- object$table[object$table$measure == meas, , drop = FALSE]
  b <- object$baselines[object$baselines$measure == meas, , drop = FALSE]
  lead <- tab[tab$method == object$methods[1], , drop = FALSE]
  sign <- better_sign(object$records$direction[object$records$measure == meas])
  levels <- lead$system[order(sign * lead$estimate)]
  tab$system <- factor(tab$system, levels = levels)
  tab$method <- factor(assisted_method_labels[tab$method], levels = assisted_method_labels[object$methods])
  judge <- data.frame(system = factor(b$system, levels = levels), judge_only = b$judge_only)
  n <- length(levels)
  ggplot2::ggplot(tab, ggplot2::aes(y = .data$system)) +
    interval_bars(ggplot2::aes(xmin = .data$conf.low, xmax = .data$conf.high, colour = .data$method),
                  position = ggplot2::position_dodge(width = 0.6), height = 0.3) +
    ggplot2::geom_point(ggplot2::aes(x = .data$estimate, colour = .data$method),
                        position = ggplot2::position_dodge(width = 0.6)) +
    ggplot2::geom_point(data = judge, ggplot2::aes(x = .data$judge_only), shape = 4, colour = "grey35") +
    ggplot2::scale_colour_manual(values = stats::setNames(assisted_method_colours[object$methods],
                                                          assisted_method_labels[object$methods]),
                                 name = NULL) +
    ggplot2::scale_y_discrete(guide = crowded_guide()) +
    plot_labels(x = paste("Mean", meas), y = NULL,
                title = wrap_text(sprintf("%s with few human labels", meas)),
                subtitle = wrap_text(sprintf("%d labelled, %d unlabelled topics; %s; x: judge only",
                                             length(object$labelled), length(object$unlabelled),
                                             assisted_interval_short(object)), 50L)) +
    title_theme(legend = TRUE) +
    crowded_y_theme(n)
}

# Methods are not systems: greys (colours stand for systems), darkest for
# the default.
assisted_method_colours <- c(`ppi++` = "grey10", ppi = "grey45", classical = "grey70")

pick_assisted_measure <- function(x, measure, call = rlang::caller_env()) {
  ms <- names(x$data)
  if (is.numeric(measure) && length(measure) == 1L && !is.na(measure) && measure %in% seq_along(ms)) {
    return(ms[measure])
  }
  if (is.character(measure) && length(measure) == 1L) {
    check_names_in(measure, ms, arg = "measure", what = "measure", of = "x", call = call)
    return(measure)
  }
  stop_irtopics("{.arg measure} must be one measure of {.arg x}, by name or position, not {show_value(measure)}.",
                call = call)
}
