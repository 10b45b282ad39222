// gemmscope plot: the ladder chart (SVG) from a bench JSON file.
#include <cstdio>
#include <memory>

#include "command.hpp"
#include "report/bench_json.hpp"
#include "report/ladder_chart.hpp"
#include "tune/text/output_file.hpp"

namespace {
const gemmscope::cli::Registration reg{"plot", [](CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("ladder.svg");
  auto title = std::make_shared<std::string>("gemmscope ladder vs cuBLAS");
  CLI::App* cmd = app.add_subcommand("plot", "Ladder chart (SVG) from `gemmscope bench --json` output");
  cmd->add_option("json", *in, "bench JSON file")->required();
  cmd->add_option("-o,--out", *out, "SVG file to write (all or nothing: a failure leaves it as it was)")
      ->capture_default_str();
  cmd->add_option("--title", *title, "chart title (any text; escaped)");
  cmd->callback([in, out, title] {
    // The reader checks every row (report/bench_json.hpp); the writer escapes every text.
    const auto bars = gemmscope::report::chart_bars(gemmscope::report::load_bench_json(*in));
    gemmscope::write_output_file(*out, gemmscope::report::ladder_chart_svg(bars, *title), "-o");
    std::printf("wrote %s (%zu bars)\n", out->c_str(), bars.size());
  });
}};
}  // namespace
