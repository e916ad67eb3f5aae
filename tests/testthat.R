library(testthat)
library(irtopics)

test_check("irtopics")
