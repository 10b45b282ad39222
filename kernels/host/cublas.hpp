#pragma once
// cuBLASLt as the benchmarks' reference ("cublas" in the kernel registry):
// C[M,N] = A[M,K] B[N,K]^T on gemmscope's row-major buffers, with the algorithm
// cuBLASLt's heuristic ranks first and a 32 MiB workspace. One per process: a
// handle per device, a workspace per stream, a plan per shape, each made at its
// first use.
#include <cublasLt.h>

#include <map>
#include <mutex>
#include <tuple>

#include "gemmscope/gemm.hpp"

namespace gemmscope {

class CublasReference {
 public:
  static CublasReference& instance();
  // Makes the plan for this shape on the current device (the heuristic's query) and
  // the stream's workspace, so that run() does no host work but the launch.
  void prepare(const GemmShape& shape, cudaStream_t stream);
  void run(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream);

 private:
  CublasReference() = default;
  struct Plan {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr;
    cublasLtMatmulHeuristicResult_t heuristic{};
  };
  struct Device {
    cublasLtHandle_t handle = nullptr;
    std::map<cudaStream_t, void*> workspaces;
    std::map<std::tuple<int64_t, int64_t, int64_t>, Plan> plans;
  };
  // The current device's plan for the shape, made where missing (mutex_ held).
  std::pair<Device*, const Plan*> plan_locked(const GemmShape& shape);
  // The stream's workspace on the current device, made where missing (mutex_ held).
  static void* workspace_locked(Device& d, cudaStream_t stream);

  std::mutex mutex_;
  std::map<int, Device> devices_;
};

}  // namespace gemmscope
