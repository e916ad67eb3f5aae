// Parser behaviour (C++ test driver): run and qrels parsers (line ends, white
// space, error kinds and lines), every score form, random scores, the line
// splitter, qrels lookups, trec_eval order, and gzip and plain files through
// read_whole_file.
#include "driver.h"
#include "trec_scan.h"

// ---------------------------------------------------------------------------
// Parser behaviour

namespace {

bool same_run(const irtopics::Run& a, const irtopics::Run& b) {
  if (a.size() != b.size() || a.topics != b.topics || a.topic != b.topic || a.score != b.score ||
      a.line != b.line || a.tag != b.tag) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) if (a.docno[i] != b.docno[i]) return false;
  return true;
}

bool same_qrels(const irtopics::Qrels& a, const irtopics::Qrels& b) {
  if (a.topics != b.topics || a.entries.size() != b.entries.size()) return false;
  for (std::size_t k = 0; k < a.entries.size(); ++k) {
    const auto &x = a.entries[k], &y = b.entries[k];
    if (x.topic != y.topic || x.grade != y.grade || x.line != y.line || x.docno != y.docno ||
        x.hash != y.hash) {
      return false;
    }
  }
  return a.num_rel == b.num_rel && a.num_nonrel == b.num_nonrel && a.levels == b.levels;
}

}  // namespace

void test_run_parser() {
  Context ctx("run parser");
  const std::string plain =
      "1 Q0 a 1 2.5 tag\n"
      "1 Q0 b 2 1 tag\n"
      "\n"
      "2 Q0 c 1 -3e-1 tag extra fields are ignored\n";
  const std::string spaced =
      "1\tQ0\ta\t1\t2.5\ttag\n"
      "  1   Q0 \t b 2 +1.0 tag   \n"
      " \t \n"
      "2\t\tQ0  c 1 -0.3\ttag extra\n";
  const auto a = run_from(plain);
  CHECK(a.size() == 3);
  CHECK(a.topics == (std::vector<std::string>{"1", "2"}));
  CHECK(a.docno.size() == 3 && a.docno[1] == "b");
  CHECK(a.score == (std::vector<double>{2.5, 1.0, -0.3}));
  CHECK(a.line == (std::vector<uint32_t>{1, 2, 4}));
  CHECK(a.tag == "tag");
  CHECK(same_run(a, run_from(to_crlf(plain))));
  CHECK(same_run(a, run_from(spaced)));
  CHECK(same_run(a, run_from(to_crlf(spaced))));
  // no line end after the last line
  CHECK(same_run(a, run_from(plain.substr(0, plain.size() - 1))));

  // RunParser reports topic changes and returning topics.
  irtopics::Run r;
  r.text = "1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n2 Q0 a 1 1 t\n1 Q0 c 3 1 t\n";
  irtopics::RunParser p(r);
  bool changed = false, seen = false;
  std::vector<std::pair<bool, bool>> flags;
  while (p.next(&changed, &seen)) flags.emplace_back(changed, seen);
  CHECK(flags == (std::vector<std::pair<bool, bool>>{{true, false}, {false, false},
                                                     {true, false}, {true, true}}));

  // Errors: kind and line.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n1 Q0 b 2 1\n"), "parse", 2);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n\n1 Q0 b 2 abc t\n"), "parse", 3);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1.5.2 t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 nan t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 - t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 . t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 +-5 t\n"), "parse", 1);
  CHECK_INPUT_ERROR(run_from(to_crlf("1 Q0 a 1 1 t\n1 Q0 b 2\n")), "parse", 2);
  CHECK_INPUT_ERROR(run_from(""), "file", 0);
  CHECK_INPUT_ERROR(run_from("\n \n\t\r\n"), "file", 0);

  // Exponents and long mantissas take the slow path; the value is strtod's.
  const auto e = run_from("1 Q0 a 1 1.5e3 t\n1 Q0 b 1 0.1234567890123456789 t\n"
                          "1 Q0 c 1 -1E-2 t\n1 Q0 d 1 00012.50 t\n");
  CHECK(e.score[0] == 1500.0);
  CHECK(e.score[1] == std::strtod("0.1234567890123456789", nullptr));
  CHECK(e.score[2] == -0.01);
  CHECK(e.score[3] == 12.5);

  // Duplicate docnos within a topic are found at evaluation, on the later line.
  const auto q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  irtopics::EvalWorkspace ws;
  irtopics::RunResult out;
  const auto dup = run_from("1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n2 Q0 a 1 1 t\n1 Q0 a 3 0.5 t\n");
  CHECK_INPUT_ERROR(irtopics::evaluate_run(dup, q, opt, ws, out), "duplicate", 4);
  irtopics::Run dup_text;
  dup_text.file = "dup";
  dup_text.text = "1 Q0 a 1 1 t\n1 Q0 b 2 2 t\n1 Q0 b 3 0.5 t\n";
  CHECK_INPUT_ERROR(irtopics::evaluate_text(q, opt, ws, dup_text, out), "duplicate", 3);
  // The parser does not store line numbers: an error's lines are counted in
  // the text (Run::line_of()), after a byte order mark, CRLF and blank
  // lines, the same as parse_run()'s line vector gives.
  const std::string counted = "\xEF\xBB\xBF" "1 Q0 a 1 1 t\r\n\r\n2 Q0 b 1 1 t\r\n2 Q0 c 2 1 t\r\n\n2 Q0 b 3 0.5 t\r\n";
  for (int whole = 0; whole < 2; ++whole) {
    std::string got;
    try {
      irtopics::Run r;
      r.file = "counted";
      r.text = counted;
      if (whole) {
        irtopics::parse_run(r);
        CHECK(r.line == (std::vector<uint32_t>{1, 3, 4, 6}) && r.topics == (std::vector<std::string>{"1", "2"}));
        irtopics::evaluate_run(r, q, opt, ws, out);
      } else {
        irtopics::evaluate_text(q, opt, ws, r, out);
      }
    } catch (const InputError& e) {
      got = std::to_string(e.line) + ": " + e.what();
    }
    CHECK_MSG(got.find("6: ") == 0 && got.find("(first on line 3)") != std::string::npos, got);
  }
  // The same docno in two topics is fine.
  irtopics::RunResult ok;
  irtopics::evaluate_run(run_from("1 Q0 a 1 1 t\n2 Q0 a 1 1 t\n"), q, opt, ws, ok);
  CHECK(ok.list_id.size() == 2);
}

// Every score form the run reader accepted or refused when the parser was
// last rewritten (written before that change, so that it could not move any
// of them): accepted forms give strtod()'s double, bit for bit (the sign of
// -0 included); refused ones are a "parse" error on their line, "out of the
// range of a double" for overflow and underflow, "must be a number"
// otherwise. Each form is read twice: by parse_run() and by the streaming
// file path (read_and_evaluate()), which must agree on the error.
void test_score_forms() {
  Context ctx("score forms");
  const std::vector<std::string> accepted = {
      "1", "-0", "+0", "0", "0.5", ".5", "5.", "+3.5", "-.5", "+.5", "-5.", "1e3", "1E+3", "1e-3",
      "-2.5E+2", "1e+0", "1.e2", ".1e2", "0e0", "-0.0", "00012.50", "0.1234567890123456789",
      "123456789012345678", "123456789012345.6", "1234567890123456", "9007199254740993", "1e22",
      "1e23", "0.000000000000000000001", "4.9e-324", "2.2250738585072014e-308", "1e308",
      "1.7976931348623157e308", "inf", "-inf", "+inf", "INF", "iNf", "Infinity", "infinity",
      "-INFINITY", "+Inf"};
  const std::vector<std::string> out_of_range = {"1e-400", "1.8e308", "1e400", "-1e400"};
  const std::vector<std::string> not_numbers = {
      "0x10", "0X1p3", "0x1p3", "1,5", "+-1", "-+1", "--1", "++1", "+", "-", ".", "e", "e5", "1e",
      "1e+", "1.2.3", "nan", "NAN", "-nan", "+nan", "nan(1)", "infinit", "infinityx", "inff", "1d",
      "1f", "1_0", "1e5.5", "1ee5", ".e1", "-e1", "+.", "-."};
  TempDir dir;
  const auto q = qrels_from("1 0 a 1\n1 0 b 0\n");
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  irtopics::EvalWorkspace ws;
  irtopics::Run run;
  irtopics::RunResult res;
  auto text_with = [](const std::string& s) { return "1 Q0 a 1 2 t\n1 Q0 b 2 " + s + " t\n"; };
  for (const auto& s : accepted) {
    Context c("score forms: " + s);
    const auto r = run_from(text_with(s));
    const double want = std::strtod(s.c_str(), nullptr);
    CHECK_MSG(r.size() == 2 && std::memcmp(&r.score[1], &want, sizeof want) == 0,
              num(r.score.size() == 2 ? r.score[1] : -1.0) + " vs strtod " + num(want));
    const std::string path = dir.file("ok.txt");
    write_file(path, text_with(s));
    irtopics::read_and_evaluate(path, q, opt, ws, run, res);
    CHECK(res.list_id.size() == 1);
  }
  auto refused = [&](const std::string& s, const std::string& why) {
    Context c("score forms: " + s);
    std::string msg;
    CHECK_INPUT_ERROR(run_from(text_with(s)), "parse", 2);
    try {
      run_from(text_with(s));
    } catch (const InputError& e) {
      msg = e.what();
    }
    CHECK_MSG(msg.find(why) != std::string::npos, msg);
    const std::string path = dir.file("bad.txt");
    write_file(path, text_with(s));
    CHECK_INPUT_ERROR(irtopics::read_and_evaluate(path, q, opt, ws, run, res), "parse", 2);
  };
  for (const auto& s : out_of_range) refused(s, "'" + s + "' is out of the range of a double");
  for (const auto& s : not_numbers) refused(s, "must be a number, not '" + s + "'");
}

// Random plain decimal scores on both sides of the score parser's fast-path
// bound (15 significant digits), with signs, leading zeros, and no integer
// or no fraction part, give strtod()'s double, bit for bit.
void test_random_scores() {
  Context ctx("random scores");
  Lcg rng{20261127};
  std::vector<std::string> scores;
  std::string text;
  while (scores.size() < 200000) {
    std::string s = rng.below(3) == 0 ? "-" : rng.below(8) == 0 ? "+" : "";
    const std::size_t n_int = rng.below(12), n_frac = rng.below(12);
    for (std::size_t k = 0; k < n_int; ++k) s += static_cast<char>('0' + rng.below(k == 0 ? 3 : 10));
    const bool dot = rng.below(10) < 7;
    if (dot) s += '.';
    for (std::size_t k = 0; dot && k < n_frac; ++k) s += static_cast<char>('0' + rng.below(10));
    if (s.find_first_of("0123456789") == std::string::npos) continue;
    text += "1 Q0 d" + std::to_string(scores.size()) + " 1 " + s + " t\n";
    scores.push_back(s);
  }
  const auto r = run_from(text);
  long same = 0;
  for (std::size_t i = 0; i < scores.size() && i < r.size(); ++i) {
    const double want = std::strtod(scores[i].c_str(), nullptr);
    if (std::memcmp(&r.score[i], &want, sizeof want) == 0) {
      ++same;
    } else {
      CHECK_MSG(false, scores[i] + ": " + num(r.score[i]) + " vs strtod " + num(want));
    }
  }
  CHECK(r.size() == scores.size() && same == static_cast<long>(scores.size()));
}

// The word-arithmetic score parser (parse_score(), for fields of up to 8
// bytes after a '-') against parse_double() (Clinger's fast path, then
// std::from_chars) on random short fields of digits, points, signs, 'e' and
// other bytes, followed by white space as in a run line: the same verdict and
// the same double, bit for bit; and for every field it accepts, strtod()'s.
void test_short_scores() {
  Context ctx("short scores");
  Lcg rng{20261127};
  const char alphabet[] = "0123456789.-+eE x";
  long accepted = 0, checked = 0;
  for (int it = 0; it < 2000000; ++it) {
    const std::size_t len = 1 + rng.below(9);
    std::string f;
    const int shape = static_cast<int>(rng.below(4));
    for (std::size_t k = 0; k < len; ++k) {
      f += shape == 0 ? alphabet[rng.below(17)] : static_cast<char>('0' + rng.below(10));
    }
    if (shape >= 2 && len > 1) f[rng.below(len)] = '.';
    if (shape == 3) f.insert(0, "-");
    if (f.find(' ') != std::string::npos) continue;  // one field
    char buf[40];
    std::memset(buf, ' ', sizeof buf);
    std::memcpy(buf, f.data(), f.size());
    const std::string_view view(buf, f.size());
    double a = -1, b = -2;
    const bool ra = irtopics::scan::parse_score(view, &a);
    const bool rb = irtopics::scan::parse_double(view, &b);
    ++checked;
    if (ra != rb || (ra && std::memcmp(&a, &b, sizeof a) != 0)) {
      CHECK_MSG(false, "'" + f + "': " + num(a) + " vs " + num(b));
      continue;
    }
    if (ra) {
      ++accepted;
      const double want = std::strtod(f.c_str(), nullptr);
      CHECK_MSG(std::memcmp(&a, &want, sizeof a) == 0, "'" + f + "': " + num(a) + " vs strtod " + num(want));
    }
  }
  CHECK(checked > 1000000 && accepted > 500000);
}

// The run parser splits a line of six fields that ends within 64 bytes with
// one white-space mask, other lines byte by byte. Random lines around that
// boundary (1-40 byte fields, runs of every white-space byte, six to eight
// fields, with and without a line end after the last line) must give the
// fields a plain isspace() split gives.
void test_line_splitting() {
  Context ctx("line splitting");
  Lcg rng{20261123};
  auto next = [&](uint64_t n) { return rng.below(n); };
  const char white[] = {' ', '\t', '\v', '\f', '\r'};
  auto gap = [&](bool cr) {
    std::string g;
    const std::size_t n = 1 + next(3);
    for (std::size_t i = 0; i < n; ++i) g += white[next(cr ? 5 : 4)];
    return g;
  };
  auto field = [&](std::size_t max_len) {
    std::string f;
    const std::size_t n = 1 + next(max_len);
    for (std::size_t i = 0; i < n; ++i) f += static_cast<char>('a' + next(26));
    return f;
  };
  long lines = 0, mismatches = 0;
  for (int round = 0; round < 200; ++round) {
    std::string text;
    std::vector<std::vector<std::string>> want;
    const int n_lines = 1 + static_cast<int>(next(20));
    for (int l = 0; l < n_lines; ++l) {
      const int n_fields = 6 + static_cast<int>(next(3));
      std::vector<std::string> f = {field(12), "Q0", field(40), field(6),
                                    std::to_string(next(100000)) + "." + std::to_string(next(1000)),
                                    "tag"};
      for (int k = 6; k < n_fields; ++k) f.push_back(field(20));
      std::string line = next(3) == 0 ? gap(false) : "";
      for (int k = 0; k < n_fields; ++k) line += (k ? gap(n_fields == 6) : "") + f[k];
      if (next(3) == 0) line += gap(true);
      text += line + "\n";
      f.resize(6);
      want.push_back(f);
    }
    if (next(4) == 0) text.pop_back();
    const auto r = run_from(text);
    lines += n_lines;
    bool same = r.size() == want.size();
    for (std::size_t i = 0; same && i < want.size(); ++i) {
      same = r.topics[r.topic[i]] == want[i][0] && r.docno[i] == want[i][2] &&
             r.score[i] == std::strtod(want[i][4].c_str(), nullptr) && r.tag == "tag" &&
             r.line[i] == i + 1;
    }
    if (!same) ++mismatches;
  }
  CHECK_MSG(mismatches == 0, std::to_string(mismatches) + " of 200 texts split differently");
  CHECK(lines > 1000);
  // Short lines with CR-only line ends: more than six fields within the
  // 64-byte window, a carriage return between them: refused, not read as one
  // line with its "extra fields" ignored.
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\r1 Q0 b 2 1 t\r"), "parse", 1);
  CHECK_INPUT_ERROR(run_from("1 Q0 a 1 1 t\n1 Q0 b 2 1 t\r1 Q0 c 3 1 t\n"), "parse", 2);
  // Seven fields in the window without a carriage return: the seventh is ignored.
  CHECK(run_from("1 Q0 a 1 1 t x\n").docno[0] == "a");
}

// Qrels lookups (Qrels::find_slot() and the branch-free first probe of two
// slots for docnos of up to 16 bytes): every retrieved document's grade, as
// evaluate_run() reports it in the profile, equals a std::map lookup, for
// docnos of 1 to 40 bytes that share long prefixes (16-byte heads equal,
// lengths or tails differ), in a topic large enough for long probe
// sequences, through the padded run (parser), a RunBuilder run and an
// unpadded run (the general path).
void test_qrels_lookups() {
  Context ctx("qrels lookups");
  Lcg rng{77};
  auto next = [&](uint64_t n) { return rng.below(n); };
  auto docno = [&]() {
    const std::size_t len = 1 + next(40);
    std::string d = len >= 16 && next(2) ? std::string("ABCDEFGHIJKLMNOP") : "";
    while (d.size() < len) d += static_cast<char>('a' + next(3));
    d.resize(len);
    return d;
  };
  std::map<std::string, int> judged;
  std::string qtext;
  while (judged.size() < 3000) {
    const std::string d = docno();
    if (judged.count(d)) continue;
    const int g = static_cast<int>(next(4)) - 1;  // -1 (unjudged) .. 2
    judged[d] = g;
    qtext += "7 0 " + d + " " + std::to_string(g) + "\n";
  }
  const auto q = qrels_from(qtext);
  std::map<std::string, int> seen;
  std::string rtext;
  std::vector<std::string> order;
  while (order.size() < 2500) {
    const std::string d = next(2) ? std::next(judged.begin(), static_cast<long>(next(judged.size())))->first
                                  : docno();
    if (seen.count(d)) continue;
    seen[d] = 1;
    order.push_back(d);
    rtext += "7 Q0 " + d + " 1 " + std::to_string(5000 - order.size()) + " t\n";
  }
  irtopics::EvalOptions opt;
  opt.depth = 0;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  opt.want_profiles = true;
  opt.want_orders = true;
  auto check = [&](const irtopics::Run& run, const char* what) {
    Context c(std::string("qrels lookups: ") + what);
    irtopics::EvalWorkspace ws;
    irtopics::RunResult res;
    irtopics::evaluate_run(run, q, opt, ws, res);
    CHECK(res.profile.size() == 1 && res.profile[0].size() == order.size());
    long bad = 0, found = 0;
    for (std::size_t k = 0; k < order.size() && res.profile.size() == 1; ++k) {
      auto it = judged.find(order[k]);
      const int want = it == judged.end() ? irtopics::kNotInPool
                       : it->second < 0   ? irtopics::kUnjudged
                                          : it->second;
      bad += res.profile[0][k] != want;
      found += it != judged.end();
    }
    CHECK_MSG(bad == 0, std::to_string(bad) + " grades differ");
    CHECK(found > 1000 && found < 2000);
    // Return orders: the rank of each relevant document (grade >= 1).
    long rel = 0, placed = 0;
    for (const auto& [d, g] : judged) rel += g >= 1;
    for (int pos : res.orders.at(0)) placed += pos > 0;
    long want_placed = 0;
    for (const auto& d : order) want_placed += judged.count(d) && judged[d] >= 1;
    CHECK(static_cast<long>(res.orders.at(0).size()) == rel && placed == want_placed);
  };
  const auto parsed = run_from(rtext);
  CHECK(parsed.padded);
  check(parsed, "parsed");
  irtopics::Run built;
  built.file = "built";
  irtopics::RunBuilder b(built);
  for (std::size_t k = 0; k < order.size(); ++k) {
    b.add("7", order[k], 5000.0 - static_cast<double>(k + 1), static_cast<uint32_t>(k + 1));
  }
  b.finish();
  CHECK(built.padded);
  check(built, "built");
  auto unpadded = run_from(rtext);
  unpadded.padded = false;
  check(unpadded, "unpadded");

  // A 16-byte docno is not a longer one with the same first 16 bytes (the
  // slot's head), nor the other way round: 60 small topics, each judging
  // three 17-byte docnos with the head "ABCDEFGHIJKLMNOP" (so that some
  // share the first cache line of the 16-byte docno's probe sequence), and a
  // run that retrieves the 16-byte docno and a 17-byte one that is not judged.
  std::string q2, r2;
  for (int t = 0; t < 60; ++t) {
    for (const char* tail : {"x", "y", "z"}) q2 += std::to_string(t) + " 0 ABCDEFGHIJKLMNOP" + tail + " 1\n";
    r2 += std::to_string(t) + " Q0 ABCDEFGHIJKLMNOP 1 2 t\n" + std::to_string(t) + " Q0 ABCDEFGHIJKLMNOPw 2 1 t\n";
  }
  const auto qq = qrels_from(q2);
  irtopics::EvalWorkspace ws;
  irtopics::RunResult res;
  irtopics::evaluate_run(run_from(r2), qq, opt, ws, res);
  long wrong = 0;
  for (const auto& prof : res.profile) wrong += prof != std::vector<int>{irtopics::kNotInPool, irtopics::kNotInPool};
  CHECK(res.profile.size() == 60 && wrong == 0);
}

// The qrels index's groups of control bytes with chosen hashes, so that
// every path is taken: docnos with one hash (one tag: candidates that are
// not the docno, groups that fill up and probe sequences of several groups),
// a home group at the end of the table (the sequence wraps to the start),
// equal tags in other groups, a judged docno repeated in a later group (a
// duplicate), and docnos of 1 to 24 bytes. Each lookup through find() and
// through probe() + settle() (finishing with find() when they do not settle,
// as evaluate_lines() does) gives the entry, and a docno not judged is not
// found.
void test_qrels_groups() {
  Context ctx("qrels groups");
  using irtopics::Qrels;
  auto build = [](const std::vector<std::pair<std::string, uint64_t>>& docs) {
    Qrels q;
    q.file = "groups";
    q.topics = {"1"};
    q.topic_index["1"] = 0;
    for (const auto& d : docs) q.text += d.first + std::string(irtopics::kTextPadding, '\0');
    std::size_t at = 0;
    for (std::size_t k = 0; k < docs.size(); ++k) {
      q.entries.push_back({docs[k].second, 0, static_cast<int32_t>(k % 3), static_cast<uint32_t>(k + 1),
                           std::string_view(q.text.data() + at, docs[k].first.size())});
      at += docs[k].first.size() + irtopics::kTextPadding;
    }
    q.build_index();
    q.prepare(1);
    return q;
  };
  const uint64_t one = 0x5a00000000000013ULL;  // one tag, home group 16 (the table has 256 slots)
  std::vector<std::pair<std::string, uint64_t>> docs;
  for (int k = 0; k < 40; ++k) {
    std::string d = "doc" + std::to_string(k);
    if (k % 5 == 0) d += "-a-much-longer-docno";  // > 16 bytes: the text's tail compared
    docs.emplace_back(d, one);
  }
  // Twenty with the table's last home group (slots 240..255) and another
  // tag (four wrap to group 0), seven with the same tag as `one` but home
  // group 0.
  const uint64_t last = 0x11000000000000f7ULL;
  for (int k = 0; k < 20; ++k) docs.emplace_back("end" + std::to_string(k), last);
  for (int k = 0; k < 7; ++k) docs.emplace_back("z" + std::to_string(k), 0x5a00000000000001ULL);
  for (int k = 0; k < 3; ++k) docs.emplace_back(std::string(k + 1, 'q'), 0x2200000000000070ULL + k);
  const Qrels q = build(docs);
  CHECK(q.slot_mask[0] == 255 && q.ctrl.size() == 256);
  const Qrels::TopicTable table = q.table(0);
  long bad = 0, unsettled = 0;
  auto look = [&](const std::string& d, uint64_t h) -> long {
    const long by_find = q.find(0, d, h);
    std::string padded = d + std::string(16, '\0');
    uint64_t w0 = 0, w1 = 0;
    irtopics::load_short(padded.data(), std::min<std::size_t>(d.size(), 16), &w0, &w1);
    if (d.size() <= 16) {
      long e = -2;
      int g = 0;
      const bool settled = Qrels::settle(Qrels::probe(table, h), w0, w1, d.size(), &e, &g);
      unsettled += !settled;
      if (!settled) e = q.find(0, d, h);
      bad += e != by_find;
      if (settled && e >= 0) bad += g != q.entries[static_cast<std::size_t>(e)].grade;
    }
    return by_find;
  };
  for (std::size_t k = 0; k < docs.size(); ++k) bad += look(docs[k].first, docs[k].second) != static_cast<long>(k);
  for (const auto& d : docs) bad += look(d.first + "x", d.second) != -1;  // not judged, same hash
  bad += look("doc1", 0x5a00000000000001ULL) != -1;                        // judged, other hash
  CHECK_MSG(bad == 0, std::to_string(bad) + " lookups wrong");
  CHECK(unsettled > 0);  // the shared tag leaves some probes to find()
  // No docno matches the empty candidate, not even an empty one (zero
  // words): a probe without a candidate in a full group stays unsettled.
  {
    long e = 0;
    int g = 0;
    CHECK(!Qrels::settle(Qrels::Probe{&Qrels::kNoSlot, false}, 0, 0, 0, &e, &g) && e == -1);
    CHECK(Qrels::settle(Qrels::Probe{&Qrels::kNoSlot, true}, 0, 0, 3, &e, &g) && e == -1);
  }
  // A tag in the control bytes at the slot of each entry: two groups filled
  // by `one` (slots 16..47), the last group by `last`, whose last four
  // entries wrapped to slots 0..3.
  long tags = 0;
  for (uint64_t i = 0; i < 256; ++i) tags += q.ctrl[i] != 0;
  CHECK(tags == static_cast<long>(docs.size()));
  for (uint64_t i = 16; i < 48; ++i) CHECK(q.ctrl[i] == Qrels::tag(one));
  for (uint64_t i = 240; i < 256; ++i) CHECK(q.ctrl[i] == Qrels::tag(last));
  for (uint64_t i = 0; i < 4; ++i) CHECK(q.ctrl[i] == Qrels::tag(last) && q.slots[i].entry == 57 + i);
  // A docno judged twice, its second copy probed past two full groups.
  auto twice = docs;
  twice.emplace_back("doc33", one);
  CHECK_INPUT_ERROR(build(twice), "duplicate", static_cast<long>(twice.size()));
}

// A ranking already in trec_eval order (score descending, ties by docno
// descending) is not sorted; one in score order with ties out of docno order
// has only its tied groups sorted; any other order is sorted whole. All three
// give trec_eval's order.
void test_trec_order() {
  Context ctx("trec_eval order");
  const auto q = qrels_from("1 0 z 1\n1 0 m 0\n1 0 a 2\n1 0 q 1\n1 0 b 0\n1 0 c 2\n");
  irtopics::EvalOptions opt;
  opt.measures = {fixtures::measure(MeasureKind::AP)};
  opt.want_profiles = true;
  irtopics::EvalWorkspace ws;
  const std::vector<int> want = {2, 1, 0, 2, 1, 0};  // c (3), z m a (2), q b (1)
  for (const char* text : {"1 Q0 c 1 3 t\n1 Q0 z 2 2 t\n1 Q0 m 3 2 t\n1 Q0 a 4 2 t\n1 Q0 q 5 1 t\n1 Q0 b 6 1 t\n",
                           "1 Q0 c 1 3 t\n1 Q0 a 2 2 t\n1 Q0 z 3 2 t\n1 Q0 m 4 2 t\n1 Q0 b 5 1 t\n1 Q0 q 6 1 t\n",
                           "1 Q0 b 1 1 t\n1 Q0 m 2 2 t\n1 Q0 c 3 3 t\n1 Q0 q 4 1 t\n1 Q0 a 5 2 t\n1 Q0 z 6 2 t\n"}) {
    irtopics::RunResult r;
    irtopics::evaluate_run(run_from(text), q, opt, ws, r);
    CHECK_MSG(r.profile.size() == 1 && r.profile[0] == want, text);
  }
  // Random rankings with many ties (scores from 12 values, docnos of 1 to
  // 20 bytes): in score order with ties in any docno order (only the groups
  // holding a pair out of order are sorted), and, one in four, shuffled
  // (sorted whole). Every document is relevant, so the return orders give
  // each one's rank, which must be its position in a std::sort by score
  // descending, then docno descending.
  Lcg rng{2026};
  long wrong = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 2 + rng.below(300);
    std::vector<std::pair<double, std::string>> lines;
    std::map<std::string, int> used;
    while (lines.size() < n) {
      std::string d;
      const std::size_t len = 1 + rng.below(20);
      while (d.size() < len) d += static_cast<char>('a' + rng.below(4));
      if (used.count(d)) continue;
      used[d] = 1;
      lines.emplace_back(static_cast<double>(rng.below(12)) / 4, d);
    }
    auto want = lines;
    std::sort(want.begin(), want.end(), [](const auto& x, const auto& y) {
      return x.first != y.first ? x.first > y.first : x.second > y.second;
    });
    if (rng.below(4) != 0) {  // score order, ties shuffled
      lines = want;
      for (std::size_t k = 1; k < n; ++k) {
        if (lines[k].first == lines[k - 1].first && rng.below(2)) std::swap(lines[k], lines[k - 1]);
      }
    } else {
      for (std::size_t k = n - 1; k > 0; --k) std::swap(lines[k], lines[rng.below(k + 1)]);
    }
    std::string qtext, rtext;
    for (const auto& l : lines) {
      qtext += "1 0 " + l.second + " 1\n";
      rtext += "1 Q0 " + l.second + " 0 " + std::to_string(l.first) + " t\n";
    }
    const auto qq = qrels_from(qtext);
    irtopics::EvalOptions o;
    o.depth = 0;
    o.measures = {fixtures::measure(MeasureKind::AP)};
    o.want_orders = true;
    irtopics::RunResult r;
    irtopics::evaluate_run(run_from(rtext), qq, o, ws, r);
    // qq.relevant[0] is in docno byte order; its positions are the ranks.
    std::map<std::string, int> rank;
    for (std::size_t k = 0; k < n; ++k) rank[want[k].second] = static_cast<int>(k + 1);
    for (std::size_t j = 0; j < qq.relevant[0].size(); ++j) {
      wrong += r.orders.at(0).at(j) != rank[std::string(qq.relevant[0][j])];
    }
  }
  CHECK_MSG(wrong == 0, std::to_string(wrong) + " ranks differ from the sorted order");
}

void test_qrels_parser() {
  Context ctx("qrels parser");
  const std::string plain = "1 0 a 1\n1 0 b 0\n\n2 0 a 2\n2 0 c -1\n";
  const std::string spaced = "1\t0\ta\t1\n  1  0 \t b   0 \n\t\n2 0 a +2\n2\t0\tc\t-1";
  const auto a = qrels_from(plain);
  CHECK(a.topics == (std::vector<std::string>{"1", "2"}));
  CHECK(a.entries.size() == 4);
  CHECK(a.entries[3].grade == -1 && a.entries[3].line == 5);
  CHECK(a.num_rel == (std::vector<long>{1, 1}));
  CHECK(a.num_nonrel == (std::vector<long>{1, 0}));
  CHECK(a.find(0, "a", irtopics::hash_docno("a")) == 0);
  CHECK(a.find(0, "c", irtopics::hash_docno("c")) == -1);
  CHECK(a.find(1, "c", irtopics::hash_docno("c")) == 3);
  CHECK(same_qrels(a, qrels_from(to_crlf(plain))));
  CHECK(same_qrels(a, qrels_from(spaced)));
  CHECK(same_qrels(a, qrels_from(to_crlf(spaced))));

  // prepare(2): only grade >= 2 is relevant; relevant docnos in byte order.
  auto b = qrels_from("1 0 z 2\n1 0 b 3\n1 0 m 1\n1 0 a 0\n", 2);
  CHECK(b.num_rel[0] == 2 && b.num_nonrel[0] == 2);
  CHECK(b.relevant[0].size() == 2 && b.relevant[0][0] == "b" && b.relevant[0][1] == "z");
  CHECK(b.rel_index == (std::vector<int32_t>{1, 0, -1, -1}));

  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n1 0 b\n"), "parse", 2);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1 extra\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n\n1 0 b 1.5.0\n"), "parse", 3);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n1 0 b nan\n"), "parse", 2);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n1 0 b inf\n"), "parse", 2);
  // the lowest int is R's NA_integer_: refused (issue 43)
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n1 0 b -2147483648\n"), "parse", 2);
  CHECK(qrels_from("1 0 a -2147483647\n").entries[0].grade == -2147483647);
  CHECK_INPUT_ERROR(qrels_from("1 0 a x\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a +-1\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 99999999999\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1000001\n"), "parse", 1);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 1\n2 0 a 1\n1 0 a 0\n"), "duplicate", 3);
  CHECK_INPUT_ERROR(qrels_from(""), "file", 0);
  CHECK_INPUT_ERROR(qrels_from(" \r\n\n"), "file", 0);
  // The largest grade accepted is accepted.
  CHECK(qrels_from("1 0 a 1000000\n").levels[0].size() == 1000001);

  // The grade count tables of all topics are bounded (kMaxLevelCounts,
  // 2^24): 16 topics at grade 1e6 fit (16 * 1000001 counts), a 17th does not.
  std::string many;
  for (int t = 1; t <= 17; ++t) many += "t" + std::to_string(t) + " 0 d 1000000\n";
  const std::size_t cut = many.find("t17 ");
  CHECK(qrels_from(many.substr(0, cut)).levels.size() == 16);
  CHECK_INPUT_ERROR(qrels_from(many), "data", 17);
  CHECK_INPUT_ERROR(qrels_from("a 0 x 1\n" + many), "data", 18);

  // QrelsBuilder: the same qrels from memory; grades above the limit are
  // "data" errors there.
  irtopics::Qrels c;
  {
    irtopics::QrelsBuilder qb(c);
    for (const auto& e : a.entries) qb.add(a.topics[e.topic], e.docno, e.grade, e.line);
    qb.finish();
  }
  c.prepare(1);
  CHECK(same_qrels(a, c));
  irtopics::Qrels d;
  irtopics::QrelsBuilder qb(d);
  qb.add("1", "a", irtopics::kMaxGrade + 1, 7);
  CHECK_INPUT_ERROR(qb.finish(), "data", 7);

  // Fractional grades (issue 41): codes by rank among the topic's values
  // >= 0, -1 for a negative value; the threshold becomes a per-topic code
  // level; the per-topic gains map codes back to the values.
  auto f = qrels_from("1 0 a 0.5\n1 0 b 2\n1 0 c 0\n1 0 d -0.5\n2 0 a 0.25\n", 1);
  CHECK(f.fractional);
  CHECK(f.value == (std::vector<double>{0.5, 2, 0, -0.5, 0.25}));
  CHECK(f.entries[0].grade == 1 && f.entries[1].grade == 2 && f.entries[2].grade == 0 &&
        f.entries[3].grade == -1 && f.entries[4].grade == 0);
  CHECK(f.topic_gains[0].by_grade == (std::vector<double>{0, 0.5, 2}) && f.topic_gains[0].grade_values);
  CHECK(f.topic_level == (std::vector<int>{2, 1}));  // threshold 1: topic 1 code 2 (grade 2), topic 2 none
  CHECK(f.num_rel == (std::vector<long>{1, 0}) && f.num_nonrel == (std::vector<long>{2, 1}));
  f.prepare(0.5);
  CHECK(f.topic_level == (std::vector<int>{1, 1}) && f.num_rel == (std::vector<long>{2, 0}));
  // the builder gives the same
  irtopics::Qrels g;
  {
    irtopics::QrelsBuilder fb(g);
    for (std::size_t k = 0; k < f.entries.size(); ++k) {
      fb.add_value(f.topics[f.entries[k].topic], f.entries[k].docno, f.value[k], f.entries[k].line);
    }
    fb.finish();
  }
  g.prepare(0.5);
  CHECK(same_qrels(f, g) && g.value == f.value);
  CHECK_INPUT_ERROR(qrels_from("1 0 a 0.5\n1 0 b 1e7\n"), "parse", 2);
  // integer grades: a threshold with a fraction is the next whole number
  auto h = qrels_from("1 0 z 2\n1 0 b 3\n1 0 m 1\n1 0 a 0\n", 1);
  h.prepare(1.5);
  CHECK(h.relevance_level == 2 && h.num_rel[0] == 2);
}

void test_files() {
  Context ctx("read_whole_file");
  TempDir dir;
  const std::string text = "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n";
  std::string out;

  write_file(dir.file("plain.txt"), text);
  irtopics::read_whole_file(dir.file("plain.txt"), out);
  CHECK(out == text);

  const std::string gz = gzip_bytes(text, dir.file("scratch.gz"));
  CHECK(gz.size() > 18 && static_cast<unsigned char>(gz[0]) == 0x1f);
  write_file(dir.file("run.gz"), gz);
  irtopics::read_whole_file(dir.file("run.gz"), out);
  CHECK(out == text);
  // gzip detected by its magic bytes, whatever the name
  write_file(dir.file("run.txt"), gz);
  irtopics::read_whole_file(dir.file("run.txt"), out);
  CHECK(out == text);
  // a plain file named .gz is read as it is
  write_file(dir.file("plain.gz"), text);
  irtopics::read_whole_file(dir.file("plain.gz"), out);
  CHECK(out == text);
  // the buffer is reused: a shorter file after a longer one
  write_file(dir.file("short.txt"), "x");
  irtopics::read_whole_file(dir.file("short.txt"), out);
  CHECK(out == "x");

  write_file(dir.file("trunc.gz"), gz.substr(0, gz.size() / 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("trunc.gz"), out), "file", 0);
  write_file(dir.file("magic.gz"), gz.substr(0, 2));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("magic.gz"), out), "file", 0);
  std::string corrupt = gz;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  write_file(dir.file("corrupt.gz"), corrupt);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("corrupt.gz"), out), "file", 0);
  write_file(dir.file("empty.txt"), "");
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("empty.txt"), out), "file", 0);
  write_file(dir.file("empty.gz"), gzip_bytes("", dir.file("scratch2.gz")));
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("empty.gz"), out), "file", 0);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.file("missing"), out), "file", 0);
  CHECK_INPUT_ERROR(irtopics::read_whole_file(dir.path, out), "file", 0);

  // Whole files through the readers; errors name the file.
  irtopics::Run run;
  irtopics::read_run_file(dir.file("run.gz"), run);
  CHECK(run.size() == 2 && run.file == dir.file("run.gz"));
  write_file(dir.file("bad.gz"), gzip_bytes("1 Q0 a 1 2 t\n1 Q0 b 2 x t\n", dir.file("s3.gz")));
  try {
    irtopics::read_run_file(dir.file("bad.gz"), run);
    CHECK_MSG(false, "bad.gz should not parse");
  } catch (const InputError& e) {
    CHECK(std::string(e.kind()) == "parse" && e.line == 2 && e.file == dir.file("bad.gz"));
  }
  irtopics::Qrels q;
  write_file(dir.file("qrels.gz"), gzip_bytes(fixtures::small_qrels_text(), dir.file("s4.gz")));
  irtopics::read_qrels_file(dir.file("qrels.gz"), q);
  CHECK(q.entries.size() == 10 && q.topics.size() == 3);
}

// The run parser's AVX2 loop (RunParser::lines_wide(), for next() and
// next_topic(), taken when the processor has AVX2, BMI1 and BMI2) against the portable
// loop: random texts of lines with zero to eight fields of random bytes (the
// six white-space bytes, other control bytes, bytes with the high bit set,
// '#', signs, points and digits), lines on both sides of the 64-byte window,
// topics and tags of 1 to 24 bytes, give the same run (every topic, score
// bit for bit, docno, line number and tag) or the same InputError (kind,
// line and message) through parse_run(), and the same evaluation or error
// through the streaming path in small pieces (read_and_evaluate()). Also
// PaddedKey, the parser's comparison of each line's topic and tag with the
// kept ones, against plain string equality.
void test_avx2_paths() {
  Context ctx("avx2 paths");
  Lcg rng{20261127};
  auto next = [&](uint64_t n) { return rng.below(n); };
  // PaddedKey: fields of 1 to 24 bytes followed by bytes that are not zero
  // (the key must mask them), equal or differing in one byte or in length.
  {
    long bad = 0;
    for (int round = 0; round < 20000; ++round) {
      const std::size_t n = 1 + next(24);
      std::string a(n, 'x');
      for (auto& ch : a) ch = static_cast<char>(1 + next(255));
      std::string b = a;
      switch (next(4)) {
        case 0: break;
        case 1: b[next(n)] ^= static_cast<char>(1 + next(255)); break;
        case 2: b.push_back('y'); break;
        default: b.pop_back(); break;
      }
      if (b.empty()) b = "z";
      std::string ta = a + std::string(24, '\x7f'), tb = b + std::string(24, '\x01');
      irtopics::PaddedKey key;
      key.set(std::string_view(ta.data(), a.size()));
      if (key.same(std::string_view(tb.data(), b.size()), a) != (a == b)) ++bad;
    }
    CHECK_MSG(bad == 0, std::to_string(bad) + " of 20000 comparisons wrong");
  }
  const bool wide = irtopics::avx2_paths_active();
  std::printf("driver: the AVX2 run parser is %s\n", wide ? "on (compared with the portable one)"
                                                          : "not built or not supported here (both runs portable)");
  const char bytes[] = {' ', '\t', '\v', '\f', '\r', '\x01', '\x1c', '\x7f', '\x80', '\xff', '#', '-', '+', '.', 'e', '0', '5', '9', 'a', 'Z'};
  auto field = [&](std::size_t max_len, bool odd) {
    std::string f;
    const std::size_t n = 1 + next(max_len);
    for (std::size_t i = 0; i < n; ++i) {
      f += odd && next(4) == 0 ? bytes[next(sizeof bytes)] : static_cast<char>('0' + next(10));
    }
    return f;
  };
  const std::vector<std::string> topics = {"1", "2", "301", "30", "abcdefgh", "abcdefghi", "0123456789abcdef",
                                           "0123456789abcdeg", "0123456789abcdef0123"};
  const std::vector<std::string> tags = {"tag", "tab", "run-with-a-long-tag-name", "run-with-a-long-tag-namf",
                                         "exactly-16-bytes"};
  auto parse = [&](const std::string& text, bool avx2) {
    const bool was = irtopics::allow_avx2_paths(avx2);
    std::string result;
    try {
      const irtopics::Run r = run_from(text);
      result = r.tag;
      for (std::size_t i = 0; i < r.size(); ++i) {
        double s = r.score[i];
        uint64_t bits;
        std::memcpy(&bits, &s, 8);
        result += "|" + r.topics[r.topic[i]] + " " + std::string(r.docno[i]) + " " + std::to_string(bits) + " " +
                  std::to_string(r.line[i]);
      }
    } catch (const InputError& e) {
      result = std::string("error ") + e.kind() + ":" + std::to_string(e.line) + ":" + e.what();
    }
    irtopics::allow_avx2_paths(was);
    return result;
  };
  TempDir dir;
  const irtopics::Qrels q = qrels_from(fixtures::small_qrels_text());
  irtopics::EvalOptions opt;
  opt.measures = fixtures::all_measures();
  irtopics::EvalWorkspace ws;
  auto evaluate = [&](const std::string& path, bool avx2, std::size_t piece) {
    const bool was = irtopics::allow_avx2_paths(avx2);
    std::string result;
    try {
      irtopics::Run run;
      irtopics::RunResult out;
      irtopics::read_and_evaluate(path, q, opt, ws, run, out, piece);
      for (const auto& id : out.list_id) result += id + " ";
      for (const auto& id : out.unknown_topics) result += "unknown " + id + " ";
      for (double v : out.values) result += num(v) + " ";
    } catch (const InputError& e) {
      result = std::string("error ") + e.kind() + ":" + std::to_string(e.line) + ":" + e.what();
    }
    irtopics::allow_avx2_paths(was);
    return result;
  };
  long texts = 0, errors = 0, differ = 0, differ_eval = 0;
  for (int round = 0; round < 600; ++round) {
    const bool odd = next(3) == 0;  // odd bytes in the fields (most such texts are refused)
    std::string text;
    const std::string tag = tags[next(tags.size())];
    const int n_lines = 1 + static_cast<int>(next(60));
    std::size_t topic = next(topics.size());
    for (int l = 0; l < n_lines; ++l) {
      if (next(15) == 0) topic = next(topics.size());
      std::vector<std::string> f = {topics[topic], "Q0",
                                    next(25) == 0 ? std::string(1, "abcdx"[next(5)]) : field(next(4) == 0 ? 40 : 14, odd), field(3, false),
                                    next(odd ? 8 : 100) == 0 ? field(10, true) : std::to_string(next(100)) + "." + std::to_string(next(1000)),
                                    next(300) == 0 ? tags[next(tags.size())] : tag};
      const int n_fields = next(300) == 0 ? static_cast<int>(next(6)) : 6 + static_cast<int>(next(3));
      f.resize(static_cast<std::size_t>(n_fields), "x");
      std::string line = next(5) == 0 ? std::string(1 + next(3), " \t\v\f\r"[next(5)]) : "";
      for (int k = 0; k < n_fields; ++k) line += (k ? std::string(1 + next(2), " \t"[next(2)]) : "") + f[k];
      if (next(4) == 0) line += std::string(1 + next(40), " \t\r"[next(3)]);
      text += line + "\n";
    }
    if (next(4) == 0) text.pop_back();
    ++texts;
    const std::string a = parse(text, true), b = parse(text, false);
    errors += a.rfind("error ", 0) == 0;
    if (a != b) {
      ++differ;
      if (differ <= 3) std::fprintf(stderr, "avx2 paths differ:\n%s\n%s\n", a.c_str(), b.c_str());
    }
    if (round % 4 == 0) {
      const std::string path = dir.file("avx2.txt");
      write_file(path, text);
      const std::size_t piece = 1 + next(300);
      if (evaluate(path, true, piece) != evaluate(path, false, piece)) ++differ_eval;
    }
  }
  CHECK_MSG(differ == 0, std::to_string(differ) + " of " + std::to_string(texts) + " texts parsed differently");
  CHECK_MSG(differ_eval == 0, std::to_string(differ_eval) + " texts evaluated differently");
  CHECK_MSG(errors > 50 && errors < texts - 100,  // both valid and refused texts
            std::to_string(errors) + " of " + std::to_string(texts) + " texts refused");
}
