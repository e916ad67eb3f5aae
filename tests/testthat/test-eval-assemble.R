# 11. Odd bytes in ids --------------------------------------------------------

test_that("topic ids and docnos with non-ASCII bytes just work", {
  topic <- "caf\xc3\xa9"
  latin1 <- "d\xe9j\xe0"  # not valid UTF-8
  run <- write_bytes(paste0(topic, " Q0 ", latin1, " 1 2 t\n", topic, " Q0 x 2 1 t\n"))
  qrels <- write_bytes(paste0(topic, " 0 ", latin1, " 0\n", topic, " 0 x 1\n"))
  res <- evaluate(run, qrels, "AP")
  expect_identical(charToRaw(colnames(res$AP)), charToRaw(topic))
  expect_equal(res$AP[1, 1], 1 / 2)
  expect_identical(charToRaw(as.data.frame(read_run(run))$docno[1]), charToRaw(latin1))
  # Byte order for non-numeric ids, as strcmp.
  expect_identical(order_topics(c(topic, "cafe", "Z")), c("Z", "cafe", topic))
})
