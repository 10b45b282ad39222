// gemmscope trace record: run the recording build of a kernel on the GPU
// (kernels/sm90/k04_tma_store_traced.cu), decode the shared-memory addresses its
// warps used into a trace (docs/traces.md), write it, and compare it with the
// model's trace of the same CTAs. Built only with the kernels.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "command.hpp"
#include "common/trace_record_host.hpp"
#include "gemmscope/traces/device_decode.hpp"
#include "gemmscope/traces/trace.hpp"
#include "bench/harness.hpp"
#include "trace_command.hpp"
#include "tune/text/output_file.hpp"

namespace gemmscope::cli {
namespace {

struct RecordArgs {
  std::string kernel = "k04";
  std::string out;
  std::string shape = "256x256x128";
  uint32_t capacity = 4096;
};

void run(const RecordArgs& args) {
  if (args.kernel != "k04")
    throw std::invalid_argument("--kernel = " + args.kernel + " has no recording build (only k04 is instrumented)");
  const std::vector<GemmShape> shapes = harness::parse_shapes(args.shape);
  if (shapes.size() != 1) throw std::invalid_argument("--shape = " + args.shape + " must be one MxNxK");
  if (args.capacity < 1 || args.capacity > (1u << 24))
    throw std::invalid_argument("--capacity = " + std::to_string(args.capacity) + " must be in 1..16777216 records");
  // The output is checked before the GPU run (nothing created); written all or nothing after it.
  check_output_file(args.out, "--out");
  std::string why;
  if (!harness::gpu_available(&why)) {
    std::fprintf(stderr, "gemmscope trace record: no usable CUDA device (%s)\n", why.c_str());
    std::exit(3);
  }
  const GemmShape s = shapes[0];
  bf16 *a = nullptr, *b = nullptr, *c = nullptr;
  check_cuda(cudaMalloc(&a, s.m * s.k * sizeof(bf16)), "A");
  check_cuda(cudaMalloc(&b, s.n * s.k * sizeof(bf16)), "B");
  check_cuda(cudaMalloc(&c, s.m * s.n * sizeof(bf16)), "C");
  // The addresses do not depend on the data: zeros are enough.
  check_cuda(cudaMemset(a, 0, s.m * s.k * sizeof(bf16)), "A");
  check_cuda(cudaMemset(b, 0, s.n * s.k * sizeof(bf16)), "B");
  sm90::k04_traced::RecordedBuffer raw;
  try {
    raw = sm90::k04_traced::record_k04(s, GemmOperands{a, b, c}, args.capacity);
  } catch (...) {
    cudaFree(a), cudaFree(b), cudaFree(c);
    throw;
  }
  cudaFree(a), cudaFree(b), cudaFree(c);
  traces::Trace t = traces::decode_device_records(raw.words, raw.records_written, "k04");
  t.description = "k04 epilogue stmatrix.x4 row addresses recorded on the GPU, shape " + args.shape + ", " +
                  std::to_string(t.records.size()) + " records";
  traces::write_trace_file(args.out, t, traces::TraceFormat::JsonLines);
  std::printf("wrote %s: %zu records, smem_base %llu\n", args.out.c_str(), t.records.size(),
              static_cast<unsigned long long>(t.smem_base));
  const traces::Trace expected = traces::model_trace_for(t);
  if (auto diff = traces::first_difference(t, expected))
    throw std::runtime_error("the recorded trace differs from the model: " + *diff);
  std::printf("match: all %zu records agree with the model (traces::model_trace_for)\n", t.records.size());
}

const TraceSubcommand subcommand{"record", [](CLI::App& trace) {
  auto args = std::make_shared<RecordArgs>();
  CLI::App* cmd = trace.add_subcommand(
      "record", "Run a kernel's recording build on the GPU, write the trace, compare it with the model (exit 1 if not equal)");
  cmd->add_option("--kernel", args->kernel, "Instrumented kernel: k04")->capture_default_str();
  cmd->add_option("--out", args->out, "Trace file to write (JSON lines)")->required();
  cmd->add_option("--shape", args->shape, "Problem MxNxK (one CTA per 128x128 C tile)")->capture_default_str();
  cmd->add_option("--capacity", args->capacity, "Records the device buffer holds")->capture_default_str();
  cmd->callback([args] { run(*args); });
}};

}  // namespace
}  // namespace gemmscope::cli
