# Fails when the package code, its examples, tests, vignettes or tools load a
# package that tools/setup.sh would not install, so a fresh machine cannot
# silently lack one. setup.sh installs what tools/deps.R reads from DESCRIPTION:
# Depends, Imports, LinkingTo, Suggests, Config/Needs/dev (developer tools:
# pkgbuild, roxygen2) and Config/Needs/website (the documentation site).
#
#   Rscript tools/check-deps.R              # scan the package in the current directory
#   Rscript tools/check-deps.R --self-test  # show that a planted dependency is caught
#
# A use is library(p), require(p), requireNamespace("p"), loadNamespace("p"),
# skip_if_not_installed("p") or p::f / p:::f in R/, man/, tests/, vignettes/,
# inst/scripts/ and tools/ (.R, .Rmd, .Rd and .sh files).
source(file.path("tools", "deps.R"))

used_packages <- function(root = ".") {
  dirs <- file.path(root, c("R", "man", "tests", "vignettes", "inst/scripts", "tools"))
  files <- list.files(dirs[dir.exists(dirs)], pattern = "\\.(R|r|Rmd|Rd|sh)$",
                      recursive = TRUE, full.names = TRUE)
  files <- files[basename(files) != "check-deps.R"]   # its self-test plants fake names
  name <- "([A-Za-z][A-Za-z0-9.]*[A-Za-z0-9])"
  pats <- c(
    sprintf("\\b(?:library|require)\\(\\s*[\"']?%s", name),
    sprintf("\\b(?:requireNamespace|loadNamespace|skip_if_not_installed)\\(\\s*[\"']%s[\"']", name),
    sprintf("(?<![A-Za-z0-9._])%s:::?[A-Za-z._]", name))
  hits <- list()
  for (f in files) {
    txt <- readLines(f, warn = FALSE)
    for (p in pats) {
      m <- regmatches(txt, regexec(p, txt, perl = TRUE))
      for (i in which(lengths(m) > 0)) {
        hits[[length(hits) + 1]] <- data.frame(package = m[[i]][2], file = f, line = i,
                                               stringsAsFactors = FALSE)
      }
    }
  }
  do.call(rbind, c(list(data.frame(package = character(), file = character(), line = integer())), hits))
}

# Packages used but not installed by setup.sh, with where they are used.
missing_deps <- function(root = ".") {
  pkg <- read.dcf(file.path(root, "DESCRIPTION"), "Package")[1, 1]
  declared <- c(pkg, base_packages(),
                needed(c("dev", "website"), file.path(root, "DESCRIPTION"))$package)
  # `std::` is C++ (std::bad_alloc in comments and test names), not a package
  cpp_namespaces <- c("std", "irtopics_glue")
  u <- used_packages(root)
  u[!u$package %in% c(declared, cpp_namespaces), , drop = FALSE]
}

report <- function(miss) {
  if (!nrow(miss)) return(TRUE)
  message("Packages used but not installed by tools/setup.sh (add them to DESCRIPTION's ",
          "Imports/Suggests, or Config/Needs/dev for tools):")
  for (p in unique(miss$package)) {
    w <- miss[miss$package == p, ]
    message(sprintf("  %s: %s", p, paste(utils::head(sprintf("%s:%d", w$file, w$line), 5), collapse = ", ")))
  }
  FALSE
}

self_test <- function() {
  root <- tempfile("check-deps-")
  dir.create(file.path(root, "tests", "testthat"), recursive = TRUE)
  file.copy("DESCRIPTION", root)
  writeLines(c('test_that("planted", {',
               '  skip_if_not_installed("plantedPkgA")',
               '  expect_true(plantedPkgB::f())',
               '  library(ggplot2)',
               '})'),
             file.path(root, "tests", "testthat", "test-planted.R"))
  miss <- missing_deps(root)
  unlink(root, recursive = TRUE)
  found <- sort(unique(miss$package))
  if (!identical(found, c("plantedPkgA", "plantedPkgB"))) {
    message("self-test FAILED: expected plantedPkgA and plantedPkgB, found: ", paste(found, collapse = ", "))
    quit(status = 1)
  }
  message("self-test: the planted undeclared packages were caught (", paste(found, collapse = ", "), ")")
}

if (sys.nframe() == 0L) {
  if ("--self-test" %in% commandArgs(trailingOnly = TRUE)) {
    self_test()
  } else {
    u <- used_packages()
    if (!report(missing_deps())) quit(status = 1)
    message(sprintf("check-deps: all %d packages used in R/, man/, tests/, vignettes/, inst/scripts/ and tools/ are installed by tools/setup.sh",
                    length(unique(u$package))))
  }
}
