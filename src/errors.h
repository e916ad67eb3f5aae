// Typed errors of the C++ core: the one way C++ code reports a problem that
// R must show to the user. An irtopics::Error carries a kind (the R side's
// condition class irtopics_error_<kind>, see R/utils-conditions.R), a
// message and, for input read from a file, the file and the 1-based line
// (0: not tied to a line). The glue's one adapter, irtopics_glue::guard()
// (glue_guard.h), turns it into the classed R error; kernels never call R.
//
// Kernels throw only for the impossible or for malformed input (a file's
// line, a measure the registry refuses); arguments are checked in R first.
// std::invalid_argument, which glue code throws when a direct call hands it
// an input it must refuse, reaches R as kind `argument`; std::bad_alloc and
// std::length_error as `memory`; any other std::exception as `internal`.
//
// Pure C++: no R types.
#ifndef IRTOPICS_ERRORS_H
#define IRTOPICS_ERRORS_H

#include <stdexcept>
#include <string>
#include <string_view>

namespace irtopics {

// The kinds the R side knows (R/utils-conditions.R), in its words:
//   argument  - an argument has the wrong type, shape or value
//   data      - input data that cannot support the computation
//   file      - a missing, unreadable, empty or oversized file
//   parse     - a malformed line of a run or qrels file (file + line)
//   duplicate - a docno repeated within a topic (file + line)
//   measure   - a measure the registry does not know or refuses
//   memory    - an allocation failed
//   internal  - a broken invariant: a bug, not the user's input
enum class ErrorKind { argument, data, file, parse, duplicate, measure, memory, internal };

inline const char* kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::argument: return "argument";
    case ErrorKind::data: return "data";
    case ErrorKind::file: return "file";
    case ErrorKind::parse: return "parse";
    case ErrorKind::duplicate: return "duplicate";
    case ErrorKind::measure: return "measure";
    case ErrorKind::memory: return "memory";
    case ErrorKind::internal: return "internal";
  }
  return "internal";
}

// The kind named `name`; a name outside the list is a bug in the thrower,
// reported as `internal` rather than lost.
inline ErrorKind kind_of(std::string_view name) {
  for (ErrorKind k : {ErrorKind::argument, ErrorKind::data, ErrorKind::file, ErrorKind::parse,
                      ErrorKind::duplicate, ErrorKind::measure, ErrorKind::memory}) {
    if (name == kind_name(k)) return k;
  }
  return ErrorKind::internal;
}

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, std::string file = std::string(), long line = 0)
      : std::runtime_error(message), code(kind), file(std::move(file)), line(line) {}
  ErrorKind code;
  std::string file;
  long line;
  const char* kind() const { return kind_name(code); }
};

// The readers' and the evaluator's errors (trec_io.*, evaluate.*): an Error
// whose kind is given by name ("file", "parse", "duplicate", "data",
// "measure"), with the file and line first, as their throw sites write it.
class InputError : public Error {
 public:
  InputError(std::string_view kind, std::string file, long line, const std::string& what)
      : Error(kind_of(kind), what, std::move(file), line) {}
};

}  // namespace irtopics

#endif
