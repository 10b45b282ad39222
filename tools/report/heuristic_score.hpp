#pragma once
// How good the heuristic is on measured shapes: `gemmscope tune --times` writes every
// candidate's time against cuBLAS, shape by shape; this reads those rows back and, for
// each shape, sets the configuration `auto` would run without a cache entry
// (tune::heuristic) beside the fastest candidate measured. Host-only; no GPU.
//
// Only the first round is read: it times every candidate of a shape on the same rounds
// (the refine round times a few of them again, on rounds of their own). A ratio is
// cuBLAS's median over the candidate's, as tune wrote it (> 1: faster than cuBLAS);
// rows from several files are each against their own file's cuBLAS.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tune/config.hpp"

namespace gemmscope::report {

struct MeasuredConfig {
  std::string config;
  double ratio = 0;  // to cuBLAS, > 0
};

struct MeasuredShape {
  tune::Shape shape;
  std::string label;
  std::vector<MeasuredConfig> configs;  // in the order read
};

struct SweepTimes {
  std::vector<MeasuredShape> shapes;  // in the order first read
  std::set<std::string> gpus;
  std::set<int> kernel_versions;
  // Rows of configurations this build does not compile (timed by another build): left
  // out, the heuristic cannot pick them.
  int uncompiled_rows = 0;
  std::set<std::string> uncompiled;  // their configurations' instances
};

// Adds the first-round rows of one `tune --times` CSV to `into`. Throws
// std::invalid_argument starting with `name`, naming the line, column and value: a
// header other than tune's (tune::sweep_times_header), a row with another field count,
// a size that is not a whole number from 1 to 2^31 - 1, a ratio that is not a positive
// finite number, a malformed configuration (one this build does not compile is
// counted in `uncompiled` and left out), a (shape, configuration)
// given twice (in this file or an earlier one), rows of two GPUs.
void read_sweep_times(std::string_view text, const std::string& name, SweepTimes& into);
// Reads the file at `path` (at most 256 MiB) and parses it as read_sweep_times does.
void load_sweep_times(const std::string& path, SweepTimes& into);

struct ShapeScore {
  tune::Shape shape;
  std::string label;
  std::string fastest;
  double fastest_ratio = 0;
  std::string pick;       // tune::heuristic's configuration; empty: it refuses the shape
  double pick_ratio = 0;  // 0: the pick was not measured (no row for it)
  int measured = 0;       // candidates with a row
};

struct HeuristicScore {
  std::vector<ShapeScore> shapes;
  int sm_count = 0;
  // Over the shapes whose pick was measured: the geometric means of the fastest
  // candidate's and of the pick's ratio to cuBLAS, and of the pick's speed over the
  // fastest's (1: the heuristic found the fastest measured).
  int scored = 0;
  double fastest_geomean = 0, pick_geomean = 0, pick_over_fastest = 0;
  double pick_min = 0;  // the pick's lowest ratio, at pick_min_shape
  std::string pick_min_shape;
};

HeuristicScore score_heuristic(const SweepTimes& times, int sm_count);

// The table (one line per shape) and the summary, as `gemmscope tune score` prints them.
std::string score_report(const HeuristicScore& score, const SweepTimes& times);

}  // namespace gemmscope::report
