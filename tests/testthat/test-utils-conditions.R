# The one route of a C++ error to R: src/errors.h (typed errors), guard() in
# src/glue_guard.h (the adapter), stop_from_cpp() in R/utils-conditions.R.
# cpp_throw_test() (src/glue_errors.cpp) throws each kind of C++ error through
# the real adapter.

throw_cpp <- function(what, kind = "", message = "it went wrong", file = "", line = 0) {
  cpp_throw_test(what, kind, message, file, line)
}

test_that("every kind of irtopics::Error becomes irtopics_error_<kind> with its message", {
  for (kind in setdiff(cpp_error_kinds, "memory")) {
    err <- expect_error(throw_cpp("error", kind, "the thing is broken"),
                        class = paste0("irtopics_error_", kind))
    expect_s3_class(err, "irtopics_error")
    expect_match(conditionMessage(err), "[Tt]he thing is broken")
  }
  expect_error(throw_cpp("error", "memory"), "Can't allocate", class = "irtopics_error_memory")
  # an unknown kind name is a bug in the thrower, not lost
  expect_error(throw_cpp("error", "no-such-kind"), "bug", class = "irtopics_error_internal")
})

test_that("file and line of a C++ input error reach the condition and its message", {
  for (what in c("error", "input")) {
    err <- expect_error(throw_cpp(what, "parse", "the score must be a number", "runs/r1.txt", 7),
                        class = "irtopics_error_parse")
    expect_identical(err$file, "runs/r1.txt")
    expect_identical(err$line, 7)
    expect_match(conditionMessage(err), "Can't read 'runs/r1.txt'", fixed = TRUE)
    expect_match(conditionMessage(err), "Line 7: the score must be a number.", fixed = TRUE)
  }
  err <- expect_error(throw_cpp("input", "duplicate", "docno d1 repeated in topic 301", "q.txt", 12),
                      class = "irtopics_error_duplicate")
  expect_match(conditionMessage(err), "Duplicate document in 'q.txt'", fixed = TRUE)
  expect_match(conditionMessage(err), "Line 12", fixed = TRUE)
  # braces in a message are text, not cli markup
  expect_error(throw_cpp("error", "data", "a {curly} field"), "a {curly} field", fixed = TRUE,
               class = "irtopics_error_data")
})

test_that("standard C++ exceptions map to argument, memory and internal", {
  err <- expect_error(throw_cpp("invalid_argument", message = "`n` must be non-negative"),
                      class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "`n` must be non-negative.", fixed = TRUE)
  expect_error(throw_cpp("bad_alloc"), "Can't allocate the memory", class = "irtopics_error_memory")
  expect_error(throw_cpp("length_error", message = "vector"), "Can't allocate the memory",
               class = "irtopics_error_memory")
  err <- expect_error(throw_cpp("runtime_error", message = "an invariant broke"),
                      class = "irtopics_error_internal")
  expect_match(conditionMessage(err), "an invariant broke", fixed = TRUE)
  # nothing thrown: the value comes back
  expect_identical(throw_cpp("nothing"), 0L)
})

test_that("a C++ error names the user's call, else the cpp_*() wrapper", {
  err <- expect_error(throw_cpp("invalid_argument"), class = "irtopics_error_argument")
  expect_identical(as.character(err$call[[1]]), "cpp_throw_test")
  bad <- withr::local_tempfile(lines = c("301 Q0 d1 1 0.5 t", "301 Q0 d2 2 x t"))
  err <- expect_error(read_run(bad), class = "irtopics_error_parse")
  expect_identical(as.character(err$call[[1]]), "read_run")
  expect_identical(err$line, 2)
})

# Source checks: they need the package's src/ (a source tree; skipped on an
# installed copy).
glue_sources <- function() {
  src <- test_path("..", "..", "src")
  skip_if_not(dir.exists(src) && file.exists(file.path(src, "glue_guard.h")), "no package source")
  files <- list.files(src, pattern = "\\.(cpp|h)$", full.names = TRUE)
  files[basename(files) != "RcppExports.cpp"]
}

# A file's code without its // comments.
code_lines <- function(path) sub("//.*$", "", readLines(path, warn = FALSE))

test_that("src/ has no other route: no Rcpp::stop, Rf_error or error returned as data", {
  for (f in glue_sources()) {
    code <- code_lines(f)
    hits <- grep("\\bstop\\s*\\(|\\bRf_error(call)?\\s*\\(|\\[\"error\"\\]", code)
    expect_identical(hits, integer(), label = paste(basename(f), "lines", paste(hits, collapse = ", ")))
  }
})

test_that("every exported glue function runs its body inside guard()", {
  for (f in grep("/glue_[^/]*\\.cpp$", glue_sources(), value = TRUE)) {
    code <- code_lines(f)
    starts <- grep("\\[\\[Rcpp::export", readLines(f, warn = FALSE))
    for (s in starts) {
      # the function's text: from its signature to the first line "}" at column 0
      end <- s + which(code[-seq_len(s)] == "}")[1]
      body <- paste(code[s:end], collapse = "\n")
      name <- regmatches(body, regexpr("cpp_[A-Za-z0-9_]+", body))
      expect_match(body, "irtopics_glue::guard(", fixed = TRUE, label = paste(basename(f), name))
    }
  }
})

test_that("every message of R/ goes through inform_irtopics() (classed irtopics_message_<kind>)", {
  src <- package_source_lines()
  lines <- src$lines
  code <- src$code
  direct <- grepl("cli_inform\\(|cli_alert[a-z_]*\\(|rlang::inform\\(|(^|[^A-Za-z0-9_.])message\\(", code)
  # the helper itself is the one caller of cli_inform()
  own <- grepl("^utils-conditions[.]R: ", lines) & grepl("cli::cli_inform(message, class", code, fixed = TRUE)
  expect_identical(lines[direct & !own], character())
  msg <- expect_message(irtopics:::inform_irtopics("Drawing {1 + 1} systems.", kind = "layout"),
                        "Drawing 2 systems", class = "irtopics_message_layout")
  expect_s3_class(msg, "irtopics_message")
})
