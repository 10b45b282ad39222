#pragma once
// The differential harness: any GEMM launcher on the GPU against the Eigen reference
// (reference.hpp), on random shapes drawn by rapidcheck, fresh random inputs per case,
// C poisoned with NaN before each run, the K-scaled error bound, NaN and Inf failing;
// a failure shrinks to its smallest shape. Needs the CUDA runtime (cudart) and a GPU
// at run time; compiles with any C++20 compiler that finds the CUDA headers, or nvcc.
//
//   void my_launcher(gemmscope::testing::Shape s, const __nv_bfloat16* a, const __nv_bfloat16* b,
//                    __nv_bfloat16* c, cudaStream_t stream);   // C = A * B^T, row-major
//   const auto r = gemmscope::testing::differential_test(my_launcher, {.name = "my kernel"});
//   EXPECT_TRUE(r.ok) << r.summary();
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gemmscope/testing/generators.hpp"
#include "gemmscope/testing/reference.hpp"

namespace gemmscope::testing {

// Computes C = A * B^T for `shape` on `stream` (A: M x K, B: N x K, C: M x N, bf16,
// row-major, device pointers). May throw to refuse or report an error.
using Launcher =
    std::function<void(Shape shape, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c, cudaStream_t stream)>;

// True when a CUDA device is usable; `why` says what is missing otherwise.
bool gpu_available(std::string* why = nullptr);

// One case: the inputs of HostProblem::random(shape, seed) on the device, C poisoned
// with NaN (0xFFFF), the launcher on a stream of its own, then the comparison.
struct CaseOutcome {
  Shape shape;
  uint64_t seed = 0;
  bool ok = false;
  std::string error;  // the launcher threw, or a CUDA error (empty when it ran)
  Comparison cmp;
  std::string summary() const;  // "MxNxK seed S: PASS ..." / "...: FAIL ..." / "...: error ..."
};
CaseOutcome run_differential_case(const Launcher& launcher, const Shape& shape, uint64_t seed);

struct DiffOptions {
  std::string name = "kernel";
  // Each dimension's generator (generators.hpp); shrinking follows the generator.
  rc::Gen<int64_t> m = gen::dimension(), n = gen::dimension(), k = gen::dimension();
  int max_success = 0;    // passing cases to run; 0: rapidcheck's configuration (RC_PARAMS, default 100)
  int max_size = 0;       // rapidcheck's largest size; 0: its configuration (default 100)
  std::optional<uint64_t> seed;  // rapidcheck's seed; else its configuration's (RC_PARAMS seed=...)
  bool print_report = true;      // print rapidcheck's report of a failure (reproduction string) to stderr
};

struct DiffResult {
  bool ok = false;
  int cases_passed = 0;
  std::optional<CaseOutcome> first_failure;     // the first failing case drawn
  std::optional<CaseOutcome> smallest_failure;  // where shrinking ended: no smaller shape of the generators fails
  // A sticky CUDA error (an illegal address, say) ends the context: every later case
  // fails without running, so the shrunk shape means nothing; first_failure does.
  bool context_lost = false;
  std::string report;  // rapidcheck's message for a failure, with its reproduction string
  std::string summary() const;
};
DiffResult differential_test(const Launcher& launcher, const DiffOptions& options = {});

}  // namespace gemmscope::testing
