// Hostile inputs (C++ test driver): hardening round 2 (gzip members, NUL
// bytes, run tags, escaped fields) and the regression corpus
// (tools/cpp/regressions/{run,qrels}): each file must parse and evaluate or
// fail with InputError, nothing else.
#include "driver.h"

// ---------------------------------------------------------------------------
// Hardening round 2 (issue 12): gzip members and trailing bytes, early NUL
// detection while inflating, one run tag per file, size-0 files with content,
// escaped fields in messages.

void test_hardening2() {
  Context ctx("hardening2");
  TempDir dir;
  std::string out;
  const std::string a = "1 Q0 a 1 2 t\n", b = "2 Q0 c 1 2 t\n";
  const std::string ga = gzip_bytes(a, dir.file("sa.gz")), gb = gzip_bytes(b, dir.file("sb.gz"));
  // Concatenated members are read one after the other (as gzip -d does).
  write_file(dir.file("two.gz"), ga + gb);
  irtopics::read_whole_file(dir.file("two.gz"), out);
  CHECK(out == a + b);
  write_file(dir.file("three.gz"), ga + gzip_bytes("", dir.file("se.gz")) + gb);
  irtopics::read_whole_file(dir.file("three.gz"), out);
  CHECK(out == a + b);
  // Zero padding after the last member is ignored; other bytes are an error.
  write_file(dir.file("pad.gz"), ga + std::string(300000, '\0'));
  irtopics::read_whole_file(dir.file("pad.gz"), out);
  CHECK(out == a);
  write_file(dir.file("plain_after.gz"), ga + b);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("plain_after.gz"), out), "file", 0);
  write_file(dir.file("one_byte.gz"), ga + "x");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("one_byte.gz"), out), "file", 0);
  write_file(dir.file("zeros_then_x.gz"), ga + std::string(200000, '\0') + "x");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("zeros_then_x.gz"), out), "file", 0);
  write_file(dir.file("second_cut.gz"), ga + gb.substr(0, 12));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("second_cut.gz"), out), "file", 0);
  write_file(dir.file("magic_only.gz"), ga + gb.substr(0, 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("magic_only.gz"), out), "file", 0);
  // A wrong size in the trailer (ISIZE) is only a guess: still read right.
  std::string wrong = ga;
  wrong[wrong.size() - 1] = static_cast<char>(0x7f);
  write_file(dir.file("isize.gz"), wrong);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("isize.gz"), out), "file", 0);  // length check fails
  // A NUL is refused while inflating, with its line: 16 MB of zeros stop
  // after the first MB.
  const std::string zeros(std::size_t{16} << 20, '\0');
  write_file(dir.file("zeros.gz"), gzip_bytes("1 0 a 1\n1 0 b 0\n" + zeros, dir.file("sz.gz")));
  out = std::string();
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("zeros.gz"), out), "parse", 3);
  CHECK(out.capacity() < (std::size_t{4} << 20));
  // The buffer grows by half, not by doubling with zero fill; the size in the
  // trailer is trusted up to 64 times the file's size.
  const std::string blanks(std::size_t{8} << 20, ' ');
  write_file(dir.file("blanks.gz"), gzip_bytes(blanks + a, dir.file("sbl.gz")));
  out = std::string();
  irtopics::read_whole_file(dir.file("blanks.gz"), out);
  CHECK(out.size() == blanks.size() + a.size());
  CHECK(out.capacity() <= out.size() + out.size() / 2 + 64);
  std::string text;  // run lines with pseudo-random docnos and scores
  for (uint64_t i = 0, x = 12345; i < 40000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    text += std::to_string(i / 1000) + " Q0 D" + std::to_string(x >> 20) + " " + std::to_string(i % 1000) +
            " " + std::to_string((x >> 40) % 100000) + " tag\n";
  }
  write_file(dir.file("text.gz"), gzip_bytes(text, dir.file("stx.gz")));
  std::string fresh;  // read_whole_file() reuses a buffer's capacity
  irtopics::read_whole_file(dir.file("text.gz"), fresh);
  CHECK(fresh == text && fresh.capacity() <= fresh.size() + 64);
  write_file(dir.file("blanks2.gz"), gzip_bytes(blanks, dir.file("sbl2.gz")) + ga);
  out = std::string();
  irtopics::read_whole_file(dir.file("blanks2.gz"), out);
  CHECK(out.size() == blanks.size() + a.size());
  CHECK(out.capacity() <= out.size() + out.size() / 2 + 64);

  // One run tag per file.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 2 A\n1 Q0 b 2 1 A\n2 Q0 c 1 2 B\n"), "parse", 3);
  CHECK(run_from("1 Q0 a 1 2 A x\n1 Q0 b 2 1 A\n").tag == "A");
  try {
    run_from("1 Q0 a 1 2 A\n1 Q0 b 2 1 A\x1b[2J\n");
    CHECK_MSG(false, "two tags should be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("'A\\x1b[2J'") != std::string::npos);
  }

  // A file that reports size 0 but has content (/proc) is read to its end.
  if (fs::exists("/proc/self/status")) {
    irtopics::read_whole_file("/proc/self/status", out);
    CHECK(out.find("Name:") != std::string::npos);
  }

  // Fields in messages: printable UTF-8 kept, controls and invalid bytes
  // escaped, long fields cut.
  CHECK(irtopics::show_field("abc") == "abc");
  CHECK(irtopics::show_field("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(irtopics::show_field("caf\xe9") == "caf\\xe9");
  CHECK(irtopics::show_field("a\x1b[31mb") == "a\\x1b[31mb");
  CHECK(irtopics::show_field("\xc2\x9b") == "\\xc2\\x9b");        // C1 control (CSI)
  CHECK(irtopics::show_field("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
  CHECK(irtopics::show_field("\xe2\x82") == "\\xe2\\x82");        // truncated sequence
  CHECK(irtopics::show_field(std::string(std::size_t{1} << 20, 'x')).size() < 80);
  CHECK(irtopics::show_field(std::string(100, '\x01')).size() < 80);
  // The duplicate message of a qrels escapes the topic id too.
  try {
    qrels_from("t\x1b 0 a 1\nt\x1b 0 a 1\n");
    CHECK_MSG(false, "duplicate should be refused");
  } catch (const InputError& e) {
    CHECK(std::string(e.kind()) == "duplicate" && std::string(e.what()).find('\x1b') == std::string::npos);
  }
}

// ---------------------------------------------------------------------------
// Regression corpus: each file must be handled or refused with InputError.

namespace {

// Runs `body`; InputError is an accepted outcome, any other exception fails.
void expect_handled(const std::string& file, const std::function<void()>& body) {
  std::string other;
  try {
    body();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    other = e.what();
  } catch (...) {
    other = "unknown exception";
  }
  CHECK_MSG(other.empty(), file + ": " + other);
}

}  // namespace

void test_regressions() {
  const std::string base = g_root + "/tools/cpp/regressions/";
  long n = 0;
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  opt.measures.push_back(fixtures::measure(MeasureKind::NDCGCut, 10));
  opt.want_profiles = true;
  opt.want_orders = true;
  {
    Context ctx("regressions/run");
    const auto q = qrels_from(fixtures::small_qrels_text());
    for (const auto& f : files_in(base + "run")) {
      ++n;
      expect_handled(f, [&] {
        irtopics::Run run;
        irtopics::RunResult a, b;
        irtopics::EvalWorkspace ws;
        irtopics::read_and_evaluate(f, q, opt, ws, run, a);
        irtopics::read_run_file(f, run);
        irtopics::evaluate_run(run, q, opt, ws, b);
        CHECK_MSG(a.values.size() == b.values.size(), f);
      });
    }
  }
  {
    Context ctx("regressions/qrels");
    const auto fixed = run_from(fixtures::small_run_text());
    for (const auto& f : files_in(base + "qrels")) {
      ++n;
      expect_handled(f, [&] {
        irtopics::Qrels q;
        irtopics::read_qrels_file(f, q);
        irtopics::EvalWorkspace ws;
        irtopics::RunResult r;
        for (int level : {1, 2}) {
          q.prepare(level);
          irtopics::evaluate_run(fixed, q, opt, ws, r);
          irtopics::evaluate_empty(q, opt);
        }
      });
    }
  }
  std::printf("regressions: %ld files\n", n);
}
