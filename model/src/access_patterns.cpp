#include "gemmscope/model/access_patterns.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "gemmscope/model/error.hpp"
#include "gemmscope/model/fragments.hpp"

namespace gemmscope::model {

// ---------------------------------------------------------------------------- SmemTile

SmemTile SmemTile::from_box(const TmaBox& box) {
  SmemTile tile;
  tile.rows = box.rows;
  tile.row_bytes = box.inner_bytes();
  tile.swizzle = box.swizzle;
  tile.base = box.smem_base;
  return tile;
}

void SmemTile::validate() const {
  require(rows >= 1 && rows <= 4096, "tile rows", rows, "must be in 1..4096");
  require(row_bytes >= 16 && row_bytes % 16 == 0, "tile row_bytes", row_bytes,
          "must be a positive multiple of 16");
  if (row_pitch_bytes != 0) {
    require(swizzle == SwizzleMode::None, "tile row_pitch_bytes", row_pitch_bytes,
            "must be 0 (no padding) when the tile is swizzled (" + std::string(to_string(swizzle)) + ")");
    require(row_pitch_bytes >= row_bytes && row_pitch_bytes % 4 == 0, "tile row_pitch_bytes", row_pitch_bytes,
            "must be a multiple of 4 and at least row_bytes = " + std::to_string(row_bytes));
  }
  if (swizzle != SwizzleMode::None) {
    const uint32_t span = swizzle_span_bytes(swizzle);
    require(row_bytes <= span || row_bytes % span == 0, "tile row_bytes", row_bytes,
            "must be at most, or a multiple of, the " + std::string(to_string(swizzle)) + " swizzle span (" +
                std::to_string(span) + " bytes)");
  }
  // A swizzled tile is where TMA writes it, so it takes TMA's destination rule, 128
  // bytes, not the pattern's period: the H200 lands swizzled boxes 128, 256 and 512
  // bytes past their pattern's boundary where address() puts them, the XOR on absolute
  // address bits (traces/hw/tma_swizzle.json, swz*_off128..off512; TmaBox::validate).
  const uint32_t align = swizzle == SwizzleMode::None ? 16 : 128;
  require(base % align == 0, "tile base", static_cast<long long>(base),
          "must be a multiple of " + std::to_string(align) + " bytes" +
              (swizzle == SwizzleMode::None ? "" : " (a TMA destination)") + " for swizzle " +
              std::string(to_string(swizzle)));
}

// A swizzled slab is one span wide even when the rows are narrower: TMA pads
// narrow swizzled rows to the span (confirmed on the H200: traces/hw/tma_swizzle.json).
uint32_t SmemTile::slab_bytes() const {
  if (swizzle == SwizzleMode::None) return row_bytes;
  return swizzle_span_bytes(swizzle);
}

uint64_t SmemTile::address(uint32_t row, uint32_t byte_in_row) const {
  require(row < rows, "tile row", row, "must be below the tile's rows = " + std::to_string(rows));
  require(byte_in_row < row_bytes, "tile byte_in_row", byte_in_row,
          "must be below the tile's row_bytes = " + std::to_string(row_bytes));
  if (swizzle == SwizzleMode::None) return base + uint64_t{row} * pitch_bytes() + byte_in_row;
  const uint64_t slab = slab_bytes();
  const uint64_t linear =
      base + (byte_in_row / slab) * rows * slab + uint64_t{row} * slab + byte_in_row % slab;
  return swizzle_address(swizzle, linear);
}

// ---------------------------------------------------------------------- vector accesses

namespace {

void require_width(int width_bytes) {
  require(width_bytes == 4 || width_bytes == 8 || width_bytes == 16, "access width_bytes", width_bytes,
          "must be 4, 8 or 16");
}

std::string kind_prefix(AccessKind kind, int width_bytes) {
  return std::string(kind == AccessKind::Load ? "ld" : "st") + ".shared." +
         (width_bytes == 4 ? "b32" : width_bytes == 8 ? "v2.b32" : "v4.b32");
}

}  // namespace

WarpAccess vector_access_row_major(const SmemTile& tile, int width_bytes, AccessKind kind, uint64_t start_byte) {
  tile.validate();
  require_width(width_bytes);
  require(start_byte % width_bytes == 0, "start_byte", static_cast<long long>(start_byte),
          "must be a multiple of the access width (" + std::to_string(width_bytes) + " bytes)");
  const uint64_t tile_bytes = uint64_t{tile.rows} * tile.row_bytes;
  require(start_byte < tile_bytes, "start_byte", static_cast<long long>(start_byte),
          "must be below the tile's " + std::to_string(tile_bytes) + " bytes");
  WarpAccess a;
  a.width_bytes = width_bytes;
  a.kind = kind;
  a.active_mask = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const uint64_t byte = start_byte + uint64_t(lane) * width_bytes;
    if (byte + width_bytes > tile_bytes) continue;
    a.address[lane] = tile.address(static_cast<uint32_t>(byte / tile.row_bytes),
                                   static_cast<uint32_t>(byte % tile.row_bytes));
    a.active_mask |= 1u << lane;
  }
  a.label = kind_prefix(kind, width_bytes) + " row-major bytes " + std::to_string(start_byte) + "..";
  return a;
}

WarpAccess vector_access_column(const SmemTile& tile, int width_bytes, AccessKind kind, uint32_t first_row,
                                uint32_t byte_in_row) {
  tile.validate();
  require_width(width_bytes);
  require(byte_in_row % width_bytes == 0, "byte_in_row", byte_in_row,
          "must be a multiple of the access width (" + std::to_string(width_bytes) + " bytes)");
  require(byte_in_row + width_bytes <= tile.row_bytes, "byte_in_row", byte_in_row,
          "must leave a whole access inside row_bytes = " + std::to_string(tile.row_bytes));
  require(first_row < tile.rows, "first_row", first_row, "must be below the tile's rows = " + std::to_string(tile.rows));
  WarpAccess a;
  a.width_bytes = width_bytes;
  a.kind = kind;
  a.active_mask = 0;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const uint32_t row = first_row + static_cast<uint32_t>(lane);
    if (row >= tile.rows) continue;
    a.address[lane] = tile.address(row, byte_in_row);
    a.active_mask |= 1u << lane;
  }
  a.label = kind_prefix(kind, width_bytes) + " lane t -> row " + std::to_string(first_row) + "+t, byte " +
            std::to_string(byte_in_row);
  return a;
}

std::vector<WarpAccess> vector_tile_row_major(const SmemTile& tile, int width_bytes, AccessKind kind) {
  tile.validate();
  require_width(width_bytes);
  std::vector<WarpAccess> out;
  const uint64_t tile_bytes = uint64_t{tile.rows} * tile.row_bytes;
  for (uint64_t start = 0; start < tile_bytes; start += uint64_t(kWarpSize) * width_bytes)
    out.push_back(vector_access_row_major(tile, width_bytes, kind, start));
  return out;
}

std::vector<WarpAccess> vector_tile_columns(const SmemTile& tile, int width_bytes, AccessKind kind) {
  tile.validate();
  require_width(width_bytes);
  std::vector<WarpAccess> out;
  for (uint32_t first_row = 0; first_row < tile.rows; first_row += kWarpSize)
    for (uint32_t byte = 0; byte + width_bytes <= tile.row_bytes; byte += width_bytes)
      out.push_back(vector_access_column(tile, width_bytes, kind, first_row, byte));
  return out;
}

// ------------------------------------------------------------------ ldmatrix / stmatrix

std::string_view to_string(MatrixOp op) { return op == MatrixOp::Ldmatrix ? "ldmatrix" : "stmatrix"; }

WarpAccess matrix_access(const SmemTile& tile, MatrixOp op, int count, bool trans,
                         const std::vector<CoreMatrixOrigin>& origins) {
  tile.validate();
  require(count == 1 || count == 2 || count == 4, "matrix count (.xN)", count, "must be 1, 2 or 4");
  require(static_cast<int>(origins.size()) == count, "core matrix origins", static_cast<long long>(origins.size()),
          "must number exactly the matrix count " + std::to_string(count));
  WarpAccess a;
  a.width_bytes = 16;  // each lane's row of a core matrix: 8 x 16-bit
  a.kind = op == MatrixOp::Ldmatrix ? AccessKind::Load : AccessKind::Store;
  a.active_mask = count == 4 ? 0xFFFFFFFFu : ((1u << (8 * count)) - 1u);
  a.label = std::string(to_string(op)) + ".x" + std::to_string(count) + (trans ? ".trans" : "");
  for (int j = 0; j < count; ++j) {
    const CoreMatrixOrigin& o = origins[j];
    require(o.byte_in_row % 16 == 0, "core matrix byte_in_row", o.byte_in_row, "must be a multiple of 16");
    require(o.row + 8 <= tile.rows, "core matrix row", o.row,
            "must leave 8 rows inside the tile's rows = " + std::to_string(tile.rows));
    require(o.byte_in_row + 16 <= tile.row_bytes, "core matrix byte_in_row", o.byte_in_row,
            "must leave 16 bytes inside row_bytes = " + std::to_string(tile.row_bytes));
    for (uint32_t r = 0; r < 8; ++r)
      a.address[ldmatrix_row_address_thread(static_cast<uint32_t>(count), static_cast<uint32_t>(j), r)] =
          tile.address(o.row + r, o.byte_in_row);
    a.label += (j == 0 ? " m" : ",m") + std::to_string(j) + "@(" + std::to_string(o.row) + "," +
               std::to_string(o.byte_in_row) + "B)";
  }
  return a;
}

std::vector<WarpAccess> matrix_tile_walk(const SmemTile& tile, MatrixOp op, int count, bool trans) {
  tile.validate();
  require(count == 1 || count == 2 || count == 4, "matrix count (.xN)", count, "must be 1, 2 or 4");
  const uint32_t block_rows = count == 4 ? 16 : 8;
  const uint32_t block_bytes = count == 1 ? 16 : 32;
  require(tile.rows % block_rows == 0, "tile rows", tile.rows,
          "must be a multiple of " + std::to_string(block_rows) + " for .x" + std::to_string(count));
  require(tile.row_bytes % block_bytes == 0, "tile row_bytes", tile.row_bytes,
          "must be a multiple of " + std::to_string(block_bytes) + " for .x" + std::to_string(count));
  std::vector<WarpAccess> out;
  for (uint32_t r = 0; r < tile.rows; r += block_rows)
    for (uint32_t c = 0; c < tile.row_bytes; c += block_bytes) {
      std::vector<CoreMatrixOrigin> origins;
      if (count == 1) origins = {{r, c}};
      if (count == 2) origins = {{r, c}, {r, c + 16}};
      if (count == 4) origins = {{r, c}, {r + 8, c}, {r, c + 16}, {r + 8, c + 16}};
      out.push_back(matrix_access(tile, op, count, trans, origins));
    }
  return out;
}

// -------------------------------------------------------------------------- epilogue

std::vector<WarpAccess> epilogue_accumulator_stores(const SmemTile& tile, int n, int warp) {
  tile.validate();
  require(n >= 8 && n <= 256 && n % 8 == 0, "wgmma N", n, "must be in 8..256, a multiple of 8");
  require(warp >= 0 && warp <= 3, "warp of the warpgroup", warp, "must be in 0..3");
  require(tile.rows >= 64, "tile rows", tile.rows, "must be at least 64 (the wgmma M)");
  require(tile.row_bytes >= static_cast<uint32_t>(2 * n), "tile row_bytes", tile.row_bytes,
          "must be at least 2*N = " + std::to_string(2 * n) + " bytes (N bf16)");
  std::vector<WarpAccess> out;
  for (int pair = 0; pair < n / 4; ++pair) {
    WarpAccess a;
    a.width_bytes = 4;  // two bf16
    a.kind = AccessKind::Store;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      const FragmentCell c = wgmma_accumulator_cell(static_cast<uint32_t>(n), static_cast<uint32_t>(32 * warp + lane),
                                                    static_cast<uint32_t>(2 * pair));
      a.address[lane] = tile.address(c.row, 2 * c.col);
    }
    a.label = "st.shared.b32 warp " + std::to_string(warp) + " regs " + std::to_string(2 * pair) + "," +
              std::to_string(2 * pair + 1);
    out.push_back(std::move(a));
  }
  return out;
}

// ---------------------------------------------------------------------- named patterns

namespace {

// Every built-in pattern works on a 64-row x 128-byte tile: 64x64 bf16.
SmemTile tile_64x64_bf16(SwizzleMode swizzle, uint64_t base) {
  SmemTile t;
  t.rows = 64;
  t.row_bytes = 128;
  t.swizzle = swizzle;
  t.base = base;
  t.validate();
  return t;
}

std::vector<NamedPattern> make_patterns() {
  std::vector<NamedPattern> p;
  for (MatrixOp op : {MatrixOp::Ldmatrix, MatrixOp::Stmatrix})
    for (int count : {1, 2, 4})
      for (bool trans : {false, true}) {
        const std::string op_name(to_string(op));
        std::string layout;
        std::string what;
        if (op == MatrixOp::Ldmatrix) {
          layout = trans ? "mn-major" : "k-major";
          what = trans ? "an MN-major operand tile (rows = K, 64 M/N elements each), .trans"
                       : "a K-major operand tile (rows = M/N, 64 K elements each)";
        } else {
          layout = trans ? "col-major" : "row-major";
          what = trans ? "a column-major C tile (rows = N), .trans" : "a row-major C tile (rows = M)";
        }
        NamedPattern np;
        np.name = op_name + "-x" + std::to_string(count) + (trans ? "-trans-" : "-") + layout + "-64x64";
        np.description = op_name + ".x" + std::to_string(count) + " over every 8x8 core matrix of " + what +
                         ", 64x64 bf16 (128-byte rows)";
        np.make = [op, count, trans](SwizzleMode s, uint64_t base) {
          return matrix_tile_walk(tile_64x64_bf16(s, base), op, count, trans);
        };
        p.push_back(std::move(np));
      }
  for (AccessKind kind : {AccessKind::Load, AccessKind::Store})
    for (int width : {4, 8, 16}) {
      const std::string k(to_string(kind));
      const std::string w = std::to_string(width) + "B";
      p.push_back({"vector-" + k + "-" + w + "-row-major-64x64",
                   "plain " + w + " " + k + "s, lanes on consecutive pieces in row-major order, whole 64x64 bf16 tile",
                   [kind, width](SwizzleMode s, uint64_t base) {
                     return vector_tile_row_major(tile_64x64_bf16(s, base), width, kind);
                   }});
      p.push_back({"vector-" + k + "-" + w + "-column-64x64",
                   "plain " + w + " " + k + "s, lane t walking row t (32 rows per instruction), whole 64x64 bf16 tile",
                   [kind, width](SwizzleMode s, uint64_t base) {
                     return vector_tile_columns(tile_64x64_bf16(s, base), width, kind);
                   }});
    }
  p.push_back({"vector-load-4B-column-64x64-pad4",
               "plain 4B loads, lane t walking row t, rows padded to a 132-byte pitch (unswizzled only)",
               [](SwizzleMode s, uint64_t base) {
                 if (s != SwizzleMode::None)
                   throw ModelError("swizzle = " + std::string(to_string(s)) +
                                    " must be none for pattern vector-load-4B-column-64x64-pad4 (a padded layout)");
                 SmemTile t;
                 t.rows = 64;
                 t.row_bytes = 128;
                 t.row_pitch_bytes = 132;
                 t.base = base;
                 return vector_tile_columns(t, 4, AccessKind::Load);
               }});
  p.push_back({"epilogue-st32-m64n64-bf16",
               "wgmma m64n64k16 fp32 accumulators -> bf16 pairs -> st.shared.b32, all 4 warps, 64x64 bf16 C tile",
               [](SwizzleMode s, uint64_t base) {
                 std::vector<WarpAccess> all;
                 for (int warp = 0; warp < 4; ++warp) {
                   auto w = epilogue_accumulator_stores(tile_64x64_bf16(s, base), 64, warp);
                   all.insert(all.end(), w.begin(), w.end());
                 }
                 return all;
               }});
  std::sort(p.begin(), p.end(), [](const NamedPattern& a, const NamedPattern& b) { return a.name < b.name; });
  return p;
}

}  // namespace

const std::vector<NamedPattern>& builtin_patterns() {
  static const std::vector<NamedPattern> patterns = make_patterns();
  return patterns;
}

const NamedPattern& find_pattern(std::string_view name) {
  for (const NamedPattern& p : builtin_patterns())
    if (p.name == name) return p;
  throw ModelError("pattern = '" + std::string(name) + "' is not a built-in pattern (" +
                   std::to_string(builtin_patterns().size()) + " exist; `gemmscope banks --list` names them)");
}

// ------------------------------------------------------------------------- Kernel 3

Kernel3BankComparison kernel3_bank_comparison() {
  Kernel3BankComparison c;
  c.pattern = "ldmatrix-x4-k-major-64x64";
  const NamedPattern& p = find_pattern(c.pattern);
  c.unswizzled = analyze(p.make(SwizzleMode::None, 0));
  c.swizzled_128b = analyze(p.make(SwizzleMode::B128, 0));
  return c;
}

std::string format_kernel3_bank_comparison(const Kernel3BankComparison& c) {
  auto max_phase = [](const SequenceCost& s) {
    int m = 0;
    for (const AccessCost& a : s.instructions)
      for (const PhaseCost& ph : a.phases) m = std::max(m, ph.wavefronts);
    return m;
  };
  std::ostringstream out;
  out << "Kernel 3: ldmatrix.x4 reads of a 64x64 bf16 K-major tile (" << c.pattern << ", "
      << c.unswizzled.instructions.size() << " instructions)\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-14s %11s %6s %10s %22s\n", "layout", "wavefronts", "ideal", "conflicts",
                "max wavefronts/phase");
  out << line;
  std::snprintf(line, sizeof line, "  %-14s %11d %6d %10d %22d\n", "unswizzled", c.unswizzled.wavefronts,
                c.unswizzled.ideal, c.unswizzled.conflicts(), max_phase(c.unswizzled));
  out << line;
  std::snprintf(line, sizeof line, "  %-14s %11d %6d %10d %22d\n", "128B swizzle", c.swizzled_128b.wavefronts,
                c.swizzled_128b.ideal, c.swizzled_128b.conflicts(), max_phase(c.swizzled_128b));
  out << line;
  return out.str();
}

}  // namespace gemmscope::model
