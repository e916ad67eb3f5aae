// Measures and evaluation (C++ test driver): measure kernels on hand-made
// profiles, the measure registry, streaming (evaluate_text, read_and_evaluate)
// against whole-run (evaluate_run) evaluation, and the header-only kernels
// free of R and Eigen (kendall.h, tau_ap.h, leaderboard.h, gawm.h, n25.h,
// stability.h).
#include "driver.h"
#include "judged_only.h"
#include "leaderboard.h"

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

  // Judged documents only (judged_only.h, trec_eval -J): rank 4 (not in the
  // pool) is dropped, leaving grades 1, 0, 1, 2: AP = (1 + 2/3 + 3/4) / 4,
  // NumRet = 4, while the measure without the flag keeps the full list.
  irtopics::MeasureCache cache;
  irtopics::JudgedOnlyWorkspace jws;
  std::vector<irtopics::Measure> ms = {fixtures::measure(MeasureKind::AP), fixtures::measure(MeasureKind::AP),
                                       fixtures::measure(MeasureKind::NumRet)};
  ms[1].judged_only = true;
  ms[2].judged_only = true;
  double out[3];
  irtopics::compute_topic_measures(ms, p, identity, cache, jws, out);
  CHECK_NEAR(out[0], (1.0 + 2.0 / 3 + 3.0 / 5) / 4, tol);
  CHECK_NEAR(out[1], (1.0 + 2.0 / 3 + 3.0 / 4) / 4, tol);
  CHECK_NEAR(out[2], 4.0, tol);
}

// ---------------------------------------------------------------------------
// Streaming against whole-run evaluation

namespace {

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

}  // namespace

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

  // Leaderboard statistics (leaderboard.h): kendall_tau, tau_ap, rbo,
  // spearman, top1, topk_overlap. Names rank 1..4 in item order.
  irtopics::LeaderboardWorkspace lw;
  const int names[] = {1, 2, 3, 4};
  double v[irtopics::kLeaderboardStatistics];
  lw.values(x, x, names, 4, 2, 0.5, v);
  for (double e : v) CHECK_NEAR(e, 1.0, 1e-12);
  // Reversed: orderings 3 2 1 0 and 0 1 2 3; X_d = 0, 0, 2, 4, so with
  // p = 1/2, RBO = (1/2)(2/3 * 1/4 + 4/4 * 1/8) + 1/16 = 5/24.
  lw.values(x, rev, names, 4, 2, 0.5, v);
  CHECK_NEAR(v[0], -1.0, 1e-12);
  CHECK_NEAR(v[1], -1.0, 1e-12);
  CHECK_NEAR(v[2], 5.0 / 24, 1e-12);
  CHECK_NEAR(v[3], -1.0, 1e-12);
  CHECK(v[4] == 0.0 && v[5] == 0.0);
  // One swap (items 2 and 3, positions 2 and 3 of 4): Spearman 1 - 6 * 2 /
  // (4 * 15) = 0.8; top 1 the same; top 2 share one of two.
  lw.values(x, y, names, 4, 2, 0.5, v);
  CHECK_NEAR(v[0], 4.0 / 6, 1e-12);
  CHECK_NEAR(v[3], 0.8, 1e-12);
  CHECK(v[4] == 1.0);
  CHECK_NEAR(v[5], 0.5, 1e-12);
  // A constant reference: correlations NaN; its ordering is by name
  // (0 1 2 3), the candidate's 3 2 1 0.
  lw.values(flat, x, names, 4, 1, 0.5, v);
  CHECK(std::isnan(v[0]) && std::isnan(v[1]) && std::isnan(v[3]));
  CHECK(v[4] == 0.0 && v[5] == 0.0);

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
