// gemmscope check: differential test of kernels of the registry on the GPU against
// the Eigen reference, one line per case.
#include <random>

#include "bench/harness.hpp"
#include "command.hpp"
#include "options.hpp"
#include "rule_operands.hpp"
#include "gemmscope/kernel_registry.hpp"

namespace {

// A random shape the kernel's rules allow: as drawn, else with K (TMA's 16-byte row
// stride), then N too (the TMA store's), rounded up to a multiple of 8.
gemmscope::GemmShape shape_it_takes(const gemmscope::RunnableKernel& kernel, gemmscope::GemmShape s) {
  const gemmscope::GemmOperands aligned = gemmscope::cli::rule_operands();
  auto up8 = [](int64_t x) { return (x + 7) / 8 * 8; };
  for (const gemmscope::GemmShape& t : {s, gemmscope::GemmShape{s.m, s.n, up8(s.k)},
                                        gemmscope::GemmShape{s.m, up8(s.n), up8(s.k)}})
    if (kernel.can_implement(t, aligned).empty()) return t;
  return s;  // refused either way: run_case reports why
}

struct CheckArgs {
  std::string kernels = "k01,k02,k03,k04";
  int cases = 20;
  uint64_t seed = 0;
  int64_t max_dim = 1024;
  std::string shapes;
  bool digest = false;
};

const gemmscope::cli::Registration reg{"check", [](CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand("check", "Differential test: ladder kernels on the GPU vs an Eigen reference on the CPU "
                                              "(exit 1: a case failed; 4: cases skipped, the GPU cannot run them)");
  cmd->add_option("--kernels", args->kernels,
                  "comma-separated names of the kernel registry: " + gemmscope::known_kernel_names())
      ->capture_default_str();
  cmd->add_option("--cases", args->cases, "random shapes per kernel")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed (0: from the clock; printed)");
  cmd->add_option("--max-dim", args->max_dim, "largest M, N, K drawn")->check(CLI::Range(1, 1 << 16))->capture_default_str();
  cmd->add_option("--shapes", args->shapes, "fixed MxNxK list instead of random shapes");
  cmd->add_flag("--digest", args->digest,
                "end each case's line with fnv1a64=<16 hex digits>, the FNV-1a hash of C's bytes: the same "
                "kernels, shapes and --seed give the same digests in every run (determinism across processes)");
  cmd->callback([args, cmd] {
    const std::vector<std::string> kernels = gemmscope::cli::list_items(args->kernels, "--kernels", 1000);
    if (!args->shapes.empty())
      gemmscope::cli::refuse_options(cmd, {"--cases", "--max-dim"}, "with --shapes (they draw random shapes)");
    std::vector<gemmscope::RunnableKernel> resolved;
    for (const auto& k : kernels) resolved.push_back(gemmscope::resolve_kernel(k));
    std::vector<gemmscope::GemmShape> shapes;
    if (!args->shapes.empty()) shapes = gemmscope::harness::parse_shapes(args->shapes);
    // Bad names and shapes are refused (status 2) before looking for a GPU (status 3).
    std::string why;
    if (!gemmscope::harness::gpu_available(&why)) {
      std::fprintf(stderr, "gemmscope check: no usable CUDA device (%s); check needs the GPU\n", why.c_str());
      std::exit(3);
    }
    const uint64_t seed = args->seed ? args->seed : std::random_device{}();
    std::printf("# seed %llu\n", static_cast<unsigned long long>(seed));
    std::mt19937_64 rng(seed);
    int failed = 0, passed = 0, refused = 0, skipped = 0;
    for (size_t which = 0; which < kernels.size(); ++which) {
      const std::string& kernel = kernels[which];
      const int n = shapes.empty() ? args->cases : static_cast<int>(shapes.size());
      for (int i = 0; i < n; ++i) {
        gemmscope::GemmShape s;
        if (shapes.empty()) {
          std::uniform_int_distribution<int64_t> dim(1, args->max_dim);
          s = shape_it_takes(resolved[which], {dim(rng), dim(rng), dim(rng)});
        } else {
          s = shapes[i];
        }
        const auto p = gemmscope::harness::HostProblem::random(s, rng());
        const auto ref = gemmscope::harness::reference_gemm(p);
        const auto r = gemmscope::harness::run_case(kernel, p, ref);
        if (!r.ran && gemmscope::refused_for_the_gpu(r.refusal)) {
          ++skipped;  // not tried on this GPU: never counted as passed
          std::printf("%-4s %6ldx%6ldx%6ld skipped: %s\n", kernel.c_str(), (long)s.m, (long)s.n, (long)s.k,
                      r.refusal.c_str());
          continue;
        }
        if (!r.ran) {
          ++refused;
          std::printf("%-4s %6ldx%6ldx%6ld REFUSED %s\n", kernel.c_str(), (long)s.m, (long)s.n, (long)s.k, r.refusal.c_str());
          continue;
        }
        (r.cmp.ok ? passed : failed)++;
        std::printf("%-4s %6ldx%6ldx%6ld %s %.3f ms", kernel.c_str(), (long)s.m, (long)s.n, (long)s.k,
                    r.cmp.summary().c_str(), r.gpu_ms);
        if (args->digest) std::printf(" fnv1a64=%016llx", static_cast<unsigned long long>(r.c_fnv1a64));
        std::printf("\n");
      }
    }
    std::printf("# %d passed, %d failed, %d refused", passed, failed, refused);
    if (skipped) std::printf(", %d skipped (this GPU cannot run them)", skipped);
    std::printf("\n");
    if (failed) std::exit(1);
    if (skipped) std::exit(4);  // cases this GPU cannot run (sm100 elsewhere than on an sm_100)
  });
}};

}  // namespace
