# Inputs that broke the C++ readers under the libFuzzer targets of tools/cpp
# (see CONTRIBUTING.md, "Hardening"), replayed through the R interface. The C++ copies of these
# inputs live in tools/cpp/regressions/.

test_that("a large grade in many topics is refused, not allocated (fuzz_qrels out-of-memory)", {
  # Grade 1e6 is accepted, but each topic's grade count table then holds 1e6
  # counts (8 MB): 300 such topics in a 5 KB file took 2.4 GB. The tables of
  # all topics together are now bounded (2^24 counts), so 40 topics fail.
  lines <- sprintf("t%d 0 d 1000000", 1:40)
  f <- tmp_file(lines)
  err <- expect_error(read_qrels(f), class = "irtopics_error_data")
  expect_match(conditionMessage(err), "too large for this many topics")
  expect_match(conditionMessage(err), "[Ll]ine 17")
  # The same judgements from a data frame (the QrelsBuilder path).
  qrels_df <- data.frame(topic = sprintf("t%d", 1:40), docno = "d", rel = 1000000L)
  run_df <- data.frame(system = "s", topic = "t1", docno = "d", score = 1)
  expect_error(evaluate(run_df, qrels_df, "nDCG"), class = "irtopics_error_data")
  # A few topics at the largest grade still work.
  ok <- read_qrels(tmp_file(lines[1:3]))
  expect_equal(ok$rel, rep(1000000L, 3))
})

test_that("a score or grade with two signs is refused (found in review)", {
  # "+-5" was read as -5 (the '+' was skipped, then the number parsed with
  # its '-'); trec_eval's atof() reads it as 0. Both readers now refuse it.
  run <- tmp_file(c("1 Q0 d1 1 2 t", "1 Q0 d2 2 +-5 t"))
  err <- expect_error(read_run(run), class = "irtopics_error_parse")
  expect_match(conditionMessage(err), "[Ll]ine 2")
  qrels <- tmp_file(c("1 0 d1 1", "1 0 d2 +-1"))
  expect_error(read_qrels(qrels), class = "irtopics_error_parse")
  # One sign is fine.
  expect_equal(read_qrels(tmp_file(c("1 0 d1 +1", "1 0 d2 -1")))$rel, c(1L, -1L))
})
