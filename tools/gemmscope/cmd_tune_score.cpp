// gemmscope tune score: the heuristic's pick beside the fastest candidate, on the
// shapes of `tune --times` files (report/heuristic_score.hpp). Host only: it reads
// times measured elsewhere, so it runs where no GPU is.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "report/heuristic_score.hpp"

namespace {

struct ScoreArgs {
  std::vector<std::string> times;
  int sms = 132;
};

const gemmscope::cli::Registration reg{"tune score", [](CLI::App& app) {
  CLI::App* tune = gemmscope::cli::tune_command(app);
  auto args = std::make_shared<ScoreArgs>();
  CLI::App* cmd = tune->add_subcommand(
      "score",
      "How the heuristic (what `auto` runs on a shape without a cache entry) does on measured shapes: per shape of "
      "`tune --times` files, its configuration's ratio to cuBLAS beside the fastest candidate's, and their geomeans");
  cmd->add_option("times", args->times,
                  "`gemmscope tune --times` CSVs of one GPU (first-round rows: every candidate of a shape on the same "
                  "rounds); a configuration timed twice for a shape is refused, rows of configurations this build does not "
                  "compile are counted and left out")
      ->required();
  cmd->add_option("--sms", args->sms, "the GPU's SM count the heuristic plans for (132: H100 SXM, H200)")
      ->check(CLI::Range(1, 1024));
  cmd->callback([args] {
    gemmscope::report::SweepTimes times;
    for (const std::string& path : args->times) gemmscope::report::load_sweep_times(path, times);
    const auto score = gemmscope::report::score_heuristic(times, args->sms);
    std::fputs(gemmscope::report::score_report(score, times).c_str(), stdout);
  });
}};

}  // namespace
