// trec_eval parity (C++ test driver): the trec_eval test collection
// evaluated here against trec_eval's own printed outputs
// (tests/testthat/fixtures/trec_eval), per topic and for the "all" line, for
// every measure the C++ computes.
#include "driver.h"

// ---------------------------------------------------------------------------
// trec_eval parity

namespace {

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

}  // namespace

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
