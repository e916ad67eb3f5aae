// Shared pieces of the C++ test driver (driver.cpp and driver_*.cpp): the
// check macros and their counters, Context, the paths to the test data, and
// small helpers (parsing texts, scratch files, gzip, a generator); and the
// test function of each group of checks, which main() in driver.cpp runs.
// Header-only: every function and variable here is inline.
#ifndef IRTOPICS_TOOLS_DRIVER_H
#define IRTOPICS_TOOLS_DRIVER_H

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "copula.h"
#include "evaluate.h"
#include "fixtures.h"
#include "distributions.h"
#include "gawm.h"
#include "kendall.h"
#include "measures.h"
#include "n25.h"
#include "parallel.h"
#include "stability.h"
#include "tau_ap.h"
#include "trec_io.h"

namespace fs = std::filesystem;
using irtopics::InputError;
using irtopics::Measure;
using irtopics::MeasureKind;

// ---------------------------------------------------------------------------
// A tiny assertion framework: every check counts; a failed one prints where
// and why, and the run goes on.

inline long g_passed = 0, g_failed = 0;
inline std::string g_context;  // names the group of checks being run

inline void record(bool ok, const std::string& what, const char* file, int line) {
  if (ok) {
    ++g_passed;
    return;
  }
  ++g_failed;
  std::fprintf(stderr, "FAIL %s:%d [%s] %s\n", file, line, g_context.c_str(), what.c_str());
}

inline std::string num(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  return buf;
}

#define CHECK(cond) record((cond), #cond, __FILE__, __LINE__)
#define CHECK_MSG(cond, msg) record((cond), std::string(#cond) + ": " + (msg), __FILE__, __LINE__)
#define CHECK_NEAR(a, b, tol)                                                                \
  do {                                                                                      \
    const double a_ = (a), b_ = (b);                                                        \
    record(std::fabs(a_ - b_) <= (tol), std::string(#a " ~ " #b ": ") + num(a_) + " vs " + \
                                            num(b_),                                        \
           __FILE__, __LINE__);                                                             \
  } while (0)

// Runs `body`, which must throw InputError of the given kind (and, when
// line >= 0, at that line).
#define CHECK_INPUT_ERROR(body, want_kind, want_line)                                        \
  do {                                                                                      \
    std::string got_ = "no exception";                                                      \
    bool ok_ = false;                                                                       \
    try {                                                                                   \
      body;                                                                                 \
    } catch (const InputError& e_) {                                                        \
      got_ = "InputError(" + std::string(e_.kind()) + ", line " + std::to_string(e_.line) + "): " + e_.what(); \
      ok_ = std::string(e_.kind()) == (want_kind) && ((want_line) < 0 || e_.line == (want_line));          \
    } catch (const std::exception& e_) {                                                    \
      got_ = std::string("other exception: ") + e_.what();                                  \
    }                                                                                       \
    record(ok_, std::string(#body) + " should throw InputError(" + (want_kind) + ", line " + \
                    std::to_string(want_line) + "), got " + got_,                           \
           __FILE__, __LINE__);                                                             \
  } while (0)

struct Context {
  explicit Context(const std::string& name) { g_context = name; }
  ~Context() { g_context.clear(); }
};

inline std::string g_root = "../..";

inline std::string data_path(const std::string& name) {
  return g_root + "/inst/extdata/trec_eval-test/" + name;
}
inline std::string expected_path(const std::string& name) {
  return g_root + "/tests/testthat/fixtures/trec_eval/" + name;
}

inline irtopics::Run run_from(const std::string& text, const std::string& name = "run") {
  irtopics::Run r;
  r.file = name;
  r.text = text;
  irtopics::parse_run(r);
  return r;
}

inline irtopics::Qrels qrels_from(const std::string& text, int level = 1) {
  irtopics::Qrels q;
  fixtures::load_qrels(q, text, level);
  return q;
}

// A scratch directory removed at exit.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/irtopics-driver-XXXXXX";
    const char* p = mkdtemp(tmpl);
    if (p == nullptr) {
      std::perror("mkdtemp");
      std::exit(2);
    }
    path = p;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return path + "/" + name; }
};

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string gzip_bytes(const std::string& text, const std::string& scratch) {
  gzFile g = gzopen(scratch.c_str(), "wb");
  gzwrite(g, text.data(), static_cast<unsigned>(text.size()));
  gzclose(g);
  std::ifstream f(scratch, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline std::string to_crlf(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\n') out += '\r';
    out += ch;
  }
  return out;
}

// A small deterministic generator for the random texts of the tests:
// below(n) is uniform enough in [0, n).
struct Lcg {
  uint64_t x;
  std::size_t below(uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((x >> 33) % n);
  }
};

// The regular files of a directory, sorted, but for hidden ones and README.md.
inline std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.is_regular_file() && e.path().filename().string()[0] != '.' &&
        e.path().filename() != "README.md") {
      out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The groups of checks, by file (main() in driver.cpp sets their order).
void test_trec_eval_parity();  // driver_parity.cpp

// driver_parser.cpp
void test_run_parser();
void test_avx2_paths();
void test_score_forms();
void test_random_scores();
void test_short_scores();
void test_line_splitting();
void test_qrels_lookups();
void test_qrels_groups();
void test_trec_order();
void test_qrels_parser();
void test_files();

// driver_hardening.cpp
void test_hardening2();
void test_regressions();

// driver_measures.cpp
void test_measures();
void test_registry();
void test_streaming();
void test_streaming_files();
void test_kernels();

// driver_copula.cpp
void test_copulas();
void test_copula_twopar();
void test_copula_dual();
void test_copula_packs();

// driver_parallel.cpp
void test_cancellation();
void test_beta_kernel_binned();  // driver_parallel.cpp
void test_parallel_driver();

#endif
