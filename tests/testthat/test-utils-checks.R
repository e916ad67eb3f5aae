test_that("show_value() names objects by class and size", {
  expect_identical(irtopics:::show_value(0.5), "0.5")
  expect_identical(irtopics:::show_value("holm"), "\"holm\"")
  expect_identical(irtopics:::show_value(big_scores()), "an <ir_scores> (20 x 30)")
  expect_identical(irtopics:::show_value(data.frame(a = 1:3)), "a <data.frame> (3 x 1)")
  expect_identical(irtopics:::show_value(list(1, 2)), "a <list> (length 2)")
  expect_identical(irtopics:::show_value(1:4), "an <integer> (length 4)")
  expect_identical(irtopics:::show_value(mean), "a function")
  expect_identical(irtopics:::show_values(c(0.1, 0.2)), "0.1, 0.2")
  expect_identical(irtopics:::show_values(1:10), "an <integer> (length 10)")
})

# Results that mean nothing, said so (issue 40) --------------------------------

test_that("estimates from 2 systems (or topics) warn that they mean nothing, and keep their numbers", {
  ap <- real_scores("adhoc8_ap.csv")
  p10 <- real_scores("adhoc8_p10.csv", "P@10")[rownames(ap), colnames(ap)]
  two <- ap[c(5, 9), ]
  few <- "irtopics_warning_too_few"
  # the G-study: one system variance from 1 degree of freedom
  expect_warning(g <- g_study(two), "2 systems", class = few)
  expect_equal(g$Erho2, suppressWarnings(cronbach_alpha(two), classes = few))
  expect_warning(d_study(g, c(10, 50)), class = few)          # a G-study object warns again
  expect_warning(topics_needed(g), class = few)
  expect_warning(g_study(ap[, 1:2]), "2 topics", class = few)
  # Cronbach's alpha and the difficulty groups: a group of 2 systems has alpha -306 here
  expect_warning(cronbach_alpha(two), class = few)
  expect_warning(ga <- group_agreement(two), class = few)
  expect_equal(ga$groups$alpha[1], -306.3723148, tolerance = 1e-8)
  expect_identical(abs(ga$groups$cor_map), rep(1, 5))
  expect_warning(group_agreement(ap, top = 2), class = few)
  # tau of 2 systems is +1 or -1, and its interval [-1, 1]
  expect_warning(ti <- tau_interval(two, p10[c(5, 9), ], B = 200, seed = 1), class = few)
  expect_identical(c(ti$estimate, ti$conf.low, ti$conf.high), c(1, -1, 1))
  # the leaderboards of compare_qrels() (its leaderboard_agreement())
  expect_warning(irtopics:::leaderboard_agreement(two, p10[c(5, 9), ], B = 0), class = few)
  # 3 systems and 3 topics: no warning
  three <- ap[c(5, 9, 12), 1:3]
  expect_no_warning(g_study(three))
  expect_no_warning(d_study(g_study(three), 10))
  expect_no_warning(group_agreement(ap[c(5, 9, 12), ]))
  expect_no_warning(cronbach_alpha(three))
  expect_no_warning(tau_interval(ap[c(5, 9, 12), ], p10[c(5, 9, 12), ], B = 50, seed = 1, method = "percentile"))
})
