// gemmscope: calculators, analysis, visualisation, checks and benchmarks for
// bf16 GEMM kernels on Hopper and Blackwell. Subcommands live in cmd_*.cpp.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <exception>
#include <map>

#include "command.hpp"
#include "options.hpp"

// model/version.cmake's, given by tools/CMakeLists.txt.
#ifndef GEMMSCOPE_VERSION_STRING
#define GEMMSCOPE_VERSION_STRING "(version not given to the build)"
#endif

namespace gemmscope::cli {

std::vector<std::pair<std::string, AddCommand>>& registry() {
  static std::vector<std::pair<std::string, AddCommand>> commands;
  return commands;
}

Registration::Registration(std::string name, AddCommand add) {
  registry().emplace_back(std::move(name), std::move(add));
}

namespace {

void add_integer_checks(CLI::App* app) {
  for (CLI::Option* opt : app->get_options()) {
    const std::string type = opt->get_type_name();
    const bool is_unsigned = type.rfind("UINT", 0) == 0;
    if (opt->get_type_size() > 0 && (is_unsigned || type.rfind("INT", 0) == 0))
      opt->check(CLI::Validator(
          [is_unsigned](std::string& text) { return integer_text_rule(text, is_unsigned); }, "", ""));
  }
  for (CLI::App* sub : app->get_subcommands({})) add_integer_checks(sub);
}

}  // namespace
}  // namespace gemmscope::cli

int main(int argc, char** argv) {
  CLI::App app{"gemmscope: model, verify and measure bf16 GEMM kernels for Hopper (sm_90a) and Blackwell (sm_100a)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "gemmscope " GEMMSCOPE_VERSION_STRING);
  auto& commands = gemmscope::cli::registry();
  std::sort(commands.begin(), commands.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [name, add] : commands) add(app);
  gemmscope::cli::add_integer_checks(&app);
  // Parse errors as one line, like every other refusal.
  app.failure_message([](const CLI::App* root, const CLI::Error& e) {
    const auto rest = root->remaining();
    if (root->get_subcommands().empty() && !rest.empty())
      return "gemmscope: '" + rest.front() + "' is not a subcommand; see gemmscope --help\n";
    return "gemmscope: " + std::string(e.what()) + "; see --help\n";
  });
  try {
    app.parse(argc, argv);
  } catch (const gemmscope::cli::CommandExit& e) {
    std::fflush(stdout);
    if (!e.line.empty()) std::fprintf(stderr, "gemmscope: %s\n", e.line.c_str());
    return e.status;
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
