// The Blackwell probes' golden traces (kernels/probes/sm100_*.cu, `gemmscope probe
// --arch sm100`) replayed through the model. No Blackwell GPU has run them here, so
// each test replays a SYNTHETIC trace generated from the model in the probe's format
// ("source": "synthetic from the model"), which shows that the replay reads the
// format and accepts the model's own predictions; each has a negative control, a
// perturbed trace the replay must reject, which shows that it discriminates. When a
// measured file exists (traces/hw/sm100/<probe>.json, or $GEMMSCOPE_SM100_TRACES/
// <probe>.json), the test replays that instead and fails on any disagreement: the
// first B200 run settles each UNCONFIRMED fact by adding one file (docs/blackwell.md).
//
// Code under test: the model (model/tmem.hpp, desc_sm100.hpp, desc_interpreter.hpp),
// plus two rules the model does not state yet and this file does, from the PTX ISA
// and the Blackwell kernel's reading of it: the 2-SM MMA's operand split
// (pair_a_row/pair_b_row) and the cluster launch control queue the simulator assumes
// (verify/lib sm100_binding.hpp: try_cancel takes the lowest cluster not launched).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "common/sm100_config.hpp"
#include "common/sm100_schedule.hpp"
#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/tmem.hpp"
#include "gemmscope/traces/golden.hpp"

namespace {

namespace model = gemmscope::model;
namespace traces = gemmscope::traces;
using nlohmann::json;
using traces::CaseStatus;
using traces::GoldenCase;
using traces::GoldenError;
using traces::GoldenTrace;
using traces::golden_int;
using traces::golden_int_array;
using traces::golden_string;

// ---- the probes' encodings (kernels/probes/sm100_*.cu write them so) --------------
constexpr uint32_t kLoadTag = 0x80000000u;   // ld: TMEM cell (lane, column) holds tag | lane << 16 | column
constexpr uint32_t kStoreTag = 0x40000000u;  // st: thread t register j stores tag | t << 8 | j
constexpr uint32_t kSentinel = 0xFFFFFFFFu;  // a cell nothing wrote
constexpr int64_t kNoCell = -1;              // mma_pair: the sentinel; smem_desc: nothing read
constexpr int64_t kNotACode = -2;

// What a replay found: disagreements fail the test; notes are observations the model
// does not predict (exploratory cases) or facts a hardware trace confirmed.
struct ReplayReport {
  bool measured = false;  // a hardware trace: agreement on an UNCONFIRMED fact settles it
  std::vector<std::string> disagreements;
  std::vector<std::string> notes;
  int cases_checked = 0;
};

std::string joined(const std::vector<std::string>& lines, std::size_t limit = 30) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < limit; ++i) out += "  " + lines[i] + "\n";
  if (lines.size() > limit) out += "  ... and " + std::to_string(lines.size() - limit) + " more\n";
  return out;
}

std::string hex32(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

// Up to three examples, then a count: "3 of 1024 cells differ: a; b; c".
struct Mismatches {
  std::vector<std::string> examples;
  int count = 0;
  void add(const std::string& what) {
    if (examples.size() < 3) examples.push_back(what);
    ++count;
  }
  std::string text(int of, const char* unit) const {
    std::string s = std::to_string(count) + " of " + std::to_string(of) + " " + unit + " differ: ";
    for (std::size_t i = 0; i < examples.size(); ++i) s += (i ? "; " : "") + examples[i];
    return s;
  }
};

// ---- sm100_tmem_ldst -----------------------------------------------------------------
std::string describe_store_value(uint32_t v) {
  if (v == kSentinel) return "nothing";
  if ((v & 0xC0000000u) != kStoreTag) return hex32(v) + " (not a store code)";
  return "thread " + std::to_string((v >> 8) & 0xFF) + " register " + std::to_string(v & 0xFF);
}

void replay_ldst_case(const GoldenCase& c, const std::string& wp, const std::string& wo, ReplayReport& report) {
  const model::TmemLdShape shape = model::parse_tmem_ld_shape(golden_string(c.params, "shape", wp));
  const auto num = static_cast<uint32_t>(golden_int(c.params, "num", wp));
  const auto split = static_cast<uint32_t>(golden_int(c.params, "half_split_offset", wp));
  const auto lane_base = static_cast<uint32_t>(golden_int(c.params, "lane_base", wp));
  const auto column_base = static_cast<uint32_t>(golden_int(c.params, "column_base", wp));
  const uint32_t regs = model::tmem_registers_per_thread(shape, num);
  if (golden_int(c.params, "registers", wp) != regs) {
    report.disagreements.push_back(c.name + ": the probe used " + std::to_string(golden_int(c.params, "registers", wp)) +
                                   " registers per thread, model::tmem_registers_per_thread says " +
                                   std::to_string(regs));
    return;
  }
  const std::string direction = golden_string(c.params, "direction", wp);
  Mismatches bad;
  int total = 0;
  if (direction == "ld") {
    const std::vector<int64_t> got = golden_int_array(c.observed, "regs", wo, 32LL * regs);
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < regs; ++j) {
        ++total;
        const model::TmemCell cell = model::tmem_ld_cell(shape, num, t, j, split);
        const uint32_t want_lane = lane_base + cell.lane, want_column = column_base + cell.column;
        const auto v = static_cast<uint32_t>(got[t * regs + j]);
        const uint32_t lane = (v >> 16) & 0x3FFF, column = v & 0xFFFF;
        if ((v & 0xC0000000u) == kLoadTag && lane == want_lane && column == want_column) continue;
        bad.add("thread " + std::to_string(t) + " register " + std::to_string(j) + " read " +
                ((v & 0xC0000000u) == kLoadTag
                     ? "(lane " + std::to_string(lane) + ", column " + std::to_string(column) + ")"
                     : hex32(v)) +
                ", model::tmem_ld_cell says (lane " + std::to_string(want_lane) + ", column " +
                std::to_string(want_column) + ")");
      }
    if (bad.count) report.disagreements.push_back(c.name + ": " + bad.text(total, "registers"));
  } else if (direction == "st") {
    const auto window = static_cast<uint32_t>(golden_int(c.params, "window_columns", wp));
    const std::vector<int64_t> got = golden_int_array(c.observed, "tmem", wo, 32LL * window);
    std::vector<uint32_t> want(32 * window, kSentinel);
    for (uint32_t t = 0; t < 32; ++t)
      for (uint32_t j = 0; j < regs; ++j) {
        const model::TmemCell cell = model::tmem_ld_cell(shape, num, t, j, split);
        const uint32_t column = column_base + cell.column;
        if (cell.lane >= 32 || column >= window) {
          report.disagreements.push_back(c.name + ": the model puts thread " + std::to_string(t) + " register " +
                                         std::to_string(j) + " outside the probe's dump window");
          return;
        }
        want[cell.lane * window + column] = kStoreTag | t << 8 | j;
      }
    for (uint32_t l = 0; l < 32; ++l)
      for (uint32_t col = 0; col < window; ++col) {
        ++total;
        const auto v = static_cast<uint32_t>(got[l * window + col]);
        if (v == want[l * window + col]) continue;
        bad.add("cell (lane " + std::to_string(lane_base + l) + ", column " + std::to_string(col) + ") holds " +
                describe_store_value(v) + ", model " + describe_store_value(want[l * window + col]));
      }
    if (bad.count) report.disagreements.push_back(c.name + ": " + bad.text(total, "cells"));
  } else {
    report.disagreements.push_back(c.name + ": direction \"" + direction + "\" is not ld or st");
    return;
  }
  if (report.measured && !bad.count && !model::tmem_map_confirmed(shape, num))
    report.notes.push_back(c.name + ": settles the UNCONFIRMED map of ." + std::string(model::to_string(shape)) +
                           ".x" + std::to_string(num) + " (the hardware agrees with model::tmem_ld_cell)");
  ++report.cases_checked;
}

// ---- sm100_tmem_alloc ----------------------------------------------------------------
void replay_alloc_case(const GoldenCase& c, const std::string& wp, const std::string& wo, ReplayReport& report) {
  const int cta_group = static_cast<int>(golden_int(c.params, "cta_group", wp));
  const json& script = c.params.at("script");
  const std::vector<int64_t> got = golden_int_array(c.observed, "results", wo, static_cast<long long>(script.size()));
  if (cta_group == 2) {
    const std::vector<int64_t> peer =
        golden_int_array(c.observed, "results_peer", wo, static_cast<long long>(script.size()));
    for (std::size_t i = 0; i < script.size(); ++i)
      if (peer[i] != got[i])
        report.disagreements.push_back(c.name + " step " + std::to_string(i) + ": the odd CTA got " +
                                       std::to_string(peer[i]) + ", the even CTA " + std::to_string(got[i]) +
                                       " (cta_group::2 allocates the same columns in both)");
  }
  model::TmemAllocator allocator;
  std::vector<uint32_t> address(script.size(), 0), columns(script.size(), 0);
  for (std::size_t i = 0; i < script.size(); ++i) {
    const std::string op = script[i].at(0).get<std::string>();
    const auto arg = script[i].at(1).get<int64_t>();
    const std::string step = c.name + " step " + std::to_string(i) + " (" + op + " " + std::to_string(arg) + ")";
    int64_t want = -1;
    if (op == "Alloc") {
      address[i] = allocator.allocate(static_cast<uint32_t>(arg), cta_group);
      columns[i] = static_cast<uint32_t>(arg);
      want = address[i];
    } else if (op == "Free") {
      allocator.free(address.at(static_cast<std::size_t>(arg)), columns.at(static_cast<std::size_t>(arg)), cta_group);
    } else if (op == "Relinquish") {
      allocator.relinquish_alloc_permit(cta_group);
    } else {
      report.disagreements.push_back(step + ": unknown operation");
      return;
    }
    if (got[i] != want) {
      const auto describe = [](int64_t a) {
        return a < 0 ? std::string("no address")
                     : "lane " + std::to_string(a >> 16) + ", column " + std::to_string(a & 0xFFFF);
      };
      report.disagreements.push_back(step + ": hardware " + describe(got[i]) + ", model::TmemAllocator " +
                                     describe(want));
    }
  }
  allocator.check_all_freed();  // a probe script that leaks would have failed on the GPU
  ++report.cases_checked;
}

// ---- sm100_mma_pair ------------------------------------------------------------------
// The operand split of tcgen05.mma (PTX ISA "tcgen05.mma", cta_group::2; the Blackwell
// kernel's b_load reads it the same way): the CTA of the pair holding A's row `row`
// (and its row there) and the CTA holding B's row `col` (a column of D). cta_group::1:
// one CTA holds everything.
struct OperandRow {
  uint32_t cta = 0;
  uint32_t row = 0;
};
OperandRow pair_a_row(uint32_t m, int cta_group, uint32_t row) {
  const uint32_t per_cta = m / static_cast<uint32_t>(cta_group);
  return {row / per_cta, row % per_cta};
}
OperandRow pair_b_row(uint32_t n, int cta_group, uint32_t col) {
  const uint32_t per_cta = n / static_cast<uint32_t>(cta_group);
  return {col / per_cta, col % per_cta};
}
// D = (r + 1) + 512 c + 1024 (n + 1) + 2^18 c' (the probe's operand codes).
int64_t pair_code(OperandRow a, OperandRow b) {
  return (a.row + 1) + 512LL * a.cta + 1024LL * (b.row + 1) + 262144LL * b.cta;
}
std::string describe_pair_code(int64_t code) {
  if (code == kNoCell) return "nothing";
  if (code < 0) return "not a code";
  const int64_t c_b = code >> 18, rest = code & 0x3FFFF;
  return "A row " + std::to_string((rest & 511) - 1) + " of CTA " + std::to_string((rest >> 9) & 1) + " x B row " +
         std::to_string((rest >> 10) - 1) + " of CTA " + std::to_string(c_b);
}

// Expected d_codes of every CTA: cell (cta, lane, column) -> code, from
// model::accumulator_cell and the operand split.
std::vector<std::vector<int64_t>> expected_pair_cells(uint32_t m, uint32_t n, int cta_group) {
  std::vector<std::vector<int64_t>> cells(static_cast<std::size_t>(cta_group), std::vector<int64_t>(128 * n, kNoCell));
  for (uint32_t row = 0; row < m; ++row)
    for (uint32_t col = 0; col < n; ++col) {
      const model::AccumulatorCell cell = model::accumulator_cell(m, n, cta_group, row, col);
      cells.at(cell.cta).at(cell.lane * n + cell.column) =
          pair_code(pair_a_row(m, cta_group, row), pair_b_row(n, cta_group, col));
    }
  return cells;
}

void replay_pair_case(const GoldenCase& c, const std::string& wp, const std::string& wo, ReplayReport& report) {
  const int cta_group = static_cast<int>(golden_int(c.params, "cta_group", wp));
  const auto m = static_cast<uint32_t>(golden_int(c.params, "m", wp));
  const auto n = static_cast<uint32_t>(golden_int(c.params, "n", wp));
  const auto want = expected_pair_cells(m, n, cta_group);
  bool agrees = true;
  for (int cta = 0; cta < cta_group; ++cta) {
    const std::string suffix = "_cta" + std::to_string(cta);
    if (!c.observed.value("barrier_completed" + suffix, false)) {
      report.disagreements.push_back(c.name + ": the MMA's commit never reached CTA " + std::to_string(cta) +
                                     "'s barrier");
      agrees = false;
    }
    const std::vector<int64_t> got = golden_int_array(c.observed, "d_codes" + suffix, wo, 128LL * n);
    Mismatches bad;
    for (uint32_t lane = 0; lane < 128; ++lane)
      for (uint32_t col = 0; col < n; ++col) {
        const int64_t h = got[lane * n + col], w = want[static_cast<std::size_t>(cta)][lane * n + col];
        if (h != w)
          bad.add("CTA " + std::to_string(cta) + " lane " + std::to_string(lane) + " column " + std::to_string(col) +
                  ": hardware " + describe_pair_code(h) + ", model " + describe_pair_code(w));
      }
    if (bad.count) {
      report.disagreements.push_back(c.name + ": " + bad.text(128 * static_cast<int>(n), "TMEM cells"));
      agrees = false;
    }
  }
  if (report.measured && agrees && !model::accumulator_layout_confirmed(m, cta_group))
    report.notes.push_back(c.name + ": settles the UNCONFIRMED accumulator layout of M = " + std::to_string(m) +
                           ", cta_group::" + std::to_string(cta_group) + " (model::accumulator_cell)");
  if (report.measured && agrees && cta_group == 2)
    report.notes.push_back(c.name + ": settles the operand split (even CTA: A rows 0.." + std::to_string(m / 2 - 1) +
                           ", B rows = D columns 0.." + std::to_string(n / 2 - 1) + ")");
  ++report.cases_checked;
}

// ---- sm100_smem_desc -----------------------------------------------------------------
model::SwizzleMode swizzle_of_param(const std::string& name) { return model::parse_swizzle_mode(name); }

struct DescParams {
  model::OperandExtent extent;
  model::SmemDescriptorSm100 desc;  // as the probe meant it, start address absolute
  bool exploratory = false;
};

DescParams desc_params(const GoldenCase& c, const std::string& wp, uint64_t region) {
  DescParams p;
  p.extent.rows = static_cast<uint32_t>(golden_int(c.params, "rows", wp));
  p.extent.k_elems = static_cast<uint32_t>(golden_int(c.params, "k_elems", wp));
  p.extent.elem_bytes = static_cast<uint32_t>(golden_int(c.params, "elem_bytes", wp));
  p.extent.major = model::parse_operand_major(golden_string(c.params, "major", wp));
  p.desc.start_address_bytes = static_cast<uint32_t>(region + golden_int(c.params, "start_offset_bytes", wp));
  p.desc.lbo_bytes = static_cast<uint32_t>(golden_int(c.params, "lbo_bytes", wp));
  p.desc.sbo_bytes = static_cast<uint32_t>(golden_int(c.params, "sbo_bytes", wp));
  p.desc.version = static_cast<uint32_t>(golden_int(c.params, "version", wp));
  p.desc.base_offset = static_cast<uint32_t>(golden_int(c.params, "base_offset", wp));
  p.desc.lbo_mode = model::parse_lbo_mode(golden_string(c.params, "lbo_mode", wp));
  p.desc.swizzle = swizzle_of_param(golden_string(c.params, "swizzle", wp));
  p.exploratory = c.params.value("exploratory", false);
  return p;
}

// Byte offsets from `region` the model says the MMA reads, row-major over (row, k).
std::vector<int64_t> model_offsets(const model::SmemDescriptorSm100& desc, const model::OperandExtent& extent,
                                   uint64_t region) {
  std::vector<int64_t> out;
  for (const model::ElementAddress& e : model::descriptor_address_map(desc, extent))
    out.push_back(static_cast<int64_t>(e.address) - static_cast<int64_t>(region));
  return out;
}

void replay_desc_case(const GoldenCase& c, const std::string& wp, const std::string& wo, ReplayReport& report) {
  const auto region = static_cast<uint64_t>(golden_int(c.observed, "region_smem_address", wo));
  const DescParams p = desc_params(c, wp, region);
  const uint64_t bits = std::stoull(golden_string(c.observed, "descriptor", wo), nullptr, 16);
  // The probe's own encoder against the model's decoder: the same fields.
  model::SmemDescriptorSm100 decoded;
  try {
    decoded = model::SmemDescriptorSm100::decode(bits);
  } catch (const model::ModelError& e) {
    report.disagreements.push_back(c.name + ": SmemDescriptorSm100::decode refuses the executed descriptor: " +
                                   e.what());
    return;
  }
  if (!(decoded == p.desc)) {
    report.disagreements.push_back(c.name + ": the executed descriptor decodes as " + decoded.to_string() +
                                   ", the case asked for " + p.desc.to_string());
    return;
  }
  const std::vector<int64_t> got =
      golden_int_array(c.observed, "elem_offset_bytes", wo, static_cast<long long>(p.extent.rows) * p.extent.k_elems);
  if (!c.observed.value("barrier_completed", false)) {
    (p.exploratory ? report.notes : report.disagreements)
        .push_back(c.name + ": the MMA's commit never completed the barrier");
    if (p.exploratory) return;
  }
  std::vector<int64_t> want;
  try {
    want = model_offsets(p.desc, p.extent, region);
  } catch (const model::ModelError& e) {
    if (!p.exploratory) {
      report.disagreements.push_back(c.name + ": the model refuses a descriptor the hardware ran: " + e.what());
      return;
    }
    // Outside the model's domain: say what the hardware read instead, compared with
    // the same descriptor at version 1 in relative mode.
    model::SmemDescriptorSm100 plain = p.desc;
    plain.version = model::kSm100DescVersion;
    plain.lbo_mode = model::LboMode::Relative;
    std::string what = "the hardware read something else";
    try {
      if (model_offsets(plain, p.extent, region) == got) what = "the hardware read it as version 1, relative LBO";
    } catch (const model::ModelError&) {
    }
    report.notes.push_back(c.name + ": the model refuses it (" + e.what() + "); " + what);
    ++report.cases_checked;
    return;
  }
  Mismatches bad;
  for (uint32_t row = 0; row < p.extent.rows; ++row)
    for (uint32_t k = 0; k < p.extent.k_elems; ++k) {
      const std::size_t i = row * p.extent.k_elems + k;
      if (got[i] != want[i])
        bad.add("(row " + std::to_string(row) + ", k " + std::to_string(k) + "): hardware read byte " +
                std::to_string(got[i]) + " of the region, model " + std::to_string(want[i]));
    }
  if (bad.count)
    report.disagreements.push_back(c.name + ": " +
                                   bad.text(static_cast<int>(p.extent.rows * p.extent.k_elems), "elements"));
  else if (report.measured && p.desc.base_offset != 0)
    report.notes.push_back(c.name + ": settles the UNCONFIRMED base-offset rule (model::mma_swizzle_address)");
  ++report.cases_checked;
}

// ---- sm100_clc_order -----------------------------------------------------------------
// A response row as the probe logs it.
struct ClcRow {
  uint32_t worker, seq, rank, status, x, y, z;
  std::vector<int64_t> raw;
};
constexpr uint32_t kClcFailed = 0, kClcCancelled = 1, kClcTimeout = 2;

void replay_clc_case(const GoldenCase& c, const std::string& wp, const std::string& wo, ReplayReport& report) {
  const std::vector<int64_t> dims = golden_int_array(c.params, "cluster_dims", wp, 3);
  const auto cluster_x = static_cast<uint32_t>(dims[0]), cluster_size = static_cast<uint32_t>(dims[0] * dims[1]);
  const auto grid = static_cast<uint32_t>(golden_int(c.observed, "grid_clusters", wo));
  const std::vector<int64_t> started = golden_int_array(c.observed, "started", wo);
  const size_t before = report.disagreements.size();
  const auto disagree = [&](const std::string& what) { report.disagreements.push_back(c.name + ": " + what); };
  if (golden_int(c.observed, "started_dropped", wo) != 0 || golden_int(c.observed, "responses_dropped", wo) != 0)
    disagree("the probe's log overflowed; the observation is incomplete");
  std::vector<ClcRow> rows;
  const json& jr = c.observed.at("responses");
  if (!jr.is_array()) throw GoldenError(wo + ".responses must be an array of rows");
  for (std::size_t i = 0; i < jr.size(); ++i) {
    const std::string where = wo + ".responses[" + std::to_string(i) + "]";
    if (!jr[i].is_array() || jr[i].size() != 11)
      throw GoldenError(where + " must be an array of 11 integers (worker, seq, rank, status, x, y, z, raw[4])");
    std::vector<int64_t> v;
    for (const json& x : jr[i]) {
      if (!x.is_number_integer()) throw GoldenError(where + " = " + jr[i].dump() + " must hold integers only");
      v.push_back(x.get<int64_t>());
    }
    rows.push_back({static_cast<uint32_t>(v[0]), static_cast<uint32_t>(v[1]), static_cast<uint32_t>(v[2]),
                    static_cast<uint32_t>(v[3]), static_cast<uint32_t>(v[4]), static_cast<uint32_t>(v[5]),
                    static_cast<uint32_t>(v[6]), std::vector<int64_t>(v.begin() + 7, v.end())});
  }
  // Per worker, rank 0's responses in sequence order; every rank's copy of each.
  std::map<uint32_t, std::vector<ClcRow>> by_worker;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<ClcRow>> copies;
  std::vector<ClcRow> rank0_in_order;
  for (const ClcRow& r : rows) {
    if (r.status == kClcTimeout) disagree("worker " + std::to_string(r.worker) + "'s response " +
                                          std::to_string(r.seq) + " never arrived");
    copies[{r.worker, r.seq}].push_back(r);
    if (r.rank == 0) {
      by_worker[r.worker].push_back(r);
      rank0_in_order.push_back(r);
    }
  }
  // Each cluster id: launched, or cancelled once; never both, never neither.
  std::map<uint32_t, int> launched, cancelled;
  for (const int64_t id : started) ++launched[static_cast<uint32_t>(id)];
  std::vector<uint32_t> cancelled_in_order;
  for (auto& [worker, list] : by_worker) {
    std::sort(list.begin(), list.end(), [](const ClcRow& a, const ClcRow& b) { return a.seq < b.seq; });
    if (!launched.count(worker)) disagree("worker " + std::to_string(worker) + " answered but never started");
    uint32_t last_id = 0;
    bool any = false;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const ClcRow& r = list[i];
      if (r.seq != i) disagree("worker " + std::to_string(worker) + " has no response " + std::to_string(i));
      const bool last = i + 1 == list.size();
      if (r.status == kClcFailed && !last)
        disagree("worker " + std::to_string(worker) + " got a response after a failed try_cancel");
      if (r.status == kClcCancelled && last)
        disagree("worker " + std::to_string(worker) + "'s last response is a success: the walk never ended");
      if (r.status != kClcCancelled) continue;
      // get_first_ctaid: the first CTA of a cluster of this grid.
      if (r.x % cluster_x != 0 || r.y != 0 || r.z != 0 || r.x / cluster_x >= grid) {
        disagree("worker " + std::to_string(worker) + " response " + std::to_string(r.seq) + ": first ctaid (" +
                 std::to_string(r.x) + ", " + std::to_string(r.y) + ", " + std::to_string(r.z) +
                 ") is not the first CTA of one of the " + std::to_string(grid) + " clusters");
        continue;
      }
      uint32_t id = r.x / cluster_x;
      // The Blackwell kernel's own decode, for its cluster shape.
      if (dims[0] == gemmscope::sm100::kClusterM && dims[1] == gemmscope::sm100::kClusterN &&
          gemmscope::sm100::cluster_id_of_cta_x(r.x) != id)
        disagree("the kernel's cluster_id_of_cta_x(" + std::to_string(r.x) + ") is not cluster " + std::to_string(id));
      ++cancelled[id];
      if (any && id <= last_id)
        disagree("worker " + std::to_string(worker) + " was handed cluster " + std::to_string(id) + " after " +
                 std::to_string(last_id) + ": not lowest first (the simulator's queue)");
      last_id = id;
      any = true;
    }
  }
  for (uint32_t id = 0; id < grid; ++id) {
    const int l = launched.count(id) ? launched[id] : 0, k = cancelled.count(id) ? cancelled[id] : 0;
    if (l + k != 1)
      disagree("cluster " + std::to_string(id) + " was launched " + std::to_string(l) + " and cancelled " +
               std::to_string(k) + " times (exactly one of the two, once)");
  }
  // Multicast: every CTA received the same response.
  if (cluster_size > 1) {
    Mismatches bad;
    for (const auto& [key, list] : copies) {
      std::set<uint32_t> ranks;
      for (const ClcRow& r : list) ranks.insert(r.rank);
      if (ranks.size() != cluster_size)
        bad.add("worker " + std::to_string(key.first) + " response " + std::to_string(key.second) + " reached " +
                std::to_string(ranks.size()) + " of " + std::to_string(cluster_size) + " CTAs");
      for (const ClcRow& r : list)
        if (r.raw != list.front().raw || r.status != list.front().status)
          bad.add("worker " + std::to_string(key.first) + " response " + std::to_string(key.second) + ": CTA " +
                  std::to_string(r.rank) + "'s copy differs from CTA " + std::to_string(list.front().rank) + "'s");
    }
    if (bad.count) disagree("multicast: " + bad.text(static_cast<int>(copies.size()), "responses"));
  }
  // Order across workers, as logged (arrival order is only approximate across SMs).
  int successes = 0, descents = 0, last = -1;
  for (const ClcRow& r : rank0_in_order) {
    if (r.status != kClcCancelled) continue;
    const int id = static_cast<int>(r.x / cluster_x);
    if (last >= 0 && id < last) ++descents;
    last = id;
    ++successes;
  }
  const std::string order = std::to_string(descents) + " of " + std::to_string(successes) +
                            " cancelled ids below the one logged before them";
  if (successes > 0 && descents * 10 > successes) disagree("not lowest first across workers: " + order);
  else if (descents > 0) report.notes.push_back(c.name + ": " + order + " (within the log's timing noise)");
  if (report.disagreements.size() == before)
    report.notes.push_back(c.name + ": of " + std::to_string(grid) + " clusters " + std::to_string(started.size()) +
                           " launched, " + std::to_string(successes) + " cancelled, lowest first");
  ++report.cases_checked;
}

// ---- dispatch ----------------------------------------------------------------------
ReplayReport replay(const GoldenTrace& t) {
  ReplayReport report;
  report.measured = !t.synthetic();
  for (const GoldenCase& c : t.cases) {
    const std::string wp = t.probe + ".json: case " + c.name + ".params";
    const std::string wo = t.probe + ".json: case " + c.name + ".observed";
    const bool exploratory = c.params.value("exploratory", false);
    if (c.status == CaseStatus::Failed) {
      (exploratory ? report.notes : report.disagreements)
          .push_back(c.name + ": failed on the " + (t.synthetic() ? "synthetic trace" : "hardware") + ": " + c.error);
      continue;
    }
    try {
      if (t.probe == "sm100_tmem_ldst") replay_ldst_case(c, wp, wo, report);
      else if (t.probe == "sm100_tmem_alloc") replay_alloc_case(c, wp, wo, report);
      else if (t.probe == "sm100_mma_pair") replay_pair_case(c, wp, wo, report);
      else if (t.probe == "sm100_smem_desc") replay_desc_case(c, wp, wo, report);
      else if (t.probe == "sm100_clc_order") replay_clc_case(c, wp, wo, report);
      else {
        report.disagreements.push_back("no replay for probe \"" + t.probe + "\"");
        return report;
      }
    } catch (const GoldenError& e) {
      report.disagreements.push_back(std::string("malformed observation: ") + e.what());
    } catch (const model::ModelError& e) {
      report.disagreements.push_back(c.name + ": the model refuses: " + e.what());
    } catch (const std::exception& e) {
      report.disagreements.push_back(c.name + ": " + e.what());
    }
  }
  return report;
}

// ---- synthetic traces, generated from the model ------------------------------------
GoldenCase ok_case(const std::string& name, json params, json observed) {
  GoldenCase c;
  c.name = name;
  c.params = std::move(params);
  c.observed = std::move(observed);
  return c;
}

// Written and read back through the format, as a file would be.
GoldenTrace synthetic_trace(const std::string& probe, std::vector<GoldenCase> cases) {
  GoldenTrace t;
  t.source = std::string(traces::kGoldenSourceSynthetic);
  t.probe = probe;
  t.description = "the model's prediction in the probe's format (verify/cpu/sm100_probe_replay_test.cpp)";
  t.settles = {"nothing: generated from the model, not measured"};
  t.gpu.name = "none (synthetic from the model)";
  t.gpu.compute_major = 10;
  t.gpu.compute_minor = 0;
  t.date = "2000-01-01T00:00:00Z";
  t.commit = "synthetic";
  t.cases = std::move(cases);
  return traces::golden_from_json(traces::to_json(t), probe + ".json (synthetic)");
}

// The probe's case list (kernels/probes/sm100_tmem_ldst.cu), observed as the model predicts.
GoldenTrace synthetic_tmem_ldst() {
  struct Variant {
    model::TmemLdShape shape;
    uint32_t num, split;
  };
  using S = model::TmemLdShape;
  const Variant variants[] = {{S::S32x32b, 1, 0},   {S::S32x32b, 4, 0},   {S::S32x32b, 32, 0}, {S::S16x64b, 1, 0},
                              {S::S16x64b, 2, 0},   {S::S16x64b, 8, 0},   {S::S16x128b, 1, 0}, {S::S16x128b, 2, 0},
                              {S::S16x128b, 4, 0},  {S::S16x256b, 1, 0},  {S::S16x256b, 2, 0}, {S::S16x256b, 4, 0},
                              {S::S16x32bx2, 1, 1}, {S::S16x32bx2, 1, 16}, {S::S16x32bx2, 2, 2}, {S::S16x32bx2, 4, 8}};
  constexpr uint32_t kColumnBase = 32, kWindow = 96;
  std::vector<GoldenCase> cases;
  for (const bool store : {false, true})
    for (const Variant& v : variants)
      for (const uint32_t warp : {0u, 2u}) {
        if (warp == 2 && !(v.num == 1 && (v.shape == S::S32x32b || v.shape == S::S16x64b))) continue;
        const uint32_t regs = model::tmem_registers_per_thread(v.shape, v.num);
        const uint32_t lane_base = 32 * warp;
        std::string name = std::string(store ? "st_" : "ld_") + std::string(model::to_string(v.shape)) + ".x" +
                           std::to_string(v.num);
        if (v.shape == S::S16x32bx2) name += "_split" + std::to_string(v.split);
        if (warp) name += "_warp" + std::to_string(warp);
        json params{{"direction", store ? "st" : "ld"}, {"shape", std::string(model::to_string(v.shape))},
                    {"num", v.num},                      {"half_split_offset", v.split},
                    {"warp", warp},                      {"lane_base", lane_base},
                    {"column_base", kColumnBase},        {"registers", regs},
                    {"allocated_columns", 128}};
        json observed;
        if (store) {
          params["window_columns"] = kWindow;
          std::vector<uint32_t> window(32 * kWindow, kSentinel);
          for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t j = 0; j < regs; ++j) {
              const model::TmemCell cell = model::tmem_ld_cell(v.shape, v.num, t, j, v.split);
              window.at(cell.lane * kWindow + kColumnBase + cell.column) = kStoreTag | t << 8 | j;
            }
          observed["tmem"] = window;
        } else {
          std::vector<uint32_t> out;
          for (uint32_t t = 0; t < 32; ++t)
            for (uint32_t j = 0; j < regs; ++j) {
              const model::TmemCell cell = model::tmem_ld_cell(v.shape, v.num, t, j, v.split);
              out.push_back(kLoadTag | (lane_base + cell.lane) << 16 | (kColumnBase + cell.column));
            }
          observed["regs"] = out;
        }
        cases.push_back(ok_case(name, std::move(params), std::move(observed)));
      }
  return synthetic_trace("sm100_tmem_ldst", std::move(cases));
}

// The probe's scripts (kernels/probes/sm100_tmem_alloc.cu), results from model::TmemAllocator.
GoldenTrace synthetic_tmem_alloc() {
  using Script = std::vector<std::pair<std::string, int>>;
  const auto A = [](int c) { return std::pair<std::string, int>{"Alloc", c}; };
  const auto F = [](int s) { return std::pair<std::string, int>{"Free", s}; };
  const std::pair<std::string, int> R{"Relinquish", 0};
  const std::vector<std::tuple<std::string, int, Script>> scripts = {
      {"sizes", 1, {A(32), F(0), A(64), F(2), A(128), F(4), A(256), F(6), A(512), F(8)}},
      {"packing_ascending", 1, {A(32), A(32), A(64), A(128), A(256), F(0), F(1), F(2), F(3), F(4)}},
      {"packing_descending", 1, {A(256), A(128), A(64), A(32), A(32), F(4), F(3), F(2), F(1), F(0)}},
      {"alignment", 1, {A(32), A(64), A(32), A(128), F(0), F(1), F(2), F(3)}},
      {"reuse_after_free", 1, {A(64), A(64), F(0), A(32), A(32), F(1), F(3), F(4)}},
      {"hole_too_small", 1, {A(128), A(128), F(0), A(256), F(1), F(3)}},
      {"free_after_relinquish", 1, {A(64), A(128), R, F(0), F(1)}},
      {"relinquish_first", 1, {A(512), R, F(0)}},
      {"pair_same_columns", 2, {A(64), A(128), R, F(0), F(1)}},
      {"pair_all_columns", 2, {A(512), R, F(0)}},
  };
  std::vector<GoldenCase> cases;
  for (const auto& [name, cta_group, script] : scripts) {
    model::TmemAllocator allocator;
    std::vector<int64_t> results;
    std::vector<uint32_t> address;
    json steps = json::array();
    for (const auto& [op, arg] : script) {
      steps.push_back(json::array({op, arg}));
      int64_t r = -1;
      address.push_back(0);
      if (op == "Alloc") r = address.back() = allocator.allocate(static_cast<uint32_t>(arg), cta_group);
      else if (op == "Free") allocator.free(address.at(static_cast<std::size_t>(arg)),
                                            static_cast<uint32_t>(script.at(static_cast<std::size_t>(arg)).second),
                                            cta_group);
      else allocator.relinquish_alloc_permit(cta_group);
      results.push_back(r);
    }
    json observed{{"results", results}};
    if (cta_group == 2) observed["results_peer"] = results;
    cases.push_back(ok_case(name, {{"cta_group", cta_group}, {"script", steps}}, std::move(observed)));
  }
  return synthetic_trace("sm100_tmem_alloc", std::move(cases));
}

GoldenTrace synthetic_mma_pair() {
  const std::vector<std::tuple<std::string, int, uint32_t, uint32_t>> shapes = {
      {"cta1_m128_n64", 1, 128, 64},
      {"cta1_m64_n64", 1, 64, 64},
      {"cta2_m256_n64", 2, 256, 64},
      {"cta2_m256_n256", 2, 256, 256},
      {"cta2_m128_n64", 2, 128, 64}};
  std::vector<GoldenCase> cases;
  for (const auto& [name, cta_group, m, n] : shapes) {
    const auto cells = expected_pair_cells(m, n, cta_group);
    json observed;
    for (int cta = 0; cta < cta_group; ++cta) {
      observed["d_codes_cta" + std::to_string(cta)] = cells[static_cast<std::size_t>(cta)];
      observed["barrier_completed_cta" + std::to_string(cta)] = true;
    }
    cases.push_back(ok_case(name, {{"cta_group", cta_group}, {"m", m}, {"n", n}, {"k", 16}}, std::move(observed)));
  }
  return synthetic_trace("sm100_mma_pair", std::move(cases));
}

// The probe's descriptor cases (kernels/probes/sm100_smem_desc.cu): the model's
// addresses where it has them; "failed" where it refuses (exploratory cases only).
GoldenTrace synthetic_smem_desc() {
  struct D {
    bool probe_b, mn;
    const char* swizzle;
    uint32_t lbo, sbo, start = 0, base_offset = 0, version = 1;
    bool absolute = false;
  };
  std::vector<D> list;
  for (const bool b : {false, true}) {
    list.push_back({b, false, "none", 128, 256});
    list.push_back({b, false, "none", 2048, 128});
    list.push_back({b, false, "32B", 16, 256});
    list.push_back({b, false, "64B", 16, 512});
    list.push_back({b, false, "128B", 16, 1024});
    list.push_back({b, true, "none", 2048, 128});
    list.push_back({b, true, "128B", 2048, 1024});
  }
  for (const uint32_t start : {32u, 64u, 96u}) list.push_back({false, false, "128B", 16, 1024, start});
  list.push_back({false, false, "128B", 4096, 1024});
  list.push_back({false, true, "32B", 512, 256});
  list.push_back({false, true, "64B", 1024, 512});
  list.push_back({false, false, "128B-atom32B", 16, 1024});
  list.push_back({false, false, "128B", 16, 1024, 0, 0, 0});
  list.push_back({false, false, "none", 128, 256, 0, 0, 0});
  list.push_back({false, false, "none", 128, 256, 0, 0, 1, true});
  list.push_back({false, false, "128B", 16, 1024, 256, 0});
  list.push_back({false, false, "128B", 16, 1024, 256, 2});
  list.push_back({false, false, "128B", 16, 1024, 128, 1});
  list.push_back({false, false, "64B", 16, 512, 128, 1});
  constexpr uint64_t kRegion = 1024;  // a plausible shared address of the test region
  std::vector<GoldenCase> cases;
  for (const D& d : list) {
    std::string name = std::string(d.probe_b ? "B" : "A") + (d.mn ? "_mn" : "_k") + "_" + d.swizzle + "_lbo" +
                       std::to_string(d.lbo) + "_sbo" + std::to_string(d.sbo);
    if (d.start) name += "_start" + std::to_string(d.start);
    if (d.base_offset) name += "_base" + std::to_string(d.base_offset);
    if (d.version != 1) name += "_version" + std::to_string(d.version);
    if (d.absolute) name += "_lbo_absolute";
    const bool exploratory = d.base_offset != 0 || std::string(d.swizzle) == "128B-atom32B" || d.version != 1 ||
                             d.absolute;
    json params{{"operand", d.probe_b ? "B" : "A"}, {"major", d.mn ? "MN" : "K"},
                {"rows", d.probe_b ? 64 : 128},    {"k_elems", 16},
                {"elem_bytes", 2},                  {"swizzle", d.swizzle},
                {"start_offset_bytes", d.start},    {"lbo_bytes", d.lbo},
                {"sbo_bytes", d.sbo},               {"version", d.version},
                {"lbo_mode", d.absolute ? "absolute" : "relative"},
                {"base_offset", d.base_offset},     {"exploratory", exploratory}};
    model::SmemDescriptorSm100 desc;
    desc.start_address_bytes = static_cast<uint32_t>(kRegion + d.start);
    desc.lbo_bytes = d.lbo;
    desc.sbo_bytes = d.sbo;
    desc.base_offset = d.base_offset;
    desc.swizzle = model::parse_swizzle_mode(d.swizzle);
    model::OperandExtent extent{d.probe_b ? 64u : 128u, 16, d.mn ? model::OperandMajor::MN : model::OperandMajor::K,
                                2};
    // Encoded at version 1 by the model, then the fields the model refuses set by hand.
    uint64_t bits = desc.encode();
    bits = (bits & ~(uint64_t{7} << 46)) | (uint64_t{d.version} << 46);
    if (d.absolute) bits |= uint64_t{1} << 52;
    desc.version = d.version;
    desc.lbo_mode = d.absolute ? model::LboMode::Absolute : model::LboMode::Relative;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(bits));
    try {
      cases.push_back(ok_case(name, std::move(params),
                              {{"region_smem_address", kRegion},
                               {"descriptor", hex},
                               {"barrier_completed", true},
                               {"elem_offset_bytes", model_offsets(desc, extent, kRegion)}}));
    } catch (const model::ModelError& e) {
      GoldenCase c;
      c.name = name;
      c.params = std::move(params);
      c.status = CaseStatus::Failed;
      c.error = std::string("no model prediction: ") + e.what();
      cases.push_back(std::move(c));
    }
  }
  return synthetic_trace("sm100_smem_desc", std::move(cases));
}

// The queue the simulator binding assumes: `resident` clusters run, the rest wait;
// each running worker's try_cancel takes the lowest waiting id, or fails when none is
// left; workers take turns. Every CTA of a cluster logs the multicast copy.
json synthetic_clc_observed(uint32_t grid, uint32_t resident, uint32_t cluster_x, uint32_t cluster_y) {
  std::vector<uint32_t> started;
  std::vector<uint32_t> running;
  uint32_t next = 0;
  while (next < grid && running.size() < resident) {
    started.push_back(next);
    running.push_back(next++);
  }
  std::map<uint32_t, uint32_t> seq;
  json rows = json::array();
  while (!running.empty()) {
    std::vector<uint32_t> still;
    for (const uint32_t worker : running) {
      const bool cancelled = next < grid;
      const uint32_t x = cancelled ? next * cluster_x : 0;
      if (cancelled) ++next;
      for (uint32_t rank = 0; rank < cluster_x * cluster_y; ++rank)
        rows.push_back({worker, seq[worker], rank, cancelled ? 1 : 0, x, 0, 0, cancelled ? 1 : 0, x, 0, 0});
      ++seq[worker];
      if (cancelled) still.push_back(worker);
    }
    running = still;
  }
  return {{"grid_clusters", grid}, {"sm_count", 0},      {"started", started},
          {"started_dropped", 0},  {"responses", rows}, {"responses_dropped", 0}};
}

GoldenTrace synthetic_clc_order() {
  const auto params = [](uint32_t x, uint32_t y, bool multicast) {
    return json{{"cluster_dims", {x, y, 1}}, {"multicast", multicast}};
  };
  std::vector<GoldenCase> cases;
  cases.push_back(ok_case("c1_one_cluster", params(1, 1, false), synthetic_clc_observed(1, 1, 1, 1)));
  cases.push_back(ok_case("c1_waves", params(1, 1, false), synthetic_clc_observed(40, 10, 1, 1)));
  cases.push_back(ok_case("c1_back_to_back", params(1, 1, false), synthetic_clc_observed(40, 10, 1, 1)));
  cases.push_back(ok_case("c2_multicast", params(2, 1, true), synthetic_clc_observed(20, 5, 2, 1)));
  cases.push_back(ok_case("c2x2_multicast", params(2, 2, true), synthetic_clc_observed(10, 3, 2, 2)));
  return synthetic_trace("sm100_clc_order", std::move(cases));
}

// ---- the trace in use: measured if a file exists, else synthetic ---------------------
std::filesystem::path hardware_dir() {
  if (const char* env = std::getenv("GEMMSCOPE_SM100_TRACES"); env && *env) return env;
  return std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw" / "sm100";
}

struct TraceInUse {
  GoldenTrace trace;
  bool measured = false;
  std::filesystem::path hardware_file;  // the file that holds (or would hold) the measurement
};

GoldenTrace synthetic_for(const std::string& probe) {
  if (probe == "sm100_tmem_ldst") return synthetic_tmem_ldst();
  if (probe == "sm100_tmem_alloc") return synthetic_tmem_alloc();
  if (probe == "sm100_mma_pair") return synthetic_mma_pair();
  if (probe == "sm100_smem_desc") return synthetic_smem_desc();
  return synthetic_clc_order();
}

// A measured file must be one: source "hardware", recorded on compute capability 10.x.
// Throws GoldenError naming the file otherwise.
TraceInUse trace_in_use(const std::string& probe, const std::filesystem::path& dir = hardware_dir()) {
  TraceInUse in_use;
  in_use.hardware_file = dir / (probe + ".json");
  if (!std::filesystem::exists(in_use.hardware_file)) {
    in_use.trace = synthetic_for(probe);
    std::printf("%s: replaying the synthetic trace (generated from the model); the measured file %s replaces it "
                "(tools/blackwell-report records it on a B200)\n",
                probe.c_str(), in_use.hardware_file.string().c_str());
    return in_use;
  }
  in_use.trace = traces::read_golden(in_use.hardware_file);
  in_use.measured = true;
  const std::string file = in_use.hardware_file.filename().string();
  if (in_use.trace.synthetic())
    throw GoldenError(file + ": source = \"" + in_use.trace.source +
                      "\" must be \"hardware\" in traces/hw/sm100/ (a synthetic trace settles nothing)");
  if (in_use.trace.probe != probe)
    throw GoldenError(file + ": probe = \"" + in_use.trace.probe + "\" must be \"" + probe + "\"");
  if (in_use.trace.gpu.compute_major != 10)
    throw GoldenError(file + ": gpu.compute_major = " + std::to_string(in_use.trace.gpu.compute_major) +
                      " must be 10 (recorded on " + in_use.trace.gpu.name + ", not a Blackwell GPU)");
  std::printf("%s: replaying the measured trace %s (%s, %s, commit %s)\n", probe.c_str(),
              in_use.hardware_file.string().c_str(), in_use.trace.gpu.name.c_str(), in_use.trace.date.c_str(),
              in_use.trace.commit.c_str());
  return in_use;
}

// Replays the trace in use; every case must be checked (or, exploratory, noted).
void expect_agreement(const std::string& probe) {
  TraceInUse in_use;
  try {
    in_use = trace_in_use(probe);
  } catch (const GoldenError& e) {
    FAIL() << e.what();
  }
  const ReplayReport report = replay(in_use.trace);
  std::printf("%s: %d of %zu cases checked, %zu disagreements\n%s", probe.c_str(), report.cases_checked,
              in_use.trace.cases.size(), report.disagreements.size(), joined(report.notes, 40).c_str());
  EXPECT_GT(report.cases_checked, 0) << probe << ": nothing to replay";
  EXPECT_TRUE(report.disagreements.empty())
      << probe << (in_use.measured ? " (measured) disagrees with the model:\n" : " (synthetic) fails to replay:\n")
      << joined(report.disagreements);
}

// The perturbed copy of the trace in use must be rejected, with `expected` in a message.
void expect_rejected(const std::string& probe, const std::function<void(GoldenTrace&)>& perturb,
                     const std::string& expected) {
  GoldenTrace t;
  try {
    t = trace_in_use(probe).trace;
  } catch (const GoldenError& e) {
    FAIL() << e.what();
  }
  perturb(t);
  const ReplayReport report = replay(t);
  ASSERT_FALSE(report.disagreements.empty()) << probe << ": a perturbed trace still replays";
  const bool found = std::any_of(report.disagreements.begin(), report.disagreements.end(),
                                 [&](const std::string& d) { return d.find(expected) != std::string::npos; });
  EXPECT_TRUE(found) << "no disagreement mentions \"" << expected << "\":\n" << joined(report.disagreements);
  std::printf("negative control %s: %zu disagreements (first: %s)\n", probe.c_str(), report.disagreements.size(),
              report.disagreements.front().c_str());
}

GoldenCase& ok_case_named(GoldenTrace& t, const std::string& name) {
  for (GoldenCase& c : t.cases)
    if (c.name == name && c.status == CaseStatus::Ok) return c;
  throw std::runtime_error("no ok case " + name + " in " + t.probe);
}

// ---- the tests -------------------------------------------------------------------------
TEST(Sm100ProbeReplay, TmemLdStMaps) { expect_agreement("sm100_tmem_ldst"); }

TEST(Sm100ProbeReplay, TmemLdStMapsNegativeControl) {
  // Two threads of a 16-lane load swap registers; a stored code moves one column over.
  expect_rejected(
      "sm100_tmem_ldst",
      [](GoldenTrace& t) {
        json& regs = ok_case_named(t, "ld_16x64b.x2").observed["regs"];
        std::swap(regs[0], regs[2]);  // thread 0 and thread 1, register 0
      },
      "ld_16x64b.x2: 2 of 64 registers differ: thread 0 register 0 read");
  expect_rejected(
      "sm100_tmem_ldst",
      [](GoldenTrace& t) {
        json& cells = ok_case_named(t, "st_16x256b.x1").observed["tmem"];
        for (std::size_t i = 0; i + 1 < cells.size(); ++i)
          if (cells[i].get<int64_t>() != kSentinel && cells[i + 1].get<int64_t>() == kSentinel) {
            std::swap(cells[i], cells[i + 1]);
            break;
          }
      },
      "st_16x256b.x1: 2 of 3072 cells differ");
}

TEST(Sm100ProbeReplay, TmemAllocationPlacement) { expect_agreement("sm100_tmem_alloc"); }

TEST(Sm100ProbeReplay, TmemAllocationPlacementNegativeControl) {
  // 64 columns after 32 placed right behind them (column 32), not at the next multiple of 64.
  expect_rejected(
      "sm100_tmem_alloc",
      [](GoldenTrace& t) {
        json& r = ok_case_named(t, "alignment").observed["results"];
        r[1] = r[0].get<int64_t>() + 32;
      },
      "alignment step 1 (Alloc 64): hardware lane 0, column");
  // The odd CTA of a pair handed other columns than the even one.
  expect_rejected(
      "sm100_tmem_alloc",
      [](GoldenTrace& t) {
        json& r = ok_case_named(t, "pair_same_columns").observed["results_peer"];
        r[0] = r[0].get<int64_t>() + 256;
      },
      "pair_same_columns step 0: the odd CTA got");
}

TEST(Sm100ProbeReplay, MmaOperandSplitAndAccumulatorLayouts) { expect_agreement("sm100_mma_pair"); }

TEST(Sm100ProbeReplay, MmaOperandSplitNegativeControl) {
  // The B halves swapped in the even CTA: its columns 0-31 hold what 32-63 should.
  expect_rejected(
      "sm100_mma_pair",
      [](GoldenTrace& t) {
        json& d = ok_case_named(t, "cta2_m256_n64").observed["d_codes_cta0"];
        for (int lane = 0; lane < 128; ++lane)
          for (int col = 0; col < 32; ++col) std::swap(d[lane * 64 + col], d[lane * 64 + col + 32]);
      },
      "cta2_m256_n64: 8192 of 8192 TMEM cells differ: CTA 0 lane 0 column 0: hardware A row 0 of CTA 0 x B row 0 "
      "of CTA 1, model A row 0 of CTA 0 x B row 0 of CTA 0");
  // Layout F read as if M = 64 filled lanes 0-63.
  expect_rejected(
      "sm100_mma_pair",
      [](GoldenTrace& t) {
        json& d = ok_case_named(t, "cta1_m64_n64").observed["d_codes_cta0"];
        for (int col = 0; col < 64; ++col) std::swap(d[16 * 64 + col], d[32 * 64 + col]);
      },
      "cta1_m64_n64: 128 of 8192 TMEM cells differ");
}

TEST(Sm100ProbeReplay, SmemDescriptorLayouts) { expect_agreement("sm100_smem_desc"); }

TEST(Sm100ProbeReplay, SmemDescriptorNegativeControl) {
  // The hardware reading (row 9, k 8) from where the model puts (row 9, k 0).
  expect_rejected(
      "sm100_smem_desc",
      [](GoldenTrace& t) {
        GoldenCase& c = ok_case_named(t, "A_k_none_lbo128_sbo256");
        c.observed["elem_offset_bytes"][9 * 16 + 8] = c.observed["elem_offset_bytes"][9 * 16 + 0];
      },
      "A_k_none_lbo128_sbo256: 1 of 2048 elements differ: (row 9, k 8): hardware read byte");
  // A case the model states as fact may not fail on the hardware.
  expect_rejected(
      "sm100_smem_desc",
      [](GoldenTrace& t) {
        GoldenCase& c = ok_case_named(t, "A_k_128B_lbo16_sbo1024_start32");
        c.status = CaseStatus::Failed;
        c.error = "cudaErrorIllegalInstruction";
      },
      "A_k_128B_lbo16_sbo1024_start32: failed on the");
}

TEST(Sm100ProbeReplay, ClusterLaunchControlCancelOrder) { expect_agreement("sm100_clc_order"); }

TEST(Sm100ProbeReplay, ClusterLaunchControlNegativeControl) {
  // A cluster handed out twice: the walk would compute its tile twice.
  expect_rejected(
      "sm100_clc_order",
      [](GoldenTrace& t) {
        json& rows = ok_case_named(t, "c1_waves").observed["responses"];
        std::vector<std::size_t> successes;
        for (std::size_t i = 0; i < rows.size(); ++i)
          if (rows[i][3] == 1) successes.push_back(i);
        rows[successes.at(1)][4] = rows[successes.at(0)][4];
        rows[successes.at(1)][7] = rows[successes.at(0)][7];
      },
      "cancelled 2 times");
  // One CTA of a 2 x 2 cluster received a different response.
  expect_rejected(
      "sm100_clc_order",
      [](GoldenTrace& t) {
        json& rows = ok_case_named(t, "c2x2_multicast").observed["responses"];
        for (json& r : rows)
          if (r[2] == 3) {
            r[10] = r[10].get<int64_t>() ^ 1;
            break;
          }
      },
      "multicast: 1 of");
}

// ---- where the measured files go, and the format's source field ----------------------
TEST(Sm100ProbeReplay, AMeasuredFileMustBeMeasuredOnSm100) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_sm100_replay";
  std::filesystem::remove_all(dir);
  // A synthetic trace dropped where a measurement belongs.
  GoldenTrace t = synthetic_tmem_alloc();
  traces::write_golden(dir, t);
  try {
    trace_in_use("sm100_tmem_alloc", dir);
    ADD_FAILURE() << "a synthetic file was taken for a measurement";
  } catch (const GoldenError& e) {
    EXPECT_NE(std::string(e.what()).find("must be \"hardware\" in traces/hw/sm100/"), std::string::npos) << e.what();
  }
  // A measurement from the H200.
  t.source = std::string(traces::kGoldenSourceHardware);
  t.gpu.name = "NVIDIA H200";
  t.gpu.compute_major = 9;
  t.gpu.driver_version = 13000;
  t.gpu.runtime_version = 13000;
  traces::write_golden(dir, t);
  try {
    trace_in_use("sm100_tmem_alloc", dir);
    ADD_FAILURE() << "an sm_90 file was taken for a Blackwell measurement";
  } catch (const GoldenError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu.compute_major = 9 must be 10 (recorded on NVIDIA H200"),
              std::string::npos)
        << e.what();
  }
  // A measurement as a B200 would write it replays in place of the synthetic trace.
  t.gpu.name = "NVIDIA B200";
  t.gpu.compute_major = 10;
  traces::write_golden(dir, t);
  const TraceInUse in_use = trace_in_use("sm100_tmem_alloc", dir);
  EXPECT_TRUE(in_use.measured);
  EXPECT_TRUE(replay(in_use.trace).disagreements.empty());
  std::filesystem::remove_all(dir);
}

TEST(Sm100GoldenFormat, SourceFieldIsReadAndChecked) {
  json doc = traces::to_json(synthetic_tmem_alloc());
  EXPECT_EQ(doc["schema_version"], 3);
  EXPECT_EQ(doc["source"], "synthetic from the model");
  const auto rejection = [](const json& d) -> std::string {
    try {
      traces::golden_from_json(d, "bad.json");
    } catch (const GoldenError& e) {
      return e.what();
    }
    return "";
  };
  json bad = doc;
  bad["source"] = "measured, honest";
  EXPECT_EQ(rejection(bad),
            "bad.json: source = \"measured, honest\" must be \"hardware\" or \"synthetic from the model\"");
  bad = doc;
  bad.erase("source");
  EXPECT_EQ(rejection(bad), "bad.json: source is missing");
  bad = doc;
  bad["schema_version"] = 1;
  EXPECT_EQ(rejection(bad), "bad.json: source needs schema_version 2 (this file says 1)");
  // Version 1 (the H200's files): no source, read as hardware, written back as version 1.
  bad.erase("source");
  bad["gpu"]["driver_version"] = 12080;
  bad["gpu"]["runtime_version"] = 13000;
  const GoldenTrace v1 = traces::golden_from_json(bad, "v1.json");
  EXPECT_EQ(v1.source, "hardware");
  EXPECT_FALSE(traces::to_json(v1).contains("source"));
  // A hardware trace needs real version numbers; a synthetic one may leave them at 0.
  bad = doc;
  bad["source"] = "hardware";
  EXPECT_EQ(rejection(bad), "bad.json: gpu.driver_version/runtime_version must be positive CUDA version numbers");
}

// tools/blackwell-report's refusals, which come before any GPU or build work (so that
// this runs the same on a B200): no folder, two folders, a folder that exists.
TEST(BlackwellReport, RefusesBeforeDoingAnything) {
  const std::string script = std::string(GEMMSCOPE_SOURCE_DIR) + "/tools/blackwell-report";
  const auto exit_status = [&](const std::string& args) {
    const int status = std::system((script + " " + args + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_blackwell_report_exists";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(exit_status(""), 2);
  EXPECT_EQ(exit_status("a b"), 2);
  EXPECT_EQ(exit_status("--bogus"), 2);
  EXPECT_EQ(exit_status(dir.string()), 2);
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "the report wrote into a folder that existed";
  EXPECT_EQ(exit_status("--help"), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
