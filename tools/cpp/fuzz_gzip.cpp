// libFuzzer target: bytes as the contents of a (possibly gzip) file. Each
// input is written to an anonymous in-memory file (memfd_create) and read
// back through read_whole_file (gzip detected by its magic bytes) and
// parse_run. InputError ("file" for a broken gzip stream or bytes after it,
// "parse" for a NUL byte met while inflating or a malformed line) is
// expected; anything else is a crash.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static int fd = memfd_create("irtopics-fuzz", 0);
  if (fd < 0) __builtin_trap();
  if (ftruncate(fd, 0) != 0) __builtin_trap();
  std::size_t done = 0;
  while (done < size) {
    const ssize_t w = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
    if (w <= 0) __builtin_trap();
    done += static_cast<std::size_t>(w);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  irtopics::Run run;
  run.file = path;
  try {
    irtopics::read_whole_file(path, run.text);
  } catch (const irtopics::InputError& e) {
    if (e.code != irtopics::ErrorKind::file && e.code != irtopics::ErrorKind::parse) __builtin_trap();
    return 0;
  }
  try {
    irtopics::parse_run(run);
  } catch (const irtopics::InputError&) {
  }
  return 0;
}
