// Small fixed inputs shared by the C++ test driver and the fuzz targets: a
// qrels to evaluate fuzzed runs against, a run to evaluate fuzzed qrels with,
// and the measure list (every record of the registry). Not part of the
// package (tools/ is not built).
#ifndef IRTOPICS_TOOLS_FIXTURES_H
#define IRTOPICS_TOOLS_FIXTURES_H

#include <string>
#include <vector>

#include "evaluate.h"
#include "measure_table.h"
#include "measures.h"
#include "trec_io.h"

namespace fixtures {

// Topics 1, 2 and 301 (the last with docnos of trec_eval's test collection,
// so that seeds taken from results.test hit judged documents), graded 0..3
// plus one "in the pool but unjudged" (-1) judgement.
inline const char* small_qrels_text() {
  return "1 0 a 1\n"
         "1 0 b 0\n"
         "1 0 c 2\n"
         "1 0 d -1\n"
         "2 0 a 0\n"
         "2 0 x 3\n"
         "301 0 CR93E-10279 0\n"
         "301 0 CR93E-1282 1\n"
         "301 0 FR940202-2-00150 2\n"
         "301 0 FR940202-2-00151 1\n";
}

// A run over the same topics, grouped by topic, with a tie on topic 1.
inline const char* small_run_text() {
  return "1 Q0 c 1 3.0 fix\n"
         "1 Q0 z 2 2.0 fix\n"
         "1 Q0 a 3 2.0 fix\n"
         "1 Q0 b 4 1.5 fix\n"
         "1 Q0 d 5 1.0 fix\n"
         "2 Q0 a 1 9 fix\n"
         "2 Q0 x 2 8 fix\n"
         "3 Q0 a 1 1 fix\n"
         "301 Q0 FR940202-2-00151 1 2.5 fix\n"
         "301 Q0 CR93E-1282 2 2.4 fix\n"
         "301 Q0 CR93E-10279 3 2.3 fix\n";
}

// Parses and prepares a qrels from text; throws InputError.
inline void load_qrels(irtopics::Qrels& q, const std::string& text, int level = 1,
                       const std::string& name = "qrels") {
  q.file = name;
  q.text = text;
  irtopics::parse_qrels(q);
  q.prepare(level);
}

inline irtopics::Measure measure(irtopics::MeasureKind kind, long cutoff = 0) {
  irtopics::Measure m;
  m.kind = kind;
  m.cutoff = cutoff;
  return m;
}

// A measure of the registry by name (src/measure_table.h), as R asks for it.
inline irtopics::Measure named(const std::string& name, double cutoff = 0,
                               double param = irtopics::kNoDefault) {
  irtopics::MeasureRequest q;
  q.name = name;
  q.cutoff = cutoff;
  q.param = param;
  return irtopics::resolve_measure(q);
}

// Every measure of the registry (so every kernel), read from the table:
// with a small cut-off where it takes one (both forms where it is optional),
// a mid-range level or multiple, and defaults otherwise. A record added to
// src/measure_table.h is fuzzed and driven without an edit here.
inline std::vector<irtopics::Measure> all_measures() {
  using T = irtopics::ParamType;
  std::vector<irtopics::Measure> out;
  for (const auto& r : irtopics::kMeasureTable) {
    switch (r.param) {
      case T::Cutoff: out.push_back(named(r.name, 2)); break;
      case T::OptCut:
        out.push_back(named(r.name));
        out.push_back(named(r.name, 3));
        break;
      case T::Recall: out.push_back(named(r.name, 0, 0.5)); break;
      case T::Mult: out.push_back(named(r.name, 0, 0.6)); break;
      default: out.push_back(named(r.name)); break;
    }
  }
  return out;
}

}  // namespace fixtures

#endif
