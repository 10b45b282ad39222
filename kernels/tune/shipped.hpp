#pragma once
// The tuning caches that ship with the library: kernels/tune/caches/*.json, compiled
// in, so `auto` runs the tuned picks on the GPUs they were tuned on with no file to
// find and no environment variable to set.
//
// A shipped entry applies where the GPU name, the CUDA runtime and the tunable
// kernel's version match, and the driver has the same major version: a pick is a
// property of the chip and the kernel's code, and a driver's minor release does not
// reorder the configurations (the tune records the full driver all the same).
#include <iterator>
#include <span>
#include <string>
#include <string_view>

#include "tune/cache.hpp"

namespace gemmscope::tune {

struct ShippedCache {
  std::string_view name;  // the file's stem: "h200"
  std::string_view json;  // its text
};

// In file name order.
std::span<const ShippedCache> shipped_caches();

// "580.159.04" -> "580"; a driver without a dot is its own major.
std::string driver_major(std::string_view driver);

// The entries of every shipped cache usable on `here` (its m, n, k ignored), with
// their driver rewritten to here's, so that TuneCache::find matches them exactly.
// Throws TuneCacheError if a shipped cache does not parse (a build that ships a
// broken file must not pass for one with no entries).
TuneCache shipped_entries_for(const TuneKey& here);

}  // namespace gemmscope::tune
