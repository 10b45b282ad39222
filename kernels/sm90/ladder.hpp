#pragma once
// The Hopper ladder's launchers, one namespace per kernel file.
#include "gemmscope/gemm.hpp"
#include "tune/config.hpp"

#define GEMMSCOPE_DECLARE_KERNEL(ns)                                                   \
  namespace gemmscope::sm90::ns {                                                      \
  std::string can_implement(const GemmShape& shape, const GemmOperands& ops);         \
  void launch(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);  \
  }

GEMMSCOPE_DECLARE_KERNEL(k01)
GEMMSCOPE_DECLARE_KERNEL(k02)
GEMMSCOPE_DECLARE_KERNEL(k03)
GEMMSCOPE_DECLARE_KERNEL(k04)
GEMMSCOPE_DECLARE_KERNEL(k05)
GEMMSCOPE_DECLARE_KERNEL(k06)
GEMMSCOPE_DECLARE_KERNEL(k07)
GEMMSCOPE_DECLARE_KERNEL(k08)
GEMMSCOPE_DECLARE_KERNEL(k09)

// Variants of part 2's kernels: k05 in 2 x 2 clusters, k08/k09 with the dynamic
// (atomic counter) schedule, k09 with a chosen group size.
namespace gemmscope::sm90::k05 {
std::string can_implement_2x2(const GemmShape& shape, const GemmOperands& ops);
void launch_2x2(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
}  // namespace gemmscope::sm90::k05
namespace gemmscope::sm90::k08 {
void launch_dynamic(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
void launch_no_cluster(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
}  // namespace gemmscope::sm90::k08
namespace gemmscope::sm90::k09 {
void launch_dynamic(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
void launch_no_cluster(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
void launch_with_group(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream, uint32_t group,
                       bool dynamic);
}  // namespace gemmscope::sm90::k09

// k10: the tunable kernel. A configuration (tune/config.hpp) names a compiled
// instance plus the run-time group and split-K; the registry's "k10" runs the
// configuration the tuning cache or the heuristic chooses (gemmscope/tuned.hpp).
namespace gemmscope::sm90::k10 {
std::string can_implement(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops);
void launch(const tune::KernelConfig& c, const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
std::string can_implement_chosen(const GemmShape& shape, const GemmOperands& ops);
void launch_chosen(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);
}  // namespace gemmscope::sm90::k10

namespace gemmscope::sm90 {
// Rules shared by the TMA kernels: K-major operands with 16-byte row strides and
// 16-byte aligned bases. Empty when satisfied.
std::string tma_operand_rules(const GemmShape& shape, const GemmOperands& ops);
}  // namespace gemmscope::sm90
