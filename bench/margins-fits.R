# Fits fit_margin() to every system of the ten shipped matrices of
# bench/margins.R (robust2004 and TREC 5-8 ad hoc, AP continuous and P@10
# discrete) and saves what the comparison needs, with the CPU time of each
# matrix and the number of beta-kernel evaluations.
# Usage: Rscript bench/margins-fits.R <out.rds> [library]   (no library: pkgload::load_all("."))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) >= 2L) {
  library(irtopics, lib.loc = args[2])
} else {
  pkgload::load_all(".", quiet = TRUE)
}
ns <- asNamespace("irtopics")
path <- function(f) system.file("extdata", "score-matrices", paste0(f, ".csv"), package = "irtopics")
sets <- c(sprintf("%s_ap", c("robust2004", paste0("adhoc", 5:8))), sprintf("%s_p10", c("robust2004", paste0("adhoc", 5:8))))
warm <- fit_margin(read_scores(path("adhoc8_ap"), measure = "AP")[1, ])
counter <- if (exists("bk_counter", ns)) ns$bk_counter else NULL
out <- list()
for (s in sets) {
  discrete <- grepl("_p10$", s)
  m <- read_scores(path(s), measure = if (discrete) "P@10" else "AP")
  if (!is.null(counter)) counter(reset = TRUE)
  cpu <- system.time(fits <- lapply(seq_len(nrow(m)), function(i) {
    if (discrete) fit_margin(m[i, ], type = "discrete", support = score_support("P@10")) else fit_margin(m[i, ])
  }))
  out[[s]] <- list(cpu = cpu[["user.self"]] + cpu[["sys.self"]], elapsed = cpu[["elapsed"]],
                   kernel_evaluations = if (!is.null(counter)) counter() else NA_real_,
                   fits = lapply(fits, function(f) {
                     list(family = f$family, loglik = f$loglik, candidates = f$candidates,
                          candidate_parameters = f$candidate_parameters, mean = f$mean, var = f$var,
                          cdf = f$cdf, base_sf = f$base_sf)
                   }))
  cat(sprintf("%-16s %3d systems: %6.2f s CPU\n", s, nrow(m), out[[s]]$cpu))
}
saveRDS(out, args[1])
