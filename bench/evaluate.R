# Benchmark of evaluate() against the alternatives, on the synthetic
# collection of bench/generate.R (see bench/README.md for the figures).
#
# Usage: Rscript bench/evaluate.R [data_dir] [trec_eval_binary]
#   data_dir defaults to bench/data; the trec_eval binary (built from
#   source, see bench/README.md) defaults to $TREC_EVAL; without one that
#   part is skipped.
# Measures: AP, P@10, R-Prec and nDCG (trec_eval: -m map -m P.10 -m Rprec -m ndcg),
# timed over IRTOPICS_BENCH_CALLS calls (default 7; min and median) with 1
# and 2 threads, and where the time of one call goes (evaluation_phases():
# argument checks, qrels, chunk driver, per thread: start-up, read, parse,
# sort, hashing, lookups, measures, waiting; assembling), with what makes
# machines differ (CPU model, cores, load, `cat` of the files, memcpy rate);
# then every per-topic measure of trec_eval's -m all_trec (section "all_trec"),
# the same 4 measures as whole Rscript processes (library load included), and
# the parity of every all_trec value (per topic and 'all', to the printed
# decimals) against the trec_eval binary on qrels-pool.txt (grade -1 = pooled,
# not judged) for the first `n_parity` runs (env IRTOPICS_BENCH_PARITY,
# default 10). IRTOPICS_BENCH_SAVE=file.rds saves the values of the 2-thread
# call, so that two builds' can be compared with identical().
args <- commandArgs(trailingOnly = TRUE)
data <- if (length(args) >= 1) args[1] else file.path("bench", "data")
trec_eval <- if (length(args) >= 2) args[2] else Sys.getenv("TREC_EVAL")
suppressPackageStartupMessages(library(irtopics))
runs <- sort(list.files(file.path(data, "runs"), full.names = TRUE))
qrels <- file.path(data, "qrels.txt")
mb <- sum(file.size(runs)) / 2^20
cat(sprintf("%d run files, %.0f MB, %s lines\n", length(runs), mb,
            format(sum(vapply(runs[1], function(f) length(readLines(f)), 1L)) * length(runs), big.mark = ",")))
# Elapsed seconds, with the CPU seconds (user + system, this process and its
# children: trec_eval runs as a child) as attribute "cpu". On a shared machine
# the CPU-time ratio is the steadier one; elapsed time is what a user waits.
timeit <- function(expr) {
  gc()
  st <- system.time(expr)
  structure(st[["elapsed"]], cpu = sum(st[c("user.self", "sys.self", "user.child", "sys.child")], na.rm = TRUE))
}
cpu <- function(x) attr(x, "cpu")
res <- list()
n_calls <- as.integer(Sys.getenv("IRTOPICS_BENCH_CALLS", "7"))

# ---- the machine -----------------------------------------------------------------
cpu_model <- tryCatch(sub(".*:\\s*", "", grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1]),
                      error = function(e) NA_character_)
cat(sprintf("machine: %s, %d cores, R %s, irtopics %s\n", cpu_model, parallel::detectCores(),
            getRversion(), utils::packageVersion("irtopics")))
# Memory bandwidth proxy: best of 3 memcpy() of 1 GB between buffers already
# touched (GB/s), from a function compiled here (needs a C++ compiler).
memcpy_rate <- tryCatch({
  Rcpp::cppFunction("double memcpy_rate(double gb) {
    const std::size_t n = static_cast<std::size_t>(gb * 1e9);
    std::vector<char> a(n, 1), b(n, 2);
    double best = 1e300;
    for (int k = 0; k < 3; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      std::memcpy(b.data(), a.data(), n);
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      a[k] = b[n - 1 - k];
    }
    return gb / best;
  }", includes = c("#include <chrono>", "#include <cstring>", "#include <vector>"))
  memcpy_rate(1)
}, error = function(e) NA_real_)
cat(sprintf("memcpy of 1 GB:                   %6.2f GB/s\n", memcpy_rate))

# the floor: reading the bytes
cats <- vapply(1:3, function(i) timeit(system2("cat", c(shQuote(runs)), stdout = FALSE)), 0)
res$cat <- min(cats)
cat(sprintf("cat of the files:                 %6.2f s (best of 3; %s)\n", res$cat,
            paste(sprintf("%.2f", cats), collapse = ", ")))

# IRTOPICS_BENCH_QUICK=1: only the machine, cat, the trec_eval loop and
# evaluate() (1 and 2 threads, 4 measures, n_calls times each, and the phase
# table), side by side in one session.
quick <- nzchar(Sys.getenv("IRTOPICS_BENCH_QUICK"))
cat(sprintf("load average at start: %s\n", paste(readLines("/proc/loadavg"), collapse = " ")))

# data.table::fread of every file
if (!quick && requireNamespace("data.table", quietly = TRUE)) {
  res$fread1 <- timeit(for (f in runs) data.table::fread(f, header = FALSE, nThread = 1, showProgress = FALSE))
  cat(sprintf("data.table::fread, 1 thread:      %6.2f s\n", res$fread1))
  res$fread2 <- timeit(for (f in runs) data.table::fread(f, header = FALSE, nThread = 2, showProgress = FALSE))
  cat(sprintf("data.table::fread, 2 threads:     %6.2f s\n", res$fread2))
}

# trec_eval, once per run file
if (nzchar(trec_eval) && file.exists(trec_eval)) {
  res$trec_eval <- timeit(for (f in runs) {
    system2(trec_eval, c("-q", "-m", "map", "-m", "P.10", "-m", "Rprec", "-m", "ndcg",
                         shQuote(qrels), shQuote(f)), stdout = FALSE)
  })
  cat(sprintf("trec_eval per file:               %6.2f s (CPU %.2f s)\n", res$trec_eval, cpu(res$trec_eval)))
}

m <- c("AP", "P@10", "R-Prec", "nDCG")
e1 <- evaluate(runs, qrels, m, n_threads = 1, progress = FALSE)
e2 <- evaluate(runs, qrels, m, n_threads = 2, progress = FALSE)
stopifnot(identical(e1, e2))
# IRTOPICS_BENCH_SAVE=file.rds: the values, to compare two builds with identical()
if (nzchar(Sys.getenv("IRTOPICS_BENCH_SAVE"))) saveRDS(e2, Sys.getenv("IRTOPICS_BENCH_SAVE"))
# n_calls calls of each, alternated; min and median (elapsed and CPU seconds)
t1 <- t2 <- list()
for (i in seq_len(n_calls)) {
  t1[[i]] <- timeit(evaluate(runs, qrels, m, n_threads = 1, progress = FALSE))
  t2[[i]] <- timeit(evaluate(runs, qrels, m, n_threads = 2, progress = FALSE))
}
summarise_calls <- function(t) {
  el <- unlist(t)
  cp <- vapply(t, cpu, 0)
  sprintf("min %5.2f s, median %5.2f s (CPU min %.2f, median %.2f; %d calls: %s)", min(el), stats::median(el),
          min(cp), stats::median(cp), length(el), paste(sprintf("%.2f", el), collapse = " "))
}
cat(sprintf("irtopics::evaluate, 1 thread:     %s\n", summarise_calls(t1)))
cat(sprintf("irtopics::evaluate, 2 threads:    %s\n", summarise_calls(t2)))
res$eval1 <- min(unlist(t1))
attr(res$eval1, "cpu") <- min(vapply(t1, cpu, 0))
res$eval2 <- min(unlist(t2))
attr(res$eval2, "cpu") <- min(vapply(t2, cpu, 0))

# ---- where the time of one call goes (2 threads; median over n_calls calls) -------
if (exists("evaluation_phases", envir = asNamespace("irtopics"))) {
  ph <- lapply(seq_len(n_calls), function(i) {
    irtopics:::evaluation_phases(runs, qrels, m, n_threads = 2, progress = FALSE)
  })
  stopifnot(identical(unclass(attr(ph[[1]], "evaluation")), unclass(e2)))
  med <- function(col) apply(vapply(ph, function(p) p[[col]], numeric(nrow(ph[[1]]))), 1, stats::median)
  tab <- data.frame(phase = ph[[1]]$phase, elapsed = med("seconds"), cpu = med("cpu"),
                    thread_1 = med("thread_1"), thread_2 = med("thread_2"))
  tot <- vapply(ph, function(p) attr(p, "total"), 0)
  cat(sprintf("\nwhere the time goes (evaluation_phases(), 2 threads, median of %d calls; total elapsed: min %.2f, median %.2f s; CPU median %.2f s)\n",
              n_calls, min(tot), stats::median(tot), stats::median(vapply(ph, function(p) attr(p, "total_cpu"), 0))))
  cat("  (threads' phases: elapsed seconds summed over the 2 threads, then per thread; cpu: elapsed x the thread's CPU share)\n")
  old_width <- options(width = 200)
  print(format(tab, digits = 2, nsmall = 3), row.names = FALSE)
  options(old_width)
  thr <- do.call(rbind, lapply(ph, function(p) attr(p, "threads")))
  cat(sprintf("threads' CPU share while in runs (CPU / elapsed): median %.2f (1 = the cores were ours)\n",
              stats::median(thr$cpu / thr$busy)))
}

# agreement with trec_eval on the first run, all four measures, per topic
if (!is.null(res$trec_eval)) {
  out <- system2(trec_eval, c("-q", "-m", "map", "-m", "P.10", "-m", "Rprec", "-m", "ndcg",
                              shQuote(qrels), shQuote(runs[1])), stdout = TRUE)
  p <- do.call(rbind, strsplit(out, "[[:space:]]+"))
  p <- p[p[, 2] != "all", ]
  key <- c(map = "AP", P_10 = "P@10", Rprec = "R-Prec", ndcg = "nDCG")
  ours <- mapply(function(meas, topic) sprintf("%.4f", e1[[key[[meas]]]][1, topic]), p[, 1], p[, 2])
  cat(sprintf("agreement with trec_eval on %s: %d of %d per-topic values identical to 4 decimals\n",
              basename(runs[1]), sum(ours == p[, 3]), nrow(p)))
}
if (!is.null(res$trec_eval)) {
  cat(sprintf("speed-up over the trec_eval loop: %.1fx (1 thread), %.1fx (2 threads)\n",
              res$trec_eval / res$eval1, res$trec_eval / res$eval2))
  cat(sprintf("CPU seconds: trec_eval loop %.2f, evaluate 1 thread %.2f, 2 threads %.2f: %.1fx / %.1fx less CPU\n",
              cpu(res$trec_eval), cpu(res$eval1), cpu(res$eval2),
              cpu(res$trec_eval) / cpu(res$eval1), cpu(res$trec_eval) / cpu(res$eval2)))
}
if (!is.null(res$fread1)) {
  cat(sprintf("evaluate (2 threads) vs fread (2 threads): %.1fx faster\n", res$fread2 / res$eval2))
}

cat(sprintf("load average after the timings: %s\n", paste(readLines("/proc/loadavg"), collapse = " ")))
if (quick) quit(save = "no")

# ---- whole Rscript processes: R start-up and library load included -------------
if (nzchar(Sys.which("Rscript"))) {
  rs <- function(code) timeit(system2("Rscript", c("-e", shQuote(code)), stdout = FALSE, stderr = FALSE))
  res$r_start <- rs("invisible(0)")
  res$r_load <- rs("suppressPackageStartupMessages(library(irtopics))")
  runs_txt <- sprintf("sort(list.files('%s', full.names = TRUE))", file.path(data, "runs"))
  res$r_eval2 <- rs(sprintf("suppressPackageStartupMessages(library(irtopics)); invisible(evaluate(%s, '%s', c('AP', 'P@10', 'R-Prec', 'nDCG'), n_threads = 2, progress = FALSE))",
                            runs_txt, qrels))
  cat(sprintf("Rscript start-up alone:           %6.2f s\n", res$r_start))
  cat(sprintf("Rscript + library(irtopics):      %6.2f s\n", res$r_load))
  cat(sprintf("Rscript process, evaluate 2 thr.: %6.2f s\n", res$r_eval2))
  if (!is.null(res$trec_eval)) {
    cat(sprintf("speed-up of the whole process over the trec_eval loop: %.1fx\n", res$trec_eval / res$r_eval2))
  }
}

# ---- every all_trec per-topic measure ----------------------------------------------
all_m <- irtopics:::all_trec_measures()
res$all1 <- timeit(a1 <- evaluate(runs, qrels, all_m, n_threads = 1, progress = FALSE))
cat(sprintf("evaluate, %d all_trec measures, 1 thread:  %6.2f s\n", length(all_m), res$all1))
res$all2 <- timeit(a2 <- evaluate(runs, qrels, all_m, n_threads = 2, progress = FALSE))
cat(sprintf("evaluate, %d all_trec measures, 2 threads: %6.2f s\n", length(all_m), res$all2))
stopifnot(identical(a1, a2))
if (!is.null(res$trec_eval)) {
  res$trec_all <- timeit(for (f in runs) {
    system2(trec_eval, c("-q", "-m", "all_trec", shQuote(qrels), shQuote(f)), stdout = FALSE)
  })
  cat(sprintf("trec_eval -q -m all_trec per file: %6.2f s\n", res$trec_all))
  cat(sprintf("all_trec speed-up over the trec_eval loop: %.1fx (1 thread), %.1fx (2 threads)\n",
              res$trec_all / res$all1, res$trec_all / res$all2))
  cat(sprintf("all_trec CPU seconds: trec_eval loop %.2f, evaluate 1 thread %.2f, 2 threads %.2f: %.1fx / %.1fx less CPU\n",
              cpu(res$trec_all), cpu(res$all1), cpu(res$all2),
              cpu(res$trec_all) / cpu(res$all1), cpu(res$trec_all) / cpu(res$all2)))
}

# ---- parity of every all_trec value with trec_eval ----------------------------------
pool <- file.path(data, "qrels-pool.txt")
n_parity <- as.integer(Sys.getenv("IRTOPICS_BENCH_PARITY", "10"))
if (!is.null(res$trec_eval) && file.exists(pool)) {
  skip <- c("relstring", "rbp", "rbp_resid")
  same <- total <- all_rowmeans <- all_n <- 0
  for (f in runs[seq_len(min(n_parity, length(runs)))]) {
    for (c_flag in c(FALSE, TRUE)) {
      te <- system2(trec_eval, c("-q", if (c_flag) "-c", "-m", "all_trec", shQuote(pool), shQuote(f)),
                    stdout = TRUE)
      te <- te[!(sub("[[:space:]].*", "", te) %in% skip)]
      ev <- evaluate(f, pool, all_m, missing = if (c_flag) "zero" else "drop", progress = FALSE)
      ours <- irtopics:::format_trec_eval(ev)
      total <- total + length(te)
      same <- same + length(intersect(ours, te))
      if (length(setdiff(te, ours))) print(utils::head(setdiff(te, ours)))
      # what plain means (rowMeans) would print on the 'all' lines
      for (k in seq_along(ev)) {
        if (!identical(attr(ev[[k]], "aggregate"), "mean")) next
        a <- sprintf("%.4f", mean_scores(ev[[k]])[[1]])
        b <- sprintf("%.4f", mean_scores(ev[[k]], accumulate = "trec_eval")[[1]])
        all_n <- all_n + 1
        all_rowmeans <- all_rowmeans + (a != b)
      }
    }
  }
  cat(sprintf("all_trec parity on %d runs x (default, -c), qrels with grade -1: %d of %d trec_eval lines identical\n",
              min(n_parity, length(runs)), same, total))
  cat(sprintf("'all' means: rowMeans() would print %d of %d differently; accumulate = \"trec_eval\" prints all of them as trec_eval\n",
              all_rowmeans, all_n))
}
