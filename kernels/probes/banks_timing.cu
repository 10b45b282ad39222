// Probe: what a warp's shared-memory load costs, pattern by pattern. Each pattern
// is a per-lane byte offset and a width (4, 8 or 16 bytes). The timing kernel runs
// batches of 16 independent ld.shared per warp, timed with clock64 against an empty
// loop; with 1 warp and with 8 warps per CTA (the 8-warp figure is shared-memory
// throughput bound). The ncu-friendly mode launches one small kernel per pattern
// (grid = pattern index + 1 blocks, so tools/ncu-banks can tell the launches apart)
// for the per-launch counters l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld and
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.
// Facts probed: docs/hardware.md#smem-banks to #banks-16b-phases (banks, wavefronts, phases).
#include <algorithm>

#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr int kBatch = 16;              // independent loads in flight per batch
constexpr int kIterations = 256;        // batches per timed pass
constexpr int kPasses = 5;              // timed passes; the minimum is kept
constexpr int kNcuBatches = 4;          // ncu mode: 64 loads per warp, one pass
constexpr int kSmemBytes = 8192;        // every pattern stays inside 4 KiB

struct Pattern {
  std::string name;
  int width_bytes;
  std::vector<uint32_t> offsets;  // 32 byte offsets
  std::string note;
};

template <int Width>
struct LoadOf;
template <>
struct LoadOf<4> {
  __device__ __forceinline__ static uint32_t load(uint32_t a) {
    uint32_t v;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
    return v;
  }
};
template <>
struct LoadOf<8> {
  __device__ __forceinline__ static uint32_t load(uint32_t a) {
    uint32_t v0, v1;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a));
    return v0 ^ v1;
  }
};
template <>
struct LoadOf<16> {
  __device__ __forceinline__ static uint32_t load(uint32_t a) {
    uint32_t v0, v1, v2, v3;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
    return v0 ^ v1 ^ v2 ^ v3;
  }
};

// `batches` batches of kBatch loads from this lane's address; the XOR keeps them alive.
template <int Width>
__device__ __forceinline__ uint32_t load_batches(uint32_t address, int batches) {
  uint32_t acc = 0;
#pragma unroll 1
  for (int b = 0; b < batches; ++b) {
    uint32_t v[kBatch];
#pragma unroll
    for (int i = 0; i < kBatch; ++i) v[i] = LoadOf<Width>::load(address);
#pragma unroll
    for (int i = 0; i < kBatch; ++i) acc ^= v[i];
  }
  return acc;
}

__device__ __forceinline__ uint32_t empty_batches(uint32_t seed, int batches) {
  uint32_t acc = seed;
#pragma unroll 1
  for (int b = 0; b < batches; ++b) asm volatile("xor.b32 %0, %0, %1;" : "+r"(acc) : "r"(b));
  return acc;
}

// cycles[warp * 2 + 0] = min loop cycles, [.. + 1] = min empty-loop cycles.
template <int Width>
__global__ void bank_timing_kernel(const uint32_t* offsets, long long* cycles, uint32_t* sink) {
  __shared__ __align__(128) uint32_t smem[kSmemBytes / 4];
  for (int i = threadIdx.x; i < kSmemBytes / 4; i += blockDim.x) smem[i] = static_cast<uint32_t>(i * 2654435761u);
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const uint32_t address = probe_smem_u32(smem) + offsets[lane];
  long long best = -1, best_empty = -1;
  uint32_t acc = 0;
  for (int pass = 0; pass < kPasses; ++pass) {
    __syncthreads();
    const long long t0 = clock64();
    acc ^= load_batches<Width>(address, kIterations);
    const long long t1 = clock64();
    acc ^= empty_batches(acc, kIterations);
    const long long t2 = clock64();
    if (best < 0 || t1 - t0 < best) best = t1 - t0;
    if (best_empty < 0 || t2 - t1 < best_empty) best_empty = t2 - t1;
  }
  if (lane == 0) {
    cycles[warp * 2 + 0] = best;
    cycles[warp * 2 + 1] = best_empty;
  }
  sink[threadIdx.x] = acc;
}

template <int Width>
__global__ void bank_ncu_kernel(const uint32_t* offsets, uint32_t* sink) {
  __shared__ __align__(128) uint32_t smem[kSmemBytes / 4];
  for (int i = threadIdx.x; i < kSmemBytes / 4; i += blockDim.x) smem[i] = static_cast<uint32_t>(i);
  __syncthreads();
  const uint32_t address = probe_smem_u32(smem) + offsets[threadIdx.x % 32];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = load_batches<Width>(address, kNcuBatches);
}

template <int Width>
Json run_timing(const Pattern& p) {
  DeviceBuffer<uint32_t> offsets(32);
  offsets.upload(p.offsets);
  Json observed = Json::object();
  for (int warps : {1, 8}) {
    DeviceBuffer<long long> cycles(2 * warps);
    DeviceBuffer<uint32_t> sink(32 * warps);
    bank_timing_kernel<Width><<<1, 32 * warps>>>(offsets.get(), cycles.get(), sink.get());
    GEMMSCOPE_PROBE_LAUNCHED();
    const std::vector<long long> c = cycles.download();
    long long loop = 0, empty = 0;
    for (int w = 0; w < warps; ++w) {
      loop = std::max(loop, c[2 * w]);
      empty = std::max(empty, c[2 * w + 1]);
    }
    const double loads_per_warp = double(kIterations) * kBatch;
    const std::string key = "w" + std::to_string(warps);
    observed[key] = {{"warps", warps},
                     {"loop_cycles", loop},
                     {"empty_loop_cycles", empty},
                     {"loads_per_warp", static_cast<long long>(loads_per_warp)},
                     // SM-wide: cycles per warp-instruction of all warps together.
                     {"cycles_per_load", double(loop - empty) / (loads_per_warp * warps)}};
  }
  return observed;
}

template <int Width>
Json run_ncu(const Pattern& p, int index) {
  DeviceBuffer<uint32_t> offsets(32);
  offsets.upload(p.offsets);
  const int blocks = index + 1;
  DeviceBuffer<uint32_t> sink(32 * blocks);
  bank_ncu_kernel<Width><<<blocks, 32>>>(offsets.get(), sink.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  return Json{{"ncu_launch", {{"kernel", "bank_ncu_kernel"},
                              {"grid_blocks", blocks},
                              {"loads_per_warp", kNcuBatches * kBatch},
                              {"load_instructions", blocks * kNcuBatches * kBatch}}}};
}

std::vector<uint32_t> lanes(uint32_t (*f)(uint32_t)) {
  std::vector<uint32_t> v(32);
  for (uint32_t l = 0; l < 32; ++l) v[l] = f(l);
  return v;
}

std::vector<Pattern> patterns() {
  std::vector<Pattern> p;
  // 4-byte loads: one phase of 32 lanes (working model).
  p.push_back({"w4_linear", 4, lanes([](uint32_t l) { return 4 * l; }), "32 banks once: 1 wavefront"});
  p.push_back({"w4_broadcast", 4, lanes([](uint32_t) { return 0u; }), "one word to all lanes"});
  p.push_back({"w4_pairs_same_word", 4, lanes([](uint32_t l) { return 4 * (l / 2); }), "two lanes per word"});
  p.push_back({"w4_permuted", 4, lanes([](uint32_t l) { return 4 * ((7 * l) % 32); }), "a permutation of one row"});
  p.push_back({"w4_stride2", 4, lanes([](uint32_t l) { return 8 * l; }), "2-way"});
  p.push_back({"w4_stride4", 4, lanes([](uint32_t l) { return 16 * l; }), "4-way"});
  p.push_back({"w4_stride8", 4, lanes([](uint32_t l) { return 32 * l; }), "8-way"});
  p.push_back({"w4_stride32", 4, lanes([](uint32_t l) { return 128 * l; }), "32-way: every lane bank 0"});
  p.push_back({"w4_bank0_two_words", 4, lanes([](uint32_t l) { return 128 * (l % 2); }), "2 distinct words in bank 0"});
  p.push_back({"w4_bank0_four_words", 4, lanes([](uint32_t l) { return 128 * (l % 4); }), "4 distinct words in bank 0"});
  p.push_back({"w4_stride33", 4, lanes([](uint32_t l) { return 132 * l; }), "padded stride: conflict-free"});
  // 8-byte loads: two phases (lanes 0-15, 16-31) in the working model.
  p.push_back({"w8_linear", 8, lanes([](uint32_t l) { return 8 * l; }), "256 contiguous bytes"});
  p.push_back({"w8_broadcast", 8, lanes([](uint32_t) { return 0u; }), "one 8-byte word to all lanes"});
  p.push_back({"w8_dup_across_phases", 8, lanes([](uint32_t l) { return 8 * (l % 16); }),
               "lanes l and l+16 read the same address (duplicate across the two phases)"});
  p.push_back({"w8_phases_swapped", 8, lanes([](uint32_t l) { return 8 * ((l + 16) % 32); }),
               "lane halves swap their 128-byte halves"});
  p.push_back({"w8_stride16", 8, lanes([](uint32_t l) { return 16 * l; }), "2-way inside each phase"});
  p.push_back({"w8_stride128", 8, lanes([](uint32_t l) { return 128 * l; }), "16-way inside each phase"});
  p.push_back({"w8_same_banks_both_phases", 8, lanes([](uint32_t l) { return 8 * (l % 16) + 128 * (l / 16); }),
               "each phase conflict-free, the two phases on the same banks, different words"});
  p.push_back({"w8_interleaved_halves", 8, lanes([](uint32_t l) { return 8 * (2 * (l % 16) + l / 16); }),
               "lanes 0-15 even 8-byte words, 16-31 odd: a phase covers 256 bytes, 2-way"});
  // 16-byte loads: four phases of 8 lanes in the working model.
  p.push_back({"w16_linear", 16, lanes([](uint32_t l) { return 16 * l; }), "512 contiguous bytes"});
  p.push_back({"w16_broadcast", 16, lanes([](uint32_t) { return 0u; }), "one 16-byte word to all lanes"});
  p.push_back({"w16_dup_quarters", 16, lanes([](uint32_t l) { return 16 * (l % 8); }),
               "the 4 phases read the same 128 bytes"});
  p.push_back({"w16_dup_halves", 16, lanes([](uint32_t l) { return 16 * (l % 16); }),
               "lanes l and l+16 read the same address"});
  p.push_back({"w16_stride32", 16, lanes([](uint32_t l) { return 32 * l; }), "2-way inside each phase"});
  p.push_back({"w16_stride128", 16, lanes([](uint32_t l) { return 128 * l; }), "8-way inside each phase"});
  p.push_back({"w16_ldmatrix_rows_unswizzled", 16, lanes([](uint32_t l) { return 128 * (l % 8) + 16 * (l / 8); }),
               "ldmatrix-like rows of a 128-byte-pitch tile, no swizzle"});
  p.push_back({"w16_ldmatrix_rows_swizzled", 16,
               lanes([](uint32_t l) { return 128 * (l % 8) + 16 * ((l / 8) ^ (l % 8)); }),
               "the same rows under the 128B swizzle"});
  p.push_back({"w16_pairs_phase_mix", 16, lanes([](uint32_t l) { return 16 * ((l % 4) + 4 * (l / 16)) + 128 * ((l / 4) % 4); }),
               "phases mixing two 128-byte rows at the same banks"});
  return p;
}

std::vector<ProbeCase> make_cases(const ProbeOptions& options) {
  std::vector<ProbeCase> cases;
  const std::vector<Pattern> list = patterns();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Pattern& p = list[i];
    Json params{{"width_bytes", p.width_bytes},
                {"lane_offsets_bytes", p.offsets},
                {"note", p.note},
                {"mode", options.ncu_friendly ? "ncu" : "timing"},
                {"batch_loads", kBatch},
                {"pattern_index", i}};
    const int index = static_cast<int>(i);
    std::function<Json()> run;
    if (options.ncu_friendly) {
      if (p.width_bytes == 4) run = [p, index] { return run_ncu<4>(p, index); };
      if (p.width_bytes == 8) run = [p, index] { return run_ncu<8>(p, index); };
      if (p.width_bytes == 16) run = [p, index] { return run_ncu<16>(p, index); };
    } else {
      if (p.width_bytes == 4) run = [p] { return run_timing<4>(p); };
      if (p.width_bytes == 8) run = [p] { return run_timing<8>(p); };
      if (p.width_bytes == 16) run = [p] { return run_timing<16>(p); };
    }
    cases.push_back({p.name, std::move(params), std::move(run)});
  }
  return cases;
}

}  // namespace

ProbeDefinition banks_timing_probe() {
  return {"banks_timing",
          "shared-memory load cost per warp access pattern (4/8/16-byte loads; conflicts, broadcasts, duplicates "
          "across phases), clock64-timed with 1 and 8 warps; with --ncu-friendly one launch per pattern for ncu",
          {"cycles per load instruction rank the patterns as model::analyze's wavefronts do (fitted a + b*wavefronts)",
           "whether duplicate addresses across the phases of 8/16-byte loads cost extra wavefronts",
           "with tools/ncu-banks: wavefronts and bank-conflict counters per instruction, exactly"},
          make_cases};
}

}  // namespace gemmscope::probes
