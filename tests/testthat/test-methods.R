# Every result class prints as cat(format(x)), has a summary() that is not
# base R's Length/Class/Mode table, and converts with as.data.frame().

methods_fixtures <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    ex <- function(...) system.file("extdata", ..., package = "irtopics")
    ap <- read_scores(ex("score-matrices", "adhoc3.csv"), measure = "AP")
    small <- ap[1:6, 1:12]
    te <- ex("trec_eval-test")
    sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300,
                               depth = 200, seed = 3)
    ro <- return_orders(sim$runs, sim$qrels, sim$query_map, depth = 200)
    ind <- topic_indicators(ro, n = 4)
    d <- return_order_dissimilarity(ro, topic = "sim01")
    err <- swap_error_rates(small, sizes = c(3, 6), trials = 20, seed = 1)
    # every run predicts the topics' difficulty by their mean AP over all systems
    pred <- matrix(rank(-colMeans(small), ties.method = "first"), nrow(small), ncol(small),
                   byrow = TRUE, dimnames = dimnames(small))
    prior <- ap[1:6, 13:24]
    prior[1:3, 1:6] <- NA
    g <- g_study(ap)
    fx <- list(
      ir_scores = small,
      ir_evaluation = evaluate(file.path(te, "results.test"), file.path(te, "qrels.test"),
                               measures = c("AP", "P@10")),
      ir_qrels = read_qrels(file.path(te, "qrels.test")),
      ir_run = read_run(file.path(te, "results.test")),
      ir_runs = structure(list(full = read_run(file.path(te, "results.test")),
                               trunc = read_run(file.path(te, "results.trunc"))), class = "ir_runs"),
      ir_anova = anova_scores(small),
      robust_summary = robust_summary(small),
      prediction_curves = prediction_curves(small, pred),
      swap_error_rates = err,
      critical_values = critical_values(err),
      group_agreement = group_agreement(ap),
      g_study = g,
      d_study = d_study(g, c(10, 50, 100)),
      ir_gawm = gawm(small),
      ir_hits = hits(small),
      ir_weighting_correlations = weighting_correlations(list(a = small, b = ap[7:14, ])),
      ir_smoothed = smooth_scores(ap[1:6, 25:36], prior, lambda = 0.8),
      ir_smoothing = smoothing_experiment(ap[, 1:30], topics_per_set = 10, reps = 10, seed = 1),
      ir_simulated_query_runs = sim,
      ir_return_orders = ro,
      ir_exclusion = exclusion_measure(ro),
      ir_return_order_dist = d,
      ir_query_selection = select_queries(ro, n = 4),
      ir_topic_indicators = ind,
      ir_indicator_differences = indicator_differences(ind, "sim_w3", "sim_w0.5"),
      ir_query_map = query_map_mds(d))
    fx$ir_runs$trunc$system <- "STANDARD_trunc"
    cache <<- fx
    cache
  }
})

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

test_that("printed forms", {
  fx <- methods_fixtures()
  for (cls in c("ir_qrels", "ir_run", "ir_runs", "swap_error_rates", "critical_values",
                "robust_summary", "prediction_curves", "g_study", "ir_smoothed")) {
    expect_snapshot(print(fx[[cls]]))
  }
  expect_snapshot(print(summary(fx$g_study)))
  expect_snapshot(print(summary(fx$swap_error_rates)))
})

test_that("error and tie rates are percentages in prints, proportions in the data", {
  fx <- methods_fixtures()
  e <- fx$swap_error_rates
  lines <- format(e)
  for (k in seq_len(nrow(e$error))) {
    expect_true(any(grepl(sprintf("%.2f%%", 100 * e$error$error_rate[k]), lines, fixed = TRUE)))
    expect_true(any(grepl(sprintf("%.2f%%", 100 * e$error$tie_rate[k]), lines, fixed = TRUE)))
  }
  expect_true(all(as.data.frame(e)$error_rate <= 1))
  cv <- fx$critical_values
  ok <- !is.na(cv$table$error_rate)
  if (any(ok)) {
    expect_true(any(grepl(sprintf("%.2f%%", 100 * cv$table$error_rate[ok][1]), format(cv), fixed = TRUE)))
  }
  expect_match(format(cv)[1], "error <= 5.0%", fixed = TRUE)
})

test_that("the new summaries agree with direct computations", {
  fx <- methods_fixtures()
  # qrels: judgements per topic against table()
  q <- as.data.frame(fx$ir_qrels)
  s <- as.data.frame(summary(fx$ir_qrels))
  expect_identical(s$relevant, as.vector(table(factor(q$topic, levels = s$topic)[q$rel > 0])))
  expect_identical(sum(s$judged) + sum(s$unjudged), nrow(q))
  # runs: lines per topic from the long form
  r <- as.data.frame(fx$ir_runs)
  s <- as.data.frame(summary(fx$ir_runs))
  per <- table(r$system, r$topic)
  expect_identical(s$lines, as.vector(table(r$system)[s$system]))
  expect_equal(s$max_per_topic, unname(apply(per, 1, function(v) max(v[v > 0])))[match(s$system, rownames(per))])
  # g_study: the topics needed reach the target in d_study() and one fewer does not
  gs <- as.data.frame(summary(fx$g_study))
  n80 <- gs$topics_for_0.80[1]
  dd <- d_study(fx$g_study, c(n80 - 1, n80))
  expect_lt(dd$Erho2[1], 0.8)
  expect_gte(dd$Erho2[2], 0.8)
  n95 <- gs$topics_for_0.95[2]
  dd <- d_study(fx$g_study, c(n95 - 1, n95))
  expect_lt(dd$Phi[1], 0.95)
  expect_gte(dd$Phi[2], 0.95)
  # return orders: the long form holds every position of the matrices
  ro <- fx$ir_return_orders
  lf <- as.data.frame(ro)
  m <- ro$orders[["sim02"]]
  sub <- lf[lf$topic == "sim02" & lf$list == colnames(m)[3], ]
  expect_identical(sub$docno, rownames(m))
  expect_identical(sub$position, unname(ifelse(m[, 3] > ro$depth, NA_integer_, m[, 3])))
  s <- as.data.frame(summary(ro))
  expect_identical(s$max_returned, unname(vapply(ro$orders, function(m) max(colSums(m <= ro$depth)), 0)))
  # dist: one row per pair, the values of as.matrix()
  d <- fx$ir_return_order_dist
  dl <- as.data.frame(d)
  expect_identical(nrow(dl), length(d))
  mm <- as.matrix(d)
  expect_identical(dl$dissimilarity, mm[cbind(dl$list1, dl$list2)])
  # swap summary: the error at the largest size
  e <- fx$swap_error_rates
  se <- as.data.frame(summary(e))
  expect_identical(se$error_largest, sprintf("%.2f%%", 100 * e$error$error_rate[which.max(e$error$size)]))
  # weighting correlations: the range over the collections
  wc <- fx$ir_weighting_correlations
  sw <- as.data.frame(summary(wc))
  expect_equal(sw$max[1], max(wc$MAP_E_s))
  expect_equal(sw$min[4], min(wc$AAP_A_t))
  # smoothed: rank changes between the new and smoothed means
  sm <- fx$ir_smoothed
  ss <- as.data.frame(summary(sm))
  expect_equal(ss$max_abs_shift, max(abs(sm$means$smoothed_mean - sm$means$new_mean)))
  expect_identical(ss$with_prior, sum(!is.na(sm$means$prior_mean)))
})

test_that("tibble::as_tibble() of an evaluation is its long form", {
  skip_if_not_installed("tibble")
  ev <- methods_fixtures()$ir_evaluation
  expect_identical(as.data.frame(tibble::as_tibble(ev)), as.data.frame(ev))
})

test_that("one system, one topic, one run: singular words and no '0 more' lines", {
  one <- as_ir_scores(matrix(0.5, 1, 1, dimnames = list("s1", "t1")), measure = "AP")
  expect_identical(format(one)[1], "<ir_scores> AP: 1 system x 1 topic, mean 0.5000")
  expect_length(format(one), 3L)
  te <- system.file("extdata", "trec_eval-test", package = "irtopics")
  runs <- read_runs(te, pattern = "^results\\.test$")
  expect_identical(format(runs)[1], "<ir_runs> 1 run")
  ev <- evaluate(runs, file.path(te, "qrels.test"), measures = "AP")
  expect_match(format(ev)[1], "1 system x 3 topics, 1 measure ", fixed = TRUE)
  rs <- robust_summary(matrix(c(.1, .2, .3, .4), 1, dimnames = list("s1", paste0("t", 1:4))))
  expect_match(format(rs)[2], "Top 1 system by MAP", fixed = TRUE)
  for (x in list(one, runs, ev, rs)) {
    expect_false(any(grepl("\\b0 more|\\b1 [a-z]+s\\b", format(x))))
  }
})

# The rules every result class follows (R/utils-methods.R): one constructor
# new_<class>() that checks the fields and is the only place the class is
# set, the ir_ prefix (renamed classes keep their old name second), format()
# giving character lines, print() = cat(format(x)) returning x invisibly, and
# summary() giving an irtopics_summary.

# The classes renamed to the ir_ prefix and their old names.
renamed_classes <- c(ir_critical_values = "critical_values", ir_d_study = "d_study", ir_g_study = "g_study",
                     ir_group_agreement = "group_agreement", ir_prediction_curves = "prediction_curves",
                     ir_robust_summary = "robust_summary", ir_swap_error_rates = "swap_error_rates")

# The classes test-methods' fixtures above do not have (from the same data).
more_fixtures <- local({
  cache <- NULL
  function() {
    if (!is.null(cache)) return(cache)
    ap <- read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"),
                      measure = "AP")
    small <- ap[1:6, 1:12]
    p10 <- ap[1:6, 13:24]
    colnames(p10) <- colnames(small)
    sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 6, n_docs = 300, depth = 200, seed = 3)
    seen <- NULL
    topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 4, depth = 200,
                     indicators = list(grab = function(context) {
                       if (is.null(seen)) seen <<- context
                       0
                     }))
    cache <<- list(
      ir_comparison = compare_systems(small[1:3, ], test = "t"),
      ir_topic_set_size = topic_set_size(pilot = small, min_diff = 0.1),
      ir_discriminative_power = discriminative_power(list(AP = small, P10 = p10), B = 50, seed = 1),
      ir_collection_diagnostics = collection_diagnostics(list(AP = small, P10 = p10), B = 50, trials = 10,
                                                         seed = 1),
      ir_alpha_bootstrap = alpha_bootstrap(small, B = 50, seed = 1),
      ir_alpha_curve = alpha_curve(small, sizes = c(4, 8), trials = 10, seed = 1),
      ir_topics_needed = topics_needed(g_study(small)),
      ir_pr_curve = pr_curve(system.file("extdata", "trec_eval-test", "results.test", package = "irtopics"),
                             system.file("extdata", "trec_eval-test", "qrels.test", package = "irtopics")),
      ir_indicator_context = seen)
    cache
  }
})

# Every result class, named by its (ir_) class.
class_fixtures <- function() {
  fx <- c(methods_fixtures(), more_fixtures())
  names(fx) <- ifelse(startsWith(names(fx), "ir_"), names(fx), paste0("ir_", names(fx)))
  fx
}

test_that("the fixtures cover every class with a registered format() method", {
  s3 <- getNamespaceInfo(asNamespace("irtopics"), "S3methods")
  with_format <- unique(s3[s3[, 1] == "format", 2])
  with_format <- with_format[!startsWith(with_format, "summary.") & with_format != "irtopics_summary"]
  expect_setequal(names(class_fixtures()), with_format)
  expect_length(with_format, 35L)
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
