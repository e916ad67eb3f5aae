// Per-topic effectiveness measures computed from a relevance profile, with
// the conventions of trec_eval 10.0 (m_map.c, m_P.c, m_Rprec.c,
// m_recip_rank.c, m_ndcg.c, m_ndcg_cut.c, m_bpref.c, m_recall.c,
// m_success.c, m_map_cut.c, m_num_*.c) and the Liggett & Buckley (2005)
// exclusion measure -log10(N25 + 1) (spec section 1.3, reconstructed).
//
// Pure C++: no R types.
#ifndef IRTOPICS_MEASURES_H
#define IRTOPICS_MEASURES_H

#include <cstdint>
#include <vector>

namespace irtopics {

// Grade codes of retrieved documents that are not judged (trec_eval's
// RELVALUE_NONPOOL and RELVALUE_UNJUDGED).
constexpr int kNotInPool = -1;
constexpr int kUnjudged = -2;

// What every measure needs for one (system, topic): the grades of the
// retrieved documents in trec_eval order, cut at the depth, and the topic's
// judgement counts.
struct Profile {
  const int* grade = nullptr;     // grade of the document at rank i + 1
  long num_ret = 0;
  long num_rel = 0;               // judged with grade >= relevance_level
  long num_nonrel = 0;            // judged with 0 <= grade < relevance_level
  const std::vector<long>* levels = nullptr;  // judged documents per grade 0..max
  int relevance_level = 1;
};

enum class MeasureKind {
  AP, P, RPrec, RR, NDCG, NDCGCut, Bpref, Recall, Success, NumRet, NumRel,
  NumRelRet, APCut, Exclusion
};

struct Measure {
  MeasureKind kind;
  long cutoff = 0;        // P, NDCGCut, Recall, Success, APCut
  double fraction = 0.25; // Exclusion
  long depth = 1000;      // Exclusion: the list length L
};

// nDCG gains: gain[g] for grade g >= 0 (default: the grade itself).
struct Gains {
  std::vector<double> by_grade;  // empty: identity
  double of(int grade) const {
    if (grade < 0) return 0.0;
    if (by_grade.empty()) return static_cast<double>(grade);
    return static_cast<std::size_t>(grade) < by_grade.size() ? by_grade[grade]
                                                              : static_cast<double>(grade);
  }
};

// The value of one measure. `work` is scratch space reused across calls.
double compute_measure(const Measure& m, const Profile& p, const Gains& gains,
                       std::vector<double>& work);

}  // namespace irtopics

#endif
