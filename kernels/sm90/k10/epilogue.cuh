#pragma once
// k10's epilogue, k07's idea: a warpgroup's fp32 accumulators go to bf16, through
// stmatrix into swizzled staging boxes in shared memory, and out by TMA store; the
// last boxes' stores stay in flight into the next unit. Boxes are 64 columns (128B
// swizzle), or 32 (64B swizzle) for a BN that is not a multiple of 64, or 16 (32B
// swizzle) for one that is not a multiple of 32, or 56 (unswizzled, an odd number of
// 16-byte chunks per row) for BN = 168 (sm90::store_box_cols). Three forms:
//   batched (k10_batched_epilogue): a cooperative tile whose boxes all fit gets a
//     buffer per box, and each warpgroup stores its 64 rows whole after one barrier;
//   alternating: the other tiles stage box after box in two alternating buffers,
//     each behind a wait, a fence and two barriers;
//   deferred (k10_deferred_epilogue: the alternating cooperative tiles 128 x 168, 176,
//     224, 256): when a next unit follows, the tile is packed to bf16 in registers
//     (hold) and its boxes are staged and stored one per k-block during the next
//     unit's first k-blocks, behind its wgmmas (which read other registers), so
//     between two tiles the tensor cores wait only for the packing (+0.3-1.2% on
//     those tiles' multi-wave shapes on the H200).
// Swapped operands (Cfg::kSwapAB, the kernel runs Cᵀ = B·Aᵀ): each box is staged
// transposed by stmatrix .trans (x4 per pair of 8-column blocks, x2 for an odd last
// one), kStoreCols rows of C by this warpgroup's 64 columns, 128B-swizzled, and
// stored at C's row n0 + box * kStoreCols, column m0.
// box_seq counts the boxes a warpgroup has stored, across units: box i goes to
// staging buffer i % kStagingBuffers, once the store that read that buffer last,
// kStagingBuffers boxes back, has read it. (A count that restarted with each tile put
// an odd-box tile's first box, 128 x 168's three, into the buffer its last box was
// still being stored from, which the wait for all but the latest store did not cover.)
#include <cuda.h>
#include <cuda/ptx>

#include <cstdint>

#include "common/bf16_pack.cuh"
#include "common/ptx_sm90.cuh"
#include "common/sm90_address.hpp"
#include "common/sm90_cluster.cuh"
#include "gemmscope/traces/timeline.cuh"
#include "sm90/k10/schedule.cuh"
#include "sm90/k10_config.hpp"

namespace gemmscope::sm90::k10 {

namespace tl = gemmscope::traces::timeline_record;

template <class Cfg, class Storage>
struct Epilogue {
  static constexpr int kStoreCols = Cfg::kStoreCols, kBoxes = Cfg::kBoxes, kStagingBuffers = Cfg::kStagingBuffers;
  static constexpr int kHalves = Cfg::kHalves, kAccumulators = Cfg::kBN / 2;
  Storage& s;
  const CUtensorMap& map_c;
  // The held tile (deferred epilogue) as bf16x2 words, its origin and the next box to
  // store (kBoxes: nothing held). The words are the caller's local array: inside this
  // object they were kept in local memory, indexed by held_next. Unused, and so
  // allocated nowhere, where nothing is deferred.
  uint32_t (&held)[Cfg::kBN / 4];
  int consumer, row_base;  // row_base: the row of the tile this warpgroup's half 0 starts at
  uint32_t t, warp, lane;
  int held_m0 = 0, held_n0 = 0, held_next = kBoxes;
  uint32_t box_seq = 0;

  __device__ __forceinline__ Epilogue(Storage& s, const CUtensorMap& map_c, uint32_t (&held)[Cfg::kBN / 4],
                                      int consumer, uint32_t t, uint32_t warp, uint32_t lane, int row_base)
      : s(s), map_c(map_c), held(held), consumer(consumer), row_base(row_base), t(t), warp(warp), lane(lane) {}

  // Box `box` of a 64-row half into the staging buffer at `staging`. word(i): the
  // accumulator registers i and i + 1 as bf16x2; 8-column block j of the tile is
  // registers 4j..4j+3 (box_block_register).
  template <class Word>
  __device__ __forceinline__ void stage_box(Word&& word, int box, uint32_t staging) {
    if constexpr (Cfg::kSwapAB) {
      // Swapped operands: the box is C's, kStoreCols rows (the tile's columns) of 64
      // columns (this warpgroup's 64 rows), 128B-swizzled: stored transposed.
#pragma unroll
      for (int pair = 0; pair < kStoreCols / 16; ++pair) {
        const StmatrixRow at = stmatrix_x4_trans_row(warp, lane, pair);
        const int r = box_block_register(box, kStoreCols, 2 * pair);
        ptx::stmatrix_x4_trans(staging + sw128_offset(at.row, at.col), word(r), word(r + 2), word(r + 4), word(r + 6));
      }
      if constexpr (kStoreCols / 8 % 2 == 1) {
        // An odd 8-column block last (BN = 72: boxes of 24 rows): stmatrix.x2.trans.
        constexpr int kLast = kStoreCols / 8 - 1;
        const StmatrixRow at = stmatrix_x2_trans_row(warp, lane, kLast);
        const int r = box_block_register(box, kStoreCols, kLast);
        ptx::stmatrix_x2_trans(staging + sw128_offset(at.row, at.col), word(r), word(r + 2));
      }
    } else if constexpr (kStoreCols % 16 == 0) {
#pragma unroll
      for (int pair = 0; pair < kStoreCols / 16; ++pair) {
        const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
        const int r = box_block_register(box, kStoreCols, 2 * pair);
        const uint32_t at_bytes = kStoreCols == 64   ? sw128_offset(at.row, at.col)
                                  : kStoreCols == 32 ? sw64_offset(at.row, at.col)
                                                     : sw32_offset(at.row, at.col);
        ptx::stmatrix_x4(staging + at_bytes, word(r), word(r + 2), word(r + 4), word(r + 6));
      }
    } else {
      // Unswizzled box of an odd number of 8-column blocks (BN = 168: 7): pairs
      // of blocks by stmatrix.x4, the last block by stmatrix.x2.
      constexpr int kBlocks = kStoreCols / 8;
      static_assert(kBlocks % 2 == 1, "plain boxes are an odd number of 16-byte chunks");
#pragma unroll
      for (int pair = 0; pair < kBlocks / 2; ++pair) {
        const StmatrixRow at = stmatrix_x4_row(warp, lane, pair);
        const int r = box_block_register(box, kStoreCols, 2 * pair);
        ptx::stmatrix_x4(staging + plain_offset(at.row, at.col, kStoreCols), word(r), word(r + 2), word(r + 4),
                         word(r + 6));
      }
      const StmatrixRow at = stmatrix_x2_row(warp, lane);
      const int r = box_block_register(box, kStoreCols, kBlocks - 1);
      ptx::stmatrix_x2(staging + plain_offset(at.row, at.col + 8 * (kBlocks - 1), kStoreCols), word(r), word(r + 2));
    }
  }
  // Box `box` of the 64 rows from row m0, column n0, from staging buffer `buffer`
  // (swapped operands: C's rows n0 + box * kStoreCols on, its columns m0 on).
  __device__ __forceinline__ void store_box(int m0, int n0, int box, uint32_t buffer) {
    const int32_t coords[2] = {Cfg::kSwapAB ? m0 : n0 + box * kStoreCols, Cfg::kSwapAB ? n0 + box * kStoreCols : m0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, &map_c, coords,
                                    reinterpret_cast<uint8_t*>(s.c[consumer][buffer]));
  }

  // Deferred: unit w's tile, packed to bf16, held for the next unit's k-blocks to store.
  // Its timeline events (detail level) span the packing only: the boxes' stores
  // (store_held_box) run inside the next unit's main loop, with its accumulators and the
  // held tile live, where any event made 128 x 256 spill; they record nothing.
  __device__ __forceinline__ void hold(const float (&acc)[kHalves][kAccumulators], const Unit& w) {
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
#pragma unroll
    for (int i = 0; i < Cfg::kBN / 4; ++i) held[i] = pack_bf16x2(acc[0][2 * i], acc[0][2 * i + 1]);
    held_m0 = w.m0 + row_base;
    held_n0 = w.n0;
    held_next = 0;
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, held_m0, held_n0);
  }
  // Deferred: the held tile's box held_next: wait for its buffer, stage, fence, store.
  __device__ __forceinline__ void store_held_box() {
    const uint32_t buffer = box_seq % kStagingBuffers;
    if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kStagingBuffers - 1>{});
    named_barrier_sync(1 + consumer, 128);
    // Each box's register indices are constants, so `held` stays in registers.
#pragma unroll
    for (int box = 0; box < kBoxes; ++box)
      if (box == held_next) stage_box([&](int i) { return held[i / 2]; }, box, ptx::smem_u32(s.c[consumer][buffer]));
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    named_barrier_sync(1 + consumer, 128);
    if (t == 0) {
      store_box(held_m0, held_n0, held_next, buffer);
      cuda::ptx::cp_async_bulk_commit_group();
    }
    ++held_next;
    ++box_seq;
  }
  // Deferred: one held box, if any is left (behind a k-block's wgmmas).
  __device__ __forceinline__ void store_held_box_if_any() {
    if (held_next < kBoxes) store_held_box();
  }
  // Deferred: every held box left (a unit of fewer k-blocks than boxes, or no next unit).
  __device__ __forceinline__ void flush_held() {
    while (held_next < kBoxes) store_held_box();
  }

  // Batched: a buffer per box. Once the last unit's stores have read them, stage the
  // whole tile, then one fence, one barrier and one bulk group for all boxes.
  __device__ __forceinline__ void store_batched(const float (&acc)[kHalves][kAccumulators], const Unit& w) {
    static_assert(kHalves == 1, "batched: one 64-row tile per warpgroup");
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierStaging, w.m0 + row_base, w.n0);
    if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    named_barrier_sync(1 + consumer, 128);
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierStaging, w.m0 + row_base, w.n0);
#pragma unroll
    for (int box = 0; box < kBoxes; ++box)
      stage_box([&](int i) { return pack_bf16x2(acc[0][i], acc[0][i + 1]); }, box, ptx::smem_u32(s.c[consumer][box]));
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    named_barrier_sync(1 + consumer, 128);
    if (t == 0) {
#pragma unroll
      for (int box = 0; box < kBoxes; ++box) store_box(w.m0 + row_base, w.n0, box, box);
      cuda::ptx::cp_async_bulk_commit_group();
      GEMMSCOPE_TIMELINE_DETAIL_EVENT(true, tl::kKindStoreIssue, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
    }
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
  }

  // Alternating buffers: each box waits until the store kStagingBuffers boxes back
  // has read its buffer.
  __device__ __forceinline__ void store_alternating(const float (&acc)[kHalves][kAccumulators], const Unit& w) {
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueBegin, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
#pragma unroll
    for (int h = 0; h < kHalves; ++h) {
#pragma unroll
      for (int box = 0; box < kBoxes; ++box, ++box_seq) {
        const uint32_t buffer = box_seq % kStagingBuffers;
        // Warp 0 whole (lanes 1-31 have no bulk groups: no wait), so the warp
        // reaches the bar.sync converged.
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitBegin, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierStaging, w.m0 + row_base, w.n0);
        if (warp == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kStagingBuffers - 1>{});
        named_barrier_sync(1 + consumer, 128);
        GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindWaitEnd, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierStaging, w.m0 + row_base, w.n0);
        stage_box([&](int i) { return pack_bf16x2(acc[h][i], acc[h][i + 1]); }, box,
                  ptx::smem_u32(s.c[consumer][buffer]));
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
        named_barrier_sync(1 + consumer, 128);
        if (t == 0) {
          store_box(w.m0 + row_base + h * 64, w.n0, box, buffer);
          cuda::ptx::cp_async_bulk_commit_group();
          GEMMSCOPE_TIMELINE_DETAIL_EVENT(true, tl::kKindStoreIssue, tl::kRoleEpilogue, consumer, buffer, tl::kBarrierNone, w.m0 + row_base, w.n0);
        }
      }
    }
    GEMMSCOPE_TIMELINE_EVENT(t == 0, tl::kKindEpilogueEnd, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, w.m0 + row_base, w.n0);
  }

  // Before the warpgroup leaves: its stores have read their staging buffers.
  __device__ __forceinline__ void drain() {
    if (t == 0) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
    GEMMSCOPE_TIMELINE_DETAIL_EVENT(t == 0, tl::kKindStoreComplete, tl::kRoleEpilogue, consumer, 0, tl::kBarrierNone, -1, -1);
  }
};

}  // namespace gemmscope::sm90::k10
