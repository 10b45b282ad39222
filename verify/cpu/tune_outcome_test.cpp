// The row `gemmscope tune` prints per shape as soon as it is done, written out by
// hand from an H200 tune log of 2026-11-30 (its ratio, 0.948, came from the unrounded times: 0.947 from the rounded ones here).
#include <gtest/gtest.h>

#include "tune/outcome.hpp"

namespace gemmscope::tune {
namespace {

TEST(TuneOutcome, RowAsTheLogShowsIt) {
  ShapeOutcome o;
  o.shape = NamedShape{"gemma3-27b", "o", 2048, 5376, 4096};
  o.best = "128x128x64.s6.wg2pp.c2x1.static.g0.streamk";
  o.best_ms = 0.1252;
  o.cublas_ms = 0.1186;
  o.timed = 273;
  EXPECT_EQ(outcome_table_row(o),
            "gemma3-27b/o                 2048x5376x4096         128x128x64.s6.wg2pp.c2x1.static.g0.streamk     "
            "0.1252     0.1186   0.947    273      0\n");
}

TEST(TuneOutcome, HeaderSkippedNoneAndKept) {
  EXPECT_EQ(outcome_table_header(),
            "shape set row                MxNxK                  best configuration                          best_ms  "
            "cublas_ms   ratio  timed failed\n");
  ShapeOutcome o;
  o.shape = NamedShape{"", "", 64, 64, 64};
  o.skipped = true;
  EXPECT_EQ(outcome_table_row(o), "");
  o.skipped = false;
  o.failed = 3;
  const std::string none = outcome_table_row(o);
  EXPECT_EQ(none.substr(0, 29), "-                            ");
  EXPECT_NE(none.find("(none passed)"), std::string::npos);
  EXPECT_NE(none.find("  0.000      0      3\n"), std::string::npos);
  o.best = "64x128x64.s8.wg1.c2x1.static.g0.sk1";
  o.best_ms = 0.02, o.cublas_ms = 0.01;
  EXPECT_NE(outcome_table_row(o).find("0.500      0      3\n"), std::string::npos);
  o.incumbent = o.best;
  EXPECT_NE(outcome_table_row(o).find("0.500      0      3  (the cache's entry, timed with the selection, stays)\n"),
            std::string::npos);
  o.incumbent = "128x256x64.s4.wg2.c2x1.static.g0.sk1";
  EXPECT_NE(outcome_table_row(o).find("  (replaces the cache's 128x256x64.s4.wg2.c2x1.static.g0.sk1)\n"),
            std::string::npos);
  // The refine round overturned the first round's pick.
  o.incumbent.clear();
  o.refined = 3, o.first_round = "128x192x64.s4.wg2.c2x1.static.g0.sk1";
  EXPECT_NE(outcome_table_row(o).find("0.500      0      3  (refined 3; first round: 128x192x64.s4.wg2.c2x1.static.g0.sk1)\n"),
            std::string::npos);
}

// tune --times: one CSV row per round and candidate, written out by hand; the
// ratio is cuBLAS's median over the candidate's, from the same round.
TEST(TuneOutcome, SweepTimesRowsEveryCandidateOfBothRounds) {
  EXPECT_EQ(sweep_times_header(),
            "gpu,driver,cuda_runtime,kernel_version,date,label,m,n,k,round,config,median_ms,cublas_ms,ratio_to_cublas\n");
  ShapeOutcome o;
  o.shape = NamedShape{"qwen2.5-7b", "qkv", 256, 4608, 3584};
  o.where = SweepWhere{"NVIDIA H200", "580.159.04", "13.0", "2026-12-01T12:00:00Z", 7};
  o.first_times = {{"64x96x64.s10.wg1.c2x1.static.g0.sk1", 0.02}, {"64x192x64.s6.wg1.c2x1.static.g0.sk1", 0.025}};
  o.cublas_first_ms = 0.0175;
  o.refined_times = {{"64x96x64.s10.wg1.c2x1.static.g0.sk1", 0.0195}};
  o.cublas_refined_ms = 0.0156;
  const std::string where = "\"NVIDIA H200\",\"580.159.04\",\"13.0\",7,2026-12-01T12:00:00Z,\"qwen2.5-7b/qkv\",256,4608,3584,";
  EXPECT_EQ(sweep_times_rows(o),
            // first round, configurations in name order
            where + "first,64x192x64.s6.wg1.c2x1.static.g0.sk1,0.025000,0.017500,0.70000\n" +
            where + "first,64x96x64.s10.wg1.c2x1.static.g0.sk1,0.020000,0.017500,0.87500\n" +
            where + "refine,64x96x64.s10.wg1.c2x1.static.g0.sk1,0.019500,0.015600,0.80000\n");
  // A shape given as MxNxK has no label; a skipped shape has no rows.
  o.shape.model.clear(), o.shape.layer.clear();
  o.refined_times.clear();
  EXPECT_NE(sweep_times_rows(o).find(",7,2026-12-01T12:00:00Z,\"\",256,4608,3584,first,"), std::string::npos);
  o.skipped = true;
  EXPECT_EQ(sweep_times_rows(o), "");
}

}  // namespace
}  // namespace gemmscope::tune
