#pragma once
// The autotuner's results cache: which kernel configuration was fastest for a GEMM
// shape on one GPU, CUDA runtime, driver and version of the tunable kernel. A JSON
// file, written atomically; keys hold no machine paths, so a cache can be shared
// between machines with the same GPU and software.
//
//   {"format": "gemmscope-tune-cache", "version": 1,
//    "entries":  [{"gpu": "NVIDIA H200", "cuda": "13.0", "driver": "580.159.04",
//                  "kernel_version": 1, "m": 512, "n": 8192, "k": 5376,
//                  "config": "...", "median_ms": 0.061, "cublas_ms": 0.064,
//                  "candidates": 24, "date": "2026-11-30T10:00:00Z"}],
//    "failures": [{"gpu": ..., "cuda": ..., "driver": ..., "kernel_version": ...,
//                  "m": ..., "n": ..., "k": ..., "config": "...", "reason": "..."}]}
//
// Rules (parse refuses, to_json refuses to write): m, n, k integers 1..2^31-1;
// kernel_version and candidates integers 0..1000000; median_ms finite, > 0 and
// < 1e9; cublas_ms the same or 0 (unknown); strings at most 256 bytes of UTF-8
// without control characters; config not empty; no two entries with the same key,
// no two failures with the same key and config; no unknown fields.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::tune {

inline constexpr int kCacheFormatVersion = 1;
inline constexpr std::string_view kCacheFormatName = "gemmscope-tune-cache";
inline constexpr size_t kMaxCacheBytes = size_t{64} << 20;  // 64 MiB
inline constexpr size_t kMaxCacheStringBytes = 256;

struct TuneKey {
  std::string gpu;         // cudaDeviceProp::name, e.g. "NVIDIA H200"
  std::string cuda;        // runtime version, e.g. "13.0"
  std::string driver;      // e.g. "580.159.04"
  int kernel_version = 0;  // bumped when the tunable kernel changes
  int64_t m = 0, n = 0, k = 0;
  bool operator==(const TuneKey&) const = default;
};

struct TuneEntry {
  TuneKey key;
  std::string config;     // the winning configuration's name
  double median_ms = 0;   // its median time
  double cublas_ms = 0;   // cuBLAS on the same shape; 0 = not measured
  int candidates = 0;     // configurations tried
  std::string date;       // when tuned (UTC ISO 8601 by convention; not checked)
  bool operator==(const TuneEntry&) const = default;
};

// A configuration that could not run on a key (refused, failed to launch, wrong
// result): remembered so the tuner does not try it again.
struct TuneFailure {
  TuneKey key;
  std::string config;
  std::string reason;
  bool operator==(const TuneFailure&) const = default;
};

// Messages name the source (file), the JSON path (entries[3].m), the value and the rule.
class TuneCacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TuneCache {
  std::vector<TuneEntry> entries;
  std::vector<TuneFailure> failures;

  const TuneEntry* find(const TuneKey& key) const;  // exact key match, nullptr if none
  void upsert(const TuneEntry& e);                  // replaces the entry with the same key, else appends
  void add_failure(const TuneFailure& f);           // replaces the one with the same (key, config), else appends
  // Entries made on another GPU, CUDA, driver or kernel_version than `here` (m, n, k
  // ignored): for the warning "the cache at X holds N entries from another GPU; they
  // are ignored".
  size_t foreign_entries(const TuneKey& here) const;

  bool operator==(const TuneCache&) const = default;
};

// Throws TuneCacheError (never a nlohmann exception); messages start with "source: ".
TuneCache parse_tune_cache(std::string_view text, const std::string& source = "<cache>");

// Pretty, stable order (fields in the order above, one entry per line), ends with a
// newline; parse_tune_cache(to_json(c)) == c exactly. Throws TuneCacheError for a
// cache that breaks a rule above (it would not read back).
std::string to_json(const TuneCache& cache);

// A missing file is an empty cache; an unreadable or corrupt one a TuneCacheError
// naming the path and the problem.
TuneCache load_tune_cache(const std::string& path);

// Atomic (tune/text/output_file.hpp): a temporary file beside path, flushed to disk,
// renamed over path. On any failure the temporary is removed, path is left as it was,
// and TuneCacheError is thrown.
void save_tune_cache(const std::string& path, const TuneCache& cache);

}  // namespace gemmscope::tune
