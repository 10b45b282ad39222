#include "bench/harness.hpp"

#include "gemmscope/kernel_registry.hpp"
#include "tune/shape_list.hpp"


#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

namespace gemmscope::harness {

HostProblem HostProblem::random(const GemmShape& shape, uint64_t seed) {
  HostProblem p;
  p.shape = shape;
  p.a.resize(static_cast<size_t>(shape.m * shape.k));
  p.b.resize(static_cast<size_t>(shape.n * shape.k));
  // Chunks of 2^18 elements, each from its own generator seeded by (seed, operand,
  // chunk): the same values for a seed whatever the thread count, and generated in
  // parallel (the LLM shapes' weights are up to 470M elements).
  constexpr size_t kChunk = size_t{1} << 18;
  auto fill = [&](std::vector<bf16>& v, uint64_t operand) {
    const int64_t chunks = static_cast<int64_t>((v.size() + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
      std::seed_seq seq{seed, operand, static_cast<uint64_t>(c)};
      std::mt19937_64 rng(seq);
      std::normal_distribution<float> normal(0.f, 1.f);
      const size_t end = std::min(v.size(), static_cast<size_t>(c + 1) * kChunk);
      for (size_t i = static_cast<size_t>(c) * kChunk; i < end; ++i) v[i] = __float2bfloat16_rn(normal(rng));
    }
  };
  fill(p.a, 0);
  fill(p.b, 1);
  return p;
}

DeviceProblem::DeviceProblem(const HostProblem& p) : shape_(p.shape) {
  check_cuda(cudaMalloc(&a_, p.a.size() * sizeof(bf16)), "cudaMalloc A");
  check_cuda(cudaMalloc(&b_, p.b.size() * sizeof(bf16)), "cudaMalloc B");
  check_cuda(cudaMalloc(&c_, static_cast<size_t>(shape_.m * shape_.n) * sizeof(bf16)), "cudaMalloc C");
  check_cuda(cudaMemcpy(a_, p.a.data(), p.a.size() * sizeof(bf16), cudaMemcpyHostToDevice), "upload A");
  check_cuda(cudaMemcpy(b_, p.b.data(), p.b.size() * sizeof(bf16), cudaMemcpyHostToDevice), "upload B");
}

DeviceProblem::~DeviceProblem() {
  cudaFree(a_);
  cudaFree(b_);
  cudaFree(c_);
}

void DeviceProblem::poison_c() {
  check_cuda(cudaMemset(c_, 0xFF, static_cast<size_t>(shape_.m * shape_.n) * sizeof(bf16)), "poison C");
}

std::vector<bf16> DeviceProblem::download_c() const {
  std::vector<bf16> c(static_cast<size_t>(shape_.m * shape_.n));
  check_cuda(cudaMemcpy(c.data(), c_, c.size() * sizeof(bf16), cudaMemcpyDeviceToHost), "download C");
  return c;
}

BatchTimer::BatchTimer() {
  for (auto& e : ev_) check_cuda(cudaEventCreate(&e), "event");
}

BatchTimer::~BatchTimer() {
  for (auto& e : ev_)
    if (e) cudaEventDestroy(e);
}

std::vector<float> BatchTimer::time(cudaStream_t stream, int launches, const std::function<void(int)>& launch,
                                    const std::string& what) {
  if (launches < 1 || launches > kBatchLaunches)
    throw GemmError("BatchTimer: " + std::to_string(launches) + " launches; a batch holds 1.." +
                    std::to_string(kBatchLaunches));
  // The host queues the batch while the GPU spins: the events time the GPU, not the launches.
  spin_gpu(stream, kSpinBeforeBatchUs);
  for (int i = 0; i < launches; ++i) {
    check_cuda(cudaEventRecord(ev_[2 * i], stream), "event");
    launch(i);
    check_cuda(cudaEventRecord(ev_[2 * i + 1], stream), "event");
  }
  check_cuda(cudaEventSynchronize(ev_[2 * launches - 1]), what.c_str());
  std::vector<float> ms(launches, 0.f);
  for (int i = 0; i < launches; ++i) check_cuda(cudaEventElapsedTime(&ms[i], ev_[2 * i], ev_[2 * i + 1]), "elapsed");
  return ms;
}

uint64_t fnv1a64(const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t h = 0xcbf29ce484222325ull;  // FNV offset basis
  for (size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;  // FNV prime
  }
  return h;
}

CaseResult run_case(const std::string& kernel, const HostProblem& p, const Reference& ref) {
  const RunnableKernel k = resolve_kernel(kernel);
  CaseResult r;
  r.shape = p.shape;
  r.kernel = kernel;
  DeviceProblem d(p);
  r.refusal = k.can_implement(p.shape, d.operands());
  if (!r.refusal.empty()) return r;
  k.prepare(p.shape, nullptr);
  d.poison_c();
  cudaEvent_t start, stop;
  check_cuda(cudaEventCreate(&start), "event");
  check_cuda(cudaEventCreate(&stop), "event");
  check_cuda(cudaEventRecord(start), "event record");
  k.launch(p.shape, d.operands(), nullptr);
  check_cuda(cudaEventRecord(stop), "event record");
  check_cuda(cudaDeviceSynchronize(), ("kernel " + kernel + " execution").c_str());
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  r.gpu_ms = ms;
  r.ran = true;
  const std::vector<bf16> c = d.download_c();
  r.c_fnv1a64 = fnv1a64(c.data(), c.size() * sizeof(bf16));
  r.cmp = compare(p, ref, c);
  return r;
}

std::vector<GemmShape> parse_shapes(const std::string& text) {
  // The parsing itself is CUDA-free (tune/shape_list.hpp) so the fuzzer reaches it.
  std::vector<GemmShape> shapes;
  try {
    for (const ParsedShape& s : parse_shape_list(text)) shapes.push_back({s.m, s.n, s.k});
  } catch (const std::invalid_argument& e) {
    throw GemmError(e.what());
  }
  return shapes;
}

}  // namespace gemmscope::harness
