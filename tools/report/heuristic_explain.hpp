#pragma once
// Why `auto` runs what it runs on a shape it has no tuning-cache entry for: every
// candidate of the tunable kernel ranked by the heuristic's model (tune::modelled_time),
// with the model's terms, the configurations that tie with the pick, and what the
// shipped tuning caches hold for the shape instead. Host-only; no GPU.
#include <string>
#include <vector>

#include "tune/config.hpp"

namespace gemmscope::report {

struct RankedConfig {
  tune::KernelConfig config;
  tune::ModelledTime time;
  int64_t units = 0;  // clusters with work (tune::SplitPlan::units)
  int64_t slots = 0;  // clusters that fit on the GPU at once (tune::cluster_slots)
};

// A tuning cache's entry for the shape: what auto runs instead where its key matches.
struct CachedPick {
  std::string cache;  // "shipped cache h200", or "your cache <path>"
  std::string where;  // "NVIDIA H200, CUDA 13.0, driver 580"
  std::string config;
  int kernel_version = 0;
};

struct Explanation {
  tune::Shape shape;
  int sm_count = 0;
  std::vector<RankedConfig> ranked;  // fastest modelled first; ties in compiled order, so ranked[0] is heuristic()'s
  std::string refusal;               // why no candidate runs the shape (ranked is empty)
  // Then what auto runs instead, as the kernel registry dispatches it (gemmscope::gemm's
  // choice, gemmscope/kernel_registry.hpp): the kernel's name in `fallback`, or the
  // registry's refusal where no kernel runs the shape. The caller fills them in where it
  // has the kernels (explain_heuristic does not); both empty: not known.
  std::string fallback;
  std::string fallback_refusal;
  std::vector<CachedPick> cached;     // the shipped caches' entries for the shape (this kernel version), then
                                     // those of the cache file given, any version
};

// Throws std::invalid_argument for an SM count outside 1..1024, or naming the cache file
// that cannot be read or parsed. `cache_file` empty: the shipped caches alone.
Explanation explain_heuristic(const tune::Shape& shape, int sm_count, const std::string& cache_file = {});

// The first `top` ranks (and every configuration tied with the pick), the ties and the
// caches' entries, as `gemmscope tune explain` prints them.
std::string explain_report(const Explanation& e, int top);

}  // namespace gemmscope::report
