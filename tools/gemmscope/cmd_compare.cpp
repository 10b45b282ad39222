// gemmscope compare: bench CSV files side by side (host-only): per run the geomean and
// minimum of a kernel's ratio to a reference (auto against cuBLAS by default), whether
// the targets (--target, --floor) hold, and for each run after the first its kernel's
// and the reference's median times over the first run's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>

#include "command.hpp"
#include "report/bench_compare.hpp"
#include "tune/text/shown_text.hpp"

namespace {

struct CompareArgs {
  std::vector<std::string> runs;
  std::string kernel = "auto", reference = "cublas";
  double floor = 0.95, target = 1.00;
  bool per_shape = false;
};

// "name=path" names a run; a plain path is named by its file name without ".csv", or by
// the whole path where two runs would get the same name.
std::vector<std::pair<std::string, std::string>> named_runs(const std::vector<std::string>& specs) {
  std::vector<std::pair<std::string, std::string>> out;
  std::map<std::string, int> stems;
  for (const std::string& spec : specs) {
    const size_t eq = spec.find('=');
    const size_t slash = spec.find('/');
    if (eq != std::string::npos && (slash == std::string::npos || eq < slash) && eq > 0) {
      out.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
      continue;
    }
    std::string stem = spec.substr(spec.find_last_of('/') == std::string::npos ? 0 : spec.find_last_of('/') + 1);
    if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".csv") == 0) stem.resize(stem.size() - 4);
    out.emplace_back(stem, spec);
    ++stems[stem];
  }
  for (auto& [name, path] : out)
    if (stems.count(name) && stems[name] > 1) name = path;
  std::map<std::string, int> names;
  for (const auto& [name, path] : out)
    if (++names[name] > 1) throw std::invalid_argument("run name = " + gemmscope::shown_text(name) +
                                  " is given twice (name the runs apart: NAME=PATH)");
  return out;
}

// A ratio bound: a plain decimal number above 0 and at most 100 (CLI11's Range would
// print its bounds as 0.000000).
CLI::Validator ratio_rule() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || text.find_first_of("xXpPnNiI") != std::string::npos ||
            !(v > 0 && v <= 100))
          return "'" + gemmscope::shown_text(text) + "' must be a number above 0 and at most 100";
        return {};
      },
      "RATIO", "ratio");
}

const gemmscope::cli::Registration reg{"compare", [](CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Bench CSV files side by side: geomean and minimum of a kernel's ratio to a reference, the targets, "
                 "and each run's times against the first run's");
  cmd->add_option("runs", args->runs, "bench CSV files (`gemmscope bench --csv`), each PATH or NAME=PATH")
      ->required();
  cmd->add_option("--kernel", args->kernel, "the kernel compared")->capture_default_str();
  cmd->add_option("--against", args->reference, "the reference kernel")->capture_default_str();
  cmd->add_option("--floor", args->floor,
                  "the floor: no shape's ratio may be below it (0.95: within 5% of the reference everywhere)")
      ->check(ratio_rule())
      ->capture_default_str();
  cmd->add_option("--target", args->target,
                  "the geometric mean of the ratios the kernel must reach (1.00: as fast as the reference "
                  "over the shapes)")
      ->check(ratio_rule())
      ->capture_default_str();
  cmd->add_flag("--per-shape", args->per_shape, "one line per shape, each run's ratio");
  cmd->callback([args] {
    std::vector<gemmscope::report::BenchRun> runs;
    for (const auto& [name, path] : named_runs(args->runs))
      runs.push_back(gemmscope::report::load_bench_csv(path, name));
    const auto c = gemmscope::report::compare_runs(runs, args->kernel, args->reference, args->floor);
    std::fputs(gemmscope::report::format_comparison(c, args->target, args->per_shape).c_str(), stdout);
  });
}};

}  // namespace
