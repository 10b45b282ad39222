// gemmscope plot: the ladder chart (SVG) from a bench CSV or JSON file.
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "report/bench_compare.hpp"
#include "report/bench_json.hpp"
#include "report/ladder_chart.hpp"
#include "tune/text/output_file.hpp"

namespace {
const gemmscope::cli::Registration reg{"plot", [](CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("ladder.svg");
  auto title = std::make_shared<std::string>("gemmscope ladder vs cuBLAS");
  CLI::App* cmd = app.add_subcommand("plot", "Ladder chart (SVG) from `gemmscope bench --csv` (or --json) output");
  cmd->add_option("results", *in, "bench CSV file; a name ending in .json is read as bench JSON")->required();
  cmd->add_option("-o,--out", *out, "SVG file to write (all or nothing: a failure leaves it as it was)")
      ->capture_default_str();
  cmd->add_option("--title", *title, "chart title (any text; escaped)");
  cmd->callback([in, out, title] {
    // The readers check every row (report/bench_compare.hpp, report/bench_json.hpp); the
    // writer escapes every text.
    namespace report = gemmscope::report;
    const auto bars = in->ends_with(".json") ? report::chart_bars(report::load_bench_json(*in))
                                              : report::chart_bars(report::load_bench_csv(*in, *in));
    if (bars.empty()) throw std::invalid_argument("results = " + *in + " has no measured row to draw");
    gemmscope::write_output_file(*out, report::ladder_chart_svg(bars, *title), "-o");
    std::printf("wrote %s (%zu bars)\n", out->c_str(), bars.size());
  });
}};
}  // namespace
