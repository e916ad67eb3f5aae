# Fitting margins (fit_margin()) to every system of the shipped matrices,
# then 10,000 transform_margin() calls as a simulation study would make them.
#
# Part 1, speed and identity (issue 26): every system of robust2004 and TREC
# 5-8 ad hoc, AP (continuous) and P@10 (discrete), fitted by the build in
# <new-lib> and by a build of the code before it in <base-lib>, each in its
# own R process one after the other (bench/margins-fits.R); reports CPU
# seconds per matrix, the beta kernel's kernel values and exp() calls (the
# repeatable measure), and checks that both choose the same families with
# log-likelihoods within 1e-6 and parameters (bandwidths included) within
# 1e-8 relative, for every candidate of every system.
# Part 2: checks that every fit succeeds and that transformed means are exact
# for the table and agree with the exact transformed density.
# Usage, from the package root:
#   R CMD INSTALL --preclean --no-test-load -l /tmp/new-lib . && rm -f src/*.o src/*.so
#   Rscript bench/margins.R /tmp/new-lib /tmp/base-lib
# (without arguments: part 2 only, on pkgload::load_all())
args <- commandArgs(trailingOnly = TRUE)
if (length(args) == 2L) {
  fits <- lapply(c(new = args[1], base = args[2]), function(lib) {
    out <- tempfile(fileext = ".rds")
    status <- system2(file.path(R.home("bin"), "Rscript"), c("bench/margins-fits.R", out, lib))
    if (status != 0) stop("bench/margins-fits.R failed for ", lib)
    readRDS(out)
  })
  rel <- function(a, b) ifelse(a == b, 0, abs(a - b) / pmax(abs(a), abs(b)))
  param_diff <- function(p, q) {
    num <- vapply(p, is.numeric, TRUE)
    if (!identical(names(p), names(q)) || !identical(p[!num], q[!num])) return(Inf)
    if (!any(num)) return(0)
    max(rel(unlist(p[num]), unlist(q[num])))
  }
  rows <- lapply(names(fits$new), function(s) {
    a <- fits$new[[s]]
    b <- fits$base[[s]]
    pairs <- Map(function(x, y) list(x, y), a$fits, b$fits)
    cand_ok <- vapply(pairs, function(p) identical(p[[1]]$candidates$family, p[[2]]$candidates$family), TRUE)
    data.frame(
      matrix = s, systems = length(a$fits), base_cpu = b$cpu, new_cpu = a$cpu, speedup = b$cpu / a$cpu,
      kernel_values = a$kernel_evaluations[["values"]], exp_calls = a$kernel_evaluations[["exps"]],
      same_families = all(cand_ok) && all(vapply(pairs, function(p) p[[1]]$family == p[[2]]$family, TRUE)),
      max_loglik_diff = max(vapply(pairs, function(p) max(abs(p[[1]]$candidates$loglik - p[[2]]$candidates$loglik),
                                                          na.rm = TRUE), 0)),
      max_df_diff = max(vapply(pairs, function(p) max(abs(p[[1]]$candidates$df - p[[2]]$candidates$df),
                                                      na.rm = TRUE), 0)),
      max_param_rel = max(vapply(pairs, function(p) {
        max(unlist(Map(param_diff, p[[1]]$candidate_parameters, p[[2]]$candidate_parameters)))
      }, 0)),
      max_cdf_diff = max(vapply(pairs, function(p) max(abs(p[[1]]$cdf - p[[2]]$cdf)), 0)),
      stringsAsFactors = FALSE)
  })
  tab <- do.call(rbind, rows)
  print(format(tab, digits = 3), row.names = FALSE)
  cat(sprintf("all matrices: base %.2f s, new %.2f s CPU (%.1fx)\n", sum(tab$base_cpu), sum(tab$new_cpu),
              sum(tab$base_cpu) / sum(tab$new_cpu)))
  ok <- all(tab$same_families) && max(tab$max_loglik_diff) < 1e-6 && max(tab$max_param_rel) < 1e-8
  cat(if (ok) "identical choices; log-likelihoods within 1e-6, parameters within 1e-8 relative\n" else
    "DIFFERENCES beyond the tolerances\n")
  library(irtopics, lib.loc = args[1])
} else {
  pkgload::load_all(".", quiet = TRUE)
}
path <- function(f) file.path("inst", "extdata", "score-matrices", f)
warm <- fit_margin(read_scores(path("adhoc8_ap.csv"))[1, ])
s10 <- score_support("P@10")
rows <- list()
for (trec in 5:8) {
  ap <- read_scores(path(sprintf("adhoc%d_ap.csv", trec)), measure = "AP")
  p10 <- read_scores(path(sprintf("adhoc%d_p10.csv", trec)), measure = "P@10")
  t_ap <- system.time(ms <- lapply(seq_len(nrow(ap)), function(i) fit_margin(ap[i, ])))[["elapsed"]]
  t_p10 <- system.time(ds <- lapply(seq_len(nrow(p10)), function(i) {
    fit_margin(p10[i, ], type = "discrete", support = s10)
  }))[["elapsed"]]
  fam <- table(vapply(ms, `[[`, "", "family"))
  rows[[length(rows) + 1L]] <- data.frame(
    collection = sprintf("adhoc%d", trec), systems = nrow(ap), topics = ncol(ap), ap_s = t_ap, p10_s = t_p10,
    ap_families = paste(names(fam), fam, sep = ":", collapse = " "),
    max_abs_mean_minus_data = max(abs(vapply(ms, function(m) m$mean - mean(m$data), 0))))
}
print(do.call(rbind, rows), row.names = FALSE)

ap <- read_scores(path("adhoc8_ap.csv"), measure = "AP")
ms <- lapply(seq_len(nrow(ap)), function(i) fit_margin(ap[i, ]))
set.seed(1)
pick <- sample(length(ms), 10000, replace = TRUE)
target <- vapply(pick, function(i) {
  m <- ms[[i]]
  m$mean * exp(stats::runif(1, -0.5, 0.5))
}, 0)
err <- numeric(length(pick))
t_tr <- system.time(for (j in seq_along(pick)) {
  t <- transform_margin(ms[[pick[j]]], target[j])
  err[j] <- abs(t$mean - target[j])
})[["elapsed"]]
cat(sprintf("transform_margin(): %d calls in %.2f s (%.2f ms each); largest |table mean - target| %.2g\n",
            length(pick), t_tr, 1000 * t_tr / length(pick), max(err)))
ex <- vapply(1:20, function(j) {
  t <- transform_margin(ms[[pick[j]]], target[j])
  abs(stats::integrate(function(y) y * dmargin(y, t), 0, 1, subdivisions = 1000, rel.tol = 1e-9)$value - target[j])
}, 0)
cat(sprintf("exact transformed mean vs target (20 calls): largest difference %.2g\n", max(ex)))
