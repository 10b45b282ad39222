#pragma once
// Bench runs side by side: the CSV files `gemmscope bench --csv` writes, read back and
// compared: two builds of a kernel against each other (their runs alternated on one
// GPU), or a kernel against cuBLAS (the geomean of the ratio, and its floor).
// Host-only; no GPU, no CUDA.
//
// A shape's ratio is the one bench reports: the reference kernel's median time over
// the kernel's (> 1: the kernel is faster). It is recomputed here from the two
// median_ms columns, not read from ratio_to_cublas, so a comparison against a kernel
// other than cuBLAS works the same way.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::report {

struct BenchCsvRow {
  std::string kernel, label, commit, gpu, note;
  int64_t m = 0, n = 0, k = 0;
  double median_ms = 0;   // > 0 and finite where measured
  double min_ms = 0;      // the fastest launch, where the file has the column (else 0)
  bool measured = false;  // false: bench wrote no time (a refusal, an error: see note)
  int line = 0;           // 1-based line of the file (the header is line 1)
};

struct BenchRun {
  std::string name;  // how the comparison calls it
  std::vector<BenchCsvRow> rows;
};

// Parses one bench CSV (RFC 4180: quoted fields may hold commas, quotes, line breaks).
// Needs the columns kernel, m, n, k and median_ms; reads label, commit, gpu, note and
// min_ms where present. Throws std::invalid_argument starting with `name`, naming the line,
// the column and the value: a missing column, a row with another field count than the
// header, an unterminated quote, a size that is not a whole number from 1 to 2^31 - 1,
// a median that is not a number, a (kernel, shape) given twice. An empty, "nan" or
// "inf" median, or one of 0, is a row without a time (measured = false), not an error.
// Read record by record (memory: the rows kept, about 2x the text); at most
// kMaxBenchCsvRows rows.
inline constexpr size_t kMaxBenchCsvRows = 1'000'000;
BenchRun read_bench_csv(std::string_view text, const std::string& name);

// Reads the file at `path` (at most 64 MiB) and parses it as read_bench_csv does.
// Throws std::invalid_argument "bench CSV = <path> cannot be opened (<strerror>)",
// "... cannot be read (...)", "... is larger than 64 MiB", or read_bench_csv's.
BenchRun load_bench_csv(const std::string& path, const std::string& name);

struct RunSummary {
  std::string name, commit, gpu;  // commit and gpu: the kernel rows' (first row's)
  int shapes = 0;                 // shapes with both kernels measured
  double geomean = 0, min = 0;    // of the ratio over those shapes
  std::string min_shape;          // MxNxK of the minimum
  int below_floor = 0, at_or_above_one = 0;
  int unpaired = 0;  // shapes with a kernel row but no measured pair (one side refused or absent)
  // Runs after the first, over the shapes both have: the geometric mean of this run's
  // median time over the first run's, for the kernel and for the reference. The
  // reference's drift between two runs is the noise the kernel's change must beat.
  // 0 for the first run, or where no shape is shared.
  double kernel_time_vs_first = 0, reference_time_vs_first = 0;
  int shared_with_first = 0;
};

struct ShapeLine {
  int64_t m = 0, n = 0, k = 0;
  std::string label;
  std::vector<double> ratio;  // per run; 0 where that run has no measured pair
};

struct Comparison {
  std::string kernel, reference;
  double floor = 0;
  std::vector<RunSummary> runs;
  std::vector<ShapeLine> shapes;  // in the order the runs first name them
};

// Throws std::invalid_argument where there is no run, where kernel equals reference,
// or where a run has no shape with both measured (naming the run and the kernels it has).
Comparison compare_runs(const std::vector<BenchRun>& runs, const std::string& kernel, const std::string& reference,
                        double floor);

// The comparison as text: one line per run, the targets (geomean >= target, no shape
// below the floor) per run, and, with per_shape, one line per shape.
std::string format_comparison(const Comparison& c, double target, bool per_shape);

}  // namespace gemmscope::report
