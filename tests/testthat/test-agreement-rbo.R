# Rank-biased overlap (Webber, Moffat & Zobel 2010): the worked example of
# spec/agreement.md section 2, hand-computed cases, and the closed forms
# against the infinite sum they stand for.

# The infinite RBO, (1 - p) sum_d p^(d - 1) A_d, summed to depth 4000 by
# brute force from the overlaps of the prefixes (sets, no match() trick),
# with A_d beyond what the lists show filled in by the extrapolation's
# assumption: the shorter list's unseen ids agree at its rate X_s / s, and
# below depth k the agreement stays what it is at k. An independent route
# to the closed form of rbo(form = "extrapolated").
rbo_by_sum <- function(S, L, p, far = 4000) {
  if (length(S) > length(L)) { tmp <- S; S <- L; L <- tmp }
  s <- length(S); k <- length(L)
  X <- vapply(seq_len(k), function(d) length(intersect(S[seq_len(min(d, s))], L[seq_len(d)])), 0)
  A <- vapply(seq_len(k), function(d) {
    if (d <= s) X[d] / d else (X[d] + X[s] * (d - s) / s) / d
  }, 0)
  A_all <- c(A, rep(A[k], far - k))
  (1 - p) * sum(p^(seq_len(far) - 1) * A_all)
}

test_that("rbo() reproduces the worked example of the spec in its three forms", {
  S <- c("a", "b", "c", "d", "e", "f", "g", "h")
  T <- c("b", "a", "c", "e", "d", "h", "i", "j")
  expect_equal(rbo(S, T, p = 0.8, form = "truncated"), 0.5702397562, tolerance = 1e-10)
  expect_equal(rbo(S, T, p = 0.8), 0.6960688762, tolerance = 1e-10)
  expect_equal(rbo(S, T, p = 0.8, form = "normalised"), 0.6851966839, tolerance = 1e-10)
  # X_d = 0 2 3 3 5 5 5 6 by hand, and the three forms from it
  X <- c(0, 2, 3, 3, 5, 5, 5, 6); d <- 1:8; p <- 0.8
  expect_equal(rbo(S, T, p = p, form = "truncated"), (1 - p) * sum(p^(d - 1) * X / d), tolerance = 1e-14)
  expect_equal(rbo(S, T, p = p), X[8] / 8 * p^8 + (1 - p) / p * sum(X / d * p^d), tolerance = 1e-14)
  # symmetric
  for (f in c("extrapolated", "truncated", "normalised")) {
    expect_equal(rbo(T, S, p = 0.8, form = f), rbo(S, T, p = 0.8, form = f), tolerance = 1e-15)
  }
})

test_that("the extrapolated form is the infinite sum under its assumption", {
  S <- c("a", "b", "c", "d", "e", "f", "g", "h")
  T <- c("b", "a", "c", "e", "d", "h", "i", "j")
  for (p in c(0.5, 0.8, 0.9, 0.98)) {
    expect_equal(rbo(S, T, p = p), rbo_by_sum(S, T, p), tolerance = 1e-12)
  }
  # uneven lengths (Webber et al., eq. 32), both orders of the arguments
  set.seed(3)
  for (i in 1:20) {
    L <- sample(letters, sample(3:15, 1))
    S <- sample(letters, sample(1:length(L), 1))
    p <- runif(1, 0.3, 0.95)
    expect_equal(rbo(S, L, p = p), rbo_by_sum(S, L, p), tolerance = 1e-12)
    expect_equal(rbo(L, S, p = p), rbo(S, L, p = p), tolerance = 1e-14)
  }
})

test_that("uneven lists: a case computed by hand", {
  # S = a b, L = a c b, p = 1/2: X_1 = 1, X_2 = 1, X_3 = 2 (b of S is at 3 in L).
  # truncated: (1/2) (1 + 1/2 * 1/2 + 1/4 * 2/3) = 1/2 + 1/8 + 1/12 = 17/24
  # normalised: (1 + 1/4 + 1/6) / (1 + 1/2 + 1/4) = (17/12) / (7/4) = 17/21
  # extrapolated (eq. 32, s = 2, k = 3): (1/2 + 1/8 + 1/12) + 1 * 1/6 * 1/8
  #   + ((2 - 1)/3 + 1/2) / 8 = 17/24 + 1/48 + 5/48 = 5/6
  S <- c("a", "b"); L <- c("a", "c", "b")
  expect_equal(rbo(S, L, p = 0.5, form = "truncated"), 17 / 24, tolerance = 1e-15)
  expect_equal(rbo(S, L, p = 0.5, form = "normalised"), 17 / 21, tolerance = 1e-15)
  expect_equal(rbo(S, L, p = 0.5), 5 / 6, tolerance = 1e-15)
  # a shorter list that is a prefix of the longer one extrapolates to 1
  expect_equal(rbo(c("a", "b"), c("a", "b", "c", "d")), 1, tolerance = 1e-15)
})

test_that("identical, disjoint and empty lists", {
  x <- c("q", "w", "e", "r", "t")
  for (p in c(0.5, 0.9)) {
    expect_equal(rbo(x, x, p = p), 1, tolerance = 1e-15)
    expect_equal(rbo(x, x, p = p, form = "normalised"), 1, tolerance = 1e-15)
    expect_equal(rbo(x, x, p = p, form = "truncated"), 1 - p^5, tolerance = 1e-15)
    for (f in c("extrapolated", "truncated", "normalised")) {
      expect_identical(rbo(x, c("a", "s", "d"), p = p, form = f), 0)
      expect_identical(rbo(x, character(), p = p, form = f), 0)
      expect_identical(rbo(NULL, x, p = p, form = f), 0)
    }
  }
  expect_identical(rbo(character(), character()), 1)
  expect_identical(rbo(character(), character(), form = "normalised"), 1)
  expect_identical(rbo(character(), character(), form = "truncated"), 0)
})

test_that("depth cuts both lists; beyond the longer list it changes nothing", {
  S <- c("a", "b", "c", "d", "e", "f", "g", "h")
  T <- c("b", "a", "c", "e", "d", "h", "i", "j")
  for (f in c("extrapolated", "truncated", "normalised")) {
    expect_equal(rbo(S, T, p = 0.8, depth = 4, form = f), rbo(S[1:4], T[1:4], p = 0.8, form = f))
    expect_identical(rbo(S, T, p = 0.8, depth = 100, form = f), rbo(S, T, p = 0.8, form = f))
    expect_identical(rbo(S, T, p = 0.8, depth = Inf, form = f), rbo(S, T, p = 0.8, form = f))
  }
  # at depth 4: X = 0 2 3 3 -> extrapolated 3/4 p^4 + (1 - p) sum A_d p^(d - 1)
  p <- 0.8; X <- c(0, 2, 3, 3); d <- 1:4
  expect_equal(rbo(S, T, p = p, depth = 4), 3 / 4 * p^4 + (1 - p) * sum(X / d * p^(d - 1)),
               tolerance = 1e-15)
  # identical lists shorter than depth still score 1
  expect_equal(rbo(1:3, 1:3, depth = 10), 1)
  expect_equal(rbo(1:3, 1:3, depth = 10, form = "normalised"), 1)
})

test_that("ids: numbers, factors and character compare as the same ids", {
  expect_identical(rbo(c(100000, 2, 3), c("2", "100000", "7")), rbo(c("1e5", "2", "3"), c("2", "1e5", "7")))
  expect_identical(rbo(factor(c("b", "a")), c("a", "b")), rbo(c("b", "a"), c("a", "b")))
  expect_identical(rbo(c(1.5, 2), c(2, 1.5)), rbo(c("x", "y"), c("y", "x")))
  expect_identical(rbo(1:3, c(3, 2, 1)), rbo(c("a", "b", "c"), c("c", "b", "a")))
})

test_that("rbo() is top-weighted and bounded", {
  expect_gt(rbo(1:10, c(1:8, 10, 9)), rbo(1:10, c(2, 1, 3:10)))
  set.seed(7)
  for (i in 1:20) {
    # equal lengths: the truncated sum and the extrapolation differ by at
    # most the residual p^k (with uneven lengths the extrapolation also
    # fills in the depths below the shorter list)
    a <- sample(20, 12); b <- sample(20, 12); p <- runif(1, 0.05, 0.99)
    ext <- rbo(a, b, p = p); tr <- rbo(a, b, p = p, form = "truncated")
    expect_true(ext >= 0 && ext <= 1)
    expect_true(tr <= ext + 1e-15)
    expect_true(tr + p^12 >= ext - 1e-15)
    expect_true(rbo(a, b[1:5], p = p) <= 1)
  }
})

test_that("rbo() refuses bad arguments with classed errors", {
  expect_error(rbo(c("a", "b", "a"), "a"), class = "irtopics_error_data", regexp = "positions 1 and 3")
  expect_error(rbo("a", c("a", NA)), class = "irtopics_error_data", regexp = "NA")
  expect_error(rbo(list("a"), "a"), class = "irtopics_error_argument", regexp = "vector of ids")
  expect_error(rbo(matrix(1:4, 2), 1:2), class = "irtopics_error_argument")
  expect_error(rbo("a", "a", p = 1), class = "irtopics_error_argument", regexp = "\\(0, 1\\)")
  expect_error(rbo("a", "a", p = 0), class = "irtopics_error_argument")
  expect_error(rbo("a", "a", p = NA), class = "irtopics_error_argument")
  expect_error(rbo("a", "a", depth = 0), class = "irtopics_error_argument", regexp = "depth")
  expect_error(rbo("a", "a", depth = 2.5), class = "irtopics_error_argument")
  expect_error(rbo("a", "a", form = "ext"), class = "irtopics_error_argument", regexp = "form")
})

test_that("RBO stays in [0, 1] under rounding: identical lists score exactly 1 (issue 43)", {
  # before: 1.0000000000000002 for 16 of the lengths 1..2000 (p = 0.9), and
  # the leaderboard's RBO then lay outside its own interval
  for (p in c(0.5, 0.8, 0.9, 0.99)) {
    lengths <- if (p == 0.9) 1:2000 else 1:300
    expect_identical(vapply(lengths, function(k) rbo(seq_len(k), seq_len(k), p = p), 0), rep(1, length(lengths)),
                     label = sprintf("identical lists, p = %g", p))
  }
  # uneven lists whose shorter one is the longer's prefix agree everywhere: 1 as well
  expect_identical(vapply(1:300, function(s) rbo(1:400, seq_len(s)), 0), rep(1, 300))
  # the leaderboard's C++ RBO of identical orderings
  for (n in c(2:60, 110, 479, 1000)) {
    means <- cbind(rev(seq_len(n)) / n)
    v <- cpp_leaderboard_values(means, means, seq_len(n), 1L, 0.9)
    expect_identical(v[1, 3], 1, label = sprintf("leaderboard RBO of %d systems", n))
  }
  # and it is rbo() of the two orderings
  set.seed(3)
  a <- stats::runif(30)
  b <- a + stats::rnorm(30, sd = 0.2)
  v <- cpp_leaderboard_values(cbind(a), cbind(b), seq_len(30), 5L, 0.8)
  expect_equal(v[1, 3], rbo(order(-a), order(-b), p = 0.8), tolerance = 1e-15)
})
