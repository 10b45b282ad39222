// cuBLASLt as the benchmarks' reference (host/cublas.hpp).
#include "host/cublas.hpp"

#include <stdexcept>
#include <string>

namespace gemmscope {
namespace {

constexpr size_t kWorkspaceBytes = size_t{32} << 20;

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

}  // namespace

CublasReference& CublasReference::instance() {
  // Never destroyed: its handles and workspaces would be released after the CUDA
  // runtime's own teardown at exit.
  static CublasReference* const reference = new CublasReference();
  return *reference;
}

// C^T (N x M) = B (N x K) * A^T in cuBLAS's column-major terms: the "TN" GEMM with
// m = N, n = M, k = K on the same row-major buffers.
std::pair<CublasReference::Device*, const CublasReference::Plan*> CublasReference::plan_locked(const GemmShape& s) {
  int id = 0;
  check_cuda(cudaGetDevice(&id), "cuBLAS device");
  Device& d = devices_[id];
  if (!d.handle) check_cublas(cublasLtCreate(&d.handle), "cublasLtCreate");
  const auto key = std::make_tuple(s.m, s.n, s.k);
  if (auto it = d.plans.find(key); it != d.plans.end()) return {&d, &it->second};
  Plan p;
  check_cublas(cublasLtMatmulDescCreate(&p.op, CUBLAS_COMPUTE_32F, CUDA_R_32F), "matmul desc");
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
  cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
  check_cublas(cublasLtMatrixLayoutCreate(&p.la, CUDA_R_16BF, s.k, s.n, s.k), "layout A");
  check_cublas(cublasLtMatrixLayoutCreate(&p.lb, CUDA_R_16BF, s.k, s.m, s.k), "layout B");
  check_cublas(cublasLtMatrixLayoutCreate(&p.lc, CUDA_R_16BF, s.n, s.m, s.n), "layout C");
  cublasLtMatmulPreference_t pref;
  check_cublas(cublasLtMatmulPreferenceCreate(&pref), "preference");
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &kWorkspaceBytes,
                                       sizeof(kWorkspaceBytes));
  int found = 0;
  const cublasStatus_t status =
      cublasLtMatmulAlgoGetHeuristic(d.handle, p.op, p.la, p.lb, p.lc, p.lc, pref, 1, &p.heuristic, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  if (status != CUBLAS_STATUS_SUCCESS || found == 0) {
    cublasLtMatmulDescDestroy(p.op);
    cublasLtMatrixLayoutDestroy(p.la);
    cublasLtMatrixLayoutDestroy(p.lb);
    cublasLtMatrixLayoutDestroy(p.lc);
    check_cublas(status, "heuristic");
    throw std::runtime_error("cuBLASLt found no algorithm for " + std::to_string(s.m) + " x " + std::to_string(s.n) +
                             " x " + std::to_string(s.k));
  }
  return {&d, &d.plans.emplace(key, p).first->second};
}

void* CublasReference::workspace_locked(Device& d, cudaStream_t stream) {
  // Launches on two streams may overlap: each stream has a workspace of its own.
  void*& workspace = d.workspaces[stream];
  if (!workspace) check_cuda(cudaMalloc(&workspace, kWorkspaceBytes), "cuBLAS workspace");
  return workspace;
}

void CublasReference::prepare(const GemmShape& shape, cudaStream_t stream) {
  const std::lock_guard<std::mutex> lock(mutex_);
  workspace_locked(*plan_locked(shape).first, stream);
}

void CublasReference::run(const GemmShape& shape, const GemmOperands& ops, cudaStream_t stream) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto [d, p] = plan_locked(shape);
  void* const workspace = workspace_locked(*d, stream);
  const float alpha = 1.f, beta = 0.f;
  check_cublas(cublasLtMatmul(d->handle, p->op, &alpha, ops.b, p->la, ops.a, p->lb, &beta, ops.c, p->lc, ops.c, p->lc,
                              &p->heuristic.algo, workspace, kWorkspaceBytes, stream),
               "cublasLtMatmul");
}

}  // namespace gemmscope
