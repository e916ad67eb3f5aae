# Coverage of alpha_bootstrap()'s three intervals for Cronbach's alpha
# ("feldt", "noncentral", "percentile") by simulation from a two-way
# (systems x topics) random-effects model with known alpha.
#
#   x[s, t] = mu_s + u_t + e[s, t]
#
# "systems random": the system effects mu_s are drawn anew for every data
#   set, N(0, s2_s); the true alpha is n_t s2_s / (n_t s2_s + s2_e).
# "systems fixed": one draw of mu_s is kept for every data set; the true
#   alpha is n_t S2 / (n_t S2 + s2_e), with S2 the sample variance of those
#   fixed effects (what E[MS_s] estimates when the systems are fixed).
# Topic effects u_t ~ N(0, s2_t) and errors are drawn anew every time.
# Errors: "normal" N(0, s2_e), or "skewed": s2_e-scaled centred
# exponential (a skewed, non-normal residual, as IR scores near 0 are).
#
# Usage, from the package root:  Rscript bench/alpha-intervals.R [datasets] [B]
# (defaults 2000 and 500; pkgload::load_all() is enough: coverage, not speed)

args <- commandArgs(TRUE)
R <- if (length(args) >= 1) as.integer(args[1]) else 2000L
B <- if (length(args) >= 2) as.integer(args[2]) else 500L
pkgload::load_all(quiet = TRUE)
options(irtopics.progress = FALSE)

coverage <- function(ns, nt, s2s, s2t, s2e, errors, systems) {
  set.seed(20261123)
  fixed_mu <- rnorm(ns, 0, sqrt(s2s))
  truth <- if (systems == "fixed") nt * var(fixed_mu) / (nt * var(fixed_mu) + s2e) else nt * s2s / (nt * s2s + s2e)
  hits <- vapply(seq_len(R), function(r) {
    set.seed(r)
    mu <- if (systems == "fixed") fixed_mu else rnorm(ns, 0, sqrt(s2s))
    e <- if (errors == "normal") rnorm(ns * nt, 0, sqrt(s2e)) else (rexp(ns * nt) - 1) * sqrt(s2e)
    x <- outer(mu, rnorm(nt, 0, sqrt(s2t)), "+") + matrix(e, ns)
    dimnames(x) <- list(paste0("s", seq_len(ns)), paste0("t", seq_len(nt)))
    iv <- alpha_bootstrap(x, B = B, seed = r)$intervals
    c(iv$conf.low <= truth & truth <= iv$conf.high, iv$conf.high - iv$conf.low)
  }, numeric(6))
  data.frame(systems = systems, errors = errors, n_systems = ns, n_topics = nt, alpha = round(truth, 3),
             feldt = mean(hits[1, ]), noncentral = mean(hits[2, ]), percentile = mean(hits[3, ]),
             width_feldt = mean(hits[4, ]), width_noncentral = mean(hits[5, ]), width_percentile = mean(hits[6, ]))
}

t0 <- Sys.time()
grid <- expand.grid(systems = c("random", "fixed"), errors = c("normal", "skewed"), stringsAsFactors = FALSE)
out <- rbind(
  do.call(rbind, lapply(seq_len(nrow(grid)), function(i)
    coverage(30, 50, s2s = 0.004, s2t = 0.03, s2e = 0.02, errors = grid$errors[i], systems = grid$systems[i]))),
  # a TREC-like shape: many systems, few topics, lower alpha
  do.call(rbind, lapply(c("random", "fixed"), function(sys)
    coverage(100, 25, s2s = 0.002, s2t = 0.03, s2e = 0.03, errors = "normal", systems = sys)))
)
print(out, digits = 3, row.names = FALSE)
cat(sprintf("%d data sets per row, B = %d; %.0f s\n", R, B, as.numeric(difftime(Sys.time(), t0, units = "secs"))))
