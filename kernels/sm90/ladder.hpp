#pragma once
// The Hopper ladder's launchers, one namespace per kernel file.
#include "gemmscope/gemm.hpp"

#define GEMMSCOPE_DECLARE_KERNEL(ns)                                                   \
  namespace gemmscope::sm90::ns {                                                      \
  std::string can_implement(const GemmShape& shape, const GemmOperands& ops);         \
  void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);  \
  }

GEMMSCOPE_DECLARE_KERNEL(k01)
GEMMSCOPE_DECLARE_KERNEL(k02)
GEMMSCOPE_DECLARE_KERNEL(k03)
GEMMSCOPE_DECLARE_KERNEL(k04)

namespace gemmscope::sm90 {
// Rules shared by the TMA kernels: K-major operands with 16-byte row strides and
// 16-byte aligned bases. Empty when satisfied.
std::string tma_operand_rules(const GemmShape& shape, const GemmOperands& ops);
}  // namespace gemmscope::sm90
