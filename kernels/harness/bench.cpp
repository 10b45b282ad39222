// gemmscope bench: the ladder and cuBLASLt interleaved in one process, on the
// same rotating input buffers (together larger than L2), median of CUDA events.
#include <cublasLt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <numeric>
#include <sstream>

#include "gemmscope/generated/git_commit.hpp"  // GEMMSCOPE_GIT_COMMIT, written at every build
#include "gemmscope/sm100.hpp"
#include "gemmscope/tuned.hpp"
#include "harness/clock_sampler.hpp"
#include "harness/cublas.hpp"
#include "harness/harness.hpp"
#include "sm90/ladder.hpp"

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

  Cublas cublas;
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
    cublas.prepare(s);

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
    for (const std::string& name : opt.kernels) {
      Entry e{name, {}, {}, {}, {}};
      if (name == "cublas") {
        e.run = [&](const GemmOperands& ops) { cublas.run(ops, stream); };
      } else if (name == "sm100") {
        // The Blackwell kernel refuses any GPU but compute capability 10.0 with a
        // message that becomes this row's note ("this kernel needs compute capability 10.0; found 9.0").
        e.note = sm100::can_implement(static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k), bufs[0].a,
                                      bufs[0].b, bufs[0].c);
        e.run = [&s, &stream](const GemmOperands& ops) {
          sm100::launch_gemm(ops.a, ops.b, ops.c, static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k),
                             stream);
        };
      } else if (name == "auto") {
        // What gemmscope::gemm runs by default: k10 with the tuning cache's or the
        // heuristic's configuration, else the ladder's fallback.
        const GemmOperands probe{bufs[0].a, bufs[0].b, bufs[0].c};
        try {
          const KernelInfo& k = select_kernel(s, probe);
          e.detail = k.name;
          if (k.name == "k10") {
            const TunedChoice c = choose(s);
            e.detail = "k10:" + tune::to_string(c.config) + " (" + c.source + ")";
          }
        } catch (const std::exception& err) {
          e.note = err.what();
        }
        e.run = [&s, &stream](const GemmOperands& ops) { gemm(s, ops, stream, "auto"); };
      } else if (name.rfind("k10:", 0) == 0) {
        const GemmOperands probe{bufs[0].a, bufs[0].b, bufs[0].c};
        try {
          e.note = sm90::k10::can_implement(tune::parse_config(name.substr(4)), s, probe);
        } catch (const std::exception& err) {
          e.note = err.what();
        }
        e.run = [&s, &stream, cfg = name.substr(4)](const GemmOperands& ops) { gemm_config(cfg, s, ops, stream); };
      } else {
        const KernelInfo* info = nullptr;
        try {
          info = &find_kernel(name);
        } catch (const GemmError& err) {
          e.note = err.what();
        }
        if (info) {
          const GemmOperands probe{bufs[0].a, bufs[0].b, bufs[0].c};
          e.note = info->can_implement(s, probe);
          e.run = [info, &s, &stream](const GemmOperands& ops) { info->launch(s, ops, stream); };
        }
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
