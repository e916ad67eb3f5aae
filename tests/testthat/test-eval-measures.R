# Measure names (the measure table of R/measures.R) and the measures beyond
# trec_eval, checked against hand computations.

test_that("every spelling of the issue resolves to one canonical name", {
  spell <- c(
    "map" = "AP", "AP" = "AP", "P.10" = "P@10", "P_10" = "P@10", "P@10" = "P@10",
    "precision@10" = "P@10", "map_cut.10" = "AP@10", "map_cut_10" = "AP@10", "map@100" = "AP@100",
    "recall.100" = "R@100", "R@100" = "R@100", "recall@10" = "R@10", "success.10" = "Success@10",
    "hit_rate@10" = "Success@10", "ndcg_cut.10" = "nDCG@10", "nDCG@10" = "nDCG@10", "ndcg@10" = "nDCG@10",
    "iprec_at_recall_0.10" = "IPrec@0.1", "iprec_at_recall.0.10" = "IPrec@0.1", "IPrec@0.1" = "IPrec@0.1",
    "Rprec_mult_0.20" = "Rprec_mult@0.2", "RR" = "RR", "recip_rank" = "RR", "mrr@10" = "RR@10",
    "r-precision" = "R-Prec", "Rprec" = "R-Prec", "Judged@10" = "Judged@10",
    "P(rel=2)@10" = "P@10" , "AP(rel=2)" = "AP", "relative_P_5" = "relative_P@5", "unj.10" = "unj@10",
    "set_F" = "SetF", "set_F.0.5" = "SetF(beta=0.5)", "SetF(beta=0.5)" = "SetF(beta=0.5)",
    "rbp" = "RBP(p=0.9)", "RBP" = "RBP(p=0.8)", "RBP(p=0.5)" = "RBP(p=0.5)", "rbp.p=0.5" = "RBP(p=0.5)",
    "ERR@20" = "ERR@20", "err_20" = "ERR@20", "11pt_avg" = "11pt_avg", "num_q" = "NumQ",
    "utility.1,-2,0,0" = "utility(1,-2,0,0)", "infAP" = "infAP", "gm_bpref" = "gm_bpref")
  spell[["P(rel=2)@10"]] <- "P(rel=2)@10"
  spell[["AP(rel=2)"]] <- "AP(rel=2)"
  expect_identical(measure_name(names(spell)), unname(spell))
  expect_identical(trec_eval_measure_name(c("AP@10", "IPrec@0.1", "Rprec_mult@0.2", "nDCG@10", "ERR@20", "P(rel=2)@10")),
                   c("map_cut_10", "iprec_at_recall_0.10", "Rprec_mult_0.20", "ndcg_cut_10", NA, NA))
  # every all_trec measure name of trec_eval's output resolves and prints back the same
  exp <- read_trec_eval_output(te_expected("out.test.aq"))
  te <- unique(exp$measure[supported_trec_measure(exp$measure)])
  expect_gt(length(te), 90)
  expect_identical(trec_eval_measure_name(te), te)
})

test_that("malformed names and parameters are classed errors naming the problem", {
  bad <- c("P@0" = "at least 1", "P@1e20" = "positive whole number", "P_99999999999" = "at most",
           "RBP(p=2)" = "strictly between 0 and 1", "iprec_at_recall_1.5" = "between 0 and 1",
           "P" = "needs a cut-off", "AP(foo=1)" = "unknown argument", "nDCG(rel=2)" = "no relevance threshold",
           "utility.1,2" = "4 numbers", "P(rel=0)@5" = "whole number between 1", "bpref_10" = "takes no parameter")
  for (b in names(bad)) {
    expect_error(measure_name(b), bad[[b]], class = "irtopics_error_measure", label = b)
  }
  expect_error(measure_name("nDGC@10"), "Did you mean.*nDCG@10", class = "irtopics_error_measure")
  expect_error(measure_name("bpfer"), "Did you mean.*Bpref", class = "irtopics_error_measure")
  expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = "P(rel=2)@10"),
               "above every grade", class = "irtopics_error_measure")
})

test_that("ERR, RBP and its residual, Judged and thresholds match hand computations", {
  v <- hand_eval(c("ERR", "ERR@2", "RBP(p=0.5)", "RBP_resid(p=0.5)", "RBP(rel=2,p=0.5)", "Judged@4",
                   "Judged@10", "unj@10", "P(rel=2)@2", "AP(rel=2)", "AP", "RR@1", "RR@3", "NumRel(rel=3)"))
  # ERR: R(g) = (2^g - 1) / 2^4; ranks 1 (g 2) and 4 (g 1)
  r1 <- 3 / 16
  r4 <- 1 / 16
  expect_equal(v[["ERR"]], r1 + (1 - r1) * r4 / 4)
  expect_equal(v[["ERR@2"]], r1)
  # RBP (p = .5): relevant at ranks 1 and 4; unjudged at 3 and 5, then p^5 past the list
  expect_equal(v[["RBP(p=0.5)"]], 0.5 * (1 + 0.5^3))
  expect_equal(v[["RBP_resid(p=0.5)"]], 0.5 * (0.5^2 + 0.5^4) + 0.5^5)
  expect_equal(v[["RBP(rel=2,p=0.5)"]], 0.5)
  expect_equal(v[["Judged@4"]], 3 / 4)
  expect_equal(v[["Judged@10"]], 3 / 10)
  expect_equal(v[["unj@10"]], 2 / 10)
  expect_equal(v[["P(rel=2)@2"]], 1 / 2)
  expect_equal(v[["AP(rel=2)"]], 1 / 2)           # relevant: d1 (rank 1), d5 (not retrieved)
  expect_equal(v[["AP"]], (1 + 2 / 4) / 3)
  expect_equal(v[["RR@1"]], 1)
  expect_equal(v[["NumRel(rel=3)"]], 1)
  # the evaluation-wide level applies where a measure has no threshold
  expect_equal(hand_eval("P@2", relevance_level = 2)[[1]], 1 / 2)
})

test_that("infAP treats grade -1 as pooled but unjudged (trec_eval)", {
  # ranks: 1 rel, 2 nonrel, 3 not pooled (skipped), 4 rel, 5 pooled-unjudged
  eps <- 1e-5
  j <- 3  # 0-based index of rank 4
  at4 <- 1 / (j + 1) + (j / (j + 1)) * ((1 + 1 + 0) / j) * ((1 + eps) / (1 + 1 + 2 * eps))
  expect_equal(hand_eval("infAP")[[1]], (1 + at4) / 3)
})

test_that("every record of the registry is parsed, named, documented and evaluated", {
  rows <- measure_rows()
  ids <- vapply(rows, `[[`, "", "id")
  expect_false(anyDuplicated(ids) > 0)
  expect_true(all(vapply(rows, `[[`, "", "param") %in% measure_param_types))
  # one name per record, with a parameter where it needs one
  example <- vapply(rows, function(r) switch(r$param, cutoff = paste0(r$id, "@3"), recall = paste0(r$id, "@0.5"),
                                             mult = paste0(r$id, "@0.6"), r$id), "")
  expect_identical(vapply(example, function(x) parse_measure(x)$measure, "", USE.NAMES = FALSE), ids)
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = example)
  expect_identical(names(res), measure_name(example))
  for (m in names(res)) expect_false(all(is.na(res[[m]])), label = m)
  # ?measures lists every record
  help <- measure_help()
  for (id in ids) expect_match(help, paste0("`", id), fixed = TRUE, label = id)
  # the parity helper is the registry's trec_parity flag
  expect_identical(trec_parity_measure(c("map", "P_10", "rbp", "rbp_resid", "runid", "relstring_20", "ERR@10", "hits@5")),
                   c(TRUE, TRUE, FALSE, FALSE, FALSE, FALSE, FALSE, FALSE))
})

test_that("an inconsistent measure table is an error when R reads it", {
  tab <- cpp_measure_table()
  bad <- tab
  bad$param[1] <- "squared"
  expect_error(build_measure_registry(bad), "Unknown parameter type", class = "irtopics_error_internal")
  bad <- tab
  bad$spell[2] <- paste(bad$spell[2], "map")
  expect_error(build_measure_registry(bad), "\"map\" names two measures", class = "irtopics_error_internal")
  bad <- tab
  bad$summary[3] <- "median"
  expect_error(build_measure_registry(bad), "Unknown summary", class = "irtopics_error_internal")
  expect_identical(length(build_measure_registry(tab)$rows), length(tab$id))
})

test_that("a parameter given twice, or one a measure does not take, is refused naming the values", {
  twice <- c("P(cutoff=10)@5" = "cut-off is given twice \\(10 and 5\\)",
             "P(cutoff=5,cutoff=10)" = "cut-off is given twice \\(5 and 10\\)",
             "P(rel=2,rel=3)@5" = "relevance threshold `rel` is given twice \\(2 and 3\\)",
             "AP(rel=2,rel=2)" = "given twice \\(2 and 2\\)",
             "RBP(p=0.5,p=0.6)" = "`p` is given twice \\(0.5 and 0.6\\)",
             "RBP(p=0.5)@0.6" = "`p` is given twice \\(0.5 and 0.6\\)",
             "SetF(beta=0.5)@2" = "`beta` is given twice \\(0.5 and 2\\)",
             "utility(1,-1,0,0)@2" = "parameter is given twice \\(1,-1,0,0 and 2\\)",
             "Bpref(p=0.5)" = "takes no `p`", "IPrec(cutoff=3)" = "takes no cut-off",
             "R-Prec(cutoff=3)" = "takes no cut-off", "Bpref(beta=2)" = "takes no `beta`",
             "NumRet(rel=2)" = "no relevance threshold")
  for (b in names(twice)) {
    expect_error(measure_name(b), twice[[b]], class = "irtopics_error_measure", label = b)
  }
  # one value per parameter still works, in any of the forms
  expect_identical(measure_name(c("P(cutoff=10)", "P(rel=2,cutoff=5)", "RBP(p=0.5)", "SetF(beta=0.5)")),
                   c("P@10", "P(rel=2)@5", "RBP(p=0.5)", "SetF(beta=0.5)"))
})

test_that("hits@k counts the relevant documents in the top k; hit_rate@k is success (ranx)", {
  # hand_eval's topic: grades in trec_eval order 2, 0, (not pooled), 1, -1
  # (relevance level 1): relevant at ranks 1 and 4.
  expect_identical(measure_name(c("hits@3", "Hits@3", "hit_rate@3", "hitrate@3", "success_3")),
                   c("Hits@3", "Hits@3", "Success@3", "Success@3", "Success@3"))
  v <- hand_eval(c("hits@1", "hits@3", "hits@4", "hits@10", "hit_rate@1", "hit_rate@4", "hits(rel=2)@10"))
  expect_equal(unname(v), c(1, 1, 2, 2, 1, 1, 1))
  # over topics: hits@k is a count per topic, its mean what ranx reports
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("hits@10", "P@10", "success@10"))
  expect_equal(unclass(res[["hits@10"]]), unclass(res[["P@10"]]) * 10, ignore_attr = TRUE)
  expect_true(all(res[["success@10"]] == (res[["hits@10"]] > 0)))
  expect_true(any(res[["hits@10"]] > 1))
  expect_identical(trec_eval_measure_name("hits@10"), NA_character_)
})

test_that("measure_name() and trec_eval_measure_name() refuse NA and non-character names (issue 29)", {
  for (f in list(measure_name, trec_eval_measure_name)) {
    for (bad in list(NA, NA_character_, c("AP", NA), 1, list("AP"), NULL, factor("AP"))) {
      expect_error(f(bad), class = "irtopics_error_argument", regexp = "without NA")
    }
    expect_identical(f(character()), character())
  }
  expect_identical(measure_name(c("map", "P.10")), c("AP", "P@10"))
})
