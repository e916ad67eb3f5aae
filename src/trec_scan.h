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

// The common run line in one step: when the line starting at p ends within
// 64 bytes and has exactly six fields, stores them, sets *next to the start
// of the next line and returns true; otherwise returns false and the caller
// uses split_line(), which gives the same fields for such a line. One mask
// of the white-space bytes of the 64-byte window replaces split_line()'s
// byte-by-byte walk, whose every step waits for the previous one.
inline bool split_six(const char* p, std::string_view* fields, const char** next) {
#if defined(__SSE2__)
  const __m128i nine = _mm_set1_epi8(9), four = _mm_set1_epi8(4), space = _mm_set1_epi8(' '),
                lf = _mm_set1_epi8('\n');
  uint64_t white = 0, end = 0;
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
  if (end == 0) return false;
  const int len = __builtin_ctzll(end);                 // the line end, at most 63
  const uint64_t word = ~white & ((uint64_t{1} << len) - 1);  // field bytes
  uint64_t starts = word & ~(word << 1);                // first byte of each field
  uint64_t ends = ~word & (word << 1);                  // byte after each field
  for (int i = 0; i < 6; ++i) {
    if (starts == 0) return false;
    const int b = __builtin_ctzll(starts), e = __builtin_ctzll(ends);
    fields[i] = std::string_view(p + b, static_cast<std::size_t>(e - b));
    starts &= starts - 1;
    ends &= ends - 1;
  }
  if (starts != 0) return false;
  *next = p + len + 1;
  return true;
#else
  (void)p;
  (void)fields;
  (void)next;
  return false;
#endif
}

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
  // Fast path for plain decimals ("-12.345"): with at most 15 significant
  // digits the digits form an integer that is exact in a double, and one
  // division by an exact power of ten is correctly rounded, so the result is
  // the same double strtod() gives (Clinger's fast path). Anything else
  // (exponents, more digits, nan, inf) goes to std::from_chars.
  {
    const char* p = b;
    bool neg = false;
    if (p < e && *p == '-') { neg = true; ++p; }
    uint64_t mant = 0;
    int digits = 0, frac = 0;
    bool dot = false, ok = p < e;
    for (; p < e; ++p) {
      const char c = *p;
      if (c >= '0' && c <= '9') {
        mant = mant * 10 + static_cast<uint64_t>(c - '0');
        if (mant != 0) ++digits;
        if (dot) ++frac;
      } else if (c == '.' && !dot) {
        dot = true;
      } else {
        ok = false;
        break;
      }
    }
    if (ok && digits <= 15 && frac <= 22 && (p - b) > (neg ? 1 : 0) + (dot ? 1 : 0)) {
      const double v = static_cast<double>(mant) / kPow10[frac];
      *out = neg ? -v : v;
      return true;
    }
  }
  auto r = std::from_chars(b, e, *out);
  return r.ec == std::errc() && r.ptr == e && !std::isnan(*out);
}

}  // namespace
}  // namespace scan
}  // namespace irtopics

#endif
