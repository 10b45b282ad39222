#pragma once
// Which dimension of an MMA operand is contiguous in shared memory.
// PTX ISA: wgmma / tcgen05 "Shared Memory Matrix Layout" (K-major and MN-major).
#include <string_view>

namespace gemmscope::model {

enum class OperandMajor { K = 0, MN = 1 };

std::string_view to_string(OperandMajor major);           // "K" / "MN"
OperandMajor parse_operand_major(std::string_view text);  // throws ModelError

}  // namespace gemmscope::model
