#pragma once
// Decoding what an instrumented kernel recorded on the GPU (device_record.hpp's raw
// layout, written by gemmscope/traces/recorder.cuh) into a Trace, and the model's
// trace of the same CTAs and stages to compare it with.
#include <cstdint>
#include <string>
#include <vector>

#include "gemmscope/traces/device_record.hpp"
#include "gemmscope/traces/trace.hpp"

namespace gemmscope::traces {

// `words`: the record area copied back from the device (a multiple of
// device_record::kWordsPerRecord words); `records_written`: the device counter (how
// many records the kernel tried to write; more than fit means the buffer was too
// small, refused). Records come out sorted by (CTA, warp), each warp's records in
// the order it issued them (its slots in the buffer are claimed in program order).
// smem_base is the records' region base (all records must agree). Throws TraceError
// naming the record and word on a bad magic, stage, width, kind, warp or address.
Trace decode_device_records(const std::vector<uint32_t>& words, uint64_t records_written, const std::string& kernel);
Trace decode_device_records(const device_record::RecordedBuffer& raw, const std::string& kernel);

// Decodes `raw` and writes it to `path` as JSON lines (all or nothing), the file
// `gemmscope banks --trace` and `gemmscope viz` read; returns the decoded trace.
// `description` replaces the decoder's one when not empty. Throws TraceError as
// decode_device_records does, and on a file that cannot be written.
Trace write_device_trace(const std::string& path, const device_record::RecordedBuffer& raw, const std::string& kernel,
                         const std::string& description = "");

// The model's records for what `recorded` covers: for every CTA it names (ascending),
// the model's records of the stages it holds, warp by warp. Only k04's stmatrix stage
// is recorded today; anything else is refused with a TraceError.
Trace model_trace_for(const Trace& recorded);

}  // namespace gemmscope::traces
