// Probe: which shared-memory element the tensor core reads for each (row, k) of a
// wgmma operand, for K-major and MN-major operands, each swizzle mode, several
// LBO/SBO values, K-advance start offsets and base offsets.
// The operand under test lives in a 32 KiB region whose bf16 element at byte offset
// b holds a code of (b/2 + 1): its low 8 bits in one run, its high bits in a second
// (integers below 256 are exact in bf16). The other operand is a one-hot selector in
// the plain K-major, no-swizzle layout, so that D = A when probing A (B = identity,
// N = 16) and D = B^T when probing B (A = identity, N = 64): each D element is one
// code, exact in fp32, which names the byte the hardware read.
// PTX ISA: "wgmma.mma_async", "Matrix Descriptor Format", "Shared Memory Matrix Layout";
// the accumulator fragment of m64nNk16 (docs/hardware.md#wgmma-accumulator).
#include <cmath>
#include <cstdio>

#include "common/ptx_sm90.cuh"
#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr uint32_t kTestRegionBytes = 32768;
constexpr uint32_t kSelectorRegionBytes = 4096;
constexpr uint32_t kAlignBytes = 1024;
constexpr int kK = 16;
// The selector operand's layout: K-major, no swizzle, core matrices 8 rows x 16 B,
// the two K halves LBO apart, 8-row groups SBO apart.
constexpr uint32_t kSelectorLbo = 128;
constexpr uint32_t kSelectorSbo = 256;

// wgmma m64nNk16 bf16 -> fp32 with the transpose immediates as template
// parameters (common/ptx_sm90.cuh generates K-major only; MN-major needs tnsp = 1).
#define GS_F4(b) "+f"(d[b]), "+f"(d[(b) + 1]), "+f"(d[(b) + 2]), "+f"(d[(b) + 3])
template <int TnspA, int TnspB>
__device__ __forceinline__ void wgmma_m64n16(float (&d)[8], uint64_t desc_a, uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, %10, %11;\n}\n"
      : GS_F4(0), GS_F4(4)
      : "l"(desc_a), "l"(desc_b), "n"(TnspA), "n"(TnspB));
}
template <int TnspA, int TnspB>
__device__ __forceinline__ void wgmma_m64n64(float (&d)[32], uint64_t desc_a, uint64_t desc_b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, %34, %35;\n}\n"
      : GS_F4(0), GS_F4(4), GS_F4(8), GS_F4(12), GS_F4(16), GS_F4(20), GS_F4(24), GS_F4(28)
      : "l"(desc_a), "l"(desc_b), "n"(TnspA), "n"(TnspB));
}
#undef GS_F4

struct DescFields {
  uint32_t start_offset_bytes = 0;  // from the 1024-aligned test region
  uint32_t lbo_bytes = 0;
  uint32_t sbo_bytes = 0;
  uint32_t base_offset = 0;
  uint32_t swizzle_code = 0;        // 0 none, 1 128B, 2 64B, 3 32B
};

// The probe's own encoding (docs/hardware.md#wgmma-desc-sm90), independent of model/desc_sm90.
__host__ __device__ constexpr uint64_t encode_desc(uint32_t address, uint32_t lbo, uint32_t sbo, uint32_t base_offset,
                                                   uint32_t swizzle_code) {
  return (uint64_t{(address & 0x3FFFF) >> 4}) | (uint64_t{(lbo & 0x3FFFF) >> 4} << 16) |
         (uint64_t{(sbo & 0x3FFFF) >> 4} << 32) | (uint64_t{base_offset & 7} << 49) |
         (uint64_t{swizzle_code & 3} << 62);
}

__device__ __forceinline__ uint16_t bf16_of_small_int(uint32_t v) {
  return static_cast<uint16_t>(__float_as_uint(static_cast<float>(v)) >> 16);  // exact for v < 2^8
}

// Byte offset of (row, k) in the selector layout.
__device__ __forceinline__ uint32_t selector_offset(uint32_t row, uint32_t k) {
  return (row % 8) * 16 + (k % 8) * 2 + (k / 8) * kSelectorLbo + (row / 8) * kSelectorSbo;
}

// d_out: two runs (low code bits, high code bits) of the 64 x N accumulator, row-major.
// info[0] = test region address, info[1..2] = descriptor under test (low, high word).
template <int N, bool ProbeB, int TnspA, int TnspB>
__global__ void wgmma_desc_kernel(DescFields f, float* d_out, uint32_t* info) {
  extern __shared__ uint8_t smem_raw[];
  const uint32_t raw = probe_smem_u32(smem_raw);
  uint8_t* test = smem_raw + ((kAlignBytes - raw % kAlignBytes) % kAlignBytes);
  uint8_t* selector = test + kTestRegionBytes;
  uint16_t* test16 = reinterpret_cast<uint16_t*>(test);
  uint16_t* selector16 = reinterpret_cast<uint16_t*>(selector);
  const uint32_t tid = threadIdx.x;

  // The selector: B = identity (16 x 16) when probing A; A = [I16; 0] (64 x 16) when probing B.
  for (uint32_t i = tid; i < kSelectorRegionBytes / 2; i += blockDim.x) selector16[i] = 0;
  __syncthreads();
  if (tid < kK) selector16[selector_offset(tid, tid) / 2] = bf16_of_small_int(1);

  const uint32_t test_address = probe_smem_u32(test);
  const uint64_t desc_test =
      encode_desc(test_address + f.start_offset_bytes, f.lbo_bytes, f.sbo_bytes, f.base_offset, f.swizzle_code);
  const uint64_t desc_selector = encode_desc(probe_smem_u32(selector), kSelectorLbo, kSelectorSbo, 0, 0);
  const uint64_t desc_a = ProbeB ? desc_selector : desc_test;
  const uint64_t desc_b = ProbeB ? desc_test : desc_selector;

  const uint32_t warp = tid / 32, lane = tid % 32;
  for (int run = 0; run < 2; ++run) {
    for (uint32_t i = tid; i < kTestRegionBytes / 2; i += blockDim.x) {
      const uint32_t code = i + 1;
      test16[i] = bf16_of_small_int(run == 0 ? (code & 0xFF) : (code >> 8));
    }
    // Generic-proxy stores, then the tensor core's async-proxy reads.
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    __syncthreads();
    float d[N / 2];
    for (int i = 0; i < N / 2; ++i) d[i] = 0.f;
    ptx::wgmma_fence();
    if constexpr (N == 16) wgmma_m64n16<TnspA, TnspB>(d, desc_a, desc_b);
    else wgmma_m64n64<TnspA, TnspB>(d, desc_a, desc_b);
    ptx::wgmma_commit_group();
    ptx::wgmma_wait_group<0>();
    // Accumulator fragment of m64nNk16 (fp32).
    for (int i = 0; i < N / 2; ++i) {
      const uint32_t row = 16 * warp + lane / 4 + 8 * ((i >> 1) & 1);
      const uint32_t col = 2 * (lane % 4) + (i & 1) + 8 * (i >> 2);
      d_out[run * 64 * N + row * N + col] = d[i];
    }
    __syncthreads();
  }
  if (tid == 0) {
    info[0] = test_address;
    info[1] = static_cast<uint32_t>(desc_test);
    info[2] = static_cast<uint32_t>(desc_test >> 32);
  }
}

struct WgmmaCase {
  std::string name;
  bool probe_b = false;  // operand under test: A (rows = M = 64) or B (rows = N = 64)
  bool mn_major = false;
  DescFields f;
};

const char* swizzle_name(uint32_t code) {
  switch (code) {
    case 0: return "none";
    case 1: return "128B";
    case 2: return "64B";
    case 3: return "32B";
  }
  return "?";
}

template <int N, bool ProbeB, int TnspA, int TnspB>
Json run_kernel(const WgmmaCase& c) {
  const int smem = static_cast<int>(kTestRegionBytes + kSelectorRegionBytes + kAlignBytes);
  allow_dynamic_smem(wgmma_desc_kernel<N, ProbeB, TnspA, TnspB>, smem);
  DeviceBuffer<float> d(2 * 64 * N);
  DeviceBuffer<uint32_t> info(3);
  wgmma_desc_kernel<N, ProbeB, TnspA, TnspB><<<1, 128, smem>>>(c.f, d.get(), info.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<float> dv = d.download();
  const std::vector<uint32_t> inf = info.download();
  // elem_offset_bytes[row * 16 + k]: byte offset (from the test region) that fed
  // operand element (row, k); -1 when nothing was read (D = 0), -2 when D is not a
  // single code (not an integer in range: the selector did not select one element).
  std::vector<int64_t> offsets(64 * kK);
  std::vector<double> raw_low(64 * kK), raw_high(64 * kK);
  for (int row = 0; row < 64; ++row)
    for (int k = 0; k < kK; ++k) {
      // Probing A: D[m][n = k]; probing B: D[m = k][n = row].
      const int index = ProbeB ? k * N + row : row * N + k;
      const float lo = dv[index], hi = dv[64 * N + index];
      raw_low[row * kK + k] = lo;
      raw_high[row * kK + k] = hi;
      const bool integral = lo == std::floor(lo) && hi == std::floor(hi) && lo >= 0 && lo < 256 && hi >= 0 && hi < 256;
      int64_t value = -2;
      if (integral) {
        const int64_t code = static_cast<int64_t>(lo) + 256 * static_cast<int64_t>(hi);
        value = code == 0 ? -1 : 2 * (code - 1);
      }
      offsets[row * kK + k] = value;
    }
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016llx", (static_cast<unsigned long long>(inf[2]) << 32) | inf[1]);
  return Json{{"region_smem_address", inf[0]},
              {"descriptor", hex},
              {"elem_offset_bytes", traces::golden_runs(offsets)},
              {"d_low", traces::golden_runs(raw_low)},
              {"d_high", traces::golden_runs(raw_high)}};
}

Json run_case(const WgmmaCase& c) {
  if (!c.probe_b) {
    return c.mn_major ? run_kernel<16, false, 1, 0>(c) : run_kernel<16, false, 0, 0>(c);
  }
  return c.mn_major ? run_kernel<64, true, 0, 1>(c) : run_kernel<64, true, 0, 0>(c);
}

ProbeCase make_case(const WgmmaCase& c) {
  Json params{{"operand", c.probe_b ? "B" : "A"},
              {"major", c.mn_major ? "MN" : "K"},
              {"rows", 64},
              {"k_elems", kK},
              {"elem_bytes", 2},
              {"swizzle", swizzle_name(c.f.swizzle_code)},
              {"start_offset_bytes", c.f.start_offset_bytes},
              {"lbo_bytes", c.f.lbo_bytes},
              {"sbo_bytes", c.f.sbo_bytes},
              {"base_offset", c.f.base_offset},
              {"instruction", c.probe_b ? "wgmma m64n64k16 bf16, A = [I16; 0] K-major" : "wgmma m64n16k16 bf16, B = I16 K-major"},
              {"selector_layout", "K-major, no swizzle, LBO 128, SBO 256"},
              {"test_region_bytes", kTestRegionBytes},
              {"code", "element at byte b of the test region = b/2 + 1, low 8 bits in run 1, high in run 2"},
              // The base-offset field's meaning is PTX ISA wording only: the replay
              // reports a model refusal there as a note, not a disagreement.
              {"exploratory", c.f.base_offset != 0}};
  return ProbeCase{c.name, std::move(params), [c] { return run_case(c); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<WgmmaCase> list;
  const auto add = [&](bool probe_b, bool mn, uint32_t swz, uint32_t lbo, uint32_t sbo, uint32_t start = 0,
                       uint32_t base_offset = 0) {
    std::string name = std::string(probe_b ? "B" : "A") + (mn ? "_mn" : "_k") + "_" + swizzle_name(swz) + "_lbo" +
                       std::to_string(lbo) + "_sbo" + std::to_string(sbo);
    if (start) name += "_start" + std::to_string(start);
    if (base_offset) name += "_base" + std::to_string(base_offset);
    list.push_back({name, probe_b, mn, DescFields{start, lbo, sbo, base_offset, swz}});
  };
  constexpr uint32_t kNone = 0, k128 = 1, k64 = 2, k32 = 3;
  for (bool probe_b : {false, true}) {
    // K-major, no swizzle: LBO between the two K core matrices, SBO between 8-row groups.
    add(probe_b, false, kNone, 128, 256);
    add(probe_b, false, kNone, 1024, 128);
    add(probe_b, false, kNone, 2048, 384);
    // K-major, swizzled: SBO between 8-row atoms; LBO unused (16 = "1").
    add(probe_b, false, k32, 16, 256);
    add(probe_b, false, k64, 16, 512);
    add(probe_b, false, k64, 16, 512, 32);
    add(probe_b, false, k128, 16, 1024);
    for (uint32_t start : {32u, 64u, 96u}) add(probe_b, false, k128, 16, 1024, start);  // K advance
    add(probe_b, false, k128, 16, 2048);
    add(probe_b, false, k128, 4096, 1024);  // a large LBO: unused when swizzled?
    // MN-major, no swizzle: LBO between 8-wide K groups, SBO between core matrices along M/N.
    add(probe_b, true, kNone, 1024, 128);
    add(probe_b, true, kNone, 128, 256);
    // MN-major, swizzled: LBO between atoms along M/N, SBO between 8-wide K groups.
    add(probe_b, true, k32, 256, 1024);
    add(probe_b, true, k32, 512, 256);
    add(probe_b, true, k64, 512, 1024);
    add(probe_b, true, k64, 1024, 512);
    add(probe_b, true, k128, 2048, 1024);
    add(probe_b, true, k128, 4096, 2048);
  }
  // Tiles whose start is off the 1024-byte pattern boundary, with base offset 0 and
  // with the base offset the PTX ISA wording asks for ((start >> 7) & 7).
  add(false, false, k128, 16, 1024, 256, 0);
  add(false, false, k128, 16, 1024, 256, 2);
  add(false, false, k128, 16, 1024, 128, 0);
  add(false, false, k128, 16, 1024, 128, 1);
  add(false, false, k64, 16, 512, 128, 0);
  add(false, false, k64, 16, 512, 128, 1);
  std::vector<ProbeCase> cases;
  for (const WgmmaCase& c : list) cases.push_back(make_case(c));
  return cases;
}

}  // namespace

ProbeDefinition wgmma_desc_probe() {
  return {"wgmma_desc",
          "wgmma m64nNk16 bf16 with one operand index-coded and the other a one-hot selector: the shared-memory byte "
          "read for each (row, k) of A and of B, per major-ness, swizzle, LBO/SBO, K-advance start and base offset",
          {"the canonical K-major / MN-major layouts of the descriptor interpreter (LBO and SBO roles per mode)",
           "K advance inside a swizzled K-major tile: start + 32 B per K=16 step, swizzle on absolute addresses",
           "LBO is ignored for swizzled K-major operands",
           "the base-offset field for tiles that start off the pattern boundary"},
          make_cases};
}

}  // namespace gemmscope::probes
