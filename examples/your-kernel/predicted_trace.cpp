#include "predicted_trace.hpp"

#include "gemmscope/model/swizzle.hpp"

namespace your_kernel {

namespace gm = gemmscope::model;
namespace gtr = gemmscope::traces;

namespace {

// The kernel's shape of work, restated from its description (tile_gemm.hpp): 64 x 64
// tiles of 128-byte rows, A at the base and B 8192 bytes on, 128 threads; a warp's
// staging step covers 4 rows of 8 chunks, a warp's A loads 32 consecutive rows.
constexpr uint32_t kTile = 64, kRowBytes = 128, kTileBytes = kTile * kRowBytes, kWarps = 4;

gtr::TraceRecord record(gtr::Stage stage, uint32_t cta, uint32_t warp, gm::AccessKind kind) {
  gtr::TraceRecord r;
  r.stage = stage;
  r.cta = cta;
  r.warp = warp;
  r.access.width_bytes = 16;
  r.access.kind = kind;
  r.access.active_mask = 0xFFFFFFFFu;
  return r;
}

}  // namespace

gtr::Trace predicted_trace(const gemmscope::testing::Shape& shape, uint32_t smem_base, bool swizzled) {
  const auto at = [&](uint64_t linear) {
    return swizzled ? gm::swizzle_address(gm::SwizzleMode::B128, smem_base + linear) : smem_base + linear;
  };
  gtr::Trace t;
  t.kernel = "tile_gemm";
  t.source = "model";
  t.smem_base = smem_base;
  t.description = std::string("the model's prediction of tile_gemm's shared-memory accesses, ") +
                  (swizzled ? "128B swizzle" : "unswizzled rows") + ", shape " + gemmscope::testing::to_string(shape);
  const uint32_t ctas = static_cast<uint32_t>(((shape.m + kTile - 1) / kTile) * ((shape.n + kTile - 1) / kTile));
  const int64_t k_steps = (shape.k + kTile - 1) / kTile;
  for (uint32_t cta = 0; cta < ctas; ++cta)
    for (uint32_t warp = 0; warp < kWarps; ++warp)
      for (int64_t ks = 0; ks < k_steps; ++ks) {
        for (uint32_t tile_start : {0u, kTileBytes})  // A's staging, then B's
          for (uint32_t step = 0; step < 4; ++step) {
            auto r = record(gtr::Stage::Store, cta, warp, gm::AccessKind::Store);
            for (uint32_t lane = 0; lane < 32; ++lane) {
              const uint32_t i = step * 128 + warp * 32 + lane;  // the CTA's i-th 16-byte chunk
              r.access.address[lane] = at(tile_start + i * 16);
            }
            r.access.label = "staging step " + std::to_string(step);
            t.records.push_back(r);
          }
        for (uint32_t chunk = 0; chunk < 8; ++chunk) {
          auto r = record(gtr::Stage::Load, cta, warp, gm::AccessKind::Load);
          for (uint32_t lane = 0; lane < 32; ++lane) {
            const uint32_t row = (warp % 2) * 32 + lane;
            r.access.address[lane] = at(uint64_t{row} * kRowBytes + chunk * 16);
          }
          r.access.label = "A chunk " + std::to_string(chunk);
          t.records.push_back(r);
        }
      }
  return t;
}

}  // namespace your_kernel
