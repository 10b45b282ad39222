// gemmscope timeline record: run a kernel's recording build (k06-k09:
// kernels/timeline/ladder_timeline.hpp; a k10 configuration: k10_timeline.cu) on the GPU,
// decode and check its events, and write them in the Chrome trace event format
// (docs/timelines.md); the recorded run's C must equal the library kernel's, bit for
// bit. --overhead N times the library's kernel, the recording build with no buffer and
// with one, interleaved.
// Built only with the kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/harness.hpp"
#include "command.hpp"
#include "gemmscope/traces/chrome_trace.hpp"
#include "gemmscope/traces/timeline.hpp"
#include "sm90/k10_timeline.hpp"
#include "sm90/ladder.hpp"
#include "timeline/ladder_timeline.hpp"
#include "timeline_command.hpp"
#include "tune/text/output_file.hpp"

namespace gemmscope::cli {
namespace {

struct RecordArgs {
  std::string kernel = "k10:128x256x64.s4.wg2.c2x1.static";
  std::string shape = "4096x4096x4096";
  std::string out;
  long long capacity = 1 << 22;
  long long overhead = 0;
};

struct DeviceOperands {
  bf16 *a = nullptr, *b = nullptr, *c = nullptr;
  ~DeviceOperands() { cudaFree(a), cudaFree(b), cudaFree(c); }
};

// Values in +-[0.5, 1): the tensor cores' power (and so the clocks) as with real data.
void fill_random(bf16* to, size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> bits(count);
  for (auto& v : bits) v = static_cast<uint16_t>((rng() & 1u) << 15 | 0x3f00u | (rng() & 0x7fu));
  check_cuda(cudaMemcpy(to, bits.data(), count * sizeof(uint16_t), cudaMemcpyHostToDevice), "copy the operands");
}

float time_launch(cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop, const std::function<void()>& launch) {
  // The GPU busy while the host encodes the launch: only the kernel is timed.
  harness::spin_gpu(stream, harness::kSpinBeforeBatchUs);
  check_cuda(cudaEventRecord(start, stream), "event");
  launch();
  check_cuda(cudaEventRecord(stop, stream), "event");
  check_cuda(cudaEventSynchronize(stop), "the timed run");
  float ms = 0;
  check_cuda(cudaEventElapsedTime(&ms, start, stop), "elapsed time");
  return ms;
}

// The kernel to record, whichever its kind: the library's launch, the recording build's
// with no buffer, and a recorder (arm, launch, finish).
struct Target {
  std::string title;
  bool cut = false;  // split-K or stream-K: a cut tile may sum its pieces in another order
  std::function<std::string(const GemmShape&, const GemmOperands&)> can_implement;
  std::function<void(const GemmShape&, const GemmOperands&, cudaStream_t)> launch_library, launch_detached;
  std::function<std::unique_ptr<sm90::LadderRecorder>(uint32_t)> recorder;
};

// k10's TimelineRecorder behind the ladder's interface.
class K10Recorder final : public sm90::LadderRecorder {
 public:
  K10Recorder(const tune::KernelConfig& c, uint32_t capacity) : config_(c), rec_(capacity) {}
  void arm(cudaStream_t stream) override { rec_.arm(stream); }
  void launch(const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) override {
    rec_.launch(config_, s, ops, stream);
  }
  traces::timeline_record::RecordedTimeline finish(cudaStream_t stream) override { return rec_.finish(stream); }

 private:
  tune::KernelConfig config_;
  sm90::k10::TimelineRecorder rec_;
};

Target target_of(const std::string& kernel) {
  Target t;
  if (kernel.rfind("k10:", 0) != 0) {
    const sm90::LadderTimeline* found = nullptr;
    std::string names;
    for (const auto& l : sm90::ladder_timelines()) {
      if (l.name == kernel) found = &l;
      names += l.name + ", ";
    }
    if (found == nullptr)
      throw std::invalid_argument("--kernel = " + kernel + " must be one of " + names + "k10:<configuration>");
    t.title = found->name;
    t.can_implement = found->can_implement;
    t.launch_library = found->launch_library;
    t.launch_detached = found->launch_detached;
    t.recorder = found->recorder;
    return t;
  }
  const tune::KernelConfig config = tune::parse_config_or_instance(kernel.substr(4));
  if (!sm90::k10::has_timeline_instance(config)) {
    std::string list;
    for (const auto& c : sm90::k10::timeline_instances()) list += (list.empty() ? "" : ", ") + tune::to_string(c);
    throw std::invalid_argument("--kernel = " + kernel + " has no recording instance; compiled: " + list);
  }
  t.title = "k10:" + tune::to_string(config);
  t.cut = config.splits > 1 || config.stream_k;
  t.can_implement = [config](const GemmShape& s, const GemmOperands& ops) {
    return sm90::k10::can_implement(config, s, ops);
  };
  t.launch_library = [config](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
    sm90::k10::launch(config, s, ops, stream);
  };
  t.launch_detached = [config](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
    sm90::k10::launch_timeline_detached(config, s, ops, stream);
  };
  t.recorder = [config](uint32_t capacity) { return std::make_unique<K10Recorder>(config, capacity); };
  return t;
}

void run(const RecordArgs& a) {
  const Target target = target_of(a.kernel);
  const std::vector<GemmShape> shapes = harness::parse_shapes(a.shape);
  if (shapes.size() != 1) throw std::invalid_argument("--shape = " + a.shape + " must be one MxNxK");
  if (a.capacity < 1 || a.capacity > (1ll << 28))
    throw std::invalid_argument("--capacity = " + std::to_string(a.capacity) + " must be in 1..268435456 events");
  if (a.overhead < 0 || a.overhead > 10000)
    throw std::invalid_argument("--overhead = " + std::to_string(a.overhead) + " must be in 0..10000 rounds");
  if (a.out.empty() && a.overhead == 0) throw std::invalid_argument("-o = (none): give -o FILE.json, --overhead N or both");
  if (!a.out.empty()) check_output_file(a.out, "-o");
  std::string why;
  if (!harness::gpu_available(&why)) {
    std::fprintf(stderr, "gemmscope timeline record: no usable CUDA device (%s)\n", why.c_str());
    std::exit(3);
  }
  const GemmShape s = shapes[0];
  DeviceOperands d;
  check_cuda(cudaMalloc(&d.a, s.m * s.k * sizeof(bf16)), "A");
  check_cuda(cudaMalloc(&d.b, s.n * s.k * sizeof(bf16)), "B");
  check_cuda(cudaMalloc(&d.c, s.m * s.n * sizeof(bf16)), "C");
  fill_random(d.a, static_cast<size_t>(s.m * s.k), 1);
  fill_random(d.b, static_cast<size_t>(s.n * s.k), 2);
  const GemmOperands ops{d.a, d.b, d.c};
  if (const std::string no = target.can_implement(s, ops); !no.empty())
    throw std::invalid_argument("--kernel = " + a.kernel + " cannot run --shape = " + a.shape + ": " + no);
  cudaStream_t stream = nullptr;
  // One plain run first: attributes set, clocks up, code loaded.
  target.launch_detached(s, ops, stream);
  target.launch_library(s, ops, stream);
  check_cuda(cudaStreamSynchronize(stream), "the warm-up runs");

  if (!a.out.empty()) {
    // The library kernel's C, to hold the recording build's against: the same
    // arithmetic in the same order, so the same bits.
    const size_t c_count = static_cast<size_t>(s.m * s.n);
    std::vector<uint16_t> c_plain(c_count), c_recorded(c_count);
    check_cuda(cudaMemcpy(c_plain.data(), d.c, c_count * sizeof(uint16_t), cudaMemcpyDeviceToHost), "copy C");
    check_cuda(cudaMemset(d.c, 0xff, c_count * sizeof(uint16_t)), "clear C");
    traces::timeline_record::RecordedTimeline raw;
    {
      const auto rec = target.recorder(static_cast<uint32_t>(a.capacity));
      rec->launch(s, ops, stream);
      raw = rec->finish(stream);
    }
    check_cuda(cudaMemcpy(c_recorded.data(), d.c, c_count * sizeof(uint16_t), cudaMemcpyDeviceToHost), "copy C");
    // A tile cut by split-K or stream-K may sum its pieces in another order: not compared.
    const bool cut = target.cut;
    size_t differ = 0;
    for (size_t i = 0; i < c_count && !cut; ++i) differ += c_plain[i] != c_recorded[i];
    if (differ > 0)
      throw std::runtime_error("the recording build's C differs from the library kernel's in " +
                               std::to_string(differ) + " of " + std::to_string(c_count) + " elements");
    const traces::Timeline t = traces::decode_timeline(raw);
    if (t.dropped > 0)
      throw std::runtime_error(std::to_string(t.dropped) + " of " + std::to_string(t.events.size() + t.dropped) +
                               " events did not fit their region of --capacity = " + std::to_string(a.capacity) +
                               " (" + std::to_string(raw.regions) + " regions, one per CTA and warpgroup, of " +
                               std::to_string(raw.region_capacity) + " events); record again with a larger --capacity");
    const std::string title = target.title + " at " + a.shape;
    const nlohmann::json trace = traces::timeline_to_chrome(t, title);
    write_output_file(a.out, trace.dump(), "-o");
    std::set<uint32_t> sms;
    uint64_t first = ~uint64_t{0}, last = 0;
    for (const auto& e : t.events) {
      sms.insert(e.sm);
      first = std::min(first, e.time_ns);
      last = std::max(last, e.time_ns);
    }
    std::printf("%s: %zu events on %zu SMs over %.1f us, consistent, %s; %s\n", title.c_str(), t.events.size(),
                sms.size(), (last - first) / 1000.0,
                cut ? "C not compared (a cut tile's sum order may differ)" : "C as the library kernel's",
                a.out.c_str());
  }

  if (a.overhead > 0) {
    // Interleaved rounds, the order rotated each round: the library's instance, the
    // recording instance with no buffer (events compiled in, not written) and with one.
    cudaEvent_t start, stop;
    check_cuda(cudaEventCreate(&start), "event");
    check_cuda(cudaEventCreate(&stop), "event");
    const auto rec = target.recorder(static_cast<uint32_t>(a.capacity));
    rec->finish(stream);  // detached until arm() before each recorded launch
    std::vector<float> times[3];
    const char* names[3] = {"library kernel", "recording build, no buffer", "recording build, recording"};
    for (long long round = 0; round < a.overhead; ++round)
      for (int j = 0; j < 3; ++j) {
        const int v = static_cast<int>((round + j) % 3);
        if (v == 2) rec->arm(stream);  // outside the timed region
        times[v].push_back(time_launch(stream, start, stop, [&] {
          if (v == 0) target.launch_library(s, ops, stream);
          else if (v == 1) target.launch_detached(s, ops, stream);
          else rec->launch(s, ops, stream);
        }));
        if (v == 2) rec->finish(stream);
      }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    const double base = harness::median_of(times[0]);
    const double flops = 2.0 * s.m * s.n * s.k;
    std::printf("overhead, %s at %s, %lld interleaved rounds (median):\n", target.title.c_str(), a.shape.c_str(),
                a.overhead);
    for (int v = 0; v < 3; ++v) {
      const double ms = harness::median_of(times[v]);
      std::printf("  %-28s %10.2f us %8.1f TFLOP/s %+7.2f%%\n", names[v], ms * 1000.0, flops / (ms * 1e-3) / 1e12,
                  100.0 * (ms - base) / base);
    }
  }
}

const TimelineSubcommand sub{"record", [](CLI::App& timeline) {
                               auto args = std::make_shared<RecordArgs>();
                               CLI::App* cmd = timeline.add_subcommand(
                                   "record", "Record a kernel's per-role timeline on the GPU (Chrome trace)");
                               cmd->add_option("--kernel", args->kernel,
                                               "k06, k07, k08, k09, or k10:<configuration> with a recording instance")
                                   ->capture_default_str();
                               cmd->add_option("--shape", args->shape, "MxNxK")->capture_default_str();
                               cmd->add_option("-o,--out", args->out, "Chrome trace JSON to write");
                               cmd->add_option("--capacity", args->capacity, "event buffer, 1..268435456 events")
                                   ->capture_default_str();
                               cmd->add_option("--overhead", args->overhead,
                                               "also time the library's kernel against the recording build, "
                                               "interleaved, for this many rounds (0: no)")
                                   ->capture_default_str();
                               cmd->callback([args] { run(*args); });
                             }};

}  // namespace
}  // namespace gemmscope::cli
