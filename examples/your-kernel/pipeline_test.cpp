// The example kernel's pipeline on gemmscope's simulator (gemmscope/model/pipeline.hpp).
// Each of its four warps is a role; per K step a warp stores its share of the A and B
// tiles (staging_chunk), meets the others at __syncthreads, reads the rows its threads
// compute with (compute_row, compute_col0), and meets them again before the next K
// step overwrites the tiles; after the last K step it stores its 32 x 32 block of C.
// __syncthreads is a barrier of four arrivals, one per warp, whose phases the warps
// count. The shared tiles are cut into parts by who writes them and who reads them,
// from the kernel's own address code (tile_address.hpp), so that a read of a part
// another warp has not written, or a store over a part another warp still reads, is
// reported: the kernel without either of its __syncthreads is caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gemmscope/model/pipeline.hpp"
#include "tile_address.hpp"

namespace {
using namespace gemmscope::model::sim;
using namespace your_kernel;

constexpr uint32_t kWarps = kThreads / 32;

// A part of the shared tiles: the rows of one operand one warp stores and the same
// warps read.
struct Part {
  char operand;
  uint32_t writer;
  std::set<uint32_t> readers;
  std::vector<uint32_t> rows;
};

// The parts, from the kernel's address code: who stores each row (staging_chunk), who
// reads it (A: the warps whose threads compute that row; B: the warps whose 32
// columns include it).
std::vector<Part> tile_parts() {
  std::map<std::pair<char, uint32_t>, uint32_t> writer;  // (operand, row) -> warp
  for (uint32_t step = 0; step < kStagingSteps; ++step)
    for (uint32_t t = 0; t < kThreads; ++t)
      for (char op : {'A', 'B'}) writer[{op, staging_chunk(step, t).row}] = t / 32;
  std::map<std::pair<char, uint32_t>, std::set<uint32_t>> readers;
  for (uint32_t t = 0; t < kThreads; ++t) {
    readers[{'A', compute_row(t)}].insert(t / 32);
    for (uint32_t j = 0; j < 32; ++j) readers[{'B', compute_col0(t) + j}].insert(t / 32);
  }
  std::vector<Part> parts;
  for (const auto& [key, w] : writer) {
    const std::set<uint32_t>& r = readers[key];
    auto same = [&](const Part& p) { return p.operand == key.first && p.writer == w && p.readers == r; };
    auto it = std::find_if(parts.begin(), parts.end(), same);
    if (it == parts.end()) it = parts.insert(parts.end(), Part{key.first, w, r, {}});
    it->rows.push_back(key.second);
  }
  return parts;
}

// One CTA over `k_steps` K steps. first_sync / second_sync = false: the kernel
// without the __syncthreads after its stores / after its reads.
Pipeline tile_gemm_pipeline(uint32_t k_steps, bool first_sync = true, bool second_sync = true) {
  Pipeline p;
  const uint32_t sync = p.barrier("__syncthreads", kWarps);
  const std::vector<Part> parts = tile_parts();
  std::vector<uint32_t> slots;
  for (const Part& part : parts) {
    std::string readers;
    for (uint32_t r : part.readers) readers += (readers.empty() ? "" : ",") + std::to_string(r);
    slots.push_back(p.slot(std::string(1, part.operand) + " rows of warp " + std::to_string(part.writer) +
                               " for warps " + readers,
                           static_cast<uint32_t>(part.readers.size())));
  }
  for (uint32_t w = 0; w < kWarps; ++w) p.output("C block of warp " + std::to_string(w));
  auto tag = [](char operand, uint32_t k) { return std::string(1, operand) + " k" + std::to_string(k * kTileK); };
  // __syncthreads number n of the run completes phase n: wait for its parity.
  const uint32_t syncs_per_step = (first_sync ? 1 : 0) + (second_sync ? 1 : 0);
  for (uint32_t w = 0; w < kWarps; ++w)
    p.role("warp " + std::to_string(w), k_steps + 1, [=](Step& s, uint32_t k) {
      if (k == k_steps) {  // the epilogue: registers to global memory
        s.produce("C block of warp " + std::to_string(w));
        return;
      }
      for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i].writer == w) s.write(slots[i], tag(parts[i].operand, k));
      if (first_sync) {
        s.arrive(sync);
        s.wait(sync, (k * syncs_per_step) & 1u);
      }
      for (size_t i = 0; i < parts.size(); ++i)
        if (parts[i].readers.count(w)) {
          s.read(slots[i], tag(parts[i].operand, k));
          s.release(slots[i]);
        }
      if (second_sync) {
        s.arrive(sync);
        s.wait(sync, (k * syncs_per_step + syncs_per_step - 1) & 1u);
      }
    });
  return p;
}

TEST(PipelineTest, PartsFollowTheKernelsAddressCode) {
  // Written plainly: eight threads copy one row, so warp w stores rows 4w..4w+3 of each
  // 16; A rows 0-31 are computed by warps 0 and 2, rows 32-63 by warps 1 and 3; B rows
  // (C columns) 0-31 are read by warps 0 and 1, 32-63 by warps 2 and 3.
  const std::vector<Part> parts = tile_parts();
  ASSERT_EQ(parts.size(), 16u);  // 2 operands x 4 writers x 2 halves
  for (const Part& part : parts) {
    ASSERT_EQ(part.rows.size(), 8u);
    const uint32_t half = part.rows.front() / 32;
    for (uint32_t row : part.rows) {
      EXPECT_EQ(row % 16 / 4, part.writer) << part.operand << " row " << row;
      EXPECT_EQ(row / 32, half) << part.operand << " row " << row;
    }
    const std::set<uint32_t> readers =
        part.operand == 'A' ? std::set<uint32_t>{half, half + 2} : std::set<uint32_t>{2 * half, 2 * half + 1};
    EXPECT_EQ(part.readers, readers) << part.operand << " rows of warp " << part.writer;
  }
}

TEST(PipelineTest, EveryScheduleOfTheKernelPasses) {
  for (uint32_t k_steps : {1u, 2u, 3u}) {
    const PipelineReport report = check(tile_gemm_pipeline(k_steps));
    std::cout << k_steps << " K steps: " << report.to_string() << "\n";
    EXPECT_TRUE(report.ok()) << report.to_string();
    EXPECT_TRUE(report.complete);
  }
}

TEST(PipelineTest, WithoutTheSecondSyncthreadsAStoreOverwritesATileStillRead) {
  const PipelineReport report = check(tile_gemm_pipeline(2, true, false));
  std::cout << "without the second __syncthreads: " << report.to_string() << "\n";
  EXPECT_EQ(report.violation, Violation::overwrite_before_drained) << report.to_string();
  // One K step has no next store to overwrite anything: the same kernel passes.
  EXPECT_TRUE(check(tile_gemm_pipeline(1, true, false)).ok());
}

TEST(PipelineTest, WithoutTheFirstSyncthreadsAWarpReadsRowsNotYetStored) {
  const PipelineReport report = check(tile_gemm_pipeline(1, false, true));
  std::cout << "without the first __syncthreads: " << report.to_string() << "\n";
  EXPECT_EQ(report.violation, Violation::read_before_written) << report.to_string();
}

TEST(PipelineTest, TimelineOfOneSchedule) {
  Pipeline p = tile_gemm_pipeline(3);
  const SimResult r = run_random(p, 1);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(p.outputs_in_order().size(), kWarps);
  const std::string svg = timeline_svg(p, "your-kernel: one CTA, 3 K steps, seed 1");
  for (uint32_t w = 0; w < kWarps; ++w) EXPECT_NE(svg.find(">warp " + std::to_string(w) + "</text>"), std::string::npos);
  std::ofstream("tile_gemm.pipeline.svg") << svg;  // the timeline, left in the working folder
}

}  // namespace
