// The C ABI's GEMM: gemmscope::gemm on the caller's pointers and stream, and the
// benchmark harness's timed batches (gemmscope bench's method) for Python to hold its
// own timing against. Without the CUDA kernels (GEMMSCOPE_CAPI_KERNELS undefined) or
// the harness (GEMMSCOPE_CAPI_BENCH) each entry point says so.
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "capi_internal.hpp"
#include "gemmscope_capi.h"

#ifdef GEMMSCOPE_CAPI_KERNELS
#include <cuda_runtime.h>

#ifdef GEMMSCOPE_CAPI_BENCH
#include "bench/harness.hpp"
#endif
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

gs_gemm_args args_of(const void* block) {
  gs_gemm_args a;
  std::memcpy(&a, block, sizeof a);
  return a;
}

int device_of(int64_t device) {
  if (device < -1 || device > (1 << 20))
    throw std::invalid_argument("device = " + std::to_string(device) + " must be -1 or a CUDA device index");
  return static_cast<int>(device);
}

#ifdef GEMMSCOPE_CAPI_BENCH
// The registry's kernels by name, resolved and kept (as bench resolves each name once).
const RunnableKernel& kernel_named(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, RunnableKernel> kernels;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = kernels.find(name);
  if (it == kernels.end()) it = kernels.emplace(name, resolve_kernel(name)).first;
  return it->second;
}
#endif

}  // namespace
}  // namespace gemmscope::capi

extern "C" {

int gs_have_kernels(void) { return 1; }

int gs_gemm_launch(const void* args, const char* kernel) {
  return gemmscope::capi::guard([&] {
    const gs_gemm_args a = gemmscope::capi::args_of(args);
    gemmscope::capi::run(a.m, a.n, a.k, reinterpret_cast<const void*>(a.a), reinterpret_cast<const void*>(a.b),
                         reinterpret_cast<void*>(a.c), a.stream, gemmscope::capi::device_of(a.device), kernel);
  });
}

#ifdef GEMMSCOPE_CAPI_BENCH
int gs_bench_plan(int64_t m, int64_t n, int64_t k, int device, int64_t* sets, int64_t* launches, double* spin_us) {
  return gemmscope::capi::guard([&] {
    using namespace gemmscope;
    constexpr int64_t kLimit = int64_t{1} << 31;
    if (m < 1 || n < 1 || k < 1 || m >= kLimit || n >= kLimit || k >= kLimit)
      throw GemmError("M, N, K = " + std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k) +
                      " must each be in 1..2^31-1");
    const GemmShape s{m, n, k};
    if (device < 0) check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    int l2_bytes = 0;
    check_cuda(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
    *sets = harness::rotation_sets(s, l2_bytes);
    *launches = harness::kBatchLaunches;
    *spin_us = harness::kSpinBeforeBatchUs;
  });
}

int gs_bench_spin(uintptr_t stream, int device, double microseconds) {
  return gemmscope::capi::guard([&] {
    if (!(microseconds >= 0 && microseconds <= 1e6))
      throw std::invalid_argument("microseconds = " + std::to_string(microseconds) + " must be in 0..1000000");
    gemmscope::capi::DeviceScope scope(device);
    gemmscope::harness::spin_gpu(reinterpret_cast<cudaStream_t>(stream), microseconds);
  });
}

int gs_bench_batch(const gs_gemm_args* problems, int64_t launches, const char* kernel, float* ms) {
  return gemmscope::capi::guard([&] {
    using namespace gemmscope;
    if (launches < 1 || launches > harness::kBatchLaunches)
      throw std::invalid_argument("launches = " + std::to_string(launches) + " must be in 1.." +
                                  std::to_string(harness::kBatchLaunches));
    std::vector<gs_gemm_args> p(static_cast<size_t>(launches));
    std::memcpy(p.data(), problems, p.size() * sizeof(gs_gemm_args));
    const GemmShape s{p[0].m, p[0].n, p[0].k};
    for (const gs_gemm_args& q : p)
      if (q.m != s.m || q.n != s.n || q.k != s.k || q.stream != p[0].stream || q.device != p[0].device)
        throw std::invalid_argument("gs_bench_batch: the problems of a batch must share shape, stream and device");
    const std::string name = kernel ? kernel : "auto";
    const RunnableKernel& k = capi::kernel_named(name);
    capi::DeviceScope scope(capi::device_of(p[0].device));
    const auto stream = reinterpret_cast<cudaStream_t>(p[0].stream);
    auto ops = [&](int i) {
      return capi::operands_of(reinterpret_cast<const void*>(p[i].a), reinterpret_cast<const void*>(p[i].b),
                               reinterpret_cast<void*>(p[i].c));
    };
    for (int i = 0; i < launches; ++i)
      if (const std::string why = k.can_implement(s, ops(i)); !why.empty()) throw GemmError(name + ": " + why);
    k.prepare(s, stream);
    // One timer per thread and device: its events are created once, as bench creates them once.
    int current = 0;
    check_cuda(cudaGetDevice(&current), "cudaGetDevice");
    thread_local std::map<int, std::unique_ptr<harness::BatchTimer>> timers;
    std::unique_ptr<harness::BatchTimer>& timer = timers[current];
    if (!timer) timer = std::make_unique<harness::BatchTimer>();
    const std::vector<float> times =
        timer->time(stream, static_cast<int>(launches), [&](int i) { k.launch(s, ops(i), stream); }, "running " + name);
    std::copy(times.begin(), times.end(), ms);
  });
}

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

#else  // built without the benchmark harness (GEMMSCOPE_BUILD_TOOLS=OFF)

static int no_harness() {
  gemmscope::capi::error_text() =
      "gemmscope.timing: this gemmscope was built without the benchmark harness (GEMMSCOPE_BUILD_TOOLS=OFF)";
  return GS_UNAVAILABLE;
}
int gs_bench_plan(int64_t, int64_t, int64_t, int, int64_t*, int64_t*, double*) { return no_harness(); }
int gs_bench_spin(uintptr_t, int, double) { return no_harness(); }
int gs_bench_batch(const gs_gemm_args*, int64_t, const char*, float*) { return no_harness(); }

#endif

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

int gs_gemm_launch(const void*, const char*) { return unavailable(); }

int gs_gemm_dispatch(int64_t, int64_t, int64_t, const void*, const void*, void*, const char*, const char**) {
  return unavailable();
}

int gs_bench_plan(int64_t, int64_t, int64_t, int, int64_t*, int64_t*, double*) { return unavailable(); }

int gs_bench_spin(uintptr_t, int, double) { return unavailable(); }

int gs_bench_batch(const gs_gemm_args*, int64_t, const char*, float*) { return unavailable(); }

int gs_gemm_host_seconds(int64_t, int64_t, int64_t, const void*, const void*, void*, uintptr_t, int, const char*,
                         int64_t, double*) {
  return unavailable();
}

}  // extern "C"

#endif
