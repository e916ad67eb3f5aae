# simulation_model() and simulate_scores(): preparation, the fitted pieces,
# what the simulated matrices reproduce, methods, plots and errors.

sim_fixture <- function() {
  if (is.null(sim_cache$model)) {
    ap <- real_scores("adhoc7_ap.csv")
    sim_cache$ap <- ap[1:30, ]
    sim_cache$model <- simulation_model(sim_cache$ap, seed = 3)
  }
  sim_cache
}
sim_cache <- new.env()

test_that("preparation drops duplicates and the bottom 10% by mean, as the 2019 study does", {
  ap <- unclass(real_scores("adhoc7_ap.csv"))[1:20, ]
  attr(ap, "measure") <- NULL
  ap <- rbind(ap, dup = ap[3, ] + 1e-6)
  model <- simulation_model(as_ir_scores(ap, measure = "AP"), copulas = "basic", seed = 1)
  col <- model$collections[[1]]
  expect_equal(col$dropped$system[col$dropped$reason == "duplicate"], "dup")
  mu <- rowMeans(ap[rownames(ap) != "dup", ])
  low <- names(mu)[mu < quantile(mu, 0.1)]
  expect_setequal(col$dropped$system[col$dropped$reason == "bottom"], low)
  expect_setequal(col$systems, setdiff(rownames(ap), c("dup", low)))
  # pseudo-observations: ranks / (n + 1) with ties broken at random, fixed by the seed
  pobs <- col$pobs
  expect_true(all(apply(round(pobs * (nrow(pobs) + 1)), 2, function(r) setequal(r, seq_len(nrow(pobs))))))
  x <- col$scores[5, ]
  expect_true(all(diff(x[order(pobs[, 5])]) >= 0))
  # (with the progress bar of the margin fits: the same model)
  again <- withr::with_options(list(irtopics.progress = TRUE),
                               simulation_model(as_ir_scores(ap, measure = "AP"), copulas = "basic", seed = 1))
  expect_identical(again$collections[[1]]$pobs, pobs)
  expect_identical(again$collections[[1]]$copulas, col$copulas)
  # one copula per pair, in the row-wise upper triangle; AIC = -2 loglik + 2 k
  m <- length(col$systems)
  expect_equal(nrow(col$copulas), m * (m - 1) / 2)
  expect_equal(col$copulas$system1[m], col$systems[2])
  k <- ifelse(col$copulas$family == 0, 0, ifelse(col$copulas$family == 2, 2, 1))
  expect_equal(col$copulas$aic, -2 * col$copulas$loglik + 2 * k, tolerance = 1e-10)
  expect_true(all(col$copulas$family %in% copula_set("basic")))
  # the empirical tau is Kendall's tau of the pseudo-observations (= of the scores)
  expect_equal(col$copulas$tau_empirical[1],
               cor(pobs[, col$copulas$system1[1]], pobs[, col$copulas$system2[1]], method = "kendall"),
               tolerance = 1e-12)
})

test_that("the study's families by default: the Tawn and BB copulas are candidates", {
  fx <- sim_fixture()
  cops <- fx$model$collections[[1]]$copulas
  expect_identical(fx$model$copula_families, copula_set("study2019"))
  expect_identical(fx$model$margin_families, margin_family_names("continuous", "default"))
  expect_true(all(cops$family %in% copula_set("study2019")))
  expect_true(any(cops$family %in% c(104, 114, 204, 214, 7:10, 17:20)))
  # the chosen copula has the lowest AIC among the basic ones too
  basic <- simulation_model(fx$ap, copulas = "basic", seed = 3)$collections[[1]]$copulas
  expect_true(all(cops$aic <= basic$aic + 1e-8))
})

test_that("defaults name their sets: a margin family registered in no set changes no model (issue 42)", {
  ap <- real_scores("adhoc7_ap.csv")[1:6, ]
  fit <- function() simulation_model(ap, copulas = "basic", seed = 1)
  before <- fit()
  local({
    local_toy_margin()
    after <- fit()
    expect_identical(after$margin_families, before$margin_families)
    expect_identical(lapply(after$collections[[1]]$margins, `[[`, "candidates"),
                     lapply(before$collections[[1]]$margins, `[[`, "candidates"))
    mine <- simulation_model(ap, margins = c("beta", "toy_power"), copulas = "basic", seed = 1)
    expect_identical(mine$margin_families, c("beta", "toy_power"))
    expect_true(all(vapply(mine$collections[[1]]$margins, `[[`, "", "family") %in% c("beta", "toy_power")))
  })
  expect_identical(simulation_model(ap, margins = NULL, copulas = "basic", seed = 1)$margin_families,
                   before$margin_families)
  study <- simulation_model(ap, margins = "study2019", copulas = "basic", seed = 1)
  expect_identical(study$margin_families, margin_family_names("continuous", "study2019"))
  expect_error(simulation_model(ap, margins = "gamma"), class = "irtopics_error_argument", regexp = "margins")
})

test_that("simulated matrices follow each system's margin and each adjacent pair's copula", {
  fx <- sim_fixture()
  col <- fx$model$collections[[1]]
  sys <- col$systems[c(4, 9, 2)]
  sim <- simulate_scores(fx$model, 3000, systems = sys, seed = 11)
  expect_s3_class(sim, "ir_scores")
  expect_identical(dim(sim), c(3L, 3000L))
  expect_identical(rownames(sim), sys)
  expect_identical(attr(sim, "measure"), "AP")
  for (s in sys) {
    expect_gt(suppressWarnings(ks.test(sim[s, ], function(q) pmargin(q, col$margins[[s]])))$p.value, 0.001)
  }
  # adjacent pairs keep their fitted Kendall tau (SE of tau from 3000 pairs < 0.015)
  for (k in 1:2) {
    cop <- pair_row(col, sys[k], sys[k + 1])
    expect_lt(abs(cor(sim[k, ], sim[k + 1, ], method = "kendall") - cop$tau), 0.05)
  }
  # the same seed gives the same matrix
  expect_identical(simulate_scores(fx$model, 3000, systems = sys, seed = 11), sim)
  # a single system, and one topic
  one <- simulate_scores(fx$model, 1, systems = sys[1], seed = 2)
  expect_identical(dim(one), c(1L, 1L))
})

test_that("a pair simulated in either order has the same joint distribution", {
  fx <- sim_fixture()
  col <- fx$model$collections[[1]]
  cops <- col$copulas
  asym <- cops[grepl("Tawn", cops$copula), ]
  skip_if(!nrow(asym), "no Tawn copula fitted")
  a <- asym$system1[1]
  b <- asym$system2[1]
  ab <- simulate_scores(fx$model, 20000, systems = c(a, b), seed = 5)
  ba <- simulate_scores(fx$model, 20000, systems = c(b, a), seed = 6)
  # the asymmetric copula is oriented: the mean of a - b and its median agree in both orders
  expect_lt(abs(mean(ab[a, ] - ab[b, ]) - mean(ba[a, ] - ba[b, ])), 0.01)
  expect_lt(abs(mean(ab[a, ] > ab[b, ]) - mean(ba[a, ] > ba[b, ])), 0.02)
})

test_that("discrete measures simulate values of the support", {
  p10 <- real_scores("adhoc7_p10.csv", measure = "P@10")[1:15, ]
  model <- simulation_model(p10, seed = 1)
  expect_identical(model$type, "discrete")
  expect_equal(model$support, (0:10) / 10)
  sim <- simulate_scores(model, 500, seed = 1)
  expect_true(all(abs(sim * 10 - round(sim * 10)) < 1e-12))
})

test_that("no discrete measure is ever modelled as continuous: every spelling gets the registry's domain and support", {
  # issue 26 (one registry) and issue 29 (RR@10, P(rel=2)@10, P.10 were fitted as continuous)
  sp <- registry_spellings()
  n_discrete <- 0
  for (s in names(sp)) {
    info <- measure_info(s)
    if (info$domain == "continuous") {
      expect_identical(simulation_spec(s, NULL, NULL), list(type = "continuous", support = NULL), label = s)
      next
    }
    n_discrete <- n_discrete + 1
    # a support that does not depend on the evaluation depth (which a score
    # matrix does not record) and lies in [0, 1] is the model's; otherwise
    # the model asks for `support` or refuses: never continuous margins
    own <- identical(info$support, measure_info(s, depth = 7)$support)
    unit <- info$range[1] >= 0 && info$range[2] <= 1
    if (own && unit && length(info$support) >= 2L) {
      expect_identical(simulation_spec(s, NULL, NULL), list(type = "discrete", support = info$support), label = s)
    } else {
      expect_error(simulation_spec(s, NULL, NULL), class = if (unit) "irtopics_error_argument" else "irtopics_error_measure")
    }
    # the user's support is kept, and continuous margins only when asked for
    expect_identical(simulation_spec(s, NULL, c(0, 0.5, 1))$support, c(0, 0.5, 1))
    expect_identical(simulation_spec(s, "continuous", NULL)$type, "continuous")
  }
  expect_gt(n_discrete, 150)
  # the spellings of the issue, by hand
  expect_identical(simulation_spec("P.10", NULL, NULL)$support, (0:10) / 10)
  expect_identical(simulation_spec("precision@10", NULL, NULL)$support, (0:10) / 10)
  expect_identical(simulation_spec("mrr@10", NULL, NULL)$support, c(0, 1 / (10:1)))
  expect_identical(simulation_spec("Judged@4", NULL, NULL)$support, (0:4) / 4)
  expect_identical(simulation_spec("Success@5", NULL, NULL)$support, c(0, 1))
  err <- expect_error(simulation_spec("RR", NULL, NULL), class = "irtopics_error_argument")
  expect_match(conditionMessage(err), "measure_info(\"RR\", depth = 1000)$support", fixed = TRUE)
  expect_error(simulation_spec("hits@5", NULL, NULL), "outside \\[0, 1\\]", class = "irtopics_error_measure")
  expect_error(simulation_spec("P@100000000", NULL, NULL), "too large to list", class = "irtopics_error_argument")
  # a name the registry does not know stays continuous (or discrete with the user's support)
  expect_identical(simulation_spec("score", NULL, NULL)$type, "continuous")
  expect_identical(simulation_spec("my measure", NULL, NULL)$type, "continuous")
  expect_error(simulation_spec("mine", "discrete", NULL), "needs its `support`", class = "irtopics_error_argument")
})

test_that("the matrices evaluate() writes, under every spelling, are never modelled as continuous when discrete", {
  # issue 29: simulation_model() fitted continuous margins to matrices that
  # evaluate() itself produced under discrete measures (RR@10, P(rel=2)@10,
  # P.10). From the spelling a user gives evaluate() to the name it writes
  # on the matrix, to the model's margin type.
  sp <- names(registry_spellings())
  canonical <- measure_name(sp)
  runs <- file.path(withr::local_tempdir(), c("full.txt", "trunc.txt"))
  file.copy(c(te_data("results.test"), te_data("results.trunc")), runs)
  res <- evaluate(runs, te_data("qrels.rel_level"), measures = unique(canonical), name = "file")
  n_checked <- 0
  for (k in seq_along(sp)) {
    m <- res[[canonical[k]]]
    written <- attr(m, "measure")
    expect_identical(written, canonical[k], label = sp[k])
    asked <- measure_info(sp[k])
    spec <- tryCatch(simulation_spec(written, NULL, NULL), irtopics_error = function(e) e)
    if (asked$domain == "continuous") {
      expect_identical(spec$type, "continuous", label = sp[k])
      next
    }
    n_checked <- n_checked + 1
    if (inherits(spec, "irtopics_error")) {
      # no support the model could use (depends on the depth, outside [0, 1]): refused, never continuous
      expect_true(inherits(spec, "irtopics_error_argument") || inherits(spec, "irtopics_error_measure"),
                  label = sp[k])
      next
    }
    expect_identical(spec$type, "discrete", label = sp[k])
    # and the evaluated scores are values of that support
    v <- as.vector(unclass(m))
    v <- v[!is.na(v)]
    near <- vapply(v, function(x) min(abs(x - spec$support)), 0)
    expect_true(all(near < 1e-9), label = sp[k])
  }
  expect_gt(n_checked, 150)
  # the issue's three, by hand
  for (s in c("RR@10", "P(rel=2)@10", "P.10")) {
    spec <- simulation_spec(attr(res[[measure_name(s)]], "measure"), NULL, NULL)
    expect_identical(spec$type, "discrete", label = s)
  }
})

test_that("simulation_model() fits discrete margins on the registry's support for P.10 and RR@10", {
  p10 <- unclass(real_scores("adhoc7_p10.csv"))[1:6, 1:25]
  p10 <- as_ir_scores(p10, measure = "P.10")
  model <- simulation_model(p10, copulas = "basic", drop_bottom = 0, seed = 1)
  expect_identical(model$type, "discrete")
  expect_identical(model$support, (0:10) / 10)
  for (m in model$collections[[1]]$margins) {
    expect_true(m$discrete)
    expect_identical(m$support, (0:10) / 10)
  }
  rr <- withr::with_seed(4, matrix(sample(c(0, 1 / (1:10)), 6 * 25, replace = TRUE, prob = c(3, 10:1)), 6, 25,
                                   dimnames = list(paste0("s", 1:6), paste0("t", 1:25))))
  model <- simulation_model(as_ir_scores(rr, measure = "RR@10"), copulas = "basic", drop_bottom = 0, seed = 1)
  expect_identical(model$type, "discrete")
  expect_identical(model$support, c(0, 1 / (10:1)))
  expect_true(all(vapply(model$collections[[1]]$margins, `[[`, TRUE, "discrete")))
  sim <- simulate_scores(model, 200, seed = 2)
  expect_true(all(sim %in% model$support))
})

test_that("methods: print, summary, data frames and the plots", {
  fx <- sim_fixture()
  out <- format(fx$model)
  expect_match(out[1], "^<ir_sim_model> AP: 1 collection, continuous margins")
  expect_true(any(grepl("^Margins: ", out)) && any(grepl("^Copulas: ", out)))
  expect_s3_class(summary(fx$model), "irtopics_summary")
  df <- as.data.frame(fx$model)
  expect_identical(df$system, fx$model$collections[[1]]$systems)
  expect_equal(df$mean, vapply(fx$model$collections[[1]]$margins, `[[`, 0, "mean"), ignore_attr = TRUE)
  cp <- as.data.frame(fx$model, what = "copulas")
  expect_equal(nrow(cp), nrow(fx$model$collections[[1]]$copulas))
  col <- fx$model$collections[[1]]
  sys <- col$systems[c(2, 5)]
  b <- ggplot2::ggplot_build(ggplot2::autoplot(fx$model, systems = sys))
  pts <- b$plot$data
  obs <- pts[pts$what == "observed", ]
  expect_equal(obs$u1, unname(col$pobs[, sys[1]]))
  expect_equal(obs$u2, unname(col$pobs[, sys[2]]))
  expect_equal(sum(pts$what != "observed"), nrow(col$pobs))
  expect_match(b$plot$labels$title, pair_row(col, sys[1], sys[2])$copula, fixed = TRUE)
  expect_s3_class(ggplot2::autoplot(fx$model, systems = sys[1]), "ggplot")
  expect_error(ggplot2::autoplot(fx$model, systems = "nope"), class = "irtopics_error_argument")
  expect_error(ggplot2::autoplot(fx$model, bogus = 1), class = "irtopics_error_argument")
})

test_that("bad input: classed errors naming the argument", {
  fx <- sim_fixture()
  expect_error(simulate_scores(list(), 10), class = "irtopics_error_argument")
  expect_error(simulate_scores(fx$model, 0), class = "irtopics_error_argument")
  expect_error(simulate_scores(fx$model, 10, systems = "nope"), class = "irtopics_error_argument")
  expect_error(simulate_scores(fx$model, 10, collection = "nope"), class = "irtopics_error_argument")
  err <- expect_error(simulation_model(fx$ap, copulas = c(1, 99)), class = "irtopics_error_argument")
  # the hint names every family of the C++ code map, with its code
  msg <- gsub("\\s+", " ", conditionMessage(err))
  fams <- cpp_copula_families()
  for (k in seq_along(fams$code)) {
    expect_match(msg, paste0("[ :]", fams$code[k], " ", fams$name[k], "[,.]"))
  }
  expect_error(simulation_model(fx$ap, drop_bottom = 1), class = "irtopics_error_argument")
  expect_error(simulation_model(fx$ap, type = "continuous", support = (0:10) / 10),
               class = "irtopics_error_argument")
  bad <- unclass(fx$ap)
  bad[1, 1] <- 1.5
  expect_error(simulation_model(bad), class = "irtopics_error_data")
  expect_error(simulation_model(real_scores("adhoc7_ap.csv", measure = "P@10")[1:5, ]),
               "Can't fit a margin", class = "irtopics_error_data")
})

test_that("simulate_scores() and qmargin() refuse what cannot fit with the classed memory error (issue 29)", {
  fx <- sim_fixture()
  m <- length(fx$model$collections[[1]]$systems)
  withr::local_options(irtopics.max_memory = 50 * 2^20)
  # 8 (4 m + 26) bytes per topic: 1e7 topics of m systems are far beyond 50 MB
  err <- expect_error(simulate_scores(fx$model, 1e7, seed = 1), class = "irtopics_error_memory",
                      regexp = "n_topics")
  fits <- floor(50 * 2^20 / (8 * (4 * m + 26)))
  expect_match(conditionMessage(err), format(fits, big.mark = ",", scientific = FALSE), fixed = TRUE)
  expect_identical(dim(simulate_scores(fx$model, 100, seed = 1)), c(m, 100L))
  margin <- fx$model$collections[[1]]$margins[[1]]
  expect_error(qmargin(rep(0.5, 3e5), margin), class = "irtopics_error_memory", regexp = "p")
  expect_length(qmargin(c(0.1, 0.5), margin), 2L)
})

# Figures for papers (issue 25) -----------------------------------------------

test_that("the copula figure follows the user's theme, fits a column and says what its numbers are", {
  fx <- sim_fixture()
  col <- fx$model$collections[[1]]
  make <- function() ggplot2::autoplot(fx$model, systems = col$systems[1:2])
  expect_follows_user_theme(make)
  expect_figure_ready(make())
  expect_figure_ready(make(), width = 7, height = 4.5)
  sub <- paste(deparse(make()$labels$subtitle), collapse = "")
  # Kendall's tau of the fit and of the data and the number of topics; not
  # "collection", the name a single matrix's collection gets
  cop <- pair_row(col, col$systems[1], col$systems[2])
  expect_match(sub, sprintf("%.2f fitted, %.2f observed; %d topics", cop$tau, cop$tau_empirical, nrow(col$pobs)),
               fixed = TRUE)
  expect_match(sub, "tau", fixed = TRUE)
  expect_false(grepl("collection", sub))
  expect_identical(make()$labels$x, col$systems[1])
  make_margin <- function() ggplot2::autoplot(fx$model, systems = col$systems[1])
  expect_follows_user_theme(make_margin)
  expect_figure_ready(make_margin(), min_panel = 0.25)
  expect_figure_ready(make_margin(), width = 7, height = 4.5)
})
