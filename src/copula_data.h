// Copulas: the data of one pair of systems prepared once for all candidate
// families (arguments, normal scores, t scores, the distinct
// pseudo-observations), the shared table of t scores, and the sums over the
// observations that every family's log-likelihood uses: sum_rotated() (the
// rotation applied to the arguments) and sum_split() (a density split into
// margin and pair parts, the margins computed once per distinct value:
// rank pseudo-observations take only n values i / (n + 1)). Pure C++.
#ifndef IRTOPICS_COPULA_DATA_H
#define IRTOPICS_COPULA_DATA_H

#include "copula_core.h"

namespace irtopics {
// Student t scores qt(q, 1/s) on a uniform grid of s = 1/nu over
// [1/30, 1/2.0001], for a set of lower-half probabilities q (sorted,
// distinct): the t-copula fit searches nu with scores interpolated from it
// (cubic Lagrange in s, relative error about 1e-7), then evaluates the
// log-likelihood exactly at the nu it found. Pseudo-observations from ranks
// share their values (i / (n + 1)), so one table serves every pair.
struct TScoreTable {
  static constexpr int kGrid = 48;
  std::vector<double> q;      // sorted distinct probabilities in (0, 1/2]
  std::vector<double> score;  // score[k * kGrid + g] = qt(q[k], 1 / s_g)
  double s0 = 1.0 / kNuMax, ds = (1.0 / kNuMin - 1.0 / kNuMax) / (kGrid - 1);

  // The probabilities min(u, 1 - u) of values u; call fill_row(k) for every k.
  void set_probabilities(const double* u, std::size_t n) {
    q.clear();
    q.reserve(n);
    for (std::size_t i = 0; i < n; ++i) q.push_back(std::min(u[i], 1.0 - u[i]));
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    score.assign(q.size() * kGrid, 0.0);
  }
  void fill_row(std::size_t k) {
    for (int g = 0; g < kGrid; ++g)
      score[k * kGrid + g] = q[k] >= 0.5 ? 0.0 : StudentT(1.0 / (s0 + g * ds)).quantile(q[k]);
  }
  void fill() {
    for (std::size_t k = 0; k < q.size(); ++k) fill_row(k);
  }
  // Row of probability v (1-based), or 0 when it is not in the table.
  long row(double v) const {
    const auto it = std::lower_bound(q.begin(), q.end(), v);
    return (it != q.end() && *it == v) ? static_cast<long>(it - q.begin()) + 1 : 0;
  }
  // Interpolation nodes and weights at s.
  void weights(double s, int& j0, double w[4]) const {
    const double t = (s - s0) / ds;
    int j = static_cast<int>(std::floor(t));
    j = std::min(std::max(j, 1), kGrid - 3);
    j0 = j - 1;
    const double x = t - j0;  // nodes at 0, 1, 2, 3
    w[0] = -(x - 1) * (x - 2) * (x - 3) / 6.0;
    w[1] = x * (x - 2) * (x - 3) / 2.0;
    w[2] = -x * (x - 1) * (x - 3) / 2.0;
    w[3] = x * (x - 1) * (x - 2) / 6.0;
  }
};

namespace copula_detail {

// The data of one pair, prepared once for all families.
struct PairData {
  std::size_t n = 0;
  std::vector<Arg> a, b;            // u1, u2
  std::vector<double> z1, z2;       // normal scores
  // t scores: the distinct lower-half probabilities min(u, 1 - u) and, per
  // observation, its index (+1, negative when u > 1/2).
  std::vector<double> q;
  std::vector<long> qa, qb;
  std::vector<double> tq, x, y;     // per nu: quantiles of q, scores
  const TScoreTable* table = nullptr;  // when every probability is in it
  std::vector<long> ta, tb;         // rows of the table (1-based, negative when u > 1/2)
  // the distinct values of u1 and u2 (sorted) and each observation's index
  // in them: margin parts of the two-parameter densities are computed once
  // per value (sum_split())
  std::vector<double> vals;
  std::vector<Arg> vargs;
  std::vector<std::size_t> ia, ib;
  mutable std::vector<Marg> marg_a, marg_b;  // scratch of sum_split()
  mutable std::vector<MargT<Dual2>> dmarg_a, dmarg_b;  // the same for Dual2 densities
  std::vector<Marg>& marg_scratch(bool second, const double*) const { return second ? marg_b : marg_a; }
  std::vector<MargT<Dual2>>& marg_scratch(bool second, const Dual2*) const { return second ? dmarg_b : dmarg_a; }

  void prepare(const double* u1, const double* u2, std::size_t n_, const TScoreTable* tab = nullptr) {
    n = n_;
    a.resize(n);
    b.resize(n);
    z1.resize(n);
    z2.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = make_arg(u1[i]);
      b[i] = make_arg(u2[i]);
      z1[i] = norm_q(a[i]);
      z2[i] = norm_q(b[i]);
    }
    vals.assign(u1, u1 + n);
    vals.insert(vals.end(), u2, u2 + n);
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    vargs.resize(vals.size());
    for (std::size_t k = 0; k < vals.size(); ++k) vargs[k] = make_arg(vals[k]);
    ia.resize(n);
    ib.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      ia[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u1[i]) - vals.begin());
      ib[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u2[i]) - vals.begin());
    }
    q.clear();
    for (std::size_t i = 0; i < n; ++i) {
      q.push_back(std::min(a[i].x, a[i].x1));
      q.push_back(std::min(b[i].x, b[i].x1));
    }
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    qa.resize(n);
    qb.resize(n);
    auto index = [&](const Arg& g) {
      const double v = std::min(g.x, g.x1);
      const long k = static_cast<long>(std::lower_bound(q.begin(), q.end(), v) - q.begin()) + 1;
      return g.x > 0.5 ? -k : k;
    };
    for (std::size_t i = 0; i < n; ++i) {
      qa[i] = index(a[i]);
      qb[i] = index(b[i]);
    }
    x.resize(n);
    y.resize(n);
    tq.resize(q.size());
    table = nullptr;
    if (tab) {
      ta.resize(n);
      tb.resize(n);
      bool all = true;
      for (std::size_t i = 0; i < n && all; ++i) {
        const long ra = tab->row(std::min(a[i].x, a[i].x1)), rb = tab->row(std::min(b[i].x, b[i].x1));
        all = ra > 0 && rb > 0;
        ta[i] = a[i].x > 0.5 ? -ra : ra;
        tb[i] = b[i].x > 0.5 ? -rb : rb;
      }
      if (all) table = tab;
    }
  }

  // Interpolated t scores at s = 1/nu into x, y (needs the table).
  void t_scores_interpolated(double s) {
    int j0;
    double w[4];
    table->weights(s, j0, w);
    auto at = [&](long r) {
      const double* row = &table->score[static_cast<std::size_t>(std::labs(r) - 1) * TScoreTable::kGrid + j0];
      const double v = w[0] * row[0] + w[1] * row[1] + w[2] * row[2] + w[3] * row[3];
      return r > 0 ? v : -v;
    };
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = at(ta[i]);
      y[i] = at(tb[i]);
    }
  }

  // t scores for nu into x, y.
  void t_scores(const StudentT& t) {
    for (std::size_t k = 0; k < q.size(); ++k) tq[k] = q[k] == 0.5 ? 0.0 : t.quantile(q[k]);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = qa[i] > 0 ? tq[qa[i] - 1] : -tq[-qa[i] - 1];
      y[i] = qb[i] > 0 ? tq[qb[i] - 1] : -tq[-qb[i] - 1];
    }
  }
};

inline double pair_size(const PairData& d) { return static_cast<double>(d.n); }

// Sum over the observations of lp(a, b) with the arguments of rotation r.
// (lp returns double, or Dual2 for the derivatives in the parameters.)
template <typename L>
auto sum_rotated(const PairData& d, int r, L&& lp) {
  decltype(lp(d.a[0], d.b[0])) ll = 0;
  const std::size_t n = d.n;
  switch (r) {
    case 180: for (std::size_t i = 0; i < n; ++i) ll += lp(flip(d.a[i]), flip(d.b[i])); break;
    case 90: for (std::size_t i = 0; i < n; ++i) ll += lp(flip(d.a[i]), d.b[i]); break;
    case 270: for (std::size_t i = 0; i < n; ++i) ll += lp(d.a[i], flip(d.b[i])); break;
    default: for (std::size_t i = 0; i < n; ++i) ll += lp(d.a[i], d.b[i]); break;
  }
  return ll;
}

// sum_rotated() of a split density (BB1Density, ...): the margin parts once
// per distinct value (pseudo-observations from ranks share their values, so
// rotations 0 and 180 compute n margins instead of 2n), else directly.
template <typename D>
auto sum_split(const PairData& d, int r, const D& dens) {
  using M = decltype(dens.margin(d.a[0]));
  using T = decltype(M::key);
  const bool fa = r == 180 || r == 90, fb = r == 180 || r == 270;
  const std::size_t K = d.vals.size();
  if ((fa == fb ? K : 2 * K) >= 2 * d.n)
    return sum_rotated(d, r, [&](const Arg& u, const Arg& v) { return split_log_pdf(dens, u, v); });
  auto fill = [&](std::vector<M>& m, bool flipped) {
    m.resize(K);
    for (std::size_t k = 0; k < K; ++k) m[k] = dens.margin(flipped ? flip(d.vargs[k]) : d.vargs[k]);
  };
  std::vector<M>& ma = d.marg_scratch(false, static_cast<const T*>(nullptr));
  fill(ma, fa);
  const std::vector<M>* mb = &ma;
  if (fb != fa) {
    std::vector<M>& second = d.marg_scratch(true, static_cast<const T*>(nullptr));
    fill(second, fb);
    mb = &second;
  }
  T ll = 0;
  for (std::size_t i = 0; i < d.n; ++i) {
    const M& x = ma[d.ia[i]];
    const M& y = (*mb)[d.ib[i]];
    ll += dens.pair(x.key, y.key) + x.add + y.add;
  }
  return ll;
}


}  // namespace copula_detail
}  // namespace irtopics

#endif
