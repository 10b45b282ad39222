// gemmscope: calculators, analysis, visualisation, checks and benchmarks for
// bf16 GEMM kernels on Hopper and Blackwell. Subcommands live in cmd_*.cpp.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>

#include "command.hpp"

namespace gemmscope::cli {

std::vector<std::pair<std::string, AddCommand>>& registry() {
  static std::vector<std::pair<std::string, AddCommand>> commands;
  return commands;
}

Registration::Registration(std::string name, AddCommand add) {
  registry().emplace_back(std::move(name), std::move(add));
}

}  // namespace gemmscope::cli

int main(int argc, char** argv) {
  CLI::App app{"gemmscope: model, verify and measure bf16 GEMM kernels for Hopper (sm_90a) and Blackwell (sm_100a)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gemmscope 0.1.0");
  auto& commands = gemmscope::cli::registry();
  std::sort(commands.begin(), commands.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [name, add] : commands) add(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : gemmscope::cli::kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "gemmscope: %s\n", e.what());
    return gemmscope::cli::kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gemmscope: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
