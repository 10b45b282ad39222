#pragma once
// Subcommands of `gemmscope trace` that live in other files: cmd_gpu_trace.cpp (built
// only with the kernels) adds `trace record` through a static TraceSubcommand.
#include <CLI/CLI.hpp>

#include <functional>
#include <vector>

namespace gemmscope::cli {

using AddTraceSubcommand = std::function<void(CLI::App& trace)>;
std::vector<std::pair<std::string, AddTraceSubcommand>>& trace_subcommands();

struct TraceSubcommand {
  TraceSubcommand(std::string name, AddTraceSubcommand add);
};

}  // namespace gemmscope::cli
