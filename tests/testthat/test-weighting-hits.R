test_that("autoplot of HITS draws A(s) against MAP and A(t) against AAP", {
  P <- spec_gawm_matrix()
  h <- hits(P)
  d <- ggplot2::layer_data(ggplot2::autoplot(h), 2)
  expect_equal(d$x, unname(rowMeans(P)))
  expect_equal(d$y, unname(h$A_s))
  dt <- ggplot2::layer_data(ggplot2::autoplot(h, type = "topics"), 2)
  expect_equal(dt$y, unname(h$A_t))
})
test_that("HITS reproduces the worked example of spec 3.2", {
  P <- spec_gawm_matrix()
  h <- hits(P)
  expect_s3_class(h, "ir_hits")
  expect_equal(unname(h$A_s), c(-0.3008130469, -0.5069621959, 0.8077752427), tolerance = 1e-9)
  expect_equal(unname(h$H_t), c(0.9570565428, -0.02639018965, 0.0527803793, -0.2838319281), tolerance = 1e-9)
  expect_equal(unname(h$A_t), c(0.4229789225, -0.5540453401, -0.4372258734, 0.5682922910), tolerance = 1e-9)
  expect_equal(unname(h$H_s), c(0.5716186563, 0.4916524293, 0.6569094310), tolerance = 1e-9)
  expect_equal(h$sigma_A, c(0.3905791351, 0.1801331154, 0), tolerance = 1e-9)
  expect_equal(h$sigma_M, c(0.838935176, 0.3591594357, 0.1468579934), tolerance = 1e-9)
  expect_equal(cor(h$A_s, rowMeans(P)), 0.8432830687, tolerance = 1e-9)
  expect_equal(cor(h$A_t, colMeans(P)), 0.9989740587, tolerance = 1e-9)
})

test_that("HITS vectors follow the stated conventions", {
  ap <- real_scores("adhoc8_ap.csv")
  h <- hits(ap)
  for (v in list(h$A_s, h$H_s, h$A_t, h$H_t)) expect_equal(sum(v^2), 1, tolerance = 1e-12)
  expect_gt(sum(h$H_t), 0)
  expect_gt(sum(h$H_s), 0)
  expect_equal(sum(h$A_s), 0, tolerance = 1e-12)
  expect_equal(sum(h$A_t), 0, tolerance = 1e-12)
  expect_gt(cor(h$A_s, rowMeans(unclass(ap))), 0.95)
  expect_gt(cor(h$A_t, colMeans(unclass(ap))), 0.99)
})

test_that("HITS equals block-normalized power iteration on the full graph", {
  m <- unclass(real_scores("adhoc6_ap.csv"))
  attr(m, "measure") <- NULL
  ns <- nrow(m)
  nt <- ncol(m)
  ap_a <- m - matrix(colMeans(m), ns, nt, byrow = TRUE)
  ap_m <- m - rowMeans(m)
  # Sources in rows: s -> t carries AP_M, t -> s carries AP_A.
  A <- matrix(0, ns + nt, ns + nt)
  A[1:ns, ns + 1:nt] <- ap_m
  A[ns + 1:nt, 1:ns] <- t(ap_a)
  S <- 1:ns
  Tn <- ns + 1:nt
  unit <- function(v) v / sqrt(sum(v^2))
  h <- rep(1, ns + nt)
  a <- rep(0, ns + nt)
  for (it in 1:5000) {
    a_new <- drop(crossprod(A, h))
    a_new[S] <- unit(a_new[S])
    a_new[Tn] <- unit(a_new[Tn])
    h_new <- drop(A %*% a_new)
    h_new[S] <- unit(h_new[S])
    h_new[Tn] <- unit(h_new[Tn])
    done <- max(abs(a_new - a), abs(h_new - h)) < 1e-14
    a <- a_new
    h <- h_new
    if (done) break
  }
  res <- hits(m)
  expect_equal(unname(res$A_s), a[S], tolerance = 1e-8)
  expect_equal(unname(res$A_t), a[Tn], tolerance = 1e-8)
  expect_equal(unname(res$H_s), h[S], tolerance = 1e-8)
  expect_equal(unname(res$H_t), h[Tn], tolerance = 1e-8)
})

test_that("HITS warns when the leading singular value is repeated", {
  P <- diag(3)   # AP_A and AP_M both have singular values 1, 1, 0
  expect_warning(expect_warning(hits(P), "AP_A", class = "irtopics_warning_hits"),
                 "AP_M", class = "irtopics_warning_hits")
})

test_that("HITS rejects bad input", {
  P <- spec_gawm_matrix()
  expect_error(hits(P[1, , drop = FALSE]), class = "irtopics_error_argument")
  expect_error(hits(P[, 1, drop = FALSE]), class = "irtopics_error_argument")
  P[1, 1] <- NA
  expect_error(hits(P), class = "irtopics_error_data")
})

test_that("HITS print, summary and as.data.frame", {
  P <- spec_gawm_matrix()
  h <- hits(P)
  expect_snapshot(print(h))
  s <- summary(h)
  expect_equal(s$correlations$pearson[1], cor(rowMeans(P), h$A_s))
  expect_output(print(s), "A\\(t\\)")
  df <- as.data.frame(h)
  expect_equal(nrow(df), 3 * 3 + 4 * 3)
  expect_equal(df$value[df$entity == "topic" & df$quantity == "authority"], unname(h$A_t))
})
