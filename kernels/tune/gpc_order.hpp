#pragma once
// GPC-grouped tile orders for k10's static persistent schedule.
//
// L2's request coalescer merges identical read requests that SMs of the same GPC
// make at about the same time (besides a cluster's multicast). On the H200, at
// 512x4096x4096 in 1x2 clusters, placing the four readers of each B tile on one GPC
// took the merged read sectors from 0.06 M to 3.03 M (cuBLAS: 3.08 M), L2 lookups
// from 6.24 M to 3.27 M sectors and the kernel from 30.5 to 27.2 us
// (bench/results/2026-12-01-h200-cluster-2x2, call 3).
//
// The static schedule gives unit r * W + w to worker w in round r (W workers, the
// persistent clusters; sm90::StaticSchedule). The grouped order keeps each round's
// set of units and deals them, in their own order (along M or grouped zig-zag: the
// order in which neighbouring units share operand tiles), to the round's workers
// sorted by GPC: consecutive units, which share A rows or B columns, run on one GPC.
// Only the assignment within a round changes, so a round still covers the same
// tiles at once and every unit is run exactly once, whatever the GPCs.
#include <cstdint>
#include <vector>

namespace gemmscope::tune {

// order[u] (u in [0, units)): the unit that the worker holding slot u runs, where
// slot u is the static schedule's u-th unit. worker_gpc[w] is the GPC of persistent
// worker w (any integers: only equality and order matter); W = worker_gpc.size().
// Throws std::invalid_argument if worker_gpc is empty or units is negative or does
// not fit in 32 bits.
std::vector<uint32_t> gpc_grouped_order(const std::vector<int>& worker_gpc, int64_t units);

}  // namespace gemmscope::tune
