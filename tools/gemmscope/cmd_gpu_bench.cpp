// gemmscope bench: the ladder and cuBLAS interleaved on the same rotating
// buffers; one line per (kernel, shape); CSV and JSON with the environment.
#include <fstream>

#include "command.hpp"
#include "harness/harness.hpp"

namespace {

struct BenchArgs {
  std::string kernels = "k01,k02,k03,k04,cublas";
  std::string shapes = "4096x4096x4096,8192x8192x8192";
  int warmup = 5, repeats = 30;
  std::string csv, json;
  bool quiet = false;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

const gemmscope::cli::Registration reg{"bench", [](CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Time ladder kernels and cuBLAS interleaved (median of CUDA events, ratio to cuBLAS)");
  cmd->add_option("--kernels", args->kernels, "comma-separated: ladder names (k01..k09 and variants), auto, cublas, sm100 (Blackwell only)")->capture_default_str();
  cmd->add_option("--shapes", args->shapes, "comma-separated MxNxK")->capture_default_str();
  cmd->add_option("--warmup", args->warmup, "untimed rounds per shape")->check(CLI::Range(0, 1000))->capture_default_str();
  cmd->add_option("--repeats", args->repeats, "timed rounds per shape")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--csv", args->csv, "write the rows as CSV to this file");
  cmd->add_option("--json", args->json, "write the report as JSON to this file");
  cmd->add_flag("--quiet", args->quiet, "no progress line");
  cmd->callback([args] {
    gemmscope::harness::BenchOptions opt;
    opt.kernels = split(args->kernels);
    for (const auto& k : opt.kernels)
      if (k != "cublas" && k != "auto" && k != "sm100") gemmscope::find_kernel(k);  // unknown names fail before any GPU work
    opt.shapes = gemmscope::harness::parse_shapes(args->shapes);
    // Bad names and shapes are refused (status 2) before looking for a GPU (status 3).
    std::string why;
    if (!gemmscope::harness::gpu_available(&why)) {
      std::fprintf(stderr, "gemmscope bench: no usable CUDA device (%s); bench needs the GPU\n", why.c_str());
      std::exit(3);
    }
    opt.warmup = args->warmup;
    opt.repeats = args->repeats;
    opt.progress = !args->quiet;
    const auto report = gemmscope::harness::run_bench(opt);
    std::printf("# %s, %d SMs, driver %s, CUDA runtime %s, SM clock %s -> %s MHz, commit %s, %s\n",
                report.env.gpu.c_str(), report.env.sm_count, report.env.driver.c_str(),
                report.env.cuda_runtime.c_str(), report.env.sm_clock_before_mhz.c_str(),
                report.env.sm_clock_after_mhz.c_str(), report.env.commit.c_str(), report.env.date.c_str());
    std::printf("%s", report.to_table().c_str());
    if (!args->csv.empty()) std::ofstream(args->csv) << report.to_csv();
    if (!args->json.empty()) std::ofstream(args->json) << report.to_json();
  });
}};

}  // namespace
