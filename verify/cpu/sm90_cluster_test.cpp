// The multicast masks and operand slices of kernels/common/sm90_cluster.hpp
// against a plainly written enumeration of the cluster (PTX ISA
// "%cluster_ctarank": x + y * nctaid.x, with x along M and y along N here) and
// hand-worked masks.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

#include "common/sm90_cluster.hpp"

namespace gemmscope::sm90 {
namespace {

struct Cta {
  uint32_t x, y, rank;
};
// Every CTA of the cluster, by two nested loops over the cluster's x (M) and y (N).
std::vector<Cta> enumerate(ClusterShape c) {
  std::vector<Cta> ctas;
  for (uint32_t y = 0; y < c.n; ++y)
    for (uint32_t x = 0; x < c.m; ++x) ctas.push_back({x, y, static_cast<uint32_t>(ctas.size())});
  return ctas;
}

TEST(Sm90Cluster, HandWorkedMasks) {
  // 2 x 1 (two CTAs along M): each A tile is its own, the B tile shared.
  EXPECT_EQ(multicast_mask_a({2, 1}, 0), 0b01);
  EXPECT_EQ(multicast_mask_a({2, 1}, 1), 0b10);
  EXPECT_EQ(multicast_mask_b({2, 1}, 0), 0b11);
  EXPECT_EQ(multicast_mask_b({2, 1}, 1), 0b11);
  // 1 x 2: A shared, B its own.
  EXPECT_EQ(multicast_mask_a({1, 2}, 1), 0b11);
  EXPECT_EQ(multicast_mask_b({1, 2}, 1), 0b10);
  // 2 x 2: rank 3 = (x 1, y 1) shares A with rank 1 (x 1, y 0), B with rank 2 (x 0, y 1).
  EXPECT_EQ(multicast_mask_a({2, 2}, 3), 0b1010);
  EXPECT_EQ(multicast_mask_b({2, 2}, 3), 0b1100);
  EXPECT_EQ(multicast_peers({2, 2}, 0), 0b0111);
  EXPECT_EQ(multicast_peer_count({2, 2}), 3u);
  // Slices of a 128-row A tile in a 2 x 2 cluster: y = 0 loads rows 0..63, y = 1 rows 64..127.
  EXPECT_EQ(slice_a({2, 2}, 2, 128).row0, 64u);
  EXPECT_EQ(slice_a({2, 2}, 2, 128).rows, 64u);
  EXPECT_EQ(slice_b({2, 2}, 1, 256).row0, 128u);
}

rc::Gen<ClusterShape> cluster_shape() {
  // Portable cluster sizes: at most 8 CTAs, powers of two in each dimension.
  return rc::gen::suchThat(rc::gen::build<ClusterShape>(rc::gen::set(&ClusterShape::m, rc::gen::element(1u, 2u, 4u, 8u)),
                                                        rc::gen::set(&ClusterShape::n, rc::gen::element(1u, 2u, 4u, 8u))),
                           [](ClusterShape c) { return c.m * c.n <= 8; });
}

RC_GTEST_PROP(Sm90Cluster, MasksMatchEnumeration, ()) {
  const ClusterShape c = *cluster_shape();
  const auto ctas = enumerate(c);
  for (const Cta& me : ctas) {
    const ClusterPosition p = cluster_position(c, me.rank);
    RC_ASSERT(p.along_m == me.x);
    RC_ASSERT(p.along_n == me.y);
    RC_ASSERT(cluster_rank(c, p) == me.rank);
    uint32_t want_a = 0, want_b = 0, peers = 0;
    for (const Cta& other : ctas) {
      if (other.x == me.x) want_a |= 1u << other.rank;  // same M rows: same A tile
      if (other.y == me.y) want_b |= 1u << other.rank;  // same N columns: same B tile
      if (other.x == me.x || other.y == me.y) ++peers;
    }
    RC_ASSERT(multicast_mask_a(c, me.rank) == want_a);
    RC_ASSERT(multicast_mask_b(c, me.rank) == want_b);
    RC_ASSERT(multicast_peers(c, me.rank) == (want_a | want_b));
    RC_ASSERT(multicast_peer_count(c) == peers);
  }
}

// Each CTA receives every row of its A and B tiles exactly once from the slices
// multicast to it.
RC_GTEST_PROP(Sm90Cluster, SlicesCoverTilesOnce, ()) {
  const ClusterShape c = *cluster_shape();
  const uint32_t rows_a = 64u * *rc::gen::inRange(1u, 5u) * 8u, rows_b = 64u * *rc::gen::inRange(1u, 5u) * 8u;
  for (uint32_t dest = 0; dest < c.size(); ++dest) {
    std::vector<int> seen_a(rows_a, 0), seen_b(rows_b, 0);
    for (uint32_t src = 0; src < c.size(); ++src) {
      if (multicast_mask_a(c, src) >> dest & 1u) {
        const TileSlice s = slice_a(c, src, rows_a);
        for (uint32_t r = s.row0; r < s.row0 + s.rows; ++r) ++seen_a.at(r);
      }
      if (multicast_mask_b(c, src) >> dest & 1u) {
        const TileSlice s = slice_b(c, src, rows_b);
        for (uint32_t r = s.row0; r < s.row0 + s.rows; ++r) ++seen_b.at(r);
      }
    }
    for (int v : seen_a) RC_ASSERT(v == 1);
    for (int v : seen_b) RC_ASSERT(v == 1);
  }
}

}  // namespace
}  // namespace gemmscope::sm90
