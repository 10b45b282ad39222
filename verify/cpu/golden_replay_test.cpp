// Golden hardware traces (traces/hw/*.json, written by `gemmscope probe` on the
// H200) replayed through the model: every observation must agree exactly with the
// model's prediction (banks timing: with a fitted cost). The expected values here
// come from the hardware; the code under test is the model.
// Also: the trace format itself (a synthetic trace that must replay, corrupted ones
// that must be rejected with a clear message).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "gemmscope/model/access_patterns.hpp"
#include "gemmscope/model/banks.hpp"
#include "gemmscope/model/desc_interpreter.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/error.hpp"
#include "gemmscope/model/fragments.hpp"
#include "gemmscope/model/mbarrier.hpp"
#include "gemmscope/model/swizzle.hpp"
#include "gemmscope/model/tma_box.hpp"
#include "gemmscope/traces/golden.hpp"
#include "tune/config.hpp"

namespace {

using gemmscope::traces::CaseStatus;
using gemmscope::traces::GoldenCase;
using gemmscope::traces::GoldenError;
using gemmscope::traces::GoldenTrace;
using gemmscope::traces::golden_int;
using gemmscope::traces::golden_int_array;
using gemmscope::traces::golden_string;
using nlohmann::json;
namespace model = gemmscope::model;

// What a replay found: disagreements fail the test; notes are observations the
// model does not predict (undefined behaviour, exploratory cases), printed only.
// Negative controls: a deliberately wrong model variant per probe family. The real
// replay runs with None; each control must make the hardware traces disagree, which
// shows that the replay discriminates.
enum class WrongModel {
  None,
  SwizzleOfAnotherMode,
  TransposeFlipped,
  ParityInverted,
  OldPhaseRule,             // model::phases_128_bytes: no 256-byte phases at all
  UniformOnlyPhaseRule,     // model::phases_h200_uniform_only: the previous default
  DescriptorSwizzleOfAnotherMode,
  ClusterSlotsOfHalfTheSize,
  SmLoadRateDoubled,        // tune::modelled_sm_load_rate twice what it says
};
WrongModel g_wrong_model = WrongModel::None;

model::SwizzleMode another_mode(model::SwizzleMode m) {
  switch (m) {
    case model::SwizzleMode::B32: return model::SwizzleMode::B64;
    case model::SwizzleMode::B64: return model::SwizzleMode::B128;
    case model::SwizzleMode::B128: return model::SwizzleMode::B32;
    default: return m;  // unswizzled cases stay as they are
  }
}

model::AccessCost analyze_with_variant(const model::WarpAccess& a) {
  switch (g_wrong_model) {
    case WrongModel::OldPhaseRule: return model::analyze(a, model::phases_128_bytes);
    case WrongModel::UniformOnlyPhaseRule: return model::analyze(a, model::phases_h200_uniform_only);
    default: return model::analyze(a);
  }
}

struct ReplayReport {
  std::vector<std::string> disagreements;
  std::vector<std::string> notes;
  int cases_checked = 0;
};

std::string where_of(const GoldenTrace& t, const GoldenCase& c, const char* part) {
  return t.probe + ".json: case " + c.name + "." + part;
}

bool exploratory(const GoldenCase& c) { return c.params.value("exploratory", false); }

// ---- tma_swizzle -------------------------------------------------------------------
void replay_tma_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wp = where_of(t, c, "params"), wo = where_of(t, c, "observed");
  model::TmaBox box;
  box.swizzle = model::parse_swizzle_mode(golden_string(c.params, "swizzle", wp));
  if (g_wrong_model == WrongModel::SwizzleOfAnotherMode) box.swizzle = another_mode(box.swizzle);
  box.rows = static_cast<uint32_t>(golden_int(c.params, "rows", wp));
  box.inner_elems = static_cast<uint32_t>(golden_int(c.params, "inner_elems", wp));
  box.elem_bytes = static_cast<uint32_t>(golden_int(c.params, "elem_bytes", wp));
  if (c.params.value("encode_only", false)) {
    const bool accepted = c.observed.at("encode_accepted").get<bool>();
    bool model_accepts = true;
    std::string why;
    try {
      box.validate();
    } catch (const model::ModelError& e) {
      model_accepts = false;
      why = e.what();
    }
    if (accepted != model_accepts)
      report.disagreements.push_back(c.name + ": the driver " + (accepted ? "accepts" : "refuses") +
                                     " the tensor map but TmaBox::validate " +
                                     (model_accepts ? "accepts it" : "refuses it (" + why + ")"));
    ++report.cases_checked;
    return;
  }
  box.smem_base = static_cast<uint64_t>(golden_int(c.observed, "dst_smem_address", wo));
  // The model's rules must accept every box the hardware landed.
  try {
    box.validate();
  } catch (const model::ModelError& e) {
    report.disagreements.push_back(c.name + ": the hardware landed this box but TmaBox::validate refuses it (" +
                                   e.what() + ")");
  }
  const uint64_t region = static_cast<uint64_t>(golden_int(c.observed, "region_smem_address", wo));
  const int64_t dump_bytes = golden_int(c.observed, "dump_bytes", wo);
  const std::vector<int64_t> dump = golden_int_array(c.observed, "smem_u16", wo, dump_bytes / 2);
  const int64_t sentinel = golden_int(c.params, "sentinel", wp);
  const int64_t cols = golden_int(c.params, "global_cols", wp);
  const int64_t coord_col = golden_int(c.params, "coord_col", wp), coord_row = golden_int(c.params, "coord_row", wp);
  if (!c.observed.at("barrier_completed").get<bool>())
    report.disagreements.push_back(c.name + ": the mbarrier phase did not complete (tx bytes != box bytes?)");

  // Expected dump for a given address function.
  const auto expected_dump = [&](const std::function<uint64_t(uint32_t, uint32_t)>& address,
                                 std::string& error) -> std::vector<int64_t> {
    std::vector<int64_t> expected(dump.size(), sentinel);
    for (uint32_t r = 0; r < box.rows; ++r)
      for (uint32_t col = 0; col < box.inner_elems; ++col) {
        const uint64_t a = address(r, col);
        if (a < region || (a - region) / 2 >= expected.size()) {
          error = "element (" + std::to_string(r) + ", " + std::to_string(col) + ") lands outside the dump";
          return {};
        }
        expected[(a - region) / 2] = (coord_row + r) * cols + coord_col + col;
      }
    return expected;
  };
  // "N of M halfwords differ ...; first at byte B: hardware H, model E" ("" when none do).
  const auto differences = [&](const std::vector<int64_t>& expected, const char* view) -> std::string {
    std::size_t mismatches = 0, first = dump.size();
    for (std::size_t i = 0; i < dump.size(); ++i)
      if (expected[i] != dump[i]) {
        ++mismatches;
        first = std::min(first, i);
      }
    if (mismatches == 0) return "";
    std::ostringstream msg;
    msg << c.name << ": " << mismatches << " of " << dump.size() << " shared-memory halfwords differ from " << view
        << "; first at byte " << 2 * first << ": hardware " << dump[first] << ", model " << expected[first];
    return msg.str();
  };
  ++report.cases_checked;
  // The same box as the SmemTile the bank analyses (`gemmscope banks`) work on: it must
  // accept every box the hardware landed, bases inside the swizzle pattern included,
  // and put each element where the hardware did.
  const model::SmemTile tile = model::SmemTile::from_box(box);
  try {
    tile.validate();
    std::string tile_error;
    const std::vector<int64_t> tile_expected = expected_dump(
        [&](uint32_t r, uint32_t col) { return tile.address(r, col * box.elem_bytes); }, tile_error);
    if (!tile_error.empty())
      report.disagreements.push_back(c.name + ": SmemTile: " + tile_error);
    else if (const std::string d = differences(tile_expected, "SmemTile::address"); !d.empty())
      report.disagreements.push_back(d);
  } catch (const model::ModelError& e) {
    report.disagreements.push_back(c.name + ": the hardware landed this box but SmemTile::validate refuses it (" +
                                   e.what() + ")");
  }
  std::string error;
  const std::vector<int64_t> expected =
      expected_dump([&](uint32_t r, uint32_t col) { return box.address(r, col); }, error);
  if (!error.empty()) {
    report.disagreements.push_back(c.name + ": model: " + error);
    return;
  }
  std::string msg = differences(expected, "TmaBox::address");
  if (msg.empty()) return;
  // The open question: rows padded to the swizzle span?
  const uint32_t span = model::swizzle_span_bytes(box.swizzle);
  if (span > box.inner_bytes()) {
    std::string e2;
    const auto padded = expected_dump(
        [&](uint32_t r, uint32_t col) {
          return model::swizzle_address(box.swizzle, box.smem_base + uint64_t{r} * span + uint64_t{col} * box.elem_bytes);
        },
        e2);
    if (e2.empty() && padded == dump)
      msg += " [the observation matches rows padded to the " + std::to_string(span) + "-byte span]";
  }
  report.disagreements.push_back(msg);
}

// ---- ldmatrix_stmatrix -------------------------------------------------------------
void replay_ldst_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wp = where_of(t, c, "params"), wo = where_of(t, c, "observed");
  const uint32_t count = static_cast<uint32_t>(golden_int(c.params, "matrices", wp));
  const bool trans = c.params.at("trans").get<bool>() != (g_wrong_model == WrongModel::TransposeFlipped);
  const std::vector<int64_t> row_of_lane = golden_int_array(c.params, "row_of_lane", wp, 32);
  const int64_t smem_rows = golden_int(c.params, "smem_rows", wp);
  // Element (matrix, row, col) of the model -> the smem row its address came from.
  const auto smem_row_of = [&](uint32_t matrix, uint32_t row) {
    return row_of_lane[model::ldmatrix_row_address_thread(count, matrix, row)];
  };
  ++report.cases_checked;
  if (c.name.rfind("ldmatrix", 0) == 0) {
    const std::vector<int64_t> regs = golden_int_array(c.observed, "regs", wo, 32 * count);
    for (uint32_t thread = 0; thread < 32; ++thread)
      for (uint32_t reg = 0; reg < count; ++reg)
        for (uint32_t half = 0; half < 2; ++half) {
          const model::LdmatrixElement e = model::ldmatrix_element(count, trans, thread, reg, half);
          const int64_t want = smem_row_of(e.matrix, e.row) * 8 + e.col;  // smem code: row * 8 + col
          const int64_t got = (regs[thread * count + reg] >> (16 * half)) & 0xFFFF;
          if (want != got) {
            report.disagreements.push_back(c.name + ": thread " + std::to_string(thread) + " register " +
                                           std::to_string(reg) + " half " + std::to_string(half) + ": hardware code " +
                                           std::to_string(got) + ", model code " + std::to_string(want));
            return;
          }
        }
  } else {
    const std::vector<int64_t> smem = golden_int_array(c.observed, "smem_u16", wo, smem_rows * 8);
    const int64_t sentinel = golden_int(c.params, "sentinel", wp);
    const int64_t base = golden_int(c.params, "store_code_base", wp);
    std::vector<int64_t> expected(smem.size(), sentinel);
    for (uint32_t thread = 0; thread < 32; ++thread)
      for (uint32_t reg = 0; reg < count; ++reg)
        for (uint32_t half = 0; half < 2; ++half) {
          const model::LdmatrixElement e = model::ldmatrix_element(count, trans, thread, reg, half);
          expected[smem_row_of(e.matrix, e.row) * 8 + e.col] = base + 8 * thread + 2 * reg + half;
        }
    for (std::size_t i = 0; i < smem.size(); ++i)
      if (smem[i] != expected[i]) {
        report.disagreements.push_back(c.name + ": shared row " + std::to_string(i / 8) + " column " +
                                       std::to_string(i % 8) + ": hardware " + std::to_string(smem[i]) + ", model " +
                                       std::to_string(expected[i]));
        return;
      }
  }
}

// ---- mbarrier ----------------------------------------------------------------------
void replay_mbarrier_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wo = where_of(t, c, "observed");
  const json& script = c.params.at("script");
  const std::vector<int64_t> results = golden_int_array(c.observed, "results", wo, static_cast<long long>(script.size()));
  std::optional<model::Mbarrier> bar;
  std::vector<int64_t> token_phase;  // the phase number each kept token captured
  ++report.cases_checked;
  for (std::size_t s = 0; s < script.size(); ++s) {
    const std::string op = script[s].at(0).get<std::string>();
    const int64_t arg = script[s].at(1).get<int64_t>();
    const int64_t got = results[s];
    const std::string at = c.name + " step " + std::to_string(s) + " (" + op + " " + std::to_string(arg) + ")";
    try {
      if (op == "Init") {
        bar.emplace(static_cast<uint32_t>(arg));
        continue;
      }
      if (!bar) throw model::ModelError("script uses the barrier before Init");
      if (op == "Arrive") {
        token_phase.push_back(bar->completed_phases());
        bar->arrive(static_cast<uint32_t>(arg));
      } else if (op == "ArriveExpectTx") {
        token_phase.push_back(bar->completed_phases());
        bar->arrive_expect_tx(static_cast<uint32_t>(arg));
      } else if (op == "ExpectTx") {
        bar->expect_tx(static_cast<uint32_t>(arg));
      } else if (op == "CompleteTx" || op == "BulkCopy") {
        bar->complete_tx(static_cast<uint32_t>(arg));
      } else if (op == "TestWaitParity" || op == "TryWaitParity") {
        const uint32_t parity = static_cast<uint32_t>(arg) ^ (g_wrong_model == WrongModel::ParityInverted ? 1u : 0u);
        const int64_t want = bar->try_wait_parity(parity) ? 1 : 0;
        if (want != got)
          report.disagreements.push_back(at + ": hardware " + std::to_string(got) + ", model " + std::to_string(want) +
                                         " (model state " + bar->to_string() + ")");
      } else if (op == "TestWaitToken") {
        const int64_t phase = token_phase.at(static_cast<std::size_t>(arg));
        try {
          const int64_t want = bar->try_wait_phase(phase) ? 1 : 0;
          if (want != got)
            report.disagreements.push_back(at + ": hardware " + std::to_string(got) + ", model " +
                                           std::to_string(want));
        } catch (const model::ModelError& e) {
          report.notes.push_back(at + ": undefined in PTX (model: " + e.what() + "); hardware said " +
                                 std::to_string(got));
        }
      } else if (op == "PendingCount" || op == "CopyLanded") {
        report.notes.push_back(at + ": observed " + std::to_string(got));
      } else if (op == "Delay") {
      } else {
        report.disagreements.push_back(at + ": unknown script operation");
      }
    } catch (const model::ModelError& e) {
      report.disagreements.push_back(at + ": the model refuses a step the hardware ran: " + e.what());
      return;
    }
  }
}

// ---- banks_timing and banks_ncu ----------------------------------------------------
model::WarpAccess access_of(const GoldenTrace& t, const GoldenCase& c) {
  const std::string wp = where_of(t, c, "params");
  model::WarpAccess a;
  a.width_bytes = static_cast<int>(golden_int(c.params, "width_bytes", wp));
  const std::vector<int64_t> offsets = golden_int_array(c.params, "lane_offsets_bytes", wp, 32);
  for (int l = 0; l < 32; ++l) a.address[l] = static_cast<uint64_t>(offsets[l]);
  // "kind" is absent in the crafted load cases (recorded before stores were probed).
  const std::string kind = c.params.value("kind", std::string("load"));
  if (kind != "load" && kind != "store")
    throw GoldenError(wp + ".kind = \"" + kind + "\" must be \"load\" or \"store\"");
  a.kind = kind == "store" ? model::AccessKind::Store : model::AccessKind::Load;
  a.label = c.name;
  return a;
}

void replay_banks_timing(const GoldenTrace& t, ReplayReport& report) {
  std::vector<std::pair<std::string, std::pair<double, double>>> points;  // name -> (wavefronts, cycles)
  for (const GoldenCase& c : t.cases) {
    if (c.status != CaseStatus::Ok || c.params.value("mode", "timing") != "timing") continue;
    const int wavefronts = analyze_with_variant(access_of(t, c)).wavefronts;
    const double cycles = c.observed.at("w8").at("cycles_per_load").get<double>();
    points.push_back({c.name, {double(wavefronts), cycles}});
    ++report.cases_checked;
  }
  if (points.size() < 3) return;
  // Least-squares fit cycles = a + b * wavefronts.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto& [n, p] : points) {
    sx += p.first;
    sy += p.second;
    sxx += p.first * p.first;
    sxy += p.first * p.second;
  }
  const double n = double(points.size());
  const double den = n * sxx - sx * sx;
  if (den == 0) return;
  const double b = (n * sxy - sx * sy) / den, a = (sy - b * sx) / n;
  report.notes.push_back("banks fit (8 warps): cycles per load = " + std::to_string(a) + " + " + std::to_string(b) +
                         " * wavefronts");
  if (b <= 0) report.disagreements.push_back("banks: cycles do not grow with the model's wavefronts (slope <= 0)");
  for (auto& [name, p] : points) {
    const double predicted = a + b * p.first;
    if (std::abs(p.second - predicted) > 0.25 * std::max(predicted, b))
      report.disagreements.push_back("banks " + name + ": model " + std::to_string(int(p.first)) +
                                     " wavefronts, fit predicts " + std::to_string(predicted) + " cycles/load, measured " +
                                     std::to_string(p.second));
  }
  // Ranking: a pattern with at least twice the wavefronts of another must cost more.
  for (auto& [n1, p1] : points)
    for (auto& [n2, p2] : points)
      if (p1.first >= 2 * p2.first && !(p1.second > p2.second))
        report.disagreements.push_back("banks ranking: " + n1 + " (" + std::to_string(int(p1.first)) +
                                       " wavefronts) measured no slower than " + n2 + " (" +
                                       std::to_string(int(p2.first)) + ")");
}

void replay_banks_ncu_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wo = where_of(t, c, "observed");
  const model::WarpAccess access = access_of(t, c);
  const model::AccessCost cost = analyze_with_variant(access);
  const std::string kind(model::to_string(access.kind));  // "load" / "store"
  const int64_t instructions = golden_int(c.observed, kind + "_instructions", wo);
  const int64_t wavefronts = golden_int(c.observed, "wavefronts", wo);
  const int64_t conflicts = golden_int(c.observed, "bank_conflicts", wo);
  ++report.cases_checked;
  if (instructions <= 0) {
    report.disagreements.push_back(c.name + ": no " + kind + " instructions counted");
    return;
  }
  if (wavefronts != int64_t{cost.wavefronts} * instructions)
    report.disagreements.push_back(c.name + ": ncu wavefronts per " + kind + " " +
                                   std::to_string(double(wavefronts) / double(instructions)) + ", model " +
                                   std::to_string(cost.wavefronts));
  if (conflicts != int64_t{cost.conflicts()} * instructions)
    report.disagreements.push_back(c.name + ": ncu bank conflicts per " + kind + " " +
                                   std::to_string(double(conflicts) / double(instructions)) +
                                   ", model (wavefronts - ideal) " + std::to_string(cost.conflicts()));
}

// ---- wgmma_desc --------------------------------------------------------------------
void replay_wgmma_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wp = where_of(t, c, "params"), wo = where_of(t, c, "observed");
  const std::string hex = golden_string(c.observed, "descriptor", wo);
  const uint64_t bits = std::stoull(hex, nullptr, 16);
  const uint64_t region = static_cast<uint64_t>(golden_int(c.observed, "region_smem_address", wo));
  model::OperandExtent operand;
  operand.rows = static_cast<uint32_t>(golden_int(c.params, "rows", wp));
  operand.k_elems = static_cast<uint32_t>(golden_int(c.params, "k_elems", wp));
  operand.major = model::parse_operand_major(golden_string(c.params, "major", wp));
  operand.elem_bytes = static_cast<uint32_t>(golden_int(c.params, "elem_bytes", wp));
  const std::vector<int64_t> observed =
      golden_int_array(c.observed, "elem_offset_bytes", wo, static_cast<long long>(operand.rows) * operand.k_elems);
  ++report.cases_checked;
  try {
    model::SmemDescriptorSm90 desc = model::SmemDescriptorSm90::decode(bits);
    // The probe encodes the descriptor itself: the model's decode must read back its fields.
    const auto field_mismatch = [&](const char* name, int64_t model_value, int64_t param) {
      if (model_value != param)
        report.disagreements.push_back(c.name + ": descriptor " + hex + " decodes " + name + " = " +
                                       std::to_string(model_value) + ", the probe wrote " + std::to_string(param));
    };
    field_mismatch("lbo_bytes", desc.lbo_bytes, golden_int(c.params, "lbo_bytes", wp));
    field_mismatch("sbo_bytes", desc.sbo_bytes, golden_int(c.params, "sbo_bytes", wp));
    field_mismatch("base_offset", desc.base_offset, golden_int(c.params, "base_offset", wp));
    field_mismatch("start_address_bytes", desc.start_address_bytes,
                   static_cast<int64_t>((region + golden_int(c.params, "start_offset_bytes", wp)) & 0x3FFFF));
    if (std::string(model::to_string(desc.swizzle)) != golden_string(c.params, "swizzle", wp))
      report.disagreements.push_back(c.name + ": descriptor swizzle decodes as " +
                                     std::string(model::to_string(desc.swizzle)));
    if (g_wrong_model == WrongModel::DescriptorSwizzleOfAnotherMode) desc.swizzle = another_mode(desc.swizzle);
    for (uint32_t row = 0; row < operand.rows; ++row)
      for (uint32_t k = 0; k < operand.k_elems; ++k) {
        const int64_t want =
            static_cast<int64_t>(model::descriptor_element_address(desc, operand, row, k)) - static_cast<int64_t>(region);
        const int64_t got = observed[row * operand.k_elems + k];
        if (want != got) {
          report.disagreements.push_back(c.name + ": element (row " + std::to_string(row) + ", k " + std::to_string(k) +
                                         "): hardware read byte " + std::to_string(got) + " of the region, model " +
                                         std::to_string(want));
          return;
        }
      }
  } catch (const model::ModelError& e) {
    const std::string msg = c.name + ": the model refuses a descriptor the hardware ran: " + e.what();
    if (exploratory(c)) report.notes.push_back(msg);
    else report.disagreements.push_back(msg);
  }
}

// ---- cluster residency -------------------------------------------------------------
// The hardware side: the occupancy API's count of clusters all started at once, and
// one cluster more made at least one cluster wait (so the count is exact). The model
// side: tune::cluster_slots must equal that count for every
// cluster size a compiled k10 instance uses, and may only overstate it for others
// (noted: the host-side wave estimates of such an instance would be off).
void replay_cluster_residency_case(const GoldenTrace& t, const GoldenCase& c, ReplayReport& report) {
  const std::string wp = where_of(t, c, "params"), wo = where_of(t, c, "observed");
  const int64_t size = golden_int(c.params, "cluster_size", wp);
  const int64_t api = golden_int(c.observed, "api_clusters", wo);
  const int64_t late_at_api = golden_int(c.observed.at("at_api"), "late_ctas", wo + ".at_api");
  const int64_t late_one_more = golden_int(c.observed.at("one_more"), "late_ctas", wo + ".one_more");
  ++report.cases_checked;
  if (late_at_api != 0)
    report.disagreements.push_back(c.name + ": " + std::to_string(late_at_api) + " CTAs of the API's " +
                                   std::to_string(api) + " clusters did not start at once (the API overstates)");
  if (late_one_more < size)
    report.disagreements.push_back(c.name + ": " + std::to_string(api + 1) +
                                   " clusters all started at once (the API's count understates)");
  gemmscope::tune::KernelConfig config;  // cluster_slots reads only the cluster's size
  config.cluster_m = 1;
  config.cluster_n = static_cast<int>(
      g_wrong_model == WrongModel::ClusterSlotsOfHalfTheSize ? std::max<int64_t>(1, size / 2) : size);
  const int64_t slots = gemmscope::tune::cluster_slots(config, t.gpu.sm_count);
  const auto& instances = gemmscope::tune::compiled_instances();
  const bool compiled =
      std::any_of(instances.begin(), instances.end(), [&](const auto& k) { return k.cluster_size() == size; });
  const std::string counts = "tune::cluster_slots " + std::to_string(slots) + ", the hardware " + std::to_string(api);
  if (compiled ? slots != api : slots < api)
    report.disagreements.push_back(c.name + ": clusters of " + std::to_string(size) +
                                   (compiled ? " (a compiled k10 size): " : ": ") + counts);
  else if (slots != api)
    report.notes.push_back(c.name + ": clusters of " + std::to_string(size) + " (no compiled k10 instance): " + counts);
}

// ---- TMA load rate ------------------------------------------------------------------
// The hardware side: every stream completed (the ring's barriers, multicast to 2 and 4
// CTAs included, as k10 uses them). The model side: tune::modelled_sm_load_rate, the
// rate the cost model credits one SM's loads with at a stage size, must not exceed
// what one SM's TMA stream reached there with one producer thread, the ring as deep
// as it was (k10's producer), alone on the GPU, at the stage sizes where the model
// credits the full rate (tune::load_efficiency 1). Below them the model's share is
// fitted to GEMM times, not to the bare stream: those cases are notes.
void replay_tma_rate(const GoldenTrace& t, ReplayReport& report) {
  for (const GoldenCase& c : t.cases) {
    if (c.status != CaseStatus::Ok) {
      report.notes.push_back(t.probe + " case " + c.name + " failed on the hardware: " + c.error);
      continue;
    }
    const std::string wp = where_of(t, c, "params"), wo = where_of(t, c, "observed");
    ++report.cases_checked;
    if (const int64_t timeouts = golden_int(c.observed, "timeouts", wo); timeouts != 0) {
      report.disagreements.push_back(c.name + ": " + std::to_string(timeouts) + " CTAs timed out waiting on the ring");
      continue;
    }
    const bool alone = golden_int(c.params, "ctas", wp) == 1 && golden_int(c.params, "cluster", wp) == 1 &&
                       golden_int(c.params, "producers", wp) == 1 && golden_int(c.params, "boxes_per_stage", wp) == 1 &&
                       golden_string(c.params, "source", wp) == "l2";
    if (!alone) continue;
    const int64_t stage = golden_int(c.params, "stage_bytes", wp);
    const double measured = c.observed.at("per_cta_gbs_median").get<double>() * 1e9;
    double modelled = gemmscope::tune::modelled_sm_load_rate(stage);
    if (g_wrong_model == WrongModel::SmLoadRateDoubled) modelled *= 2;
    const std::string rates = "the model " + std::to_string(modelled / 1e9) + " GB/s, one SM's stream " +
                              std::to_string(measured / 1e9) + " GB/s at stages of " + std::to_string(stage) + " bytes";
    if (gemmscope::tune::load_efficiency(stage) >= 1 && modelled > measured)
      report.disagreements.push_back(c.name + ": " + rates);
    else
      report.notes.push_back(c.name + ": " + rates);
  }
}

// ---- dispatch ----------------------------------------------------------------------
ReplayReport replay(const GoldenTrace& t) {
  ReplayReport report;
  if (t.probe == "banks_timing") {
    replay_banks_timing(t, report);
    return report;
  }
  if (t.probe == "tma_rate") {
    replay_tma_rate(t, report);
    return report;
  }
  for (const GoldenCase& c : t.cases) {
    if (c.status == CaseStatus::Failed) {
      report.notes.push_back(t.probe + " case " + c.name + " failed on the hardware: " + c.error);
      continue;
    }
    try {
      if (t.probe == "tma_swizzle") replay_tma_case(t, c, report);
      else if (t.probe == "ldmatrix_stmatrix") replay_ldst_case(t, c, report);
      else if (t.probe == "mbarrier") replay_mbarrier_case(t, c, report);
      else if (t.probe == "wgmma_desc") replay_wgmma_case(t, c, report);
      else if (t.probe == "banks_ncu") replay_banks_ncu_case(t, c, report);
      else if (t.probe == "cluster_residency") replay_cluster_residency_case(t, c, report);
      else {
        report.disagreements.push_back("no replay for probe \"" + t.probe + "\"");
        return report;
      }
    } catch (const GoldenError& e) {
      report.disagreements.push_back(std::string("malformed observation: ") + e.what());
    } catch (const std::exception& e) {
      report.disagreements.push_back(t.probe + " case " + c.name + ": " + e.what());
    }
  }
  return report;
}

std::string joined(const std::vector<std::string>& lines, std::size_t limit = 40) {
  std::string out;
  for (std::size_t i = 0; i < lines.size() && i < limit; ++i) out += "  " + lines[i] + "\n";
  if (lines.size() > limit) out += "  ... and " + std::to_string(lines.size() - limit) + " more\n";
  return out;
}

// ---- a synthetic trace, worked by hand ---------------------------------------------
// One 128B-swizzled TMA box of 2 rows x 64 bf16 (128 bytes) at shared address 1024.
// Row 0 (bytes 1024..1151): (addr >> 7) & 7 = 0, no XOR: code c sits at halfword c.
// Row 1 (bytes 1152..1279): (addr >> 7) & 7 = 1, so 16-byte chunk j holds logical
// chunk j ^ 1: halfword 64 + 8j + e holds column 8(j ^ 1) + e, code 248 + that column.
// Then 32 halfwords of the 0xFFFF sentinel.
json synthetic_tma_trace() {
  std::vector<int> dump;
  for (int c = 0; c < 64; ++c) dump.push_back(c);
  for (int j = 0; j < 8; ++j)
    for (int e = 0; e < 8; ++e) dump.push_back(248 + 8 * (j ^ 1) + e);
  for (int i = 0; i < 32; ++i) dump.push_back(0xFFFF);
  return json{{"format", "gemmscope-golden-trace"},
              {"schema_version", 1},
              {"probe", "tma_swizzle"},
              {"description", "synthetic, worked by hand"},
              {"settles", json::array({"test only"})},
              {"gpu",
               {{"name", "synthetic"}, {"compute_capability", "9.0"}, {"compute_major", 9}, {"compute_minor", 0},
                {"driver_version", 12080}, {"runtime_version", 13000}, {"sm_count", 132}, {"clock_khz", 1980000}}},
              {"date", "2025-01-01T00:00:00Z"},
              {"commit", "synthetic"},
              {"case_count", 1},
              {"cases",
               json::array({{{"name", "swz128B_in128B_r2"},
                             {"status", "ok"},
                             {"params",
                              {{"swizzle", "128B"}, {"inner_bytes", 128}, {"inner_elems", 64}, {"rows", 2},
                               {"elem_bytes", 2}, {"dst_offset_bytes", 0}, {"coord_col", 0}, {"coord_row", 0},
                               {"global_cols", 248}, {"sentinel", 0xFFFF}, {"encode_only", false}}},
                             {"observed",
                              {{"region_smem_address", 1024}, {"dst_smem_address", 1024}, {"barrier_completed", true},
                               {"dump_bytes", 320}, {"smem_u16", dump}}}}})}};
}

std::string rejection_of(const json& doc) {
  try {
    gemmscope::traces::golden_from_json(doc, "bad.json");
  } catch (const GoldenError& e) {
    return e.what();
  }
  return "";
}

TEST(GoldenFormat, SyntheticTraceReplaysAndRoundTrips) {
  const GoldenTrace t = gemmscope::traces::golden_from_json(synthetic_tma_trace(), "synthetic.json");
  const ReplayReport report = replay(t);
  EXPECT_EQ(report.cases_checked, 1);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);

  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_golden_test";
  std::filesystem::remove_all(dir);
  const auto path = gemmscope::traces::write_golden(dir, t);
  EXPECT_EQ(path.filename(), "tma_swizzle.json");
  const GoldenTrace back = gemmscope::traces::read_golden(path);
  EXPECT_EQ(gemmscope::traces::to_json(back), gemmscope::traces::to_json(t));
  std::filesystem::remove_all(dir);
}

TEST(GoldenReplay, ReportsAnObservationTheModelDoesNotPredict) {
  json doc = synthetic_tma_trace();
  // Swap two halfwords of row 1 back into unswizzled order: the model must object.
  auto& dump = doc["cases"][0]["observed"]["smem_u16"];
  std::swap(dump[64], dump[72]);
  const ReplayReport report = replay(gemmscope::traces::golden_from_json(doc, "swapped.json"));
  ASSERT_EQ(report.disagreements.size(), 2u);  // the SmemTile view, then the TmaBox view
  EXPECT_NE(report.disagreements[0].find("2 of 160 shared-memory halfwords differ from SmemTile::address"),
            std::string::npos)
      << report.disagreements[0];
  EXPECT_NE(report.disagreements[1].find("2 of 160 shared-memory halfwords differ from TmaBox::address"),
            std::string::npos)
      << report.disagreements[1];
}

TEST(GoldenFormat, RejectsCorruptedTracesWithTheFieldAndRule) {
  json doc = synthetic_tma_trace();
  doc["cases"][0]["status"] = "maybe";
  EXPECT_EQ(rejection_of(doc), "bad.json: cases[0].status = \"maybe\" must be ok or failed");

  doc = synthetic_tma_trace();
  doc["schema_version"] = 7;
  EXPECT_EQ(rejection_of(doc), "bad.json: schema_version = 7 is not supported by this reader (1..3)");

  doc = synthetic_tma_trace();
  doc.erase("gpu");
  EXPECT_EQ(rejection_of(doc), "bad.json: gpu is missing");

  doc = synthetic_tma_trace();
  doc["cases"][0]["status"] = "failed";  // a failed case must say why
  EXPECT_EQ(rejection_of(doc), "bad.json: cases[0].error is missing");

  doc = synthetic_tma_trace();
  doc["case_count"] = 2;
  EXPECT_NE(rejection_of(doc).find("must equal the number of cases (1); the file is truncated or edited"),
            std::string::npos);

  doc = synthetic_tma_trace();
  doc["probe"] = "../escape";
  EXPECT_NE(rejection_of(doc).find("must be 1..64 of letters, digits"), std::string::npos);

  doc = synthetic_tma_trace();
  doc["date"] = "yesterday";
  EXPECT_NE(rejection_of(doc).find("must be UTC ISO 8601"), std::string::npos);

  // Well-formed document, malformed observation: the replay names the array and sizes.
  doc = synthetic_tma_trace();
  doc["cases"][0]["observed"]["smem_u16"].erase(0);
  const ReplayReport report = replay(gemmscope::traces::golden_from_json(doc, "short.json"));
  ASSERT_EQ(report.disagreements.size(), 1u);
  EXPECT_NE(report.disagreements[0].find("smem_u16 has 159 entries, expected 160"), std::string::npos)
      << report.disagreements[0];
}

TEST(GoldenFormat, RejectsATruncatedFile) {
  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_golden_truncated";
  std::filesystem::create_directories(dir);
  const auto path = dir / "tma_swizzle.json";
  const std::string text = synthetic_tma_trace().dump();
  std::ofstream(path) << text.substr(0, text.size() / 2);
  try {
    gemmscope::traces::read_golden(path);
    ADD_FAILURE() << "a truncated file was accepted";
  } catch (const GoldenError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("tma_swizzle.json: not valid JSON:", 0), 0u) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// Any trace the writer writes, the reader reads back unchanged.
RC_GTEST_PROP(GoldenFormat, WriteThenReadIsIdentity, ()) {
  GoldenTrace t = gemmscope::traces::golden_from_json(synthetic_tma_trace(), "synthetic.json");
  const int extra = *rc::gen::inRange(0, 5);
  for (int i = 0; i < extra; ++i) {
    GoldenCase c;
    c.name = "case" + std::to_string(i);
    if (*rc::gen::arbitrary<bool>()) {
      c.status = CaseStatus::Failed;
      c.error = "error " + std::to_string(*rc::gen::inRange(0, 1000));
    } else {
      c.observed["values"] = *rc::gen::container<std::vector<int>>(rc::gen::inRange(-70000, 70000));
      c.observed["flag"] = *rc::gen::arbitrary<bool>();
    }
    c.params["n"] = *rc::gen::inRange(0, 1 << 20);
    t.cases.push_back(c);
  }
  const auto dir = std::filesystem::temp_directory_path() / "gemmscope_golden_rc";
  const auto path = gemmscope::traces::write_golden(dir, t);
  const GoldenTrace back = gemmscope::traces::read_golden(path);
  RC_ASSERT(gemmscope::traces::to_json(back) == gemmscope::traces::to_json(t));
}

// ---- synthetic traces of the other probes, worked from the PTX ISA text ----------
json synthetic_trace(const std::string& probe, json cases) {
  json doc = synthetic_tma_trace();
  doc["probe"] = probe;
  doc["case_count"] = cases.size();
  doc["cases"] = std::move(cases);
  return doc;
}

ReplayReport replay_json(const json& doc) { return replay(gemmscope::traces::golden_from_json(doc, "synthetic.json")); }

std::vector<int> lane_rows() {
  std::vector<int> rows;
  for (int l = 0; l < 32; ++l) rows.push_back((13 * l + 5) % 64);
  return rows;
}

json ldmatrix_params(int count, bool trans) {
  return {{"matrices", count}, {"trans", trans}, {"row_bytes", 16}, {"smem_rows", 64}, {"row_of_lane", lane_rows()},
          {"store_code_base", 0x1000}, {"sentinel", 0xFFFF}};
}

// PTX ISA "ldmatrix": thread t, register i = matrix i, row t/4, columns 2(t%4), +1;
// .trans: column t/4 of rows 2(t%4), +1. Matrix i row r comes from lane 8i + r.
json synthetic_ldmatrix_cases() {
  const std::vector<int> rows = lane_rows();
  std::vector<int64_t> x4, x2t;
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < 4; ++i) {
      const int64_t lo = rows[8 * i + t / 4] * 8 + 2 * (t % 4);
      x4.push_back(lo | ((lo + 1) << 16));
    }
  for (int t = 0; t < 32; ++t)
    for (int i = 0; i < 2; ++i) {
      const int64_t lo = rows[8 * i + 2 * (t % 4)] * 8 + t / 4, hi = rows[8 * i + 2 * (t % 4) + 1] * 8 + t / 4;
      x2t.push_back(lo | (hi << 16));
    }
  // stmatrix .x1: row r of matrix 0 (at shared row rows[r]), column c holds thread
  // 4r + c/2, register 0, half c%2: code 0x1000 + 8(4r + c/2) + c%2.
  std::vector<int> st(64 * 8, 0xFFFF);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) st[rows[r] * 8 + c] = 0x1000 + 8 * (4 * r + c / 2) + c % 2;
  return json::array({{{"name", "ldmatrix.x4"}, {"status", "ok"}, {"params", ldmatrix_params(4, false)},
                       {"observed", {{"regs", x4}}}},
                      {{"name", "ldmatrix.x2.trans"}, {"status", "ok"}, {"params", ldmatrix_params(2, true)},
                       {"observed", {{"regs", x2t}}}},
                      {{"name", "stmatrix.x1"}, {"status", "ok"}, {"params", ldmatrix_params(1, false)},
                       {"observed", {{"smem_u16", st}}}}});
}

TEST(GoldenReplay, SyntheticLdmatrixStmatrixTraceReplays) {
  json doc = synthetic_trace("ldmatrix_stmatrix", synthetic_ldmatrix_cases());
  ReplayReport report = replay_json(doc);
  EXPECT_EQ(report.cases_checked, 3);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  // Thread 5 register 1 receiving the other half's columns must be caught.
  auto& regs = doc["cases"][0]["observed"]["regs"];
  regs[5 * 4 + 1] = regs[5 * 4 + 1].get<int64_t>() ^ 0x00020002;
  report = replay_json(doc);
  ASSERT_EQ(report.disagreements.size(), 1u);
  EXPECT_NE(report.disagreements[0].find("thread 5 register 1"), std::string::npos) << report.disagreements[0];
}

// Hand-worked: two arrivals per phase; test_wait.parity(P) is true when P is the
// parity of the phase just completed (PTX ISA mbarrier; docs/hardware.md#mbarrier-parity-wait).
json synthetic_mbarrier_cases(int64_t step6_result) {
  const json flips = json::array({{"Init", 2}, {"TestWaitParity", 0}, {"TestWaitParity", 1}, {"Arrive", 1},
                                  {"TestWaitParity", 0}, {"Arrive", 1}, {"TestWaitParity", 0}, {"TestWaitParity", 1},
                                  {"Arrive", 1}, {"TestWaitParity", 1}, {"Arrive", 1}, {"TestWaitParity", 1},
                                  {"TestWaitParity", 0}, {"Arrive", 2}, {"TestWaitParity", 0}, {"TestWaitParity", 1},
                                  {"TryWaitParity", 0}});
  const std::vector<int64_t> flips_results = {-1, 0, 1, -1, 0, -1, step6_result, 0, -1, 0, -1, 1, 0, -1, 1, 0, 1};
  // Negative tx-count: complete_tx(256) before arrive.expect_tx(256) completes the phase.
  const json early = json::array({{"Init", 1}, {"CompleteTx", 256}, {"TestWaitParity", 0}, {"ArriveExpectTx", 256},
                                  {"TestWaitParity", 0}, {"TestWaitParity", 1}});
  // Tokens: three one-arrival phases; token 2 (the preceding phase) is complete,
  // tokens 1 and 0 are two and three phases old (undefined: noted, not compared).
  const json tokens = json::array({{"Init", 1}, {"Arrive", 1}, {"Arrive", 1}, {"Arrive", 1}, {"TestWaitToken", 2},
                                   {"TestWaitToken", 1}, {"TestWaitToken", 0}, {"TestWaitParity", 0},
                                   {"TestWaitParity", 1}});
  return json::array(
      {{{"name", "parity_flips"}, {"status", "ok"}, {"params", {{"script", flips}}},
        {"observed", {{"results", flips_results}}}},
       {{"name", "tx_complete_before_expect"}, {"status", "ok"}, {"params", {{"script", early}}},
        {"observed", {{"results", {-1, -1, 0, -1, 1, 0}}}}},
       {{"name", "old_phase_tokens"}, {"status", "ok"}, {"params", {{"script", tokens}}},
        {"observed", {{"results", {-1, -1, -1, -1, 1, 1, 0, 1, 0}}}}}});
}

TEST(GoldenReplay, SyntheticMbarrierTraceReplays) {
  ReplayReport report = replay_json(synthetic_trace("mbarrier", synthetic_mbarrier_cases(1)));
  EXPECT_EQ(report.cases_checked, 3);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  EXPECT_EQ(report.notes.size(), 2u) << joined(report.notes);  // the two over-old tokens
  report = replay_json(synthetic_trace("mbarrier", synthetic_mbarrier_cases(0)));
  ASSERT_EQ(report.disagreements.size(), 1u);
  EXPECT_NE(report.disagreements[0].find("parity_flips step 6 (TestWaitParity 0): hardware 0, model 1"),
            std::string::npos)
      << report.disagreements[0];
}

// Hand-worked wgmma descriptor: operand A, K-major, no swizzle, LBO 128, SBO 256,
// region at shared address 1024. Fields: start 1024 >> 4 = 0x40, LBO 128 >> 4 = 8 at
// bit 16, SBO 256 >> 4 = 16 at bit 32: 0x0000001000080040. PTX ISA canonical K-major
// layout: (row, k) at (row % 8) * 16 + (k % 8) * 2 + (k / 8) * LBO + (row / 8) * SBO.
json synthetic_wgmma_cases() {
  std::vector<int64_t> offsets;
  for (int row = 0; row < 64; ++row)
    for (int k = 0; k < 16; ++k) offsets.push_back((row % 8) * 16 + (k % 8) * 2 + (k / 8) * 128 + (row / 8) * 256);
  return json::array({{{"name", "A_k_none_lbo128_sbo256"},
                       {"status", "ok"},
                       {"params",
                        {{"operand", "A"}, {"major", "K"}, {"rows", 64}, {"k_elems", 16}, {"elem_bytes", 2},
                         {"swizzle", "none"}, {"start_offset_bytes", 0}, {"lbo_bytes", 128}, {"sbo_bytes", 256},
                         {"base_offset", 0}, {"exploratory", false}}},
                       {"observed",
                        {{"region_smem_address", 1024}, {"descriptor", "0x0000001000080040"},
                         {"elem_offset_bytes", offsets}}}}});
}

TEST(GoldenReplay, SyntheticWgmmaDescriptorTraceReplays) {
  json doc = synthetic_trace("wgmma_desc", synthetic_wgmma_cases());
  ReplayReport report = replay_json(doc);
  EXPECT_EQ(report.cases_checked, 1);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  // The hardware reading (row 9, k 8) from where the model puts (row 9, k 0).
  doc["cases"][0]["observed"]["elem_offset_bytes"][9 * 16 + 8] = 16 + 256;
  report = replay_json(doc);
  ASSERT_EQ(report.disagreements.size(), 1u);
  EXPECT_NE(report.disagreements[0].find("(row 9, k 8): hardware read byte 272 of the region, model 400"),
            std::string::npos)
      << report.disagreements[0];
}

// Hand-worked wavefronts (docs/hardware.md#banks-wavefronts): 4-byte linear 1, stride 8 B
// 2-way, stride 128 B 32-way, 8-byte linear two phases of one wavefront: 1, 2, 32, 2.
json synthetic_banks_cases(double stride128_cycles) {
  const auto offsets = [](int stride) {
    std::vector<int> v;
    for (int l = 0; l < 32; ++l) v.push_back(stride * l);
    return v;
  };
  const auto make = [](const std::string& name, int width, std::vector<int> offs, double cycles) {
    return json{{"name", name},
                {"status", "ok"},
                {"params", {{"width_bytes", width}, {"lane_offsets_bytes", offs}, {"mode", "timing"}}},
                {"observed", {{"w8", {{"cycles_per_load", cycles}}}}}};
  };
  return json::array({make("w4_linear", 4, offsets(4), 1.1), make("w4_stride2", 4, offsets(8), 2.0),
                      make("w4_stride32", 4, offsets(128), stride128_cycles), make("w8_linear", 8, offsets(8), 2.1)});
}

TEST(GoldenReplay, SyntheticBankTimingTraceReplays) {
  ReplayReport report = replay_json(synthetic_trace("banks_timing", synthetic_banks_cases(31.5)));
  EXPECT_EQ(report.cases_checked, 4);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements) << joined(report.notes);
  // A 32-way conflict measured as cheap as a 2-way one: the fit and the ranking object.
  report = replay_json(synthetic_trace("banks_timing", synthetic_banks_cases(2.0)));
  EXPECT_FALSE(report.disagreements.empty());
}

// banks_ncu store cases: params "kind": "store", observed "store_instructions". The
// expected counts are hand-worked from the rule as written (docs/hardware.md#smem-banks,
// #banks-wavefronts): a 4-byte access with a stride of two words puts two distinct
// words in each of 16 banks, 2 wavefronts, 1 of them a conflict; 64 instructions.
json synthetic_banks_ncu_cases() {
  std::vector<int> stride2;
  for (int l = 0; l < 32; ++l) stride2.push_back(8 * l);
  const auto make = [&](const std::string& name, const std::string& kind, const std::string& count_key) {
    return json{{"name", name},
                {"status", "ok"},
                {"params", {{"width_bytes", 4}, {"lane_offsets_bytes", stride2}, {"mode", "ncu"}, {"kind", kind}}},
                {"observed", {{count_key, 64}, {"wavefronts", 128}, {"bank_conflicts", 64}}}};
  };
  return json::array({make("ld_w4_stride2", "load", "load_instructions"),
                      make("st_w4_stride2", "store", "store_instructions")});
}

TEST(GoldenReplay, SyntheticBankNcuTraceReplaysLoadsAndStores) {
  json doc = synthetic_trace("banks_ncu", synthetic_banks_ncu_cases());
  ReplayReport report = replay_json(doc);
  EXPECT_EQ(report.cases_checked, 2);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  // The store counted as 1 wavefront per instruction: the replay names the store.
  doc["cases"][1]["observed"]["wavefronts"] = 64;
  report = replay_json(doc);
  ASSERT_EQ(report.disagreements.size(), 1u) << joined(report.disagreements);
  EXPECT_NE(report.disagreements[0].find("st_w4_stride2: ncu wavefronts per store 1.0"), std::string::npos)
      << report.disagreements[0];
  // A store case carrying only a load count is malformed: it names the missing key.
  doc = synthetic_trace("banks_ncu", synthetic_banks_ncu_cases());
  doc["cases"][1]["observed"].erase("store_instructions");
  doc["cases"][1]["observed"]["load_instructions"] = 64;
  report = replay_json(doc);
  ASSERT_EQ(report.disagreements.size(), 1u) << joined(report.disagreements);
  EXPECT_NE(report.disagreements[0].find("store_instructions"), std::string::npos) << report.disagreements[0];
  // An unknown kind is refused by name.
  doc = synthetic_trace("banks_ncu", synthetic_banks_ncu_cases());
  doc["cases"][0]["params"]["kind"] = "atomic";
  report = replay_json(doc);
  ASSERT_EQ(report.disagreements.size(), 1u) << joined(report.disagreements);
  EXPECT_NE(report.disagreements[0].find("kind = \"atomic\" must be \"load\" or \"store\""), std::string::npos)
      << report.disagreements[0];
}

// The real thing: every golden trace recorded on the H200.
TEST(GoldenReplay, HardwareTracesAgreeWithTheModel) {
  const std::filesystem::path dir = std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw";
  const auto files = gemmscope::traces::list_golden_files(dir);
  if (files.empty())
    GTEST_SKIP() << "no golden traces in " << dir.string()
                 << " yet: run `gemmscope probe --all --out traces/hw` on the H200 (traces/hw/README.md)";
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    GoldenTrace t;
    try {
      t = gemmscope::traces::read_golden(path);
    } catch (const GoldenError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(t.gpu.compute_major, 9) << t.probe << " was recorded on " << t.gpu.name << ", not an sm_90 GPU";
    const ReplayReport report = replay(t);
    std::printf("%s: %d cases checked, %zu failed on the hardware, %zu disagreements\n%s", t.probe.c_str(),
                report.cases_checked, t.failed_cases(), report.disagreements.size(), joined(report.notes, 12).c_str());
    EXPECT_GT(report.cases_checked, 0) << t.probe << ": nothing to replay";
    EXPECT_TRUE(report.disagreements.empty()) << t.probe << " disagrees with the model:\n"
                                              << joined(report.disagreements);
  }
}

// The boxes the H200 landed inside their swizzle pattern (destination 128, 256 or 512
// bytes past a 256/512/1024-byte boundary, swz*_off128..off512): the SmemTile the bank
// analyses use must accept each and put every element where the hardware did.
TEST(GoldenReplay, SmemTileAtMidPatternBasesMatchesTheHardware) {
  const auto path = std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw" / "tma_swizzle.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path.string();
  GoldenTrace t = gemmscope::traces::read_golden(path);
  // The pattern periods, 2^(B+M+S) of <1,4,3>, <2,4,3>, <3,4,3>.
  const std::map<std::string, int64_t> period = {{"32B", 256}, {"64B", 512}, {"128B", 1024}};
  std::vector<GoldenCase> mid_pattern;
  std::map<int64_t, int> offsets;  // bytes past the pattern boundary -> cases
  for (const GoldenCase& c : t.cases) {
    if (c.status != CaseStatus::Ok || c.params.value("encode_only", false)) continue;
    const auto p = period.find(c.params.value("swizzle", ""));
    if (p == period.end()) continue;
    const int64_t offset = c.observed.at("dst_smem_address").get<int64_t>() % p->second;
    if (offset == 0) continue;
    mid_pattern.push_back(c);
    ++offsets[offset];
  }
  // The probe lands boxes at each offset inside a pattern: 32B +128; 64B +128, +256;
  // 128B +128, +256, +512.
  for (const int64_t offset : {128, 256, 512}) EXPECT_GT(offsets[offset], 0) << "no case at +" << offset;
  t.cases = mid_pattern;
  const ReplayReport report = replay(t);
  EXPECT_EQ(report.cases_checked, static_cast<int>(mid_pattern.size()));
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
}

// Hand-worked against 132 SMs: clusters of 2 fit 66 (a compiled size: must be exact);
// clusters of 4 fit 30 in the model, here 28 (no compiled instance: a note).
json cluster_case(const char* name, int size, int api, int late_at_api, int late_one_more) {
  return {{"name", name},
          {"status", "ok"},
          {"params", {{"cluster_size", size}, {"threads", 384}, {"smem_bytes", 204800}}},
          {"observed",
           {{"api_clusters", api},
            {"at_api", {{"ctas", api * size}, {"late_ctas", late_at_api}, {"sms_used", api * size}}},
            {"one_more", {{"ctas", (api + 1) * size}, {"late_ctas", late_one_more}, {"sms_used", api * size}}}}}};
}

TEST(GoldenReplay, SyntheticClusterResidencyTraceReplays) {
  ReplayReport report = replay_json(synthetic_trace(
      "cluster_residency", json::array({cluster_case("c2", 2, 66, 0, 2), cluster_case("c4", 4, 28, 0, 4)})));
  EXPECT_EQ(report.cases_checked, 2);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("tune::cluster_slots 30, the hardware 28"), std::string::npos) << report.notes[0];
  // A compiled size the model overstates; an API count that overstates; one that understates.
  for (const json& bad : {cluster_case("c2", 2, 64, 0, 2), cluster_case("c2", 2, 66, 2, 2),
                          cluster_case("c2", 2, 66, 0, 0)}) {
    report = replay_json(synthetic_trace("cluster_residency", json::array({bad})));
    EXPECT_EQ(report.disagreements.size(), 1u) << bad.dump() << "\n" << joined(report.disagreements);
  }
  // A cluster size the model understates fails even where nothing is compiled.
  report = replay_json(synthetic_trace("cluster_residency", json::array({cluster_case("c4", 4, 31, 0, 4)})));
  EXPECT_EQ(report.disagreements.size(), 1u) << joined(report.disagreements);
}

// One SM's stream alone at stages of 32 KiB: the model's rate there against 1.5 times
// it (agrees) and 0.75 times it (the model credits more than the stream reached).
json rate_case(const char* name, double gbs, int timeouts) {
  return {{"name", name},
          {"status", "ok"},
          {"params",
           {{"ctas", 1}, {"cluster", 1}, {"producers", 1}, {"boxes_per_stage", 1}, {"source", "l2"},
            {"stage_bytes", 32768}, {"stages", 6}}},
          {"observed", {{"timeouts", timeouts}, {"per_cta_gbs_median", gbs}}}};
}

TEST(GoldenReplay, SyntheticTmaRateTraceReplays) {
  const double modelled = gemmscope::tune::modelled_sm_load_rate(32768) / 1e9;
  ReplayReport report = replay_json(synthetic_trace("tma_rate", json::array({rate_case("fast", 1.5 * modelled, 0)})));
  EXPECT_EQ(report.cases_checked, 1);
  EXPECT_TRUE(report.disagreements.empty()) << joined(report.disagreements);
  for (const json& bad : {rate_case("slow", 0.75 * modelled, 0), rate_case("hung", 1.5 * modelled, 1)}) {
    report = replay_json(synthetic_trace("tma_rate", json::array({bad})));
    EXPECT_EQ(report.disagreements.size(), 1u) << bad.dump() << "\n" << joined(report.disagreements);
  }
}

// Each probe family's negative control: the hardware traces must disagree with a
// deliberately wrong model (and agree again without it, which the test above shows).
TEST(GoldenReplay, NegativeControlsFailOnTheHardwareTraces) {
  const std::filesystem::path dir = std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw";
  const std::pair<const char*, WrongModel> controls[] = {
      {"tma_swizzle", WrongModel::SwizzleOfAnotherMode},   {"ldmatrix_stmatrix", WrongModel::TransposeFlipped},
      {"mbarrier", WrongModel::ParityInverted},             {"banks_ncu", WrongModel::OldPhaseRule},
      {"banks_timing", WrongModel::OldPhaseRule},           {"wgmma_desc", WrongModel::DescriptorSwizzleOfAnotherMode},
      {"cluster_residency", WrongModel::ClusterSlotsOfHalfTheSize}, {"tma_rate", WrongModel::SmLoadRateDoubled}};
  int checked = 0;
  for (const auto& [probe, variant] : controls) {
    const auto path = dir / (std::string(probe) + ".json");
    if (!std::filesystem::exists(path)) continue;
    const GoldenTrace t = gemmscope::traces::read_golden(path);
    g_wrong_model = variant;
    const ReplayReport wrong = replay(t);
    g_wrong_model = WrongModel::None;
    EXPECT_FALSE(wrong.disagreements.empty()) << probe << ": a wrong model still agrees with the hardware";
    std::printf("negative control %s: %zu disagreements (first: %s)\n", probe, wrong.disagreements.size(),
                wrong.disagreements.empty() ? "-" : wrong.disagreements.front().c_str());
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no golden traces in " << dir.string();
}

// The previous default phase rule (a 256-byte phase only for a uniform access, loads
// and stores alike) against the banks_ncu trace: of its 388 cases it must get the
// wavefronts of exactly 25 wrong, and the wavefronts or the conflicts of 36
// (docs/hardware.md#banks-repeats-across-phases: the uniform 8/16-byte stores, which
// the H200 does not merge, and the 8/16-byte loads whose lanes l and l ^ 2 share an
// address without the whole warp sharing one).
TEST(GoldenReplay, UniformOnlyPhaseRuleMissesTwentyFiveBankCases) {
  const auto path = std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw" / "banks_ncu.json";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path.string();
  const GoldenTrace t = gemmscope::traces::read_golden(path);
  const ReplayReport right = replay(t);
  EXPECT_EQ(right.cases_checked, 388);
  EXPECT_TRUE(right.disagreements.empty()) << joined(right.disagreements);
  g_wrong_model = WrongModel::UniformOnlyPhaseRule;
  const ReplayReport wrong = replay(t);
  g_wrong_model = WrongModel::None;
  std::set<std::string> wrong_cases, wrong_wavefronts;  // a disagreement starts with "<case name>: "
  for (const std::string& d : wrong.disagreements) {
    const std::string name = d.substr(0, d.find(':'));
    wrong_cases.insert(name);
    if (d.find(": ncu wavefronts per ") != std::string::npos) wrong_wavefronts.insert(name);
  }
  EXPECT_EQ(wrong.cases_checked, 388);
  EXPECT_EQ(wrong_wavefronts.size(), 25u) << joined(wrong.disagreements, 80);
  EXPECT_EQ(wrong_cases.size(), 36u) << joined(wrong.disagreements, 80);
  for (const char* name : {"st_w8_k1_same_uniform", "st_w16_k1_same_uniform", "ld_w8_k2_diff_roundrobin",
                           "ld_w16_k2_same_roundrobin", "ld_w16_k8_mixed_blocked"})
    EXPECT_EQ(wrong_wavefronts.count(name), 1u) << name;
}

}  // namespace
