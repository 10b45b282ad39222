// tune/text/line_reader.hpp.
#include "tune/text/line_reader.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace gemmscope {

LineReader::Status LineReader::next(std::string& line, int timeout_ms) {
  for (;;) {
    if (const auto nl = pending_.find('\n'); nl != std::string::npos) {
      line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return Status::line;
    }
    if (eof_) {
      if (pending_.empty()) return Status::eof;
      line.swap(pending_);
      pending_.clear();
      return Status::line;
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = poll(&p, 1, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      eof_ = true;
      continue;
    }
    if (ready == 0) return Status::timeout;
    char buf[4096];
    const ssize_t got = read(fd_, buf, sizeof(buf));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) eof_ = true;
    else pending_.append(buf, static_cast<size_t>(got));
  }
}

}  // namespace gemmscope
