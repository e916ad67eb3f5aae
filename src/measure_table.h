// The measure registry: one record per measure, the only list of measures in
// the package. A record ties a name to its kernel (a MeasureKind of
// measures.h, computed by compute_measure()/compute_measures()) and carries
// what the R side needs to parse, name, document and summarise it; R reads
// the table once through cpp_measure_table() (src/glue_measures.cpp) and
// never sees a kernel code. Measures cross from R to C++ by name and are
// resolved here (resolve_measure()); an unknown name is refused.
//
// Adding a measure: one record below, one MeasureKind with its `case` in
// compute_measure(), a hand-computed test (CONTRIBUTING.md, "How to add a
// measure").
//
// Pure C++: no R types.
#ifndef IRTOPICS_MEASURE_TABLE_H
#define IRTOPICS_MEASURE_TABLE_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include "measures.h"

namespace irtopics {

// The parameter a measure's name carries.
enum class ParamType {
  None,     // no parameter
  Cutoff,   // a cut-off k >= 1, required (P@10)
  OptCut,   // an optional cut-off: `cut_kind` computes the measure with it (AP@10)
  Recall,   // a recall level in [0, 1] (IPrec@0.1)
  Mult,     // a positive multiple of R (Rprec_mult@0.2)
  Beta,     // F's beta >= 0, optional (SetF(beta=0.5))
  P,        // a persistence in (0, 1), optional (RBP(p=0.8))
  Utility   // four coefficients, optional (utility(2,-1,0,0))
};

inline const char* param_type_name(ParamType t) {
  switch (t) {
    case ParamType::None: return "none";
    case ParamType::Cutoff: return "cutoff";
    case ParamType::OptCut: return "optcut";
    case ParamType::Recall: return "recall";
    case ParamType::Mult: return "mult";
    case ParamType::Beta: return "beta";
    case ParamType::P: return "p";
    case ParamType::Utility: return "utility";
  }
  return "";
}

constexpr double kNoDefault = std::numeric_limits<double>::quiet_NaN();

struct MeasureRecord {
  const char* name;        // canonical name (the ir_measures spelling where it has one)
  MeasureKind kind;        // the kernel
  MeasureKind cut_kind;    // the kernel when a cut-off is given (OptCut; else = kind)
  ParamType param;
  double default_param;    // the parameter when the name gives none (kNoDefault: none)
  double trec_default;     // the same for a lower-case spelling (trec_eval's), or kNoDefault
  bool rel;                // takes a per-measure relevance threshold, `(rel=k)`
  const char* summary;     // trec_eval's 'all' line: "mean", "sum" or "gmean"
  const char* trec;        // trec_eval's stem, or nullptr
  const char* trec_cut;    // trec_eval's stem of the cut-off variant (OptCut), or nullptr
  bool trec_parity;        // trec_eval 10 prints this number (the parity tests compare it)
  const char* all_trec;    // values in `-m all_trec` ("": no parameter; nullptr: not in it)
  const char* spellings;   // other accepted stems, lower case, space separated
  const char* desc;        // one line for ?measures (markdown)
};

namespace table_detail {  // short names for the table only
using K = MeasureKind;
using T = ParamType;
constexpr const char* kCutoffs = "5 10 15 20 30 100 200 500 1000";

// clang-format off
inline constexpr MeasureRecord kMeasureTable[] = {
  // name, kind, cut_kind, param, default, trec_default, rel, summary, trec, trec_cut, trec_parity, all_trec, spellings, desc
  {"AP", K::AP, K::APCut, T::OptCut, kNoDefault, kNoDefault, true, "mean", "map", "map_cut", true, "",
   "ap map map_cut", "average precision; `AP@k` (`map_cut_k`, ranx `map@k`) stops at rank k"},
  {"gm_map", K::AP, K::AP, T::None, kNoDefault, kNoDefault, true, "gmean", "gm_map", nullptr, true, "",
   "gm_map gmap", "average precision whose summary is trec_eval's geometric mean (values floored at 1e-5)"},
  {"P", K::P, K::P, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "P", nullptr, true, kCutoffs,
   "p precision", "precision at k; missing ranks count as non-relevant"},
  {"R-Prec", K::RPrec, K::RPrec, T::None, kNoDefault, kNoDefault, true, "mean", "Rprec", nullptr, true, "",
   "r-prec rprec r-precision r_precision", "precision at rank R (the number of relevant documents)"},
  {"RR", K::RR, K::RRCut, T::OptCut, kNoDefault, kNoDefault, true, "mean", "recip_rank", nullptr, true, "",
   "rr recip_rank mrr", "reciprocal rank of the first relevant document; `RR@k` (ranx `mrr@k`) within the top k"},
  {"nDCG", K::NDCG, K::NDCGCut, T::OptCut, kNoDefault, kNoDefault, false, "mean", "ndcg", "ndcg_cut", true, "",
   "ndcg ndcg_cut", "normalised DCG with gains = grades (or `gains`); `nDCG@k` (`ndcg_cut_k`) at k"},
  {"Bpref", K::Bpref, K::Bpref, T::None, kNoDefault, kNoDefault, true, "mean", "bpref", nullptr, true, "",
   "bpref", "binary preference"},
  {"gm_bpref", K::Bpref, K::Bpref, T::None, kNoDefault, kNoDefault, true, "gmean", "gm_bpref", nullptr, true, "",
   "gm_bpref", "bpref whose summary is trec_eval's geometric mean"},
  {"R", K::Recall, K::Recall, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "recall", nullptr, true, kCutoffs,
   "r recall", "recall at k"},
  {"Success", K::Success, K::Success, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "success", nullptr, true,
   "1 5 10", "success hit_rate hitrate",
   "1 if a relevant document is in the top k, else 0 (ranx `hit_rate@k`)"},
  {"Hits", K::Hits, K::Hits, T::Cutoff, kNoDefault, kNoDefault, true, "mean", nullptr, nullptr, false, nullptr,
   "hits", "the number of relevant documents in the top k (ranx `hits@k`; a count, averaged over topics)"},
  {"NumRet", K::NumRet, K::NumRet, T::None, kNoDefault, kNoDefault, false, "sum", "num_ret", nullptr, true, "",
   "numret num_ret", "number of documents retrieved (after the depth cut)"},
  {"NumRel", K::NumRel, K::NumRel, T::None, kNoDefault, kNoDefault, true, "sum", "num_rel", nullptr, true, "",
   "numrel num_rel", "number of relevant documents of the topic"},
  {"NumRelRet", K::NumRelRet, K::NumRelRet, T::None, kNoDefault, kNoDefault, true, "sum", "num_rel_ret", nullptr,
   true, "", "numrelret num_rel_ret", "number of relevant documents retrieved"},
  {"NumQ", K::NumQ, K::NumQ, T::None, kNoDefault, kNoDefault, false, "sum", "num_q", nullptr, true, "",
   "numq num_q", "1 per topic: its summary is the number of topics"},
  {"NumNonrelJudgedRet", K::NumNonrelJudgedRet, K::NumNonrelJudgedRet, T::None, kNoDefault, kNoDefault, true,
   "sum", "num_nonrel_judged_ret", nullptr, true, "", "numnonreljudgedret num_nonrel_judged_ret",
   "number of judged non-relevant documents retrieved"},
  {"infAP", K::InfAP, K::InfAP, T::None, kNoDefault, kNoDefault, true, "mean", "infAP", nullptr, true, "",
   "infap", "inferred AP (Yilmaz & Aslam 2006); qrels grade -1 = in the pool but not judged"},
  {"IPrec", K::IPrec, K::IPrec, T::Recall, kNoDefault, kNoDefault, true, "mean", "iprec_at_recall", nullptr, true,
   "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1", "iprec iprec_at_recall",
   "interpolated precision at recall level x (between 0 and 1)"},
  {"11pt_avg", K::ElevenPt, K::ElevenPt, T::None, kNoDefault, kNoDefault, true, "mean", "11pt_avg", nullptr, true,
   "", "11pt_avg 11-pt_avg 11ptavg", "mean interpolated precision at recall 0, 0.1, ..., 1"},
  {"Rprec_mult", K::RPrecMult, K::RPrecMult, T::Mult, kNoDefault, kNoDefault, true, "mean", "Rprec_mult", nullptr,
   true, "0.2 0.4 0.6 0.8 1 1.2 1.4 1.6 1.8 2", "rprec_mult",
   "precision at rank x R (trec_eval rounds x R + 0.9 down)"},
  {"relative_P", K::RelP, K::RelP, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "relative_P", nullptr, true,
   kCutoffs, "relative_p rel_p relp", "precision at k divided by the best possible, min(k, R) / k"},
  {"SetP", K::SetP, K::SetP, T::None, kNoDefault, kNoDefault, true, "mean", "set_P", nullptr, true, "",
   "setp set_p", "precision of the whole retrieved set"},
  {"SetRelP", K::SetRelP, K::SetRelP, T::None, kNoDefault, kNoDefault, true, "mean", "set_relative_P", nullptr,
   true, "", "setrelp set_relative_p", "set precision relative to the best possible"},
  {"SetR", K::SetRecall, K::SetRecall, T::None, kNoDefault, kNoDefault, true, "mean", "set_recall", nullptr, true,
   "", "setr set_recall", "recall of the whole retrieved set"},
  {"SetAP", K::SetMap, K::SetMap, T::None, kNoDefault, kNoDefault, true, "mean", "set_map", nullptr, true, "",
   "setap set_map", "set precision x set recall"},
  {"SetF", K::SetF, K::SetF, T::Beta, 1.0, kNoDefault, true, "mean", "set_F", nullptr, true, "",
   "setf set_f", "F measure of the retrieved set, (beta + 1) P R / (beta P + R); `beta` (default 1)"},
  {"unj", K::Unj, K::Unj, T::Cutoff, kNoDefault, kNoDefault, false, "mean", "unj", nullptr, true, "5 10 20",
   "unj", "fraction of the top k that is unjudged"},
  {"Judged", K::Judged, K::Judged, T::Cutoff, kNoDefault, kNoDefault, false, "mean", nullptr, nullptr, false,
   nullptr, "judged", "fraction of the top k that is judged (ir_measures; 1 - unj@k)"},
  {"utility", K::Utility, K::Utility, T::Utility, kNoDefault, kNoDefault, true, "mean", "utility", nullptr, true,
   "", "utility", "p1 a + p2 b + p3 c (+ p4 d, with no collection size: 0), default 1, -1, 0, 0"},
  {"G", K::G, K::G, T::None, kNoDefault, kNoDefault, false, "mean", "G", nullptr, true, "",
   "g", "trec_eval's normalised gain G (experimental)"},
  {"binG", K::BinG, K::BinG, T::None, kNoDefault, kNoDefault, true, "mean", "binG", nullptr, true, "",
   "bing", "trec_eval's binary G (experimental)"},
  {"Rndcg", K::Rndcg, K::Rndcg, T::None, kNoDefault, kNoDefault, false, "mean", "Rndcg", nullptr, true, "",
   "rndcg", "nDCG averaged at the R levels (experimental)"},
  {"ndcg_rel", K::NdcgRel, K::NdcgRel, T::None, kNoDefault, kNoDefault, false, "mean", "ndcg_rel", nullptr, true,
   "", "ndcg_rel", "nDCG averaged over the relevant documents (experimental)"},
  {"ERR", K::ERR, K::ERR, T::OptCut, 4.0, kNoDefault, false, "mean", nullptr, nullptr, false, nullptr,
   "err", "expected reciprocal rank (Chapelle et al. 2009) with gdeval's gains (2^g - 1) / 16; `ERR@k` at k"},
  {"RBP", K::RBP, K::RBP, T::P, 0.8, 0.9, true, "mean", "rbp", nullptr, false, nullptr, "rbp",
   "rank-biased precision (Moffat & Zobel 2008), persistence `p` (default 0.8; trec_eval's spelling `rbp` 0.9)"},
  {"RBP_resid", K::RBPResid, K::RBPResid, T::P, 0.8, 0.9, true, "mean", "rbp_resid", nullptr, false, nullptr,
   "rbp_resid rbpresid rbp-resid",
   "the RBP residual: the weight of unjudged ranks and of the ranks past the list"},
  {"Exclusion", K::Exclusion, K::Exclusion, T::None, kNoDefault, kNoDefault, true, "mean", nullptr, nullptr,
   false, nullptr, "exclusion n25", "Liggett & Buckley's exclusion measure -log10(N25 + 1)"},
};
// clang-format on
}  // namespace table_detail

using table_detail::kMeasureTable;

constexpr std::size_t kNumMeasures = sizeof(kMeasureTable) / sizeof(kMeasureTable[0]);

namespace detail {
constexpr bool same_name(const char* a, const char* b) {
  while (*a && *a == *b) { ++a; ++b; }
  return *a == *b;
}
// Every kernel is reachable from some record, and every name is unique.
constexpr bool table_is_complete() {
  for (int k = 0; k < kNumMeasureKinds; ++k) {
    bool found = false;
    for (const auto& r : kMeasureTable) {
      if (static_cast<int>(r.kind) == k || static_cast<int>(r.cut_kind) == k) found = true;
    }
    if (!found) return false;
  }
  for (std::size_t i = 0; i < kNumMeasures; ++i)
    for (std::size_t j = i + 1; j < kNumMeasures; ++j)
      if (same_name(kMeasureTable[i].name, kMeasureTable[j].name)) return false;
  return true;
}
}  // namespace detail

static_assert(detail::table_is_complete(),
              "every MeasureKind needs a record in kMeasureTable, and names must be unique");

// The record of a canonical name (exact), or nullptr.
inline const MeasureRecord* find_measure(std::string_view name) {
  for (const auto& r : kMeasureTable) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

// The parameters of one requested measure, by name; what R's parse_measure()
// produces (R/eval-measures.R).
struct MeasureRequest {
  std::string name;          // a record's canonical name, e.g. "AP", "P"
  double cutoff = 0;         // 0: none
  double param = kNoDefault; // NaN: the record's default
  int rel = 0;               // 0: the evaluation's relevance level
  double utility[4] = {1.0, -1.0, 0.0, 0.0};
};

// A Measure for the kernels, checked against its record. Throws
// std::invalid_argument naming the problem: an unknown name, a cut-off a
// measure does not take (or lacks), a parameter out of its range.
inline Measure resolve_measure(const MeasureRequest& q) {
  const MeasureRecord* r = find_measure(q.name);
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument("measure \"" + q.name + "\": " + what);
  };
  if (r == nullptr) fail("unknown measure");
  const double cutoff_max = static_cast<double>(std::numeric_limits<int>::max());
  if (!(q.cutoff >= 0 && q.cutoff <= cutoff_max) || q.cutoff != std::floor(q.cutoff)) {
    fail("the cut-off must be a whole number in [0, 2147483647]");
  }
  const bool has_cut = q.cutoff > 0;
  if (r->param == ParamType::Cutoff && !has_cut) fail("needs a cut-off of at least 1");
  if (r->param != ParamType::Cutoff && r->param != ParamType::OptCut && has_cut) fail("takes no cut-off");
  if (q.rel < 0 || (q.rel > 0 && !r->rel)) fail("takes no relevance threshold");
  Measure m;
  m.kind = has_cut ? r->cut_kind : r->kind;
  m.cutoff = static_cast<long>(q.cutoff);
  m.rel = q.rel;
  const double v = std::isnan(q.param) ? r->default_param : q.param;
  switch (r->param) {
    case ParamType::Recall:
      if (!(v >= 0 && v <= 1)) fail("the recall level must lie in [0, 1]");
      break;
    case ParamType::Mult:
      if (!(v > 0 && v <= 1e6)) fail("the multiple of R must lie in (0, 1e6]");
      break;
    case ParamType::Beta:
      if (!(v >= 0 && v <= 1e6)) fail("beta must lie in [0, 1e6]");
      break;
    case ParamType::P:
      if (!(v > 0 && v < 1)) fail("the persistence must lie in (0, 1)");
      break;
    case ParamType::Utility:
      for (int k = 0; k < 4; ++k) {
        if (!std::isfinite(q.utility[k])) fail("the utility coefficients must be finite");
        m.utility[k] = q.utility[k];
      }
      break;
    default:
      break;
  }
  m.param = std::isnan(v) ? 0.0 : v;
  return m;
}

}  // namespace irtopics

#endif
