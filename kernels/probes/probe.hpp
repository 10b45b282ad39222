#pragma once
// The probe framework: each probe is a list of small, independent cases; a case
// runs one or a few kernels and returns what the hardware did as JSON. Host-side
// declarations only (no CUDA types), so the runner and the CLI compile with g++.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmscope/traces/golden.hpp"

namespace gemmscope::probes {

using Json = nlohmann::json;

// A probe case that could not run: a CUDA call failed, the driver refused a tensor
// map, a device-side wait timed out. The message names the call and the error.
class ProbeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable CUDA device (no GPU, no driver): the run stops with exit status 3.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ProbeOptions {
  // Banks only: launch each access pattern once, one kernel per pattern, so that
  // tools/ncu-banks can read per-launch counters (no timing repetitions).
  bool ncu_friendly = false;
};

struct ProbeCase {
  std::string name;    // unique inside the probe
  Json params;         // what the case set up (recorded in the golden trace)
  std::function<Json()> run;  // runs on the GPU; returns the observation; throws ProbeError
};

struct ProbeDefinition {
  std::string name;  // also the golden file's stem
  std::string description;
  std::vector<std::string> settles;  // the facts this probe settles
  // Builds the case list without touching CUDA (the runner builds it in the parent).
  std::function<std::vector<ProbeCase>(const ProbeOptions&)> make_cases;
};

ProbeDefinition tma_swizzle_probe();
ProbeDefinition ldmatrix_stmatrix_probe();
ProbeDefinition mbarrier_probe();
ProbeDefinition banks_timing_probe();
ProbeDefinition wgmma_desc_probe();
ProbeDefinition cluster_residency_probe();
ProbeDefinition tma_rate_probe();

// Every probe, in run order.
std::vector<ProbeDefinition> all_probes();

// The device the probes run on; throws NoDeviceError naming the CUDA error.
traces::GpuInfo query_gpu();

}  // namespace gemmscope::probes
