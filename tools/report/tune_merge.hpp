#pragma once
// `gemmscope tune merge`: a newly tuned cache (TUNED) taken into a kept one (KEPT),
// entry by entry (tune/cache.hpp keys: GPU, CUDA, driver, kernel version, shape):
//   - a key only TUNED holds is added;
//   - a key both hold with the same configuration keeps KEPT's entry;
//   - a key both hold with another configuration takes TUNED's entry only on the
//     evidence of bench runs through each cache (`gemmscope bench --kernels auto,cublas
//     --tune-cache ... --csv`, best alternated on one GPU), by one rule: TUNED's worst
//     ratio to cuBLAS over its runs beats KEPT's best over its runs, and its fastest
//     launch (min_ms, the mean over the runs) is no slower. Noise between runs cannot
//     make the cache worse, nor can a power-capped shape whose medians swing with the
//     clock. Without runs KEPT's entry stays, and the shape is listed as undecided.
// Failures (configurations that could not run a key) are the union of both caches'.
// Host-only; no GPU, no CUDA.
#include <string>
#include <vector>

#include "report/bench_compare.hpp"
#include "tune/cache.hpp"

namespace gemmscope::report {

struct MergeRuns {
  std::vector<BenchRun> kept, tuned;  // each: auto and cublas rows (median_ms, min_ms)
};

struct MergeDecision {
  enum class Outcome { added, taken, kept_by_rule, undecided };
  Outcome outcome = Outcome::added;
  tune::TuneKey key;
  std::string kept_config, tuned_config;  // kept_config is empty where the entry was added
  // Where runs decided: KEPT's best and TUNED's worst ratio, the mean fastest launches.
  double kept_best_ratio = 0, tuned_worst_ratio = 0, kept_min_ms = 0, tuned_min_ms = 0;
};

struct MergeResult {
  tune::TuneCache cache;
  std::vector<MergeDecision> decisions;  // one per key added or with two configurations, in KEPT's order then TUNED's
  int same = 0;                          // keys both hold with the same configuration
  int failures_added = 0;
};

// Throws std::invalid_argument where runs are given for one side only, or where a
// shape to decide is missing from a run, or has no measured auto or cublas row in it,
// or no min_ms (naming the run and the shape).
MergeResult merge_tune_caches(const tune::TuneCache& kept, const tune::TuneCache& tuned, const MergeRuns& runs);

// One line per decision and a summary line.
std::string format_merge(const MergeResult& result);

}  // namespace gemmscope::report
