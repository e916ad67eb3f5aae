test_that("every result class: print() is cat(format()), summary() and as.data.frame() work", {
  fx <- methods_fixtures()
  for (cls in names(fx)) {
    x <- fx[[cls]]
    expect_s3_class(x, cls)
    out <- capture.output(res <- print(x))
    expect_identical(res, x, info = cls)
    expect_identical(out, format(x), info = cls)
    expect_false(any(grepl("\\b0 more|\\b1 [a-z]+s\\b", out)), info = cls)
    s <- summary(x)
    expect_false(inherits(s, "table"), info = cls)
    expect_false(identical(colnames(s), c("Length", "Class", "Mode")), info = cls)
    expect_gt(length(capture.output(print(s))), 0)
    df <- as.data.frame(x)
    expect_true(is.data.frame(df), info = cls)
    expect_identical(class(df), "data.frame", info = cls)
  }
})

test_that("tibble::as_tibble() of an evaluation is its long form", {
  skip_if_not_installed("tibble")
  ev <- methods_fixtures()$ir_evaluation
  expect_identical(as.data.frame(tibble::as_tibble(ev)), as.data.frame(ev))
})

test_that("every result class (one per new_ir_*() constructor) has its methods and a fixture", {
  # The classes are derived from the constructors, not counted by hand: a new
  # class lacking a method, or a fixture here, fails below.
  ns <- asNamespace("irtopics")
  classes <- sub("^new_", "", ls(ns, pattern = "^new_ir_", all.names = TRUE))
  expect_gt(length(classes), 0L)
  s3 <- getNamespaceInfo(ns, "S3methods")
  with_method <- function(generic) unique(s3[s3[, 1] == generic & startsWith(s3[, 2], "ir_"), 2])
  expect_setequal(with_method("format"), classes)
  expect_setequal(with_method("print"), classes)
  # the context handed to indicator functions is no result: format/print only
  expect_setequal(with_method("summary"), setdiff(classes, "ir_indicator_context"))
  expect_setequal(with_method("as.data.frame"), setdiff(classes, "ir_indicator_context"))
  expect_setequal(names(class_fixtures()), classes)
})

test_that("every result class: constructor, ir_ prefix, format() lines, print() invisibly, one summary shape", {
  fx <- class_fixtures()
  ns <- asNamespace("irtopics")
  for (cls in names(fx)) {
    x <- fx[[cls]]
    expect_true(startsWith(cls, "ir_"), info = cls)
    expect_identical(class(x)[1], cls, info = cls)
    if (cls %in% names(renamed_classes)) {
      expect_identical(class(x)[2], renamed_classes[[cls]], info = cls)
    }
    ctor <- get0(paste0("new_", cls), envir = ns, inherits = FALSE)
    expect_true(is.function(ctor), info = cls)
    lines <- format(x)
    expect_type(lines, "character")
    expect_gt(length(lines), 0)
    expect_match(lines[1], paste0("<", cls, ">"), fixed = TRUE, info = cls)
    out <- capture.output(res <- withVisible(print(x)))
    expect_false(res$visible, info = cls)
    expect_identical(res$value, x, info = cls)
    expect_identical(out, lines, info = cls)
    if (cls == "ir_indicator_context") next  # passed to indicator functions; no summary
    s <- summary(x)
    expect_s3_class(s, "irtopics_summary")
    expect_identical(class(s)[1], paste0("summary.", cls), info = cls)
    expect_type(s$title, "character")
    expect_true(is.data.frame(s$table), info = cls)
    expect_identical(as.data.frame(s), s$table, info = cls)
    sl <- format(s)
    expect_type(sl, "character")
    out <- capture.output(res <- withVisible(print(s)))
    expect_false(res$visible, info = cls)
    expect_identical(out, sl, info = cls)
  }
})

test_that("no result class is set outside the constructors", {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src), "package sources not available")
  lines <- unlist(lapply(list.files(src, pattern = "[.]R$", full.names = TRUE), function(f) {
    l <- readLines(f, warn = FALSE)
    paste0(basename(f), ": ", l)
  }))
  code <- sub("#.*$", "", lines)
  # structure(..., class = "ir_...") or class(x) <- "ir_..." / c("ir_...", ...)
  set_class <- grepl("class\\s*=\\s*(c\\()?\"(ir_|summary[.]|irtopics_summary)", code) |
    grepl("class\\([^)]*\\)\\s*<-\\s*(c\\()?\"(ir_|summary[.])", code)
  expect_identical(lines[set_class], character())
})

test_that("no two files of R/ define a function of the same name (the later one would win silently)", {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src), "package sources not available")
  defs <- unlist(lapply(list.files(src, pattern = "[.]R$", full.names = TRUE), function(f) {
    l <- readLines(f, warn = FALSE)
    m <- regmatches(l, regexpr("^[A-Za-z_.][A-Za-z0-9_.]* (<-|=) function", l))
    sub(" .*$", "", m)
  }))
  expect_identical(defs[duplicated(defs)], character())
})

test_that("a shortened print says what was left out and how to see it", {
  expect_identical(irtopics:::more_line(system = 0), character())
  expect_identical(irtopics:::more_line(system = 104, topic = 1),
                   c("# ... 104 more systems, 1 more topic", "# as.data.frame() of this result has all of them"))
  x <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                   measure = "AP")
  out <- format(x)
  expect_true("# as.data.frame() of this result has all of them" %in% out)
  expect_identical(nrow(as.data.frame(x)), length(x))
})

test_that("format() and print() check n and digits of every class that takes them (issue 43)", {
  # before: base R's "invalid 'n'", "invalid format '%d'", "non-numeric argument"
  ap <- as_ir_scores(robust()[1:6, 1:30], measure = "AP")
  objs <- list(
    n = list(rank_intervals(ap, B = 50, seed = 1, progress = FALSE), risk_summary(ap, baseline = rownames(ap)[1]),
             ap, robust_summary(ap)),
    digits = list(mean_intervals(ap), summary(mean_intervals(ap)))
  )
  bad <- list(n = list(NA, -1, "a", 2.5, 1:2, NULL), digits = list(NA, "3", -1, 2.5, 99, NULL))
  for (arg in names(objs)) for (x in objs[[arg]]) for (v in bad[[arg]]) {
    args <- stats::setNames(list(x, v), c("x", arg))
    expect_error(do.call(format, args), class = "irtopics_error_argument", regexp = arg,
                 label = sprintf("format(<%s>, %s = %s)", class(x)[1], arg, deparse(v)))
    expect_error(utils::capture.output(do.call(print, args)), class = "irtopics_error_argument", regexp = arg)
  }
  # the edges are fine: n = 0 or Inf, digits 0 (1 where print() rounds) to 15
  expect_type(format(objs$n[[1]], n = 0), "character")
  expect_type(format(objs$n[[2]], n = Inf), "character")
  expect_type(format(objs$digits[[1]], digits = 0), "character")
  expect_error(format(objs$digits[[2]], digits = 0), class = "irtopics_error_argument")
  expect_type(format(objs$digits[[2]], digits = 15), "character")
})
