// Rcpp glue for copula.h (the copula_*.h parts) and distributions.h (test
// calibration by stochastic simulation, Urbano & Nagler SIGIR 2018):
// pairwise copula selection over the columns of a matrix of
// pseudo-observations, the table of families (the code map), and vectorised
// density, h-functions, inverse, Kendall's tau, simulation and t/normal
// distribution functions for the tests. Families and parameters are
// VineCopula's.
#include <Rcpp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "copula.h"
#include "distributions.h"
#include "glue_guard.h"
#include "glue_interrupt.h"
#include "glue_job.h"
#include "parallel.h"
#include "resample.h"

namespace {

// The pairs whose selection started (CopulaSelection::run; read and reset by
// cpp_copula_pairs_started() for the tests).
std::atomic<long>& pairs_started() {
  static std::atomic<long> n{0};
  return n;
}

irtopics::Copula make_copula(int family, double par, double par2) {
  irtopics::Copula c;
  c.family = family;
  c.par = par;
  c.par2 = par2;
  irtopics::copula_check(c);
  return c;
}

// f(copula, a[k], b[k]) for every k (called inside irtopics_glue::guard()).
template <typename F>
Rcpp::NumericVector pointwise(int family, double par, double par2, const Rcpp::NumericVector& a,
                              const Rcpp::NumericVector& b, F&& f) {
    const irtopics::Copula c = make_copula(family, par, par2);
    if (a.size() != b.size()) throw std::invalid_argument("the two vectors must have the same length");
    Rcpp::NumericVector out(a.size());
    for (R_xlen_t i = 0; i < a.size(); ++i) out[i] = f(c, a[i], b[i]);
    return out;
}

// The copula selection of cpp_copula_select() and of its background form
// (cpp_copula_select_start()): the inputs copied out of R and checked, run()
// (pure C++, on any thread), and the list both return.
struct CopulaSelection {
  std::vector<double> u;        // topics x systems, column-major
  std::size_t n = 0;            // topics
  std::vector<int> pairs_i, pairs_j, families;
  irtopics::CopulaSelectOptions opt;
  int n_threads = 1;
  std::vector<irtopics::CopulaFit> fits;
  std::vector<double> tau_emp;

  CopulaSelection(const Rcpp::NumericMatrix& U, const Rcpp::IntegerVector& pi, const Rcpp::IntegerVector& pj,
                  const Rcpp::IntegerVector& fam, int threads, bool quadrant_presel) {
    if (pi.size() != pj.size()) throw std::invalid_argument("`pairs_i` and `pairs_j` must have the same length");
    if (U.nrow() < 2) throw std::invalid_argument("`U` needs at least 2 rows (topics)");
    n = static_cast<std::size_t>(U.nrow());
    const R_xlen_t m = U.ncol();
    for (R_xlen_t k = 0; k < pi.size(); ++k) {
      if (pi[k] == NA_INTEGER || pj[k] == NA_INTEGER || pi[k] < 0 || pj[k] < 0 || pi[k] >= m || pj[k] >= m)
        throw std::invalid_argument("column index out of range");
    }
    for (R_xlen_t k = 0; k < U.size(); ++k)
      if (!(U[k] > 0 && U[k] < 1)) throw std::invalid_argument("pseudo-observations must lie strictly inside (0, 1)");
    families.assign(fam.begin(), fam.end());
    if (families.empty()) throw std::invalid_argument("`families` must not be empty");
    for (int f : families)
      if (!irtopics::copula_detail::is_known_family(f)) throw std::invalid_argument(std::string("unknown copula family ") + std::to_string(f));
    u.assign(U.begin(), U.end());
    pairs_i.assign(pi.begin(), pi.end());
    pairs_j.assign(pj.begin(), pj.end());
    opt.quadrant_presel = quadrant_presel;
    // the count the selection really runs on: safe_threads() (1 in a forked
    // child of a threaded process), within OpenMP's thread limit
    // (OMP_THREAD_LIMIT as the process started); a job runs in the
    // background only when it is 2 or more
    n_threads = irtopics_glue::safe_threads(threads);
#ifdef _OPENMP
    n_threads = std::max(1, std::min(n_threads, omp_get_thread_limit()));
#endif
  }

  // Never touches R (a job's thread runs it).
  void run(irtopics::CancelToken* cancel) {
    const std::size_t n_pairs = pairs_i.size();
    fits.assign(n_pairs, irtopics::CopulaFit());
    tau_emp.assign(n_pairs, 0.0);
    // t scores of every value of U on the nu grid of the t fit, shared by all
    // pairs (rank-based pseudo-observations have n / 2 distinct values).
    irtopics::TScoreTable table;
    const bool use_table = std::find(families.begin(), families.end(), 2) != families.end();
    if (use_table) table.set_probabilities(u.data(), u.size());
    irtopics::parallel_for(table.q.size(), {n_threads, cancel, irtopics::Schedule::dynamic, 16},
                           [&](std::size_t k) { table.fill_row(k); });
    irtopics::parallel_for(n_pairs, {n_threads, cancel, irtopics::Schedule::dynamic, 4}, [&](std::size_t k) {
      pairs_started().fetch_add(1, std::memory_order_relaxed);
      const double* a = u.data() + static_cast<std::size_t>(pairs_i[k]) * n;
      const double* b = u.data() + static_cast<std::size_t>(pairs_j[k]) * n;
      fits[k] = irtopics::copula_select(a, b, n, families, opt, &tau_emp[k], use_table ? &table : nullptr);
    });
  }

  // Frees the copies and the results (once collected).
  void release() {
    std::vector<double>().swap(u);
    std::vector<int>().swap(pairs_i);
    std::vector<int>().swap(pairs_j);
    std::vector<irtopics::CopulaFit>().swap(fits);
    std::vector<double>().swap(tau_emp);
  }

  Rcpp::List result() const {
    const std::size_t n_pairs = fits.size();
    Rcpp::IntegerVector family(n_pairs);
    Rcpp::NumericVector par(n_pairs), par2(n_pairs), loglik(n_pairs), aic(n_pairs), tau(n_pairs), tau_e(n_pairs);
    for (std::size_t k = 0; k < n_pairs; ++k) {
      family[k] = fits[k].cop.family;
      par[k] = fits[k].cop.par;
      par2[k] = fits[k].cop.par2;
      loglik[k] = fits[k].loglik;
      aic[k] = fits[k].aic;
      tau[k] = irtopics::copula_tau(fits[k].cop);
      tau_e[k] = tau_emp[k];
    }
    return Rcpp::List::create(Rcpp::_["family"] = family, Rcpp::_["par"] = par, Rcpp::_["par2"] = par2,
                              Rcpp::_["loglik"] = loglik, Rcpp::_["aic"] = aic, Rcpp::_["tau"] = tau,
                              Rcpp::_["tau_empirical"] = tau_e);
  }
};

using CopulaJob = irtopics_glue::Job<CopulaSelection>;
constexpr const char* kCopulaJobTag = "irtopics_copula_job";

}  // namespace

// Selects a copula for each pair (pairs_i[k], pairs_j[k]) of columns of U
// (topics x systems pseudo-observations in (0, 1), 0-based column indices).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_copula_select(Rcpp::NumericMatrix U, Rcpp::IntegerVector pairs_i, Rcpp::IntegerVector pairs_j,
                             Rcpp::IntegerVector families, int n_threads, bool quadrant_presel = true) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  CopulaSelection sel(U, pairs_i, pairs_j, families, n_threads, quadrant_presel);
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    sel.run(cancel);
    return 0;
  });
  return sel.result();
  });
}

// cpp_copula_select() as a job (glue_job.h): checks the inputs as it does
// (same errors) and returns a job at once, an external pointer for
// cpp_copula_select_collect(), cpp_copula_select_cancel() and
// cpp_copula_select_status(). The selection runs on a thread of its own (with
// n_threads workers in all) only when its thread count after the caps
// (CopulaSelection: the fork rule, OpenMP's thread limit) is 2 or more;
// with one thread the job is deferred, to run in the collecting call on R's
// thread, so that one thread means one core (R's work between start and
// collect comes first).
// [[Rcpp::export(rng = false)]]
SEXP cpp_copula_select_start(Rcpp::NumericMatrix U, Rcpp::IntegerVector pairs_i, Rcpp::IntegerVector pairs_j,
                             Rcpp::IntegerVector families, int n_threads, bool quadrant_presel = true) {
  return irtopics_glue::guard([&]() -> SEXP {
  CopulaSelection sel(U, pairs_i, pairs_j, families, n_threads, quadrant_presel);
  const bool background = sel.n_threads > 1;
  std::unique_ptr<CopulaJob> job(new CopulaJob(std::move(sel)));
  CopulaJob* raw = job.get();
  // the pointer owns the job before its thread starts
  Rcpp::RObject ptr = irtopics_glue::job_pointer(job.release(), kCopulaJobTag);
  raw->start(background);
  return ptr;
  });
}

// Waits for a job (R can interrupt the wait, which cancels the job) and
// returns what cpp_copula_select() returns; an error of the job is raised
// here.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_copula_select_collect(SEXP job) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  CopulaSelection& sel = irtopics_glue::job_address<CopulaJob>(job, kCopulaJobTag)->collect();
  Rcpp::List out = sel.result();
  sel.release();
  return out;
  });
}

// Cancels a job and joins its threads (nothing for a finished one); returns
// its status.
// [[Rcpp::export(rng = false)]]
std::string cpp_copula_select_cancel(SEXP job) {
  return irtopics_glue::guard([&]() -> std::string {
  CopulaJob* j = irtopics_glue::job_address<CopulaJob>(job, kCopulaJobTag);
  j->cancel();
  return j->status();
  });
}

// "running", "done", "deferred", "cancelled" or "collected".
// [[Rcpp::export(rng = false)]]
std::string cpp_copula_select_status(SEXP job) {
  return irtopics_glue::guard([&]() -> std::string {
  return irtopics_glue::job_address<CopulaJob>(job, kCopulaJobTag)->status();
  });
}

// The number of job threads started and not yet joined (tests).
// [[Rcpp::export(rng = false)]]
int cpp_job_threads() {
  return irtopics_glue::guard([&]() -> int { return irtopics_glue::job_threads().load(); });
}

// The pairs whose copula selection started since the previous call (tests:
// a cancelled job started fewer than it was given); resets the count.
// [[Rcpp::export(rng = false)]]
double cpp_copula_pairs_started() {
  return irtopics_glue::guard([&]() -> double { return static_cast<double>(pairs_started().exchange(0)); });
}

// The AVX2 copies of the packed log-likelihood sums (copula_pack.h): set
// whether they may run (allow: TRUE or FALSE; NA leaves it) and return
// whether they run now. For the tests that compare both copies; not while
// a copula job runs.
// [[Rcpp::export(rng = false)]]
bool cpp_copula_wide(Rcpp::LogicalVector allow) {
  return irtopics_glue::guard([&]() -> bool {
    if (allow.size() == 1 && allow[0] != NA_LOGICAL) irtopics::copula_detail::copula_wide_allowed() = allow[0] != 0;
    return irtopics::copula_detail::copula_wide_active();
  });
}

// Copula density at (u1[k], u2[k]).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_copula_pdf(int family, double par, double par2, Rcpp::NumericVector u1,
                                   Rcpp::NumericVector u2) {
  return irtopics_glue::guard([&] { return pointwise(family, par, par2, u1, u2, irtopics::copula_pdf); });
}

// P(U2 <= u2 | U1 = u1) (VineCopula's BiCopHfunc1).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_copula_h1(int family, double par, double par2, Rcpp::NumericVector u1,
                                  Rcpp::NumericVector u2) {
  return irtopics_glue::guard([&] { return pointwise(family, par, par2, u1, u2, irtopics::copula_h1); });
}

// P(U1 <= u1 | U2 = u2) (VineCopula's BiCopHfunc2).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_copula_h2(int family, double par, double par2, Rcpp::NumericVector u1,
                                  Rcpp::NumericVector u2) {
  return irtopics_glue::guard([&] { return pointwise(family, par, par2, u1, u2, irtopics::copula_h2); });
}

// The u2 with h1(u1, u2) = w (VineCopula's BiCopHinv1).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_copula_hinv1(int family, double par, double par2, Rcpp::NumericVector u1,
                                     Rcpp::NumericVector w) {
  return irtopics_glue::guard([&] { return pointwise(family, par, par2, u1, w, irtopics::copula_hinv1); });
}

// Kendall's tau of the copula (VineCopula's BiCopPar2Tau).
// [[Rcpp::export(rng = false)]]
double cpp_copula_tau(int family, double par, double par2) {
  return irtopics_glue::guard([&]() -> double {
  return irtopics::copula_tau(make_copula(family, par, par2));
  });
}

// n pairs simulated from the stream keyed by (key, stream): key as from
// resolve_seed() (R/utils-resampling.R). An n x 2 matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_copula_sim(int family, double par, double par2, int n, double key, double stream) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  if (n < 0) throw std::invalid_argument("`n` must be non-negative");
  const irtopics::Copula c = make_copula(family, par, par2);
  std::vector<double> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  irtopics::Stream st(irtopics::seed_key(key), static_cast<std::uint64_t>(stream));
  irtopics::copula_simulate(c, st, static_cast<std::size_t>(n), a.data(), b.data());
  Rcpp::NumericMatrix out(n, 2);
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + n);
  return out;
  });
}

// Student t cdf and quantile (any real df > 0), normal quantile.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_pt(Rcpp::NumericVector x, double df) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  if (!(df > 0)) throw std::invalid_argument("`df` must be positive");
  const irtopics::StudentT t(df);
  Rcpp::NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); ++i) out[i] = t.cdf(x[i]);
  return out;
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_qt(Rcpp::NumericVector p, double df) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  if (!(df > 0)) throw std::invalid_argument("`df` must be positive");
  const irtopics::StudentT t(df);
  Rcpp::NumericVector out(p.size());
  for (R_xlen_t i = 0; i < p.size(); ++i) out[i] = t.quantile(p[i]);
  return out;
  });
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_qnorm(Rcpp::NumericVector p) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  Rcpp::NumericVector out(p.size());
  for (R_xlen_t i = 0; i < p.size(); ++i) out[i] = irtopics::norm_quantile(p[i]);
  return out;
  });
}

// The copula families of the code map (kCopulaCodes), in its order: code,
// name, number of parameters, and whether simulation_model(copulas =
// "basic") includes it.
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_copula_families() {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  std::vector<int> code, npar;
  std::vector<std::string> name;
  std::vector<bool> basic;
  for (const irtopics::CopulaCode& e : irtopics::kCopulaCodes) {
    code.push_back(e.code);
    name.push_back(e.name);
    npar.push_back(e.family->npar);
    basic.push_back(e.family->basic);
  }
  return Rcpp::List::create(Rcpp::_["code"] = code, Rcpp::_["name"] = name, Rcpp::_["npar"] = npar,
                            Rcpp::_["basic"] = basic);
  });
}
