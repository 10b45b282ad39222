// Probe: where a 2-D TMA box lands in shared memory, for each swizzle mode, box
// shape and destination alignment. The global tile is index-coded (element (r, c)
// holds r * kGlobalCols + c as uint16), shared memory is pre-filled with 0xFFFF, and
// the probe dumps the shared-memory region around the box after the copy.
// PTX ISA: cp.async.bulk.tensor, "Tensor Map / Swizzling modes"; cuda.h:
// cuTensorMapEncodeTiled (reached through the runtime's driver entry point: the
// probes never link libcuda).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cuda/ptx>

#include "probe_cuda.cuh"

namespace gemmscope::probes {
namespace {

// 248 columns: a 496-byte row stride (a multiple of 16) and codes below 0xFFFF.
constexpr uint32_t kGlobalCols = 248;
constexpr uint32_t kGlobalRows = 256;
constexpr uint16_t kSentinel = 0xFFFF;
constexpr uint32_t kRegionAlignBytes = 1024;

const char* swizzle_name(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_NONE: return "none";
    case CU_TENSOR_MAP_SWIZZLE_32B: return "32B";
    case CU_TENSOR_MAP_SWIZZLE_64B: return "64B";
    case CU_TENSOR_MAP_SWIZZLE_128B: return "128B";
    default: return "other";
  }
}

uint32_t swizzle_span(CUtensorMapSwizzle s) {
  switch (s) {
    case CU_TENSOR_MAP_SWIZZLE_32B: return 32;
    case CU_TENSOR_MAP_SWIZZLE_64B: return 64;
    case CU_TENSOR_MAP_SWIZZLE_128B: return 128;
    default: return 0;
  }
}

struct TmaCase {
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  uint32_t inner_bytes = 16;
  uint32_t rows = 1;
  uint32_t dst_offset_bytes = 0;  // destination = 1024-aligned region + this
  uint32_t coord_col = 0;
  uint32_t coord_row = 0;
  bool encode_only = false;       // record whether the driver accepts the map; no copy
};

CUresult encode(const TmaCase& c, void* global, CUtensorMap* map) {
  const cuuint64_t dims[2] = {kGlobalCols, kGlobalRows};
  const cuuint64_t strides[1] = {kGlobalCols * sizeof(uint16_t)};
  const cuuint32_t box[2] = {c.inner_bytes / 2, c.rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  return encode_tiled_entry()(map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, global, dims, strides, box, elem_strides,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, c.swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// info[0] = shared address of the dumped region, info[1] = destination address,
// info[2] = 1 when the barrier phase completed, info[3] = dump bytes.
__global__ void tma_box_kernel(const __grid_constant__ CUtensorMap map, uint32_t dst_offset_bytes,
                               uint32_t dump_bytes, uint32_t box_bytes, int32_t coord_col, int32_t coord_row,
                               uint16_t* dump, uint32_t* info) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ uint64_t bar;
  const uint32_t raw = probe_smem_u32(smem_raw);
  uint8_t* region = smem_raw + ((kRegionAlignBytes - raw % kRegionAlignBytes) % kRegionAlignBytes);
  uint16_t* region16 = reinterpret_cast<uint16_t*>(region);
  for (uint32_t i = threadIdx.x; i < dump_bytes / 2; i += blockDim.x) region16[i] = kSentinel;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&bar, 1);
  }
  // The sentinel stores (generic proxy) must be ordered before the TMA's writes (async proxy).
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar,
                                         box_bytes);
    const int32_t coords[2] = {coord_col, coord_row};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, region + dst_offset_bytes,
                                    &map, coords, &bar);
  }
  const bool completed = probe_wait_parity(&bar, 0);
  __syncthreads();
  for (uint32_t i = threadIdx.x; i < dump_bytes / 2; i += blockDim.x) dump[i] = region16[i];
  if (threadIdx.x == 0) {
    info[0] = probe_smem_u32(region);
    info[1] = probe_smem_u32(region + dst_offset_bytes);
    info[2] = completed ? 1u : 0u;
    info[3] = dump_bytes;
  }
}

Json run_case(const TmaCase& c) {
  std::vector<uint16_t> host(kGlobalCols * kGlobalRows);
  for (uint32_t r = 0; r < kGlobalRows; ++r)
    for (uint32_t col = 0; col < kGlobalCols; ++col) host[r * kGlobalCols + col] = static_cast<uint16_t>(r * kGlobalCols + col);
  DeviceBuffer<uint16_t> global(host.size());
  global.upload(host);
  CUtensorMap map{};
  const CUresult encoded = encode(c, global.get(), &map);
  if (c.encode_only) return Json{{"encode_result", static_cast<int>(encoded)}, {"encode_accepted", encoded == CUDA_SUCCESS}};
  if (encoded != CUDA_SUCCESS)
    throw ProbeError("cuTensorMapEncodeTiled refused the map: CUresult " + std::to_string(static_cast<int>(encoded)));

  const uint32_t span = swizzle_span(c.swizzle);
  // Room for rows at the inner-bytes pitch or padded to the span, plus a guard.
  const uint32_t payload = c.rows * std::max(c.inner_bytes, span);
  const uint32_t dump_bytes = (c.dst_offset_bytes + payload + 1024 + 127) / 128 * 128;
  const uint32_t smem_bytes = dump_bytes + kRegionAlignBytes;
  allow_dynamic_smem(tma_box_kernel, static_cast<int>(smem_bytes));
  DeviceBuffer<uint16_t> dump(dump_bytes / 2);
  DeviceBuffer<uint32_t> info(4);
  tma_box_kernel<<<1, 128, smem_bytes>>>(map, c.dst_offset_bytes, dump_bytes, c.rows * c.inner_bytes,
                                         static_cast<int32_t>(c.coord_col), static_cast<int32_t>(c.coord_row),
                                         dump.get(), info.get());
  GEMMSCOPE_PROBE_LAUNCHED();
  const std::vector<uint32_t> inf = info.download();
  const std::vector<uint16_t> d = dump.download();
  return Json{{"region_smem_address", inf[0]},
              {"dst_smem_address", inf[1]},
              {"barrier_completed", inf[2] == 1},
              {"dump_bytes", inf[3]},
              {"encode_result", 0},
              {"smem_u16", traces::golden_runs(std::vector<int64_t>(d.begin(), d.end()))}};
}

ProbeCase make_case(const TmaCase& c) {
  std::string name = std::string("swz") + swizzle_name(c.swizzle) + "_in" + std::to_string(c.inner_bytes) + "B_r" +
                     std::to_string(c.rows) + "_off" + std::to_string(c.dst_offset_bytes);
  if (c.coord_col || c.coord_row) name += "_at" + std::to_string(c.coord_col) + "x" + std::to_string(c.coord_row);
  if (c.encode_only) name = "encode_" + name;
  Json params{{"swizzle", swizzle_name(c.swizzle)},
              {"inner_bytes", c.inner_bytes},
              {"inner_elems", c.inner_bytes / 2},
              {"rows", c.rows},
              {"elem_bytes", 2},
              {"dst_offset_bytes", c.dst_offset_bytes},
              {"region_align_bytes", kRegionAlignBytes},
              {"coord_col", c.coord_col},
              {"coord_row", c.coord_row},
              {"global_cols", kGlobalCols},
              {"global_rows", kGlobalRows},
              {"sentinel", kSentinel},
              {"encode_only", c.encode_only}};
  return ProbeCase{name, params, [c] { return run_case(c); }};
}

std::vector<ProbeCase> make_cases(const ProbeOptions&) {
  std::vector<TmaCase> list;
  const auto add = [&](CUtensorMapSwizzle s, uint32_t inner, uint32_t rows, uint32_t off = 0, uint32_t cc = 0,
                       uint32_t cr = 0) { list.push_back({s, inner, rows, off, cc, cr, false}); };
  // No swizzle: rows at the inner-bytes pitch; several widths, odd row counts.
  for (uint32_t inner : {16u, 32u, 48u, 64u, 128u, 256u, 496u})
    for (uint32_t rows : {1u, 8u, 37u}) add(CU_TENSOR_MAP_SWIZZLE_NONE, inner, rows);
  add(CU_TENSOR_MAP_SWIZZLE_NONE, 128, 256);
  // Destination alignment for no swizzle: 16-byte multiples (may be refused by the hardware).
  for (uint32_t off : {16u, 48u, 128u, 256u}) add(CU_TENSOR_MAP_SWIZZLE_NONE, 64, 8, off);
  // Swizzled: every inner width up to the span (inner < span is the open question:
  // rows at the inner pitch with the absolute-address XOR, or padded to the span?).
  for (auto [s, span] : {std::pair{CU_TENSOR_MAP_SWIZZLE_32B, 32u}, std::pair{CU_TENSOR_MAP_SWIZZLE_64B, 64u},
                         std::pair{CU_TENSOR_MAP_SWIZZLE_128B, 128u}}) {
    for (uint32_t inner = 16; inner <= span; inner *= 2)
      for (uint32_t rows : {1u, 8u, 13u, 64u}) add(s, inner, rows);
    add(s, span, 256);
    // Destinations off the pattern boundary: does the XOR use absolute address bits?
    for (uint32_t off = 128; off < span * 8; off *= 2) add(s, span, 16, off);
    add(s, span / 2, 16, 128);
    add(s, span, 8, 0, 8, 3);  // a box away from the origin
  }
  // What the driver accepts (no copy): the validate() limits of model::TmaBox.
  list.push_back({CU_TENSOR_MAP_SWIZZLE_128B, 256, 8, 0, 0, 0, true});  // inner bytes > span
  list.push_back({CU_TENSOR_MAP_SWIZZLE_64B, 128, 8, 0, 0, 0, true});   // inner bytes > span
  list.push_back({CU_TENSOR_MAP_SWIZZLE_32B, 64, 8, 0, 0, 0, true});    // inner bytes > span
  list.push_back({CU_TENSOR_MAP_SWIZZLE_NONE, 24, 8, 0, 0, 0, true});   // not a multiple of 16 bytes
  list.push_back({CU_TENSOR_MAP_SWIZZLE_NONE, 16, 257, 0, 0, 0, true}); // rows > 256
  list.push_back({CU_TENSOR_MAP_SWIZZLE_128B, 128, 256, 0, 0, 0, true});  // the largest valid 128B box
  std::vector<ProbeCase> cases;
  for (const TmaCase& c : list) cases.push_back(make_case(c));
  return cases;
}

}  // namespace

ProbeDefinition tma_swizzle_probe() {
  return {"tma_swizzle",
          "2-D TMA box (uint16, index-coded) into shared memory: dump of the landing region per swizzle mode, box "
          "shape and destination offset",
          {"TmaBox::address: rows at the inner-bytes pitch, swizzle XOR on absolute shared-memory address bits",
           "swizzled boxes with inner bytes < span: inner pitch with absolute XOR, or rows padded to the span",
           "destinations off the 256/512/1024-byte pattern boundary: absolute-address XOR",
           "no-swizzle destinations at 16-byte offsets: accepted or faulting",
           "cuTensorMapEncodeTiled limits: inner bytes <= span, multiple of 16, box rows <= 256"},
          make_cases};
}

}  // namespace gemmscope::probes
