# Fixtures shared by tests that came from test-reliability.R
adhoc3 <- function() {
  read_scores(system.file("extdata", "score-matrices", "adhoc3.csv", package = "irtopics"))
}

