#pragma once
// What "auto" runs, decided without a GPU: a pure function of the GPU's compute
// capability and of what each candidate's can_implement said about the problem.
// The registry (kernels/host/kernel_registry.cpp) asks the GPU and the candidates
// and launches the answer; verify/cpu/auto_choice_test.cpp holds the decision to its
// rules on the CPU. Plain C++, no CUDA.
#include <string>
#include <vector>

namespace gemmscope {

struct ComputeCapability {
  int major = 0;
  int minor = 0;
};

// The Blackwell kernel is built for sm_100a, an architecture-specific target: its
// binary runs on compute capability 10.0 and nowhere else (not 10.3, not 12.x).
constexpr bool runs_sm100(ComputeCapability cc) { return cc.major == 10 && cc.minor == 0; }

// The choice: the kernel's name, or empty with `why_none` saying why nothing runs.
struct AutoChoice {
  std::string name;
  std::string why_none;
};

// On a GPU that runs the Blackwell kernel, "sm100" where it accepts the problem;
// otherwise (and where sm100 refuses) the last of `ladder` (ladder order, k10 last)
// that accepts it. `refusal_of(name)` is that candidate's can_implement for the
// problem (empty: accepts); it is asked only until the choice is made, so a launch
// through "auto" costs what it did. `problem` names the shape when nothing runs.
template <class RefusalOf>
AutoChoice choose_auto_kernel(ComputeCapability cc, const std::vector<std::string>& ladder, RefusalOf&& refusal_of,
                              const std::string& problem) {
  if (runs_sm100(cc) && std::string(refusal_of(std::string("sm100"))).empty()) return {"sm100", {}};
  for (auto it = ladder.rbegin(); it != ladder.rend(); ++it)
    if (std::string(refusal_of(*it)).empty()) return {*it, {}};
  return {{}, "no kernel can implement " + problem};
}

}  // namespace gemmscope
