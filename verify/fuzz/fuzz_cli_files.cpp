// libFuzzer target: the gemmscope subcommands that read and write files (viz, sim,
// trace, plot, banks --trace), in process, in a folder of their own. The input is a
// command line (arguments split at '\n' or '\0', at most 16 after "gemmscope"),
// then optionally a line "@@" and the bytes of the file "in" the arguments may name.
// tools/gemmscope/main.cpp is compiled with main renamed to gemmscope_cli_main
// (verify/fuzz/CMakeLists.txt).
//
// Sandbox: the target works in a fresh folder under /tmp; every argument holding a
// '/' becomes "in" (so nothing outside the folder is read or written), except the
// devices the readers must refuse (/dev/zero, /dev/urandom, /dev/full); viz's .svg
// and .png outputs become .dot and --dot is dropped (no Graphviz process). sim with
// a number of three digits or more, or --exhaustive without --max-states, is skipped:
// correct but slow.
//
// Findings: a sanitizer report, an abort, or a broken law:
//   - the exit status is 0 or 2; 4 only from sim (a limit reached); 1 (an error other
//     than bad input) only from sim --mutate (a violation found) and trace compare
//     (the traces differ);
//   - no temporary output file (".*.gemmscope-tmp-*") is left behind, whatever the
//     outcome.
#include <dirent.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

int gemmscope_cli_main(int argc, char** argv);

namespace {

[[noreturn]] void broken(const std::string& law, const std::vector<std::string>& args) {
  std::fprintf(stderr, "fuzz_cli_files: %s for:", law.c_str());
  for (const std::string& a : args) std::fprintf(stderr, " '%s'", a.c_str());
  std::fprintf(stderr, "\n");
  std::abort();
}

std::string clear_sandbox();

// The folder the target works in, made once and removed at exit.
const std::string& sandbox() {
  static const std::string dir = [] {
    char name[] = "/tmp/gemmscope-fuzz-cli-files-XXXXXX";
    if (::mkdtemp(name) == nullptr || ::chdir(name) != 0) std::abort();
    return std::string(name);
  }();
  static const bool cleanup = [] {
    std::atexit([] {
      clear_sandbox();
      if (::chdir("/") == 0) ::rmdir(dir.c_str());
    });
    return true;
  }();
  (void)cleanup;
  return dir;
}

// Empties the folder; returns the name of a temporary output left behind, if any.
std::string clear_sandbox() {
  std::string left;
  DIR* d = ::opendir(".");
  if (!d) std::abort();
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    if (n.find(".gemmscope-tmp-") != std::string::npos) left = n;
    names.push_back(n);
  }
  ::closedir(d);
  for (const std::string& n : names) ::unlink(n.c_str());
  return left;
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sandbox();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string_view file;
  if (const size_t at = input.find("\n@@\n"); at != std::string_view::npos) {
    file = input.substr(at + 4);
    input = input.substr(0, at);
  }
  std::vector<std::string> args{"gemmscope"};
  std::string current;
  for (const char c : input) {
    if (c == '\n' || c == '\0') {
      args.push_back(current);
      current.clear();
      if (args.size() > 17) return -1;
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) args.push_back(current);
  if (args.size() < 2 || args.size() > 17) return -1;
  const std::string& command = args[1];
  if (command != "viz" && command != "sim" && command != "trace" && command != "plot" && command != "banks")
    return -1;
  bool mutate = false, compare = false, exhaustive = false, max_states = false;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string& a = args[i];
    mutate = mutate || a == "--mutate" || a.rfind("--mutate=", 0) == 0;
    compare = compare || (command == "trace" && a == "compare");
    exhaustive = exhaustive || a == "--exhaustive";
    max_states = max_states || a == "--max-states" || a.rfind("--max-states=", 0) == 0;
    if (a.find('/') != std::string::npos && a != "/dev/zero" && a != "/dev/urandom" && a != "/dev/full") a = "in";
    if (command == "viz") {
      if (a == "--dot" || a.rfind("--dot=", 0) == 0) return -1;
      if (ends_with(a, ".svg") || ends_with(a, ".png")) a = a.substr(0, a.size() - 4) + ".dot";
    }
    if (command == "sim") {
      size_t run = 0;
      for (const char c : a) {
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        if (run >= 3) return -1;
      }
    }
  }
  if (command == "sim" && exhaustive && !max_states) return -1;
  {
    FILE* f = std::fopen("in", "wb");
    if (!f) std::abort();
    if (!file.empty() && std::fwrite(file.data(), 1, file.size(), f) != file.size()) std::abort();
    std::fclose(f);
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = gemmscope_cli_main(static_cast<int>(args.size()), argv.data());
  const bool allowed = rc == 0 || rc == 2 || (rc == 4 && command == "sim") ||
                       (rc == 1 && ((command == "sim" && mutate) || compare));
  if (!allowed) broken("exit status " + std::to_string(rc), args);
  if (const std::string left = clear_sandbox(); !left.empty()) broken("a temporary file left behind: " + left, args);
  return 0;
}
