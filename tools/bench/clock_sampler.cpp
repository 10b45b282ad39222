#include "bench/clock_sampler.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <memory>

namespace gemmscope::harness {

// The few NVML entry points used, by the C ABI the NVML API reference documents:
// nvmlReturn_t is an int (0 = NVML_SUCCESS), nvmlDevice_t an opaque pointer,
// NVML_CLOCK_SM is 1.
struct NvmlClock::Nvml {
  using Device = struct nvmlDevice_st*;
  void* lib = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*by_pci)(const char*, Device*) = nullptr;
  int (*clock)(Device, int, unsigned*) = nullptr;
  int (*reasons)(Device, unsigned long long*) = nullptr;
  const char* (*error)(int) = nullptr;
  Device device = nullptr;
  static constexpr int kClockSm = 1;

  std::string error_text(int rc) const { return error ? error(rc) : "NVML error " + std::to_string(rc); }
  bool sample(unsigned& mhz, unsigned long long& why) const {
    why = 0;
    if (clock(device, kClockSm, &mhz) != 0) return false;
    if (reasons && reasons(device, &why) != 0) why = 0;
    return true;
  }
  ~Nvml() {
    if (shutdown) shutdown();
    if (lib) dlclose(lib);
  }
};

NvmlClock::NvmlClock(int cuda_device) {
  auto nvml = std::make_unique<Nvml>();
  nvml->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml->lib) {
    const char* e = dlerror();
    why_ = e ? e : "libnvidia-ml.so.1 not found";
    return;
  }
  auto sym = [&](const char* name) { return dlsym(nvml->lib, name); };
  nvml->init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
  nvml->shutdown = reinterpret_cast<int (*)()>(sym("nvmlShutdown"));
  nvml->by_pci = reinterpret_cast<int (*)(const char*, Nvml::Device*)>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
  nvml->clock = reinterpret_cast<int (*)(Nvml::Device, int, unsigned*)>(sym("nvmlDeviceGetClockInfo"));
  // The reasons call was renamed (throttle -> event) in NVML 12.2; the old name stays exported.
  void* reasons = sym("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons) reasons = sym("nvmlDeviceGetCurrentClocksThrottleReasons");
  nvml->reasons = reinterpret_cast<int (*)(Nvml::Device, unsigned long long*)>(reasons);
  nvml->error = reinterpret_cast<const char* (*)(int)>(sym("nvmlErrorString"));
  if (!nvml->init || !nvml->by_pci || !nvml->clock) {
    why_ = "libnvidia-ml.so.1 lacks nvmlInit_v2, nvmlDeviceGetHandleByPciBusId_v2 or nvmlDeviceGetClockInfo";
    nvml->shutdown = nullptr;
    return;
  }
  if (const int rc = nvml->init(); rc != 0) {
    why_ = "nvmlInit_v2: " + nvml->error_text(rc);
    nvml->shutdown = nullptr;
    return;
  }
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof(bus), cuda_device) != cudaSuccess) {
    why_ = "cudaDeviceGetPCIBusId failed for device " + std::to_string(cuda_device);
    return;
  }
  if (const int rc = nvml->by_pci(bus, &nvml->device); rc != 0) {
    why_ = std::string("nvmlDeviceGetHandleByPciBusId_v2(") + bus + "): " + nvml->error_text(rc);
    return;
  }
  unsigned mhz = 0;
  unsigned long long why = 0;
  if (!nvml->sample(mhz, why)) {
    why_ = "nvmlDeviceGetClockInfo(NVML_CLOCK_SM) failed";
    return;
  }
  nvml_ = nvml.release();
}

NvmlClock::~NvmlClock() { delete nvml_; }

bool NvmlClock::sample(unsigned& mhz, unsigned long long& reasons) const {
  return nvml_ && nvml_->sample(mhz, reasons);
}

ClockSampler::ClockSampler(int cuda_device, std::chrono::microseconds period) : nvml_(cuda_device), period_(period) {
  if (nvml_.available()) thread_ = std::thread([this] { loop(); });
}

ClockSampler::~ClockSampler() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
}

void ClockSampler::begin(ClockTally* into, std::chrono::microseconds skip) {
  if (!nvml_.available()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    target_ = into;
    from_ = std::chrono::steady_clock::now() + skip;
  }
  wake_.notify_all();
}

void ClockSampler::end() {
  std::lock_guard<std::mutex> lock(mutex_);
  target_ = nullptr;
}

void ClockSampler::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || target_ != nullptr; });
    if (stop_) return;
    lock.unlock();
    unsigned mhz = 0;
    unsigned long long why = 0;
    const bool ok = nvml_.sample(mhz, why);
    lock.lock();
    // A sample read while armed but finished after end() is dropped, and so is one
    // taken before the skip ran out.
    if (ok && target_ && std::chrono::steady_clock::now() >= from_) target_->add(mhz, why);
    if (stop_) return;
    wake_.wait_for(lock, period_, [this] { return stop_; });
  }
}

}  // namespace gemmscope::harness
