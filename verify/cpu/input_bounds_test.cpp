// The readers and writers of outside files, below the command line: OutputFile
// (all or nothing), the regular-file rule of every reader, the trace reader's
// strictness and streaming, the trace writers' round trip, plot's bench JSON reader
// and the ladder chart's escaping. The command line's own cases are in
// cli_errors_test; docs/input-validation.md lists them all.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/xml_check.hpp"
#include "gemmscope/model/access_patterns.hpp"
#include "gemmscope/traces/analysis.hpp"
#include "gemmscope/traces/golden.hpp"
#include "gemmscope/traces/model_traces.hpp"
#include "gemmscope/traces/trace.hpp"
#include "tune/cache.hpp"
#include "tune/shape_set.hpp"
#include "tune/text/output_file.hpp"
#include "tune/text/text_file.hpp"
#if __has_include("report/bench_json.hpp")
#include "report/bench_compare.hpp"
#include "report/bench_json.hpp"
#include "report/ladder_chart.hpp"
#define HAVE_REPORT 1
#endif

namespace fs = std::filesystem;
namespace traces = gemmscope::traces;
namespace model = gemmscope::model;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

class Files : public ::testing::Test {
 protected:
  fs::path dir;
  void SetUp() override {
    dir = fs::path(::testing::TempDir()) /
          ("input_bounds_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

// ------------------------------------------------------------------ OutputFile

TEST_F(Files, OutputFileReplacesOnlyOnCommit) {
  const fs::path out = dir / "out.txt";
  write_file(out, "old");
  {
    gemmscope::OutputFile file(out.string(), "-o");
    file.write("new text");
    EXPECT_EQ(read_file(out), "old");  // nothing visible before the commit
    EXPECT_EQ(names().size(), 2u);     // the target and the temporary beside it
  }
  EXPECT_EQ(read_file(out), "old");  // destroyed without commit: the temporary is gone
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
  gemmscope::write_output_file(out.string(), "new text", "-o");
  EXPECT_EQ(read_file(out), "new text");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
}

TEST_F(Files, OutputFileRefusesWhatIsNotAFileBeforeCreatingAnything) {
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file("/dev/full", "x", "-o"); }),
            "-o = /dev/full: a character device, not a regular file; give a file path");
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file("/dev/null", "x", "--svg"); }),
            "--svg = /dev/null: a character device, not a regular file; give a file path");
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file(dir.string(), "x", "-o"); }),
            "-o = " + dir.string() + ": a directory; give a file path");
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file((dir / "no" / "x").string(), "x", "-o"); }),
            "-o = " + (dir / "no" / "x").string() + ": cannot create a file in " + (dir / "no").string() +
                " (No such file or directory)");
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file("", "x", "-o"); }), "-o = (empty): give a file name");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file(fifo, "x", "-o"); }),
            "-o = " + fifo + ": a FIFO, not a regular file; give a file path");
  EXPECT_EQ(names(), std::vector<std::string>{"fifo"});
}

TEST_F(Files, OutputFileFollowsALinkAndKeepsTheMode) {
  const fs::path target = dir / "target.txt", link = dir / "link.txt";
  write_file(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink(target.filename(), link);
  gemmscope::write_output_file(link.string(), "new", "-o");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_file(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(Files, OutputFileLeavesAReadOnlyFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes read-only files";
  const fs::path out = dir / "out.txt";
  write_file(out, "old");
  fs::permissions(out, fs::perms::owner_read);
  EXPECT_EQ(refusal([&] { gemmscope::write_output_file(out.string(), "new", "-o"); }),
            "-o = " + out.string() + ": cannot be written (Permission denied)");
  EXPECT_EQ(read_file(out), "old");
}

TEST_F(Files, OutputFileFailedWriteLeavesTheOldFile) {
  // A file-size limit makes the write fail half way (EFBIG), as a full disk would.
  const fs::path out = dir / "out.txt";
  write_file(out, "old");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto saved_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 64;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::string message = refusal([&] { gemmscope::write_output_file(out.string(), std::string(1000, 'x'), "-o"); });
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, saved_handler);
  EXPECT_EQ(message, "-o = " + out.string() + ": writing failed (File too large); the file was left as it was");
  EXPECT_EQ(read_file(out), "old");
  EXPECT_EQ(names(), std::vector<std::string>{"out.txt"});
}

// ------------------------------------------------------------------ reading

TEST_F(Files, ReadersOpenOnlyRegularFiles) {
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  alarm(10);  // a reader that waited on the FIFO would hang the test
  const gemmscope::TextFile f = gemmscope::read_text_file(fifo, 1024);
  EXPECT_STREQ(f.not_regular, "a FIFO");
  EXPECT_STREQ(gemmscope::read_text_file("/dev/zero", 1024).not_regular, "a character device");
  EXPECT_EQ(gemmscope::read_text_file(dir.string(), 1024).error, EISDIR);
  // A regular file past the limit is refused by its size, before a read.
  write_file(dir / "big", std::string(2000, 'x'));
  const gemmscope::TextFile big = gemmscope::read_text_file((dir / "big").string(), 1024);
  EXPECT_TRUE(big.too_large);
  EXPECT_TRUE(big.text.empty());
  EXPECT_EQ(refusal([&] { traces::read_trace_file(fifo); }),
            fifo + ": cannot be read: it is a FIFO, not a regular file");
  EXPECT_EQ(refusal([&] { traces::read_golden(fifo); }),
            "fifo: cannot read " + fifo + ": it is a FIFO, not a regular file");
  EXPECT_EQ(refusal([&] { gemmscope::tune::load_tune_cache("/dev/zero"); }),
            "cannot read tune cache '/dev/zero': it is a character device, not a regular file");
  EXPECT_EQ(refusal([&] { gemmscope::tune::load_shape_set(fifo); }),
            "cannot read shape set '" + fifo + "': it is a FIFO, not a regular file");
  alarm(0);
}

// ------------------------------------------------------------------ traces

namespace {

std::string record_line(const std::string& extra_keys, const std::string& mask, const std::string& addresses) {
  return "{\"stage\":\"load\",\"cta\":0,\"warp\":0,\"width\":4,\"kind\":\"load\",\"mask\":\"" + mask +
         "\",\"addr\":[" + addresses + "]" + extra_keys + "}\n";
}

std::string addresses(int active) {
  std::string s;
  for (int t = 0; t < 32; ++t) s += (t ? "," : "") + (t < active ? std::to_string(4 * t) : std::string("null"));
  return s;
}

const std::string kHeader1 = "{\"format\":\"gemmscope-trace\",\"version\":1,\"records\":1}\n";

}  // namespace

TEST(TraceStrictness, DuplicateKeysAndInactiveAddressesAreRefused) {
  EXPECT_EQ(refusal([] { traces::parse_trace(kHeader1 + record_line(",\"cta\":7", "0xffffffff", addresses(32)), "t"); }),
            "t:2: key \"cta\" is given twice in one object");
  EXPECT_EQ(refusal([] {
              traces::parse_trace("{\"format\":\"gemmscope-trace\",\"version\":1,\"records\":1,\"records\":2}\n", "t");
            }),
            "t:1: key \"records\" is given twice in one object");
  // Lane 1 inactive in the mask but given an address: it would have been dropped.
  std::string two = "0,4";
  for (int t = 2; t < 32; ++t) two += ",null";
  EXPECT_EQ(refusal([&] { traces::parse_trace(kHeader1 + record_line("", "0x1", two), "t"); }),
            "t:2: addr[1] = 4 but lane 1 is inactive in mask 0x00000001: write null (the address would be dropped)");
}

TEST(TraceStrictness, InMemoryTracesHaveARecordLimitAndTheReaderStreams) {
  const std::string header = "{\"format\":\"gemmscope-trace\",\"version\":1,\"records\":" +
                             std::to_string(traces::kMaxRecordsInMemory + 1) + "}\n" +
                             record_line("", "0xffffffff", addresses(32));
  EXPECT_EQ(refusal([&] { traces::parse_trace(header, "t"); }),
            "t: records = 4194305 is more than the 4194304 records a trace in memory may hold (the gemmscope "
            "commands stream any size)");
  // TraceReader takes it a record at a time; the count is checked at the end.
  traces::TraceReader reader(header, "t");
  traces::TraceRecord r;
  EXPECT_TRUE(reader.next(r));
  EXPECT_EQ(refusal([&] { reader.next(r); }), "t:2: records = 1 but the header says 4194305 (truncated file?)");
}

TEST(TraceStrictness, OverLongLinesAreRefusedFromAFileToo) {
  const fs::path path = fs::path(::testing::TempDir()) / ("long_line_" + std::to_string(::getpid()) + ".txt");
  write_file(path, std::string(3 * traces::kMaxLineBytes, ' ') + "\n");
  EXPECT_EQ(refusal([&] { traces::read_trace_file(path); }),
            path.string() + ":1: line length = more than 65536 bytes exceeds the limit of 65536");
  fs::remove(path);
}

// Whatever a writer writes, its reader reads back: a record the reader would refuse
// is refused by the writer, and every built-in pattern at the highest base it takes
// round-trips in both forms.
TEST(TraceRoundTrip, WritersRefuseWhatTheReaderWould) {
  traces::Trace t;
  traces::TraceRecord r;
  r.access.active_mask = 1;
  r.access.address[0] = traces::kMaxAddress + 1;
  t.records.push_back(r);
  EXPECT_EQ(refusal([&] { traces::write_trace_jsonl(t); }),
            "cannot write the trace: record 0: lane 0 address = 4294967296 is past the 32-bit shared window (at most "
            "4294967295)");
  t.records[0].access.address[0] = 0;
  t.records[0].warp = 32;
  EXPECT_EQ(refusal([&] { traces::write_trace_text(t); }), "cannot write the trace: record 0: warp = 32 must be at most 31");
  t.records[0].warp = 0;
  t.smem_base = traces::kMaxAddress + 1;
  EXPECT_EQ(refusal([&] { traces::write_trace_jsonl(t); }),
            "cannot write the trace: smem_base = 4294967296 is past the 32-bit shared window (at most 4294967295)");
  // A kernel name with a line break stays in its comment line in the text form.
  t.smem_base = 0;
  t.kernel = "k\n4 load 0x1 0";
  const traces::Trace back = traces::parse_trace(traces::write_trace_text(t), "t");
  EXPECT_EQ(back.records.size(), 1u);
}

TEST(TraceRoundTrip, EveryPatternReadsBackAtItsHighestBase) {
  for (const model::NamedPattern& p : model::builtin_patterns())
    for (const model::SwizzleMode mode :
         {model::SwizzleMode::None, model::SwizzleMode::B32, model::SwizzleMode::B64, model::SwizzleMode::B128}) {
      // The highest 1024-aligned base whose pattern stays in the window.
      try {
        traces::pattern_trace(p.name, mode, 0);
      } catch (const model::ModelError&) {
        continue;  // the pattern does not take this swizzle at all
      }
      uint64_t base = traces::kMaxAddress + 1 - 1024;
      std::optional<traces::Trace> t;
      while (!t && base >= (uint64_t{1} << 31)) {
        try {
          t = traces::pattern_trace(p.name, mode, base);
        } catch (const traces::TraceError&) {
          base -= 1024;
        }
      }
      ASSERT_TRUE(t.has_value()) << p.name;
      for (const auto format : {traces::TraceFormat::JsonLines, traces::TraceFormat::Text}) {
        const traces::Trace back = traces::parse_trace(traces::write_trace(*t, format), p.name);
        ASSERT_EQ(back.records.size(), t->records.size()) << p.name;
        for (size_t i = 0; i < back.records.size(); ++i)
          EXPECT_EQ(back.records[i].access.address, traces::canonical_access(t->records[i].access).address) << p.name;
      }
      // One 1024 step higher is refused with the base and the rule, not written.
      EXPECT_THROW(traces::pattern_trace(p.name, mode, base + 1024 * 64), traces::TraceError) << p.name;
    }
}

// The streamed analysis prints what the whole-trace analysis prints.
TEST(TraceAnalysis, StreamedEqualsWhole) {
  traces::LadderTraceConfig config;
  config.kernel = "k04";
  const traces::Trace t = traces::model_trace(config);
  const traces::TraceAnalysis whole = traces::analyze_trace(t);
  const std::string text = traces::write_trace_jsonl(t);  // the reader reads it in place
  traces::TraceReader reader(text, "t");
  traces::TraceAnalyzer analyzer(reader.header());
  traces::TraceRecord r;
  std::string lines;
  while (reader.next(r)) lines += traces::format_instruction_line(reader.header(), r, analyzer.add(r));
  const uint64_t count = analyzer.records();
  const traces::TraceAnalysis streamed = std::move(analyzer).finish();
  EXPECT_EQ(traces::format_analysis_summary(reader.header(), count, streamed) + traces::format_instruction_heading() +
                lines,
            traces::format_analysis(t, whole, true));
  EXPECT_EQ(traces::analysis_json(t, streamed, false), traces::analysis_json(t, whole, false));
}

TEST(GoldenStrictness, DuplicateKeysAreRefused) {
  const fs::path path = fs::path(::testing::TempDir()) / ("dup_golden_" + std::to_string(::getpid()) + ".json");
  write_file(path, "{\"schema_version\": 1, \"schema_version\": 2}");
  EXPECT_EQ(refusal([&] { traces::read_golden(path); }).rfind(path.filename().string() +
                                                               ": not valid JSON: key \"schema_version\" is given twice "
                                                               "in one object", 0),
            0u);
  fs::remove(path);
}

// ------------------------------------------------------------------ tune inputs

TEST(ShapeSetRepeats, TheEarliestRepeatIsNamed) {
  const std::string text =
      "model,layer,m,n,k\nA,q,1,2,3\nB,q,1,2,3\nA,q,1,5,5\nB,q,1,9,9\nA,q,1,7,7\n";
  EXPECT_EQ(refusal([&] { gemmscope::tune::parse_shape_set(text, "s.csv"); }),
            "s.csv:4: model,layer,m = A,q,1 repeats line 2 (each model, layer and m once)");
}

TEST(TuneCacheStreaming, AHeaderAfterTheArraysIsStillRead) {
  const std::string entry =
      "{\"gpu\": \"G\", \"cuda\": \"13.0\", \"driver\": \"D\", \"kernel_version\": 7, \"m\": 1, \"n\": 1, \"k\": 1, "
      "\"config\": \"c\", \"median_ms\": 1, \"cublas_ms\": 1, \"candidates\": 9, \"date\": \"x\"}";
  const auto first = gemmscope::tune::parse_tune_cache(
      "{\"entries\": [" + entry + "], \"failures\": [], \"format\": \"gemmscope-tune-cache\", \"version\": 1}", "c");
  const auto last = gemmscope::tune::parse_tune_cache(
      "{\"format\": \"gemmscope-tune-cache\", \"version\": 1, \"entries\": [" + entry + "], \"failures\": []}", "c");
  EXPECT_EQ(first, last);
  EXPECT_EQ(first.entries.size(), 1u);
  // An element that is not an object is named by its own index, read as it comes.
  EXPECT_EQ(refusal([&] {
              gemmscope::tune::parse_tune_cache("{\"format\": \"gemmscope-tune-cache\", \"version\": 1, \"entries\": [" +
                                                    entry + ", 5], \"failures\": []}",
                                                "c");
            }),
            "c: entries[1] = 5 must be an object");
}

// ------------------------------------------------------------------ plot

#ifdef HAVE_REPORT
TEST(BenchJson, RowsAreChecked) {
  namespace report = gemmscope::report;
  auto refused = [](const std::string& rows) {
    return refusal([&] { report::read_bench_json_rows("{\"rows\": [" + rows + "]}", "b.json"); });
  };
  const std::string ok = R"("kernel": "k01", "n": 1, "k": 1, "tflops": 1, "ratio_to_cublas": 1)";
  EXPECT_EQ(refused("{" + ok + ", \"m\": 1e30}"), "b.json: rows[0].m = 1e+30 must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refused("{" + ok + ", \"m\": 2.5}"), "b.json: rows[0].m = 2.5 must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refused("{" + ok + ", \"m\": 2147483648}"),
            "b.json: rows[0].m = 2147483648 must be a whole number from 1 to 2^31 - 1");
  EXPECT_EQ(refused("{" + ok + ", \"m\": 1, \"m\": 2}"), "b.json: rows[0] has the key \"m\" twice");
  EXPECT_EQ(refused("{" + ok + ", \"m\": 1, \"colour\": 2}"), "b.json: rows[0].colour is not a field of a bench row");
  EXPECT_EQ(refused("{" + ok + ", \"m\": [1]}"),
            "b.json: rows[0].m = an array: must be a string, a number or null (a row holds no nested values)");
  EXPECT_EQ(refused("{" + ok + ", \"m\": 1}, {" + ok + ", \"m\": 1}"),
            "b.json: rows[1] repeats kernel \"k01\" at 1x1x1 (first at rows[0])");
  EXPECT_EQ(refused(R"({"kernel": "k01", "m": 1, "n": 1, "k": 1, "tflops": -1, "ratio_to_cublas": 1})"),
            "b.json: rows[0].tflops = -1 must be null or a finite number >= 0");
  EXPECT_EQ(refusal([] { report::read_bench_json_rows("{\"rows\": [], \"rows\": []}", "b.json"); }),
            "b.json: the document has the key \"rows\" twice");
  EXPECT_EQ(refusal([] { report::read_bench_json_rows("{\"rows\": [{\"tflops\": 1e400}]}", "b.json"); })
                .rfind("b.json: not valid JSON", 0),
            0u);
  const auto rows = report::read_bench_json_rows(
      R"({"rows": [{"kernel": "k01", "m": 3, "n": 1, "k": 1, "tflops": null, "ratio_to_cublas": null}]})", "b.json");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].tflops, 0);
  EXPECT_TRUE(report::chart_bars(rows).empty());  // not measured: no bar
}

// Text from files of any length (a commit, a run name) never cuts a line short.
TEST(BenchCompare, LongFieldsKeepTheirLines) {
  namespace report = gemmscope::report;
  const std::string commit(2000, 'c');
  const report::BenchRun run = report::read_bench_csv(
      "kernel,m,n,k,median_ms,commit\nauto,1,2,3,0.5," + commit + "\ncublas,1,2,3,0.6," + commit + "\n",
      std::string(700, 'r'));
  const std::string text = report::format_comparison(report::compare_runs({run}, "auto", "cublas", 0.95), 1.0, true);
  EXPECT_NE(text.find(commit + "      1"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 8) << text;  // 2 heading, 1 run, 2 targets, 3 per shape
}

// Any kernel name and title: the chart is well-formed XML with the text escaped.
RC_GTEST_PROP(LadderChartSvg, AnyTextStaysText, ()) {
  const auto kernel = *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::arbitrary<char>()));
  const auto title = *rc::gen::container<std::string>(rc::gen::arbitrary<char>());
  const std::vector<gemmscope::report::ChartBar> bars = {{kernel, "1x1x1", 5.0, 1.0}, {"cublas", "1x1x1", 7.0, 1.0}};
  const std::string svg = gemmscope::report::ladder_chart_svg(bars, title);
  RC_ASSERT(gemmscope::testing::xml_problem(svg) == "");
}
#endif
