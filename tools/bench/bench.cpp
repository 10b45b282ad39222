// gemmscope bench: kernels of the registry (the ladder, auto, cuBLASLt, ...)
// interleaved in one process, on the same rotating input buffers (together larger
// than L2), median of CUDA events.
#include <cublasLt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>

#include "gemmscope/generated/git_commit.hpp"  // GEMMSCOPE_GIT_COMMIT, written at every build
#include "bench/clock_sampler.hpp"
#include "bench/harness.hpp"
#include "gemmscope/kernel_registry.hpp"
#include "gemmscope/tuned.hpp"

namespace gemmscope::harness {
namespace {

// The SM clock now, through NVML (opened once per process), as bench's clock before and
// after its shapes; "unknown" where NVML cannot be used.
std::string sm_clock_mhz() {
  static const NvmlClock nvml(0);
  unsigned mhz = 0;
  unsigned long long reasons = 0;
  return nvml.sample(mhz, reasons) ? std::to_string(mhz) : "unknown";
}

double percentile(std::vector<float> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * (v.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

// One set of inputs and an output per rotation slot.
struct BufferSet {
  bf16 *a = nullptr, *b = nullptr, *c = nullptr;
};

}  // namespace

BenchEnvironment collect_environment() {
  BenchEnvironment env;
  cudaDeviceProp prop{};
  check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  env.gpu = prop.name;
  env.sm_count = prop.multiProcessorCount;
  env.cc_major = prop.major;
  env.l2_bytes = prop.l2CacheSize;
  env.driver = driver_version() + " (CUDA " + std::to_string(driver / 1000) + "." +
               std::to_string(driver % 1000 / 10) + ")";
  env.cuda_runtime = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  const char* commit = std::getenv("GEMMSCOPE_COMMIT");
  env.commit = commit ? commit : GEMMSCOPE_GIT_COMMIT;
  {
    const std::time_t now = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    env.date = buf;
  }
  env.sm_clock_before_mhz = sm_clock_mhz();
  return env;
}

double median_of(const std::vector<float>& v) { return percentile(v, 0.5); }

int rotation_sets(const GemmShape& s, int64_t l2_bytes) {
  const size_t set_bytes = static_cast<size_t>((s.m * s.k + s.n * s.k + s.m * s.n) * 2);
  return static_cast<int>(std::max<size_t>(2, (3 * static_cast<size_t>(l2_bytes)) / set_bytes + 1));
}

BenchReport run_bench(const BenchOptions& opt) {
  BenchReport report;
  report.env = collect_environment();
  std::unique_ptr<L2Cleaner> cleaner;
  if (opt.clean_l2) {
    cleaner = std::make_unique<L2Cleaner>(report.env.l2_bytes);
    report.env.l2_before_batch = "cleaned";
  }

  std::unique_ptr<ClockSampler> sampler;
  if (opt.clocks) {
    constexpr auto kPeriod = std::chrono::microseconds(100);
    sampler = std::make_unique<ClockSampler>(0, kPeriod);
    report.env.clock_sampling = sampler->available() ? "NVML every 100 us" : "unavailable: " + sampler->why_unavailable();
    if (!sampler->available())
      std::fprintf(stderr, "gemmscope bench: --clocks: NVML unavailable (%s); the clock columns stay empty\n",
                   sampler->why_unavailable().c_str());
  }

  // Every name resolved once; an unknown one becomes the note of its rows.
  std::vector<std::optional<RunnableKernel>> kernels;
  std::vector<std::string> unknown;
  for (const std::string& name : opt.kernels) {
    try {
      kernels.emplace_back(resolve_kernel(name));
      unknown.emplace_back();
    } catch (const GemmError& err) {
      kernels.emplace_back();
      unknown.emplace_back(err.what());
    }
  }
  cudaStream_t stream;
  check_cuda(cudaStreamCreate(&stream), "stream");
  BatchTimer timer;

  size_t shape_index = 0;
  for (const GemmShape& s : opt.shapes) {
    ++shape_index;
    // Rotate among enough input sets that together they exceed 3x L2.
    const int sets = rotation_sets(s, report.env.l2_bytes);
    std::vector<BufferSet> bufs(sets);
    HostProblem p = HostProblem::random(s, opt.seed + shape_index);
    for (auto& bset : bufs) {
      check_cuda(cudaMalloc(&bset.a, p.a.size() * 2), "bench A");
      check_cuda(cudaMalloc(&bset.b, p.b.size() * 2), "bench B");
      check_cuda(cudaMalloc(&bset.c, static_cast<size_t>(s.m * s.n) * 2), "bench C");
      check_cuda(cudaMemcpy(bset.a, p.a.data(), p.a.size() * 2, cudaMemcpyHostToDevice), "bench upload A");
      check_cuda(cudaMemcpy(bset.b, p.b.data(), p.b.size() * 2, cudaMemcpyHostToDevice), "bench upload B");
    }

    struct Entry {
      std::string name;
      std::function<void(const GemmOperands&)> run;
      std::vector<float> times;
      std::string note;
      std::string detail;
      bool slow_warm = false;  // one warm-up round took over 100 ms: skip the rest of the warm-up
      ClockTally clock;        // bench --clocks: samples during the timed (not warm-up) batches
    };
    std::vector<Entry> entries;
    const GemmOperands probe{bufs[0].a, bufs[0].b, bufs[0].c};
    for (size_t i = 0; i < opt.kernels.size(); ++i) {
      Entry e{opt.kernels[i], {}, {}, {}, {}};
      const std::optional<RunnableKernel>& k = kernels[i];
      if (!k) {
        e.note = unknown[i];
      } else {
        // A refusal becomes the row's note (sm100 on another GPU: "needs an sm_100 GPU
        // (compute capability 10.0); this GPU is 9.0").
        try {
          e.note = k->can_implement(s, probe);
          if (e.note.empty()) {
            const std::string runs = k->dispatch(s, probe);
            if (runs != k->name) e.detail = runs;  // what auto and k10 run for this shape
            k->prepare(s, stream);
          }
        } catch (const std::exception& err) {
          e.note = err.what();
        }
        e.run = [&k = *k, &s, &stream](const GemmOperands& ops) { k.launch(s, ops, stream); };
      }
      entries.push_back(std::move(e));
    }
    int slot = 0;
    const int total = opt.warmup + opt.repeats;
    for (int rep = 0; rep < total; ++rep) {
      for (auto& e : entries) {  // interleaved: every kernel once per round
        if (!e.note.empty()) continue;
        // A slow kernel (k01) stops after 8 samples once they add up to 2 s.
        if (e.times.size() >= 8 && std::accumulate(e.times.begin(), e.times.end(), 0.0) > 2000.0) continue;
        if (rep < opt.warmup && e.slow_warm) continue;
        std::vector<float> batch;
        try {
          if (cleaner) cleaner->run(stream);
          // The batch's opening spin is not the kernel's clock: skipped.
          const ClockSampler::Armed armed(rep >= opt.warmup ? sampler.get() : nullptr, &e.clock,
                                          std::chrono::microseconds(static_cast<int64_t>(kSpinBeforeBatchUs)));
          batch = timer.time(
              stream, kBatchLaunches,
              [&](int) {
                const BufferSet& bset = bufs[slot];
                slot = (slot + 1) % sets;
                e.run({bset.a, bset.b, bset.c});
              },
              "running " + e.name);
        } catch (const std::exception& err) {
          e.note = err.what();
          continue;
        }
        for (float ms : batch) {
          if (rep >= opt.warmup) e.times.push_back(ms);
          else if (ms > 100.f) e.slow_warm = true;
        }
      }
      if (opt.progress)
        std::fprintf(stderr, "\r[bench] shape %zu/%zu %ldx%ldx%ld round %d/%d   ", shape_index, opt.shapes.size(),
                     static_cast<long>(s.m), static_cast<long>(s.n), static_cast<long>(s.k), rep + 1, total);
    }
    if (opt.progress) std::fprintf(stderr, "\n");
    double cublas_ms = 0;
    for (auto& e : entries)
      if (e.name == "cublas" && !e.times.empty()) cublas_ms = percentile(e.times, 0.5);
    for (auto& e : entries) {
      BenchRow row;
      row.kernel = e.name;
      row.shape = s;
      row.buffer_sets = sets;
      row.note = e.note;
      row.detail = e.detail;
      row.label = shape_index - 1 < opt.labels.size() ? opt.labels[shape_index - 1] : "";
      if (!e.times.empty()) {
        row.median_ms = percentile(e.times, 0.5);
        row.min_ms = *std::min_element(e.times.begin(), e.times.end());
        row.max_ms = *std::max_element(e.times.begin(), e.times.end());
        row.spread_pct = 100.0 * (percentile(e.times, 0.9) - percentile(e.times, 0.1)) / row.median_ms;
        row.tflops = 2.0 * s.m * s.n * s.k / (row.median_ms * 1e-3) / 1e12;
        row.ratio_to_cublas = cublas_ms > 0 ? cublas_ms / row.median_ms : 0;
      }
      row.clock_samples = e.clock.samples;
      if (e.clock.samples) {
        row.sm_clock_mhz = e.clock.mean_mhz();
        row.power_capped_pct = e.clock.power_capped_pct();
        row.slowdown_pct = e.clock.slowdown_pct();
        if (report.env.cc_major == 9 && row.tflops > 0)
          row.tensor_peak_pct = sm90_tensor_peak_pct(row.tflops, row.sm_clock_mhz, report.env.sm_count);
      }
      report.rows.push_back(row);
    }
    for (auto& bset : bufs) {
      cudaFree(bset.a);
      cudaFree(bset.b);
      cudaFree(bset.c);
    }
  }
  cudaStreamDestroy(stream);
  report.env.sm_clock_after_mhz = sm_clock_mhz();
  return report;
}

}  // namespace gemmscope::harness
