#include "tune/text_file.hpp"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gemmscope::tune::detail {

TextFile read_text_file(const std::string& path, size_t limit_bytes) {
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

}  // namespace gemmscope::tune::detail
