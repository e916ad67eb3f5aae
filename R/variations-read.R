# Readers of query files for the query-variation analysis (issue 25): TREC
# topic files and CLEF-style XML query files -> a query map (topic, query,
# text), and the query map of ids that encode their topic (topic * 1000 +
# variant). Base R only: the XML of query files is simple (one record element
# per query, plain text children), parsed here without an XML library.

#' Read a query file: TREC topics or CLEF-style XML
#'
#' Reads the queries of a test collection into a query map, the data frame
#' (`topic`, `query`, `text`) that [return_orders()], [select_queries()] and
#' [topic_indicators()] take as `query_map`.
#'
#' * `format = "trec"`: a TREC topic file, one `<top> ... </top>` block per
#'   topic with `<num> Number: 301`, `<title>`, `<desc> Description:` and
#'   `<narr> Narrative:` fields (closing tags such as `</title>` are
#'   optional, as in the TREC files). Each field named in `fields` becomes
#'   one query of the topic: with one field the query id is the topic number;
#'   with several, `"<topic>-<field>"` (e.g. `"301-title"`, `"301-desc"`), so
#'   that title-only and description-only runs can be analysed as variants
#'   of one topic.
#' * `format = "xml"`: an XML file with one element per query (`record`,
#'   `"query"` by default) holding the query id (child `id`) and its text
#'   (the children named in `fields`, `"title"` by default, joined by a
#'   space), as in the CLEF eHealth query-variation files:
#'   `<queries><query><id>101001</id><title>...</title></query>...</queries>`.
#'   The topic is a child `topic` if the records have one; otherwise it must
#'   be derived from the id, with `divisor` (CLEF eHealth 2016-2018: id =
#'   topic * 1000 + variant, so `divisor = 1000`) or `pattern`; see
#'   [query_map_from_ids()].
#' * `format = "auto"` (default) reads the file as TREC topics when it holds
#'   a `<top>` tag, else as XML.
#'
#' Entities (`&amp;`, `&lt;`, `&#233;`, ...) and CDATA sections are decoded,
#' comments are skipped and white space (line breaks included) is collapsed
#' to single spaces. The reader does not validate the XML beyond what it
#' needs: the record elements must be closed and hold an id.
#'
#' @param file Path of the query file.
#' @param format `"auto"`, `"trec"` or `"xml"`.
#' @param fields The fields that hold the query text: for TREC files any of
#'   `"title"`, `"desc"`, `"narr"`; for XML the names of the record's
#'   children.
#' @param divisor,pattern For XML records without a `topic` child: how the
#'   topic is derived from the query id (see [query_map_from_ids()]).
#' @param record,id For XML: the name of the element of one query and of its
#'   id child.
#' @return A data frame with columns `topic`, `query` and `text`, one row per
#'   query, in file order; usable as `query_map`.
#' @seealso [query_map_from_ids()] for ids that encode the topic.
#' @examples
#' # the shape of the CLEF eHealth 2016 query-variation file (queries2016.xml)
#' xml <- tempfile(fileext = ".xml")
#' writeLines(c("<queries>",
#'              "<query>", "\t<id>101001</id>", "\t<title>knee pain after running</title>", "</query>",
#'              "<query>", "\t<id>101002</id>", "\t<title>runner's knee &amp; treatment</title>", "</query>",
#'              "<query>", "\t<id>102001</id>", "\t<title>itchy rash on both arms</title>", "</query>",
#'              "</queries>"), xml)
#' read_query_file(xml, divisor = 1000)
#'
#' # a TREC topic file: title and description as two variants of each topic
#' trec <- tempfile(fileext = ".txt")
#' writeLines(c("<top>", "<num> Number: 401", "<title> knee pain in runners",
#'              "<desc> Description:", "What treats knee pain that comes from running?",
#'              "<narr> Narrative:", "Documents on causes only are not relevant.", "</top>"), trec)
#' read_query_file(trec, fields = c("title", "desc"))
#' @export
read_query_file <- function(file, format = c("auto", "trec", "xml"), fields = "title",
                            divisor = NULL, pattern = NULL, record = "query", id = "id") {
  format <- match_choice(format)
  check_file(file, arg = "file")
  if (!is.character(fields) || !length(fields) || anyNA(fields) || any(!nzchar(fields))) {
    stop_irtopics("{.arg fields} must be a character vector of field names, e.g. {.val title}.")
  }
  for (arg in c("record", "id")) {
    v <- get(arg)
    if (!is.character(v) || length(v) != 1L || is.na(v) || !grepl("^[A-Za-z_][A-Za-z0-9_.-]*$", v)) {
      stop_irtopics("{.arg {arg}} must be one XML element name, e.g. {.val query}.")
    }
  }
  text <- paste(strip_bom(readLines(file, warn = FALSE, encoding = "UTF-8")), collapse = "\n")
  if (format == "auto") format <- if (grepl("<top>", text, ignore.case = TRUE)) "trec" else "xml"
  if (format == "trec") {
    if (!is.null(divisor) || !is.null(pattern)) {
      stop_irtopics("{.arg divisor} and {.arg pattern} are for XML files; a TREC topic file numbers its topics.")
    }
    return(read_trec_topics(text, file, fields))
  }
  read_xml_queries(text, file, fields, divisor, pattern, record, id)
}

#' A query map from query ids that encode their topic
#'
#' Many query-variation collections number a query variant as topic * 1000 +
#' variant (CLEF eHealth 2016-2018: query 101003 is the third variant of
#' topic 101), or write it as topic, separator, variant (`"301-2"`). This
#' builds the query map (`topic`, `query`, `text`) from such ids: the topic is
#' the id divided by `divisor`, rounded down (`divisor = 1000`), or the first
#' group of the regular expression `pattern` (`pattern = "^([0-9]+)-"`).
#' Exactly one of the two is needed.
#'
#' @param queries Query ids (a character or numeric vector; for instance the
#'   topic field of query-variation runs, `unique(runs$topic)`).
#' @param divisor A whole number: topic = floor(id / divisor); the ids must be
#'   whole numbers.
#' @param pattern A regular expression whose first parenthesised group is the
#'   topic; every id must match.
#' @param text Optional query texts, one per id.
#' @return A data frame with columns `topic`, `query` and `text`.
#' @examples
#' query_map_from_ids(c(101001, 101002, 102001), divisor = 1000)
#' query_map_from_ids(c("301-1", "301-2", "302-1"), pattern = "^([0-9]+)-")
#' @export
query_map_from_ids <- function(queries, divisor = NULL, pattern = NULL, text = NULL) {
  if (is.factor(queries)) queries <- as.character(queries)
  if (!(is.character(queries) || is.numeric(queries)) || !length(queries) || anyNA(queries)) {
    stop_irtopics("{.arg queries} must be a vector of query ids without NA.")
  }
  if (!is.null(text) && length(text) != length(queries)) {
    stop_irtopics("{.arg text} must have one entry per query ({length(queries)}), not {length(text)}.")
  }
  ids <- if (is.numeric(queries)) format(queries, scientific = FALSE, trim = TRUE) else trimws(queries)
  topics <- topics_from_ids(ids, divisor, pattern)
  if (anyDuplicated(ids)) {
    stop_irtopics("{.arg queries} must be distinct; {.val {ids[duplicated(ids)][1]}} is repeated.",
                  kind = "data")
  }
  data.frame(topic = topics, query = ids, text = if (is.null(text)) NA_character_ else as.character(text),
             stringsAsFactors = FALSE)
}

# The topics of query ids by divisor or pattern (exactly one given). `where`
# names the ids' origin for errors (a file and its lines).
topics_from_ids <- function(ids, divisor, pattern, where = NULL, call = rlang::caller_env()) {
  if (is.null(divisor) == is.null(pattern)) {
    stop_irtopics(c("Give exactly one of {.arg divisor} and {.arg pattern}, to derive the topic from the query id.",
                    i = "Ids like 101003 (topic 101, variant 3): {.code divisor = 1000}.",
                    i = "Ids like \"301-3\": {.code pattern = \"^([0-9]+)-\"}."), call = call)
  }
  at <- function(i) if (is.null(where)) "" else paste0(" (", where[i], ")")
  if (!is.null(divisor)) {
    check_number(divisor, "divisor", min = 1, integer = TRUE, call = call)
    num <- suppressWarnings(as.numeric(ids))
    bad <- which(is.na(num) | num != round(num) | num < 0 | !grepl("^[0-9]+$", ids))
    if (length(bad)) {
      stop_irtopics("Query id {.val {ids[bad[1]]}}{at(bad[1])} is not a whole number, so {.arg divisor} can't give its topic.",
                    kind = "parse", call = call)
    }
    return(format(floor(num / divisor), scientific = FALSE, trim = TRUE))
  }
  if (!is.character(pattern) || length(pattern) != 1L || is.na(pattern)) {
    stop_irtopics("{.arg pattern} must be one regular expression.", call = call)
  }
  m <- tryCatch(regmatches(ids, regexec(pattern, ids, perl = TRUE)),
                error = function(e) stop_irtopics("{.arg pattern} is not a valid regular expression.", call = call))
  ok <- lengths(m) >= 2L
  if (!all(ok)) {
    if (any(lengths(m) == 1L)) {
      stop_irtopics("{.arg pattern} must hold a group in parentheses: the topic.", call = call)
    }
    bad <- which(!ok)[1]
    stop_irtopics("Query id {.val {ids[bad]}}{at(bad)} does not match {.arg pattern} {.val {pattern}}.",
                  kind = "parse", call = call)
  }
  topics <- vapply(m, `[`, "", 2L)
  if (any(!nzchar(topics))) {
    bad <- which(!nzchar(topics))[1]
    stop_irtopics("{.arg pattern} gives an empty topic for query id {.val {ids[bad]}}{at(bad)}.",
                  kind = "parse", call = call)
  }
  topics
}

# Line number of character positions of `text`.
line_at <- function(text, pos) {
  nl <- gregexpr("\n", text, fixed = TRUE)[[1]]
  nl <- if (nl[1] == -1L) integer() else as.integer(nl)
  findInterval(pos - 1L, nl) + 1L
}

# &amp; &lt; &gt; &quot; &apos; and numeric character references.
decode_entities <- function(x) {
  x <- gsub("&lt;", "<", x, fixed = TRUE)
  x <- gsub("&gt;", ">", x, fixed = TRUE)
  x <- gsub("&quot;", "\"", x, fixed = TRUE)
  x <- gsub("&apos;", "'", x, fixed = TRUE)
  for (hex in c(FALSE, TRUE)) {
    re <- if (hex) "&#[xX]([0-9A-Fa-f]+);" else "&#([0-9]+);"
    repeat {
      m <- regexpr(re, x, perl = TRUE)
      if (all(m == -1L)) break
      hit <- regmatches(x, m)
      code <- strtoi(sub(re, "\\1", hit, perl = TRUE), if (hex) 16L else 10L)
      regmatches(x, m) <- vapply(code, function(cp) intToUtf8(cp), "")
    }
  }
  gsub("&amp;", "&", x, fixed = TRUE)
}

squish <- function(x) trimws(gsub("[[:space:]]+", " ", x))

# Comments and processing instructions blanked out, keeping line breaks (so
# line numbers stay true).
blank_markup <- function(text, re) {
  m <- gregexpr(re, text, perl = TRUE)
  regmatches(text, m) <- lapply(regmatches(text, m), function(s) gsub("[^\n]", " ", s))
  text
}

read_xml_queries <- function(text, file, fields, divisor, pattern, record, id, call = rlang::caller_env()) {
  text <- blank_markup(text, "(?s)<!--.*?-->")
  text <- blank_markup(text, "(?s)<\\?.*?\\?>")
  open_re <- sprintf("<%s(\\s[^>]*)?>", record)
  starts <- gregexpr(open_re, text, perl = TRUE)[[1]]
  if (starts[1] == -1L) {
    stop_irtopics(c("{.file {file}} holds no {.code <{record}>} element.",
                    i = "Is it a query file? Set {.arg record} to the element of one query, or {.code format = \"trec\"} for TREC topics."),
                  kind = "parse", call = call)
  }
  close_tag <- sprintf("</%s>", record)
  ends <- gregexpr(close_tag, text, fixed = TRUE)[[1]]
  ends <- if (ends[1] == -1L) integer() else as.integer(ends)
  starts <- as.integer(starts)
  body_from <- starts + attr(gregexpr(open_re, text, perl = TRUE)[[1]], "match.length")
  recs <- vector("list", length(starts))
  for (i in seq_along(starts)) {
    nxt <- if (i < length(starts)) starts[i + 1L] else .Machine$integer.max
    e <- ends[ends > starts[i]][1]
    if (is.na(e) || e > nxt) {
      stop_irtopics("{.file {file}}, line {line_at(text, starts[i])}: {.code <{record}>} is not closed by {.code {close_tag}}.",
                    kind = "parse", call = call)
    }
    body <- substr(text, body_from[i], e - 1L)
    line <- line_at(text, starts[i])
    get <- function(tag) xml_child_text(body, tag)
    qid <- get(id)
    if (is.na(qid) || !nzchar(qid)) {
      stop_irtopics("{.file {file}}, line {line}: the {.code <{record}>} has no {.code <{id}>}.",
                    kind = "parse", call = call)
    }
    parts <- vapply(fields, get, "")
    txt <- if (all(is.na(parts))) NA_character_ else paste(parts[!is.na(parts)], collapse = " ")
    recs[[i]] <- list(query = qid, topic = get("topic"), text = txt, line = line)
  }
  qs <- vapply(recs, `[[`, "", "query")
  lines <- vapply(recs, `[[`, 0L, "line")
  txt <- vapply(recs, `[[`, "", "text")
  if (all(is.na(txt))) {
    stop_irtopics(c("{.file {file}}: no {.code <{record}>} has a field {.val {fields}}.",
                    i = "Name the children that hold the query text in {.arg fields}."),
                  kind = "parse", call = call)
  }
  own <- vapply(recs, `[[`, "", "topic")
  where <- sprintf("%s, line %d", file, lines)
  topics <- if (!anyNA(own) && is.null(divisor) && is.null(pattern)) own else
    topics_from_ids(qs, divisor, pattern, where = where, call = call)
  dup <- which(duplicated(qs))
  if (length(dup)) {
    stop_irtopics("{.file {file}}, line {lines[dup[1]]}: query id {.val {qs[dup[1]]}} appears a second time.",
                  kind = "parse", call = call)
  }
  data.frame(topic = topics, query = qs, text = txt, stringsAsFactors = FALSE)
}

# The text of the first child <tag> of an XML fragment (entities and CDATA
# decoded, white space squished), NA when there is none.
xml_child_text <- function(body, tag) {
  m <- regmatches(body, regexec(sprintf("(?s)<%s(?:\\s[^>]*)?>(.*?)</%s>", tag, tag), body, perl = TRUE))[[1]]
  if (!length(m)) {
    if (grepl(sprintf("<%s(\\s[^>]*)?/>", tag), body, perl = TRUE)) return("")
    return(NA_character_)
  }
  v <- m[2]
  cdata <- gregexpr("(?s)<!\\[CDATA\\[(.*?)\\]\\]>", v, perl = TRUE)
  if (cdata[[1]][1] != -1L) {
    # CDATA is literal: protect it from entity decoding, then put it back
    keep <- sub("(?s)^<!\\[CDATA\\[(.*)\\]\\]>$", "\\1", regmatches(v, cdata)[[1]], perl = TRUE)
    regmatches(v, cdata) <- list(sprintf("\001%d\001", seq_along(keep)))
    v <- decode_entities(gsub("<[^>]*>", " ", v))
    for (k in seq_along(keep)) v <- sub(sprintf("\001%d\001", k), keep[k], v, fixed = TRUE)
  } else {
    v <- decode_entities(gsub("<[^>]*>", " ", v))
  }
  squish(v)
}

read_trec_topics <- function(text, file, fields, call = rlang::caller_env()) {
  known <- c("title", "desc", "narr")
  bad <- setdiff(fields, known)
  if (length(bad)) {
    stop_irtopics("{.arg fields} of a TREC topic file must be among {.val {known}}, not {.val {bad}}.", call = call)
  }
  starts <- as.integer(gregexpr("<top>", text, ignore.case = TRUE)[[1]])
  if (starts[1] == -1L) {
    stop_irtopics("{.file {file}} holds no {.code <top>} block of a TREC topic file.", kind = "parse", call = call)
  }
  ends <- as.integer(gregexpr("</top>", text, ignore.case = TRUE)[[1]])
  rows <- vector("list", length(starts))
  for (i in seq_along(starts)) {
    nxt <- if (i < length(starts)) starts[i + 1L] else nchar(text) + 1L
    e <- ends[ends > starts[i]][1]
    line <- line_at(text, starts[i])
    if (is.na(e) || e > nxt) {
      stop_irtopics("{.file {file}}, line {line}: {.code <top>} is not closed by {.code </top>}.",
                    kind = "parse", call = call)
    }
    block <- substr(text, starts[i] + 5L, e - 1L)
    vals <- trec_fields(block)
    num <- sub("^(number|num)[[:space:]]*:?[[:space:]]*", "", vals[["num"]] %||% "", ignore.case = TRUE)
    if (!nzchar(num) || grepl("[[:space:]]", num)) {
      stop_irtopics("{.file {file}}, line {line}: the topic has no {.code <num>} (e.g. {.code <num> Number: 301}).",
                    kind = "parse", call = call)
    }
    prefix <- c(title = "^topic[[:space:]]*:[[:space:]]*", desc = "^description[[:space:]]*:[[:space:]]*",
                narr = "^narrative[[:space:]]*:[[:space:]]*")
    txt <- vapply(fields, function(f) {
      v <- vals[[f]]
      if (is.null(v)) NA_character_ else sub(prefix[[f]], "", v, ignore.case = TRUE)
    }, "")
    if (anyNA(txt)) {
      stop_irtopics("{.file {file}}, line {line}: topic {num} has no {.code <{fields[is.na(txt)][1]}>} field.",
                    kind = "parse", call = call)
    }
    rows[[i]] <- data.frame(topic = num, query = if (length(fields) == 1L) num else paste(num, fields, sep = "-"),
                            text = unname(txt), stringsAsFactors = FALSE)
  }
  out <- do.call(rbind, rows)
  dup <- which(duplicated(out$query))
  if (length(dup)) {
    stop_irtopics("{.file {file}}: topic {.val {out$topic[dup[1]]}} appears twice.", kind = "parse", call = call)
  }
  rownames(out) <- NULL
  out
}

# The fields of one <top> block: each tag's text up to the next tag (closing
# tags such as </title> are optional), squished, by tag name.
trec_fields <- function(block) {
  tags <- gregexpr("<([A-Za-z]+)>", block, perl = TRUE)[[1]]
  if (tags[1] == -1L) return(list())
  len <- attr(tags, "match.length")
  names <- tolower(substring(block, tags + 1L, tags + len - 2L))
  any_tag <- as.integer(gregexpr("</?[A-Za-z]+>", block, perl = TRUE)[[1]])
  out <- list()
  for (k in seq_along(tags)) {
    from <- tags[k] + len[k]
    to <- c(any_tag[any_tag >= from], nchar(block) + 1L)[1] - 1L
    if (is.null(out[[names[k]]])) out[[names[k]]] <- decode_entities(squish(substr(block, from, to)))
  }
  out
}
