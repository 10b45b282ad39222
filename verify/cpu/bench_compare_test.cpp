// gemmscope compare's reader and arithmetic (tools/report/bench_compare.*): bench CSVs
// read back field by field, the ratio recomputed from the two medians, the geometric
// mean and minimum by the plain formula, the times of later runs over the first's, and
// every refusal naming the line, the column and the value.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#if __has_include("report/bench_compare.hpp")

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/bench_compare.hpp"

#ifdef GEMMSCOPE_HAVE_BENCH_REPORT
#include "bench/bench_report.hpp"
#endif

namespace {

using gemmscope::report::BenchRun;
using gemmscope::report::compare_runs;
using gemmscope::report::format_comparison;
using gemmscope::report::read_bench_csv;

const char* kHeader = "kernel,m,n,k,median_ms,label,commit,note\n";

std::string row(const std::string& kernel, const std::string& shape_csv, const std::string& median,
                const std::string& label = "x", const std::string& note = "") {
  return "\"" + kernel + "\"," + shape_csv + "," + median + ",\"" + label + "\",\"abc1234\",\"" + note + "\"\n";
}

std::string refusal(const std::string& text) {
  try {
    read_bench_csv(text, "f.csv");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(BenchCompare, ReadsQuotedFieldsAndSkipsRowsWithoutTime) {
  const std::string text = std::string(kHeader) + row("auto", "512,4096,4096", "0.027568", "llama3-8b/o, \"\"big\"\"") +
                           row("cublas", "512,4096,4096", "0.02696") +
                           row("k02", "512,4096,4096", "0", "x", "refused: K = 60, must be a multiple of 8") +
                           row("k03", "512,4096,4096", "nan") + row("k04", "512,4096,4096", "");
  const BenchRun run = read_bench_csv(text, "f.csv");
  ASSERT_EQ(run.rows.size(), 5u);
  EXPECT_EQ(run.rows[0].label, "llama3-8b/o, \"big\"");
  EXPECT_EQ(run.rows[0].m, 512);
  EXPECT_DOUBLE_EQ(run.rows[0].median_ms, 0.027568);
  EXPECT_TRUE(run.rows[0].measured);
  EXPECT_EQ(run.rows[2].note, "refused: K = 60, must be a multiple of 8");
  EXPECT_FALSE(run.rows[2].measured);
  EXPECT_FALSE(run.rows[3].measured);
  EXPECT_FALSE(run.rows[4].measured);
  EXPECT_EQ(run.rows[4].line, 6);
}

TEST(BenchCompare, BlankLinesAreSkippedAndLinesStillCounted) {
  const BenchRun run = read_bench_csv("kernel,m,n,k,median_ms\n\nauto,1,2,3,0.5\n\n\ncublas,1,2,3,0.25\n\n", "f.csv");
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].line, 3);
  EXPECT_EQ(run.rows[1].line, 6);
  // A quoted empty field is a record, not a blank line.
  EXPECT_EQ(refusal("kernel,m,n,k,median_ms\n\"\"\n"), "f.csv: line 2: 1 fields where the header has 5");
}

TEST(BenchCompare, CrLfLineEndsAndAQuotedLineBreak) {
  const std::string text = "kernel,m,n,k,median_ms,label\r\n\"auto\",1,2,3,0.5,\"two\nlines\"\r\n\"cublas\",1,2,3,0.25,x\r\n";
  const BenchRun run = read_bench_csv(text, "f.csv");
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].label, "two\nlines");
  EXPECT_EQ(run.rows[1].line, 4);  // the quoted line break counts
}

TEST(BenchCompare, RefusalsNameLineColumnAndValue) {
  EXPECT_EQ(refusal(""), "f.csv: empty file: expected the CSV of `gemmscope bench --csv`");
  EXPECT_EQ(refusal("kernel,m,n,k\n"),
            "f.csv: the header has no column 'median_ms': expected the CSV of `gemmscope bench --csv` "
            "(kernel,m,n,k,median_ms,...)");
  const std::string h = "kernel,m,n,k,median_ms\n";
  EXPECT_EQ(refusal(h + "auto,1,2,3\n"), "f.csv: line 2: 4 fields where the header has 5");
  EXPECT_EQ(refusal(h + "auto,1,2,3,0.5\nauto,0,2,3,0.5\n"),
            "f.csv: line 3: m = '0' must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refusal(h + "auto,1,2,2147483648,0.5\n"),
            "f.csv: line 2: k = '2147483648' must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refusal(h + "auto,1,012,3,0.5\n"), "f.csv: line 2: n = '012' must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refusal(h + "auto,1,2,3,fast\n"), "f.csv: line 2: median_ms = 'fast' is not a number");
  EXPECT_EQ(refusal(h + "auto,1,2,3,0x1p3\n"), "f.csv: line 2: median_ms = '0x1p3' is not a number");
  EXPECT_EQ(refusal(h + "auto,1,2,3,-0.5\n"), "f.csv: line 2: median_ms = '-0.5' must not be negative");
  EXPECT_EQ(refusal(h + "\"auto,1,2,3,0.5\n"), "f.csv: line 2: a quoted field is not closed before the end of the file");
  EXPECT_EQ(refusal(h + "au\"to,1,2,3,0.5\n"),
            "f.csv: line 2: a quote inside field 1 that did not start with one");
  EXPECT_EQ(refusal(h + "\"auto\"x,1,2,3,0.5\n"), "f.csv: line 2: text after the closing quote of field 1");
  EXPECT_EQ(refusal(h + ",1,2,3,0.5\n"), "f.csv: line 2: kernel is empty");
  EXPECT_EQ(refusal(h + "auto,1,2,3,0.5\ncublas,1,2,3,0.5\nauto,1,2,3,0.4\n"),
            "f.csv: line 4: kernel auto at 1x2x3 is given again (first at line 2)");
}

// Three shapes with ratios 1.1, 0.9 and 1.0 (cuBLAS time over auto time), a fourth that
// cuBLAS refused, and a kernel other than the two.
std::string three_shapes(double scale_auto, double scale_cublas) {
  auto t = [](double v) { return std::to_string(v); };
  return std::string(kHeader) + row("auto", "128,4096,4096", t(1.0 * scale_auto)) +
         row("cublas", "128,4096,4096", t(1.1 * scale_cublas)) + row("auto", "512,4096,4096", t(2.0 * scale_auto)) +
         row("cublas", "512,4096,4096", t(1.8 * scale_cublas)) + row("auto", "2048,4096,4096", t(4.0 * scale_auto)) +
         row("cublas", "2048,4096,4096", t(4.0 * scale_cublas)) + row("auto", "8192,4096,4096", t(8.0 * scale_auto)) +
         row("cublas", "8192,4096,4096", "0", "x", "refused") + row("k08", "128,4096,4096", "3.0");
}

TEST(BenchCompare, GeomeanMinimumAndCountsByThePlainFormula) {
  const auto c = compare_runs({read_bench_csv(three_shapes(1, 1), "one")}, "auto", "cublas", 0.95);
  ASSERT_EQ(c.runs.size(), 1u);
  const auto& s = c.runs[0];
  EXPECT_EQ(s.shapes, 3);
  EXPECT_EQ(s.unpaired, 1);
  EXPECT_NEAR(s.geomean, std::cbrt(1.1 * 0.9 * 1.0), 1e-12);
  EXPECT_NEAR(s.min, 0.9, 1e-12);
  EXPECT_EQ(s.min_shape, "512x4096x4096");
  EXPECT_EQ(s.below_floor, 1);
  EXPECT_EQ(s.at_or_above_one, 2);  // 1.1 and exactly 1.0
  EXPECT_EQ(s.commit, "abc1234");
  ASSERT_EQ(c.shapes.size(), 4u);
  EXPECT_EQ(c.shapes[3].m, 8192);
  EXPECT_EQ(c.shapes[3].ratio[0], 0.0);  // no measured pair
  const std::string text = format_comparison(c, 1.05, true);
  EXPECT_NE(text.find("not met (1 below)"), std::string::npos) << text;
  EXPECT_NE(text.find("8192x4096x4096"), std::string::npos) << text;
}

TEST(BenchCompare, LaterRunsAgainstTheFirst) {
  // Run two: auto 2% faster everywhere, cuBLAS 1% slower.
  const auto c = compare_runs({read_bench_csv(three_shapes(1, 1), "old"), read_bench_csv(three_shapes(0.98, 1.01), "new")},
                              "auto", "cublas", 0.95);
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.runs[0].shared_with_first, 0);
  EXPECT_EQ(c.runs[1].shared_with_first, 3);
  EXPECT_NEAR(c.runs[1].kernel_time_vs_first, 0.98, 1e-5);  // std::to_string keeps 6 decimals
  EXPECT_NEAR(c.runs[1].reference_time_vs_first, 1.01, 1e-5);
  EXPECT_NEAR(c.runs[1].geomean, c.runs[0].geomean * 1.01 / 0.98, 1e-5);
  // The other way round: the reference against the kernel is the inverse ratio.
  const auto inv = compare_runs({read_bench_csv(three_shapes(1, 1), "old")}, "cublas", "auto", 0.95);
  EXPECT_NEAR(inv.runs[0].geomean, 1.0 / c.runs[0].geomean, 1e-12);
}

TEST(BenchCompare, RefusesRunsWithNothingToCompare) {
  const BenchRun run = read_bench_csv(std::string(kHeader) + row("k08", "1,2,3", "0.5"), "r");
  try {
    compare_runs({run}, "auto", "cublas", 0.95);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "compare: r has no shape with both auto and cublas measured (its kernels: k08)");
  }
  EXPECT_THROW(compare_runs({}, "auto", "cublas", 0.95), std::invalid_argument);
  EXPECT_THROW(compare_runs({run}, "k08", "k08", 0.95), std::invalid_argument);
}

#ifdef GEMMSCOPE_HAVE_BENCH_REPORT
// The reader against bench's own writer: random rows written by BenchReport::to_csv
// come back with their kernels, shapes, labels, notes and medians (to the writer's six
// significant digits), and the ratio is the one bench computed from the same medians.
RC_GTEST_PROP(BenchCompare, ReadsWhatBenchWrites, ()) {
  gemmscope::harness::BenchReport rep;
  rep.env.commit = "c0ffee1";
  rep.env.gpu = "NVIDIA H200";
  const int shapes = *rc::gen::inRange(1, 12);
  for (int i = 0; i < shapes; ++i) {
    const int m = *rc::gen::inRange(1, 1 << 16), n = *rc::gen::inRange(1, 1 << 16);
    for (const char* kernel : {"auto", "cublas"}) {
      gemmscope::harness::BenchRow r;
      r.kernel = kernel;
      r.shape = {m, n, 64 * (i + 1)};
      r.median_ms = *rc::gen::inRange(1, 1000000) / 1000.0;
      r.label = *rc::gen::element<std::string>("a,b", "q\"uote", "", "line\nbreak");
      r.note = *rc::gen::element<std::string>("", "note, with comma");
      rep.rows.push_back(r);
    }
  }
  const BenchRun run = read_bench_csv(rep.to_csv(), "bench");
  RC_ASSERT(run.rows.size() == rep.rows.size());
  for (size_t i = 0; i < run.rows.size(); ++i) {
    RC_ASSERT(run.rows[i].kernel == rep.rows[i].kernel);
    RC_ASSERT(run.rows[i].m == rep.rows[i].shape.m && run.rows[i].k == rep.rows[i].shape.k);
    RC_ASSERT(run.rows[i].label == rep.rows[i].label);
    RC_ASSERT(run.rows[i].note == rep.rows[i].note);
    RC_ASSERT(run.rows[i].commit == "c0ffee1");
    RC_ASSERT(std::fabs(run.rows[i].median_ms - rep.rows[i].median_ms) <= 5e-6 * rep.rows[i].median_ms);
  }
  const auto c = compare_runs({run}, "auto", "cublas", 0.95);
  RC_ASSERT(c.runs[0].shapes == shapes);
  double logs = 0;
  for (int i = 0; i < shapes; ++i) logs += std::log(rep.rows[2 * i + 1].median_ms / rep.rows[2 * i].median_ms);
  RC_ASSERT(std::fabs(c.runs[0].geomean - std::exp(logs / shapes)) <= 1e-5 * c.runs[0].geomean);
}
#endif

}  // namespace
#else
TEST(BenchCompare, NeedsTheReportLibrary) {
  GTEST_SKIP() << "built without the command line's report library (GEMMSCOPE_BUILD_TOOLS=OFF)";
}
#endif
