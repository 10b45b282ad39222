// LineReader (kernels/tune/text/line_reader.hpp): lines split across writes, a last
// line without '\n', EOF, and the bounded wait `tune` uses to catch a hung worker.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "tune/text/line_reader.hpp"

using gemmscope::LineReader;

namespace {

struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() { EXPECT_EQ(pipe(fd), 0); }
  ~Pipe() {
    for (int f : fd)
      if (f >= 0) close(f);
  }
  void write_all(const std::string& s) const { ASSERT_EQ(write(fd[1], s.data(), s.size()), static_cast<ssize_t>(s.size())); }
  void close_write() {
    close(fd[1]);
    fd[1] = -1;
  }
};

}  // namespace

TEST(LineReader, SplitsLinesAcrossWritesAndReturnsTheLastUnterminatedOne) {
  Pipe p;
  LineReader r(p.fd[0]);
  std::string line;
  p.write_all("run\tcfg");
  p.write_all("1\nok\t");
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::line);
  EXPECT_EQ(line, "run\tcfg1");
  p.write_all("cfg1\t0.5\n\nlast");
  p.close_write();
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::line);
  EXPECT_EQ(line, "ok\tcfg1\t0.5");
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::line);
  EXPECT_EQ(line, "");
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::line);
  EXPECT_EQ(line, "last");
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::eof);
  EXPECT_EQ(r.next(line, 1000), LineReader::Status::eof);
}

TEST(LineReader, ASilentWriterTimesOutAndALaterLineStillArrives) {
  Pipe p;
  LineReader r(p.fd[0]);
  std::string line = "unchanged";
  p.write_all("partial");  // no newline: not a line yet
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(r.next(line, 50), LineReader::Status::timeout);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(waited, 0.04);
  EXPECT_LT(waited, 5.0);
  EXPECT_EQ(line, "unchanged");
  p.write_all(" line\n");
  EXPECT_EQ(r.next(line, 50), LineReader::Status::line);
  EXPECT_EQ(line, "partial line");
}
