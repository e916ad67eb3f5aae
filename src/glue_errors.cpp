// A test hook for the one error route (errors.h, glue_guard.h): throws the
// C++ error named by `what` so that tests/testthat/test-utils-conditions.R
// can check the R condition each one becomes. Not used by the package.
#include <Rcpp.h>

#include <new>
#include <stdexcept>
#include <string>

#include "errors.h"
#include "glue_guard.h"

// what: "error" (an irtopics::Error of `kind`, with `message`, `file` and
// `line`), "input" (the same as an irtopics::InputError, kind by name),
// "invalid_argument", "bad_alloc", "length_error" or "runtime_error".
// [[Rcpp::export(rng = false)]]
int cpp_throw_test(std::string what, std::string kind, std::string message, std::string file, double line) {
  return irtopics_glue::guard([&]() -> int {
  if (what == "error") {
    throw irtopics::Error(irtopics::kind_of(kind), message, file, static_cast<long>(line));
  }
  if (what == "input") throw irtopics::InputError(kind, file, static_cast<long>(line), message);
  if (what == "invalid_argument") throw std::invalid_argument(message);
  if (what == "bad_alloc") throw std::bad_alloc();
  if (what == "length_error") throw std::length_error(message);
  if (what == "runtime_error") throw std::runtime_error(message);
  return 0;
  });
}
