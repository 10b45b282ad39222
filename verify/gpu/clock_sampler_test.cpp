// bench --clocks reads the SM clock from NVML (harness::ClockSampler). Here that
// reading is held to the silicon's own count: while one block per SM spins for 50 ms,
// the NVML samples' mean must match %clock64 cycles over %globaltimer nanoseconds
// within 5%. The one-shot read bench stamps before and after its shapes (NvmlClock)
// is held to the same count, and ClockSampler::Armed must stop its tally when its scope
// ends, by an exception too. Label "gpu": skipped where there is no GPU, and where the
// driver's NVML cannot be opened.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/clock_sampler.hpp"
#include "bench/harness.hpp"

namespace gemmscope::harness {
namespace {

// Every test here needs the GPU: skipped (the marker ctest's SKIP_REGULAR_EXPRESSION
// reads) where there is none.
class ClockSamplerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!gpu_available(&why)) {
      std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
      GTEST_SKIP() << "no GPU";
    }
  }
};

TEST_F(ClockSamplerTest, NvmlClockMatchesTheSmCycleCounter) {
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

TEST_F(ClockSamplerTest, OneReadMatchesTheSmCycleCounter) {
  const NvmlClock nvml(0);
  if (!nvml.available()) GTEST_SKIP() << "NVML unavailable: " << nvml.why_unavailable();
  measure_sm_clock_mhz(20'000);  // out of idle first
  unsigned before = 0, after = 0;
  unsigned long long reasons = 0;
  ASSERT_TRUE(nvml.sample(before, reasons));
  const double counted = measure_sm_clock_mhz(50'000);
  ASSERT_TRUE(nvml.sample(after, reasons));
  std::printf("SM clock: %.1f MHz counted, NVML read %u MHz before and %u MHz after\n", counted, before, after);
  // One read can catch a clock step; the two around the spin bracket the count's mean.
  EXPECT_GT(counted, 100.0);
  EXPECT_NEAR(0.5 * (before + after), counted, 0.10 * counted);
}

// The tally an Armed scope fed gets no sample once the scope is left, normally or by
// an exception thrown inside it.
TEST_F(ClockSamplerTest, ArmedStopsItsTallyWhenItsScopeEnds) {
  ClockSampler sampler(0, std::chrono::microseconds(100));
  if (!sampler.available()) GTEST_SKIP() << "NVML unavailable: " << sampler.why_unavailable();
  ClockTally normal, thrown;
  {
    const ClockSampler::Armed armed(&sampler, &normal, std::chrono::microseconds(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  try {
    const ClockSampler::Armed armed(&sampler, &thrown, std::chrono::microseconds(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    throw std::runtime_error("a batch failed");
  } catch (const std::runtime_error&) {
  }
  const auto n = normal.samples, t = thrown.samples;
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(n, 5u) << "a sample every 100 us over 10 ms";
  EXPECT_GE(t, 5u);
  EXPECT_EQ(normal.samples, n) << "samples after the scope ended";
  EXPECT_EQ(thrown.samples, t) << "samples after the exception left the scope";
  // A null sampler arms nothing.
  ClockTally none;
  { const ClockSampler::Armed armed(nullptr, &none, std::chrono::microseconds(0)); }
  EXPECT_EQ(none.samples, 0u);
}

}  // namespace
}  // namespace gemmscope::harness
