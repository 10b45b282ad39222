#pragma once
// CUDA helpers shared by the probe kernels' host code: every runtime call checked,
// device buffers freed on every path, bounded device-side waits.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#if defined(__CUDACC__)
#include <cuda/ptx>
#endif

#include <cstdint>
#include <string>
#include <vector>

#include "probe.hpp"

namespace gemmscope::probes {

// Throws ProbeError("<call> failed at <file>:<line>: <cudaErrorName>: <string>").
void check_cuda(cudaError_t status, const char* call, const char* file, int line);
#define GEMMSCOPE_PROBE_CUDA(call) ::gemmscope::probes::check_cuda((call), #call, __FILE__, __LINE__)

// Launch check: the launch itself, then the kernel's completion.
#define GEMMSCOPE_PROBE_LAUNCHED()                        \
  do {                                                    \
    GEMMSCOPE_PROBE_CUDA(cudaGetLastError());             \
    GEMMSCOPE_PROBE_CUDA(cudaDeviceSynchronize());        \
  } while (0)

// A device allocation of `count` T, zero-filled, freed by the destructor.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    GEMMSCOPE_PROBE_CUDA(cudaMalloc(&ptr_, bytes()));
    GEMMSCOPE_PROBE_CUDA(cudaMemset(ptr_, 0, bytes()));
  }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);  // the error, if any, was reported by the call that caused it
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw ProbeError("DeviceBuffer::upload: size mismatch");
    GEMMSCOPE_PROBE_CUDA(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    GEMMSCOPE_PROBE_CUDA(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// cuTensorMapEncodeTiled, reached through the runtime's driver entry point (the
// probes never link libcuda); throws ProbeError when the driver lacks it.
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_entry();

// Sets the dynamic shared-memory limit of a kernel (needed above 48 KiB).
template <typename Kernel>
void allow_dynamic_smem(Kernel kernel, int bytes) {
  GEMMSCOPE_PROBE_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

#if defined(__CUDACC__)
// Nanoseconds since an arbitrary epoch (PTX ISA %globaltimer): bounds device-side
// waits so that a wrong expectation records a timeout instead of hanging the GPU.
__device__ __forceinline__ uint64_t probe_globaltimer_ns() { return cuda::ptx::get_sreg_globaltimer(); }
inline constexpr uint64_t kDeviceWaitLimitNs = 200'000'000;  // 0.2 s
#endif

}  // namespace gemmscope::probes

#if defined(__CUDACC__)
namespace gemmscope::probes {

// Waits for phase `parity` of the mbarrier, at most kDeviceWaitLimitNs; false on timeout.
__device__ __forceinline__ bool probe_wait_parity(uint64_t* bar, uint32_t parity) {
  const uint64_t start = probe_globaltimer_ns();
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, parity)) {
    if (probe_globaltimer_ns() - start > kDeviceWaitLimitNs) return false;
  }
  return true;
}

__device__ __forceinline__ uint32_t probe_smem_u32(const void* ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

}  // namespace gemmscope::probes
#endif
