# The rules every result class follows (R/utils-methods.R): one constructor
# new_<class>() that checks the fields and is the only place the class is
# set, the ir_ prefix (renamed classes keep their old name second), format()
# giving character lines, print() = cat(format(x)) returning x invisibly, and
# summary() giving an irtopics_summary.

# The classes renamed to the ir_ prefix and their old names.
renamed_classes <- c(ir_critical_values = "critical_values", ir_d_study = "d_study", ir_g_study = "g_study",
                     ir_group_agreement = "group_agreement", ir_prediction_curves = "prediction_curves",
                     ir_robust_summary = "robust_summary", ir_swap_error_rates = "swap_error_rates")

class_fixtures <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    ex <- function(...) system.file("extdata", ..., package = "irtopics")
    ap <- read_scores(ex("score-matrices", "adhoc3.csv"), measure = "AP")
    small <- ap[1:6, 1:12]
    te <- ex("trec_eval-test")
    sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300, depth = 200, seed = 3)
    ro <- return_orders(sim$runs, sim$qrels, sim$query_map, depth = 200)
    seen <- NULL
    ind <- topic_indicators(ro, n = 4, indicators = list(grab = function(context) {
      if (is.null(seen)) seen <<- context
      0
    }))
    d <- return_order_dissimilarity(ro, topic = "sim01")
    err <- swap_error_rates(small, sizes = c(3, 6), trials = 20, seed = 1)
    pred <- matrix(rank(-colMeans(small), ties.method = "first"), nrow(small), ncol(small),
                   byrow = TRUE, dimnames = dimnames(small))
    prior <- ap[1:6, 13:24]
    g <- g_study(ap)
    p10 <- ap[1:6, 13:24]
    colnames(p10) <- colnames(small)
    fx <- list(
      ir_scores = small,
      ir_evaluation = evaluate(file.path(te, "results.test"), file.path(te, "qrels.test"), measures = c("AP", "P@10")),
      ir_qrels = read_qrels(file.path(te, "qrels.test")),
      ir_run = read_run(file.path(te, "results.test")),
      ir_runs = read_runs(te, pattern = "^results\\.test$"),
      ir_anova = anova_scores(small),
      ir_comparison = compare_systems(small[1:3, ], test = "t"),
      ir_topic_set_size = topic_set_size(pilot = small, min_diff = 0.1),
      ir_discriminative_power = discriminative_power(list(AP = small, P10 = p10), B = 50, seed = 1),
      ir_collection_diagnostics = collection_diagnostics(list(AP = small, P10 = p10), B = 50, trials = 10,
                                                         seed = 1),
      ir_alpha_bootstrap = alpha_bootstrap(small, B = 50, seed = 1),
      ir_alpha_curve = alpha_curve(small, sizes = c(4, 8), trials = 10, seed = 1),
      ir_robust_summary = robust_summary(small),
      ir_prediction_curves = prediction_curves(small, pred),
      ir_swap_error_rates = err,
      ir_critical_values = critical_values(err),
      ir_group_agreement = group_agreement(ap),
      ir_g_study = g,
      ir_d_study = d_study(g, c(10, 50)),
      ir_gawm = gawm(small),
      ir_hits = hits(small),
      ir_weighting_correlations = weighting_correlations(list(a = small, b = ap[7:14, ])),
      ir_smoothed = smooth_scores(ap[1:6, 25:36], prior, lambda = 0.8),
      ir_smoothing = smoothing_experiment(ap[, 1:30], topics_per_set = 10, reps = 5, seed = 1),
      ir_simulated_query_runs = sim,
      ir_return_orders = ro,
      ir_exclusion = exclusion_measure(ro),
      ir_return_order_dist = d,
      ir_query_selection = select_queries(ro, n = 4),
      ir_topic_indicators = ind,
      ir_indicator_context = seen,
      ir_indicator_differences = indicator_differences(ind, "sim_w3", "sim_w0.5"),
      ir_query_map = query_map_mds(d))
    cache <<- fx
    cache
  }
})

test_that("the fixtures cover every class with a registered format() method", {
  s3 <- getNamespaceInfo(asNamespace("irtopics"), "S3methods")
  with_format <- unique(s3[s3[, 1] == "format", 2])
  with_format <- with_format[!startsWith(with_format, "summary.") & with_format != "irtopics_summary"]
  expect_setequal(names(class_fixtures()), with_format)
  expect_length(with_format, 33L)
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

test_that("constructors refuse malformed fields with irtopics_error_internal", {
  ns <- asNamespace("irtopics")
  fx <- class_fixtures()
  a <- unclass(fx$ir_anova)
  expect_s3_class(ns$new_ir_anova(a), "ir_anova")
  bad <- a
  bad$table <- "not a table"
  expect_error(ns$new_ir_anova(bad), class = "irtopics_error_internal")
  expect_error(ns$new_ir_anova(a[names(a) != "residual_df"]), "residual_df", class = "irtopics_error_internal")
  e <- unclass(fx$ir_swap_error_rates)
  expect_error(ns$new_ir_swap_error_rates(error = "x", sets = NULL, measure = "MAP", aggregate = "mean",
                                          sizes = 3, trials = 2, fuzz = 0.05, seed = 1, n_topics = 6,
                                          n_systems = 3),
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_swap_error_rates(error = e$error, sets = NULL, measure = c("a", "b"), aggregate = "mean",
                                          sizes = 3, trials = 2, fuzz = 0.05, seed = 1, n_topics = 6,
                                          n_systems = 3),
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_runs(list(1)), class = "irtopics_error_internal")
  expect_error(ns$new_ir_evaluation(list(AP = matrix(1))), class = "irtopics_error_internal")
  expect_error(ns$new_ir_qrels(data.frame(topic = 1, docno = "d", rel = 1)), "topic",
               class = "irtopics_error_internal")
  expect_error(ns$new_ir_scores(matrix(1, dimnames = list("s", "t")), measure = 2),
               class = "irtopics_error_internal")
  expect_error(ns$new_summary("ir_anova", "title", table = 1:3), class = "irtopics_error_internal")
})

test_that("ir_runs has one shape: a list of ir_run named by system", {
  te <- system.file("extdata", "trec_eval-test", package = "irtopics")
  one <- read_run(file.path(te, "results.test"))
  runs <- irtopics:::new_ir_runs(list(one))
  expect_identical(names(runs), one$system)
  expect_identical(runs, read_runs(te, pattern = "^results\\.test$"))
  expect_identical(as.data.frame(summary(one)), as.data.frame(summary(runs)))
})

test_that("swap_error_rates() and bind_error_rates() give one shape", {
  ap <- class_fixtures()$ir_scores
  a <- swap_error_rates(ap, sizes = 3, trials = 5, seed = 1)
  b <- bind_error_rates(a, swap_error_rates(ap, sizes = 3, trials = 5, seed = 1, aggregate = "gmean"))
  expect_identical(names(a), names(b))
  expect_identical(class(a), class(b))
  expect_identical(class(a), c("ir_swap_error_rates", "swap_error_rates"))
  # users' code on the old class name keeps working
  expect_true(inherits(b, "swap_error_rates"))
  expect_s3_class(critical_values(a), "critical_values")
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
