// Probe: the thread maps of ldmatrix and stmatrix (.x1/.x2/.x4, with and without
// .trans). Shared memory holds 64 rows of 16 bytes, element (row, c) coded
// row * 8 + c; lane l gives the address of row sigma(l) = (13 l + 5) mod 64, a
// permutation, so every received value names the lane whose address fed it.
// For stmatrix each thread stores codes naming (thread, register, half) and the
// probe dumps shared memory. PTX ISA: "ldmatrix", "stmatrix" (m8n8, b16).
#include "common/ptx_sm90.cuh"
#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr int kRows = 64;
constexpr int kRowElems = 8;
constexpr uint16_t kSentinel = 0xFFFF;
constexpr uint32_t kStoreCodeBase = 0x1000;  // stmatrix codes: base + 8 t + 2 i + h

__host__ __device__ constexpr int row_of_lane(int lane) { return (13 * lane + 5) % kRows; }

// ldmatrix .x1/.x2 .trans are not in common/ptx_sm90.cuh; the probe needs every shape.
__device__ __forceinline__ void ldmatrix_x1_trans(uint32_t a, uint32_t& r0) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(a) : "memory");
}
__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t a, uint32_t& r0, uint32_t& r1) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
}
__device__ __forceinline__ void stmatrix_x1_trans(uint32_t a, uint32_t r0) {
  asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(a), "r"(r0) : "memory");
}
__device__ __forceinline__ void stmatrix_x2_trans(uint32_t a, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(a), "r"(r0), "r"(r1) : "memory");
}

template <int N, bool Trans>
__global__ void ldmatrix_kernel(uint32_t* regs_out) {
  __shared__ __align__(128) uint16_t rows[kRows * kRowElems];
  const int lane = threadIdx.x;
  for (int i = lane; i < kRows * kRowElems; i += 32) rows[i] = static_cast<uint16_t>(i);
  __syncwarp();
  const uint32_t address = ptx::smem_u32(&rows[row_of_lane(lane) * kRowElems]);
  uint32_t r[4] = {0, 0, 0, 0};
  if constexpr (N == 1) {
    if constexpr (Trans) ldmatrix_x1_trans(address, r[0]); else ptx::ldmatrix_x1(address, r[0]);
  } else if constexpr (N == 2) {
    if constexpr (Trans) ldmatrix_x2_trans(address, r[0], r[1]); else ptx::ldmatrix_x2(address, r[0], r[1]);
  } else {
    if constexpr (Trans) ptx::ldmatrix_x4_trans(address, r[0], r[1], r[2], r[3]);
    else ptx::ldmatrix_x4(address, r[0], r[1], r[2], r[3]);
  }
  for (int i = 0; i < N; ++i) regs_out[lane * N + i] = r[i];
}

template <int N, bool Trans>
__global__ void stmatrix_kernel(uint16_t* smem_out) {
  __shared__ __align__(128) uint16_t rows[kRows * kRowElems];
  const int lane = threadIdx.x;
  for (int i = lane; i < kRows * kRowElems; i += 32) rows[i] = kSentinel;
  __syncwarp();
  const uint32_t address = ptx::smem_u32(&rows[row_of_lane(lane) * kRowElems]);
  uint32_t r[4];
  for (int i = 0; i < 4; ++i) {
    const uint32_t lo = kStoreCodeBase + 8 * lane + 2 * i;
    r[i] = lo | ((lo + 1) << 16);
  }
  if constexpr (N == 1) {
    if constexpr (Trans) stmatrix_x1_trans(address, r[0]); else ptx::stmatrix_x1(address, r[0]);
  } else if constexpr (N == 2) {
    if constexpr (Trans) stmatrix_x2_trans(address, r[0], r[1]); else ptx::stmatrix_x2(address, r[0], r[1]);
  } else {
    if constexpr (Trans) ptx::stmatrix_x4_trans(address, r[0], r[1], r[2], r[3]);
    else ptx::stmatrix_x4(address, r[0], r[1], r[2], r[3]);
  }
  __syncwarp();
  for (int i = lane; i < kRows * kRowElems; i += 32) smem_out[i] = rows[i];
}

template <int N, bool Trans>
Json run_ldmatrix() {
  DeviceBuffer<uint32_t> regs(32 * N);
  ldmatrix_kernel<N, Trans><<<1, 32>>>(regs.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> r = regs.download();
  return Json{{"regs", std::vector<int64_t>(r.begin(), r.end())}};
}

template <int N, bool Trans>
Json run_stmatrix() {
  DeviceBuffer<uint16_t> smem(kRows * kRowElems);
  stmatrix_kernel<N, Trans><<<1, 32>>>(smem.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint16_t> s = smem.download();
  return Json{{"smem_u16", traces::golden_runs(std::vector<int64_t>(s.begin(), s.end()))}};
}

template <int N, bool Trans>
void add_pair(std::vector<ProbeCase>& cases) {
  std::vector<int> lane_rows;
  for (int l = 0; l < 32; ++l) lane_rows.push_back(row_of_lane(l));
  const std::string suffix = std::string(".x") + std::to_string(N) + (Trans ? ".trans" : "");
  Json params{{"matrices", N},
              {"trans", Trans},
              {"row_bytes", 16},
              {"smem_rows", kRows},
              {"row_of_lane", lane_rows},
              {"smem_code", "element (row, c) = row * 8 + c (ldmatrix)"},
              {"store_code_base", kStoreCodeBase},
              {"store_code", "thread t register i half h stores base + 8 t + 2 i + h (stmatrix)"},
              {"sentinel", kSentinel}};
  cases.push_back({"ldmatrix" + suffix, params, [] { return run_ldmatrix<N, Trans>(); }});
  cases.push_back({"stmatrix" + suffix, params, [] { return run_stmatrix<N, Trans>(); }});
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ProbeCase> cases;
  add_pair<1, false>(cases);
  add_pair<2, false>(cases);
  add_pair<4, false>(cases);
  add_pair<1, true>(cases);
  add_pair<2, true>(cases);
  add_pair<4, true>(cases);
  return cases;
}

}  // namespace

ProbeDefinition ldmatrix_stmatrix_probe() {
  return {"ldmatrix_stmatrix",
          "ldmatrix / stmatrix m8n8 b16 .x1/.x2/.x4 (+.trans): which lane's row address feeds which matrix row, and "
          "which (matrix, row, column) each thread's register holds",
          {"lanes 8i..8i+7 give the row addresses of matrix i; lanes past 8N are ignored",
           "register i of thread t holds matrix i, row t/4, columns 2(t%4), 2(t%4)+1 (low half first)",
           ".trans: register i of thread t holds matrix i, rows 2(t%4), 2(t%4)+1 of column t/4"},
          make_cases};
}

}  // namespace gemmscope::probes
