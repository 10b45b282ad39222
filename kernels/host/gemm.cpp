// gemmscope::gemm: validation, the ladder's registry and the dispatch.
#include "gemmscope/gemm.hpp"

#include <algorithm>

#include "gemmscope/tuned.hpp"
#include "sm90/ladder.hpp"

namespace gemmscope {

void check_cuda(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

namespace {
bool overlaps(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + static_cast<uintptr_t>(b_bytes) && y < x + static_cast<uintptr_t>(a_bytes);
}
}  // namespace

std::string validate_problem(const GemmShape& s, const GemmOperands& ops) {
  if (s.m < 1) return "M = " + std::to_string(s.m) + " must be at least 1";
  if (s.n < 1) return "N = " + std::to_string(s.n) + " must be at least 1";
  if (s.k < 1) return "K = " + std::to_string(s.k) + " must be at least 1";
  constexpr int64_t kMaxDim = int64_t{1} << 31;
  if (s.m >= kMaxDim || s.n >= kMaxDim || s.k >= kMaxDim)
    return "each of M, N, K must be below 2^31 (got " + std::to_string(s.m) + " x " + std::to_string(s.n) + " x " +
           std::to_string(s.k) + ")";
  if (!ops.a) return "A is a null pointer";
  if (!ops.b) return "B is a null pointer";
  if (!ops.c) return "C is a null pointer";
  if (reinterpret_cast<uintptr_t>(ops.a) % 2 || reinterpret_cast<uintptr_t>(ops.b) % 2 ||
      reinterpret_cast<uintptr_t>(ops.c) % 2)
    return "A, B and C must be 2-byte aligned (bf16)";
  const int64_t c_bytes = s.m * s.n * 2;
  if (overlaps(ops.c, c_bytes, ops.a, s.m * s.k * 2)) return "C overlaps A: the output must not alias an input";
  if (overlaps(ops.c, c_bytes, ops.b, s.n * s.k * 2)) return "C overlaps B: the output must not alias an input";
  return {};
}

namespace sm90 {
std::string tma_operand_rules(const GemmShape& s, const GemmOperands& ops) {
  if (s.k % 8 != 0)
    return "K = " + std::to_string(s.k) + " must be a multiple of 8 for TMA (row stride " + std::to_string(s.k * 2) +
           " bytes must be a multiple of 16)";
  if (reinterpret_cast<uintptr_t>(ops.a) % 16 != 0) return "A must be 16-byte aligned for TMA";
  if (reinterpret_cast<uintptr_t>(ops.b) % 16 != 0) return "B must be 16-byte aligned for TMA";
  return {};
}
}  // namespace sm90

const std::vector<KernelInfo>& sm90_kernels() {
  static const std::vector<KernelInfo> kernels = {
      {"k01", "kernels/sm90/k01_naive.cu", "one thread per output, fp32 accumulation, no tensor cores",
       sm90::k01::can_implement, sm90::k01::launch},
      {"k02", "kernels/sm90/k02_tma_wgmma.cu", "TMA loads (interleaved core matrices, no swizzle) + wgmma",
       sm90::k02::can_implement, sm90::k02::launch},
      {"k03", "kernels/sm90/k03_swizzle128.cu", "128B swizzle in tensor map and descriptors",
       sm90::k03::can_implement, sm90::k03::launch},
      {"k04", "kernels/sm90/k04_tma_store.cu", "stmatrix into swizzled smem, TMA-store epilogue",
       sm90::k04::can_implement, sm90::k04::launch},
      {"k05", "kernels/sm90/k05_multicast.cu", "2x1 clusters (two CTAs along M), TMA multicast of the shared B tile",
       sm90::k05::can_implement, sm90::k05::launch},
      {"k05_2x2", "kernels/sm90/k05_multicast.cu", "2x2 clusters, TMA multicast of both A and B slices",
       sm90::k05::can_implement_2x2, sm90::k05::launch_2x2},
      {"k06", "kernels/sm90/k06_warp_specialized.cu",
       "producer warp + 2 consumer warpgroups, 3-stage full/empty ring, setmaxnreg, 128x256 tiles",
       sm90::k06::can_implement, sm90::k06::launch},
      {"k07", "kernels/sm90/k07_epilogue_double_buffer.cu",
       "two 64x64 staging buffers per consumer (store overlaps stmatrix), 4 stages",
       sm90::k07::can_implement, sm90::k07::launch},
      {"k08_dyn", "kernels/sm90/k08_persistent.cu", "persistent grid, dynamic schedule (atomic work counter)",
       sm90::k08::can_implement, sm90::k08::launch_dynamic},
      {"k08_c1", "kernels/sm90/k08_persistent.cu", "k08 without clusters (1x1, no multicast): what multicast buys",
       sm90::k08::can_implement, sm90::k08::launch_no_cluster},
      {"k08", "kernels/sm90/k08_persistent.cu", "persistent grid, static schedule; next tile's loads overlap the epilogue",
       sm90::k08::can_implement, sm90::k08::launch},
      {"k09_dyn", "kernels/sm90/k09_block_swizzle.cu", "grouped zig-zag tile order (group 8), dynamic schedule",
       sm90::k09::can_implement, sm90::k09::launch_dynamic},
      {"k09_c1", "kernels/sm90/k09_block_swizzle.cu", "k09 without clusters (1x1, no multicast), group 16",
       sm90::k09::can_implement, sm90::k09::launch_no_cluster},
      {"k09", "kernels/sm90/k09_block_swizzle.cu", "grouped zig-zag tile order (group 8), static schedule",
       sm90::k09::can_implement, sm90::k09::launch},
      {"k10", "kernels/sm90/k10_tunable.cuh",
       "autotuned: tile, stages, warpgroups, cluster, schedule, block swizzle, split-K chosen per shape "
       "(tuning cache, else heuristic)",
       sm90::k10::can_implement_chosen, sm90::k10::launch_chosen},
  };
  return kernels;
}

const KernelInfo& find_kernel(const std::string& name) {
  for (const auto& k : sm90_kernels())
    if (k.name == name) return k;
  std::string known;
  for (const auto& k : sm90_kernels()) known += (known.empty() ? "" : ", ") + k.name;
  throw GemmError("kernel '" + name + "' is unknown; known kernels: " + known +
                  ", auto, k10:<configuration> (e.g. k10:128x256x64.s4.wg2.c2x1.static.g0.sk1)");
}

const KernelInfo& select_kernel(const GemmShape& shape, const GemmOperands& ops) {
  const auto& all = sm90_kernels();
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if (it->can_implement(shape, ops).empty()) return *it;
  throw GemmError("no kernel can implement " + std::to_string(shape.m) + " x " + std::to_string(shape.n) + " x " +
                  std::to_string(shape.k));
}

void gemm(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream, const std::string& kernel) {
  if (kernel.rfind("k10:", 0) == 0) return gemm_config(kernel.substr(4), shape, ops, stream);
  if (auto why = validate_problem(shape, ops); !why.empty()) throw GemmError(why);
  if (kernel == "auto") return select_kernel(shape, ops).launch(shape, ops, stream);  // checked in the selection
  const KernelInfo& k = find_kernel(kernel);
  if (auto why = k.can_implement(shape, ops); !why.empty()) throw GemmError(k.name + ": " + why);
  k.launch(shape, ops, stream);
}

}  // namespace gemmscope
