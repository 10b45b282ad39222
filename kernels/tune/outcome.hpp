#pragma once
// What `gemmscope tune` found for one shape, and its row in the table the command
// prints. The row is printed as soon as the shape is done (and the cache saved), so
// a sweep stopped part-way (a device call's time limit) still shows what it tuned.
#include <map>
#include <string>

#include "tune/shape_set.hpp"

namespace gemmscope::tune {

// Where a shape was timed: the GPU, driver and CUDA runtime, the kernel version, the date.
struct SweepWhere {
  std::string gpu, driver, cuda, date;
  int kernel_version = 0;
};

struct ShapeOutcome {
  NamedShape shape;
  std::string best;             // empty when no configuration passed
  double best_ms = 0, cublas_ms = 0;
  int timed = 0, failed = 0;
  bool skipped = false;         // --skip-tuned and the cache had it
  std::string incumbent;        // --configs sweep: the cache's entry for the shape, timed with the selection
  int refined = 0;              // candidates timed again in the refine round (best_ms, cublas_ms are its)
  std::string first_round;      // the first round's pick, where the refine round overturned it
  // Every timed candidate's median (ms) and cuBLAS's in the same rounds: the first
  // round over all candidates, and the refine round's few (empty without one).
  std::map<std::string, double> first_times, refined_times;
  double cublas_first_ms = 0, cublas_refined_ms = 0;
  SweepWhere where;
};

// The table's header line and one shape's line (each ending in '\n'); a skipped
// shape has no line (empty string).
std::string outcome_table_header();
std::string outcome_table_row(const ShapeOutcome& o);

// `tune --times FILE`: the whole sweep as CSV, one row per shape, round and candidate
// (every candidate's time, not only the winner's), appended shape by shape, each row
// with the outcome's `where`.
std::string sweep_times_header();                     // ends in '\n'
std::string sweep_times_rows(const ShapeOutcome& o);  // "" for a skipped shape

}  // namespace gemmscope::tune
