# Coverage of meta_analysis()'s pooled intervals (FE, DL, REML) and of the
# random-effects prediction interval, by simulation.
#
# "normal": k collections of n topics; collection i has true mean difference
#   theta_i = mu + u_i, u_i ~ N(0, tau2), and its topics' paired differences
#   are N(theta_i, sd_i^2), sd_i drawn from U(0.08, 0.20) (the spread of AP
#   differences between two TREC runs); the raw mean difference is pooled.
#   Target of the confidence interval: mu; of the prediction interval: the
#   true effect of a new collection, theta_new = mu + u_new. DL and REML
#   also with Knapp-Hartung t intervals (test = "knha"; "KH_" columns).
# "resampled": the 249 topics of TREC 2004 Robust (AP, shipped); each of k
#   collections is n topics drawn with replacement from them, and the
#   comparison is the best run against the median run (by MAP). tau2 = 0 by
#   construction; targets: the mean difference over the 249 topics (md) and
#   that mean over the sd of the differences (smd, Hedges' g pooled).
#
# "replicates" (Rscript bench/meta-analysis.R replicates [trials]): r seeds
#   of one comparison on the same 50 topics, d[t, s] = mu + u_t + e[t, s]
#   with topic effects u_t ~ N(0, .1^2) and seed noise e ~ N(0, sd_e^2)
#   (the system's scores vary by seed, the baseline's do not), mu = 0.03;
#   target mu (the effect over the topic population and the seeds). The
#   replicates pooled as independent collections (shared_topics =
#   "independent", what meta_analysis() did before) against averaged per
#   topic (shared_topics = "average": one study); raw mean difference, REML
#   (with one study all three models are the same). Then 3 collections
#   (distinct topics, tau2 = .0004 between them) of r seeds each: 3r
#   independent studies against 3 averaged ones, REML and Knapp-Hartung.
#
# Usage, from the package root:  Rscript bench/meta-analysis.R [trials]
# (default 1000; pkgload::load_all() is enough: coverage, not speed)

args <- commandArgs(TRUE)
replicates_mode <- length(args) >= 1 && args[1] == "replicates"
if (replicates_mode) args <- args[-1]
R <- if (length(args) >= 1) as.integer(args[1]) else 1000L
pkgload::load_all(quiet = TRUE)

if (replicates_mode) {
  one_set <- function(n_coll, r, sd_e, tau2) {
    theta <- 0.03 + stats::rnorm(n_coll, 0, sqrt(tau2))
    x <- list()
    for (c in seq_len(n_coll)) {
      u <- stats::rnorm(50, 0, 0.1)
      base <- stats::runif(50, 0.1, 0.5)
      for (s in seq_len(r)) {
        m <- rbind(sys = base + theta[c] + u + stats::rnorm(50, 0, sd_e), bl = base)
        colnames(m) <- paste0("c", c, "_topic", 1:50)
        x[[sprintf("c%d_seed%d", c, s)]] <- m
      }
    }
    fit <- function(how, test) {
      p <- suppressWarnings(meta_analysis(x, "sys", "bl", effect = "md", test = test, shared_topics = how))$pooled
      p <- p[p$method == "REML", ]
      c(cover = p$conf.low <= 0.03 && 0.03 <= p$conf.high, width = p$conf.high - p$conf.low)
    }
    tests <- if (n_coll > 1) c("z", "knha") else "z"
    unlist(lapply(tests, function(test) {
      v <- c(fit("independent", test), fit("average", test))
      names(v) <- paste(test, rep(c("independent", "average"), each = 2), names(v), sep = "_")
      v
    }))
  }
  t0 <- proc.time()[["elapsed"]]
  rows <- list()
  for (setting in list(c(1, 5, 0.05, 0), c(1, 10, 0.05, 0), c(1, 10, 0.02, 0), c(3, 5, 0.05, 0.0004))) {
    set.seed(20261207)
    res <- replicate(R, one_set(setting[1], setting[2], setting[3], setting[4]))
    v <- rowMeans(res)
    rows[[length(rows) + 1]] <- data.frame(collections = setting[1], seeds = setting[2], sd_e = setting[3],
                                           tau2 = setting[4], t(round(v, 3)), check.names = FALSE)
  }
  out <- do.call(rbind, lapply(rows, function(d) {
    for (nm in setdiff(c("knha_independent_cover", "knha_independent_width", "knha_average_cover",
                         "knha_average_width"), names(d))) d[[nm]] <- NA
    d
  }))
  options(width = 200)
  print(out, row.names = FALSE)
  cat(sprintf("%d trials per row; %.0f s\n", R, proc.time()[["elapsed"]] - t0))
  quit(save = "no")
}
options(width = 200)
pool <- irtopics:::pool_effects
n_search <- 0L  # REML fits where Fisher scoring did not converge (line search used)

one_normal <- function(k, n, mu, tau2) {
  theta <- mu + rnorm(k, 0, sqrt(tau2))
  sds <- runif(k, 0.08, 0.20)
  y <- v <- numeric(k)
  for (i in seq_len(k)) {
    d <- rnorm(n, theta[i], sds[i])
    y[i] <- mean(d)
    v[i] <- var(d) / n
  }
  new_theta <- mu + rnorm(1, 0, sqrt(tau2))
  fits <- list(FE = "z", DL = "z", REML = "z", DL = "knha", REML = "knha")
  out <- vapply(seq_along(fits), function(j) {
    m <- names(fits)[j]
    r <- withCallingHandlers(pool(y, v, m, 0.95, test = fits[[j]]), irtopics_warning_convergence = function(w) {
      if (fits[[j]] == "z" && grepl("did not converge", conditionMessage(w))) n_search <<- n_search + 1L
      invokeRestart("muffleWarning")
    })$row
    c(ci = r$conf.low <= mu && mu <= r$conf.high, pi = r$pi.low <= new_theta && new_theta <= r$pi.high,
      width = r$conf.high - r$conf.low)
  }, numeric(3))
  colnames(out) <- c("FE", "DL", "REML", "KH_DL", "KH_REML")
  out
}

normal_rows <- function() {
  rows <- list()
  for (tau2 in c(0, 0.0004, 0.0025)) for (k in c(3, 5, 10, 20)) {
    set.seed(20261127)
    res <- replicate(R, one_normal(k, 50, 0.03, tau2))
    rows[[length(rows) + 1]] <- data.frame(
      setting = "normal", tau2 = tau2, k = k,
      FE = mean(res["ci", "FE", ]), DL = mean(res["ci", "DL", ]), REML = mean(res["ci", "REML", ]),
      KH_DL = mean(res["ci", "KH_DL", ]), KH_REML = mean(res["ci", "KH_REML", ]),
      PI_DL = mean(res["pi", "DL", ]), PI_REML = mean(res["pi", "REML", ]), PI_KH_REML = mean(res["pi", "KH_REML", ]),
      width_REML = mean(res["width", "REML", ]), width_KH_REML = mean(res["width", "KH_REML", ]))
  }
  do.call(rbind, rows)
}

resampled_rows <- function() {
  ap <- unclass(read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                            measure = "AP"))
  mu <- rowMeans(ap)
  best <- names(which.max(mu))
  med <- names(sort(mu))[ceiling(length(mu) / 2)]
  d_all <- ap[best, ] - ap[med, ]
  truth <- c(md = mean(d_all), smd = mean(d_all) / sd(d_all))
  rows <- list()
  for (effect in c("md", "smd")) for (k in c(3, 5, 10)) {
    set.seed(20261127)
    hits <- replicate(R, {
      x <- lapply(seq_len(k), function(i) ap[c(best, med), sample.int(ncol(ap), 50, replace = TRUE), drop = FALSE])
      names(x) <- paste0("c", seq_len(k))
      # resampled topics repeat: make the names unique (they are only labels here)
      x <- lapply(x, function(m) {
        colnames(m) <- paste0("t", seq_len(ncol(m)))
        m
      })
      ma <- suppressWarnings(meta_analysis(x, system = best, baseline = med, effect = effect))
      p <- ma$pooled
      setNames(p$conf.low <= truth[[effect]] & truth[[effect]] <= p$conf.high, p$method)
    })
    rows[[length(rows) + 1]] <- data.frame(setting = paste("resampled", effect), tau2 = 0, k = k,
                                           FE = mean(hits["FE", ]), DL = mean(hits["DL", ]),
                                           REML = mean(hits["REML", ]), KH_DL = NA, KH_REML = NA, PI_DL = NA, PI_REML = NA,
                                           PI_KH_REML = NA, width_REML = NA, width_KH_REML = NA)
  }
  do.call(rbind, rows)
}

t0 <- proc.time()[["elapsed"]]
out <- rbind(normal_rows(), resampled_rows())
print(format(out, digits = 3), row.names = FALSE)
cat(sprintf("%d trials per row; %.0f s; REML by bisection (Fisher scoring did not converge) in %d of %d normal fits\n",
            R, proc.time()[["elapsed"]] - t0, n_search, 12L * R))
