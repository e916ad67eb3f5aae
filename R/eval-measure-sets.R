# Measure sets and families: trec_eval's -m arguments ----------------------------
#
# trec_eval's `-m` takes a set ("official", "set", "all_trec") or a family
# name ("P", "recall", "ndcg_cut", "iprec_at_recall"), which stands for the
# family's default parameters. expand_measures() turns such names into the
# canonical names of the registry (src/measure_table.h: each record's
# trec_eval stems and its `-m all_trec` parameters), so that evaluate() and
# measure_set() accept them; it is the one place a set or a family name is
# read. The sets' members are trec_eval 10's nickname lists (measures.c),
# in the order trec_eval prints them.

# trec_eval names that are not per-topic numbers irtopics computes: the run
# id and the relevance string (not numbers), and rbp / rbp_resid, whose
# trec_eval 10 values read uninitialised memory (RBP(p=) follows Moffat &
# Zobel instead): a set leaves them out.
trec_set_left_out <- c("runid", "relstring", "rbp", "rbp_resid")

# The sets, as trec_eval prints their members (te_trec_measures' order).
trec_measure_sets <- list(
  official = c("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
               "recip_rank", "iprec_at_recall", "P"),
  set = c("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_relative_P",
          "set_recall", "set_map", "set_F"),
  all_trec = c("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
               "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult",
               "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
               "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
               "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj")
)

# trec_eval's sets of preference and judgement-group measures, which need
# qrels formats irtopics does not read.
trec_unsupported_sets <- c("all_prefs", "prefs", "qrels_jg")

# The canonical names a trec_eval family name stands for (its default
# parameters, those of -m all_trec), or NULL when `name` is not a family:
# a record whose parameter is required (a cut-off, a recall level, a
# multiple of R) named by its trec_eval stem, or the cut-off stem of a
# record whose cut-off is optional (map_cut, ndcg_cut). trec_eval's default
# cut-offs of map_cut and ndcg_cut are those of P (5, 10, ..., 1000).
trec_family <- function(name) {
  low <- tolower(name)
  rows <- measure_rows()
  for (r in rows) {
    stem <- !is.na(r$trec) && tolower(r$trec) == low && r$param %in% c("cutoff", "recall", "mult")
    cut <- !is.na(r$trec_cut) && tolower(r$trec_cut) == low
    if (!stem && !cut) next
    values <- if (cut) rows[[which(vapply(rows, `[[`, "", "id") == "P")]]$all_trec else r$all_trec
    if (is.null(values) || all(is.na(values))) return(NULL)
    return(paste0(r$id, "@", fmt_num(values)))
  }
  NULL
}

# What one name stands for: itself (a measure), or the canonical names of a
# set or a family, with `set` saying which. Unknown names are left to
# parse_measure(), which names them.
expand_measure_name <- function(name, call = rlang::caller_env()) {
  low <- tolower(name)
  if (low %in% trec_unsupported_sets) {
    stop_irtopics(c("Can't use trec_eval's measure set {.val {name}}: its measures need preference or judgement-group qrels, which irtopics does not read.",
                    i = "The sets irtopics computes: {.or {.val {names(trec_measure_sets)}}}."),
                  kind = "measure", call = call, measure = name)
  }
  if (low %in% names(trec_measure_sets)) {
    members <- setdiff(trec_measure_sets[[low]], trec_set_left_out)
    out <- unlist(lapply(members, function(m) trec_family(m) %||% parse_measure(m, call = call)$name))
    return(list(names = out, set = TRUE))
  }
  fam <- trec_family(name)
  if (!is.null(fam)) return(list(names = fam, set = TRUE))
  list(names = name, set = FALSE)
}

# A measure list with its sets and families expanded, in order. A measure
# that a set brings and the list also names (explicitly, or through an
# earlier set) is kept once, where it first comes; two explicit names of the
# same measure are left for measure_spec() to refuse. Custom measures
# (functions) pass through; a set or family can't carry a list name.
expand_measures <- function(measures, call = rlang::caller_env()) {
  if (is.character(measures)) measures <- as.list(measures)
  if (!is.list(measures)) return(measures)
  nm <- names(measures) %||% rep("", length(measures))
  out <- list()
  out_names <- character()
  from_set <- logical()
  for (k in seq_along(measures)) {
    m <- measures[[k]]
    if (is.character(m) && length(m) == 1L && !is.na(m)) {
      e <- expand_measure_name(m, call = call)
      if (e$set) {
        if (nzchar(nm[k])) {
          stop_irtopics("{.val {m}} is a measure set; it can't be given a name ({.val {nm[k]}}).",
                        kind = "measure", call = call, measure = m)
        }
        out <- c(out, as.list(e$names))
        out_names <- c(out_names, rep("", length(e$names)))
        from_set <- c(from_set, rep(TRUE, length(e$names)))
        next
      }
    }
    out <- c(out, list(m))
    out_names <- c(out_names, nm[k])
    from_set <- c(from_set, FALSE)
  }
  if (!any(from_set)) return(measures)
  key <- vapply(seq_along(out), function(k) {
    m <- out[[k]]
    if (!is.character(m)) return(paste0("\r", k))  # a function: never a set's measure
    p <- tryCatch(parse_measure(m, call = call), irtopics_error_measure = function(e) NULL)
    if (is.null(p)) m else p$name
  }, "")
  drop <- from_set & (key %in% key[!from_set] | duplicated(key))
  out <- out[!drop]
  names(out) <- out_names[!drop]
  if (all(!nzchar(names(out)))) names(out) <- NULL
  out
}

#' @rdname measures
#' @export
measure_set <- function(x) {
  check_measure_names(x)
  call <- environment()
  out <- expand_measures(x, call = call)
  vapply(out, function(s) parse_measure(s, call = call)$name, "", USE.NAMES = FALSE)
}

# Hints for parse_measure()'s errors on a set or family name where one
# measure is wanted (measure_name("all_trec"), compare_qrels(measure = "P")).
set_hint <- function(s) {
  sprintf("{.val %s} is trec_eval's measure set: {.code evaluate()} takes it as a list of measures (see {.code measure_set(\"%s\")}).",
          s, s)
}
family_hint <- function(s) {
  fam <- trec_family(s)
  if (is.null(fam)) return(NULL)
  c(i = sprintf("As trec_eval's family, {.val %s} is %s, ..., %s: a list of measures that {.code evaluate()} and {.code measure_set()} take.",
                s, fam[1], fam[length(fam)]))
}
