# Fixtures shared by tests that came from test-errors.R
# Values shown in messages (R/errors.R): a user's number or string as itself,
# anything larger by class and size, never printed whole.

big_scores <- function() {
  as_ir_scores(matrix(seq(0, 1, length.out = 600), 20, dimnames = list(paste0("s", 1:20), paste0("t", 1:30))),
               measure = "AP")
}

# Fixtures shared by tests that came from test-methods.R
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
      ir_smoothing = smoothing_experiment(ap[, 1:30], topics_per_set = 10, trials = 10, seed = 1),
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
      ir_pair_intervals = pair_intervals(compare_systems(small[1:3, ], test = "t")),
      ir_topic_set_size = topic_set_size(pilot = small, min_diff = 0.1),
      ir_discriminative_power = discriminative_power(list(AP = small, P10 = p10), B = 50, seed = 1),
      ir_collection_diagnostics = collection_diagnostics(list(AP = small, P10 = p10), B = 50, trials = 10,
                                                         seed = 1),
      ir_alpha_bootstrap = alpha_bootstrap(small, B = 50, seed = 1),
      ir_alpha_curve = alpha_curve(small, sizes = c(4, 8), trials = 10, seed = 1),
      ir_topics_needed = topics_needed(g_study(small)),
      ir_margin = fit_margin(small[1, ]),
      ir_measure_info = measure_info("P@10"),
      ir_test = registered_ir_test("wilcoxon"),
      ir_risk_summary = risk_summary(small[1:4, ], baseline = rownames(small)[4], alpha = c(0, 2)),
      ir_sim_model = (sm <- simulation_model(small, copulas = "basic", seed = 1)),
      ir_calibration = test_calibration(sm, n_topics = 6, delta = 0.05, trials = 40, B = 20, seed = 1,
                                        progress = FALSE),
      ir_pr_curve = pr_curve(system.file("extdata", "trec_eval-test", "results.test", package = "irtopics"),
                             system.file("extdata", "trec_eval-test", "qrels.test", package = "irtopics")),
      ir_indicator_context = seen,
      ir_meta_analysis = meta_analysis(list(first = small, second = p10), system = "sys1", baseline = "sys2"),
      ir_g_study_replicates = g_study_replicates(small, replicate = rep(c("a", "b", "c"), each = 2)),
      ir_reproduction = suppressWarnings(reproduction_measures(
        system.file("extdata", "trec_eval-test", "results.trunc", package = "irtopics"),
        system.file("extdata", "trec_eval-test", "results.test", package = "irtopics"),
        list(baseline = system.file("extdata", "trec_eval-test", "results.test", package = "irtopics"),
             advanced = system.file("extdata", "trec_eval-test", "results.trunc", package = "irtopics")),
        system.file("extdata", "trec_eval-test", "qrels.test", package = "irtopics"), cutoffs = c(5, 10)),
        classes = "irtopics_warning_undefined"),
      ir_mean_intervals = mean_intervals(small, interval = "bca", B = 1000, seed = 1),
      ir_rank_intervals = rank_intervals(small, B = 50, seed = 1),
      ir_tau_interval = tau_interval(small, small + p10 / 10, B = 50, seed = 1),
      ir_qrels_agreement = compare_qrels(
        read_qrels(system.file("extdata", "trec_eval-test", "qrels.rel_level", package = "irtopics")),
        noisy_labels(read_qrels(system.file("extdata", "trec_eval-test", "qrels.rel_level", package = "irtopics"))),
        B = 20, seed = 1),
      ir_assisted_means = (am <- assisted_means(small[1:4, 1:6], small[1:4, ] + 0.02 * sin(seq_len(48)),
                                                interval = "t")),
      ir_assisted_differences = assisted_differences(am),
      ir_assisted_ranks = assisted_ranks(am),
      ir_assisted_plan = assisted_plan(am, half_width = 0.1))
    cache
  }
})

# Every result class, named by its (ir_) class.
class_fixtures <- function() {
  fx <- c(methods_fixtures(), more_fixtures())
  names(fx) <- ifelse(startsWith(names(fx), "ir_"), names(fx), paste0("ir_", names(fx)))
  fx
}

# Fixtures shared by tests that came from test-plot-arguments.R
# Plot arguments are never ignored: point labels of the scatter plots,
# `systems` of the prediction plot, and `...` that would swallow typos.

robust_ap <- function() {
  read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
              measure = "AP")
}

# The label layer of a plot: the layer whose data has a `label` column.
label_data <- function(p) {
  for (i in seq_along(p$layers)) {
    d <- ggplot2::layer_data(p, i)
    if ("label" %in% names(d)) return(d[nzchar(d$label), , drop = FALSE])
  }
  NULL
}

# Fixtures shared by tests that came from test-utils-threads.R
# The chunk driver --------------------------------------------------------------

# Records the name of every cli progress bar started until the calling test
# ends (trace() on cli's function; the bars themselves are not shown).
record_progress_bars <- function(env = parent.frame()) {
  rec <- new.env()
  rec$labels <- character()
  suppressMessages(trace(cli::cli_progress_bar, where = asNamespace("cli"), print = FALSE,
                         tracer = bquote(assign("labels", c(get("labels", envir = .(rec)), name),
                                                envir = .(rec)))))
  withr::defer(suppressMessages(untrace(cli::cli_progress_bar, where = asNamespace("cli"))), envir = env)
  withr::local_options(cli.progress_show_after = Inf, .local_envir = env)
  rec
}

# Every line of the package's R/ sources, as "file: line" (`lines`), and its
# code without the file name and comments (`code`), for the tests that scan
# the sources for a forbidden call; skips where the sources are not beside
# the tests (an installed package).
package_source_lines <- function() {
  src <- test_path("..", "..", "R")
  skip_if_not(dir.exists(src), "package sources not available")
  lines <- unlist(lapply(list.files(src, pattern = "[.]R$", full.names = TRUE), function(f) {
    paste0(basename(f), ": ", readLines(f, warn = FALSE))
  }))
  list(lines = lines, code = sub("#.*$", "", sub("^[^:]*: ", "", lines)))
}
