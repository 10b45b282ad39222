#pragma once
// One file per subcommand: each cmd_*.cpp registers itself with a static
// Registration, so adding a subcommand touches no shared list.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace gemmscope::cli {

using AddCommand = std::function<void(CLI::App& root)>;

struct Registration {
  Registration(std::string name, AddCommand add);
};

// All registered subcommands, sorted by name.
std::vector<std::pair<std::string, AddCommand>>& registry();

// The exit status of a refused input (the message is printed as one line on stderr).
inline constexpr int kExitBadInput = 2;

// A command that ends with a status of its own (neither success, bad input nor an
// error): main() prints the line, "gemmscope: <line>", and returns the status.
struct CommandExit {
  int status;
  std::string line;
};

}  // namespace gemmscope::cli
