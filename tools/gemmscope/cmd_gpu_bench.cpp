// gemmscope bench: kernels of the registry (the ladder, auto, cuBLAS, ...)
// interleaved on the same rotating buffers; one line per (kernel, shape); CSV and JSON with the environment.
#include <memory>

#include "gemmscope/kernel_registry.hpp"
#include "gemmscope/tuned.hpp"

#include "command.hpp"
#include "options.hpp"
#include "tune/text/output_file.hpp"
#include "bench/harness.hpp"
#include "shapes_arg.hpp"

namespace {

struct BenchArgs {
  std::string kernels = "k01,k02,k03,k04,cublas";
  std::string shapes = "4096x4096x4096,8192x8192x8192";
  int warmup = 5, repeats = 30;
  std::string csv, json, cache;
  bool quiet = false, clean_l2 = false, clocks = false;
};

const gemmscope::cli::Registration reg{"bench", [](CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand("bench", "Time ladder kernels and cuBLAS interleaved (median of CUDA events, ratio to cuBLAS)");
  cmd->add_option("--kernels", args->kernels,
                  "comma-separated names of the kernel registry: " + gemmscope::known_kernel_names() +
                      ". auto is what gemmscope::gemm runs: k10 through the tuning cache (--tune-cache, "
                      "$GEMMSCOPE_TUNE_CACHE, else the cache shipped for this GPU), else its heuristic; sm100 runs on a Blackwell GPU only")
      ->capture_default_str();
  cmd->add_option("--shapes", args->shapes, "comma-separated MxNxK, or a shape-set file (CSV model,layer,m,n,k; e.g. bench/shapes/llm_projections.csv)")->capture_default_str();
  cmd->add_option("--tune-cache", args->cache, "tuning cache file for auto/k10 (default: $GEMMSCOPE_TUNE_CACHE; unset: the cache shipped with gemmscope for this GPU; 'none': the heuristic alone)");
  cmd->add_option("--warmup", args->warmup, "untimed rounds per shape")->check(CLI::Range(0, 1000))->capture_default_str();
  cmd->add_option("--repeats", args->repeats, "timed rounds per shape")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--csv", args->csv, "write the rows as CSV to this file");
  cmd->add_option("--json", args->json, "write the report as JSON to this file");
  cmd->add_flag("--quiet", args->quiet, "no progress line");
  cmd->add_flag("--clean-l2", args->clean_l2,
                "before each timed batch, read twice L2 so that no kernel pays for the write-backs of the one "
                "timed before it (recorded as l2_before_batch)");
  cmd->add_flag("--clocks", args->clocks,
                "sample the SM clock and NVML's clocks-event reasons every 100 us during each kernel's timed "
                "batches: the rows get sm_clock_mhz, power_capped_pct, slowdown_pct and tensor_peak_pct (the "
                "TFLOP/s as a percent of the dense bf16 peak at that clock); needs the driver's libnvidia-ml.so.1");
  cmd->callback([args] {
    gemmscope::harness::BenchOptions opt;
    opt.kernels = gemmscope::cli::list_items(args->kernels, "--kernels", 1000);
    // Unknown names and malformed configurations fail before any GPU work.
    for (const auto& k : opt.kernels) gemmscope::resolve_kernel(k);
    for (const auto& ns : gemmscope::cli::shapes_arg(args->shapes)) {
      opt.shapes.push_back({ns.m, ns.n, ns.k});
      opt.labels.push_back(gemmscope::cli::shape_label(ns));
    }
    // Output files are checked before the run (a temporary file made and removed in
    // the folder: nothing is created or truncated), so a bad path fails in a second;
    // the report is written all or nothing after it.
    if (!args->csv.empty()) gemmscope::check_output_file(args->csv, "--csv");
    if (!args->json.empty()) gemmscope::check_output_file(args->json, "--json");
    // Bad names and shapes are refused (status 2) before looking for a GPU (status 3).
    std::string why;
    if (!gemmscope::harness::gpu_available(&why)) {
      std::fprintf(stderr, "gemmscope bench: no usable CUDA device (%s); bench needs the GPU\n", why.c_str());
      std::exit(3);
    }
    if (!args->cache.empty()) {
      try {
        gemmscope::use_tune_cache(args->cache);
      } catch (const gemmscope::tune::TuneCacheError& e) {
        throw std::invalid_argument(e.what());
      }
    }
    opt.warmup = args->warmup;
    opt.repeats = args->repeats;
    opt.progress = !args->quiet;
    opt.clean_l2 = args->clean_l2;
    opt.clocks = args->clocks;
    const auto report = gemmscope::harness::run_bench(opt);
    std::printf("# %s, %d SMs, driver %s, CUDA runtime %s, SM clock %s -> %s MHz, commit %s, %s\n",
                report.env.gpu.c_str(), report.env.sm_count, report.env.driver.c_str(),
                report.env.cuda_runtime.c_str(), report.env.sm_clock_before_mhz.c_str(),
                report.env.sm_clock_after_mhz.c_str(), report.env.commit.c_str(), report.env.date.c_str());
    std::printf("%s", report.to_table().c_str());
    if (!args->csv.empty()) gemmscope::write_output_file(args->csv, report.to_csv(), "--csv");
    if (!args->json.empty()) gemmscope::write_output_file(args->json, report.to_json(), "--json");
  });
}};

}  // namespace
