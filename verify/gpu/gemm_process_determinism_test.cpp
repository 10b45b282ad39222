// Determinism across processes: `gemmscope check --digest` with the same kernels,
// shapes and seed, run as separate processes (two of them at once on the GPU, then a
// third alone), prints the same FNV-1a digest of C for every case. The configurations
// are the ones whose work order is decided at run time: split-K (the last split to
// finish sums the partials), stream-K, the dynamic schedule (CTAs take tiles from an
// atomic counter), and auto; the shapes are ragged. A negative control: another seed
// gives other digests, so the digest does depend on the output.
// Label "gpu": skipped (GEMMSCOPE_NO_GPU) where no GPU is present.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/harness.hpp"

namespace gemmscope {
namespace {

// The command line: $GEMMSCOPE_CLI, else the one built next to this test.
std::string cli_path() {
  if (const char* env = std::getenv("GEMMSCOPE_CLI"); env && *env) return env;
#ifdef GEMMSCOPE_CLI
  return GEMMSCOPE_CLI;
#else
  return "gemmscope";
#endif
}

struct CliRun {
  FILE* pipe = nullptr;
  std::string output;
  int exit_status = -1;
};

CliRun start(const std::string& args) {
  CliRun r;
  const std::string command = "'" + cli_path() + "' " + args + " 2>&1";
  r.pipe = popen(command.c_str(), "r");
  return r;
}

void finish(CliRun& r) {
  if (!r.pipe) return;
  char buf[4096];
  size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, r.pipe)) > 0) r.output.append(buf, got);
  const int status = pclose(r.pipe);
  r.pipe = nullptr;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// Case (the line up to PASS/FAIL, spaces squeezed) -> digest, from check's output.
std::map<std::string, std::string> digests(const std::string& output) {
  std::map<std::string, std::string> out;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t at = line.find(" fnv1a64=");
    if (at == std::string::npos) continue;
    size_t verdict = line.find(" PASS ");
    if (verdict == std::string::npos) verdict = line.find(" FAIL ");
    std::istringstream words(line.substr(0, verdict));
    std::string word, key;
    while (words >> word) key += (key.empty() ? "" : " ") + word;
    out[key] = line.substr(at + 9, 16);
  }
  return out;
}

bool need_gpu() {
  std::string why;
  if (harness::gpu_available(&why)) return true;
  std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
  return false;
}

const char* const kKernels =
    "k10:128x256x64.s4.wg2.c2x1.static.g0.sk3,"
    "k10:128x256x64.s4.wg2.c2x1.static.g0.streamk,"
    "k10:128x256x64.s4.wg2.c2x1.dynamic.g2.sk3,"
    "k10:128x128x64.s6.wg2pp.c2x1.static.g0.sk2,"
    "k10:64x128x64.s8.wg1.c1x1.static.g1.streamk,"
    "k08_dyn,k09_dyn,auto";
// Ragged in M (and N for the last two); long K for split-K; auto also on an odd K
// (it falls back to k01, the others refuse K % 8 != 0 and are not counted).
const char* const kShapes = "300x520x3000,129x264x2056,1100x1600x1024,2000x1600x520";
const char* const kOddShapes = "97x61x83,333x200x1001";

TEST(GemmProcessDeterminism, SameSeedSameDigestsInEveryProcess) {
  if (!need_gpu()) GTEST_SKIP() << "no GPU";
  const std::string args = std::string("check --digest --seed 20261204 --kernels ") + kKernels + " --shapes " + kShapes;
  // Two processes on the GPU at once (each one's timing disturbs the other's), then one alone.
  CliRun first = start(args), second = start(args);
  finish(first);
  finish(second);
  CliRun third = start(args);
  finish(third);
  for (const CliRun* r : {&first, &second, &third}) {
    ASSERT_EQ(r->exit_status, 0) << cli_path() << " " << args << ":\n" << r->output;
  }
  const auto a = digests(first.output), b = digests(second.output), c = digests(third.output);
  ASSERT_EQ(a.size(), 32u) << first.output;  // 8 kernels x 4 shapes, each with a digest
  EXPECT_EQ(a, b) << "first:\n" << first.output << "second:\n" << second.output;
  EXPECT_EQ(a, c) << "first:\n" << first.output << "third:\n" << third.output;

  // The negative control: other inputs, other digests (for every case).
  CliRun other = start(std::string("check --digest --seed 20261205 --kernels ") + kKernels + " --shapes " + kShapes);
  finish(other);
  ASSERT_EQ(other.exit_status, 0) << other.output;
  const auto d = digests(other.output);
  ASSERT_EQ(d.size(), a.size()) << other.output;
  for (const auto& [key, digest] : a) {
    ASSERT_TRUE(d.count(key)) << key;
    EXPECT_NE(d.at(key), digest) << key << ": the same digest for other inputs";
  }
}

TEST(GemmProcessDeterminism, AutoOnOddShapes) {
  if (!need_gpu()) GTEST_SKIP() << "no GPU";
  const std::string args = std::string("check --digest --seed 7 --kernels auto,k01 --shapes ") + kOddShapes;
  CliRun first = start(args), second = start(args);
  finish(first);
  finish(second);
  ASSERT_EQ(first.exit_status, 0) << first.output;
  ASSERT_EQ(second.exit_status, 0) << second.output;
  const auto a = digests(first.output);
  ASSERT_EQ(a.size(), 4u) << first.output;
  EXPECT_EQ(a, digests(second.output)) << "first:\n" << first.output << "second:\n" << second.output;
}

}  // namespace
}  // namespace gemmscope
