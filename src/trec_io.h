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
// Pure C++: no R types. Errors are thrown as irtopics::InputError (errors.h)
// carrying the kind of problem ("file": missing/unreadable/empty, "parse":
// malformed line, "duplicate": docno repeated within a topic, "data": e.g. a
// query id with no topic in the query map), the file and the 1-based line
// number (0 when the problem is not tied to a line).
#ifndef IRTOPICS_TREC_IO_H
#define IRTOPICS_TREC_IO_H

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cancel.h"
#include "errors.h"
#include "measures.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// The run parser's loop has a second copy compiled for AVX2, BMI1 and BMI2
// (RunParser::lines_wide()), taken at run time when the processor has
// them: on x86-64 with GCC or clang only (target attributes and
// __builtin_cpu_supports), not on Windows (where GCC may spill a 32-byte
// register to a stack aligned to 16 bytes only: GCC bug 54412); everywhere
// else, or compiled with -DIRTOPICS_NO_AVX2, the portable loop alone.
#if !defined(IRTOPICS_NO_AVX2) && defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__) && \
    !defined(_WIN32)
#define IRTOPICS_AVX2_PATHS 1
#endif

namespace irtopics {

// Whether run parsers made from now on may take the AVX2 loop (when the
// processor has AVX2, BMI1 and BMI2; true by default): the C++ driver
// parses the same texts with both loops. Returns the previous setting. Not
// for use while parsers are being made on other threads.
bool allow_avx2_paths(bool allow);
// Whether run parsers made now take the AVX2 loop.
bool avx2_paths_active();

uint64_t hash_docno(std::string_view s);

// Steady-clock nanoseconds, for the phase timings of the readers and the
// evaluation (EvalTiming, evaluate.h).
inline int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

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

// Word w (8 bytes loaded from memory) with only its first k bytes in memory
// order kept, the others zero (k in 0..8).
inline uint64_t keep_first_bytes(uint64_t w, unsigned k) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const uint64_t m = k == 0 ? 0 : ~(~uint64_t{0} >> (8 * k));
#else
  // 2^(8k) - 1 without a branch: two shifts of 4k bits each are defined
  // for k = 8 (where one shift of 64 bits would not be) and give 0, so the
  // mask is then all ones.
  const uint64_t m = ((uint64_t{1} << (4 * k)) << (4 * k)) - 1;
#endif
  return w & m;
}

// The first 16 bytes of a string of n <= 16 bytes followed by at least 16
// readable bytes, as two words, zero past its end (no branch on n).
inline void load_short(const char* p, std::size_t n, uint64_t* w0, uint64_t* w1) {
  uint64_t a, b;
  std::memcpy(&a, p, 8);
  std::memcpy(&b, p + 8, 8);
  const unsigned lo = n < 8 ? static_cast<unsigned>(n) : 8u;
  *w0 = keep_first_bytes(a, lo);
  *w1 = keep_first_bytes(b, static_cast<unsigned>(n) - lo);
}

// The hash of a docno of at most 16 bytes from its two words (load_short())
// and length: two independent multiplications and a final avalanche, so
// that the low bits (the table index) depend on every byte.
inline uint64_t hash_words(uint64_t w0, uint64_t w1, std::size_t n) {
  uint64_t h = ((w0 ^ 0x9e3779b97f4a7c15ULL) * 0xbf58476d1ce4e5b9ULL) ^
               ((w1 ^ static_cast<uint64_t>(n)) * 0x94d049bb133111ebULL);
  h ^= h >> 31;
  h *= 0xd6e8feb86659fd93ULL;
  h ^= h >> 32;
  return h;
}

// hash_docno() of a docno followed by at least 16 readable bytes.
inline uint64_t hash_padded(std::string_view s) {
  if (s.size() > 16) return hash_docno(s);
  uint64_t w0, w1;
  load_short(s.data(), s.size(), &w0, &w1);
  return hash_words(w0, w1, s.size());
}

// A short field (a run line's topic id or run tag) kept to compare the
// next lines' with: its length and its first 16 bytes as two words, masked
// to the field's bytes (load_short()), so that the comparison of a field
// followed by at least 16 readable bytes (a view into a padded text) with
// it is a length compare, two loads and a few word operations, without a
// branch on the length (the run parser compares every line's topic and tag
// with the previous line's). Fields of more than 16 bytes are compared
// byte for byte with the kept field's own bytes, which the caller passes.
struct PaddedKey {
  std::size_t n = 0;
  uint64_t w0 = 0, w1 = 0;  // the first 16 bytes, zero past the field's end
  uint64_t m0 = 0, m1 = 0;  // all ones over the field's bytes in each word
  void set(std::string_view f) {
    n = f.size();
    const unsigned k = n < 8 ? static_cast<unsigned>(n) : 8u;
    const unsigned r = n < 16 ? static_cast<unsigned>(n) - k : 8u;
    m0 = keep_first_bytes(~uint64_t{0}, k);
    m1 = keep_first_bytes(~uint64_t{0}, r);
    load_short(f.data(), n < 16 ? n : 16, &w0, &w1);
  }
  // Whether field `f` (followed by 16 readable bytes) equals the kept one,
  // whose bytes are `kept`.
  bool same(std::string_view f, std::string_view kept) const {
    if (f.size() != n) return false;
    if (n > 16) return same_bytes(f, kept);
    uint64_t a0, a1;
    std::memcpy(&a0, f.data(), 8);
    std::memcpy(&a1, f.data() + 8, 8);
    return (((a0 & m0) ^ w0) | ((a1 & m1) ^ w1)) == 0;
  }
};

// Reads a whole file, decompressing gzip (magic bytes 1f 8b). Reuses `out`'s
// capacity. Asks `cancel` (if given) every 64 MB of text. Throws
// InputError("file") or Cancelled.
void read_whole_file(const std::string& path, std::string& out, CancelToken* cancel = nullptr);

// One parsed run: per line its topic (index into `topics`), score, docno (a
// view into `text`, which owns the bytes) and line number. The run parser
// does not store the line numbers (they are read only for error messages,
// and by read_run()): parse_run() fills `line` after the parse, a run built
// from memory (RunBuilder) has them from its caller, and line_of() counts
// them in the text otherwise.
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
  std::vector<uint32_t> line;            // per line, 1-based; empty while the
                                         // run parser fills the other vectors
  std::size_t size() const { return score.size(); }
  // The line number of line i: line[i] when `line` is filled, else one
  // more than the count of line ends in `text` before its docno (the line
  // numbers of the parser, which counts blank lines too).
  uint32_t line_of(std::size_t i) const;
  void clear();
};

// Parses `run.text` (already filled) into the per-line vectors.
void parse_run(Run& run, CancelToken* cancel = nullptr);  // asks cancel every 2^16 lines

// Line-by-line parser over run.text (which must not change meanwhile):
// each call to next() appends one line to the run's per-line vectors and
// says whether its topic differs from the previous line's and, if so,
// whether that topic was seen before (the file is then not grouped by
// topic). Throws InputError("parse") on a malformed line.
//
// The second constructor streams a plain file open on `fd` (see
// open_for_streaming()) through run.text in pieces of `piece` bytes (at
// least 1) instead: the text
// then holds the lines of the topic being read (from the first line whose
// topic differs from the previous line's) and the next piece of the file,
// so the caller must drop the lines of a topic once it changes (as
// evaluate_text() does), and the parser must not meet a topic again. Its
// checks are those of the whole-text parser, except that a NUL byte, a
// byte order mark and the end of the file are seen piece by piece: on any
// InputError the caller reads the file whole and parses it again, so that
// the error reported is the whole-text parser's. A topic whose lines need
// more than kStreamGrowth pieces is an InputError too (read whole).
// Bytes read at a time when a run file is streamed: small enough to stay in
// cache between the kernel's copy and the parser. The buffer grows (by
// doubling) to hold one topic's lines, up to kStreamGrowth pieces.
constexpr std::size_t kStreamPiece = std::size_t{1} << 19;
constexpr std::size_t kStreamGrowth = 128;

//
// The parser writes its lines into the run's topic, score and docno vectors
// with one capacity check a line for the three: the vectors are kept
// longer than the lines parsed (by blocks of lines, zero filled once:
// extend()) and cut to the lines parsed when a call returns, except that
// next_topic() and next_lines() leave them long when they return true: the
// caller then reads size() lines of them (evaluate_blocks(), which calls
// keep_last_line() after each topic), or calls again until false
// (parse_run()). On an error and at the end of the text they are cut too.
class RunParser {
 public:
  explicit RunParser(Run& run);
  RunParser(Run& run, int fd, CancelToken* cancel, std::size_t piece = kStreamPiece);
  bool next(bool* topic_changed, bool* seen_before) { return lines(1, false, topic_changed, seen_before); }
  // Parses lines until one whose topic differs from the previous line's
  // (true: that line is the last one appended, and *seen_before says
  // whether its topic came before) or the end of the text (false): the
  // loop of next() without a call per line.
  bool next_topic(bool* seen_before) {
    bool changed = false;
    return lines(SIZE_MAX, true, &changed, seen_before);
  }
  // Parses up to `max_lines` lines (at least 1); false when the text had
  // none left (parse_run()'s loop; max_lines 1 is next() without the flags).
  bool next_lines(std::size_t max_lines);
  // The lines parsed and not dropped (run.size() may be larger after
  // next_topic()).
  std::size_t size() const { return n_; }
  // Drops every line but the last one parsed, which becomes line 0 (the
  // first line of the topic next_topic() stopped at).
  void keep_last_line();
  // Adds the steady-clock nanoseconds spent in read(2) to *ns (streaming).
  void time_reads(int64_t* ns) { read_ns_ = ns; }
 private:
  bool refill();
  // One line; `Wide`: with the AVX2 line splitter (lines_wide()).
  template <bool Wide>
  bool parse_line(bool* topic_changed, bool* seen_before);
  // The loop of next(), next_topic() and next_lines(): up to `max_lines`
  // lines, and only to the first whose topic changed when `stop_at_topic`.
  bool lines(std::size_t max_lines, bool stop_at_topic, bool* topic_changed, bool* seen_before);
  template <bool Wide>
  bool loop(bool stop_at_topic, bool* topic_changed, bool* seen_before);
#if defined(IRTOPICS_AVX2_PATHS)
  bool lines_wide(bool stop_at_topic, bool* topic_changed, bool* seen_before);
#endif
  // Room for more lines: lengthens the three vectors by a block (at most
  // to stop_), and points the out_ pointers at them.
  void extend();
  // Cuts the three vectors to the n_ lines parsed.
  void trim();
  // n_ and lim_ from the vectors when the caller changed them.
  void sync();
  int32_t* topic_out_ = nullptr;          // run.topic.data() during a call
  double* score_out_ = nullptr;           // run.score.data()
  std::string_view* docno_out_ = nullptr; // run.docno.data()
  std::size_t n_ = 0;        // lines in the vectors (parsed)
  std::size_t lim_ = 0;      // their length during a call (extend())
  std::size_t stop_ = 0;     // the call returns when n_ reaches it
  bool wide_ = false;        // next() and next_topic() take lines_wide()
  PaddedKey tag_key_;        // the run tag (of the first line)
  PaddedKey topic_key_;      // the previous line's topic id (last_topic_)
  int64_t* read_ns_ = nullptr;
  Run& run_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  uint32_t line_no_ = 0;
  std::unordered_map<std::string, int32_t> index_;
  std::string_view last_topic_;
  int32_t last_index_ = -1;
  std::string_view fields_[6];
  // Streaming only:
  int fd_ = -1;
  CancelToken* cancel_ = nullptr;
  std::size_t piece_ = 0;    // bytes read at a time
  std::size_t filled_ = 0;   // bytes of the file in run.text[0, filled_)
  bool eof_ = false;
  bool started_ = false;     // the byte order mark has been looked for
};

// A file descriptor of `path` open for RunParser's streaming when it is a
// regular file that is not empty and not gzip-compressed; -1 otherwise (the
// caller then reads it with read_whole_file(), which says what is wrong).
// The caller closes it.
int open_for_streaming(const std::string& path);

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
// Smallest relevance grade accepted: the int range without its lowest value
// (R's NA_integer_).
constexpr int kMinGrade = -2147483647;

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
  // topic stay local. A slot (32 bytes, two to a 64-byte cache line) holds
  // the entry index + 1 (0 = empty), the docno's length, where its bytes are
  // in `text`, its grade and its first 16 bytes (NUL-padded): a lookup of a
  // docno of up to 16 bytes reads one slot and not the docno bytes.
  // Beside the slots, one control byte per slot (`ctrl`: 0 = empty, else
  // tag(hash), the hash's top 7 bits with the high bit set), so that a
  // lookup first compares the 16 control bytes of a group of slots at once
  // and reads a slot only where the tag matches: a docno that is not judged
  // (most of a run's) is settled by the control bytes alone, which are 1/32
  // of the slots' size (4 KB for a topic of 1,500 judgements, against 128
  // KB of slots) and so stay in cache from run to run.
  // Groups of kGroup slots probed one after the other from the group
  // home(hash); an entry is put in the first empty slot of the first group
  // that has one, and a lookup stops at the first group with an empty slot
  // (there are no deletions, so every group before an entry's stays full).
  // Topic t's table is slots[slot_start[t] + (0 .. slot_mask[t])], its
  // control bytes ctrl[slot_start[t] + (0 .. slot_mask[t])]; at most half
  // of a table's slots are used.
  struct alignas(32) Slot {
    uint32_t entry;
    uint32_t length;
    uint32_t offset;
    int32_t grade;
    char head[16];
  };
  static constexpr uint64_t kGroup = 16;
  std::vector<Slot> slots;
  std::vector<uint8_t> ctrl;
  std::vector<std::size_t> slot_start;
  std::vector<uint64_t> slot_mask;
  std::vector<std::vector<long>> levels;
  // Steady-clock nanoseconds of the reading (read_qrels_file()), parsing,
  // indexing (build_index()) and prepare() of these qrels, for the timing
  // of evaluate() (bench/evaluate.R).
  int64_t ns_read = 0, ns_parse = 0, ns_index = 0, ns_prepare = 0;

  // Fractional grades (autoqrels' floats, a judge's probability of
  // relevance): when any grade of the qrels is not written as an integer,
  // `fractional` is set, `value` holds every entry's grade as written, and
  // each entry's `grade` (and its slot's) is a code instead: the rank of its
  // value among the distinct values >= 0 of its topic (0, 1, ...), or -1 for
  // a negative value (in the pool, unjudged, as in trec_eval). The codes
  // keep the order of the values, so "value >= threshold" is "code >= the
  // topic's level" and every kernel runs unchanged on the codes;
  // topic_gains[t] maps topic t's codes back to the values, which the
  // graded measures take as gains (Gains::grade_values). Integer qrels keep
  // the integer path: `fractional` false, `value` and the rest empty.
  bool fractional = false;
  std::vector<double> value;             // per entry, when fractional
  std::vector<Gains> topic_gains;        // per topic, when fractional
  std::vector<int> topic_level;          // per topic, when fractional: the
                                         // code of the relevance threshold
  // Called once the entries are complete (parse_qrels(), QrelsBuilder).
  void assign_grade_codes();

  // Filled by prepare(threshold), before evaluation: a document is
  // relevant when its grade is >= threshold (integer grades: >=
  // ceil(threshold), trec_eval's -l for a whole threshold).
  int relevance_level = 1;
  double threshold = 1;
  // The relevance level (a grade, or a code) of topic t's profiles.
  int level_of(std::size_t t) const { return fractional ? topic_level[t] : relevance_level; }
  std::vector<long> num_rel, num_nonrel;      // per topic
  std::vector<int32_t> rel_index;             // per entry: index among the topic's
                                              // relevant documents (docno byte order), or -1
  std::vector<std::vector<std::string_view>> relevant;  // per topic, byte order
  void prepare(double threshold);

  int32_t find_topic(std::string_view id) const;

  // A control byte's tag: never 0 (empty).
  static uint8_t tag(uint64_t hash) { return static_cast<uint8_t>(0x80u | (hash >> 57)); }
  // The first slot of the group where a hash's probe sequence starts.
  static uint64_t home(uint64_t hash, uint64_t mask) { return hash & mask & ~(kGroup - 1); }
  // Bit i set when the control byte c[i] (i < 16) equals b.
  static unsigned match_group(const uint8_t* c, uint8_t b) {
#if defined(__SSE2__)
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(b)))));
#else
    unsigned m = 0;
    for (unsigned i = 0; i < kGroup; ++i) m |= static_cast<unsigned>(c[i] == b) << i;
    return m;
#endif
  }
  // The index of the lowest set bit of m != 0.
  static unsigned lowest_bit(unsigned m) {
#if defined(__GNUC__)
    return static_cast<unsigned>(__builtin_ctz(m));
#else
    unsigned i = 0;
    while (!(m & 1u)) {
      m >>= 1;
      ++i;
    }
    return i;
#endif
  }
  // Whether slot s holds `docno` (any length; its bytes past 16 are read
  // from `text`).
  bool slot_holds(const Slot& s, std::string_view docno) const {
    const std::size_t n = docno.size(), h = n < 16 ? n : 16;
    return s.length == n && same_bytes(std::string_view(s.head, h), docno.substr(0, h)) &&
           (n <= 16 || same_bytes(std::string_view(text.data() + s.offset + 16, n - 16), docno.substr(16)));
  }
  // One topic's table, looked up once per ranked list rather than per
  // document (slot_start and slot_mask are read once).
  struct TopicTable {
    const Slot* slots;
    const uint8_t* ctrl;
    uint64_t mask;
  };
  TopicTable table(int32_t topic) const {
    return {slots.data() + slot_start[topic], ctrl.data() + slot_start[topic], slot_mask[topic]};
  }
  // The slot of `docno` in a topic's table, or nullptr when it is not judged.
  const Slot* find_slot(const TopicTable& t, std::string_view docno, uint64_t hash) const {
    const uint8_t want = tag(hash);
    for (uint64_t g = home(hash, t.mask);; g = (g + kGroup) & t.mask) {
      for (unsigned m = match_group(t.ctrl + g, want); m != 0; m &= m - 1) {
        const Slot& s = t.slots[g + lowest_bit(m)];
        if (slot_holds(s, docno)) return &s;
      }
      if (match_group(t.ctrl + g, 0) != 0) return nullptr;
    }
  }
  const Slot* find_slot(int32_t topic, std::string_view docno, uint64_t hash) const {
    return find_slot(table(topic), docno, hash);
  }
  // Index into entries of (topic, docno) or -1.
  long find(int32_t topic, std::string_view docno, uint64_t hash) const {
    const Slot* s = find_slot(topic, docno, hash);
    return s == nullptr ? -1 : static_cast<long>(s->entry - 1);
  }

  // A lookup in two steps without a branch on whether the docno is judged
  // (close to a coin toss in a run), for a caller that looks up many docnos
  // of up to 16 bytes and wants each slot requested from memory well before
  // it is read (evaluate_lines()). probe() reads only the control bytes of
  // the home group: the candidate slot (the first whose tag matches, or the
  // empty kNoSlot) and whether a miss there settles the lookup (no other
  // tag matches and the group has an empty slot). settle() then compares
  // the candidate with the docno's words (load_short()). A lookup that
  // neither settles (a rare tag collision or a full group) is done again
  // with find_slot().
  struct Probe {
    const Slot* slot;
    bool miss_settles;
  };
  static const Slot kNoSlot;
  static Probe probe(const TopicTable& t, uint64_t hash) {
    const uint64_t g = home(hash, t.mask);
    const unsigned m = match_group(t.ctrl + g, tag(hash));
    const unsigned empty = match_group(t.ctrl + g, 0);
    // Selected with masks, not a branch (which mispredicts on every other
    // document): lane 16 (no match) gives a slot of the next group that
    // the mask then replaces with kNoSlot.
    const uintptr_t found = reinterpret_cast<uintptr_t>(t.slots + ((g + lowest_bit(m | 0x10000u)) & t.mask));
    const uintptr_t pick = uintptr_t{0} - static_cast<uintptr_t>(m != 0);
    const Slot* s = reinterpret_cast<const Slot*>((found & pick) | (reinterpret_cast<uintptr_t>(&kNoSlot) & ~pick));
    return {s, static_cast<bool>(static_cast<unsigned>((m & (m - 1)) == 0) & static_cast<unsigned>(empty != 0))};
  }
  // Whether probe p settles the lookup of the docno of n <= 16 bytes whose
  // words are w0, w1; if so, *entry is its entry index or -1 (not judged)
  // and *grade the slot's grade (meaningful when *entry >= 0). No branch:
  // kNoSlot's length (2^32 - 1) is that of no docno of up to 16 bytes.
  static bool settle(const Probe& p, uint64_t w0, uint64_t w1, std::size_t n, long* entry, int* grade) {
    const Slot& s = *p.slot;
    uint64_t h0, h1;
    std::memcpy(&h0, s.head, 8);
    std::memcpy(&h1, s.head + 8, 8);
    const uint64_t hit = static_cast<uint64_t>(((h0 ^ w0) | (h1 ^ w1) | (s.length ^ n)) == 0);
    const uint64_t keep = uint64_t{0} - hit;  // all ones on a hit
    *entry = static_cast<long>(((static_cast<uint64_t>(s.entry) - 1) & keep) | ~keep);
    *grade = s.grade;
    return (hit | static_cast<uint64_t>(p.miss_settles)) != 0;
  }
  // A macro, not a function, for prefetching a slot or control group a
  // few documents ahead (evaluate_lines()): GCC deems a function whose only
  // effect is a prefetch free of side effects and drops the calls it does
  // not inline.
#if defined(__GNUC__)
#define IRTOPICS_PREFETCH(p) __builtin_prefetch(p)
#else
#define IRTOPICS_PREFETCH(p) ((void)(p))
#endif
  // After entries are complete; throws on duplicates. Asks `cancel` (if
  // given) every 2^18 entries (a few hundredths of a second).
  void build_index(CancelToken* cancel = nullptr);
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
  // A fractional grade (any finite value): the qrels become fractional.
  void add_value(std::string_view topic, std::string_view docno, double value, uint32_t line);
  void finish();
 private:
  Qrels& q_;
  struct Pending { int32_t topic; int32_t grade; double value; std::size_t off, len; uint32_t line; };
  bool fractional_ = false;
  std::vector<Pending> pending_;
};

}  // namespace irtopics

#endif
