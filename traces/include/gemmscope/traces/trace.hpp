#pragma once
// Shared-memory access traces: one record per warp-level shared-memory instruction
// (or, for the tensor core and TMA, the model's view of one: see Stage), the reader
// and the writer. The file format, its version history and the hand-written text
// form are in docs/traces.md.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/error.hpp"

namespace gemmscope::traces {

// Version 1: the first format (docs/traces.md, "Version history").
inline constexpr int kTraceFormatVersion = 1;
inline constexpr std::string_view kTraceFormatName = "gemmscope-trace";

// What part of a kernel issued the access. TmaWrite, WgmmaOperandRead and TmaStoreRead
// are not warp instructions (the TMA unit and the tensor core read and write shared
// memory themselves): their records are the model's view, 16-byte chunk requests,
// 32 per record; is_model_view() says which.
enum class Stage {
  TmaWrite,          // "tma-write": a TMA load landing a box (model view)
  WgmmaOperandRead,  // "wgmma-operand-read": core-matrix rows read through a descriptor (model view)
  Ldmatrix,          // "ldmatrix"
  Stmatrix,          // "stmatrix"
  EpilogueStore,     // "epilogue-store": st.shared of converted accumulators
  TmaStoreRead,      // "tma-store-read": a TMA store reading the staging tile (model view)
  Load,              // "load": any other ld.shared
  Store,             // "store": any other st.shared
  User,              // "user": hand-written text-form records
};
inline constexpr Stage kAllStages[] = {Stage::TmaWrite,      Stage::WgmmaOperandRead, Stage::Ldmatrix,
                                       Stage::Stmatrix,      Stage::EpilogueStore,    Stage::TmaStoreRead,
                                       Stage::Load,          Stage::Store,            Stage::User};
std::string_view to_string(Stage stage);
// Throws TraceError listing the accepted names.
Stage parse_stage(std::string_view name);
bool is_model_view(Stage stage);

// A trace that cannot be read. The message names the input, the line (or byte
// offset), the field and the expected form.
class TraceError : public model::ModelError {
 public:
  using model::ModelError::ModelError;
};

struct TraceRecord {
  std::string kernel;        // "k04"; empty in a record means the trace's kernel
  Stage stage = Stage::User;
  uint32_t cta = 0;          // linear CTA index: blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)
  uint32_t warp = 0;         // warp in the CTA (model-view stages: the issuing warp)
  model::WarpAccess access;  // width, load/store, active mask, 32 byte addresses, label
};

struct Trace {
  std::string kernel;        // the kernel of records that name none
  std::string source;        // "model", "gpu", "host-replay", "pattern", "user"
  std::string description;
  uint64_t smem_base = 0;    // shared address the generator or kernel addressed the tile from
  std::vector<TraceRecord> records;
  // The kernel a record belongs to (its own, else the trace's).
  const std::string& kernel_of(const TraceRecord& r) const { return r.kernel.empty() ? kernel : r.kernel; }
};

// Shared addresses are 32-bit (the shared window, cvta.to.shared); larger values are refused.
inline constexpr uint64_t kMaxAddress = 0xFFFFFFFFull;
// Longest line the reader accepts (a record line is about 500 bytes).
inline constexpr size_t kMaxLineBytes = 1 << 16;

enum class TraceFormat { JsonLines, Text };
// "jsonl" / "text"; parse_trace_format throws TraceError.
std::string_view to_string(TraceFormat format);
TraceFormat parse_trace_format(std::string_view name);

// Reads either form: JSON lines when the first non-blank character is '{', else the
// text form. `source_name` prefixes error messages ("k04.jsonl:3: ...").
// Throws TraceError on anything malformed, truncated or out of range; never crashes.
Trace parse_trace(std::string_view text, std::string_view source_name = "<input>");
Trace read_trace_file(const std::filesystem::path& path);

// JSON lines: a header object, then one object per record; writes every field, and
// the record count in the header so that a truncated file is refused.
std::string write_trace_jsonl(const Trace& trace);
// The text form: one instruction a line, WIDTH KIND MASK ADDR0 .. ADDR31 ('-' for an
// inactive lane), with each record's stage, CTA, warp and label in a comment line
// before it (the reader ignores comments: stage, CTA, warp and label do not survive).
std::string write_trace_text(const Trace& trace);
std::string write_trace(const Trace& trace, TraceFormat format);
void write_trace_file(const std::filesystem::path& path, const Trace& trace, TraceFormat format);

// The same access as the reader gives back: inactive lanes' addresses set to 0.
model::WarpAccess canonical_access(const model::WarpAccess& access);
// Stage, CTA, warp, kernel, width, kind, mask and active lanes' addresses equal
// (labels are not compared).
bool same_record(const Trace& a_trace, const TraceRecord& a, const Trace& b_trace, const TraceRecord& b);
// The first difference between two lists of records (index and what differs), or
// nothing when they agree record for record.
std::optional<std::string> first_difference(const Trace& a, const Trace& b);

}  // namespace gemmscope::traces
