// gemmscope tune: time every candidate configuration of the tunable kernel (k10)
// per shape, interleaved with cuBLAS, and keep the fastest correct one in the
// tuning cache (JSON) that gemmscope::gemm and `bench --kernels auto` dispatch by.
#include <cerrno>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "command.hpp"
#include "options.hpp"
#include "bench/harness.hpp"
#include "bench/tune.hpp"
#include "shapes_arg.hpp"
#include "tune/cache.hpp"
#include "tune/config.hpp"
#include "tune/outcome.hpp"
#include "tune/text/output_file.hpp"
#include "tune/text/text_file.hpp"

namespace {

struct TuneArgs {
  std::string shapes = "bench/shapes/llm_projections.csv";
  std::string cache = "gemmscope-tune.json";
  std::string only;
  std::string times;
  int warmup = 2, repeats = 10, refine = 3, refine_repeats = 30;
  bool quiet = false, skip_tuned = false;
  int hang_seconds = 120;
};

const gemmscope::cli::Registration reg{"tune", [](CLI::App& app) {
  auto args = std::make_shared<TuneArgs>();
  CLI::App* cmd = app.add_subcommand(
      "tune", "Autotune k10 per shape on the GPU (every candidate timed against cuBLAS; results to a JSON cache)");
  cmd->add_option("--shapes", args->shapes, "shape-set file (CSV model,layer,m,n,k) or comma-separated MxNxK")
      ->capture_default_str();
  cmd->add_option("--cache", args->cache, "tuning cache to update (created if missing; a corrupt one is refused, not overwritten)")
      ->capture_default_str();
  cmd->add_option("--configs", args->only,
                  "comma-separated configurations to try instead of all candidates (those a shape cannot run are "
                  "left out), or instances (the first five fields, six with swap, e.g. 128x128x64.s6.wg2pp.c2x1.static: all "
                  "of its candidates); a shape already in the cache has its entry timed with them in the same run, "
                  "and the fastest of the run replaces it");
  cmd->add_option("--warmup", args->warmup, "untimed rounds per shape")->check(CLI::Range(0, 100))->capture_default_str();
  cmd->add_option("--repeats", args->repeats,
                  "timed rounds per shape (" + std::to_string(gemmscope::harness::kFirstRoundLaunches) +
                      " launches each)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--refine", args->refine,
                  "time again the N fastest within " +
                      std::to_string(static_cast<int>(gemmscope::harness::kRefineSpread * 100 + 0.5)) +
                      "% of the fastest, on rounds of their own, and pick among them (0 or 1: no refine round)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  cmd->add_option("--refine-repeats", args->refine_repeats,
                  "timed rounds of the refine round (" + std::to_string(gemmscope::harness::kBatchLaunches) +
                      " launches each, as bench)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--times", args->times,
                  "also append every candidate's time (first and refine rounds, with cuBLAS's) to this CSV, shape "
                  "by shape (created if missing, its header written with the first rows; a file with another header "
                  "is refused)");
  cmd->add_flag("--quiet", args->quiet, "no progress bar");
  cmd->add_option("--hang-seconds", args->hang_seconds,
                  "kill a worker that reports nothing this long (a hung kernel) and record the configuration it ran")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  cmd->add_flag("--skip-tuned", args->skip_tuned, "leave shapes the cache already holds for this GPU/CUDA/driver/kernel version");
  cmd->callback([cmd, args] {
    if (!cmd->get_subcommands().empty()) return;  // `tune merge` (cmd_tune_merge.cpp) ran instead
    gemmscope::harness::TuneOptions opt;
    opt.shapes = gemmscope::cli::shapes_arg(args->shapes);
    if (gemmscope::cli::given(cmd, "--configs"))
      for (const std::string& item : gemmscope::cli::list_items(args->only, "--configs", 100000))
        opt.only.push_back(gemmscope::tune::parse_selection_item(item));
    opt.cache_path = args->cache;
    opt.warmup = args->warmup;
    opt.repeats = args->repeats;
    opt.refine = args->refine;
    opt.refine_repeats = args->refine_repeats;
    opt.progress = !args->quiet;
    opt.skip_tuned = args->skip_tuned;
    opt.hang_seconds = args->hang_seconds;
    // Read once. A corrupt or foreign-format cache is bad input (status 2), refused
    // before any GPU work.
    gemmscope::tune::TuneCache cache;
    try {
      cache = gemmscope::tune::load_tune_cache(opt.cache_path);
    } catch (const gemmscope::tune::TuneCacheError& e) {
      throw std::invalid_argument(e.what());
    }
    // --times: checked before any GPU work; an existing file must be one of ours. Each
    // shape's rows are added to what the file held and the whole written again, all or
    // nothing (tune/text/output_file.hpp): a run that fails leaves the file as it was
    // (no empty file), one stopped part-way leaves every shape it finished.
    std::shared_ptr<std::string> times;
    if (!args->times.empty()) {
      const std::string header = gemmscope::tune::sweep_times_header();
      const gemmscope::TextFile old = gemmscope::read_text_file(args->times, size_t{256} << 20);
      if (old.not_regular || (old.error != 0 && old.error != ENOENT))
        throw std::invalid_argument("--times = " + args->times + " " +
                                    gemmscope::input_problem(old.error, old.not_regular, old.read_failed));
      if (old.too_large) throw std::invalid_argument("--times = " + args->times + " is larger than 256 MiB");
      const std::string first = old.text.substr(0, old.text.find('\n'));
      if (!old.text.empty() && first + "\n" != header)
        throw std::invalid_argument("--times " + args->times + ": its first line is '" + first.substr(0, 80) +
                                    "', not the header of a tune --times CSV (" + header.substr(0, header.size() - 1) +
                                    "); refusing to append to it");
      gemmscope::check_output_file(args->times, "--times");
      times = std::make_shared<std::string>(old.text);
    }
    // Each shape's row as soon as it is done, so a sweep stopped part-way still
    // shows what it tuned (the cache has it too: it is saved after every shape).
    opt.on_shape = [header = true, times, path = args->times](const gemmscope::tune::ShapeOutcome& o) mutable {
      if (header) std::fputs(gemmscope::tune::outcome_table_header().c_str(), stdout);
      header = false;
      std::fputs(gemmscope::tune::outcome_table_row(o).c_str(), stdout);
      std::fflush(stdout);
      const std::string rows = times ? gemmscope::tune::sweep_times_rows(o) : std::string();
      if (!rows.empty()) {
        if (times->empty()) *times = gemmscope::tune::sweep_times_header();
        *times += rows;
        gemmscope::write_output_file(path, *times, "--times");
      }
    };
    try {
      gemmscope::harness::run_tune(opt, std::move(cache));
    } catch (const gemmscope::harness::NoGpuError& e) {
      std::fprintf(stderr, "gemmscope tune: %s\n", e.what());
      std::exit(3);
    }
    std::printf("cache: %s\n", args->cache.c_str());
  });
}};

}  // namespace
