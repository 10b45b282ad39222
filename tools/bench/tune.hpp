#pragma once
// gemmscope tune: every candidate configuration of k10 (tune::candidates) timed
// per shape, interleaved with cuBLASLt on the same rotating buffers (as bench),
// after a correctness check against a double-precision reference on sampled rows
// and columns. Results go to the tuning cache (tune/cache.hpp), saved after every
// shape, atomically.
//
// Each shape is tuned in a child process: a configuration that kills the CUDA
// context (an illegal address, a trap) is recorded as a failure and the shape is
// tuned again without it, so no configuration can end the sweep.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tune/cache.hpp"
#include "tune/outcome.hpp"
#include "tune/shape_set.hpp"

namespace gemmscope::harness {

struct TuneOptions {
  std::vector<tune::NamedShape> shapes;
  std::string cache_path;              // read (if present), updated and rewritten after each shape
  std::vector<std::string> only;       // if non-empty: only these (tune::parse_selection_item forms)
  int warmup = 2, repeats = 10;        // interleaved rounds per shape, kFirstRoundLaunches per candidate per round
  // Refine round: the `refine` fastest within kRefineSpread of the fastest are timed
  // again for `refine_repeats` rounds of their own, in bench's batches of
  // kBatchLaunches (harness.hpp), and the pick is made on those (refine < 2: no
  // refine round).
  int refine = 3, refine_repeats = 30;
  uint64_t seed = 1;
  bool progress = true;
  bool skip_tuned = false;             // leave shapes that already have an entry for this GPU/CUDA/driver/version
  int hang_seconds = 120;              // a worker silent this long is killed and its configuration recorded (<= 0: never)
  // Called once per shape when it is done (after the cache is saved), skipped ones too.
  std::function<void(const tune::ShapeOutcome&)> on_shape;
};

// The refine round's candidates: those within this fraction of the fastest.
inline constexpr double kRefineSpread = 0.10;
// Launches per candidate per round of the first round, which times every candidate
// (fewer than bench's kBatchLaunches, to keep a sweep short).
inline constexpr int kFirstRoundLaunches = 2;

// No usable GPU (tune exits with status 3, as bench and check do).
class NoGpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Tunes every shape in turn, reporting each one's outcome through options.on_shape,
// starting from `cache` (what options.cache_path held, read once by the caller,
// which can then refuse a corrupt file as bad input before any GPU work); throws
// std::runtime_error when no GPU is usable (the message says why) or the cache
// cannot be written.
void run_tune(const TuneOptions& options, tune::TuneCache cache);

}  // namespace gemmscope::harness
