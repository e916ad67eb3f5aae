// Rcpp glue for the TREC reader and evaluator (trec_io.h, evaluate.h).
// Converts R arguments to plain C++ structures, runs the evaluation (threaded
// over runs with OpenMP; inside the parallel region only the main thread
// touches R, to poll for interrupts) and converts the results back. Input errors come back as a list(kind, file, line,
// message) so that R raises them as classed conditions.
#include <Rcpp.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "evaluate.h"
#include "glue_interrupt.h"
#include "trec_io.h"

using namespace Rcpp;
using irtopics::InputError;

namespace {

List error_list(const InputError& e) {
  return List::create(_["kind"] = e.kind, _["file"] = e.file, _["line"] = e.line,
                      _["message"] = std::string(e.what()));
}

// Measures come as kind codes and a parameter matrix with one row per
// measure: cutoff, param, rel, utility p1..p4, num_docs (R/measures.R).
irtopics::EvalOptions make_options(IntegerVector kind, NumericMatrix mparams, double fraction,
                                   double depth, NumericVector gains) {
  irtopics::EvalOptions opt;
  opt.depth = static_cast<long>(depth);
  for (R_xlen_t i = 0; i < kind.size(); ++i) {
    irtopics::Measure m;
    const int r = static_cast<int>(i);
    m.kind = static_cast<irtopics::MeasureKind>(kind[i]);
    m.cutoff = static_cast<long>(mparams(r, 0));
    m.param = mparams(r, 1);
    m.rel = static_cast<int>(mparams(r, 2));
    for (int k = 0; k < 4; ++k) m.utility[k] = mparams(r, 3 + k);
    m.num_docs = mparams(r, 7);
    m.fraction = fraction;
    m.depth = opt.depth > 0 ? opt.depth : 1000;
    opt.measures.push_back(m);
  }
  opt.gains.by_grade.assign(gains.begin(), gains.end());
  return opt;
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
  auto map = std::make_unique<std::unordered_map<std::string, std::string>>();
  for (R_xlen_t i = 0; i < q.size(); ++i) (*map)[as<std::string>(q[i])] = as<std::string>(t[i]);
  return map;
}

}  // namespace

// Qrels --------------------------------------------------------------------

// [[Rcpp::export(rng = false)]]
List cpp_qrels_read(std::string path, int relevance_level) {
  auto q = std::make_unique<irtopics::Qrels>();
  try {
    irtopics_glue::with_interrupts(
        [&](irtopics::CancelToken* cancel) { irtopics::read_qrels_file(path, *q, cancel); });
  } catch (const InputError& e) {
    return List::create(_["error"] = error_list(e));
  }
  q->prepare(relevance_level);
  return List::create(_["ptr"] = XPtr<irtopics::Qrels>(q.release(), true));
}

// [[Rcpp::export(rng = false)]]
List cpp_qrels_from_vectors(CharacterVector topic, CharacterVector docno, IntegerVector rel,
                            int relevance_level, std::string label) {
  auto q = std::make_unique<irtopics::Qrels>();
  q->file = label;
  try {
    irtopics::QrelsBuilder b(*q);
    for (R_xlen_t i = 0; i < topic.size(); ++i) {
      b.add(std::string_view(CHAR(STRING_ELT(topic, i))), std::string_view(CHAR(STRING_ELT(docno, i))),
            rel[i], static_cast<uint32_t>(i + 1));
    }
    b.finish();
  } catch (const InputError& e) {
    return List::create(_["error"] = error_list(e));
  }
  q->prepare(relevance_level);
  return List::create(_["ptr"] = XPtr<irtopics::Qrels>(q.release(), true));
}

// [[Rcpp::export(rng = false)]]
List cpp_qrels_info(SEXP ptr, bool with_relevant) {
  XPtr<irtopics::Qrels> q(ptr);
  const std::size_t nt = q->topics.size();
  IntegerVector num_rel(nt), num_nonrel(nt), num_judged(nt), max_grade(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    num_rel[t] = static_cast<int>(q->num_rel[t]);
    num_nonrel[t] = static_cast<int>(q->num_nonrel[t]);
    max_grade[t] = static_cast<int>(q->levels[t].size()) - 1;  // -1: no judged grade >= 0
  }
  for (const auto& e : q->entries) ++num_judged[e.topic];
  // The relevant docnos (as R strings) only when asked: return_orders()
  // needs them, evaluate() does not.
  List relevant(with_relevant ? nt : 0);
  for (std::size_t t = 0; with_relevant && t < nt; ++t) {
    CharacterVector d(q->relevant[t].size());
    for (std::size_t k = 0; k < q->relevant[t].size(); ++k) d[k] = std::string(q->relevant[t][k]);
    relevant[t] = d;
  }
  return List::create(_["topics"] = wrap(q->topics), _["num_rel"] = num_rel,
                      _["num_nonrel"] = num_nonrel, _["num_judged"] = num_judged, _["max_grade"] = max_grade,
                      _["relevant"] = relevant);
}

// [[Rcpp::export(rng = false)]]
List cpp_qrels_table(SEXP ptr) {
  XPtr<irtopics::Qrels> q(ptr);
  const std::size_t n = q->entries.size();
  CharacterVector topic(n), docno(n);
  IntegerVector rel(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto& e = q->entries[k];
    topic[k] = q->topics[e.topic];
    docno[k] = std::string(e.docno);
    rel[k] = e.grade;
  }
  return List::create(_["topic"] = topic, _["docno"] = docno, _["rel"] = rel);
}

// Evaluation ---------------------------------------------------------------

// Evaluates run files (paths) or in-memory runs (a list of lists with topic,
// docno, score, name; docno either a character vector or a raw buffer with
// offsets) against the qrels.
// [[Rcpp::export(rng = false)]]
List cpp_evaluate(SEXP qrels_ptr, Nullable<CharacterVector> paths, Nullable<List> mem_runs,
                  IntegerVector kind, NumericMatrix mparams, double fraction, double depth,
                  NumericVector gains, bool want_profiles, bool want_orders,
                  Nullable<CharacterVector> map_query, Nullable<CharacterVector> map_topic,
                  int n_threads) {
  XPtr<irtopics::Qrels> qrels(qrels_ptr);
  irtopics::EvalOptions opt = make_options(kind, mparams, fraction, depth, gains);
  opt.want_profiles = want_profiles;
  opt.want_orders = want_orders;
  auto qmap = make_query_map(map_query, map_topic);
  opt.query_map = qmap.get();

  // Runs from memory are converted on the main thread (R API).
  std::vector<irtopics::Run> mem;
  std::vector<std::string> files;
  if (paths.isNotNull()) files = as<std::vector<std::string>>(CharacterVector(paths));
  try {
    if (mem_runs.isNotNull()) {
      List runs(mem_runs);
      mem.resize(runs.size());
      for (R_xlen_t r = 0; r < runs.size(); ++r) {
        List x = runs[r];
        irtopics::Run& run = mem[r];
        run.file = as<std::string>(x["name"]);
        run.tag = as<std::string>(x["name"]);
        CharacterVector topic = x["topic"];
        NumericVector score = x["score"];
        SEXP doc = x["docno"];
        irtopics::RunBuilder b(run);
        if (TYPEOF(doc) == RAWSXP) {
          const char* bytes = reinterpret_cast<const char*>(RAW(doc));
          IntegerVector off = x["offset"];
          IntegerVector topic_code = x["topic_code"];
          for (R_xlen_t i = 0; i < score.size(); ++i) {
            if ((i & 0xfffff) == 0xfffff) Rcpp::checkUserInterrupt();
            const int start = off[i], stop = off[i + 1];
            b.add(std::string_view(CHAR(STRING_ELT(topic, topic_code[i] - 1))),
                  std::string_view(bytes + start, static_cast<std::size_t>(stop - start)), score[i],
                  static_cast<uint32_t>(i + 1));
          }
        } else {
          CharacterVector d(doc);
          for (R_xlen_t i = 0; i < score.size(); ++i) {
            if ((i & 0xfffff) == 0xfffff) Rcpp::checkUserInterrupt();
            b.add(std::string_view(CHAR(STRING_ELT(topic, i))), std::string_view(CHAR(STRING_ELT(d, i))),
                  score[i], static_cast<uint32_t>(i + 1));
          }
        }
        b.finish();
        run.tag = as<std::string>(x["name"]);
      }
    }
  } catch (const InputError& e) {
    return List::create(_["error"] = error_list(e));
  }

  const std::size_t n_runs = files.empty() ? mem.size() : files.size();
  std::vector<irtopics::RunResult> results(n_runs);
  std::vector<int> failed(n_runs, 0);
  std::vector<InputError> errors(n_runs, InputError("", "", 0, ""));
  const bool from_files = !files.empty();

  irtopics_glue::InterruptToken token;
  opt.cancel = &token;
  // Runs are handed out one at a time from a shared counter. The main thread
  // takes runs too; when none are left it keeps polling for interrupts until
  // the other threads have finished theirs.
  std::atomic<std::size_t> next_run{0};
  std::atomic<int> busy{0};
  auto work = [&]() {
    irtopics::Run run;
    irtopics::EvalWorkspace ws;
    for (std::size_t r; (r = next_run.fetch_add(1)) < n_runs;) {
      if (token.interrupted()) break;
      try {
        if (from_files) {
          irtopics::read_and_evaluate(files[r], *qrels, opt, ws, run, results[r]);
        } else {
          irtopics::evaluate_run(mem[r], *qrels, opt, ws, results[r]);
        }
      } catch (const irtopics::Cancelled&) {
        break;
      } catch (const InputError& e) {
        failed[r] = 1;
        errors[r] = e;
      } catch (const std::exception& e) {
        failed[r] = 1;
        errors[r] = InputError("data", from_files ? files[r] : mem[r].file, 0, e.what());
      }
    }
  };
  const int n_workers =
      static_cast<int>(std::min<std::size_t>(std::max(n_threads, 1), std::max<std::size_t>(n_runs, 1)));
#ifdef _OPENMP
#pragma omp parallel num_threads(n_workers)
  {
    const bool main_thread = omp_get_thread_num() == 0;
    if (!main_thread) busy.fetch_add(1);
#pragma omp barrier
    work();
    if (main_thread) {
      while (busy.load() > 0) {
        token.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    } else {
      busy.fetch_sub(1);
    }
  }
#else
  (void)n_workers;
  work();
#endif
  token.throw_if_interrupted();
  for (std::size_t r = 0; r < n_runs; ++r) {
    if (failed[r]) return List::create(_["error"] = error_list(errors[r]));
  }
  List out(n_runs);
  for (std::size_t r = 0; r < n_runs; ++r) {
    out[r] = result_to_list(results[r], opt.measures.size(), want_profiles, want_orders);
  }
  return List::create(_["runs"] = out);
}

// Values of an empty ranking per qrels topic (trec_eval -c), topics x measures.
// [[Rcpp::export(rng = false)]]
NumericMatrix cpp_empty_values(SEXP qrels_ptr, IntegerVector kind, NumericMatrix mparams,
                               double fraction, double depth, NumericVector gains) {
  XPtr<irtopics::Qrels> qrels(qrels_ptr);
  irtopics::EvalOptions opt = make_options(kind, mparams, fraction, depth, gains);
  std::vector<double> v = irtopics::evaluate_empty(*qrels, opt);
  const std::size_t nt = qrels->topics.size(), nm = opt.measures.size();
  NumericMatrix out(static_cast<int>(nt), static_cast<int>(nm));
  for (std::size_t t = 0; t < nt; ++t)
    for (std::size_t m = 0; m < nm; ++m) {
      const double x = v[t * nm + m];
      out(static_cast<int>(t), static_cast<int>(m)) = std::isnan(x) ? NA_REAL : x;
    }
  return out;
}

// Reading a run into a compact R object --------------------------------------

// A run as R vectors without one R string per line: docnos concatenated in a
// raw vector with offsets, topics as codes into a short character vector.
// [[Rcpp::export(rng = false)]]
List cpp_read_run(std::string path) {
  irtopics::Run run;
  try {
    irtopics_glue::with_interrupts(
        [&](irtopics::CancelToken* cancel) { irtopics::read_run_file(path, run, cancel); });
  } catch (const InputError& e) {
    return List::create(_["error"] = error_list(e));
  }
  const std::size_t n = run.size();
  std::size_t bytes = 0;
  for (const auto& d : run.docno) bytes += d.size();
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    return List::create(_["error"] = error_list(InputError("file", path, 0, "the run is too large to hold in memory (over 2 GB of docnos)")));
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
}

// Docnos of a compact run as a character vector (for as.data.frame()).
// [[Rcpp::export(rng = false)]]
CharacterVector cpp_docnos(RawVector docbuf, IntegerVector offset) {
  const R_xlen_t n = offset.size() - 1;
  CharacterVector out(n);
  const char* b = reinterpret_cast<const char*>(RAW(docbuf));
  for (R_xlen_t i = 0; i < n; ++i) out[i] = Rf_mkCharLen(b + offset[i], offset[i + 1] - offset[i]);
  return out;
}
