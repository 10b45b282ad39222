#pragma once
// The hand-written PTX of the project: only what CCCL's cuda::ptx lacks in CUDA 13
// (wgmma, ldmatrix/stmatrix, setmaxnreg, elect.sync, mapa, createpolicy and the
// .L2::cache_hint form of the multicast TMA tile load). Everything else (TMA, mbarrier,
// fences, cluster barriers) goes through cuda::ptx.
// The wgmma instructions themselves are generated: gemmscope/generated/wgmma_bf16.cuh.
#include <cstdint>

#include "gemmscope/generated/wgmma_bf16.cuh"

namespace gemmscope::ptx {

// PTX ISA "wgmma.fence": order register accesses of the accumulators before wgmma.
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// PTX ISA "wgmma.commit_group".
__device__ __forceinline__ void wgmma_commit_group() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// PTX ISA "wgmma.wait_group": wait until at most `Pending` groups are in flight.
template <int Pending>
__device__ __forceinline__ void wgmma_wait_group() {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}
// Keep the compiler from moving accumulator reads/writes across wgmma.
template <int R>
__device__ __forceinline__ void fence_accumulators(float (&d)[R]) {
#pragma unroll
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// PTX ISA "stmatrix": four 8x8 b16 matrices; lane l gives the row address of
// matrix l/8, row l%8; register i holds matrix i, row l/4, columns 2(l%4)..+1.
__device__ __forceinline__ void stmatrix_x4(uint32_t smem_row_address, uint32_t r0, uint32_t r1, uint32_t r2,
                                            uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_row_address),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t smem_row_address, uint32_t r0, uint32_t r1, uint32_t r2,
                                                  uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem_row_address),
               "r"(r0), "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ void stmatrix_x2_trans(uint32_t smem_row_address, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(smem_row_address), "r"(r0),
               "r"(r1)
               : "memory");
}
__device__ __forceinline__ void stmatrix_x1(uint32_t smem_row_address, uint32_t r0) {
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(smem_row_address), "r"(r0) : "memory");
}
__device__ __forceinline__ void stmatrix_x2(uint32_t smem_row_address, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(smem_row_address), "r"(r0), "r"(r1)
               : "memory");
}
// PTX ISA "ldmatrix": the same thread maps as stmatrix.
__device__ __forceinline__ void ldmatrix_x4(uint32_t smem_row_address, uint32_t& r0, uint32_t& r1, uint32_t& r2,
                                            uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(smem_row_address)
               : "memory");
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t smem_row_address, uint32_t& r0, uint32_t& r1, uint32_t& r2,
                                                  uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(smem_row_address)
               : "memory");
}
__device__ __forceinline__ void ldmatrix_x2(uint32_t smem_row_address, uint32_t& r0, uint32_t& r1) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r0), "=r"(r1)
               : "r"(smem_row_address)
               : "memory");
}
__device__ __forceinline__ void ldmatrix_x1(uint32_t smem_row_address, uint32_t& r0) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r0) : "r"(smem_row_address) : "memory");
}

// PTX ISA "setmaxnreg": move registers between warpgroups (needs a register cap at entry).
template <int Registers>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg takes 24..256, step 8");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
}
template <int Registers>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(Registers % 8 == 0 && Registers >= 24 && Registers <= 256, "setmaxnreg takes 24..256, step 8");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
}

// PTX ISA "elect.sync": true in exactly one active lane of the warp.
__device__ __forceinline__ bool elect_one_sync() {
  uint32_t pred = 0;
  asm volatile(
      "{\n.reg .b32 %%rx;\n.reg .pred %%px;\n"
      "elect.sync %%rx|%%px, %1;\n"
      "@%%px mov.s32 %0, 1;\n}\n"
      : "+r"(pred)
      : "r"(0xFFFFFFFFu));
  return pred != 0;
}

// PTX ISA "mapa": the address of the same shared-memory variable in CTA `cta_rank` of the cluster.
__device__ __forceinline__ uint32_t mapa_shared_cluster(uint32_t smem_address, uint32_t cta_rank) {
  uint32_t result;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(result) : "r"(smem_address), "r"(cta_rank));
  return result;
}

__device__ __forceinline__ uint32_t smem_u32(const void* ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

// PTX ISA "createpolicy": an L2 cache-policy word for .L2::cache_hint accesses that
// marks every line the access brings in (fraction 1.0) evict_first.
__device__ __forceinline__ uint64_t createpolicy_evict_first() {
  uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  return policy;
}

// PTX ISA "cp.async.bulk.tensor", 2-D tile, global to shared::cluster, completing on
// an mbarrier, .multicast::cluster and .L2::cache_hint: CCCL's cp_async_bulk_tensor
// has no cache-hint form. The box lands at the same offset in every CTA of
// `cta_mask` and completes on each one's mbarrier at `smem_bar`'s offset. `map` is
// the tensor map's generic address (a __grid_constant__ parameter); coordinates
// {inner (column) element, row}.
__device__ __forceinline__ void tma_load_2d_multicast_hint(uint32_t smem_dst, const void* map, int32_t col,
                                                           int32_t row, uint32_t smem_bar, uint16_t cta_mask,
                                                           uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      ".L2::cache_hint [%0], [%1, {%2, %3}], [%4], %5, %6;\n" ::"r"(smem_dst),
      "l"(map), "r"(col), "r"(row), "r"(smem_bar), "h"(cta_mask), "l"(policy)
      : "memory");
}

// The same load into this CTA's shared memory only (no .multicast::cluster), with
// .L2::cache_hint. `smem_dst` and `smem_bar` are this CTA's shared addresses.
__device__ __forceinline__ void tma_load_2d_hint(uint32_t smem_dst, const void* map, int32_t col, int32_t row,
                                                 uint32_t smem_bar, uint64_t policy) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint"
      " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_dst),
      "l"(map), "r"(col), "r"(row), "r"(smem_bar), "l"(policy)
      : "memory");
}

}  // namespace gemmscope::ptx
