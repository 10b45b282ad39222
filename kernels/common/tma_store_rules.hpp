#pragma once
// What a TMA store of C (M x N bf16, row-major) asks of C beyond the operands' TMA
// rules: a tensor map's global strides are multiples of 16 bytes and its base is
// 16-byte aligned (cuTensorMapEncodeTiled). Each rule returns the message naming the
// value and the kernel, or "" when it holds. CUDA-free: host-side checks only.
#include <cstdint>
#include <string>

namespace gemmscope {

// C's row stride, N x 2 bytes, a multiple of 16.
inline std::string tma_store_row_rule(int64_t n, const std::string& kernel) {
  if (n % 8 == 0) return {};
  return "N = " + std::to_string(n) + " must be a multiple of 8 for " + kernel + "'s TMA store (C row stride " +
         std::to_string(n * 2) + " bytes must be a multiple of 16)";
}

inline std::string tma_store_base_rule(const void* c, const std::string& kernel) {
  if (reinterpret_cast<uintptr_t>(c) % 16 == 0) return {};
  return "C must be 16-byte aligned for " + kernel + "'s TMA store";
}

// Both, the row stride first.
inline std::string tma_store_rules(int64_t n, const void* c, const std::string& kernel) {
  if (auto why = tma_store_row_rule(n, kernel); !why.empty()) return why;
  return tma_store_base_rule(c, kernel);
}

}  // namespace gemmscope
