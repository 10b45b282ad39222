#include "gemmscope/testing/address_properties.hpp"

#include <cstdio>
#include <vector>

namespace gemmscope::testing {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

template <class Desc>
Violation descriptor_reads(const Desc& seen, const model::OperandExtent& operand, const TileAddress& written_at) {
  for (uint32_t r = 0; r < operand.rows; ++r)
    for (uint32_t k = 0; k < operand.k_elems; ++k) {
      const uint64_t want = written_at(r, k);
      uint64_t got = 0;
      try {
        got = model::descriptor_element_address(seen, operand, r, k);
      } catch (const model::ModelError& e) {
        return "element (" + std::to_string(r) + "," + std::to_string(k) + "): the descriptor cannot read it: " +
               e.what() + " [" + seen.to_string() + "]";
      }
      if (got != want)
        return "element (" + std::to_string(r) + "," + std::to_string(k) + ") is read at " + std::to_string(got) +
               " but TMA wrote it at " + std::to_string(want) + " [" + seen.to_string() + "]";
    }
  return std::nullopt;
}

}  // namespace

Violation swizzle_is_bijection_on_atom(const AddressMap& swizzle, uint64_t atom_bytes, uint64_t base) {
  if (atom_bytes == 0 || atom_bytes > (uint64_t{1} << 24))
    return "atom = " + std::to_string(atom_bytes) + " bytes must be in 1..16777216";
  if (base % atom_bytes != 0)
    return "base = " + std::to_string(base) + " must be a multiple of the atom (" + std::to_string(atom_bytes) + " bytes)";
  std::vector<int64_t> from(atom_bytes, -1);
  for (uint64_t a = base; a < base + atom_bytes; ++a) {
    const uint64_t y = swizzle(a);
    if (y < base || y >= base + atom_bytes)
      return "byte " + std::to_string(a) + " goes to " + std::to_string(y) + ", outside its atom [" +
             std::to_string(base) + ", " + std::to_string(base + atom_bytes) + ")";
    if (from[y - base] >= 0)
      return "bytes " + std::to_string(from[y - base]) + " and " + std::to_string(a) + " both go to " +
             std::to_string(y) + ": not a bijection on the atom at " + std::to_string(base);
    from[y - base] = static_cast<int64_t>(a);
  }
  return std::nullopt;
}

Violation swizzle_matches_model(const AddressMap& swizzle, model::SwizzleMode mode, uint64_t base, uint64_t bytes) {
  for (uint64_t a = base; a < base + bytes; ++a) {
    const uint64_t want = model::swizzle_address(mode, a);
    const uint64_t got = swizzle(a);
    if (got != want)
      return "byte " + std::to_string(a) + " (" + hex(a) + ") goes to " + std::to_string(got) + "; the model's " +
             std::string(model::to_string(mode)) + " swizzle puts it at " + std::to_string(want);
  }
  return std::nullopt;
}

Violation tile_matches_tma_box(const TileAddress& address, const model::TmaBox& box) {
  try {
    box.validate(true);
  } catch (const model::ModelError& e) {
    return std::string("the box is not one TMA can move: ") + e.what();
  }
  for (uint32_t r = 0; r < box.rows; ++r)
    for (uint32_t c = 0; c < box.inner_elems; ++c) {
      const uint64_t want = box.address(r, c);
      const uint64_t got = address(r, c);
      if (got != want)
        return "element (" + std::to_string(r) + "," + std::to_string(c) + ") is at " + std::to_string(got) +
               "; the TMA box (" + std::to_string(box.rows) + " x " + std::to_string(box.inner_elems) + ", " +
               std::string(model::to_string(box.swizzle)) + ", base " + std::to_string(box.smem_base) +
               ") puts it at " + std::to_string(want);
    }
  return std::nullopt;
}

Violation descriptor_reads_what_tma_wrote(uint64_t descriptor_sm90, const model::OperandExtent& operand,
                                          const TileAddress& written_at) {
  model::SmemDescriptorSm90 seen;
  try {
    seen = model::SmemDescriptorSm90::decode(descriptor_sm90);
  } catch (const model::ModelError& e) {
    return "descriptor " + hex(descriptor_sm90) + " does not decode: " + e.what();
  }
  return descriptor_reads(seen, operand, written_at);
}

Violation descriptor_reads_what_tma_wrote_sm100(uint64_t descriptor_sm100, const model::OperandExtent& operand,
                                                const TileAddress& written_at) {
  model::SmemDescriptorSm100 seen;
  try {
    seen = model::SmemDescriptorSm100::decode(descriptor_sm100);
  } catch (const model::ModelError& e) {
    return "descriptor " + hex(descriptor_sm100) + " does not decode: " + e.what();
  }
  return descriptor_reads(seen, operand, written_at);
}

Violation descriptor_reads_tma_box(uint64_t descriptor_sm90, const model::OperandExtent& operand,
                                   const model::TmaBox& box, uint32_t row0, uint32_t k0) {
  if (row0 + operand.rows > box.rows || k0 + operand.k_elems > box.inner_elems)
    return "the operand (rows " + std::to_string(row0) + ".." + std::to_string(row0 + operand.rows) + ", k " +
           std::to_string(k0) + ".." + std::to_string(k0 + operand.k_elems) + ") must lie inside the box (" +
           std::to_string(box.rows) + " x " + std::to_string(box.inner_elems) + ")";
  return descriptor_reads_what_tma_wrote(descriptor_sm90, operand,
                                         [&](uint32_t r, uint32_t k) { return box.address(row0 + r, k0 + k); });
}

Violation matrix_rows_land(uint32_t count, const std::function<uint64_t(uint32_t lane)>& lane_address,
                           const std::function<uint64_t(uint32_t matrix, uint32_t row)>& row_address) {
  if (count != 1 && count != 2 && count != 4) return "count = " + std::to_string(count) + " must be 1, 2 or 4";
  for (uint32_t j = 0; j < count; ++j)
    for (uint32_t r = 0; r < 8; ++r) {
      const uint32_t lane = model::ldmatrix_row_address_thread(count, j, r);
      const uint64_t got = lane_address(lane), want = row_address(j, r);
      if (got != want)
        return "lane " + std::to_string(lane) + " supplies row " + std::to_string(r) + " of matrix " +
               std::to_string(j) + " (.x" + std::to_string(count) + ") and gives " + std::to_string(got) +
               "; that row lies at " + std::to_string(want);
    }
  return std::nullopt;
}

Violation stmatrix_x4_places_accumulators(
    uint32_t n, uint32_t warps,
    const std::function<model::FragmentCell(uint32_t warp, uint32_t lane, uint32_t call)>& row_start) {
  if (n < 16 || n > 256 || n % 16 != 0) return "n = " + std::to_string(n) + " must be 16..256, a multiple of 16";
  if (warps < 1 || warps > 4) return "warps = " + std::to_string(warps) + " must be 1..4 (one warpgroup)";
  const uint32_t rows = 16 * warps;
  std::vector<int> written(size_t{rows} * n, 0);
  for (uint32_t warp = 0; warp < warps; ++warp)
    for (uint32_t p = 0; p < n / 16; ++p)
      for (uint32_t lane = 0; lane < 32; ++lane)
        for (uint32_t q = 0; q < 4; ++q)
          for (uint32_t h = 0; h < 2; ++h) {
            const auto e = model::ldmatrix_element(4, false, lane, q, h);  // (matrix, row, col) of this value
            const uint32_t provider = model::ldmatrix_row_address_thread(4, e.matrix, e.row);
            const model::FragmentCell at = row_start(warp, provider, p);
            const model::FragmentCell want = model::wgmma_accumulator_cell(n, warp * 32 + lane, 8 * p + 2 * q + h);
            const std::string which = "warp " + std::to_string(warp) + " lane " + std::to_string(lane) + " call " +
                                      std::to_string(p) + " register " + std::to_string(2 * q + h);
            if (at.row != want.row || at.col + e.col != want.col)
              return which + " lands at (" + std::to_string(at.row) + "," + std::to_string(at.col + e.col) +
                     "); the wgmma fragment map puts it at (" + std::to_string(want.row) + "," +
                     std::to_string(want.col) + ")";
            if (want.row >= rows || want.col >= n) return which + ": cell outside the tile";
            ++written[size_t{want.row} * n + want.col];
          }
  for (uint32_t i = 0; i < rows * n; ++i)
    if (written[i] != 1)
      return "cell (" + std::to_string(i / n) + "," + std::to_string(i % n) + ") is written " +
             std::to_string(written[i]) + " times; every cell once";
  return std::nullopt;
}

}  // namespace gemmscope::testing
