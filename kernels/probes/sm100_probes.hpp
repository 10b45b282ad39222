#pragma once
// The Blackwell (sm_100a) probes: tcgen05 and Tensor Memory, the 2-SM MMA, the sm100
// shared-memory descriptor and cluster launch control. Their kernels are compiled for
// sm_100a only (kernels/probes/sm100_probes.cmake); on any other GPU the run is
// skipped with the reason, and no file is written. `gemmscope probe --arch sm100`
// runs them; each writes one golden trace, meant for traces/hw/sm100/, which
// verify/cpu/sm100_probe_replay_test replays through the model (docs/blackwell.md).
// Host-side declarations only, like probe.hpp.
#include <iosfwd>
#include <string>
#include <vector>

#include "probes/probe.hpp"
#include "probes/probe_runner.hpp"

namespace gemmscope::probes {

ProbeDefinition sm100_tmem_ldst_probe();   // tcgen05.ld/st lane and column maps, every shape
ProbeDefinition sm100_tmem_alloc_probe();  // tcgen05.alloc placement, sizes, relinquish, dealloc
ProbeDefinition sm100_mma_pair_probe();    // accumulator layouts; the 2-SM MMA's operand split
ProbeDefinition sm100_smem_desc_probe();   // the sm100 descriptor: layouts, version, LBO mode, base offset
ProbeDefinition sm100_clc_order_probe();   // clusterlaunchcontrol.try_cancel: which clusters, in what order

// Every sm100 probe, in run order.
std::vector<ProbeDefinition> sm100_probes();
std::vector<ProbeListing> list_sm100_probes(const ProbeOptions& options = {});

// "" on a GPU of compute capability 10.0 (what sm_100a code runs on), else the reason:
// "needs an sm_100 GPU; this is NVIDIA H200 sm_90".
std::string sm100_skip_reason(const traces::GpuInfo& gpu);

// Runs the sm100 probes like run_probes. On a GPU that is not sm_100 (no usable GPU
// for these probes) it writes nothing, prints "gemmscope probe --arch sm100:
// skipped: <reason>" to `err` and returns kProbeExitNoDevice, as with no GPU at all.
int run_sm100_probes(const RunOptions& options, std::ostream& log, std::ostream& err);

}  // namespace gemmscope::probes
