// The C ABI's GEMM: gemmscope::gemm on the caller's pointers and stream. Without the
// CUDA kernels (GEMMSCOPE_CAPI_KERNELS undefined) each entry point says so.
#include <chrono>
#include <string>

#include "capi_internal.hpp"
#include "gemmscope_capi.h"

#ifdef GEMMSCOPE_CAPI_KERNELS
#include <cuda_runtime.h>

#include "gemmscope/gemm.hpp"
#include "gemmscope/kernel_registry.hpp"

namespace gemmscope::capi {
namespace {

// Makes `device` current for the scope (the launch goes to the current device), then
// restores the caller's; -1 leaves the current device alone.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (device < 0) return;
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) {
      check_cuda(cudaSetDevice(device), "cudaSetDevice");
      switched_ = true;
    }
  }
  ~DeviceScope() {
    if (switched_) cudaSetDevice(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

GemmShape shape_of(int64_t m, int64_t n, int64_t k) { return {m, n, k}; }
GemmOperands operands_of(const void* a, const void* b, void* c) {
  return {static_cast<const bf16*>(a), static_cast<const bf16*>(b), static_cast<bf16*>(c)};
}

void run(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, uintptr_t stream, int device,
         const char* kernel) {
  DeviceScope scope(device);
  gemm(shape_of(m, n, k), operands_of(a, b, c), reinterpret_cast<cudaStream_t>(stream), kernel ? kernel : "auto");
}

}  // namespace
}  // namespace gemmscope::capi

extern "C" {

int gs_have_kernels(void) { return 1; }

int gs_gemm(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, uintptr_t stream, int device,
            const char* kernel) {
  return gemmscope::capi::guard([&] { gemmscope::capi::run(m, n, k, a, b, c, stream, device, kernel); });
}

int gs_gemm_dispatch(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, const char* kernel,
                     const char** name) {
  return gemmscope::capi::guard([&] {
    using namespace gemmscope;
    const RunnableKernel r = resolve_kernel(kernel ? kernel : "auto");
    capi::give(r.dispatch(capi::shape_of(m, n, k), capi::operands_of(a, b, c)), name);
  });
}

int gs_gemm_host_seconds(int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c, uintptr_t stream,
                         int device, const char* kernel, int64_t calls, double* seconds) {
  return gemmscope::capi::guard([&] {
    if (calls < 1) throw std::invalid_argument("calls = " + std::to_string(calls) + " must be at least 1");
    gemmscope::capi::run(m, n, k, a, b, c, stream, device, kernel);  // warm-up: first-use work
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < calls; ++i) gemmscope::capi::run(m, n, k, a, b, c, stream, device, kernel);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    *seconds = elapsed.count() / static_cast<double>(calls);
  });
}

}  // extern "C"

#else  // built without the kernels

namespace {
int unavailable() {
  gemmscope::capi::error_text() =
      "gemmscope.gemm: this gemmscope was built without the CUDA kernels (GEMMSCOPE_BUILD_KERNELS=OFF); "
      "rebuild with them on a machine with nvcc";
  return GS_UNAVAILABLE;
}
}  // namespace

extern "C" {

int gs_have_kernels(void) { return 0; }

int gs_gemm(int64_t, int64_t, int64_t, const void*, const void*, void*, uintptr_t, int, const char*) {
  return unavailable();
}

int gs_gemm_dispatch(int64_t, int64_t, int64_t, const void*, const void*, void*, const char*, const char**) {
  return unavailable();
}

int gs_gemm_host_seconds(int64_t, int64_t, int64_t, const void*, const void*, void*, uintptr_t, int, const char*,
                         int64_t, double*) {
  return unavailable();
}

}  // extern "C"

#endif
