# Coverage of assisted_means()' 95% intervals (classical = human only, PPI,
# PPI++ with the plug-in standard error, and PPI++ with the jackknife
# standard error, "ppi++ jk", the package's default; normal and t_{n-1}) by
# simulation with a known truth, and a check of its numbers against a
# direct implementation of the formulas of ../shared/spec/assisted.md
# (direct_assisted() below) and of the jackknife (jackknife_ppi_pp()), in
# the same run.
#
# A trial is one collection of 100 topics drawn i.i.d. from a population of
# topics; a judge scores all 100, humans a random n of them (the labelled
# set; n = 10 or 25, the first n of a random permutation, so the n = 10 set
# is inside the n = 25 one); the other 100 - n are the unlabelled topics.
# The estimand is every system's mean under human labels over the
# population (its true mean, known), and the difference of every system
# from the first (best) one. Coverage is over trials and systems.
#
# Populations (12 systems each):
# * synthetic: human score Y[s, t] = plogis(mu_s + u_t + e[s, t]),
#   u_t ~ N(0, 1), e ~ N(0, 0.7^2), mu_s evenly from -0.2 to -1.6 (means
#   0.46 to 0.22, skewed like AP); true mean = E plogis(mu_s + N(0, 1.49)),
#   by integrate().
# * robust: the 249 topics of TREC 2004 Robust (AP, shipped) as the
#   population, drawn with replacement; 12 systems evenly spread over the
#   MAP order (ranks 1 to 99); true mean = the mean over the 249 topics.
# Judges: on the logit scale, f = plogis(logit(Y') + b_s + sd * (v_t + w[s,
# t]) / sqrt(2)) with Y' = (Y + .005) / 1.01 (AP has zeros): a topic error v
# shared by all systems, a system-topic error w, and a bias b_s per system
# drawn once (good: N(-0.3, 0.2^2); poor: N(-0.3, 0.4^2)), uneven, so
# judge-only rankings move. sd is set (uniroot) so that the mean over
# systems of cor(Y, f) in the population is 0.9 (good) or 0.3 (poor).
#
# Reproducible: the fixed quantities (mu_s, b_s, the calibration draws) are
# drawn under with_seed(seed); trial k of population p under
# with_seed(stream_seed(seed, trial_stream(p, k))): one draw of topics,
# permutation and judge errors per trial, shared by both judges and both n
# (common random numbers).
#
# Usage, from the package root (pkgload::load_all(): coverage, not speed):
#   nice -n 15 Rscript bench/assisted-coverage.R [trials] [check_every] [seed]
# defaults 1000, 1, 20261207. With assisted_means() in the package, every
# check_every-th trial is also run through assisted_means() (every method,
# se = "plugin" and "jackknife", every interval) and its numbers compared with the direct ones; the coverage
# is computed from the direct numbers, which are then those of the
# package. Without assisted_means() the direct implementation is the
# reference and the script says so.

args <- commandArgs(TRUE)
trials <- if (length(args) >= 1) as.integer(args[1]) else 1000L
check_every <- if (length(args) >= 2) as.integer(args[2]) else 1L
seed <- if (length(args) >= 3) as.numeric(args[3]) else 20261207
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE, width = 200)
t_start <- proc.time()

n_topics <- 100L
n_labelled <- c(10L, 25L)
conf <- 0.95
methods <- c("classical", "ppi", "ppi++")
intervals <- c("normal", "t")

# The formulas of the spec, for every system (row) at once: Y human scores
# on the labelled topics, f judge scores on them, fu judge scores on the
# unlabelled topics (systems x topics).
direct_assisted <- function(Y, f, fu, method, interval = "normal", conf = 0.95) {
  n <- ncol(Y)
  N <- ncol(fu)
  lambda <- switch(method,
    classical = rep(0, nrow(Y)),
    ppi = rep(1, nrow(Y)),
    "ppi++" = vapply(seq_len(nrow(Y)), function(s) {
      stats::cov(Y[s, ], f[s, ]) / ((1 + n / N) * stats::var(c(f[s, ], fu[s, ])))
    }, numeric(1)))
  d <- Y - lambda * f
  estimate <- rowMeans(d) + lambda * rowMeans(fu)
  se <- sqrt(apply(d, 1, stats::var) / n + lambda^2 * apply(fu, 1, stats::var) / N)
  q <- if (interval == "t") stats::qt((1 + conf) / 2, n - 1) else stats::qnorm((1 + conf) / 2)
  data.frame(system = rownames(Y), method = method, lambda = lambda, estimate = estimate,
             std.error = se, conf.low = estimate - q * se, conf.high = estimate + q * se,
             row.names = NULL, stringsAsFactors = FALSE)
}

# The reference for the package's default standard error of PPI++
# (assisted_means(se = "jackknife")), written independently here: the
# delete-one jackknife standard error of the PPI++ estimate, lambda
# re-estimated without each topic in turn; labelled and unlabelled topics are
# two independent samples, so the jackknife is stratified by them:
# se^2 = (n-1)/n sum_i (theta_(i) - mean)^2 + (N-1)/N sum_j (theta_(j) - mean)^2.
# Computed from running sums, every system at once (checked below against
# recomputing direct_assisted() without each topic).
jackknife_ppi_pp <- function(Y, f, fu) {
  n <- ncol(Y); N <- ncol(fu); M <- n + N
  cy <- rowMeans(Y); cf <- rowMeans(cbind(f, fu))
  Y <- Y - cy; f <- f - cf; fu <- fu - cf
  Sy <- rowSums(Y); Sf <- rowSums(f); Syf <- rowSums(Y * f); Sff <- rowSums(f^2)
  Sg <- rowSums(fu); Sgg <- rowSums(fu^2)
  # delete labelled topic i
  n1 <- n - 1
  my <- (Sy - Y) / n1; mf <- (Sf - f) / n1
  cv <- (Syf - Y * f - n1 * my * mf) / (n1 - 1)
  sF <- Sf + Sg - f; sF2 <- Sff + Sgg - f^2
  vf <- (sF2 - sF^2 / (M - 1)) / (M - 2)
  lam <- cv / ((1 + n1 / N) * vf)
  tl <- my - lam * mf + lam * (Sg / N)
  # delete unlabelled topic j
  N1 <- N - 1
  mg <- (Sg - fu) / N1
  cv0 <- (Syf - Sy * Sf / n) / (n - 1)
  sF <- Sf + Sg - fu; sF2 <- Sff + Sgg - fu^2
  vf <- (sF2 - sF^2 / (M - 1)) / (M - 2)
  lam <- cv0 / ((1 + n / N1) * vf)
  tu <- Sy / n - lam * Sf / n + lam * mg
  sqrt((n - 1) / n * rowSums((tl - rowMeans(tl))^2) + (N - 1) / N * rowSums((tu - rowMeans(tu))^2))
}

# The package's default interval (assisted_means()' defaults: PPI++ with
# the jackknife standard error, the fallback to human only where the judge's
# gain is below the tuning's cost, and the skewness-corrected t interval),
# written from the help's formulas: gain = 1 - se_pp^2 / se_cl^2 (plug-in),
# adjusted 1 - (1 - gain) (n - 1) / (n - 2), PPI++ kept where it exceeds
# 3 / (n - 3); endpoints est + (1 + 2 q^2) / 6 * k3 / v -/+ q se, k3 the
# estimate's third cumulant k3_L(Y - lambda f) / n^2 + lambda^3 k3_U(fu) / N^2
# and v its plug-in variance. `method` "ppi++" (the default) or "classical"
# (human only with the same interval). `skew = FALSE`: the t interval,
# assisted_differences()' default (the combination "default" below is
# skewness-corrected t for the means and t for the differences).
k3_rows <- function(x) {
  n <- ncol(x)
  n * rowSums((x - rowMeans(x))^3) / ((n - 1) * (n - 2))
}
direct_default <- function(Y, f, fu, method = "ppi++", conf = 0.95, skew = TRUE) {
  n <- ncol(Y)
  N <- ncol(fu)
  cl <- direct_assisted(Y, f, fu, "classical")
  a <- if (method == "ppi++") direct_assisted(Y, f, fu, "ppi++") else cl
  if (method == "ppi++") {
    gain <- 1 - a$std.error^2 / cl$std.error^2
    keep <- 1 - (1 - gain) * (n - 1) / (n - 2) > 3 / (n - 3)
    a$std.error[keep] <- jackknife_ppi_pp(Y, f, fu)[keep]
    a[!keep, c("lambda", "estimate", "std.error")] <- cbind(0, cl$estimate, cl$std.error)[!keep, ]
  }
  lam <- a$lambda
  d <- Y - lam * f
  v <- apply(d, 1, stats::var) / n + lam^2 * apply(fu, 1, stats::var) / N
  kappa <- k3_rows(d) / n^2 + lam^3 * k3_rows(fu) / N^2
  q <- stats::qt((1 + conf) / 2, n - 1)
  centre <- a$estimate + if (skew) (1 + 2 * q^2) / 6 * kappa / v else 0
  a$conf.low <- centre - q * a$std.error
  a$conf.high <- centre + q * a$std.error
  a
}

# Check the direct implementation on the spec's worked example first.
local({
  Y <- rbind(a = c(0.42, 0.10, 0.55, 0.31, 0.08))
  f <- rbind(a = c(0.38, 0.15, 0.49, 0.36, 0.02))
  fu <- rbind(a = c(0.27, 0.61, 0.05, 0.44, 0.19, 0.33, 0.12, 0.50))
  got <- do.call(rbind, lapply(methods, function(m) direct_assisted(Y, f, fu, m)))
  want <- rbind(c(0, 0.2920000000, 0.0908515272, 0.1139342787, 0.4700657213),
                c(1, 0.3257500000, 0.0731450980, 0.1823882423, 0.4691117577),
                c(0.6662429431, 0.3144856993, 0.0605224740, 0.1958638301, 0.4331075686))
  stopifnot(max(abs(as.matrix(got[, c("lambda", "estimate", "std.error", "conf.low", "conf.high")]) - want)) < 1e-10)
  # the jackknife from running sums against the estimate recomputed without each topic
  set.seed(3)
  Y <- matrix(stats::runif(40), 4, dimnames = list(letters[1:4], NULL))
  f <- Y + matrix(stats::rnorm(40, 0.1, 0.1), 4)
  fu <- matrix(stats::runif(28) + 3, 4)
  est <- function(Y, f, fu) direct_assisted(Y, f, fu, "ppi++")$estimate
  tl <- sapply(seq_len(ncol(Y)), function(i) est(Y[, -i], f[, -i], fu))
  tu <- sapply(seq_len(ncol(fu)), function(i) est(Y, f, fu[, -i]))
  se <- sqrt(9 / 10 * rowSums((tl - rowMeans(tl))^2) + 6 / 7 * rowSums((tu - rowMeans(tu))^2))
  stopifnot(max(abs(jackknife_ppi_pp(Y, f, fu) - se)) < 1e-12)
})

has_package <- exists("assisted_means", mode = "function")
if (!has_package) {
  cat("assisted_means() is not in this build: the numbers below are those of the direct\n",
      "implementation of the spec's formulas (bench/assisted-coverage.R, direct_assisted()),\n",
      "the reference the package will be checked against.\n", sep = "")
}

# Populations ------------------------------------------------------------------

logit_ap <- function(y) stats::qlogis((y + 0.005) / 1.01)
n_systems <- 12L
fixed <- with_seed(seed, {
  mu <- seq(-0.2, -1.6, length.out = n_systems)
  bias <- list(good = stats::rnorm(n_systems, -0.3, 0.2), poor = stats::rnorm(n_systems, -0.3, 0.4))
  calib_u <- stats::rnorm(4000)
  calib_e <- matrix(stats::rnorm(n_systems * 4000, 0, 0.7), n_systems)
  calib_v <- matrix(stats::rnorm(4000), n_systems, 4000, byrow = TRUE)
  calib_w <- matrix(stats::rnorm(n_systems * 4000), n_systems)
  list(mu = mu, bias = bias, u = calib_u, e = calib_e, v = calib_v, w = calib_w)
})
system_names <- sprintf("s%02d", seq_len(n_systems))

ap <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"))
ap <- unclass(as.matrix(ap))
ap <- ap[order(rowMeans(ap), decreasing = TRUE), , drop = FALSE]
ap <- ap[round(seq(1, 99, length.out = n_systems)), , drop = FALSE]

populations <- list(
  synthetic = list(
    truth = vapply(fixed$mu, function(m) {
      stats::integrate(function(z) stats::plogis(m + z * sqrt(1 + 0.49)) * stats::dnorm(z), -Inf, Inf,
                       rel.tol = 1e-12)$value
    }, numeric(1)),
    draw = function(T) stats::plogis(fixed$mu + matrix(stats::rnorm(T), n_systems, T, byrow = TRUE) +
                                       matrix(stats::rnorm(n_systems * T, 0, 0.7), n_systems)),
    calibration = stats::plogis(fixed$mu + matrix(fixed$u, n_systems, 4000, byrow = TRUE) + fixed$e)),
  robust = list(
    truth = rowMeans(ap),
    draw = function(T) ap[, sample.int(ncol(ap), T, replace = TRUE), drop = FALSE],
    calibration = ap[, rep(seq_len(ncol(ap)), length.out = 4000), drop = FALSE])
)

judge_scores <- function(Y, bias, sd, v, w) stats::plogis(logit_ap(Y) + bias + sd * (v + w) / sqrt(2))
mean_cor <- function(Y, f) mean(vapply(seq_len(nrow(Y)), function(s) stats::cor(Y[s, ], f[s, ]), numeric(1)))
judge_sd <- function(Y, bias, target) {
  stats::uniroot(function(sd) mean_cor(Y, judge_scores(Y, bias, sd, fixed$v, fixed$w)) - target,
                 c(0.01, 30), tol = 1e-6)$root
}
judges <- c(good = 0.9, poor = 0.3)

# Trials ------------------------------------------------------------------------

combos <- expand.grid(interval = intervals, method = c(methods, "ppi++ jk"), stringsAsFactors = FALSE)
# "ppi++ jk": jackknife se; "default": the package's defaults (jackknife se,
# fallback, skewness-corrected t) for PPI++ and for human only
combos <- rbind(combos, data.frame(interval = "default", method = c("classical", "ppi++ default")))
combo_names <- paste(combos$method, combos$interval, sep = "/")
se_of <- function(m) switch(m, "ppi++ jk" = "jackknife", "ppi++ default" = "default", "plugin")
base_method <- function(m) sub(" jk| default", "", m)
check <- list(max_diff = 0, compared = 0L, calls = 0L)

# assisted_means() on the matrices, every method at once, for each standard
# error and interval, and assisted_differences() of every system against the
# first; "ppi++ jk" is the package's se = "jackknife" (its default), the
# other methods' rows are those of se = "plugin" (and checked equal under
# "jackknife": with lambda fixed the two coincide)
package_rows <- function(Yl, f_all) {
  ses <- c(plugin = "plugin", jackknife = "jackknife")
  out <- lapply(ses, function(se) package_rows_se(Yl, f_all, se))
  out$default <- package_rows_se(Yl, f_all, "jackknife", c(default = "skew_t"), "gain")
  out
}
package_rows_se <- function(Yl, f_all, se, itvs = stats::setNames(intervals, intervals), fallback = "never") {
  lapply(itvs, function(itv) {
    am <- suppressWarnings(assisted_means(Yl, f_all, method = methods, conf = conf, se = se, interval = itv,
                                          fallback = fallback))
    check$calls <<- check$calls + 1L
    d <- as.data.frame(suppressWarnings(assisted_differences(am, baseline = rownames(Yl)[1])))
    # as system - first system, whichever order the table has
    swap <- d$system1 == rownames(Yl)[1]
    d$system <- ifelse(swap, d$system2, d$system1)
    lo <- ifelse(swap, -d$conf.high, d$conf.low)
    hi <- ifelse(swap, -d$conf.low, d$conf.high)
    d$estimate <- ifelse(swap, -d$estimate, d$estimate)
    d$conf.low <- lo
    d$conf.high <- hi
    list(means = as.data.frame(am), differences = d)
  })
}
package_method <- function(pk, method, interval, systems, what = "means", se = "plugin") {
  d <- pk[[se]][[interval]][[what]]
  d <- d[d$method == method, , drop = FALSE]
  d[match(systems, d$system), , drop = FALSE]
}
compare_rows <- function(pk, a) {
  cols <- c("lambda", "estimate", "std.error", "conf.low", "conf.high")
  diff <- max(abs(as.matrix(pk[, cols]) - as.matrix(a[, cols])))
  check$max_diff <<- max(check$max_diff, diff)
  check$compared <<- check$compared + 1L
}

# direct_assisted()'s PPI++ rows with the jackknife standard error instead
jackknife_rows <- function(a, Y, f, fu, interval) {
  a$std.error <- jackknife_ppi_pp(Y, f, fu)
  q <- if (interval == "t") stats::qt((1 + conf) / 2, ncol(Y) - 1) else stats::qnorm((1 + conf) / 2)
  a$conf.low <- a$estimate - q * a$std.error
  a$conf.high <- a$estimate + q * a$std.error
  a
}

results <- list()
for (p in seq_along(populations)) {
  pop <- populations[[p]]
  sds <- vapply(names(judges), function(j) judge_sd(pop$calibration, fixed$bias[[j]], judges[[j]]), numeric(1))
  judge_truth <- lapply(names(judges), function(j) {
    big <- with_seed(seed, {
      Y <- pop$draw(20000)
      judge_scores(Y, fixed$bias[[j]], sds[[j]], matrix(stats::rnorm(20000), n_systems, 20000, byrow = TRUE),
                   matrix(stats::rnorm(n_systems * 20000), n_systems))
    })
    rowMeans(big)   # the judge's population means (Monte Carlo, 20,000 topics)
  })
  names(judge_truth) <- names(judges)
  diff_truth <- pop$truth[-1] - pop$truth[1]
  seeds <- stream_seed(seed, trial_stream(p - 1, seq_len(trials) - 1))
  # cover / width arrays: trial x system x combo, per judge and n
  store <- list()
  for (j in names(judges)) for (n in n_labelled) {
    key <- paste(j, n)
    store[[key]] <- list(
      cover = array(NA, c(trials, n_systems, nrow(combos))), width = array(NA, c(trials, n_systems, nrow(combos))),
      dcover = array(NA, c(trials, n_systems - 1, nrow(combos))), dwidth = array(NA, c(trials, n_systems - 1, nrow(combos))),
      judge_cover = matrix(NA, trials, n_systems), lambda = matrix(NA, trials, n_systems),
      fallback = matrix(NA, trials, n_systems))
  }
  for (k in seq_len(trials)) {
    draw <- with_seed(seeds[k], {
      Y <- pop$draw(n_topics)
      perm <- sample.int(n_topics)
      v <- matrix(stats::rnorm(n_topics), n_systems, n_topics, byrow = TRUE)
      w <- matrix(stats::rnorm(n_systems * n_topics), n_systems)
      list(Y = Y, perm = perm, v = v, w = w)
    })
    dimnames(draw$Y) <- list(system_names, sprintf("t%03d", seq_len(n_topics)))
    for (j in names(judges)) {
      f_all <- judge_scores(draw$Y, fixed$bias[[j]], sds[[j]], draw$v, draw$w)
      dimnames(f_all) <- dimnames(draw$Y)
      for (n in n_labelled) {
        key <- paste(j, n)
        L <- sort(draw$perm[seq_len(n)])
        U <- setdiff(seq_len(n_topics), L)
        Y <- draw$Y[, L, drop = FALSE]
        f <- f_all[, L, drop = FALSE]
        fu <- f_all[, U, drop = FALSE]
        # judge only: the judge's mean over all topics and its t interval, against the human truth
        jm <- rowMeans(f_all)
        jh <- stats::qt(0.975, n_topics - 1) * apply(f_all, 1, stats::sd) / sqrt(n_topics)
        store[[key]]$judge_cover[k, ] <- jm - jh <= pop$truth & pop$truth <= jm + jh
        compare_now <- has_package && (k - 1) %% check_every == 0
        if (compare_now) pk_all <- package_rows(Y, f_all)
        for (ci in seq_len(nrow(combos))) {
          m <- combos$method[ci]
          itv <- combos$interval[ci]
          # the defaults: skewness-corrected t for the means, t for the differences
          direct <- function(Y, f, fu, differences = FALSE) {
            if (itv == "default") return(direct_default(Y, f, fu, base_method(m), conf, skew = !differences))
            a <- direct_assisted(Y, f, fu, base_method(m), itv, conf)
            if (m == "ppi++ jk") a <- jackknife_rows(a, Y, f, fu, itv)
            a
          }
          se_key <- if (itv == "default") "default" else se_of(m)
          a <- direct(Y, f, fu)
          if (compare_now) {
            pk <- package_method(pk_all, base_method(m), itv, rownames(Y), se = se_key)
            stopifnot(all(pk$n_labelled == n), all(pk$n_unlabelled == n_topics - n))
            compare_rows(pk, a)
            if (m %in% c("classical", "ppi") && itv != "default") {
              compare_rows(package_method(pk_all, m, itv, rownames(Y), se = "jackknife"), a)
            }
          }
          store[[key]]$cover[k, , ci] <- a$conf.low <= pop$truth & pop$truth <= a$conf.high
          store[[key]]$width[k, , ci] <- a$conf.high - a$conf.low
          if (m == "ppi++" && itv == "normal") store[[key]]$lambda[k, ] <- a$lambda
          if (m == "ppi++ default") store[[key]]$fallback[k, ] <- a$lambda == 0
          # differences from the first system, paired by topic
          dY <- sweep(Y[-1, , drop = FALSE], 2, Y[1, ])
          df <- sweep(f[-1, , drop = FALSE], 2, f[1, ])
          dfu <- sweep(fu[-1, , drop = FALSE], 2, fu[1, ])
          b <- direct(dY, df, dfu, differences = TRUE)
          if (compare_now) {
            compare_rows(package_method(pk_all, base_method(m), itv, rownames(dY), "differences", se_key), b)
          }
          store[[key]]$dcover[k, , ci] <- b$conf.low <= diff_truth & diff_truth <= b$conf.high
          store[[key]]$dwidth[k, , ci] <- b$conf.high - b$conf.low
        }
      }
    }
  }
  for (j in names(judges)) for (n in n_labelled) {
    s <- store[[paste(j, n)]]
    cl <- match("classical/normal", combo_names)
    row <- data.frame(population = names(populations)[p], judge = j, cor = judges[[j]], n = n,
                      judge_bias = sprintf("%+.3f..%+.3f", min(judge_truth[[j]] - pop$truth),
                                           max(judge_truth[[j]] - pop$truth)),
                      judge_only = mean(s$judge_cover), lambda = mean(s$lambda), fallback = mean(s$fallback),
                      stringsAsFactors = FALSE)
    for (ci in seq_len(nrow(combos))) {
      row[[paste0("cover ", combo_names[ci])]] <- mean(s$cover[, , ci])
      row[[paste0("worst ", combo_names[ci])]] <- min(colMeans(s$cover[, , ci]))   # the worst system
      row[[paste0("dcover ", combo_names[ci])]] <- mean(s$dcover[, , ci])
    }
    for (m in c(methods, "ppi++ jk", "ppi++ default", "classical default")) {
      ci <- match(if (grepl("default", m)) paste0(sub(" default", "", m), if (m == "ppi++ default") " default", "/default") else
                    paste0(m, "/normal"), combo_names)
      row[[paste0("width ", m)]] <- mean(s$width[, , ci])
      row[[paste0("dwidth ", m)]] <- mean(s$dwidth[, , ci])
      # against human only with the same kind of interval
      ref <- if (m == "ppi++ default") match("classical/default", combo_names) else cl
      row[[paste0("wider ", m)]] <- mean(s$width[, , ci] > s$width[, , ref] + 1e-12)   # share wider than human only
      row[[paste0("ratio_worst ", m)]] <- max(colMeans(s$width[, , ci]) / colMeans(s$width[, , ref]))
      row[[paste0("ratio_mean ", m)]] <- mean(s$width[, , ci]) / mean(s$width[, , ref])
    }
    results[[length(results) + 1]] <- row
  }
  cat(sprintf("%s: judge sd (logit) good %.3f, poor %.3f; %.0f s so far\n", names(populations)[p], sds[["good"]],
              sds[["poor"]], (proc.time() - t_start)[["elapsed"]]))
}

out <- do.call(rbind, results)
num <- vapply(out, is.numeric, logical(1))
out[num] <- lapply(out[num], round, 3)
show <- function(cols) print(out[, c("population", "judge", "n", cols)], row.names = FALSE)
cat("\nMeans: coverage of the true mean (over trials and systems), 95% nominal\n")
show(c("judge_bias", "judge_only", "lambda", "fallback", paste("cover", combo_names)))
cat("\nMeans: the worst system's coverage\n")
show(paste("worst", combo_names))
cat("\nMeans: mean width (normal intervals; the default's skewness-corrected t), share of system-trials wider than human only, worst system's width ratio\n")
cat("(against the human-only normal interval; the default's against human only's skewness-corrected t)\n")
show(c(paste("width", c(methods, "ppi++ jk", "ppi++ default", "classical default")), paste("wider", c(methods[-1], "ppi++ jk", "ppi++ default")),
       paste("ratio_worst", c(methods[-1], "ppi++ jk", "ppi++ default")),
       paste("ratio_mean", c(methods[-1], "ppi++ jk", "ppi++ default"))))
cat("\nDifferences from the best system: coverage and mean width\n")
show(c(paste("dcover", combo_names), paste("dwidth", c(methods, "ppi++ jk", "ppi++ default", "classical default"))))
if (has_package) {
  cat(sprintf(paste0("\nassisted_means() and assisted_differences() against the direct formulas: %d calls of each ",
                     "(every %d-th trial), %d method-interval tables compared, largest absolute difference %.3g\n"),
              check$calls, check_every, check$compared, check$max_diff))
  stopifnot(check$max_diff < 1e-10)
}
elapsed <- proc.time() - t_start
cat(sprintf("%d trials per population; %.0f s CPU, %.0f s elapsed\n", trials,
            elapsed[["user.self"]] + elapsed[["sys.self"]], elapsed[["elapsed"]]))
