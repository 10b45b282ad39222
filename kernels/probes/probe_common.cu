// check_cuda, the device query and the list of probes.
#include <iostream>

#include "probe_cuda.cuh"
#include "probe_runner.hpp"

namespace gemmscope::probes {

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  std::string where = file;
  if (const auto slash = where.find_last_of('/'); slash != std::string::npos) where = where.substr(slash + 1);
  throw ProbeError(std::string(call) + " failed at " + where + ":" + std::to_string(line) + ": " +
                   cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_entry() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult qres{};
  GEMMSCOPE_PROBE_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &qres));
  if (qres != cudaDriverEntryPointSuccess || fn == nullptr)
    throw ProbeError("cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled): symbol not found (query result " +
                     std::to_string(static_cast<int>(qres)) + ")");
  return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

traces::GpuInfo query_gpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    throw NoDeviceError(std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + ": " +
                        cudaGetErrorString(status));
  if (count == 0) throw NoDeviceError("cudaGetDeviceCount returned 0 devices");
  traces::GpuInfo info;
  cudaDeviceProp prop{};
  GEMMSCOPE_PROBE_CUDA(cudaGetDeviceProperties(&prop, 0));
  info.name = prop.name;
  info.compute_major = prop.major;
  info.compute_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  GEMMSCOPE_PROBE_CUDA(cudaDeviceGetAttribute(&info.clock_khz, cudaDevAttrClockRate, 0));
  GEMMSCOPE_PROBE_CUDA(cudaDriverGetVersion(&info.driver_version));
  GEMMSCOPE_PROBE_CUDA(cudaRuntimeGetVersion(&info.runtime_version));
  return info;
}

std::vector<ProbeDefinition> all_probes() {
  return {tma_swizzle_probe(), ldmatrix_stmatrix_probe(), mbarrier_probe(), banks_timing_probe(),
          wgmma_desc_probe(), cluster_residency_probe(), tma_rate_probe()};
}

std::vector<ProbeListing> list_probes(const ProbeOptions& options) {
  std::vector<ProbeListing> out;
  for (const ProbeDefinition& def : all_probes())
    out.push_back({def.name, def.description, def.settles, def.make_cases(options).size()});
  return out;
}

int run_probes(const RunOptions& options, std::ostream& log, std::ostream& err) {
  return run_probe_definitions(all_probes(), options, log, err, query_gpu);
}

}  // namespace gemmscope::probes
