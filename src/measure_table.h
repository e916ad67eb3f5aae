// The measure registry: one record per measure, the only list of measures in
// the package. A record ties a name to its kernel (a MeasureKind of
// measures.h, computed by compute_measure()/compute_measures()) and carries
// what the R side needs to parse, name, document and summarise it; R reads
// the table once through cpp_measure_table() (src/glue_measures.cpp) and
// never sees a kernel code. Measures cross from R to C++ by name and are
// resolved here (resolve_measure()); an unknown name is refused.
//
// Each record also says which values a per-topic score can take (its
// ValueDomain: discrete with a support built from its parameters, or
// continuous on a range) and which way is better; R's measure_info(),
// score_support() and simulation_model() read them, and no R code parses a
// measure name to find them.
//
// Adding a measure: one record below (with its value domain), one
// MeasureKind with its `case` in compute_measure(), a hand-computed test
// (CONTRIBUTING.md, "How to add a measure").
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
constexpr double kInf = std::numeric_limits<double>::infinity();

// Which values a measure's per-topic score can take.
enum class Domain {
  Unset,       // zero: a record that leaves its domain out (refused at compile time)
  Continuous,  // any value of its range
  Discrete     // only the values of its support (a Support other than None)
};

// The support of a discrete measure as a function of its parameters; n is
// the cut-off when the name gives one, else the evaluation depth (a rank or
// a count cannot pass it). R builds the values (measure_info()).
enum class Support {
  None,         // a continuous measure
  Fractions,    // {0, 1/k, 2/k, ..., 1}: a count in the top k over k (P@k, Judged@k)
  Ratios,       // {j/m : 0 <= j <= m <= k}: a count over min(k, R) (relative_P@k)
  Reciprocals,  // {0} and {1/r : r = 1..n}: one over the first relevant rank (RR, RR@k)
  Binary,       // {0, 1} (Success@k)
  Counts,       // {0, 1, ..., n} (Hits@k; NumRet, NumRelRet at depth n)
  Wholes,       // {0, 1, 2, ...}, no bound (NumRel)
  One           // {1} (NumQ)
};

// Whether a larger per-topic value is a better ranking (None: a count or a
// diagnostic of the judgements, not an effectiveness score). Unset (zero): a
// record that leaves it out, refused at compile time.
enum class Direction { Unset, Higher, Lower, None };

// How deep into its ranked list a measure reads: Cutoff, only the first k
// documents when its name gives a cut-off k (P@10 reads ranks 1-10; without
// a cut-off, the whole list), or All, the whole list whatever its
// parameters (AP, R-Prec, Rprec_mult reads x R ranks). The list is the one
// the kernel gets: with judged_only it is the judged documents of the run,
// whose first k can lie far below rank k, so only a measure that reads
// `Cutoff` and is not judged-only depends on the run's first k lines alone
// (R's measure_read_depth(): compare_qrels() cuts runs by it). Unset
// (zero): a record that leaves it out, refused at compile time.
enum class ReadDepth { Unset, Cutoff, All };

// A measure's value domain: its kind, its support (discrete) and its range,
// the bounds over every parameter value (the range of a listed support is
// the support's own; ranges assume gains >= 0 for the gain measures).
struct ValueDomain {
  Domain domain;
  Support support;
  double lower;
  double upper;
};

inline const char* domain_name(Domain d) {
  switch (d) {
    case Domain::Unset: return "";
    case Domain::Continuous: return "continuous";
    case Domain::Discrete: return "discrete";
  }
  return "";
}

inline const char* support_name(Support s) {
  switch (s) {
    case Support::None: return "none";
    case Support::Fractions: return "fractions";
    case Support::Ratios: return "ratios";
    case Support::Reciprocals: return "reciprocals";
    case Support::Binary: return "binary";
    case Support::Counts: return "counts";
    case Support::Wholes: return "wholes";
    case Support::One: return "one";
  }
  return "";
}

inline const char* read_depth_name(ReadDepth d) {
  switch (d) {
    case ReadDepth::Unset: return "";
    case ReadDepth::Cutoff: return "cutoff";
    case ReadDepth::All: return "all";
  }
  return "";
}

inline const char* direction_name(Direction d) {
  switch (d) {
    case Direction::Unset: return "";
    case Direction::Higher: return "higher";
    case Direction::Lower: return "lower";
    case Direction::None: return "none";
  }
  return "";
}

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
  ValueDomain values;      // the values a per-topic score can take
  Direction better;        // which way is better
  ReadDepth depth;         // how deep into its ranked list it reads
};

namespace table_detail {  // short names for the table only
using K = MeasureKind;
using T = ParamType;
using B = Direction;
using D = ReadDepth;
constexpr const char* kCutoffs = "5 10 15 20 30 100 200 500 1000";

// The value domains of the table (why each measure has its own: CONTRIBUTING.md,
// "Measures and names"). A ratio over a per-topic count with no bound from
// the name (R-Prec j/R, R@k, the set measures) is continuous on [0, 1].
constexpr ValueDomain kUnit{Domain::Continuous, Support::None, 0.0, 1.0};
constexpr ValueDomain kReal{Domain::Continuous, Support::None, -kInf, kInf};
constexpr ValueDomain kNonPositive{Domain::Continuous, Support::None, -kInf, 0.0};
constexpr ValueDomain kFractions{Domain::Discrete, Support::Fractions, 0.0, 1.0};
constexpr ValueDomain kRatios{Domain::Discrete, Support::Ratios, 0.0, 1.0};
constexpr ValueDomain kReciprocals{Domain::Discrete, Support::Reciprocals, 0.0, 1.0};
constexpr ValueDomain kBinary{Domain::Discrete, Support::Binary, 0.0, 1.0};
constexpr ValueDomain kCounts{Domain::Discrete, Support::Counts, 0.0, kInf};
constexpr ValueDomain kWholes{Domain::Discrete, Support::Wholes, 0.0, kInf};
constexpr ValueDomain kOne{Domain::Discrete, Support::One, 1.0, 1.0};

// clang-format off
inline constexpr MeasureRecord kMeasureTable[] = {
  // name, kind, cut_kind, param, default, trec_default, rel, summary, trec, trec_cut, trec_parity, all_trec,
  // spellings, desc, values, better, depth
  {"AP", K::AP, K::APCut, T::OptCut, kNoDefault, kNoDefault, true, "mean", "map", "map_cut", true, "",
   "ap map map_cut", "average precision; `AP@k` (`map_cut_k`, ranx `map@k`) stops at rank k", kUnit, B::Higher, D::Cutoff},
  {"gm_map", K::AP, K::AP, T::None, kNoDefault, kNoDefault, true, "gmean", "gm_map", nullptr, true, "",
   "gm_map gmap", "average precision whose summary is trec_eval's geometric mean (values floored at 1e-5)",
   kUnit, B::Higher, D::All},
  {"P", K::P, K::P, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "P", nullptr, true, kCutoffs,
   "p precision", "precision at k; missing ranks count as non-relevant", kFractions, B::Higher, D::Cutoff},
  {"R-Prec", K::RPrec, K::RPrec, T::None, kNoDefault, kNoDefault, true, "mean", "Rprec", nullptr, true, "",
   "r-prec rprec r-precision r_precision", "precision at rank R (the number of relevant documents)",
   kUnit, B::Higher, D::All},
  {"RR", K::RR, K::RRCut, T::OptCut, kNoDefault, kNoDefault, true, "mean", "recip_rank", nullptr, true, "",
   "rr recip_rank mrr", "reciprocal rank of the first relevant document; `RR@k` (ranx `mrr@k`) within the top k",
   kReciprocals, B::Higher, D::Cutoff},
  {"nDCG", K::NDCG, K::NDCGCut, T::OptCut, kNoDefault, kNoDefault, false, "mean", "ndcg", "ndcg_cut", true, "",
   "ndcg ndcg_cut", "normalised DCG with gains = grades (or `gains`); `nDCG@k` (`ndcg_cut_k`) at k",
   kUnit, B::Higher, D::Cutoff},
  {"Bpref", K::Bpref, K::Bpref, T::None, kNoDefault, kNoDefault, true, "mean", "bpref", nullptr, true, "",
   "bpref", "binary preference", kUnit, B::Higher, D::All},
  {"gm_bpref", K::Bpref, K::Bpref, T::None, kNoDefault, kNoDefault, true, "gmean", "gm_bpref", nullptr, true, "",
   "gm_bpref", "bpref whose summary is trec_eval's geometric mean", kUnit, B::Higher, D::All},
  {"R", K::Recall, K::Recall, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "recall", nullptr, true, kCutoffs,
   "r recall", "recall at k", kUnit, B::Higher, D::Cutoff},
  {"Success", K::Success, K::Success, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "success", nullptr, true,
   "1 5 10", "success hit_rate hitrate",
   "1 if a relevant document is in the top k, else 0 (ranx `hit_rate@k`)", kBinary, B::Higher, D::Cutoff},
  {"Hits", K::Hits, K::Hits, T::Cutoff, kNoDefault, kNoDefault, true, "mean", nullptr, nullptr, false, nullptr,
   "hits", "the number of relevant documents in the top k (ranx `hits@k`; a count, averaged over topics)",
   kCounts, B::Higher, D::Cutoff},
  {"NumRet", K::NumRet, K::NumRet, T::None, kNoDefault, kNoDefault, false, "sum", "num_ret", nullptr, true, "",
   "numret num_ret", "number of documents retrieved (after the depth cut)", kCounts, B::None, D::All},
  {"NumRel", K::NumRel, K::NumRel, T::None, kNoDefault, kNoDefault, true, "sum", "num_rel", nullptr, true, "",
   "numrel num_rel", "number of relevant documents of the topic", kWholes, B::None, D::All},
  {"NumRelRet", K::NumRelRet, K::NumRelRet, T::None, kNoDefault, kNoDefault, true, "sum", "num_rel_ret", nullptr,
   true, "", "numrelret num_rel_ret", "number of relevant documents retrieved", kCounts, B::Higher, D::All},
  {"NumQ", K::NumQ, K::NumQ, T::None, kNoDefault, kNoDefault, false, "sum", "num_q", nullptr, true, "",
   "numq num_q", "1 per topic: its summary is the number of topics", kOne, B::None, D::All},
  {"NumNonrelJudgedRet", K::NumNonrelJudgedRet, K::NumNonrelJudgedRet, T::None, kNoDefault, kNoDefault, true,
   "sum", "num_nonrel_judged_ret", nullptr, true, "", "numnonreljudgedret num_nonrel_judged_ret",
   "number of judged non-relevant documents retrieved", kCounts, B::None, D::All},
  {"infAP", K::InfAP, K::InfAP, T::None, kNoDefault, kNoDefault, true, "mean", "infAP", nullptr, true, "",
   "infap", "inferred AP (Yilmaz & Aslam 2006); qrels grade -1 = in the pool but not judged", kUnit, B::Higher, D::All},
  {"IPrec", K::IPrec, K::IPrec, T::Recall, kNoDefault, kNoDefault, true, "mean", "iprec_at_recall", nullptr, true,
   "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1", "iprec iprec_at_recall",
   "interpolated precision at recall level x (between 0 and 1)", kUnit, B::Higher, D::All},
  {"11pt_avg", K::ElevenPt, K::ElevenPt, T::None, kNoDefault, kNoDefault, true, "mean", "11pt_avg", nullptr, true,
   "", "11pt_avg 11-pt_avg 11ptavg", "mean interpolated precision at recall 0, 0.1, ..., 1", kUnit, B::Higher, D::All},
  {"Rprec_mult", K::RPrecMult, K::RPrecMult, T::Mult, kNoDefault, kNoDefault, true, "mean", "Rprec_mult", nullptr,
   true, "0.2 0.4 0.6 0.8 1 1.2 1.4 1.6 1.8 2", "rprec_mult",
   "precision at rank x R (trec_eval rounds x R + 0.9 down)", kUnit, B::Higher, D::All},
  {"relative_P", K::RelP, K::RelP, T::Cutoff, kNoDefault, kNoDefault, true, "mean", "relative_P", nullptr, true,
   kCutoffs, "relative_p rel_p relp", "precision at k divided by the best possible, min(k, R) / k",
   kRatios, B::Higher, D::Cutoff},
  {"SetP", K::SetP, K::SetP, T::None, kNoDefault, kNoDefault, true, "mean", "set_P", nullptr, true, "",
   "setp set_p", "precision of the whole retrieved set", kUnit, B::Higher, D::All},
  {"SetRelP", K::SetRelP, K::SetRelP, T::None, kNoDefault, kNoDefault, true, "mean", "set_relative_P", nullptr,
   true, "", "setrelp set_relative_p", "set precision relative to the best possible", kUnit, B::Higher, D::All},
  {"SetR", K::SetRecall, K::SetRecall, T::None, kNoDefault, kNoDefault, true, "mean", "set_recall", nullptr, true,
   "", "setr set_recall", "recall of the whole retrieved set", kUnit, B::Higher, D::All},
  {"SetAP", K::SetMap, K::SetMap, T::None, kNoDefault, kNoDefault, true, "mean", "set_map", nullptr, true, "",
   "setap set_map", "set precision x set recall", kUnit, B::Higher, D::All},
  {"SetF", K::SetF, K::SetF, T::Beta, 1.0, kNoDefault, true, "mean", "set_F", nullptr, true, "",
   "setf set_f", "F measure of the retrieved set, (beta + 1) P R / (beta P + R); `beta` (default 1)",
   kUnit, B::Higher, D::All},
  {"unj", K::Unj, K::Unj, T::Cutoff, kNoDefault, kNoDefault, false, "mean", "unj", nullptr, true, "5 10 20",
   "unj", "fraction of the top k that is unjudged", kFractions, B::None, D::Cutoff},
  {"Judged", K::Judged, K::Judged, T::Cutoff, kNoDefault, kNoDefault, false, "mean", nullptr, nullptr, false,
   nullptr, "judged", "fraction of the top k that is judged (ir_measures; 1 - unj@k)", kFractions, B::None, D::Cutoff},
  {"utility", K::Utility, K::Utility, T::Utility, kNoDefault, kNoDefault, true, "mean", "utility", nullptr, true,
   "", "utility", "p1 a + p2 b + p3 c (+ p4 d, with no collection size: 0), default 1, -1, 0, 0", kReal, B::Higher, D::All},
  {"G", K::G, K::G, T::None, kNoDefault, kNoDefault, false, "mean", "G", nullptr, true, "",
   "g", "trec_eval's normalised gain G (experimental)", kUnit, B::Higher, D::All},
  {"binG", K::BinG, K::BinG, T::None, kNoDefault, kNoDefault, true, "mean", "binG", nullptr, true, "",
   "bing", "trec_eval's binary G (experimental)", kUnit, B::Higher, D::All},
  {"Rndcg", K::Rndcg, K::Rndcg, T::None, kNoDefault, kNoDefault, false, "mean", "Rndcg", nullptr, true, "",
   "rndcg", "nDCG averaged at the R levels (experimental)", kUnit, B::Higher, D::All},
  {"ndcg_rel", K::NdcgRel, K::NdcgRel, T::None, kNoDefault, kNoDefault, false, "mean", "ndcg_rel", nullptr, true,
   "", "ndcg_rel", "nDCG averaged over the relevant documents (experimental)", kUnit, B::Higher, D::All},
  {"ERR", K::ERR, K::ERR, T::OptCut, 4.0, kNoDefault, false, "mean", nullptr, nullptr, false, nullptr,
   "err", "expected reciprocal rank (Chapelle et al. 2009) with gdeval's gains (2^g - 1) / 16; `ERR@k` at k",
   kUnit, B::Higher, D::Cutoff},
  {"RBP", K::RBP, K::RBP, T::P, 0.8, 0.9, true, "mean", "rbp", nullptr, false, nullptr, "rbp",
   "rank-biased precision (Moffat & Zobel 2008), persistence `p` (default 0.8; trec_eval's spelling `rbp` 0.9)",
   kUnit, B::Higher, D::All},
  {"RBP_resid", K::RBPResid, K::RBPResid, T::P, 0.8, 0.9, true, "mean", "rbp_resid", nullptr, false, nullptr,
   "rbp_resid rbpresid rbp-resid",
   "the RBP residual: the weight of unjudged ranks and of the ranks past the list", kUnit, B::None, D::All},
  {"Exclusion", K::Exclusion, K::Exclusion, T::None, kNoDefault, kNoDefault, true, "mean", nullptr, nullptr,
   false, nullptr, "exclusion n25", "Liggett & Buckley's exclusion measure -log10(N25 + 1)", kNonPositive, B::Higher, D::All},
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
// Every record has a value domain and a direction (a record that leaves
// them out gets the Unset zeros), and they agree with its parameter: a
// discrete measure names its support and a continuous one none; a support
// built from k needs a required cut-off, one built from n a cut-off or
// none (n is then the depth); the range is the support's bounds (the unit
// interval, the whole numbers, {1}) or, for a continuous measure, an
// interval of positive length.
constexpr bool domain_is_valid(const MeasureRecord& r) {
  const ValueDomain& v = r.values;
  if (v.domain == Domain::Unset || r.better == Direction::Unset) return false;
  // a measure reads only its first k documents only if it takes a cut-off k
  if (r.depth == ReadDepth::Unset) return false;
  if (r.depth == ReadDepth::Cutoff && r.param != ParamType::Cutoff && r.param != ParamType::OptCut) return false;
  if ((v.domain == Domain::Discrete) != (v.support != Support::None)) return false;
  if (v.domain == Domain::Continuous && !(v.lower < v.upper)) return false;
  const bool cut_or_depth = r.param == ParamType::Cutoff || r.param == ParamType::OptCut ||
                            r.param == ParamType::None;
  switch (v.support) {
    case Support::None:
      break;
    case Support::Fractions:
    case Support::Ratios:
      if (r.param != ParamType::Cutoff) return false;
      if (v.lower != 0.0 || v.upper != 1.0) return false;
      break;
    case Support::Reciprocals:
      if (!cut_or_depth || v.lower != 0.0 || v.upper != 1.0) return false;
      break;
    case Support::Binary:
      if (v.lower != 0.0 || v.upper != 1.0) return false;
      break;
    case Support::Counts:
      if (!cut_or_depth || v.lower != 0.0 || v.upper != kInf) return false;
      break;
    case Support::Wholes:
      if (v.lower != 0.0 || v.upper != kInf) return false;
      break;
    case Support::One:
      if (v.lower != 1.0 || v.upper != 1.0) return false;
      break;
  }
  return true;
}

constexpr bool domains_are_valid() {
  for (const auto& r : kMeasureTable) {
    if (!domain_is_valid(r)) return false;
  }
  return true;
}
}  // namespace detail

static_assert(detail::table_is_complete(),
              "every MeasureKind needs a record in kMeasureTable, and names must be unique");
static_assert(detail::domains_are_valid(),
              "every record of kMeasureTable needs a value domain that fits its parameter, a direction and a "
              "read depth (Cutoff only with a cut-off)");

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
