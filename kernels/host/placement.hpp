#pragma once
// Where a persistent cluster launch puts its clusters: the GPC of each cluster, found
// on the device itself (tune/gpc_order.hpp says why k10 wants it).
//
// A cluster's CTAs always share a GPC, so clusters of 16 CTAs (the non-portable size)
// and of 8 group the SMs by GPC: two SMs that ever ran in one cluster are on one GPC.
// SMs that no cluster of 8 or more reaches (12 of the H200's 132) stay apart, each
// TPC pair its own group. Then a launch of the resident count of clusters of the
// asked size records each cluster's SM (%smid). Each launch spins 20 us with one CTA
// per SM, so all its clusters are resident together, as k10's persistent ones are.
// On the H200 the placement was the same in every launch
// (bench/results/2026-12-01-h200-cluster-2x2, call 2).
#include <vector>

namespace gemmscope::sm90 {

// The GPC (a group label) of cluster c, for c in [0, resident clusters of
// `cluster_size` at one CTA per SM). Found once per device and size, then cached;
// empty where a CUDA call failed. The first call per device and size synchronizes
// the device: never call it while a stream is being captured into a graph.
std::vector<int> cluster_gpcs(int device, int cluster_size);

}  // namespace gemmscope::sm90
