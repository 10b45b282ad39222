#include "gemmscope/traces/model_traces.hpp"

#include <algorithm>

#include "gemmscope/model/fragments.hpp"
#include "gemmscope/model/tma_box.hpp"

namespace gemmscope::traces {

namespace {

// kernels/sm90/k02..k04 configuration (see model_traces.hpp).
constexpr uint32_t kTileRows = 128;        // BM = BN = 128
constexpr uint32_t kBlockKElems = 64;      // BK
constexpr uint32_t kWgmmaM = 64, kWgmmaN = 128, kWgmmaKElems = 16;
constexpr uint32_t kElemBytes = 2;         // bf16
constexpr uint32_t kChunkBytes = 16;       // a core-matrix row; the model view's request size
constexpr uint32_t kOperandBytes = kTileRows * kBlockKElems * kElemBytes;  // 16384: B tile / second staging half
constexpr uint32_t kWarps = 4;
constexpr uint32_t kStoreCols = 64;        // k04: one TMA store box is 64 columns (128 bytes)

enum class Layout { Interleaved, Swizzle128 };

// Where byte `k_byte` (a multiple of 16) of row `row` of an operand tile lands: the
// TMA boxes the kernel issues, placed by the model (TmaBox::address).
uint64_t operand_address(Layout layout, uint64_t tile_base, uint32_t row, uint32_t k_byte) {
  if (layout == Layout::Interleaved) {
    // One box of 128 rows x 8 elements per 16-byte K chunk, boxes stacked.
    const uint32_t chunk = k_byte / kChunkBytes;
    const model::TmaBox box{kTileRows, kChunkBytes / kElemBytes, kElemBytes, model::SwizzleMode::None,
                            tile_base + uint64_t{chunk} * kTileRows * kChunkBytes};
    return box.address(row, (k_byte % kChunkBytes) / kElemBytes);
  }
  const model::TmaBox box{kTileRows, kBlockKElems, kElemBytes, model::SwizzleMode::B128, tile_base};
  return box.address(row, k_byte / kElemBytes);
}

// A TMA box's 16-byte chunks in box order (row by row), 32 per record.
void add_box_chunks(std::vector<TraceRecord>& out, const model::TmaBox& box, Stage stage, model::AccessKind kind,
                    uint32_t cta, const std::string& what) {
  box.validate();
  const uint32_t chunks_per_row = box.inner_bytes() / kChunkBytes;
  const uint32_t chunks = box.rows * chunks_per_row;
  for (uint32_t first = 0; first < chunks; first += model::kWarpSize) {
    TraceRecord r;
    r.stage = stage;
    r.cta = cta;
    r.warp = 0;  // issued by thread 0
    r.access.width_bytes = kChunkBytes;
    r.access.kind = kind;
    r.access.active_mask = 0;
    for (uint32_t lane = 0; lane < model::kWarpSize && first + lane < chunks; ++lane) {
      const uint32_t chunk = first + lane;
      r.access.address[lane] =
          box.address(chunk / chunks_per_row, (chunk % chunks_per_row) * kChunkBytes / box.elem_bytes);
      r.access.active_mask |= 1u << lane;
    }
    r.access.label = what + " chunks " + std::to_string(first) + ".." +
                     std::to_string(std::min(chunks, first + model::kWarpSize) - 1) + " (model view)";
    out.push_back(std::move(r));
  }
}

void add_tma_writes(std::vector<TraceRecord>& out, Layout layout, uint64_t base, uint32_t cta, uint32_t k_block) {
  const std::string kb = "k-block " + std::to_string(k_block) + " ";
  if (layout == Layout::Interleaved) {
    const uint32_t chunks = kBlockKElems * kElemBytes / kChunkBytes;
    for (uint32_t c = 0; c < chunks; ++c)
      for (uint32_t operand = 0; operand < 2; ++operand) {
        const model::TmaBox box{kTileRows, kChunkBytes / kElemBytes, kElemBytes, model::SwizzleMode::None,
                                base + operand * kOperandBytes + uint64_t{c} * kTileRows * kChunkBytes};
        add_box_chunks(out, box, Stage::TmaWrite, model::AccessKind::Store, cta,
                       kb + (operand ? "B" : "A") + " box k-chunk " + std::to_string(c));
      }
    return;
  }
  for (uint32_t operand = 0; operand < 2; ++operand) {
    const model::TmaBox box{kTileRows, kBlockKElems, kElemBytes, model::SwizzleMode::B128,
                            base + operand * kOperandBytes};
    add_box_chunks(out, box, Stage::TmaWrite, model::AccessKind::Store, cta, kb + (operand ? "B" : "A") + " box");
  }
}

// One wgmma's read of one operand: rows [row0, row0 + rows) x K bytes [k_byte0, +32),
// as core matrices (8 rows x 16 bytes) grouped four to a record in ldmatrix.x4 order:
// (g, k0), (g + 8, k0), (g, k0 + 16), (g + 8, k0 + 16) for row groups g step 16.
void add_operand_reads(std::vector<TraceRecord>& out, Layout layout, uint64_t tile_base, uint32_t row0,
                       uint32_t rows, uint32_t k_byte0, uint32_t cta, const std::string& what) {
  for (uint32_t g = row0; g < row0 + rows; g += 16) {
    TraceRecord r;
    r.stage = Stage::WgmmaOperandRead;
    r.cta = cta;
    r.warp = 0;  // the warpgroup's first warp stands for the warpgroup
    r.access.width_bytes = kChunkBytes;
    r.access.kind = model::AccessKind::Load;
    r.access.active_mask = 0xFFFFFFFFu;
    const uint32_t origin_row[4] = {g, g + 8, g, g + 8};
    const uint32_t origin_k[4] = {k_byte0, k_byte0, k_byte0 + 16, k_byte0 + 16};
    for (uint32_t m = 0; m < 4; ++m)
      for (uint32_t row = 0; row < 8; ++row)
        r.access.address[model::ldmatrix_row_address_thread(4, m, row)] =
            operand_address(layout, tile_base, origin_row[m] + row, origin_k[m]);
    r.access.label = what + " rows " + std::to_string(g) + ".." + std::to_string(g + 15) + " k-bytes " +
                     std::to_string(k_byte0) + ".." + std::to_string(k_byte0 + 31) + " (model view)";
    out.push_back(std::move(r));
  }
}

void add_wgmma_reads(std::vector<TraceRecord>& out, Layout layout, uint64_t base, uint32_t cta, uint32_t k_block) {
  for (uint32_t kk = 0; kk < kBlockKElems; kk += kWgmmaKElems)
    for (uint32_t mi = 0; mi < kTileRows / kWgmmaM; ++mi) {
      const std::string step = "k-block " + std::to_string(k_block) + " kk " + std::to_string(kk) + " mi " +
                               std::to_string(mi) + ": ";
      add_operand_reads(out, layout, base, mi * kWgmmaM, kWgmmaM, kk * kElemBytes, cta, step + "A");
      add_operand_reads(out, layout, base + kOperandBytes, 0, kWgmmaN, kk * kElemBytes, cta, step + "B");
    }
}

}  // namespace

const std::vector<LadderTraceKernel>& ladder_trace_kernels() {
  static const std::vector<LadderTraceKernel> kernels = {
      {"k02", "no swizzle, interleaved core matrices: TMA writes (16-byte boxes), wgmma operand reads"},
      {"k03", "128B swizzle: TMA writes, wgmma operand reads"},
      {"k04", "k03's main loop, then stmatrix.x4 into 128B-swizzled staging and the TMA store's reads"},
  };
  return kernels;
}

std::vector<TraceRecord> k04_stmatrix_records(uint64_t smem_base, uint32_t cta, uint32_t warp) {
  model::require(warp < kWarps, "warp", warp, "must be 0..3 (one warpgroup)");
  model::require(smem_base % 1024 == 0, "smem_base", static_cast<long long>(smem_base),
                 "must be a multiple of 1024 (the 128B swizzle's alignment) for k04's staging tile");
  std::vector<TraceRecord> out;
  for (uint32_t mi = 0; mi < kTileRows / kWgmmaM; ++mi)
    for (uint32_t p = 0; p < kWgmmaN / 16; ++p) {
      TraceRecord r;
      r.stage = Stage::Stmatrix;
      r.cta = cta;
      r.warp = warp;
      r.access.width_bytes = 16;  // a matrix row: 8 bf16
      r.access.kind = model::AccessKind::Store;
      r.access.active_mask = 0xFFFFFFFFu;
      for (uint32_t i = 0; i < 4; ++i) {
        // k04 packs accumulator registers 8p+2i, 8p+2i+1 into stmatrix register i. In
        // the stmatrix fragment, thread t's register i is matrix i, row t/4, columns
        // 2(t%4), +1 (PTX ISA "stmatrix"), so thread t = lane 0 of the warp puts the
        // origin of matrix i at its accumulator cell.
        const uint32_t thread = 32 * warp;
        const model::FragmentCell cell = model::wgmma_accumulator_cell(kWgmmaN, thread, 8 * p + 2 * i);
        for (uint32_t lane = 1; lane < 32; ++lane) {
          // Every lane must agree (the two fragment maps line up): else the epilogue is not a stmatrix.
          const model::FragmentCell c = model::wgmma_accumulator_cell(kWgmmaN, thread + lane, 8 * p + 2 * i);
          if (c.row != cell.row + lane / 4 || c.col != cell.col + 2 * (lane % 4))
            throw TraceError("k04 epilogue: accumulator register " + std::to_string(8 * p + 2 * i) + " of lane " +
                             std::to_string(lane) + " is not in stmatrix matrix " + std::to_string(i));
        }
        const uint32_t col = cell.col;
        const model::SmemTile half{kTileRows, kStoreCols * kElemBytes, 0, model::SwizzleMode::B128,
                                   smem_base + uint64_t{col / kStoreCols} * kOperandBytes};
        for (uint32_t row = 0; row < 8; ++row)
          r.access.address[model::ldmatrix_row_address_thread(4, i, row)] =
              half.address(mi * kWgmmaM + cell.row + row, (col % kStoreCols) * kElemBytes);
      }
      r.access.label = "stmatrix.x4 mi " + std::to_string(mi) + " columns " + std::to_string(16 * p) + ".." +
                       std::to_string(16 * p + 15);
      out.push_back(std::move(r));
    }
  return out;
}

Trace model_trace(const LadderTraceConfig& config) {
  Layout layout;
  if (config.kernel == "k02")
    layout = Layout::Interleaved;
  else if (config.kernel == "k03" || config.kernel == "k04")
    layout = Layout::Swizzle128;
  else
    throw TraceError("kernel = '" + config.kernel + "' has no model trace: k02, k03 or k04");
  model::require(config.k_blocks >= 1 && config.k_blocks <= 64, "k_blocks", config.k_blocks, "must be in 1..64");
  const uint32_t align = layout == Layout::Interleaved ? 128 : 1024;
  model::require(config.smem_base % align == 0 && config.smem_base + 2 * kOperandBytes <= kMaxAddress + 1,
                 "smem_base", static_cast<long long>(config.smem_base),
                 "must be a multiple of " + std::to_string(align) + " (the tiles' alignment in " + config.kernel +
                     ") with 32 KiB of tiles below 2^32");
  Trace t;
  t.kernel = config.kernel;
  t.source = "model";
  t.smem_base = config.smem_base;
  t.description = config.kernel + " CTA " + std::to_string(config.cta) + ", " + std::to_string(config.k_blocks) +
                  " K block(s) of 64: " +
                  (layout == Layout::Interleaved ? "no swizzle (interleaved core matrices)" : "128B swizzle") +
                  "; tma-write, wgmma-operand-read and tma-store-read are the model's view (16-byte chunks), "
                  "not warp instructions";
  if (config.main_loop)
    for (uint32_t kb = 0; kb < config.k_blocks; ++kb) {
      add_tma_writes(t.records, layout, config.smem_base, config.cta, kb);
      add_wgmma_reads(t.records, layout, config.smem_base, config.cta, kb);
    }
  if (config.kernel == "k04" && config.epilogue) {
    for (uint32_t warp = 0; warp < kWarps; ++warp) {
      auto w = k04_stmatrix_records(config.smem_base, config.cta, warp);
      t.records.insert(t.records.end(), w.begin(), w.end());
    }
    for (uint32_t h = 0; h < kTileRows / kStoreCols; ++h) {
      const model::TmaBox box{kTileRows, kStoreCols, kElemBytes, model::SwizzleMode::B128,
                              config.smem_base + uint64_t{h} * kOperandBytes};
      add_box_chunks(t.records, box, Stage::TmaStoreRead, model::AccessKind::Load, config.cta,
                     "C store half " + std::to_string(h));
    }
  }
  return t;
}

Trace pattern_trace(std::string_view pattern_name, model::SwizzleMode swizzle, uint64_t base) {
  const model::NamedPattern& p = model::find_pattern(pattern_name);
  Trace t;
  t.kernel = p.name;
  t.source = "pattern";
  t.smem_base = base;
  t.description = p.description + ", swizzle " + std::string(model::to_string(swizzle));
  Stage stage = Stage::User;
  if (p.name.rfind("ldmatrix", 0) == 0) stage = Stage::Ldmatrix;
  else if (p.name.rfind("stmatrix", 0) == 0) stage = Stage::Stmatrix;
  else if (p.name.rfind("epilogue", 0) == 0) stage = Stage::EpilogueStore;
  else if (p.name.rfind("vector-load", 0) == 0) stage = Stage::Load;
  else if (p.name.rfind("vector-store", 0) == 0) stage = Stage::Store;
  if (base > kMaxAddress)
    throw TraceError("base = " + std::to_string(base) + " is past the 32-bit shared window (at most " +
                     std::to_string(kMaxAddress) + ")");
  const std::vector<model::WarpAccess> accesses = p.make(swizzle, base);
  // A trace holds 32-bit shared addresses (its reader refuses more): refuse the base
  // rather than write a trace that does not read back.
  uint64_t highest = 0;
  for (const model::WarpAccess& a : accesses)
    for (int lane = 0; lane < model::kWarpSize; ++lane)
      if (a.active(lane)) highest = std::max(highest, a.address[lane]);
  if (highest > kMaxAddress)
    throw TraceError("base = " + std::to_string(base) + " puts the pattern's addresses up to " +
                     std::to_string(highest) + ", past the 32-bit shared window (at most " +
                     std::to_string(kMaxAddress) + ")");
  const size_t per_warp = stage == Stage::EpilogueStore ? accesses.size() / kWarps : accesses.size();
  for (size_t i = 0; i < accesses.size(); ++i) {
    TraceRecord r;
    r.stage = stage;
    r.warp = static_cast<uint32_t>(per_warp ? i / per_warp : 0);
    r.access = canonical_access(accesses[i]);
    t.records.push_back(std::move(r));
  }
  return t;
}

}  // namespace gemmscope::traces
