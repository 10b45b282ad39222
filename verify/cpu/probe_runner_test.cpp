// The probe runner's robustness, with fake probes and a fake device (no GPU): each
// case recorded, a failing case (exception, crash, hang) recorded with its error
// while the following cases still run in a fresh process, and "no CUDA device"
// giving exit status 3 and no files. The runner source needs no CUDA; it is compiled
// into this test directly (the probe library itself links the CUDA runtime).
#include <gtest/gtest.h>

#if __has_include("probes/probe_runner.cpp")
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "probes/probe_runner.cpp"

namespace {

using namespace gemmscope::probes;
namespace traces = gemmscope::traces;
using gemmscope::traces::CaseStatus;

traces::GpuInfo fake_gpu() {
  traces::GpuInfo g;
  g.name = "fake sm_90";
  g.compute_major = 9;
  g.compute_minor = 0;
  g.driver_version = 12080;
  g.runtime_version = 13000;
  g.sm_count = 132;
  return g;
}

ProbeCase ok_case(const std::string& name, int value) {
  return {name, Json{{"value", value}}, [value] { return Json{{"got", value}}; }};
}

std::vector<ProbeDefinition> fake_probes() {
  ProbeDefinition good{"fake_ok", "three good cases", {"nothing"}, [](const ProbeOptions&) {
                         return std::vector<ProbeCase>{ok_case("a", 1), ok_case("b", 2), ok_case("c", 3)};
                       }};
  ProbeDefinition mixed{"fake_mixed", "every way a case can fail", {"nothing"}, [](const ProbeOptions&) {
                          std::vector<ProbeCase> cases;
                          cases.push_back(ok_case("first", 1));
                          cases.push_back({"throws", Json::object(), []() -> Json { throw ProbeError("boom at x.cu:1"); }});
                          cases.push_back(ok_case("after_throw", 2));
                          cases.push_back({"crashes", Json::object(), []() -> Json {
                                             std::abort();
                                           }});
                          cases.push_back({"hangs", Json::object(), []() -> Json {
                                             ::sleep(30);
                                             return Json{{"late", true}};
                                           }});
                          cases.push_back(ok_case("last", 3));
                          return cases;
                        }};
  return {good, mixed};
}

RunOptions options_in(const std::filesystem::path& dir) {
  RunOptions o;
  o.out_dir = dir;
  o.case_timeout_s = 1;
  o.commit = "abc123";
  return o;
}

TEST(ProbeRunner, IsolatesFailingCasesAndRunsTheRest) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmscope_runner_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::ostringstream log, err;
  const int rc = run_probe_definitions(fake_probes(), options_in(dir), log, err, fake_gpu);
  EXPECT_EQ(rc, kProbeExitSomeCasesFailed) << log.str() << err.str();

  const auto good = traces::read_golden(dir / "fake_ok.json");
  EXPECT_EQ(good.gpu.name, "fake sm_90");
  EXPECT_EQ(good.commit, "abc123");
  ASSERT_EQ(good.cases.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(good.cases[i].status, CaseStatus::Ok);
    EXPECT_EQ(good.cases[i].observed.at("got"), i + 1);
  }

  const auto mixed = traces::read_golden(dir / "fake_mixed.json");
  ASSERT_EQ(mixed.cases.size(), 6u);
  const auto& c = mixed.cases;
  EXPECT_EQ(c[0].status, CaseStatus::Ok);
  EXPECT_EQ(c[1].status, CaseStatus::Failed);
  EXPECT_EQ(c[1].error, "boom at x.cu:1");
  EXPECT_EQ(c[2].status, CaseStatus::Ok);
  EXPECT_EQ(c[3].status, CaseStatus::Failed);
  EXPECT_NE(c[3].error.find("died of signal 6"), std::string::npos) << c[3].error;
  EXPECT_EQ(c[4].status, CaseStatus::Failed);
  EXPECT_NE(c[4].error.find("ran past its 1 s timeout"), std::string::npos) << c[4].error;
  EXPECT_EQ(c[5].status, CaseStatus::Ok);
  EXPECT_EQ(mixed.failed_cases(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(ProbeRunner, NoDeviceExitsWithStatus3AndWritesNothing) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmscope_runner_nodev_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::ostringstream log, err;
  const int rc = run_probe_definitions(fake_probes(), options_in(dir), log, err, []() -> traces::GpuInfo {
    throw NoDeviceError("cudaGetDeviceCount: cudaErrorNoDevice: no CUDA-capable device is detected");
  });
  EXPECT_EQ(rc, kProbeExitNoDevice);
  EXPECT_EQ(err.str(),
            "gemmscope: no CUDA device: cudaGetDeviceCount: cudaErrorNoDevice: no CUDA-capable device is detected\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "fake_ok.json"));
}

TEST(ProbeRunner, InProcessModeSkipsTheRestOfAProbeAfterAFailure) {
  const auto dir = std::filesystem::temp_directory_path() / ("gemmscope_runner_inproc_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  RunOptions o = options_in(dir);
  o.isolate = false;
  o.only = {"fake_mixed"};
  // Only the first two cases are safe in-process (the third would abort this test).
  auto probes = fake_probes();
  std::ostringstream log, err;
  EXPECT_EQ(run_probe_definitions(probes, o, log, err, fake_gpu), kProbeExitSomeCasesFailed);
  const auto mixed = traces::read_golden(dir / "fake_mixed.json");
  EXPECT_EQ(mixed.cases[0].status, CaseStatus::Ok);
  EXPECT_EQ(mixed.cases[1].error, "boom at x.cu:1");
  for (std::size_t i = 2; i < mixed.cases.size(); ++i)
    EXPECT_NE(mixed.cases[i].error.find("not run in-process after case throws failed"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "fake_ok.json"));
  std::filesystem::remove_all(dir);
}

TEST(ProbeRunner, RefusesAnUnknownProbeAndABadTimeout) {
  std::ostringstream log, err;
  RunOptions o = options_in("/nonexistent-never-written");
  o.only = {"nosuch"};
  EXPECT_THROW(run_probe_definitions(fake_probes(), o, log, err, fake_gpu), std::invalid_argument);
  o.only = {};
  o.case_timeout_s = 0;
  try {
    run_probe_definitions(fake_probes(), o, log, err, fake_gpu);
    ADD_FAILURE() << "a 0 s timeout was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--case-timeout = 0 must be in 1..600 s");
  }
}

}  // namespace

#else
TEST(ProbeRunner, NeedsTheKernelsTree) { GTEST_SKIP() << "built without kernels/ on the include path"; }
#endif
