#pragma once
// Samples the SM clock and NVML's clocks-event reasons in a thread while a timed
// batch runs (bench --clocks). NVML is opened at run time (dlopen of the driver's
// libnvidia-ml.so.1), so a machine without the driver still runs everything else.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "bench/clock_tally.hpp"

namespace gemmscope::harness {

// NVML opened for one CUDA device: its SM clock and clocks-event reasons, read on demand
// (bench's clock before and after its shapes, and each of ClockSampler's samples).
class NvmlClock {
 public:
  explicit NvmlClock(int cuda_device);
  ~NvmlClock();
  NvmlClock(const NvmlClock&) = delete;
  NvmlClock& operator=(const NvmlClock&) = delete;

  bool available() const { return nvml_ != nullptr; }
  // Why NVML could not be used ("libnvidia-ml.so.1: cannot open shared object file", ...).
  const std::string& why_unavailable() const { return why_; }
  // The SM clock in MHz and the reasons mask (0 where NVML cannot say); false where
  // NVML is unavailable or the read failed.
  bool sample(unsigned& mhz, unsigned long long& reasons) const;

 private:
  struct Nvml;
  Nvml* nvml_ = nullptr;
  std::string why_;
};

class ClockSampler {
 public:
  // For CUDA device `cuda_device`, a sample every `period`.
  ClockSampler(int cuda_device, std::chrono::microseconds period);
  ~ClockSampler();
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  bool available() const { return nvml_.available(); }
  const std::string& why_unavailable() const { return nvml_.why_unavailable(); }
  // Samples go into *into from `skip` after now until end() (bench skips the spin that
  // opens each timed batch). At most one tally at a time.
  void begin(ClockTally* into, std::chrono::microseconds skip = std::chrono::microseconds(0));
  // No sample reaches the tally after end() returns.
  void end();

  // begin() on construction and end() on destruction, so a batch that throws stops
  // its tally too. With a null sampler it does nothing.
  class Armed {
   public:
    Armed(ClockSampler* sampler, ClockTally* into, std::chrono::microseconds skip) : sampler_(sampler) {
      if (sampler_) sampler_->begin(into, skip);
    }
    ~Armed() {
      if (sampler_) sampler_->end();
    }
    Armed(const Armed&) = delete;
    Armed& operator=(const Armed&) = delete;

   private:
    ClockSampler* sampler_;
  };

 private:
  void loop();

  NvmlClock nvml_;
  std::chrono::microseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  ClockTally* target_ = nullptr;  // guarded by mutex_
  std::chrono::steady_clock::time_point from_;  // guarded by mutex_
  bool stop_ = false;             // guarded by mutex_
  std::thread thread_;
};

}  // namespace gemmscope::harness
