# The values of a measure (R/eval-measure-info.R): every record of the
# registry has a value domain and a direction, every spelling gets its
# record's, and evaluate()'s own values lie in them.

test_that("every record has a value domain and a direction that R knows, consistent with its parameter", {
  rows <- measure_rows()
  for (r in rows) {
    expect_true(r$domain %in% measure_value_kinds$domain, label = r$id)
    expect_true(r$support %in% measure_value_kinds$support, label = r$id)
    expect_true(r$direction %in% measure_value_kinds$direction, label = r$id)
    expect_identical(r$domain == "discrete", r$support != "none", label = r$id)
    expect_true(r$range[1] <= r$range[2], label = r$id)
    # a support built from the cut-off k needs one
    if (r$support %in% c("fractions", "ratios")) expect_identical(r$param, "cutoff", label = r$id)
    if (r$support %in% c("reciprocals", "counts")) expect_true(r$param %in% c("cutoff", "optcut", "none"), label = r$id)
  }
  # both kinds occur, and the measures the issue names are discrete
  dom <- vapply(rows, `[[`, "", "domain")
  names(dom) <- vapply(rows, `[[`, "", "id")
  expect_true(all(dom[c("P", "RR", "Success", "Hits", "Judged", "NumRet", "NumRel")] == "discrete"))
  expect_true(all(dom[c("AP", "nDCG", "ERR", "R-Prec", "R")] == "continuous"))
  # how deep a measure reads: only its cut-off's ranks where it takes one
  depth <- vapply(rows, `[[`, "", "depth")
  param <- vapply(rows, `[[`, "", "param")
  expect_true(all(depth %in% c("cutoff", "all")))
  expect_true(all(param[depth == "cutoff"] %in% c("cutoff", "optcut")))
})

test_that("an unknown domain, support, direction or read depth in the table is an error when R reads it", {
  tab <- cpp_measure_table()
  for (f in c("domain", "support", "direction", "depth")) {
    bad <- tab
    bad[[f]][2] <- "sideways"
    expect_error(build_measure_registry(bad), paste0("Unknown ", f, " \"sideways\""),
                 class = "irtopics_error_internal")
  }
})

test_that("every spelling the registry generates gets its record's domain, direction and support", {
  sp <- registry_spellings()
  expect_gt(length(sp), 400)
  rows <- measure_rows()
  ids <- vapply(rows, `[[`, "", "id")
  for (s in names(sp)) {
    info <- measure_info(s, depth = 50)
    r <- rows[[match(sp[[s]], ids)]]
    expect_identical(info$measure, r$id, label = s)
    expect_identical(info$name, measure_name(s), label = s)
    expect_identical(info$domain, r$domain, label = s)
    expect_identical(info$direction, r$direction, label = s)
    n <- info$parameters$cutoff %||% 50
    if (r$domain == "continuous") {
      expect_null(info$support, label = s)
      expect_identical(info$range, r$range, label = s)
    } else {
      expect_identical(info$support, support_by_formula(r$support, n), label = s)
    }
  }
})

test_that("supports by hand: P@k, RR@k, RR at a depth, relative_P@k, Success, Judged, counts", {
  expect_identical(measure_info("P.10")$support, (0:10) / 10)
  expect_identical(measure_info("precision@4")$support, c(0, 0.25, 0.5, 0.75, 1))
  expect_identical(measure_info("mrr@3")$support, c(0, 1 / 3, 1 / 2, 1))
  expect_identical(measure_info("recip_rank", depth = 4)$support, c(0, 1 / 4, 1 / 3, 1 / 2, 1))
  expect_identical(measure_info("relative_P@3")$support, c(0, 1 / 3, 1 / 2, 2 / 3, 1))
  expect_identical(measure_info("hit_rate@5")$support, c(0, 1))
  expect_identical(measure_info("Judged@2")$support, c(0, 0.5, 1))
  expect_identical(measure_info("hits@3")$support, c(0, 1, 2, 3))
  expect_identical(measure_info("hits@3")$range, c(0, 3))
  expect_identical(measure_info("num_ret", depth = 2)$support, c(0, 1, 2))
  expect_identical(measure_info("NumQ")$support, 1)
  # without a bound
  rr <- measure_info("RR", depth = Inf)
  expect_identical(rr$domain, "discrete")
  expect_identical(rr$support_size, Inf)
  expect_null(rr$support)
  expect_null(measure_info("NumRel")$support)
  expect_identical(measure_info("NumRel")$support_size, Inf)
  expect_true(measure_info("RR")$support_by_depth)
  expect_false(measure_info("RR@5")$support_by_depth)
  expect_true(measure_info("NumRet")$support_by_depth)
  expect_false(measure_info("P@5")$support_by_depth)
  # a support too large to list is described, not built
  big <- measure_info("P@100000000")
  expect_null(big$support)
  expect_identical(big$support_size, 1e8 + 1)
  expect_null(measure_info("relative_P@5000")$support)
  expect_identical(length(measure_info("relative_P@1000")$support), 304193L)  # the Farey sequence of order 1000
})

test_that("every value evaluate() gives lies in the measure's support (discrete) or range (continuous)", {
  rows <- measure_rows()
  # every record, with several cut-offs, and a relevance threshold where it
  # takes one (on the graded qrels)
  measures_of <- function(thresholds) unlist(lapply(rows, function(r) {
    base <- switch(r$param, cutoff = paste0(r$id, "@", c(1, 3, 10, 100)),
                   optcut = c(r$id, paste0(r$id, "@", c(1, 3, 10))), recall = paste0(r$id, "@", c(0, 0.3, 1)),
                   mult = paste0(r$id, "@", c(0.2, 1, 2)), r$id)
    c(base, if (thresholds && r$rel) sub("^([^@]+)", "\\1(rel=2)", base))
  }))
  checked <- 0
  spread <- 0
  for (qrels in c("qrels.test", "qrels.rel_level")) {
    ms <- measures_of(qrels == "qrels.rel_level")
    for (run in c("results.test", "results.trunc")) {
      for (depth in c(1000, 20)) {
        res <- evaluate(te_data(run), te_data(qrels), measures = ms, depth = depth, missing = "zero")
        for (k in seq_along(ms)) {
          v <- as.vector(unclass(res[[k]]))
          v <- v[!is.na(v)]
          info <- measure_info(ms[k], depth = depth)
          if (info$domain == "discrete" && !is.null(info$support)) {
            expect_true(all(v %in% info$support), label = sprintf("%s on %s/%s, depth %d", ms[k], run, qrels, depth))
            spread <- spread + (length(unique(v)) > 1)
          } else if (info$domain == "discrete") {
            expect_true(all(v >= info$range[1] & v == round(v)), label = ms[k])
          } else {
            expect_true(all(v >= info$range[1] & v <= info$range[2]), label = ms[k])
          }
          checked <- checked + length(v)
        }
      }
    }
  }
  expect_gt(checked, 2000)
  expect_gt(spread, 50)  # not only zeros: the supports are put to the test
})

test_that("measure_info(): the object, its methods, several names, and classed errors", {
  info <- measure_info("P(rel=2)@10")
  expect_s3_class(info, "ir_measure_info")
  expect_identical(info$name, "P(rel=2)@10")
  expect_identical(info$parameters, list(rel = 2L, cutoff = 10))
  expect_identical(info$trec_eval, NA_character_)
  expect_identical(measure_info("map")$trec_eval, "map")
  expect_identical(measure_info("gm_map")$aggregate, "gmean")
  expect_identical(measure_info("RBP_resid")$direction, "none")
  expect_identical(measure_info("Exclusion")$range, c(-Inf, 0))
  out <- format(measure_info("mrr@3"))
  expect_match(out[1], "^<ir_measure_info> RR@3: reciprocal rank")
  expect_match(out[2], "values: discrete, 0 and 1/r for r = 1, ..., 3 (4 values)", fixed = TRUE)
  expect_match(out[3], "support: 0.0000, 0.3333, 0.5000, 1.0000", fixed = TRUE)
  expect_match(format(measure_info("AP"))[2], "continuous on [0, 1]", fixed = TRUE)
  expect_match(format(measure_info("RR", depth = 1000))[3], ", ..., ", fixed = TRUE)
  expect_output(print(info), "higher is better")
  df <- measure_info(c("AP", "P_10", "hits@5", "NumRel"))
  expect_identical(class(df), "data.frame")
  expect_identical(df$name, c("AP", "P@10", "Hits@5", "NumRel"))
  expect_identical(df$domain, c("continuous", "discrete", "discrete", "discrete"))
  expect_identical(df$support_size, c(NA_real_, 11, 6, Inf))
  expect_identical(df$upper, c(1, 1, 5, Inf))
  expect_identical(as.data.frame(measure_info("P@10")), df[2, , drop = FALSE], ignore_attr = TRUE)
  expect_error(measure_info("nDGC@10"), "Did you mean", class = "irtopics_error_measure")
  expect_error(measure_info(NA_character_), "`measure`", class = "irtopics_error_argument")
  expect_error(measure_info(character()), class = "irtopics_error_argument")
  expect_error(measure_info(3), class = "irtopics_error_argument")
  expect_error(measure_info("RR", depth = 0), "`depth`", class = "irtopics_error_argument")
})

test_that("is_measure() asks the registry: the AP labels of the robust and data families", {
  expect_true(is_measure("MAP", "AP"))
  expect_true(is_measure("map", "AP"))
  expect_false(is_measure("AP@10", "AP"))
  expect_false(is_measure("score", "AP"))
  expect_false(is_measure(NULL, "AP"))
  expect_identical(default_label("mean", "map"), "MAP")
  expect_identical(default_label("mean", "P@10"), "P@10")
})

test_that("custom_measure(): a record for a measure the registry does not know, with classed errors", {
  err <- error_rate()
  expect_s3_class(err, "ir_measure_info")
  expect_identical(c(err$name, err$direction, err$aggregate), c("error rate", "lower", "mean"))
  expect_identical(err$measure, NA_character_)
  expect_null(err$fun)
  out <- format(err)
  expect_match(out[1], "error rate: a custom measure", fixed = TRUE)
  expect_match(out, "lower is better; trec_eval: none (mean over topics)", fixed = TRUE, all = FALSE)
  expect_identical(as.data.frame(err)$direction, "lower")
  f <- function(grades, n_rel) 0
  expect_identical(custom_measure("z", f, aggregate = "gmean")$fun, f)
  expect_error(custom_measure(""), "`name`", class = "irtopics_error_argument")
  expect_error(custom_measure("x", fun = 3), "`fun`", class = "irtopics_error_argument")
  expect_error(custom_measure("x", direction = "up"), "`direction`", class = "irtopics_error_argument")
  expect_error(custom_measure("x", aggregate = "median"), "`aggregate`", class = "irtopics_error_argument")
  expect_error(custom_measure("x", range = c(1, 0)), "`range`", class = "irtopics_error_argument")
  # evaluate() needs its function, and takes a record alone
  expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = list("AP", err)),
               "no function", class = "irtopics_error_measure")
  one <- evaluate(te_data("results.test"), te_data("qrels.test"),
                  measures = custom_measure("zero", function(grades, n_rel) 0, direction = "lower"))
  expect_identical(names(one), "zero")
  expect_identical(attr(one$zero, "direction"), "lower")
})
