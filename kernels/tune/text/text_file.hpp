#pragma once
// Reading a whole (small) text file with the errno of a failure kept, for the
// messages of every file the user names: the tuning cache and shape sets
// (gemmscope::tune), the bench CSVs of `gemmscope compare` and `gemmscope tune merge`.
// Header-only and CUDA-free.
#include <cerrno>
#include <cstddef>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gemmscope {

struct TextFile {
  std::string text;
  int error = 0;            // errno of the failed open/read, 0 if none
  bool read_failed = false; // the file opened and a read failed (error is the read's errno)
  bool too_large = false;   // more than limit_bytes (text is then incomplete)
};

inline TextFile read_text_file(const std::string& path, size_t limit_bytes) {
  TextFile file;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    file.error = errno;
    return file;
  }
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    file.error = EISDIR;
    ::close(fd);
    return file;
  }
  // Read up to one byte past the limit: a FIFO or /proc file has no useful st_size.
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) continue;
      file.error = errno;
      file.read_failed = true;
      break;
    }
    if (got == 0) break;
    file.text.append(buffer, static_cast<size_t>(got));
    if (file.text.size() > limit_bytes) {
      file.too_large = true;
      break;
    }
  }
  ::close(fd);
  return file;
}

}  // namespace gemmscope
