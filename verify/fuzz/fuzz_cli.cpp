// libFuzzer target: the gemmscope command line with its parsing subcommands (banks,
// desc, idesc, swizzle, tmem; verify/fuzz/CMakeLists.txt lists them), in process. The input is split at '\n' and '\0' into
// at most 16 arguments after "gemmscope". tools/gemmscope/main.cpp is compiled with
// main renamed to gemmscope_cli_main (verify/fuzz/CMakeLists.txt).
//
// A finding: a sanitizer report, an abort, or exit status 1, which main() returns
// only when an exception other than std::invalid_argument escaped a subcommand:
// bad input must give status 2 and a `gemmscope: <field> = <value> <rule>` line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int gemmscope_cli_main(int argc, char** argv);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"gemmscope"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n' || c == '\0') {
      args.push_back(current);
      current.clear();
      if (args.size() > 17) return -1;  // not a command line worth keeping
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty()) args.push_back(current);
  if (args.size() > 17) return -1;
  // Reject before running: `desc map` of a large operand (up to 4096 x 4096 elements,
  // 16M output lines) is correct but would only slow the search down. Any number of
  // four or more digits (or a 0x/0b/0o literal) outside the --desc word is skipped there.
  bool is_map = false;
  for (const std::string& a : args) is_map = is_map || a == "map";
  if (is_map)
    for (size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (args[i - 1] == "--desc" || a.rfind("--desc=", 0) == 0) continue;
      size_t run = 0;
      for (size_t j = 0; j < a.size(); ++j) {
        const bool digit = a[j] >= '0' && a[j] <= '9';
        run = digit ? run + 1 : 0;
        if (run >= 4) return -1;
        if (a[j] == '0' && j + 1 < a.size() && std::string("xXbBoO").find(a[j + 1]) != std::string::npos) return -1;
      }
    }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = gemmscope_cli_main(static_cast<int>(args.size()), argv.data());
  if (rc != 0 && rc != 2) {
    std::fprintf(stderr, "fuzz_cli: exit status %d for:", rc);
    for (const std::string& a : args) std::fprintf(stderr, " '%s'", a.c_str());
    std::fprintf(stderr, "\n");
    std::abort();
  }
  return 0;
}
