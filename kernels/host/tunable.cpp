// The host side of k10_tunable: configuration checks, tensor maps, the split-K and
// stream-K workspace and dynamic-schedule counter, the instance table, and the choice of a
// configuration for "k10"/"auto" (tuning cache, else the heuristic).
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <tuple>
#include <mutex>
#include <sstream>
#include <string_view>
#include <utility>

#include "common/sm90_address.hpp"
#include "common/tma_store_rules.hpp"
#include "gemmscope/gemm.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/tuned.hpp"
#include "host/tensor_map.hpp"
#include "sm90/k10_tunable.hpp"
#include "sm90/ladder.hpp"
#include "tune/cache.hpp"
#include "tune/shipped.hpp"

namespace gemmscope::sm90::k10 {
namespace {

InstanceFns instance(int row) {
  switch (row % kParts) {
    case 0: return part0_instance(row);
    case 1: return part1_instance(row);
    default: return part2_instance(row);
  }
}

// Per (device, stream) device scratch that outlives launches: the dynamic
// schedule's counter, the split-K workspace and arrival counters (grown on
// demand, kept; the arrival counters are zeroed once and left at zero by every
// launch).
struct Scratch {
  uint32_t* counter = nullptr;
  float* workspace = nullptr;
  size_t workspace_floats = 0;
  uint32_t* arrivals = nullptr;
  size_t arrival_count = 0;
};
Scratch& scratch(int device, cudaStream_t stream) {
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, Scratch> all;
  const std::lock_guard<std::mutex> lock(mutex);
  return all[{device, stream}];
}

// Grows a scratch buffer to `count` elements (the stream must be idle: the old one
// is freed), zeroed when asked.
template <class T>
void grow(T*& buffer, size_t& have, size_t count, bool zero, const char* what) {
  if (count <= have) return;
  if (buffer) check_cuda(cudaFree(buffer), what);
  buffer = nullptr;
  have = 0;
  check_cuda(cudaMalloc(&buffer, count * sizeof(T)), what);
  if (zero) check_cuda(cudaMemset(buffer, 0, count * sizeof(T)), what);
  have = count;
}

// A device attribute, asked once per device.
template <cudaDeviceAttr Attribute>
int device_attribute(int device, const char* what) {
  static std::atomic<int> cached[kMaxDevices] = {};
  const int slot = device < kMaxDevices ? device : 0;
  int value = cached[slot].load(std::memory_order_relaxed);
  if (value == 0) {
    check_cuda(cudaDeviceGetAttribute(&value, Attribute, device), what);
    cached[slot].store(value, std::memory_order_relaxed);
  }
  return value;
}
int sm_count(int device) { return device_attribute<cudaDevAttrMultiProcessorCount>(device, "k10 SM count"); }
int64_t l2_bytes(int device) { return device_attribute<cudaDevAttrL2CacheSize>(device, "k10 L2 size"); }

// The last few tensor maps this thread encoded: a GEMM called again on the same
// buffers (every layer of a model, every benchmark round) skips the encoding.
CUtensorMap tensor_map(const void* base, uint64_t rows, uint64_t cols, const model::TmaBox& box) {
  struct Entry {
    const void* base = nullptr;
    uint64_t rows = 0, cols = 0;
    uint32_t box_rows = 0, box_cols = 0;
    CUtensorMap map{};
  };
  thread_local Entry entries[48];
  thread_local unsigned next = 0;
  for (const Entry& e : entries)
    if (e.base == base && e.rows == rows && e.cols == cols && e.box_rows == box.rows && e.box_cols == box.inner_elems)
      return e.map;
  Entry& e = entries[next++ % 48];
  e.map = make_tensor_map_2d(base, rows, cols, cols * 2, box);
  e.base = base, e.rows = rows, e.cols = cols, e.box_rows = box.rows, e.box_cols = box.inner_elems;
  return e.map;
}

tune::Shape to_tune(const GemmShape& s) { return {s.m, s.n, s.k}; }

}  // namespace

std::string can_implement(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops) {
  if (tune::instance_index(c) < 0) return "configuration " + tune::to_string(c) + " is not a compiled instance";
  if (auto why = tma_operand_rules(shape, ops); !why.empty()) return why;
  // N's rule is tune::shape_rules's, with its own message.
  if (auto why = tma_store_base_rule(ops.c, "k10"); !why.empty()) return why;
  return tune::shape_rules(c, to_tune(shape));
}

void launch(const tune::KernelConfig& c, const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
  const int row = tune::instance_index(c);
  if (row < 0) throw GemmError("configuration " + tune::to_string(c) + " is not a compiled instance");
  launch_with(instance(row), c, s, ops, stream);
}

void launch_with(const InstanceFns& fns, const tune::KernelConfig& c, const GemmShape& s, const GemmOperands& ops,
                 cudaStream_t stream) {
  if (fns.launch == nullptr || fns.resident_clusters == nullptr)
    throw GemmError("configuration " + tune::to_string(c) + " has no instance to launch");
  const tune::Decomposition d = tune::decompose(c, to_tune(s));
  // Swapped operands (C^T = B A^T): the kernel's A is B, its B is A, its M and N are
  // N and M; C stays as given, its boxes written transposed (tune/instances.hpp).
  const tune::Shape ks = tune::kernel_shape(c, to_tune(s));
  const bf16* const kernel_a = c.swap_ab ? ops.b : ops.a;
  const bf16* const kernel_b = c.swap_ab ? ops.a : ops.b;
  Launch l{};
  const model::TmaBox box_a{static_cast<uint32_t>(c.bm / c.cluster_n), 64, 2, model::SwizzleMode::B128, 0};
  model::TmaBox box_b{static_cast<uint32_t>(c.bn / c.cluster_m), 64, 2, model::SwizzleMode::B128, 0};
  if (const int64_t b_rows = tune::swapped_b_rows(c, ks); b_rows > 0) {
    // One tile covers M: B's box (A's rows) stops at M, rounded up to 8 (Problem::b_rows).
    box_b.rows = static_cast<uint32_t>(b_rows);
    l.prob.b_rows = static_cast<int>(b_rows);
  }
  // The staging box (sm90::store_box_cols: 64, 32 or 16 columns): each row one span
  // of the swizzle, the 128B, 64B or 32B one, as the kernel's sw128_offset /
  // sw64_offset / sw32_offset write it; 56 columns (112-byte rows) unswizzled, as
  // plain_offset writes them.
  const uint32_t store_cols = static_cast<uint32_t>(sm90::store_box_cols(c.bn));
  model::SwizzleMode store_swizzle = model::SwizzleMode::None;
  for (const model::SwizzleMode mode : {model::SwizzleMode::B32, model::SwizzleMode::B64, model::SwizzleMode::B128})
    if (model::swizzle_span_bytes(mode) == store_cols * 2) store_swizzle = mode;
  // Swapped: a box is store_cols of C's rows by 64 columns (the tile's 64 rows), 128B.
  const model::TmaBox box_c = c.swap_ab ? model::TmaBox{store_cols, 64, 2, model::SwizzleMode::B128, 0}
                                        : model::TmaBox{64, store_cols, 2, store_swizzle, 0};
  l.map_a = tensor_map(kernel_a, ks.m, ks.k, box_a);
  l.map_a_tail = l.map_a;
  if (const int64_t tail_rows = tune::a_tail_rows(c, ks); tail_rows > 0) {
    // The last row of tiles runs past M: its CTAs load only the rows up to M (rounded
    // up to whole 8-row swizzle atoms), and CTAs wholly past M none (Problem::a_rows).
    model::TmaBox box_tail = box_a;
    box_tail.rows = static_cast<uint32_t>(tail_rows);
    l.map_a_tail = tensor_map(kernel_a, ks.m, ks.k, box_tail);
    l.prob.a_rows = static_cast<int>(ks.m);
    l.prob.a_tail_rows = static_cast<int>(tail_rows);
  } else if (c.cluster_n == 1 && ks.m < c.bm * c.cluster_m * d.units_m) {
    // M is a multiple of BM, but a cluster's CTAs along M run past it: those load no A.
    l.prob.a_rows = static_cast<int>(ks.m);
  }
  l.map_b = tensor_map(kernel_b, ks.n, ks.k, box_b);
  l.map_c = tensor_map(ops.c, s.m, s.n, box_c);
  l.prob.grid = WorkGrid{static_cast<uint32_t>(d.units_m), static_cast<uint32_t>(d.units_n)};
  l.prob.k_blocks = static_cast<int>(d.k_blocks);
  l.prob.group = static_cast<uint32_t>(c.group);
  l.prob.splits = static_cast<uint32_t>(c.splits);
  int device = 0;
  check_cuda(cudaGetDevice(&device), "k10 device");
  l.prob.b_evict_first = tune::evict_first_b(c, to_tune(s), l2_bytes(device));
  l.stream = stream;
  const int resident = fns.resident_clusters(device, sm_count(device));
  const tune::SplitPlan plan = tune::split_plan(c, to_tune(s), resident);
  l.prob.dp_tiles = static_cast<uint32_t>(plan.dp_tiles);
  l.prob.split_tiles = static_cast<uint32_t>(plan.split_tiles);
  if (plan.sk_tiles > 0)
    l.prob.sk = StreamK{static_cast<uint32_t>(plan.dp_tiles), static_cast<uint32_t>(plan.sk_tiles),
                        static_cast<uint32_t>(d.k_blocks), static_cast<uint32_t>(plan.sk_workers)};
  Scratch& sc = scratch(device, stream);
  if (c.schedule == tune::Schedule::Dynamic) {
    if (!sc.counter) check_cuda(cudaMalloc(&sc.counter, sizeof(uint32_t)), "k10 work counter");
    check_cuda(cudaMemsetAsync(sc.counter, 0, sizeof(uint32_t), stream), "k10 counter reset");
    l.prob.counter = sc.counter;
  }
  if (plan.cut_tiles > 0) {
    // Each partial slot holds every CTA's BM x BN fp32 tile; one arrival counter per
    // cut tile, CTA and consumer.
    const size_t cluster = static_cast<size_t>(c.cluster_size());
    const size_t floats = static_cast<size_t>(plan.partial_slots) * cluster * c.bm * c.bn;
    const size_t arrivals = static_cast<size_t>(plan.cut_tiles) * cluster * c.consumers;
    if (floats > sc.workspace_floats || arrivals > sc.arrival_count) {
      // The stream may still be using the old buffers.
      check_cuda(cudaStreamSynchronize(stream), "k10 workspace resize");
      grow(sc.workspace, sc.workspace_floats, floats, false, "k10 split-K workspace");
      grow(sc.arrivals, sc.arrival_count, arrivals, true, "k10 split-K arrival counters");
    }
    l.prob.workspace = sc.workspace;
    l.prob.arrivals = sc.arrivals;
  }
  const uint32_t clusters =
      static_cast<uint32_t>(std::max<int64_t>(1, std::min<int64_t>(resident, plan.units)));
  fns.launch(l, clusters);
}

// ---- the registry's "k10": configuration from the tuning cache, else the heuristic.
// Whether k10 can run a problem does not depend on the configuration chosen (every
// instance has the same TMA and shape rules without split-K), so the answer needs
// no GPU: k08's configuration stands in for the check.
std::string can_implement_chosen(const GemmShape& shape, const GemmOperands& ops) {
  return can_implement(tune::KernelConfig{}, shape, ops);
}
void launch_chosen(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  tune::KernelConfig c = choose(shape).config;
  // A cache entry whose split-K or stream-K the shape cannot take (hand-edited
  // cache) falls back to the same instance without either.
  if (!can_implement(c, shape, ops).empty()) c.splits = 1, c.stream_k = false;
  launch(c, shape, ops, stream);
}

}  // namespace gemmscope::sm90::k10

namespace gemmscope {

std::string driver_version() {
  // The kernel module's version as nvidia-smi prints it ("580.159.04"); without
  // /proc (containers without it), the CUDA driver API version.
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  if (f && std::getline(f, line)) {
    std::istringstream words(line);
    std::string w;
    while (words >> w)
      if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0])) && w.find('.') != std::string::npos) return w;
  }
  int v = 0;
  cudaDriverGetVersion(&v);
  return "cuda-driver-" + std::to_string(v);
}

namespace {

struct CacheState {
  std::mutex mutex;
  bool loaded = false;
  std::string path;
  tune::TuneCache cache;
  // Choices made so far, by shape (dispatch runs on every gemm call).
  std::map<std::tuple<int, int64_t, int64_t, int64_t>, TunedChoice> chosen;
};
CacheState& cache_state() {
  static CacheState s;
  return s;
}

// The caches that ship with the library, where one has entries for this GPU, CUDA
// runtime, driver major and kernel version; else one notice, and the heuristic.
void load_shipped_locked(CacheState& st) {
  const tune::TuneKey here = tune_key_here({0, 0, 0});
  st.path = "shipped with gemmscope";
  st.cache = tune::shipped_entries_for(here);
  st.loaded = true;
  st.chosen.clear();
  if (st.cache.entries.empty())
    std::fprintf(stderr,
                 "gemmscope: no shipped tuning cache for %s (CUDA %s, driver %s, kernel version %d): auto uses its "
                 "heuristic; `gemmscope tune` makes a cache for this GPU (GEMMSCOPE_TUNE_CACHE=FILE)\n",
                 here.gpu.c_str(), here.cuda.c_str(), here.driver.c_str(), here.kernel_version);
}

void load_locked(CacheState& st, const std::string& path) {
  st.path = path;
  st.cache = path.empty() ? tune::TuneCache{} : tune::load_tune_cache(path);
  st.loaded = true;
  st.chosen.clear();
  if (!path.empty()) {
    const size_t foreign = st.cache.foreign_entries(tune_key_here({0, 0, 0}));
    if (foreign > 0)
      std::fprintf(stderr,
                   "gemmscope: the tuning cache %s holds %zu entries from another GPU, CUDA, driver or kernel "
                   "version; they are ignored (shapes without an entry for this GPU use the heuristic)\n",
                   path.c_str(), foreign);
  }
}

}  // namespace

tune::TuneKey tune_key_here(const GemmShape& s) {
  // The current device's identity, asked once per device (a process may use
  // several different GPUs).
  static std::mutex mutex;
  static std::map<int, tune::TuneKey> by_device;
  int device = 0;
  check_cuda(cudaGetDevice(&device), "tune key device");
  tune::TuneKey k;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    auto it = by_device.find(device);
    if (it == by_device.end()) {
      tune::TuneKey base;
      cudaDeviceProp prop{};
      check_cuda(cudaGetDeviceProperties(&prop, device), "tune key properties");
      int runtime = 0;
      cudaRuntimeGetVersion(&runtime);
      base.gpu = prop.name;
      base.cuda = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
      base.driver = driver_version();
      base.kernel_version = tune::kKernelVersion;
      it = by_device.emplace(device, base).first;
    }
    k = it->second;
  }
  k.m = s.m, k.n = s.n, k.k = s.k;
  return k;
}

void use_tune_cache(const std::string& path) {
  CacheState& st = cache_state();
  const std::lock_guard<std::mutex> lock(st.mutex);
  load_locked(st, path == "none" ? "" : path);
}

TunedChoice choose(const GemmShape& s) {
  CacheState& st = cache_state();
  const std::lock_guard<std::mutex> lock(st.mutex);
  if (!st.loaded) {
    // Unset: the shipped caches. "" or "none": the heuristic alone. Else a file.
    const char* env = std::getenv("GEMMSCOPE_TUNE_CACHE");
    if (env == nullptr)
      load_shipped_locked(st);
    else
      load_locked(st, std::string_view(env) == "none" ? "" : env);
  }
  int device = 0;
  check_cuda(cudaGetDevice(&device), "k10 device");
  const auto memo = std::make_tuple(device, s.m, s.n, s.k);
  if (auto it = st.chosen.find(memo); it != st.chosen.end()) return it->second;
  if (const tune::TuneEntry* e = st.cache.find(tune_key_here(s))) {
    try {
      return st.chosen[memo] = TunedChoice{tune::parse_config(e->config), "tuning cache " + st.path};
    } catch (const tune::ConfigError& err) {
      std::fprintf(stderr, "gemmscope: ignoring the tuning cache's entry for %ldx%ldx%ld: %s\n",
                   static_cast<long>(s.m), static_cast<long>(s.n), static_cast<long>(s.k), err.what());
    }
  }
  return st.chosen[memo] = TunedChoice{tune::heuristic({s.m, s.n, s.k}, sm90::k10::sm_count(device)), "heuristic"};
}

}  // namespace gemmscope
