#pragma once
// The JSON `gemmscope bench --json` writes (tools/bench/bench_report.cpp), read back
// for the ladder chart (`gemmscope plot`). Host-only; no GPU, no CUDA.
//
// The document: {"schema_version": 1, "environment": {...}, "rows": [...],
// "summary": [...]}; only "rows" is required (older files have no summary). Read in
// one pass (SAX): a row is checked and kept as a BenchJsonRow when it closes, so memory
// is the rows kept (about 100 bytes each), never a document tree of the file.
//
// Refused, naming the source, the row and the field (std::invalid_argument): text that
// is not JSON (with its byte), a key given twice in one object, nesting deeper than
// the format (a row's values are scalars), a key the format does not have, a row
// without kernel, m, n, k, tflops or ratio_to_cublas; a kernel that is not 1..256
// bytes of text; m, n, k that are not whole numbers from 1 to 2^31 - 1 (1e30, 2.5,
// -1); tflops or ratio_to_cublas that are not null or a number from 0 to 1e6 (a
// number past double's range fails as JSON); a (kernel, shape) given twice; more than
// 1,000,000 rows.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::report {

struct BenchJsonRow {
  std::string kernel;
  int64_t m = 0, n = 0, k = 0;
  double tflops = 0, ratio_to_cublas = 0;  // 0 where the file has null (no finite measurement)
  size_t index = 0;                        // rows[index] in the file
};

inline constexpr double kMaxJsonRate = 1e6;     // TFLOP/s and ratios: far above any GPU
inline constexpr size_t kMaxBenchJsonRows = 1'000'000;

std::vector<BenchJsonRow> read_bench_json_rows(std::string_view text, const std::string& name);

// Reads the file at `path` (a regular file of at most 64 MiB) and parses it as above.
// Throws std::invalid_argument "bench JSON = <path> cannot be opened (...)", "... is
// a FIFO, not a regular file", "... is larger than 64 MiB", or the parser's.
std::vector<BenchJsonRow> load_bench_json(const std::string& path);

}  // namespace gemmscope::report
