// gemmscope plot: the ladder chart (SVG) from a bench JSON file.
#include <fstream>
#include <sstream>

#include "command.hpp"
#include "report/ladder_chart.hpp"

namespace {
const gemmscope::cli::Registration reg{"plot", [](CLI::App& app) {
  auto in = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("ladder.svg");
  auto title = std::make_shared<std::string>("gemmscope ladder vs cuBLAS");
  CLI::App* cmd = app.add_subcommand("plot", "Ladder chart (SVG) from `gemmscope bench --json` output");
  cmd->add_option("json", *in, "bench JSON file")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--out", *out, "SVG file to write")->capture_default_str();
  cmd->add_option("--title", *title, "chart title");
  cmd->callback([in, out, title] {
    std::ifstream f(*in);
    std::stringstream ss;
    ss << f.rdbuf();
    const auto bars = gemmscope::report::read_bench_json(ss.str());
    std::ofstream(*out) << gemmscope::report::ladder_chart_svg(bars, *title);
    std::printf("wrote %s (%zu bars)\n", out->c_str(), bars.size());
  });
}};
}  // namespace
