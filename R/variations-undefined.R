# Undefined topic indicators (issue 25): why U, C and S are NA for a topic
# and system, and the lines that say so wherever such topics are left out
# (print, summary, warnings, plot captions).

# Why the cloud indicators (U, C, S) of one topic and system are undefined,
# or NA when they are defined. `n_returned`: relevant documents returned by
# each selected query's list; `delta`: their dissimilarities.
undefined_reason <- function(n_queries, n_rel, n_returned, delta) {
  if (n_queries < 2L) return("fewer than two distinct queries")
  if (n_rel < 2L) return("fewer than two relevant documents")
  if (any(n_returned == 0L)) return("a selected query returns no relevant document")
  if (anyNA(delta)) return("an undefined dissimilarity")
  NA_character_
}

# The table of undefined (topic, system) pairs: topic, system, reason.
undefined_table <- function(ind, reasons) {
  keep <- !is.na(reasons)
  data.frame(topic = ind$topic[keep], system = ind$system[keep], reason = reasons[keep],
             stringsAsFactors = FALSE)
}

# "14 a selected query returns no relevant document, 2 fewer than two ..."
reason_counts <- function(reason) {
  tab <- table(factor(reason, levels = unique(reason)))
  paste(sprintf("%s (%d)", names(tab), as.vector(tab)), collapse = "; ")
}

# One line on the topics whose U, C, S are undefined for at least one system,
# or character() when there are none.
undefined_line <- function(undefined, n_topics, systems = NULL) {
  if (is.null(undefined) || !nrow(undefined)) return(character())
  if (!is.null(systems)) undefined <- undefined[undefined$system %in% systems, , drop = FALSE]
  if (!nrow(undefined)) return(character())
  tops <- unique(undefined$topic)
  per_topic <- undefined$reason[!duplicated(undefined$topic)]
  sprintf("U, C and S are NA for %d of %d topics%s: %s.", length(tops), n_topics,
          if (is.null(systems) || length(systems) > 1L) " (for at least one system)" else "",
          reason_counts(per_topic))
}

# The note of a plot that leaves out the topics (rows of `df`) whose `vars`
# are not finite: how many, and why (from the undefined table).
undefined_note <- function(df, vars, undefined, what = "topic") {
  bad <- !Reduce(`&`, lapply(vars, function(v) is.finite(df[[v]])))
  if (!any(bad)) return(NULL)
  why <- if (is.null(df$system)) {
    undefined$reason[match(df$topic[bad], undefined$topic)]
  } else {
    undefined$reason[match(paste(df$topic[bad], df$system[bad], sep = "\r"),
                           paste(undefined$topic, undefined$system, sep = "\r"))]
  }
  why[is.na(why)] <- "not finite"
  sprintf("%d of %d %s not drawn (%s undefined): %s.", sum(bad), nrow(df),
          if (nrow(df) == 1L) what else paste0(what, "s"), paste(vars, collapse = " or "),
          reason_counts(why))
}
