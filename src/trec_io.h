// Reading TREC run files ("topic Q0 docno rank score tag") and qrels
// ("topic iter docno rel"), plain or gzip-compressed, into compact C++
// structures. Field rules follow trec_eval 10.0 (get_trec_results.c,
// get_qrels.c): fields are separated by any white space, a run line needs at
// least six fields (extra fields are ignored), a qrels line exactly four; the
// run's rank column is ignored; '\r' is white space, so CRLF files read as LF
// ones. Unlike trec_eval (which uses atof/atol and silently reads garbage as
// 0) a score must be a number (+-inf allowed, NaN refused) and a grade an
// integer, otherwise the line is rejected. Deliberate deviations, each so
// that no input silently changes a number: a leading UTF-8 byte order mark is
// skipped, a line whose first field starts with '#' is refused (trec_eval
// would read a topic "#..."), and so is text holding a NUL byte (a binary
// file).
//
// Pure C++: no R types. Errors are thrown as irtopics::InputError carrying the
// kind of problem, the file and the 1-based line number.
#ifndef IRTOPICS_TREC_IO_H
#define IRTOPICS_TREC_IO_H

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cancel.h"

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

uint64_t hash_docno(std::string_view s);

// A field (topic id, docno, tag) made safe for an error message: bytes that
// are not printable UTF-8 (controls, terminal escape sequences, invalid
// UTF-8) are written \xNN, and the result is cut to about `max_bytes` bytes
// ("..." marks the cut), so a 100 MB id is not echoed in full.
std::string show_field(std::string_view s, std::size_t max_bytes = 60);

// Equality of two short byte strings without a call to memcmp: compares
// 8-byte words (docnos and topic ids are short, and this is on the hot path).
inline bool same_bytes(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, p + i, 8);
    std::memcpy(&y, q + i, 8);
    if (x != y) return false;
  }
  for (; i < n; ++i) if (p[i] != q[i]) return false;
  return true;
}

// NUL bytes kept after the text of a parsed run or qrels (and after the
// docnos of one built from memory): the line splitters load up to 64 bytes
// from any position before the text's final line end (so 63 bytes past it),
// and docno comparisons 16 bytes from any docno's start. With the line end
// the parser may add, a file's buffer is 64 bytes longer than the file.
constexpr std::size_t kTextPadding = 63;

// Equality of two byte strings each followed by at least 16 readable bytes
// (a docno of a padded text): strings of up to 16 bytes are compared as two
// masked 8-byte words, without a branch on their length.
inline bool same_padded(const char* p, const char* q, std::size_t n) {
  if (n > 16) return same_bytes(std::string_view(p, n), std::string_view(q, n));
  uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, p, 8);
  std::memcpy(&a1, p + 8, 8);
  std::memcpy(&b0, q, 8);
  std::memcpy(&b1, q + 8, 8);
  // Bytes 0..n-1 of the 16 count: masks of min(n, 8) and max(n - 8, 0) bytes.
  const unsigned lo = n < 8 ? static_cast<unsigned>(n) : 8u;
  const unsigned hi = static_cast<unsigned>(n) - lo;
  const uint64_t m0 = lo == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * lo)) - 1;
  const uint64_t m1 = hi == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * hi)) - 1;
  return (((a0 ^ b0) & m0) | ((a1 ^ b1) & m1)) == 0;
}

// Reads a whole file, decompressing gzip (magic bytes 1f 8b). Reuses `out`'s
// capacity. Asks `cancel` (if given) every 64 MB of text. Throws
// InputError("file") or Cancelled.
void read_whole_file(const std::string& path, std::string& out, CancelToken* cancel = nullptr);

// One parsed run: per line its topic (index into `topics`), score, docno (a
// view into `text`, which owns the bytes) and line number.
struct Run {
  std::string file;
  std::string tag;                       // run tag of the first line
  std::string text;                      // owns the bytes the views point to
  std::size_t text_size = 0;             // length of `text` without the parser's
                                         // padding; 0 until the parser padded it
  bool padded = false;                   // every docno is followed by kTextPadding
                                         // readable bytes (set by the parser and
                                         // RunBuilder::finish())
  std::vector<std::string> topics;       // distinct topic ids, first-seen order
  std::vector<int32_t> topic;            // per line
  std::vector<double> score;             // per line
  std::vector<std::string_view> docno;   // per line
  std::vector<uint32_t> line;            // per line, 1-based
  std::size_t size() const { return score.size(); }
  void clear();
};

// Parses `run.text` (already filled) into the per-line vectors.
void parse_run(Run& run, CancelToken* cancel = nullptr);  // asks cancel every 2^16 lines

// Line-by-line parser over run.text (which must not change meanwhile):
// each call to next() appends one line to the run's per-line vectors and
// says whether its topic differs from the previous line's and, if so,
// whether that topic was seen before (the file is then not grouped by
// topic). Throws InputError("parse") on a malformed line.
class RunParser {
 public:
  explicit RunParser(Run& run);
  bool next(bool* topic_changed, bool* seen_before);
 private:
  Run& run_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  uint32_t line_no_ = 0;
  std::unordered_map<std::string, int32_t> index_;
  std::string_view last_topic_;
  int32_t last_index_ = -1;
};

// Reads and parses a run file (plain or .gz). Throws InputError.
void read_run_file(const std::string& path, Run& run, CancelToken* cancel = nullptr);

// Adds one line to a run built from memory (R data frames): copies the
// strings. Call finish() once all lines are added.
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

// Largest relevance grade accepted. Grades index per-topic count arrays (as
// trec_eval's relevance levels do), so an absurd grade would allocate absurd
// memory; real collections use grades below 10.
constexpr int kMaxGrade = 1000000;

// Largest total size of the per-topic grade count tables (Qrels::levels), in
// counts (8 bytes each, so 128 MB). kMaxGrade alone bounds one topic, not a
// file: a 5 KB qrels with grade 1e6 in 300 topics made 300 tables of 8 MB
// each (fuzz_qrels: out-of-memory). Real collections need a few per topic.
constexpr std::size_t kMaxLevelCounts = std::size_t{1} << 24;

// Relevance judgements. Topics are kept in first-seen order; each judged
// (topic, docno) pair maps to its grade. Negative grades mean "in the pool
// but unjudged", as in trec_eval.
struct Qrels {
  std::string file;
  std::string text;                      // owns the docno bytes
  bool padded = false;                   // as Run::padded (parse_qrels(), QrelsBuilder)
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
  // One small open-addressing table per topic, so that a run's lookups for a
  // topic stay local. A slot holds the upper 32 bits of the docno hash, the
  // entry index + 1 (0 = empty) and where the docno's bytes are in `text`,
  // so that a lookup touches only the slot and the bytes. Topic t's table is slots[slot_start[t] + (0 .. slot_mask[t])].
  struct Slot {
    uint32_t tag;
    uint32_t entry;
    uint32_t offset;
    uint32_t length;
  };
  std::vector<Slot> slots;
  std::vector<std::size_t> slot_start;
  std::vector<uint64_t> slot_mask;
  std::vector<int32_t> grade_of;         // per entry, compact copy of the grades
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
  long find(int32_t topic, std::string_view docno, uint64_t hash) const {
    const Slot* table = slots.data() + slot_start[topic];
    const uint64_t mask = slot_mask[topic];
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    for (uint64_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = table[i];
      if (s.entry == 0) return -1;
      if (s.tag == tag && s.length == docno.size() &&
          same_bytes(std::string_view(text.data() + s.offset, s.length), docno)) {
        return static_cast<long>(s.entry - 1);
      }
    }
  }
  // The first step of find() without a branch, for a docno of at most 16
  // bytes followed by 16 readable bytes, in padded qrels (`padded`): looks
  // at the first slot of the docno's probe sequence only. Returns true when
  // that settles the lookup, with *entry the entry index or -1 (not
  // judged); false when the slot holds another docno (find() must then
  // walk on).
  bool first_probe(int32_t topic, std::string_view docno, uint64_t hash, long* entry) const {
    const Slot* s = slot_of(topic, hash);
    const bool eq = same_padded(text.data() + s->offset, docno.data(), docno.size());
    const bool hit = eq & (s->tag == static_cast<uint32_t>(hash >> 32)) &
                     (s->length == docno.size()) & (s->entry != 0);
    *entry = hit ? static_cast<long>(s->entry) - 1 : -1;
    return hit | (s->entry == 0);
  }
  // Prefetch hints for a lookup a few documents ahead (evaluate_lines()):
  // the first slot of the docno's probe sequence, and, when that slot holds
  // the docno's tag, the bytes find() will compare and the grade. A topic's table and
  // docnos are tens of kilobytes and each run touches them once per topic,
  // so without the hints nearly every lookup waits for memory twice.
  // Macros, not functions: GCC deems a function whose only effect is a
  // prefetch free of side effects and drops the calls it does not inline.
#if defined(__GNUC__)
#define IRTOPICS_PREFETCH(p) __builtin_prefetch(p)
#else
#define IRTOPICS_PREFETCH(p) ((void)(p))
#endif
  const Slot* slot_of(int32_t topic, uint64_t hash) const {
    return slots.data() + slot_start[topic] + (hash & slot_mask[topic]);
  }
  bool holds_tag(const Slot* s, uint64_t hash) const {
    return s->entry != 0 && s->tag == static_cast<uint32_t>(hash >> 32);
  }
  void build_index();   // after entries are complete; throws on duplicates
};

// Parses qrels text (already in q.text). Throws InputError.
// Both ask `cancel` (if given) every 2^16 lines and throw Cancelled.
void parse_qrels(Qrels& q, CancelToken* cancel = nullptr);
void read_qrels_file(const std::string& path, Qrels& q, CancelToken* cancel = nullptr);

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
