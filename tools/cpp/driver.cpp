// C++ test driver for the pure C++ core of irtopics (src/trec_io.cpp,
// src/measures.cpp, src/evaluate.cpp) and a smoke test of the header-only
// kernels that need neither R nor Eigen. Run it from tools/cpp (the Makefile
// does); an optional argument names the repository root (default ../..).
//
// What it checks:
//  * trec_eval parity: the trec_eval test collection evaluated here against
//    trec_eval's own printed outputs (tests/testthat/fixtures/trec_eval),
//    per topic and for the "all" line, for every measure the C++ computes;
//  * parser behaviour: line ends and white space, error kinds and lines,
//    gzip and plain files through read_whole_file;
//  * measure kernels on hand-made profiles;
//  * streaming (evaluate_text) against whole-run (evaluate_run) evaluation;
//  * copulas (copula.h, distributions.h): closed forms, symmetries, round
//    trips, edges of the unit square, simulation and selection;
//  * the regression corpus (tools/cpp/regressions/{run,qrels}): each file
//    must parse and evaluate or fail with InputError, nothing else.
// Prints "driver: N checks passed, M failed" and exits 1 when M > 0.
// The checks are in driver_*.cpp (one file per group, see driver.h); this
// file runs the groups in order.
#include "driver.h"

int main(int argc, char** argv) {
  if (argc > 1) g_root = argv[1];
  if (!fs::exists(data_path("qrels.test"))) {
    std::fprintf(stderr, "driver: can't find %s (run from tools/cpp or pass the repository root)\n",
                 data_path("qrels.test").c_str());
    return 2;
  }
  const std::vector<std::pair<const char*, void (*)()>> groups = {
      {"trec_eval parity", test_trec_eval_parity},
      {"run parser", test_run_parser},
      {"score forms", test_score_forms},
      {"random scores", test_random_scores},
      {"short scores", test_short_scores},
      {"line splitting", test_line_splitting},
      {"avx2 paths", test_avx2_paths},
      {"qrels lookups", test_qrels_lookups},
      {"qrels groups", test_qrels_groups},
      {"trec_eval order", test_trec_order},
      {"qrels parser", test_qrels_parser},
      {"files", test_files},
      {"hardening2", test_hardening2},
      {"measures", test_measures},
      {"registry", test_registry},
      {"streaming", test_streaming},
      {"streaming files", test_streaming_files},
      {"kernels", test_kernels},
      {"copulas", test_copulas},
      {"regressions", test_regressions},
      {"cancellation", test_cancellation},
      {"beta kernel, binned", test_beta_kernel_binned},
      {"parallel driver", test_parallel_driver},
      {"copula two-parameter families", test_copula_twopar},
      {"copula exact derivatives", test_copula_dual},
      {"copula packs", test_copula_packs}};
  for (const auto& [name, fn] : groups) {
    try {
      fn();
    } catch (const std::exception& e) {
      // An exception escaping a group is a failure of that group.
      g_context = name;
      record(false, std::string("unexpected exception: ") + e.what(), __FILE__, __LINE__);
      g_context.clear();
    }
  }
  std::printf("driver: %ld checks passed, %ld failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
