#pragma once
// Shared-memory swizzles. PTX ISA: "Tensor Map / Swizzling modes" and the wgmma
// "Matrix Descriptor" section; CuTe's Swizzle<B,M,S> names the same function.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::model {

// Swizzle<B,M,S>: take the B bits starting at bit M+S (YYY) of an offset and XOR
// them into the B bits starting at bit M (ZZZ). An involution, and a bijection on
// every aligned block of 2^(B+M+S) units.
struct Swizzle {
  int bits = 0;   // B
  int base = 0;   // M
  int shift = 0;  // S
  constexpr uint64_t operator()(uint64_t offset) const {
    if (bits == 0) return offset;
    const uint64_t mask = ((uint64_t{1} << bits) - 1) << (base + shift);
    return offset ^ ((offset & mask) >> shift);
  }
  // Size of the block on which the swizzle is a bijection (the repeat period).
  constexpr uint64_t period() const { return uint64_t{1} << (bits + base + shift); }
  // The YYY and ZZZ fields must not overlap (shift >= bits), else the map is neither
  // an involution nor a bijection; everything must fit in 64 bits.
  constexpr bool valid() const {
    return bits >= 0 && base >= 0 && shift >= bits && bits + base + shift <= 63;
  }
};

// Swizzle<B,M,S> after checking valid(); throws ModelError naming the bad value.
Swizzle make_swizzle(int bits, int base, int shift);

// The modes of TMA tensor maps and of MMA descriptors, on byte addresses.
enum class SwizzleMode { None, B32, B64, B128, B128Atom32 };

inline constexpr SwizzleMode kAllSwizzleModes[] = {SwizzleMode::None, SwizzleMode::B32, SwizzleMode::B64,
                                                   SwizzleMode::B128, SwizzleMode::B128Atom32};

// Names as the CLI spells them: none, 32B, 64B, 128B, 128B-atom32B.
std::string_view to_string(SwizzleMode mode);
// Throws ModelError naming the text and the accepted names.
SwizzleMode parse_swizzle_mode(std::string_view text);

// 32B = <1,4,3>, 64B = <2,4,3>, 128B = <3,4,3>, 128B with 32B atoms = <2,5,2>.
Swizzle swizzle_of(SwizzleMode mode);
// Bytes of one swizzled row (the span the XOR pattern permutes): 32/64/128; 0 for none.
uint32_t swizzle_span_bytes(SwizzleMode mode);
// Alignment a swizzled tile needs so that its pattern starts at its first byte
// (the hardware XORs absolute address bits): 256/512/1024 bytes; 16 for none.
uint32_t swizzle_alignment_bytes(SwizzleMode mode);
// The byte address the hardware uses for logical byte address `address`.
uint64_t swizzle_address(SwizzleMode mode, uint64_t address);

}  // namespace gemmscope::model
