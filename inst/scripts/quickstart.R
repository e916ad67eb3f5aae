# irtopics quick start: the package's main job on shipped real data.
#   Rscript inst/scripts/quickstart.R      (after installing the package)
suppressPackageStartupMessages(library(irtopics))

cat("== 1. trec_eval's own test run, evaluated against its qrels ==\n")
dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
                measures = c("AP", "P@10", "R-Prec", "nDCG", "Bpref"))
print(res)
cat("\nPer-topic AP (trec_eval -q prints 0.0324, 0.4175, 0.0858):\n")
print(round(res$AP[1, ], 4))

cat("\n== 2. The TREC 2004 Robust track: 110 runs x 249 topics ==\n")
mat <- function(f) system.file("extdata", "score-matrices", f, package = "irtopics")
ap <- read_scores(mat("robust2004_ap.csv"), measure = "AP")
p10 <- read_scores(mat("robust2004_p10.csv"), measure = "P@10")
rs <- robust_summary(ap, p10)       # MAP, P@10, %no, area, GMAP per system (Voorhees 2004)
summary_table <- as.data.frame(rs, wide = TRUE)[, c("system", "MAP.all", "GMAP.all", "pct_no.all", "area.all")]
names(summary_table) <- c("system", "MAP", "GMAP", "pct_no", "area")
print(utils::head(summary_table, 10), digits = 4, row.names = FALSE)
cat(sprintf("\nCorrelation of the MAP and GMAP rankings (Kendall's tau): %.3f\n",
            kendall_tau(summary_table$MAP, summary_table$GMAP)))
