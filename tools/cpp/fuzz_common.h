// Helpers shared by the libFuzzer targets.
#ifndef IRTOPICS_TOOLS_FUZZ_COMMON_H
#define IRTOPICS_TOOLS_FUZZ_COMMON_H

#include <cmath>
#include <cstring>
#include <vector>

#include "fixtures.h"

namespace fuzzing {

// Two measure values agree when they are the same double or both NaN
// (the exclusion measure is NaN for a topic without relevant documents).
inline bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b;
}

inline bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) if (!same_value(a[i], b[i])) return false;
  return true;
}

// The fixed qrels, parsed once and prepared at relevance level 1.
inline const irtopics::Qrels& small_qrels() {
  static irtopics::Qrels* q = [] {
    auto* out = new irtopics::Qrels();
    fixtures::load_qrels(*out, fixtures::small_qrels_text());
    return out;
  }();
  return *q;
}

}  // namespace fuzzing

#endif
