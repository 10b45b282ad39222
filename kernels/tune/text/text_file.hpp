#pragma once
// Reading a file the user names, bounded: every reader of outside input opens it
// here. Only a regular file is read: a directory, a FIFO, a socket or a device
// (/dev/zero, /dev/urandom, a terminal) is refused before any read, by its type
// (stat first, then an open that cannot block, then fstat again), so no reader waits
// on a pipe or reads without end. A regular file past the reader's limit is refused
// by its size before any read; a file whose size says nothing (/proc) is read up to
// one byte past the limit.
//
// read_text_file: the whole (small) file: the tuning cache and shape sets
// (gemmscope::tune), the bench CSVs and JSON of `gemmscope compare`, `plot` and `tune
// merge`, golden traces. open_input_file: a descriptor for a reader that streams
// (trace files). Header-only and CUDA-free.
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gemmscope {

// "a directory", "a FIFO", "a character device", ... for messages.
inline const char* file_type_name(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

struct InputFile {
  int fd = -1;               // open for reading (the caller closes it), or -1
  int error = 0;             // errno of a failed stat/open, 0 if none
  const char* not_regular = nullptr;  // the file's type when it is not a regular file
  uint64_t size = 0;         // st_size (0 says nothing for /proc files)
};

// Opens a regular file for reading, or says why not (error, or not_regular with the
// type; EISDIR is given as error for a directory, as open(2) would on write).
inline InputFile open_input_file(const std::string& path) {
  InputFile file;
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    file.error = errno;
    return file;
  }
  auto refuse_type = [&](mode_t mode) {
    if (S_ISDIR(mode))
      file.error = EISDIR;
    else
      file.not_regular = file_type_name(mode);
  };
  if (!S_ISREG(info.st_mode)) {
    refuse_type(info.st_mode);
    return file;
  }
  // O_NONBLOCK: if the path was swapped for a FIFO since the stat, the open returns
  // at once; fstat below then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    file.error = errno;
    return file;
  }
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    if (S_ISREG(info.st_mode)) file.error = errno;
    else refuse_type(info.st_mode);
    ::close(fd);
    return file;
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  file.fd = fd;
  file.size = static_cast<uint64_t>(info.st_size);
  return file;
}

struct TextFile {
  std::string text;
  int error = 0;            // errno of the failed open/read, 0 if none (EISDIR for a directory)
  const char* not_regular = nullptr;  // a FIFO, a device, a socket: refused before any read
  bool read_failed = false; // the file opened and a read failed (error is the read's errno)
  bool too_large = false;   // more than limit_bytes (text is then empty or incomplete)
};

inline TextFile read_text_file(const std::string& path, size_t limit_bytes) {
  TextFile file;
  InputFile in = open_input_file(path);
  file.error = in.error;
  file.not_regular = in.not_regular;
  if (in.fd < 0) return file;
  if (in.size > limit_bytes) {
    file.too_large = true;
    ::close(in.fd);
    return file;
  }
  if (in.size > 0) file.text.reserve(static_cast<size_t>(in.size));
  // Read up to one byte past the limit: a /proc file has no useful st_size.
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(in.fd, buffer, sizeof buffer);
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
  ::close(in.fd);
  return file;
}

// The reason a TextFile or InputFile was refused, for "<what> = <path> <reason>":
// "cannot be opened (No such file or directory)", "is a FIFO, not a regular file",
// "cannot be read (...)"; empty when it was read.
inline std::string input_problem(int error, const char* not_regular, bool read_failed) {
  if (not_regular) return std::string("is ") + not_regular + ", not a regular file";
  if (error == 0) return {};
  return std::string(read_failed ? "cannot be read (" : "cannot be opened (") + std::strerror(error) + ")";
}

}  // namespace gemmscope
