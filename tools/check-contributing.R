# Fails when CONTRIBUTING.md names a file or folder of the repository that does
# not exist, so the developer guide cannot silently point at renamed or deleted
# files (issue 26, "Checkable developer docs"). Base R only.
#
#   Rscript tools/check-contributing.R              # check CONTRIBUTING.md here
#   Rscript tools/check-contributing.R --self-test  # show that planted paths are caught
#
# What counts as a path (in inline code, fenced code blocks and link targets):
# * a word starting with one of the repository's top folders (`R/`, `src/`,
#   `tests/`, `tools/`, `bench/`, `vignettes/`, `data-raw/`, `inst/`,
#   `pkgdown/`, `man/`, `.ci/`): it must exist; `*` globs and `{a,b}` braces
#   must match at least one file each;
# * a bare `test-*.R` or `helper-*.R` name: it must be in tests/testthat/;
# * any other bare file name with a source, script or data ending (`.R`, `.h`,
#   `.cpp`, `.sh`, `.md`, `.csv`, ...): it must be somewhere in the tree (R/,
#   tests/testthat/, src/, tools/, inst/extdata/, ...), except the headers of
#   other packages in `external`.
# Not checked: templates (`test-<file>.R`), absolute paths (`/proc`), and build
# products, i.e. paths .gitignore ignores (`tools/cpp/build/`, `src/*.o`,
# `docs/`): they exist only after a build.

top_dirs <- c("R", "src", "tests", "tools", "bench", "vignettes", "data-raw", "inst",
              "pkgdown", "man", ".ci")
file_endings <- c("R", "Rmd", "Rd", "h", "hpp", "cpp", "c", "sh", "md", "csv", "rds",
                  "txt", "yml", "js", "css", "html", "svg", "gz", "mk")
external <- c("Rcpp.h", "RcppEigen.h", "omp.h", "zlib.h")

# The text CONTRIBUTING.md shows as code or links to: inline code spans, the
# lines of fenced code blocks, and [text](target) targets.
code_text <- function(lines) {
  marker <- grepl("^\\s*```", lines)
  fence <- cumsum(marker) %% 2 == 1 & !marker
  prose <- paste(lines[!fence & !marker], collapse = "\n")
  # spans may run over lines; ``a `b` c`` holds backticks
  spans <- regmatches(prose, gregexpr("``(?:[^`]|`(?!`))+``|`[^`]+`", prose, perl = TRUE))[[1]]
  links <- regmatches(prose, gregexpr("\\]\\(([^)\\s]+)\\)", prose, perl = TRUE))[[1]]
  c(gsub("^`+|`+$", "", spans), gsub("^\\]\\(|\\)$", "", links), lines[fence])
}

# "a/{b,c}/d" -> c("a/b/d", "a/c/d")
expand_braces <- function(x) {
  m <- regmatches(x, regexec("^(.*?)\\{([^{}]*)\\}(.*)$", x, perl = TRUE))[[1]]
  if (!length(m)) return(x)
  unlist(lapply(paste0(m[2], strsplit(m[3], ",", fixed = TRUE)[[1]], m[4]), expand_braces))
}

# The words of the code text that name repository paths, as
# data.frame(word, kind): kind "path" (relative to the root), "test" (a file of
# tests/testthat/) or "bare" (a file name anywhere in the tree).
path_words <- function(text) {
  words <- unlist(strsplit(text, "[[:space:]]+"))
  words <- sub("^[(\"'\\[]+", "", words)
  words <- sub("[,;:.\"']+$", "", words)
  words <- ifelse(grepl("\\)$", words) & !grepl("\\(", words), sub("\\)+$", "", words), words)
  words <- sub("^\\./", "", words)
  words <- unique(words[nzchar(words)])
  words <- words[!grepl("[<>]|^/|^~|\\$", words)]           # templates, absolute, variables
  top <- sprintf("^(%s)(/|$)", paste(gsub(".", "\\.", top_dirs, fixed = TRUE), collapse = "|"))
  ending <- sprintf("^[A-Za-z0-9_][A-Za-z0-9_.+*-]*\\.(%s)$", paste(file_endings, collapse = "|"))
  is_path <- grepl(top, words) & grepl("/", words)
  is_test <- !is_path & grepl("^(test|helper)-[A-Za-z0-9_.*-]+\\.R$", words)
  is_bare <- !is_path & !is_test & grepl(ending, words) & !words %in% external
  rbind(data.frame(word = words[is_path], kind = rep("path", sum(is_path))),
        data.frame(word = words[is_test], kind = rep("test", sum(is_test))),
        data.frame(word = words[is_bare], kind = rep("bare", sum(is_bare))))
}

# A glob (`*` within one folder) as a regular expression, unanchored.
glob_rx <- function(x) gsub("\\*", "[^/]*", gsub("([.+^$()|\\[\\]])", "\\\\\\1", x))

# .gitignore's patterns as regular expressions over root-relative paths.
ignored_patterns <- function(root) {
  f <- file.path(root, ".gitignore")
  if (!file.exists(f)) return(character())
  p <- trimws(readLines(f, warn = FALSE))
  p <- p[nzchar(p) & !startsWith(p, "#") & !startsWith(p, "!")]
  rx <- glob_rx(sub("^/", "", p))
  ifelse(endsWith(p, "/"), paste0("^", rx), paste0("^", rx, "(/|$)"))
}

# Every file and folder of the tree, root-relative (without .git).
tree_paths <- function(root) {
  files <- list.files(root, recursive = TRUE, all.files = TRUE, include.dirs = TRUE)
  files[!grepl("^\\.git(/|$)", files)]
}

# The path words of CONTRIBUTING.md's text that name nothing in `root`.
missing_paths <- function(lines, root = ".") {
  w <- path_words(code_text(lines))
  tree <- tree_paths(root)
  ign <- ignored_patterns(root)
  found <- function(word, kind) {
    alts <- expand_braces(word)
    all(vapply(alts, function(a) {
      a <- sub("/$", "", a)
      if (any(vapply(ign, function(rx) any(grepl(rx, c(a, paste0(a, "/")))), TRUE))) return(TRUE)
      rx <- paste0("^", glob_rx(a), "$")
      switch(kind,
             path = any(grepl(rx, tree)),
             test = any(grepl(rx, sub("^tests/testthat/", "", tree[startsWith(tree, "tests/testthat/")]))),
             bare = any(grepl(rx, basename(tree))))
    }, TRUE))
  }
  ok <- mapply(found, w$word, w$kind)
  w[!ok, , drop = FALSE]
}

# Where each missing word stands in the document (line numbers).
report <- function(miss, lines) {
  if (!nrow(miss)) return(TRUE)
  message("CONTRIBUTING.md names paths that do not exist (fix the path or drop the claim):")
  for (i in seq_len(nrow(miss))) {
    at <- which(grepl(miss$word[i], lines, fixed = TRUE))
    where <- switch(miss$kind[i], path = "", test = " (in tests/testthat/)", bare = " (anywhere in the tree)")
    message(sprintf("  %s%s: line %s", miss$word[i], where, paste(at, collapse = ", ")))
  }
  FALSE
}

self_test <- function() {
  lines <- readLines("CONTRIBUTING.md", warn = FALSE)
  planted <- c("R/planted-missing.R", "src/planted_*.h", "tests/testthat/helper-planted.R",
               "test-planted.R", "planted-bare.cpp", "bench/planted/", "tools/planted-link.md",
               "R/planted-span.R")
  kept <- c("R/utils-conditions.R", "src/glue_*.cpp", "tools/cpp/corpus/{run,qrels,gzip}/",
            "eval-read.R", "test-eval-read.R", "tools/cpp/build/fuzz_run", "src/planted.o",
            "test-<file>.R", "Rcpp.h")
  text <- c(lines, "",
            sprintf("Planted: `%s` and `%s`, `make -C %s`.", planted[1], planted[2], planted[3]),
            "```sh", sprintf("Rscript %s %s", planted[4], planted[5]), "```",
            sprintf("(`%s`), [a link](%s).", planted[6], planted[7]),
            "A ``x `y` z`` span, then `Rscript", sprintf("%s` over two lines.", planted[8]),
            sprintf("Existing or exempt: `%s`.", kept))
  found <- setdiff(missing_paths(text)$word, missing_paths(lines)$word)
  if (!setequal(found, planted)) {
    message("self-test FAILED: expected ", paste(planted, collapse = ", "),
            "; found: ", paste(found, collapse = ", "))
    quit(status = 1)
  }
  message(sprintf("self-test: the %d planted missing paths were caught, the %d existing or exempt ones were not",
                  length(planted), length(kept)))
}

if (sys.nframe() == 0L) {
  if ("--self-test" %in% commandArgs(trailingOnly = TRUE)) {
    self_test()
  } else {
    lines <- readLines("CONTRIBUTING.md", warn = FALSE)
    if (!report(missing_paths(lines), lines)) quit(status = 1)
    message(sprintf("check-contributing: all %d paths CONTRIBUTING.md names exist",
                    nrow(path_words(code_text(lines)))))
  }
}
