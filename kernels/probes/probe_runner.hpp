#pragma once
// Runs the hardware probes and writes one golden trace per probe.
// Robustness: each probe runs in a child process (fork); a case that fails (a CUDA
// error, a refused tensor map, a crash, a hang past the case timeout) is recorded
// as failed with its error and the run goes on with the next case in a fresh child,
// so one bad case never poisons the CUDA context of the others.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "probes/probe.hpp"

namespace gemmscope::probes {

// Exit statuses of `gemmscope probe`.
inline constexpr int kProbeExitOk = 0;
inline constexpr int kProbeExitSomeCasesFailed = 1;  // files written; failures recorded in them
inline constexpr int kProbeExitNoDevice = 3;

struct RunOptions {
  std::filesystem::path out_dir;
  std::vector<std::string> only;  // probe names; empty = all
  ProbeOptions probe;
  bool isolate = true;            // one child process per probe (off: in-process, for ncu)
  int case_timeout_s = 20;        // a case running longer is killed and recorded as failed
  std::string commit = "unknown";
};

struct ProbeListing {
  std::string name;
  std::string description;
  std::vector<std::string> settles;
  std::size_t case_count = 0;
};

std::vector<ProbeListing> list_probes(const ProbeOptions& options = {});

// Throws std::invalid_argument naming an unknown probe. Progress goes to `log`.
// Returns one of the kProbeExit* statuses; on no device prints "no CUDA device: ..." to `err`.
int run_probes(const RunOptions& options, std::ostream& log, std::ostream& err);

// The same, for any list of probes and any device query (the runner's own tests
// use fake probes and a fake device; this file needs no CUDA).
using GpuQuery = std::function<traces::GpuInfo()>;
int run_probe_definitions(const std::vector<ProbeDefinition>& defs, const RunOptions& options, std::ostream& log,
                          std::ostream& err, const GpuQuery& query);

// The commit compiled in (GEMMSCOPE_BUILD_COMMIT), overridden by env GEMMSCOPE_COMMIT.
std::string probe_commit();

}  // namespace gemmscope::probes
