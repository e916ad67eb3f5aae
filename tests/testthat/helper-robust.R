# Fixtures shared by tests that came from test-stability.R
# Spec 2.6 worked example: 3 runs, 8 topics, two deterministic trials.
spec_ap <- rbind(A = c(.30, .10, .50, .20, .40, .05, .60, .25),
                 B = c(.28, .15, .45, .30, .35, .10, .50, .20),
                 C = c(.10, .05, .20, .10, .30, .00, .40, .15))
colnames(spec_ap) <- paste0("t", 1:8)
spec_perms <- matrix(as.integer(c(0:7, 4:7, 0:3)), 8)   # {t1,t2} vs {t3,t4}; {t5,t6} vs {t7,t8}

# A plain base-R swap method (independent of the C++ code).
swap_reference <- function(m, perms, n, f, fuzz = 0.05) {
  sets <- do.call(cbind, lapply(seq_len(ncol(perms)), function(b) {
    p <- perms[, b] + 1L
    cbind(apply(m[, p[1:n], drop = FALSE], 1, f), apply(m[, p[n + 1:n], drop = FALSE], 1, f))
  }))
  min_sum <- ties <- total <- 0
  for (i in 1:(nrow(m) - 1)) for (j in (i + 1):nrow(m)) {
    a <- sets[i, ]; b <- sets[j, ]
    eq <- abs(a - b) <= (fuzz + 1e-9) * pmax(abs(a), abs(b))
    gt <- sum(!eq & a > b); lt <- sum(!eq & a < b)
    min_sum <- min_sum + min(gt, lt); ties <- ties + sum(eq); total <- total + length(a)
  }
  list(sets = unname(sets), error = min_sum / total, ties = ties / total)
}

area_ref <- function(v) { q <- length(v) %/% 4; w <- sort(v)[seq_len(q)]; mean(cumsum(w) / seq_len(q)) }

