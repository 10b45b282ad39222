#pragma once
// Shape sets: the GEMM shapes the autotuner and `bench` run over, as CSV files
// (bench/shapes/*.csv), each row one projection of a model:
//
//   # comment lines start with '#' (after optional spaces); blank lines are skipped
//   model,layer,m,n,k
//   llama3-8b,qkv,512,6144,4096
//
// The first line that is not a comment or blank is exactly the header
// "model,layer,m,n,k". model and layer are 1..64 of [A-Za-z0-9._-]; m, n, k are
// decimal 1..2^31-1 (digits only, leading zeros allowed); spaces and tabs around a
// field are trimmed; CRLF line ends are accepted. Rows with the same (m, n, k) are
// kept (two models may share a shape); the same (model, layer, m) twice is an error.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::tune {

struct NamedShape {
  std::string model, layer;
  int64_t m = 0, n = 0, k = 0;
  bool operator==(const NamedShape&) const = default;
};

// Every message starts with "source:line: " (or "source: " for the whole file) and
// names the field, the value as written and the rule, e.g.
//   shapes.csv:7: n = '0' must be 1..2147483647
class ShapeSetError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

inline constexpr int64_t kMaxShapeSetDim = (int64_t{1} << 31) - 1;  // TMA's 32-bit global dimensions
inline constexpr size_t kMaxShapeSetNameBytes = 64;
inline constexpr size_t kMaxShapeSetBytes = size_t{16} << 20;  // 16 MiB: far above any real set

// Throws ShapeSetError; at least one row (an empty set is an error).
std::vector<NamedShape> parse_shape_set(std::string_view text, const std::string& source = "<shapes>");

// Reads and parses a file; the path is the source in messages. A file that cannot be
// read gives "cannot read shape set 'path': <strerror>".
std::vector<NamedShape> load_shape_set(const std::string& path);

}  // namespace gemmscope::tune
