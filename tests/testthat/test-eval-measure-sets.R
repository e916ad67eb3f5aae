# trec_eval's measure sets and families (R/eval-measure-sets.R), against
# trec_eval's own expected outputs: out.test (the default, "official"
# measures) and out.test.a.txt (-m all_trec).

te_names <- function(file) {
  exp <- read_trec_eval_output(te_expected(file))
  exp$measure[exp$topic == "all"]
}

# evaluate(measures = set) written as trec_eval prints it (no -q) has the
# names and values of trec_eval's expected output, line for line; returns
# those lines.
expect_set_prints <- function(set, expected, dir = "trec_eval") {
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = set)
  exp <- read_trec_eval_output(test_path("fixtures", dir, expected))
  exp <- exp[!exp$measure %in% c("runid", "relstring", "rbp", "rbp_resid"), ]
  f <- tempfile()
  write_trec_eval(res, f, per_topic = FALSE)
  written <- read_trec_eval_output(f)
  written <- written[written$measure != "runid", ]
  expect_identical(written$measure, exp$measure)
  expect_identical(written$value, exp$value)
  exp
}

test_that("'all_trec' is every measure trec_eval prints for -m all_trec, in its order", {
  printed <- te_names("out.test.a.txt")
  # left out, and said so in ?measures: the run id and relstring (not
  # numbers), rbp and rbp_resid (trec_eval 10 reads uninitialised memory)
  kept <- setdiff(printed, c("runid", "relstring", "rbp", "rbp_resid"))
  expect_identical(setdiff(printed, kept), c("runid", "rbp", "rbp_resid"))
  expect_identical(trec_eval_measure_name(measure_set("all_trec")), kept)
  expect_length(measure_set("all_trec"), 96L)
})

test_that("evaluate(measures = 'all_trec') gives every value of trec_eval -m all_trec to the printed digit", {
  exp <- expect_set_prints("all_trec", "out.test.a.txt")
  expect_identical(nrow(exp), 96L)
})

test_that("'official' (trec_eval's default) gives out.test, name for name and value for value", {
  exp <- expect_set_prints("official", "out.test")
  expect_identical(nrow(exp), 29L)
  expect_identical(measure_set("official"), measure_set(c("num_q", "num_ret", "num_rel", "num_rel_ret", "map",
                                                          "gm_map", "Rprec", "bpref", "recip_rank",
                                                          "iprec_at_recall", "P")))
})

test_that("each family and the 'set' set give trec_eval -m <name>'s names and values", {
  for (m in c("set", "P", "recall", "ndcg_cut", "map_cut", "iprec_at_recall", "Rprec_mult", "relative_P",
              "success", "unj")) {
    exp <- expect_set_prints(m, paste0("out.test.", m), dir = "trec_eval-sets")
    expect_gt(nrow(exp), 2L)
  }
  # several -m: trec_eval prints its own order, which is the order of this list
  exp <- expect_set_prints(c("official", "ndcg_cut", "success"), "out.test.official_ndcg_cut_success",
                           dir = "trec_eval-sets")
  expect_identical(nrow(exp), 29L + 9L + 3L)
})

test_that("families expand to trec_eval's default parameters", {
  cut <- c(5, 10, 15, 20, 30, 100, 200, 500, 1000)
  expect_identical(measure_set("P"), paste0("P@", cut))
  expect_identical(measure_set("recall"), paste0("R@", cut))
  expect_identical(measure_set("ndcg_cut"), paste0("nDCG@", cut))
  expect_identical(measure_set("map_cut"), paste0("AP@", cut))
  expect_identical(measure_set("relative_P"), paste0("relative_P@", cut))
  expect_identical(measure_set("success"), paste0("Success@", c(1, 5, 10)))
  expect_identical(measure_set("unj"), paste0("unj@", c(5, 10, 20)))
  expect_identical(measure_set("iprec_at_recall"), paste0("IPrec@", c(0, seq(0.1, 0.9, 0.1), 1)))
  expect_identical(measure_set("Rprec_mult"), paste0("Rprec_mult@", c(seq(0.2, 1.8, 0.2), 2)))
  expect_identical(measure_set("set"), c("NumQ", "NumRet", "NumRel", "NumRelRet", "utility", "SetP", "SetRelP",
                                         "SetR", "SetAP", "SetF"))
  # a measure with its parameter, and measures that need none, are themselves
  expect_identical(measure_set(c("P_10", "map", "ndcg", "nDCG@10")), c("P@10", "AP", "nDCG", "nDCG@10"))
  # ir_measures and ranx names are not trec_eval families: still a cut-off error
  expect_error(measure_set("R"), "needs a cut-off", class = "irtopics_error_measure")
  expect_error(measure_set("precision"), "needs a cut-off", class = "irtopics_error_measure")
})

test_that("sets mix with single measures: a measure is kept once, where it first comes", {
  expect_identical(measure_set(c("AP", "official"))[1:3], c("AP", "NumQ", "NumRet"))
  expect_identical(sum(measure_set(c("official", "P", "P@10")) == "P@10"), 1L)
  res <- evaluate(te_data("results.test"), te_data("qrels.test"), measures = list("P", "map", mine = "P_5"))
  expect_identical(names(res), c("P@10", "P@15", "P@20", "P@30", "P@100", "P@200", "P@500", "P@1000", "AP",
                                 "mine"))
  # two explicit names of one measure are still refused
  expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = c("map", "AP")),
               "twice", class = "irtopics_error_measure")
  expect_error(evaluate(te_data("results.test"), te_data("qrels.test"), measures = list(x = "all_trec")),
               "measure set", class = "irtopics_error_measure")
})

test_that("the preference and judgement-group sets are refused by name", {
  for (s in c("all_prefs", "prefs", "qrels_jg")) {
    expect_error(measure_set(s), "preference", class = "irtopics_error_measure")
  }
  expect_error(measure_set("all_trek"), "Unknown measure", class = "irtopics_error_measure")
  # where one measure is wanted, the error says what the set or family is
  expect_error(measure_name("all_trec"), "measure set", class = "irtopics_error_measure")
  expect_error(measure_name("P"), "P@5, ..., P@1000", class = "irtopics_error_measure")
  expect_error(measure_name("iprec_at_recall"), "IPrec@0, ..., IPrec@1", class = "irtopics_error_measure")
})
