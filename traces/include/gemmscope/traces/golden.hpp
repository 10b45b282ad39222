#pragma once
// Golden hardware traces: what a probe kernel observed on a real GPU, written by
// `gemmscope probe` and replayed through the model by verify/cpu/golden_replay_test.
// The file format is described, with its version history, in traces/hw/README.md.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gemmscope/model/error.hpp"

namespace gemmscope::traces {

// Version 1: the first format. Version 2 adds `source`: whether the observations
// came from a GPU or were generated from the model (traces/hw/README.md). Version 3
// lets an observation array be stored as runs (golden_runs below).
inline constexpr int kGoldenSchemaVersion = 3;
inline constexpr std::string_view kGoldenFormatName = "gemmscope-golden-trace";
// The two values of `source`; a version-1 file is read as "hardware".
inline constexpr std::string_view kGoldenSourceHardware = "hardware";
inline constexpr std::string_view kGoldenSourceSynthetic = "synthetic from the model";

// A golden file that cannot be read or breaks the format. The message names the
// source file, the field and the rule: "tma.json: cases[3].status = "maybe" must be ok or failed".
class GoldenError : public model::ModelError {
 public:
  using model::ModelError::ModelError;
};

struct GpuInfo {
  std::string name;            // cudaDeviceProp::name, e.g. "NVIDIA H200"
  int compute_major = 0;       // 9 for sm_90
  int compute_minor = 0;
  int driver_version = 0;      // cudaDriverGetVersion, e.g. 12080
  int runtime_version = 0;     // cudaRuntimeGetVersion of the probe binary
  int sm_count = 0;
  int clock_khz = 0;           // cudaDevAttrClockRate at probe time (0 if unknown)
};

enum class CaseStatus { Ok, Failed };

// One probe case: its parameters and what the hardware did. `observed` is the
// probe's own record (schema per probe in traces/hw/README.md); a failed case has
// an error instead and no observation the replay may use.
struct GoldenCase {
  std::string name;
  CaseStatus status = CaseStatus::Ok;
  std::string error;             // non-empty exactly when status == Failed
  nlohmann::json params = nlohmann::json::object();
  nlohmann::json observed = nlohmann::json::object();
};

struct GoldenTrace {
  int schema_version = kGoldenSchemaVersion;
  // kGoldenSourceHardware (a probe ran on `gpu`) or kGoldenSourceSynthetic (the
  // model's prediction in the probe's format; `gpu` then names no real device and
  // its version numbers may be 0). Written from version 2 on.
  std::string source = std::string(kGoldenSourceHardware);
  std::string probe;             // file stem: letters, digits, '.', '_', '-'
  std::string description;
  std::vector<std::string> settles;  // the facts the probe settles, one line each
  GpuInfo gpu;
  std::string date;              // UTC, ISO 8601: 2025-01-31T12:00:00Z
  std::string commit;            // git commit of the probe source ("unknown" if not known)
  std::vector<GoldenCase> cases;

  bool synthetic() const { return source == kGoldenSourceSynthetic; }
  std::size_t failed_cases() const;
  const GoldenCase* find_case(std::string_view name) const;  // nullptr if absent
};

// Letters, digits, '.', '_', '-' only, 1..64 characters (what comes back from the GPU machine).
bool valid_probe_name(std::string_view name);

nlohmann::json to_json(const GoldenTrace& trace);
// Validates every field; `source` names the file in error messages.
GoldenTrace golden_from_json(const nlohmann::json& doc, const std::string& source);
// A golden trace file is at most 4 MiB (the largest in traces/hw/ is 383 KiB) and
// nests at most 32 deep; it is read whole (a JSON document in memory is about 10x
// its text: at most about 40 MB). Refused besides: a key given twice in one object,
// a file that is not a regular file (before any read).
inline constexpr size_t kMaxGoldenFileBytes = size_t{4} << 20;
inline constexpr int kMaxGoldenDepth = 32;
GoldenTrace read_golden(const std::filesystem::path& path);
// Writes `<dir>/<probe>.json` (pretty, one array row per line kept compact), all or
// nothing (tune/text/output_file.hpp), and returns the path.
std::filesystem::path write_golden(const std::filesystem::path& dir, const GoldenTrace& trace);
// The same text to the file `path` (its folder must exist).
void write_golden_file(const std::filesystem::path& path, const GoldenTrace& trace);
// Every *.json under `dir`, sorted by name; empty when the folder is missing.
std::vector<std::filesystem::path> list_golden_files(const std::filesystem::path& dir);

// Typed readers for a case's params/observed, throwing GoldenError "source: where.key ..."
// when a key is missing, has the wrong type, or an array has the wrong length.
int64_t golden_int(const nlohmann::json& obj, std::string_view key, const std::string& where);
std::string golden_string(const nlohmann::json& obj, std::string_view key, const std::string& where);
// An observation array is either a plain JSON array or, from version 3 on, runs:
// {"runs": [[first, count, step], ...]}, each run the values first, first + step, ...,
// first + (count - 1) * step (count >= 1), runs in order. Integers for an integer
// array; for a number array value 0 of a run is `first` and value i > 0 is
// first + i * step rounded once (std::fma), so decoding is exact on any compiler.
// Refused with the field and the rule: a run that is not [first, count, step], a count
// below 1, a value past int64 (or double) range, more than kMaxGoldenArrayEntries.
// expected_size < 0: any length; else the decoded length must equal it ("has N
// entries, expected M").
std::vector<int64_t> golden_int_array(const nlohmann::json& obj, std::string_view key, const std::string& where,
                                      long long expected_size = -1);
std::vector<double> golden_number_array(const nlohmann::json& obj, std::string_view key, const std::string& where,
                                        long long expected_size = -1);
// As many entries as a plain array could hold in a file of kMaxGoldenFileBytes: a
// small runs object cannot ask for more memory than a large file would.
inline constexpr long long kMaxGoldenArrayEntries = static_cast<long long>(kMaxGoldenFileBytes) / 2;

// The runs form of `values` (greedy: each run as long as it goes). For doubles a run
// goes only as far as every value decodes bit for bit (-0.0 included): where a step
// would round, the values go as shorter runs.
nlohmann::json golden_runs(const std::vector<int64_t>& values);
nlohmann::json golden_runs(const std::vector<double>& values);

// The long observation arrays the probes write as runs (traces/hw/README.md).
inline constexpr std::array<std::string_view, 4> kGoldenRunArrays = {"smem_u16", "elem_offset_bytes", "d_low",
                                                                     "d_high"};
// `trace` at kGoldenSchemaVersion with every plain array named in kGoldenRunArrays
// as runs: integer runs where every entry is an integer, number runs where every
// entry is a float (each entry keeps its JSON type); any other array stays as it is.
// Checked before it returns: the result, written as text and read back, holds every
// value of `trace` exactly (else GoldenError, and nothing is returned).
GoldenTrace compact_golden(const GoldenTrace& trace);

}  // namespace gemmscope::traces
