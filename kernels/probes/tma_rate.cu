// Probe: how fast TMA fills shared memory, per SM and in all, as k10's producer loads
// its ring: 128-byte swizzled boxes of 64 bf16 per row, a ring of stages behind full
// and empty mbarriers, a consumer that releases each stage as soon as it lands (no
// wgmma: the loads alone). The cases vary the CTAs that stream at once, the stage size
// and the bytes in flight (stages x stage size), cluster multicast (each CTA of a
// cluster of C loads 1/C of every stage and multicasts it to all C, as k10's 2x1
// clusters share B), and where the data comes from: a 4 MiB tensor that every group
// of CTAs re-reads (L2) or 1 GiB read once per pass (HBM). Some cases cut a stage into
// 2 or 4 boxes, or let 2 or 4 producer threads take the stages in turn (or split each
// stage's boxes), to tell a per-stage round trip from a per-box or per-byte cost.
// Each CTA records %globaltimer and %clock64 around its stream; the case reports the
// bytes that landed, per CTA and in all, over the time the stream took.
// PTX ISA: cp.async.bulk.tensor (.multicast::cluster), mbarrier; %globaltimer.
#include <algorithm>
#include <string>
#include <vector>

#include "common/cluster_launch.cuh"
#include "common/sm90_cluster.cuh"
#include "common/sm90_device.cuh"
#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

constexpr int kThreads = 256;  // lane 0 of warps 0, 2, 4, 6: producers; lane 0 of warp 1: the consumer
constexpr int kMaxStages = 16;
constexpr uint32_t kRowBytes = 128;  // one box row: 64 bf16, one 128-byte swizzle span
constexpr int64_t kBytesPerCta = int64_t{32} << 20;  // each CTA streams 32 MiB

struct RateCase {
  std::string name;
  int ctas = 132;
  int cluster = 1;         // CTAs that share every stage by multicast
  uint32_t box_rows = 256; // rows per stage (stage bytes = box_rows x 128)
  int stages = 6;
  bool hbm = false;        // a 1 GiB tensor, no two clusters reading the same rows
  int boxes = 1;           // boxes per stage (and CTA), issued back to back
  int producers = 1;       // threads issuing loads (lane 0 of warps 0, 2, 4, 6)
  bool split = false;      // producers split every stage's boxes (else they take stages in turn)
};

// One CTA per SM (the shared memory asks for a whole SM). Rows group g of the tensor:
// box_rows rows from row g x box_rows; cluster c reads group c % groups, k-block kb
// from column (kb % distinct_k) x 64.
__global__ void tma_stream(const __grid_constant__ CUtensorMap map, uint32_t box_rows, uint32_t stages,
                           uint32_t k_blocks, uint32_t groups, uint32_t distinct_k, uint32_t boxes,
                           uint32_t producers, bool split, uint64_t* start_ns,
                           uint64_t* end_ns, uint64_t* cycles, uint32_t* timeouts) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ uint64_t full[kMaxStages], empty[kMaxStages];
  uint8_t* ring = smem_raw + ((1024 - probe_smem_u32(smem_raw) % 1024) % 1024);
  const uint32_t cluster = cuda::ptx::get_sreg_cluster_nctarank(), rank = sm90::cluster_ctarank();
  const uint32_t stage_bytes = box_rows * kRowBytes, slice_rows = box_rows / cluster;
  if (threadIdx.x == 0) {
    for (uint32_t i = 0; i < stages; ++i) {
      cuda::ptx::mbarrier_init(&full[i], split ? producers : 1);
      cuda::ptx::mbarrier_init(&empty[i], cluster);  // one consumer in every CTA it multicast to
    }
    sm90::fence_mbarrier_inits();
  }
  sm90::cluster_sync();
  const uint64_t t0 = probe_globaltimer_ns();
  const uint64_t c0 = clock64();
  const int32_t row0 = static_cast<int32_t>((blockIdx.x / cluster % groups) * box_rows + rank * slice_rows);
  bool timed_out = false;
  // Producer p (lane 0 of warp 2p, p < producers). Taking stages in turn (split
  // false): it fills the stages kb % producers == p, each in `boxes` boxes of
  // slice_rows / boxes rows. Splitting every stage (split true): it issues boxes
  // b % producers == p of every stage, and arrives with their bytes.
  const uint32_t producer = threadIdx.x / 64;
  if (threadIdx.x % 64 == 0 && producer < producers) {
    const uint16_t mask = static_cast<uint16_t>((1u << cluster) - 1);
    const uint32_t box_rows_each = slice_rows / boxes;
    const uint32_t first_kb = split ? 0 : producer, kb_step = split ? 1 : producers;
    const uint32_t first_box = split ? producer : 0, box_step = split ? producers : 1;
    const uint32_t my_bytes = split ? stage_bytes / producers : stage_bytes;
    for (uint32_t kb = first_kb; kb < k_blocks && !timed_out; kb += kb_step) {
      const uint32_t s = kb % stages, lap = kb / stages;
      if (lap > 0 && !probe_wait_parity(&empty[s], (lap - 1) & 1)) timed_out = true;
      sm90::mbarrier_expect_bytes(&full[s], my_bytes);
      const int32_t col = static_cast<int32_t>(kb % distinct_k * 64);
      for (uint32_t b = first_box; b < boxes; b += box_step) {
        uint8_t* dst = ring + s * stage_bytes + (rank * slice_rows + b * box_rows_each) * kRowBytes;
        const int32_t row = row0 + static_cast<int32_t>(b * box_rows_each);
        if (cluster == 1)
          sm90::tma_load_2d(dst, &map, col, row, &full[s]);
        else
          sm90::tma_load_2d_multicast(dst, &map, col, row, &full[s], mask);
      }
    }
  } else if (threadIdx.x == 32) {
    for (uint32_t kb = 0; kb < k_blocks && !timed_out; ++kb) {
      const uint32_t s = kb % stages, lap = kb / stages;
      if (!probe_wait_parity(&full[s], lap & 1)) timed_out = true;
      for (uint32_t r = 0; r < cluster; ++r) sm90::mbarrier_arrive_remote(&empty[s], r);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    end_ns[blockIdx.x] = probe_globaltimer_ns();
    start_ns[blockIdx.x] = t0;
    cycles[blockIdx.x] = clock64() - c0;
  }
  if (timed_out) atomicAdd(timeouts, 1u);
  // No CTA leaves while a peer may still multicast into it or arrive on its barriers.
  sm90::cluster_sync();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2;
}

Json run_case(const RateCase& c) {
  const int clusters = c.ctas / c.cluster;
  const uint32_t groups = c.hbm ? static_cast<uint32_t>(clusters) : 16;
  const uint32_t distinct_k = c.hbm ? 256 : 8;  // L2: 16 x 256 rows x 8 x 128 B = 4 MiB
  const uint64_t rows = uint64_t{groups} * c.box_rows, cols = uint64_t{distinct_k} * 64;
  DeviceBuffer<uint16_t> tensor(rows * cols);
  CUtensorMap map{};
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * sizeof(uint16_t)};
  const cuuint32_t box[2] = {64, c.box_rows / static_cast<uint32_t>(c.cluster * c.boxes)};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult encoded = encode_tiled_entry()(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, tensor.get(), dims, strides,
                                                box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (encoded != CUDA_SUCCESS)
    throw ProbeError("cuTensorMapEncodeTiled refused the map: CUresult " + std::to_string(static_cast<int>(encoded)));
  const uint32_t stage_bytes = c.box_rows * kRowBytes;
  const uint32_t k_blocks = static_cast<uint32_t>(kBytesPerCta / stage_bytes);
  const int smem = static_cast<int>(stage_bytes) * c.stages + 1024;
  allow_dynamic_smem(tma_stream, smem);
  DeviceBuffer<uint64_t> start(static_cast<std::size_t>(c.ctas)), end(static_cast<std::size_t>(c.ctas)),
      cycles(static_cast<std::size_t>(c.ctas));
  DeviceBuffer<uint32_t> timeouts(1);
  ClusterLaunch launch = ClusterLaunch::with_dims(dim3(static_cast<unsigned>(c.ctas)), dim3(kThreads),
                                                  static_cast<std::size_t>(smem), nullptr,
                                                  dim3(static_cast<unsigned>(c.cluster), 1, 1));
  const uint32_t stages = static_cast<uint32_t>(c.stages);
  // The first launch warms L2 (and the clocks); the second is the one recorded.
  for (int round = 0; round < 2; ++round) {
    GEMMSCOPE_PROBE_CUDA(launch.launch(tma_stream, map, c.box_rows, stages, k_blocks, groups, distinct_k,
                                       static_cast<uint32_t>(c.boxes), static_cast<uint32_t>(c.producers), c.split,
                                       start.get(), end.get(), cycles.get(), timeouts.get()));
    GEMMSCOPE_PROBE_LAUNCHED();
  }
  const std::vector<uint64_t> t0 = start.download(), t1 = end.download(), cyc = cycles.download();
  const uint32_t timed_out = timeouts.download()[0];
  const double bytes = static_cast<double>(k_blocks) * stage_bytes;  // landed in each CTA
  std::vector<double> per_cta_gbs, mhz;
  for (int i = 0; i < c.ctas; ++i) {
    const double ns = static_cast<double>(t1[i] - t0[i]);
    per_cta_gbs.push_back(bytes / ns);
    mhz.push_back(static_cast<double>(cyc[i]) / ns * 1000);
  }
  const double span_ns = static_cast<double>(*std::max_element(t1.begin(), t1.end()) -
                                             *std::min_element(t0.begin(), t0.end()));
  const double total_gbs = bytes * c.ctas / span_ns;
  return Json{{"timeouts", timed_out},
              {"bytes_per_cta", static_cast<int64_t>(bytes)},
              {"span_ns", static_cast<int64_t>(span_ns)},
              {"per_cta_gbs_median", median(per_cta_gbs)},
              {"per_cta_gbs_min", *std::min_element(per_cta_gbs.begin(), per_cta_gbs.end())},
              {"total_gbs", total_gbs},
              {"l2_read_gbs", total_gbs / c.cluster},
              {"sm_mhz_median", median(mhz)}};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<RateCase> list;
  // L2, no multicast: CTAs streaming at once x stage size x bytes in flight.
  for (const int ctas : {1, 16, 66, 132})
    for (const auto& [rows, stages] : std::vector<std::pair<uint32_t, int>>{{128, 4}, {128, 12}, {256, 2}, {256, 6}})
      list.push_back({"l2_ctas" + std::to_string(ctas) + "_stage" + std::to_string(rows / 8) + "k_x" +
                          std::to_string(stages),
                      ctas, 1, rows, stages, false});
  // L2, multicast: clusters of 2 on every SM, of 4 on the 120 SMs they reach (30
  // clusters; traces/hw/cluster_residency.json), and 120 CTAs alone beside them.
  list.push_back({"l2_ctas132_c2_stage32k_x6", 132, 2, 256, 6, false});
  list.push_back({"l2_ctas120_c4_stage32k_x6", 120, 4, 256, 6, false});
  list.push_back({"l2_ctas120_stage32k_x6", 120, 1, 256, 6, false});
  // One CTA and every SM: a stage as 2 or 4 boxes; 2 or 4 producers taking stages in
  // turn or splitting each stage's boxes.
  auto add = [&list](const std::string& name, int ctas, int cluster, uint32_t rows, int stages, int boxes,
                     int producers, bool split) {
    RateCase c{name, ctas, cluster, rows, stages, false};
    c.boxes = boxes, c.producers = producers, c.split = split;
    list.push_back(c);
  };
  for (const int ctas : {1, 132}) {
    const std::string at = "l2_ctas" + std::to_string(ctas);
    add(at + "_stage32k_x6_boxes2", ctas, 1, 256, 6, 2, 1, false);
    add(at + "_stage32k_x6_boxes4", ctas, 1, 256, 6, 4, 1, false);
    add(at + "_stage16k_x12_producers2", ctas, 1, 128, 12, 1, 2, false);
    add(at + "_stage16k_x12_producers4", ctas, 1, 128, 12, 1, 4, false);
    add(at + "_stage32k_x6_producers2", ctas, 1, 256, 6, 1, 2, false);
    add(at + "_stage32k_x6_producers4", ctas, 1, 256, 6, 1, 4, false);
    add(at + "_stage32k_x6_boxes2_split2", ctas, 1, 256, 6, 2, 2, true);
  }
  add("l2_ctas132_c2_stage32k_x6_producers2", 132, 2, 256, 6, 1, 2, false);
  // HBM: every cluster reads rows of its own, 8 MiB a CTA, each pass past L2.
  list.push_back({"hbm_ctas132_stage32k_x6", 132, 1, 256, 6, true});
  list.push_back({"hbm_ctas132_c2_stage32k_x6", 132, 2, 256, 6, true});
  std::vector<ProbeCase> cases;
  for (const RateCase& c : list) {
    Json params{{"ctas", c.ctas},         {"cluster", c.cluster},
                {"stage_bytes", c.box_rows * kRowBytes}, {"stages", c.stages},
                {"in_flight_bytes", c.box_rows * kRowBytes * c.stages}, {"source", c.hbm ? "hbm" : "l2"},
                {"boxes_per_stage", c.boxes}, {"producers", c.producers},
                {"producers_split_stages", c.split},
                {"box", "64 bf16 x " + std::to_string(c.box_rows / (c.cluster * c.boxes)) + " rows, 128B swizzle"}};
    cases.push_back(ProbeCase{c.name, std::move(params), [c] { return run_case(c); }});
  }
  return cases;
}

}  // namespace

ProbeDefinition tma_rate_probe() {
  return {"tma_rate",
          "TMA loads into a ring of 2-12 stages of 16 or 32 KiB, each released as it lands: 1-132 CTAs, clusters "
          "of 1, 2 and 4 sharing each stage by multicast, from a 4 MiB tensor re-read through L2 or 1 GiB from HBM; "
          "bytes landed per CTA and in all over the stream's time",
          {"the rate one SM's TMA loads fill its shared memory from L2, by stage size and ring depth "
           "(tune::kModelSmLoadRate assumes no more at stages of 24 KiB and more)",
           "whether a stage costs a round trip, a time per box or a time per byte, and what more producer threads do",
           "whether the rate falls as more SMs stream at once (a GPU-wide limit), and what multicast does to it"},
          make_cases};
}

}  // namespace gemmscope::probes
