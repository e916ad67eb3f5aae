# Measure names ----------------------------------------------------------------------
#
# The measures are the records of kMeasureTable in src/measure_table.h, the
# only list of measures in the package: each ties a canonical name to its
# C++ kernel and carries the kind of parameter, the trec_eval stem and the
# other spellings (ir_measures, ranx), whether a relevance threshold
# applies, its aggregate over topics (how trec_eval summarises it on its
# 'all' line), whether trec_eval prints the same number, the parameters of
# trec_eval's -m all_trec, a description, and its values: discrete on a
# support or continuous on a range, and which way is better. R reads the table once
# (cpp_measure_table()); name resolution, "did you mean", the help page's
# list (?measures), trec_eval's names, the parity tests and the values of
# a measure (measure_info(), R/eval-measure-info.R, which score_support(),
# simulation_model() and every summary and ranking, through score_record(),
# ask) read it, and measures go back to C++ by name
# (measure_fields() in R/eval-evaluate.R). No other code parses a measure
# name. Adding a measure is one record and one kernel in C++
# (CONTRIBUTING.md, "How to add a measure").

# The kinds of parameter parse_measure() knows (ParamType in C++).
measure_param_types <- c("none", "cutoff", "optcut", "recall", "mult", "beta", "p", "utility")
# The aggregates over topics R knows (the record's `summary` in C++, read as
# `aggregate`: trec_eval's 'all' line; aggregate_rows() in
# R/eval-aggregates.R computes them).
measure_aggregates <- c("mean", "gmean", "sum")
# The value domains, supports and directions R knows (Domain, Support and
# Direction in C++; measure_values() in R/eval-measure-info.R builds the support).
measure_value_kinds <- list(domain = c("continuous", "discrete"),
                            support = c("none", "fractions", "ratios", "reciprocals", "binary", "counts",
                                        "wholes", "one"),
                            direction = c("higher", "lower", "none"),
                            depth = c("cutoff", "all"))

# The registry as R uses it: `rows`, one list per record, and `spellings`,
# lower-case spelling -> row. Built at first use (the compiled table is not
# there when the package's R code is built) and checked: a record R could
# not parse is an error here, not a silently ignored measure.
measure_registry <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) cache <<- build_measure_registry(cpp_measure_table())
    cache
  }
})

build_measure_registry <- function(tab) {
  n <- length(tab$id)
  problem <- function(msg) stop_irtopics(c("The measure table of src/measure_table.h is inconsistent.", x = msg),
                                         kind = "internal")
  bad <- setdiff(tab$param, measure_param_types)
  if (length(bad)) problem(paste0("Unknown parameter type \"", bad[1], "\"."))
  bad <- setdiff(tab$summary, measure_aggregates)
  if (length(bad)) problem(paste0("Unknown summary (aggregate) \"", bad[1], "\"."))
  for (f in names(measure_value_kinds)) {
    bad <- setdiff(tab[[f]], measure_value_kinds[[f]])
    if (length(bad)) problem(paste0("Unknown ", f, " \"", bad[1], "\"."))
  }
  rows <- lapply(seq_len(n), function(i) {
    all_trec <- if (is.na(tab$all_trec[i])) NULL else if (!nzchar(tab$all_trec[i])) NA else {
      as.numeric(strsplit(tab$all_trec[i], " ", fixed = TRUE)[[1]])
    }
    list(id = tab$id[i], param = tab$param[i], default = tab$default[i], trec_default = tab$trec_default[i],
         rel = tab$rel[i], aggregate = tab$summary[i], trec = tab$trec[i], trec_cut = tab$trec_cut[i],
         trec_parity = tab$trec_parity[i], all_trec = all_trec,
         spell = strsplit(tab$spell[i], " ", fixed = TRUE)[[1]], desc = tab$desc[i], domain = tab$domain[i],
         support = tab$support[i], range = c(tab$lower[i], tab$upper[i]), direction = tab$direction[i],
         depth = tab$depth[i])
  })
  keys <- lapply(rows, function(r) unique(c(tolower(r$id), r$spell)))
  spellings <- stats::setNames(rep(seq_len(n), lengths(keys)), unlist(keys))
  dup <- names(spellings)[duplicated(names(spellings))]
  if (length(dup)) problem(paste0("The spelling \"", dup[1], "\" names two measures."))
  list(rows = rows, spellings = spellings)
}

measure_rows <- function() measure_registry()$rows

# How many documents of each topic's ranked list (in trec_eval's order) a
# parsed measure `p` (parse_measure()) reads at evaluation depth `depth`
# (Inf: no cut): its cut-off when its record reads only the first k
# (`depth` "cutoff") and it is not judged-only, else the whole list up to
# `depth`. A judged-only measure reads the first k *judged* documents, which
# can lie anywhere in the list (trec_eval -J drops the unjudged first).
measure_read_depth <- function(p, depth = Inf, judged_only = FALSE) {
  rec <- measure_rows()[[p$row]]
  cut <- identical(rec$depth, "cutoff") && isTRUE(p$cutoff > 0) && !isTRUE(p$judged_only) && !isTRUE(judged_only)
  min(depth, if (cut) p$cutoff else Inf)
}

measure_error <- function(msg, s, call, hint = NULL) {
  stop_irtopics(c(paste0("Can't use measure {.val {s}}: ", msg, "."), hint), kind = "measure",
                call = call, measure = s)
}

# Parses a number (digits, optional sign and decimal point, no exponent).
parse_number <- function(x) {
  if (!grepl("^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)$", x)) return(NA_real_)
  as.numeric(x)
}

fmt_num <- function(x) vapply(x, function(v) format(v, digits = 15, trim = TRUE, scientific = FALSE), "")

# One measure name -> list(measure, cutoff, param, rel, utility, row, name):
# `measure` is the record's name, which is how C++ finds the kernel.
parse_measure <- function(s, call = rlang::caller_env()) {
  reg <- measure_registry()
  key <- gsub("[[:space:]]", "", s)
  low <- tolower(key)
  base <- low
  args <- NULL
  at <- NULL
  # ir_measures form: Name(args)@cut, Name@cut, Name(args)
  # (and Name@cut(args), the order users also write: "nDCG@10(judged_only)")
  m <- regmatches(low, regexec("^([^()@]+)(\\(([^()]*)\\))?(@([^()]*))?(\\(([^()]*)\\))?$", low))[[1]]
  if (length(m)) {
    base <- m[2]
    if (nzchar(m[3]) && nzchar(m[7])) {
      measure_error("the arguments are given twice", s, call,
                    c(i = "Write them once, as in {.val nDCG(judged_only=True)@10}."))
    }
    if (nzchar(m[3])) args <- m[4]
    if (nzchar(m[7])) args <- m[8]
    if (nzchar(m[5])) at <- m[6]
  } else if (grepl("[()@]", low)) {
    measure_error("the name is malformed", s, call,
                  c(i = "Write measures as {.val P@10}, {.val P(rel=2)@10}, {.val P_10} or {.val P.10}."))
  }
  row <- unname(reg$spellings[base])
  trec_param <- NULL
  if (is.na(row) && is.null(args) && is.null(at)) {
    # trec_eval form: stem_param or stem.param (longest stem first)
    stems <- names(reg$spellings)
    hit <- stems[startsWith(base, paste0(stems, "_")) | startsWith(base, paste0(stems, "."))]
    if (length(hit)) {
      stem <- hit[which.max(nchar(hit))]
      row <- unname(reg$spellings[stem])
      trec_param <- substring(base, nchar(stem) + 2L)
    }
  }
  if (is.na(row)) {
    close <- closest_names(key, measure_examples())
    stop_irtopics(c("Unknown measure {.val {s}}.",
                    i = if (tolower(key) %in% names(trec_measure_sets)) set_hint(s),
                    i = if (length(close)) "Did you mean {.or {.val {close}}}?",
                    i = "See {.help irtopics::measures} for the measures and their spellings."),
                  kind = "measure", call = call, measure = s)
  }
  r <- reg$rows[[row]]
  out <- list(measure = r$id, cutoff = 0, param = if (is.na(r$default)) 0 else r$default, rel = 0L,
              utility = c(1, -1, 0, 0), judged_only = FALSE, row = row)
  # A lower-case spelling is trec_eval's, with trec_eval's default (rbp: p = 0.9).
  if (!is.na(r$trec_default) && !grepl("[[:upper:]]", key)) out$param <- r$trec_default
  # Arguments: key=value pairs (rel, p, beta, cutoff), or utility coefficients.
  # Each parameter is given once: a second value is refused, naming both.
  if (!is.null(trec_param) && r$param %in% c("p", "beta") && grepl("=", trec_param)) {
    args <- trec_param
    trec_param <- NULL
  }
  given <- list()
  twice <- function(what, a, b) {
    measure_error(sprintf("the %s is given twice (%s and %s)", what, a, b), s, call,
                  c(i = "Give each parameter once."))
  }
  if (!is.null(args) && nzchar(args)) {
    parts <- strsplit(args, ",", fixed = TRUE)[[1]]
    if (r$param == "utility" && !any(grepl("=", parts) | parts == "judged_only")) {
      trec_param <- args
    } else {
      for (a in parts) {
        # ir_measures' judged_only=True (trec_eval -J for this measure); a
        # bare "judged_only" means the same
        if (a == "judged_only") a <- "judged_only=true"
        kv <- strsplit(a, "=", fixed = TRUE)[[1]]
        if (length(kv) == 2L && kv[1] == "judged_only") {
          if (!is.null(given$judged_only)) twice("argument `judged_only`", given$judged_only, kv[2])
          flag <- match(kv[2], c("true", "1", "false", "0"))
          if (is.na(flag)) measure_error("`judged_only` must be True or False", s, call)
          out$judged_only <- flag <= 2L
          given$judged_only <- kv[2]
          next
        }
        if (length(kv) != 2L) measure_error("arguments must be written {.code name=value}", s, call)
        v <- parse_number(kv[2])
        if (is.na(v)) measure_error(sprintf("argument `%s` must be a number", kv[1]), s, call)
        if (!is.null(given[[kv[1]]])) {
          what <- switch(kv[1], rel = "relevance threshold `rel`", cutoff = "cut-off", sprintf("parameter `%s`", kv[1]))
          twice(what, given[[kv[1]]], kv[2])
        }
        switch(kv[1],
          rel = {
            if (!r$rel) measure_error(sprintf("%s takes no relevance threshold", r$id), s, call)
            if (v < 1 || v != round(v) || v > 1e6) measure_error("`rel` must be a whole number between 1 and 1000000", s, call)
            out$rel <- as.integer(v)
          },
          p = {
            if (r$param != "p") measure_error(sprintf("%s takes no `p`", r$id), s, call)
            out$param <- v
          },
          beta = {
            if (r$param != "beta") measure_error(sprintf("%s takes no `beta`", r$id), s, call)
            out$param <- v
          },
          cutoff = {
            if (!r$param %in% c("cutoff", "optcut")) measure_error(sprintf("%s takes no cut-off", r$id), s, call)
            if (!is.null(at)) twice("cut-off", kv[2], at)
            at <- kv[2]
          },
          measure_error(sprintf("unknown argument `%s`", kv[1]), s, call))
        given[[kv[1]]] <- kv[2]
      }
    }
  }
  # The parameter: after @ (ir_measures, ranx) or after _ / . (trec_eval).
  value <- at %||% trec_param
  if (!is.null(at) && !is.null(trec_param)) twice("parameter", trec_param, at)
  if (!is.null(value) && r$param %in% c("p", "beta") && !is.null(given[[r$param]])) {
    twice(sprintf("parameter `%s`", r$param), given[[r$param]], value)
  }
  switch(r$param,
    none = if (!is.null(value)) measure_error(sprintf("%s takes no parameter", r$id), s, call),
    cutoff = ,
    optcut = {
      if (is.null(value)) {
        if (r$param == "cutoff") {
          measure_error(sprintf("%s needs a cut-off, as in %s@10", r$id, r$id), s, call, family_hint(s))
        }
      } else {
        if (!grepl("^[0-9]+$", value)) measure_error("the cut-off must be a positive whole number", s, call)
        k <- as.numeric(value)
        if (k < 1) measure_error("the cut-off must be at least 1", s, call)
        if (k > .Machine$integer.max) measure_error(sprintf("the cut-off must be at most %d", .Machine$integer.max), s, call)
        out$cutoff <- k
      }
    },
    recall = {
      if (is.null(value)) measure_error("IPrec needs a recall level, as in IPrec@0.1", s, call, family_hint(s))
      v <- parse_number(value)
      if (is.na(v) || v < 0 || v > 1) measure_error("the recall level must be a number between 0 and 1", s, call)
      out$param <- v
    },
    mult = {
      if (is.null(value)) measure_error("Rprec_mult needs a multiple of R, as in Rprec_mult@0.2", s, call, family_hint(s))
      v <- parse_number(value)
      if (is.na(v) || v <= 0 || v > 1e6) measure_error("the multiple of R must be a positive number", s, call)
      out$param <- v
    },
    beta = ,
    p = if (!is.null(value)) {
      v <- parse_number(value)
      if (is.na(v)) measure_error(sprintf("`%s` must be a number", r$param), s, call)
      out$param <- v
    },
    utility = if (!is.null(value)) {
      v <- vapply(strsplit(value, ",", fixed = TRUE)[[1]], parse_number, numeric(1))
      if (length(v) != 4L || anyNA(v)) measure_error("utility takes 4 numbers, as in utility.1,-1,0,0", s, call)
      out$utility <- unname(v)
    })
  if (r$param == "p" && !(out$param > 0 && out$param < 1)) {
    measure_error("the persistence `p` must lie strictly between 0 and 1", s, call)
  }
  if (r$param == "beta" && !(out$param >= 0 && out$param <= 1e6)) {
    measure_error("`beta` must be a non-negative number", s, call)
  }
  out$name <- canonical_name(r, out)
  out
}

canonical_name <- function(r, x) {
  args <- character()
  if (x$rel > 0) args <- c(args, paste0("rel=", x$rel))
  if (r$param %in% c("p") || (r$param == "beta" && x$param != r$default)) {
    args <- c(args, paste0(r$param, "=", fmt_num(x$param)))
  }
  if (r$param == "utility" && !identical(x$utility, c(1, -1, 0, 0))) args <- c(args, fmt_num(x$utility))
  if (isTRUE(x$judged_only)) args <- c(args, "judged_only=True")
  out <- r$id
  if (length(args)) out <- paste0(out, "(", paste(args, collapse = ","), ")")
  at <- switch(r$param, cutoff = , optcut = if (x$cutoff > 0) fmt_num(x$cutoff),
               recall = , mult = fmt_num(x$param), NULL)
  if (!is.null(at)) out <- paste0(out, "@", at)
  out
}

# The name trec_eval prints for a parsed measure (NA when trec_eval lacks
# it, or prints it only with other parameters). A parameter trec_eval takes
# as a string (set_F's beta, utility's coefficients, rbp's p=) is appended
# after `_` when it differs from trec_eval's default, as trec_eval does with
# the parameter string of `-m name.params` (`set_F_0.5`, `utility_2,-1,0,0`,
# `rbp_p=0.8`); cut-offs and levels follow its `_%ld` and `_%3.2f` formats.
trec_eval_name <- function(x) {
  r <- measure_rows()[[x$row]]
  # trec_eval has no per-measure threshold, nor a per-measure -J
  if (is.na(r$trec) || x$rel > 0 || isTRUE(x$judged_only)) return(NA_character_)
  switch(r$param,
    none = r$trec,
    cutoff = paste0(r$trec, "_", fmt_num(x$cutoff)),
    optcut = if (x$cutoff == 0) r$trec else if (!is.na(r$trec_cut)) {
      paste0(r$trec_cut, "_", fmt_num(x$cutoff))
    } else NA_character_,
    recall = , mult = sprintf("%s_%.2f", r$trec, x$param),
    beta = if (x$param == r$default) r$trec else paste0(r$trec, "_", fmt_num(x$param)),
    utility = if (identical(x$utility, c(1, -1, 0, 0))) r$trec else {
      paste0(r$trec, "_", paste(fmt_num(x$utility), collapse = ","))
    },
    p = {
      te_default <- if (is.na(r$trec_default)) r$default else r$trec_default
      if (x$param == te_default) r$trec else paste0(r$trec, "_p=", fmt_num(x$param))
    },
    r$trec)
}

# Names for "did you mean": canonical names and common spellings.
measure_examples <- function() {
  ex <- unlist(lapply(measure_rows(), function(r) {
    stems <- unique(c(r$id, r$trec[!is.na(r$trec)]))
    switch(r$param,
      cutoff = c(paste0(r$id, "@10"), if (!is.na(r$trec)) paste0(r$trec, "_10")),
      optcut = c(stems, paste0(r$id, "@10"), if (!is.na(r$trec_cut)) paste0(r$trec_cut, "_10")),
      recall = c(paste0(r$id, "@0.1"), if (!is.na(r$trec)) paste0(r$trec, "_0.10")),
      mult = c(paste0(r$id, "@0.2"), paste0(r$trec, "_0.20")),
      p = paste0(r$id, "(p=0.8)"),
      stems)
  }))
  unique(c(ex, "R-Prec", "recip_rank"))
}

#' The measure name a spelling stands for
#'
#' Every built-in measure has one canonical name (the ir_measures spelling
#' where ir_measures has the measure, else trec_eval's) and accepts the
#' trec_eval spellings with `_` or `.` before the parameter (`P_10`, `P.10`,
#' `map_cut.10`, `iprec_at_recall_0.10`), the ir_measures spellings (`P@10`,
#' `nDCG@10`, `AP`, `R@100`, `RR`, `Judged@10`, `P(rel=2)@10`) and the common
#' ranx spellings (`map@100`, `mrr@10`, `precision@10`, `recall@10`,
#' `ndcg@10`, `r-precision`, `hit_rate@10`, `hits@10`). Case does not matter.
#'
#' @section Measures:
#' `r measure_help()`
#'
#' A relevance threshold applies to the measures of binary relevance, in the
#' ir_measures style: `P(rel=2)@10` counts grade 2 and above as relevant
#' whatever `relevance_level` says; `AP(rel=2)`, `Bpref(rel=2)`.
#'
#' Each parameter is given once: `P(cutoff=10)@5`, `P(rel=2,rel=3)@5` and
#' `RBP(p=0.5)@0.6` are errors naming both values, and a parameter a
#' measure does not take (`Bpref(p=0.5)`, `IPrec(cutoff=3)`) is an error.
#'
#' Each measure also knows its values: discrete on a support fixed by its
#' parameters (`P@k`: \eqn{0, 1/k, \dots, 1}; `RR@k`; `Success@k`;
#' `Judged@k`; the counts) or continuous on a range (AP, nDCG, `R-Prec`,
#' ...), and which way is better; see [measure_info()].
#'
#' ranx's two "hit" measures differ: `hits@k` is the number of relevant
#' documents in the top k (a count; its mean over topics is what ranx
#' reports), `hit_rate@k` is success, 1 if any document of the top k is
#' relevant and 0 otherwise (trec_eval's `success_k`).
#'
#' Judged documents only, per measure (trec_eval's `-J` for one measure):
#' ir_measures' `nDCG(judged_only=True)@10`, also written
#' `nDCG(judged_only)@10` or `nDCG@10(judged_only)`; canonical
#' `nDCG(judged_only=True)@10`. Every measure takes it; see
#' [evaluate()], section "Judged documents only".
#'
#' `measure_set()` expands trec_eval's measure sets (`"all_trec"`,
#' `"official"`, `"set"`) and families (`"P"`, `"recall"`, `"ndcg_cut"`,
#' `"iprec_at_recall"`, ...: the name trec_eval's `-m` takes for a measure
#' that needs a parameter) into the canonical names they stand for, as
#' [evaluate()]'s `measures` does; `"all_trec"` leaves out `runid` and
#' `relstring` (not numbers) and trec_eval 10's `rbp`/`rbp_resid` (their
#' values read uninitialised memory; `RBP(p=0.9)` is the paper's).
#'
#' @param x A character vector of measure names.
#' @return `measure_name()`: the canonical names. `measure_set()`: the
#'   canonical names of every measure `x` stands for, sets and families
#'   expanded in trec_eval's order, each measure once. `trec_eval_measure_name()`:
#'   the name trec_eval prints for each (`NA` for measures trec_eval lacks);
#'   a parameter given as text (`set_F`'s beta, `utility`'s coefficients,
#'   `rbp`'s `p=`) is appended after `_` when it is not trec_eval's default,
#'   as trec_eval prints it (`set_F_0.5`, `utility_2,-1,0,0`).
#' @seealso [evaluate()], [measure_info()].
#' @name measures
#' @examples
#' measure_name(c("map", "P_10", "P.10", "ndcg_cut.10", "mrr@10", "P(rel=2)@10",
#'                "iprec_at_recall_0.10", "Rprec_mult_0.20", "rbp", "hits@10", "hit_rate@10"))
#' trec_eval_measure_name(c("AP", "nDCG@10", "IPrec@0.1", "ERR@20", "SetF(beta=0.5)"))
#' try(measure_name("nDGC@10"))
#' try(measure_name("P(cutoff=10)@5"))
#' measure_set("official")
#' measure_set(c("ndcg_cut", "success"))
#' measure_name("nDCG@10(judged_only)")
NULL

#' @rdname measures
#' @export
measure_name <- function(x) {
  check_measure_names(x)
  call <- environment()
  vapply(x, function(s) parse_measure(s, call = call)$name, "", USE.NAMES = FALSE)
}

#' @rdname measures
#' @export
trec_eval_measure_name <- function(x) {
  check_measure_names(x)
  call <- environment()
  vapply(x, function(s) trec_eval_name(parse_measure(s, call = call)), "", USE.NAMES = FALSE)
}

# The names measure_name() and trec_eval_measure_name() take: a character
# vector without NA (issue 29: NA_character_ reached substring()'s error).
check_measure_names <- function(x, call = rlang::caller_env()) {
  if (!is.character(x) || anyNA(x)) {
    stop_irtopics("{.arg x} must be a character vector of measure names without NA, not {show_values(x)}.",
                  call = call)
  }
  invisible(x)
}

measure_help <- function() {
  items <- vapply(measure_rows(), function(r) {
    sp <- setdiff(r$spell, tolower(r$id))
    spell <- if (length(sp)) paste0(" (also ", paste0("`", sp, "`", collapse = ", "), ")") else ""
    nm <- switch(r$param, cutoff = paste0(r$id, "@k"), recall = paste0(r$id, "@x"), mult = paste0(r$id, "@x"),
                 p = paste0(r$id, "(p=x)"), r$id)
    paste0("* `", nm, "`", spell, ": ", r$desc, ".")
  }, "")
  paste(items, collapse = "\n")
}

# Whether trec_eval 10 prints the number irtopics computes for a name (the
# parity tests compare exactly these): the name resolves and its record says
# so (not rbp / rbp_resid, whose trec_eval 10 values read uninitialised
# memory, nor measures trec_eval lacks).
trec_parity_measure <- function(x) {
  vapply(x, function(s) {
    p <- tryCatch(parse_measure(s), irtopics_error_measure = function(e) NULL)
    !is.null(p) && measure_rows()[[p$row]]$trec_parity
  }, logical(1), USE.NAMES = FALSE)
}

# Lookup of a measure in an ir_evaluation by any spelling ---------------------------

eval_measure_index <- function(x, i, call = rlang::caller_env()) {
  nms <- names(unclass(x))
  if (i %in% nms) return(i)
  canon <- attr(x, "canonical") %||% nms
  p <- tryCatch(parse_measure(i, call = call)$name, irtopics_error_measure = function(e) NULL)
  if (!is.null(p)) {
    k <- match(p, canon)
    if (!is.na(k)) return(nms[k])
  }
  close <- closest_names(i, nms)
  stop_irtopics(c("Measure {.val {i}} is not in this evaluation.",
                  i = if (length(close)) "Did you mean {.or {.val {close}}}?"),
                kind = "measure", call = call, measure = i)
}

#' Pick a measure of an evaluation by any of its spellings
#'
#' `res[["map"]]`, `res$P_10` and `res[["P@10"]]` find the measure whatever
#' spelling was used in [evaluate()]; a name that is not in the evaluation is
#' an error suggesting the closest names.
#'
#' @param x An `ir_evaluation` from [evaluate()].
#' @param i,name A measure name (any spelling), or a position.
#' @param ... Unused.
#' @return The [ir_scores][as_ir_scores()] matrix of the measure.
#' @examples
#' dir <- system.file("extdata", "trec_eval-test", package = "irtopics")
#' res <- evaluate(file.path(dir, "results.test"), file.path(dir, "qrels.test"),
#'                 measures = c("AP", "P@10"))
#' res$map[, 1:3]
#' res[["P_10"]][, 1:3]
#' @name ir_evaluation-lookup
#' @export
`[[.ir_evaluation` <- function(x, i, ...) {
  if (is.character(i) && length(i) == 1L && !is.na(i)) i <- eval_measure_index(x, i)
  .subset2(x, i)
}

#' @rdname ir_evaluation-lookup
#' @export
`$.ir_evaluation` <- function(x, name) {
  x[[name]]
}
