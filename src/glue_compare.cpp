// Rcpp glue for resample.h (comparing systems, discriminative power).
// Arguments are checked in R. `seed` is a whole number (the user's seed, or
// one drawn from R's RNG); replicates are 0-based: [first, first + count).
#include <Rcpp.h>

#include <cstdint>

#include "glue_guard.h"
#include "glue_interrupt.h"
#include "resample.h"

namespace {

irtopics::PairSet pair_set(const Rcpp::NumericMatrix& x, const Rcpp::IntegerVector& first,
                           const Rcpp::IntegerVector& second) {
  // Validated here too (the R wrappers check them): a direct call must not
  // read outside the matrix.
  if (first.size() != second.size()) {
    throw irtopics::Error(irtopics::ErrorKind::argument, "`first` and `second` must have the same length");
  }
  for (R_xlen_t k = 0; k < first.size(); ++k) {
    if (first[k] == NA_INTEGER || second[k] == NA_INTEGER || first[k] < 0 || second[k] < 0 ||
        first[k] >= x.nrow() || second[k] >= x.nrow()) {
      throw irtopics::Error(irtopics::ErrorKind::argument, "system index out of range");
    }
  }
  irtopics::PairSet ps;
  ps.x = x.begin();
  ps.m = static_cast<std::size_t>(x.nrow());
  ps.n = static_cast<std::size_t>(x.ncol());
  ps.first = first.begin();
  ps.second = second.begin();
  ps.n_pairs = static_cast<std::size_t>(first.size());
  return ps;
}

// A per-pair counting kernel of resample.h over replicates [rep_first, rep_first + rep_count)
// (called inside irtopics_glue::guard()).
template <typename Kernel>
Rcpp::NumericVector pair_counts_glue(Kernel kernel, const Rcpp::NumericMatrix& x,
                                     const Rcpp::IntegerVector& first, const Rcpp::IntegerVector& second,
                                     double seed, double rep_first, double rep_count, double rel_tol,
                                     int n_threads) {
  const irtopics::PairSet ps = pair_set(x, first, second);
  return Rcpp::wrap(irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return kernel(ps, irtopics::seed_key(seed), static_cast<std::uint64_t>(rep_first),
                  static_cast<std::uint64_t>(rep_count), rel_tol, irtopics_glue::safe_threads(n_threads),
                  cancel);
  }));
}

}  // namespace

// Monte Carlo sign-flip counts per pair (0-based systems in `first`, `second`).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_signflip_counts(Rcpp::NumericMatrix x, Rcpp::IntegerVector first,
                                        Rcpp::IntegerVector second, double seed, double rep_first,
                                        double rep_count, double rel_tol, int n_threads) {
  return irtopics_glue::guard([&] {
    return pair_counts_glue(irtopics::signflip_counts, x, first, second, seed, rep_first, rep_count,
                            rel_tol, n_threads);
  });
}

// Studentized bootstrap counts per pair (NaN: zero-variance differences).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_bootstrap_counts(Rcpp::NumericMatrix x, Rcpp::IntegerVector first,
                                         Rcpp::IntegerVector second, double seed, double rep_first,
                                         double rep_count, double rel_tol, int n_threads) {
  return irtopics_glue::guard([&] {
    return pair_counts_glue(irtopics::bootstrap_counts, x, first, second, seed, rep_first, rep_count,
                            rel_tol, n_threads);
  });
}

// Randomised Tukey HSD: the range (max - min) of the permuted system sums of
// each replicate.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_rthsd_ranges(Rcpp::NumericMatrix x, double seed, double rep_first,
                                     double rep_count, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  return Rcpp::wrap(irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    return irtopics::rthsd_ranges(x.begin(), static_cast<std::size_t>(x.nrow()),
                                  static_cast<std::size_t>(x.ncol()), irtopics::seed_key(seed),
                                  static_cast<std::uint64_t>(rep_first),
                                  static_cast<std::uint64_t>(rep_count),
                                  irtopics_glue::safe_threads(n_threads), cancel);
  }));
  });
}

// Per-pair n, means, mean difference, wins, ties, losses, sd of the
// differences (NA topics skipped): a P x 8 matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_pair_summaries(Rcpp::NumericMatrix x, Rcpp::IntegerVector first,
                                       Rcpp::IntegerVector second, double tie_tol) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  const irtopics::PairSet ps = pair_set(x, first, second);
  Rcpp::NumericMatrix out(static_cast<int>(ps.n_pairs), 8);
  irtopics::pair_summaries(ps, tie_tol, out.begin());
  return out;
  });
}

// Exact sign-flip test of each column of d (differences; 0 = dropped topic):
// a 2-column matrix (count, total = 2^k).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_signflip_exact(Rcpp::NumericMatrix d, Rcpp::NumericVector tol) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  const int P = d.ncol();
  Rcpp::NumericMatrix out(P, 2);
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    for (int p = 0; p < P; ++p) {
      irtopics::throw_if_cancelled(cancel);
      const irtopics::ExactCount e =
          irtopics::signflip_exact(&d(0, p), static_cast<std::size_t>(d.nrow()), tol[p]);
      out(p, 0) = e.count;
      out(p, 1) = e.total;
    }
  });
  return out;
  });
}

// The draws of replicates [first, first + count) for base-R cross-checks:
// kind 0 = signs (n x count, +1/-1), 1 = bootstrap indices (n x count,
// 1-based topics), 2 = permutations (m x n x count, 1-based systems: entry
// [i, j, b] is the system whose score system i receives on topic j).
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerVector cpp_resample_draws(int kind, int n, int m, double seed, double rep_first,
                                       int rep_count) {
  return irtopics_glue::guard([&]() -> Rcpp::IntegerVector {
  const std::uint64_t key = irtopics::seed_key(seed);
  const std::uint64_t f = static_cast<std::uint64_t>(rep_first);
  const std::size_t nn = static_cast<std::size_t>(n), mm = static_cast<std::size_t>(m);
  if (kind == 2) {
    Rcpp::IntegerVector out(m * n * rep_count);
    for (int b = 0; b < rep_count; ++b) {
      int* p = out.begin() + static_cast<std::ptrdiff_t>(b) * m * n;
      irtopics::draw_permutations(key, f + static_cast<std::uint64_t>(b), mm, nn, p);
      for (int k = 0; k < m * n; ++k) p[k] += 1;
    }
    out.attr("dim") = Rcpp::IntegerVector::create(m, n, rep_count);
    return out;
  }
  Rcpp::IntegerMatrix out(n, rep_count);
  std::vector<double> s(nn);
  for (int b = 0; b < rep_count; ++b) {
    int* col = out.begin() + static_cast<std::ptrdiff_t>(b) * n;
    if (kind == 0) {
      irtopics::draw_signs(key, f + static_cast<std::uint64_t>(b), nn, s.data());
      for (std::size_t j = 0; j < nn; ++j) col[j] = static_cast<int>(s[j]);
    } else {
      irtopics::draw_indices(key, f + static_cast<std::uint64_t>(b), nn, col);
      for (int j = 0; j < n; ++j) col[j] += 1;
    }
  }
  return out;
  });
}

// Seeds of R's generator for streams `stream` of a call's `seed`: for each,
// a whole number in [1, 2147483647] made from the first output of
// Stream(seed_key(seed), stream), the stream the C++ kernels draw from, so
// that R code with random draws of its own (a user's test inside a
// calibration trial) is seeded by the one derivation of the package
// (stream_seed(), R/utils-resampling.R).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_stream_seeds(double seed, Rcpp::NumericVector stream) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  const std::uint64_t key = irtopics::seed_key(seed);
  Rcpp::NumericVector out(stream.size());
  for (R_xlen_t k = 0; k < stream.size(); ++k) {
    if (!(stream[k] >= 0 && stream[k] < 9007199254740992.0)) {
      throw irtopics::Error(irtopics::ErrorKind::argument, "a stream must be a whole number in [0, 2^53)");
    }
    irtopics::Stream st(key, static_cast<std::uint64_t>(stream[k]));
    out[k] = 1.0 + static_cast<double>((st.next64() >> 33) % 2147483647ULL);
  }
  return out;
  });
}
