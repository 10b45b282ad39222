#pragma once
// Expected traces from the model: what each stage of a Hopper ladder kernel asks of
// shared memory, generated from the kernel's configuration and the model's layout
// facts (TMA box placement, swizzles, wgmma and stmatrix fragment maps), never from
// the kernels' own address code (that is the second implementation the comparison
// tests hold against this one).
//
// The configurations (kernels/sm90/k02..k04): one warpgroup (4 warps), a 128x128 C
// tile, K blocks of 64 bf16, A and B K-major, two m64n128k16 wgmma per K=16 step.
//   k02: no swizzle, the "interleaved" layout: one TMA box of 128 rows x 16 bytes per
//        8-element K chunk, the 8 boxes of an operand stacked (chunk c at c * 2048).
//   k03: 128B swizzle: one box of 128 rows x 128 bytes per operand, 1024-byte aligned.
//   k04: k03's main loop, then the epilogue: stmatrix.x4 of the accumulators into a
//        128B-swizzled staging tile (two 128-row x 128-byte halves over the operand
//        tiles), then one TMA store per half.
// Layout of shared memory from smem_base: A tile at +0, B tile at +16384 (both
// kernels), the staging halves at +0 and +16384 (k04).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gemmscope/model/access_patterns.hpp"
#include "gemmscope/traces/trace.hpp"

namespace gemmscope::traces {

struct LadderTraceConfig {
  std::string kernel = "k04";  // k02, k03 or k04
  uint32_t k_blocks = 1;       // main-loop iterations to trace (K = 64 * k_blocks), 1..64
  uint64_t smem_base = 0;      // shared address of the A tile (1024-aligned for k03/k04, 128 for k02)
  uint32_t cta = 0;            // the CTA the records name (addresses do not depend on it)
  bool main_loop = true;       // TMA writes and wgmma operand reads
  bool epilogue = true;        // k04: stmatrix and the TMA store's reads
};

// The kernels this generator knows, with one line each on what their trace holds.
struct LadderTraceKernel {
  std::string name;
  std::string description;
};
const std::vector<LadderTraceKernel>& ladder_trace_kernels();

// Throws TraceError naming the bad field (unknown kernel, k_blocks out of range, a
// misaligned base).
Trace model_trace(const LadderTraceConfig& config);

// The epilogue's stmatrix.x4 records of k04 for one warp (0..3), in program order:
// for each 64-row wgmma block mi (0, 1), for each 16-column pair p (0..7).
std::vector<TraceRecord> k04_stmatrix_records(uint64_t smem_base, uint32_t cta, uint32_t warp);

// A built-in bank pattern (model::builtin_patterns()) as a trace: its instructions,
// stage ldmatrix / stmatrix / load / store / epilogue-store by what they are.
Trace pattern_trace(std::string_view pattern_name, model::SwizzleMode swizzle, uint64_t base);

}  // namespace gemmscope::traces
