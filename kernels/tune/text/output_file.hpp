#pragma once
// Writing a file the user names, all or nothing: every command and harness that
// writes an output (an SVG, a trace, a bench CSV, a tuning cache) goes through
// OutputFile. The text goes to a temporary file beside the target, named
// ".<name>.gemmscope-tmp-<pid>-<random>" (created exclusively: no user file is ever
// opened or removed by that name); every write and the close are checked; commit()
// renames it over the target. Until then the target is untouched, and a failure (or
// an OutputFile destroyed without commit) removes the temporary file.
//
// Refused before anything is created: a target that exists and is not a regular file
// (a directory, /dev/full, a FIFO; a symbolic link is followed to its file), a folder
// that does not exist or cannot be written. Errors are OutputFileError (a
// std::invalid_argument: the command line's exit status 2), one line:
// "<what> = <path>: <reason>". POSIX only; no CUDA.
#include <stdexcept>
#include <string>
#include <string_view>

namespace gemmscope {

class OutputFileError : public std::invalid_argument {
 public:
  OutputFileError(const std::string& what, const std::string& path, const std::string& reason);
  // "cannot create a file in /x (No such file or directory)", "a directory, not a file", ...
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

class OutputFile {
 public:
  // `what` names the option in messages ("-o", "--svg", "--csv").
  OutputFile(const std::string& path, const std::string& what);
  ~OutputFile();  // without commit(): the temporary file is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(std::string_view text);
  // The temporary file, for a program that writes it itself (Graphviz's `dot -o`):
  // commit() then checks that it is not empty.
  const std::string& temporary_path() {
    external_ = true;
    return temporary_;
  }
  // Closes (checked) and renames over the target. `durable`: fsync the file before
  // and its folder after the rename (the tuning cache, saved after every shape).
  void commit(bool durable = false);

 private:
  std::string path_, what_, target_, temporary_;
  int fd_ = -1;
  size_t written_ = 0;
  bool committed_ = false;
  bool external_ = false;  // temporary_path() was handed out
  [[noreturn]] void fail(const std::string& why);
};

// The whole text at once.
void write_output_file(const std::string& path, std::string_view text, const std::string& what,
                       bool durable = false);

// Before a long run whose output comes at the end (bench, tune): the same checks as
// OutputFile's constructor, and a temporary file created and removed in the folder.
void check_output_file(const std::string& path, const std::string& what);

}  // namespace gemmscope
