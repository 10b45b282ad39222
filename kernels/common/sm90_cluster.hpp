#pragma once
// Thread-block clusters of the Hopper ladder (k05+): which CTA of a cluster loads
// which slice of the shared operand tiles, and which CTAs each TMA multicast writes.
//
// Layout: a cluster is cluster.m x cluster.n CTAs; CTA (along_m, along_n) has rank
// along_m + along_n * cluster.m (the kernels launch with cluster dims
// (cluster.m, cluster.n, 1) over a grid whose x is M tiles, y is N tiles, and PTX
// ISA "%cluster_ctarank" is x + y * nctaid.x within the cluster).
// - The A tile (rows m0..m0+BM) is the same for every CTA of one along_m, i.e. the
//   cluster.n CTAs of a "row" of the cluster. It is cut into cluster.n slices; the
//   CTA with along_n = j loads slice j and multicasts it to that row.
// - The B tile is the same for the cluster.m CTAs of one along_n; cut into
//   cluster.m slices; along_m = i loads slice i for that column.
// A mask has bit r set for each destination rank r (PTX ISA
// "cp.async.bulk.tensor ... .multicast::cluster": ctaMask, 16 bits).
#include <cstdint>

#include "common/hd.hpp"

namespace gemmscope::sm90 {

struct ClusterShape {
  uint32_t m = 1, n = 1;  // CTAs along M and along N
  GEMMSCOPE_HD constexpr uint32_t size() const { return m * n; }
};

struct ClusterPosition {
  uint32_t along_m = 0, along_n = 0;
};

GEMMSCOPE_HD constexpr ClusterPosition cluster_position(ClusterShape c, uint32_t rank) {
  return ClusterPosition{rank % c.m, rank / c.m};
}
GEMMSCOPE_HD constexpr uint32_t cluster_rank(ClusterShape c, ClusterPosition p) { return p.along_m + p.along_n * c.m; }

// Ranks that share this CTA's A tile (same along_m): the destinations of its A slice.
GEMMSCOPE_HD constexpr uint16_t multicast_mask_a(ClusterShape c, uint32_t rank) {
  const uint32_t along_m = rank % c.m;
  uint32_t mask = 0;
  for (uint32_t j = 0; j < c.n; ++j) mask |= 1u << (along_m + j * c.m);
  return static_cast<uint16_t>(mask);
}
// Ranks that share this CTA's B tile (same along_n): the destinations of its B slice.
GEMMSCOPE_HD constexpr uint16_t multicast_mask_b(ClusterShape c, uint32_t rank) {
  const uint32_t row_base = (rank / c.m) * c.m;
  return static_cast<uint16_t>(((1u << c.m) - 1u) << row_base);
}
// Ranks whose multicasts write into this CTA's shared memory (and so must hear,
// through this CTA's "empty" arrivals, that a stage was consumed). The relation is
// symmetric: the ranks this CTA's multicasts write into.
GEMMSCOPE_HD constexpr uint16_t multicast_peers(ClusterShape c, uint32_t rank) {
  return static_cast<uint16_t>(multicast_mask_a(c, rank) | multicast_mask_b(c, rank));
}
GEMMSCOPE_HD constexpr uint32_t multicast_peer_count(ClusterShape c) { return c.m + c.n - 1u; }

// The slice of a tile of `tile_rows` rows that CTA `rank` loads: A is cut into
// cluster.n slices (index along_n), B into cluster.m slices (index along_m).
struct TileSlice {
  uint32_t row0 = 0, rows = 0;  // first row within the tile, rows in the slice
};
GEMMSCOPE_HD constexpr TileSlice slice_a(ClusterShape c, uint32_t rank, uint32_t tile_rows) {
  const uint32_t rows = tile_rows / c.n;
  return TileSlice{(rank / c.m) * rows, rows};
}
GEMMSCOPE_HD constexpr TileSlice slice_b(ClusterShape c, uint32_t rank, uint32_t tile_rows) {
  const uint32_t rows = tile_rows / c.m;
  return TileSlice{(rank % c.m) * rows, rows};
}

}  // namespace gemmscope::sm90
