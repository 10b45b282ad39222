#include "gemmscope/model/desc_interpreter.hpp"

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {

std::string_view to_string(OperandMajor major) { return major == OperandMajor::K ? "K" : "MN"; }

OperandMajor parse_operand_major(std::string_view text) {
  if (text == "K" || text == "k") return OperandMajor::K;
  if (text == "MN" || text == "mn") return OperandMajor::MN;
  throw ModelError("major '" + std::string(text) + "' is not one of K, MN");
}

CanonicalSmemLayout CanonicalSmemLayout::from(const SmemDescriptorSm90& desc) {
  desc.validate();
  return {desc.start_address_bytes, desc.lbo_bytes, desc.sbo_bytes, desc.base_offset, desc.swizzle};
}

CanonicalSmemLayout CanonicalSmemLayout::from(const SmemDescriptorSm100& desc) {
  desc.validate();
  // Absolute LBO mode (sm_103a, 48-byte K tiles) gives LBO as an address; not modelled.
  require(desc.lbo_mode == LboMode::Relative, "lbo_mode", 1,
          "(absolute) is outside the interpreter's domain (sm_103a 48-byte K tiles); only relative is modelled");
  return {desc.start_address_bytes, desc.lbo_bytes, desc.sbo_bytes, desc.base_offset, desc.swizzle};
}

void CanonicalSmemLayout::check_operand(const OperandExtent& op) const {
  require(op.elem_bytes == 1 || op.elem_bytes == 2 || op.elem_bytes == 4, "elem_bytes", op.elem_bytes,
          "must be 1, 2 or 4");
  require(op.rows >= 1, "rows", op.rows, "must be at least 1");
  require(op.k_elems >= 1, "k", op.k_elems, "must be at least 1");
  const uint32_t t_elems = 16 / op.elem_bytes;  // elements in 16 bytes
  const uint32_t span = swizzle_span_bytes(swizzle);
  if (op.major == OperandMajor::K) {
    require(op.rows % 8 == 0, "rows", op.rows, "must be a multiple of 8 (core matrix height) for K-major");
    if (!(op.k_elems % t_elems == 0))
      require(false, "k", op.k_elems,
              "must be a multiple of " + std::to_string(t_elems) + " elements (16-byte core matrix width) for K-major");
    if (swizzle != SwizzleMode::None)
      if (!(uint64_t{op.k_elems} * op.elem_bytes <= span))
        require(false, "k bytes", uint64_t{op.k_elems} * op.elem_bytes,
                "must be at most the swizzle span (" + std::to_string(span) + " bytes for " +
                    std::string(to_string(swizzle)) +
                    "): a swizzled K-major descriptor covers one swizzle row; advance K through the start address");
  } else {
    if (!(op.rows % t_elems == 0))
      require(
          false, "rows", op.rows,
          "must be a multiple of " + std::to_string(t_elems) + " elements (16-byte core matrix width) for MN-major");
    require(op.k_elems % 8 == 0, "k", op.k_elems, "must be a multiple of 8 (core matrix height) for MN-major");
  }
}

uint64_t CanonicalSmemLayout::linear_address(const OperandExtent& op, uint32_t row, uint32_t k) const {
  check_operand(op);
  if (!(row < op.rows)) require(false, "row", row, "must be below rows = " + std::to_string(op.rows));
  if (!(k < op.k_elems)) require(false, "k index", k, "must be below k = " + std::to_string(op.k_elems));
  const uint64_t eb = op.elem_bytes;
  const uint64_t t_elems = 16 / eb;
  const uint64_t span = swizzle_span_bytes(swizzle);
  uint64_t offset = 0;
  if (op.major == OperandMajor::K) {
    if (swizzle == SwizzleMode::None) {
      // ((8,m),(T,2k)) : ((1T,SBO),(1,LBO)), in elements; strides in bytes below.
      offset = (row % 8) * 16 + (row / 8) * uint64_t{sbo_bytes} + (k % t_elems) * eb + (k / t_elems) * lbo_bytes;
    } else {
      // ((8,m),(T,2k)) : ((span,SBO),(1,T)): a row of the atom is one swizzle span; K runs on inside it.
      offset = (row % 8) * span + (row / 8) * uint64_t{sbo_bytes} + k * eb;
    }
  } else {
    if (swizzle == SwizzleMode::None) {
      // ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
      offset = (row % t_elems) * eb + (row / t_elems) * uint64_t{sbo_bytes} + (k % 8) * 16 + (k / 8) * lbo_bytes;
    } else {
      // ((T,S/16,m),(8,k)) : ((1,T,LBO),(span,SBO)): an atom is span bytes of MN by 8 K rows.
      const uint64_t atom_elems = span / eb;
      offset = (row % atom_elems) * eb + (row / atom_elems) * uint64_t{lbo_bytes} + (k % 8) * span +
               (k / 8) * uint64_t{sbo_bytes};
    }
  }
  return uint64_t{start_address_bytes} + offset;
}

uint64_t mma_swizzle_address(SwizzleMode mode, uint32_t base_offset, uint64_t address) {
  if (mode == SwizzleMode::None || base_offset == 0) return swizzle_address(mode, address);
  // Shift the row phase by the pattern's start (UNCONFIRMED; see the header): the
  // swizzle of (address - 128 b) moved back by 128 b. Every mode's row bits start at
  // bit 7 or above, so a shift by whole 128-byte rows only changes the phase.
  const uint64_t shift = uint64_t{base_offset} * 128;
  const uint64_t period = swizzle_of(mode).period();
  // Add a whole number of periods first so that the subtraction cannot wrap.
  const uint64_t lifted = address + period * ((shift + period - 1) / period);
  return swizzle_address(mode, lifted - shift) + shift - (lifted - address);
}

uint64_t CanonicalSmemLayout::address(const OperandExtent& op, uint32_t row, uint32_t k) const {
  return mma_swizzle_address(swizzle, base_offset, linear_address(op, row, k));
}

namespace {
std::vector<ElementAddress> map_all(const CanonicalSmemLayout& layout, const OperandExtent& op) {
  layout.check_operand(op);
  std::vector<ElementAddress> out;
  out.reserve(uint64_t{op.rows} * op.k_elems);
  for (uint32_t r = 0; r < op.rows; ++r)
    for (uint32_t k = 0; k < op.k_elems; ++k) out.push_back({r, k, layout.address(op, r, k)});
  return out;
}
}  // namespace

uint64_t descriptor_element_address(const SmemDescriptorSm90& desc, const OperandExtent& op, uint32_t row, uint32_t k) {
  return CanonicalSmemLayout::from(desc).address(op, row, k);
}
uint64_t descriptor_element_address(const SmemDescriptorSm100& desc, const OperandExtent& op, uint32_t row,
                                    uint32_t k) {
  return CanonicalSmemLayout::from(desc).address(op, row, k);
}
std::vector<ElementAddress> descriptor_address_map(const SmemDescriptorSm90& desc, const OperandExtent& op) {
  return map_all(CanonicalSmemLayout::from(desc), op);
}
std::vector<ElementAddress> descriptor_address_map(const SmemDescriptorSm100& desc, const OperandExtent& op) {
  return map_all(CanonicalSmemLayout::from(desc), op);
}

}  // namespace gemmscope::model
