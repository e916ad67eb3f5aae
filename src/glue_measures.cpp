// Rcpp glue for the measure registry (measure_table.h): the table exported
// to R once (cpp_measure_table(), read by R/eval-measures.R at first use) and the
// requested measures resolved by name (measures_from_r()).
#include "glue_measures.h"

#include <string>

#include "errors.h"
#include "glue_guard.h"
#include "measure_table.h"

using namespace Rcpp;

namespace irtopics_glue {

namespace {

SEXP field(const List& spec, const char* name, int type, R_xlen_t n) {
  if (!spec.containsElementNamed(name)) {
    throw irtopics::Error(irtopics::ErrorKind::measure, std::string("the measure list has no field `") + name + "`");
  }
  SEXP x = spec[name];
  if (TYPEOF(x) != type || XLENGTH(x) != n) {
    throw irtopics::Error(irtopics::ErrorKind::measure,
                          std::string("the measure field `") + name + "` must hold one " +
                              (type == STRSXP ? "name" : "number") + " per measure");
  }
  return x;
}

}  // namespace

std::vector<irtopics::Measure> measures_from_r(const List& spec) {
  if (!spec.containsElementNamed("measure") || TYPEOF(spec["measure"]) != STRSXP) {
    throw irtopics::Error(irtopics::ErrorKind::measure, "the measure list needs a character field `measure`");
  }
  const R_xlen_t n = XLENGTH(spec["measure"]);
  SEXP name = field(spec, "measure", STRSXP, n);
  const double* cutoff = REAL(field(spec, "cutoff", REALSXP, n));
  const double* param = REAL(field(spec, "param", REALSXP, n));
  const int* rel = INTEGER(field(spec, "rel", INTSXP, n));
  const double* u[4] = {REAL(field(spec, "u1", REALSXP, n)), REAL(field(spec, "u2", REALSXP, n)),
                        REAL(field(spec, "u3", REALSXP, n)), REAL(field(spec, "u4", REALSXP, n))};
  const int* judged_only = LOGICAL(field(spec, "judged_only", LGLSXP, n));
  std::vector<irtopics::Measure> out;
  out.reserve(static_cast<std::size_t>(n));
  for (R_xlen_t i = 0; i < n; ++i) {
    irtopics::MeasureRequest q;
    if (STRING_ELT(name, i) == NA_STRING) throw irtopics::Error(irtopics::ErrorKind::measure, "a measure name is NA");
    q.name = CHAR(STRING_ELT(name, i));
    q.cutoff = cutoff[i];
    q.param = param[i];
    if (rel[i] == NA_INTEGER) throw irtopics::Error(irtopics::ErrorKind::measure, "a relevance threshold is NA");
    q.rel = rel[i];
    for (int k = 0; k < 4; ++k) q.utility[k] = u[k][i];
    try {
      out.push_back(irtopics::resolve_measure(q));
      out.back().judged_only = judged_only[i] == TRUE;
    } catch (const std::invalid_argument& e) {
      throw irtopics::Error(irtopics::ErrorKind::measure, e.what());
    }
  }
  return out;
}

}  // namespace irtopics_glue

// The registry as an R data frame, one row per record (R/eval-measures.R joins
// nothing: every measure fact R uses comes from here).
// [[Rcpp::export(rng = false)]]
List cpp_measure_table() {
  return irtopics_glue::guard([&]() -> List {
  const R_xlen_t n = static_cast<R_xlen_t>(irtopics::kNumMeasures);
  CharacterVector name(n), param(n), summary(n), trec(n), trec_cut(n), all_trec(n), spell(n), desc(n);
  CharacterVector domain(n), support(n), better(n), depth(n);
  NumericVector def(n), trec_def(n), lower(n), upper(n);
  LogicalVector rel(n), parity(n);
  auto str = [](const char* s) -> SEXP { return s ? Rf_mkCharCE(s, CE_UTF8) : NA_STRING; };
  for (R_xlen_t i = 0; i < n; ++i) {
    const irtopics::MeasureRecord& r = irtopics::kMeasureTable[i];
    name[i] = str(r.name);
    param[i] = str(irtopics::param_type_name(r.param));
    def[i] = std::isnan(r.default_param) ? NA_REAL : r.default_param;
    trec_def[i] = std::isnan(r.trec_default) ? NA_REAL : r.trec_default;
    rel[i] = r.rel;
    summary[i] = str(r.summary);
    trec[i] = str(r.trec);
    trec_cut[i] = str(r.trec_cut);
    parity[i] = r.trec_parity;
    all_trec[i] = str(r.all_trec);
    spell[i] = str(r.spellings);
    desc[i] = str(r.desc);
    domain[i] = str(irtopics::domain_name(r.values.domain));
    support[i] = str(irtopics::support_name(r.values.support));
    lower[i] = r.values.lower;
    upper[i] = r.values.upper;
    better[i] = str(irtopics::direction_name(r.better));
    depth[i] = str(irtopics::read_depth_name(r.depth));
  }
  return List::create(_["id"] = name, _["param"] = param, _["default"] = def, _["trec_default"] = trec_def,
                      _["rel"] = rel, _["summary"] = summary, _["trec"] = trec, _["trec_cut"] = trec_cut,
                      _["trec_parity"] = parity, _["all_trec"] = all_trec, _["spell"] = spell,
                      _["desc"] = desc, _["domain"] = domain, _["support"] = support, _["lower"] = lower,
                      _["upper"] = upper, _["direction"] = better, _["depth"] = depth);
  });
}
