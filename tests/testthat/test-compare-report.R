
test_that("a report of 40 systems prints each system with its scores on one line, marks as ranges", {
  x <- read_scores(system.file("extdata", "score-matrices", "robust2004_ap.csv", package = "irtopics"),
                   measure = "AP")[1:40, ]
  cmp <- compare_systems(x, test = "t")
  withr::local_options(width = 60)
  lines <- format(cmp)
  rows <- lines[grepl("^ *[0-9]+ +sys", lines)]
  expect_length(rows, 40L)
  # every system's line holds its mean
  means <- formatC(cmp$means[, "AP"], digits = 4, format = "f")
  expect_true(all(vapply(seq_along(rows), function(i) grepl(means[i], rows[i], fixed = TRUE), TRUE)))
  expect_identical(irtopics:::number_ranges(c(1L, 3L, 4L, 5L, 7L, 9L, 10L)), "1,3-5,7,9,10")
  expect_identical(irtopics:::number_ranges(5L), "5")
  # the ranges name the same systems as the table's significant pairs
  tab <- cmp$table[cmp$table$significant, ]
  winner <- ifelse(tab$estimate > 0, tab$system1, tab$system2)
  loser <- ifelse(tab$estimate > 0, tab$system2, tab$system1)
  beaten <- sort(match(loser[winner == "sys2"], rownames(x)))
  expect_identical(irtopics:::beaten_labels(cmp)["sys2", "AP"], irtopics:::number_ranges(beaten))
})
