// The one kernel registry (gemmscope/kernel_registry.hpp): the Hopper ladder's table,
// the choice "auto" makes, and every kernel name resolved to something runnable.
#include "gemmscope/kernel_registry.hpp"

#include "gemmscope/auto_choice.hpp"
#include "gemmscope/sm100.hpp"
#include "gemmscope/tuned.hpp"
#include "host/cublas.hpp"
#include "sm90/ladder.hpp"
#include "tune/config.hpp"
#include "tune/text/shown_text.hpp"

namespace gemmscope {

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

const KernelInfo& select_kernel(const GemmShape& shape, const GemmOperands& ops) {
  const auto& all = sm90_kernels();
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if (it->can_implement(shape, ops).empty()) return *it;
  throw GemmError("no kernel can implement " + std::to_string(shape.m) + " x " + std::to_string(shape.n) + " x " +
                  std::to_string(shape.k));
}

std::string known_kernel_names() {
  std::string known;
  for (const auto& k : sm90_kernels()) known += k.name + ", ";
  return known + "auto, k10:<configuration> (e.g. k10:128x256x64.s4.wg2.c2x1.static.g0.sk1), cublas, sm100";
}

namespace {

// The current GPU's compute capability; 0.0 where no CUDA device is usable.
ComputeCapability current_compute_capability() {
  int device = 0;
  ComputeCapability cc;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&cc.major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&cc.minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    cudaGetLastError();  // clear it: the caller's next CUDA call reports its own
    return {};
  }
  return cc;
}

// The configuration k10 runs for a shape, as the benchmark's detail column shows it.
std::string chosen_k10(const GemmShape& shape) {
  const TunedChoice c = choose(shape);
  return "k10:" + tune::to_string(c.config) + " (" + c.source + ")";
}

// The Blackwell kernel's own rules for the problem (no GPU query).
std::string sm100_problem_refusal(const GemmShape& s, const GemmOperands& ops) {
  // validate_problem holds the sizes below 2^31.
  return sm100::can_implement(static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k), ops.a, ops.b,
                              ops.c);
}

// The Blackwell binary runs on compute capability 10.0 only: refused by name on any
// other GPU, before its own rules.
std::string sm100_refusal(const GemmShape& s, const GemmOperands& ops) {
  int device = 0, major = 0, minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    const std::string why = cudaGetErrorString(cudaGetLastError());
    return "needs an sm_100 GPU (compute capability 10.0); no CUDA device is usable (" + why + ")";
  }
  if (!runs_sm100({major, minor}))
    return "needs an sm_100 GPU (compute capability 10.0); this GPU is " + std::to_string(major) + "." +
           std::to_string(minor);
  return sm100_problem_refusal(s, ops);
}

RunnableKernel ladder_kernel(const KernelInfo& info) {
  RunnableKernel k;
  k.name = info.name;
  k.can_implement = [&info](const GemmShape& s, const GemmOperands& ops) {
    std::string why = validate_problem(s, ops);
    return why.empty() ? info.can_implement(s, ops) : why;
  };
  k.launch = [&info](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) { info.launch(s, ops, stream); };
  if (info.name == "k10")
    k.dispatch = [](const GemmShape& s, const GemmOperands&) { return chosen_k10(s); };
  return k;
}

}  // namespace

std::string auto_kernel(const GemmShape& shape, const GemmOperands& ops) {
  static const std::vector<std::string> ladder = [] {
    std::vector<std::string> names;
    for (const auto& k : sm90_kernels()) names.push_back(k.name);
    return names;
  }();
  const auto refusal_of = [&](const std::string& name) -> std::string {
    if (name == "sm100") return sm100_problem_refusal(shape, ops);
    for (const auto& k : sm90_kernels())
      if (k.name == name) return k.can_implement(shape, ops);
    return "unknown";
  };
  const AutoChoice choice = choose_auto_kernel(
      current_compute_capability(), ladder, refusal_of,
      std::to_string(shape.m) + " x " + std::to_string(shape.n) + " x " + std::to_string(shape.k));
  if (choice.name.empty()) throw GemmError(choice.why_none);
  return choice.name;
}

RunnableKernel resolve_kernel(const std::string& name) {
  RunnableKernel k;
  bool found = false;
  if (name == "auto") {
    k.name = name;
    k.can_implement = [](const GemmShape& s, const GemmOperands& ops) -> std::string {
      if (std::string why = validate_problem(s, ops); !why.empty()) return why;
      try {
        auto_kernel(s, ops);
      } catch (const GemmError& e) {
        return e.what();
      }
      return {};
    };
    k.launch = [](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
      const std::string chosen = auto_kernel(s, ops);
      if (chosen == "sm100") {
        sm100::launch_gemm(ops.a, ops.b, ops.c, static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k),
                           stream);
        return;
      }
      for (const auto& info : sm90_kernels())
        if (info.name == chosen) return info.launch(s, ops, stream);
      throw GemmError("auto chose '" + chosen + "', which the registry cannot launch");
    };
    k.dispatch = [](const GemmShape& s, const GemmOperands& ops) {
      const std::string chosen = auto_kernel(s, ops);
      return chosen == "k10" ? chosen_k10(s) : chosen;
    };
    found = true;
  } else if (name.rfind("k10:", 0) == 0) {
    tune::KernelConfig config;
    try {
      config = tune::parse_config(name.substr(4));
    } catch (const tune::ConfigError& e) {
      throw GemmError(e.what());
    }
    k.name = name;
    k.can_implement = [config](const GemmShape& s, const GemmOperands& ops) {
      std::string why = validate_problem(s, ops);
      return why.empty() ? sm90::k10::can_implement(config, s, ops) : why;
    };
    k.launch = [config](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
      sm90::k10::launch(config, s, ops, stream);
    };
    found = true;
  } else if (name == "cublas") {
    k.name = name;
    k.can_implement = [](const GemmShape& s, const GemmOperands& ops) { return validate_problem(s, ops); };
    k.prepare = [](const GemmShape& s, cudaStream_t stream) { CublasReference::instance().prepare(s, stream); };
    k.launch = [](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
      CublasReference::instance().run(s, ops, stream);
    };
    found = true;
  } else if (name == "sm100") {
    k.name = name;
    k.can_implement = [](const GemmShape& s, const GemmOperands& ops) {
      std::string why = validate_problem(s, ops);
      return why.empty() ? sm100_refusal(s, ops) : why;
    };
    k.launch = [](const GemmShape& s, const GemmOperands& ops, cudaStream_t stream) {
      sm100::launch_gemm(ops.a, ops.b, ops.c, static_cast<int>(s.m), static_cast<int>(s.n), static_cast<int>(s.k),
                         stream);
    };
    found = true;
  } else {
    for (const auto& info : sm90_kernels())
      if (info.name == name) {
        k = ladder_kernel(info);
        found = true;
        break;
      }
  }
  if (!found) throw GemmError("kernel '" + shown_text(name) + "' is unknown; known kernels: " + known_kernel_names());
  if (!k.prepare) k.prepare = [](const GemmShape&, cudaStream_t) {};
  if (!k.dispatch) k.dispatch = [name = k.name](const GemmShape&, const GemmOperands&) { return name; };
  return k;
}

}  // namespace gemmscope
