// libFuzzer target: bytes as the text of a qrels file. A qrels that parses is
// prepared at relevance levels 1 and 2 and used to evaluate a fixed small run
// and a run made of its own judged documents (AP, nDCG, nDCG@10, bpref and
// the rest). The same judgements are then rebuilt through QrelsBuilder (the
// path R data frames take) and must give identical values: a differential
// check that traps on a mismatch. InputError is an expected outcome; any
// other exception escapes and is reported as a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

namespace {

using irtopics::MeasureKind;

std::vector<irtopics::Measure> qrels_measures() {
  auto m = fixtures::all_measures();
  m.push_back(fixtures::measure(MeasureKind::NDCGCut, 10));
  return m;
}

// A run retrieving every judged document of `q`, in reverse file order
// (so that the ranking is not the qrels order), plus one unjudged document
// per topic.
void run_of_judged(const irtopics::Qrels& q, irtopics::Run& run) {
  run.file = "judged";
  irtopics::RunBuilder b(run);
  const std::size_t n = q.entries.size();
  for (std::size_t k = 0; k < n; ++k) {
    const auto& e = q.entries[k];
    b.add(q.topics[e.topic], e.docno, static_cast<double>(k), static_cast<uint32_t>(k + 1));
  }
  for (std::size_t t = 0; t < q.topics.size(); ++t) {
    b.add(q.topics[t], "\x01unjudged", -1.0, static_cast<uint32_t>(n + t + 1));
  }
  b.finish();
}

// Evaluates `run` against `q` at levels 1 and 2; appends every value and the
// profiles and orders to `out`.
void evaluate_levels(irtopics::Qrels& q, const irtopics::Run& run, std::vector<double>& out,
                     std::vector<std::vector<int>>& lists) {
  irtopics::EvalOptions opt;
  opt.measures = qrels_measures();
  opt.depth = 0;
  opt.want_profiles = true;
  opt.want_orders = true;
  irtopics::EvalWorkspace ws;
  for (int level : {1, 2}) {
    q.prepare(level);
    irtopics::RunResult r;
    irtopics::evaluate_run(run, q, opt, ws, r);
    out.insert(out.end(), r.values.begin(), r.values.end());
    for (auto& p : r.profile) lists.push_back(p);
    for (auto& o : r.orders) lists.push_back(o);
    const auto empty = irtopics::evaluate_empty(q, opt);
    out.insert(out.end(), empty.begin(), empty.end());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static irtopics::Run* fixed = [] {
    auto* r = new irtopics::Run();
    r->file = "fixed";
    r->text = fixtures::small_run_text();
    irtopics::parse_run(*r);
    return r;
  }();

  irtopics::Qrels parsed;
  parsed.file = "fuzz";
  parsed.text.assign(reinterpret_cast<const char*>(data), size);
  try {
    irtopics::parse_qrels(parsed);
  } catch (const irtopics::InputError&) {
    return 0;
  }

  irtopics::Run judged;
  run_of_judged(parsed, judged);

  std::vector<double> va;
  std::vector<std::vector<int>> la;
  evaluate_levels(parsed, *fixed, va, la);
  evaluate_levels(parsed, judged, va, la);

  // The same judgements through the builder; it must accept what the parser
  // accepted and reproduce every value.
  irtopics::Qrels built;
  built.file = "built";
  {
    irtopics::QrelsBuilder b(built);
    for (std::size_t k = 0; k < parsed.entries.size(); ++k) {
      const auto& e = parsed.entries[k];
      // fractional qrels hold codes in `grade`: the builder takes the values
      if (parsed.fractional) {
        b.add_value(parsed.topics[e.topic], e.docno, parsed.value[k], e.line);
      } else {
        b.add(parsed.topics[e.topic], e.docno, e.grade, e.line);
      }
    }
    b.finish();
  }
  if (built.topics != parsed.topics) __builtin_trap();
  std::vector<double> vb;
  std::vector<std::vector<int>> lb;
  evaluate_levels(built, *fixed, vb, lb);
  evaluate_levels(built, judged, vb, lb);
  if (!fuzzing::same_values(va, vb) || la != lb) __builtin_trap();
  return 0;
}
