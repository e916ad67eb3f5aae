// Small fixed inputs shared by the C++ test driver and the fuzz targets: a
// qrels to evaluate fuzzed runs against, a run to evaluate fuzzed qrels with,
// and the measure lists. Not part of the package (tools/ is not built).
#ifndef IRTOPICS_TOOLS_FIXTURES_H
#define IRTOPICS_TOOLS_FIXTURES_H

#include <string>
#include <vector>

#include "evaluate.h"
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

// Every measure kind, with small cutoffs so that short runs reach them.
inline std::vector<irtopics::Measure> all_measures() {
  using K = irtopics::MeasureKind;
  return {measure(K::AP),          measure(K::P, 2),       measure(K::RPrec),
          measure(K::RR),          measure(K::NDCG),       measure(K::NDCGCut, 3),
          measure(K::Bpref),       measure(K::Recall, 3),  measure(K::Success, 1),
          measure(K::NumRet),      measure(K::NumRel),     measure(K::NumRelRet),
          measure(K::APCut, 2),    measure(K::Exclusion)};
}

}  // namespace fixtures

#endif
