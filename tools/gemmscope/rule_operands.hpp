#pragma once
// Operands for asking a kernel's rules about a shape alone (can_implement, dispatch):
// made-up addresses, compared and never dereferenced, that meet every alignment rule
// and never overlap C. C from 256 ends below 2^63 for any M x N of sizes below 2^31;
// A and B start at 2^63 and past it.
#include <cstdint>

#include "gemmscope/gemm.hpp"

namespace gemmscope::cli {

inline GemmOperands rule_operands() {
  const uintptr_t c = 256, a = uintptr_t{1} << 63, b = a + (uintptr_t{1} << 62);
  return {reinterpret_cast<const bf16*>(a), reinterpret_cast<const bf16*>(b), reinterpret_cast<bf16*>(c)};
}

}  // namespace gemmscope::cli
