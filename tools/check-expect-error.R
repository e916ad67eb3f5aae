# Fails when a test calls expect_error() without naming the condition class, so
# that any error (a typo, a base R error from a bug) would pass it (issue 26).
# Every expect_error() in tests/testthat/ names `class = "irtopics_error_<kind>"`
# (the generic "irtopics_error" is not specific enough), or asserts no error
# (`regexp = NA`), or is listed below: a base R error, checked by its message
# with a regexp. Calls are found with R's parser, so calls over several lines
# count. Base R only.
#
#   Rscript tools/check-expect-error.R              # scan tests/testthat/
#   Rscript tools/check-expect-error.R --self-test  # show that planted calls are caught
#
# A listed entry that matches no call any more is reported too, so the lists
# only shrink.

# Base R errors (not raised by irtopics), each checked by a message regexp:
# list(file, call) with the call's text, white space folded to one space.
base_r_errors <- list()

# Calls waiting for their class (another part of issue 26): none are left.
pending <- list()

# Every expect_error() call of a file: data.frame(file, line, call, verdict)
# with verdict "class", "no error", "generic class" or "unclassed".
expect_error_calls <- function(path) {
  pd <- utils::getParseData(parse(path, keep.source = TRUE), includeText = TRUE)
  fn <- pd[pd$token == "SYMBOL_FUNCTION_CALL" & pd$text == "expect_error", , drop = FALSE]
  rows <- lapply(seq_len(nrow(fn)), function(i) {
    # the name's expression (expect_error or testthat::expect_error), then the call
    call_id <- pd$parent[pd$id == fn$parent[i]]
    text <- pd$text[pd$id == call_id]
    args <- as.list(str2lang(text))[-1]
    nm <- names(args) %||% rep("", length(args))
    unnamed <- which(!nzchar(nm))
    regexp <- if ("regexp" %in% nm) args[["regexp"]] else if (length(unnamed) >= 2) args[[unnamed[2]]]
    cls <- args[["class"]]
    verdict <- if (!is.null(cls)) {
      if (identical(cls, "irtopics_error")) "generic class" else "class"
    } else if (identical(regexp, NA)) "no error" else "unclassed"
    data.frame(file = basename(path), line = pd$line1[pd$id == call_id],
               call = gsub("\\s+", " ", text), verdict = verdict)
  })
  do.call(rbind, c(list(data.frame(file = character(), line = integer(), call = character(),
                                   verdict = character())), rows))
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# The offending calls of a test folder, and the listed entries that match none.
check_dir <- function(dir = file.path("tests", "testthat"), listed = c(base_r_errors, pending)) {
  files <- list.files(dir, pattern = "^(test|helper)-.*[.][Rr]$", full.names = TRUE)
  calls <- do.call(rbind, lapply(files, expect_error_calls))
  key <- function(file, call) paste(file, call, sep = ": ")
  listed_keys <- vapply(listed, function(e) key(e[[1]], e[[2]]), "")
  bad <- calls[calls$verdict %in% c("unclassed", "generic class"), , drop = FALSE]
  in_list <- key(bad$file, bad$call) %in% listed_keys
  list(calls = calls, bad = bad[!in_list, , drop = FALSE],
       stale = setdiff(listed_keys, key(bad$file, bad$call)))
}

report <- function(res) {
  ok <- TRUE
  if (nrow(res$bad)) {
    message("expect_error() calls that do not name the condition class (add class = \"irtopics_error_<kind>\"; ",
            "a base R error: a message regexp and an entry in tools/check-expect-error.R's base_r_errors):")
    message(paste(sprintf("  %s:%d (%s) %s", res$bad$file, res$bad$line, res$bad$verdict,
                          substr(res$bad$call, 1, 120)), collapse = "\n"))
    ok <- FALSE
  }
  if (length(res$stale)) {
    message("entries of tools/check-expect-error.R that match no unclassed call any more (delete them):")
    message(paste0("  ", res$stale, collapse = "\n"))
    ok <- FALSE
  }
  ok
}

self_test <- function() {
  root <- tempfile("check-expect-error-")
  dir.create(root)
  writeLines(c('test_that("planted", {',
               '  expect_error(stop("a"))',                                      # caught
               '  expect_error(f(1,',
               '                 2), "message only")',                           # caught, two lines
               '  expect_error(g(), class = "irtopics_error")',                  # caught: generic
               '  expect_error(h(), "x", class = "irtopics_error_argument")',    # fine
               '  testthat::expect_error(',
               '    k(), class = "irtopics_error_data")',                        # fine
               '  expect_error(ok(), NA)',                                       # fine: no error
               '  expect_error(log(-1:"a"), "non-numeric")',                     # fine: listed
               '})'), file.path(root, "test-planted.R"))
  listed <- list(list("test-planted.R", "expect_error(log(-1:\"a\"), \"non-numeric\")"),
                 list("test-planted.R", "expect_error(gone())"))
  res <- check_dir(root, listed)
  unlink(root, recursive = TRUE)
  if (!identical(res$bad$line, c(2L, 3L, 5L)) || nrow(res$calls) != 7L ||
      !identical(res$stale, "test-planted.R: expect_error(gone())")) {
    message("self-test FAILED: expected lines 2, 3 and 5 and one stale entry; found lines ",
            paste(res$bad$line, collapse = ", "), " and stale: ", paste(res$stale, collapse = ", "))
    quit(status = 1)
  }
  message("self-test: the 3 planted calls without a specific class and the stale entry were caught")
}

if (sys.nframe() == 0L) {
  if ("--self-test" %in% commandArgs(trailingOnly = TRUE)) {
    self_test()
  } else {
    res <- check_dir()
    if (!report(res)) quit(status = 1)
    n <- table(factor(res$calls$verdict, c("class", "no error", "unclassed", "generic class")))
    message(sprintf(paste("check-expect-error: %d expect_error() calls in tests/testthat: %d name the class,",
                          "%d assert no error, %d listed (%d base R, %d pending other parts of issue 26)"),
                    nrow(res$calls), n[["class"]], n[["no error"]], n[["unclassed"]] + n[["generic class"]],
                    length(base_r_errors), length(pending)))
  }
}
