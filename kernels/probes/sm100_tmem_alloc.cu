// Probe: where tcgen05.alloc places Tensor Memory. One warp per CTA runs a script of
// allocations, frees and relinquish_alloc_permit and records the address each
// allocation returned: every legal size (32..512 columns), packing of mixed sizes,
// alignment, reuse of freed columns, a hole too small for a larger allocation, frees
// after relinquish, and cta_group::2 (one warp in each CTA of a pair, which must get
// the same columns: the Blackwell kernel relies on it). Only legal scripts: an
// allocation that cannot fit blocks forever, and one after relinquish is undefined.
// PTX ISA: "Tensor Memory allocation and management" (tcgen05.alloc, tcgen05.dealloc,
// tcgen05.relinquish_alloc_permit).
#include "sm100_probe_cuda.cuh"

namespace gemmscope::probes {
namespace {
using namespace sm100;

enum AllocOp : int32_t {
  kAlloc = 0,       // arg: columns -> result: the TMEM address written by tcgen05.alloc
  kFree = 1,        // arg: index of the Alloc step whose allocation is freed
  kRelinquish = 2,  // arg unused
};
constexpr int kMaxSteps = 16;
constexpr uint32_t kNoResult = 0xFFFFFFFFu;

struct Step {
  const char* op;
  AllocOp code;
  int32_t arg;
};

template <int CtaGroup>
__device__ __forceinline__ void alloc_columns(uint32_t* slot, uint32_t columns) {
  if constexpr (CtaGroup == 1) ptx::tcgen05_alloc(ptx::cta_group_1, slot, columns);
  else ptx::tcgen05_alloc(ptx::cta_group_2, slot, columns);
}
template <int CtaGroup>
__device__ __forceinline__ void free_columns(uint32_t address, uint32_t columns) {
  if constexpr (CtaGroup == 1) ptx::tcgen05_dealloc(ptx::cta_group_1, address, columns);
  else ptx::tcgen05_dealloc(ptx::cta_group_2, address, columns);
}
template <int CtaGroup>
__device__ __forceinline__ void relinquish() {
  if constexpr (CtaGroup == 1) ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
  else ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_2);
}

// One warp per CTA; for cta_group::2 a cluster of 2 runs the script in lockstep.
// results[cta * steps + i]: the address of Alloc step i, kNoResult for the others.
template <int CtaGroup>
__global__ void __launch_bounds__(32, 1) alloc_script_kernel(const int32_t* script, int steps, uint32_t* results) {
  __shared__ uint32_t slot;
  const uint32_t cta = CtaGroup == 2 ? ptx::get_sreg_cluster_ctarank() : 0;
  uint32_t address[kMaxSteps];
  uint32_t columns[kMaxSteps];
  if constexpr (CtaGroup == 2) tcgen05_cluster_sync();
  for (int i = 0; i < steps; ++i) {
    const int32_t op = script[2 * i], arg = script[2 * i + 1];
    uint32_t result = kNoResult;
    if (op == kAlloc) {
      alloc_columns<CtaGroup>(&slot, static_cast<uint32_t>(arg));
      // The address reaches shared memory through the tensor core's proxy.
      ptx::tcgen05_fence_before_thread_sync();
      __syncwarp();
      ptx::tcgen05_fence_after_thread_sync();
      address[i] = slot;
      columns[i] = static_cast<uint32_t>(arg);
      result = slot;
    } else if (op == kFree) {
      free_columns<CtaGroup>(address[arg], columns[arg]);
    } else {
      relinquish<CtaGroup>();
    }
    if (threadIdx.x == 0) results[cta * steps + i] = result;
    if constexpr (CtaGroup == 2) tcgen05_cluster_sync();
  }
}

Json run_case(std::vector<Step> script, int cta_group) {
  require_sm100();
  const int steps = static_cast<int>(script.size());
  std::vector<int32_t> codes;
  for (const Step& s : script) {
    codes.push_back(s.code);
    codes.push_back(s.arg);
  }
  DeviceBuffer<int32_t> d_script(codes.size());
  d_script.upload(codes);
  DeviceBuffer<uint32_t> results(static_cast<std::size_t>(cta_group * steps));
  GEMMSCOPE_PROBE_CUDA(cudaMemset(results.get(), 0xFF, results.bytes()));
  if (cta_group == 1) {
    alloc_script_kernel<1><<<1, 32>>>(d_script.get(), steps, results.get());
  } else {
    cudaLaunchAttribute attr;
    const cudaLaunchConfig_t cfg = cluster_config(dim3(2), dim3(32), dim3(2, 1, 1), 0, attr);
    const int32_t* script_ptr = d_script.get();
    uint32_t* results_ptr = results.get();
    GEMMSCOPE_PROBE_CUDA(cudaLaunchKernelEx(&cfg, alloc_script_kernel<2>, script_ptr, steps, results_ptr));
  }
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> r = results.download();
  const auto row = [&](int cta) {
    std::vector<int64_t> out;
    for (int i = 0; i < steps; ++i) {
      const uint32_t v = r[static_cast<std::size_t>(cta * steps + i)];
      out.push_back(v == kNoResult ? -1 : static_cast<int64_t>(v));
    }
    return out;
  };
  Json observed{{"results", row(0)}};
  if (cta_group == 2) observed["results_peer"] = row(1);
  return observed;
}

ProbeCase make_case(const std::string& name, int cta_group, std::vector<Step> script, const std::string& purpose) {
  Json steps = Json::array();
  for (const Step& s : script) steps.push_back(Json::array({s.op, s.arg}));
  Json params{{"purpose", purpose}, {"cta_group", cta_group}, {"script", steps}};
  return ProbeCase{name, std::move(params), [script, cta_group] { return run_case(script, cta_group); }};
}

Step alloc(int columns) { return {"Alloc", kAlloc, columns}; }
Step free_step(int alloc_step) { return {"Free", kFree, alloc_step}; }
Step relinquish_step() { return {"Relinquish", kRelinquish, 0}; }

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ProbeCase> cases;
  cases.push_back(make_case("sizes", 1,
                            {alloc(32), free_step(0), alloc(64), free_step(2), alloc(128), free_step(4), alloc(256),
                             free_step(6), alloc(512), free_step(8)},
                            "each legal size alone: where does it start?"));
  cases.push_back(make_case("packing_ascending", 1,
                            {alloc(32), alloc(32), alloc(64), alloc(128), alloc(256), free_step(0), free_step(1),
                             free_step(2), free_step(3), free_step(4)},
                            "32+32+64+128+256 = 512 columns: every column used"));
  cases.push_back(make_case("packing_descending", 1,
                            {alloc(256), alloc(128), alloc(64), alloc(32), alloc(32), free_step(4), free_step(3),
                             free_step(2), free_step(1), free_step(0)},
                            "256+128+64+32+32, freed in reverse"));
  cases.push_back(make_case("alignment", 1,
                            {alloc(32), alloc(64), alloc(32), alloc(128), free_step(0), free_step(1), free_step(2),
                             free_step(3)},
                            "after 32 columns, does 64 start at 32 or at 64? does the next 32 fill the gap?"));
  cases.push_back(make_case("reuse_after_free", 1,
                            {alloc(64), alloc(64), free_step(0), alloc(32), alloc(32), free_step(1), free_step(3),
                             free_step(4)},
                            "a freed range is used again, lowest first?"));
  cases.push_back(make_case("hole_too_small", 1,
                            {alloc(128), alloc(128), free_step(0), alloc(256), free_step(1), free_step(3)},
                            "128 free at column 0 cannot take 256"));
  cases.push_back(make_case("free_after_relinquish", 1,
                            {alloc(64), alloc(128), relinquish_step(), free_step(0), free_step(1)},
                            "relinquish_alloc_permit keeps live allocations; dealloc still works"));
  cases.push_back(make_case("relinquish_first", 1, {alloc(512), relinquish_step(), free_step(0)},
                            "the Blackwell kernel's order: all 512 columns, relinquish, later dealloc"));
  cases.push_back(make_case("pair_same_columns", 2,
                            {alloc(64), alloc(128), relinquish_step(), free_step(0), free_step(1)},
                            "cta_group::2: one warp in each CTA of the pair; both must get the same columns"));
  cases.push_back(make_case("pair_all_columns", 2, {alloc(512), relinquish_step(), free_step(0)},
                            "cta_group::2 with all 512 columns, as the Blackwell kernel allocates"));
  return cases;
}

}  // namespace

ProbeDefinition sm100_tmem_alloc_probe() {
  return {"sm100_tmem_alloc",
          "scripts of tcgen05.alloc / dealloc / relinquish_alloc_permit run by one warp (cta_group::1) or one warp "
          "in each CTA of a pair (cta_group::2): the TMEM address every allocation returns",
          {"allocation placement: C columns at the lowest free column that is a multiple of C (model::TmemAllocator)",
           "every power of two from 32 to 512 columns allocates; lane field 0 in the returned address",
           "frees after relinquish_alloc_permit; freed columns are reused",
           "cta_group::2: both CTAs of a pair receive the same columns"},
          make_cases};
}

}  // namespace gemmscope::probes
