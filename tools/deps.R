# The R packages irtopics needs, read from DESCRIPTION, and their installation.
# Used by tools/setup.sh and tools/check-deps.R; base R only (it runs before
# anything else is installed).
#
#   Rscript tools/deps.R list [website]     # package names, one a line
#   Rscript tools/deps.R install [website]  # install from CRAN what R cannot load
#   Rscript tools/deps.R verify [website]   # fail unless every one of them loads
#
# Groups: "dev" (always) = Depends, Imports, LinkingTo, Suggests and
# Config/Needs/dev (developer tools: tools/run-tests.R compiles with pkgbuild,
# roxygen2 regenerates NAMESPACE and man/); "website" adds Config/Needs/website (pkgdown and the
# headless-browser check of tools/build-site.sh).
#
# `install` resolves versions itself: a package counts as present only when the
# copy R would load satisfies every version constraint on it (e.g. Debian's
# rlang 1.0.6 is too old for chromote, which needs >= 1.1.0); the rest, with
# their own missing or outdated dependencies, come from CRAN into the first
# writable library (IRTOPICS_LIB, else the first writable entry of .libPaths(),
# else R_LIBS_USER, created). A package whose current CRAN version needs a newer
# R than this one is taken from Debian's build (r-cran-*) when there is one.

base_packages <- function() {
  c("R", rownames(utils::installed.packages(.Library, priority = "base")))
}

# "a (>= 1.0), b" -> data.frame(package, op, version)
parse_deps <- function(x) {
  x <- unlist(strsplit(paste(x[!is.na(x)], collapse = ","), ","))
  x <- trimws(gsub("\\s+", " ", x))
  x <- x[nzchar(x)]
  pkg <- sub("^([A-Za-z0-9.]+).*$", "\\1", x)
  has_v <- grepl("\\(", x)
  op <- ifelse(has_v, sub("^.*\\(\\s*([<>=!]+)\\s*.*$", "\\1", x), NA_character_)
  ver <- ifelse(has_v, sub("^.*\\(\\s*[<>=!]+\\s*([^) ]+)\\s*\\).*$", "\\1", x), NA_character_)
  data.frame(package = pkg, op = op, version = ver, stringsAsFactors = FALSE)
}

desc_fields <- function(groups = "dev", path = "DESCRIPTION") {
  d <- read.dcf(path, all = TRUE)
  f <- c("Depends", "Imports", "LinkingTo", "Suggests", paste0("Config/Needs/", groups))
  unname(unlist(d[1, intersect(f, colnames(d))]))
}

# Direct requirements of the package and its tools.
needed <- function(groups = "dev", path = "DESCRIPTION") {
  r <- parse_deps(desc_fields(groups, path))
  r[!r$package %in% base_packages(), , drop = FALSE]
}

satisfies <- function(have, op, ver) {
  if (is.na(op) || is.na(have)) return(TRUE)
  f <- switch(op, ">=" = `>=`, ">" = `>`, "==" = `==`, "<=" = `<=`, "<" = `<`,
              stop("unknown version operator ", op))
  f(package_version(have), package_version(ver))
}

# The DESCRIPTION of the copy of `pkg` that R would load, or NULL.
visible <- function(pkg) {
  dir <- find.package(pkg, quiet = TRUE)
  if (!length(dir)) return(NULL)
  d <- read.dcf(file.path(dir[1], "DESCRIPTION"))
  as.list(d[1, ])
}

r_ok <- function(depends) {
  r <- parse_deps(depends)
  r <- r[r$package == "R", , drop = FALSE]
  all(mapply(function(op, v) satisfies(as.character(getRversion()), op, v), r$op, r$version))
}

target_lib <- function() {
  lib <- Sys.getenv("IRTOPICS_LIB")
  if (!nzchar(lib)) {
    cand <- setdiff(.libPaths(), .Library)
    ok <- cand[file.access(cand, 2) == 0]
    lib <- if (length(ok)) ok[1] else path.expand(Sys.getenv("R_LIBS_USER"))
  }
  dir.create(lib, recursive = TRUE, showWarnings = FALSE)
  if (file.access(lib, 2) != 0) stop("no writable R library: set IRTOPICS_LIB or R_LIBS_USER")
  normalizePath(lib)
}

# Work out what to install. `db`: available.packages() without the R-version
# filter. Returns list(cran = names, debian = names, plan = per-package source).
resolve <- function(reqs, db) {
  base <- base_packages()
  plan <- list()          # pkg -> list(source, version)
  queue <- reqs
  fail <- character()
  while (nrow(queue)) {
    p <- queue$package[1]; op <- queue$op[1]; v <- queue$version[1]
    queue <- queue[-1, , drop = FALSE]
    if (p %in% base) next
    cur <- plan[[p]]
    if (!is.null(cur) && satisfies(cur$version, op, v)) next
    pick <- NULL
    if (is.null(cur)) {              # first time: what R loads today
      d <- visible(p)
      if (!is.null(d) && satisfies(d$Version, op, v)) {
        pick <- list(source = "installed", version = d$Version, deps = d)
      }
    }
    if (is.null(pick) && p %in% rownames(db)) {
      d <- as.list(db[p, ])
      if (satisfies(d$Version, op, v)) {
        if (r_ok(d$Depends)) {
          pick <- list(source = "cran", version = d$Version, deps = d)
        } else {
          pick <- list(source = "debian", version = NA_character_, deps = list(),
                       why = sprintf("CRAN's %s %s needs %s", p, d$Version,
                                     grep("^R ", trimws(strsplit(d$Depends, ",")[[1]]), value = TRUE)))
        }
      }
    }
    if (is.null(pick)) {
      fail <- c(fail, sprintf("%s%s", p, if (is.na(op)) "" else sprintf(" (%s %s)", op, v)))
      next
    }
    plan[[p]] <- pick
    dd <- pick$deps
    if (length(dd)) queue <- rbind(queue, parse_deps(unlist(dd[intersect(c("Depends", "Imports", "LinkingTo"), names(dd))])))
  }
  src <- vapply(plan, `[[`, "", "source")
  list(plan = plan, cran = names(src)[src == "cran"], debian = names(src)[src == "debian"],
       fail = unique(fail))
}

# Debian's build of `pkg` for this R: apt-get it when root, then copy its
# directory into `lib` when /usr/lib/R/site-library is not on .libPaths().
install_debian <- function(pkg, lib) {
  deb_dir <- file.path("/usr/lib/R/site-library", pkg)
  if (!dir.exists(deb_dir) && Sys.which("apt-get") != "" && Sys.info()[["effective_user"]] == "root") {
    system2("apt-get", c("install", "-y", "-q", "--no-install-recommends", paste0("r-cran-", tolower(pkg))),
            env = "DEBIAN_FRONTEND=noninteractive")
  }
  if (!dir.exists(deb_dir)) return(FALSE)
  if (!normalizePath(dirname(deb_dir)) %in% normalizePath(.libPaths())) {
    file.copy(deb_dir, lib, recursive = TRUE)
  }
  TRUE
}

install_needed <- function(groups) {
  lib <- target_lib()
  .libPaths(c(lib, .libPaths()))
  repos <- getOption("repos")
  if (is.na(repos["CRAN"]) || repos["CRAN"] == "@CRAN@") repos["CRAN"] <- "https://cloud.r-project.org"
  options(repos = repos)
  db <- utils::available.packages(filters = list())
  res <- resolve(needed(groups), db)
  if (length(res$fail)) {
    stop("not available from CRAN in a suitable version: ", paste(res$fail, collapse = ", "))
  }
  for (p in res$debian) {
    message(res$plan[[p]]$why, " (R ", getRversion(), " here): using Debian's build of ", p)
    if (!install_debian(p, lib)) stop(res$plan[[p]]$why, " and Debian has no build of it: install it by hand")
  }
  if (length(res$cran)) {
    # CRAN's fs needs the libuv headers (Debian: libuv1-dev); without them it
    # builds its bundled copy
    if (!nzchar(Sys.getenv("USE_BUNDLED_LIBUV")) &&
        suppressWarnings(system2("pkg-config", c("--exists", "libuv"), stdout = FALSE, stderr = FALSE)) != 0) {
      Sys.setenv(USE_BUNDLED_LIBUV = "1")
    }
    ncpus <- as.integer(Sys.getenv("IRTOPICS_NCPUS", as.character(max(1L, min(4L, parallel::detectCores())))))
    message(sprintf("installing %d package(s) from CRAN into %s: %s", length(res$cran), lib,
                    paste(res$cran, collapse = " ")))
    utils::install.packages(res$cran, lib = lib, available = db[res$cran, , drop = FALSE],
                            dependencies = FALSE, Ncpus = ncpus, quiet = TRUE)
  } else {
    message("all ", nrow(needed(groups)), " required packages already load in suitable versions")
  }
  invisible(lib)
}

# Every needed package loads, in the version asked for (run in a fresh process).
verify <- function(groups) {
  reqs <- needed(groups)
  bad <- character()
  for (i in seq_len(nrow(reqs))) {
    p <- reqs$package[i]
    ok <- suppressWarnings(suppressMessages(requireNamespace(p, quietly = TRUE)))
    if (ok && !satisfies(as.character(utils::packageVersion(p)), reqs$op[i], reqs$version[i])) ok <- FALSE
    if (!ok) bad <- c(bad, p)
  }
  if (length(bad)) {
    message("these required packages do not load: ", paste(unique(bad), collapse = ", "))
    quit(status = 1)
  }
  message(sprintf("all %d required packages load", nrow(reqs)))
}

if (sys.nframe() == 0L) {
  args <- commandArgs(trailingOnly = TRUE)
  cmd <- if (length(args)) args[1] else "list"
  groups <- c("dev", args[-1])
  switch(cmd,
    list = writeLines(unique(needed(groups)$package)),
    install = install_needed(groups),
    verify = verify(groups),
    lib = writeLines(target_lib()),
    stop("unknown command ", cmd))
}
