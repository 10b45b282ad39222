// Probe: which shared-memory element tcgen05.mma reads for each (row, k) of an operand
// described by an sm100 shared-memory descriptor: the canonical K-major and MN-major
// layouts for each swizzle mode, K advance inside a 128B-swizzled tile, the base
// offset, and the two fields Hopper's descriptor lacks: the version (bits 46-48,
// which must be 1) and the LBO mode (bit 52, absolute only on sm_103a).
// As in the wgmma_desc probe: the operand under test lives in a 32 KiB region whose
// bf16 element at byte offset b holds a code of (b/2 + 1), low 8 bits in one run and
// the high bits in a second; the other operand is a one-hot selector in the plain
// K-major layout, so that D = A when probing A (B = I16, M = 128, N = 16) and D = B^T
// when probing B (A = [I16; 0], N = 64). cta_group::1, M = 128: accumulator row m is
// TMEM lane m (layout D). PTX ISA: "tcgen05 Shared memory descriptor", "Shared
// memory layout and swizzling", "tcgen05.mma".
#include <cmath>
#include <cstdio>

#include "sm100_probe_cuda.cuh"

namespace gemmscope::probes {
namespace {
using namespace sm100;

constexpr uint32_t kTestRegionBytes = 32768;
constexpr uint32_t kSelectorRegionBytes = 4096;  // 128 rows x 16 K, plain layout
constexpr uint32_t kAlignBytes = 1024;
constexpr uint32_t kM = 128;
constexpr uint32_t kK = 16;
constexpr uint32_t kTmemColumns = 64;

__device__ __forceinline__ uint16_t bf16_of_small_int(uint32_t v) {
  return static_cast<uint16_t>(__float_as_uint(static_cast<float>(v)) >> 16);  // exact for v < 2^8
}

// d_out[run][m * N + n] (fp32 accumulators of both runs); info: test region address,
// descriptor (low, high), barrier completions of the two runs.
template <bool ProbeB, bool MnMajor>
__global__ void __launch_bounds__(128, 1) smem_desc_kernel(DescFields f, float* d_out, uint32_t* info) {
  constexpr uint32_t N = ProbeB ? 64 : 16;
  extern __shared__ uint8_t smem_raw[];
  __shared__ uint64_t bar;
  __shared__ uint32_t tmem_base_slot;
  const uint32_t raw = probe_smem_u32(smem_raw);
  uint8_t* test = smem_raw + ((kAlignBytes - raw % kAlignBytes) % kAlignBytes);
  uint8_t* selector = test + kTestRegionBytes;
  uint16_t* test16 = reinterpret_cast<uint16_t*>(test);
  uint16_t* selector16 = reinterpret_cast<uint16_t*>(selector);
  const uint32_t tid = threadIdx.x, warp = tid / 32;

  // The selector: B = I16 (16 rows) when probing A; A = [I16; 0] (128 rows) when probing B.
  for (uint32_t i = tid; i < kSelectorRegionBytes / 2; i += blockDim.x) selector16[i] = 0;
  __syncthreads();
  if (tid < kK) selector16[plain_offset(tid, tid) / 2] = bf16_of_small_int(1);
  if (tid == 0) ptx::mbarrier_init(&bar, 1);
  if (warp == 0) {
    ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base_slot, uint32_t{kTmemColumns});
    ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  }
  tcgen05_cta_sync();
  const uint32_t base = tmem_base_slot;

  const uint32_t test_address = probe_smem_u32(test);
  const uint64_t desc_test = encode_smem_desc(test_address + f.start_offset_bytes, f);
  const uint64_t desc_selector = encode_smem_desc(probe_smem_u32(selector), DescFields{0, kPlainLbo, kPlainSbo});
  const uint64_t a_desc = ProbeB ? desc_selector : desc_test;
  const uint64_t b_desc = ProbeB ? desc_test : desc_selector;
  constexpr uint32_t idesc = encode_instr_desc_bf16(kM, N, !ProbeB && MnMajor, ProbeB && MnMajor);

  for (uint32_t run = 0; run < 2; ++run) {
    for (uint32_t i = tid; i < kTestRegionBytes / 2; i += blockDim.x) {
      const uint32_t code = i + 1;
      test16[i] = bf16_of_small_int(run == 0 ? (code & 0xFF) : (code >> 8));
    }
    ptx::fence_proxy_async(ptx::space_shared);  // generic stores, then the tensor core's reads
    tcgen05_cta_sync();
    if (tid == 0) {
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, base, a_desc, b_desc, idesc, false);
      ptx::tcgen05_commit(ptx::cta_group_1, &bar);
    }
    const bool completed = probe_wait_parity(&bar, run);
    ptx::tcgen05_fence_after_thread_sync();
    // Each warp: lanes 32w..32w+31 = rows m, columns n.
    for (uint32_t c0 = 0; c0 < N; c0 += 16) {
      uint32_t v[16];
      ptx::tcgen05_ld_32x32b(v, tmem_at(base, 32 * warp, c0));
      ptx::tcgen05_wait_ld();
      for (uint32_t j = 0; j < 16; ++j) d_out[run * kM * N + (32 * warp + tid % 32) * N + c0 + j] = __uint_as_float(v[j]);
    }
    if (tid == 0) info[3 + run] = completed ? 1 : 0;
    tcgen05_cta_sync();  // the next run's stores come after every read of this one
  }
  if (tid == 0) {
    info[0] = test_address;
    info[1] = static_cast<uint32_t>(desc_test);
    info[2] = static_cast<uint32_t>(desc_test >> 32);
  }
  if (warp == 0) ptx::tcgen05_dealloc(ptx::cta_group_1, base, uint32_t{kTmemColumns});
}

struct DescCase {
  std::string name;
  bool probe_b = false;  // operand under test: A (128 rows) or B (64 rows)
  bool mn_major = false;
  DescFields f;
  bool exploratory = false;  // a field outside the model's domain or unconfirmed: refusals only noted
};

const char* swizzle_name(uint32_t code) {
  switch (code) {
    case 0: return "none";
    case 1: return "128B-atom32B";
    case 2: return "128B";
    case 4: return "64B";
    case 6: return "32B";
  }
  return "?";
}

template <bool ProbeB, bool MnMajor>
Json run_kernel(const DescCase& c) {
  require_sm100();
  constexpr int N = ProbeB ? 64 : 16;
  const int rows = ProbeB ? 64 : 128;
  const int smem = static_cast<int>(kTestRegionBytes + kSelectorRegionBytes + kAlignBytes);
  allow_dynamic_smem(smem_desc_kernel<ProbeB, MnMajor>, smem);
  DeviceBuffer<float> d(2 * kM * N);
  DeviceBuffer<uint32_t> info(5);
  smem_desc_kernel<ProbeB, MnMajor><<<1, 128, smem>>>(c.f, d.get(), info.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<float> dv = d.download();
  const std::vector<uint32_t> inf = info.download();
  // elem_offset_bytes[row * 16 + k]: the byte of the test region that fed operand
  // element (row, k); -1 nothing was read (D = 0), -2 D is not a single code.
  std::vector<int64_t> offsets(static_cast<std::size_t>(rows) * kK);
  for (int row = 0; row < rows; ++row)
    for (int k = 0; k < static_cast<int>(kK); ++k) {
      const int index = ProbeB ? k * N + row : row * N + k;  // A: D[m = row][n = k]; B: D[m = k][n = row]
      const float lo = dv[static_cast<std::size_t>(index)], hi = dv[static_cast<std::size_t>(kM * N + index)];
      const bool integral = lo == std::floor(lo) && hi == std::floor(hi) && lo >= 0 && lo < 256 && hi >= 0 && hi < 256;
      int64_t value = -2;
      if (integral) {
        const int64_t code = static_cast<int64_t>(lo) + 256 * static_cast<int64_t>(hi);
        value = code == 0 ? -1 : 2 * (code - 1);
      }
      offsets[static_cast<std::size_t>(row * kK + k)] = value;
    }
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016llx", (static_cast<unsigned long long>(inf[2]) << 32) | inf[1]);
  return Json{{"region_smem_address", inf[0]},
              {"descriptor", hex},
              {"barrier_completed", inf[3] == 1 && inf[4] == 1},
              {"elem_offset_bytes", offsets}};
}

Json run_case(const DescCase& c) {
  if (!c.probe_b) return c.mn_major ? run_kernel<false, true>(c) : run_kernel<false, false>(c);
  return c.mn_major ? run_kernel<true, true>(c) : run_kernel<true, false>(c);
}

ProbeCase make_case(const DescCase& c) {
  Json params{{"operand", c.probe_b ? "B" : "A"},
              {"major", c.mn_major ? "MN" : "K"},
              {"rows", c.probe_b ? 64 : 128},
              {"k_elems", kK},
              {"elem_bytes", 2},
              {"swizzle", swizzle_name(c.f.swizzle_code)},
              {"start_offset_bytes", c.f.start_offset_bytes},
              {"lbo_bytes", c.f.lbo_bytes},
              {"sbo_bytes", c.f.sbo_bytes},
              {"version", c.f.version},
              {"lbo_mode", c.f.lbo_mode ? "absolute" : "relative"},
              {"base_offset", c.f.base_offset},
              {"instruction", c.probe_b ? "tcgen05.mma.cta_group::1.kind::f16 M=128 N=64, A = [I16; 0] K-major"
                                        : "tcgen05.mma.cta_group::1.kind::f16 M=128 N=16, B = I16 K-major"},
              {"selector_layout", "K-major, no swizzle, LBO 128, SBO 256"},
              {"test_region_bytes", kTestRegionBytes},
              {"code", "element at byte b of the test region = b/2 + 1, low 8 bits in run 1, high in run 2"},
              {"exploratory", c.exploratory}};
  return ProbeCase{c.name, std::move(params), [c] { return run_case(c); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<DescCase> list;
  constexpr uint32_t kNone = 0, kAtom32 = 1, k128 = 2, k64 = 4, k32 = 6;
  const auto add = [&](bool probe_b, bool mn, uint32_t swz, uint32_t lbo, uint32_t sbo, uint32_t start = 0,
                       uint32_t base_offset = 0, uint32_t version = 1, uint32_t lbo_mode = 0) {
    std::string name = std::string(probe_b ? "B" : "A") + (mn ? "_mn" : "_k") + "_" + swizzle_name(swz) + "_lbo" +
                       std::to_string(lbo) + "_sbo" + std::to_string(sbo);
    if (start) name += "_start" + std::to_string(start);
    if (base_offset) name += "_base" + std::to_string(base_offset);
    if (version != 1) name += "_version" + std::to_string(version);
    if (lbo_mode) name += "_lbo_absolute";
    // Outside what the model states as fact: a nonzero base offset (PTX ISA wording
    // only), a swizzle no kernel here uses, a version other than 1, the absolute mode.
    const bool exploratory = base_offset != 0 || swz == kAtom32 || version != 1 || lbo_mode != 0;
    list.push_back({name, probe_b, mn, DescFields{start, lbo, sbo, version, base_offset, lbo_mode, swz}, exploratory});
  };
  for (const bool probe_b : {false, true}) {
    // K-major, no swizzle: LBO between the two K core matrices, SBO between 8-row groups.
    add(probe_b, false, kNone, 128, 256);
    add(probe_b, false, kNone, 2048, 128);
    // K-major, swizzled: SBO between 8-row atoms; LBO unused (16 = "1").
    add(probe_b, false, k32, 16, 256);
    add(probe_b, false, k64, 16, 512);
    add(probe_b, false, k128, 16, 1024);
    // MN-major: no swizzle (LBO between 8-wide K groups, SBO between core matrices
    // along M/N); swizzled (LBO between atoms along M/N, SBO between 8-wide K groups).
    add(probe_b, true, kNone, 2048, 128);
    add(probe_b, true, k128, 2048, 1024);
  }
  // The Blackwell kernel's operands: 128B K-major, K advanced by the start address.
  for (const uint32_t start : {32u, 64u, 96u}) add(false, false, k128, 16, 1024, start);
  add(false, false, k128, 4096, 1024);  // a large LBO: ignored when swizzled?
  add(false, true, k32, 512, 256);
  add(false, true, k64, 1024, 512);
  add(false, false, kAtom32, 16, 1024);
  // Version: 1 is the only legal value; what does 0 do (Hopper's descriptors have no field)?
  add(false, false, k128, 16, 1024, 0, 0, 0);
  add(false, false, kNone, 128, 256, 0, 0, 0);
  // LBO mode absolute (sm_103a only per the PTX ISA) on sm_100.
  add(false, false, kNone, 128, 256, 0, 0, 1, 1);
  // Tiles that start off the 1024-byte pattern boundary: base offset 0, and the base
  // offset the PTX ISA wording asks for ((start >> 7) & 7).
  add(false, false, k128, 16, 1024, 256, 0);
  add(false, false, k128, 16, 1024, 256, 2);
  add(false, false, k128, 16, 1024, 128, 1);
  add(false, false, k64, 16, 512, 128, 1);
  std::vector<ProbeCase> cases;
  for (const DescCase& c : list) cases.push_back(make_case(c));
  return cases;
}

}  // namespace

ProbeDefinition sm100_smem_desc_probe() {
  return {"sm100_smem_desc",
          "tcgen05.mma kind::f16 with one operand index-coded and the other a one-hot selector: the shared-memory "
          "byte read for each (row, k) of A and B, per major-ness, swizzle, LBO/SBO, K-advance start, base offset, "
          "version field and LBO mode of the sm100 descriptor",
          {"the canonical layouts of model::CanonicalSmemLayout read through SmemDescriptorSm100 (as for wgmma)",
           "K advance inside a 128B-swizzled K-major tile (the Blackwell kernel's desc_advance_bytes)",
           "the version field (bits 46-48): 1 works; what 0 does",
           "the LBO mode bit (52) on sm_100: absolute is documented for sm_103a only",
           "the base-offset field for tiles that start off the pattern boundary"},
          make_cases};
}

}  // namespace gemmscope::probes
