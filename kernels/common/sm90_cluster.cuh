#pragma once
// Device side of the ladder's clusters (k05+): multicast TMA loads, arrivals on a
// peer CTA's mbarrier, the cluster-wide barrier, named barriers, and the
// cluster-shared store the dynamic scheduler broadcasts tile indices with.
// Which CTA loads what goes through common/sm90_cluster.hpp (tested on the CPU).
#include <cuda.h>
#include <cuda/ptx>

#include <cstdint>

#include "common/ptx_sm90.cuh"
#include "common/sm90_cluster.hpp"
#include "common/sm90_device.cuh"

namespace gemmscope::sm90 {

__device__ __forceinline__ uint32_t cluster_ctarank() { return cuda::ptx::get_sreg_cluster_ctarank(); }

// All threads of all CTAs of the cluster: release this CTA's prior writes
// (barrier inits, shared-memory data), acquire the others'.
__device__ __forceinline__ void cluster_sync() {
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  cuda::ptx::barrier_cluster_wait();
}

// The first half of a kernel's first cluster barrier, the one that publishes its
// mbarrier inits to the peers: relaxed, since fence_mbarrier_inits
// (fence.mbarrier_init.release.cluster) already orders the inits before the
// initializing thread's arrive (PTX ISA "membar/fence"), and nothing else before it
// needs ordering. A release arrive costs every thread a MEMBAR.ALL.GPU, an ERRBAR
// and a CGAERRBAR in SASS; cuBLAS's first barrier is a bare UCGABAR_ARV
// (H200, 2026-12-01; docs/experiments.md). Each thread then calls
// barrier_cluster_wait() (acquire) before it touches a peer.
__device__ __forceinline__ void cluster_arrive_after_inits() {
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_relaxed);
}

// TMA 2-D load of one box, written into the same shared-memory offset of every CTA
// in `cta_mask` and completing transaction bytes on each one's barrier at `bar`'s
// offset (PTX ISA "cp.async.bulk.tensor", .multicast::cluster).
__device__ __forceinline__ void tma_load_2d_multicast(void* smem_dst, const CUtensorMap* map, int32_t col,
                                                      int32_t row, uint64_t* bar, uint16_t cta_mask) {
  const int32_t coords[2] = {col, row};
  cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem_dst, map, coords, bar,
                                  cta_mask);
}

// One arrival on the mbarrier at `bar`'s offset in CTA `cta_rank` of the cluster
// (release at cluster scope: this CTA's reads of the stage happen before it).
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t* bar, uint32_t cta_rank) {
  const uint32_t remote = ptx::mapa_shared_cluster(ptx::smem_u32(bar), cta_rank);
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
}

// The consumers' stage release: an arrival on CTA `cta_rank`'s barrier with the
// default semantics (release at CTA scope, PTX ISA "mbarrier.arrive"), as CUTLASS's
// ClusterBarrier::arrive. Enough because what it orders are wgmma reads of shared
// memory, already complete at wgmma.wait_group; no generic data travels with it.
// It matters: with .release.cluster instead, a stream of k10's decode loads ran 2.6-5.6x
// slower (H200, 2026-12-03; docs/experiments.md, `mc2-relcl`).
__device__ __forceinline__ void mbarrier_arrive_remote(uint64_t* bar, uint32_t cta_rank) {
  const uint32_t remote = ptx::mapa_shared_cluster(ptx::smem_u32(bar), cta_rank);
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
}

// Wait with acquire at cluster scope: for data a peer CTA wrote with st.shared::cluster.
__device__ __forceinline__ void mbarrier_wait_cluster(uint64_t* bar, uint32_t phase_parity) {
  const uint32_t hint = kWaitSuspendHintNs;
  while (!cuda::ptx::mbarrier_try_wait_parity(cuda::ptx::sem_acquire, cuda::ptx::scope_cluster, bar, phase_parity, hint)) {
  }
}

// A 32-bit store into CTA `cta_rank`'s copy of a shared variable.
__device__ __forceinline__ void st_shared_cluster_u32(uint32_t* local, uint32_t cta_rank, uint32_t value) {
  const uint32_t remote = ptx::mapa_shared_cluster(ptx::smem_u32(local), cta_rank);
  asm volatile("st.shared::cluster.u32 [%0], %1;\n" ::"r"(remote), "r"(value) : "memory");
}

// Named barrier over `threads` threads (PTX ISA "bar.sync"); id 0 is __syncthreads.
__device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}
// Counts the calling threads into named barrier `id` without waiting (PTX ISA
// "bar.arrive"): a producer-consumer hand-off to threads waiting in bar.sync.
__device__ __forceinline__ void named_barrier_arrive(uint32_t id, uint32_t threads) {
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace gemmscope::sm90
