test_that("with_interrupt_after() reports a computation that ended before the signal", {
  skip_if_no_interrupts()
  res <- with_interrupt_after(5, 1 + 1)
  expect_false(res$interrupted)
  expect_identical(res$value, 2)
})

test_that("plan_chunks() covers 1..n once, in order, within the chunk bounds", {
  for (n in c(1, 7, 250, 1001, 40000)) {
    plan <- plan_chunks(n, "items", min_size = 250L, pieces = 40L)
    items <- unlist(lapply(plan, chunk_items))
    expect_identical(items, seq_len(n))
    expect_lte(length(plan), 40L)
    if (length(plan) > 1L) expect_gte(min(vapply(plan, `[[`, 0L, "count")[-length(plan)]), 250L)
  }
  expect_length(plan_chunks(0, "items"), 0L)
})

test_that("the memory budget is the system's available memory without the option", {
  withr::local_options(irtopics.max_memory = NULL)
  b <- memory_budget()
  expect_true(is.numeric(b) && b > 0)
  if (file.exists("/proc/meminfo")) {
    kb <- as.numeric(sub("\\D*(\\d+).*", "\\1", grep("^MemAvailable", readLines("/proc/meminfo"), value = TRUE)))
    expect_equal(b, kb * 1024, tolerance = 0.5)
  }
})
