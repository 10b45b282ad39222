#pragma once
// Autotuned dispatch of the tunable kernel (k10): which configuration runs a shape.
//   1. the tuning cache, if it holds an entry for this GPU, CUDA runtime, driver,
//      kernel version and shape;
//   2. otherwise tune::heuristic (a cost model over the compiled instances).
// The cache, chosen at the first dispatch:
//   - use_tune_cache(FILE), or $GEMMSCOPE_TUNE_CACHE=FILE: that JSON file (written by
//     `gemmscope tune`); "" (or GEMMSCOPE_TUNE_CACHE=none): the heuristic alone;
//   - otherwise the caches shipped with the library (kernels/tune/caches/, compiled
//     in; tune/shipped.hpp), whose entries apply on the same GPU, CUDA runtime and
//     kernel version with a driver of the same major version. A GPU they do not cover
//     (an H100, say) gets the heuristic and one notice on stderr.
// Entries from another GPU/CUDA/driver/kernel version in a file are not an error: they
// are ignored with one warning on stderr.
#include <string>

#include "gemmscope/gemm.hpp"
#include "tune/cache.hpp"
#include "tune/config.hpp"

namespace gemmscope {

struct TunedChoice {
  tune::KernelConfig config;
  std::string source;  // "tuning cache <path>" or "heuristic"
};

// Throws tune::TuneCacheError for an unreadable or corrupt file; "" or "none": no
// cache (the heuristic alone), the shipped caches included.
void use_tune_cache(const std::string& path);
TunedChoice choose(const GemmShape& shape);
// The driver version as nvidia-smi prints it ("580.159.04", from
// /proc/driver/nvidia/version), else "cuda-driver-<API version>": the cache key's
// driver and the benchmark's.
std::string driver_version();
// The current device's GPU name, CUDA runtime, driver and kernel version with the
// shape: the cache key (asked once per device).
tune::TuneKey tune_key_here(const GemmShape& shape);

}  // namespace gemmscope
