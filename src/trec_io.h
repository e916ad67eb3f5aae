// Reading TREC run files ("topic Q0 docno rank score tag") and qrels
// ("topic iter docno rel"), plain or gzip-compressed, into compact C++
// structures. Field rules follow trec_eval 10.0 (get_trec_results.c,
// get_qrels.c): fields are separated by any white space, a run line needs at
// least six fields (extra fields are ignored), a qrels line exactly four; the
// run's rank column is ignored. Unlike trec_eval (which uses atof/atol and
// silently reads garbage as 0) a score must be a number and a grade an
// integer, otherwise the line is rejected.
//
// Pure C++: no R types. Errors are thrown as irtopics::InputError carrying the
// kind of problem, the file and the 1-based line number.
#ifndef IRTOPICS_TREC_IO_H
#define IRTOPICS_TREC_IO_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace irtopics {

// kind: "file" (missing/unreadable/empty), "parse" (malformed line),
// "duplicate" (docno repeated within a topic), "data" (e.g. a query id with no
// topic in the query map). line = 0 when the problem is not tied to a line.
class InputError : public std::runtime_error {
 public:
  InputError(std::string kind, std::string file, long line, const std::string& what)
      : std::runtime_error(what), kind(std::move(kind)), file(std::move(file)), line(line) {}
  std::string kind, file;
  long line;
};

// Reads a whole file, decompressing gzip transparently (zlib reads plain files
// as they are). Reuses `out`'s capacity. Throws InputError("file").
void read_whole_file(const std::string& path, std::string& out);

// One parsed run: per line its topic (index into `topics`), score, docno (a
// view into `text`, which owns the bytes) and line number.
struct Run {
  std::string file;
  std::string tag;                       // run tag of the first line
  std::string text;                      // owns the bytes the views point to
  std::vector<std::string> topics;       // distinct topic ids, first-seen order
  std::vector<int32_t> topic;            // per line
  std::vector<double> score;             // per line
  std::vector<std::string_view> docno;   // per line
  std::vector<uint32_t> line;            // per line, 1-based
  std::size_t size() const { return score.size(); }
  void clear();
};

// Parses `run.text` (already filled) into the per-line vectors.
void parse_run(Run& run);

// Reads and parses a run file (plain or .gz). Throws InputError.
void read_run_file(const std::string& path, Run& run);

// Adds one line to a run built from memory (R data frames): copies the
// strings. Call finish_run_from_memory() once all lines are added.
class RunBuilder {
 public:
  explicit RunBuilder(Run& run) : run_(run) {}
  void add(std::string_view topic, std::string_view docno, double score, uint32_t line);
  void finish();
 private:
  Run& run_;
  std::unordered_map<std::string, int32_t> index_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;
};

// Relevance judgements. Topics are kept in first-seen order; each judged
// (topic, docno) pair maps to its grade. Negative grades mean "in the pool
// but unjudged", as in trec_eval.
struct Qrels {
  std::string file;
  std::string text;                      // owns the docno bytes
  std::vector<std::string> topics;
  std::unordered_map<std::string, int32_t> topic_index;
  struct Entry {
    uint64_t hash;
    int32_t topic;
    int32_t grade;
    uint32_t line;
    std::string_view docno;
  };
  std::vector<Entry> entries;            // one per qrels line
  // Open-addressing table over `entries` (index + 1; 0 = empty slot).
  std::vector<uint32_t> slots;
  uint64_t mask = 0;
  // Per topic: number of judged documents at each grade 0..max (negative
  // grades not counted, as trec_eval's rel_levels), and the judged docnos
  // of each topic in byte order (for return orders).
  std::vector<std::vector<long>> levels;

  // Filled by prepare(relevance_level), before evaluation:
  int relevance_level = 1;
  std::vector<long> num_rel, num_nonrel;      // per topic
  std::vector<int32_t> rel_index;             // per entry: index among the topic's
                                              // relevant documents (docno byte order), or -1
  std::vector<std::vector<std::string_view>> relevant;  // per topic, byte order
  void prepare(int relevance_level);

  int32_t find_topic(std::string_view id) const;
  // Index into entries of (topic, docno) or -1.
  long find(int32_t topic, std::string_view docno, uint64_t hash) const;
  void build_index();   // after entries are complete; throws on duplicates
};

uint64_t hash_docno(std::string_view s);

// Parses qrels text (already in q.text). Throws InputError.
void parse_qrels(Qrels& q);
void read_qrels_file(const std::string& path, Qrels& q);

// Qrels from memory (R data frames): copies the strings.
class QrelsBuilder {
 public:
  explicit QrelsBuilder(Qrels& q) : q_(q) {}
  void add(std::string_view topic, std::string_view docno, int grade, uint32_t line);
  void finish();
 private:
  Qrels& q_;
  struct Pending { int32_t topic; int32_t grade; std::size_t off, len; uint32_t line; };
  std::vector<Pending> pending_;
};

}  // namespace irtopics

#endif
