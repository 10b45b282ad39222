// Probe: cluster launch control's cancel order. A grid of several waves of clusters
// (one CTA per SM, so most clusters wait for a free SM) in which every cluster that
// starts asks clusterlaunchcontrol.try_cancel for another cluster's work, again and
// again, until a request fails; each response is logged with its raw 16 bytes, the
// is_canceled predicate and get_first_ctaid. For clusters of 2 and 2 x 2 (the Blackwell
// kernel's shape) the request is multicast and every CTA logs the copy it received.
// What comes back, in what order, until failure: each cluster id either starts or is
// cancelled exactly once; a worker's responses are successes then one failure; the
// first CTA id names a cluster's first CTA; the multicast copies agree; and whether
// cancelled clusters come back lowest first, as the simulator's queue assumes.
// PTX ISA: "clusterlaunchcontrol.try_cancel", "clusterlaunchcontrol.query_cancel".
#include <cooperative_groups.h>

#include <algorithm>

#include "sm100_probe_cuda.cuh"

namespace gemmscope::probes {
namespace {
using namespace sm100;

constexpr uint32_t kThreads = 32;
constexpr uint32_t kSmemBytes = 200 * 1024;  // one CTA per SM: later clusters wait
constexpr uint32_t kRowWords = 11;           // worker, seq, rank, status, x, y, z, raw[4]
constexpr uint32_t kStatusFailed = 0, kStatusCancelled = 1, kStatusTimeout = 2;

struct ClcLog {
  uint32_t* started;        // cluster ids that ran their own body (rank 0)
  uint32_t* started_count;
  uint32_t* rows;           // kRowWords per response, per CTA, in arrival order
  uint32_t* row_count;
  uint32_t capacity_rows;
  uint32_t capacity_started;
};

__device__ __forceinline__ void cluster_sync_all() {
  ptx::barrier_cluster_arrive(ptx::sem_release);
  ptx::barrier_cluster_wait(ptx::sem_acquire);
}

__device__ __forceinline__ void spin_ns(uint64_t ns) {
  const uint64_t start = probe_globaltimer_ns();
  while (probe_globaltimer_ns() - start < ns) {
  }
}

// Clusters are laid out along x, cluster_x CTAs wide (and the whole grid's y):
// cluster id = blockIdx.x / cluster_x, as the Blackwell kernel numbers them.
__global__ void __launch_bounds__(kThreads, 1) clc_kernel(ClcLog log, uint32_t cluster_x, uint64_t spin, bool multicast) {
  extern __shared__ uint8_t smem_raw[];  // only to hold one CTA per SM
  __shared__ __align__(16) uint4 response;
  __shared__ uint64_t bar;
  __shared__ uint32_t stop;
  const uint32_t rank = ptx::get_sreg_cluster_ctarank();
  const uint32_t cluster_id = blockIdx.x / cluster_x;
  if (threadIdx.x == 0) {
    smem_raw[0] = 1;
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    if (rank == 0) {
      const uint32_t i = atomicAdd(log.started_count, 1u);
      if (i < log.capacity_started) log.started[i] = cluster_id;
    }
  }
  cluster_sync_all();
  uint32_t* stop_of_rank0 = cooperative_groups::this_cluster().map_shared_rank(&stop, 0);
  for (uint32_t seq = 0;; ++seq) {
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, uint32_t{16});
      if (rank == 0) {
        spin_ns(spin);  // the worker's "tile"
        if (multicast) ptx::clusterlaunchcontrol_try_cancel_multicast(&response, &bar);
        else ptx::clusterlaunchcontrol_try_cancel(&response, &bar);
      }
      const bool arrived = probe_wait_parity(&bar, seq & 1);
      const uint4 r = response;
      const bool cancelled = arrived && ptx::clusterlaunchcontrol_query_cancel_is_canceled(r);
      uint32_t x = 0, y = 0, z = 0;
      if (cancelled) {
        x = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_x<uint32_t>(r);
        y = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_y<uint32_t>(r);
        z = ptx::clusterlaunchcontrol_query_cancel_get_first_ctaid_z<uint32_t>(r);
      }
      const uint32_t i = atomicAdd(log.row_count, 1u);
      if (i < log.capacity_rows) {
        uint32_t* row = log.rows + i * kRowWords;
        row[0] = cluster_id;
        row[1] = seq;
        row[2] = rank;
        row[3] = !arrived ? kStatusTimeout : cancelled ? kStatusCancelled : kStatusFailed;
        row[4] = x;
        row[5] = y;
        row[6] = z;
        row[7] = r.x;
        row[8] = r.y;
        row[9] = r.z;
        row[10] = r.w;
      }
      stop = cancelled ? 0u : 1u;
      // The next try_cancel writes the buffer through the async proxy.
      ptx::fence_proxy_async(ptx::space_shared);
    }
    cluster_sync_all();  // every CTA has read this response and set its flag
    const bool done = *stop_of_rank0 != 0;  // rank 0's copy decides, so the CTAs stay in step
    cluster_sync_all();  // flags read before anyone writes the next
    if (done) break;
  }
}

struct ClcCase {
  std::string name;
  uint32_t cluster_x = 1, cluster_y = 1;
  uint32_t clusters_per_sm_pass = 4;  // grid = this many passes over the SMs' cluster slots
  uint64_t spin_ns = 2000;
  bool multicast = false;
};

Json run_case(const ClcCase& c) {
  require_sm100();
  const uint32_t cluster_size = c.cluster_x * c.cluster_y;
  const uint32_t sms = static_cast<uint32_t>(sm_count());
  const uint32_t clusters = std::max(1u, c.clusters_per_sm_pass * sms / cluster_size);
  const uint32_t capacity_rows = (2 * clusters + 16) * cluster_size;
  DeviceBuffer<uint32_t> started(clusters);
  DeviceBuffer<uint32_t> counts(2);
  DeviceBuffer<uint32_t> rows(static_cast<std::size_t>(capacity_rows) * kRowWords);
  allow_dynamic_smem(clc_kernel, static_cast<int>(kSmemBytes));
  ClcLog log{started.get(), counts.get(), rows.get(), counts.get() + 1, capacity_rows, clusters};
  cudaLaunchAttribute attr;
  const cudaLaunchConfig_t cfg = cluster_config(dim3(clusters * c.cluster_x, c.cluster_y), dim3(kThreads),
                                                dim3(c.cluster_x, c.cluster_y, 1), kSmemBytes, attr);
  const uint32_t cluster_x = c.cluster_x;
  const uint64_t spin = c.spin_ns;
  const bool multicast = c.multicast;
  GEMMSCOPE_PROBE_CUDA(cudaLaunchKernelEx(&cfg, clc_kernel, log, cluster_x, spin, multicast));
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> n = counts.download();
  const std::vector<uint32_t> s = started.download();
  const std::vector<uint32_t> r = rows.download();
  const uint32_t started_n = std::min(n[0], clusters), rows_n = std::min(n[1], capacity_rows);
  Json responses = Json::array();
  for (uint32_t i = 0; i < rows_n; ++i)
    responses.push_back(std::vector<uint32_t>(r.begin() + i * kRowWords, r.begin() + (i + 1) * kRowWords));
  return Json{{"grid_clusters", clusters},
              {"sm_count", sms},
              {"started", std::vector<uint32_t>(s.begin(), s.begin() + started_n)},
              {"started_dropped", n[0] - started_n},
              {"responses", responses},
              {"responses_dropped", n[1] - rows_n}};
}

ProbeCase make_case(const ClcCase& c) {
  Json params{{"cluster_dims", {c.cluster_x, c.cluster_y, 1}},
              {"clusters_per_sm_pass", c.clusters_per_sm_pass},
              {"threads", kThreads},
              {"smem_bytes", kSmemBytes},
              {"spin_ns", c.spin_ns},
              {"multicast", c.multicast},
              {"response_row", "worker cluster, seq, CTA rank, status (0 failed, 1 cancelled, 2 timeout), "
                               "first ctaid x, y, z, raw response words 0-3"}};
  return ProbeCase{c.name, std::move(params), [c] { return run_case(c); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ClcCase> list;
  ClcCase one{"c1_one_cluster", 1, 1, 0, 0, false};  // grid of 1: the first request must fail
  list.push_back(one);
  list.push_back({"c1_waves", 1, 1, 4, 2000, false});
  list.push_back({"c1_back_to_back", 1, 1, 4, 0, false});
  list.push_back({"c2_multicast", 2, 1, 4, 2000, true});
  list.push_back({"c2x2_multicast", 2, 2, 4, 2000, true});  // the Blackwell kernel's cluster
  std::vector<ProbeCase> cases;
  for (const ClcCase& c : list) cases.push_back(make_case(c));
  return cases;
}

}  // namespace

ProbeDefinition sm100_clc_order_probe() {
  return {"sm100_clc_order",
          "grids of several waves of clusters (1, 2 and 2 x 2 CTAs) in which every running cluster calls "
          "clusterlaunchcontrol.try_cancel until it fails: every response, per CTA, in arrival order",
          {"each cluster id is either launched or returned by exactly one successful try_cancel",
           "a worker's responses are successes, then one failure (the Blackwell kernel's walk stops there)",
           "get_first_ctaid names the first CTA of a cluster (x a multiple of the cluster width, y = z = 0)",
           "the multicast response lands, identical, in every CTA of the cluster",
           "cancelled clusters come back lowest id first (the simulator's queue)"},
          make_cases};
}

}  // namespace gemmscope::probes
