# Measure names ----------------------------------------------------------------------
#
# Each built-in measure has a C++ kind code (the order of MeasureKind in
# src/measures.h), a canonical ir_measures-style name and accepted spellings.

measure_table <- data.frame(
  kind = 0:13,
  id = c("AP", "P", "R-Prec", "RR", "nDCG", "nDCG@", "Bpref", "R", "Success", "NumRet",
         "NumRel", "NumRelRet", "AP@", "Exclusion"),
  cut = c(FALSE, TRUE, FALSE, FALSE, FALSE, TRUE, FALSE, TRUE, TRUE, FALSE, FALSE, FALSE, TRUE, FALSE),
  stringsAsFactors = FALSE
)

# Returns a data frame (kind, cutoff, name) for a character vector of names.
parse_measures <- function(x, call = rlang::caller_env()) {
  out <- lapply(x, parse_measure, call = call)
  do.call(rbind, out)
}

parse_measure <- function(s, call = rlang::caller_env()) {
  key <- gsub("[[:space:]]", "", s)
  low <- tolower(key)
  fixed <- c(
    ap = "AP", map = "AP",
    "r-prec" = "R-Prec", rprec = "R-Prec",
    rr = "RR", recip_rank = "RR", mrr = "RR",
    ndcg = "nDCG",
    bpref = "Bpref",
    numret = "NumRet", num_ret = "NumRet",
    numrel = "NumRel", num_rel = "NumRel",
    numrelret = "NumRelRet", num_rel_ret = "NumRelRet",
    exclusion = "Exclusion", n25 = "Exclusion"
  )
  if (low %in% names(fixed)) {
    name <- fixed[[low]]
    return(data.frame(kind = measure_table$kind[measure_table$id == name], cutoff = 0,
                      name = name, stringsAsFactors = FALSE))
  }
  # Measures with a cutoff: ir_measures "P@10" or trec_eval "P_10".
  patterns <- list(
    list(re = "^(p@|p_)([0-9]+)$", id = "P", label = "P@"),
    list(re = "^(ndcg@|ndcg_cut_|ndcg_cut\\.)([0-9]+)$", id = "nDCG@", label = "nDCG@"),
    list(re = "^(r@|recall@|recall_)([0-9]+)$", id = "R", label = "R@"),
    list(re = "^(success@|success_)([0-9]+)$", id = "Success", label = "Success@"),
    list(re = "^(ap@|map_cut_)([0-9]+)$", id = "AP@", label = "AP@")
  )
  for (p in patterns) {
    if (grepl(p$re, low)) {
      k <- as.numeric(sub(p$re, "\\2", low))
      if (k < 1) break
      return(data.frame(kind = measure_table$kind[measure_table$id == p$id], cutoff = k,
                        name = paste0(p$label, k), stringsAsFactors = FALSE))
    }
  }
  stop_irtopics(c("Unknown measure {.val {s}}.",
                  i = "Built-in measures: {.val {measure_names()}} (k a positive whole number); trec_eval spellings such as {.val map}, {.val P_10}, {.val ndcg_cut_10} also work."),
                kind = "measure", call = call)
}

measure_names <- function() {
  c("AP", "AP@k", "P@k", "R-Prec", "RR", "nDCG", "nDCG@k", "Bpref", "R@k", "Success@k",
    "NumRet", "NumRel", "NumRelRet", "Exclusion")
}
