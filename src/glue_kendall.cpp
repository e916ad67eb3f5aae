// Rcpp glue for kendall.h and leaderboard.h. Kendall's tau of millions of
// scores runs for seconds: the kernel asks for interrupts every 2^16 items
// (with_interrupts(), glue_interrupt.h).
#include "glue_guard.h"
#include "glue_interrupt.h"
#include <Rcpp.h>
#include "kendall.h"
#include "leaderboard.h"

#include <cmath>
#include <stdexcept>
#include <vector>

// [[Rcpp::export(rng = false)]]
double cpp_kendall(Rcpp::NumericVector x, Rcpp::NumericVector y, bool tau_b) {
  return irtopics_glue::guard([&]() -> double {
  irtopics::KendallWorkspace ws;
  const std::size_t n = static_cast<std::size_t>(x.size());
  return irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return tau_b ? ws.tau_b(x.begin(), y.begin(), n, cancel) : ws.tau_a(x.begin(), y.begin(), n, cancel);
  });
  });
}

// The six leaderboard statistics (leaderboard.h) of each column pair of the
// means matrices mr, mc (systems x samples): a samples x 6 matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_leaderboard_values(Rcpp::NumericMatrix mr, Rcpp::NumericMatrix mc,
                                           Rcpp::IntegerVector name_rank, int k, double rbo_p) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  const std::size_t n = static_cast<std::size_t>(mr.nrow());
  const std::size_t samples = static_cast<std::size_t>(mr.ncol());
  if (mc.nrow() != mr.nrow() || mc.ncol() != mr.ncol()) throw std::invalid_argument("mr and mc differ in shape");
  if (n < 1 || static_cast<std::size_t>(name_rank.size()) != n) throw std::invalid_argument("name_rank: one per system");
  if (k < 1 || static_cast<std::size_t>(k) > n) throw std::invalid_argument("k must be in 1..systems");
  if (!(rbo_p > 0 && rbo_p < 1)) throw std::invalid_argument("rbo_p must be in (0, 1)");
  std::vector<int> seen(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int r = name_rank[i];
    if (r < 1 || static_cast<std::size_t>(r) > n || seen[r - 1]++) throw std::invalid_argument("name_rank: a permutation of 1..systems");
  }
  for (std::size_t i = 0; i < n * samples; ++i) {
    if (std::isnan(mr[i]) || std::isnan(mc[i])) throw std::invalid_argument("mr and mc must not contain NA");
  }
  Rcpp::NumericMatrix out(static_cast<int>(samples), static_cast<int>(irtopics::kLeaderboardStatistics));
  irtopics::LeaderboardWorkspace ws;
  double vals[irtopics::kLeaderboardStatistics];
  for (std::size_t b = 0; b < samples; ++b) {
    ws.values(&mr[b * n], &mc[b * n], name_rank.begin(), n, static_cast<std::size_t>(k), rbo_p, vals);
    for (std::size_t s = 0; s < irtopics::kLeaderboardStatistics; ++s) {
      out(static_cast<int>(b), static_cast<int>(s)) = std::isnan(vals[s]) ? NA_REAL : vals[s];
    }
  }
  return out;
  });
}
