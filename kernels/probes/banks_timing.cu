// Probe: what a warp's shared-memory load or store costs, pattern by pattern. Each
// pattern is a per-lane byte offset, a width (4, 8 or 16 bytes) and a kind (load or
// store). The timing kernel (loads of the 28 crafted patterns only) runs
// batches of 16 independent ld.shared per warp, timed with clock64 against an empty
// loop; with 1 warp and with 8 warps per CTA (the 8-warp figure is shared-memory
// throughput bound). The ncu-friendly mode launches one small kernel per pattern
// (grid = pattern index + 1 blocks, so tools/ncu-banks can tell the launches apart)
// for the per-launch counters l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld and
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld (stores: bank_ncu_store_kernel
// and the _op_st counters). After the 28 crafted loads comes a generated family
// (family "rules", ncu mode only): 4/8/16-byte loads and stores with 1, 2, 4 or 8
// distinct addresses in the same or in different banks, in arrangements that tell
// candidate phase rules apart, plus seeded random patterns with few distinct
// addresses; every load pattern of the family also appears as a store.
// Facts probed: docs/hardware.md#smem-banks to #banks-16b-phases (banks, wavefronts, phases).
#include <algorithm>
#include <cstdio>

#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr int kBatch = 16;              // independent loads in flight per batch
constexpr int kIterations = 256;        // batches per timed pass
constexpr int kPasses = 5;              // timed passes; the minimum is kept
constexpr int kNcuBatches = 4;          // ncu mode: 64 loads per warp, one pass
constexpr int kSmemBytes = 8192;        // every pattern stays inside 4 KiB
constexpr int kPatternWindow = 4096;    // the bytes a pattern may touch
constexpr int kRandomPatterns = 48;     // seeded random patterns per width and kind

enum class Kind { Load, Store };

struct Pattern {
  std::string name;
  int width_bytes;
  std::vector<uint32_t> offsets;  // 32 byte offsets
  std::string note;
  Kind kind = Kind::Load;
  std::string family = "crafted";  // "crafted": the 28 original loads; "rules": the generated family
  Json extra = Json::object();     // family "rules": distinct_addresses, placement, arrangement, seed
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

template <int Width>
struct StoreOf;
template <>
struct StoreOf<4> {
  __device__ __forceinline__ static void store(uint32_t a, uint32_t v) {
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
  }
};
template <>
struct StoreOf<8> {
  __device__ __forceinline__ static void store(uint32_t a, uint32_t v) {
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
  }
};
template <>
struct StoreOf<16> {
  __device__ __forceinline__ static void store(uint32_t a, uint32_t v) {
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1), "r"(v + 2),
                 "r"(v + 3)
                 : "memory");
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

// Stores: no shared-memory initialisation (it would add 4-byte stores to the store
// counters); the values differ per lane and per store, so nothing can be elided.
template <int Width>
__global__ void bank_ncu_store_kernel(const uint32_t* offsets, uint32_t* sink) {
  __shared__ __align__(128) uint32_t smem[kSmemBytes / 4];
  const uint32_t address = probe_smem_u32(smem) + offsets[threadIdx.x % 32];
  const uint32_t seed = threadIdx.x * 16u + 1u;
#pragma unroll 1
  for (int b = 0; b < kNcuBatches; ++b) {
#pragma unroll
    for (int i = 0; i < kBatch; ++i) StoreOf<Width>::store(address, seed + 4u * (b * kBatch + i));
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = seed;
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
  const bool store = p.kind == Kind::Store;
  if (store)
    bank_ncu_store_kernel<Width><<<blocks, 32>>>(offsets.get(), sink.get());
  else
    bank_ncu_kernel<Width><<<blocks, 32>>>(offsets.get(), sink.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::string op = store ? "store" : "load";
  return Json{{"ncu_launch", {{"kernel", store ? "bank_ncu_store_kernel" : "bank_ncu_kernel"},
                              {"kind", op},
                              {"grid_blocks", blocks},
                              {op + "s_per_warp", kNcuBatches * kBatch},
                              {op + "_instructions", blocks * kNcuBatches * kBatch}}}};
}

std::vector<uint32_t> lanes(uint32_t (*f)(uint32_t)) {
  std::vector<uint32_t> v(32);
  for (uint32_t l = 0; l < 32; ++l) v[l] = f(l);
  return v;
}

// ---- the generated family ("rules") ----------------------------------------------
// A few distinct width-aligned addresses ("chunks"), repeated over the 32 lanes.
// Phase p below means the 128-byte phases of the plain rule (8 B: 16 lanes, 16 B: 8).
// Placements: "same" = every chunk in the same banks (chunk i at i * 128 bytes);
// "diff" = chunks side by side (chunk i at i * width: different banks while they fit
// in 128 bytes); "mixed" = pairs in the same banks, the pairs side by side (chunk i
// at (i / 2) * width + (i % 2) * 128).
uint32_t chunk_address(const std::string& placement, int width, int i) {
  if (placement == "same") return 128u * uint32_t(i);
  if (placement == "diff") return uint32_t(width) * uint32_t(i);
  // mixed: chunks 2j and 2j+1 share banks (one row apart); the pairs sit side by side.
  return uint32_t(width) * uint32_t(i / 2) + 128u * uint32_t(i % 2);
}

// splitmix64: deterministic, the same on every host.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Arranged {
  std::string name;                 // arrangement name
  std::vector<int> chunk_of_lane;   // 32 chunk indices
  std::string note;
};

// The arrangements for `k` distinct chunks at `width` bytes (k divides 32).
std::vector<Arranged> arrangements(int width, int k) {
  const int phase_lanes = 128 / width;  // lanes per 128-byte phase
  const int phases = 32 / phase_lanes;
  std::vector<Arranged> out;
  auto make = [&](const std::string& name, const std::string& note, auto f) {
    Arranged a{name, std::vector<int>(32), note};
    for (int l = 0; l < 32; ++l) a.chunk_of_lane[l] = f(l);
    out.push_back(std::move(a));
  };
  if (k == 1) {
    make("uniform", "every lane the same chunk", [](int) { return 0; });
    return out;
  }
  make("blocked", "lanes 32/k*i .. 32/k*(i+1)-1 share chunk i", [k](int l) { return l / (32 / k); });
  make("roundrobin", "lane l reads chunk l mod k (every phase holds every chunk)", [k](int l) { return l % k; });
  // A fixed odd-multiplier permutation of the lanes, then blocked: no lane order.
  make("shuffled", "chunk ((7 l + 3) mod 32) / (32/k): blocked over permuted lanes",
       [k](int l) { return ((7 * l + 3) % 32) / (32 / k); });
  if (k == 2) {
    make("halfphase_alt", "blocks of half a phase alternate chunk 0, 1, 0, 1, ...",
         [phase_lanes](int l) { return (l / (phase_lanes / 2)) % 2; });
    if (phases >= 4)
      make("phase_alt", "phase p reads chunk p mod 2 (constant within a phase, alternating across phases)",
           [phase_lanes](int l) { return (l / phase_lanes) % 2; });
  }
  return out;
}

void add_rules_family(std::vector<Pattern>& p) {
  const char* kind_names[] = {"ld", "st"};
  for (Kind kind : {Kind::Load, Kind::Store}) {
    const std::string kn = kind_names[kind == Kind::Load ? 0 : 1];
    const std::string kind_word = kind == Kind::Load ? "load" : "store";
    // 4-byte controls (one phase of 32 lanes in every rule considered).
    const int w4k[] = {1, 2, 4, 8};
    for (int k : w4k) {
      for (const std::string placement : {"same", "diff"}) {
        if (k == 1 && placement == "diff") continue;
        const std::string arr = k == 1 ? "uniform" : "roundrobin";
        Pattern q{kn + "_w4_k" + std::to_string(k) + "_" + placement + "_" + arr, 4, std::vector<uint32_t>(32),
                  "4-byte " + kind_word + " control: " + std::to_string(k) + " chunk(s), " + placement +
                      " banks, lane l -> chunk l mod k",
                  kind, "rules"};
        for (int l = 0; l < 32; ++l) q.offsets[l] = chunk_address(placement, 4, l % k);
        q.extra = {{"distinct_addresses", k}, {"placement", placement}, {"arrangement", arr}};
        p.push_back(std::move(q));
      }
    }
    {
      Pattern q{kn + "_w4_linear", 4, std::vector<uint32_t>(32), "4-byte " + kind_word + " control: 32 banks once",
                kind, "rules"};
      for (int l = 0; l < 32; ++l) q.offsets[l] = 4u * l;
      q.extra = {{"distinct_addresses", 32}, {"placement", "diff"}, {"arrangement", "linear"}};
      p.push_back(std::move(q));
    }
    for (int width : {8, 16}) {
      const std::string w = "w" + std::to_string(width);
      const int phase_lanes = 128 / width;
      const int phases = 32 / phase_lanes;
      // k distinct chunks, placement, arrangement.
      for (int k : {1, 2, 4, 8}) {
        for (const std::string placement : {"same", "diff", "mixed"}) {
          if (k == 1 && placement != "same") continue;
          if (k == 2 && placement == "mixed") continue;  // mixed with 2 chunks is "same"
          for (const Arranged& a : arrangements(width, k)) {
            Pattern q{kn + "_" + w + "_k" + std::to_string(k) + "_" + placement + "_" + a.name, width,
                      std::vector<uint32_t>(32),
                      std::to_string(width) + "-byte " + kind_word + ", " + std::to_string(k) + " chunk(s), " +
                          placement + " banks: " + a.note,
                      kind, "rules"};
            for (int l = 0; l < 32; ++l) q.offsets[l] = chunk_address(placement, width, a.chunk_of_lane[l]);
            q.extra = {{"distinct_addresses", k}, {"placement", placement}, {"arrangement", a.name}};
            p.push_back(std::move(q));
          }
        }
      }
      // Repeated only within a phase: phase p reads its own k chunks (p*k .. p*k+k-1),
      // round-robin over its lanes; k = 1 is "constant within each phase, different
      // across phases".
      for (int k : {1, 2, 4}) {
        for (const std::string placement : {"same", "diff"}) {
          Pattern q{kn + "_" + w + "_inphase_k" + std::to_string(k) + "_" + placement, width,
                    std::vector<uint32_t>(32),
                    std::to_string(width) + "-byte " + kind_word + ": phase p reads its own " + std::to_string(k) +
                        " chunk(s) p*k+(l mod k), " + placement + " banks; repeats only within a phase",
                    kind, "rules"};
          for (int l = 0; l < 32; ++l)
            q.offsets[l] = chunk_address(placement, width, (l / phase_lanes) * k + l % k);
          q.extra = {{"distinct_addresses", k * phases}, {"placement", placement}, {"arrangement", "inphase"}};
          p.push_back(std::move(q));
        }
      }
      // Repeated only across phases: a phase's lanes read distinct chunks (one phase's
      // worth), the same chunks in every phase, rotated by 0 or 1 per phase.
      for (int rot : {0, 1}) {
        for (const std::string placement : {"same", "diff"}) {
          Pattern q{kn + "_" + w + "_acrossphase_rot" + std::to_string(rot) + "_" + placement, width,
                    std::vector<uint32_t>(32),
                    std::to_string(width) + "-byte " + kind_word + ": lane l reads chunk (l + " + std::to_string(rot) +
                        " * phase) mod " + std::to_string(phase_lanes) + ", " + placement +
                        " banks; repeats only across phases",
                    kind, "rules"};
          for (int l = 0; l < 32; ++l)
            q.offsets[l] = chunk_address(placement, width, (l % phase_lanes + rot * (l / phase_lanes)) % phase_lanes);
          q.extra = {{"distinct_addresses", phase_lanes}, {"placement", placement},
                     {"arrangement", "acrossphase_rot" + std::to_string(rot)}};
          p.push_back(std::move(q));
        }
      }
      // Seeded random patterns: 2-8 distinct chunks from a pool of 8 rows (128 bytes
      // apart) by 128/width columns. Pattern j: j mod 3 == 0 -> one column (all chunks
      // in the same banks), 1 -> two columns, 2 -> any column. The same offsets are
      // used for loads and stores (the seed depends on width and j only).
      for (int j = 0; j < kRandomPatterns; ++j) {
        uint64_t state = 0x62616E6B73ull * 1000003ull + uint64_t(width) * 7919ull + uint64_t(j);
        const int columns = 128 / width;
        const int n = 2 + j % 7;
        const int mode = j % 3;
        const int col_a = int(splitmix64(state) % uint64_t(columns));
        const int col_b = (col_a + 1 + int(splitmix64(state) % uint64_t(columns - 1))) % columns;
        std::vector<uint32_t> chosen;
        while (static_cast<int>(chosen.size()) < n) {
          const int row = int(splitmix64(state) % 8u);
          int col = col_a;
          if (mode == 1) col = (splitmix64(state) & 1u) ? col_a : col_b;
          if (mode == 2) col = int(splitmix64(state) % uint64_t(columns));
          const uint32_t address = 128u * uint32_t(row) + uint32_t(width) * uint32_t(col);
          if (std::find(chosen.begin(), chosen.end(), address) == chosen.end()) chosen.push_back(address);
        }
        // Every chosen chunk at least once (lanes 0..n-1 before shuffling), the rest random.
        std::vector<uint32_t> offsets(32);
        for (int l = 0; l < 32; ++l) offsets[l] = l < n ? chosen[l] : chosen[splitmix64(state) % uint64_t(n)];
        for (int l = 31; l > 0; --l) std::swap(offsets[l], offsets[splitmix64(state) % uint64_t(l + 1)]);
        const char* mode_name[] = {"onecol", "twocol", "anycol"};
        char idx[8];
        std::snprintf(idx, sizeof idx, "%02d", j);
        Pattern q{kn + "_" + w + "_rand" + idx + "_n" + std::to_string(n) + "_" + mode_name[mode], width,
                  std::move(offsets),
                  std::to_string(width) + "-byte " + kind_word + ", seeded random: " + std::to_string(n) +
                      " distinct chunks from " + mode_name[mode] + " of an 8-row pool",
                  kind, "rules"};
        q.extra = {{"distinct_addresses", n}, {"placement", mode_name[mode]}, {"arrangement", "random"},
                   {"seed_index", j}};
        p.push_back(std::move(q));
      }
    }
  }
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
  add_rules_family(p);
  for (const Pattern& q : p) {
    if (q.offsets.size() != 32) throw ProbeError("banks pattern " + q.name + ": needs 32 lane offsets");
    for (uint32_t o : q.offsets)
      if (o % uint32_t(q.width_bytes) != 0 || o + uint32_t(q.width_bytes) > uint32_t(kPatternWindow))
        throw ProbeError("banks pattern " + q.name + ": lane offset " + std::to_string(o) + " is unaligned or leaves the " +
                         std::to_string(kPatternWindow) + "-byte window");
  }
  return p;
}

std::vector<ProbeCase> make_cases(const ProbeOptions& options) {
  std::vector<ProbeCase> cases;
  const std::vector<Pattern> list = patterns();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Pattern& p = list[i];
    // Timing mode keeps to the crafted loads: the family would make `probe --all` slow
    // and the timing kernel only loads.
    if (!options.ncu_friendly && p.family != "crafted") continue;
    Json params{{"width_bytes", p.width_bytes},
                {"lane_offsets_bytes", p.offsets},
                {"note", p.note},
                {"mode", options.ncu_friendly ? "ncu" : "timing"},
                {"batch_loads", kBatch},
                {"pattern_index", i}};
    if (p.family != "crafted") {
      // The crafted loads keep their params exactly as before (no "kind": load).
      params["kind"] = p.kind == Kind::Load ? "load" : "store";
      params["family"] = p.family;
      for (auto it = p.extra.begin(); it != p.extra.end(); ++it) params[it.key()] = it.value();
    }
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
          "across phases), clock64-timed with 1 and 8 warps (the 28 crafted loads only); with --ncu-friendly one "
          "launch per pattern for ncu, adding the generated loads and stores with few distinct addresses",
          {"cycles per load instruction rank the patterns as model::analyze's wavefronts do (fitted a + b*wavefronts)",
           "whether duplicate addresses across the phases of 8/16-byte loads cost extra wavefronts",
           "with tools/ncu-banks: wavefronts and bank-conflict counters per instruction, exactly",
           "with tools/ncu-banks: which phase rule fits 8/16-byte loads and stores whose few distinct addresses "
           "repeat across phases (tools/bank-rules compares the candidates)"},
          make_cases};
}

}  // namespace gemmscope::probes
