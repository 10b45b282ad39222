// Probe: how many thread-block clusters run at once. k10's persistent launch sizes its
// grid by cudaOccupancyMaxActiveClusters, and the tuner's host side counts the same
// slots as tune::cluster_slots (SMs / cluster size). Each case launches exactly the
// API's count of clusters of a kernel that spins for kSpinNs, then one cluster more,
// and records every CTA's %smid and %globaltimer at its start. A CTA that starts more
// than kLateNs after the first waited for another to finish: it was not resident.
// CUDA Programming Guide: "Thread Block Clusters"; PTX ISA: %smid, %globaltimer.
#include <algorithm>
#include <set>
#include <string>

#include "common/cluster_launch.cuh"
#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr int kThreads = 384;                   // k10 with two consumer warpgroups
constexpr uint64_t kSpinNs = 200'000;           // far longer than a launch's spread
constexpr uint64_t kLateNs = 100'000;

__global__ void spin_and_record(uint64_t* start_ns, uint32_t* smid) {
  extern __shared__ uint8_t smem[];
  const uint64_t t0 = probe_globaltimer_ns();
  if (threadIdx.x == 0) {
    uint32_t id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    start_ns[blockIdx.x] = t0;
    smid[blockIdx.x] = id;
    smem[0] = 1;  // the shared memory is requested, so the occupancy is the one asked about
  }
  while (probe_globaltimer_ns() - t0 < kSpinNs) {
  }
}

struct Launched {
  int ctas = 0, late = 0, sms = 0;
};

// A launch of `clusters` clusters of `cluster_size` CTAs (1-D) with `smem_bytes` of
// dynamic shared memory each: one configuration for the occupancy query and the launch.
ClusterLaunch cluster_launch(int clusters, int cluster_size, int smem_bytes) {
  return ClusterLaunch::with_dims(dim3(static_cast<unsigned>(clusters * cluster_size)), dim3(kThreads),
                                  static_cast<std::size_t>(smem_bytes), nullptr,
                                  dim3(static_cast<unsigned>(cluster_size), 1, 1));
}

Launched launch_clusters(int clusters, int cluster_size, int smem_bytes) {
  const int ctas = clusters * cluster_size;
  DeviceBuffer<uint64_t> start(static_cast<std::size_t>(ctas));
  DeviceBuffer<uint32_t> smid(static_cast<std::size_t>(ctas));
  ClusterLaunch launch = cluster_launch(clusters, cluster_size, smem_bytes);
  GEMMSCOPE_PROBE_CUDA(launch.launch(spin_and_record, start.get(), smid.get()));
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint64_t> t = start.download();
  const std::vector<uint32_t> sm = smid.download();
  Launched out;
  out.ctas = ctas;
  const uint64_t first = *std::min_element(t.begin(), t.end());
  for (const uint64_t x : t) out.late += x - first > kLateNs ? 1 : 0;
  out.sms = static_cast<int>(std::set<uint32_t>(sm.begin(), sm.end()).size());
  return out;
}

Json run_case(int cluster_size, int smem_bytes) {
  allow_dynamic_smem(spin_and_record, smem_bytes);
  int clusters = 0;
  GEMMSCOPE_PROBE_CUDA(cluster_launch(1, cluster_size, smem_bytes).max_active_clusters(&clusters, spin_and_record));
  if (clusters < 1) throw ProbeError("cudaOccupancyMaxActiveClusters returned " + std::to_string(clusters));
  const Launched at_api = launch_clusters(clusters, cluster_size, smem_bytes);
  const Launched one_more = launch_clusters(clusters + 1, cluster_size, smem_bytes);
  return Json{{"api_clusters", clusters},
              {"at_api", {{"ctas", at_api.ctas}, {"late_ctas", at_api.late}, {"sms_used", at_api.sms}}},
              {"one_more", {{"ctas", one_more.ctas}, {"late_ctas", one_more.late}, {"sms_used", one_more.sms}}}};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<ProbeCase> cases;
  // 200 KiB: about what k10's instances ask for; 227 KiB: the per-block limit. Both
  // leave room for one CTA per SM, as every k10 instance does.
  for (const int smem_kib : {200, 227})
    for (const int size : {1, 2, 4, 8}) {
      const int smem = smem_kib * 1024;
      Json params{{"cluster_size", size},       {"threads", kThreads},  {"smem_bytes", smem},
                  {"spin_ns", kSpinNs},         {"late_ns", kLateNs}};
      cases.push_back(ProbeCase{"c" + std::to_string(size) + "_smem" + std::to_string(smem_kib) + "k",
                                std::move(params), [size, smem] { return run_case(size, smem); }});
    }
  return cases;
}

}  // namespace

ProbeDefinition cluster_residency_probe() {
  return {"cluster_residency",
          "clusters of 1, 2, 4 and 8 CTAs at 200 and 227 KiB of shared memory: the occupancy API's count of "
          "active clusters launched at once, and once more with one cluster over it; each CTA's start time and SM",
          {"cudaOccupancyMaxActiveClusters is exactly the number of clusters that run at once (k10's persistent grid)",
           "how many SMs clusters of each size reach (tune::cluster_slots: SMs / cluster size, exact for the "
           "compiled cluster sizes)"},
          make_cases};
}

}  // namespace gemmscope::probes
