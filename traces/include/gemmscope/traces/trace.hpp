#pragma once
// Shared-memory access traces: one record per warp-level shared-memory instruction
// (or, for the tensor core and TMA, the model's view of one: see Stage), the reader
// and the writer. The file format, its version history and the hand-written text
// form are in docs/traces.md.
#include <cstdint>
#include <filesystem>
#include <memory>
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
// An address given by hand (`banks --addresses`, Python's `gemmscope.banks`): "" where it
// is in the shared window, else the rule it breaks, for "<name> = <value> <rule>".
inline std::string shared_address_rule(long long address) {
  return address >= 0 && static_cast<unsigned long long>(address) <= kMaxAddress
             ? std::string()
             : "must be from 0 to " + std::to_string(kMaxAddress) + " (32-bit shared addresses)";
}
// Longest line the reader accepts (a record line is about 500 bytes).
inline constexpr size_t kMaxLineBytes = 1 << 16;
// Largest trace file read (TraceReader streams it: memory does not grow with it).
inline constexpr uint64_t kMaxTraceFileBytes = uint64_t{1} << 30;
// Most records a whole Trace in memory holds (read_trace_file, parse_trace): at
// sizeof(TraceRecord), about 350 bytes each, 1.5 GB. A JSON-lines header that
// declares more is refused before any record is read. The commands stream instead.
inline constexpr size_t kMaxRecordsInMemory = size_t{1} << 22;

enum class TraceFormat { JsonLines, Text };
// "jsonl" / "text"; parse_trace_format throws TraceError.
std::string_view to_string(TraceFormat format);
TraceFormat parse_trace_format(std::string_view name);

// A trace read one record at a time, in constant memory (a line at a time, at most
// kMaxLineBytes): either form, JSON lines when the first non-blank character is '{',
// else the text form. `source_name` prefixes error messages ("k04.jsonl:3: ...").
// Throws TraceError on anything malformed, truncated or out of range; never crashes.
// Refused besides: a key given twice in a JSON object; an address on an inactive lane
// (it would be dropped: write null or '-'); a file that is not a regular file (a
// directory, a FIFO, /dev/zero), before any read; a file past kMaxTraceFileBytes.
class TraceReader {
 public:
  explicit TraceReader(const std::filesystem::path& path);
  // Over text in memory (not copied: it must outlive the reader; a temporary string
  // is refused at compile time).
  TraceReader(std::string_view text, std::string_view source_name);
  TraceReader(std::string&& text, std::string_view source_name) = delete;
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  // The header's fields (kernel, source, description, smem_base); no records.
  const Trace& header() const;
  // JSON lines: the header's record count; the text form has none.
  std::optional<uint64_t> declared_records() const;
  // The next record; false at the end (where a JSON-lines count is checked).
  bool next(TraceRecord& record);
  uint64_t records_read() const;
  const std::string& source_name() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The whole trace in memory, through TraceReader; refuses more than
// kMaxRecordsInMemory records.
Trace parse_trace(std::string_view text, std::string_view source_name = "<input>");
Trace read_trace_file(const std::filesystem::path& path);

// JSON lines: a header object, then one object per record; writes every field, and
// the record count in the header so that a truncated file is refused.
// The writers write only what the reader reads back: a record the reader would refuse
// (an active lane's address past kMaxAddress, a width or alignment validate() refuses,
// a warp past 31) or a header smem_base past kMaxAddress throws TraceError naming it.
std::string write_trace_jsonl(const Trace& trace);
// The text form: one instruction a line, WIDTH KIND MASK ADDR0 .. ADDR31 ('-' for an
// inactive lane), with each record's stage, CTA, warp and label in a comment line
// before it (the reader ignores comments: stage, CTA, warp and label do not survive).
std::string write_trace_text(const Trace& trace);
std::string write_trace(const Trace& trace, TraceFormat format);
// The same text a piece at a time, for a trace that streams (`trace convert`): the
// header (JSON lines: with the record count), then each record (`index` for messages).
std::string write_trace_header(const Trace& header, uint64_t records, TraceFormat format);
std::string write_trace_record(const Trace& header, const TraceRecord& record, uint64_t index, TraceFormat format);
// All or nothing (tune/text/output_file.hpp): a temporary file renamed over `path`.
void write_trace_file(const std::filesystem::path& path, const Trace& trace, TraceFormat format);

// The same access as the reader gives back: inactive lanes' addresses set to 0.
model::WarpAccess canonical_access(const model::WarpAccess& access);
// Stage, CTA, warp, kernel, width, kind, mask and active lanes' addresses equal
// (labels are not compared).
bool same_record(const Trace& a_trace, const TraceRecord& a, const Trace& b_trace, const TraceRecord& b);
// The first difference between two lists of records (index and what differs), or
// nothing when they agree record for record.
std::optional<std::string> first_difference(const Trace& a, const Trace& b);
// What differs between record `index` of two traces, or nothing (first_difference's words).
std::optional<std::string> record_difference(uint64_t index, const Trace& a_trace, const TraceRecord& a,
                                             const Trace& b_trace, const TraceRecord& b);

}  // namespace gemmscope::traces
