// The GPC of each cluster of a persistent launch (host/placement.hpp).
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <numeric>
#include <utility>
#include <vector>

#include "host/placement.hpp"

namespace gemmscope::sm90 {
namespace {

constexpr int kThreads = 128, kSmemBytes = 200 * 1024;  // one CTA per SM
constexpr uint64_t kSpinNs = 20'000;

__global__ void record_smid_and_spin(uint32_t* smid) {
  extern __shared__ uint8_t smem[];
  const uint64_t t0 = cuda::ptx::get_sreg_globaltimer();
  if (threadIdx.x == 0) {
    smid[blockIdx.x] = cuda::ptx::get_sreg_smid();
    smem[0] = 1;
  }
  while (cuda::ptx::get_sreg_globaltimer() - t0 < kSpinNs) {
  }
}

// The SM of every CTA of a launch of the resident count of clusters of `size`;
// empty on any CUDA error (cleared, so it does not leak into the caller's checks).
std::vector<uint32_t> launch_and_record(int size) {
  std::vector<uint32_t> out;
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(size);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(static_cast<unsigned>(size));
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = kSmemBytes;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  uint32_t* smid = nullptr;
  bool ok = cudaOccupancyMaxActiveClusters(&clusters, record_smid_and_spin, &cfg) == cudaSuccess && clusters > 0;
  const size_t ctas = static_cast<size_t>(clusters) * static_cast<size_t>(size);
  ok = ok && cudaMalloc(&smid, ctas * sizeof(uint32_t)) == cudaSuccess;
  if (ok) {
    cfg.gridDim = dim3(static_cast<unsigned>(ctas));
    ok = cudaLaunchKernelEx(&cfg, record_smid_and_spin, smid) == cudaSuccess &&
         cudaDeviceSynchronize() == cudaSuccess;
    if (ok) {
      out.resize(ctas);
      ok = cudaMemcpy(out.data(), smid, ctas * sizeof(uint32_t), cudaMemcpyDeviceToHost) == cudaSuccess;
    }
  }
  if (smid) cudaFree(smid);
  if (!ok) {
    out.clear();
    (void)cudaGetLastError();
  }
  return out;
}

int find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

std::vector<int> search(int size) {
  if (cudaFuncSetAttribute(record_smid_and_spin, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  // Non-portable clusters of 16 where the device allows them; clusters of 8 always.
  const bool big = cudaFuncSetAttribute(record_smid_and_spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) ==
                   cudaSuccess;
  if (!big) (void)cudaGetLastError();
  std::vector<int> parent;
  auto join = [&](const std::vector<uint32_t>& sms, int cluster) {
    for (const uint32_t sm : sms)
      if (sm >= parent.size()) {
        const size_t old = parent.size();
        parent.resize(sm + 1);
        std::iota(parent.begin() + static_cast<long>(old), parent.end(), static_cast<int>(old));
      }
    for (size_t i = 0; i + 1 < sms.size(); i += static_cast<size_t>(cluster))
      for (size_t j = i + 1; j < i + static_cast<size_t>(cluster) && j < sms.size(); ++j)
        parent[find(parent, static_cast<int>(sms[j]))] = find(parent, static_cast<int>(sms[i]));
  };
  for (const int grouping : {16, 8, 2}) {
    if (grouping == 16 && !big) continue;
    join(launch_and_record(grouping), grouping);
  }
  const std::vector<uint32_t> placed = launch_and_record(size);
  if (placed.empty()) return {};
  join(placed, size);
  std::vector<int> gpc(placed.size() / static_cast<size_t>(size));
  for (size_t c = 0; c < gpc.size(); ++c) gpc[c] = find(parent, static_cast<int>(placed[c * static_cast<size_t>(size)]));
  return gpc;
}

}  // namespace

std::vector<int> cluster_gpcs(int device, int cluster_size) {
  static std::mutex mutex;
  static std::map<std::pair<int, int>, std::vector<int>> found;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(device, cluster_size);
  if (auto it = found.find(key); it != found.end()) return it->second;
  int current = 0;
  if (cudaGetDevice(&current) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  if (current != device && cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  std::vector<int> gpc = search(cluster_size);
  if (current != device) cudaSetDevice(current);
  return found[key] = std::move(gpc);
}

}  // namespace gemmscope::sm90
