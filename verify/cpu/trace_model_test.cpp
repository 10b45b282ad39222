// The model's traces of the ladder kernels k02-k04: hand-worked addresses from the
// kernels' layouts (kernels/sm90/*.cu comments and docs/hardware.md#ldmatrix-lanes, #swizzle-modes), counts, coverage,
// the bank claims; the GPU-buffer decoder; and, where available, the kernels' own
// address code run on the host and a trace recorded on the H200 (traces/hw/).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/device_decode.hpp"
#include "gemmscope/traces/device_record.hpp"
#include "gemmscope/traces/model_traces.hpp"

#if __has_include("common/sm90_address.hpp")
#include "common/sm90_address.hpp"
#define GEMMSCOPE_HAVE_KERNEL_ADDRESS_CODE 1
#endif

namespace traces = gemmscope::traces;
namespace model = gemmscope::model;

namespace {

std::vector<traces::TraceRecord> of_stage(const traces::Trace& t, traces::Stage s) {
  std::vector<traces::TraceRecord> out;
  for (const auto& r : t.records)
    if (r.stage == s) out.push_back(r);
  return out;
}

}  // namespace

TEST(ModelTrace, RecordCounts) {
  // Per K block: TMA writes of two 128 x 128-byte operand tiles in 16-byte chunks,
  // 32 chunks a record: 2 * 1024 / 32 = 64; wgmma reads: 4 K steps x 2 M halves x
  // (A: 64 rows -> 4 records of 16 rows; B: 128 rows -> 8) = 96.
  // k04 adds 4 warps x 2 x 8 stmatrix.x4 = 64 and the store's 2 * 1024 / 32 = 64 chunk reads.
  EXPECT_EQ(traces::model_trace({"k02"}).records.size(), 160u);
  EXPECT_EQ(traces::model_trace({"k03"}).records.size(), 160u);
  EXPECT_EQ(traces::model_trace({"k04"}).records.size(), 288u);
  traces::LadderTraceConfig c{"k03"};
  c.k_blocks = 3;
  EXPECT_EQ(traces::model_trace(c).records.size(), 480u);
  EXPECT_THROW(traces::model_trace({"k01"}), traces::TraceError);
  c.kernel = "k04";
  c.smem_base = 512;  // not 1024-aligned
  EXPECT_THROW(traces::model_trace(c), model::ModelError);
}

TEST(ModelTrace, K02InterleavedCoreMatrixReads) {
  // k02: core matrix (row group g, K chunk c) at c * 128 rows * 16 B + g * 128 (the
  // kernel's comment); row r of it 16 bytes further per row.
  const auto reads = of_stage(traces::model_trace({"k02"}), traces::Stage::WgmmaOperandRead);
  ASSERT_EQ(reads.size(), 96u);
  const auto& a = reads[0].access;  // kk 0, mi 0, A rows 0-15, K bytes 0-31
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(a.address[r], uint64_t(16 * r));                  // matrix 0: g 0, chunk 0
    EXPECT_EQ(a.address[8 + r], uint64_t(128 + 16 * r));        // matrix 1: g 1, chunk 0
    EXPECT_EQ(a.address[16 + r], uint64_t(2048 + 16 * r));      // matrix 2: g 0, chunk 1
    EXPECT_EQ(a.address[24 + r], uint64_t(2048 + 128 + 16 * r)); // matrix 3: g 1, chunk 1
  }
  // The first B read of the same step: B tile at +16384, rows 0-15.
  const auto& b = reads[4].access;
  EXPECT_EQ(b.address[0], 16384u);
  EXPECT_EQ(b.address[31], uint64_t(16384 + 2048 + 128 + 16 * 7));
}

TEST(ModelTrace, K03SwizzledCoreMatrixReads) {
  // 128B swizzle: row r, chunk j at r * 128 + (j ^ r % 8) * 16.
  const auto reads = of_stage(traces::model_trace({"k03"}), traces::Stage::WgmmaOperandRead);
  const auto& a = reads[0].access;
  for (int r = 0; r < 8; ++r) {
    EXPECT_EQ(a.address[r], uint64_t(r * 128 + (0 ^ r) * 16));
    EXPECT_EQ(a.address[8 + r], uint64_t((8 + r) * 128 + (0 ^ r) * 16));
    EXPECT_EQ(a.address[16 + r], uint64_t(r * 128 + (1 ^ r) * 16));
  }
  // Step kk = 16 (K bytes 32-63, chunks 2 and 3), after 12 reads (A 4 + B 8) for each of mi 0, 1 at kk 0.
  const auto& later = reads[24].access;  // kk 16, mi 0, A rows 0-15
  EXPECT_EQ(later.address[3], uint64_t(3 * 128 + (2 ^ 3) * 16));
  EXPECT_EQ(later.address[19], uint64_t(3 * 128 + (3 ^ 3) * 16));
}

TEST(ModelTrace, K04StmatrixHandWorked) {
  // stmatrix.x4 p: lane l gives row (l/8 & 1) * 8 + l % 8 of the warp's 16-row slab,
  // columns 8 (2p + l/16); the staging halves hold 64 columns each, 128B swizzled.
  const uint64_t base = 5 * 1024;
  const auto w0 = traces::k04_stmatrix_records(base, 0, 0);
  ASSERT_EQ(w0.size(), 16u);
  const auto& a = w0[0].access;  // mi 0, p 0
  EXPECT_EQ(a.address[0], base + 0);
  EXPECT_EQ(a.address[1], base + 128 + (0 ^ 1) * 16);
  EXPECT_EQ(a.address[8], base + 8 * 128);
  EXPECT_EQ(a.address[9], base + 9 * 128 + (0 ^ 1) * 16);
  EXPECT_EQ(a.address[16], base + (1 ^ 0) * 16);
  EXPECT_EQ(a.address[31], base + 15 * 128 + (1 ^ 7) * 16);
  // Warp 1, mi 1, p 4: rows 64 + 16 + ..., columns 64.. -> the second half (+16384).
  const auto w1 = traces::k04_stmatrix_records(base, 0, 1);
  const auto& b = w1[8 + 4].access;
  EXPECT_EQ(b.address[0], base + 16384 + 80 * 128 + (0 ^ (80 % 8)) * 16);
  EXPECT_EQ(b.address[27], base + 16384 + 91 * 128 + (1 ^ (91 % 8)) * 16);
}

TEST(ModelTrace, K04StmatrixCoversTheStagingTileOnce) {
  // 4 warps x 16 instructions x 32 rows of 16 bytes = the 128 x 128 bf16 tile (32 KiB).
  std::set<uint64_t> rows;
  for (uint32_t w = 0; w < 4; ++w)
    for (const auto& r : traces::k04_stmatrix_records(0, 0, w))
      for (int l = 0; l < 32; ++l) {
        EXPECT_TRUE(rows.insert(r.access.address[l]).second) << "written twice: " << r.access.address[l];
        EXPECT_EQ(r.access.address[l] % 16, 0u);
        EXPECT_LT(r.access.address[l], 32768u);
      }
  EXPECT_EQ(rows.size(), 2048u);
}

TEST(ModelTrace, BankClaims) {
  // The ladder's layouts are free of bank conflicts in every stage (the design's
  // claim: interleaved core matrices are 128 contiguous bytes; the 128B swizzle puts
  // the 8 rows of a core matrix on 8 different chunks).
  for (const char* k : {"k02", "k03", "k04"}) {
    const traces::TraceAnalysis a = traces::analyze_trace(traces::model_trace({k}));
    EXPECT_EQ(a.total.conflicts(), 0) << k;
  }
  // The Kernel 3 contrast: ldmatrix.x4 over a 64x64 bf16 tile with 128-byte rows.
  // Unswizzled: each phase's 8 rows share one 16-byte column: 8 wavefronts per phase,
  // 16 instructions x 4 phases -> 512 where 64 would do. 128B swizzle: 64.
  const auto plain = traces::analyze_trace(traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::None, 0));
  const auto swizzled =
      traces::analyze_trace(traces::pattern_trace("ldmatrix-x4-k-major-64x64", model::SwizzleMode::B128, 0));
  EXPECT_EQ(plain.total.wavefronts, 512);
  EXPECT_EQ(plain.total.ideal, 64);
  EXPECT_EQ(swizzled.total.wavefronts, 64);
}

RC_GTEST_PROP(ModelTrace, AddressesMoveWithTheBase, ()) {
  // The layout is position independent: a base shifted by a multiple of 1024 shifts
  // every address by the same amount.
  const std::string kernel = *rc::gen::element(std::string("k02"), std::string("k03"), std::string("k04"));
  const uint64_t shift = uint64_t{*rc::gen::inRange<uint32_t>(1, 200)} * 1024;
  traces::LadderTraceConfig c{kernel};
  const traces::Trace a = traces::model_trace(c);
  c.smem_base = shift;
  const traces::Trace b = traces::model_trace(c);
  RC_ASSERT(a.records.size() == b.records.size());
  for (size_t i = 0; i < a.records.size(); ++i)
    for (int l = 0; l < 32; ++l)
      if (a.records[i].access.active(l))
        RC_ASSERT(b.records[i].access.address[l] == a.records[i].access.address[l] + shift);
}

// -------------------------------------------------------------------- GPU buffers

namespace {

namespace dr = traces::device_record;

void put_record(std::vector<uint32_t>& words, uint32_t cta, uint32_t warp, uint32_t base, uint32_t first_address) {
  const size_t at = words.size();
  words.resize(at + dr::kWordsPerRecord, 0);
  uint32_t* w = words.data() + at;
  w[dr::kWordMagic] = dr::kMagic;
  w[dr::kWordStage] = dr::kStageStmatrix;
  w[dr::kWordCta] = cta;
  w[dr::kWordWarp] = warp;
  w[dr::kWordWidthKind] = 16 | (1u << 8);
  w[dr::kWordActiveMask] = 0xFFFFFFFFu;
  w[dr::kWordRegionBase] = base;
  for (uint32_t l = 0; l < 32; ++l) w[dr::kWordFirstAddress + l] = first_address + 16 * l;
}

}  // namespace

TEST(DeviceDecode, SortsByCtaWarpThenIssueOrder) {
  std::vector<uint32_t> words;
  put_record(words, 1, 0, 2048, 0);      // slot 0
  put_record(words, 0, 3, 2048, 512);    // slot 1
  put_record(words, 0, 3, 2048, 1024);   // slot 2: after slot 1 in warp 3's order
  put_record(words, 0, 1, 2048, 4096);   // slot 3
  words.resize(words.size() + dr::kWordsPerRecord, 0);  // one unused slot
  const traces::Trace t = traces::decode_device_records(words, 4, "k04");
  ASSERT_EQ(t.records.size(), 4u);
  EXPECT_EQ(t.smem_base, 2048u);
  EXPECT_EQ(t.records[0].warp, 1u);
  EXPECT_EQ(t.records[1].access.address[0], 512u);
  EXPECT_EQ(t.records[2].access.address[0], 1024u);
  EXPECT_EQ(t.records[3].cta, 1u);
  EXPECT_EQ(t.records[3].access.kind, model::AccessKind::Store);
  EXPECT_EQ(t.records[3].access.address[31], 16u * 31);
}

TEST(DeviceDecode, RefusesBrokenBuffers) {
  std::vector<uint32_t> words;
  put_record(words, 0, 0, 0, 0);
  EXPECT_THROW(traces::decode_device_records(words, 2, "k04"), traces::TraceError);  // more written than fit
  std::vector<uint32_t> bad = words;
  bad[dr::kWordMagic] = 7;
  EXPECT_THROW(traces::decode_device_records(bad, 1, "k04"), traces::TraceError);
  bad = words;
  bad[dr::kWordStage] = 99;
  EXPECT_THROW(traces::decode_device_records(bad, 1, "k04"), traces::TraceError);
  bad = words;
  bad[dr::kWordFirstAddress + 3] = 8;  // not 16-byte aligned
  EXPECT_THROW(traces::decode_device_records(bad, 1, "k04"), traces::TraceError);
  bad = words;
  put_record(bad, 0, 1, 1024, 0);  // another region base
  EXPECT_THROW(traces::decode_device_records(bad, 2, "k04"), traces::TraceError);
  EXPECT_THROW(traces::decode_device_records(std::vector<uint32_t>(39), 0, "k04"), traces::TraceError);
}

// The host call a recording kernel's test makes: decode, then write the file that
// banks --trace and viz read; the file reads back as the decoded trace.
TEST(DeviceDecode, WriteDeviceTraceWritesWhatItDecoded) {
  dr::RecordedBuffer raw;
  put_record(raw.words, 0, 2, 4096, 4096);
  put_record(raw.words, 0, 0, 4096, 8192);
  raw.records_written = 2;
  const std::string path = ::testing::TempDir() + "/gemmscope_device_trace.jsonl";
  const traces::Trace t = traces::write_device_trace(path, raw, "mine", "two stores");
  EXPECT_EQ(t.description, "two stores");
  const traces::Trace back = traces::read_trace_file(path);
  EXPECT_EQ(back.kernel, "mine");
  EXPECT_EQ(back.source, "gpu");
  EXPECT_EQ(back.description, "two stores");
  EXPECT_EQ(back.smem_base, 4096u);
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(back.records[0].warp, 0u);  // sorted by warp
  EXPECT_EQ(back.records[0].access.address[1], 8192u + 16);
  EXPECT_FALSE(traces::first_difference(back, t));
  raw.records_written = 3;  // more than the buffer holds: refused, nothing written
  std::remove(path.c_str());
  EXPECT_THROW(traces::write_device_trace(path, raw, "mine"), traces::TraceError);
  EXPECT_FALSE(std::ifstream(path).good());
}

// ------------------------------------------------- the kernels' own address code

#ifdef GEMMSCOPE_HAVE_KERNEL_ADDRESS_CODE
TEST(KernelVsModel, K04EpilogueAddressesOnTheHost) {
  // k04's epilogue loop (kernels/sm90/k04_tma_store.cu) with its own __host__ __device__
  // address code, run on the host: the addresses each lane gives stmatrix.x4.
  const uint32_t staging = 3 * 1024;
  for (uint32_t warp = 0; warp < 4; ++warp) {
    traces::Trace kernel, model_side;
    kernel.kernel = model_side.kernel = "k04";
    for (uint32_t mi = 0; mi < 2; ++mi)
      for (uint32_t p = 0; p < 8; ++p) {
        traces::TraceRecord r;
        r.stage = traces::Stage::Stmatrix;
        r.warp = warp;
        r.access.width_bytes = 16;
        r.access.kind = model::AccessKind::Store;
        for (uint32_t lane = 0; lane < 32; ++lane) {
          const auto at = gemmscope::sm90::stmatrix_x4_row(warp, lane, p);
          const uint32_t row = mi * 64 + at.row;
          const uint32_t half = at.col / 64;
          r.access.address[lane] = staging + half * 128 * 64 * 2 + gemmscope::sm90::sw128_offset(row, at.col % 64);
        }
        kernel.records.push_back(r);
      }
    model_side.records = traces::k04_stmatrix_records(staging, 0, warp);
    const auto diff = traces::first_difference(kernel, model_side);
    EXPECT_FALSE(diff.has_value()) << "warp " << warp << ": " << *diff;
  }
}
#else
TEST(KernelVsModel, K04EpilogueAddressesOnTheHost) {
  GTEST_SKIP() << "built without the kernels (kernels/common/sm90_address.hpp not on the include path)";
}
#endif

// ------------------------------------------------------------ recorded on the H200

TEST(RecordedTrace, K04MatchesTheModel) {
  const std::filesystem::path dir = std::filesystem::path(GEMMSCOPE_SOURCE_DIR) / "traces" / "hw";
  std::vector<std::filesystem::path> files;
  if (std::filesystem::exists(dir))
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().filename().string().rfind("k04", 0) == 0 && e.path().string().ends_with(".trace.jsonl"))
        files.push_back(e.path());
  if (files.empty()) GTEST_SKIP() << "no traces/hw/k04*.trace.jsonl (record one on the H200: docs/traces.md)";
  for (const auto& f : files) {
    const traces::Trace recorded = traces::read_trace_file(f);
    ASSERT_EQ(recorded.source, "gpu") << f;
    ASSERT_FALSE(recorded.records.empty()) << f;
    const traces::Trace expected = traces::model_trace_for(recorded);
    const auto diff = traces::first_difference(recorded, expected);
    EXPECT_FALSE(diff.has_value()) << f << ": " << *diff;
  }
}
