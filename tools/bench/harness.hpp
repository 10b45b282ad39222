#pragma once
// The GPU-vs-CPU harness shared by `gemmscope check`, `gemmscope bench` and the
// GPU tests: random bf16 inputs, device buffers, the Eigen reference, the error
// bound, and the interleaved benchmark against cuBLASLt.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gemmscope/gemm.hpp"
#include "gemmscope/testing/differential.hpp"
#include "gemmscope/testing/reference.hpp"
#include "bench/bench_report.hpp"

namespace gemmscope::harness {

// True when a CUDA device is usable; `why` says what is missing otherwise.
using testing::gpu_available;

// Host-side bf16 problem with fresh normal(0,1) inputs drawn from `seed`.
struct HostProblem {
  GemmShape shape;
  std::vector<bf16> a, b;  // M x K, N x K, row-major
  static HostProblem random(const GemmShape& shape, uint64_t seed);
};

// The reference and the error bound are the testing kit's (gemmscope/testing/reference.hpp):
// C = A * B^T in double precision from the same bf16 inputs, and the K-scaled bound.
using testing::Comparison;
using testing::Reference;
inline Reference reference_gemm(const HostProblem& p) {
  return testing::reference_gemm({p.shape.m, p.shape.n, p.shape.k}, reinterpret_cast<const uint16_t*>(p.a.data()),
                                 reinterpret_cast<const uint16_t*>(p.b.data()));
}
inline Comparison compare(const HostProblem& p, const Reference& ref, const std::vector<bf16>& c) {
  return testing::compare({p.shape.m, p.shape.n, p.shape.k}, ref, reinterpret_cast<const uint16_t*>(c.data()));
}

// Device copy of a problem; C poisoned with NaN (0xFFFF) before each run.
class DeviceProblem {
 public:
  explicit DeviceProblem(const HostProblem& p);
  ~DeviceProblem();
  DeviceProblem(const DeviceProblem&) = delete;
  DeviceProblem& operator=(const DeviceProblem&) = delete;
  void poison_c();
  std::vector<bf16> download_c() const;
  GemmOperands operands() const { return {a_, b_, c_}; }

 private:
  GemmShape shape_;
  bf16 *a_ = nullptr, *b_ = nullptr, *c_ = nullptr;
};

// FNV-1a (64 bit) of `bytes` bytes: a digest of an output that tells two runs apart
// when a single bit differs (`gemmscope check --digest`); not a cryptographic hash.
uint64_t fnv1a64(const void* data, size_t bytes);

// Runs `kernel` (any name of the kernel registry) on a fresh random problem and
// checks it against the reference. Throws GemmError for an unknown name.
struct CaseResult {
  GemmShape shape;
  std::string kernel;
  bool ran = false;       // false when the kernel refused the problem (refusal holds why)
  std::string refusal;
  Comparison cmp;
  double gpu_ms = 0;
  uint64_t c_fnv1a64 = 0;  // fnv1a64 of C's bytes as the kernel left them (when ran)
};
CaseResult run_case(const std::string& kernel, const HostProblem& p, const Reference& ref);

// ---- benchmark -----------------------------------------------------------
struct BenchOptions {
  std::vector<std::string> kernels;  // names of the kernel registry (gemmscope/kernel_registry.hpp)
  std::vector<GemmShape> shapes;
  std::vector<std::string> labels;   // optional, one per shape ("llama3-8b/qkv" from a shape set)
  int warmup = 5;
  int repeats = 30;
  uint64_t seed = 1;
  bool progress = true;
  // Evict L2's dirty lines before each timed batch (L2Cleaner), so no kernel pays for
  // the write-backs of the one timed before it (a split-K or stream-K workspace, C).
  bool clean_l2 = false;
  // Sample the SM clock and NVML's clocks-event reasons during each kernel's timed
  // batches (ClockSampler), into the rows' sm_clock_mhz, power_capped_pct, ...
  bool clocks = false;
};
BenchReport run_bench(const BenchOptions& options);
// A zeroed scratch buffer of twice `l2_bytes`; run() reads it on the stream, so L2
// then holds clean lines only and the write-backs of the dirty ones happen there, not
// in the next kernel.
class L2Cleaner {
 public:
  explicit L2Cleaner(int64_t l2_bytes);
  ~L2Cleaner();
  L2Cleaner(const L2Cleaner&) = delete;
  L2Cleaner& operator=(const L2Cleaner&) = delete;
  void run(cudaStream_t stream) const;

 private:
  void* data_ = nullptr;      // 2 x l2_bytes, zeros
  uint32_t* sink_ = nullptr;  // never written (the loads must stay)
  size_t bytes_ = 0;
};
// Occupies the GPU for `microseconds` (one tiny block spinning on %globaltimer):
// queued before a timed batch so that host launch overhead is not timed.
void spin_gpu(cudaStream_t stream, double microseconds);
inline constexpr double kSpinBeforeBatchUs = 300;
// The mean SM clock, in MHz, over one block per SM spinning for `microseconds`:
// %clock64 cycles over %globaltimer nanoseconds (waits for the kernel).
double measure_sm_clock_mhz(double microseconds);
// Launches of one kernel queued back to back behind each spin, each between its own
// pair of events: bench's rounds, and tune's refine round, so that the tune's pick
// is timed as the bench will time it (tune's first round, over every candidate,
// times 2 a round to keep a sweep short).
inline constexpr int kBatchLaunches = 4;
// One timed batch, as bench and tune take it: a spin (kSpinBeforeBatchUs), then
// `launches` (1..kBatchLaunches) calls launch(i) queued back to back, each between
// its own pair of events; time() waits for the last and returns each launch's ms.
// A GPU error while waiting throws, naming `what`.
class BatchTimer {
 public:
  BatchTimer();
  ~BatchTimer();
  BatchTimer(const BatchTimer&) = delete;
  BatchTimer& operator=(const BatchTimer&) = delete;
  std::vector<float> time(cudaStream_t stream, int launches, const std::function<void(int)>& launch,
                          const std::string& what);

 private:
  cudaEvent_t ev_[2 * kBatchLaunches] = {};
};
// GPU, SMs, L2, driver, runtime, SM clock now, commit, date.
BenchEnvironment collect_environment();
double median_of(const std::vector<float>& v);
// How many input/output sets bench and tune rotate through for a shape: together
// more than 3x L2, at least 2, so every launch reads its operands from HBM.
int rotation_sets(const GemmShape& shape, int64_t l2_bytes);

// "4096x4096x4096,512x8192x5376" -> shapes; throws GemmError naming the bad item.
std::vector<GemmShape> parse_shapes(const std::string& text);

}  // namespace gemmscope::harness
