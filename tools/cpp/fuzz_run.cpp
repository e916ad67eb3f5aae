// libFuzzer target: bytes as the text of a run file. The run is evaluated in
// streaming mode (evaluate_text) against a fixed small qrels, with profiles
// and return orders, and, when it parses, also through parse_run +
// evaluate_run; both paths must give the same values (differential check).
// The same bytes are also written to a file and read by read_and_evaluate(),
// which streams plain files in pieces (here of 1 to 64 bytes, chosen by the
// first byte, so that every line crosses piece boundaries): it must give the
// same results, or an InputError when the other paths do.
// InputError is the expected outcome of a malformed run; any other exception
// escapes and libFuzzer reports it as a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const irtopics::Qrels& qrels = fuzzing::small_qrels();
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  opt.depth = 5;  // small, so that the depth cut is exercised by short inputs
  opt.want_profiles = true;
  opt.want_orders = true;
  irtopics::EvalWorkspace ws;

  irtopics::Run streamed;
  streamed.file = "fuzz";
  streamed.text.assign(reinterpret_cast<const char*>(data), size);
  irtopics::RunResult a;
  bool streamed_ok = true;
  try {
    irtopics::evaluate_text(qrels, opt, ws, streamed, a);
  } catch (const irtopics::InputError&) {
    streamed_ok = false;
  }

  // The file path, streamed in small pieces.
  static const struct TempPath {
    std::string path = "/tmp/irtopics-fuzz-run-" + std::to_string(::getpid()) + ".txt";
    ~TempPath() { std::remove(path.c_str()); }
  } temp;
  const std::string& path = temp.path;
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) __builtin_trap();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) __builtin_trap();
    std::fclose(f);
  }
  irtopics::Run file_run;
  irtopics::RunResult c;
  bool file_ok = true;
  try {
    irtopics::read_and_evaluate(path, qrels, opt, ws, file_run, c, size > 0 ? 1 + data[0] % 64 : 1);
  } catch (const irtopics::InputError&) {
    file_ok = false;
  }
  if (file_ok != streamed_ok) __builtin_trap();
  if (file_ok && (c.list_id != a.list_id || c.profile != a.profile || c.orders != a.orders ||
                  c.unknown_topics != a.unknown_topics || !fuzzing::same_values(c.values, a.values))) {
    __builtin_trap();
  }

  irtopics::Run whole;
  whole.file = "fuzz";
  whole.text.assign(reinterpret_cast<const char*>(data), size);
  try {
    irtopics::parse_run(whole);
  } catch (const irtopics::InputError&) {
    // Parse errors must be the same whichever way the text is read.
    if (streamed_ok) __builtin_trap();
    return 0;
  }
  irtopics::RunResult b;
  irtopics::EvalWorkspace ws2;
  bool whole_ok = true;
  try {
    irtopics::evaluate_run(whole, qrels, opt, ws2, b);
  } catch (const irtopics::InputError&) {
    whole_ok = false;
  }
  if (streamed_ok != whole_ok) __builtin_trap();
  if (!whole_ok) return 0;
  // Streaming keeps the file's topic order and so does evaluate_run (first
  // seen order), so the results must be identical.
  if (a.list_id != b.list_id || a.topic != b.topic || a.num_ret != b.num_ret ||
      a.profile != b.profile || a.orders != b.orders || a.unknown_topics != b.unknown_topics ||
      !fuzzing::same_values(a.values, b.values)) {
    __builtin_trap();
  }
  return 0;
}
