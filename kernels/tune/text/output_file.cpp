// tune/text/output_file.hpp.
#include "tune/text/output_file.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"

namespace gemmscope {

namespace {

// A path in a message: as typed, bytes outside printable ASCII as \xHH, not cut
// short below 1024 bytes (shown_text's 64 would hide the part that matters).
std::string shown_path(const std::string& path) {
  std::string out;
  for (size_t i = 0; i < path.size() && i < 1024; i += 64) out += shown_text(std::string_view(path).substr(i, 64));
  if (path.size() > 1024) out += "...";
  return out;
}

}  // namespace

OutputFileError::OutputFileError(const std::string& what, const std::string& path, const std::string& reason)
    : std::invalid_argument(what + " = " + (path.empty() ? std::string("(empty)") : shown_path(path)) + ": " + reason),
      reason_(reason) {}

namespace {

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string random_hex() {
  std::random_device device;
  const uint64_t value = (uint64_t{device()} << 32) ^ device();
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 60; i >= 0; i -= 4) out += kHex[(value >> i) & 15];
  return out;
}

// The file a path names: itself, or where its symbolic link leads. Throws for a
// target that exists and is not a regular file. `mode`: the existing file's
// permissions, or 0 for a new file.
std::string resolve_target(const std::string& path, const std::string& what, mode_t& mode) {
  if (path.empty()) throw OutputFileError(what, path, "give a file name");
  if (path.back() == '/') throw OutputFileError(what, path, "names a folder; give a file path");
  std::string target = path;
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0 && S_ISLNK(info.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr)
      throw OutputFileError(what, path, std::string("a symbolic link that leads nowhere (") + std::strerror(errno) + ")");
    target = resolved;
  }
  mode = 0;
  if (::stat(target.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) throw OutputFileError(what, path, "a directory; give a file path");
    if (!S_ISREG(info.st_mode))
      throw OutputFileError(what, path, std::string(file_type_name(info.st_mode)) +
                                            ", not a regular file; give a file path");
    mode = info.st_mode & 07777;
    // A file the user may not write stays so: the rename would replace it regardless.
    if (::access(target.c_str(), W_OK) != 0)
      throw OutputFileError(what, path, std::string("cannot be written (") + std::strerror(errno) + ")");
  } else if (errno != ENOENT) {
    throw OutputFileError(what, path, std::string("cannot be examined (") + std::strerror(errno) + ")");
  }
  return target;
}

// Creates "<folder>/.<name>.gemmscope-tmp-<pid>-<random>" exclusively.
int create_temporary(const std::string& target, mode_t mode, std::string& temporary, std::string& error) {
  const std::string folder = folder_of(target);
  std::string name = name_of(target);
  if (name.size() > 160) name = name.substr(0, 160);  // NAME_MAX is 255
  for (int attempt = 0; attempt < 8; ++attempt) {
    temporary = (folder == "/" ? "" : folder) + "/." + name + ".gemmscope-tmp-" + std::to_string(::getpid()) + "-" +
                random_hex();
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode ? mode : 0666);
    if (fd >= 0) {
      if (mode) (void)::fchmod(fd, mode);  // the existing file's permissions, past the umask
      return fd;
    }
    if (errno != EEXIST) break;
  }
  error = "cannot create a file in " + shown_path(folder) + " (" + std::strerror(errno) + ")";
  temporary.clear();
  return -1;
}

}  // namespace

OutputFile::OutputFile(const std::string& path, const std::string& what) : path_(path), what_(what) {
  mode_t mode = 0;
  target_ = resolve_target(path, what, mode);
  std::string error;
  fd_ = create_temporary(target_, mode, temporary_, error);
  if (fd_ < 0) throw OutputFileError(what, path, error);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

void OutputFile::fail(const std::string& why) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
  throw OutputFileError(what_, path_, why + "; the file was left as it was");
}

void OutputFile::write(std::string_view text) {
  if (fd_ < 0) fail("written after it was closed");
  while (!text.empty()) {
    const ssize_t n = ::write(fd_, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(std::string("writing failed (") + std::strerror(errno) + ")");
    }
    text.remove_prefix(static_cast<size_t>(n));
    written_ += static_cast<size_t>(n);
  }
}

void OutputFile::commit(bool durable) {
  if (fd_ < 0) fail("committed twice");
  if (external_ && written_ == 0) {  // written by another program (dot): it must have written something
    struct stat info {};
    if (::fstat(fd_, &info) != 0 || info.st_size == 0) fail("nothing was written");
  }
  if (durable && ::fsync(fd_) != 0) fail(std::string("flushing to disk failed (") + std::strerror(errno) + ")");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    fail(std::string("closing failed (") + std::strerror(error) + ")");
  }
  if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    fail(std::string("cannot replace it (") + std::strerror(error) + ")");
  }
  committed_ = true;
  if (durable) {  // the rename itself; a failure here leaves a complete file either way
    const int dir = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      (void)::fsync(dir);
      ::close(dir);
    }
  }
}

void write_output_file(const std::string& path, std::string_view text, const std::string& what, bool durable) {
  OutputFile file(path, what);
  file.write(text);
  file.commit(durable);
}

void check_output_file(const std::string& path, const std::string& what) { OutputFile probe(path, what); }

}  // namespace gemmscope
