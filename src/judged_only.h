// Judged-only evaluation (trec_eval -J, ir_measures' `judged_only=True`):
// the documents without a judgement are removed from a topic's ranking
// before a measure is computed. As in trec_eval's form_res_rels.c, the
// ranking is first ordered and cut at the depth (-M), then every document
// whose grade is negative (not in the pool, kNotInPool, or in the pool but
// unjudged, kUnjudged) is dropped, the others keeping their order: the
// filtered list is shorter (num_ret counts only judged documents) and may
// be empty. A measure flagged `judged_only` is computed on that list, the
// others on the full one, so one evaluation can mix both.
//
// A separate step between the qrels lookups and the measures: the
// evaluator calls compute_topic_measures() where it would call
// compute_measures(), and nothing else in it changes.
//
// Pure C++: no R types.
#ifndef IRTOPICS_JUDGED_ONLY_H
#define IRTOPICS_JUDGED_ONLY_H

#include <cstddef>
#include <vector>

#include "measures.h"

namespace irtopics {

// Scratch space of one thread, reused across topics.
struct JudgedOnlyWorkspace {
  std::vector<int> grades;            // the judged documents' grades, in rank order
  std::vector<Measure> full, judged;  // the measures of each list
  std::vector<std::size_t> full_at, judged_at;  // their positions in the output
  std::vector<double> values;
};

// Copies the grades of the judged documents of `p` (grade >= 0), in order,
// into `out`, and returns the profile of that list.
inline Profile judged_profile(const Profile& p, std::vector<int>& out) {
  out.clear();
  for (long i = 0; i < p.num_ret; ++i) {
    if (p.grade[i] >= 0) out.push_back(p.grade[i]);
  }
  Profile q = p;
  q.grade = out.data();
  q.num_ret = static_cast<long>(out.size());
  return q;
}

// The values of `ms` for one topic, in order, into `out`: compute_measures()
// on the full ranking for the measures without `judged_only`, on the
// judged documents for those with it. Without any judged-only measure this
// is compute_measures() itself.
inline void compute_topic_measures(const std::vector<Measure>& ms, const Profile& p, const Gains& gains,
                                   MeasureCache& cache, JudgedOnlyWorkspace& ws, double* out) {
  std::size_t n_judged = 0;
  for (const Measure& m : ms) n_judged += m.judged_only ? 1 : 0;
  if (n_judged == 0) {
    compute_measures(ms, p, gains, cache, out);
    return;
  }
  const Profile q = judged_profile(p, ws.grades);
  if (n_judged == ms.size()) {
    compute_measures(ms, q, gains, cache, out);
    return;
  }
  ws.full.clear();
  ws.judged.clear();
  ws.full_at.clear();
  ws.judged_at.clear();
  for (std::size_t k = 0; k < ms.size(); ++k) {
    if (ms[k].judged_only) {
      ws.judged.push_back(ms[k]);
      ws.judged_at.push_back(k);
    } else {
      ws.full.push_back(ms[k]);
      ws.full_at.push_back(k);
    }
  }
  ws.values.resize(ms.size());
  compute_measures(ws.full, p, gains, cache, ws.values.data());
  for (std::size_t k = 0; k < ws.full.size(); ++k) out[ws.full_at[k]] = ws.values[k];
  compute_measures(ws.judged, q, gains, cache, ws.values.data());
  for (std::size_t k = 0; k < ws.judged.size(); ++k) out[ws.judged_at[k]] = ws.values[k];
}

}  // namespace irtopics

#endif
