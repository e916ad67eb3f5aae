// Copulas: the data of one pair of systems prepared once for all candidate
// families (arguments, normal scores, t scores, the distinct
// pseudo-observations), the shared table of t scores, and the sums over the
// observations that every family's log-likelihood uses, four observations
// at a time (copula_pack.h): sum_rotated_packed() (the rotation applied to
// the arguments), sum_split_packed() (a density split into margin and pair
// parts, the margins computed once per distinct value: rank
// pseudo-observations take only n values i / (n + 1)) and
// sum_scores_packed() (the t fit's sums). Pure C++.
#ifndef IRTOPICS_COPULA_DATA_H
#define IRTOPICS_COPULA_DATA_H

#include "copula_core.h"

namespace irtopics {
// Student t scores qt(q, 1/s) on a uniform grid of s = 1/nu over
// [1/30, 1/2.0001], for a set of lower-half probabilities q (sorted,
// distinct): the t-copula fit searches nu with scores interpolated from it
// (cubic Lagrange in s, relative error about 1e-7), then evaluates the
// log-likelihood exactly at the nu it found, the Newton iteration of each
// quantile started from the interpolated score. Pseudo-observations from
// ranks share their values (i / (n + 1)), so one table serves every pair.
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
  std::vector<long> qa, qb, vq;     // (vq: of each distinct value)
  std::vector<double> tq, x, y;     // per nu: quantiles of q, scores (n, then zeros to whole packs)
  mutable std::vector<double> tlog;  // scratch of t_margin_sum() (copula_elliptical.h)
  const TScoreTable* table = nullptr;  // when every probability is in it
  std::vector<std::size_t> qrow;    // the table's row of each q
  // the distinct values of u1 and u2 (sorted) and each observation's index
  // in them: margin parts of the two-parameter densities are computed once
  // per value (sum_split_packed())
  std::vector<double> vals;
  std::vector<Arg> vargs;
  std::vector<double> vz;  // their normal scores
  std::vector<std::size_t> ia, ib;
  // The arguments in packs of four (sum_split_packed(), sum_rotated_packed()):
  // observation i is lane i % 4 of pack i / 4 in pa, pb, value k lane k % 4
  // of pack k / 4 in pvals; the last pack is filled up with copies of the
  // first observation (value), which `tail` (of the observations) leaves out
  // of every sum. ca, cb: how often each value occurs in u1 and u2.
  std::vector<ArgP> pa, pb, pvals;
  std::vector<Pk> ca, cb;
  Mask tail{};
  mutable std::vector<MargT<Pk>> pmarg_a, pmarg_b;  // scratch of sum_split_packed()
  mutable std::vector<MargT<Dual2P>> pdmarg_a, pdmarg_b;
  std::vector<MargT<Pk>>& marg_scratch(bool second, const Pk*) const { return second ? pmarg_b : pmarg_a; }
  std::vector<MargT<Dual2P>>& marg_scratch(bool second, const Dual2P*) const { return second ? pdmarg_b : pdmarg_a; }

  void prepare(const double* u1, const double* u2, std::size_t n_, const TScoreTable* tab = nullptr) {
    n = n_;
    // the arguments and normal scores once per distinct value
    vals.assign(u1, u1 + n);
    vals.insert(vals.end(), u2, u2 + n);
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    vargs.resize(vals.size());
    vz.resize(vals.size());
    for (std::size_t k = 0; k < vals.size(); ++k) {
      vargs[k] = make_arg(vals[k]);
      vz[k] = norm_q(vargs[k]);
    }
    ia.resize(n);
    ib.resize(n);
    a.resize(n);
    b.resize(n);
    z1.resize(n);
    z2.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      ia[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u1[i]) - vals.begin());
      ib[i] = static_cast<std::size_t>(std::lower_bound(vals.begin(), vals.end(), u2[i]) - vals.begin());
      a[i] = vargs[ia[i]];
      b[i] = vargs[ib[i]];
      z1[i] = vz[ia[i]];
      z2[i] = vz[ib[i]];
    }
    pack_arguments();
    // the t scores' probabilities and indices once per distinct value
    q.clear();
    for (const Arg& g : vargs) q.push_back(std::min(g.x, g.x1));
    std::sort(q.begin(), q.end());
    q.erase(std::unique(q.begin(), q.end()), q.end());
    vq.resize(vals.size());
    for (std::size_t k = 0; k < vals.size(); ++k) {
      const Arg& g = vargs[k];
      const long r = static_cast<long>(std::lower_bound(q.begin(), q.end(), std::min(g.x, g.x1)) - q.begin()) + 1;
      vq[k] = g.x > 0.5 ? -r : r;
    }
    qa.resize(n);
    qb.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      qa[i] = vq[ia[i]];
      qb[i] = vq[ib[i]];
    }
    // t scores, filled up with zeros to whole packs (a zero pair adds exactly
    // 0 to every sum of the t fit, copula_elliptical.h)
    x.assign(pa.size() * kPkWidth, 0.0);
    y.assign(pa.size() * kPkWidth, 0.0);
    tq.assign((q.size() + kPkWidth - 1) / kPkWidth * kPkWidth, 0.0);  // zeros to whole packs
    table = nullptr;
    if (tab) {
      qrow.resize(q.size());
      bool all = true;
      for (std::size_t k = 0; k < q.size() && all; ++k) {
        const long r = tab->row(q[k]);
        all = r > 0;
        qrow[k] = static_cast<std::size_t>(r - 1);
      }
      if (all) table = tab;
    }
  }

  // pa, pb, pvals, ca, cb and tail from a, b, vargs, ia, ib.
  void pack_arguments() {
    auto pack = [](const std::vector<Arg>& g, std::vector<ArgP>& out) {
      const std::size_t m = g.size(), np = (m + kPkWidth - 1) / kPkWidth;
      out.resize(np);
      for (std::size_t p = 0; p < np; ++p) {
        Arg l[kPkWidth];
        for (int j = 0; j < kPkWidth; ++j) {
          const std::size_t i = p * kPkWidth + j;
          l[j] = g[i < m ? i : 0];
        }
        auto lanes = [&](double Arg::*f) IRTOPICS_LAMBDA_INLINE {
          double x[kPkWidth];
          for (int j = 0; j < kPkWidth; ++j) x[j] = l[j].*f;
          return Pk::lanes(x);
        };
        out[p] = ArgP{lanes(&Arg::x), lanes(&Arg::x1), lanes(&Arg::lx), lanes(&Arg::l1x), lanes(&Arg::llx),
                      lanes(&Arg::ll1x)};
      }
    };
    pack(a, pa);
    pack(b, pb);
    pack(vargs, pvals);
    std::vector<double> na(pvals.size() * kPkWidth, 0.0), nb(na.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      na[ia[i]] += 1.0;
      nb[ib[i]] += 1.0;
    }
    ca.resize(pvals.size());
    cb.resize(pvals.size());
    for (std::size_t p = 0; p < pvals.size(); ++p) {
      const double* x = &na[p * kPkWidth];
      const double* y = &nb[p * kPkWidth];
      ca[p] = Pk::lanes(x);
      cb[p] = Pk::lanes(y);
    }
    const std::size_t last = n == 0 ? 0 : (n - 1) / kPkWidth * kPkWidth;
    double lane[kPkWidth];
    for (int j = 0; j < kPkWidth; ++j) lane[j] = static_cast<double>(last + j);
    tail = Pk::lanes(lane) < static_cast<double>(n);
  }

  // Interpolated t scores at s = 1/nu into x, y (needs the table).
  void t_scores_interpolated(double s) {
    interpolate(s);
    gather_scores();
  }

  // t scores for nu into x, y.
  void t_scores(const StudentT& t) {
    for (std::size_t k = 0; k < q.size(); ++k) tq[k] = q[k] == 0.5 ? 0.0 : t.quantile(q[k]);
    gather_scores();
  }

  // Exact t scores for nu = 1/s into x, y as t_scores(), each quantile's
  // Newton iteration started from the interpolated score (needs the table).
  void t_scores_exact(const StudentT& t, double s) {
    interpolate(s);
    for (std::size_t k = 0; k < q.size(); ++k) tq[k] = t.lower_quantile_from(q[k], tq[k]);
    gather_scores();
  }

 private:
  // tq from the table at s.
  void interpolate(double s) {
    int j0;
    double w[4];
    table->weights(s, j0, w);
    for (std::size_t k = 0; k < q.size(); ++k) {
      const double* row = &table->score[qrow[k] * TScoreTable::kGrid + j0];
      tq[k] = w[0] * row[0] + w[1] * row[1] + w[2] * row[2] + w[3] * row[3];
    }
  }
  // x, y from tq.
  void gather_scores() {
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = qa[i] > 0 ? tq[qa[i] - 1] : -tq[-qa[i] - 1];
      y[i] = qb[i] > 0 ? tq[qb[i] - 1] : -tq[-qb[i] - 1];
    }
  }
};

inline double pair_size(const PairData& d) { return static_cast<double>(d.n); }

// ------------------------------------------------ four observations at once

// The lanes of a pack summed (packed_total()); for a Dual1P or Dual2P, each part.
IRTOPICS_DUAL_INLINE double packed_total(const Pk& x) { return lane_sum(x); }
IRTOPICS_DUAL_INLINE Dual1 packed_total(const Dual1P& x) {
  Dual1 r(lane_sum(x.v));
  r.d = lane_sum(x.d);
  r.dd = lane_sum(x.dd);
  return r;
}
IRTOPICS_DUAL_INLINE Dual2 packed_total(const Dual2P& x) {
  Dual2 r(lane_sum(x.v));
  r.g0 = lane_sum(x.g0);
  r.g1 = lane_sum(x.g1);
  r.h00 = lane_sum(x.h00);
  r.h01 = lane_sum(x.h01);
  r.h11 = lane_sum(x.h11);
  return r;
}

// The key of observations ix[0..3] from margins stored by value in packs.
IRTOPICS_DUAL_INLINE Pk gather_key(const std::vector<MargT<Pk>>& m, const std::size_t* ix) {
  double x[kPkWidth];
  for (int j = 0; j < kPkWidth; ++j) x[j] = m[ix[j] / kPkWidth].key[static_cast<int>(ix[j] % kPkWidth)];
  return Pk::lanes(x);
}
IRTOPICS_DUAL_INLINE Dual2P gather_key(const std::vector<MargT<Dual2P>>& m, const std::size_t* ix) {
  auto part = [&](Pk Dual2P::*f) IRTOPICS_LAMBDA_INLINE {
    double x[kPkWidth];
    for (int j = 0; j < kPkWidth; ++j) x[j] = (m[ix[j] / kPkWidth].key.*f)[static_cast<int>(ix[j] % kPkWidth)];
    return Pk::lanes(x);
  };
  Dual2P r;
  r.v = part(&Dual2P::v);
  r.g0 = part(&Dual2P::g0);
  r.g1 = part(&Dual2P::g1);
  r.h00 = part(&Dual2P::h00);
  r.h01 = part(&Dual2P::h01);
  r.h11 = part(&Dual2P::h11);
  return r;
}

// The sum over observations of f(x, y) (a Pk) on the t scores in packs;
// the zeros that fill the last pack must add 0 (they do for the t fit's
// sums).
template <typename F>
IRTOPICS_DUAL_INLINE double sum_scores_packed(const PairData& d, F&& f) {
  Pk sum = 0.0;
  const std::size_t np = d.x.size() / kPkWidth;
  for (std::size_t p = 0; p < np; ++p) sum += f(Pk::lanes(&d.x[p * kPkWidth]), Pk::lanes(&d.y[p * kPkWidth]));
  return lane_sum(sum);
}

// Sum over the observations of lp(a, b) with the arguments of rotation r,
// four at a time: lp(u, v) on ArgP packs returns a Pk (or Dual1P, Dual2P);
// the result is a double (Dual1, Dual2). The lanes are summed apart and
// added at the end (lane_sum()).
template <typename L>
IRTOPICS_DUAL_INLINE auto sum_rotated_packed(const PairData& d, int r, L&& lp) {
  using T = decltype(lp(d.pa[0], d.pb[0]));
  const bool fa = r == 180 || r == 90, fb = r == 180 || r == 270;
  const std::size_t np = d.pa.size();
  T ll = 0.0;
  for (std::size_t p = 0; p < np; ++p) {
    const ArgP& a = d.pa[p];
    const ArgP& b = d.pb[p];
    const T v = lp(fa ? flip(a) : a, fb ? flip(b) : b);
    ll += p + 1 < np ? v : pick(d.tail, v, T(0.0));
  }
  return packed_total(ll);
}

// sum_rotated_packed() of a split density (BB1DensityT, ...; of Pk or
// Dual2P parameters): the margin parts once per distinct value, four values
// at a time (pseudo-observations from ranks share their values, so
// rotations 0 and 180 compute n margins instead of 2n), else directly. The
// margins' additive parts enter once per distinct value, times how often
// it occurs.
template <typename D>
IRTOPICS_DUAL_INLINE auto sum_split_packed(const PairData& d, int r, const D& dens) {
  using M = decltype(dens.margin(d.pvals[0]));
  using T = decltype(M::key);
  const bool fa = r == 180 || r == 90, fb = r == 180 || r == 270;
  const std::size_t K = d.vals.size();
  if ((fa == fb ? K : 2 * K) >= 2 * d.n)
    return sum_rotated_packed(d, r, [&](const ArgP& u, const ArgP& v) IRTOPICS_LAMBDA_INLINE {
      return split_log_pdf(dens, u, v);
    });
  const std::size_t nv = d.pvals.size();
  T ll = 0.0;
  // the margins of the values in m, their additive parts times count(p)
  auto fill = [&](std::vector<M>& m, bool flipped, auto&& count) IRTOPICS_LAMBDA_INLINE {
    m.resize(nv);
    for (std::size_t p = 0; p < nv; ++p) {
      m[p] = dens.margin(flipped ? flip(d.pvals[p]) : d.pvals[p]);
      const Pk c = count(p);
      ll += pick(c > 0.0, T(m[p].add * c), T(0.0));
    }
  };
  std::vector<M>& ma = d.marg_scratch(false, static_cast<const T*>(nullptr));
  std::vector<M>& mb = d.marg_scratch(true, static_cast<const T*>(nullptr));
  if (fa == fb) {  // one set of margins for both arguments, times both counts
    fill(ma, fa, [&](std::size_t p) IRTOPICS_LAMBDA_INLINE { return d.ca[p] + d.cb[p]; });
  } else {
    fill(ma, fa, [&](std::size_t p) IRTOPICS_LAMBDA_INLINE { return d.ca[p]; });
    fill(mb, fb, [&](std::size_t p) IRTOPICS_LAMBDA_INLINE { return d.cb[p]; });
  }
  const std::vector<M>& mb_used = fa == fb ? ma : mb;
  const std::size_t np = d.pa.size();
  std::size_t ix[kPkWidth], jx[kPkWidth];
  for (std::size_t p = 0; p < np; ++p) {
    for (int j = 0; j < kPkWidth; ++j) {
      const std::size_t i = p * kPkWidth + j < d.n ? p * kPkWidth + j : 0;
      ix[j] = d.ia[i];
      jx[j] = d.ib[i];
    }
    const T v = dens.pair(gather_key(ma, ix), gather_key(mb_used, jx));
    ll += p + 1 < np ? v : pick(d.tail, v, T(0.0));
  }
  return packed_total(ll);
}

}  // namespace copula_detail
}  // namespace irtopics

#endif
