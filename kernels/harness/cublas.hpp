#pragma once
// cuBLASLt as the benchmark's baseline: C[M,N] = A[M,K] B[N,K]^T on gemmscope's
// row-major buffers, the algorithm cuBLASLt's heuristic ranks first, 32 MiB workspace.
#include <cublasLt.h>

#include "gemmscope/gemm.hpp"

namespace gemmscope::harness {

inline void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

// C[M,N] = A[M,K] B[N,K]^T in cuBLAS's column-major terms: C^T (N x M) = B (N x K) * A^T,
// i.e. the "TN" GEMM with m=N, n=M, k=K on the same row-major buffers.
class Cublas {
 public:
  Cublas() {
    check_cublas(cublasLtCreate(&handle_), "cublasLtCreate");
    check_cuda(cudaMalloc(&workspace_, kWorkspace), "cuBLAS workspace");
  }
  ~Cublas() {
    cudaFree(workspace_);
    cublasLtDestroy(handle_);
  }
  void prepare(const GemmShape& s) {
    release();
    check_cublas(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "matmul desc");
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
    cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
    check_cublas(cublasLtMatrixLayoutCreate(&la_, CUDA_R_16BF, s.k, s.n, s.k), "layout A");
    check_cublas(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, s.k, s.m, s.k), "layout B");
    check_cublas(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_16BF, s.n, s.m, s.n), "layout C");
    cublasLtMatmulPreference_t pref;
    check_cublas(cublasLtMatmulPreferenceCreate(&pref), "preference");
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &kWorkspace,
                                         sizeof(kWorkspace));
    int found = 0;
    check_cublas(cublasLtMatmulAlgoGetHeuristic(handle_, op_, la_, lb_, lc_, lc_, pref, 1, &heuristic_, &found),
                 "heuristic");
    cublasLtMatmulPreferenceDestroy(pref);
    if (found == 0) throw std::runtime_error("cuBLASLt found no algorithm");
  }
  void run(const GemmOperands& ops, cudaStream_t stream) {
    const float alpha = 1.f, beta = 0.f;
    check_cublas(cublasLtMatmul(handle_, op_, &alpha, ops.b, la_, ops.a, lb_, &beta, ops.c, lc_, ops.c, lc_,
                                &heuristic_.algo, workspace_, kWorkspace, stream),
                 "cublasLtMatmul");
  }

 private:
  void release() {
    if (op_) cublasLtMatmulDescDestroy(op_);
    if (la_) cublasLtMatrixLayoutDestroy(la_);
    if (lb_) cublasLtMatrixLayoutDestroy(lb_);
    if (lc_) cublasLtMatrixLayoutDestroy(lc_);
    op_ = nullptr, la_ = lb_ = lc_ = nullptr;
  }
  static constexpr size_t kWorkspace = size_t{32} << 20;
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  void* workspace_ = nullptr;
};

}  // namespace gemmscope::harness
