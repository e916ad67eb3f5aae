// Per-topic effectiveness measures computed from a relevance profile, with
// the conventions of trec_eval 10.0: every per-topic measure of its
// `-m all_trec` set (m_map.c, m_P.c, m_Rprec.c, m_recip_rank.c, m_ndcg*.c,
// m_bpref.c, m_gm_bpref.c, m_recall.c, m_success.c, m_map_cut.c, m_num_*.c,
// m_infap.c, m_iprec_at_recall.c, m_11pt_avg.c, m_Rprec_mult.c, m_rel_P.c,
// m_set_*.c, m_unjudged.c, m_utility.c, m_G.c, m_binG.c, m_Rndcg.c,
// m_ndcg_rel.c, m_num_q.c); beyond trec_eval, Judged@k (ir_measures: the
// judged fraction of the top k), ERR@k (Chapelle et al. 2009, CIKM, eq. 4,
// with gdeval's gains (2^g - 1) / 2^4), RBP and its residual (Moffat & Zobel
// 2008, TOIS 27(1), eqs. 2 and 6; trec_eval 10's m_rbp.c reads uninitialised
// memory, so RBP follows the paper), and the Liggett & Buckley (2005)
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
  NumRelRet, APCut, Exclusion,
  // trec_eval all_trec measures added with the complete evaluation core
  InfAP, IPrec, ElevenPt, RPrecMult, RelP, SetP, SetRecall, SetF, SetMap, SetRelP, Unj,
  Utility, NumNonrelJudgedRet, G, BinG, Rndcg, NdcgRel, NumQ,
  // beyond trec_eval
  Judged, ERR, RBP, RBPResid, RRCut, Hits,
  Last = Hits  // keep = the last kind: the registry checks that each has a record
};

// The number of kernels; src/measure_table.h checks at compile time that
// every one has a record (measures cross from R by name, never by code).
constexpr int kNumMeasureKinds = static_cast<int>(MeasureKind::Last) + 1;

struct Measure {
  MeasureKind kind;
  long cutoff = 0;        // P, NDCGCut, Recall, Success, Hits, APCut, RelP, Unj, Judged,
                          // ERR, RRCut (0 = whole list for ERR)
  double param = 0.0;     // IPrec: recall level; RPrecMult: multiple of R; SetF: beta;
                          // RBP, RBPResid: persistence p; ERR: largest grade (gdeval's -j)
  double utility[4] = {1.0, -1.0, 0.0, 0.0};  // Utility: p1..p4 (trec_eval's default)
  double num_docs = 0.0;  // Utility: trec_eval's -N (documents in the collection)
  int rel = 0;            // relevance threshold of this measure (0: the evaluation's)
  double fraction = 0.25; // Exclusion
  long depth = 1000;      // Exclusion: the list length L
  bool judged_only = false;  // computed on the judged documents only (judged_only.h)
};

// nDCG gains: gain[g] for grade g >= 0 (default: the grade itself).
// With fractional grades (Qrels::fractional) the grades the kernels see are
// codes and `by_grade` maps each code to the grade as written, its gain:
// `grade_values` is then set, and ERR reads its grades from the map too.
struct Gains {
  std::vector<double> by_grade;  // empty: identity
  bool grade_values = false;     // by_grade holds a topic's fractional grades
  double of(int grade) const {
    if (grade < 0) return 0.0;
    if (by_grade.empty()) return static_cast<double>(grade);
    return static_cast<std::size_t>(grade) < by_grade.size() ? by_grade[grade]
                                                              : static_cast<double>(grade);
  }
};

// Per-topic prefix sums shared by all cut-off variants of a topic (one pass
// over the profile feeds P@k, R@k, AP@k, nDCG@k, relative_P@k, unj@k,
// Judged@k, Success@k for every k): filled by compute_measures().
struct MeasureCache {
  std::vector<long> cum_rel;      // relevant documents in the top i (i = 0..n)
  std::vector<long> cum_unj;      // unjudged documents (not in pool or grade < 0)
  std::vector<double> cum_prec;   // sum of precision at the relevant ranks of the top i
  std::vector<double> cum_dcg;    // DCG of the top i
  std::vector<double> cum_ideal;  // ideal DCG of the top i (i up to the largest cut-off)
  std::vector<double> ip;         // interpolated precision at the j-th relevant document
  std::vector<double> work;
  std::vector<std::pair<double, long>> gain_levels;
};

// The value of one measure. `work` is scratch space reused across calls.
// Throws std::invalid_argument for a kind outside MeasureKind.
double compute_measure(const Measure& m, const Profile& p, const Gains& gains,
                       std::vector<double>& work);

// The values of all measures of one profile, in order, into `out`. The same
// values as compute_measure() on each, with one pass for all cut-offs.
void compute_measures(const std::vector<Measure>& ms, const Profile& p, const Gains& gains,
                      MeasureCache& cache, double* out);

// The value trec_eval reports for a qrels topic the run did not answer when
// asked to average over every topic (-c): it scores a ranking of one
// unjudged document, then resets num_ret, utility, unj and rbp_resid to 0.
void compute_missing(const std::vector<Measure>& ms, const Profile& qrels_only,
                     const Gains& gains, MeasureCache& cache, double* out);

}  // namespace irtopics

#endif
