# Compiling the LaTeX tables (test-compare-tables.R, test-utils-latex.R).
# .ci/run installs pdflatex and pdftotext (texlive, poppler-utils): there
# their absence is a failure, not a skip.

skip_without_tool <- function(tool) {
  if (identical(Sys.getenv("CI"), "true")) {
    testthat::expect_true(nzchar(Sys.which(tool)), label = paste(tool, "is installed (CI)"))
  }
  testthat::skip_if(!nzchar(Sys.which(tool)), paste(tool, "is not installed"))
}

# A document holding `body` compiled with pdflatex: list(ok, log, pdf, overfull),
# `overfull` the "Overfull \hbox" lines of the log.
compile_latex <- function(body, twocolumn = FALSE, packages = "booktabs") {
  dir <- tempfile("latex")
  dir.create(dir)
  doc <- c(sprintf("\\documentclass%s{article}", if (twocolumn) "[twocolumn]" else ""),
           if (length(packages)) sprintf("\\usepackage{%s}", packages), "\\begin{document}", body,
           "\\end{document}")
  writeLines(doc, file.path(dir, "t.tex"))
  out <- withr::with_dir(dir, suppressWarnings(system2(
    "pdflatex", c("-interaction=nonstopmode", "-halt-on-error", "t.tex"), stdout = TRUE, stderr = TRUE)))
  log <- if (file.exists(file.path(dir, "t.log"))) readLines(file.path(dir, "t.log"), warn = FALSE) else out
  list(ok = is.null(attr(out, "status")) && file.exists(file.path(dir, "t.pdf")), log = log,
       pdf = file.path(dir, "t.pdf"), overfull = grep("^Overfull \\\\hbox", log, value = TRUE))
}

# The text of a PDF (pdftotext), and its words with their boxes (-bbox).
pdf_text <- function(pdf) {
  paste(system2("pdftotext", c("-enc", "UTF-8", shQuote(pdf), "-"), stdout = TRUE), collapse = "\n")
}
pdf_words <- function(pdf) {
  lines <- system2("pdftotext", c("-bbox", shQuote(pdf), "-"), stdout = TRUE)
  lines <- grep("<word ", lines, value = TRUE)
  num <- function(a) as.numeric(sub(sprintf('.*%s="([0-9.]+)".*', a), "\\1", lines))
  data.frame(word = sub(".*>(.*)</word>.*", "\\1", lines), x_min = num("xMin"), x_max = num("xMax"),
             y_min = num("yMin"), stringsAsFactors = FALSE)
}

# Three measures of 17 TREC-8 runs (AP, P@10 and their mean as a third
# measure), names with _ and %: the table that did not fit a column.
three_measures <- function() {
  f <- function(n) system.file("extdata", "score-matrices", n, package = "irtopics")
  ap <- read_scores(f("adhoc8_ap.csv"), measure = "AP")[1:17, ]
  p10 <- read_scores(f("adhoc8_p10.csv"), measure = "P@10")[1:17, ]
  rownames(ap) <- rownames(p10) <- c(paste0("run_", 1:16), "MU03rob01%")
  third <- as_ir_scores((unclass(ap) + unclass(p10)) / 2, measure = "nDCG@10")
  new_ir_evaluation(structure(list(AP = ap, `P@10` = p10, `nDCG@10` = third), missing = "drop", judged_only = FALSE,
                              depth = 1000, canonical = c("AP", "P@10", "nDCG@10")))
}
