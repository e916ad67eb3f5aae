// Copulas (C++ test driver): copula.h and distributions.h (closed forms,
// symmetries, round trips, edges of the unit square, simulation and
// selection) and the two-parameter families (copula_bb.h, copula_tawn.h).
#include "driver.h"
// the families' own functions, beside their records (copula_families.h)
#include "copula_archimedean.h"
#include "copula_bb.h"
#include "copula_elliptical.h"
#include "copula_tawn.h"

// Copulas (copula.h) and distribution functions (distributions.h): closed
// forms, symmetries, round trips, finite values at the edges of the unit
// square and at the fitting bounds, simulation and selection.
void test_copulas() {
  Context ctx("copulas");
  using irtopics::Copula;
  // Normal and t distributions.
  for (double x : {-30.0, -8.0, -1.5, -1e-3, 0.0, 0.7}) {
    const double p = irtopics::norm_cdf(x);
    if (p > 0 && p < 1) CHECK_NEAR(irtopics::norm_quantile(p), x, 1e-12 * std::max(1.0, std::fabs(x)));
  }
  for (double p : {1e-6, 0.2, 0.5, 0.9})  // 1 - p is rounded: symmetric to its precision
    CHECK_NEAR(irtopics::norm_quantile(p), -irtopics::norm_quantile(1 - p), 1e-9);
  CHECK(std::isinf(irtopics::norm_quantile(0)) && std::isnan(irtopics::norm_quantile(1.5)));
  CHECK_NEAR(irtopics::inc_beta(0.3, 1, 1), 0.3, 1e-15);
  CHECK_NEAR(irtopics::inc_beta(0.3, 2.5, 1), std::pow(0.3, 2.5), 1e-15);
  CHECK_NEAR(irtopics::inc_beta(0.3, 2.5, 7.25) + irtopics::inc_beta(0.7, 7.25, 2.5), 1.0, 1e-14);
  const irtopics::StudentT cauchy(1), t2(2);
  for (double x : {-1e6, -3.0, -1.0, 0.2, 4.0}) {
    CHECK_NEAR(cauchy.cdf(x), 0.5 + std::atan(x) / irtopics::kPi, 1e-14);
    CHECK_NEAR(t2.cdf(x), 0.5 + x / (2 * std::sqrt(2 + x * x)), 1e-14);
  }
  for (double p : {1e-12, 1e-5, 0.1, 0.37, 0.5, 0.8, 1 - 1e-9}) {
    const double cot = p < 0.5 ? -1 / std::tan(irtopics::kPi * p) : 1 / std::tan(irtopics::kPi * (1 - p));
    CHECK_NEAR(cauchy.quantile(p), cot, 1e-11 * std::max(1.0, std::fabs(cot)));
    const double want = (2 * p - 1) / std::sqrt(2 * p * (1 - p));
    CHECK_NEAR(t2.quantile(p), want, 1e-11 * std::max(1.0, std::fabs(want)));
    for (double df : {0.5, 2.0001, 4.7, 30.0, 1e4}) {
      const irtopics::StudentT t(df);
      const double q = t.quantile(p);
      CHECK(std::isfinite(q));
      CHECK_NEAR(t.cdf(q), p, 1e-12 * std::min(p, 1 - p) + 1e-300);
      if (p >= 1e-6 && p <= 0.5) CHECK_NEAR(t.quantile(1 - p), -q, 1e-9 * std::max(1.0, std::fabs(q)));
    }
  }

  // Every family and rotation, moderate and extreme parameters.
  const std::vector<Copula> cops = {
      {0, 0, 0},     {1, 0.6, 0},    {1, -0.9999, 0}, {2, 0.5, 4.5},   {2, 0.9999, 2.0001}, {2, -0.3, 30},
      {3, 2.5, 0},   {3, 28, 0},     {3, 1e-4, 0},    {4, 2, 0},       {4, 17, 0},          {4, 1.0001, 0},
      {5, 6, 0},     {5, -35, 0},    {5, 35, 0},      {5, 1e-6, 0},    {6, 2.2, 0},         {6, 30, 0},
      {6, 1.0001, 0}, {13, 1.5, 0},  {14, 3, 0},      {16, 1.7, 0},    {23, -2.5, 0},       {24, -2, 0},
      {26, -30, 0},  {33, -28, 0},   {34, -17, 0},    {36, -3, 0}};
  const std::vector<double> edge = {1e-12, 1e-6, 0.3, 0.5, 1 - 1e-6, 1 - 1e-12};
  long bad = 0, asym = 0, trips = 0;
  for (const Copula& c : cops) {
    irtopics::copula_check(c);
    for (double a : edge)
      for (double b : edge) {
        const double lp = irtopics::copula_log_pdf(c, a, b);
        const double h1 = irtopics::copula_h1(c, a, b), h2 = irtopics::copula_h2(c, a, b);
        const double hi = irtopics::copula_hinv1(c, a, b);
        bad += !std::isfinite(lp) || !(h1 >= 0 && h1 <= 1) || !(h2 >= 0 && h2 <= 1) || !(hi >= 0 && hi <= 1);
      }
    // exchangeable: c(u, v) = c(v, u), h2(u, v) = h1(v, u) for rotations 0
    // and 180; the 90 degree rotation transposed is the 270 degree one.
    Copula tr = c;
    if (c.family / 10 == 2) tr.family += 10; else if (c.family / 10 == 3) tr.family -= 10;
    for (double a : {0.1, 0.45, 0.8})
      for (double b : {0.05, 0.6, 0.93}) {
        asym += std::fabs(irtopics::copula_log_pdf(c, a, b) - irtopics::copula_log_pdf(tr, b, a)) > 1e-12;
        asym += std::fabs(irtopics::copula_h2(c, a, b) - irtopics::copula_h1(tr, b, a)) > 1e-14;
        const double v = irtopics::copula_hinv1(c, a, b);
        trips += std::fabs(irtopics::copula_h1(c, a, v) - b) > 1e-10;
      }
  }
  CHECK_MSG(bad == 0, num(bad) + " non-finite or out-of-range values");
  CHECK_MSG(asym == 0, num(asym) + " exchangeability failures");
  CHECK_MSG(trips == 0, num(trips) + " hinv1 round trips off");

  // Kendall's tau.
  CHECK_NEAR(irtopics::copula_tau({3, 2.5, 0}), 2.5 / 4.5, 1e-15);
  CHECK_NEAR(irtopics::copula_tau({34, -4, 0}), -0.75, 1e-15);
  CHECK_NEAR(irtopics::copula_tau({2, 0.5, 3}), 1.0 / 3, 1e-15);
  CHECK_NEAR(irtopics::copula_tau({5, 2 - 1e-9, 0}), irtopics::copula_tau({5, 2 + 1e-9, 0}), 1e-9);  // series switch
  CHECK_NEAR(irtopics::copula_tau({5, -3, 0}), -irtopics::copula_tau({5, 3, 0}), 1e-15);
  CHECK_NEAR(irtopics::copula_tau({6, 1.0, 0}), 0.0, 1e-9);  // Joe at 1 is independence
  CHECK(irtopics::copula_tau({6, 30, 0}) > 0.9 && irtopics::copula_tau({6, 30, 0}) < 1);

  // Simulation: a pure function of the stream, inside (0, 1).
  std::vector<double> u1(2000), u2(2000), w1(2000), w2(2000);
  irtopics::Stream s1(irtopics::seed_key(7), 3), s2(irtopics::seed_key(7), 3);
  irtopics::copula_simulate({14, 3, 0}, s1, 2000, u1.data(), u2.data());
  irtopics::copula_simulate({14, 3, 0}, s2, 2000, w1.data(), w2.data());
  CHECK(u1 == w1 && u2 == w2);
  CHECK(*std::min_element(u1.begin(), u1.end()) > 0 && *std::max_element(u2.begin(), u2.end()) < 1);
  irtopics::KendallWorkspace kw;
  CHECK_NEAR(kw.tau_b(u1.data(), u2.data(), 2000), irtopics::copula_tau({14, 3, 0}), 0.05);

  // Selection on 2000 simulated pairs: the family simulated from, the
  // log-likelihood is the sum of log densities, AIC = -2 ll + 2 npar.
  const std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 13, 14, 16, 23, 24, 26, 33, 34, 36};
  double tau_e = 0;
  const irtopics::CopulaFit fit = irtopics::copula_select(u1.data(), u2.data(), 2000, all, {}, &tau_e);
  CHECK(fit.cop.family == 14);
  CHECK_NEAR(fit.cop.par, 3.0, 0.3);
  double ll = 0;
  for (std::size_t i = 0; i < 2000; ++i) ll += irtopics::copula_log_pdf(fit.cop, u1[i], u2[i]);
  CHECK_NEAR(fit.loglik, ll, 1e-8);
  CHECK_NEAR(fit.aic, -2 * ll + 2, 1e-8);
  // (u1, 1 - u2) of family 14 has density c(1 - u1, u2) of the base: family 24
  for (double& v : u2) v = 1 - v;
  const irtopics::CopulaFit neg = irtopics::copula_select(u1.data(), u2.data(), 2000, all);
  CHECK(neg.cop.family == 24 && neg.cop.par < -2.5);
  bool threw = false;
  try { irtopics::copula_select(u1.data(), u2.data(), 2000, {0, 11}); } catch (const std::invalid_argument&) { threw = true; }
  CHECK(threw);
  threw = false;
  u1[5] = 1.0;
  try { irtopics::copula_select(u1.data(), u2.data(), 2000, all); } catch (const std::invalid_argument&) { threw = true; }
  CHECK(threw);
  threw = false;
  try { irtopics::copula_check({4, 0.5, 0}); } catch (const std::invalid_argument&) { threw = true; }
  CHECK(threw);

  // Preselection from the records' tails, rotated with their codes, gives
  // VineCopula's lists (BiCopSelect, presel = TRUE), as sets.
  {
    using irtopics::copula_detail::Preselection;
    // VineCopula's 40 codes (families added later are not in its lists)
    const std::vector<int> codes = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 13,  14,  16,  17,  18,  19,  20,  23,  24,
                                    26, 27, 28, 29, 30, 33, 34, 36, 37, 38, 39, 40, 104, 114, 124, 134, 204, 214, 224, 234};
    auto sorted = [](std::vector<int> v) { std::sort(v.begin(), v.end()); return v; };
    const unsigned c11 = irtopics::copula_detail::kCorner11, c00 = irtopics::copula_detail::kCorner00,
                   c10 = irtopics::copula_detail::kCorner10, c01 = irtopics::copula_detail::kCorner01;
    const std::vector<std::pair<Preselection, std::vector<int>>> lists = {
        {{0, 0, false}, codes},
        {{1, 0, false}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 16, 17, 18, 19, 20, 104, 114, 204, 214}},
        {{-1, 0, false}, {0, 1, 2, 5, 23, 24, 26, 27, 28, 29, 30, 33, 34, 36, 37, 38, 39, 40, 124, 134, 224, 234}},
        {{1, c11, true}, {0, 2, 13, 4, 6, 7, 17, 8, 9, 19, 10, 104, 204}},
        {{1, c11, false}, {0, 1, 2, 5, 20, 13, 4, 6, 7, 17, 8, 9, 19, 10, 104, 204}},
        {{1, c00, true}, {0, 2, 3, 14, 16, 7, 17, 18, 9, 19, 20, 114, 214}},
        {{1, c00, false}, {0, 1, 2, 5, 10, 3, 14, 16, 7, 17, 18, 9, 19, 20, 114, 214}},
        {{-1, c10, true}, {0, 2, 23, 34, 36, 27, 37, 38, 29, 39, 40, 134, 234}},
        {{-1, c10, false}, {0, 1, 2, 5, 30, 23, 34, 36, 27, 37, 38, 29, 39, 40, 134, 234}},
        {{-1, c01, true}, {0, 2, 33, 24, 26, 27, 37, 28, 29, 39, 30, 124, 224}},
        {{-1, c01, false}, {0, 1, 2, 5, 40, 33, 24, 26, 27, 37, 28, 29, 39, 30, 124, 224}}};
    for (const auto& l : lists)
      CHECK_MSG(sorted(irtopics::copula_detail::preselected_codes(l.first, codes)) == sorted(l.second),
                "preselection sign " + std::to_string(l.first.sign) + " corner " + std::to_string(l.first.corner));
    // a family set the preselection empties falls back to the whole set
    CHECK(irtopics::copula_detail::preselected_codes({1, c11, true}, {3, 14}) == std::vector<int>({3, 14}));
  }

  // The t-score table: interpolation within 1e-6 of exact quantiles, and
  // the t fit with it at least as good as without (up to 1e-6).
  std::vector<double> r(50);
  for (int i = 0; i < 50; ++i) r[i] = (i + 1) / 51.0;
  irtopics::TScoreTable table;
  table.set_probabilities(r.data(), r.size());
  table.fill();
  CHECK(table.q.size() >= 25 && table.q.size() <= 50);  // 1 - i/51 rounds apart from (51 - i)/51
  double worst = 0;
  for (double nu : {2.0001, 2.3, 3.7, 9.1, 29.9}) {
    int j0;
    double w[4];
    table.weights(1 / nu, j0, w);
    for (std::size_t k = 0; k < table.q.size(); ++k) {
      const double* row = &table.score[k * irtopics::TScoreTable::kGrid + j0];
      const double got = w[0] * row[0] + w[1] * row[1] + w[2] * row[2] + w[3] * row[3];
      const double want = irtopics::StudentT(nu).quantile(table.q[k]);
      if (want != 0) worst = std::max(worst, std::fabs(got / want - 1));
    }
  }
  CHECK_MSG(worst < 1e-6, "interpolation error " + num(worst));
  long worse = 0;
  for (std::uint64_t b = 0; b < 20; ++b) {
    irtopics::Stream st(irtopics::seed_key(11), b);
    std::vector<double> a(50), c(50);
    irtopics::copula_simulate({2, 0.6, 4}, st, 50, a.data(), c.data());
    std::vector<double> ra(50), rc(50);
    for (int i = 0; i < 50; ++i) {
      int ka = 1, kc = 1;
      for (int j = 0; j < 50; ++j) { ka += a[j] < a[i]; kc += c[j] < c[i]; }
      ra[i] = ka / 51.0;
      rc[i] = kc / 51.0;
    }
    const irtopics::CopulaFit f1 = irtopics::copula_select(ra.data(), rc.data(), 50, {2});
    const irtopics::CopulaFit f2 = irtopics::copula_select(ra.data(), rc.data(), 50, {2}, {}, nullptr, &table);
    worse += f2.loglik < f1.loglik - 1e-6;
    CHECK(f2.cop.par2 >= irtopics::kNuMin && f2.cop.par2 <= irtopics::kNuMax && std::fabs(f2.cop.par) <= irtopics::kRhoMax);
  }
  CHECK_MSG(worse == 0, num(worse) + " t fits worse with the table");
}

// Two-parameter copula families (src/copula_bb.h, src/copula_tawn.h): BB1,
// BB6, BB7, BB8 and Tawn
// with their rotations. Values from VineCopula 2.6.1 (BiCopPDF at (0.3, 0.8),
// BiCopPar2Tau); derivative identities; hinv1 round trips; a fit.
void test_copula_twopar() {
  Context ctx("copula two-parameter families");
  using irtopics::Copula;
  auto cop = [](int f, double p, double p2) {
    Copula c;
    c.family = f;
    c.par = p;
    c.par2 = p2;
    return c;
  };
  const int codes[] = {7, 8, 9, 10, 17, 18, 19, 20, 27, 28, 29, 30, 37, 38, 39, 40,
                       104, 114, 124, 134, 204, 214, 224, 234};
  for (int f : codes) CHECK_MSG(irtopics::copula_detail::is_known_family(f), std::to_string(f));
  for (int f : {11, 12, 15, 21, 25, 31, 35, 41, 100, 144, 304}) CHECK(!irtopics::copula_detail::is_known_family(f));
  CHECK(irtopics::copula_detail::base_of(20) == 10 && irtopics::copula_detail::rotation_of(20) == 180);
  CHECK(irtopics::copula_detail::base_of(30) == 10 && irtopics::copula_detail::rotation_of(30) == 90);
  CHECK(irtopics::copula_detail::base_of(40) == 10 && irtopics::copula_detail::rotation_of(40) == 270);
  CHECK(irtopics::copula_detail::base_of(124) == 204 && irtopics::copula_detail::rotation_of(124) == 90);
  CHECK(irtopics::copula_detail::base_of(234) == 104 && irtopics::copula_detail::rotation_of(234) == 270);
  CHECK(irtopics::copula_detail::base_of(214) == 204 && irtopics::copula_detail::rotation_of(214) == 180);

  const Copula ref[] = {cop(7, 0.8, 1.7), cop(18, 1.5, 2.2), cop(29, -2, -1.5), cop(40, -3, -0.7),
                        cop(104, 2, 0.6), cop(124, -2, 0.6), cop(214, 3, 0.4), cop(234, -3, 0.4)};
  const double pdf[] = {0.331857293772833, 0.193134009774424, 1.750250704337623, 1.324923246680610,
                        0.617637696043884, 1.216303453514880, 0.771473568012981, 1.063851028179291};
  for (int k = 0; k < 8; ++k) {
    irtopics::copula_check(ref[k]);
    CHECK_NEAR(irtopics::copula_pdf(ref[k], 0.3, 0.8), pdf[k], 1e-9 * pdf[k]);
  }
  CHECK_NEAR(irtopics::copula_tau(cop(8, 2, 1.5)), 0.570043895000, 1e-6);
  CHECK_NEAR(irtopics::copula_tau(cop(9, 2, 1.5)), 0.546418462882, 1e-6);
  CHECK_NEAR(irtopics::copula_tau(cop(10, 3, 0.7)), 0.277931132530, 1e-6);
  CHECK_NEAR(irtopics::copula_tau(cop(104, 2, 0.6)), 0.350642346526, 1e-6);
  CHECK_NEAR(irtopics::copula_tau(cop(234, -3, 0.4)), -0.320764878148, 1e-6);
  CHECK_NEAR(irtopics::copula_tau(cop(37, -0.8, -1.7)), -(1 - 2 / (1.7 * 2.8)), 1e-14);

  // dh1/du2 = dh2/du1 = density; hinv1 inverts h1
  const double grid[] = {0.02, 0.2, 0.5, 0.77, 0.98};
  for (int f : codes) {
    const int base = irtopics::copula_detail::base_of(f), r = irtopics::copula_detail::rotation_of(f);
    const double s = (r == 90 || r == 270) ? -1 : 1;
    double p = 2, p2 = 0.5;
    if (base == 7) p = 1.2, p2 = 1.6;
    if (base == 8) p = 1.4, p2 = 1.8;
    if (base == 9) p = 1.6, p2 = 0.8;
    const Copula c = cop(f, s * p, base > 100 ? p2 : s * p2);
    irtopics::copula_check(c);
    for (double u : grid)
      for (double v : grid) {
        const double h = 1e-5, d = irtopics::copula_pdf(c, u, v);
        const double d1 = (irtopics::copula_h1(c, u, v + h) - irtopics::copula_h1(c, u, v - h)) / (2 * h);
        const double d2 = (irtopics::copula_h2(c, u + h, v) - irtopics::copula_h2(c, u - h, v)) / (2 * h);
        CHECK_MSG(std::fabs(d1 - d) <= 1e-5 * (1 + d) && std::fabs(d2 - d) <= 1e-5 * (1 + d),
                  "family " + std::to_string(f) + " at " + num(u) + ", " + num(v));
        const double w = irtopics::copula_h1(c, u, v);
        CHECK_NEAR(irtopics::copula_h1(c, u, irtopics::copula_hinv1(c, u, w)), w, 1e-10);
      }
  }
  bool threw = false;
  try {
    irtopics::copula_check(cop(10, 2, 1.5));
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);

  // a sample of Tawn type 1 (n = 2000) selects a Tawn copula with about its parameters
  irtopics::Stream st(irtopics::seed_key(11), 1);
  std::vector<double> u1(2000), u2(2000);
  irtopics::copula_simulate(cop(104, 3, 0.6), st, u1.size(), u1.data(), u2.data());
  const std::vector<int> fams = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14, 16, 17, 18, 19, 20, 104, 114, 204, 214};
  const irtopics::CopulaFit fit = irtopics::copula_select(u1.data(), u2.data(), u1.size(), fams);
  CHECK_MSG(fit.cop.family == 104, std::to_string(fit.cop.family));
  CHECK_NEAR(fit.cop.par2, 0.6, 0.1);
  CHECK_NEAR(fit.aic, -2 * fit.loglik + 4, 1e-9);
}

namespace {
// The two-parameter codes, every rotation.
const int kTwoParCodes[] = {7, 17, 27, 37, 8, 18, 28, 38, 9, 19, 29, 39, 10, 20, 30, 40,
                            104, 114, 124, 134, 204, 214, 224, 234};

// loglik_d1 of the one-parameter family of a code at base parameter th.
irtopics::copula_detail::Dual1 one_par_d1(int code, const irtopics::copula_detail::PairData& d, int rotation,
                                          double th) {
  using namespace irtopics::copula_detail;
  switch (base_of(code)) {
    case 3: return OnePar<ClaytonFamily>::loglik_d1(d, rotation, th);
    case 4: return OnePar<GumbelFamily>::loglik_d1(d, rotation, th);
    case 5: return OnePar<FrankFamily>::loglik_d1(d, rotation, th);
    default: return OnePar<JoeFamily>::loglik_d1(d, rotation, th);
  }
}

// Draws of a copula into a, c (their sizes), and in ra, rc the rank
// pseudo-observations of their first 60, i / 61.
void draws_and_ranks(const irtopics::Copula& cop, irtopics::Stream& st, std::vector<double>& a,
                     std::vector<double>& c, std::vector<double>& ra, std::vector<double>& rc) {
  irtopics::copula_simulate(cop, st, a.size(), a.data(), c.data());
  ra.assign(60, 0.0);
  rc.assign(60, 0.0);
  for (int i = 0; i < 60; ++i) {
    int ka = 1, kc = 1;
    for (int j = 0; j < 60; ++j) { ka += a[j] < a[i]; kc += c[j] < c[i]; }
    ra[i] = ka / 61.0;
    rc[i] = kc / 61.0;
  }
}
}  // namespace

// The exact derivatives of the two-parameter log-likelihoods (loglik_d2, a
// Dual2; copula_dual.h): the value equals loglik's bit for bit, and the
// gradient and Hessian agree with central finite differences, for every
// code (rotations included) at points inside and on the edge of the fitting
// boxes, on rank pseudo-observations (shared values: sum_split_packed()'s margin
// table) and on distinct ones.
void test_copula_dual() {
  Context ctx("copula exact derivatives");
  using namespace irtopics::copula_detail;
  // f(x) = x^3 / (1 + e^y) + log1p(x y): the arithmetic and elementary
  // functions of Dual2 against their derivatives in closed form
  {
    const double x = 0.7, y = 1.3;
    const Dual2 X = Dual2::variable(x, 0), Y = Dual2::variable(y, 1);
    const Dual2 f = X * X * X / (1.0 + exp(Y)) + log1p(X * Y) - expm1(X) / 2.0 + log(2.0 - Y / 3.0);
    const double e = std::exp(y), q = 1 + e, r = 1 + x * y, s = 2 - y / 3;
    CHECK_NEAR(f.v, x * x * x / q + std::log1p(x * y) - std::expm1(x) / 2 + std::log(s), 1e-15);
    CHECK_NEAR(f.g0, 3 * x * x / q + y / r - std::exp(x) / 2, 1e-13);
    CHECK_NEAR(f.g1, -x * x * x * e / (q * q) + x / r - 1 / (3 * s), 1e-13);
    CHECK_NEAR(f.h00, 6 * x / q - y * y / (r * r) - std::exp(x) / 2, 1e-13);
    CHECK_NEAR(f.h01, -3 * x * x * e / (q * q) + 1 / (r * r), 1e-13);
    CHECK_NEAR(f.h11, -x * x * x * (e * q * q - 2 * q * e * e) / (q * q * q * q) - x * x / (r * r) - 1 / (9 * s * s),
               1e-13);
  }
  // newton_box_exact(): the climb reaches the maximum of a smooth concave
  // function, and the trial point of its last step, where the model
  // predicted a small gain after a step the model predicted to 10%, is
  // evaluated without the derivatives (fd2 is not called for it)
  {
    auto f = [](double x, double y) {
      return -(x - 1.2) * (x - 1.2) - 2 * (y - 0.4) * (y - 0.4) + 0.3 * x * y - 0.05 * std::pow(x - 1.2, 4);
    };
    int n_f = 0, n_fd2 = 0;
    bool last_plain = false;
    auto fv = [&](double x, double y) {
      ++n_f;
      last_plain = true;
      return f(x, y);
    };
    auto fd2 = [&](double x, double y) {
      ++n_fd2;
      last_plain = false;
      const Dual2 X = Dual2::variable(x, 0), Y = Dual2::variable(y, 1);
      const Dual2 dx = X - 1.2, dy = Y - 0.4;
      return Dual2(0.0) - dx * dx - 2.0 * dy * dy + 0.3 * X * Y - 0.05 * (dx * dx) * (dx * dx);
    };
    double x[2] = {0.2, 1.5};
    const double lo[2] = {0.0, 0.0}, hi[2] = {5.0, 5.0};
    int n_eval = 0;
    const double v = newton_box_exact(fv, fd2, x, lo, hi, f(x[0], x[1]), 40, &n_eval);
    // the maximiser: the gradient vanishes there
    const double gx = -2 * (x[0] - 1.2) + 0.3 * x[1] - 0.2 * std::pow(x[0] - 1.2, 3), gy = -4 * (x[1] - 0.4) + 0.3 * x[0];
    CHECK(std::fabs(gx) < 1e-5 && std::fabs(gy) < 1e-5);
    CHECK_NEAR(v, f(x[0], x[1]), 1e-15);
    CHECK(n_eval == n_f + n_fd2 && n_fd2 >= 2);
    CHECK(last_plain);
  }
  irtopics::Stream st(irtopics::seed_key(5), 1);
  std::vector<double> a(60), c(60), ra, rc;
  draws_and_ranks({2, 0.5, 5}, st, a, c, ra, rc);
  int bad_value = 0, bad_grad = 0, checked = 0;
  for (int data = 0; data < 2; ++data) {
    PairData d;
    d.prepare(data ? a.data() : ra.data(), data ? c.data() : rc.data(), 60, nullptr);
    for (int code : kTwoParCodes) {
      const irtopics::CopulaCode& e = irtopics::copula_code(code);
      const CopulaFamily& f = *e.family;
      CHECK_MSG(f.loglik_d2 != nullptr, std::to_string(code));
      if (!f.loglik_d2) continue;
      double lo[2], hi[2];
      f.bounds(0.4, lo, hi);
      for (double s0 : {0.0, 0.13, 0.5, 0.87, 1.0})
        for (double s1 : {0.0, 0.21, 0.6, 1.0}) {
          const double th = lo[0] + s0 * (hi[0] - lo[0]), th2 = lo[1] + s1 * (hi[1] - lo[1]);
          const Dual2 v = f.loglik_d2(d, e.rotation, th, th2);
          const double ll = f.loglik(d, e.rotation, th, th2);
          if (!(v.v == ll || (std::isnan(v.v) && std::isnan(ll)))) ++bad_value;
          if (!std::isfinite(ll)) continue;
          // central differences 1e-3 of the box inside it (at BB8's delta = 1
          // the derivatives of order 3 and more grow like (1 - delta)^-k)
          const double h0 = 2e-5 * (hi[0] - lo[0]), h1 = 2e-5 * (hi[1] - lo[1]);
          const double x0 = std::min(std::max(th, lo[0] + 50 * h0), hi[0] - 50 * h0);
          const double x1 = std::min(std::max(th2, lo[1] + 50 * h1), hi[1] - 50 * h1);
          auto L = [&](double p, double q) { return f.loglik(d, e.rotation, p, q); };
          const Dual2 w = f.loglik_d2(d, e.rotation, x0, x1);
          // central differences of the value (gradient) and of the exact
          // gradient (Hessian), with steps k and k / 2 extrapolated (Richardson)
          auto D = [&](int coord, double k, auto&& F) {
            auto c = [&](double j) {
              return coord == 0 ? (F(x0 + j, x1) - F(x0 - j, x1)) / (2 * j) : (F(x0, x1 + j) - F(x0, x1 - j)) / (2 * j);
            };
            return (4 * c(k / 2) - c(k)) / 3;
          };
          auto G0 = [&](double p, double q) { return f.loglik_d2(d, e.rotation, p, q).g0; };
          auto G1 = [&](double p, double q) { return f.loglik_d2(d, e.rotation, p, q).g1; };
          const double g0 = D(0, h0, L), g1 = D(1, h1, L);
          const double H00 = D(0, h0, G0), H11 = D(1, h1, G1), H01 = D(0, h0, G1), H10 = D(1, h1, G0);
          auto off = [](double exact, double fd, double tol) {
            return !(std::fabs(exact - fd) <= tol * (1 + std::fabs(exact)));
          };
          ++checked;
          if (off(w.g0, g0, 1e-6) || off(w.g1, g1, 1e-6) || off(w.h00, H00, 1e-6) || off(w.h11, H11, 1e-6) ||
              off(w.h01, H01, 1e-6) || off(w.h01, H10, 1e-6)) {
            ++bad_grad;
            std::printf("  code %d at (%g, %g): g (%g, %g) vs (%g, %g); H (%g, %g, %g) vs (%g, %g, %g)\n", code, x0,
                        x1, w.g0, w.g1, g0, g1, w.h00, w.h01, w.h11, H00, H01, H11);
          }
        }
    }
  }
  CHECK_MSG(bad_value == 0, num(bad_value) + " values differ from loglik's");
  CHECK_MSG(bad_grad == 0, num(bad_grad) + " of " + num(checked) + " derivatives off");

  // Dual1 (one variable): f(x) = x^3 / (1 + e^x) + log1p(x^2) - expm1(x) / 2 + log(2 - x / 3)
  {
    const double x = 0.7;
    const Dual1 X = Dual1::variable(x);
    const Dual1 f = X * X * X / (1.0 + exp(X)) + log1p(X * X) - expm1(X) / 2.0 + log(2.0 - X / 3.0);
    const double e = std::exp(x), q = 1 + e, r = 1 + x * x, s = 2 - x / 3;
    const double num1 = x * x * x, dnum1 = 3 * x * x, ddnum1 = 6 * x;
    CHECK_NEAR(f.v, num1 / q + std::log1p(x * x) - std::expm1(x) / 2 + std::log(s), 1e-15);
    CHECK_NEAR(f.d, dnum1 / q - num1 * e / (q * q) + 2 * x / r - e / 2 - 1 / (3 * s), 1e-13);
    CHECK_NEAR(f.dd,
               ddnum1 / q - 2 * dnum1 * e / (q * q) - num1 * (e * q - 2 * e * e) / (q * q * q) +
                   (2 * r - 4 * x * x) / (r * r) - e / 2 - 1 / (9 * s * s),
               1e-12);
  }
  // The one-parameter log-likelihoods' Dual1 (loglik_d1): the value is
  // loglik's bit for bit, the derivatives agree with differences; the Newton
  // fit (fit_onepar_newton()) reaches at least Brent's maximum over the
  // whole interval (fit_onepar()), on rank and distinct data and on samples
  // of strong dependence either way (maxima on a bound).
  int bad1_value = 0, bad1_deriv = 0, bad1_fit = 0, checked1 = 0, fits1 = 0;
  auto check_onepar = [&](auto tag, const PairData& d, int code, const CopulaFamily& rec, double tau) {
    using F = decltype(tag);
    const int r = irtopics::copula_detail::rotation_of(code);
    for (double s0 : {0.0, 0.01, 0.2, 0.5, 0.8, 0.99, 1.0}) {
      const double th = F::lo + s0 * (F::hi - F::lo);
      const Dual1 v = OnePar<F>::loglik_d1(d, r, th);
      const double ll = rec.loglik(d, r, th, 0.0);
      if (!(v.v == ll || (std::isnan(v.v) && std::isnan(ll)))) ++bad1_value;
      if (!std::isfinite(ll)) continue;
      const double h = 2e-5 * (F::hi - F::lo), x0 = std::min(std::max(th, F::lo + 50 * h), F::hi - 50 * h);
      auto D = [&](auto&& G) {
        auto c = [&](double j) { return (G(x0 + j) - G(x0 - j)) / (2 * j); };
        return (4 * c(h / 2) - c(h)) / 3;
      };
      const Dual1 w = OnePar<F>::loglik_d1(d, r, x0);
      const double g = D([&](double t) { return rec.loglik(d, r, t, 0.0); });
      const double H = D([&](double t) { return OnePar<F>::loglik_d1(d, r, t).d; });
      ++checked1;
      if (!(std::fabs(w.d - g) <= 1e-6 * (1 + std::fabs(w.d)) && std::fabs(w.dd - H) <= 1e-6 * (1 + std::fabs(w.dd)))) {
        ++bad1_deriv;
        std::printf("  code %d at %g: d %g vs %g, dd %g vs %g\n", code, x0, w.d, g, w.dd, H);
      }
    }
    PairData dd = d;
    const irtopics::CopulaFit nf = fit_onepar_newton<F>(dd, code, r, tau, nullptr);
    const irtopics::CopulaFit bf = fit_onepar(rec, dd, code, r);
    ++fits1;
    if (!(nf.loglik >= bf.loglik - 1e-9) || nf.cop.family != code) {
      ++bad1_fit;
      std::printf("  code %d: Newton %.10g at %g, Brent %.10g at %g\n", code, nf.loglik, nf.cop.par, bf.loglik,
                  bf.cop.par);
    }
  };
  std::vector<std::vector<double>> samples = {ra, rc, a, c};
  for (const irtopics::Copula& cop : {irtopics::Copula{4, 12, 0}, irtopics::Copula{5, -30, 0},
                                      irtopics::Copula{3, 0.05, 0}}) {
    std::vector<double> s1(80), s2(80);
    irtopics::copula_simulate(cop, st, 80, s1.data(), s2.data());
    samples.push_back(s1);
    samples.push_back(s2);
  }
  irtopics::KendallWorkspace kw;
  for (std::size_t k = 0; k + 1 < samples.size(); k += 2) {
    const std::size_t n = samples[k].size();
    PairData d;
    d.prepare(samples[k].data(), samples[k + 1].data(), n, nullptr);
    const double tau = kw.tau_b(samples[k].data(), samples[k + 1].data(), n);
    for (int code : {3, 13, 23, 33}) check_onepar(ClaytonFamily(), d, code, kClayton, tau);
    for (int code : {4, 14, 24, 34}) check_onepar(GumbelFamily(), d, code, kGumbel, tau);
    check_onepar(FrankFamily(), d, 5, kFrank, tau);
    for (int code : {6, 16, 26, 36}) check_onepar(JoeFamily(), d, code, kJoe, tau);
  }
  CHECK_MSG(bad1_value == 0, num(bad1_value) + " one-parameter values differ from loglik's");
  CHECK_MSG(bad1_deriv == 0, num(bad1_deriv) + " of " + num(checked1) + " one-parameter derivatives off");
  CHECK_MSG(bad1_fit == 0, num(bad1_fit) + " of " + num(fits1) + " Newton fits below Brent's");
}

// The packs of four observations (copula_pack.h): exp, expm1, log and log1p
// of a pack within 2 ulp of the C library's (the library's own value, lane by
// lane, where a lane is outside the reduced range); choose() with lanes that
// disagree; the packed log-likelihood sums against the plain sum of the
// log densities (every two-parameter code and the one-parameter families),
// on rank pseudo-observations (margins once per value) and on
// distinct values with a part-filled last pack; the AVX2 copy of the sums
// against the baseline copy, bit for bit (when the processor has AVX2).
void test_copula_packs() {
  Context ctx("copula packs");
  using namespace irtopics::copula_detail;
  auto ulps = [](double got, double want) {
    if (got == want || (std::isnan(got) && std::isnan(want))) return 0.0;
    if (!std::isfinite(want)) return std::numeric_limits<double>::infinity();
    const double u = std::fabs(std::nextafter(want, want > 0 ? INFINITY : -INFINITY) - want);
    return std::fabs(got - want) / u;
  };
  double worst = 0;
  int checked = 0, exact_bad = 0;
  auto check_fn = [&](auto&& packed, double (*ref)(double), double lo, double hi, bool log_scale) {
    for (int k = 0; k < 4000; ++k) {
      double x[kPkWidth];
      for (int j = 0; j < kPkWidth; ++j) {
        const double g = (k * kPkWidth + j) * 0.6180339887498949;  // a low-discrepancy sequence in [0, 1)
        const double t = lo + (hi - lo) * (g - std::floor(g));
        x[j] = log_scale ? std::exp(t) : t;
      }
      const Pk y = packed(Pk::lanes(x));
      for (int j = 0; j < kPkWidth; ++j) {
        worst = std::max(worst, ulps(y[j], ref(x[j])));
        ++checked;
      }
    }
  };
  auto fexp = [](const Pk& x) { return exp(x); };
  auto fexpm1 = [](const Pk& x) { return expm1(x); };
  auto flog = [](const Pk& x) { return log(x); };
  auto flog1p = [](const Pk& x) { return log1p(x); };
  check_fn(fexp, [](double t) { return std::exp(t); }, -707, 707, false);
  check_fn(fexp, [](double t) { return std::exp(t); }, -1, 1, false);
  check_fn(fexpm1, [](double t) { return std::expm1(t); }, -1, 1, false);
  check_fn(fexpm1, [](double t) { return std::expm1(t); }, -45, 45, false);
  check_fn(fexpm1, [](double t) { return std::expm1(t); }, -1e-9, 1e-9, false);
  check_fn(flog, [](double t) { return std::log(t); }, -700, 700, true);
  check_fn(flog, [](double t) { return std::log(t); }, 0.5, 2, false);
  check_fn(flog1p, [](double t) { return std::log1p(t); }, -0.999, 4, false);
  check_fn(flog1p, [](double t) { return std::log1p(t); }, -1e-7, 1e-7, false);
  check_fn(flog1p, [](double t) { return std::log1p(t); }, -600, 600, true);
  CHECK_MSG(worst <= 2.0, num(worst) + " ulp at worst over " + num(checked) + " values");
  // a lane out of range: every lane is the library's
  {
    const double xs[4][kPkWidth] = {{-INFINITY, 800, NAN, 0.5}, {0.0, -1.0, INFINITY, 1e-310},
                                    {-1.0, 0.0, 1e-300, -0.5}, {0.0, -1e-300, -800, 1e-20}};
    for (int j = 0; j < kPkWidth; ++j) {
      const Pk e = exp(Pk::lanes(xs[0])), l = log(Pk::lanes(xs[1])), p = log1p(Pk::lanes(xs[2])),
               m = expm1(Pk::lanes(xs[3]));
      auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
      exact_bad += !same(e[j], std::exp(xs[0][j])) + !same(l[j], std::log(xs[1][j])) +
                   !same(p[j], std::log1p(xs[2][j])) + !same(m[j], std::expm1(xs[3][j]));
    }
    CHECK_MSG(exact_bad == 0, num(exact_bad) + " special lanes differ from the library's");
  }
  // choose() with disagreeing lanes: each lane takes its own side
  {
    const double xs[kPkWidth] = {-2.0, -0.1, -0.7, -30.0};
    const Pk x = Pk::lanes(xs);
    const Pk l = log1m_exp(x);
    int bad = 0;
    for (int j = 0; j < kPkWidth; ++j) bad += ulps(l[j], log1m_exp(xs[j])) > 2;
    const Dual2P d = log_sum_exp(Dual2P(x, std::true_type()), Dual2P(-x, std::true_type()));
    for (int j = 0; j < kPkWidth; ++j) bad += ulps(d.v[j], log_sum_exp(xs[j], -xs[j])) > 2;
    CHECK_MSG(bad == 0, num(bad) + " lanes of log1m_exp / log_sum_exp off");
  }
  // the packed sums against the plain sums, both copies
  irtopics::Stream st(irtopics::seed_key(11), 1);
  std::vector<double> a(61), c(61), ra, rc;
  draws_and_ranks({4, 1.8, 0}, st, a, c, ra, rc);
  const bool was = copula_wide_allowed();
  int bad_sum = 0, bad_copy = 0, sums = 0;
  for (int data = 0; data < 2; ++data) {
    const std::size_t n = data ? 61 : 60;
    PairData d;
    d.prepare(data ? a.data() : ra.data(), data ? c.data() : rc.data(), n, nullptr);
    std::vector<int> packed(std::begin(kTwoParCodes), std::end(kTwoParCodes));
    for (int code : {3, 13, 23, 33, 4, 14, 24, 34, 5, 6, 16, 26, 36}) packed.push_back(code);  // one parameter
    for (int code : packed) {
      const irtopics::CopulaCode& e = irtopics::copula_code(code);
      const CopulaFamily& f = *e.family;
      double lo[2], hi[2];
      f.bounds(0.4, lo, hi);
      for (double s0 : {0.0, 0.3, 0.77, 1.0})
        for (double s1 : {0.0, 0.45, 1.0}) {
          const double th = lo[0] + s0 * (hi[0] - lo[0]), th2 = lo[1] + s1 * (hi[1] - lo[1]);
          double plain = 0;
          for (std::size_t i = 0; i < n; ++i) {
            Arg u, v;
            rotate_args(e.rotation, d.a[i], d.b[i], u, v);
            plain += f.log_pdf(th, th2, u, v);
          }
          // the derivatives: Dual2 of two parameters, Dual1 of one (in its .g0, .h00)
          auto derivs = [&]() {
            if (f.loglik_d2) return f.loglik_d2(d, e.rotation, th, th2);
            Dual2 r;
            const Dual1 one = one_par_d1(code, d, e.rotation, th);
            r.v = one.v;
            r.g0 = one.d;
            r.h00 = one.dd;
            return r;
          };
          copula_wide_allowed() = false;
          const double base = f.loglik(d, e.rotation, th, th2);
          const Dual2 base2 = derivs();
          copula_wide_allowed() = true;
          const double wide = f.loglik(d, e.rotation, th, th2);
          const Dual2 wide2 = derivs();
          ++sums;
          if (!(std::fabs(base - plain) <= 1e-11 * (1 + std::fabs(plain)))) {
            ++bad_sum;
            std::printf("  code %d at (%g, %g), n %zu: packed %.17g, plain %.17g\n", code, th, th2, n, base, plain);
          }
          auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
          if (!same(base, wide) || !same(base2.v, wide2.v) || !same(base2.g0, wide2.g0) ||
              !same(base2.g1, wide2.g1) || !same(base2.h00, wide2.h00) || !same(base2.h01, wide2.h01) ||
              !same(base2.h11, wide2.h11) || !same(base2.v, base))
            ++bad_copy;
        }
    }
  }
  copula_wide_allowed() = was;
  CHECK_MSG(bad_sum == 0, num(bad_sum) + " of " + num(sums) + " packed sums off the plain sums");
  CHECK_MSG(bad_copy == 0, num(bad_copy) + " of " + num(sums) + " AVX2 sums differ from the baseline's (AVX2 " +
                               (copula_wide_active() ? "active" : "absent") + ")");
}
