#pragma once
// Lines from a file descriptor (the tune worker's pipe), each wait bounded: `tune`
// kills a worker that says nothing for too long (a hung kernel never returns from
// its synchronize), records the configuration it was running and goes on.
// POSIX only (poll, read); no CUDA.
#include <string>

namespace gemmscope {

class LineReader {
 public:
  enum class Status { line, eof, timeout };
  explicit LineReader(int fd) : fd_(fd) {}
  // The next line, without its '\n' (a last line without one is returned at EOF).
  // Waits at most timeout_ms for more bytes (each wait; < 0: no limit). Read errors
  // other than EINTR count as EOF.
  Status next(std::string& line, int timeout_ms);

 private:
  int fd_;
  std::string pending_;
  bool eof_ = false;
};

}  // namespace gemmscope
