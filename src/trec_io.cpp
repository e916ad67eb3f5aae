// Readers for TREC runs and qrels; see trec_io.h for the format rules.
#include "trec_io.h"
#include "trec_scan.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>

namespace irtopics {

namespace {

using namespace scan;

// Makes sure the text ends with a line end, so that the scanner (trec_scan.h) needs
// no bounds checks inside a line, and pads it with kTextPadding NUL bytes so
// that a 64-byte load that starts inside the text (so at or before its last
// byte, the line end) stays inside the string.
// Returns the length of the text without the padding.
inline std::size_t terminate_text(std::string& text) {
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  const std::size_t n = text.size();
  text.append(kTextPadding, '\0');
  return n;
}

inline std::string show(std::string_view s) { return show_field(s); }

// Where the lines of `text[0, size)` start: after a UTF-8 byte order mark
// (EF BB BF), if the text begins with one. Windows editors write it; trec_eval
// would read it into the first topic id and so silently make that topic a
// different one.
inline const char* skip_bom(const std::string& text, std::size_t size) {
  const char* p = text.data();
  if (size >= 3 && static_cast<unsigned char>(p[0]) == 0xEF &&
      static_cast<unsigned char>(p[1]) == 0xBB && static_cast<unsigned char>(p[2]) == 0xBF) {
    p += 3;
  }
  return p;
}

// Refuses text that holds a NUL byte: no run or qrels line has one, and the
// scanner would split fields there, so a binary file (an archive, a bzip2
// or zip file: only gzip is decompressed) could otherwise pass as a few odd
// lines. One memchr over the text; the line is counted only on failure.
inline void check_no_nul(const char* begin, const char* end, const std::string& file) {
  const void* nul = std::memchr(begin, '\0', static_cast<std::size_t>(end - begin));
  if (nul == nullptr) return;
  const long line = 1 + std::count(begin, static_cast<const char*>(nul), '\n');
  throw InputError("parse", file, line,
                   "the line holds a NUL byte (is this a binary or compressed file?)");
}

// trec_eval has no comment lines; a line whose first field starts with '#' is
// refused rather than read as a topic named "#...".
inline InputError comment_error(const std::string& file, uint32_t line, const char* format) {
  return InputError("parse", file, line,
                    std::string("comment lines are not part of the ") + format +
                        " format (the line starts with '#')");
}

// Whether [b, e) holds a carriage return followed by a field byte: a run
// line with more than six fields whose "extra fields" are really further
// lines of a file with CR-only line ends (old Mac), which would otherwise be
// read as one line with the rest ignored.
inline bool has_inner_cr(const char* b, const char* e) {
  for (const char* p = b; p < e; ++p) {
    p = static_cast<const char*>(std::memchr(p, '\r', static_cast<std::size_t>(e - p)));
    if (p == nullptr) return false;
    if (p + 1 < e && byte_class(p + 1) == 0) return true;
  }
  return false;
}

// Line numbers are 32-bit (read_run() stores them per line); a file of more lines
// (possible only with billions of blank lines) is refused rather than
// numbered wrongly.
inline InputError too_many_lines(const std::string& file) {
  return InputError("file", file, 0, "the file has more than 4294967295 lines");
}

inline InputError cr_only_error(const std::string& file, uint32_t line) {
  return InputError("parse", file, line,
                    "the line holds a carriage return between fields (are the line ends "
                    "CR only, as in old Mac files?)");
}


// Why parse_double() refused `f`, for the error message.
std::string score_problem(std::string_view f) {
  std::string_view g = f;
  if (!g.empty() && g[0] == '+') g.remove_prefix(1);
  double v;
  const auto r = std::from_chars(g.data(), g.data() + g.size(), v);
  if (r.ec == std::errc::result_out_of_range && r.ptr == g.data() + g.size()) {
    return "the score (5th field) '" + show(f) + "' is out of the range of a double";
  }
  return "the score (5th field) must be a number, not '" + show(f) + "'";
}

bool parse_int(std::string_view f, int* out) {
  const char* b = f.data();
  const char* e = b + f.size();
  if (b < e && *b == '+') {
    ++b;
    if (b < e && *b == '-') return false;
  }
  auto r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr == e;
}

// Whether an integer grade is in the range a qrels may hold: kMinGrade to
// kMaxGrade. The int range alone is not enough: its lowest value,
// -2147483648, is R's NA_integer_, so read_qrels() would return an NA grade
// that the rest of the package drops or refuses.
inline bool grade_in_range(long long grade) { return grade >= kMinGrade && grade <= kMaxGrade; }

std::string grade_range_message(long long grade) {
  return "the relevance grade " + std::to_string(grade) + " is outside the accepted range " +
         std::to_string(kMinGrade) + " to " + std::to_string(kMaxGrade);
}

// The same for a fractional grade (any finite double in the range).
inline bool value_in_range(double v) { return v >= kMinGrade && v <= kMaxGrade; }

std::string value_range_message(std::string_view field) {
  return "the relevance grade " + show(field) + " is outside the accepted range " + std::to_string(kMinGrade) +
         " to " + std::to_string(kMaxGrade);
}

// The index of topic id `id` in `ids`, adding it (and to `index`) when new.
// Sets *added when the id was not seen before.
inline int32_t intern_topic(std::string_view id, std::unordered_map<std::string, int32_t>& index,
                            std::vector<std::string>& ids, bool* added = nullptr) {
  auto it = index.find(std::string(id));
  const bool is_new = it == index.end();
  if (is_new) {
    it = index.emplace(std::string(id), static_cast<int32_t>(ids.size())).first;
    ids.emplace_back(id);
  }
  if (added != nullptr) *added = is_new;
  return it->second;
}

// Inflates the gzip file open on `fd` (whose first two bytes are the gzip
// magic) into `out`, as gzip -d does: concatenated members are read one after
// the other; trailing zero bytes (padding) are ignored; any other bytes after
// the last member are an error (they used to be dropped without a word,
// losing the topics of a plain run appended to a .gz). Memory: the inflated
// text once, without zero fill or doubling slack (the buffer is reserved from
// the size stored in the last member's trailer when that is plausible, then
// grown by half); a NUL byte is refused as soon as it is inflated (a 4 MB
// file of zeros would otherwise inflate to 4 GB first); an allocation
// failure is an InputError naming the file.
void read_gzip(int fd, const std::string& path, std::size_t file_size, std::string& out,
               CancelToken* cancel) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (inflateInit2(&zs, 15 + 16) != Z_OK) throw InputError("file", path, 0, "can't start zlib");
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&zs};
  std::vector<unsigned char> in(std::size_t{1} << 17);
  std::vector<char> chunk(std::size_t{1} << 20);
  bool eof = false;
  auto refill = [&]() {
    if (zs.avail_in > 0 || eof) return;
    const ssize_t got = ::read(fd, in.data(), in.size());
    if (got < 0) throw InputError("file", path, 0, "can't read the file");
    if (got == 0) eof = true;
    zs.next_in = in.data();
    zs.avail_in = static_cast<uInt>(got);
  };
  try {
    // ISIZE, the last member's length mod 2^32, as a first guess, trusted up
    // to 64 times the file's size (text compresses 3-20 times; a file that
    // claims more is grown piece by piece, so a bomb is refused or read
    // before it is given its claimed size).
    unsigned char trailer[4];
    if (file_size >= 18 && ::pread(fd, trailer, 4, static_cast<off_t>(file_size - 4)) == 4) {
      const std::size_t isize = static_cast<std::size_t>(trailer[0]) | (static_cast<std::size_t>(trailer[1]) << 8) |
                                (static_cast<std::size_t>(trailer[2]) << 16) |
                                (static_cast<std::size_t>(trailer[3]) << 24);
      if (isize / 64 <= file_size) out.reserve(isize + 1 + kTextPadding);
    }
    long lines = 1;
    std::size_t since_poll = 0;
    while (true) {
      refill();
      zs.next_out = reinterpret_cast<Bytef*>(chunk.data());
      zs.avail_out = static_cast<uInt>(chunk.size());
      const int rc = inflate(&zs, Z_NO_FLUSH);
      const std::size_t got = chunk.size() - zs.avail_out;
      if (got > 0) {
        const char* nul = static_cast<const char*>(std::memchr(chunk.data(), '\0', got));
        if (nul != nullptr) {
          lines += std::count(out.data(), out.data() + out.size(), '\n') +
                   std::count(static_cast<const char*>(chunk.data()), nul, '\n');
          throw InputError("parse", path, lines,
                           "the line holds a NUL byte (is this a binary or compressed file?)");
        }
        if (out.size() + got > out.capacity()) {
          out.reserve(std::max(out.size() + got, out.capacity() + out.capacity() / 2) + 1 + kTextPadding);
        }
        out.append(chunk.data(), got);
        since_poll += got;
        if (cancel != nullptr && since_poll >= (std::size_t{1} << 20)) {  // every 1 MB
          since_poll = 0;
          if (cancel->stop_requested()) throw Cancelled();
        }
      }
      if (rc == Z_STREAM_END) {
        // Another member, zero padding, or trailing bytes that are not gzip.
        refill();
        if (zs.avail_in == 0 && eof) break;
        if (zs.avail_in == 1 && !eof) {  // the magic may straddle two reads
          const unsigned char first = zs.next_in[0];
          const ssize_t got2 = ::read(fd, in.data() + 1, in.size() - 1);
          if (got2 < 0) throw InputError("file", path, 0, "can't read the file");
          in[0] = first;
          zs.next_in = in.data();
          zs.avail_in = static_cast<uInt>(1 + got2);
          if (got2 == 0) eof = true;
        }
        if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
          if (inflateReset(&zs) != Z_OK) throw InputError("file", path, 0, "can't decompress the file (gzip error)");
          continue;
        }
        // Zero padding (as gzip -d accepts) to the end of the file.
        while (true) {
          const unsigned char* b = zs.next_in;
          for (uInt k = 0; k < zs.avail_in; ++k) {
            if (b[k] != 0) {
              throw InputError("file", path, 0,
                               "the file holds bytes after the end of its gzip data (a plain file "
                               "appended to a gzip file?)");
            }
          }
          zs.avail_in = 0;
          refill();
          if (eof) break;
        }
        break;
      }
      if (rc == Z_BUF_ERROR && zs.avail_in == 0 && eof) {
        throw InputError("file", path, 0, "the gzip stream is truncated");
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw InputError("file", path, 0,
                         std::string("can't decompress the file (") + (zs.msg ? zs.msg : "gzip error") + ")");
      }
    }
  } catch (const std::bad_alloc&) {
    const std::size_t have = out.size();
    out = std::string();
    throw InputError("file", path, 0,
                     "not enough memory to decompress the file (" + std::to_string(have) +
                         " bytes inflated so far)");
  } catch (const std::length_error&) {
    out = std::string();
    throw InputError("file", path, 0, "the decompressed file is too large");
  }
  if (out.empty()) throw InputError("file", path, 0, "the file is empty");
}

}  // namespace

std::string show_field(std::string_view s, std::size_t max_bytes) {
  // Walks the bytes as UTF-8: a valid sequence of a printable character is
  // copied, anything else (C0 and C1 controls, DEL, invalid or truncated
  // sequences) is written \xNN, so that no message carries a terminal escape
  // sequence or bytes R can't turn into a string.
  std::string out;
  const std::size_t n = s.size();
  std::size_t i = 0;
  auto hex = [&](unsigned char c) {
    static const char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
  };
  while (i < n && out.size() < max_bytes) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t len = 0;
    uint32_t cp = 0;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xc0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3f);
    }
    // Overlong forms, surrogates, beyond U+10FFFF, C1 controls, line separators.
    if (ok && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
               (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0) || cp == 0x2028 ||
               cp == 0x2029)) {
      ok = false;
    }
    if (ok) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      hex(c);
      ++i;
    }
  }
  if (i < n) out += "...";
  return out;
}

uint64_t hash_docno(std::string_view s) {
  // Up to 16 bytes (most TREC docnos): hash_words() of the bytes as two
  // zero-filled words. Longer: FNV-1a over 8-byte words then a final
  // avalanche (splitmix64). Both are well mixed for open addressing.
  if (s.size() <= 16) {
    char b[16] = {};
    std::memcpy(b, s.data(), s.size());
    uint64_t w0, w1;
    std::memcpy(&w0, b, 8);
    std::memcpy(&w1, b + 8, 8);
    return hash_words(w0, w1, s.size());
  }
  uint64_t h = 1469598103934665603ULL ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 1099511628211ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = (h ^ w) * 1099511628211ULL;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

void read_whole_file(const std::string& path, std::string& out, CancelToken* cancel) {
  out.clear();
  // Plain files are read with read(2) straight into the reused buffer;
  // gzip files (magic bytes 1f 8b) are decompressed with zlib.
  // O_NONBLOCK: opening a FIFO (say, in a directory of runs) would otherwise
  // wait for a writer forever; it is then refused below as not a regular
  // file. The flag does not change reads of regular files.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd < 0) throw InputError("file", path, 0, "can't open the file");
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw InputError("file", path, 0, "not a regular file");
  }
  unsigned char magic[2] = {0, 0};
  const ssize_t got_magic = ::pread(fd, magic, 2, 0);
  if (!(got_magic == 2 && magic[0] == 0x1f && magic[1] == 0x8b)) {
    const std::size_t size = static_cast<std::size_t>(st.st_size);
    // Room for the parser's padding (a line end and kTextPadding NULs), so that
    // padding does not reallocate, which would briefly hold two copies of the
    // file.
    try {
      out.reserve(size + 1 + kTextPadding);
    } catch (const std::exception&) {  // std::bad_alloc or std::length_error
      ::close(fd);
      throw InputError("file", path, 0, "not enough memory to read the file (" + std::to_string(size) + " bytes)");
    }
    // 16 MB at a time, so that an interrupt is seen while a big file is read
    // (the buffer grows within its capacity: no copy, and the first touch of
    // its pages is spread over the pieces too).
    constexpr std::size_t piece = std::size_t{1} << 24;
    std::size_t used = 0;
    while (used < size) {
      const std::size_t want = std::min(piece, size - used);
      out.resize(used + want);
      const ssize_t got = ::read(fd, &out[used], want);
      if (got < 0) {
        ::close(fd);
        throw InputError("file", path, 0, "can't read the file");
      }
      if (got == 0) break;
      used += static_cast<std::size_t>(got);
      if (cancel != nullptr && cancel->stop_requested()) {
        ::close(fd);
        throw Cancelled();
      }
    }
    // A file that reports size 0 may still have content (/proc files): read
    // it to its end.
    if (size == 0) {
      char piece0[1 << 16];
      while (true) {
        const ssize_t got = ::read(fd, piece0, sizeof piece0);
        if (got < 0) {
          ::close(fd);
          throw InputError("file", path, 0, "can't read the file");
        }
        if (got == 0) break;
        out.append(piece0, static_cast<std::size_t>(got));
      }
      used = out.size();
    }
    ::close(fd);
    out.resize(used);
    if (used == 0) throw InputError("file", path, 0, "the file is empty");
    return;
  }
  try {
    read_gzip(fd, path, static_cast<std::size_t>(st.st_size), out, cancel);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

uint32_t Run::line_of(std::size_t i) const {
  if (line.size() == size()) return line[i];
  const char* const d = docno[i].data();
  return static_cast<uint32_t>(1 + std::count(text.data(), d, '\n'));
}

void Run::clear() {
  padded = false;
  tag.clear();
  topics.clear();
  topic.clear();
  score.clear();
  docno.clear();
  line.clear();
}

namespace {
bool avx2_paths_allowed = true;

bool cpu_has_avx2_paths() {
#if defined(IRTOPICS_AVX2_PATHS)
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  }();
  return has;
#else
  return false;
#endif
}
}  // namespace

bool allow_avx2_paths(bool allow) {
  const bool was = avx2_paths_allowed;
  avx2_paths_allowed = allow;
  return was;
}

bool avx2_paths_active() { return avx2_paths_allowed && cpu_has_avx2_paths(); }

RunParser::RunParser(Run& run) : wide_(avx2_paths_active()), run_(run) {
  run_.clear();
  // The text is padded once; parsing it again (evaluate's fallback path)
  // reuses the padding.
  if (run_.text_size == 0) run_.text_size = terminate_text(run_.text);
  run_.padded = true;
  const std::size_t size = run_.text_size;
  end_ = run_.text.data() + size;
  check_no_nul(run_.text.data(), end_, run_.file);
  p_ = skip_bom(run_.text, size);
  // Most runs have about 40 bytes a line; reserve to avoid regrowth.
  const std::size_t guess = run_.text.size() / 36 + 16;
  run_.topic.reserve(guess);
  run_.score.reserve(guess);
  run_.docno.reserve(guess);
}

// Streaming: the first piece of the file is read by the first next().
RunParser::RunParser(Run& run, int fd, CancelToken* cancel, std::size_t piece)
    : wide_(avx2_paths_active()), run_(run), fd_(fd), cancel_(cancel), piece_(std::max<std::size_t>(piece, 1)) {
  run_.clear();
  run_.text_size = 0;
  run_.padded = true;  // run.text always has kTextPadding + 1 bytes past its pieces
  // Pieces of `piece` bytes, also when the text was left larger (by a topic
  // that did not fit, or by the whole-file path): they stay in cache.
  run_.text.resize(piece_ + kTextPadding + 1);
  p_ = end_ = run_.text.data();
}

int open_for_streaming(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st;
  unsigned char magic[2] = {0, 0};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
      ::pread(fd, magic, 2, 0) < 0 || (magic[0] == 0x1f && magic[1] == 0x8b)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Moves the lines still needed (the current topic's, from the topic field of
// its first line, and the incomplete line at p_) to the front of run.text,
// reads the file on until the text holds another complete line (growing the
// buffer when the needed lines fill it) or the file ends, and sets end_ after
// the last complete line. Returns false at the end of the file.
bool RunParser::refill() {
  if (fd_ < 0 || (eof_ && p_ >= end_ && end_ == run_.text.data() + filled_)) return false;
  char* buf = run_.text.data();
  // (Called within a call of lines(): the docnos parsed are the first n_
  // of run.docno, which may be longer.)
  const char* keep = last_index_ >= 0 && n_ > 0 ? last_topic_.data() : p_;
  const std::size_t from = static_cast<std::size_t>(keep - buf);
  auto rebase = [&](const char* old_base, const char* new_base) {
    std::string_view* const docno = run_.docno.data();
    for (std::size_t i = 0; i < n_; ++i) {
      docno[i] = std::string_view(new_base + (docno[i].data() - old_base), docno[i].size());
    }
    if (last_index_ >= 0) last_topic_ = std::string_view(new_base + (last_topic_.data() - old_base), last_topic_.size());
    p_ = new_base + (p_ - old_base);
  };
  if (from > 0) {
    std::memmove(buf, buf + from, filled_ - from);
    rebase(buf + from, buf);
    filled_ -= from;
  }
  const std::size_t start = static_cast<std::size_t>(p_ - buf);
  while (!eof_) {
    std::size_t cap = run_.text.size() - kTextPadding - 1;
    if (filled_ == cap) {  // one topic's lines fill the buffer: double it
      // ... up to 128 pieces (64 MB by default); a topic larger than that
      // (a run of one huge topic) is read whole instead, so that streaming
      // never needs more memory than the whole-file path.
      if (2 * cap > kStreamGrowth * piece_) {
        throw InputError("file", run_.file, 0, "a topic is larger than the streaming buffer");
      }
      std::string bigger(2 * cap + kTextPadding + 1, '\0');
      std::memcpy(&bigger[0], buf, filled_);
      rebase(buf, bigger.data());
      run_.text.swap(bigger);
      buf = run_.text.data();
      cap = run_.text.size() - kTextPadding - 1;
    }
    const int64_t t0 = steady_ns();
    const ssize_t got = ::read(fd_, buf + filled_, cap - filled_);
    if (read_ns_ != nullptr) *read_ns_ += steady_ns() - t0;
    if (got < 0) throw InputError("file", run_.file, 0, "can't read the file");
    if (got == 0) {
      eof_ = true;
      break;
    }
    const std::size_t n = static_cast<std::size_t>(got);
    if (std::memchr(buf + filled_, '\0', n) != nullptr) {
      throw InputError("parse", run_.file, 0, "the text holds a NUL byte");
    }
    filled_ += n;
    if (cancel_ != nullptr && cancel_->stop_requested()) throw Cancelled();
    if (!started_ && filled_ >= 3) break;  // the byte order mark can be judged
    if (std::memchr(buf + filled_ - n, '\n', n) != nullptr) break;
  }
  if (!started_) {
    started_ = true;
    p_ = skip_bom(run_.text, filled_);
  }
  if (eof_) {
    if (filled_ > start && buf[filled_ - 1] != '\n') buf[filled_++] = '\n';  // room: the +1
    std::memset(buf + filled_, 0, kTextPadding);
    end_ = buf + filled_;
  } else {
    const char* last = buf + filled_;  // after the last line end (the loop found one)
    while (last > buf + start && last[-1] != '\n') --last;
    end_ = last > buf + start ? last : p_;
  }
  return p_ < end_ || refill();
}

// One line, inlined into loop(). `Wide`: the line splitter of the AVX2 loop.
template <bool Wide>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool RunParser::parse_line(bool* topic_changed, bool* seen_before) {
  std::string_view* const f = fields_;  // a member: a local array would be zeroed on every call
  while (p_ < end_ || refill()) {
    if (++line_no_ == 0) throw too_many_lines(run_.file);
    // The fields used: from split_run_line() for the common line (six
    // fields within 64 bytes), else from the general splitters.
    std::string_view topic, docno, score, tag;
    bool split;
#if defined(IRTOPICS_AVX2_PATHS)
    if constexpr (Wide) {
      split = split_run_line_wide(p_, &topic, &docno, &score, &tag, &p_);
    } else
#endif
    {
      split = split_run_line(p_, &topic, &docno, &score, &tag, &p_);
    }
    if (!split) {
      bool extra = false;
      const char* const line_start = p_;
      const int n = split_line(p_, end_, f, 6, &extra, &p_);
      if (n == 0) continue;  // blank line
      if (f[0][0] == '#') throw comment_error(run_.file, line_no_, "run");
      if (n < 6) {
        throw InputError("parse", run_.file, line_no_,
                         "expected 6 fields (topic Q0 docno rank score tag), found " +
                             std::to_string(n));
      }
      if (extra && has_inner_cr(line_start, p_ - 1)) throw cr_only_error(run_.file, line_no_);
      topic = f[0];
      docno = f[2];
      score = f[4];
      tag = f[5];
    } else if (topic[0] == '#') {
      throw comment_error(run_.file, line_no_, "run");
    }
    double s;
    // +-inf are accepted (trec_eval's atof reads them, and they sort first
    // and last); NaN is refused (parse_double()): it has no place in
    // trec_eval's order and would break the sort's strict weak ordering.
    if (!parse_score(score, &s)) throw InputError("parse", run_.file, line_no_, score_problem(score));
    *topic_changed = false;
    *seen_before = false;
    if (last_index_ < 0 || !topic_key_.same(topic, last_topic_)) {
      *topic_changed = true;
      bool added = false;
      last_index_ = intern_topic(topic, index_, run_.topics, &added);
      *seen_before = !added;
      last_topic_ = topic;
      topic_key_.set(topic);
    }
    // One run per file: a second run tag (two runs concatenated, say) would
    // otherwise be merged into the first run's ranked lists.
    // The tag is kept as words (PaddedKey), so that a tag of up to 16
    // bytes compares as two words. Before the first line the key's length
    // is 0, which no tag has: one test a line.
    if (!tag_key_.same(tag, run_.tag)) {
      if (tag_key_.n != 0) {
        throw InputError("parse", run_.file, line_no_,
                         "the run tag '" + show(tag) + "' differs from the first line's '" +
                             show(run_.tag) + "' (one run per file: split the file by tag)");
      }
      run_.tag = std::string(tag);
      tag_key_.set(tag);
    }
    // One capacity check for the three vectors (extend()); the line number
    // is not stored (Run::line_of()).
    if (n_ == lim_) extend();
    topic_out_[n_] = last_index_;
    score_out_[n_] = s;
    docno_out_[n_] = docno;
    ++n_;
    return true;
  }
  return false;
}

void RunParser::extend() {
  // A block of max(1024, n_ / 2) lines, no more than the call needs. The
  // vectors keep their length from one call of next_topic() to the next
  // (keep_last_line()), so the zero fill is paid once per file, not per topic.
  const std::size_t block = std::min(std::max<std::size_t>(1024, n_ / 2), stop_ - n_);
  lim_ = n_ + block;
  run_.topic.resize(lim_);
  run_.score.resize(lim_);
  run_.docno.resize(lim_);
  topic_out_ = run_.topic.data();
  score_out_ = run_.score.data();
  docno_out_ = run_.docno.data();
}

void RunParser::trim() {
  run_.topic.resize(n_);
  run_.score.resize(n_);
  run_.docno.resize(n_);
  lim_ = n_;
}

void RunParser::keep_last_line() {
  if (n_ == 0) return;
  run_.topic[0] = run_.topic[n_ - 1];
  run_.score[0] = run_.score[n_ - 1];
  run_.docno[0] = run_.docno[n_ - 1];
  n_ = 1;
  if (lim_ == run_.score.size()) return;  // as next_topic() left them
  trim();
}

// The loop of one call, inlined into lines() and lines_wide(): the per-line
// loop of evaluate_blocks() then runs inside next_topic() without a call
// per line.
template <bool Wide>
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool RunParser::loop(bool stop_at_topic, bool* topic_changed, bool* seen_before) {
  bool changed = false, seen = false;  // (locals: kept in registers)
  while (parse_line<Wide>(&changed, &seen)) {
    if (n_ == stop_ || (stop_at_topic && changed)) {
      *topic_changed = changed;
      *seen_before = seen;
      return true;
    }
  }
  return false;
}

bool RunParser::lines(std::size_t max_lines, bool stop_at_topic, bool* topic_changed, bool* seen_before) {
  sync();
  topic_out_ = run_.topic.data();
  score_out_ = run_.score.data();
  docno_out_ = run_.docno.data();
  stop_ = max_lines > SIZE_MAX - n_ ? SIZE_MAX : n_ + max_lines;
  // Cut to the lines parsed on an error, at the end of the text, and after
  // next(); next_topic() and next_lines() leave them long while they
  // return true.
  struct Trim {
    RunParser* p;
    bool keep_long;
    ~Trim() { if (!keep_long) p->trim(); }
  } trim{this, false};
  bool more;
#if defined(IRTOPICS_AVX2_PATHS)
  if (wide_) {
    more = lines_wide(stop_at_topic, topic_changed, seen_before);
  } else
#endif
  {
    more = loop<false>(stop_at_topic, topic_changed, seen_before);
  }
  trim.keep_long = more && max_lines > 1;
  return more;
}

void RunParser::sync() {
  // The vectors are as the last call left them (lim_ long, n_ lines), unless
  // the caller changed them: they then hold the lines parsed.
  if (run_.score.size() != lim_ || run_.topic.size() != lim_ || run_.docno.size() != lim_) {
    n_ = lim_ = run_.score.size();
  }
}

bool RunParser::next_lines(std::size_t max_lines) {
  sync();
  const std::size_t before = n_;
  bool changed = false, seen = false;
  lines(std::max<std::size_t>(max_lines, 1), false, &changed, &seen);
  return n_ > before;
}

#if defined(IRTOPICS_AVX2_PATHS)
// The loop compiled for AVX2, BMI1 and BMI2: the line splitter's two
// 32-byte loads (split_run_line_wide()), and everything the loop inlines
// (the field bounds, the score's word arithmetic, the topic and tag
// comparisons) with the bit instructions of BMI (blsr, tzcnt, shlx). One
// function for next(), next_topic() and next_lines(), so that the line
// parser and the splitter, which can't be always_inline here
// (trec_scan.h), have one call site and GCC inlines them (with two, it
// called the splitter). Same results as the portable loop, line for line
// (the C++ driver parses its texts with both).
__attribute__((target("avx2,bmi,bmi2"))) bool RunParser::lines_wide(bool stop_at_topic, bool* topic_changed,
                                                                     bool* seen_before) {
  return loop<true>(stop_at_topic, topic_changed, seen_before);
}
#endif

void parse_run(Run& run, CancelToken* cancel) {
  RunParser parser(run);
  while (parser.next_lines(std::size_t{1} << 16)) {
    if (cancel != nullptr && cancel->stop_requested()) throw Cancelled();
  }
  if (run.score.empty()) throw InputError("file", run.file, 0, "the file holds no run lines");
  // The line numbers (the parser does not store them): the line ends
  // before each docno, counted from the previous docno's.
  run.line.resize(run.size());
  const char* p = run.text.data();
  uint32_t line = 1;
  for (std::size_t i = 0; i < run.size(); ++i) {
    const char* const d = run.docno[i].data();
    while (const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(d - p))) {
      ++line;
      p = static_cast<const char*>(nl) + 1;
    }
    p = d;
    run.line[i] = line;
  }
}

void read_run_file(const std::string& path, Run& run, CancelToken* cancel) {
  run.file = path;
  read_whole_file(path, run.text, cancel);
  run.text_size = 0;
  parse_run(run, cancel);
}

void RunBuilder::add(std::string_view topic, std::string_view docno, double score, uint32_t line) {
  // The R callers refuse NA/NaN scores first; this keeps NaN out of the sort
  // whatever the caller.
  if (std::isnan(score)) throw InputError("data", run_.file, line, "the score is NaN");
  run_.topic.push_back(intern_topic(topic, index_, run_.topics));
  run_.score.push_back(score);
  spans_.emplace_back(run_.text.size(), docno.size());
  run_.text.append(docno.data(), docno.size());
  run_.line.push_back(line);
}

void RunBuilder::finish() {
  // Views are made once the text no longer moves.
  run_.text.append(kTextPadding, '\0');
  run_.padded = true;
  run_.docno.clear();
  run_.docno.reserve(spans_.size());
  for (const auto& sp : spans_) run_.docno.emplace_back(run_.text.data() + sp.first, sp.second);
}

int32_t Qrels::find_topic(std::string_view id) const {
  auto it = topic_index.find(std::string(id));
  return it == topic_index.end() ? -1 : it->second;
}

const Qrels::Slot Qrels::kNoSlot = {0, 0xffffffffu, 0, 0, {}};  // empty; matches no docno (settle())

void Qrels::build_index(CancelToken* cancel) {
  const std::size_t nt = topics.size();
  std::vector<std::size_t> count(nt, 0);
  for (const Entry& e : entries) ++count[e.topic];
  slot_start.assign(nt, 0);
  slot_mask.assign(nt, 0);
  std::size_t total = 0;
  for (std::size_t t = 0; t < nt; ++t) {
    std::size_t cap = kGroup;
    while (cap < count[t] * 2) cap <<= 1;
    slot_start[t] = total;
    slot_mask[t] = cap - 1;
    total += cap;
  }
  slots.assign(total, Slot{0, 0, 0, 0, {}});
  ctrl.assign(total, 0);
  levels.assign(nt, std::vector<long>());
  if (text.size() > 0xffffffffULL || entries.size() >= 0xffffffffULL) {
    throw InputError("file", file, 0, "the qrels are too large (over 4 GB)");
  }
  std::size_t level_counts = 0;  // total size of the `levels` tables (kMaxLevelCounts)
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (cancel != nullptr && (k & 0x3ffff) == 0x3ffff && cancel->stop_requested()) throw Cancelled();
    const Entry& e = entries[k];
    const std::size_t at = slot_start[e.topic];
    const TopicTable t{slots.data() + at, ctrl.data() + at, slot_mask[e.topic]};
    if (const Slot* o = find_slot(t, e.docno, e.hash)) {
      const Entry& first = entries[o->entry - 1];
      throw InputError("duplicate", file, e.line,
                       "document '" + show(e.docno) + "' is judged twice for topic '" +
                           show(topics[e.topic]) + "' (first on line " + std::to_string(first.line) + ")");
    }
    // The first empty slot of the first group that has one (find_slot()
    // stops there). At most half the slots are used, so there is one.
    for (uint64_t g = home(e.hash, t.mask);; g = (g + kGroup) & t.mask) {
      const unsigned empty = match_group(t.ctrl + g, 0);
      if (empty == 0) continue;
      const std::size_t i = at + g + lowest_bit(empty);
      Slot& s = slots[i];
      s.entry = static_cast<uint32_t>(k + 1);
      s.offset = static_cast<uint32_t>(e.docno.data() - text.data());
      s.length = static_cast<uint32_t>(e.docno.size());
      s.grade = e.grade;
      std::memcpy(s.head, e.docno.data(), std::min<std::size_t>(e.docno.size(), sizeof s.head));
      ctrl[i] = tag(e.hash);
      break;
    }
    if (e.grade >= 0) {
      auto& lv = levels[e.topic];
      if (lv.size() <= static_cast<std::size_t>(e.grade)) {
        level_counts += static_cast<std::size_t>(e.grade) + 1 - lv.size();
        if (level_counts > kMaxLevelCounts) {
          throw InputError("data", file, e.line,
                           "the relevance grades are too large for this many topics (up to grade " +
                               std::to_string(e.grade) + " in topic '" + show(topics[e.topic]) +
                               "'): their count tables would exceed " +
                               std::to_string(kMaxLevelCounts) + " entries");
        }
        lv.resize(e.grade + 1, 0);
      }
      ++lv[e.grade];
    }
  }
}

void Qrels::assign_grade_codes() {
  const std::size_t nt = topics.size();
  std::vector<std::vector<double>> vals(nt);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (value[k] >= 0) vals[entries[k].topic].push_back(value[k]);
  }
  topic_gains.assign(nt, Gains());
  for (std::size_t t = 0; t < nt; ++t) {
    auto& v = vals[t];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    topic_gains[t].by_grade = std::move(v);
    topic_gains[t].grade_values = true;
  }
  for (std::size_t k = 0; k < entries.size(); ++k) {
    Entry& e = entries[k];
    if (value[k] < 0) {
      e.grade = -1;
    } else {
      const auto& v = topic_gains[e.topic].by_grade;
      e.grade = static_cast<int32_t>(std::lower_bound(v.begin(), v.end(), value[k]) - v.begin());
    }
  }
}

void Qrels::prepare(double thr) {
  const int64_t t0 = steady_ns();
  threshold = thr;
  const std::size_t nt = topics.size();
  if (fractional) {
    topic_level.assign(nt, 0);
    for (std::size_t t = 0; t < nt; ++t) {
      const auto& v = topic_gains[t].by_grade;
      topic_level[t] = static_cast<int>(std::lower_bound(v.begin(), v.end(), thr) - v.begin());
    }
  } else {
    // integer grades: grade >= thr is grade >= ceil(thr)
    const double c = std::ceil(thr);
    relevance_level = c >= static_cast<double>(std::numeric_limits<int>::max())
                          ? std::numeric_limits<int>::max()
                          : (c <= static_cast<double>(std::numeric_limits<int>::min() + 1)
                                 ? std::numeric_limits<int>::min() + 1
                                 : static_cast<int>(c));
  }
  num_rel.assign(nt, 0);
  num_nonrel.assign(nt, 0);
  relevant.assign(nt, std::vector<std::string_view>());
  rel_index.assign(entries.size(), -1);
  std::vector<std::vector<uint32_t>> by_topic(nt);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    const int level = level_of(static_cast<std::size_t>(e.topic));
    if (e.grade >= level) {
      ++num_rel[e.topic];
      by_topic[e.topic].push_back(static_cast<uint32_t>(k));
    } else if (e.grade >= 0) {
      ++num_nonrel[e.topic];
    }
  }
  for (std::size_t t = 0; t < nt; ++t) {
    auto& ks = by_topic[t];
    std::sort(ks.begin(), ks.end(), [&](uint32_t a, uint32_t b) { return entries[a].docno < entries[b].docno; });
    relevant[t].reserve(ks.size());
    for (std::size_t r = 0; r < ks.size(); ++r) {
      rel_index[ks[r]] = static_cast<int32_t>(r);
      relevant[t].push_back(entries[ks[r]].docno);
    }
  }
  ns_prepare += steady_ns() - t0;
}

void parse_qrels(Qrels& q, CancelToken* cancel) {
  const int64_t t0 = steady_ns();
  q.topics.clear();
  q.topic_index.clear();
  q.entries.clear();
  q.fractional = false;
  q.value.clear();
  q.topic_gains.clear();
  q.topic_level.clear();
  const std::size_t size = terminate_text(q.text);
  const char* const end = q.text.data() + size;
  check_no_nul(q.text.data(), end, q.file);
  const char* p = skip_bom(q.text, size);
  q.entries.reserve(q.text.size() / 16 + 16);
  std::string_view last_topic;
  int32_t last_index = -1;
  uint32_t line_no = 0;
  std::string_view f[4];
  while (p < end) {
    if (++line_no == 0) throw too_many_lines(q.file);
    if (cancel != nullptr && (line_no & 0xffff) == 0 && cancel->stop_requested()) throw Cancelled();
    bool extra = false;
    const char* const line_start = p;
    const int n = split_line(p, end, f, 4, &extra, &p);
    if (n == 0) continue;
    if (f[0][0] == '#') throw comment_error(q.file, line_no, "qrels");
    if (extra && has_inner_cr(line_start, p - 1)) throw cr_only_error(q.file, line_no);
    if (n != 4 || extra) {
      throw InputError("parse", q.file, line_no,
                       std::string("expected 4 fields (topic iter docno rel), found ") +
                           (extra ? "more" : std::to_string(n)));
    }
    int grade;
    if (parse_int(f[3], &grade)) {
      if (!grade_in_range(grade)) throw InputError("parse", q.file, line_no, grade_range_message(grade));
      if (q.fractional) q.value.push_back(static_cast<double>(grade));
    } else {
      // A fractional grade (autoqrels, a judge's probability of relevance):
      // a finite decimal number; the qrels become fractional (Qrels).
      double v;
      if (!scan::parse_double(f[3], &v) || !std::isfinite(v)) {
        throw InputError("parse", q.file, line_no,
                         "the relevance grade (4th field) must be an integer or a finite decimal number, not '" +
                             show(f[3]) + "'");
      }
      if (!value_in_range(v)) throw InputError("parse", q.file, line_no, value_range_message(f[3]));
      if (!q.fractional) {
        q.fractional = true;
        q.value.reserve(q.entries.capacity());
        for (const Qrels::Entry& e : q.entries) q.value.push_back(static_cast<double>(e.grade));
      }
      q.value.push_back(v);
      grade = 0;  // a code, set by assign_grade_codes()
    }
    if (last_index < 0 || !same_bytes(f[0], last_topic)) {
      last_index = intern_topic(f[0], q.topic_index, q.topics);
      last_topic = f[0];
    }
    q.entries.push_back({hash_padded(f[2]), last_index, grade, line_no, f[2]});
  }
  if (q.entries.empty()) throw InputError("file", q.file, 0, "the file holds no qrels lines");
  if (q.fractional) q.assign_grade_codes();
  const int64_t t1 = steady_ns();
  q.ns_parse += t1 - t0;
  q.build_index(cancel);
  q.ns_index += steady_ns() - t1;
}

void read_qrels_file(const std::string& path, Qrels& q, CancelToken* cancel) {
  q.file = path;
  const int64_t t0 = steady_ns();
  read_whole_file(path, q.text, cancel);
  q.ns_read += steady_ns() - t0;
  parse_qrels(q, cancel);
}

void QrelsBuilder::add(std::string_view topic, std::string_view docno, int grade, uint32_t line) {
  pending_.push_back({intern_topic(topic, q_.topic_index, q_.topics), grade, static_cast<double>(grade),
                      q_.text.size(), docno.size(), line});
  q_.text.append(docno.data(), docno.size());
}

void QrelsBuilder::add_value(std::string_view topic, std::string_view docno, double value, uint32_t line) {
  if (!std::isfinite(value)) {
    throw InputError("data", q_.file, line, "the relevance grade must be a finite number");
  }
  if (!value_in_range(value)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value);
    throw InputError("data", q_.file, line, value_range_message(buf));
  }
  fractional_ = true;
  pending_.push_back({intern_topic(topic, q_.topic_index, q_.topics), 0, value, q_.text.size(), docno.size(),
                      line});
  q_.text.append(docno.data(), docno.size());
}

void QrelsBuilder::finish() {
  q_.entries.clear();
  q_.entries.reserve(pending_.size());
  for (const auto& p : pending_) {
    if (!fractional_ && !grade_in_range(p.grade)) {
      throw InputError("data", q_.file, p.line, grade_range_message(p.grade));
    }
    std::string_view d(q_.text.data() + p.off, p.len);
    q_.entries.push_back({hash_docno(d), p.topic, p.grade, p.line, d});
  }
  if (q_.entries.empty()) throw InputError("data", q_.file, 0, "the qrels hold no judgements");
  q_.fractional = fractional_;
  if (fractional_) {
    q_.value.clear();
    q_.value.reserve(pending_.size());
    for (const auto& p : pending_) q_.value.push_back(p.value);
    q_.assign_grade_codes();
  }
  q_.build_index();
}

}  // namespace irtopics
