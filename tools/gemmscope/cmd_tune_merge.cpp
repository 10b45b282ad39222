// gemmscope tune merge: a newly tuned cache taken into a kept one, entry by entry, on
// the evidence of bench runs through each (report/tune_merge.hpp says the rule). Host
// only: in a build without the kernels, `tune` holds this subcommand alone.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "command.hpp"
#include "report/bench_compare.hpp"
#include "report/tune_merge.hpp"
#include "tune/cache.hpp"
#include "tune/text/shown_text.hpp"

namespace {

struct MergeArgs {
  std::string kept, tuned, output;
  std::vector<std::string> kept_runs, tuned_runs;
};

// Both inputs must exist (tune/cache.hpp reads a missing file as an empty cache).
gemmscope::tune::TuneCache read_cache(const std::string& path, const char* what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw std::invalid_argument(std::string(what) + " = " + gemmscope::shown_text(path) + " does not exist");
  try {
    return gemmscope::tune::load_tune_cache(path);
  } catch (const gemmscope::tune::TuneCacheError& e) {
    throw std::invalid_argument(e.what());
  }
}

std::vector<gemmscope::report::BenchRun> read_runs(const std::vector<std::string>& paths, const char* side) {
  std::vector<gemmscope::report::BenchRun> runs;
  for (size_t i = 0; i < paths.size(); ++i)
    runs.push_back(gemmscope::report::load_bench_csv(paths[i], std::string(side) + " run " + std::to_string(i + 1) +
                                                                   " (" + gemmscope::shown_text(paths[i]) + ")"));
  return runs;
}

const gemmscope::cli::Registration reg{"tune merge", [](CLI::App& app) {
  CLI::App* tune = gemmscope::cli::tune_command(app);
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = tune->add_subcommand(
      "merge",
      "Take a newly tuned cache into a kept one: new shapes are added; where the two differ, the tuned entry "
      "replaces the kept one only if bench runs through each cache show it better in every run (its worst ratio "
      "to cuBLAS beats the kept best, and its fastest launch is no slower); failures are merged");
  cmd->add_option("kept", args->kept, "the kept tuning cache (e.g. kernels/tune/caches/h200.json)")->required();
  cmd->add_option("tuned", args->tuned, "the newly tuned cache (`gemmscope tune --cache`)")->required();
  cmd->add_option("-o,--out,--output", args->output, "the merged cache to write; must not exist (nothing is overwritten)")
      ->required();
  cmd->add_option("--kept-runs", args->kept_runs,
                  "bench CSVs through the kept cache (`gemmscope bench --kernels auto,cublas --tune-cache KEPT "
                  "--csv`), over the shapes whose configurations differ");
  cmd->add_option("--tuned-runs", args->tuned_runs,
                  "bench CSVs through the tuned cache, the same shapes, best alternated with --kept-runs on one GPU");
  cmd->callback([args] {
    std::error_code ec;
    if (std::filesystem::exists(args->output, ec) || std::filesystem::is_symlink(args->output, ec))
      throw std::invalid_argument("--out = " + gemmscope::shown_text(args->output) +
                                  " exists already; give a new file (nothing is overwritten)");
    const auto kept = read_cache(args->kept, "kept cache");
    const auto tuned = read_cache(args->tuned, "tuned cache");
    gemmscope::report::MergeRuns runs{read_runs(args->kept_runs, "kept"), read_runs(args->tuned_runs, "tuned")};
    const auto merged = gemmscope::report::merge_tune_caches(kept, tuned, runs);
    try {
      gemmscope::tune::save_tune_cache(args->output, merged.cache);
    } catch (const gemmscope::tune::TuneCacheError& e) {
      throw std::invalid_argument(e.what());
    }
    std::fputs(gemmscope::report::format_merge(merged).c_str(), stdout);
    std::printf("written: %s\n", args->output.c_str());
  });
}};

}  // namespace
