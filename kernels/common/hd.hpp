#pragma once
// GEMMSCOPE_HD marks the kernels' own address code: compiled for the device by
// nvcc and for the host by g++, so CPU tests hold it against the model.
#if defined(__CUDACC__)
#define GEMMSCOPE_HD __host__ __device__
#else
#define GEMMSCOPE_HD
#endif
