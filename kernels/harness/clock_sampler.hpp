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

#include "harness/clock_tally.hpp"

namespace gemmscope::harness {

class ClockSampler {
 public:
  // For CUDA device `cuda_device`, a sample every `period`.
  ClockSampler(int cuda_device, std::chrono::microseconds period);
  ~ClockSampler();
  ClockSampler(const ClockSampler&) = delete;
  ClockSampler& operator=(const ClockSampler&) = delete;

  bool available() const { return nvml_ != nullptr; }
  // Why NVML could not be used ("libnvidia-ml.so.1: cannot open shared object file", ...).
  const std::string& why_unavailable() const { return why_; }
  // Samples go into *into from `skip` after now until end() (bench skips the spin that
  // opens each timed batch). At most one tally at a time.
  void begin(ClockTally* into, std::chrono::microseconds skip = std::chrono::microseconds(0));
  // No sample reaches the tally after end() returns.
  void end();

 private:
  struct Nvml;
  void loop();

  Nvml* nvml_ = nullptr;
  std::string why_;
  std::chrono::microseconds period_;
  std::mutex mutex_;
  std::condition_variable wake_;
  ClockTally* target_ = nullptr;  // guarded by mutex_
  std::chrono::steady_clock::time_point from_;  // guarded by mutex_
  bool stop_ = false;             // guarded by mutex_
  std::thread thread_;
};

}  // namespace gemmscope::harness
