// Evaluation of one run; see evaluate.h.
#include "evaluate.h"

#include <algorithm>
#include <numeric>

#include <unistd.h>

namespace irtopics {

namespace {

std::string show_docno(std::string_view s) { return show_field(s); }

// trec_eval order: score descending, then docno descending (strcmp).
struct TrecOrder {
  const Run& run;
  bool operator()(uint32_t a, uint32_t b) const {
    if (run.score[a] != run.score[b]) return run.score[a] > run.score[b];
    return run.docno[a] > run.docno[b];
  }
};

// Evaluates one topic of a run: `first[0..len)` are the indices of its lines
// in file order; `t` its index in run.topics. Appends to `out`.
void evaluate_lines(const Run& run, const uint32_t* first, std::size_t len, std::size_t t,
                    const Qrels& qrels, const EvalOptions& opt, EvalWorkspace& ws,
                    RunResult& out) {
  if (opt.cancel != nullptr && opt.cancel->stop_requested()) throw Cancelled();
  EvalTiming& clock = ws.timing;
  int64_t stamp = steady_ns();
  auto phase_done = [&](EvalTiming::Phase phase) {
    const int64_t t = steady_ns();
    clock.ns[phase] += t - stamp;
    stamp = t;
  };
  const std::size_t n_meas = opt.measures.size();
  const TrecOrder before{run};
  // Map the run's topic (or query) id to a qrels topic.
  const std::string& id = run.topics[t];
  int32_t qt;
  if (opt.query_map != nullptr) {
    auto it = opt.query_map->find(id);
    if (it == opt.query_map->end()) {
      throw InputError("data", run.file, run.line_of(first[0]),
                       "query '" + show_field(id) + "' is not in the query map");
    }
    qt = qrels.find_topic(it->second);
  } else {
    qt = qrels.find_topic(id);
  }
  if (qt < 0) {
    out.unknown_topics.push_back(id);
    return;
  }

  ws.idx.assign(first, first + len);
  // Runs are usually written in score order: one pass finds whether the
  // lines are already in trec_eval order (no sort), in score order with
  // some ties not in docno order (only the groups of tied scores that hold
  // such a pair are sorted: the others are in trec_eval order already), or
  // neither (the whole list is sorted). The pass notes where each tied pair
  // out of docno order is, so that no second pass looks for the groups.
  bool by_score = true;
  std::size_t n_unordered = 0;
  ws.unordered.resize(len);
  for (std::size_t k = 1; k < len; ++k) {
    const double prev = run.score[ws.idx[k - 1]], cur = run.score[ws.idx[k]];
    if (cur > prev) { by_score = false; break; }
    if (cur == prev && !(run.docno[ws.idx[k - 1]] > run.docno[ws.idx[k]])) {
      ws.unordered[n_unordered++] = static_cast<uint32_t>(k);
    }
  }
  if (by_score) {
    // Each noted pair's group of tied scores (all of them: the same groups
    // and the same sort as sorting every group), once.
    std::size_t sorted_to = 0;  // the groups before this position are sorted
    for (std::size_t j = 0; j < n_unordered; ++j) {
      const std::size_t at = ws.unordered[j];
      if (at < sorted_to) continue;
      const double tie = run.score[ws.idx[at]];
      std::size_t a = at - 1, b = at + 1;
      while (a > 0 && run.score[ws.idx[a - 1]] == tie) --a;
      while (b < len && run.score[ws.idx[b]] == tie) ++b;
      std::sort(ws.idx.begin() + a, ws.idx.begin() + b, before);
      sorted_to = b;
    }
  } else {
    std::sort(ws.idx.begin(), ws.idx.end(), before);
  }
  phase_done(EvalTiming::order);

  // Hash every docno once: used for the duplicate check and the lookups.
  ws.hash.resize(len);
  if (run.padded) {
    // The words of docnos of up to 16 bytes are kept for the lookups.
    ws.words.resize(2 * len);
    for (std::size_t k = 0; k < len; ++k) {
      const std::string_view doc = run.docno[ws.idx[k]];
      if (doc.size() > 16) {
        ws.hash[k] = hash_docno(doc);
        continue;
      }
      uint64_t w0, w1;
      load_short(doc.data(), doc.size(), &w0, &w1);
      ws.words[2 * k] = w0;
      ws.words[2 * k + 1] = w1;
      ws.hash[k] = hash_words(w0, w1, doc.size());
    }
  } else {
    for (std::size_t k = 0; k < len; ++k) ws.hash[k] = hash_docno(run.docno[ws.idx[k]]);
  }

  // Duplicate docnos within the topic (over the whole list, before the
  // cut): an open-addressing set of 8-byte cells, each the top 32 bits of a
  // docno's hash over the topic's stamp (a cell holding another stamp is
  // empty, so the set is cleared by stamping), at most a quarter full so
  // that most insertions find their first cell empty (a branch that
  // mispredicts on every collision); the position of each cell's document
  // is read only when its hash bits match.
  {
    std::size_t cap = 16;
    while (cap < len * 4) cap <<= 1;
    if (ws.set.size() < cap) {
      ws.set.assign(cap, 0);
      ws.set_pos.assign(cap, 0);
      ws.stamp = 0;
    }
    if (++ws.stamp == 0) {  // wrapped: clear once every 2^32 topics
      std::fill(ws.set.begin(), ws.set.end(), uint64_t{0});
      ws.stamp = 1;
    }
    const uint64_t mask = cap - 1;
    for (std::size_t k = 0; k < len; ++k) {
      const uint64_t h = ws.hash[k];
      const uint64_t key = ((h >> 32) << 32) | ws.stamp;
      for (uint64_t i = h & mask;; i = (i + 1) & mask) {
        const uint64_t c = ws.set[i];
        if (static_cast<uint32_t>(c) != ws.stamp) {
          ws.set[i] = key;
          ws.set_pos[i] = static_cast<uint32_t>(k);
          break;
        }
        if (c == key) {
          const uint32_t a = ws.idx[ws.set_pos[i]], b = ws.idx[k];
          if (same_bytes(run.docno[a], run.docno[b])) {
            const uint32_t line_a = run.line_of(a), line_b = run.line_of(b);
            const uint32_t later = line_a > line_b ? a : b;
            throw InputError("duplicate", run.file, std::max(line_a, line_b),
                             "document '" + show_docno(run.docno[later]) +
                                 "' is retrieved twice for topic '" + show_field(id) + "' (first on line " +
                                 std::to_string(std::min(line_a, line_b)) + ")");
          }
        }
      }
    }
  }
  phase_done(EvalTiming::hash);

  const long n = opt.depth > 0 ? std::min<long>(static_cast<long>(len), opt.depth)
                               : static_cast<long>(len);
  ws.grades.resize(static_cast<std::size_t>(n));
  std::vector<int> positions;
  if (opt.want_orders) positions.assign(qrels.relevant[qt].size(), 0);
  // The lookups. Each topic's qrels slots are tens of kilobytes that a run
  // touches once, but its control bytes (Qrels, trec_io.h) are 1/32 of that
  // and stay in cache. For a padded run (docnos of up to 16 bytes) a lookup
  // is three steps some documents apart: the control group of document
  // a + kCtrlAhead is requested, document a's control group is compared with
  // its tag (Qrels::probe()) and its candidate slot requested (only a judged
  // docno, or a rare tag collision, has one), and document a - kAhead's
  // candidate is compared with its words (Qrels::settle(), from the words
  // the hashing loaded), all without a branch on whether a document is
  // judged, which is close to a coin toss. (The distances were the best of
  // 16, 24 and 32 on the benchmark.) The documents a probe does not
  // settle (a tag collision or a full group) are looked up in a second pass.
  constexpr long kAhead = 24, kCtrlAhead = 32;
  const bool padded = run.padded;
  const bool orders = opt.want_orders;
  ws.pending.resize(static_cast<std::size_t>(n));
  std::size_t n_pending = 0;
  const Qrels::TopicTable table = qrels.table(qt);
  // The whole probe sequence: sets document k's grade, returns its entry or -1.
  auto look_up = [&](long k, std::string_view doc) -> long {
    const Qrels::Slot* s = qrels.find_slot(table, doc, ws.hash[k]);
    if (s == nullptr) {
      ws.grades[k] = kNotInPool;
      return -1;
    }
    ws.grades[k] = s->grade < 0 ? kUnjudged : s->grade;
    return static_cast<long>(s->entry) - 1;
  };
  if (padded) {
    ws.probes.resize(static_cast<std::size_t>(n));
    for (long a = 0; a < n + kAhead; ++a) {
      if (a + kCtrlAhead < n) IRTOPICS_PREFETCH(table.ctrl + Qrels::home(ws.hash[a + kCtrlAhead], table.mask));
      if (a < n) {
        ws.probes[a] = Qrels::probe(table, ws.hash[a]);
        IRTOPICS_PREFETCH(ws.probes[a].slot);
      }
      const long k = a - kAhead;  // settle document k
      if (k < 0) continue;
      const std::size_t len_k = run.docno[ws.idx[k]].size();
      long e;
      if (len_k <= 16) {
        int g;
        const bool settled = Qrels::settle(ws.probes[k], ws.words[2 * k], ws.words[2 * k + 1], len_k, &e, &g);
        const int judged = -static_cast<int>(e >= 0);  // all ones when judged: no branch
        ws.grades[k] = ((g < 0 ? kUnjudged : g) & judged) | (kNotInPool & ~judged);
        ws.pending[n_pending] = static_cast<uint32_t>(k);
        n_pending += static_cast<std::size_t>(!settled);
        if (!orders || !settled) continue;  // unsettled: set in the second pass
      } else {
        e = look_up(k, run.docno[ws.idx[k]]);
      }
      if (orders && e >= 0 && qrels.rel_index[e] >= 0) positions[qrels.rel_index[e]] = static_cast<int>(k + 1);
    }
  } else {
    for (long k = 0; k < n; ++k) {
      const long e = look_up(k, run.docno[ws.idx[k]]);
      if (orders && e >= 0 && qrels.rel_index[e] >= 0) positions[qrels.rel_index[e]] = static_cast<int>(k + 1);
    }
  }
  for (std::size_t j = 0; j < n_pending; ++j) {
    const long k = ws.pending[j];
    const long e = look_up(k, run.docno[ws.idx[k]]);
    if (orders && e >= 0 && qrels.rel_index[e] >= 0) positions[qrels.rel_index[e]] = static_cast<int>(k + 1);
  }
  phase_done(EvalTiming::lookup);

  Profile p;
  p.grade = ws.grades.data();
  p.num_ret = n;
  p.num_rel = qrels.num_rel[qt];
  p.num_nonrel = qrels.num_nonrel[qt];
  p.levels = &qrels.levels[qt];
  p.relevance_level = qrels.level_of(static_cast<std::size_t>(qt));
  // fractional grades: the topic's own code-to-grade map gives the gains
  const Gains& gains = qrels.fractional ? qrels.topic_gains[qt] : opt.gains;

  out.list_id.push_back(id);
  out.topic.push_back(qt);
  out.num_ret.push_back(n);
  const std::size_t at = out.values.size();
  out.values.resize(at + n_meas);
  if (n_meas) compute_topic_measures(opt.measures, p, gains, ws.cache, ws.judged, out.values.data() + at);
  if (opt.want_profiles) out.profile.emplace_back(ws.grades.begin(), ws.grades.end());
  if (opt.want_orders) out.orders.push_back(std::move(positions));
  phase_done(EvalTiming::measures);
  ++clock.topics;
  clock.lines += static_cast<int64_t>(len);
}

}  // namespace

void evaluate_run(const Run& run, const Qrels& qrels, const EvalOptions& opt,
                  EvalWorkspace& ws, RunResult& out) {
  out = RunResult();
  out.file = run.file;
  out.tag = run.tag;
  const std::size_t n_lines = run.size();
  const std::size_t n_topics = run.topics.size();

  // Group line indices by topic (counting sort, stable in file order).
  ws.start.assign(n_topics + 1, 0);
  for (std::size_t i = 0; i < n_lines; ++i) ++ws.start[run.topic[i] + 1];
  for (std::size_t t = 0; t < n_topics; ++t) ws.start[t + 1] += ws.start[t];
  ws.order.resize(n_lines);
  {
    std::vector<uint32_t> fill(ws.start.begin(), ws.start.end() - 1);
    for (std::size_t i = 0; i < n_lines; ++i) ws.order[fill[run.topic[i]]++] = static_cast<uint32_t>(i);
  }
  for (std::size_t t = 0; t < n_topics; ++t) {
    evaluate_lines(run, ws.order.data() + ws.start[t], ws.start[t + 1] - ws.start[t], t, qrels, opt,
                   ws, out);
  }
}

namespace {

// Charges to `parse` the time of its scope not charged to another phase
// (the lines parsed between the topics evaluated in it).
class ParseClock {
 public:
  explicit ParseClock(EvalTiming& t) : t_(t), start_(steady_ns()), others_(charged()) {}
  ~ParseClock() { t_.ns[EvalTiming::parse] += steady_ns() - start_ - (charged() - others_); }
 private:
  int64_t charged() const {
    int64_t sum = 0;
    for (int k = 0; k < EvalTiming::n_phases; ++k) sum += t_.ns[k];
    return sum;
  }
  EvalTiming& t_;
  const int64_t start_, others_;
};

// The streaming part of evaluate_text() and read_and_evaluate(): evaluates
// each topic's block as soon as it is parsed, while its lines are still in
// cache, and drops its lines, so that memory holds one topic's lines
// however long the run is. Returns false (having evaluated some topics)
// when a topic comes back after another one: the run is not grouped by
// topic and must be evaluated as a whole.
bool evaluate_blocks(RunParser& parser, const Qrels& qrels, const EvalOptions& opt,
                     EvalWorkspace& ws, Run& run, RunResult& out) {
  ParseClock parse_clock(ws.timing);
  parser.time_reads(&ws.timing.ns[EvalTiming::read]);
  out = RunResult();
  out.file = run.file;
  bool seen = false;
  auto evaluate_block = [&](std::size_t len) {
    ws.block.resize(len);
    std::iota(ws.block.begin(), ws.block.end(), 0u);
    evaluate_lines(run, ws.block.data(), len, static_cast<std::size_t>(run.topic[0]), qrels, opt, ws, out);
  };
  // (While next_topic() returns true, the run's vectors may be longer than
  // the parser's lines: parser.size() counts them.)
  while (parser.next_topic(&seen)) {
    if (seen) return false;
    const std::size_t last = parser.size() - 1;  // first line of the new topic
    if (last == 0) continue;
    evaluate_block(last);
    parser.keep_last_line();
  }
  if (run.size() == 0) throw InputError("file", run.file, 0, "the file holds no run lines");
  evaluate_block(run.size());
  out.tag = run.tag;
  return true;
}

}  // namespace

void read_and_evaluate(const std::string& path, const Qrels& qrels, const EvalOptions& opt,
                       EvalWorkspace& ws, Run& run, RunResult& out, std::size_t piece) {
  run.file = path;
  // A plain file is streamed piece by piece (RunParser's second
  // constructor): the pieces stay in cache between the copy from the page
  // cache and the parser, and memory holds a piece instead of the file. A
  // gzip file, a run not grouped by topic and any input error take the
  // whole-file path, which reports errors as it always has.
  const int fd = open_for_streaming(path);
  if (fd >= 0) {
    struct Close {
      int fd;
      ~Close() { ::close(fd); }
    } closer{fd};
    try {
      RunParser parser(run, fd, opt.cancel, piece == 0 ? kStreamPiece : piece);
      if (evaluate_blocks(parser, qrels, opt, ws, run, out)) return;
    } catch (const InputError&) {
      // read again below
    }
  }
  const int64_t t0 = steady_ns();
  read_whole_file(path, run.text, opt.cancel);
  ws.timing.ns[EvalTiming::read] += steady_ns() - t0;
  evaluate_text(qrels, opt, ws, run, out);
}

void evaluate_text(const Qrels& qrels, const EvalOptions& opt, EvalWorkspace& ws, Run& run,
                   RunResult& out) {
  run.text_size = 0;
  // A topic that comes back after another one (a run not grouped by topic)
  // sends us to the general path.
  RunParser parser(run);
  if (evaluate_blocks(parser, qrels, opt, ws, run, out)) return;
  {
    ParseClock parse_clock(ws.timing);
    parse_run(run, opt.cancel);
  }
  evaluate_run(run, qrels, opt, ws, out);
}

std::vector<double> evaluate_empty(const Qrels& qrels, const EvalOptions& opt) {
  const std::size_t n_meas = opt.measures.size();
  std::vector<double> out(qrels.topics.size() * n_meas);
  MeasureCache cache;
  for (std::size_t t = 0; t < qrels.topics.size(); ++t) {
    Profile p;
    p.num_ret = 0;
    p.num_rel = qrels.num_rel[t];
    p.num_nonrel = qrels.num_nonrel[t];
    p.levels = &qrels.levels[t];
    p.relevance_level = qrels.level_of(t);
    const Gains& gains = qrels.fractional ? qrels.topic_gains[t] : opt.gains;
    if (n_meas) compute_missing(opt.measures, p, gains, cache, out.data() + t * n_meas);
  }
  return out;
}

}  // namespace irtopics
