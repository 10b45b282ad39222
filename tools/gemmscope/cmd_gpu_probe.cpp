// gemmscope probe: run the hardware probes on the GPU and write one golden trace
// per probe (traces/hw/README.md describes the files). --arch sm100 runs the
// Blackwell probes instead (kernels/probes/sm100_probes.hpp, docs/blackwell.md).
// Exit status: 0 every case ran, 1 some cases failed (recorded in the files), 2 bad
// input, 3 no usable CUDA device (for --arch sm100: any GPU but sm_100, with the reason).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "command.hpp"
#include "options.hpp"
#include "probes/probe_runner.hpp"
#include "probes/sm100_probes.hpp"

namespace gemmscope::cli {
namespace {

struct ProbeArgs {
  std::string arch = "sm90";
  bool all = false;
  bool list = false;
  std::vector<std::string> only;
  std::string out_dir;
  bool ncu_friendly = false;
  bool no_isolate = false;
  int case_timeout_s = 20;
};

void print_listing(const ProbeArgs& args, const probes::ProbeOptions& options) {
  const bool sm100 = args.arch == "sm100";
  for (const probes::ProbeListing& p : sm100 ? probes::list_sm100_probes(options) : probes::list_probes(options)) {
    std::printf("%-18s %3zu cases  %s\n", p.name.c_str(), p.case_count, p.description.c_str());
    for (const std::string& fact : p.settles) std::printf("%-18s            settles: %s\n", "", fact.c_str());
  }
}

void run(const ProbeArgs& args, const CLI::App* cmd) {
  probes::ProbeOptions probe_options;
  probe_options.ncu_friendly = args.ncu_friendly;
  if (args.list)
    refuse_options(cmd, {"--all", "--only", "--out", "--no-isolate", "--case-timeout"},
                   "with --list (it lists the probes, it runs none)");
  // alarm(0) would cancel the timeout: a hung case would hang the run.
  if (args.case_timeout_s < 1 || args.case_timeout_s > 600)
    throw std::invalid_argument("--case-timeout = " + std::to_string(args.case_timeout_s) + " must be in 1..600 s");
  if (args.list) {
    print_listing(args, probe_options);
    return;
  }
  if (args.all == !args.only.empty())
    throw std::invalid_argument("probe selection = none or both: give exactly one of --all, --only NAME, --list");
  if (args.out_dir.empty()) throw std::invalid_argument("--out = (empty) must name the folder for the golden traces");
  probes::RunOptions options;
  options.out_dir = args.out_dir;
  options.only = args.only;
  options.probe = probe_options;
  // ncu follows one process best, and its counters need one kernel per pattern.
  options.isolate = !(args.no_isolate || args.ncu_friendly);
  options.case_timeout_s = args.case_timeout_s;
  options.commit = probes::probe_commit();
  const int status = args.arch == "sm100" ? probes::run_sm100_probes(options, std::cout, std::cerr)
                                          : probes::run_probes(options, std::cout, std::cerr);
  std::cout.flush();
  std::cerr.flush();
  if (status != probes::kProbeExitOk) std::exit(status);
}

const Registration registration{"probe", [](CLI::App& root) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* cmd = root.add_subcommand(
      "probe",
      "Run the hardware probes on the GPU (sm_90a; --arch sm100 for Blackwell) and write golden traces (one JSON file "
      "per probe)");
  cmd->add_option("--arch", args->arch,
                  "sm90: the Hopper probes (traces/hw/); sm100: the Blackwell probes (traces/hw/sm100/), "
                  "skipped with the reason on any GPU but sm_100")
      ->check(CLI::IsMember({"sm90", "sm100"}))
      ->capture_default_str();
  cmd->add_flag("--all", args->all, "Run every probe");
  cmd->add_option("--only", args->only, "Run only this probe (repeatable); see --list");
  cmd->add_flag("--list", args->list, "List the probes, their case counts and the facts each settles");
  cmd->add_option("--out", args->out_dir, "Folder for the golden traces (created if missing)");
  cmd->add_flag("--ncu-friendly", args->ncu_friendly,
                "banks: one kernel launch per access pattern, no timing repeats, in-process (for tools/ncu-banks)");
  cmd->add_flag("--no-isolate", args->no_isolate,
                "Run cases in this process (a failed case then skips the rest of its probe)");
  cmd->add_option("--case-timeout", args->case_timeout_s, "Seconds before a hung case is ended (1..600)")
      ->capture_default_str();
  cmd->callback([args, cmd] { run(*args, cmd); });
}};

}  // namespace
}  // namespace gemmscope::cli
