# Measure names ----------------------------------------------------------------------
#
# One table of measures: canonical stem, the C++ kind code (the order of
# MeasureKind in src/measures.h), the kind of parameter, the trec_eval stem
# and the other spellings (ir_measures, ranx), whether a relevance threshold
# applies, how trec_eval summarises it on its 'all' line, the parameters of
# trec_eval's -m all_trec, and a description. Name resolution, "did you
# mean", the help page's list (?measures) and the parity tests read it:
# adding a measure is one row here and one kernel in src/measures.cpp.

measure_row <- function(id, kind, param, trec = NA_character_, spell = character(),
                        rel = TRUE, summary = "mean", all_trec = NULL, cut_kind = NA_integer_,
                        default = NA_real_, desc = "") {
  list(id = id, kind = kind, param = param, trec = trec, spell = spell, rel = rel,
       summary = summary, all_trec = all_trec, cut_kind = cut_kind, default = default, desc = desc)
}

# param: "none"; "cutoff" (k >= 1 required); "optcut" (k optional: `cut_kind`
# is the kind with a cut-off); "recall" (a level in [0, 1]); "mult" (a
# multiple of R); "beta" (>= 0); "p" (in (0, 1)); "utility" (4 coefficients).
measure_rows <- list(
  measure_row("AP", 0L, "optcut", "map", c("ap", "map", "map_cut"), cut_kind = 12L,
              all_trec = NA, desc = "average precision; `AP@k` (`map_cut_k`, ranx `map@k`) stops at rank k"),
  measure_row("gm_map", 0L, "none", "gm_map", c("gm_map", "gmap"), summary = "gmean", all_trec = NA,
              desc = "average precision whose summary is trec_eval's geometric mean (values floored at 1e-5)"),
  measure_row("P", 1L, "cutoff", "P", c("p", "precision"), all_trec = c(5, 10, 15, 20, 30, 100, 200, 500, 1000),
              desc = "precision at k; missing ranks count as non-relevant"),
  measure_row("R-Prec", 2L, "none", "Rprec", c("r-prec", "rprec", "r-precision", "r_precision"), all_trec = NA,
              desc = "precision at rank R (the number of relevant documents)"),
  measure_row("RR", 3L, "optcut", "recip_rank", c("rr", "recip_rank", "mrr"), cut_kind = 36L, all_trec = NA,
              desc = "reciprocal rank of the first relevant document; `RR@k` (ranx `mrr@k`) within the top k"),
  measure_row("nDCG", 4L, "optcut", "ndcg", c("ndcg", "ndcg_cut"), cut_kind = 5L, rel = FALSE, all_trec = NA,
              desc = "normalised DCG with gains = grades (or `gains`); `nDCG@k` (`ndcg_cut_k`) at k"),
  measure_row("Bpref", 6L, "none", "bpref", c("bpref"), all_trec = NA, desc = "binary preference"),
  measure_row("gm_bpref", 6L, "none", "gm_bpref", c("gm_bpref"), summary = "gmean", all_trec = NA,
              desc = "bpref whose summary is trec_eval's geometric mean"),
  measure_row("R", 7L, "cutoff", "recall", c("r", "recall"), all_trec = c(5, 10, 15, 20, 30, 100, 200, 500, 1000),
              desc = "recall at k"),
  measure_row("Success", 8L, "cutoff", "success", c("success", "hit_rate", "hitrate", "hits"), all_trec = c(1, 5, 10),
              desc = "1 if a relevant document is in the top k (ranx `hit_rate@k`)"),
  measure_row("NumRet", 9L, "none", "num_ret", c("numret", "num_ret"), rel = FALSE, summary = "sum", all_trec = NA,
              desc = "number of documents retrieved (after the depth cut)"),
  measure_row("NumRel", 10L, "none", "num_rel", c("numrel", "num_rel"), summary = "sum", all_trec = NA,
              desc = "number of relevant documents of the topic"),
  measure_row("NumRelRet", 11L, "none", "num_rel_ret", c("numrelret", "num_rel_ret"), summary = "sum", all_trec = NA,
              desc = "number of relevant documents retrieved"),
  measure_row("NumQ", 31L, "none", "num_q", c("numq", "num_q"), rel = FALSE, summary = "sum", all_trec = NA,
              desc = "1 per topic: its summary is the number of topics"),
  measure_row("NumNonrelJudgedRet", 26L, "none", "num_nonrel_judged_ret",
              c("numnonreljudgedret", "num_nonrel_judged_ret"), summary = "sum", all_trec = NA,
              desc = "number of judged non-relevant documents retrieved"),
  measure_row("infAP", 14L, "none", "infAP", c("infap"), all_trec = NA,
              desc = "inferred AP (Yilmaz & Aslam 2006); qrels grade -1 = in the pool but not judged"),
  measure_row("IPrec", 15L, "recall", "iprec_at_recall", c("iprec", "iprec_at_recall"),
              all_trec = seq(0, 1, by = 0.1), desc = "interpolated precision at recall level x (between 0 and 1)"),
  measure_row("11pt_avg", 16L, "none", "11pt_avg", c("11pt_avg", "11-pt_avg", "11ptavg"), all_trec = NA,
              desc = "mean interpolated precision at recall 0, 0.1, ..., 1"),
  measure_row("Rprec_mult", 17L, "mult", "Rprec_mult", c("rprec_mult"), all_trec = seq(0.2, 2, by = 0.2),
              desc = "precision at rank x R (trec_eval rounds x R + 0.9 down)"),
  measure_row("relative_P", 18L, "cutoff", "relative_P", c("relative_p", "rel_p", "relp"),
              all_trec = c(5, 10, 15, 20, 30, 100, 200, 500, 1000),
              desc = "precision at k divided by the best possible, min(k, R) / k"),
  measure_row("SetP", 19L, "none", "set_P", c("setp", "set_p"), all_trec = NA,
              desc = "precision of the whole retrieved set"),
  measure_row("SetRelP", 23L, "none", "set_relative_P", c("setrelp", "set_relative_p"), all_trec = NA,
              desc = "set precision relative to the best possible"),
  measure_row("SetR", 20L, "none", "set_recall", c("setr", "set_recall"), all_trec = NA,
              desc = "recall of the whole retrieved set"),
  measure_row("SetAP", 22L, "none", "set_map", c("setap", "set_map"), all_trec = NA,
              desc = "set precision x set recall"),
  measure_row("SetF", 21L, "beta", "set_F", c("setf", "set_f"), default = 1, all_trec = NA,
              desc = "F measure of the retrieved set, (beta + 1) P R / (beta P + R); `beta` (default 1)"),
  measure_row("unj", 24L, "cutoff", "unj", c("unj"), rel = FALSE, all_trec = c(5, 10, 20),
              desc = "fraction of the top k that is unjudged"),
  measure_row("Judged", 32L, "cutoff", NA_character_, c("judged"), rel = FALSE,
              desc = "fraction of the top k that is judged (ir_measures; 1 - unj@k)"),
  measure_row("utility", 25L, "utility", "utility", c("utility"), all_trec = NA,
              desc = "p1 a + p2 b + p3 c (+ p4 d, with no collection size: 0), default 1, -1, 0, 0"),
  measure_row("G", 27L, "none", "G", c("g"), rel = FALSE, all_trec = NA,
              desc = "trec_eval's normalised gain G (experimental)"),
  measure_row("binG", 28L, "none", "binG", c("bing"), all_trec = NA,
              desc = "trec_eval's binary G (experimental)"),
  measure_row("Rndcg", 29L, "none", "Rndcg", c("rndcg"), rel = FALSE, all_trec = NA,
              desc = "nDCG averaged at the R levels (experimental)"),
  measure_row("ndcg_rel", 30L, "none", "ndcg_rel", c("ndcg_rel"), rel = FALSE, all_trec = NA,
              desc = "nDCG averaged over the relevant documents (experimental)"),
  measure_row("ERR", 33L, "optcut", NA_character_, c("err"), rel = FALSE, default = 4,
              desc = "expected reciprocal rank (Chapelle et al. 2009) with gdeval's gains (2^g - 1) / 16; `ERR@k` at k"),
  measure_row("RBP", 34L, "p", "rbp", c("rbp"), default = 0.8,
              desc = "rank-biased precision (Moffat & Zobel 2008), persistence `p` (default 0.8; trec_eval's spelling `rbp` 0.9)"),
  measure_row("RBP_resid", 35L, "p", "rbp_resid", c("rbp_resid", "rbpresid", "rbp-resid"), default = 0.8,
              desc = "the RBP residual: the weight of unjudged ranks and of the ranks past the list"),
  measure_row("Exclusion", 13L, "none", NA_character_, c("exclusion", "n25"),
              desc = "Liggett & Buckley's exclusion measure -log10(N25 + 1)")
)

measure_table <- local({
  f <- function(field) vapply(measure_rows, function(r) r[[field]], FUN.VALUE = if (field %in% c("kind", "cut_kind")) integer(1) else if (field == "rel") logical(1) else if (field == "default") numeric(1) else character(1))
  data.frame(id = f("id"), kind = f("kind"), param = f("param"), trec = f("trec"), rel = f("rel"),
             summary = f("summary"), cut_kind = f("cut_kind"), default = f("default"), desc = f("desc"),
             stringsAsFactors = FALSE)
})

# Lower-case spelling -> row of measure_rows.
measure_spellings <- local({
  s <- unlist(lapply(seq_along(measure_rows), function(i) {
    r <- measure_rows[[i]]
    stats::setNames(rep(i, length(r$spell) + 1L), c(tolower(r$id), r$spell))
  }))
  s[!duplicated(names(s))]
})

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

# One measure name -> list(kind, cutoff, param, rel, utility, row, name).
parse_measure <- function(s, call = rlang::caller_env()) {
  key <- gsub("[[:space:]]", "", s)
  low <- tolower(key)
  base <- low
  args <- NULL
  at <- NULL
  # ir_measures form: Name(args)@cut, Name@cut, Name(args)
  m <- regmatches(low, regexec("^([^()@]+)(\\(([^()]*)\\))?(@(.*))?$", low))[[1]]
  if (length(m)) {
    base <- m[2]
    if (nzchar(m[3])) args <- m[4]
    if (nzchar(m[5])) at <- m[6]
  } else if (grepl("[()@]", low)) {
    measure_error("the name is malformed", s, call,
                  c(i = "Write measures as {.val P@10}, {.val P(rel=2)@10}, {.val P_10} or {.val P.10}."))
  }
  row <- unname(measure_spellings[base])
  trec_param <- NULL
  if (is.na(row) && is.null(args) && is.null(at)) {
    # trec_eval form: stem_param or stem.param (longest stem first)
    stems <- names(measure_spellings)
    hit <- stems[startsWith(base, paste0(stems, "_")) | startsWith(base, paste0(stems, "."))]
    if (length(hit)) {
      stem <- hit[which.max(nchar(hit))]
      row <- unname(measure_spellings[stem])
      trec_param <- substring(base, nchar(stem) + 2L)
    }
  }
  if (is.na(row)) {
    close <- closest_names(key, measure_examples())
    stop_irtopics(c("Unknown measure {.val {s}}.",
                    i = if (length(close)) "Did you mean {.or {.val {close}}}?",
                    i = "See {.help irtopics::measures} for the measures and their spellings."),
                  kind = "measure", call = call, measure = s)
  }
  r <- measure_rows[[row]]
  out <- list(kind = r$kind, cutoff = 0, param = if (is.na(r$default)) 0 else r$default, rel = 0L,
              utility = c(1, -1, 0, 0), row = row)
  if (r$param == "p" && startsWith(key, "rbp")) {
    out$param <- 0.9  # trec_eval's default persistence, for its (lower-case) spelling
  }
  # Arguments: key=value pairs (rel, p, beta, cutoff), or utility coefficients.
  if (!is.null(trec_param) && r$param %in% c("p", "beta") && grepl("=", trec_param)) {
    args <- trec_param
    trec_param <- NULL
  }
  if (!is.null(args) && nzchar(args)) {
    parts <- strsplit(args, ",", fixed = TRUE)[[1]]
    if (r$param == "utility" && !any(grepl("=", parts))) {
      trec_param <- args
    } else {
      for (a in parts) {
        kv <- strsplit(a, "=", fixed = TRUE)[[1]]
        if (length(kv) != 2L) measure_error("arguments must be written {.code name=value}", s, call)
        v <- parse_number(kv[2])
        if (is.na(v)) measure_error(sprintf("argument `%s` must be a number", kv[1]), s, call)
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
            at <- kv[2]
          },
          measure_error(sprintf("unknown argument `%s`", kv[1]), s, call))
      }
    }
  }
  # The parameter: after @ (ir_measures, ranx) or after _ / . (trec_eval).
  value <- at %||% trec_param
  if (!is.null(at) && !is.null(trec_param)) measure_error("the parameter is given twice", s, call)
  switch(r$param,
    none = if (!is.null(value)) measure_error(sprintf("%s takes no parameter", r$id), s, call),
    cutoff = ,
    optcut = {
      if (is.null(value)) {
        if (r$param == "cutoff") measure_error(sprintf("%s needs a cut-off, as in %s@10", r$id, r$id), s, call)
      } else {
        if (!grepl("^[0-9]+$", value)) measure_error("the cut-off must be a positive whole number", s, call)
        k <- as.numeric(value)
        if (k < 1) measure_error("the cut-off must be at least 1", s, call)
        if (k > .Machine$integer.max) measure_error(sprintf("the cut-off must be at most %d", .Machine$integer.max), s, call)
        out$cutoff <- k
        if (r$param == "optcut" && r$kind != 33L) out$kind <- r$cut_kind
      }
    },
    recall = {
      if (is.null(value)) measure_error("IPrec needs a recall level, as in IPrec@0.1", s, call)
      v <- parse_number(value)
      if (is.na(v) || v < 0 || v > 1) measure_error("the recall level must be a number between 0 and 1", s, call)
      out$param <- v
    },
    mult = {
      if (is.null(value)) measure_error("Rprec_mult needs a multiple of R, as in Rprec_mult@0.2", s, call)
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
  out <- r$id
  if (length(args)) out <- paste0(out, "(", paste(args, collapse = ","), ")")
  at <- switch(r$param, cutoff = , optcut = if (x$cutoff > 0) fmt_num(x$cutoff),
               recall = , mult = fmt_num(x$param), NULL)
  if (!is.null(at)) out <- paste0(out, "@", at)
  out
}

# The name trec_eval prints for a parsed measure (NA when trec_eval lacks
# it, or prints it only with other parameters).
trec_eval_name <- function(x) {
  r <- measure_rows[[x$row]]
  if (is.na(r$trec) || x$rel > 0) return(NA_character_)
  switch(r$param,
    none = r$trec,
    cutoff = paste0(r$trec, "_", fmt_num(x$cutoff)),
    optcut = if (x$cutoff == 0) r$trec else if (r$trec %in% c("map", "ndcg")) {
      paste0(r$trec, "_cut_", fmt_num(x$cutoff))
    } else NA_character_,
    recall = , mult = sprintf("%s_%.2f", r$trec, x$param),
    r$trec)
}

# Names for "did you mean": canonical names and common spellings.
measure_examples <- function() {
  ex <- unlist(lapply(measure_rows, function(r) {
    stems <- unique(c(r$id, r$trec[!is.na(r$trec)]))
    switch(r$param,
      cutoff = c(paste0(r$id, "@10"), if (!is.na(r$trec)) paste0(r$trec, "_10")),
      optcut = c(stems, paste0(r$id, "@10")),
      recall = c(paste0(r$id, "@0.1"), if (!is.na(r$trec)) paste0(r$trec, "_0.10")),
      mult = c(paste0(r$id, "@0.2"), paste0(r$trec, "_0.20")),
      p = paste0(r$id, "(p=0.8)"),
      stems)
  }))
  unique(c(ex, "ndcg_cut_10", "map_cut_10", "R-Prec", "recip_rank"))
}

# Returns a data frame (kind, cutoff, name) for a character vector of names.
parse_measures <- function(x, call = rlang::caller_env()) {
  out <- lapply(x, function(s) {
    p <- parse_measure(s, call = call)
    data.frame(kind = p$kind, cutoff = p$cutoff, name = p$name, stringsAsFactors = FALSE)
  })
  do.call(rbind, out)
}

measure_names <- function() {
  vapply(measure_rows, function(r) {
    switch(r$param, cutoff = paste0(r$id, "@k"), optcut = paste0(r$id, ", ", r$id, "@k"),
           recall = paste0(r$id, "@x"), mult = paste0(r$id, "@x"), p = paste0(r$id, "(p=x)"),
           beta = paste0(r$id, ", ", r$id, "(beta=x)"), r$id)
  }, "")
}

#' The measure name a spelling stands for
#'
#' Every built-in measure has one canonical name (the ir_measures spelling
#' where ir_measures has the measure, else trec_eval's) and accepts the
#' trec_eval spellings with `_` or `.` before the parameter (`P_10`, `P.10`,
#' `map_cut.10`, `iprec_at_recall_0.10`), the ir_measures spellings (`P@10`,
#' `nDCG@10`, `AP`, `R@100`, `RR`, `Judged@10`, `P(rel=2)@10`) and the common
#' ranx spellings (`map@100`, `mrr@10`, `precision@10`, `recall@10`,
#' `ndcg@10`, `r-precision`, `hit_rate@10`). Case does not matter.
#'
#' @section Measures:
#' `r measure_help()`
#'
#' A relevance threshold applies to the measures of binary relevance, in the
#' ir_measures style: `P(rel=2)@10` counts grade 2 and above as relevant
#' whatever `relevance_level` says; `AP(rel=2)`, `Bpref(rel=2)`.
#'
#' @param x A character vector of measure names.
#' @return `measure_name()`: the canonical names. `trec_eval_measure_name()`:
#'   the name trec_eval prints for each (`NA` for measures trec_eval lacks).
#' @seealso [evaluate()].
#' @name measures
#' @examples
#' measure_name(c("map", "P_10", "P.10", "ndcg_cut.10", "mrr@10", "P(rel=2)@10",
#'                "iprec_at_recall_0.10", "Rprec_mult_0.20", "rbp"))
#' trec_eval_measure_name(c("AP", "nDCG@10", "IPrec@0.1", "ERR@20"))
#' try(measure_name("nDGC@10"))
NULL

#' @rdname measures
#' @export
measure_name <- function(x) {
  if (!is.character(x)) stop_irtopics("{.arg x} must be a character vector.")
  vapply(x, function(s) parse_measure(s)$name, "", USE.NAMES = FALSE)
}

#' @rdname measures
#' @export
trec_eval_measure_name <- function(x) {
  if (!is.character(x)) stop_irtopics("{.arg x} must be a character vector.")
  vapply(x, function(s) trec_eval_name(parse_measure(s)), "", USE.NAMES = FALSE)
}

measure_help <- function() {
  items <- vapply(measure_rows, function(r) {
    sp <- setdiff(r$spell, tolower(r$id))
    spell <- if (length(sp)) paste0(" (also ", paste0("`", sp, "`", collapse = ", "), ")") else ""
    nm <- switch(r$param, cutoff = paste0(r$id, "@k"), recall = paste0(r$id, "@x"), mult = paste0(r$id, "@x"),
                 p = paste0(r$id, "(p=x)"), r$id)
    paste0("* `", nm, "`", spell, ": ", r$desc, ".")
  }, "")
  paste(items, collapse = "\n")
}

# The trec_eval -m all_trec per-topic measures (canonical names), in
# trec_eval's order; rbp (uninitialised memory in trec_eval 10) is left out.
all_trec_measures <- function() {
  order <- c("NumQ", "NumRet", "NumRel", "NumRelRet", "AP", "gm_map", "R-Prec", "Bpref", "RR", "IPrec",
             "P", "R", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "nDCG",
             "ndcg_rel", "Rndcg", "nDCG@", "AP@", "relative_P", "Success", "SetP", "SetRelP", "SetR",
             "SetAP", "SetF", "NumNonrelJudgedRet", "unj")
  out <- character()
  for (id in order) {
    cut <- grepl("@$", id)
    r <- measure_rows[[which(vapply(measure_rows, `[[`, "", "id") == sub("@$", "", id))]]
    if (cut || r$param %in% c("cutoff", "recall", "mult")) {
      vals <- if (cut) c(5, 10, 15, 20, 30, 100, 200, 500, 1000) else r$all_trec
      out <- c(out, paste0(r$id, "@", fmt_num(vals)))
    } else {
      out <- c(out, r$id)
    }
  }
  out
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

# trec_eval's 'all' value per row of a score matrix: topics in byte order,
# a running double sum (R's `+` on doubles is IEEE double addition, as in C),
# divided by the number of topics answered; sums for counts; geometric mean
# of values floored at 1e-5 (MIN_GEO_MEAN) for gm_map and gm_bpref.
trec_eval_summary <- function(m, summary = "mean") {
  ord <- order(as_bytes(colnames(m) %||% as.character(seq_len(ncol(m)))), method = "radix")
  s <- numeric(nrow(m))
  n <- numeric(nrow(m))
  for (j in ord) {
    v <- m[, j]
    ok <- !is.na(v)
    if (summary == "gmean") v <- log(pmax(v, 1e-5))
    s[ok] <- s[ok] + v[ok]
    n[ok] <- n[ok] + 1
  }
  out <- switch(summary, sum = s, gmean = exp(s / n), s / n)
  out[n == 0] <- NA_real_
  stats::setNames(out, rownames(m))
}
