# Strings in byte order. Ids read by the C++ reader are in the native encoding,
# and radix sorting refuses non-ASCII strings of unknown encoding even in a
# UTF-8 locale; a copy marked "bytes" sorts byte by byte (strcmp order).
sort_bytes <- function(x) x[order(as_bytes(x), method = "radix")]

as_bytes <- function(x) {
  x <- as.character(x)
  Encoding(x) <- "bytes"
  x
}
