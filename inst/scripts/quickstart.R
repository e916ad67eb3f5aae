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
summary_table <- data.frame(
  system = rownames(ap),
  MAP = mean_scores(ap),
  GMAP = gmean_scores(ap),                  # Voorhees (2004): add 1e-5, subtract after
  pct_no = 100 * rowMeans(unclass(p10) == 0), # % topics with no relevant document in the top 10
  row.names = NULL
)
summary_table <- summary_table[order(-summary_table$MAP), ]
print(utils::head(summary_table, 10), digits = 4, row.names = FALSE)
cat(sprintf("\nCorrelation of the MAP and GMAP rankings (Kendall's tau): %.3f\n",
            kendall_tau(summary_table$MAP, summary_table$GMAP)))
