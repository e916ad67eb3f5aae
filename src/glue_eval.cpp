// Rcpp glue for the TREC reader and evaluator (trec_io.h, evaluate.h).
// Converts R arguments to plain C++ structures, runs the evaluation (threaded
// over runs by the parallel driver, parallel.h; only the main thread touches
// R, to poll for interrupts) and converts the results back. Input errors are
// irtopics::InputError / irtopics::Error (errors.h), raised in R by the glue's
// one adapter, irtopics_glue::guard() (glue_guard.h).
#include <Rcpp.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <exception>
#include <memory>
#include <numeric>

#include "evaluate.h"
#include "glue_guard.h"
#include "glue_interrupt.h"
#include "glue_measures.h"
#include "parallel.h"
#include "trec_io.h"

using namespace Rcpp;
using irtopics::Error;
using irtopics::ErrorKind;
using irtopics::InputError;

namespace {

// The Qrels behind an external pointer from qrels_pointer(), without an
// Rcpp XPtr (see cpp_qrels_table()). A pointer restored from a saved session
// is NULL: an error, not a crash.
const irtopics::Qrels* qrels_address(SEXP ptr) {
  if (TYPEOF(ptr) != EXTPTRSXP || R_ExternalPtrAddr(ptr) == nullptr) {
    throw Error(ErrorKind::argument, "the qrels pointer is not valid (was it saved and restored from another session?)");
  }
  return static_cast<const irtopics::Qrels*>(R_ExternalPtrAddr(ptr));
}

// A depth or cut-off from R: a whole number in [0, INT_MAX] (the R wrappers
// check them; this keeps a direct call from casting 1e300 to long).
long checked_count(double x, const char* what) {
  if (!(x >= 0 && x <= std::numeric_limits<int>::max()) || x != std::floor(x)) {
    throw Error(ErrorKind::data, std::string(what) + " must be a whole number in [0, 2147483647]");
  }
  return static_cast<long>(x);
}

// Measures come by name with their parameters as named fields
// (measures_from_r(), src/glue_measures.cpp); fraction and depth are the
// exclusion measure's, shared by all.
irtopics::EvalOptions make_options(const List& measures, double fraction, double depth,
                                   NumericVector gains) {
  irtopics::EvalOptions opt;
  opt.depth = checked_count(depth, "the depth");
  if (!(fraction >= 0 && fraction <= 1)) throw Error(ErrorKind::data, "the fraction must be in [0, 1]");
  opt.measures = irtopics_glue::measures_from_r(measures);
  for (irtopics::Measure& m : opt.measures) {
    m.fraction = fraction;
    m.depth = opt.depth > 0 ? opt.depth : 1000;
  }
  for (double g : gains) {
    if (!std::isfinite(g)) throw Error(ErrorKind::data, "gains must be finite");
  }
  opt.gains.by_grade.assign(gains.begin(), gains.end());
  return opt;
}

// Checks a run handed over from R (an element of cpp_evaluate's mem_runs):
// what R's validate_ir_run()/run_source() guarantee, again, so that no list
// can make the loops below read outside a vector. Throws Error(data).
void check_mem_run(const List& x, R_xlen_t r) {
  const std::string where = "run " + std::to_string(r + 1) + " ";
  auto fail = [&](const std::string& msg) { throw Error(ErrorKind::data, where + msg); };
  if (!x.containsElementNamed("name") || !x.containsElementNamed("topic") ||
      !x.containsElementNamed("docno") || !x.containsElementNamed("score")) {
    fail("must have elements name, topic, docno and score");
  }
  SEXP name = x["name"], topic = x["topic"], doc = x["docno"], score = x["score"];
  if (TYPEOF(name) != STRSXP || XLENGTH(name) != 1 || STRING_ELT(name, 0) == NA_STRING) {
    fail("needs one name");
  }
  if (TYPEOF(score) != REALSXP) fail("needs double scores");
  if (TYPEOF(topic) != STRSXP) fail("needs character topic ids");
  const R_xlen_t n = XLENGTH(score);
  if (n >= static_cast<R_xlen_t>(std::numeric_limits<uint32_t>::max())) fail("has too many lines");
  for (R_xlen_t i = 0; i < XLENGTH(topic); ++i) {
    if (STRING_ELT(topic, i) == NA_STRING) fail("has an NA topic id");
  }
  if (TYPEOF(doc) == RAWSXP) {
    if (!x.containsElementNamed("offset") || !x.containsElementNamed("topic_code")) {
      fail("needs offset and topic_code");
    }
    SEXP off = x["offset"], code = x["topic_code"];
    if (TYPEOF(off) != INTSXP || XLENGTH(off) != n + 1) fail("needs one integer offset per line plus one");
    if (TYPEOF(code) != INTSXP || XLENGTH(code) != n) fail("needs one integer topic code per line");
    const int* o = INTEGER(off);
    const int* c = INTEGER(code);
    const R_xlen_t nt = XLENGTH(topic);
    if (o[0] != 0 || static_cast<R_xlen_t>(o[n]) != XLENGTH(doc)) fail("has offsets outside the docno buffer");
    for (R_xlen_t i = 0; i < n; ++i) {
      if (o[i + 1] < o[i]) fail("has decreasing offsets");
      if (c[i] == NA_INTEGER || c[i] < 1 || c[i] > nt) fail("has a topic code out of range");
    }
  } else if (TYPEOF(doc) == STRSXP) {
    if (XLENGTH(doc) != n || XLENGTH(topic) != n) fail("needs one topic and one docno per score");
    for (R_xlen_t i = 0; i < n; ++i) {
      if (STRING_ELT(doc, i) == NA_STRING) fail("has an NA docno");
    }
  } else {
    fail("needs docnos as a character vector or a raw buffer with offsets");
  }
}

List result_to_list(const irtopics::RunResult& r, std::size_t n_meas, bool profiles, bool orders) {
  const std::size_t n = r.list_id.size();
  NumericMatrix values(static_cast<int>(n), static_cast<int>(n_meas));
  for (std::size_t l = 0; l < n; ++l)
    for (std::size_t m = 0; m < n_meas; ++m) {
      const double v = r.values[l * n_meas + m];
      values(static_cast<int>(l), static_cast<int>(m)) = std::isnan(v) ? NA_REAL : v;
    }
  IntegerVector topic(r.topic.begin(), r.topic.end());
  for (auto& t : topic) t += 1;  // 1-based for R
  List out = List::create(_["file"] = r.file, _["tag"] = r.tag,
                          _["list_id"] = wrap(r.list_id), _["topic"] = topic,
                          _["values"] = values,
                          _["num_ret"] = IntegerVector(r.num_ret.begin(), r.num_ret.end()),
                          _["unknown_topics"] = wrap(r.unknown_topics));
  if (profiles) {
    List prof(n);
    for (std::size_t l = 0; l < n; ++l) {
      IntegerVector g(r.profile[l].begin(), r.profile[l].end());
      for (auto& x : g) if (x < 0) x = NA_INTEGER;
      prof[l] = g;
    }
    out["profiles"] = prof;
  }
  if (orders) {
    List ord(n);
    for (std::size_t l = 0; l < n; ++l) ord[l] = IntegerVector(r.orders[l].begin(), r.orders[l].end());
    out["orders"] = ord;
  }
  return out;
}

std::unique_ptr<std::unordered_map<std::string, std::string>> make_query_map(Nullable<CharacterVector> query,
                                                                             Nullable<CharacterVector> topic) {
  if (query.isNull()) return nullptr;
  CharacterVector q(query), t(topic);
  if (q.size() != t.size()) throw Error(ErrorKind::data, "the query map needs one topic per query");
  auto map = std::make_unique<std::unordered_map<std::string, std::string>>();
  for (R_xlen_t i = 0; i < q.size(); ++i) (*map)[as<std::string>(q[i])] = as<std::string>(t[i]);
  return map;
}

// Where cpp_evaluate()'s time goes, per thread of its parallel loop (for
// evaluation_phases(), R/eval-timing.R): the phases of EvalTiming, the wall
// time from the loop's start to the thread's first run (thread start-up) and
// after its last run (waiting for the other threads), the wall time spent
// in runs, and the thread's CPU time in them (less than that wall time when
// other processes took the core).
class ThreadClocks {
 public:
  struct Thread {
    int64_t first = -1, last = 0, busy = 0, cpu = 0, runs = 0;
    irtopics::EvalTiming phases;
  };
  explicit ThreadClocks(int n) : start_(irtopics::steady_ns()), t_(static_cast<std::size_t>(n)) {}
  // Times one run of thread `tid`, keeping its workspace's phase sums.
  class Item {
   public:
    Item(ThreadClocks& c, int tid, const irtopics::EvalTiming& ws)
        : t_(c.t_[static_cast<std::size_t>(tid)]), ws_(ws), wall_(irtopics::steady_ns()), cpu_(cpu_ns()) {
      if (t_.first < 0) t_.first = wall_ - c.start_;
    }
    ~Item() {
      const int64_t now = irtopics::steady_ns();
      t_.busy += now - wall_;
      t_.cpu += cpu_ns() - cpu_;
      t_.last = now;
      t_.phases = ws_;
      ++t_.runs;
    }
   private:
    Thread& t_;
    const irtopics::EvalTiming& ws_;
    const int64_t wall_, cpu_;
  };
  void loop_done() { end_ = irtopics::steady_ns(); }
  List to_list() const {
    const std::size_t n = t_.size();
    NumericMatrix phases(static_cast<int>(n), irtopics::EvalTiming::n_phases);
    NumericVector start(n), wait(n), busy(n), cpu(n), runs(n), topics(n), lines(n);
    for (std::size_t k = 0; k < n; ++k) {
      const Thread& t = t_[k];
      for (int p = 0; p < irtopics::EvalTiming::n_phases; ++p) phases(k, p) = t.phases.ns[p] * 1e-9;
      start[k] = (t.first < 0 ? end_ - start_ : t.first) * 1e-9;
      wait[k] = (t.first < 0 ? 0 : end_ - t.last) * 1e-9;
      busy[k] = t.busy * 1e-9;
      cpu[k] = t.cpu * 1e-9;
      runs[k] = static_cast<double>(t.runs);
      topics[k] = static_cast<double>(t.phases.topics);
      lines[k] = static_cast<double>(t.phases.lines);
    }
    colnames(phases) = CharacterVector::create("read", "parse", "order", "hash", "lookup", "measures");
    return List::create(_["loop"] = (end_ - start_) * 1e-9, _["phases"] = phases, _["start"] = start,
                        _["wait"] = wait, _["busy"] = busy, _["cpu"] = cpu, _["runs"] = runs,
                        _["topics"] = topics, _["lines"] = lines);
  }

 private:
  static int64_t cpu_ns() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
  }
  const int64_t start_;
  int64_t end_ = 0;
  std::vector<Thread> t_;
};

}  // namespace

// Qrels --------------------------------------------------------------------

// [[Rcpp::export(rng = false)]]
List cpp_qrels_read(std::string path, int relevance_level) {
  return irtopics_glue::guard([&]() -> List {
  auto q = std::make_unique<irtopics::Qrels>();
  irtopics_glue::with_interrupts(
      [&](irtopics::CancelToken* cancel) { irtopics::read_qrels_file(path, *q, cancel); });
  q->prepare(relevance_level);
  const NumericVector took = NumericVector::create(_["read"] = q->ns_read * 1e-9, _["parse"] = q->ns_parse * 1e-9,
                                                   _["index"] = q->ns_index * 1e-9, _["prepare"] = q->ns_prepare * 1e-9);
  return List::create(_["ptr"] = XPtr<irtopics::Qrels>(q.release(), true), _["timing"] = took);
  });
}

// [[Rcpp::export(rng = false)]]
List cpp_qrels_from_vectors(CharacterVector topic, CharacterVector docno, IntegerVector rel,
                            int relevance_level, std::string label) {
  return irtopics_glue::guard([&]() -> List {
  auto q = std::make_unique<irtopics::Qrels>();
  q->file = label;
  irtopics::QrelsBuilder b(*q);
  for (R_xlen_t i = 0; i < topic.size(); ++i) {
    b.add(std::string_view(CHAR(STRING_ELT(topic, i))), std::string_view(CHAR(STRING_ELT(docno, i))),
          rel[i], static_cast<uint32_t>(i + 1));
  }
  b.finish();
  q->prepare(relevance_level);
  return List::create(_["ptr"] = XPtr<irtopics::Qrels>(q.release(), true));
  });
}

// [[Rcpp::export(rng = false)]]
List cpp_qrels_info(SEXP ptr, bool with_relevant) {
  return irtopics_glue::guard([&]() -> List {
  const irtopics::Qrels* q = qrels_address(ptr);
  const std::size_t nt = q->topics.size();
  // The relevant docnos (as R strings) only when asked: return_orders()
  // needs them, evaluate() does not. Made first, with the plain R API under
  // PROTECT and no Rcpp object alive (see cpp_qrels_table()).
  SEXP relevant = PROTECT(Rf_allocVector(VECSXP, with_relevant ? static_cast<R_xlen_t>(nt) : 0));
  for (std::size_t t = 0; with_relevant && t < nt; ++t) {
    const auto& rel = q->relevant[t];
    SEXP d = Rf_allocVector(STRSXP, static_cast<R_xlen_t>(rel.size()));
    SET_VECTOR_ELT(relevant, static_cast<R_xlen_t>(t), d);
    for (std::size_t k = 0; k < rel.size(); ++k) {
      SET_STRING_ELT(d, static_cast<R_xlen_t>(k),
                     Rf_mkCharLenCE(rel[k].data(), static_cast<int>(rel[k].size()), CE_NATIVE));
    }
  }
  IntegerVector num_rel(nt), num_nonrel(nt), num_judged(nt), max_grade(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    num_rel[t] = static_cast<int>(q->num_rel[t]);
    num_nonrel[t] = static_cast<int>(q->num_nonrel[t]);
    max_grade[t] = static_cast<int>(q->levels[t].size()) - 1;  // -1: no judged grade >= 0
  }
  for (const auto& e : q->entries) ++num_judged[e.topic];
  List out = List::create(_["topics"] = wrap(q->topics), _["num_rel"] = num_rel,
                          _["num_nonrel"] = num_nonrel, _["num_judged"] = num_judged,
                          _["max_grade"] = max_grade, _["relevant"] = relevant);
  UNPROTECT(1);
  return out;
  });
}

// The judgements as R vectors (read_qrels()). Built with the plain R API
// under PROTECT, with no Rcpp vector, XPtr or C++ temporary alive while R
// allocates: if R jumps out of the loop (an interrupt, an allocation error),
// its PROTECT stack is unwound and nothing stays preserved. Rcpp objects are
// kept alive by a preserve list that a jump does not unwind, so each
// interrupted call used to leak the vectors made so far (RSS 103 MB -> 902 MB
// after 8 interrupts of read_qrels() on a big file).
// [[Rcpp::export(rng = false)]]
SEXP cpp_qrels_table(SEXP ptr) {
  return irtopics_glue::guard([&]() -> SEXP {
  const irtopics::Qrels* q = qrels_address(ptr);
  const R_xlen_t n = static_cast<R_xlen_t>(q->entries.size());
  const R_xlen_t nt = static_cast<R_xlen_t>(q->topics.size());
  SEXP topic_ids = PROTECT(Rf_allocVector(STRSXP, nt));
  for (R_xlen_t t = 0; t < nt; ++t) {
    const std::string& id = q->topics[t];
    SET_STRING_ELT(topic_ids, t, Rf_mkCharLenCE(id.data(), static_cast<int>(id.size()), CE_NATIVE));
  }
  SEXP topic = PROTECT(Rf_allocVector(STRSXP, n));
  SEXP docno = PROTECT(Rf_allocVector(STRSXP, n));
  SEXP rel = PROTECT(Rf_allocVector(INTSXP, n));
  int* r = INTEGER(rel);
  for (R_xlen_t k = 0; k < n; ++k) {
    const auto& e = q->entries[k];
    SET_STRING_ELT(topic, k, STRING_ELT(topic_ids, e.topic));
    SET_STRING_ELT(docno, k, Rf_mkCharLenCE(e.docno.data(), static_cast<int>(e.docno.size()), CE_NATIVE));
    r[k] = e.grade;
  }
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
  SEXP names = PROTECT(Rf_allocVector(STRSXP, 3));
  SET_VECTOR_ELT(out, 0, topic);
  SET_VECTOR_ELT(out, 1, docno);
  SET_VECTOR_ELT(out, 2, rel);
  SET_STRING_ELT(names, 0, Rf_mkChar("topic"));
  SET_STRING_ELT(names, 1, Rf_mkChar("docno"));
  SET_STRING_ELT(names, 2, Rf_mkChar("rel"));
  Rf_setAttrib(out, R_NamesSymbol, names);
  UNPROTECT(6);
  return out;
  });
}

// Evaluation ---------------------------------------------------------------

// Evaluates run files (paths) or in-memory runs (a list of lists with topic,
// docno, score, name; docno either a character vector or a raw buffer with
// offsets) against the qrels.
// [[Rcpp::export(rng = false)]]
List cpp_evaluate(SEXP qrels_ptr, Nullable<CharacterVector> paths, Nullable<List> mem_runs,
                  List measures, double fraction, double depth,
                  NumericVector gains, bool want_profiles, bool want_orders,
                  Nullable<CharacterVector> map_query, Nullable<CharacterVector> map_topic,
                  int n_threads, bool timing = false) {
  return irtopics_glue::guard([&]() -> List {
  const irtopics::Qrels* qrels = qrels_address(qrels_ptr);
  irtopics::EvalOptions opt;
  std::unique_ptr<std::unordered_map<std::string, std::string>> qmap;

  // Runs from memory are converted on the main thread (R API).
  std::vector<irtopics::Run> mem;
  std::vector<std::string> files;
  if (paths.isNotNull()) files = as<std::vector<std::string>>(CharacterVector(paths));
  opt = make_options(measures, fraction, depth, gains);
  opt.want_profiles = want_profiles;
  opt.want_orders = want_orders;
  qmap = make_query_map(map_query, map_topic);
  opt.query_map = qmap.get();
  if (mem_runs.isNotNull()) {
    List runs(mem_runs);
    mem.resize(runs.size());
    for (R_xlen_t r = 0; r < runs.size(); ++r) {
      if (TYPEOF(runs[r]) != VECSXP) throw Error(ErrorKind::data, "a run must be a list");
      List x = runs[r];
      check_mem_run(x, r);
      irtopics::Run& run = mem[r];
      run.file = CHAR(STRING_ELT(x["name"], 0));
      run.tag = run.file;
      SEXP topic = x["topic"], score_sexp = x["score"], doc = x["docno"];
      const double* score = REAL(score_sexp);
      const R_xlen_t n = XLENGTH(score_sexp);
      irtopics::RunBuilder b(run);
      if (TYPEOF(doc) == RAWSXP) {
        const char* bytes = reinterpret_cast<const char*>(RAW(doc));
        const int* off = INTEGER(x["offset"]);
        const int* topic_code = INTEGER(x["topic_code"]);
        for (R_xlen_t i = 0; i < n; ++i) {
          if ((i & 0xfffff) == 0xfffff) Rcpp::checkUserInterrupt();
          const int start = off[i], stop = off[i + 1];
          SEXP t = STRING_ELT(topic, topic_code[i] - 1);
          b.add(std::string_view(CHAR(t), static_cast<std::size_t>(LENGTH(t))),
                std::string_view(bytes + start, static_cast<std::size_t>(stop - start)), score[i],
                static_cast<uint32_t>(i + 1));
        }
      } else {
        for (R_xlen_t i = 0; i < n; ++i) {
          if ((i & 0xfffff) == 0xfffff) Rcpp::checkUserInterrupt();
          SEXP t = STRING_ELT(topic, i), d = STRING_ELT(doc, i);
          b.add(std::string_view(CHAR(t), static_cast<std::size_t>(LENGTH(t))),
                std::string_view(CHAR(d), static_cast<std::size_t>(LENGTH(d))), score[i],
                static_cast<uint32_t>(i + 1));
        }
      }
      b.finish();
    }
  }

  const std::size_t n_runs = files.empty() ? mem.size() : files.size();
  std::vector<irtopics::RunResult> results(n_runs);
  std::vector<std::exception_ptr> errors(n_runs);
  const bool from_files = !files.empty();

  // Runs are handed out one at a time (their costs differ); each thread
  // keeps one run buffer and one workspace. A run's error is kept with the
  // run and the other runs go on; after the loop the first failing run in
  // order throws its error (guard() raises it in R). A cancellation stops the
  // loop and becomes an R interrupt.
  struct PerThread {
    irtopics::Run run;
    irtopics::EvalWorkspace ws;
  };
  const int n_thr = irtopics_glue::safe_threads(n_threads);
  ThreadClocks clocks(irtopics::parallel_threads(n_runs, n_thr));
  // Largest files first: the last runs handed out are then the smallest, so
  // that no thread waits long for another at the end of the loop.
  std::vector<std::size_t> hand_out(n_runs);
  std::iota(hand_out.begin(), hand_out.end(), std::size_t{0});
  if (from_files) {
    std::vector<off_t> size(n_runs, 0);
    struct stat st;
    for (std::size_t r = 0; r < n_runs; ++r) {
      if (::stat(files[r].c_str(), &st) == 0) size[r] = st.st_size;
    }
    std::stable_sort(hand_out.begin(), hand_out.end(),
                     [&](std::size_t a, std::size_t b) { return size[a] > size[b]; });
  }
  irtopics_glue::with_interrupts([&](irtopics::CancelToken* cancel) {
    opt.cancel = cancel;
    irtopics::parallel_for_local(
        n_runs, {n_thr, cancel, irtopics::Schedule::dynamic, 1},
        [] { return PerThread(); },
        [&](std::size_t i, PerThread& local, int tid) {
          const std::size_t r = hand_out[i];
          ThreadClocks::Item item(clocks, tid, local.ws.timing);
          try {
            if (from_files) {
              irtopics::read_and_evaluate(files[r], *qrels, opt, local.ws, local.run, results[r]);
            } else {
              irtopics::evaluate_run(mem[r], *qrels, opt, local.ws, results[r]);
            }
          } catch (const irtopics::Cancelled&) {
            throw;
          } catch (const Error&) {
            errors[r] = std::current_exception();
          } catch (const std::bad_alloc&) {
            errors[r] = std::current_exception();
          } catch (const std::length_error&) {
            errors[r] = std::current_exception();
          } catch (const std::exception& e) {  // a bug: name the run
            errors[r] = std::make_exception_ptr(
                Error(ErrorKind::internal, e.what(), from_files ? files[r] : mem[r].file));
          }
        });
  });
  clocks.loop_done();
  for (std::size_t r = 0; r < n_runs; ++r) {
    if (errors[r]) std::rethrow_exception(errors[r]);
  }
  List out(n_runs);
  for (std::size_t r = 0; r < n_runs; ++r) {
    out[r] = result_to_list(results[r], opt.measures.size(), want_profiles, want_orders);
  }
  if (timing) return List::create(_["runs"] = out, _["timing"] = clocks.to_list());
  return List::create(_["runs"] = out);
  });
}

// Values of an empty ranking per qrels topic (trec_eval -c), topics x measures.
// An invalid measure list is an Error(measure), as in cpp_evaluate().
// [[Rcpp::export(rng = false)]]
SEXP cpp_empty_values(SEXP qrels_ptr, List measures, double fraction, double depth,
                      NumericVector gains) {
  return irtopics_glue::guard([&]() -> SEXP {
  const irtopics::Qrels* qrels = qrels_address(qrels_ptr);
  irtopics::EvalOptions opt;
  opt = make_options(measures, fraction, depth, gains);
  std::vector<double> v = irtopics::evaluate_empty(*qrels, opt);
  const std::size_t nt = qrels->topics.size(), nm = opt.measures.size();
  NumericMatrix out(static_cast<int>(nt), static_cast<int>(nm));
  for (std::size_t t = 0; t < nt; ++t)
    for (std::size_t m = 0; m < nm; ++m) {
      const double x = v[t * nm + m];
      out(static_cast<int>(t), static_cast<int>(m)) = std::isnan(x) ? NA_REAL : x;
    }
  return out;
  });
}

// Reading a run into a compact R object --------------------------------------

// A run as R vectors without one R string per line: docnos concatenated in a
// raw vector with offsets, topics as codes into a short character vector.
// The bytes of a file as the readers see them (read_whole_file(): gzip by
// its magic bytes, concatenated members, truncated or corrupt streams and
// trailing bytes refused, FIFOs and devices refused), for files R parses
// itself (read_labels()).
// [[Rcpp::export(rng = false)]]
RawVector cpp_read_file_bytes(std::string path) {
  return irtopics_glue::guard([&]() -> RawVector {
  std::string text;
  irtopics_glue::with_interrupts(
      [&](irtopics::CancelToken* cancel) { irtopics::read_whole_file(path, text, cancel); });
  RawVector out(text.size());
  if (!text.empty()) std::memcpy(RAW(out), text.data(), text.size());
  return out;
  });
}

// [[Rcpp::export(rng = false)]]
List cpp_read_run(std::string path) {
  return irtopics_glue::guard([&]() -> List {
  irtopics::Run run;
  irtopics_glue::with_interrupts(
      [&](irtopics::CancelToken* cancel) { irtopics::read_run_file(path, run, cancel); });
  const std::size_t n = run.size();
  std::size_t bytes = 0;
  for (const auto& d : run.docno) bytes += d.size();
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw Error(ErrorKind::file, "the run is too large to hold in memory (over 2 GB of docnos)", path);
  }
  RawVector docbuf(bytes);
  IntegerVector offset(n + 1), topic_code(n), line(n);
  NumericVector score(n);
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n; ++i) {
    offset[i] = static_cast<int>(pos);
    std::memcpy(RAW(docbuf) + pos, run.docno[i].data(), run.docno[i].size());
    pos += run.docno[i].size();
    topic_code[i] = run.topic[i] + 1;
    score[i] = run.score[i];
    line[i] = static_cast<int>(run.line[i]);
  }
  offset[n] = static_cast<int>(pos);
  return List::create(_["tag"] = run.tag, _["topics"] = wrap(run.topics),
                      _["topic_code"] = topic_code, _["score"] = score, _["docno"] = docbuf,
                      _["offset"] = offset, _["line"] = line);
  });
}

// Docnos of a compact run as a character vector (for as.data.frame()). Plain
// R API, arguments as SEXP and no Rcpp object alive in the loop, for the
// reason given at cpp_qrels_table(). Errors are raised before anything is
// allocated.
// [[Rcpp::export(rng = false)]]
SEXP cpp_docnos(SEXP docbuf, SEXP offset) {
  return irtopics_glue::guard([&]() -> SEXP {
  // The same offset rule as check_mem_run(): no read outside the buffer.
  if (TYPEOF(docbuf) != RAWSXP || TYPEOF(offset) != INTSXP || XLENGTH(offset) < 1) {
    throw Error(ErrorKind::argument, "docnos need a raw buffer and integer offsets");
  }
  const int* off = INTEGER(offset);
  const R_xlen_t n = XLENGTH(offset) - 1;
  if (off[0] != 0 || static_cast<R_xlen_t>(off[n]) != XLENGTH(docbuf)) {
    throw Error(ErrorKind::argument, "offsets must start at 0 and end at the size of the docno buffer");
  }
  for (R_xlen_t i = 0; i < n; ++i) {
    if (off[i + 1] < off[i]) throw Error(ErrorKind::argument, "offsets must not decrease");
  }
  SEXP out = PROTECT(Rf_allocVector(STRSXP, n));
  const char* b = reinterpret_cast<const char*>(RAW(docbuf));
  for (R_xlen_t i = 0; i < n; ++i) {
    SET_STRING_ELT(out, i, Rf_mkCharLenCE(b + off[i], off[i + 1] - off[i], CE_NATIVE));
  }
  UNPROTECT(1);
  return out;
  });
}

// What kind of file `path` is, for check_file()'s message: "missing",
// "directory", "regular", "empty" (a regular file with nothing to read),
// "fifo", "device", "socket" or "other". A regular file of size 0 is read
// (one byte) before it is called empty: /proc files report size 0 but have
// content.
// [[Rcpp::export(rng = false)]]
std::string cpp_file_kind(std::string path) {
  return irtopics_glue::guard([&]() -> std::string {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "missing";
  if (S_ISDIR(st.st_mode)) return "directory";
  if (S_ISFIFO(st.st_mode)) return "fifo";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "device";
  if (S_ISSOCK(st.st_mode)) return "socket";
  if (!S_ISREG(st.st_mode)) return "other";
  if (st.st_size > 0) return "regular";
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK);
  if (fd < 0) return "regular";  // unreadable: the reader says so
  char c;
  const ssize_t got = ::read(fd, &c, 1);
  ::close(fd);
  return got == 0 ? "empty" : "regular";
  });
}
