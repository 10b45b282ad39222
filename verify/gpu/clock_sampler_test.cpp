// bench --clocks reads the SM clock from NVML (harness::ClockSampler). Here that
// reading is held to the silicon's own count: while one block per SM spins for 50 ms,
// the NVML samples' mean must match %clock64 cycles over %globaltimer nanoseconds
// within 5%. Label "gpu": skipped where there is no GPU, and where the driver's NVML
// cannot be opened.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "harness/clock_sampler.hpp"
#include "harness/harness.hpp"

namespace gemmscope::harness {
namespace {

TEST(ClockSampler, NvmlClockMatchesTheSmCycleCounter) {
  std::string why;
  if (!gpu_available(&why)) {
    std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
    GTEST_SKIP() << "no GPU";
  }
  ClockSampler sampler(0, std::chrono::microseconds(100));
  if (!sampler.available()) GTEST_SKIP() << "NVML unavailable: " << sampler.why_unavailable();
  measure_sm_clock_mhz(20'000);  // out of idle first
  ClockTally tally;
  sampler.begin(&tally, std::chrono::microseconds(2'000));
  const double counted = measure_sm_clock_mhz(50'000);
  sampler.end();
  std::printf("SM clock: %.1f MHz counted on the SMs, %.1f MHz mean of %llu NVML samples (%u-%u)\n", counted,
              tally.mean_mhz(), static_cast<unsigned long long>(tally.samples), tally.min_mhz, tally.max_mhz);
  ASSERT_GE(tally.samples, 20u) << "a sample every 100 us over about 48 ms";
  EXPECT_GT(counted, 100.0);
  EXPECT_NEAR(tally.mean_mhz(), counted, 0.05 * counted);
}

}  // namespace
}  // namespace gemmscope::harness
