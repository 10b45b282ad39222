#pragma once
// The Blackwell kernel's schedule code: pipeline state (ring index + phase bit),
// the cluster's geometry (pairs, leaders, multicast masks), what each CTA loads,
// the grouped tile order (block swizzle) and the cluster-launch-control (CLC)
// scheduler's state machine. Plain values, no hidden state and no CUDA: the kernel
// runs it, and a host simulator can run the same functions step by step.
#include <cstdint>

#include "common/hd.hpp"
#include "common/sm100_config.hpp"

namespace gemmscope::sm100 {

// ---- Pipeline state ---------------------------------------------------------------
// Position in a ring of `Stages` buffers and the parity of the barrier phase that
// the current lap waits for. A consumer waits for the full barrier's phase with
// parity `phase` (full_phase); a producer waits for the empty barrier's phase with
// parity `phase ^ 1` (empty_phase): a fresh mbarrier counts its (never run) phase
// before phase 0 as complete, so the first lap of a producer passes at once
// (PTX ISA "mbarrier.try_wait.parity").
template <uint32_t Stages>
struct PipelineState {
  static_assert(Stages >= 1, "a ring needs a buffer");
  uint32_t index = 0;
  uint32_t phase = 0;

  GEMMSCOPE_HD constexpr uint32_t full_phase() const { return phase; }
  GEMMSCOPE_HD constexpr uint32_t empty_phase() const { return phase ^ 1u; }
  GEMMSCOPE_HD constexpr void advance() {
    if (++index == Stages) {
      index = 0;
      phase ^= 1u;
    }
  }
  GEMMSCOPE_HD constexpr PipelineState next() const {
    PipelineState s = *this;
    s.advance();
    return s;
  }
  GEMMSCOPE_HD constexpr bool operator==(const PipelineState& o) const { return index == o.index && phase == o.phase; }
};

// ---- Cluster geometry -----------------------------------------------------------
// rank = %cluster_ctarank of a (2, 2, 1) cluster: x + 2 y.
GEMMSCOPE_HD constexpr uint32_t cta_in_pair(uint32_t rank) { return rank % kClusterM; }
GEMMSCOPE_HD constexpr uint32_t pair_of(uint32_t rank) { return rank / kClusterM; }
GEMMSCOPE_HD constexpr uint32_t leader_of(uint32_t rank) { return pair_of(rank) * kClusterM; }
GEMMSCOPE_HD constexpr bool is_leader(uint32_t rank) { return cta_in_pair(rank) == 0; }
// Both CTAs of the rank's pair (tcgen05.commit multicast of tmem_full).
GEMMSCOPE_HD constexpr uint16_t pair_mask(uint32_t rank) {
  return static_cast<uint16_t>(((1u << kClusterM) - 1u) << (pair_of(rank) * kClusterM));
}
// Every CTA of the cluster (tcgen05.commit multicast of empty[s]).
GEMMSCOPE_HD constexpr uint16_t cluster_mask() { return static_cast<uint16_t>((1u << kClusterSize) - 1u); }
// The CTAs that hold the same A rows as `rank`: the same position in every pair.
GEMMSCOPE_HD constexpr uint16_t a_multicast_mask(uint32_t rank) {
  uint32_t mask = 0;
  for (uint32_t pair = 0; pair < kClusterN; ++pair) mask |= 1u << (pair * kClusterM + cta_in_pair(rank));
  return static_cast<uint16_t>(mask);
}

// ---- Tiles --------------------------------------------------------------------------
// A cluster computes one 256 x 512 tile of C; `m`, `n` count such tiles.
struct ClusterTile {
  uint32_t m;
  uint32_t n;
};
struct TileGrid {
  uint32_t tiles_m;
  uint32_t tiles_n;
  GEMMSCOPE_HD constexpr uint32_t tiles() const { return tiles_m * tiles_n; }
};
GEMMSCOPE_HD constexpr TileGrid tile_grid(uint32_t m, uint32_t n) {
  return TileGrid{(m + kClusterTileM - 1) / kClusterTileM, (n + kClusterTileN - 1) / kClusterTileN};
}
GEMMSCOPE_HD constexpr uint32_t k_blocks(uint32_t k) { return (k + kBlockK - 1) / kBlockK; }

// Block swizzle (grouped order): cluster ids walk down a group of kGroupRowsM tile
// rows before moving one tile column right, so clusters running at the same time
// share rows of A and columns of B in L2. The last group may have fewer rows.
template <class Sched = KernelSchedule>
GEMMSCOPE_HD constexpr ClusterTile cluster_tile_of(uint32_t cluster_id, TileGrid grid) {
  constexpr uint32_t group_rows = Sched::kGroupRowsM;
  const uint32_t per_group = group_rows * grid.tiles_n;
  const uint32_t first_m = (cluster_id / per_group) * group_rows;
  const uint32_t rows_left = grid.tiles_m - first_m;
  const uint32_t rows = rows_left < group_rows ? rows_left : group_rows;
  const uint32_t in_group = cluster_id % per_group;
  return ClusterTile{first_m + in_group % rows, in_group / rows};
}

// The launch grid: clusters of (kClusterM, kClusterN) CTAs laid along x, one
// cluster per tile, so the cluster id of a CTA is blockIdx.x / kClusterM. CLC
// hands running clusters the ids of clusters not yet launched.
GEMMSCOPE_HD constexpr uint32_t grid_dim_x(TileGrid grid) { return kClusterM * grid.tiles(); }
GEMMSCOPE_HD constexpr uint32_t grid_dim_y() { return kClusterN; }
GEMMSCOPE_HD constexpr uint32_t cluster_id_of_cta_x(uint32_t cta_x) { return cta_x / kClusterM; }
// blockIdx.x of CTA `rank` of cluster `cluster_id` (its x position: cta_in_pair).
GEMMSCOPE_HD constexpr uint32_t cta_x_of(uint32_t cluster_id, uint32_t rank) {
  return cluster_id * kClusterM + cta_in_pair(rank);
}

// ---- What each CTA loads and writes --------------------------------------------
// One TMA box: its global coordinates (K element, row) and where it lands in the
// stage tile; multicast to `cta_mask`; completion signalled on the leader's full[s]
// of each destination's pair (cta_group::2).
struct TmaLoad {
  uint32_t k_elem;
  uint32_t row;
  uint32_t smem_offset;  // from the stage tile's base
  uint16_t cta_mask;
  uint32_t rows;  // box rows (box K extent is kBlockK)
};
// A: rows tile.m*256 + 128 x + 64 pair .. +63, multicast to the same position of
// every pair; it lands at row 64 pair of the 128-row stage tile.
GEMMSCOPE_HD constexpr TmaLoad a_load(uint32_t rank, ClusterTile tile, uint32_t k_block) {
  return TmaLoad{k_block * kBlockK, tile.m * kClusterTileM + cta_in_pair(rank) * kCtaRowsA + pair_of(rank) * kRowsAPerLoad,
                 smem_a_load_offset(pair_of(rank)), a_multicast_mask(rank), kRowsAPerLoad};
}
// B: rows (columns of C) tile.n*512 + 256 pair + 128 x .. +127, into this CTA only:
// the even CTA holds the pair's N columns 0-127, the odd 128-255.
GEMMSCOPE_HD constexpr TmaLoad b_load(uint32_t rank, ClusterTile tile, uint32_t k_block) {
  return TmaLoad{k_block * kBlockK, tile.n * kClusterTileN + pair_of(rank) * kMmaN + cta_in_pair(rank) * kCtaRowsB, 0,
                 static_cast<uint16_t>(1u << rank), kCtaRowsB};
}
// Global (row, column) of C for (row, col) of the pair's 256 x 256 tile.
struct GlobalElement {
  uint32_t row;
  uint32_t col;
};
GEMMSCOPE_HD constexpr GlobalElement c_element(uint32_t rank, ClusterTile tile, uint32_t pair_row, uint32_t pair_col) {
  return GlobalElement{tile.m * kClusterTileM + pair_row, tile.n * kClusterTileN + pair_of(rank) * kMmaN + pair_col};
}

// ---- Cluster launch control ---------------------------------------------------------
// Every role of every CTA walks the same sequence of tiles: its own cluster's, then
// one per successful clusterlaunchcontrol.try_cancel response (PTX ISA
// "clusterlaunchcontrol"), until a response says nothing was cancelled.
template <class Sched = KernelSchedule>
struct ClcStateOf {
  PipelineState<Sched::kClcStages> pipe;  // which response buffer / clc_full phase comes next
  uint32_t cluster_id = 0;                // the tile being worked on
  bool done = false;
};
using ClcState = ClcStateOf<>;
template <class Sched = KernelSchedule>
GEMMSCOPE_HD constexpr ClcStateOf<Sched> clc_start(uint32_t cta_x) {
  return ClcStateOf<Sched>{{}, cluster_id_of_cta_x(cta_x), false};
}
// After reading the response in buffer pipe.index: a cancelled cluster's first CTA
// x coordinate names the next tile; a failed cancel ends the walk.
template <class Sched>
GEMMSCOPE_HD constexpr ClcStateOf<Sched> clc_after_response(ClcStateOf<Sched> state, bool cancelled,
                                                            uint32_t first_cta_x) {
  ClcStateOf<Sched> next = state;
  next.pipe.advance();
  if (cancelled) {
    next.cluster_id = cluster_id_of_cta_x(first_cta_x);
  } else {
    next.done = true;
  }
  return next;
}

}  // namespace gemmscope::sm100
