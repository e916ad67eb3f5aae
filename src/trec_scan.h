// The scanning of TREC text lines (white-space field splitting) and the
// parsing of run scores, shared by the run and qrels parsers of
// trec_io.cpp. Every function here may read past the line it is given: the
// texts it scans are padded (kTextPadding, trec_io.h). Only trec_io.cpp
// includes it: its functions have internal linkage (an unnamed namespace),
// so that the compiler inlines parse_double() into its one caller, the run
// parser's loop, as it did when they were in the same file.
//
// Pure C++: no R types.
#ifndef IRTOPICS_TREC_SCAN_H
#define IRTOPICS_TREC_SCAN_H

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(IRTOPICS_AVX2_PATHS)
#include <immintrin.h>
#endif

namespace irtopics {
namespace scan {
namespace {

// Byte classes for the field scanner: 1 = white space as trec_eval's
// isspace() sees it (minus the line end), 2 = line end, 0 = field byte.
struct ByteClass {
  unsigned char t[256];
  constexpr ByteClass() : t() {
    t[static_cast<unsigned char>(' ')] = 1;
    t[static_cast<unsigned char>('\t')] = 1;
    t[static_cast<unsigned char>('\r')] = 1;
    t[static_cast<unsigned char>('\v')] = 1;
    t[static_cast<unsigned char>('\f')] = 1;
    t[static_cast<unsigned char>('\n')] = 2;
  }
};
constexpr ByteClass kClass;
inline unsigned char byte_class(const char* p) { return kClass.t[static_cast<unsigned char>(*p)]; }

// The end of the field starting at p: the first white-space byte (including
// the line end). With SSE2 (every x86-64), 16 bytes at a time: field lengths
// vary from line to line, and a byte-at-a-time loop mispredicts its exit.
inline const char* field_end(const char* p) {
#if defined(__SSE2__)
  const __m128i nine = _mm_set1_epi8(9), four = _mm_set1_epi8(4), space = _mm_set1_epi8(' ');
  while (true) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i x = _mm_sub_epi8(v, nine);                       // 9..13 -> 0..4
    const __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, four), x);  // \t \n \v \f \r
    const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(ctl, _mm_cmpeq_epi8(v, space))));
    if (m != 0) return p + __builtin_ctz(m);
    p += 16;
  }
#else
  while (byte_class(p) == 0) ++p;
  return p;
#endif
}

// Splits the line starting at p (the text must end with '\n') into at most
// `max_fields` white-space separated fields. Sets *next to the start of the
// next line and *extra when there are more than max_fields fields.
inline int split_line(const char* p, const char* end, std::string_view* fields, int max_fields,
                      bool* extra, const char** next) {
  int n = 0;
  *extra = false;
  while (true) {
    while (byte_class(p) == 1) ++p;
    if (*p == '\n') break;
    const char* start = p;
    p = field_end(p);
    if (n == max_fields) {
      *extra = true;
      break;
    }
    fields[n++] = std::string_view(start, static_cast<std::size_t>(p - start));
  }
  if (*p != '\n') p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
  *next = p + 1;
  return n;
}

// The fields of a run line from the masks of its 64-byte window (bit i
// set: byte i is white space, or the line end '\n'): see split_run_line().
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool fields_from_masks(const char* p, uint64_t white, uint64_t end, std::string_view* topic,
                              std::string_view* docno, std::string_view* score, std::string_view* tag,
                              const char** next) {
  if (end == 0) return false;
  const int len = __builtin_ctzll(end);                       // the line end, at most 63
  const uint64_t word = ~white & ((uint64_t{1} << len) - 1);  // field bytes
  const uint64_t s0 = word & ~(word << 1);                    // first byte of each field
  const uint64_t e0 = ~word & (word << 1);                    // byte after each field
  // s_k: the starts without the first k; exactly six fields when s5 holds
  // one bit. Every ctz below is then of a non-zero word.
  const uint64_t s1 = s0 & (s0 - 1), s2 = s1 & (s1 - 1), s3 = s2 & (s2 - 1), s4 = s3 & (s3 - 1),
                 s5 = s4 & (s4 - 1);
  if (s5 == 0 || (s5 & (s5 - 1)) != 0) return false;
  const uint64_t e1 = e0 & (e0 - 1), e2 = e1 & (e1 - 1), e3 = e2 & (e2 - 1), e4 = e3 & (e3 - 1),
                 e5 = e4 & (e4 - 1);
  auto field = [p](uint64_t s, uint64_t e) {
    const int b = __builtin_ctzll(s);
    return std::string_view(p + b, static_cast<std::size_t>(__builtin_ctzll(e) - b));
  };
  *topic = field(s0, e0);
  *docno = field(s2, e2);
  *score = field(s4, e4);
  *tag = field(s5, e5);
  *next = p + len + 1;
  return true;
}

// The common run line in one step: when the line starting at p ends within
// 64 bytes and has exactly six fields, sets the four fields the parser uses
// (topic, docno, score, tag) and *next (the start of the next line) and
// returns true; otherwise returns false and the caller uses split_line(),
// which gives the same fields for such a line. One mask of the white-space
// bytes of the 64-byte window replaces split_line()'s byte-by-byte walk,
// whose every step waits for the previous one; the field count is checked
// once (the sixth field start is the last one) and only the four fields'
// bounds are taken.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool split_run_line(const char* p, std::string_view* topic, std::string_view* docno,
                           std::string_view* score, std::string_view* tag, const char** next) {
#if defined(__SSE2__)
  const __m128i nine = _mm_set1_epi8(9), four = _mm_set1_epi8(4), space = _mm_set1_epi8(' '),
                lf = _mm_set1_epi8('\n');
  uint64_t white = 0, end = 0;
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i x = _mm_sub_epi8(v, nine);                       // 9..13 -> 0..4
    const __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(x, four), x);  // \t \n \v \f \r
    white |= static_cast<uint64_t>(static_cast<unsigned>(
                 _mm_movemask_epi8(_mm_or_si128(ctl, _mm_cmpeq_epi8(v, space)))))
             << (16 * k);
    end |= static_cast<uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf))))
           << (16 * k);
  }
  return fields_from_masks(p, white, end, topic, docno, score, tag, next);
#else
  (void)p;
  (void)topic;
  (void)docno;
  (void)score;
  (void)tag;
  (void)next;
  return false;
#endif
}

#if defined(IRTOPICS_AVX2_PATHS)
// split_run_line() with AVX2, for the run parser's loop compiled for AVX2,
// BMI1 and BMI2 (RunParser::lines_wide(), chosen at run time): the
// window is two 32-byte loads, and a byte is white space when it equals
// the entry of a 16-byte table at its low 4 bits (one shuffle and one
// compare instead of SSE2's five operations: entry 0 is ' ', 9..13 are
// themselves, the others 0, which no byte with those low bits equals; a
// byte with its high bit set shuffles to 0 and so equals none). Not
// always_inline: a function of the default target may not inline it (the
// line parser, before it is inlined into the AVX2 loop); it has one call
// site, in RunParser::lines_wide(), where it is inlined.
__attribute__((target("avx2,bmi,bmi2"))) inline bool split_run_line_wide(
    const char* p, std::string_view* topic, std::string_view* docno, std::string_view* score,
    std::string_view* tag, const char** next) {
  const __m256i table = _mm256_setr_epi8(' ', 0, 0, 0, 0, 0, 0, 0, 0, 9, 10, 11, 12, 13, 0, 0,
                                         ' ', 0, 0, 0, 0, 0, 0, 0, 0, 9, 10, 11, 12, 13, 0, 0);
  const __m256i lf = _mm256_set1_epi8('\n');
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  // (No lambda for the movemask: a lambda would not have this target.)
  const uint64_t white =
      static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, lo), lo))) |
      (uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(table, hi), hi)))}
       << 32);
  const uint64_t end = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, lf))) |
                       (uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, lf)))} << 32);
  return fields_from_masks(p, white, end, topic, docno, score, tag, next);
}
#endif

// Powers of ten that are exact in a double.
constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A run score: a decimal number or +-inf; NaN, hex, "+-1" and values out of
// the range of a double are refused. The result is strtod()'s.
bool parse_double(std::string_view f, double* out) {
  const char* b = f.data();
  const char* e = b + f.size();
  if (b < e && *b == '+') {
    ++b;
    if (b < e && *b == '-') return false;  // "+-1" is no number
  }
  // Fast path for plain decimals ("-12.345"): when the digits, read as one
  // integer, are at most 2^53 they are exact in a double, and one division
  // by an exact power of ten (up to 1e22) is correctly rounded, so the
  // result is the double strtod() gives (Clinger's fast path). Anything else
  // (exponents, more digits, nan, inf, a second point) goes to
  // std::from_chars. Two tight digit loops (before and after the point):
  // each step is a subtraction, a compare and a multiply-add, with no flag
  // to update per digit.
  {
    const char* p = b;
    const bool neg = p < e && *p == '-';
    p += neg;
    const char* const int_start = p;
    uint64_t mant = 0;
    unsigned d;
    while (p < e && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10) {
      mant = mant * 10 + d;
      ++p;
    }
    std::ptrdiff_t n_digits = p - int_start, frac = 0;
    if (p < e && *p == '.') {
      const char* const frac_start = ++p;
      while (p < e && (d = static_cast<unsigned char>(*p) - unsigned{'0'}) < 10) {
        mant = mant * 10 + d;
        ++p;
      }
      frac = p - frac_start;
      n_digits += frac;
    }
    // At most 19 digits: the integer cannot have wrapped around.
    if (p == e && n_digits > 0 && n_digits <= 19 && frac <= 22 && mant <= (uint64_t{1} << 53)) {
      const double v = static_cast<double>(mant) / kPow10[frac];
      *out = neg ? -v : v;
      return true;
    }
  }
  auto r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr == e && !std::isnan(*out);
}

// parse_double() of a field followed by at least 8 readable bytes (a run
// line's score in the padded text): a plain decimal of at most 8 bytes
// after an optional '-' (such as "19.388", "-0.25" or "12") is read with
// word arithmetic (SWAR): which bytes are digits, where the point is, and
// the digits' value in three multiply-shift steps, with no loop or branch per
// digit; every other field goes to parse_double(). The value is at most
// 99,999,999 over a power of ten up to 1e7, both exact in a double, so the
// one division is correctly rounded: the double strtod() gives.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline bool parse_score(std::string_view f, double* out) {
  const char* b = f.data();
  std::size_t n = f.size();
  const bool neg = n > 0 && *b == '-';
  b += neg;
  n -= neg;
  if (n == 0 || n > 8) return parse_double(f, out);
  uint64_t w;
  std::memcpy(&w, b, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);  // byte k of the field in bits 8k..8k+7, as below
#endif
  const uint64_t keep = n == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1;  // the field's bytes
  const uint64_t x = (w ^ 0x3030303030303030ULL) & keep;  // digits -> 0..9
  // High bit of each byte that is not a digit (x > 9); a carry between
  // bytes can only flag more bytes, which sends the field to parse_double().
  const uint64_t other = ((x + 0x7676767676767676ULL) | x) & 0x8080808080808080ULL & keep;
  uint64_t digits = x;
  int frac = 0;
  if (other != 0) {
    // One non-digit, a point, and at least one digit.
    const int at = __builtin_ctzll(other) >> 3;
    if ((other & (other - 1)) != 0 || b[at] != '.' || n == 1) return parse_double(f, out);
    const uint64_t below = (uint64_t{1} << (8 * at)) - 1;  // bytes before the point
    // The point's byte dropped: the bytes before it move up one byte, and
    // byte 0 becomes a leading zero digit; the bytes after it stay
    // ((below << 8) | 0xff: bytes 0 to `at`, the point's included).
    digits = ((x & below) << 8) | (x & ~((below << 8) | 0xff));
    frac = static_cast<int>(n) - at - 1;
  }
  // Right-align the n digit bytes (byte 7 the last digit), then combine
  // pairs, quads and the two halves.
  digits <<= 8 * (8 - n);
  digits = (digits * 10 + (digits >> 8)) & 0x00ff00ff00ff00ffULL;
  digits = (digits * 100 + (digits >> 16)) & 0x0000ffff0000ffffULL;
  digits = (digits * 10000 + (digits >> 32)) & 0x00000000ffffffffULL;
  const double v = static_cast<double>(digits) / kPow10[frac];
  *out = neg ? -v : v;
  return true;
}

}  // namespace
}  // namespace scan
}  // namespace irtopics

#endif
