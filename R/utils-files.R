check_file <- function(path, arg = "path", call = rlang::caller_env()) {
  if (!is.character(path) || length(path) != 1L || is.na(path)) {
    stop_irtopics("{.arg {arg}} must be a single file path.", call = call)
  }
  # `file` as on the C++ reader's errors (stop_from_cpp()).
  if (!file.exists(path)) stop_irtopics("File {.file {path}} does not exist.", kind = "file", file = path, call = call)
  # The reason matters: a device, a FIFO or a socket is not "empty", and a
  # /proc file has size 0 but content (cpp_file_kind() reads one byte).
  what <- cpp_file_kind(path.expand(path))
  if (what == "directory") stop_irtopics("{.file {path}} is a directory, not a file.", kind = "file", file = path, call = call)
  if (what == "empty") stop_irtopics("File {.file {path}} is empty.", kind = "file", file = path, call = call)
  if (what %in% c("fifo", "device", "socket", "other")) {
    label <- c(fifo = "a FIFO (named pipe)", device = "a device", socket = "a socket", other = "not a regular file")[[what]]
    stop_irtopics("{.file {path}} is {label}, not a regular file.", kind = "file", file = path, call = call)
  }
  invisible(path)
}
