# Width of the LaTeX tables on a two-column page (issue 25): how far a
# comparison table of 3 measures x 17 systems overfills one column of
# \documentclass[twocolumn]{article} (pdflatex's "Overfull \hbox" in the
# log; 0 = fits), under each layout option, and whether the means line up
# on their decimal points (spread of the x position where the plain means
# start, from pdftotext -bbox).
#
# Usage, from the package root (needs pdflatex, booktabs and pdftotext):
#   Rscript bench/latex-width.R
# With R_LIBS pointing at an older installed irtopics, only the default
# layout is measured (the options did not exist).
if (file.exists("DESCRIPTION") && !nzchar(Sys.getenv("IRTOPICS_INSTALLED"))) {
  pkgload::load_all(quiet = TRUE)
} else {
  library(irtopics)
}
f <- function(n) system.file("extdata", "score-matrices", n, package = "irtopics")
ap <- read_scores(f("adhoc8_ap.csv"), measure = "AP")[1:17, ]
p10 <- read_scores(f("adhoc8_p10.csv"), measure = "P@10")[1:17, ]
rownames(ap) <- rownames(p10) <- c(paste0("run_", 1:16), "MU03rob01%")
third <- as_ir_scores((unclass(ap) + unclass(p10)) / 2, measure = "nDCG@10")
ev <- irtopics:::new_ir_evaluation(structure(list(AP = ap, `P@10` = p10, `nDCG@10` = third),
                                             missing = "drop", depth = 1000,
                                             canonical = c("AP", "P@10", "nDCG@10")))
cmp <- compare_systems(ev)

measure_table <- function(tex, digits = 4) {
  dir <- tempfile("width")
  dir.create(dir)
  writeLines(c("\\documentclass[twocolumn]{article}", "\\usepackage{booktabs}", "\\begin{document}", tex,
               "\\end{document}"), file.path(dir, "t.tex"))
  withr::with_dir(dir, system2("pdflatex", c("-interaction=nonstopmode", "t.tex"), stdout = FALSE))
  log <- readLines(file.path(dir, "t.log"), warn = FALSE)
  over <- regmatches(log, regexpr("(?<=Overfull \\\\hbox \\()[0-9.]+(?=pt too wide)", log, perl = TRUE))
  words <- system2("pdftotext", c("-bbox", file.path(dir, "t.pdf"), "-"), stdout = TRUE)
  words <- grep("<word ", words, value = TRUE)
  text <- sub(".*>(.*)</word>.*", "\\1", words)
  x_min <- as.numeric(sub('.*xMin="([0-9.]+)".*', "\\1", words))
  # the AP means that are not bold (pdftotext may join a mark to its number)
  ap_txt <- formatC(cmp$means[, "AP"], digits = digits, format = "f")[-which.max(cmp$means[, "AP"])]
  plain <- substr(text, 1, nchar(ap_txt[1])) %in% ap_txt
  c(overfull_pt = if (length(over)) max(as.numeric(over)) else 0,
    x_spread_pt = if (any(plain)) diff(range(x_min[plain])) else NA)
}

has_options <- "compact" %in% names(formals(irtopics:::format.ir_comparison))
layouts <- if (has_options) list(
  default = list(),
  `digits = 3` = list(digits = 3),
  `size = "small"` = list(size = "small"),
  `size = "footnotesize"` = list(size = "footnotesize"),
  `compact = TRUE` = list(compact = TRUE),
  `size = "small", compact = TRUE` = list(size = "small", compact = TRUE),
  `environment = "table*"` = list(environment = "table*")
) else list(default = list())
res <- t(vapply(layouts, function(a) measure_table(do.call(format, c(list(cmp, "latex"), a)), if (is.null(a$digits)) 4 else a$digits),
                numeric(2)))
cat(sprintf("irtopics %s, 3 measures x 17 systems, one column of a two-column article (229.5pt)\n",
            utils::packageVersion("irtopics")))
print(round(res, 2))
