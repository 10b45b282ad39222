#pragma once
// The one kernel registry: every kernel name a caller gives (gemmscope::gemm's
// `kernel`, `gemmscope bench|check --kernels`, the benchmark and the GPU tests) is
// resolved here, and nowhere else, to something runnable:
//
//   auto                 what gemmscope::gemm runs by default: on an sm_100 GPU (10.0)
//                        sm100 where it can run the problem; else k10 with the tuning
//                        cache's or the heuristic's configuration (gemmscope/tuned.hpp),
//                        else the highest rung of the ladder that can run the problem
//                        (gemmscope/auto_choice.hpp: the decision, without a GPU)
//   k01 ... k10          the Hopper ladder and its variants (k05_2x2, k08_dyn, ...)
//   k10:<configuration>  one configuration of the tunable kernel (tune/config.hpp)
//   cublas               cuBLASLt, the benchmarks' reference
//   sm100                the Blackwell kernel (gemmscope/sm100.hpp): refuses, at run
//                        time, any GPU but one of compute capability 10.0
#include <functional>
#include <string>
#include <vector>

#include "gemmscope/gemm.hpp"

namespace gemmscope {

// What a name resolves to.
struct RunnableKernel {
  std::string name;  // as given: "k08", "auto", "k10:128x256x64.s4.wg2.c2x1.static.g0.sk1", "cublas", "sm100"
  // Empty when it can run this problem on the current GPU; else why not, naming the
  // value and the rule (validate_problem's checks come first). Launches nothing.
  std::function<std::string(const GemmShape&, const GemmOperands&)> can_implement;
  // Work done once per shape and stream before timing them (cuBLASLt picks its
  // algorithm and allocates its workspace); a no-op for the project's kernels.
  // launch() does it itself where it was not done.
  std::function<void(const GemmShape&, cudaStream_t)> prepare;
  // Queues the product on `stream`; CUDA errors as std::runtime_error.
  std::function<void(const GemmShape&, const GemmOperands&, cudaStream_t)> launch;
  // What it runs for this problem: for "auto" and "k10" the kernel or configuration
  // chosen ("k10:<configuration> (heuristic)"), for the others their own name. Throws
  // GemmError where nothing can run the problem.
  std::function<std::string(const GemmShape&, const GemmOperands&)> dispatch;
};

// Throws GemmError for an unknown name ("kernel 'k99' is unknown; known kernels:
// k01, ..., k10, auto, k10:<configuration> (e.g. ...), cublas, sm100") or a malformed
// or uncompiled configuration (its message). Does no GPU work.
RunnableKernel resolve_kernel(const std::string& name);

// Whether a can_implement refusal is about the GPU, not the problem: sm100's on any
// GPU but an sm_100 ("needs an sm_100 GPU (compute capability 10.0); this GPU is
// 9.0"). check and the tests report such a case as skipped, never as passed.
inline bool refused_for_the_gpu(const std::string& refusal) { return refusal.starts_with("needs an sm_100 GPU"); }

// The names resolve_kernel accepts, as its error message lists them.
std::string known_kernel_names();

// One rung of the Hopper ladder.
struct KernelInfo {
  std::string name;  // "k01", "k05_2x2", ...
  std::string file;  // "kernels/sm90/k01_naive.cu"
  std::string idea;  // one line: what this step adds
  // Empty when the kernel can run this problem; else why not (value and rule).
  std::string (*can_implement)(const GemmShape&, const GemmOperands&);
  void (*launch)(const GemmShape&, const GemmOperands&, cudaStream_t);
};

// The Hopper ladder in order, k10 (its chosen configuration) last.
const std::vector<KernelInfo>& sm90_kernels();

// The rung of the Hopper ladder for this problem: the last of sm90_kernels() that can
// run it. Throws GemmError where none can.
const KernelInfo& select_kernel(const GemmShape& shape, const GemmOperands& ops);

// The kernel "auto" runs for this problem on the current GPU: "sm100" on compute
// capability 10.0 where it accepts the problem, else select_kernel's rung
// (choose_auto_kernel in gemmscope/auto_choice.hpp). Throws GemmError where none can.
std::string auto_kernel(const GemmShape& shape, const GemmOperands& ops);

}  // namespace gemmscope
