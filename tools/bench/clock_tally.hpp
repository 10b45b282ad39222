#pragma once
// What the SM clock did while one kernel's timed batches ran (bench --clocks): the
// samples harness::ClockSampler reads from NVML, reduced here. Plain C++, so the CPU
// tests hold the reduction and the peak arithmetic.
#include <cstdint>
#include <limits>

namespace gemmscope::harness {

// NVML's clocks-event reason bits (nvml.h, nvmlClocksEventReason*, as the NVML API
// reference lists them). The sampler reads them with the clock.
inline constexpr unsigned long long kNvmlReasonGpuIdle = 0x1;
inline constexpr unsigned long long kNvmlReasonSwPowerCap = 0x4;
inline constexpr unsigned long long kNvmlReasonHwSlowdown = 0x8;
inline constexpr unsigned long long kNvmlReasonSwThermal = 0x20;
inline constexpr unsigned long long kNvmlReasonHwThermal = 0x40;
inline constexpr unsigned long long kNvmlReasonHwPowerBrake = 0x80;
// The clock held down by the software power cap (the board's power limit), or by a
// hardware slowdown (thermal, power brake, or HW slowdown itself).
inline constexpr unsigned long long kPowerCapReasons = kNvmlReasonSwPowerCap;
inline constexpr unsigned long long kSlowdownReasons =
    kNvmlReasonHwSlowdown | kNvmlReasonSwThermal | kNvmlReasonHwThermal | kNvmlReasonHwPowerBrake;

// Dense bf16 tensor-core work per SM per clock on sm_90: NVIDIA's H100 SXM figure of
// 989.4 TFLOP/s (dense BF16, 132 SMs at the 1830 MHz boost clock) is 4096 flops per SM
// per clock (2048 FMAs per SM per clock, 2 flops each).
inline constexpr double kSm90DenseBf16FlopsPerSmClock = 4096;

struct ClockTally {
  uint64_t samples = 0;
  uint64_t power_capped = 0;  // samples with a kPowerCapReasons bit set
  uint64_t slowed = 0;        // samples with a kSlowdownReasons bit set
  double sum_mhz = 0;
  unsigned min_mhz = std::numeric_limits<unsigned>::max(), max_mhz = 0;

  void add(unsigned mhz, unsigned long long reasons) {
    ++samples;
    sum_mhz += mhz;
    if (mhz < min_mhz) min_mhz = mhz;
    if (mhz > max_mhz) max_mhz = mhz;
    if (reasons & kPowerCapReasons) ++power_capped;
    if (reasons & kSlowdownReasons) ++slowed;
  }
  double mean_mhz() const { return samples ? sum_mhz / static_cast<double>(samples) : 0; }
  double power_capped_pct() const { return samples ? 100.0 * static_cast<double>(power_capped) / samples : 0; }
  double slowdown_pct() const { return samples ? 100.0 * static_cast<double>(slowed) / samples : 0; }
};

// Percent of the dense bf16 tensor peak that `tflops` is at an SM clock of `mhz` on
// `sm_count` SMs of sm_90; 0 where the clock is unknown.
inline double sm90_tensor_peak_pct(double tflops, double mhz, int sm_count) {
  if (mhz <= 0 || sm_count <= 0) return 0;
  const double peak_tflops = kSm90DenseBf16FlopsPerSmClock * sm_count * mhz * 1e6 / 1e12;
  return 100.0 * tflops / peak_tflops;
}

}  // namespace gemmscope::harness
