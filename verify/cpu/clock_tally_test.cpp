// bench --clocks' reduction of NVML samples (tools/bench/clock_tally.hpp), plain
// C++: the reason bits and the peak arithmetic against NVIDIA's published figures.
// Runs in both CPU builds (with and without the kernels).
#include <gtest/gtest.h>

#include "bench/clock_tally.hpp"

namespace gemmscope::harness {
namespace {

// The NVML reason bits as the NVML API reference lists them (nvmlClocksEventReason*):
// GpuIdle 0x1, SwPowerCap 0x4, HwSlowdown 0x8, SwThermalSlowdown 0x20,
// HwThermalSlowdown 0x40, HwPowerBrakeSlowdown 0x80.
TEST(ClockTally, MeanExtremesAndReasonShares) {
  ClockTally t;
  EXPECT_EQ(t.mean_mhz(), 0);
  EXPECT_EQ(t.power_capped_pct(), 0);
  t.add(1980, 0x0);
  t.add(1500, 0x4);          // power cap
  t.add(1400, 0x4 | 0x40);   // power cap and HW thermal slowdown
  t.add(345, 0x1);           // idle: neither
  t.add(1200, 0x80);         // power brake: a slowdown, not the cap
  EXPECT_EQ(t.samples, 5u);
  EXPECT_DOUBLE_EQ(t.mean_mhz(), (1980.0 + 1500 + 1400 + 345 + 1200) / 5);
  EXPECT_EQ(t.min_mhz, 345u);
  EXPECT_EQ(t.max_mhz, 1980u);
  EXPECT_DOUBLE_EQ(t.power_capped_pct(), 40.0);
  EXPECT_DOUBLE_EQ(t.slowdown_pct(), 40.0);
  ClockTally slow;
  slow.add(1000, 0x8);
  slow.add(1000, 0x20);
  EXPECT_DOUBLE_EQ(slow.slowdown_pct(), 100.0);
  EXPECT_DOUBLE_EQ(slow.power_capped_pct(), 0.0);
}

// NVIDIA's H100 SXM datasheet figure, 989.4 dense BF16 TFLOP/s on 132 SMs at the
// 1830 MHz boost clock, is the whole peak; half the clock doubles the share.
TEST(ClockTally, Sm90TensorPeakPercentMatchesThePublishedPeak) {
  EXPECT_NEAR(sm90_tensor_peak_pct(989.4, 1830, 132), 100.0, 0.05);
  EXPECT_NEAR(sm90_tensor_peak_pct(494.7, 915, 132), 100.0, 0.05);
  EXPECT_NEAR(sm90_tensor_peak_pct(494.7, 1830, 132), 50.0, 0.05);
  EXPECT_EQ(sm90_tensor_peak_pct(500, 0, 132), 0);
  EXPECT_EQ(sm90_tensor_peak_pct(500, 1500, 0), 0);
}

}  // namespace
}  // namespace gemmscope::harness
