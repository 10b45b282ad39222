// Probe: where tcgen05.mma (kind::f16, bf16 -> f32) takes its operands from and puts
// its accumulator, for cta_group::1 (M = 64, 128) and the 2-SM cta_group::2 (M = 128,
// 256). Every A row and every B row is coded so that each accumulator element names
// its sources: with c the CTA of the pair holding A's row (local row r) and c' the
// CTA holding B's row (local row n),
//   A(c, r, k) = [r + 1, c, 1, 1, 0 ...],  B(c', n, k) = [1, 512, 1024 (n + 1), 2^18 c', 0 ...]
//   D = sum_k A B = (r + 1) + 512 c + 1024 (n + 1) + 2^18 c'
// (every term exact in bf16, the sum exact in fp32). TMEM starts as a sentinel in
// every CTA, so a cell the MMA did not write reads 0xFFFFFFFF. Both operands use the
// plain K-major layout (LBO 128, SBO 256) at the same shared-memory offsets in both
// CTAs; for cta_group::2 the even CTA issues the MMA and its commit multicasts to
// both CTAs' barriers. PTX ISA: "tcgen05.mma", "Data path layout organization"
// (layouts A, B, D, F), "tcgen05.commit".
#include <cmath>
#include <cstring>

#include "sm100_probe_cuda.cuh"

namespace gemmscope::probes {
namespace {
using namespace sm100;

constexpr uint32_t kK = 16;  // one kind::f16 MMA: K = 16
constexpr uint32_t kMaxRowsA = 128, kMaxRowsB = 256;

template <int CtaGroup>
__device__ __forceinline__ void sync_group() {
  if constexpr (CtaGroup == 2) tcgen05_cluster_sync();
  else tcgen05_cta_sync();
}

// out[cta][lane * N + column]: the raw 32-bit TMEM cells of each CTA after the MMA;
// done[cta]: 1 when the commit's barrier completed within the probes' time limit.
template <int CtaGroup, int M, int N>
__global__ void __launch_bounds__(128, 1) mma_pair_kernel(uint32_t* out, uint32_t* done) {
  constexpr uint32_t kRowsA = M / CtaGroup, kRowsB = N / CtaGroup;
  constexpr uint32_t kColumns = N < 32 ? 32 : N;
  static_assert(kRowsA <= kMaxRowsA && kRowsB <= kMaxRowsB, "operand regions");
  __shared__ __align__(1024) uint16_t a_tile[kMaxRowsA * kK];
  __shared__ __align__(1024) uint16_t b_tile[kMaxRowsB * kK];
  __shared__ uint64_t bar;
  __shared__ uint32_t tmem_base_slot;
  const uint32_t cta = CtaGroup == 2 ? ptx::get_sreg_cluster_ctarank() : 0;
  const uint32_t warp = threadIdx.x / 32;

  for (uint32_t i = threadIdx.x; i < kRowsA * kK; i += blockDim.x) {
    const uint32_t r = i / kK, k = i % kK;
    const float v = k == 0 ? float(r + 1) : k == 1 ? float(cta) : (k == 2 || k == 3) ? 1.f : 0.f;
    a_tile[plain_offset(r, k) / 2] = __bfloat16_as_ushort(__float2bfloat16(v));
  }
  for (uint32_t i = threadIdx.x; i < kRowsB * kK; i += blockDim.x) {
    const uint32_t n = i / kK, k = i % kK;
    const float v = k == 0 ? 1.f : k == 1 ? 512.f : k == 2 ? 1024.f * float(n + 1) : k == 3 ? 262144.f * float(cta) : 0.f;
    b_tile[plain_offset(n, k) / 2] = __bfloat16_as_ushort(__float2bfloat16(v));
  }
  // Generic-proxy stores, read next by the tensor core (async proxy).
  ptx::fence_proxy_async(ptx::space_shared);
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  if (warp == 0) {
    if constexpr (CtaGroup == 2) {
      ptx::tcgen05_alloc(ptx::cta_group_2, &tmem_base_slot, kColumns);
      ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_2);
    } else {
      ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base_slot, kColumns);
      ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
  }
  tcgen05_cta_sync();
  const uint32_t base = tmem_base_slot;
  tmem_fill_quadrant(base, 0, kColumns, [](uint32_t, uint32_t) { return kSentinel; });
  sync_group<CtaGroup>();  // both CTAs' operands, barriers and sentinels in place

  if (cta == 0 && threadIdx.x == 0) {
    const uint64_t a_desc =
        encode_smem_desc(probe_smem_u32(a_tile), DescFields{0, kPlainLbo, kPlainSbo, 1, 0, 0, 0});
    const uint64_t b_desc =
        encode_smem_desc(probe_smem_u32(b_tile), DescFields{0, kPlainLbo, kPlainSbo, 1, 0, 0, 0});
    constexpr uint32_t idesc = encode_instr_desc_bf16(M, N);
    if constexpr (CtaGroup == 2) {
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_2, base, a_desc, b_desc, idesc, false);
      ptx::tcgen05_commit_multicast(ptx::cta_group_2, &bar, uint16_t{0b11});
    } else {
      ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, base, a_desc, b_desc, idesc, false);
      ptx::tcgen05_commit(ptx::cta_group_1, &bar);
    }
  }
  const bool completed = probe_wait_parity(&bar, 0);
  ptx::tcgen05_fence_after_thread_sync();
  tmem_dump_quadrant(base, 0, N, out + cta * 128 * N + 32 * warp * N, N);
  if (threadIdx.x == 0) done[cta] = completed ? 1 : 0;
  sync_group<CtaGroup>();
  if (warp == 0) {
    if constexpr (CtaGroup == 2) ptx::tcgen05_dealloc(ptx::cta_group_2, base, kColumns);
    else ptx::tcgen05_dealloc(ptx::cta_group_1, base, kColumns);
  }
}

// A cell as the integer D it holds: -1 for the sentinel, -2 for anything that is not
// an integer code in range.
int64_t cell_code(uint32_t raw) {
  if (raw == kSentinel) return -1;
  float f;
  std::memcpy(&f, &raw, sizeof f);
  if (!(f >= 0.f && f < 16777216.f) || f != std::floor(f)) return -2;
  return static_cast<int64_t>(f);
}

template <int CtaGroup, int M, int N>
Json run_kernel() {
  require_sm100();
  DeviceBuffer<uint32_t> out(static_cast<std::size_t>(CtaGroup) * 128 * N);
  DeviceBuffer<uint32_t> done(CtaGroup);
  if constexpr (CtaGroup == 1) {
    mma_pair_kernel<1, M, N><<<1, 128>>>(out.get(), done.get());
  } else {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_config(dim3(2), dim3(128), dim3(2, 1, 1), 0, attr);
    uint32_t* out_ptr = out.get();
    uint32_t* done_ptr = done.get();
    GEMMSCOPE_PROBE_CUDA(cudaLaunchKernelEx(&cfg, mma_pair_kernel<2, M, N>, out_ptr, done_ptr));
  }
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> raw = out.download();
  const std::vector<uint32_t> ok = done.download();
  Json observed;
  for (int cta = 0; cta < CtaGroup; ++cta) {
    std::vector<int64_t> codes;
    for (int i = 0; i < 128 * N; ++i) codes.push_back(cell_code(raw[static_cast<std::size_t>(cta * 128 * N + i)]));
    observed["d_codes_cta" + std::to_string(cta)] = codes;
    observed["barrier_completed_cta" + std::to_string(cta)] = ok[static_cast<std::size_t>(cta)] == 1;
  }
  return observed;
}

ProbeCase make_case(const char* name, int cta_group, int m, int n, Json (*run)(), const char* purpose) {
  Json params{{"purpose", purpose},
              {"cta_group", cta_group},
              {"m", m},
              {"n", n},
              {"k", kK},
              {"rows_a_per_cta", m / cta_group},
              {"rows_b_per_cta", n / cta_group},
              {"operand_layout", "K-major, no swizzle, LBO 128, SBO 256, same offsets in every CTA"},
              {"code",
               "A(c, r) = [r+1, c, 1, 1, 0...], B(c', n) = [1, 512, 1024 (n+1), 2^18 c', 0...]: "
               "D = (r+1) + 512 c + 1024 (n+1) + 2^18 c'; d_codes_ctaX[lane * n + column], -1 unwritten, -2 not a code"}};
  return ProbeCase{name, std::move(params), [run] { return run(); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  return {
      make_case("cta1_m128_n64", 1, 128, 64, &run_kernel<1, 128, 64>, "layout D: row = lane, column = column"),
      make_case("cta1_m64_n64", 1, 64, 64, &run_kernel<1, 64, 64>, "layout F: which lanes hold M = 64"),
      make_case("cta2_m256_n64", 2, 256, 64, &run_kernel<2, 256, 64>,
                "layout A and the operand split: which CTA's A rows and B rows feed which half"),
      make_case("cta2_m256_n256", 2, 256, 256, &run_kernel<2, 256, 256>,
                "the Blackwell kernel's MMA shape (256 x 256 x 16): the even CTA's B rows are columns 0-127?"),
      make_case("cta2_m128_n64", 2, 128, 64, &run_kernel<2, 128, 64>, "layout B: M = 128 over a pair"),
  };
}

}  // namespace

ProbeDefinition sm100_mma_pair_probe() {
  return {"sm100_mma_pair",
          "tcgen05.mma kind::f16 with every A and B row coded by its CTA and row, on one CTA (cta_group::1, M = 64 "
          "and 128) and on a pair (cta_group::2, M = 128 and 256): the sources of each accumulator cell of each CTA",
          {"cta_group::2 operand split: the even CTA's A rows are D rows 0..M/2-1, its B rows D columns 0..N/2-1",
           "accumulator layout F (cta_group::1, M = 64) and layout B (cta_group::2, M = 128) (model::accumulator_cell)",
           "accumulator layouts D (M = 128) and A (cta_group::2, M = 256): lane = row, column = column",
           "tcgen05.commit multicast reaches both CTAs' barriers"},
          make_cases};
}

}  // namespace gemmscope::probes
