// Measure definitions; see measures.h. Each follows the trec_eval source file
// named in its comment, including its edge cases; the measures beyond
// trec_eval follow the papers cited in measures.h.
#include "measures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "n25.h"

namespace irtopics {

namespace {

inline bool relevant(const Profile& p, long i) { return p.grade[i] >= p.relevance_level; }
inline bool unjudged(int g) { return g == kNotInPool || g == kUnjudged; }

// The profile seen with another relevance threshold: the relevant and
// non-relevant counts come from the grade counts.
Profile at_level(const Profile& p, int level) {
  Profile q = p;
  q.relevance_level = level;
  q.num_rel = 0;
  q.num_nonrel = 0;
  if (p.levels != nullptr) {
    const std::vector<long>& lv = *p.levels;
    for (std::size_t g = 0; g < lv.size(); ++g) {
      if (static_cast<long>(g) >= level) q.num_rel += lv[g]; else q.num_nonrel += lv[g];
    }
  }
  return q;
}

// The relevance level a measure reads a profile with: its own `rel=k` when
// it has one, else the profile's. With fractional grades (Gains::
// grade_values) the profile's grades are codes, and `rel=k` (a grade) is
// the code of the topic's first value >= k.
int measure_level(const Measure& m, const Profile& p, const Gains& gains) {
  if (m.rel <= 0) return p.relevance_level;
  if (!gains.grade_values) return m.rel;
  const auto& v = gains.by_grade;
  return static_cast<int>(std::lower_bound(v.begin(), v.end(), static_cast<double>(m.rel)) - v.begin());
}

long count_relevant(const Profile& p, long stop) {
  long r = 0;
  for (long i = 0; i < stop; ++i) r += relevant(p, i);
  return r;
}

// (gain, count) per grade with a positive gain, largest gain first: the
// ideal ranking of m_ndcg.c.
void positive_gain_levels(const Profile& p, const Gains& gains,
                          std::vector<std::pair<double, long>>& g) {
  g.clear();
  if (p.levels == nullptr) return;
  const std::vector<long>& lv = *p.levels;
  for (std::size_t grade = 0; grade < lv.size(); ++grade) {
    const double gain = gains.of(static_cast<int>(grade));
    if (gain > 0 && lv[grade] > 0) g.emplace_back(gain, lv[grade]);
  }
  std::stable_sort(g.begin(), g.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
}

// Ideal DCG over the first `cutoff` ranks (cutoff <= 0: no cutoff): judged
// documents sorted by gain, largest first, positive gains only (m_ndcg.c).
double ideal_dcg(const Profile& p, const Gains& gains, long cutoff,
                 std::vector<std::pair<double, long>>& g) {
  positive_gain_levels(p, gains, g);
  double sum = 0.0;
  long i = 0;
  for (const auto& gc : g) {
    for (long k = 0; k < gc.second; ++k, ++i) {
      if (cutoff > 0 && i >= cutoff) return sum;
      sum += gc.first / std::log2(static_cast<double>(i + 2));
    }
  }
  return sum;
}

// The gain levels of gain_init.c's setup_gains(): every grade from 0 to the
// topic's largest judged grade (with its count) plus grades that only have a
// user gain (count 0), sorted by increasing gain; and the walk down the ideal
// ranking that G, Rndcg and ndcg_rel share.
struct IdealWalk {
  const std::vector<std::pair<double, long>>& lv;  // (gain, count), increasing gain
  long cur;
  long num_at = 0;
  double gain;
  explicit IdealWalk(const std::vector<std::pair<double, long>>& levels)
      : lv(levels), cur(static_cast<long>(levels.size()) - 1),
        gain(cur >= 0 ? levels[cur].first : 0.0) {}
  void step() {
    ++num_at;
    while (cur >= 0 && num_at > lv[cur].second) {
      num_at = 1;
      --cur;
      gain = cur >= 0 ? lv[cur].first : 0.0;
    }
  }
};

void setup_gain_levels(const Profile& p, const Gains& gains,
                       std::vector<std::pair<double, long>>& out) {
  out.clear();
  std::size_t top = 0;  // trec_eval's num_rel_levels: largest grade with a count, + 1
  if (p.levels != nullptr) {
    const std::vector<long>& lv = *p.levels;
    for (std::size_t g = 0; g < lv.size(); ++g) if (lv[g] > 0) top = g + 1;
    for (std::size_t g = 0; g < top; ++g) out.emplace_back(gains.of(static_cast<int>(g)), lv[g]);
  }
  for (std::size_t g = top; g < gains.by_grade.size(); ++g) {
    if (gains.by_grade[g] != static_cast<double>(g)) out.emplace_back(gains.by_grade[g], 0L);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

inline double grade_gain(int grade, const Gains& gains) { return grade < 0 ? 0.0 : gains.of(grade); }

double measure_G(const Profile& p, const Gains& gains, std::vector<std::pair<double, long>>& lv) {  // m_G.c
  setup_gain_levels(p, gains, lv);
  IdealWalk w(lv);
  double results_g = 0.0, sum_results = 0.0, sum_ideal = 0.0, sum_cost = 0.0;
  const double min_cost = 1.0;
  long i = 0;
  for (; i < p.num_ret && w.gain > 0.0; ++i) {
    const double rg = grade_gain(p.grade[i], gains);
    sum_results += rg;
    w.step();
    if (w.gain > 0.0) sum_ideal += w.gain;
    sum_cost += w.gain >= min_cost ? w.gain : min_cost;
    if (rg != 0) results_g += rg / std::log2(2 + sum_cost - sum_results);
  }
  for (; i < p.num_ret; ++i) {
    const double rg = grade_gain(p.grade[i], gains);
    sum_results += rg;
    sum_cost += min_cost;
    if (rg != 0) results_g += rg / std::log2(2 + sum_cost - sum_results);
  }
  while (w.gain > 0.0) {
    w.step();
    if (w.gain > 0.0) sum_ideal += w.gain;
  }
  return sum_ideal > 0.0 ? results_g / sum_ideal : 0.0;
}

double measure_Rndcg(const Profile& p, const Gains& gains,
                     std::vector<std::pair<double, long>>& lv) {  // m_Rndcg.c
  setup_gain_levels(p, gains, lv);
  if (p.num_rel == 0) return 0.0;
  IdealWalk w(lv);
  double results_dcg = 0.0, ideal = 0.0, sum = 0.0, old_gain = w.gain;
  long changes = 0, i = 0;
  auto boundary = [&]() {
    if (old_gain != w.gain) {
      if (ideal > 0.0) { sum += results_dcg / ideal; ++changes; }
      old_gain = w.gain;
    }
  };
  for (; i < p.num_ret && w.gain > 0.0; ++i) {
    const double rg = grade_gain(p.grade[i], gains);
    w.step();
    boundary();
    if (rg != 0) results_dcg += rg / std::log2(static_cast<double>(i + 2));
    if (w.gain > 0.0) ideal += w.gain / std::log2(static_cast<double>(i + 2));
  }
  if (i < p.num_ret) {
    for (; i < p.num_ret; ++i) {
      const double rg = grade_gain(p.grade[i], gains);
      if (rg != 0) results_dcg += rg / std::log2(static_cast<double>(i + 2));
    }
    if (ideal > 0.0) { sum += results_dcg / ideal; ++changes; }
  }
  for (; w.gain > 0.0; ++i) {
    w.step();
    boundary();
    if (w.gain > 0.0) ideal += w.gain / std::log2(static_cast<double>(i + 2));
  }
  return sum / static_cast<double>(changes);
}

double measure_ndcg_rel(const Profile& p, const Gains& gains,
                        std::vector<std::pair<double, long>>& lv) {  // m_ndcg_rel.c
  setup_gain_levels(p, gains, lv);
  IdealWalk w(lv);
  double results_dcg = 0.0, ideal = 0.0, sum = 0.0;
  long rel_ret = 0, n_rel = 0, i = 0;
  for (; i < p.num_ret && w.gain > 0.0; ++i) {
    const double rg = grade_gain(p.grade[i], gains);
    if (rg != 0) results_dcg += rg / std::log2(static_cast<double>(i + 2));
    w.step();
    if (w.gain > 0.0) {
      ++n_rel;
      ideal += w.gain / std::log2(static_cast<double>(i + 2));
    }
    if (rg > 0) { sum += results_dcg / ideal; ++rel_ret; }
  }
  for (; i < p.num_ret; ++i) {
    const double rg = grade_gain(p.grade[i], gains);
    if (rg != 0) results_dcg += rg / std::log2(static_cast<double>(i + 2));
    if (rg > 0) { sum += results_dcg / ideal; ++rel_ret; }
  }
  for (; w.gain > 0.0; ++i) {
    w.step();
    if (w.gain > 0.0) {
      ++n_rel;
      ideal += w.gain / std::log2(static_cast<double>(i + 2));
    }
  }
  sum += static_cast<double>(n_rel - rel_ret) * results_dcg / ideal;
  return sum > 0.0 ? sum / static_cast<double>(n_rel) : 0.0;
}

// Interpolated precision at recall level x (m_iprec_at_recall.c): the
// largest precision at or after the rank where round(x R) relevant
// documents are found; 0 when fewer are found.
double iprec(const Profile& p, double x) {
  const long n = p.num_ret;
  const long rel_ret = count_relevant(p, n);
  const long cut = std::lround(x * static_cast<double>(p.num_rel));
  if (cut > rel_ret) return 0.0;
  double best = n > 0 ? static_cast<double>(rel_ret) / static_cast<double>(n) : 0.0;
  long rel_so_far = rel_ret;
  for (long i = n; i > 0 && rel_so_far > 0; --i) {
    const double prec = static_cast<double>(rel_so_far) / static_cast<double>(i);
    if (best < prec) best = prec;
    if (relevant(p, i - 1)) {
      if (rel_so_far == cut) return best;
      --rel_so_far;
    }
  }
  return best;
}

constexpr double kElevenPoints[11] = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

// The same from one backward pass: ip[j] = the largest precision at or
// after the j-th relevant document (the interpolated precision of every
// recall level whose round(x R) is j), ip[0] = ip[1].
void interpolated_precision(const Profile& p, std::vector<double>& ip) {
  std::vector<long> ranks;
  for (long i = 0; i < p.num_ret; ++i) if (relevant(p, i)) ranks.push_back(i + 1);
  const std::size_t m = ranks.size();
  ip.assign(m + 1, 0.0);
  double best = p.num_ret > 0 ? static_cast<double>(m) / static_cast<double>(p.num_ret) : 0.0;
  for (std::size_t j = m; j >= 1; --j) {
    const double prec = static_cast<double>(j) / static_cast<double>(ranks[j - 1]);
    if (best < prec) best = prec;
    ip[j] = best;
  }
  ip[0] = m ? ip[1] : best;
}

inline double iprec_cached(const Profile& p, const std::vector<double>& ip, double x) {
  const long cut = std::lround(x * static_cast<double>(p.num_rel));
  const long m = static_cast<long>(ip.size()) - 1;
  return cut > m ? 0.0 : ip[static_cast<std::size_t>(cut)];
}

double err(const Profile& p, const Gains& gains, long cutoff, double max_grade) {
  // Chapelle et al. (2009), eq. 4: sum over ranks r of (1/r) R_r prod_{i<r}
  // (1 - R_i), with R = (2^g - 1) / 2^gmax (gdeval); grades above gmax
  // count as gmax, unjudged documents as grade 0.
  const long stop = cutoff > 0 ? std::min(p.num_ret, cutoff) : p.num_ret;
  const double denom = std::exp2(max_grade);
  double not_stopped = 1.0, sum = 0.0;
  for (long i = 0; i < stop; ++i) {
    // fractional grades: the grade as written (codes map to values)
    const double gi = gains.grade_values ? std::max(gains.of(p.grade[i]), 0.0)
                                         : static_cast<double>(std::max(p.grade[i], 0));
    const double g = std::min(gi, max_grade);
    const double r = (std::exp2(g) - 1.0) / denom;
    sum += not_stopped * r / static_cast<double>(i + 1);
    not_stopped *= 1.0 - r;
  }
  return sum;
}

}  // namespace

double compute_measure(const Measure& m, const Profile& p0, const Gains& gains,
                       std::vector<double>& work) {
  (void)work;
  thread_local std::vector<std::pair<double, long>> lv;  // reused: no allocation per call
  const int level = measure_level(m, p0, gains);
  const Profile p = level != p0.relevance_level ? at_level(p0, level) : p0;
  const long n = p.num_ret;
  switch (m.kind) {
    case MeasureKind::NumRet:
      return static_cast<double>(n);
    case MeasureKind::NumRel:
      return static_cast<double>(p.num_rel);
    case MeasureKind::NumRelRet:
      return static_cast<double>(count_relevant(p, n));
    case MeasureKind::NumQ:  // m_num_q.c
      return 1.0;
    case MeasureKind::AP:       // m_map.c
    case MeasureKind::APCut: {  // m_map_cut.c: the same sum, stopped at the cutoff
      if (p.num_rel == 0) return 0.0;
      const long stop = m.kind == MeasureKind::APCut ? std::min(n, m.cutoff) : n;
      double sum = 0.0;
      long rel = 0;
      for (long i = 0; i < stop; ++i) {
        if (relevant(p, i)) {
          ++rel;
          sum += static_cast<double>(rel) / static_cast<double>(i + 1);
        }
      }
      return sum / static_cast<double>(p.num_rel);
    }
    case MeasureKind::P:  // m_P.c: missing ranks count as nonrelevant
      return static_cast<double>(count_relevant(p, std::min(n, m.cutoff))) / static_cast<double>(m.cutoff);
    case MeasureKind::Recall:  // m_recall.c
      if (p.num_rel == 0) return 0.0;
      return static_cast<double>(count_relevant(p, std::min(n, m.cutoff))) / static_cast<double>(p.num_rel);
    case MeasureKind::Success:  // m_success.c
      return count_relevant(p, std::min(n, m.cutoff)) > 0 ? 1.0 : 0.0;
    case MeasureKind::Hits:  // ranx hits@k: relevant documents in the top k
      return static_cast<double>(count_relevant(p, std::min(n, m.cutoff)));
    case MeasureKind::RPrec: {  // m_Rprec.c
      const long look = std::min(n, p.num_rel);
      if (look == 0) return 0.0;
      return static_cast<double>(count_relevant(p, look)) / static_cast<double>(p.num_rel);
    }
    case MeasureKind::RR:      // m_recip_rank.c
    case MeasureKind::RRCut: {  // the same within the top k (ir_measures RR@k)
      const long stop = m.kind == MeasureKind::RRCut ? std::min(n, m.cutoff) : n;
      for (long i = 0; i < stop; ++i) if (relevant(p, i)) return 1.0 / static_cast<double>(i + 1);
      return 0.0;
    }
    case MeasureKind::NDCG:       // m_ndcg.c
    case MeasureKind::NDCGCut: {  // m_ndcg_cut.c
      const long cutoff = m.kind == MeasureKind::NDCGCut ? m.cutoff : 0;
      const double ideal = ideal_dcg(p, gains, cutoff, lv);
      if (ideal <= 0.0) return 0.0;
      const long stop = cutoff > 0 ? std::min(n, cutoff) : n;
      double dcg = 0.0;
      for (long i = 0; i < stop; ++i) {
        const double g = gains.of(p.grade[i]);
        if (g != 0) dcg += g / std::log2(static_cast<double>(i + 2));
      }
      return dcg / ideal;
    }
    case MeasureKind::Bpref: {  // m_bpref.c (and m_gm_bpref.c, per topic)
      long nonrel_so_far = 0;
      double bpref = 0.0;
      const double denom = static_cast<double>(std::min(p.num_nonrel, p.num_rel));
      for (long i = 0; i < n; ++i) {
        const int g = p.grade[i];
        if (g < 0) continue;  // not in the pool, or in the pool but unjudged
        if (g < p.relevance_level) {
          ++nonrel_so_far;
        } else if (nonrel_so_far > 0) {
          bpref += 1.0 - static_cast<double>(std::min(nonrel_so_far, p.num_rel)) / denom;
        } else {
          bpref += 1.0;
        }
      }
      return p.num_rel ? bpref / static_cast<double>(p.num_rel) : bpref;
    }
    case MeasureKind::InfAP: {  // m_infap.c (Yilmaz & Aslam 2006)
      const double eps = 0.00001;  // trec_eval's INFAP_EPSILON
      long nonrel = 0, rel = 0, pool_unjudged = 0;
      double inf_ap = 0.0;
      for (long j = 0; j < n; ++j) {
        const int g = p.grade[j];
        if (g == kNotInPool) continue;
        if (g == kUnjudged) { ++pool_unjudged; continue; }
        if (g < p.relevance_level) { ++nonrel; continue; }
        ++rel;
        if (j == 0) {
          inf_ap += 1.0;
        } else {
          const double fj = static_cast<double>(j);
          inf_ap += 1.0 / (fj + 1.0) +
                    (fj / (fj + 1.0)) * ((rel - 1 + nonrel + pool_unjudged) / fj) *
                        ((rel - 1 + eps) / (rel - 1 + nonrel + 2 * eps));
        }
      }
      return p.num_rel ? inf_ap / static_cast<double>(p.num_rel) : inf_ap;
    }
    case MeasureKind::IPrec:
      return iprec(p, m.param);
    case MeasureKind::ElevenPt: {  // m_11pt_avg.c
      double sum = 0.0;
      for (double x : kElevenPoints) sum += iprec(p, x);
      return sum / 11.0;
    }
    case MeasureKind::RPrecMult: {  // m_Rprec_mult.c: precision at ceil-ish(x R)
      const long cut = static_cast<long>(m.param * static_cast<double>(p.num_rel) + 0.9);
      if (cut <= 0) return 0.0;
      return static_cast<double>(count_relevant(p, std::min(n, cut))) / static_cast<double>(cut);
    }
    case MeasureKind::RelP: {  // m_rel_P.c
      if (p.num_rel == 0) return 0.0;
      return static_cast<double>(count_relevant(p, std::min(n, m.cutoff))) /
             static_cast<double>(std::min(m.cutoff, p.num_rel));
    }
    case MeasureKind::SetP:  // m_set_P.c
      return n ? static_cast<double>(count_relevant(p, n)) / static_cast<double>(n) : 0.0;
    case MeasureKind::SetRecall:  // m_set_recall.c
      return p.num_rel ? static_cast<double>(count_relevant(p, n)) / static_cast<double>(p.num_rel) : 0.0;
    case MeasureKind::SetMap: {  // m_set_map.c
      if (n == 0 || p.num_rel == 0) return 0.0;
      const double r = static_cast<double>(count_relevant(p, n));
      return (r * r) / (static_cast<double>(n) * static_cast<double>(p.num_rel));
    }
    case MeasureKind::SetRelP:  // m_set_rel_P.c
      if (n == 0 || p.num_rel == 0) return 0.0;
      return static_cast<double>(count_relevant(p, n)) / static_cast<double>(std::min(n, p.num_rel));
    case MeasureKind::SetF: {  // m_set_F.c
      const long r = count_relevant(p, n);
      if (r == 0) return 0.0;
      const double P = static_cast<double>(r) / static_cast<double>(n);
      const double R = static_cast<double>(r) / static_cast<double>(p.num_rel);
      const double x = m.param;
      return (x + 1.0) * P * R / (x * P + R);
    }
    case MeasureKind::Unj:       // m_unjudged.c
    case MeasureKind::Judged: {  // ir_measures Judged@k = 1 - unj@k
      long u = 0;
      const long stop = std::min(n, m.cutoff);
      for (long i = 0; i < stop; ++i) u += unjudged(p.grade[i]);
      if (m.kind == MeasureKind::Unj) return static_cast<double>(u) / static_cast<double>(m.cutoff);
      return static_cast<double>(stop - u) / static_cast<double>(m.cutoff);
    }
    case MeasureKind::Utility: {  // m_utility.c
      const double a = static_cast<double>(count_relevant(p, n));
      return m.utility[0] * a + m.utility[1] * (static_cast<double>(n) - a) +
             m.utility[2] * (static_cast<double>(p.num_rel) - a) +
             m.utility[3] * (m.num_docs + a - static_cast<double>(n) - static_cast<double>(p.num_rel));
    }
    case MeasureKind::NumNonrelJudgedRet: {  // m_num_nonrel_judged_ret.c
      long c = 0;
      for (long i = 0; i < n; ++i) c += (p.grade[i] >= 0 && p.grade[i] < p.relevance_level);
      return static_cast<double>(c);
    }
    case MeasureKind::BinG: {  // m_binG.c
      long rel = 0;
      double sum = 0.0;
      for (long i = 0; i < n; ++i) {
        if (relevant(p, i)) {
          ++rel;
          sum += 1.0 / std::log2(static_cast<double>(3 + i - rel));
        }
      }
      return rel ? sum / static_cast<double>(p.num_rel) : 0.0;
    }
    case MeasureKind::G:
      return measure_G(p, gains, lv);
    case MeasureKind::Rndcg:
      return measure_Rndcg(p, gains, lv);
    case MeasureKind::NdcgRel:
      return measure_ndcg_rel(p, gains, lv);
    case MeasureKind::ERR:
      return err(p, gains, m.cutoff, m.param);
    case MeasureKind::RBP:        // Moffat & Zobel (2008), eq. 2: (1 - p) sum p^(i-1) r_i
    case MeasureKind::RBPResid: {  // eq. 6: the weight of unjudged ranks and of ranks past the list
      double sum = 0.0, w = 1.0 - m.param;
      for (long i = 0; i < n; ++i, w *= m.param) {
        if (m.kind == MeasureKind::RBP ? relevant(p, i) : unjudged(p.grade[i])) sum += w;
      }
      if (m.kind == MeasureKind::RBPResid) sum += std::pow(m.param, static_cast<double>(n));
      return sum;
    }
    case MeasureKind::Exclusion: {  // Liggett & Buckley N25, spec 1.3
      std::vector<int> pos;
      const long stop = std::min(n, m.depth);
      for (long i = 0; i < stop; ++i) if (relevant(p, i)) pos.push_back(static_cast<int>(i + 1));
      return exclusion(pos.data(), static_cast<int>(pos.size()), static_cast<int>(p.num_rel),
                       m.fraction, static_cast<int>(m.depth));
    }
  }
  throw std::invalid_argument("unknown measure kind " + std::to_string(static_cast<int>(m.kind)));
}

void compute_measures(const std::vector<Measure>& ms, const Profile& p, const Gains& gains,
                      MeasureCache& c, double* out) {
  const long n = p.num_ret;
  bool want_rel = false, want_unj = false, want_dcg = false, want_ip = false;
  long ideal_len = -1;  // -1: no nDCG; 0: the full ideal ranking
  for (const Measure& m : ms) {
    if (measure_level(m, p, gains) != p.relevance_level) continue;
    switch (m.kind) {
      case MeasureKind::AP: case MeasureKind::APCut: case MeasureKind::P: case MeasureKind::Recall:
      case MeasureKind::Success: case MeasureKind::Hits: case MeasureKind::RPrec: case MeasureKind::NumRelRet:
      case MeasureKind::RelP: case MeasureKind::RPrecMult: case MeasureKind::SetP:
      case MeasureKind::SetRecall: case MeasureKind::SetMap: case MeasureKind::SetRelP:
      case MeasureKind::SetF:
        want_rel = true;
        break;
      case MeasureKind::Unj: case MeasureKind::Judged:
        want_unj = true;
        break;
      case MeasureKind::IPrec: case MeasureKind::ElevenPt:
        want_ip = true;
        break;
      case MeasureKind::NDCGCut:
        want_dcg = true;
        if (ideal_len != 0) ideal_len = std::max(ideal_len, m.cutoff);
        break;
      default:
        break;
    }
  }
  if (want_rel) {
    c.cum_rel.resize(static_cast<std::size_t>(n) + 1);
    c.cum_prec.resize(static_cast<std::size_t>(n) + 1);
    c.cum_rel[0] = 0;
    c.cum_prec[0] = 0.0;
    long rel = 0;
    double sum = 0.0;
    for (long i = 0; i < n; ++i) {
      if (relevant(p, i)) {
        ++rel;
        sum += static_cast<double>(rel) / static_cast<double>(i + 1);
      }
      c.cum_rel[i + 1] = rel;
      c.cum_prec[i + 1] = sum;
    }
  }
  if (want_unj) {
    c.cum_unj.resize(static_cast<std::size_t>(n) + 1);
    c.cum_unj[0] = 0;
    for (long i = 0; i < n; ++i) c.cum_unj[i + 1] = c.cum_unj[i] + unjudged(p.grade[i]);
  }
  if (want_dcg) {
    c.cum_dcg.resize(static_cast<std::size_t>(n) + 1);
    c.cum_dcg[0] = 0.0;
    double dcg = 0.0;
    for (long i = 0; i < n; ++i) {
      const double g = gains.of(p.grade[i]);
      if (g != 0) dcg += g / std::log2(static_cast<double>(i + 2));
      c.cum_dcg[i + 1] = dcg;
    }
    positive_gain_levels(p, gains, c.gain_levels);
    c.cum_ideal.assign(1, 0.0);
    double sum = 0.0;
    long i = 0;
    for (const auto& gc : c.gain_levels) {
      for (long k = 0; k < gc.second && i < ideal_len; ++k, ++i) {
        sum += gc.first / std::log2(static_cast<double>(i + 2));
        c.cum_ideal.push_back(sum);
      }
    }
  }
  if (want_ip) interpolated_precision(p, c.ip);
  const auto rel_at = [&](long k) { return c.cum_rel[static_cast<std::size_t>(std::min(n, k))]; };
  const double R = static_cast<double>(p.num_rel);
  for (std::size_t j = 0; j < ms.size(); ++j) {
    const Measure& m = ms[j];
    double v;
    if (measure_level(m, p, gains) != p.relevance_level) {
      v = compute_measure(m, p, gains, c.work);
    } else {
      switch (m.kind) {
        case MeasureKind::AP:
          v = p.num_rel ? c.cum_prec[n] / static_cast<double>(p.num_rel) : 0.0;
          break;
        case MeasureKind::APCut:
          v = p.num_rel ? c.cum_prec[std::min(n, m.cutoff)] / static_cast<double>(p.num_rel) : 0.0;
          break;
        case MeasureKind::P:
          v = static_cast<double>(rel_at(m.cutoff)) / static_cast<double>(m.cutoff);
          break;
        case MeasureKind::Recall:
          v = p.num_rel ? static_cast<double>(rel_at(m.cutoff)) / static_cast<double>(p.num_rel) : 0.0;
          break;
        case MeasureKind::Success:
          v = rel_at(m.cutoff) > 0 ? 1.0 : 0.0;
          break;
        case MeasureKind::Hits:
          v = static_cast<double>(rel_at(m.cutoff));
          break;
        case MeasureKind::NumRelRet:
          v = static_cast<double>(c.cum_rel[n]);
          break;
        case MeasureKind::RPrec:
          v = p.num_rel && n ? static_cast<double>(rel_at(p.num_rel)) / R : 0.0;
          break;
        case MeasureKind::RPrecMult: {
          const long cut = static_cast<long>(m.param * R + 0.9);
          v = cut <= 0 ? 0.0 : static_cast<double>(rel_at(cut)) / static_cast<double>(cut);
          break;
        }
        case MeasureKind::RelP:
          v = p.num_rel ? static_cast<double>(rel_at(m.cutoff)) / static_cast<double>(std::min(m.cutoff, p.num_rel)) : 0.0;
          break;
        case MeasureKind::SetP:
          v = n ? static_cast<double>(c.cum_rel[n]) / static_cast<double>(n) : 0.0;
          break;
        case MeasureKind::SetRecall:
          v = p.num_rel ? static_cast<double>(c.cum_rel[n]) / R : 0.0;
          break;
        case MeasureKind::SetMap: {
          const double r = static_cast<double>(c.cum_rel[n]);
          v = n && p.num_rel ? (r * r) / (static_cast<double>(n) * R) : 0.0;
          break;
        }
        case MeasureKind::SetRelP:
          v = n && p.num_rel ? static_cast<double>(c.cum_rel[n]) / static_cast<double>(std::min(n, p.num_rel)) : 0.0;
          break;
        case MeasureKind::IPrec:
          v = iprec_cached(p, c.ip, m.param);
          break;
        case MeasureKind::ElevenPt: {
          double sum = 0.0;
          for (double x : kElevenPoints) sum += iprec_cached(p, c.ip, x);
          v = sum / 11.0;
          break;
        }
        case MeasureKind::Unj:
          v = static_cast<double>(c.cum_unj[std::min(n, m.cutoff)]) / static_cast<double>(m.cutoff);
          break;
        case MeasureKind::Judged: {
          const long stop = std::min(n, m.cutoff);
          v = static_cast<double>(stop - c.cum_unj[stop]) / static_cast<double>(m.cutoff);
          break;
        }
        case MeasureKind::NDCGCut: {
          const std::size_t k = std::min<std::size_t>(c.cum_ideal.size() - 1, static_cast<std::size_t>(m.cutoff));
          const double ideal = c.cum_ideal[k];
          v = ideal <= 0.0 ? 0.0 : c.cum_dcg[std::min(n, m.cutoff)] / ideal;
          break;
        }
        default:
          v = compute_measure(m, p, gains, c.work);
      }
    }
    out[j] = v;
  }
}

void compute_missing(const std::vector<Measure>& ms, const Profile& q, const Gains& gains,
                     MeasureCache& cache, double* out) {
  const int one = kNotInPool;
  Profile p = q;
  p.grade = &one;
  p.num_ret = 1;
  compute_measures(ms, p, gains, cache, out);
  for (std::size_t j = 0; j < ms.size(); ++j) {
    switch (ms[j].kind) {
      case MeasureKind::NumRet: case MeasureKind::Utility: case MeasureKind::Unj:
      case MeasureKind::RBPResid:
        out[j] = 0.0;
        break;
      case MeasureKind::Judged: case MeasureKind::Exclusion: {
        Profile e = q;  // measures beyond trec_eval: the empty ranking itself
        e.num_ret = 0;
        out[j] = compute_measure(ms[j], e, gains, cache.work);
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace irtopics
