// Cancellation and the parallel driver (C++ test driver): CancelToken stops
// every long loop with Cancelled; parallel.h runs every item once with the
// same results for any thread count and schedule, and rethrows a worker's
// exception.
#include "driver.h"
#include "calibration.h"
#include "beta_kernel.h"
#include "cancel_sort.h"

namespace {

// Cancellation (interrupts): every long loop that takes a CancelToken stops
// with Cancelled once the token says so, and a token that never says so
// changes nothing.
struct CountdownToken : irtopics::CancelToken {
  explicit CountdownToken(long n) : left(n) {}
  bool stop_requested() override {
    ++asked;
    return --left < 0;
  }
  long left;
  long asked = 0;
};

template <typename F>
bool throws_cancelled(F&& f) {
  try {
    f();
  } catch (const irtopics::Cancelled&) {
    return true;
  }
  return false;
}

}  // namespace

void test_cancellation() {
  Context ctx("cancellation");
  TempDir dir;
  // A 40 MB run: 3 pieces of 16 MB for the plain reader, 40 chunks for gzip.
  std::string big;
  for (int t = 1; big.size() < (40u << 20); ++t)
    for (int d = 0; d < 1000; ++d)
      big += std::to_string(t) + " Q0 DOC-" + std::to_string(t) + "-" + std::to_string(d) + " " +
             std::to_string(d) + " " + std::to_string(1000 - d) + " big\n";
  write_file(dir.file("big.txt"), big);
  write_file(dir.file("big.gz"), gzip_bytes(big, dir.file("scratch.gz")));
  std::string out;
  for (const char* name : {"big.txt", "big.gz"}) {
    CountdownToken stop_now(0);
    CHECK_MSG(throws_cancelled([&] { irtopics::read_whole_file(dir.file(name), out, &stop_now); }), name);
    CHECK(stop_now.asked == 1);
    CountdownToken never(1L << 40);
    irtopics::read_whole_file(dir.file(name), out, &never);
    CHECK_MSG(out == big && never.asked >= 3, name);
  }

  // Evaluation: asked before each topic, streaming and whole.
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  irtopics::EvalWorkspace ws;
  irtopics::RunResult ref, got;
  irtopics::Run run;
  run.file = "big";
  run.text = big;
  irtopics::evaluate_text(q, opt, ws, run, ref);
  CountdownToken after_two(2);
  opt.cancel = &after_two;
  run.text = big;
  CHECK(throws_cancelled([&] { irtopics::evaluate_text(q, opt, ws, run, got); }));
  CHECK(after_two.asked == 3);
  CountdownToken never(1L << 40);
  opt.cancel = &never;
  run.text = big;
  irtopics::evaluate_text(q, opt, ws, run, got);
  CHECK(got.list_id == ref.list_id && got.unknown_topics == ref.unknown_topics);
  CountdownToken whole(1);
  opt.cancel = &whole;
  CHECK(throws_cancelled([&] { irtopics::evaluate_run(run_from(big), q, opt, ws, got); }));
  // read_and_evaluate passes the token to the reader too.
  CountdownToken at_read(0);
  opt.cancel = &at_read;
  CHECK(throws_cancelled([&] { irtopics::read_and_evaluate(dir.file("big.txt"), q, opt, ws, run, got); }));

  // Parsers: asked every 2^16 lines.
  irtopics::Run parsed;
  parsed.file = "big";
  parsed.text = big;
  CountdownToken parse_stop(0);
  CHECK(throws_cancelled([&] { irtopics::parse_run(parsed, &parse_stop); }));
  std::string qtext;
  for (int k = 0; k < 70000; ++k) qtext += "1 0 d" + std::to_string(k) + " 1\n";
  irtopics::Qrels qq;
  qq.file = "q";
  qq.text = qtext;
  CountdownToken qstop(0);
  CHECK(throws_cancelled([&] { irtopics::parse_qrels(qq, &qstop); }));
  qq.text = qtext;
  CountdownToken qnever(1L << 40);
  irtopics::parse_qrels(qq, &qnever);
  CHECK(qq.entries.size() == 70000 && qnever.asked == 1);
  // The qrels index asks every 2^18 entries: 300,000 judgements, a token
  // that lets the parser's four asks pass stops the index.
  std::string qbig;
  for (int k = 0; k < 300000; ++k) qbig += "1 0 d" + std::to_string(k) + " 1\n";
  irtopics::Qrels qb;
  qb.file = "qb";
  qb.text = qbig;
  CountdownToken index_stop(4);
  CHECK(throws_cancelled([&] { irtopics::parse_qrels(qb, &index_stop); }));
  CHECK(index_stop.asked == 5);

  // Swap method pair counts: asked before each row of pairs.
  const std::size_t n_sys = 6, n_sets = 40;
  std::vector<double> aggs(n_sys * n_sets);
  for (std::size_t k = 0; k < aggs.size(); ++k) aggs[k] = std::fmod(k * 0.37, 1.0);
  const irtopics::PairCounts plain = irtopics::pair_counts(aggs.data(), n_sys, n_sets, 0.05, 1);
  CountdownToken rows(1L << 40);
  const irtopics::PairCounts asked = irtopics::pair_counts(aggs.data(), n_sys, n_sets, 0.05, 1, &rows);
  CHECK(rows.asked == static_cast<long>(n_sys));
  CHECK(plain.min_sum == asked.min_sum && plain.ties == asked.ties &&
        plain.comparisons == asked.comparisons && plain.trial_swaps == asked.trial_swaps);
  CHECK(plain.comparisons == static_cast<double>(n_sys * (n_sys - 1) / 2 * n_sets));
  CountdownToken row_stop(2);
  CHECK(throws_cancelled([&] { irtopics::pair_counts(aggs.data(), n_sys, n_sets, 0.05, 1, &row_stop); }));

  // Test calibration (calibration.h, issue 29): one trial with B = 1e7 would
  // take seconds to minutes; the bootstrap and permutation loops ask the
  // token inside the trial, not only the driver between trials. Two uniform
  // margins, the independence copula, one trial of 50 topics.
  const std::vector<double> knots = {0.0, 1.0}, cdf = {0.0, 1.0};
  irtopics::MarginRef unif;
  unif.knots = knots.data();
  unif.cdf = cdf.data();
  unif.size = 2;
  irtopics::CalibrationModel model;
  model.margins = {unif, unif};
  model.sys_start = {0, 2};
  model.copulas = {irtopics::Copula()};
  model.cop_start = {0};
  irtopics::Setting set;
  set.n_topics = 50;
  std::vector<double> row(irtopics::kNumCols), row2(irtopics::kNumCols);
  for (const char* test : {"bootstrap_2019", "permutation_2019"}) {
    irtopics::TestSet big;
    irtopics::add_native_test(big, test);
    big.B = 10000000;
    // the driver asks once before the trial, run_trial twice before the
    // resampling: the fourth ask is inside the resampling loop
    CountdownToken inside(3);
    CHECK_MSG(throws_cancelled([&] {
      irtopics::run_trials(model, set, 0, big, 7, 0, 1, row.data(), 1, &inside);
    }), test);
    CHECK_MSG(inside.asked == 4, test);
    // a token that never stops changes nothing; it is asked every
    // poll_stride() resamples
    irtopics::TestSet small = big;
    small.B = 20000;
    CountdownToken never(1L << 40);
    irtopics::run_trials(model, set, 0, small, 7, 0, 1, row.data(), 1, &never);
    irtopics::run_trials(model, set, 0, small, 7, 0, 1, row2.data(), 1, nullptr);
    bool same = true;
    for (std::size_t k = 0; k < irtopics::kNumCols; ++k)
      same = same && (row[k] == row2[k] || (std::isnan(row[k]) && std::isnan(row2[k])));
    CHECK_MSG(same, test);
    const std::size_t per = std::string(test) == "bootstrap_2019" ? 50 : 7;
    const long want = 3 + static_cast<long>((20000 + irtopics::poll_stride(per) - 1) / irtopics::poll_stride(per)) +
                      (std::string(test) == "permutation_2019" ? 1 : 0);
    CHECK_MSG(never.asked == want, std::string(test) + ": asked " + std::to_string(never.asked) + ", want " +
                                       std::to_string(want));
  }

  // Rank correlations (kendall.h, tau_ap.h, cancel_sort.h, issue 43): the
  // sorts, passes and merges ask every 2^16 items; a token that never stops
  // gives the same bits as none (the sorts merge blocks then, and order
  // items equal under the comparison otherwise), on scores with many ties in
  // x, in y and in both, and on scores without ties.
  const std::size_t nr = 300007;
  std::vector<double> rx(nr), ry(nr), ux(nr), uy(nr);
  std::uint64_t state = 12345;
  auto next = [&]() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (std::size_t k = 0; k < nr; ++k) {
    rx[k] = std::floor(next() * 50) / 50;
    ry[k] = std::floor((0.5 * rx[k] + 0.5 * next()) * 40) / 40;
    ux[k] = next();
    uy[k] = 0.3 * ux[k] + next();
  }
  for (int tied = 0; tied < 2; ++tied) {
    const double* xa = tied ? rx.data() : ux.data();
    const double* ya = tied ? ry.data() : uy.data();
    const std::string what = tied ? "ties" : "no ties";
    irtopics::KendallWorkspace kw;
    irtopics::TauApWorkspace tw;
    const double b0 = kw.tau_b(xa, ya, nr), a0 = kw.tau_a(xa, ya, nr), p0 = tw.tau_ap(xa, ya, nr);
    CountdownToken kn(1L << 40), an(1L << 40), pn(1L << 40);
    CHECK_MSG(kw.tau_b(xa, ya, nr, &kn) == b0 && kw.tau_a(xa, ya, nr, &an) == a0, what);
    CHECK_MSG(tw.tau_ap(xa, ya, nr, &pn) == p0, what);
    // 5 sorted blocks, 3 merge passes (3 + 2 + 1 merges), the pair pass, 2
    // merges of the counting sort's top levels at least: asked > 15 times
    CHECK_MSG(kn.asked > 15 && pn.asked > 20, what + ": tau-b asked " + std::to_string(kn.asked) +
                                               ", tau_AP asked " + std::to_string(pn.asked));
    CHECK_MSG(std::fabs(b0) < 1 && std::fabs(p0) < 1 && b0 > 0.05, what);
    for (long stop_at : {0L, 3L, 12L, kn.asked - 1}) {
      CountdownToken ks(stop_at);
      CHECK_MSG(throws_cancelled([&] { kw.tau_b(xa, ya, nr, &ks); }), what + " tau-b at " + std::to_string(stop_at));
      CHECK(ks.asked == stop_at + 1);
    }
    for (long stop_at : {0L, 6L, 14L, pn.asked - 1}) {
      CountdownToken ps(stop_at);
      CHECK_MSG(throws_cancelled([&] { tw.tau_ap(xa, ya, nr, &ps); }), what + " tau_AP at " + std::to_string(stop_at));
      CHECK(ps.asked == stop_at + 1);
    }
    // a workspace stopped midway gives the right value on its next call
    CHECK_MSG(kw.tau_b(xa, ya, nr) == b0 && tw.tau_ap(xa, ya, nr) == p0, what);
  }
  // one x group holding most of the scores: its sort and its loop ask too
  std::vector<double> gx(nr, 0.5);
  for (std::size_t k = 0; k < 100; ++k) gx[k] = 1.0 + k;
  irtopics::TauApWorkspace gw;
  CountdownToken gnever(1L << 40);
  CHECK(gw.tau_ap(gx.data(), uy.data(), nr, &gnever) == gw.tau_ap(gx.data(), uy.data(), nr));
  CountdownToken gstop(gnever.asked - 1);
  CHECK(throws_cancelled([&] { gw.tau_ap(gx.data(), uy.data(), nr, &gstop); }));
  // the sort itself: the order of a plain sort wherever the comparison orders
  std::vector<int> vs(200003), ref_sorted;
  for (auto& v : vs) v = static_cast<int>(next() * 1000);
  ref_sorted = vs;
  std::sort(ref_sorted.begin(), ref_sorted.end());
  for (std::size_t block : {std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(1) << 16}) {
    std::vector<int> got = vs;
    CountdownToken sn(1L << 40);
    irtopics::sort_cancellable(got, std::less<int>(), &sn, block);
    CHECK_MSG(got == ref_sorted, "block " + std::to_string(block));
  }
}

// The beta kernel's binned sums (beta_kernel.h, issue 43): points with
// whole weights give the sums of the scores repeated that many times (node
// sums, their integrals m, point sums); with unit weights the binned
// cross-validation is the exact one; a token stops point_sums() and the
// binned search.
void test_beta_kernel_binned() {
  Context ctx("beta kernel, binned");
  namespace bk = irtopics::beta_kernel;
  auto lbeta = [](double a, double b) { return std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b); };
  const std::vector<double> pts = {1e-6, 0.003, 0.04, 0.2, 0.21, 0.5, 0.77, 0.999, 1 - 1e-6};
  const std::vector<int> reps = {3, 1, 2, 5, 1, 4, 2, 1, 2};
  std::vector<double> lx, l1x, lw, w, rx, rl, rl1;
  double n = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    lx.push_back(std::log(pts[i]));
    l1x.push_back(std::log1p(-pts[i]));
    lw.push_back(std::log(double(reps[i])));
    w.push_back(reps[i]);
    n += reps[i];
    for (int r = 0; r < reps[i]; ++r) {
      rx.push_back(pts[i]);
      rl.push_back(lx.back());
      rl1.push_back(l1x.back());
    }
  }
  const bk::Scores binned{lx.data(), l1x.data(), lx.size(), lw.data()};
  const bk::Scores repeated{rl.data(), rl1.data(), rl.size()};
  // a quadrature of 40 intervals of 3 nodes on [0, 1]
  const std::size_t n_int = 40, G = 3;
  const double off[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)}, wt[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  std::vector<double> y, qw, centre, half, offset(off, off + 3);
  for (std::size_t k = 0; k < n_int; ++k) {
    const double lo = double(k) / n_int, h = 0.5 / n_int;
    centre.push_back(lo + h);
    half.push_back(h);
    for (std::size_t g = 0; g < G; ++g) {
      y.push_back(lo + h + h * off[g]);
      qw.push_back(h * wt[g]);
    }
  }
  auto rel = [](double a, double b) { return a == b ? 0.0 : std::fabs(a - b) / std::max(std::fabs(a), std::fabs(b)); };
  for (double b : {0.002, 0.03, 0.3}) {
    std::vector<double> lbn(y.size()), lbc(n_int);
    for (std::size_t k = 0; k < y.size(); ++k) lbn[k] = lbeta(y[k] / b + 1, (1 - y[k]) / b + 1);
    for (std::size_t k = 0; k < n_int; ++k) lbc[k] = lbeta(centre[k] / b + 1, (1 - centre[k]) / b + 1);
    const bk::Nodes nodes{y.data(), lbn.data(), qw.data(), centre.data(), half.data(), lbc.data(), offset.data(), n_int, G};
    std::vector<double> fb(y.size()), fr(y.size()), mb(pts.size()), mr(rx.size());
    bk::node_sums(binned, b, nodes, fb.data(), mb.data());
    bk::node_sums(repeated, b, nodes, fr.data(), mr.data());
    double worst = 0;
    for (std::size_t k = 0; k < y.size(); ++k) if (fr[k] > 1e-250) worst = std::max(worst, rel(fb[k], fr[k]));
    std::size_t at = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      worst = std::max(worst, rel(mb[i], reps[i] * mr[at]));
      at += reps[i];
    }
    std::vector<double> sb(y.size()), sr(y.size());
    bk::point_sums(binned, y.data(), lbn.data(), y.size(), b, sb.data());
    bk::point_sums(repeated, y.data(), lbn.data(), y.size(), b, sr.data());
    for (std::size_t k = 0; k < y.size(); ++k) if (sr[k] > 1e-250) worst = std::max(worst, rel(sb[k], sr[k]));
    CHECK_MSG(worst < 1e-12, "b = " + std::to_string(b) + ": worst relative difference " + std::to_string(worst));
  }
  // unit weights: the binned criterion is the exact one
  std::vector<double> zero(pts.size(), 0.0), ones(pts.size(), 1.0);
  const bk::Scores unit{lx.data(), l1x.data(), lx.size(), zero.data()};
  const bk::Scores plain{lx.data(), l1x.data(), lx.size()};
  const bk::Nodes q{y.data(), nullptr, qw.data(), centre.data(), half.data(), nullptr, offset.data(), n_int, G};
  bk::LscvCriterion<decltype(lbeta)> exact(plain, pts.data(), q, lbeta);
  bk::BinnedLscvCriterion<decltype(lbeta)> bin(unit, pts.data(), ones.data(), double(pts.size()), q, lbeta);
  for (double lb : {std::log(0.002), std::log(0.05), std::log(0.4)}) {
    const double e = exact(lb), g = bin(lb);
    CHECK_MSG(std::fabs(e - g) <= 1e-10 * std::max(1.0, std::fabs(e)), std::to_string(e) + " vs " + std::to_string(g));
  }
  const double grid[4] = {std::log(0.001), std::log(0.01), std::log(0.1), std::log(0.5)};
  const auto re = bk::lscv_bandwidth(plain, pts.data(), q, grid, 4, 0.01, lbeta);
  const auto rb = bk::lscv_bandwidth_binned(unit, pts.data(), ones.data(), double(pts.size()), q, grid, 4, 0.01, lbeta);
  CHECK(re.found && rb.found && std::fabs(std::log(re.bandwidth / rb.bandwidth)) < 1e-6);
  // cancellation: point sums ask every 16 points, the search inside each criterion
  std::vector<double> out(y.size());
  std::vector<double> lbn(y.size(), 0.0);
  CountdownToken ps(2);
  CHECK(throws_cancelled([&] { bk::point_sums(binned, y.data(), lbn.data(), y.size(), 0.05, out.data(), &ps); }));
  CHECK(ps.asked == 3);
  CountdownToken ls(5);
  CHECK(throws_cancelled([&] {
    bk::lscv_bandwidth_binned(binned, pts.data(), w.data(), n, q, grid, 4, 0.01, lbeta, &ls);
  }));
  CountdownToken lnever(1L << 40);
  const auto rn = bk::lscv_bandwidth_binned(binned, pts.data(), w.data(), n, q, grid, 4, 0.01, lbeta, &lnever);
  const auto r0 = bk::lscv_bandwidth_binned(binned, pts.data(), w.data(), n, q, grid, 4, 0.01, lbeta);
  CHECK(rn.found && rn.bandwidth == r0.bandwidth && lnever.asked > 4);
}

// The parallel driver (parallel.h): every item once, the same results for
// any thread count and schedule, a worker's exception rethrown after the
// join, cancellation stopping the loop early. The driver is built with
// OpenMP (see the Makefile), so 2 and more threads really run.
namespace {

struct SharedCountdown : irtopics::CancelToken {
  explicit SharedCountdown(long n) : left(n) {}
  bool stop_requested() override {
    asked.fetch_add(1);
    return left.fetch_sub(1) <= 0;
  }
  std::atomic<long> left;
  std::atomic<long> asked{0};
};

}  // namespace

void test_parallel_driver() {
  Context ctx("parallel driver");
  using irtopics::ParallelOptions;
  using irtopics::Schedule;
  const std::size_t n = 10007;
  std::vector<double> ref(n);
  for (std::size_t i = 0; i < n; ++i) ref[i] = std::sqrt(static_cast<double>(i)) * 1.5;
  for (int threads : {1, 2, 3, 8}) {
    for (Schedule sched : {Schedule::blocks, Schedule::dynamic}) {
      for (std::size_t grain : {std::size_t(1), std::size_t(7), std::size_t(100000)}) {
        const std::string what = "threads " + std::to_string(threads) + " grain " + std::to_string(grain) +
                                 (sched == Schedule::blocks ? " blocks" : " dynamic");
        std::vector<double> out(n, -1);
        std::vector<std::atomic<int>> seen(n);
        std::atomic<std::size_t> done{0};
        std::vector<long> per_thread(static_cast<std::size_t>(irtopics::parallel_threads(n, threads)), 0);
        irtopics::parallel_for(n, ParallelOptions{threads, nullptr, sched, grain, &done},
                               [&](std::size_t i, int tid) {
                                 out[i] = std::sqrt(static_cast<double>(i)) * 1.5;
                                 seen[i].fetch_add(1);
                                 ++per_thread[static_cast<std::size_t>(tid)];
                               });
        bool once = true;
        for (auto& c : seen) once = once && c.load() == 1;
        CHECK_MSG(once, what);
        CHECK_MSG(out == ref, what);
        CHECK_MSG(done.load() == n, what);
        long total = 0;
        for (long c : per_thread) total += c;
        CHECK_MSG(total == static_cast<long>(n), what);
      }
    }
  }
#ifdef _OPENMP
  // Two threads really share the work.
  {
    std::vector<int> used(2, 0);
    irtopics::parallel_for(1000, ParallelOptions{2, nullptr, Schedule::blocks},
                           [&](std::size_t, int tid) { used[static_cast<std::size_t>(tid)] = 1; });
    CHECK(used[0] == 1 && used[1] == 1);
  }
#endif
  CHECK(irtopics::parallel_threads(0, 4) == 1 && irtopics::parallel_threads(3, 0) == 1);
  // No item: the body is never called.
  bool called = false;
  irtopics::parallel_for(0, ParallelOptions{4}, [&](std::size_t) { called = true; });
  CHECK(!called);

  // A worker's exception is rethrown after the join (no thread starts a new
  // item once it is recorded), whatever the thread count; so is an
  // allocation failure while making a thread's workspace.
  for (int threads : {1, 2, 4}) {
    std::atomic<long> calls{0};
    std::string msg;
    try {
      irtopics::parallel_for(100000, ParallelOptions{threads, nullptr, Schedule::dynamic, 1},
                             [&](std::size_t i) {
                               calls.fetch_add(1);
                               if (i == 50) throw std::runtime_error("item 50 failed");
                             });
    } catch (const std::runtime_error& e) {
      msg = e.what();
    }
    CHECK_MSG(msg == "item 50 failed", std::to_string(threads) + " threads: " + msg);
    CHECK_MSG(calls.load() < 100000, std::to_string(calls.load()));
    bool bad_alloc = false;
    try {
      irtopics::parallel_for_local(
          10, ParallelOptions{threads}, []() -> std::vector<double> { throw std::bad_alloc(); },
          [&](std::size_t, std::vector<double>&) {});
    } catch (const std::bad_alloc&) {
      bad_alloc = true;
    }
    CHECK(bad_alloc);
    // A worker's error wins over a cancellation requested at the same time:
    // the token says stop from the moment item 0 throws (a countdown raced
    // under load: other threads could use up its asks before item 0 ran).
    struct StopAfterThrow : irtopics::CancelToken {
      bool stop_requested() override { return thrown.load(); }
      std::atomic<bool> thrown{false};
    } stop;
    bool runtime = false;
    try {
      irtopics::parallel_for(100, ParallelOptions{threads, &stop}, [&](std::size_t i) {
        if (i == 0) {
          stop.thrown.store(true);
          throw std::runtime_error("first");
        }
      });
    } catch (const std::runtime_error&) {
      runtime = true;
    } catch (const irtopics::Cancelled&) {
    }
    CHECK(runtime);
  }

  // Cancellation: the token is asked before every item; once it says stop
  // no new item starts and Cancelled is thrown after the join.
  for (int threads : {1, 2, 4}) {
    for (Schedule sched : {Schedule::blocks, Schedule::dynamic}) {
      SharedCountdown stop(20);
      std::atomic<long> calls{0};
      bool cancelled = false;
      try {
        irtopics::parallel_for(1000000, ParallelOptions{threads, &stop, sched},
                               [&](std::size_t) { calls.fetch_add(1); });
      } catch (const irtopics::Cancelled&) {
        cancelled = true;
      }
      CHECK(cancelled);
      CHECK_MSG(calls.load() <= 20, std::to_string(calls.load()) + " items ran");
      // A token that never says stop changes nothing.
      SharedCountdown never(1L << 40);
      std::atomic<long> all{0};
      irtopics::parallel_for(5000, ParallelOptions{threads, &never, sched},
                             [&](std::size_t) { all.fetch_add(1); });
      CHECK(all.load() == 5000 && never.asked.load() >= 5000);
    }
  }

  // Kernels ported to the driver give the same numbers on 1 and 3 threads.
  const std::size_t n_sys = 7, n_top = 30, n_trials = 25, size = 10;
  std::vector<double> scores(n_sys * n_top);
  for (std::size_t k = 0; k < scores.size(); ++k) scores[k] = std::fmod(k * 0.618, 1.0);
  std::vector<int> perms(n_top * n_trials);
  for (std::size_t b = 0; b < n_trials; ++b)
    for (std::size_t t = 0; t < n_top; ++t) perms[b * n_top + t] = static_cast<int>((t * 7 + b) % n_top);
  const irtopics::ScoreView view{scores.data(), n_sys, n_top};
  std::vector<double> a1(n_sys * 2 * n_trials), a3(a1.size());
  irtopics::set_aggregates(view, perms.data(), n_trials, size, irtopics::Aggregate::area, 1e-5, a1.data(), 1);
  irtopics::set_aggregates(view, perms.data(), n_trials, size, irtopics::Aggregate::area, 1e-5, a3.data(), 3);
  CHECK(a1 == a3);
  const auto c1 = irtopics::pair_counts(a1.data(), n_sys, 2 * n_trials, 0.05, 1);
  const auto c3 = irtopics::pair_counts(a1.data(), n_sys, 2 * n_trials, 0.05, 3);
  CHECK(c1.min_sum == c3.min_sum && c1.ties == c3.ties && c1.trial_swaps == c3.trial_swaps);
  const std::vector<double> grid = {0, 0.01, 0.05, 0.1, 0.2};
  const auto t1 = irtopics::critical_curve_threshold(a1.data(), n_sys, 2 * n_trials, 1, false, grid, 1e-9, 1);
  const auto t3 = irtopics::critical_curve_threshold(a1.data(), n_sys, 2 * n_trials, 1, false, grid, 1e-9, 3);
  CHECK(t1.swaps == t3.swaps && t1.decisions == t3.decisions);
  // Pair by pair in plain loops: the threshold curve's counts.
  std::vector<double> err(grid.size(), 0), sig(grid.size(), 0);
  for (std::size_t i = 0; i < n_sys; ++i)
    for (std::size_t j = i + 1; j < n_sys; ++j) {
      std::vector<double> gt(grid.size(), 0), lt(grid.size(), 0);
      for (std::size_t k = 0; k < 2 * n_trials; ++k) {
        const double d = a1[i + k * n_sys] - a1[j + k * n_sys];
        for (std::size_t g = 0; g < grid.size(); ++g) {
          const double c = std::max(grid[g] - 1e-9, std::numeric_limits<double>::min());
          gt[g] += d >= c;
          lt[g] += -d >= c;
        }
      }
      for (std::size_t g = 0; g < grid.size(); ++g) {
        err[g] += std::min(gt[g], lt[g]);
        sig[g] += gt[g] + lt[g];
      }
    }
  CHECK(t1.swaps == err && t1.decisions == sig);
  // critical_curve_threshold asks the token for every pair.
  SharedCountdown pair_stop(3);
  CHECK(throws_cancelled([&] {
    irtopics::critical_curve_threshold(a1.data(), n_sys, 2 * n_trials, 1, false, grid, 1e-9, 2, &pair_stop);
  }));
  SharedCountdown pairs_never(1L << 40);
  const auto tn = irtopics::critical_curve_threshold(a1.data(), n_sys, 2 * n_trials, 1, false, grid, 1e-9, 1,
                                                     &pairs_never);
  CHECK(tn.swaps == t1.swaps && pairs_never.asked.load() == static_cast<long>(n_sys * (n_sys - 1) / 2));

  // The swap-based curve and the binned variant (serial) ask it too.
  std::vector<double> d1, d2;
  CountdownToken diff_stop(2);
  CHECK(throws_cancelled([&] {
    irtopics::trial_differences(a1.data(), n_sys, n_trials, 1, false, d1, d2, &diff_stop);
  }));
  CHECK(diff_stop.asked == 3);
  irtopics::trial_differences(a1.data(), n_sys, n_trials, 1, false, d1, d2);
  CountdownToken curve_stop(0), bins_stop(0);
  CHECK(throws_cancelled([&] { irtopics::critical_curve_swap(d1, d2, grid, false, 1e-9, &curve_stop); }));
  std::vector<double> count, swaps;
  CHECK(throws_cancelled([&] { irtopics::binned_swaps(d1, d2, 0.01, 10, count, swaps, &bins_stop); }));

  // The GAWM fixed point asks the token before every iteration: with
  // tol = 0 it would run maxit (2^31 - 1) iterations.
  CountdownToken gawm_stop(3);
  CHECK(throws_cancelled([&] {
    irtopics::gawm(scores.data(), n_sys, n_top, 1.0, 0.0, 2147483647, irtopics::GawmMeanKernel(), &gawm_stop);
  }));
  CHECK(gawm_stop.asked == 4);
}
