// Liggett & Buckley (2005), "System performance and natural language
// expression of information needs", Inf. Retrieval 8:101-128: the number of
// irrelevant documents returned before a fraction (25%) of the relevant ones,
// N25, and the exclusion measure X = -log10(N25 + 1). The paper's case
// analysis was lost; this is the reconstruction of spec section 1.3 (DERIVED):
//   H = ceiling(fraction * n_R)
//   n >= H      : N25 = r_(H) - H                 (exact)
//   1 <= n < H  : N25 = (L - n) * H / n           (linear extrapolation)
//   n = 0       : N25 = L * H                     (cap)
//   n_R = 0     : NaN
// where r_(k) is the k-th smallest position of a returned relevant document,
// n the number returned within the list length L (`depth`).
#ifndef IRTOPICS_N25_H
#define IRTOPICS_N25_H

#include <cmath>
#include <limits>

namespace irtopics {

// `positions`: the positions (1-based, ascending) of the n relevant documents
// returned within the first `depth` ranks; `n_rel`: relevant documents of the
// topic (returned or not).
inline double n25(const int* positions, int n, int n_rel, double fraction, int depth) {
  if (n_rel <= 0) return std::numeric_limits<double>::quiet_NaN();
  int h = static_cast<int>(std::ceil(fraction * n_rel - 1e-12));
  if (h < 1) h = 1;
  if (n >= h) return static_cast<double>(positions[h - 1] - h);
  if (n >= 1) return static_cast<double>(depth - n) * h / n;
  return static_cast<double>(depth) * h;
}

inline double exclusion(const int* positions, int n, int n_rel, double fraction, int depth) {
  return -std::log10(n25(positions, n, n_rel, fraction, depth) + 1.0);
}

}  // namespace irtopics

#endif
