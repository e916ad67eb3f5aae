// Evaluation of one run against qrels, as trec_eval does it (form_res_rels.c):
// a topic's retrieved documents are ordered by score, highest first, ties
// broken by docno in descending byte order (the rank column is ignored), the
// list is cut at `depth` (trec_eval -M), and each document gets its qrels
// grade (kNotInPool when not judged, kUnjudged for negative grades).
// Produces, per answered topic, the requested measures, and optionally the
// grade profile and the positions of the topic's relevant documents
// (Liggett & Buckley's return orders; 0 = not returned).
//
// Pure C++: no R types.
#ifndef IRTOPICS_EVALUATE_H
#define IRTOPICS_EVALUATE_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "judged_only.h"
#include "measures.h"
#include "trec_io.h"

namespace irtopics {

struct EvalOptions {
  long depth = 1000;                  // <= 0: no cut
  std::vector<Measure> measures;
  Gains gains;
  bool want_profiles = false;
  bool want_orders = false;
  // Optional query map: a run's topic field is a query id; map it to a qrels
  // topic id. Queries absent from the map are an error ("data").
  const std::unordered_map<std::string, std::string>* query_map = nullptr;
  CancelToken* cancel = nullptr;      // optional
};

struct RunResult {
  std::string file, tag;
  std::vector<std::string> list_id;      // the run's topic field (query id)
  std::vector<int32_t> topic;            // qrels topic index of each list
  std::vector<double> values;            // list-major: values[l * n_measures + m]
  std::vector<std::vector<int>> profile; // per list, when want_profiles
  std::vector<std::vector<int>> orders;  // per list, when want_orders: position of
                                         // each relevant document (0 = not returned)
  std::vector<long> num_ret;             // per list, after the depth cut
  std::vector<std::string> unknown_topics;  // run topics absent from the qrels
};

// Where one thread's evaluation time goes: steady-clock nanoseconds summed
// over the runs it evaluated, stamped per topic and per piece read (a few
// clock reads per topic: well under 1% of the time), so it is always kept.
// `read` is the kernel's copy of the file (read(2) of the streamed pieces,
// or the whole-file read of a gzip or ungrouped run); `parse` the line
// splitting and score parsing around it; `order` finding the topic in the
// qrels, the score-order check and the sort; `hash` docno hashing and the duplicate check; `lookup`
// the qrels lookups; `measures` the measures and storing the values.
struct EvalTiming {
  enum Phase { read, parse, order, hash, lookup, measures, n_phases };
  int64_t ns[n_phases] = {};
  int64_t topics = 0, lines = 0;
};

// Scratch buffers reused across runs by one thread.
struct EvalWorkspace {
  std::vector<uint32_t> start, order, idx, block, pending;
  std::vector<uint32_t> unordered;  // positions of tied pairs out of docno order
  std::vector<uint64_t> hash;
  std::vector<uint64_t> words;  // per document of a padded run: its docno's two
                                // words (load_short()), 2k and 2k + 1
  std::vector<Qrels::Probe> probes;  // per document of a padded run: its qrels probe
  std::vector<uint64_t> set;      // the duplicate check's cells (evaluate_lines())
  std::vector<uint32_t> set_pos;  // the position of each cell's document
  uint32_t stamp = 0;
  std::vector<int> grades;
  std::vector<double> work;
  MeasureCache cache;
  JudgedOnlyWorkspace judged;  // measures with judged_only (judged_only.h)
  EvalTiming timing;  // accumulated over every run this workspace evaluated
};

// `qrels` must have been prepare()d. Throws InputError ("duplicate", "data").
void evaluate_run(const Run& run, const Qrels& qrels, const EvalOptions& opt,
                  EvalWorkspace& ws, RunResult& out);

// Reads a run file and evaluates it, streaming topic by topic when the file
// is grouped by topic (the usual case); the same results as read_run_file()
// followed by evaluate_run(). A plain file is read in pieces of `piece`
// bytes (0: kStreamPiece; tests use tiny pieces). Throws InputError.
void read_and_evaluate(const std::string& path, const Qrels& qrels, const EvalOptions& opt,
                       EvalWorkspace& ws, Run& run, RunResult& out, std::size_t piece = 0);

// The same on a run whose text is already in run.text (run.file names it in
// errors): the topic-by-topic part of read_and_evaluate().
void evaluate_text(const Qrels& qrels, const EvalOptions& opt, EvalWorkspace& ws, Run& run,
                   RunResult& out);

// The measures of a topic the run did not answer, for every qrels topic
// (topic-major), as trec_eval -c scores it (compute_missing()).
std::vector<double> evaluate_empty(const Qrels& qrels, const EvalOptions& opt);

}  // namespace irtopics

#endif
