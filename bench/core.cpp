// Standalone driver of the C++ evaluation core, for profiling evaluate()
// without R (bench/README.md, section 1c). It does what cpp_evaluate() does
// for run files: read the qrels, then hand the run files out one at a time to
// `threads` workers, each of which reads and evaluates its runs with its own
// buffers (read_and_evaluate()). Measures: AP, P@10, R-Prec and nDCG, as in
// bench/evaluate.R. Prints the time of each phase and a checksum of all
// values, so that two builds can be compared for identical numbers.
//
// Build (from the repository root) with R's optimisation flags, one line:
//   g++ -std=c++17 -O2 -g -Isrc bench/core.cpp src/trec_io.cpp src/measures.cpp
//       src/evaluate.cpp -lz -pthread -o /tmp/core
// then: /tmp/core qrels.txt threads run1 run2 ...
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "evaluate.h"
#include "trec_io.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s qrels threads run...\n", argv[0]);
    return 2;
  }
  using clock = std::chrono::steady_clock;
  auto secs = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  const auto t0 = clock::now();
  irtopics::Qrels q;
  irtopics::read_qrels_file(argv[1], q);
  q.prepare(1);
  const auto t1 = clock::now();
  const int threads = std::atoi(argv[2]);
  std::vector<std::string> files(argv + 3, argv + argc);

  irtopics::EvalOptions opt;
  using irtopics::MeasureKind;
  auto measure = [](MeasureKind k, long cutoff) {
    irtopics::Measure m;
    m.kind = k;
    m.cutoff = cutoff;
    return m;
  };
  opt.measures = {measure(MeasureKind::AP, 0), measure(MeasureKind::P, 10),
                  measure(MeasureKind::RPrec, 0), measure(MeasureKind::NDCG, 0)};

  std::vector<irtopics::RunResult> results(files.size());
  std::atomic<std::size_t> next{0};
  std::vector<irtopics::EvalTiming> timing(static_cast<std::size_t>(threads));
  auto work = [&](int k) {
    irtopics::Run run;
    irtopics::EvalWorkspace ws;
    for (std::size_t r; (r = next.fetch_add(1)) < files.size();) {
      irtopics::read_and_evaluate(files[r], q, opt, ws, run, results[r]);
    }
    timing[static_cast<std::size_t>(k)] = ws.timing;
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < threads; ++k) pool.emplace_back(work, k);
  work(0);
  for (auto& th : pool) th.join();
  const auto t2 = clock::now();
  // Phase times summed over the threads (EvalTiming, evaluate.h).
  const char* names[] = {"read", "parse", "order", "hash", "lookup", "measures"};
  for (int p = 0; p < irtopics::EvalTiming::n_phases; ++p) {
    double s = 0;
    for (const auto& t : timing) s += static_cast<double>(t.ns[p]) * 1e-9;
    std::printf("%s %.3f s; ", names[p], s);
  }
  std::printf("\n");

  double sum = 0;
  long lists = 0;
  for (const auto& r : results) {
    for (double v : r.values) sum += v;
    lists += static_cast<long>(r.list_id.size());
  }
  std::printf("qrels %.3f s, %zu runs on %d threads %.3f s; %ld rankings, checksum %.17g\n",
              secs(t0, t1), files.size(), threads, secs(t1, t2), lists, sum);
  return 0;
}
