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
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cmath>
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

namespace {

long g_passed = 0, g_failed = 0;
std::string g_context;  // names the group of checks being run

void record(bool ok, const std::string& what, const char* file, int line) {
  if (ok) {
    ++g_passed;
    return;
  }
  ++g_failed;
  std::fprintf(stderr, "FAIL %s:%d [%s] %s\n", file, line, g_context.c_str(), what.c_str());
}

std::string num(double x) {
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

std::string g_root = "../..";

std::string data_path(const std::string& name) {
  return g_root + "/inst/extdata/trec_eval-test/" + name;
}
std::string expected_path(const std::string& name) {
  return g_root + "/tests/testthat/fixtures/trec_eval/" + name;
}

irtopics::Run run_from(const std::string& text, const std::string& name = "run") {
  irtopics::Run r;
  r.file = name;
  r.text = text;
  irtopics::parse_run(r);
  return r;
}

irtopics::Qrels qrels_from(const std::string& text, int level = 1) {
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

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string gzip_bytes(const std::string& text, const std::string& scratch) {
  gzFile g = gzopen(scratch.c_str(), "wb");
  gzwrite(g, text.data(), static_cast<unsigned>(text.size()));
  gzclose(g);
  std::ifstream f(scratch, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// ---------------------------------------------------------------------------
// trec_eval parity

// The Measure a trec_eval measure name stands for, read from the registry
// (src/measure_table.h): a record whose number trec_eval prints
// (trec_parity) and whose 'all' line is a mean or a sum, under its trec_eval
// stem, its cut-off stem (`ndcg_cut_10`) or its stem and a parameter
// (`P_10`, `iprec_at_recall_0.10`). False for the rest (gm_map's geometric
// mean, parameter strings such as `utility_2,-1,0,0`, rbp, relstring).
bool measure_of(const std::string& name, Measure* m, bool* is_sum) {
  using T = irtopics::ParamType;
  auto number_after = [&](const char* stem, bool whole, double* v) {
    const std::string s = std::string(stem) + "_";
    if (name.compare(0, s.size(), s) != 0 || name.size() == s.size()) return false;
    const std::string rest = name.substr(s.size());
    if (rest.find_first_not_of(whole ? "0123456789" : "0123456789.") != std::string::npos) return false;
    *v = std::strtod(rest.c_str(), nullptr);
    return true;
  };
  for (const auto& r : irtopics::kMeasureTable) {
    if (!r.trec_parity || r.trec == nullptr || std::string(r.summary) == "gmean") continue;
    *is_sum = std::string(r.summary) == "sum";
    double v = 0;
    const bool plain = name == r.trec;
    switch (r.param) {
      case T::None: case T::Beta: case T::Utility: case T::P:
        if (plain) { *m = fixtures::named(r.name); return true; }
        break;
      case T::OptCut:
        if (plain) { *m = fixtures::named(r.name); return true; }
        if (r.trec_cut && number_after(r.trec_cut, true, &v)) { *m = fixtures::named(r.name, v); return true; }
        break;
      case T::Cutoff:
        if (number_after(r.trec, true, &v)) { *m = fixtures::named(r.name, v); return true; }
        break;
      case T::Recall: case T::Mult:
        if (number_after(r.trec, false, &v)) { *m = fixtures::named(r.name, 0, v); return true; }
        break;
    }
  }
  return false;
}

struct ExpectedLine {
  std::string measure, topic, value;
};

std::vector<ExpectedLine> read_expected(const std::string& path) {
  std::vector<ExpectedLine> out;
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream ss(line);
    ExpectedLine e;
    if (ss >> e.measure >> e.topic >> e.value) out.push_back(e);
  }
  return out;
}

struct ParityCase {
  std::string expected, run, qrels;
  int level = 1;
  long depth = 0;           // trec_eval -M; 0 = no cut
  bool complete = false;    // trec_eval -c
  // trec_eval's name for an nDCG with gains (-m ndcg.1=3,...) and its gains
  std::string gains_name;
  std::vector<double> gains;
};

// Evaluates one fixture and compares it line by line. Returns the number of
// values compared.
long check_parity(const ParityCase& pc) {
  Context ctx("parity " + pc.expected);
  const auto expected = read_expected(expected_path(pc.expected));
  CHECK_MSG(!expected.empty(), "can't read " + expected_path(pc.expected));
  // The measures of this file, in order of first appearance.
  std::vector<std::string> names;
  std::map<std::string, std::size_t> column;
  std::vector<bool> sums;  // the 'all' line is a sum (counts), not a mean
  irtopics::EvalOptions opt;
  opt.depth = pc.depth;
  for (const auto& e : expected) {
    if (column.count(e.measure)) continue;
    Measure m;
    bool is_sum = false;
    bool known = measure_of(e.measure, &m, &is_sum);
    if (!known && !pc.gains_name.empty() && e.measure == pc.gains_name) {
      m = fixtures::measure(MeasureKind::NDCG);
      known = true;
    }
    if (!known) continue;
    column[e.measure] = names.size();
    names.push_back(e.measure);
    sums.push_back(is_sum);
    opt.measures.push_back(m);
  }
  opt.gains.by_grade = pc.gains;
  CHECK_MSG(!names.empty(), pc.expected + " has no measure the C++ computes");

  irtopics::Qrels q;
  irtopics::read_qrels_file(data_path(pc.qrels), q);
  q.prepare(pc.level);
  irtopics::Run run;
  irtopics::RunResult res;
  irtopics::EvalWorkspace ws;
  irtopics::read_and_evaluate(data_path(pc.run), q, opt, ws, run, res);
  const std::size_t nm = names.size();

  // Per-topic values: answered topics, then (with -c) the empty ranking for
  // every qrels topic the run did not answer.
  std::map<std::string, std::vector<double>> per_topic;
  for (std::size_t l = 0; l < res.list_id.size(); ++l) {
    per_topic[res.list_id[l]] =
        std::vector<double>(res.values.begin() + l * nm, res.values.begin() + (l + 1) * nm);
  }
  if (pc.complete) {
    const auto empty = irtopics::evaluate_empty(q, opt);
    for (std::size_t t = 0; t < q.topics.size(); ++t) {
      if (per_topic.count(q.topics[t])) continue;
      per_topic[q.topics[t]] =
          std::vector<double>(empty.begin() + t * nm, empty.begin() + (t + 1) * nm);
    }
  }
  CHECK(!per_topic.empty());

  long compared = 0;
  for (const auto& e : expected) {
    auto c = column.find(e.measure);
    if (c == column.end()) continue;
    const bool count = sums[c->second];
    double ours;
    if (e.topic == "all") {
      double sum = 0;
      for (const auto& kv : per_topic) sum += kv.second[c->second];
      ours = count ? sum : sum / static_cast<double>(per_topic.size());
    } else {
      auto t = per_topic.find(e.topic);
      if (t == per_topic.end()) {
        CHECK_MSG(false, "topic " + e.topic + " of " + e.measure + " was not evaluated");
        continue;
      }
      ours = t->second[c->second];
    }
    const double printed = std::strtod(e.value.c_str(), nullptr);
    const std::string what = e.measure + " topic " + e.topic + ": ours " + num(ours) +
                             ", trec_eval " + e.value;
    if (count) {
      CHECK_MSG(ours == printed, what);
    } else {
      CHECK_MSG(std::fabs(ours - printed) <= 5e-5 + 1e-12, what);
    }
    ++compared;
  }
  return compared;
}

ParityCase parity_case(const std::string& expected, const std::string& run,
                       const std::string& qrels) {
  ParityCase pc;
  pc.expected = expected;
  pc.run = run;
  pc.qrels = qrels;
  return pc;
}

void test_trec_eval_parity() {
  std::vector<ParityCase> cases;
  cases.push_back(parity_case("out.test", "results.test", "qrels.test"));
  cases.push_back(parity_case("out.test.a.txt", "results.test", "qrels.test"));
  cases.push_back(parity_case("out.test.aq", "results.test", "qrels.test"));
  ParityCase c = parity_case("out.test.aqc", "results.trunc", "qrels.test");
  c.complete = true;
  cases.push_back(c);
  c = parity_case("out.test.aqcM", "results.trunc", "qrels.test");
  c.complete = true;
  c.depth = 100;
  cases.push_back(c);
  c = parity_case("out.test.aql", "results.test", "qrels.rel_level");
  c.level = 2;
  cases.push_back(c);
  // trec_eval -m ndcg.1=3,2=9,4=4.5: unlisted grades keep their own value
  c = parity_case("out.test.meas_params", "results.test", "qrels.test");
  c.gains_name = "ndcg_1=3,2=9,4=4.5";
  c.gains = {0, 3, 9, 3, 4.5};
  cases.push_back(c);
  long total = 0;
  for (const auto& pc : cases) {
    const long n = check_parity(pc);
    std::printf("parity %-22s %5ld values compared\n", pc.expected.c_str(), n);
    Context ctx("parity " + pc.expected);
    CHECK_MSG(n >= 10, "only " + std::to_string(n) + " values compared");
    total += n;
  }
  Context ctx("parity");
  CHECK(total >= 800);  // 863 when written
}

// ---------------------------------------------------------------------------
// Parser behaviour

bool same_run(const irtopics::Run& a, const irtopics::Run& b) {
  if (a.size() != b.size() || a.topics != b.topics || a.topic != b.topic || a.score != b.score ||
      a.line != b.line || a.tag != b.tag) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) if (a.docno[i] != b.docno[i]) return false;
  return true;
}

bool same_qrels(const irtopics::Qrels& a, const irtopics::Qrels& b) {
  if (a.topics != b.topics || a.entries.size() != b.entries.size()) return false;
  for (std::size_t k = 0; k < a.entries.size(); ++k) {
    const auto &x = a.entries[k], &y = b.entries[k];
    if (x.topic != y.topic || x.grade != y.grade || x.line != y.line || x.docno != y.docno ||
        x.hash != y.hash) {
      return false;
    }
  }
  return a.num_rel == b.num_rel && a.num_nonrel == b.num_nonrel && a.levels == b.levels;
}

std::string to_crlf(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '\n') out += '\r';
    out += ch;
  }
  return out;
}

void test_run_parser() {
  Context ctx("run parser");
  const std::string plain =
      "1 Q0 a 1 2.5 tag\n"
      "1 Q0 b 2 1 tag\n"
      "\n"
      "2 Q0 c 1 -3e-1 tag extra fields are ignored\n";
  const std::string spaced =
      "1\tQ0\ta\t1\t2.5\ttag\n"
      "  1   Q0 \t b 2 +1.0 tag   \n"
      " \t \n"
      "2\t\tQ0  c 1 -0.3\ttag extra\n";
  const auto a = run_from(plain);
  CHECK(a.size() == 3);
  CHECK(a.topics == (std::vector<std::string>{"1", "2"}));
  CHECK(a.docno.size() == 3 && a.docno[1] == "b");
  CHECK(a.score == (std::vector<double>{2.5, 1.0, -0.3}));
  CHECK(a.line == (std::vector<uint32_t>{1, 2, 4}));
  CHECK(a.tag == "tag");
  CHECK(same_run(a, run_from(to_crlf(plain))));
  CHECK(same_run(a, run_from(spaced)));
  CHECK(same_run(a, run_from(to_crlf(spaced))));
  // no line end after the last line
  CHECK(same_run(a, run_from(plain.substr(0, plain.size() - 1))));

  // RunParser reports topic changes and returning topics.
  irtopics::Run r;
  r.text = "1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n2 Q0 a 1 1 t\n1 Q0 c 3 1 t\n";
  irtopics::RunParser p(r);
  bool changed = false, seen = false;
  std::vector<std::pair<bool, bool>> flags;
  while (p.next(&changed, &seen)) flags.emplace_back(changed, seen);
  CHECK(flags == (std::vector<std::pair<bool, bool>>{{true, false}, {false, false},
                                                     {true, false}, {true, true}}));

  // Errors: kind and line.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n1 Q0 b 2 1\n"), "parse", 2);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n\n1 Q0 b 2 abc t\n"), "parse", 3);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1.5.2 t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 nan t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 - t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 . t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 +-5 t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from(to_crlf("1 Q0 a 1 1 t\n1 Q0 b 2\n")), "parse", 2);
  CHECK_INPUT_ERROR(run_from(""), "file", 0);
  CHECK_INPUT_ERROR(run_from("\n \n\t\r\n"), "file", 0);

  // Exponents and long mantissas take the slow path; the value is strtod's.
  const auto e = run_from("1 Q0 a 1 1.5e3 t\n1 Q0 b 1 0.1234567890123456789 t\n"
                          "1 Q0 c 1 -1E-2 t\n1 Q0 d 1 00012.50 t\n");
  CHECK(e.score[0] == 1500.0);
  CHECK(e.score[1] == std::strtod("0.1234567890123456789", nullptr));
  CHECK(e.score[2] == -0.01);
  CHECK(e.score[3] == 12.5);

  // Duplicate docnos within a topic are found at evaluation, on the later line.
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  irtopics::EvalWorkspace ws;
  irtopics::RunResult out;
  const auto dup = run_from("1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n2 Q0 a 1 1 t\n1 Q0 a 3 0.5 t\n");
  CHECK_INPUT_ERROR(irtopics::evaluate_run(dup, q, opt, ws, out), "duplicate", 4);
  irtopics::Run dup_text;
  dup_text.file = "dup";
  dup_text.text = "1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n1 Q0 b 3 0.5 t\n";
  CHECK_INPUT_ERROR(irtopics::evaluate_text(q, opt, ws, dup_text, out), "duplicate", 3);
  // The same docno in two topics is fine.
  irtopics::RunResult ok;
  irtopics::evaluate_run(run_from("1 Q0 a 1 1 t\n2 Q0 a 1 1 t\n"), q, opt, ws, ok);
  CHECK(ok.list_id.size() == 2);
}

// Every score form the run reader accepted or refused when the parser was
// last rewritten (written before that change, so that it could not move any
// of them): accepted forms give strtod()'s double, bit for bit (the sign of
// -0 included); refused ones are a "parse" error on their line, "out of the
// range of a double" for overflow and underflow, "must be a number"
// otherwise. Each form is read twice: by parse_run() and by the streaming
// file path (read_and_evaluate()), which must agree on the error.
void test_score_forms() {
  Context ctx("score forms");
  const std::vector<std::string> accepted = {
      "1", "-0", "+0", "0", "0.5", ".5", "5.", "+3.5", "-.5", "+.5", "-5.", "1e3", "1E+3", "1e-3",
      "-2.5E+2", "1e+0", "1.e2", ".1e2", "0e0", "-0.0", "00012.50", "0.1234567890123456789",
      "123456789012345678", "123456789012345.6", "1234567890123456", "9007199254740993", "1e22",
      "1e23", "0.000000000000000000001", "4.9e-324", "2.2250738585072014e-308", "1e308",
      "1.7976931348623157e308", "inf", "-inf", "+inf", "INF", "iNf", "Infinity", "infinity",
      "-INFINITY", "+Inf"};
  const std::vector<std::string> out_of_range = {"1e-400", "1.8e308", "1e400", "-1e400"};
  const std::vector<std::string> not_numbers = {
      "0x10", "0X1p3", "0x1p3", "1,5", "+-1", "-+1", "--1", "++1", "+", "-", ".", "e", "e5", "1e",
      "1e+", "1.2.3", "nan", "NAN", "-nan", "+nan", "nan(1)", "infinit", "infinityx", "inff", "1d",
      "1f", "1_0", "1e5.5", "1ee5", ".e1", "-e1", "+.", "-."};
  TempDir dir;
  const auto q = qrels_from("1 0 a 1\n1 0 b 0\n");
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  irtopics::EvalWorkspace ws;
  irtopics::Run run;
  irtopics::RunResult res;
  auto text_with = [](const std::string& s) { return "1 Q0 a 1 2 t\n1 Q0 b 2 " + s + " t\n"; };
  for (const auto& s : accepted) {
    Context c("score forms: " + s);
    const auto r = run_from(text_with(s));
    const double want = std::strtod(s.c_str(), nullptr);
    CHECK_MSG(r.size() == 2 && std::memcmp(&r.score[1], &want, sizeof want) == 0,
              num(r.score.size() == 2 ? r.score[1] : -1.0) + " vs strtod " + num(want));
    const std::string path = dir.file("ok.txt");
    write_file(path, text_with(s));
    irtopics::read_and_evaluate(path, q, opt, ws, run, res);
    CHECK(res.list_id.size() == 1);
  }
  auto refused = [&](const std::string& s, const std::string& why) {
    Context c("score forms: " + s);
    std::string msg;
    CHECK_INPUT_ERROR(run_from(text_with(s)), "parse", 2);
    try {
      run_from(text_with(s));
    } catch (const InputError& e) {
      msg = e.what();
    }
    CHECK_MSG(msg.find(why) != std::string::npos, msg);
    const std::string path = dir.file("bad.txt");
    write_file(path, text_with(s));
    CHECK_INPUT_ERROR(irtopics::read_and_evaluate(path, q, opt, ws, run, res), "parse", 2);
  };
  for (const auto& s : out_of_range) refused(s, "'" + s + "' is out of the range of a double");
  for (const auto& s : not_numbers) refused(s, "must be a number, not '" + s + "'");
}

// A small deterministic generator for the random texts of the tests below:
// below(n) is uniform enough in [0, n).
struct Lcg {
  uint64_t x;
  std::size_t below(uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((x >> 33) % n);
  }
};

// Random plain decimal scores on both sides of the score parser's fast-path
// bound (15 significant digits), with signs, leading zeros, and no integer
// or no fraction part, give strtod()'s double, bit for bit.
void test_random_scores() {
  Context ctx("random scores");
  Lcg rng{20261127};
  std::vector<std::string> scores;
  std::string text;
  while (scores.size() < 200000) {
    std::string s = rng.below(3) == 0 ? "-" : rng.below(8) == 0 ? "+" : "";
    const std::size_t n_int = rng.below(12), n_frac = rng.below(12);
    for (std::size_t k = 0; k < n_int; ++k) s += static_cast<char>('0' + rng.below(k == 0 ? 3 : 10));
    const bool dot = rng.below(10) < 7;
    if (dot) s += '.';
    for (std::size_t k = 0; dot && k < n_frac; ++k) s += static_cast<char>('0' + rng.below(10));
    if (s.find_first_of("0123456789") == std::string::npos) continue;
    text += "1 Q0 d" + std::to_string(scores.size()) + " 1 " + s + " t\n";
    scores.push_back(s);
  }
  const auto r = run_from(text);
  long same = 0;
  for (std::size_t i = 0; i < scores.size() && i < r.size(); ++i) {
    const double want = std::strtod(scores[i].c_str(), nullptr);
    if (std::memcmp(&r.score[i], &want, sizeof want) == 0) {
      ++same;
    } else {
      CHECK_MSG(false, scores[i] + ": " + num(r.score[i]) + " vs strtod " + num(want));
    }
  }
  CHECK(r.size() == scores.size() && same == static_cast<long>(scores.size()));
}

// The run parser splits a line of six fields that ends within 64 bytes with
// one white-space mask, other lines byte by byte. Random lines around that
// boundary (1-40 byte fields, runs of every white-space byte, six to eight
// fields, with and without a line end after the last line) must give the
// fields a plain isspace() split gives.
void test_line_splitting() {
  Context ctx("line splitting");
  Lcg rng{20261123};
  auto next = [&](uint64_t n) { return rng.below(n); };
  const char white[] = {' ', '\t', '\v', '\f', '\r'};
  auto gap = [&](bool cr) {
    std::string g;
    const std::size_t n = 1 + next(3);
    for (std::size_t i = 0; i < n; ++i) g += white[next(cr ? 5 : 4)];
    return g;
  };
  auto field = [&](std::size_t max_len) {
    std::string f;
    const std::size_t n = 1 + next(max_len);
    for (std::size_t i = 0; i < n; ++i) f += static_cast<char>('a' + next(26));
    return f;
  };
  long lines = 0, mismatches = 0;
  for (int round = 0; round < 200; ++round) {
    std::string text;
    std::vector<std::vector<std::string>> want;
    const int n_lines = 1 + static_cast<int>(next(20));
    for (int l = 0; l < n_lines; ++l) {
      const int n_fields = 6 + static_cast<int>(next(3));
      std::vector<std::string> f = {field(12), "Q0", field(40), field(6),
                                    std::to_string(next(100000)) + "." + std::to_string(next(1000)),
                                    "tag"};
      for (int k = 6; k < n_fields; ++k) f.push_back(field(20));
      std::string line = next(3) == 0 ? gap(false) : "";
      for (int k = 0; k < n_fields; ++k) line += (k ? gap(n_fields == 6) : "") + f[k];
      if (next(3) == 0) line += gap(true);
      text += line + "\n";
      f.resize(6);
      want.push_back(f);
    }
    if (next(4) == 0) text.pop_back();
    const auto r = run_from(text);
    lines += n_lines;
    bool same = r.size() == want.size();
    for (std::size_t i = 0; same && i < want.size(); ++i) {
      same = r.topics[r.topic[i]] == want[i][0] && r.docno[i] == want[i][2] &&
             r.score[i] == std::strtod(want[i][4].c_str(), nullptr) && r.tag == "tag" &&
             r.line[i] == i + 1;
    }
    if (!same) ++mismatches;
  }
  CHECK_MSG(mismatches == 0, std::to_string(mismatches) + " of 200 texts split differently");
  CHECK(lines > 1000);
  // Short lines with CR-only line ends: more than six fields within the
  // 64-byte window, a carriage return between them: refused, not read as one
  // line with its "extra fields" ignored.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\r1 Q0 b 2 1 t\r"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n1 Q0 b 2 1 t\r1 Q0 c 3 1 t\n"), "parse", 2);
  // Seven fields in the window without a carriage return: the seventh is ignored.
  CHECK(run_from("1 Q0 a 1 1 t x\n").docno[0] == "a");
}

// Qrels lookups (Qrels::find_slot() and the branch-free first probe of two
// slots for docnos of up to 16 bytes): every retrieved document's grade, as
// evaluate_run() reports it in the profile, equals a std::map lookup, for
// docnos of 1 to 40 bytes that share long prefixes (16-byte heads equal,
// lengths or tails differ), in a topic large enough for long probe
// sequences, through the padded run (parser), a RunBuilder run and an
// unpadded run (the general path).
void test_qrels_lookups() {
  Context ctx("qrels lookups");
  Lcg rng{77};
  auto next = [&](uint64_t n) { return rng.below(n); };
  auto docno = [&]() {
    const std::size_t len = 1 + next(40);
    std::string d = len >= 16 && next(2) ? std::string("ABCDEFGHIJKLMNOP") : "";
    while (d.size() < len) d += static_cast<char>('a' + next(3));
    d.resize(len);
    return d;
  };
  std::map<std::string, int> judged;
  std::string qtext;
  while (judged.size() < 3000) {
    const std::string d = docno();
    if (judged.count(d)) continue;
    const int g = static_cast<int>(next(4)) - 1;  // -1 (unjudged) .. 2
    judged[d] = g;
    qtext += "7 0 " + d + " " + std::to_string(g) + "\n";
  }
  const auto q = qrels_from(qtext);
  std::map<std::string, int> seen;
  std::string rtext;
  std::vector<std::string> order;
  while (order.size() < 2500) {
    const std::string d = next(2) ? std::next(judged.begin(), static_cast<long>(next(judged.size())))->first
                                  : docno();
    if (seen.count(d)) continue;
    seen[d] = 1;
    order.push_back(d);
    rtext += "7 Q0 " + d + " 1 " + std::to_string(5000 - order.size()) + " t\n";
  }
  irtopics::EvalOptions opt;
  opt.depth = 0;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  opt.want_profiles = true;
  opt.want_orders = true;
  auto check = [&](const irtopics::Run& run, const char* what) {
    Context c(std::string("qrels lookups: ") + what);
    irtopics::EvalWorkspace ws;
    irtopics::RunResult res;
    irtopics::evaluate_run(run, q, opt, ws, res);
    CHECK(res.profile.size() == 1 && res.profile[0].size() == order.size());
    long bad = 0, found = 0;
    for (std::size_t k = 0; k < order.size() && res.profile.size() == 1; ++k) {
      auto it = judged.find(order[k]);
      const int want = it == judged.end() ? irtopics::kNotInPool
                       : it->second < 0   ? irtopics::kUnjudged
                                          : it->second;
      bad += res.profile[0][k] != want;
      found += it != judged.end();
    }
    CHECK_MSG(bad == 0, std::to_string(bad) + " grades differ");
    CHECK(found > 1000 && found < 2000);
    // Return orders: the rank of each relevant document (grade >= 1).
    long rel = 0, placed = 0;
    for (const auto& [d, g] : judged) rel += g >= 1;
    for (int pos : res.orders.at(0)) placed += pos > 0;
    long want_placed = 0;
    for (const auto& d : order) want_placed += judged.count(d) && judged[d] >= 1;
    CHECK(static_cast<long>(res.orders.at(0).size()) == rel && placed == want_placed);
  };
  const auto parsed = run_from(rtext);
  CHECK(parsed.padded);
  check(parsed, "parsed");
  irtopics::Run built;
  built.file = "built";
  irtopics::RunBuilder b(built);
  for (std::size_t k = 0; k < order.size(); ++k) {
    b.add("7", order[k], 5000.0 - static_cast<double>(k + 1), static_cast<uint32_t>(k + 1));
  }
  b.finish();
  CHECK(built.padded);
  check(built, "built");
  auto unpadded = run_from(rtext);
  unpadded.padded = false;
  check(unpadded, "unpadded");

  // A 16-byte docno is not a longer one with the same first 16 bytes (the
  // slot's head), nor the other way round: 60 small topics, each judging
  // three 17-byte docnos with the head "ABCDEFGHIJKLMNOP" (so that some
  // share the first cache line of the 16-byte docno's probe sequence), and a
  // run that retrieves the 16-byte docno and a 17-byte one that is not judged.
  std::string q2, r2;
  for (int t = 0; t < 60; ++t) {
    for (const char* tail : {"x", "y", "z"}) q2 += std::to_string(t) + " 0 ABCDEFGHIJKLMNOP" + tail + " 1\n";
    r2 += std::to_string(t) + " Q0 ABCDEFGHIJKLMNOP 1 2 t\n" + std::to_string(t) + " Q0 ABCDEFGHIJKLMNOPw 2 1 t\n";
  }
  const auto qq = qrels_from(q2);
  irtopics::EvalWorkspace ws;
  irtopics::RunResult res;
  irtopics::evaluate_run(run_from(r2), qq, opt, ws, res);
  long wrong = 0;
  for (const auto& prof : res.profile) wrong += prof != std::vector<int>{irtopics::kNotInPool, irtopics::kNotInPool};
  CHECK(res.profile.size() == 60 && wrong == 0);
}

// A ranking already in trec_eval order (score descending, ties by docno
// descending) is not sorted; one in score order with ties out of docno order
// has only its tied groups sorted; any other order is sorted whole. All three
// give trec_eval's order.
void test_trec_order() {
  Context ctx("trec_eval order");
  const auto q = qrels_from("1 0 z 1\n1 0 m 0\n1 0 a 2\n1 0 q 1\n1 0 b 0\n1 0 c 2\n");
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  opt.want_profiles = true;
  irtopics::EvalWorkspace ws;
  const std::vector<int> want = {2, 1, 0, 2, 1, 0};  // c (3), z m a (2), q b (1)
  for (const char* text : {"1 Q0 c 1 3 t\n1 Q0 z 2 2 t\n1 Q0 m 3 2 t\n1 Q0 a 4 2 t\n1 Q0 q 5 1 t\n1 Q0 b 6 1 t\n",
                           "1 Q0 c 1 3 t\n1 Q0 a 2 2 t\n1 Q0 z 3 2 t\n1 Q0 m 4 2 t\n1 Q0 b 5 1 t\n1 Q0 q 6 1 t\n",
                           "1 Q0 b 1 1 t\n1 Q0 m 2 2 t\n1 Q0 c 3 3 t\n1 Q0 q 4 1 t\n1 Q0 a 5 2 t\n1 Q0 z 6 2 t\n"}) {
    irtopics::RunResult r;
    irtopics::evaluate_run(run_from(text), q, opt, ws, r);
    CHECK_MSG(r.profile.size() == 1 && r.profile[0] == want, text);
  }
}

void test_qrels_parser() {
  Context ctx("qrels parser");
  const std::string plain = "1 0 a 1\n1 0 b 0\n\n2 0 a 2\n2 0 c -1\n";
  const std::string spaced = "1\t0\ta\t1\n  1  0 \t b   0 \n\t\n2 0 a +2\n2\t0\tc\t-1";
  const auto a = qrels_from(plain);
  CHECK(a.topics == (std::vector<std::string>{"1", "2"}));
  CHECK(a.entries.size() == 4);
  CHECK(a.entries[3].grade == -1 && a.entries[3].line == 5);
  CHECK(a.num_rel == (std::vector<long>{1, 1}));
  CHECK(a.num_nonrel == (std::vector<long>{1, 0}));
  CHECK(a.find(0, "a", irtopics::hash_docno("a")) == 0);
  CHECK(a.find(0, "c", irtopics::hash_docno("c")) == -1);
  CHECK(a.find(1, "c", irtopics::hash_docno("c")) == 3);
  CHECK(same_qrels(a, qrels_from(to_crlf(plain))));
  CHECK(same_qrels(a, qrels_from(spaced)));
  CHECK(same_qrels(a, qrels_from(to_crlf(spaced))));

  // prepare(2): only grade >= 2 is relevant; relevant docnos in byte order.
  auto b = qrels_from("1 0 z 2\n1 0 b 3\n1 0 m 1\n1 0 a 0\n", 2);
  CHECK(b.num_rel[0] == 2 && b.num_nonrel[0] == 2);
  CHECK(b.relevant[0].size() == 2 && b.relevant[0][0] == "b" && b.relevant[0][1] == "z");
  CHECK(b.rel_index == (std::vector<int32_t>{1, 0, -1, -1}));

  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n1 0 b\n"), "parse", 2);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1 extra\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n\n1 0 b 1.5\n"), "parse", 3);
  CHECK_INPUT_ERROR(qrels_from("1 0 a x\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a +-1\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 99999999999\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1000001\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n2 0 a 1\n1 0 a 0\n"), "duplicate", 3);
  CHECK_INPUT_ERROR(qrels_from(""), "file", 0);
  CHECK_INPUT_ERROR(qrels_from(" \r\n\n"), "file", 0);
  // The largest grade accepted is accepted.
  CHECK(qrels_from("1 0 a 1000000\n").levels[0].size() == 1000001);

  // The grade count tables of all topics are bounded (kMaxLevelCounts,
  // 2^24): 16 topics at grade 1e6 fit (16 * 1000001 counts), a 17th does not.
  std::string many;
  for (int t = 1; t <= 17; ++t) many += "t" + std::to_string(t) + " 0 d 1000000\n";
  const std::size_t cut = many.find("t17 ");
  CHECK(qrels_from(many.substr(0, cut)).levels.size() == 16);
  CHECK_INPUT_ERROR(qrels_from(many), "data", 17);
  CHECK_INPUT_ERROR(qrels_from("a 0 x 1\n" + many), "data", 18);

  // QrelsBuilder: the same qrels from memory; grades above the limit are
  // "data" errors there.
  irtopics::Qrels c;
  {
    irtopics::QrelsBuilder qb(c);
    for (const auto& e : a.entries) qb.add(a.topics[e.topic], e.docno, e.grade, e.line);
    qb.finish();
  }
  c.prepare(1);
  CHECK(same_qrels(a, c));
  irtopics::Qrels d;
  irtopics::QrelsBuilder qb(d);
  qb.add("1", "a", irtopics::kMaxGrade + 1, 7);
  CHECK_INPUT_ERROR(qb.finish(), "data", 7);
}

void test_files() {
  Context ctx("read_whole_file");
  TempDir dir;
  const std::string text = "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n";
  std::string out;

  write_file(dir.file("plain.txt"), text);
  irtopics::read_whole_file(dir.file("plain.txt"), out);
  CHECK(out == text);

  const std::string gz = gzip_bytes(text, dir.file("scratch.gz"));
  CHECK(gz.size() > 18 && static_cast<unsigned char>(gz[0]) == 0x1f);
  write_file(dir.file("run.gz"), gz);
  irtopics::read_whole_file(dir.file("run.gz"), out);
  CHECK(out == text);
  // gzip detected by its magic bytes, whatever the name
  write_file(dir.file("run.txt"), gz);
  irtopics::read_whole_file(dir.file("run.txt"), out);
  CHECK(out == text);
  // a plain file named .gz is read as it is
  write_file(dir.file("plain.gz"), text);
  irtopics::read_whole_file(dir.file("plain.gz"), out);
  CHECK(out == text);
  // the buffer is reused: a shorter file after a longer one
  write_file(dir.file("short.txt"), "x");
  irtopics::read_whole_file(dir.file("short.txt"), out);
  CHECK(out == "x");

  write_file(dir.file("trunc.gz"), gz.substr(0, gz.size() / 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("trunc.gz"), out), "file", 0);
  write_file(dir.file("magic.gz"), gz.substr(0, 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("magic.gz"), out), "file", 0);
  std::string corrupt = gz;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  write_file(dir.file("corrupt.gz"), corrupt);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("corrupt.gz"), out), "file", 0);
  write_file(dir.file("empty.txt"), "");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("empty.txt"), out), "file", 0);
  write_file(dir.file("empty.gz"), gzip_bytes("", dir.file("scratch2.gz")));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("empty.gz"), out), "file", 0);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("missing"), out), "file", 0);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.path, out), "file", 0);

  // Whole files through the readers; errors name the file.
  irtopics::Run run;
  irtopics::read_run_file(dir.file("run.gz"), run);
  CHECK(run.size() == 2 && run.file == dir.file("run.gz"));
  write_file(dir.file("bad.gz"), gzip_bytes("1 Q0 a 1 2 t\n1 Q0 b 2 x t\n", dir.file("s3.gz")));
  try {
    irtopics::read_run_file(dir.file("bad.gz"), run);
    CHECK_MSG(false, "bad.gz should not parse");
  } catch (const InputError& e) {
    CHECK(std::string(e.kind()) == "parse" && e.line == 2 && e.file == dir.file("bad.gz"));
  }
  irtopics::Qrels q;
  write_file(dir.file("qrels.gz"), gzip_bytes(fixtures::small_qrels_text(), dir.file("s4.gz")));
  irtopics::read_qrels_file(dir.file("qrels.gz"), q);
  CHECK(q.entries.size() == 10 && q.topics.size() == 3);
}

// ---------------------------------------------------------------------------
// Hardening round 2 (issue 12): gzip members and trailing bytes, early NUL
// detection while inflating, one run tag per file, size-0 files with content,
// escaped fields in messages.

void test_hardening2() {
  Context ctx("hardening2");
  TempDir dir;
  std::string out;
  const std::string a = "1 Q0 a 1 2 t\n", b = "2 Q0 c 1 2 t\n";
  const std::string ga = gzip_bytes(a, dir.file("sa.gz")), gb = gzip_bytes(b, dir.file("sb.gz"));
  // Concatenated members are read one after the other (as gzip -d does).
  write_file(dir.file("two.gz"), ga + gb);
  irtopics::read_whole_file(dir.file("two.gz"), out);
  CHECK(out == a + b);
  write_file(dir.file("three.gz"), ga + gzip_bytes("", dir.file("se.gz")) + gb);
  irtopics::read_whole_file(dir.file("three.gz"), out);
  CHECK(out == a + b);
  // Zero padding after the last member is ignored; other bytes are an error.
  write_file(dir.file("pad.gz"), ga + std::string(300000, '\0'));
  irtopics::read_whole_file(dir.file("pad.gz"), out);
  CHECK(out == a);
  write_file(dir.file("plain_after.gz"), ga + b);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("plain_after.gz"), out), "file", 0);
  write_file(dir.file("one_byte.gz"), ga + "x");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("one_byte.gz"), out), "file", 0);
  write_file(dir.file("zeros_then_x.gz"), ga + std::string(200000, '\0') + "x");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("zeros_then_x.gz"), out), "file", 0);
  write_file(dir.file("second_cut.gz"), ga + gb.substr(0, 12));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("second_cut.gz"), out), "file", 0);
  write_file(dir.file("magic_only.gz"), ga + gb.substr(0, 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("magic_only.gz"), out), "file", 0);
  // A wrong size in the trailer (ISIZE) is only a guess: still read right.
  std::string wrong = ga;
  wrong[wrong.size() - 1] = static_cast<char>(0x7f);
  write_file(dir.file("isize.gz"), wrong);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("isize.gz"), out), "file", 0);  // length check fails
  // A NUL is refused while inflating, with its line: 16 MB of zeros stop
  // after the first MB.
  const std::string zeros(std::size_t{16} << 20, '\0');
  write_file(dir.file("zeros.gz"), gzip_bytes("1 0 a 1\n1 0 b 0\n" + zeros, dir.file("sz.gz")));
  out = std::string();
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("zeros.gz"), out), "parse", 3);
  CHECK(out.capacity() < (std::size_t{4} << 20));
  // The buffer grows by half, not by doubling with zero fill; the size in the
  // trailer is trusted up to 64 times the file's size.
  const std::string blanks(std::size_t{8} << 20, ' ');
  write_file(dir.file("blanks.gz"), gzip_bytes(blanks + a, dir.file("sbl.gz")));
  out = std::string();
  irtopics::read_whole_file(dir.file("blanks.gz"), out);
  CHECK(out.size() == blanks.size() + a.size());
  CHECK(out.capacity() <= out.size() + out.size() / 2 + 64);
  std::string text;  // run lines with pseudo-random docnos and scores
  for (uint64_t i = 0, x = 12345; i < 40000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    text += std::to_string(i / 1000) + " Q0 D" + std::to_string(x >> 20) + " " + std::to_string(i % 1000) +
            " " + std::to_string((x >> 40) % 100000) + " tag\n";
  }
  write_file(dir.file("text.gz"), gzip_bytes(text, dir.file("stx.gz")));
  std::string fresh;  // read_whole_file() reuses a buffer's capacity
  irtopics::read_whole_file(dir.file("text.gz"), fresh);
  CHECK(fresh == text && fresh.capacity() <= fresh.size() + 64);
  write_file(dir.file("blanks2.gz"), gzip_bytes(blanks, dir.file("sbl2.gz")) + ga);
  out = std::string();
  irtopics::read_whole_file(dir.file("blanks2.gz"), out);
  CHECK(out.size() == blanks.size() + a.size());
  CHECK(out.capacity() <= out.size() + out.size() / 2 + 64);

  // One run tag per file.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 2 A\n1 Q0 b 2 1 A\n2 Q0 c 1 2 B\n"), "parse", 3);
  CHECK(run_from("1 Q0 a 1 2 A x\n1 Q0 b 2 1 A\n").tag == "A");
  try {
    run_from("1 Q0 a 1 2 A\n1 Q0 b 2 1 A\x1b[2J\n");
    CHECK_MSG(false, "two tags should be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("'A\\x1b[2J'") != std::string::npos);
  }

  // A file that reports size 0 but has content (/proc) is read to its end.
  if (fs::exists("/proc/self/status")) {
    irtopics::read_whole_file("/proc/self/status", out);
    CHECK(out.find("Name:") != std::string::npos);
  }

  // Fields in messages: printable UTF-8 kept, controls and invalid bytes
  // escaped, long fields cut.
  CHECK(irtopics::show_field("abc") == "abc");
  CHECK(irtopics::show_field("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(irtopics::show_field("caf\xe9") == "caf\\xe9");
  CHECK(irtopics::show_field("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(irtopics::show_field("\xc2\x9b") == "\\xc2\\x9b");        // C1 control (CSI)
  CHECK(irtopics::show_field("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
  CHECK(irtopics::show_field("\xe2\x82") == "\\xe2\\x82");        // truncated sequence
  CHECK(irtopics::show_field(std::string(std::size_t{1} << 20, 'x')).size() < 80);
  CHECK(irtopics::show_field(std::string(100, '\x01')).size() < 80);
  // The duplicate message of a qrels escapes the topic id too.
  try {
    qrels_from("t\x1b 0 a 1\nt\x1b 0 a 1\n");
    CHECK_MSG(false, "duplicate should be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.kind()) == "duplicate" && std::string(e.what()).find('\x1b') == std::string::npos);
  }
}

// ---------------------------------------------------------------------------
// Measure kernels on a hand-made profile

void test_measures() {
  Context ctx("measures");
  // Ranks 1..5 hold grades 1, 0, 1, (not in the pool), 2. The topic has
  // judged documents: 2 of grade 0, 2 of grade 1, 2 of grade 2, so at
  // relevance level 1 num_rel = 4 and num_nonrel = 2.
  const int grades[] = {1, 0, 1, irtopics::kNotInPool, 2};
  const std::vector<long> levels = {2, 2, 2};
  irtopics::Profile p;
  p.grade = grades;
  p.num_ret = 5;
  p.num_rel = 4;
  p.num_nonrel = 2;
  p.levels = &levels;
  p.relevance_level = 1;
  irtopics::Gains identity;
  std::vector<double> work;
  auto value = [&](MeasureKind kind, long cutoff = 0) {
    return irtopics::compute_measure(fixtures::measure(kind, cutoff), p, identity, work);
  };
  const double tol = 1e-12;
  // AP: relevant at ranks 1, 3, 5: (1/1 + 2/3 + 3/5) / 4 = 0.5666...
  CHECK_NEAR(value(MeasureKind::AP), (1.0 + 2.0 / 3 + 3.0 / 5) / 4, tol);
  // AP cut at 3: (1 + 2/3) / 4
  CHECK_NEAR(value(MeasureKind::APCut, 3), (1.0 + 2.0 / 3) / 4, tol);
  // P@2 = 1/2; P@10 = 3/10 (ranks past the end count as non-relevant)
  CHECK_NEAR(value(MeasureKind::P, 2), 0.5, tol);
  CHECK_NEAR(value(MeasureKind::P, 10), 0.3, tol);
  // RR: first relevant at rank 1; R-Prec: 2 relevant in the top 4 -> 2/4
  CHECK_NEAR(value(MeasureKind::RR), 1.0, tol);
  CHECK_NEAR(value(MeasureKind::RPrec), 0.5, tol);
  // Recall@3 = 2/4; Success@1 = 1; counts
  CHECK_NEAR(value(MeasureKind::Recall, 3), 0.5, tol);
  CHECK_NEAR(value(MeasureKind::Success, 1), 1.0, tol);
  // Hits@k (ranx): the count of relevant documents in the top k, where
  // Success@k is 1 as soon as there is one: 2 in the top 3, 3 in the top 10.
  CHECK_NEAR(value(MeasureKind::Hits, 3), 2.0, tol);
  CHECK_NEAR(value(MeasureKind::Hits, 10), 3.0, tol);
  CHECK_NEAR(value(MeasureKind::Success, 3), 1.0, tol);
  CHECK_NEAR(value(MeasureKind::NumRelRet), 3.0, tol);
  CHECK_NEAR(value(MeasureKind::NumRet), 5.0, tol);
  CHECK_NEAR(value(MeasureKind::NumRel), 4.0, tol);
  // nDCG, gain = grade, discount log2(rank + 1):
  //   DCG   = 1/1 + 1/log2(4) + 2/log2(6)               = 2.2737056144690833
  //   ideal = 2/1 + 2/log2(3) + 1/log2(4) + 1/log2(5)   = 4.1925360652163080
  //   nDCG  = 0.5423222553368242
  CHECK_NEAR(value(MeasureKind::NDCG), 0.5423222553368242, 1e-12);
  // nDCG@3: DCG@3 = 1 + 0.5 = 1.5; ideal@3 = 2 + 2/log2(3) + 0.5 -> 0.3987389739440937
  CHECK_NEAR(value(MeasureKind::NDCGCut, 3), 0.3987389739440937, 1e-12);
  // bpref: rank 1 relevant, no non-relevant above: 1; rank 3 with one
  // non-relevant above: 1 - 1/min(2, 4) = 0.5; rank 5 likewise 0.5 -> 2/4
  CHECK_NEAR(value(MeasureKind::Bpref), 0.5, tol);

  // Relevance level 2: only rank 5 is relevant; num_rel = 2.
  irtopics::Profile p2 = p;
  p2.relevance_level = 2;
  p2.num_rel = 2;
  p2.num_nonrel = 4;
  auto value2 = [&](MeasureKind kind, long cutoff = 0) {
    return irtopics::compute_measure(fixtures::measure(kind, cutoff), p2, identity, work);
  };
  CHECK_NEAR(value2(MeasureKind::AP), (1.0 / 5) / 2, tol);
  CHECK_NEAR(value2(MeasureKind::RR), 0.2, tol);
  CHECK_NEAR(value2(MeasureKind::RPrec), 0.0, tol);

  // Custom gains: grade 1 -> 0.5, grade 2 -> 4.
  irtopics::Gains g;
  g.by_grade = {0, 0.5, 4};
  // DCG = 0.5 + 0.5/2 + 4/log2(6); ideal = 4 + 4/log2(3) + 0.5/2 + 0.5/log2(5)
  const double dcg = 0.5 + 0.25 + 4 / std::log2(6.0);
  const double ideal = 4 + 4 / std::log2(3.0) + 0.25 + 0.5 / std::log2(5.0);
  CHECK_NEAR(irtopics::compute_measure(fixtures::measure(MeasureKind::NDCG), p, g, work),
             dcg / ideal, 1e-12);

  // An empty ranking and a topic without relevant documents score 0
  // (trec_eval), except the counts of the topic, the RBP residual (the
  // whole weight lies past the list) and the exclusion measure, which is
  // NaN without any relevant document. Every measure of the registry.
  irtopics::Profile empty = p;
  empty.num_ret = 0;
  for (const auto& m : fixtures::all_measures()) {
    const double v = irtopics::compute_measure(m, empty, identity, work);
    if (m.kind == MeasureKind::NumRel) {
      CHECK(v == 4.0);
    } else if (m.kind == MeasureKind::NumQ || m.kind == MeasureKind::RBPResid) {
      CHECK(v == 1.0);
    } else if (m.kind == MeasureKind::Exclusion) {
      // n = 0: N25 = L * H with H = ceil(0.25 * 4) = 1 -> -log10(1001)
      CHECK_NEAR(v, -std::log10(1001.0), 1e-12);
    } else {
      CHECK_MSG(v == 0.0, "measure " + std::to_string(static_cast<int>(m.kind)) + " = " + num(v));
    }
  }
  irtopics::Profile norel = p;
  norel.num_rel = 0;
  norel.relevance_level = 3;
  const std::vector<long> low = {2, 2};
  norel.levels = &low;
  CHECK(value(MeasureKind::AP) > 0);
  CHECK(irtopics::compute_measure(fixtures::measure(MeasureKind::AP), norel, identity, work) == 0);
  CHECK(irtopics::compute_measure(fixtures::measure(MeasureKind::RPrec), norel, identity, work) == 0);
  CHECK(std::isnan(
      irtopics::compute_measure(fixtures::measure(MeasureKind::Exclusion), norel, identity, work)));

  // Exclusion measure (spec 1.3): n_rel = 4, H = 1, first relevant at rank
  // 1 -> N25 = 1 - 1 = 0 -> X = 0.
  CHECK_NEAR(value(MeasureKind::Exclusion), 0.0, tol);
  // n25 directly: H = ceil(0.25 * 8) = 2; positions 3, 9 -> N25 = 9 - 2 = 7
  const int pos[] = {3, 9};
  CHECK_NEAR(irtopics::n25(pos, 2, 8, 0.25, 1000), 7.0, tol);
  // one of two needed returned: (L - n) * H / n = (1000 - 1) * 2 / 1
  CHECK_NEAR(irtopics::n25(pos, 1, 8, 0.25, 1000), 1998.0, tol);
}

// ---------------------------------------------------------------------------
// Streaming against whole-run evaluation

void compare_paths(const std::string& text, const std::string& label) {
  Context ctx("evaluate_text vs evaluate_run: " + label);
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  opt.want_profiles = true;
  opt.want_orders = true;
  opt.depth = 3;
  irtopics::EvalWorkspace ws;
  irtopics::Run streamed;
  streamed.file = label;
  streamed.text = text;
  irtopics::RunResult a, b;
  irtopics::evaluate_text(q, opt, ws, streamed, a);
  const auto whole = run_from(text, label);
  irtopics::evaluate_run(whole, q, opt, ws, b);
  CHECK(!a.list_id.empty());
  CHECK(a.list_id == b.list_id);
  CHECK(a.topic == b.topic);
  CHECK(a.num_ret == b.num_ret);
  CHECK(a.values == b.values);
  CHECK(a.profile == b.profile);
  CHECK(a.orders == b.orders);
  CHECK(a.unknown_topics == b.unknown_topics);
  CHECK(a.tag == b.tag && a.tag == "fix");
}

std::vector<std::string> files_in(const std::string& dir);

// read_and_evaluate() streams plain files in pieces of 512 KB. Texts of
// 7 MB (a topic of 40,000 lines, more than a piece, so the buffer
// grows; lines across piece boundaries; tied scores; unjudged documents)
// must give what evaluate_run() gives on the whole parsed text, with and
// without a byte order mark, CRLF line ends or a final line end, and when a
// topic comes back late (not grouped); a late input error must be the
// whole-text parser's (kind, line and message), and a reused Run and
// workspace must not carry anything from one file to the next.
void test_streaming_files() {
  Context ctx("streaming files");
  TempDir dir;
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  opt.want_profiles = true;
  opt.want_orders = true;
  Lcg rng{99};
  auto next = [&](uint64_t n) { return rng.below(n); };
  const char* docs[] = {"a", "b", "c", "d", "z", "CR93E-1282", "x"};
  auto topic_lines = [&](const std::string& topic, int n) {
    std::string t;
    for (int i = 0; i < n; ++i) {
      const std::string d = i < 7 ? docs[i] : "D" + std::to_string(i) + std::string(next(30), 'q');
      t += topic + " Q0 " + d + " " + std::to_string(i) + " " + std::to_string(100000 - i - next(3)) +
           " fix\n";
    }
    return t;
  };
  std::string base = topic_lines("1", 300) + topic_lines("2", 40000) + topic_lines("301", 5000);
  for (int t = 0; t < 150; ++t) base += topic_lines("9" + std::to_string(t), 900);
  base += topic_lines("3", 50);
  irtopics::Run run;  // reused, as a thread reuses it
  irtopics::EvalWorkspace ws;
  auto same_as_whole = [&](const std::string& text, const std::string& label) {
    Context c("streaming files: " + label);
    const std::string path = dir.file(label + ".txt");
    write_file(path, text);
    irtopics::RunResult a, b;
    irtopics::read_and_evaluate(path, q, opt, ws, run, a);
    irtopics::evaluate_run(run_from(text, path), q, opt, ws, b);
    CHECK(a.list_id == b.list_id && a.list_id.size() == 3);
    CHECK(a.topic == b.topic && a.num_ret == b.num_ret && a.values == b.values);
    CHECK(a.profile == b.profile && a.orders == b.orders);
    CHECK(a.unknown_topics == b.unknown_topics && a.unknown_topics.size() == 151);
    CHECK(a.tag == "fix" && b.tag == "fix");
    // Streamed (the buffer holds pieces, not the file) unless not grouped.
    CHECK_MSG((run.text.size() < text.size() / 2) == (label != "not-grouped"),
              std::to_string(run.text.size()) + " bytes held for a text of " + std::to_string(text.size()));
  };
  CHECK(base.size() > (std::size_t{6} << 20));
  same_as_whole(base, "plain");
  same_as_whole(base.substr(0, base.size() - 1), "no-final-line-end");
  same_as_whole("\xEF\xBB\xBF" + base, "bom");
  same_as_whole(to_crlf(base), "crlf");
  same_as_whole(base + "2 Q0 late 1 1 fix\n", "not-grouped");
  same_as_whole(base, "plain-again");
  // Tiny pieces, so that lines, fields, the byte order mark and CRLF ends
  // fall across piece boundaries everywhere (a 100 KB text with topics of
  // 1 to 300 lines; read 1, 2, 3, 17, 64 ... bytes at a time).
  {
    std::string small = "\xEF\xBB\xBF";
    for (int t = 0; t < 60; ++t) small += topic_lines("9" + std::to_string(t), 1 + static_cast<int>(next(300)));
    small += topic_lines("1", 20) + topic_lines("2", 30) + topic_lines("301", 10);
    for (const std::string& text : {small, to_crlf(small), small.substr(0, small.size() - 1)}) {
      const std::string path = dir.file("small.txt");
      write_file(path, text);
      irtopics::RunResult b;
      irtopics::evaluate_run(run_from(text, path), q, opt, ws, b);
      for (std::size_t piece : {1, 2, 3, 17, 64, 65, 1000, 4096}) {
        Context c("streaming files: piece " + std::to_string(piece));
        irtopics::RunResult a;
        irtopics::read_and_evaluate(path, q, opt, ws, run, a, piece);
        CHECK(a.list_id == b.list_id && a.list_id.size() == 3 && a.values == b.values &&
              a.profile == b.profile && a.orders == b.orders && a.unknown_topics == b.unknown_topics);
        // Streamed, not read whole, unless a topic (up to about 12 KB here)
        // needs more than kStreamGrowth pieces: then read whole.
        CHECK((run.text.size() < text.size()) == (piece * irtopics::kStreamGrowth >= 16384));
      }
    }
  }
  // Both paths on one file: the results into a (streamed) and b (whole), and
  // the error each gave as "kind:line:message" ("" when none).
  auto both_paths = [&](const std::string& path, irtopics::RunResult& a, irtopics::RunResult& b) {
    std::string streamed, whole;
    try {
      irtopics::read_and_evaluate(path, q, opt, ws, run, a);
    } catch (const InputError& e) {
      streamed = std::string(e.kind()) + ":" + std::to_string(e.line) + ":" + e.what();
    }
    try {
      irtopics::Run r;
      irtopics::read_run_file(path, r);
      irtopics::evaluate_run(r, q, opt, ws, b);
    } catch (const InputError& e) {
      whole = std::string(e.kind()) + ":" + std::to_string(e.line) + ":" + e.what();
    }
    return std::make_pair(streamed, whole);
  };
  // Late errors: the same InputError as the whole-text parser's.
  auto same_error = [&](const std::string& text, const std::string& label) {
    Context c("streaming files: " + label);
    const std::string path = dir.file(label + ".txt");
    write_file(path, text);
    irtopics::RunResult a, b;
    const auto [streamed, whole] = both_paths(path, a, b);
    CHECK_MSG(streamed == whole && !streamed.empty(), streamed + " vs " + whole);
  };
  std::string nul = base;
  nul[nul.size() - 1000] = '\0';
  same_error(nul, "nul");
  same_error(base + "5 Q0 a 1 1,5 fix\n", "score");
  same_error(base + "5 Q0 a 1 1 other\n", "tag");
  same_error("2 Q0 a 1 x fix\n" + base.substr(0, 100000) + std::string(1, '\0'), "nul-after-error");
  same_error(base.substr(0, 2000000) + "2 Q0 D7 1 1 fix\n", "duplicate");
  same_error(std::string(600000, '\n') + "#comment\n", "comment");
  same_error(std::string(700000, ' '), "blank");

  // The run corpus and regression files: the same results, or the same error.
  for (const std::string sub : {"/tools/cpp/corpus/run", "/tools/cpp/regressions/run"}) {
    for (const auto& f : files_in(g_root + sub)) {
      Context c("streaming files: " + f);
      irtopics::RunResult a, b;
      const auto [streamed, whole] = both_paths(f, a, b);
      CHECK_MSG(streamed == whole, streamed + " vs " + whole);
      CHECK(a.list_id == b.list_id && a.values == b.values && a.profile == b.profile &&
            a.orders == b.orders && a.unknown_topics == b.unknown_topics);
    }
  }
}

void test_streaming() {
  compare_paths(fixtures::small_run_text(), "grouped");
  // Topic 1 comes back after topic 2: not grouped.
  compare_paths("1 Q0 c 1 3.0 fix\n1 Q0 z 2 2.0 fix\n2 Q0 x 1 9 fix\n1 Q0 a 3 2.0 fix\n"
                "7 Q0 a 1 1 fix\n301 Q0 CR93E-1282 1 5 fix\n2 Q0 a 2 8 fix\n1 Q0 b 4 1.5 fix\n",
                "interleaved");
  // Scores not in descending order within a topic.
  compare_paths("1 Q0 a 1 1 fix\n1 Q0 c 2 3 fix\n1 Q0 b 3 2 fix\n1 Q0 d 3 2 fix\n", "unsorted");

  Context ctx("evaluation order and values");
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP), fixtures::measure(MeasureKind::NumRet)};
  opt.want_profiles = true;
  opt.want_orders = true;
  irtopics::EvalWorkspace ws;
  irtopics::RunResult r;
  irtopics::evaluate_run(run_from(fixtures::small_run_text()), q, opt, ws, r);
  // Topics 1, 2, 301 answered; 3 is unknown to the qrels.
  CHECK(r.list_id == (std::vector<std::string>{"1", "2", "301"}));
  CHECK(r.unknown_topics == (std::vector<std::string>{"3"}));
  // Topic 1: c (3.0), then the tie at 2.0 broken by docno descending: z, a;
  // then b, d. Grades 2, not in pool, 1, 0, unjudged.
  CHECK(r.profile.size() == 3 &&
        r.profile[0] == (std::vector<int>{2, irtopics::kNotInPool, 1, 0, irtopics::kUnjudged}));
  // Relevant documents of topic 1 in byte order: a (rank 3), c (rank 1).
  CHECK(r.orders[0] == (std::vector<int>{3, 1}));
  // AP of topic 1: (1/1 + 2/3) / 2
  CHECK_NEAR(r.values[0], (1.0 + 2.0 / 3) / 2, 1e-12);
  // Depth 2 cuts after sorting: a is no longer returned.
  opt.depth = 2;
  irtopics::evaluate_run(run_from(fixtures::small_run_text()), q, opt, ws, r);
  CHECK(r.num_ret[0] == 2 && r.orders[0] == (std::vector<int>{0, 1}));
  CHECK_NEAR(r.values[0], 1.0 / 2, 1e-12);

  // evaluate_empty: -c scores of an unanswered topic.
  const auto empty = irtopics::evaluate_empty(q, opt);
  CHECK(empty.size() == 6 && empty[0] == 0 && empty[1] == 0);

  // A query map sends run topics to qrels topics; an unmapped query is "data".
  std::unordered_map<std::string, std::string> map = {{"q1a", "1"}, {"q1b", "1"}};
  opt.query_map = &map;
  opt.depth = 0;
  irtopics::evaluate_run(run_from("q1a Q0 c 1 1 t\nq1b Q0 a 1 1 t\n"), q, opt, ws, r);
  CHECK(r.topic == (std::vector<int32_t>{0, 0}));
  CHECK_NEAR(r.values[0], 0.5, 1e-12);
  CHECK_INPUT_ERROR(irtopics::evaluate_run(run_from("q1a Q0 c 1 1 t\nq9 Q0 a 1 1 t\n"), q, opt, ws, r),
                    "data", 2);
  opt.query_map = nullptr;

  // Cancellation is checked before each topic.
  struct StopNow : irtopics::CancelToken {
    bool stop_requested() override { return true; }
  } stop;
  opt.cancel = &stop;
  bool cancelled = false;
  try {
    irtopics::evaluate_run(run_from(fixtures::small_run_text()), q, opt, ws, r);
  } catch (const irtopics::Cancelled&) {
    cancelled = true;
  }
  CHECK(cancelled);
}

// ---------------------------------------------------------------------------
// Header-only kernels (those free of R and Eigen)

// ---------------------------------------------------------------------------
// The measure registry (src/measure_table.h): measures by name, never by code

void test_registry() {
  Context ctx("registry");
  using T = irtopics::ParamType;
  auto refused = [](irtopics::MeasureRequest q, const std::string& what) {
    try {
      irtopics::resolve_measure(q);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what()).find(what) != std::string::npos;
    }
    return false;
  };
  // Every record resolves by its name to its own kernel, with and without a
  // cut-off where it takes one; names are unique.
  std::set<std::string> names;
  for (const auto& r : irtopics::kMeasureTable) {
    CHECK_MSG(names.insert(r.name).second, std::string("duplicate name ") + r.name);
    CHECK(irtopics::find_measure(r.name) == &r);
    const double cut = (r.param == T::Cutoff || r.param == T::OptCut) ? 5 : 0;
    const double par = r.param == T::Recall ? 0.5 : r.param == T::Mult ? 1.0 : irtopics::kNoDefault;
    const Measure m = fixtures::named(r.name, cut, par);
    CHECK_MSG(m.kind == (cut > 0 ? r.cut_kind : r.kind), r.name);
    if (r.param == T::OptCut) CHECK_MSG(fixtures::named(r.name).kind == r.kind, r.name);
  }
  CHECK(fixtures::named("AP", 10).kind == MeasureKind::APCut);
  CHECK(fixtures::named("RR", 10).kind == MeasureKind::RRCut);
  CHECK(fixtures::named("ERR", 10).kind == MeasureKind::ERR && fixtures::named("ERR", 10).cutoff == 10);
  CHECK(fixtures::named("ERR").param == 4.0);   // gdeval's largest grade
  CHECK(fixtures::named("SetF").param == 1.0);  // trec_eval's beta
  // Unknown names and parameters a record does not take are refused.
  irtopics::MeasureRequest q;
  q.name = "NoSuchMeasure";
  CHECK(refused(q, "unknown measure"));
  q.name = "ap";  // names are canonical: spellings are R's business
  CHECK(refused(q, "unknown measure"));
  q.name = "P";
  CHECK(refused(q, "needs a cut-off"));
  q.name = "Bpref";
  q.cutoff = 10;
  CHECK(refused(q, "takes no cut-off"));
  q.cutoff = 3e9;
  q.name = "P";
  CHECK(refused(q, "whole number"));
  q.cutoff = 2.5;
  CHECK(refused(q, "whole number"));
  q.cutoff = 0;
  q.name = "nDCG";
  q.rel = 2;
  CHECK(refused(q, "relevance threshold"));
  q.rel = 0;
  q.name = "RBP";
  q.param = 1;
  CHECK(refused(q, "persistence"));
  q.name = "IPrec";
  q.param = 1.5;
  CHECK(refused(q, "recall level"));
  // A kind outside the enum is an exception, not a number.
  irtopics::Measure bad;
  bad.kind = static_cast<MeasureKind>(irtopics::kNumMeasureKinds + 3);
  const int grades[] = {1};
  irtopics::Profile p;
  p.grade = grades;
  p.num_ret = 1;
  p.num_rel = 1;
  std::vector<double> work;
  bool threw = false;
  try {
    irtopics::compute_measure(bad, p, irtopics::Gains(), work);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}

void test_kernels() {
  Context ctx("kernels");
  irtopics::KendallWorkspace kw;
  // One discordant pair (2, 3) among 6: tau = (5 - 1) / 6
  const double x[] = {1, 2, 3, 4}, y[] = {1, 3, 2, 4};
  CHECK_NEAR(kw.tau_b(x, y, 4), 4.0 / 6, 1e-12);
  CHECK_NEAR(kw.tau_a(x, y, 4), 4.0 / 6, 1e-12);
  // A tie in x: S = 2, n0 = 3, one pair tied in x:
  // tau_b = 2 / sqrt((3 - 1) * 3), tau_a = 2 / 3
  const double xt[] = {1, 1, 2}, yt[] = {1, 2, 3};
  CHECK_NEAR(kw.tau_b(xt, yt, 3), 2 / std::sqrt(6.0), 1e-12);
  CHECK_NEAR(kw.tau_a(xt, yt, 3), 2.0 / 3, 1e-12);
  const double rev[] = {4, 3, 2, 1};
  CHECK_NEAR(kw.tau_b(x, rev, 4), -1.0, 1e-12);

  irtopics::TauApWorkspace tw;
  CHECK_NEAR(tw.tau_ap(x, x, 4), 1.0, 1e-12);
  CHECK_NEAR(tw.tau_ap(x, rev, 4), -1.0, 1e-12);
  const double tap = tw.tau_ap(x, y, 4);
  CHECK(tap > -1 && tap < 1);
  const double flat[] = {2, 2, 2, 2};
  CHECK(std::isnan(tw.tau_ap(x, flat, 4)));

  // GAWM on two identical systems: every weight equal, the ease of a topic
  // is its score. Column-major 2 x 3.
  const double p[] = {0.1, 0.1, 0.5, 0.5, 0.9, 0.9};
  const auto g = irtopics::gawm(p, 2, 3, 1.0, 1e-10, 100);
  CHECK(g.converged);
  CHECK(g.topic_ease.size() == 3);
  if (g.topic_ease.size() == 3) {
    CHECK_NEAR(g.topic_ease[0], 0.1, 1e-12);
    CHECK_NEAR(g.topic_ease[2], 0.9, 1e-12);
  }
  CHECK(g.system_conformity.size() == 2 &&
        g.system_conformity[0] == g.system_conformity[1]);
}

// ---------------------------------------------------------------------------
// Regression corpus: each file must be handled or refused with InputError.

std::vector<std::string> files_in(const std::string& dir) {
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

// Runs `body`; InputError is an accepted outcome, any other exception fails.
void expect_handled(const std::string& file, const std::function<void()>& body) {
  std::string other;
  try {
    body();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    other = e.what();
  } catch (...) {
    other = "unknown exception";
  }
  CHECK_MSG(other.empty(), file + ": " + other);
}

void test_regressions() {
  const std::string base = g_root + "/tools/cpp/regressions/";
  long n = 0;
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  opt.measures.push_back(fixtures::measure(MeasureKind::NDCGCut, 10));
  opt.want_profiles = true;
  opt.want_orders = true;
  {
    Context ctx("regressions/run");
    const auto q = qrels_from(fixtures::small_qrels_text());
    for (const auto& f : files_in(base + "run")) {
      ++n;
      expect_handled(f, [&] {
        irtopics::Run run;
        irtopics::RunResult a, b;
        irtopics::EvalWorkspace ws;
        irtopics::read_and_evaluate(f, q, opt, ws, run, a);
        irtopics::read_run_file(f, run);
        irtopics::evaluate_run(run, q, opt, ws, b);
        CHECK_MSG(a.values.size() == b.values.size(), f);
      });
    }
  }
  {
    Context ctx("regressions/qrels");
    const auto fixed = run_from(fixtures::small_run_text());
    for (const auto& f : files_in(base + "qrels")) {
      ++n;
      expect_handled(f, [&] {
        irtopics::Qrels q;
        irtopics::read_qrels_file(f, q);
        irtopics::EvalWorkspace ws;
        irtopics::RunResult r;
        for (int level : {1, 2}) {
          q.prepare(level);
          irtopics::evaluate_run(fixed, q, opt, ws, r);
          irtopics::evaluate_empty(q, opt);
        }
      });
    }
  }
  std::printf("regressions: %ld files\n", n);
}

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

}  // namespace

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
}


// The parallel driver (parallel.h): every item once, the same results for
// any thread count and schedule, a worker's exception rethrown after the
// join, cancellation stopping the loop early. The driver is built with
// OpenMP (see the Makefile), so 2 and more threads really run.
struct SharedCountdown : irtopics::CancelToken {
  explicit SharedCountdown(long n) : left(n) {}
  bool stop_requested() override {
    asked.fetch_add(1);
    return left.fetch_sub(1) <= 0;
  }
  std::atomic<long> left;
  std::atomic<long> asked{0};
};

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
      {"line splitting", test_line_splitting},
      {"qrels lookups", test_qrels_lookups},
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
      {"parallel driver", test_parallel_driver},
      {"copula two-parameter families", test_copula_twopar}};
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
