// Probe: the thread/register -> Tensor Memory cell maps of tcgen05.ld and tcgen05.st,
// for every shape (32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2) and several .num.
// Load: every cell of the warp's 32 lanes first holds a code of its own lane and
// column (written with tcgen05.st.32x32b, the map the PTX ISA figure states); the
// shape under test then loads at (lane base, column 32) and each register's code names
// the cell it read. Store: the cells first hold a sentinel; the shape under test
// stores a code of (thread, register); a 32x32b dump of lanes base..base+31, columns
// 0..95 shows where each landed. PTX ISA: "tcgen05.ld", "tcgen05.st", "Matrix
// fragments for tcgen05.ld/st" (tcgen05-matrix-fragments).
#include "sm100_probe_cuda.cuh"

namespace gemmscope::probes {
namespace {
using namespace sm100;

enum Shape : int { k32x32b, k16x64b, k16x128b, k16x256b, k16x32bx2 };

constexpr uint32_t kAllocatedColumns = 128;
constexpr uint32_t kColumnBase = 32;      // the instruction's column: a nonzero column field
constexpr uint32_t kWindowColumns = 96;   // store: dumped columns 0..95 of the warp's lanes
constexpr uint32_t kLoadTag = 0x80000000u;   // cell (lane, column) holds tag | lane << 16 | column
constexpr uint32_t kStoreTag = 0x40000000u;  // thread t register j stores tag | t << 8 | j

constexpr uint32_t registers_per_repeat(int shape) {
  return shape == k16x128b ? 2 : shape == k16x256b ? 4 : 1;  // 32x32b 32x1, 16x64b 16x2, 16x128b 16x4, 16x256b 16x8
}
const char* shape_name(int shape) {
  switch (shape) {
    case k32x32b: return "32x32b";
    case k16x64b: return "16x64b";
    case k16x128b: return "16x128b";
    case k16x256b: return "16x256b";
    case k16x32bx2: return "16x32bx2";
  }
  return "?";
}

template <int S, int Num, int Split>
__device__ __forceinline__ void tmem_load(uint32_t (&r)[registers_per_repeat(S) * Num], uint32_t taddr) {
  if constexpr (S == k32x32b) ptx::tcgen05_ld_32x32b(r, taddr);
  else if constexpr (S == k16x64b) ptx::tcgen05_ld_16x64b(r, taddr);
  else if constexpr (S == k16x128b) ptx::tcgen05_ld_16x128b(r, taddr);
  else if constexpr (S == k16x256b) ptx::tcgen05_ld_16x256b(r, taddr);
  else ptx::tcgen05_ld_16x32bx2(r, taddr, ptx::n32_t<Split>{});
}
template <int S, int Num, int Split>
__device__ __forceinline__ void tmem_store(uint32_t taddr, const uint32_t (&r)[registers_per_repeat(S) * Num]) {
  if constexpr (S == k32x32b) ptx::tcgen05_st_32x32b(taddr, r);
  else if constexpr (S == k16x64b) ptx::tcgen05_st_16x64b(taddr, r);
  else if constexpr (S == k16x128b) ptx::tcgen05_st_16x128b(taddr, r);
  else if constexpr (S == k16x256b) ptx::tcgen05_st_16x256b(taddr, r);
  else ptx::tcgen05_st_16x32bx2(taddr, ptx::n32_t<Split>{}, r);
}

// 4 warps; warp `warp_under_test` runs the instruction on its lane quadrant.
// Load: out[t * R + j] = register j of thread t. Store: out[l * 96 + c] = cell (base + l, c).
template <int S, int Num, int Split, bool Store>
__global__ void __launch_bounds__(128, 1) ldst_kernel(uint32_t warp_under_test, uint32_t* out) {
  constexpr uint32_t R = registers_per_repeat(S) * Num;
  __shared__ uint32_t tmem_base_slot;
  const uint32_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base_slot, uint32_t{kAllocatedColumns});
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  tcgen05_cta_sync();
  const uint32_t base = tmem_base_slot;
  tmem_fill_quadrant(base, 0, kAllocatedColumns, [](uint32_t l, uint32_t c) {
    return Store ? kSentinel : kLoadTag | l << 16 | c;
  });
  tcgen05_cta_sync();
  const uint32_t lane_base = 32 * (warp % 4);
  if (warp == warp_under_test) {
    uint32_t r[R];
    if constexpr (Store) {
#pragma unroll
      for (uint32_t j = 0; j < R; ++j) r[j] = kStoreTag | lane << 8 | j;
      tmem_store<S, Num, Split>(tmem_at(base, lane_base, kColumnBase), r);
      ptx::tcgen05_wait_st();
    } else {
      tmem_load<S, Num, Split>(r, tmem_at(base, lane_base, kColumnBase));
      ptx::tcgen05_wait_ld();
#pragma unroll
      for (uint32_t j = 0; j < R; ++j) out[lane * R + j] = r[j];
    }
  }
  tcgen05_cta_sync();
  if (Store && warp == warp_under_test) tmem_dump_quadrant(base, 0, kWindowColumns, out, kWindowColumns);
  tcgen05_cta_sync();
  if (warp == 0) ptx::tcgen05_dealloc(ptx::cta_group_1, base, uint32_t{kAllocatedColumns});
}

template <int S, int Num, int Split, bool Store>
Json run_kernel(uint32_t warp) {
  require_sm100();
  constexpr uint32_t R = registers_per_repeat(S) * Num;
  DeviceBuffer<uint32_t> out(Store ? 32 * kWindowColumns : 32 * R);
  GEMMSCOPE_PROBE_CUDA(cudaMemset(out.get(), 0, out.bytes()));
  ldst_kernel<S, Num, Split, Store><<<1, 128>>>(warp, out.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> v = out.download();
  return Store ? Json{{"tmem", v}} : Json{{"regs", v}};
}

struct Variant {
  int shape;
  int num;
  int split;  // 16x32bx2: immHalfSplitoff (columns from the lower half-warp's to the upper's)
  Json (*load)(uint32_t);
  Json (*store)(uint32_t);
};
#define GS_VARIANT(S, N, SPLIT) Variant{S, N, SPLIT, &run_kernel<S, N, SPLIT, false>, &run_kernel<S, N, SPLIT, true>}
// x1 of every shape; the repeats the model reads from libraries (x2, x4, x8); the
// epilogue's 32x32b.x32; the half-split offset at, past and well past .num.
const Variant kVariants[] = {
    GS_VARIANT(k32x32b, 1, 0),   GS_VARIANT(k32x32b, 4, 0),   GS_VARIANT(k32x32b, 32, 0),
    GS_VARIANT(k16x64b, 1, 0),   GS_VARIANT(k16x64b, 2, 0),   GS_VARIANT(k16x64b, 8, 0),
    GS_VARIANT(k16x128b, 1, 0),  GS_VARIANT(k16x128b, 2, 0),  GS_VARIANT(k16x128b, 4, 0),
    GS_VARIANT(k16x256b, 1, 0),  GS_VARIANT(k16x256b, 2, 0),  GS_VARIANT(k16x256b, 4, 0),
    GS_VARIANT(k16x32bx2, 1, 1), GS_VARIANT(k16x32bx2, 1, 16), GS_VARIANT(k16x32bx2, 2, 2),
    GS_VARIANT(k16x32bx2, 4, 8),
};
#undef GS_VARIANT

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ProbeCase> cases;
  for (const bool store : {false, true})
    for (const Variant& v : kVariants)
      for (const uint32_t warp : {0u, 2u}) {
        // The second quadrant only for x1 of the two most used shapes: the lane base.
        if (warp == 2 && !(v.num == 1 && (v.shape == k32x32b || v.shape == k16x64b))) continue;
        const uint32_t regs = registers_per_repeat(v.shape) * static_cast<uint32_t>(v.num);
        std::string name = std::string(store ? "st_" : "ld_") + shape_name(v.shape) + ".x" + std::to_string(v.num);
        if (v.shape == k16x32bx2) name += "_split" + std::to_string(v.split);
        if (warp != 0) name += "_warp" + std::to_string(warp);
        Json params{{"direction", store ? "st" : "ld"},
                    {"shape", shape_name(v.shape)},
                    {"num", v.num},
                    {"half_split_offset", v.split},
                    {"warp", warp},
                    {"lane_base", 32 * warp},
                    {"column_base", kColumnBase},
                    {"registers", regs},
                    {"allocated_columns", kAllocatedColumns}};
        if (store) {
          params["window_columns"] = kWindowColumns;
          params["code"] = "thread t register j stores 0x40000000 | t << 8 | j; other cells 0xFFFFFFFF";
        } else {
          params["code"] = "TMEM cell (lane, column) holds 0x80000000 | lane << 16 | column (absolute)";
        }
        auto run = store ? v.store : v.load;
        cases.push_back(ProbeCase{name, std::move(params), [run, warp] { return run(warp); }});
      }
  return cases;
}

}  // namespace

ProbeDefinition sm100_tmem_ldst_probe() {
  return {"sm100_tmem_ldst",
          "tcgen05.ld and tcgen05.st of every shape and several .num on one warp's lane quadrant: which TMEM cell "
          "(lane, column) each thread's register reads or writes",
          {"the 16x64b and 16x32bx2 thread maps (model::tmem_ld_cell, read from CUTLASS/TVM)",
           "the .num repeat order of the 16-lane shapes (16x64b, 16x128b, 16x256b: +columns per repeat)",
           "16x32bx2: the upper half-warp's columns at immHalfSplitoff",
           "32x32b (thread t = lane t, register j = column j) and the warp-quadrant lane base"},
          make_cases};
}

}  // namespace gemmscope::probes
