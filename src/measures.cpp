// Measure definitions; see measures.h. Each follows the trec_eval source file
// named in its comment, including its edge cases.
#include "measures.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "n25.h"

namespace irtopics {

namespace {

inline bool relevant(const Profile& p, long i) { return p.grade[i] >= p.relevance_level; }

// Ideal DCG over the first `cutoff` ranks (cutoff <= 0: no cutoff): judged
// documents sorted by gain, largest first, positive gains only (m_ndcg.c).
double ideal_dcg(const Profile& p, const Gains& gains, long cutoff, std::vector<double>& work) {
  work.clear();
  if (p.levels == nullptr) return 0.0;
  const std::vector<long>& lv = *p.levels;
  // (gain, count) per grade, sorted by gain descending.
  std::vector<std::pair<double, long>> g;
  g.reserve(lv.size());
  for (std::size_t grade = 0; grade < lv.size(); ++grade) {
    const double gain = gains.of(static_cast<int>(grade));
    if (gain > 0 && lv[grade] > 0) g.emplace_back(gain, lv[grade]);
  }
  std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
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

}  // namespace

double compute_measure(const Measure& m, const Profile& p, const Gains& gains,
                       std::vector<double>& work) {
  const long n = p.num_ret;
  switch (m.kind) {
    case MeasureKind::NumRet:
      return static_cast<double>(n);
    case MeasureKind::NumRel:
      return static_cast<double>(p.num_rel);
    case MeasureKind::NumRelRet: {
      long r = 0;
      for (long i = 0; i < n; ++i) r += relevant(p, i);
      return static_cast<double>(r);
    }
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
    case MeasureKind::P: {  // m_P.c: missing ranks count as nonrelevant
      long rel = 0;
      const long stop = std::min(n, m.cutoff);
      for (long i = 0; i < stop; ++i) rel += relevant(p, i);
      return static_cast<double>(rel) / static_cast<double>(m.cutoff);
    }
    case MeasureKind::Recall: {  // m_recall.c
      if (p.num_rel == 0) return 0.0;
      long rel = 0;
      const long stop = std::min(n, m.cutoff);
      for (long i = 0; i < stop; ++i) rel += relevant(p, i);
      return static_cast<double>(rel) / static_cast<double>(p.num_rel);
    }
    case MeasureKind::Success: {  // m_success.c
      const long stop = std::min(n, m.cutoff);
      for (long i = 0; i < stop; ++i) if (relevant(p, i)) return 1.0;
      return 0.0;
    }
    case MeasureKind::RPrec: {  // m_Rprec.c
      const long look = std::min(n, p.num_rel);
      if (look == 0) return 0.0;
      long rel = 0;
      for (long i = 0; i < look; ++i) rel += relevant(p, i);
      return static_cast<double>(rel) / static_cast<double>(p.num_rel);
    }
    case MeasureKind::RR: {  // m_recip_rank.c
      for (long i = 0; i < n; ++i) if (relevant(p, i)) return 1.0 / static_cast<double>(i + 1);
      return 0.0;
    }
    case MeasureKind::NDCG:       // m_ndcg.c
    case MeasureKind::NDCGCut: {  // m_ndcg_cut.c
      const long cutoff = m.kind == MeasureKind::NDCGCut ? m.cutoff : 0;
      const double ideal = ideal_dcg(p, gains, cutoff, work);
      if (ideal <= 0.0) return 0.0;
      const long stop = cutoff > 0 ? std::min(n, cutoff) : n;
      double dcg = 0.0;
      for (long i = 0; i < stop; ++i) {
        const double g = gains.of(p.grade[i]);
        if (g != 0) dcg += g / std::log2(static_cast<double>(i + 2));
      }
      return dcg / ideal;
    }
    case MeasureKind::Bpref: {  // m_bpref.c
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
    case MeasureKind::Exclusion: {  // Liggett & Buckley N25, spec 1.3
      std::vector<int> pos;
      const long stop = std::min(n, m.depth);
      for (long i = 0; i < stop; ++i) if (relevant(p, i)) pos.push_back(static_cast<int>(i + 1));
      return exclusion(pos.data(), static_cast<int>(pos.size()), static_cast<int>(p.num_rel),
                       m.fraction, static_cast<int>(m.depth));
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace irtopics
