#include "gemmscope/traces/device_decode.hpp"

#include <algorithm>
#include <set>

#include "gemmscope/traces/device_record.hpp"
#include "gemmscope/traces/model_traces.hpp"

namespace gemmscope::traces {

namespace {

namespace dr = device_record;

Stage stage_of_code(uint32_t code, const std::string& where) {
  switch (code) {
    case dr::kStageTmaWrite: return Stage::TmaWrite;
    case dr::kStageWgmmaOperandRead: return Stage::WgmmaOperandRead;
    case dr::kStageLdmatrix: return Stage::Ldmatrix;
    case dr::kStageStmatrix: return Stage::Stmatrix;
    case dr::kStageEpilogueStore: return Stage::EpilogueStore;
    case dr::kStageTmaStoreRead: return Stage::TmaStoreRead;
    case dr::kStageLoad: return Stage::Load;
    case dr::kStageStore: return Stage::Store;
    default: break;
  }
  throw TraceError(where + ": stage code = " + std::to_string(code) + " must be 1..8 (device_record.hpp)");
}

}  // namespace

Trace decode_device_records(const std::vector<uint32_t>& words, uint64_t records_written, const std::string& kernel) {
  if (words.size() % dr::kWordsPerRecord != 0)
    throw TraceError("device buffer: " + std::to_string(words.size()) + " words is not a whole number of " +
                     std::to_string(dr::kWordsPerRecord) + "-word records");
  const uint64_t capacity = words.size() / dr::kWordsPerRecord;
  if (records_written > capacity)
    throw TraceError("device buffer: the kernel wrote " + std::to_string(records_written) + " records but only " +
                     std::to_string(capacity) + " fit: the trace would be incomplete; give a larger capacity");
  struct Slot {
    uint64_t index;
    TraceRecord record;
    uint32_t base;
  };
  std::vector<Slot> slots;
  for (uint64_t i = 0; i < records_written; ++i) {
    const uint32_t* w = words.data() + i * dr::kWordsPerRecord;
    const std::string where = "device record " + std::to_string(i);
    if (w[dr::kWordMagic] != dr::kMagic)
      throw TraceError(where + ": word 0 = " + std::to_string(w[dr::kWordMagic]) + " must be the magic " +
                       std::to_string(dr::kMagic) + " (layout version or an unwritten slot)");
    Slot s{i, {}, w[dr::kWordRegionBase]};
    TraceRecord& r = s.record;
    r.stage = stage_of_code(w[dr::kWordStage], where);
    r.cta = w[dr::kWordCta];
    r.warp = w[dr::kWordWarp];
    if (r.warp > 31) throw TraceError(where + ": warp = " + std::to_string(r.warp) + " must be 0..31");
    const uint32_t width = w[dr::kWordWidthKind] & 0xFFu;
    const uint32_t store = w[dr::kWordWidthKind] >> 8;
    if ((width != 4 && width != 8 && width != 16) || store > 1)
      throw TraceError(where + ": width/kind word = " + std::to_string(w[dr::kWordWidthKind]) +
                       " must be width 4, 8 or 16 | (0 load or 1 store) << 8");
    r.access.width_bytes = static_cast<int>(width);
    r.access.kind = store ? model::AccessKind::Store : model::AccessKind::Load;
    r.access.active_mask = w[dr::kWordActiveMask];
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      r.access.address[lane] = r.access.active(lane) ? w[dr::kWordFirstAddress + lane] : 0;
    r.access.label = "device slot " + std::to_string(i);
    try {
      r.access.validate();
    } catch (const model::ModelError& e) {
      throw TraceError(where + ": " + e.what());
    }
    slots.push_back(std::move(s));
  }
  std::stable_sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) {
    if (a.record.cta != b.record.cta) return a.record.cta < b.record.cta;
    if (a.record.warp != b.record.warp) return a.record.warp < b.record.warp;
    return a.index < b.index;
  });
  Trace t;
  t.kernel = kernel;
  t.source = "gpu";
  if (!slots.empty()) t.smem_base = slots.front().base;
  for (const Slot& s : slots)
    if (s.base != t.smem_base)
      throw TraceError("device record " + std::to_string(s.index) + ": region base " + std::to_string(s.base) +
                       " differs from " + std::to_string(t.smem_base) + " in another record");
  for (Slot& s : slots) t.records.push_back(std::move(s.record));
  t.description = kernel + " recorded on the GPU: " + std::to_string(t.records.size()) + " records";
  return t;
}

Trace decode_device_records(const device_record::RecordedBuffer& raw, const std::string& kernel) {
  return decode_device_records(raw.words, raw.records_written, kernel);
}

Trace write_device_trace(const std::string& path, const device_record::RecordedBuffer& raw, const std::string& kernel,
                         const std::string& description) {
  Trace t = decode_device_records(raw, kernel);
  if (!description.empty()) t.description = description;
  write_trace_file(path, t, TraceFormat::JsonLines);
  return t;
}

Trace model_trace_for(const Trace& recorded) {
  std::set<uint32_t> ctas;
  for (const TraceRecord& r : recorded.records) {
    if (recorded.kernel_of(r) != "k04" || r.stage != Stage::Stmatrix)
      throw TraceError("a record of kernel '" + recorded.kernel_of(r) + "', stage " + std::string(to_string(r.stage)) +
                       ": the model's trace to compare is built for traces recorded on the GPU of k04's stmatrix "
                       "stage only (gemmscope trace record)");
    ctas.insert(r.cta);
  }
  Trace t;
  t.kernel = "k04";
  t.source = "model";
  t.smem_base = recorded.smem_base;
  t.description = "the model's k04 stmatrix records for the recorded CTAs";
  for (uint32_t cta : ctas)
    for (uint32_t warp = 0; warp < 4; ++warp) {
      auto w = k04_stmatrix_records(recorded.smem_base, cta, warp);
      t.records.insert(t.records.end(), w.begin(), w.end());
    }
  return t;
}

}  // namespace gemmscope::traces
