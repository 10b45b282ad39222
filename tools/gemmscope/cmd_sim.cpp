// gemmscope sim: run a kernel's own schedule code on the pipeline simulator
// (model/pipeline.hpp + the kernels declared on it in gemmscope::testing, verify/lib/)
// under one seeded random interleaving, or search every interleaving (--exhaustive),
// print the verdict, and optionally write the timeline as SVG or as a Chrome trace. The
// logic lives in the engine and the bindings; this file only parses options and prints.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "options.hpp"
#include "tune/text/output_file.hpp"
#include "gemmscope/model/pipeline.hpp"
#include "gemmscope/traces/chrome_trace.hpp"

#include "gemmscope/testing/sm100_binding.hpp"
#include "gemmscope/testing/sm90_binding.hpp"

namespace gemmscope::cli {
namespace {

struct SimArgs {
  std::string kernel = "synthetic";
  uint64_t seed = 1;
  std::string svg;
  std::string chrome;
  long long tiles_m = 1, tiles_n = 2, k_blocks = 4, clusters = 1, stages = 3, consumers = 2, cluster_m = 2, group = 2;
  bool exhaustive = false;
  long long max_states = 200000;
  long long max_steps = 10'000'000;
  std::string mutate;
  std::string exit = "barrier";
  bool warps = false;
  long long store_boxes = 4;
  bool deferred_epilogue = false;
};

uint32_t positive(const char* field, long long v, long long hi) {
  if (v < 1 || v > hi)
    throw std::invalid_argument(std::string(field) + " = " + std::to_string(v) + " must be in 1.." + std::to_string(hi));
  return static_cast<uint32_t>(v);
}

[[noreturn]] void unknown_mutation(const std::string& m, const char* list) {
  throw std::invalid_argument("--mutate = " + m + " is not one of: " + list);
}

// The exit statuses of a run: a violation is a finding (1); a run cut short by the
// step or state limit found nothing and proved nothing (4); bad input is 2.
constexpr int kExitClean = 0, kExitViolation = 1, kExitLimit = 4;

// Steps of one random schedule (--max-steps): by default far above any run the size
// limits below admit.
constexpr long long kMaxSteps = 10'000'000;
constexpr long long kMaxStates = 2'000'000;

// Runs `sim` and reports; returns the exit status.
template <class World>
int run_and_report(World& sim, const SimArgs& a, const std::string& title) {
  if (a.exhaustive) {
    const model::sim::ExploreResult r = model::sim::explore(sim, static_cast<uint64_t>(a.max_states));
    if (r.ok() && !r.complete) {
      std::printf("%s: exhaustive search: stopped at the state limit --max-states = %lld after %llu states "
                  "(not a violation: the states searched hold none; the rest were not searched)\n",
                  title.c_str(), a.max_states, static_cast<unsigned long long>(r.states));
      return kExitLimit;
    }
    std::printf("%s: exhaustive search: %llu states, %s, %s\n", title.c_str(),
                static_cast<unsigned long long>(r.states), r.complete ? "complete" : "stopped at --max-states",
                r.ok() ? "no violation" : ("VIOLATION " + std::string(to_string(r.violation))).c_str());
    if (!r.ok()) std::printf("  %s\n  after %zu steps\n", r.message.c_str(), r.trail.size());
    return r.ok() ? kExitClean : kExitViolation;
  }
  // The timeline's events are kept only for --svg and --chrome: without them memory stays flat.
  sim.set_logging(!a.svg.empty() || !a.chrome.empty());
  const model::sim::SimResult r = model::sim::run_random(sim, a.seed, static_cast<uint64_t>(a.max_steps));
  if (r.violation == model::sim::Violation::step_limit) {
    std::printf("%s: seed %llu: stopped at the step limit --max-steps = %lld (not a violation: the schedule had not "
                "finished)\n",
                title.c_str(), static_cast<unsigned long long>(a.seed), a.max_steps);
    return kExitLimit;
  }
  std::printf("%s: seed %llu: %llu steps, %zu outputs, %s\n", title.c_str(), static_cast<unsigned long long>(a.seed),
              static_cast<unsigned long long>(r.steps), sim.outputs_in_order().size(),
              r.ok() ? "ok" : ("VIOLATION " + std::string(to_string(r.violation))).c_str());
  if (!r.ok()) std::printf("  %s\n", r.message.c_str());
  if (!a.svg.empty()) {
    write_output_file(a.svg, model::sim::timeline_svg(sim, title + ", seed " + std::to_string(a.seed)), "--svg");
    std::printf("timeline: %s (%u roles, %zu events)\n", a.svg.c_str(), sim.role_count(), sim.events().size());
  }
  if (!a.chrome.empty()) {
    write_output_file(a.chrome, traces::sim_to_chrome(sim, title + ", seed " + std::to_string(a.seed)).dump(), "--chrome");
    std::printf("chrome trace: %s (%u roles, %zu events; 1 us = 1 scheduler step)\n", a.chrome.c_str(),
                sim.role_count(), sim.events().size());
  }
  return r.ok() ? kExitClean : kExitViolation;
}

// The run's size, refused before any work: the product of the size options (tiles x
// k-blocks) bounds its steps, so a run takes seconds and its memory stays small.
void limit_work(const char* what, long long work, long long limit, const SimArgs& a) {
  const long long svg_limit = 4096;  // a timeline of about 50,000 events
  if (work > limit)
    throw std::invalid_argument(std::string(what) + " = " + std::to_string(work) + " must be at most " +
                                std::to_string(limit) + " (the size of one simulated run)");
  if ((!a.svg.empty() || !a.chrome.empty()) && work > svg_limit)
    throw std::invalid_argument(std::string(what) + " = " + std::to_string(work) + " must be at most " +
                                std::to_string(svg_limit) +
                                (!a.svg.empty() ? " with --svg (the timeline draws every event)"
                                                : " with --chrome (the trace holds every event)"));
}

int run_synthetic(const SimArgs& a) {
  model::sim::SyntheticConfig c;
  c.stages = positive("--stages", a.stages, 64);
  c.consumers = positive("--consumers", a.consumers, 8);
  c.tiles = positive("--tiles-n", a.tiles_n, 100000);
  c.k_blocks = positive("--k-blocks", a.k_blocks, 100000);
  limit_work("--tiles-n x --k-blocks", a.tiles_n * a.k_blocks, 1'000'000, a);
  const char* list = "producer-wrong-phase, consumer-wrong-phase, missing-arrive, stage-off-by-one, repeat-tile";
  if (a.mutate == "producer-wrong-phase") c.producer_wrong_initial_phase = true;
  else if (a.mutate == "consumer-wrong-phase") c.consumer_wrong_initial_phase = true;
  else if (a.mutate == "missing-arrive") c.consumer_skips_empty_arrive = true;
  else if (a.mutate == "stage-off-by-one") c.producer_stage_off_by_one = true;
  else if (a.mutate == "repeat-tile") c.scheduler_repeats_tile = true;
  else if (!a.mutate.empty()) unknown_mutation(a.mutate, list);
  model::sim::SyntheticRingSim sim(c);
  return run_and_report(sim, a,
                        "synthetic ring: " + std::to_string(c.stages) + " stages, " + std::to_string(c.consumers) +
                            " consumers, " + std::to_string(c.tiles) + " tiles x " + std::to_string(c.k_blocks) +
                            " k-blocks" + (a.mutate.empty() ? "" : ", mutation " + a.mutate));
}

int run_sm100(const SimArgs& a) {
  testing::sim::Sm100SimConfig c;
  c.tiles_m = positive("--tiles-m", a.tiles_m, 64);
  c.tiles_n = positive("--tiles-n", a.tiles_n, 64);
  c.k_blocks = positive("--k-blocks", a.k_blocks, 256);
  c.resident_clusters = positive("--clusters", a.clusters, 8);
  limit_work("--tiles-m x --tiles-n x --k-blocks", a.tiles_m * a.tiles_n * a.k_blocks, 262'144, a);
  c.epilogue_lockstep = !a.warps;
  auto& m = c.mutations;
  const char* list =
      "producer-wrong-phase, mma-wrong-phase, epilogue-wrong-phase, missing-arrive, stage-off-by-one, over-arrive, "
      "skip-tile, repeat-tile";
  if (a.mutate == "producer-wrong-phase") m.producer_wrong_initial_phase = true;
  else if (a.mutate == "mma-wrong-phase") m.mma_wrong_initial_phase = true;
  else if (a.mutate == "epilogue-wrong-phase") m.epilogue_wrong_initial_phase = true;
  else if (a.mutate == "missing-arrive") m.epilogue_missing_tmem_empty_arrive = true;
  else if (a.mutate == "stage-off-by-one") m.producer_stage_off_by_one = true;
  else if (a.mutate == "over-arrive") m.commit_over_arrives = true;
  else if (a.mutate == "skip-tile") m.scheduler_skips_tile = true;
  else if (a.mutate == "repeat-tile") m.scheduler_repeats_tile = true;
  else if (!a.mutate.empty()) unknown_mutation(a.mutate, list);
  const std::string title = "sm100 (2x2 cluster, " + std::to_string(a.exhaustive ? 2u : sm100::kStages) +
                            " stages, 2 TMEM slots): " + std::to_string(c.tiles_m) + "x" + std::to_string(c.tiles_n) +
                            " tiles x " + std::to_string(c.k_blocks) + " k-blocks, " +
                            std::to_string(c.resident_clusters) + " resident cluster(s)" +
                            (a.mutate.empty() ? "" : ", mutation " + a.mutate);
  if (a.exhaustive) {
    testing::sim::Sm100ScheduleSim<2> sim(c);
    return run_and_report(sim, a, title);
  }
  testing::sim::Sm100ScheduleSim<> sim(c);
  return run_and_report(sim, a, title);
}

int run_sm90(const SimArgs& a, testing::sim::Sm90Kernel kernel) {
  testing::sim::Sm90SimConfig c;
  c.kernel = kernel;
  c.units_m = positive("--tiles-m", a.tiles_m, 64);
  c.units_n = positive("--tiles-n", a.tiles_n, 64);
  c.k_blocks = positive("--k-blocks", a.k_blocks, 256);
  c.cluster_m = positive("--cluster-m", a.cluster_m, 2);
  c.workers = positive("--clusters", a.clusters, 16);
  c.group = positive("--group", a.group, 64);
  c.store_boxes = positive("--store-boxes", a.store_boxes, 8);
  c.deferred_epilogue = a.deferred_epilogue;
  // k06/k07 launch a CTA per work tile, all simulated at once: each step looks at every one.
  const bool per_tile = kernel == testing::sim::Sm90Kernel::k06 || kernel == testing::sim::Sm90Kernel::k07;
  if (per_tile) limit_work("--tiles-m x --tiles-n", a.tiles_m * a.tiles_n, 256, a);
  limit_work("--tiles-m x --tiles-n x --k-blocks", a.tiles_m * a.tiles_n * a.k_blocks, per_tile ? 16'384 : 262'144, a);
  auto& m = c.mutations;
  if (a.exit == "tail") c.exit = testing::sim::Sm90Exit::producer_tail;
  else if (a.exit != "barrier") throw std::invalid_argument("--exit = " + a.exit + " is not one of: barrier, tail");
  const char* list =
      "producer-wrong-phase, consumer-wrong-phase, missing-arrive, stage-off-by-one, staging-wait-off-by-one, "
      "staging-restarts-per-tile, skip-tile, repeat-tile, no-exit-wait";
  if (a.mutate == "producer-wrong-phase") m.producer_wrong_initial_phase = true;
  else if (a.mutate == "consumer-wrong-phase") m.consumer_wrong_initial_phase = true;
  else if (a.mutate == "missing-arrive") m.consumer_missing_release = true;
  else if (a.mutate == "stage-off-by-one") m.producer_stage_off_by_one = true;
  else if (a.mutate == "staging-wait-off-by-one") m.staging_wait_off_by_one = true;
  else if (a.mutate == "staging-restarts-per-tile") m.staging_restarts_per_tile = true;
  else if (a.mutate == "skip-tile") m.scheduler_skips_tile = true;
  else if (a.mutate == "repeat-tile") m.scheduler_repeats_tile = true;
  else if (a.mutate == "no-exit-wait") c.exit = testing::sim::Sm90Exit::none;
  else if (!a.mutate.empty()) unknown_mutation(a.mutate, list);
  const uint32_t stages = a.exhaustive ? 2 : testing::sim::sm90_kernel_stages(kernel);
  const std::string title = std::string(testing::sim::to_string(kernel)) + " (" + std::to_string(c.cluster_m) +
                            "x1 cluster, " + std::to_string(stages) + " stages, exit by " +
                            testing::sim::to_string(c.exit) + "): " + std::to_string(c.units_m) + "x" +
                            std::to_string(c.units_n) + " work tiles x " + std::to_string(c.k_blocks) + " k-blocks, " +
                            std::to_string(c.store_boxes) + " store boxes" +
                            (c.deferred_epilogue ? ", deferred epilogue" : "") +
                            (a.mutate.empty() ? "" : ", mutation " + a.mutate);
  if (a.exhaustive) {
    testing::sim::Sm90ScheduleSim<2> sim(c);
    return run_and_report(sim, a, title);
  }
  if (stages == 3) {
    testing::sim::Sm90ScheduleSim<3> sim(c);
    return run_and_report(sim, a, title);
  }
  testing::sim::Sm90ScheduleSim<4> sim(c);
  return run_and_report(sim, a, title);
}

// The Hopper kernels whose schedule code the simulator runs, under the registry's names.
constexpr testing::sim::Sm90Kernel kSimulatedSm90[] = {
    testing::sim::Sm90Kernel::k06,        testing::sim::Sm90Kernel::k07,
    testing::sim::Sm90Kernel::k08_static, testing::sim::Sm90Kernel::k08_dynamic,
    testing::sim::Sm90Kernel::k09_static, testing::sim::Sm90Kernel::k09_dynamic};

std::string kernel_names() {
  std::string names = "synthetic, sm100";
  for (const auto k : kSimulatedSm90) names += std::string(", ") + testing::sim::to_string(k);
  return names;
}

int run_sim(const SimArgs& a, const CLI::App* cmd) {
  if (a.max_states < 1 || a.max_states > kMaxStates)
    throw std::invalid_argument("--max-states = " + std::to_string(a.max_states) + " must be in 1.." +
                                std::to_string(kMaxStates));
  if (a.max_steps < 1 || a.max_steps > kMaxSteps)
    throw std::invalid_argument("--max-steps = " + std::to_string(a.max_steps) + " must be in 1.." +
                                std::to_string(kMaxSteps));
  if (a.exhaustive)
    refuse_options(cmd, {"--seed", "--svg", "--chrome", "--max-steps"}, "with --exhaustive (it searches every schedule, not one random one)");
  else
    refuse_options(cmd, {"--max-states"}, "without --exhaustive (it bounds the search of every schedule)");
  // The outputs come after the run: a path that cannot be written is refused first.
  if (!a.svg.empty()) check_output_file(a.svg, "--svg");
  if (!a.chrome.empty()) check_output_file(a.chrome, "--chrome");
  const std::string to = "to --kernel " + shown_text(a.kernel);
  if (a.kernel == "synthetic") {
    refuse_options(cmd, {"--tiles-m", "--clusters", "--cluster-m", "--group", "--store-boxes", "--deferred-epilogue",
                         "--warps", "--exit"},
                   to);
    return run_synthetic(a);
  }
  using testing::sim::Sm90Kernel;
  if (a.kernel == "sm100") {
    refuse_options(cmd, {"--stages", "--consumers", "--cluster-m", "--group", "--store-boxes", "--deferred-epilogue",
                         "--exit"},
                   to);
    return run_sm100(a);
  }
  for (Sm90Kernel k : kSimulatedSm90)
    if (a.kernel == testing::sim::to_string(k)) {
      refuse_options(cmd, {"--stages", "--consumers", "--warps"}, to);
      if (k == Sm90Kernel::k06 || k == Sm90Kernel::k07)
        refuse_options(cmd, {"--clusters"}, to + " (a CTA per work tile; --clusters counts persistent workers)");
      if (k != Sm90Kernel::k09_static && k != Sm90Kernel::k09_dynamic)
        refuse_options(cmd, {"--group"}, to + " (only k09 orders tiles in bands)");
      return run_sm90(a, k);
    }
  throw std::invalid_argument("--kernel = " + a.kernel + " is not one of: " + kernel_names());
}

const Registration reg{
    "sim", [](CLI::App& app) {
      auto args = std::make_shared<SimArgs>();
      auto* cmd = app.add_subcommand("sim", "run a kernel's own schedule code on the pipeline simulator");
      cmd->add_option("--kernel", args->kernel, kernel_names())
          ->capture_default_str();
      cmd->add_option("--seed", args->seed, "seed of the random interleaving")->capture_default_str();
      cmd->add_option("--svg", args->svg, "write the timeline of the run as SVG to this file");
      cmd->add_option("--chrome", args->chrome,
                      "write the timeline of the run in the Chrome trace event format (gemmscope timeline render, "
                      "compare; Perfetto) to this file");
      cmd->add_option("--tiles-m", args->tiles_m, "tiles along M (sm100: 256-row cluster tiles; sm90: work tiles)")
          ->capture_default_str();
      cmd->add_option("--tiles-n", args->tiles_n, "tiles along N (synthetic: number of tiles)")->capture_default_str();
      cmd->add_option("--k-blocks", args->k_blocks, "K / 64")->capture_default_str();
      cmd->add_option("--clusters", args->clusters, "resident clusters (sm100) or persistent workers (k08/k09)")
          ->capture_default_str();
      cmd->add_option("--cluster-m", args->cluster_m, "sm90: CTAs per cluster along M (1 or 2)")->capture_default_str();
      cmd->add_option("--group", args->group, "k09: work-tile rows per band")->capture_default_str();
      cmd->add_option("--stages", args->stages, "synthetic: ring stages")->capture_default_str();
      cmd->add_option("--consumers", args->consumers, "synthetic: consumers")->capture_default_str();
      cmd->add_option("--store-boxes", args->store_boxes,
                      "k06-k09: store boxes per 64-row half (1..8; k10's 128 x 168 has 3)")
          ->capture_default_str();
      cmd->add_flag("--deferred-epilogue", args->deferred_epilogue,
                    "k08/k09: k10's deferred cooperative epilogue (a tile stored during the next unit's k-blocks)");
      cmd->add_flag("--warps", args->warps, "sm100: one role per epilogue warp (default: the four in lockstep)");
      cmd->add_flag("--exhaustive", args->exhaustive,
                    "search every interleaving (kernels with a 2-stage ring) instead of one random one");
      cmd->add_option("--max-states", args->max_states,
                      "bound of --exhaustive, 1..2000000; reaching it ends with exit status 4 (not a violation)")
          ->capture_default_str();
      cmd->add_option("--max-steps", args->max_steps,
                      "bound of one random schedule, 1..10000000; reaching it ends with exit status 4 (not a "
                      "violation)")
          ->capture_default_str();
      cmd->add_option("--mutate", args->mutate, "inject a bug through the binding (see the error for the list)");
      cmd->add_option("--exit", args->exit,
                      "k06-k09: how a CTA leaves: barrier (a cluster barrier at the end, as the kernels do) or tail "
                      "(no exit barrier; the producer waits for its ring's last releases)")
          ->capture_default_str();
      cmd->callback([args, cmd] {
        // A violation is a finding, not bad input: exit status 1 (main prints the line).
        // A run cut short by a limit: exit status 4, its line printed above.
        const int status = run_sim(*args, cmd);
        if (status == kExitLimit)
          throw CommandExit{kExitLimit, "sim stopped at a limit before the schedule finished (not a violation)"};
        if (status != kExitClean) throw std::runtime_error("the schedule broke a check (see above)");
      });
    }};

}  // namespace
}  // namespace gemmscope::cli
