#pragma once
// Launches in thread-block clusters (k05 on, sm100): cudaLaunchKernelEx with the
// cluster shape as a launch attribute, or with none where the kernel compiles its
// shape in (__cluster_dims__). One configuration serves the occupancy query and the
// launch, so the clusters counted resident are the ones launched.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace gemmscope {

struct ClusterLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute cluster{};
  bool cluster_at_launch = false;

  // `cluster_dims`: CTAs per cluster along x, y, z, given at launch.
  static ClusterLaunch with_dims(dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream, dim3 cluster_dims) {
    ClusterLaunch l = compiled_in(grid, block, smem_bytes, stream);
    l.cluster.id = cudaLaunchAttributeClusterDimension;
    l.cluster.val.clusterDim.x = cluster_dims.x;
    l.cluster.val.clusterDim.y = cluster_dims.y;
    l.cluster.val.clusterDim.z = cluster_dims.z;
    l.cluster_at_launch = true;
    return l;
  }
  // A kernel whose cluster shape is compiled in (__cluster_dims__).
  static ClusterLaunch compiled_in(dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream) {
    ClusterLaunch l;
    l.config.gridDim = grid;
    l.config.blockDim = block;
    l.config.dynamicSmemBytes = smem_bytes;
    l.config.stream = stream;
    return l;
  }

  // Clusters of this configuration that fit on the device at once (0: unknown).
  template <class Kernel>
  cudaError_t max_active_clusters(int* clusters, Kernel* kernel) {
    return cudaOccupancyMaxActiveClusters(clusters, kernel, bound());
  }
  template <class... Params, class... Args>
  cudaError_t launch(void (*kernel)(Params...), Args&&... args) {
    return cudaLaunchKernelEx(bound(), kernel, std::forward<Args>(args)...);
  }

 private:
  // The attribute pointer is set at use, so a copied ClusterLaunch points at its own.
  const cudaLaunchConfig_t* bound() {
    config.attrs = cluster_at_launch ? &cluster : nullptr;
    config.numAttrs = cluster_at_launch ? 1 : 0;
    return &config;
  }
};

}  // namespace gemmscope
