# Readers of query files (issue 25): TREC topic files and CLEF-style XML.

write_lines <- function(lines, ext = ".txt") {
  f <- withr::local_tempfile(fileext = ext, .local_envir = parent.frame())
  writeLines(lines, f, useBytes = TRUE)
  f
}

test_that("a CLEF eHealth-style XML file gives the query map, topics from id = topic * 1000 + variant", {
  # the shape of CLEF eHealth 2016's queries2016.xml (tab-indented children),
  # with our own query texts; entities, CDATA, comments, attributes
  f <- write_lines(c("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<queries>",
                     "<!-- a comment <query><id>999</id></query> -->",
                     "<query>", "\t<id>101001</id>", "\t<title>knee pain after running</title>", "</query>",
                     "<query lang=\"en\">", "\t<id>101002</id>",
                     "\t<title>runner&apos;s knee &amp; treatment &#233;&#x41;</title>", "</query>",
                     "<query>", "\t<id> 102001 </id>", "\t<title>itchy\n   rash</title>", "</query>",
                     "<query><id>102013</id><title><![CDATA[rash & <itch>]]></title></query>",
                     "</queries>"), ".xml")
  qm <- read_query_file(f, divisor = 1000)
  expect_identical(qm, data.frame(topic = c("101", "101", "102", "102"),
                                  query = c("101001", "101002", "102001", "102013"),
                                  text = c("knee pain after running", "runner's knee & treatment \u00e9A",
                                           "itchy rash", "rash & <itch>")))
  # the same map from the ids alone, and by pattern
  expect_identical(query_map_from_ids(qm$query, divisor = 1000, text = qm$text), qm)
  expect_identical(query_map_from_ids(c(101001, 101002, 102001), divisor = 1000)$topic, c("101", "101", "102"))
  expect_identical(query_map_from_ids(c("301-1", "301-12", "45-1"), pattern = "^([0-9]+)-")$topic,
                   c("301", "301", "45"))
  # a topic child wins when no divisor or pattern is given
  g <- write_lines(c("<queries>", "<query><id>a</id><topic>7</topic><title>x</title></query>",
                     "<query><id>b</id><topic>7</topic><title>y</title></query>", "</queries>"), ".xml")
  expect_identical(read_query_file(g)$topic, c("7", "7"))
  # several fields are joined
  h <- write_lines(c("<queries>", "<query><id>1001</id><title>a b</title><desc>c</desc></query>",
                     "</queries>"), ".xml")
  expect_identical(read_query_file(h, fields = c("title", "desc"), divisor = 1000)$text, "a b c")
})

test_that("a query map read from XML drives the analysis of runs with real-shaped ids", {
  sim <- simulate_query_runs(n_systems = 2, n_topics = 2, n_queries = 4, n_docs = 200, depth = 100, seed = 5)
  # relabel: topic simNN -> 1NN, query simNN.0v -> 1NN00v
  tnum <- function(t) 100L + as.integer(sub("^sim", "", t))
  qid <- function(q) sprintf("%d%03d", tnum(sub("\\..*$", "", q)), as.integer(sub("^.*\\.", "", q)))
  runs <- sim$runs
  runs$topic <- qid(runs$topic)
  qrels <- sim$qrels
  qrels$topic <- as.character(tnum(qrels$topic))
  ids <- unique(runs$topic)
  f <- write_lines(c("<queries>", sprintf("<query>\n\t<id>%s</id>\n\t<title>query %s</title>\n</query>", ids, ids),
                     "</queries>"), ".xml")
  qm <- read_query_file(f, divisor = 1000)
  ind <- topic_indicators(runs, qrels, qm, n = 3, depth = 100)
  ref <- topic_indicators(sim$runs, sim$qrels, sim$query_map, n = 3, depth = 100)
  expect_identical(ind$indicators$topic, as.character(tnum(ref$indicators$topic)))
  expect_equal(ind$indicators[c("E", "U", "C", "S", "AP")], ref$indicators[c("E", "U", "C", "S", "AP")])
  expect_identical(ind$queries$text[1], paste("query", ind$queries$query[1]))
})

test_that("TREC topic files: fields, prefixes, optional closing tags, variants per field", {
  f <- write_lines(c("<top>", "<num> Number: 301", "<title> International Crime", "",
                     "<desc> Description:", "Which crime", "crosses borders?", "",
                     "<narr> Narrative:", "A relevant document names a country.", "</top>", "",
                     "<top>", "<num>302</num>", "<title>Topic: Poliomyelitis &amp; Post-Polio</title>",
                     "<desc>Description: Is polio under control?</desc>", "<narr>Narrative: Any.</narr>",
                     "</top>"))
  qm <- read_query_file(f)
  expect_identical(qm, data.frame(topic = c("301", "302"), query = c("301", "302"),
                                  text = c("International Crime", "Poliomyelitis & Post-Polio")))
  qv <- read_query_file(f, fields = c("title", "desc", "narr"))
  expect_identical(qv$query, c("301-title", "301-desc", "301-narr", "302-title", "302-desc", "302-narr"))
  expect_identical(qv$topic, rep(c("301", "302"), each = 3))
  expect_identical(qv$text[2], "Which crime crosses borders?")
  expect_identical(qv$text[6], "Any.")
  expect_identical(read_query_file(f, format = "trec"), qm)
})

test_that("malformed query files give parse errors naming the file and line", {
  f <- write_lines(c("<queries>", "<query>", "<id>1</id>", "<title>a</title>", "</query>",
                     "<query>", "<title>b</title>", "</query>", "</queries>"), ".xml")
  expect_error(read_query_file(f, divisor = 1000), "line 6.*<id>", class = "irtopics_error_parse")
  f <- write_lines(c("<queries>", "<query>", "<id>1</id>", "<title>a</title>", "", "<query>",
                     "<id>2</id>", "</query>", "</queries>"), ".xml")
  expect_error(read_query_file(f, divisor = 1000), "line 2.*not closed", class = "irtopics_error_parse")
  f <- write_lines(c("<queries>", "<query><id>1001</id><title>a</title></query>",
                     "<query><id>1001</id><title>b</title></query>", "</queries>"), ".xml")
  expect_error(read_query_file(f, divisor = 1000), "line 3.*1001.*second", class = "irtopics_error_parse")
  f <- write_lines(c("<queries>", "<query><id>1001</id><title>a</title></query>",
                     "<query><id>10x1</id><title>b</title></query>", "</queries>"), ".xml")
  expect_error(read_query_file(f, divisor = 1000), "10x1.*line 3", class = "irtopics_error_parse")
  expect_error(read_query_file(f), "divisor", class = "irtopics_error_argument")
  expect_error(read_query_file(f, divisor = 1000, fields = "body"), "no `<query>` has a field",
               class = "irtopics_error_parse")
  f <- write_lines(c("<topics>", "<topic><id>1</id></topic>", "</topics>"), ".xml")
  expect_error(read_query_file(f, divisor = 10), "no `<query>` element", class = "irtopics_error_parse")
  f <- write_lines(c("<top>", "<num> Number: 301", "<title> a", "</top>", "<top>", "<title> b", "</top>"))
  expect_error(read_query_file(f), "line 5.*<num>", class = "irtopics_error_parse")
  expect_error(read_query_file(f, fields = "desc"), "line 1.*301.*<desc>", class = "irtopics_error_parse")
  f <- write_lines(c("<top>", "<num> Number: 301", "<title> a", "<top>", "<num> 302", "<title> b", "</top>"))
  expect_error(read_query_file(f), "line 1.*not closed", class = "irtopics_error_parse")
  f <- write_lines(c("<top>", "<num> 301", "<title> a", "</top>", "<top>", "<num> 301", "<title> b", "</top>"))
  expect_error(read_query_file(f), "301.*twice", class = "irtopics_error_parse")
  expect_error(read_query_file(f, fields = "body"), class = "irtopics_error_argument")
  expect_error(read_query_file(f, divisor = 1000), class = "irtopics_error_argument")
  expect_error(read_query_file(tempfile()), class = "irtopics_error_file")
  expect_error(read_query_file(f, record = "a b"), class = "irtopics_error_argument")
  expect_error(query_map_from_ids(c("1-1", "x"), pattern = "^([0-9]+)-"), "\"x\"", class = "irtopics_error_parse")
  expect_error(query_map_from_ids(c("1-1"), pattern = "^[0-9]+-"), "group", class = "irtopics_error_argument")
  expect_error(query_map_from_ids(c(1001, 1001), divisor = 1000), "repeated", class = "irtopics_error_data")
  expect_error(query_map_from_ids(1001, divisor = 10, pattern = "x"), class = "irtopics_error_argument")
  expect_error(query_map_from_ids(1001, divisor = 0.5), class = "irtopics_error_argument")
  expect_error(query_map_from_ids(c("1", "2"), divisor = 10, text = "a"), class = "irtopics_error_argument")
})
