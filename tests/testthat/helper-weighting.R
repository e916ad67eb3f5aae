# Shared inputs for the GAWM / HITS / smoothing tests.

# Spec section 3.1 worked example (3 systems x 4 topics).
spec_gawm_matrix <- function() {
  rbind(s1 = c(.50, .10, .30, .80), s2 = c(.40, .20, .10, .70), s3 = c(.90, .15, .20, .60))
}

# Spec section 4.4 worked example (4 systems x 6 topics).
spec_smoothing_matrix <- function() {
  ap <- rbind(s1 = c(.30, .50, .20, .40, .60, .10), s2 = c(.20, .40, .30, .10, .50, .30),
              s3 = c(.10, .20, .40, .50, .32, .20), s4 = c(.40, .10, .10, .20, .40, .05))
  colnames(ap) <- paste0("t", 1:6)
  ap
}

real_scores <- function(name, measure = "AP") {
  read_scores(system.file("extdata", "score-matrices", name, package = "irtopics"),
              measure = measure)
}

# Plain base-R GAWM (spec 3.1), written independently of R/gawm.R.
reference_gawm <- function(P, q = 1, tol = 1e-12, maxit = 1000) {
  et <- colMeans(P)
  it <- 0
  repeat {
    it <- it + 1
    d <- sqrt(rowSums((P - matrix(et, nrow(P), ncol(P), byrow = TRUE))^2))
    ws <- (1 - d / sum(d))^q
    en <- colSums(ws * P) / sum(ws)
    ch <- max(abs(en - et))
    et <- en
    if (ch < tol || it >= maxit) break
  }
  d <- sqrt(rowSums((P - matrix(et, nrow(P), ncol(P), byrow = TRUE))^2))
  ws <- (1 - d / sum(d))^q
  wt <- sqrt(colSums((P - matrix(et, nrow(P), ncol(P), byrow = TRUE))^2))
  es <- drop(P %*% wt) / sum(wt)
  list(E_s = es, W_s = ws, E_t = et, W_t = wt, iterations = it)
}

# Fixtures shared by tests that came from test-gawm.R
# Lee et al. (2009), Table 2, on the runs of the paper (trec_runs()$lee2009_subset).
lee2009_collections <- function() {
  list(ta6 = subset_systems(real_scores("adhoc6_ap.csv"), lee2009_subset, runs = trec_runs("adhoc6")),
       ta7 = subset_systems(real_scores("adhoc7_ap.csv"), lee2009_subset, runs = trec_runs("adhoc7")),
       ta8 = subset_systems(real_scores("adhoc8_ap.csv"), lee2009_subset, runs = trec_runs("adhoc8")))
}

