// The list of sm100 probes, the sm_100 check and their run (no CUDA here: the
// device is queried in the runner's child process, never in this one).
#include "probes/sm100_probes.hpp"

#include <ostream>
#include <sstream>

namespace gemmscope::probes {

std::vector<ProbeDefinition> sm100_probes() {
  return {sm100_tmem_ldst_probe(), sm100_tmem_alloc_probe(), sm100_mma_pair_probe(), sm100_smem_desc_probe(),
          sm100_clc_order_probe()};
}

std::vector<ProbeListing> list_sm100_probes(const ProbeOptions& options) {
  std::vector<ProbeListing> out;
  for (const ProbeDefinition& def : sm100_probes())
    out.push_back({def.name, def.description, def.settles, def.make_cases(options).size()});
  return out;
}

std::string sm100_skip_reason(const traces::GpuInfo& gpu) {
  if (gpu.compute_major == 10 && gpu.compute_minor == 0) return "";
  return "needs an sm_100 GPU; this is " + gpu.name + " sm_" + std::to_string(gpu.compute_major) +
         std::to_string(gpu.compute_minor);
}

namespace {
constexpr const char* kSkipTag = "sm100 skip: ";
}

int run_sm100_probes(const RunOptions& options, std::ostream& log, std::ostream& err) {
  // The runner queries the device in its child; a GPU that is not sm_100 is reported
  // as "no device" there, before any case runs or any file is written.
  const GpuQuery query = [] {
    const traces::GpuInfo gpu = query_gpu();
    if (const std::string why = sm100_skip_reason(gpu); !why.empty()) throw NoDeviceError(kSkipTag + why);
    return gpu;
  };
  std::ostringstream runner_err;
  const int status = run_probe_definitions(sm100_probes(), options, log, runner_err, query);
  const std::string text = runner_err.str();
  if (status == kProbeExitNoDevice) {
    if (const auto at = text.find(kSkipTag); at != std::string::npos) {
      std::string why = text.substr(at + std::string(kSkipTag).size());
      while (!why.empty() && why.back() == '\n') why.pop_back();
      err << "gemmscope probe --arch sm100: skipped: " << why << "\n";
      return kProbeExitNoDevice;
    }
  }
  err << text;
  return status;
}

}  // namespace gemmscope::probes
