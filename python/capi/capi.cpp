// The C ABI over the model and the traces library (gemmscope_capi.h). Each function
// converts C values, calls the library and turns its exceptions into a status and a
// message: the rules and their messages are the library's. The few checks made here
// are those the command line makes before it calls the library (an integer that must
// fit a field's type), worded as it words them, naming the Python parameter.
#include "gemmscope_capi.h"

#include <cstring>
#include <exception>
#include <limits>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "capi_internal.hpp"
#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/descriptor_json.hpp"
#include "gemmscope/model/idesc_sm100.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tmem.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/device_decode.hpp"
#include "gemmscope/traces/graphviz.hpp"
#include "gemmscope/traces/model_traces.hpp"
#include "gemmscope/traces/trace.hpp"
#include "tune/shape_set.hpp"

#ifndef GEMMSCOPE_VERSION_STRING
#define GEMMSCOPE_VERSION_STRING "unknown"
#endif

struct gs_trace {
  gemmscope::traces::Trace trace;
};

namespace gemmscope::capi {

std::string& error_text() {
  thread_local std::string text;
  return text;
}

const char* give(std::string text, const char** out) {
  thread_local std::string buffer;
  buffer = std::move(text);
  if (out) *out = buffer.c_str();
  return buffer.c_str();
}

namespace {

using nlohmann::ordered_json;

std::string text_of(const char* s) { return s ? std::string(s) : std::string(); }

// "<field> = <value> must be in <lo>..<hi><unit>", as the command line says it.
uint32_t to_u32(const char* field, int64_t value, int64_t lo, int64_t hi, const char* unit = "") {
  if (value < lo || value > hi)
    throw std::invalid_argument(std::string(field) + " = " + std::to_string(value) + " must be in " +
                                std::to_string(lo) + ".." + std::to_string(hi) + unit);
  return static_cast<uint32_t>(value);
}

bool is_sm90(const std::string& arch) {
  if (arch == "sm90") return true;
  if (arch == "sm100") return false;
  throw std::invalid_argument("arch = '" + arch + "' must be one of sm90, sm100");
}

std::string dump(const ordered_json& j) { return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace); }

ordered_json lanes_of(uint32_t mask) {
  ordered_json lanes = ordered_json::array();
  for (int t = 0; t < 32; ++t)
    if ((mask >> t) & 1u) lanes.push_back(t);
  return lanes;
}

gs_trace* wrap(traces::Trace t) { return new gs_trace{std::move(t)}; }

}  // namespace
}  // namespace gemmscope::capi

using namespace gemmscope;
using capi::guard;

extern "C" {

int gs_abi_version(void) { return GS_ABI_VERSION; }
const char* gs_version(void) { return GEMMSCOPE_VERSION_STRING; }
const char* gs_last_error(void) { return capi::error_text().c_str(); }

// ---- model ----------------------------------------------------------------------

int gs_swizzle(const char* mode, const int64_t* offsets, uint64_t* out, size_t count) {
  return guard([&] {
    const model::SwizzleMode m = model::parse_swizzle_mode(capi::text_of(mode));
    for (size_t i = 0; i < count; ++i)
      if (offsets[i] < 0)
        throw std::invalid_argument("offset = " + std::to_string(offsets[i]) + " must be >= 0");
    for (size_t i = 0; i < count; ++i) out[i] = model::swizzle_address(m, static_cast<uint64_t>(offsets[i]));
  });
}

int gs_desc_encode(const char* arch, int64_t start, int64_t lbo, int64_t sbo, const char* swizzle, int64_t base_offset,
                   const char* lbo_mode, uint64_t* word) {
  return guard([&] {
    constexpr int64_t kMax = 0xFFFFFFFFll;
    const std::string mode = capi::text_of(lbo_mode);
    const bool sm90 = capi::is_sm90(capi::text_of(arch));
    const uint32_t s = capi::to_u32("start", start, 0, kMax, " bytes");
    const uint32_t l = capi::to_u32("lbo", lbo, 0, kMax, " bytes");
    const uint32_t b = capi::to_u32("sbo", sbo, 0, kMax, " bytes");
    const uint32_t o = capi::to_u32("base_offset", base_offset, 0, kMax, " bytes");
    const model::SwizzleMode sw = model::parse_swizzle_mode(capi::text_of(swizzle));
    if (sm90) {
      if (mode != "relative") throw std::invalid_argument("lbo_mode = '" + mode + "' exists on sm100 only");
      model::SmemDescriptorSm90 d{s, l, b, o, sw};
      *word = d.encode();
    } else {
      model::SmemDescriptorSm100 d;
      d.start_address_bytes = s;
      d.lbo_bytes = l;
      d.sbo_bytes = b;
      d.base_offset = o;
      d.swizzle = sw;
      d.lbo_mode = model::parse_lbo_mode(mode);
      *word = d.encode();
    }
  });
}

int gs_desc_decode(const char* arch, uint64_t word, const char** json) {
  return guard([&] {
    const bool sm90 = capi::is_sm90(capi::text_of(arch));
    capi::give(sm90 ? model::to_json(model::SmemDescriptorSm90::decode(word))
                    : model::to_json(model::SmemDescriptorSm100::decode(word)),
               json);
  });
}

int gs_desc_map(const char* arch, uint64_t word, int64_t rows, int64_t k, const char* major, int64_t elem_bytes,
                uint64_t* out, size_t capacity, size_t* count) {
  return guard([&]() -> int {
    const bool sm90 = capi::is_sm90(capi::text_of(arch));
    const model::OperandExtent op{capi::to_u32("rows", rows, 1, 4096), capi::to_u32("k", k, 1, 4096),
                                  model::parse_operand_major(capi::text_of(major)),
                                  capi::to_u32("elem_bytes", elem_bytes, 0, 0xFFFFFFFFll)};
    const std::vector<model::ElementAddress> map =
        sm90 ? model::descriptor_address_map(model::SmemDescriptorSm90::decode(word), op)
             : model::descriptor_address_map(model::SmemDescriptorSm100::decode(word), op);
    *count = map.size();
    if (capacity < map.size()) return GS_SHORT;
    for (size_t i = 0; i < map.size(); ++i) {
      out[3 * i] = map[i].row;
      out[3 * i + 1] = map[i].k;
      out[3 * i + 2] = map[i].address;
    }
    return GS_OK;
  });
}

int gs_idesc_encode(int64_t m, int64_t n, const char* a, const char* b, const char* d, const char* a_major,
                    const char* b_major, int negate_a, int negate_b, int64_t cta_group, uint32_t* word) {
  return guard([&] {
    if (m < 0 || m > 4096) throw std::invalid_argument("m = " + std::to_string(m) + " must be 64, 128 or 256");
    if (n < 0 || n > 4096) throw std::invalid_argument("n = " + std::to_string(n) + " must be in 8..256");
    if (cta_group < 1 || cta_group > 2)
      throw std::invalid_argument("cta_group = " + std::to_string(cta_group) + " must be 1 or 2");
    model::InstrDescriptorSm100 desc;
    desc.m = static_cast<uint32_t>(m);
    desc.n = static_cast<uint32_t>(n);
    desc.a_type = model::parse_mma_input_type(capi::text_of(a));
    desc.b_type = model::parse_mma_input_type(capi::text_of(b));
    desc.d_type = model::parse_mma_accum_type(capi::text_of(d));
    desc.a_major = model::parse_operand_major(capi::text_of(a_major));
    desc.b_major = model::parse_operand_major(capi::text_of(b_major));
    desc.negate_a = negate_a != 0;
    desc.negate_b = negate_b != 0;
    desc.validate(static_cast<int>(cta_group));
    *word = desc.encode();
  });
}

int gs_idesc_decode(uint32_t word, const char** json) {
  return guard([&] { capi::give(model::to_json(model::InstrDescriptorSm100::decode(word)), json); });
}

int gs_tmem_map(const char* shape, int64_t num, int64_t half_split_offset, uint32_t* out, size_t capacity,
                size_t* count, uint32_t* registers, int* confirmed) {
  return guard([&]() -> int {
    const model::TmemLdShape s = model::parse_tmem_ld_shape(capi::text_of(shape));
    const uint32_t n = capi::to_u32("num", num, 1, 128);
    const uint32_t split = capi::to_u32("half_split_offset", half_split_offset, 0, 511);
    const uint32_t regs = model::tmem_registers_per_thread(s, n);
    *registers = regs;
    *confirmed = model::tmem_map_confirmed(s, n) ? 1 : 0;
    *count = size_t{32} * regs;
    if (capacity < *count) return GS_SHORT;
    size_t i = 0;
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < regs; ++j, ++i) {
        const model::TmemCell c = model::tmem_ld_cell(s, n, t, j, split);
        out[4 * i] = t;
        out[4 * i + 1] = j;
        out[4 * i + 2] = c.lane;
        out[4 * i + 3] = c.column;
      }
    return GS_OK;
  });
}

int gs_banks(const int64_t* addresses, size_t count, int64_t width_bytes, int store, const char* swizzle,
             const char** json) {
  return guard([&] {
    const model::SwizzleMode mode = model::parse_swizzle_mode(capi::text_of(swizzle));
    if (count > 32)
      throw std::invalid_argument("addresses count = " + std::to_string(count) + " must be at most 32 (one per lane)");
    if (width_bytes < std::numeric_limits<int>::min() || width_bytes > std::numeric_limits<int>::max())
      throw std::invalid_argument("access width_bytes = " + std::to_string(width_bytes) + " must be 4, 8 or 16");
    model::WarpAccess a;
    a.width_bytes = static_cast<int>(width_bytes);
    a.kind = store ? model::AccessKind::Store : model::AccessKind::Load;
    a.active_mask = 0;
    for (size_t t = 0; t < count; ++t) {
      if (const std::string rule = traces::shared_address_rule(addresses[t]); !rule.empty())
        throw std::invalid_argument("addresses[" + std::to_string(t) + "] = " + std::to_string(addresses[t]) + " " +
                                    rule);
      a.address[t] = model::swizzle_address(mode, static_cast<uint64_t>(addresses[t]));
      a.active_mask |= 1u << t;
    }
    a.validate();
    const model::AccessCost c = model::analyze(a);
    capi::ordered_json phases = capi::ordered_json::array();
    for (const model::PhaseCost& p : c.phases) {
      capi::ordered_json collisions = capi::ordered_json::array();
      for (const model::BankCollision& b : p.collisions) {
        capi::ordered_json words = capi::ordered_json::array();
        for (size_t i = 0; i < b.words.size(); ++i)
          words.push_back({{"address", b.words[i]}, {"lanes", b.word_lanes[i]}});
        collisions.push_back({{"bank", b.bank}, {"lanes", b.lanes}, {"words", words}});
      }
      phases.push_back({{"lanes", capi::lanes_of(p.lanes)},
                        {"distinct_words", p.distinct_words},
                        {"wavefronts", p.wavefronts},
                        {"ideal", p.ideal},
                        {"conflicts", p.conflicts()},
                        {"collisions", collisions}});
    }
    capi::ordered_json addresses_json = capi::ordered_json::array();
    for (size_t t = 0; t < count; ++t) addresses_json.push_back(a.address[t]);
    capi::ordered_json j{{"width_bytes", a.width_bytes},
                         {"kind", model::to_string(a.kind)},
                         {"swizzle", model::to_string(mode)},
                         {"addresses", addresses_json},
                         {"wavefronts", c.wavefronts},
                         {"ideal", c.ideal},
                         {"conflicts", c.conflicts()},
                         {"phases", phases}};
    capi::give(capi::dump(j), json);
  });
}

int gs_swizzle_dot(const char* mode, int64_t rows, int64_t row_bytes, int64_t base, const char** dot) {
  return guard([&] {
    const model::SwizzleMode m = model::parse_swizzle_mode(capi::text_of(mode));
    if (base < 0) throw std::invalid_argument("base = " + std::to_string(base) + " must be >= 0");
    capi::give(traces::swizzle_dot(m, capi::to_u32("rows", rows, 0, 0xFFFFFFFFll),
                                   capi::to_u32("row_bytes", row_bytes, 0, 0xFFFFFFFFll), static_cast<uint64_t>(base)),
               dot);
  });
}

// ---- traces ---------------------------------------------------------------------

void gs_trace_free(gs_trace* trace) { delete trace; }

int gs_trace_parse(const char* text, size_t length, const char* source_name, gs_trace** out) {
  return guard([&] {
    *out = capi::wrap(traces::parse_trace(std::string_view(text ? text : "", text ? length : 0),
                                          source_name ? source_name : "<input>"));
  });
}

int gs_trace_read(const char* path, gs_trace** out) {
  return guard([&] { *out = capi::wrap(traces::read_trace_file(capi::text_of(path))); });
}

int gs_trace_pattern(const char* name, const char* swizzle, int64_t base, gs_trace** out) {
  return guard([&] {
    if (base < 0) throw std::invalid_argument("base = " + std::to_string(base) + " must be >= 0");
    *out = capi::wrap(traces::pattern_trace(capi::text_of(name), model::parse_swizzle_mode(capi::text_of(swizzle)),
                                            static_cast<uint64_t>(base)));
  });
}

int gs_trace_model(const char* kernel, int64_t k_blocks, int64_t base, int64_t cta, int main_loop, int epilogue,
                   gs_trace** out) {
  return guard([&] {
    if (base < 0) throw std::invalid_argument("base = " + std::to_string(base) + " must be >= 0");
    traces::LadderTraceConfig config;
    config.kernel = capi::text_of(kernel);
    config.k_blocks = capi::to_u32("k_blocks", k_blocks, 0, 0xFFFFFFFFll);
    config.smem_base = static_cast<uint64_t>(base);
    config.cta = capi::to_u32("cta", cta, 0, 0xFFFFFFFFll);
    config.main_loop = main_loop != 0;
    config.epilogue = epilogue != 0;
    *out = capi::wrap(traces::model_trace(config));
  });
}

const char* gs_trace_names(void) {
  static const std::string names = [] {
    nlohmann::ordered_json stages = nlohmann::ordered_json::array();
    for (traces::Stage s : traces::kAllStages) stages.push_back(std::string(traces::to_string(s)));
    return nlohmann::ordered_json{{"stages", stages},
                                  {"kinds",
                                   {model::to_string(model::AccessKind::Load), model::to_string(model::AccessKind::Store)}}}
        .dump();
  }();
  return names.c_str();
}

int gs_trace_build(const char* kernel, const char* source, const char* description, int64_t smem_base, size_t count,
                   const char* const* stages, const int64_t* ctas, const int64_t* warps, const int64_t* widths,
                   const char* const* kinds, const int64_t* masks, const int64_t* addresses, const char* const* labels,
                   const char* const* kernels, gs_trace** out) {
  return guard([&] {
    // The records are written in the trace format and read back by its one reader,
    // which applies every rule (ranges, widths, alignment) with its own messages.
    constexpr const char* kName = "arrays";
    std::string text = capi::dump({{"format", traces::kTraceFormatName},
                                   {"version", traces::kTraceFormatVersion},
                                   {"kernel", capi::text_of(kernel)},
                                   {"source", capi::text_of(source)},
                                   {"description", capi::text_of(description)},
                                   {"smem_base", smem_base},
                                   {"records", count}}) +
                       "\n";
    for (size_t i = 0; i < count; ++i) {
      capi::ordered_json j;
      if (kernels && kernels[i] && *kernels[i]) j["kernel"] = kernels[i];
      j["stage"] = capi::text_of(stages[i]);
      j["cta"] = ctas[i];
      j["warp"] = warps[i];
      j["width"] = widths[i];
      j["kind"] = capi::text_of(kinds[i]);
      capi::ordered_json addr = capi::ordered_json::array();
      int64_t mask = 0;
      for (int lane = 0; lane < 32; ++lane) {
        const int64_t a = addresses[32 * i + lane];
        const bool active = masks ? ((masks[i] >> lane) & 1) != 0 : a >= 0;
        if (!masks && active) mask |= int64_t{1} << lane;
        addr.push_back(active ? capi::ordered_json(a) : capi::ordered_json(nullptr));
      }
      j["mask"] = masks ? masks[i] : mask;
      j["addr"] = std::move(addr);
      if (labels && labels[i] && *labels[i]) j["label"] = labels[i];
      text += capi::dump(j) + "\n";
    }
    try {
      *out = capi::wrap(traces::parse_trace(text, kName));
    } catch (const traces::TraceError& e) {
      // "arrays:N: ..." names a line: line 1 is the header, line N + 2 record N.
      static const std::regex where(std::string("^") + kName + ":([0-9]+): ");
      std::string message = e.what();
      std::smatch m;
      if (std::regex_search(message, m, where)) {
        const long line = std::stol(m[1].str());
        message = (line <= 1 ? std::string("trace header: ") : "record " + std::to_string(line - 2) + ": ") +
                  m.suffix().str();
      }
      throw traces::TraceError(message);
    }
  });
}

size_t gs_trace_count(const gs_trace* trace) { return trace->trace.records.size(); }

int gs_trace_header(const gs_trace* trace, const char** json) {
  return guard([&] {
    const traces::Trace& t = trace->trace;
    capi::give(capi::dump({{"kernel", t.kernel},
                           {"source", t.source},
                           {"description", t.description},
                           {"smem_base", t.smem_base}}),
               json);
  });
}

int gs_trace_export(const gs_trace* trace, int64_t* stages, int64_t* ctas, int64_t* warps, int64_t* widths,
                    int64_t* kinds, int64_t* masks, int64_t* addresses) {
  return guard([&] {
    const auto& records = trace->trace.records;
    for (size_t i = 0; i < records.size(); ++i) {
      const traces::TraceRecord& r = records[i];
      stages[i] = static_cast<int64_t>(r.stage);
      ctas[i] = r.cta;
      warps[i] = r.warp;
      widths[i] = r.access.width_bytes;
      kinds[i] = r.access.kind == model::AccessKind::Store ? 1 : 0;
      masks[i] = r.access.active_mask;
      for (int lane = 0; lane < 32; ++lane)
        addresses[32 * i + lane] = r.access.active(lane) ? static_cast<int64_t>(r.access.address[lane]) : -1;
    }
  });
}

int gs_trace_labels(const gs_trace* trace, const char** json) {
  return guard([&] {
    capi::ordered_json j = capi::ordered_json::array();
    for (const auto& r : trace->trace.records) j.push_back(r.access.label);
    capi::give(capi::dump(j), json);
  });
}

int gs_trace_kernels(const gs_trace* trace, const char** json) {
  return guard([&] {
    capi::ordered_json j = capi::ordered_json::array();
    for (const auto& r : trace->trace.records) j.push_back(r.kernel);
    capi::give(capi::dump(j), json);
  });
}

int gs_trace_write(const gs_trace* trace, const char* format, const char** text) {
  return guard([&] {
    capi::give(traces::write_trace(trace->trace, traces::parse_trace_format(capi::text_of(format))), text);
  });
}

int gs_trace_write_file(const gs_trace* trace, const char* path, const char* format) {
  return guard([&] {
    traces::write_trace_file(capi::text_of(path), trace->trace, traces::parse_trace_format(capi::text_of(format)));
  });
}

int gs_trace_compare(const gs_trace* a, const gs_trace* b, const char** difference) {
  return guard([&] { capi::give(traces::first_difference(a->trace, b->trace).value_or(""), difference); });
}

int gs_trace_model_for(const gs_trace* trace, gs_trace** out) {
  return guard([&] { *out = capi::wrap(traces::model_trace_for(trace->trace)); });
}

int gs_trace_analyse(const gs_trace* trace, int per_instruction, const char** json) {
  return guard([&] {
    const traces::TraceAnalysis a = traces::analyze_trace(trace->trace);
    capi::give(traces::analysis_json(trace->trace, a, per_instruction != 0)
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
               json);
  });
}

int gs_trace_analysis_text(const gs_trace* trace, int per_instruction, const char** text) {
  return guard([&] {
    const traces::TraceAnalysis a = traces::analyze_trace(trace->trace);
    capi::give(traces::format_analysis(trace->trace, a, per_instruction != 0), text);
  });
}

int gs_trace_heatmap_dot(const gs_trace* trace, const char* title, const char** dot) {
  return guard([&] {
    capi::give(traces::heatmap_dot(trace->trace, traces::analyze_trace(trace->trace), capi::text_of(title)), dot);
  });
}

int gs_trace_instruction_dot(const gs_trace* trace, int64_t record, const char* title, const char** dot) {
  return guard([&] {
    if (record < 0) throw std::invalid_argument("instruction = " + std::to_string(record) + " must be >= 0");
    capi::give(traces::instruction_dot(trace->trace, static_cast<size_t>(record), capi::text_of(title)), dot);
  });
}

// ---- shape sets -------------------------------------------------------------------

int gs_shape_set(const char* path, const char** json) {
  return guard([&] {
    capi::ordered_json rows = capi::ordered_json::array();
    for (const tune::NamedShape& s : tune::load_shape_set(capi::text_of(path)))
      rows.push_back({{"model", s.model}, {"layer", s.layer}, {"m", s.m}, {"n", s.n}, {"k", s.k}});
    capi::give(capi::dump(rows), json);
  });
}

}  // extern "C"
