// `gemmscope tune merge` (tools/report/tune_merge.hpp) on hand-made caches and bench
// CSVs: which entries are added, taken, kept by the rule or left undecided, the
// figures the rule compared, the failures merged, and the refusals. Expected values
// are worked by hand from the CSV text.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/bench_compare.hpp"
#include "report/tune_merge.hpp"
#include "tune/cache.hpp"

namespace {

using gemmscope::report::BenchRun;
using gemmscope::report::merge_tune_caches;
using gemmscope::report::MergeDecision;
using gemmscope::report::MergeRuns;
using gemmscope::report::read_bench_csv;
using gemmscope::tune::TuneCache;
using gemmscope::tune::TuneEntry;
using gemmscope::tune::TuneFailure;
using gemmscope::tune::TuneKey;
using Outcome = MergeDecision::Outcome;

TuneKey key(int64_t size, int kernel_version = 7) { return {"G", "13.0", "D", kernel_version, size, size, size}; }
TuneEntry entry(int64_t size, const std::string& config, int kernel_version = 7) {
  return {key(size, kernel_version), config, 1.0, 1.0, 9, "x"};
}

// A bench CSV of auto and cublas: per shape "size ratio min_ms"; cuBLAS's median is 1,
// so auto's median is 1 / ratio.
BenchRun run(const std::string& name, const std::vector<std::tuple<int, double, double>>& shapes) {
  std::string text = "kernel,m,n,k,median_ms,min_ms,ratio_to_cublas\n";
  for (const auto& [size, ratio, min_ms] : shapes) {
    const std::string s = std::to_string(size);
    text += "auto," + s + "," + s + "," + s + "," + std::to_string(1.0 / ratio) + "," + std::to_string(min_ms) + "," +
            std::to_string(ratio) + "\n";
    text += "cublas," + s + "," + s + "," + s + ",1,1,1\n";
  }
  return read_bench_csv(text, name);
}

// Four shapes re-tuned to another configuration:
//   100  wins in both runs, fastest launch faster       -> taken
//   200  wins in both runs, fastest launch slower       -> kept by the rule
//   300  one tuned run below the best kept run          -> kept by the rule
//   400  the tuned entry is for another kernel version  -> added (another key)
// and 500, which both hold with the same configuration; 600, only the tuned cache has.
struct Caches {
  TuneCache kept, tuned;
  Caches() {
    kept.entries = {entry(100, "old"), entry(200, "old"), entry(300, "old"), entry(400, "old"), entry(500, "same")};
    kept.failures = {{key(100), "broken", "illegal address"}};
    tuned.entries = {entry(100, "new"), entry(200, "new"), entry(300, "new"), entry(400, "new", 6),
                     entry(500, "same"), entry(600, "fresh")};
    tuned.failures = {{key(100), "broken", "illegal address"}, {key(200), "slow", "hung"}};
  }
};

MergeRuns evidence() {
  MergeRuns r;
  r.kept = {run("k1", {{100, 0.98, 0.50}, {200, 0.98, 0.50}, {300, 0.98, 0.50}}),
            run("k2", {{100, 0.99, 0.50}, {200, 0.99, 0.50}, {300, 0.97, 0.50}})};
  r.tuned = {run("t1", {{100, 1.01, 0.49}, {200, 1.02, 0.52}, {300, 1.05, 0.48}}),
             run("t2", {{100, 1.00, 0.49}, {200, 1.01, 0.52}, {300, 0.975, 0.48}})};
  return r;
}

const MergeDecision& decision(const gemmscope::report::MergeResult& r, int64_t size, int kernel_version = 7) {
  for (const auto& d : r.decisions)
    if (d.key == key(size, kernel_version)) return d;
  throw std::runtime_error("no decision for " + std::to_string(size));
}

TEST(TuneMerge, TakesOnlyWhatEveryRunShowsBetter) {
  const Caches c;
  const auto r = merge_tune_caches(c.kept, c.tuned, evidence());
  EXPECT_EQ(decision(r, 100).outcome, Outcome::taken);
  EXPECT_EQ(decision(r, 200).outcome, Outcome::kept_by_rule);
  EXPECT_EQ(decision(r, 300).outcome, Outcome::kept_by_rule);
  EXPECT_EQ(decision(r, 400, 6).outcome, Outcome::added);
  EXPECT_EQ(decision(r, 600).outcome, Outcome::added);
  EXPECT_EQ(r.decisions.size(), 5u);
  EXPECT_EQ(r.same, 1);
  // The figures of 100: the kept best is 0.99, the tuned worst 1.00; fastest launches
  // 0.50 and 0.49 (the means over the runs).
  const MergeDecision& d = decision(r, 100);
  EXPECT_NEAR(d.kept_best_ratio, 0.99, 1e-4);
  EXPECT_NEAR(d.tuned_worst_ratio, 1.00, 1e-4);
  EXPECT_NEAR(d.kept_min_ms, 0.50, 1e-9);
  EXPECT_NEAR(d.tuned_min_ms, 0.49, 1e-9);
  EXPECT_EQ(d.kept_config, "old");
  EXPECT_EQ(d.tuned_config, "new");

  const auto config = [&](int64_t size, int kernel_version = 7) {
    const TuneEntry* e = r.cache.find(key(size, kernel_version));
    return e ? e->config : std::string("(none)");
  };
  EXPECT_EQ(config(100), "new");
  EXPECT_EQ(config(200), "old");
  EXPECT_EQ(config(300), "old");
  EXPECT_EQ(config(400), "old");
  EXPECT_EQ(config(400, 6), "new");
  EXPECT_EQ(config(500), "same");
  EXPECT_EQ(config(600), "fresh");
  EXPECT_EQ(r.cache.entries.size(), 7u);
  // The failures: the kept one once, the tuned cache's other one added.
  ASSERT_EQ(r.cache.failures.size(), 2u);
  EXPECT_EQ(r.cache.failures[1], (TuneFailure{key(200), "slow", "hung"}));
  EXPECT_EQ(r.failures_added, 1);

  const std::string text = format_merge(r);
  EXPECT_NE(text.find("100x100x100 (G): old -> new (kept at best 0.990, tuned at worst 1.000; fastest launch "
                      "0.5000 -> 0.4900 ms)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("200x200x200 (G): kept old: new's ratios win (1.010 > 0.990) but its fastest launch is slower "
                      "(0.5200 ms > 0.5000 ms)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("300x300x300 (G): kept old: new's worst ratio 0.975 does not beat the kept best 0.980\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2 added, 1 taken, 2 kept by the rule, 0 undecided, 1 the same; 1 failures added; 7 entries\n"),
            std::string::npos)
      << text;
}

// Without bench runs the kept entries stay where the configurations differ.
TEST(TuneMerge, WithoutRunsKeepsAndSaysUndecided) {
  const Caches c;
  const auto r = merge_tune_caches(c.kept, c.tuned, {});
  for (const int64_t size : {100, 200, 300}) EXPECT_EQ(decision(r, size).outcome, Outcome::undecided) << size;
  EXPECT_EQ(r.cache.find(key(100))->config, "old");
  EXPECT_EQ(r.cache.find(key(600))->config, "fresh");
  EXPECT_NE(format_merge(r).find("100x100x100 (G): kept old; new undecided (no bench runs: --kept-runs, --tuned-runs)"),
            std::string::npos);
}

// A decision's line is whole whatever the GPU name's length (a fixed 512-byte buffer cut
// it, and its newline, short).
TEST(TuneMerge, LongNamesKeepTheirLines) {
  const Caches c;
  auto r = merge_tune_caches(c.kept, c.tuned, {});
  ASSERT_FALSE(r.decisions.empty());
  const std::string gpu(600, 'G');
  r.decisions.front().key.gpu = gpu;
  const std::string text = format_merge(r);
  const std::string line = "100x100x100 (" + gpu + "): kept old; new undecided (no bench runs: --kept-runs, --tuned-runs)\n";
  EXPECT_NE(text.find(line), std::string::npos) << text.substr(0, 200);
}

// Merging a cache into itself changes nothing.
TEST(TuneMerge, ACacheWithItselfIsUnchanged) {
  const Caches c;
  const auto r = merge_tune_caches(c.kept, c.kept, {});
  EXPECT_EQ(r.cache, c.kept);
  EXPECT_TRUE(r.decisions.empty());
  EXPECT_EQ(r.same, 5);
}

TEST(TuneMerge, RefusesRunsThatCannotDecide) {
  const Caches c;
  auto expect_refused = [&](const MergeRuns& runs, const std::string& message) {
    try {
      merge_tune_caches(c.kept, c.tuned, runs);
      ADD_FAILURE() << "accepted; expected: " << message;
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  };
  MergeRuns one_side;
  one_side.kept = evidence().kept;
  expect_refused(one_side,
                 "tune merge: bench runs through the kept cache but none through the tuned one: give both "
                 "(--kept-runs and --tuned-runs) or neither");
  MergeRuns missing = evidence();
  missing.tuned[1] = run("t2", {{100, 1.0, 0.49}, {200, 1.0, 0.5}});
  expect_refused(missing,
                 "t2: shape 300x300x300 has no auto row (expected a bench CSV of --kernels auto,cublas over the shapes "
                 "to merge)");
  MergeRuns no_min = evidence();
  no_min.kept[0] = read_bench_csv(
      "kernel,m,n,k,median_ms\nauto,100,100,100,1\ncublas,100,100,100,1\nauto,200,200,200,1\ncublas,200,200,200,1\n"
      "auto,300,300,300,1\ncublas,300,300,300,1\n",
      "k1");
  expect_refused(no_min, "k1: shape 100x100x100 has no min_ms for auto (a bench CSV has the column min_ms)");
  MergeRuns refused = evidence();
  refused.kept[1] = read_bench_csv(
      "kernel,m,n,k,median_ms,min_ms\nauto,100,100,100,,\ncublas,100,100,100,1,1\n", "k2");
  expect_refused(refused, "k2: shape 100x100x100 has no measured time for auto");
}

}  // namespace
