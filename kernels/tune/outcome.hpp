#pragma once
// What `gemmscope tune` found for one shape, and its row in the table the command
// prints. The row is printed as soon as the shape is done (and the cache saved), so
// a sweep stopped part-way (a device call's time limit) still shows what it tuned.
#include <string>

#include "tune/shape_set.hpp"

namespace gemmscope::tune {

struct ShapeOutcome {
  NamedShape shape;
  std::string best;             // empty when no configuration passed
  double best_ms = 0, cublas_ms = 0;
  int timed = 0, failed = 0;
  bool skipped = false;         // --skip-tuned and the cache had it
  std::string incumbent;        // --configs sweep: the cache's entry for the shape, timed with the selection
  int refined = 0;              // candidates timed again in the refine round (best_ms, cublas_ms are its)
  std::string first_round;      // the first round's pick, where the refine round overturned it
};

// The table's header line and one shape's line (each ending in '\n'); a skipped
// shape has no line (empty string).
std::string outcome_table_header();
std::string outcome_table_row(const ShapeOutcome& o);

}  // namespace gemmscope::tune
