# The copula families of the simulation (Urbano & Nagler 2018) on the R
# side: the C++ code map (kCopulaCodes in src/copula_families.h, exported by
# cpp_copula_families(): VineCopula's codes and their names) is the
# registry of families; which of them a named set holds is said here, in
# one record per base family keyed by its codes, so that a family added to
# the code map joins no set (and no default) until its record here says so.

# Families by VineCopula's codes, from the C++ code map: names by code,
# sorted by code.
copula_families <- function() {
  fams <- cpp_copula_families()
  o <- order(fams$code)
  stats::setNames(fams$name[o], fams$code[o])
}
copula_family_codes <- function() as.integer(names(copula_families()))
copula_name <- function(code) unname(copula_families()[as.character(code)])

# The sets a family's codes (all its rotations) belong to. A code of the map
# without a record here is in no set: fitted only when asked for by code,
# or with copulas = "registered".
copula_set_records <- list(
  list(family = "independence", codes = 0L, sets = c("study2019", "basic")),
  list(family = "Gaussian", codes = 1L, sets = c("study2019", "basic")),
  list(family = "Student t", codes = 2L, sets = c("study2019", "basic")),
  list(family = "Clayton", codes = c(3L, 13L, 23L, 33L), sets = c("study2019", "basic")),
  list(family = "Gumbel", codes = c(4L, 14L, 24L, 34L), sets = c("study2019", "basic")),
  list(family = "Frank", codes = 5L, sets = c("study2019", "basic")),
  list(family = "Joe", codes = c(6L, 16L, 26L, 36L), sets = c("study2019", "basic")),
  list(family = "BB1", codes = c(7L, 17L, 27L, 37L), sets = "study2019"),
  list(family = "BB6", codes = c(8L, 18L, 28L, 38L), sets = "study2019"),
  list(family = "BB7", codes = c(9L, 19L, 29L, 39L), sets = "study2019"),
  list(family = "BB8", codes = c(10L, 20L, 30L, 40L), sets = "study2019"),
  # by VineCopula's names (124 and 134 are built from type 2, see the code map)
  list(family = "Tawn type 1", codes = c(104L, 114L, 124L, 134L), sets = "study2019"),
  list(family = "Tawn type 2", codes = c(204L, 214L, 224L, 234L), sets = "study2019")
)

# The named sets, and the names kept for them. "registered" is every code
# of the map, computed; the others come from the records.
copula_set_info <- c(
  study2019 = "VineCopula's 40 codes, the default family set of `BiCopSelect()`, which the 2019 study used",
  basic = "the one-parameter families and the t copula with their rotations: the families our specification named",
  registered = "every family of the code map, those added after the study included"
)
copula_set_synonyms <- c(all = "study2019")

# The codes of a set (or of its synonym), sorted.
copula_set <- function(set) {
  if (set %in% names(copula_set_synonyms)) set <- copula_set_synonyms[[set]]
  known <- copula_family_codes()
  if (set == "registered") return(known)
  if (!set %in% names(copula_set_info)) stop_irtopics("Unknown copula set {.val {set}}.", kind = "internal")
  codes <- sort(unlist(lapply(Filter(function(r) set %in% r$sets, copula_set_records), `[[`, "codes")))
  if (!all(codes %in% known)) {
    stop_irtopics("Copula set {.val {set}} holds codes the code map lacks: {setdiff(codes, known)}.",
                  kind = "internal")
  }
  codes
}

# Every code with its name, one string (cli would shorten a long vector).
copula_code_list <- function() {
  fams <- copula_families()
  paste(names(fams), fams, collapse = ", ")
}

# The sets for the help: one item per set (and its synonyms), its codes.
copula_sets_help <- function() {
  items <- vapply(names(copula_set_info), function(set) {
    also <- names(copula_set_synonyms)[copula_set_synonyms == set]
    sprintf("* `\"%s\"`%s: %s: codes %s.", set,
            if (length(also)) paste0(" (also ", rd_quoted(also), ")") else "", copula_set_info[[set]],
            paste(copula_set(set), collapse = ", "))
  }, "")
  paste(items, collapse = "\n")
}

# The candidate codes: a set's name or codes of the map.
check_copula_families <- function(copulas, call = rlang::caller_env()) {
  sets <- c(names(copula_set_info), names(copula_set_synonyms))
  if (is.character(copulas) && length(copulas) == 1L && copulas %in% sets) return(copula_set(copulas))
  if (!is.numeric(copulas) || !length(copulas) || anyNA(copulas) || !all(copulas %in% copula_family_codes())) {
    stop_irtopics(c("{.arg copulas} must be one of the sets {quoted_list(sets)} or copula family codes among those below.",
                    i = "Codes (VineCopula's; 90, 180, 270: rotated by that many degrees): {copula_code_list()}."),
                  call = call)
  }
  sort(unique(as.integer(copulas)))
}
