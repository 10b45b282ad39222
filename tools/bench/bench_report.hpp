#pragma once
// What `gemmscope bench` measured, and how it is written out: the rows, the
// environment they were measured in, the per-kernel summary, and the table, CSV and
// JSON forms. Plain C++ (no CUDA calls), so the CPU tests hold the writers to a
// JSON and CSV reader.
#include <cstdint>
#include <string>
#include <vector>

#include "gemmscope/gemm.hpp"

namespace gemmscope::harness {

struct BenchRow {
  std::string kernel;
  GemmShape shape;
  double median_ms = 0, min_ms = 0, max_ms = 0, spread_pct = 0;  // spread: (p90 - p10) / median
  double tflops = 0, ratio_to_cublas = 0;                       // ratio = cublas_time / time (>1 faster)
  int buffer_sets = 0;
  std::string note;                                             // refusal or error
  std::string label;                                            // the shape's name in a shape set
  std::string detail;                                           // "auto": what it dispatched to
  // bench --clocks: NVML samples taken while this kernel's timed batches ran (0 samples:
  // not sampled, and the columns below are empty). The SM clock's mean over them, the
  // share with the power cap or a hardware slowdown among the clocks-event reasons, and
  // the TFLOP/s as a percent of the dense bf16 tensor peak at that mean clock (sm_90;
  // 0, written empty, on a GPU whose peak the harness does not know).
  uint64_t clock_samples = 0;
  double sm_clock_mhz = 0, power_capped_pct = 0, slowdown_pct = 0, tensor_peak_pct = 0;
};
// Per kernel over all shapes it ran: geometric mean and minimum of the ratio to cuBLAS.
struct BenchSummary {
  std::string kernel;
  int shapes = 0;
  double geomean_ratio = 0, min_ratio = 0;
  std::string min_shape;
};
struct BenchEnvironment {
  std::string gpu, driver, cuda_runtime, sm_clock_before_mhz, sm_clock_after_mhz, commit, date;
  // What each timed batch found in L2: "as left" by the kernel timed before it, or
  // "cleaned" (bench --clean-l2: a read of twice L2 evicts the dirty lines first).
  std::string l2_before_batch = "as left";
  // "off", "NVML every 100 us", or "unavailable: <why>" (bench --clocks).
  std::string clock_sampling = "off";
  int sm_count = 0;
  int cc_major = 0;  // compute capability (9 on Hopper): which tensor peak applies
  int64_t l2_bytes = 0;
};
struct BenchReport {
  BenchEnvironment env;
  std::vector<BenchRow> rows;
  std::vector<BenchSummary> summary() const;
  std::string to_csv() const;
  std::string to_json() const;
  std::string to_table() const;  // one line per (kernel, shape)
};

}  // namespace gemmscope::harness
