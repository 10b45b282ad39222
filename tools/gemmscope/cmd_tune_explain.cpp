// gemmscope tune explain: the heuristic's ranking of every candidate for a shape, with
// the model's terms (report/heuristic_explain.hpp). Host only; built with the kernels, it
// also names what auto runs where no k10 configuration can, from the kernel registry.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "command.hpp"
#include "report/heuristic_explain.hpp"
#include "shapes_arg.hpp"

#ifdef GEMMSCOPE_CLI_KERNELS
#include "gemmscope/kernel_registry.hpp"
#include "rule_operands.hpp"
#endif

namespace {

// What auto runs for e's shape where no k10 configuration does: the kernel registry's
// own dispatch, as gemmscope::gemm would launch it on operands that meet every
// alignment rule (rule_operands). No GPU work (the registry asks the GPU's compute
// capability: on an sm_100 GPU auto may run sm100).
void name_the_fallback(gemmscope::report::Explanation& e) {
#ifdef GEMMSCOPE_CLI_KERNELS
  const gemmscope::GemmOperands ops = gemmscope::cli::rule_operands();
  try {
    e.fallback = gemmscope::resolve_kernel("auto").dispatch({e.shape.m, e.shape.n, e.shape.k}, ops);
  } catch (const gemmscope::GemmError& err) {
    e.fallback_refusal = err.what();
  }
#else
  (void)e;  // without the kernels there is no registry to ask
#endif
}

struct ExplainArgs {
  std::string shapes;
  int sms = 132;
  int top = 8;
  std::string cache;
};

const gemmscope::cli::Registration reg{"tune explain", [](CLI::App& app) {
  CLI::App* tune = gemmscope::cli::tune_command(app);
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = tune->add_subcommand(
      "explain",
      "Why auto runs what it runs on a shape without a cache entry: every k10 candidate ranked by the heuristic's "
      "model (its waves of whole tiles, cut tiles and HBM floor), the ties with the pick, and the shipped caches' "
      "entry for the shape");
  cmd->add_option("shapes", args->shapes, "MxNxK[,MxNxK...] or a shape-set CSV (model,layer,m,n,k)")->required();
  cmd->add_option("--sms", args->sms, "the GPU's SM count the heuristic plans for (132: H100 SXM, H200)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--top", args->top, "ranks to print (configurations tied with the pick are printed too)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--cache", args->cache, "also a tuning cache of yours: its entries for the shape, any GPU");
  cmd->callback([args] {
    bool first = true;
    for (const auto& s : gemmscope::cli::shapes_arg(args->shapes, "shapes")) {
      auto e = gemmscope::report::explain_heuristic({s.m, s.n, s.k}, args->sms, args->cache);
      if (e.ranked.empty()) name_the_fallback(e);
      std::printf("%s%s", first ? "" : "\n", gemmscope::report::explain_report(e, args->top).c_str());
      first = false;
    }
  });
}};

}  // namespace
