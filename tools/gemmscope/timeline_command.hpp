#pragma once
// Subcommands of `gemmscope timeline` that live in other files: cmd_gpu_timeline.cpp
// (built only with the kernels) adds `timeline record` through a static TimelineSubcommand.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace gemmscope::cli {

using AddTimelineSubcommand = std::function<void(CLI::App& timeline)>;
std::vector<std::pair<std::string, AddTimelineSubcommand>>& timeline_subcommands();

struct TimelineSubcommand {
  TimelineSubcommand(std::string name, AddTimelineSubcommand add);
};

}  // namespace gemmscope::cli
