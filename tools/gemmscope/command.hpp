#pragma once
// One file per subcommand: each cmd_*.cpp registers itself with a static
// Registration, so adding a subcommand touches no shared list.
#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>
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

// Adds to `cmd` the subcommands other files registered for it (cmd_gpu_*.cpp, built only
// with the kernels). Without a `record` among them, `record` is still there, takes any
// arguments and refuses: "<cmd> record = unavailable: ...".
inline void add_gpu_subcommands(CLI::App* cmd, const std::vector<std::pair<std::string, AddCommand>>& added,
                                const std::string& record_description) {
  bool have_record = false;
  for (const auto& [name, add] : added) {
    add(*cmd);
    have_record = have_record || name == "record";
  }
  if (have_record) return;
  CLI::App* record_cmd = cmd->add_subcommand("record", record_description);
  record_cmd->allow_extras();
  record_cmd->callback([command = cmd->get_name()] {
    throw std::invalid_argument(command +
                                " record = unavailable: this gemmscope was built with GEMMSCOPE_BUILD_KERNELS=OFF; "
                                "rebuild with the kernels on a machine with nvcc");
  });
}

// `tune`: the autotuning command where the kernels are built (cmd_gpu_tune.cpp registers
// it first), else a command that holds the host-only subcommands alone (merge, score).
inline CLI::App* tune_command(CLI::App& root) {
  for (CLI::App* sub : root.get_subcommands({}))
    if (sub->get_name() == "tune") return sub;
  CLI::App* tune = root.add_subcommand("tune", "Tuning caches (autotuning itself needs a build with the kernels)");
  tune->require_subcommand(1);
  return tune;
}

}  // namespace gemmscope::cli
