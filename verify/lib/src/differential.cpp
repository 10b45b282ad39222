#include "gemmscope/testing/differential.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace gemmscope::testing {

namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// Device buffers of one case, freed on every path.
struct DeviceBuffers {
  __nv_bfloat16 *a = nullptr, *b = nullptr, *c = nullptr;
  cudaStream_t stream = nullptr;
  ~DeviceBuffers() {
    if (stream) cudaStreamDestroy(stream);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

// Errors after which the context cannot run another kernel.
bool sticky(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool gpu_available(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    if (why) *why = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device";
    cudaGetLastError();
    return false;
  }
  return true;
}

std::string CaseOutcome::summary() const {
  return to_string(shape) + " seed " + std::to_string(seed) + ": " + (error.empty() ? cmp.summary() : "error " + error);
}

CaseOutcome run_differential_case(const Launcher& launcher, const Shape& shape, uint64_t seed) {
  CaseOutcome out;
  out.shape = shape;
  out.seed = seed;
  if (shape.m < 1 || shape.n < 1 || shape.k < 1) {
    out.error = "shape " + to_string(shape) + ": M, N and K must be at least 1";
    return out;
  }
  const HostProblem p = HostProblem::random(shape, seed);
  const size_t c_elems = static_cast<size_t>(shape.m * shape.n);
  std::vector<uint16_t> c(c_elems);
  try {
    DeviceBuffers d;
    check(cudaMalloc(&d.a, p.a.size() * 2), "cudaMalloc A");
    check(cudaMalloc(&d.b, p.b.size() * 2), "cudaMalloc B");
    check(cudaMalloc(&d.c, c_elems * 2), "cudaMalloc C");
    check(cudaMemcpy(d.a, p.a.data(), p.a.size() * 2, cudaMemcpyHostToDevice), "upload A");
    check(cudaMemcpy(d.b, p.b.data(), p.b.size() * 2, cudaMemcpyHostToDevice), "upload B");
    check(cudaMemset(d.c, 0xFF, c_elems * 2), "poison C");  // 0xFFFF: a NaN in bf16
    check(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaDeviceSynchronize(), "before the launch");
    launcher(shape, d.a, d.b, d.c, d.stream);
    check(cudaGetLastError(), "launch");
    check(cudaStreamSynchronize(d.stream), "the kernel's run");
    check(cudaMemcpy(c.data(), d.c, c_elems * 2, cudaMemcpyDeviceToHost), "download C");
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  out.cmp = compare(shape, reference_gemm(p), c.data());
  out.ok = out.cmp.ok;
  return out;
}

std::string DiffResult::summary() const {
  std::ostringstream os;
  if (ok) {
    os << "PASS: " << cases_passed << " random shapes match the reference";
    return os.str();
  }
  os << "FAIL after " << cases_passed << " passing shapes";
  if (first_failure) os << "; first failure " << first_failure->summary();
  if (context_lost) os << "; the CUDA context was lost there, so shrinking stopped meaning anything";
  else if (smallest_failure) os << "; shrunk to " << smallest_failure->summary();
  return os.str();
}

DiffResult differential_test(const Launcher& launcher, const DiffOptions& options) {
  DiffResult result;
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (options.max_success > 0) params.maxSuccess = options.max_success;
  if (options.max_size > 0) params.maxSize = options.max_size;
  if (options.seed) params.seed = *options.seed;
  std::string lost;  // the sticky error, once seen
  const auto property = [&] {
    const Shape s{*options.m, *options.n, *options.k};
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    CaseOutcome c;
    if (!lost.empty()) {
      c.shape = s, c.seed = seed, c.error = "not run: " + lost;
    } else {
      c = run_differential_case(launcher, s, seed);
      if (!c.error.empty()) {
        const cudaError_t err = cudaDeviceSynchronize();
        if (sticky(err) || sticky(cudaPeekAtLastError())) lost = c.error, result.context_lost = true;
      }
    }
    if (!c.ok) {
      if (!result.first_failure) result.first_failure = c;
      result.smallest_failure = c;  // shrinking keeps the last failing case it tries
      RC_FAIL(options.name + " " + c.summary());
    }
  };
  rc::detail::TestMetadata metadata;
  metadata.id = options.name;
  metadata.description = options.name + " matches the Eigen reference";
  const rc::detail::TestResult r = rc::detail::checkTestable(property, metadata, params);
  rc::detail::SuccessResult success;
  rc::detail::FailureResult failure;
  rc::detail::GaveUpResult gave_up;
  std::ostringstream report;
  if (r.match(success)) {
    result.ok = true;
    result.cases_passed = success.numSuccess;
    result.first_failure.reset();
    result.smallest_failure.reset();
    return result;
  }
  if (r.match(failure)) {
    result.cases_passed = failure.numSuccess;
    rc::detail::printResultMessage(failure, report);
  } else if (r.match(gave_up)) {
    result.cases_passed = gave_up.numSuccess;
    rc::detail::printResultMessage(gave_up, report);
  }
  result.report = report.str();
  if (options.print_report) std::fprintf(stderr, "%s\n", result.report.c_str());
  return result;
}

}  // namespace gemmscope::testing
