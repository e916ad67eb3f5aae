// Rcpp glue for calibration.h (test calibration by stochastic simulation).
// The R side (R/calibration-run.R) checks the arguments and builds `model`:
//   knots, cdf: lists of numeric vectors (one margin per system, all
//     collections in turn); discrete: logical, one per system;
//   sys_start: integer, 0-based first system of each collection, plus the
//     total at the end;
//   family, par, par2: the copulas of every pair i < j of each collection
//     (row-wise upper triangle), collection after collection; cop_start:
//     integer, 0-based first pair of each collection.
// `power` is NULL (Type I trials) or a list baseline, cand_start,
// cand_system (0-based), cand_a, cand_b.
#include <Rcpp.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "calibration.h"
#include "glue_guard.h"
#include "glue_interrupt.h"

namespace {

irtopics::CalibrationModel model_of(const Rcpp::List& model) {
  const Rcpp::List knots = model["knots"], cdf = model["cdf"];
  const Rcpp::LogicalVector discrete = model["discrete"];
  const Rcpp::IntegerVector sys_start = model["sys_start"], cop_start = model["cop_start"];
  const Rcpp::IntegerVector family = model["family"];
  const Rcpp::NumericVector par = model["par"], par2 = model["par2"];
  const R_xlen_t n_sys = knots.size();
  if (cdf.size() != n_sys || discrete.size() != n_sys) throw std::invalid_argument("margins: lengths differ");
  if (sys_start.size() < 2 || cop_start.size() != sys_start.size() - 1)
    throw std::invalid_argument("model: bad collection starts");
  if (sys_start[0] != 0 || sys_start[sys_start.size() - 1] != n_sys) throw std::invalid_argument("model: bad system starts");
  irtopics::CalibrationModel out;
  out.margins.resize(static_cast<std::size_t>(n_sys));
  for (R_xlen_t g = 0; g < n_sys; ++g) {
    const Rcpp::NumericVector k = knots[g], f = cdf[g];
    if (k.size() != f.size() || k.size() < 1) throw std::invalid_argument(std::string("margin ") + std::to_string(g + 1) + ": knots and cdf differ");
    irtopics::MarginRef& m = out.margins[static_cast<std::size_t>(g)];
    m.knots = k.begin();
    m.cdf = f.begin();
    m.size = static_cast<std::size_t>(k.size());
    m.discrete = discrete[g] == TRUE;
  }
  std::size_t n_pairs = 0;
  for (R_xlen_t c = 0; c + 1 < sys_start.size(); ++c) {
    if (sys_start[c + 1] < sys_start[c]) throw std::invalid_argument("model: bad system starts");
    if (cop_start[c] != static_cast<int>(n_pairs)) throw std::invalid_argument("model: bad copula starts");
    out.sys_start.push_back(static_cast<std::size_t>(sys_start[c]));
    out.cop_start.push_back(static_cast<std::size_t>(cop_start[c]));
    const std::size_t m = static_cast<std::size_t>(sys_start[c + 1] - sys_start[c]);
    n_pairs += m * (m - 1) / 2;
  }
  out.sys_start.push_back(static_cast<std::size_t>(n_sys));
  if (static_cast<std::size_t>(family.size()) != n_pairs || par.size() != family.size() ||
      par2.size() != family.size()) {
    throw std::invalid_argument("model: " + std::to_string(family.size()) + " copulas for " +
                                std::to_string(n_pairs) + " pairs");
  }
  out.copulas.resize(n_pairs);
  for (std::size_t p = 0; p < n_pairs; ++p) {
    out.copulas[p].family = family[static_cast<R_xlen_t>(p)];
    out.copulas[p].par = par[static_cast<R_xlen_t>(p)];
    out.copulas[p].par2 = par2[static_cast<R_xlen_t>(p)];
  }
  return out;
}

irtopics::PowerDesign power_of(const Rcpp::List& power, std::size_t n_sys) {
  irtopics::PowerDesign pd;
  const Rcpp::IntegerVector baseline = power["baseline"], start = power["cand_start"],
                            system = power["cand_system"];
  const Rcpp::NumericVector a = power["cand_a"], b = power["cand_b"];
  if (start.size() != baseline.size() + 1 || system.size() != a.size() || a.size() != b.size() ||
      start[0] != 0 || start[start.size() - 1] != system.size()) {
    throw std::invalid_argument("power design: inconsistent lengths");
  }
  for (R_xlen_t k = 0; k < baseline.size(); ++k) {
    if (baseline[k] < 0 || static_cast<std::size_t>(baseline[k]) >= n_sys) throw std::invalid_argument("power design: bad baseline");
    if (start[k + 1] <= start[k]) throw std::invalid_argument("power design: a baseline without candidates");
    pd.baseline.push_back(static_cast<std::size_t>(baseline[k]));
    pd.cand_start.push_back(static_cast<std::size_t>(start[k]));
  }
  pd.cand_start.push_back(static_cast<std::size_t>(start[start.size() - 1]));
  for (R_xlen_t q = 0; q < system.size(); ++q) {
    if (system[q] < 0 || static_cast<std::size_t>(system[q]) >= n_sys) throw std::invalid_argument("power design: bad candidate");
    if (!(a[q] >= 1.0) || !(b[q] >= 1.0)) throw std::invalid_argument("power design: transform exponents must be >= 1");
    pd.cand_system.push_back(static_cast<std::size_t>(system[q]));
    pd.cand_a.push_back(a[q]);
    pd.cand_b.push_back(b[q]);
  }
  return pd;
}

// The setting of n_topics topics: Type I trials when `power` is NULL, else
// the power design, read into `pd` (which the setting points to).
irtopics::Setting setting_of(const irtopics::CalibrationModel& cm, int n_topics,
                             const Rcpp::Nullable<Rcpp::List>& power, irtopics::PowerDesign& pd) {
  irtopics::Setting set;
  set.n_topics = static_cast<std::size_t>(n_topics);
  if (power.isNotNull()) {
    pd = power_of(Rcpp::List(power), cm.margins.size());
    set.power = &pd;
  }
  return set;
}

}  // namespace

// Statistics of trials [first, first + count) of one setting for the tests
// named in `tests` (kNativeTests; an unknown name is refused): a list named
// by kTrialFields, one numeric vector of `count` values per field (NaN for
// the fields of tests not asked for).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calibration_trials(Rcpp::List model, int n_topics, Rcpp::Nullable<Rcpp::List> power,
                                  Rcpp::CharacterVector tests, double B, double sign_tol, double rel_tol,
                                  double setting, double seed, double first, double count, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  irtopics::TestSet ts;
  for (R_xlen_t k = 0; k < tests.size(); ++k) {
    if (Rcpp::CharacterVector::is_na(tests[k])) throw std::invalid_argument("a calibration test name is NA");
    irtopics::add_native_test(ts, std::string(tests[k]));
  }
  ts.B = static_cast<std::size_t>(B);
  ts.sign_tol = sign_tol;
  ts.rel_tol = rel_tol;
  const irtopics::CalibrationModel cm = model_of(model);
  irtopics::PowerDesign pd;
  const irtopics::Setting set = setting_of(cm, n_topics, power, pd);
  const std::size_t n = static_cast<std::size_t>(count);
  std::vector<double> rows(n * irtopics::kNumCols);
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::run_trials(cm, set, static_cast<std::uint64_t>(setting), ts, irtopics::seed_key(seed),
                         static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(count), rows.data(),
                         irtopics_glue::safe_threads(n_threads), cancel);
  });
  Rcpp::List out(irtopics::kNumCols);
  Rcpp::CharacterVector names(irtopics::kNumCols);
  for (const irtopics::TrialField& f : irtopics::kTrialFields) {
    Rcpp::NumericVector column(static_cast<R_xlen_t>(n));
    for (std::size_t r = 0; r < n; ++r) column[static_cast<R_xlen_t>(r)] = rows[r * irtopics::kNumCols + f.col];
    out[f.col] = column;
    names[f.col] = std::string(f.name);
  }
  out.names() = names;
  return out;
  });
}

// The trial loop's tables: the names of the tests it computes, and its
// result fields with the test each belongs to ("" for every trial).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calibration_tables() {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  Rcpp::CharacterVector tests, fields, owner;
  for (const irtopics::NativeTestRecord& r : irtopics::kNativeTests) tests.push_back(std::string(r.name));
  for (const irtopics::TrialField& f : irtopics::kTrialFields) {
    fields.push_back(std::string(f.name));
    owner.push_back(std::string(f.test));
  }
  return Rcpp::List::create(Rcpp::Named("tests") = tests,
                            Rcpp::Named("fields") = Rcpp::DataFrame::create(Rcpp::Named("name") = fields,
                                                                            Rcpp::Named("test") = owner,
                                                                            Rcpp::Named("stringsAsFactors") = false));
  });
}

// The simulated scores of trials [first, first + count) of one setting:
// list(b, e) of n_topics x count matrices (one column per trial) and
// systems, a 2 x count matrix of 0-based (baseline, experimental).
// [[Rcpp::export(rng = false)]]
Rcpp::List cpp_calibration_draw(Rcpp::List model, int n_topics, Rcpp::Nullable<Rcpp::List> power,
                                double setting, double seed, double first, double count, int n_threads) {
  return irtopics_glue::guard([&]() -> Rcpp::List {
  const irtopics::CalibrationModel cm = model_of(model);
  irtopics::PowerDesign pd;
  const irtopics::Setting set = setting_of(cm, n_topics, power, pd);
  Rcpp::NumericMatrix b(n_topics, static_cast<int>(count)), e(n_topics, static_cast<int>(count)),
      systems(2, static_cast<int>(count));
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    irtopics::simulate_trials(cm, set, static_cast<std::uint64_t>(setting), irtopics::seed_key(seed),
                              static_cast<std::uint64_t>(first), static_cast<std::uint64_t>(count), b.begin(),
                              e.begin(), systems.begin(), irtopics_glue::safe_threads(n_threads), cancel);
  });
  return Rcpp::List::create(Rcpp::Named("b") = b, Rcpp::Named("e") = e, Rcpp::Named("systems") = systems);
  });
}

// Quantiles of one tabulated margin (for tests of the simulator's table).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector cpp_margin_quantile(Rcpp::NumericVector knots, Rcpp::NumericVector cdf, bool discrete,
                                        double a, double b, Rcpp::NumericVector u) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericVector {
  if (knots.size() != cdf.size() || knots.size() < 1) throw std::invalid_argument("knots and cdf differ");
  irtopics::MarginRef m;
  m.knots = knots.begin();
  m.cdf = cdf.begin();
  m.size = static_cast<std::size_t>(knots.size());
  m.discrete = discrete;
  m.a = a;
  m.b = b;
  Rcpp::NumericVector out(u.size());
  for (R_xlen_t k = 0; k < u.size(); ++k) out[k] = irtopics::margin_quantile(m, u[k]);
  return out;
  });
}

// Transform exponents (a, b) that give margin `which[k]` (0-based, of the
// lists knots/cdf) the expected value targets[k]: a 2 x K matrix, NaN
// where the target cannot be reached.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericMatrix cpp_transform_exponents(Rcpp::List knots, Rcpp::List cdf, Rcpp::LogicalVector discrete,
                                            Rcpp::IntegerVector which, Rcpp::NumericVector targets, double tol) {
  return irtopics_glue::guard([&]() -> Rcpp::NumericMatrix {
  if (knots.size() != cdf.size() || discrete.size() != knots.size()) throw std::invalid_argument("margins: lengths differ");
  if (which.size() != targets.size()) throw std::invalid_argument("`which` and `targets` differ");
  Rcpp::NumericMatrix out(2, which.size());
  for (R_xlen_t k = 0; k < which.size(); ++k) {
    if (which[k] < 0 || which[k] >= knots.size()) throw std::invalid_argument("margin index out of range");
    const Rcpp::NumericVector kn = knots[which[k]], f = cdf[which[k]];
    if (kn.size() != f.size() || kn.size() < 1) throw std::invalid_argument("knots and cdf differ");
    irtopics::MarginRef m;
    m.knots = kn.begin();
    m.cdf = f.begin();
    m.size = static_cast<std::size_t>(kn.size());
    m.discrete = discrete[which[k]] == TRUE;
    double a = 1, b = 1;
    irtopics::transform_exponent(m, targets[k], tol, a, b);
    out(0, k) = a;
    out(1, k) = b;
  }
  return out;
  });
}

// The expected value of a tabulated margin under a transform (tests).
// [[Rcpp::export(rng = false)]]
double cpp_margin_mean(Rcpp::NumericVector knots, Rcpp::NumericVector cdf, bool discrete, double a, double b) {
  return irtopics_glue::guard([&]() -> double {
  if (knots.size() != cdf.size() || knots.size() < 1) throw std::invalid_argument("knots and cdf differ");
  irtopics::MarginRef m;
  m.knots = knots.begin();
  m.cdf = cdf.begin();
  m.size = static_cast<std::size_t>(knots.size());
  m.discrete = discrete;
  m.a = a;
  m.b = b;
  return irtopics::margin_mean(m);
  });
}
