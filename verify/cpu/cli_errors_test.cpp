// The gemmscope command line refuses bad input with exit status 2 and exactly one
// line on stderr, `gemmscope: <what> = <value> <rule>`, never a crash or a stack of
// text. Each case runs the built binary (GEMMSCOPE_CLI, set in verify/CMakeLists.txt);
// the expected lines are the ones docs/input-validation.md documents.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>

#include <array>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

struct CliResult {
  int status = -1;      // exit status, or -1 when it did not exit normally (a signal)
  std::string stderr_text;
};

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

#ifdef GEMMSCOPE_CLI
CliResult run_cli(const std::vector<std::string>& args) {
  std::string command = shell_quote(GEMMSCOPE_CLI);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " 2>&1 >/dev/null";  // stderr into the pipe, stdout away
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  size_t got;
  while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.stderr_text.append(buffer.data(), got);
  const int raw = pclose(pipe);
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}
#endif

struct Case {
  std::vector<std::string> args;
  std::string line;         // the whole stderr, without its newline
  bool prefix_only = false;  // the line starts with `line` (lists that grow)
};

void expect_refused(const Case& c) {
#ifdef GEMMSCOPE_CLI
  std::string shown;
  for (const auto& a : c.args) shown += " " + shell_quote(a);
  const CliResult r = run_cli(c.args);
  EXPECT_EQ(r.status, 2) << "gemmscope" << shown << "\n" << r.stderr_text;
  ASSERT_FALSE(r.stderr_text.empty()) << shown;
  EXPECT_EQ(r.stderr_text.back(), '\n') << shown;
  const std::string line = r.stderr_text.substr(0, r.stderr_text.size() - 1);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "more than one line for" << shown << ":\n" << r.stderr_text;
  if (c.prefix_only)
    EXPECT_EQ(line.substr(0, c.line.size()), c.line) << shown;
  else
    EXPECT_EQ(line, c.line) << shown;
#else
  (void)c;
#endif
}

class CliErrors : public ::testing::Test {
 protected:
  void SetUp() override {
#ifndef GEMMSCOPE_CLI
    GTEST_SKIP() << "built without the gemmscope command line (GEMMSCOPE_BUILD_TOOLS=OFF)";
#endif
  }
};

// A good command exits 0 and prints nothing on stderr: the harness itself works.
TEST_F(CliErrors, GoodCommandsSucceed) {
#ifdef GEMMSCOPE_CLI
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"desc", "decode", "--arch", "sm90", "0x4000004000010040"},
        std::vector<std::string>{"swizzle", "--mode", "128B", "--offset", "1040"},
        std::vector<std::string>{"idesc", "encode", "--m", "128", "--n", "256"}}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.status, 0) << args[0] << ": " << r.stderr_text;
    EXPECT_EQ(r.stderr_text, "") << args[0];
  }
#endif
}

TEST_F(CliErrors, DescriptorWords) {
  const std::string hex64_rule = "' must be a hexadecimal value of at most 64 bits";
  expect_refused({{"desc", "decode", "--arch", "sm90", "0xzz"}, "gemmscope: descriptor = '0xzz" + hex64_rule});
  expect_refused({{"desc", "decode", "--arch", "sm90", "0x10000000000000000"},
                  "gemmscope: descriptor = '0x10000000000000000" + hex64_rule});
  expect_refused({{"desc", "decode", "--arch", "sm90", ""}, "gemmscope: descriptor = '" + hex64_rule});
  expect_refused({{"desc", "decode", "--arch", "sm90", "-1"}, "gemmscope: descriptor = '-1" + hex64_rule});
  expect_refused({{"desc", "decode", "--arch", "sm80", "0x0"}, "gemmscope: --arch = 'sm80' must be one of sm90, sm100"});
  // Bit 15 is reserved in both layouts.
  expect_refused({{"desc", "decode", "--arch", "sm90", "0x8000"},
                  "gemmscope: descriptor = 0x0000000000008000 has reserved bits set (0x0000000000008000); sm90 uses "
                  "bits 0-13, 16-29, 32-45, 49-51, 62-63 only"});
  // sm100 swizzle code 3 (bits 61-63) has no meaning.
  expect_refused({{"desc", "decode", "--arch", "sm100", "0x6000400000000000"},
                  "gemmscope: swizzle code = 3 is invalid; sm100 codes are 0 none, 1 128B-atom32B, 2 128B, 4 64B, 6 32B"});
  // A field out of its range (version 0): the fields are printed, the word refused.
  expect_refused({{"desc", "decode", "--arch", "sm100", "0x0"},
                  "gemmscope: descriptor = 0x0 is not a valid sm100 descriptor: version = 0 must be 1 (bits 46-48 = "
                  "0b001)"});
  const std::string hex32_rule = "' must be a hexadecimal value of at most 32 bits";
  expect_refused({{"idesc", "decode", "0x123456789"}, "gemmscope: instruction descriptor = '0x123456789" + hex32_rule});
  expect_refused({{"idesc", "decode", "0xg"}, "gemmscope: instruction descriptor = '0xg" + hex32_rule});
}

TEST_F(CliErrors, DescriptorFields) {
  expect_refused({{"desc", "encode", "--arch", "sm90", "--start", "17"},
                  "gemmscope: start_address_bytes = 17 must be a multiple of 16 bytes (the field drops 4 bits)"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--start", "-16"},
                  "gemmscope: --start = -16 must be in 0..4294967295 bytes"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--sbo", "262144"},
                  "gemmscope: sbo_bytes = 262144 must be below 262144 (14 bits after >> 4)"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--base-offset", "8", "--swizzle", "128B"},
                  "gemmscope: base_offset = 8 must be in 0..7 (3-bit field)"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--lbo-mode", "absolute"},
                  "gemmscope: --lbo-mode = 'absolute' exists on sm100 only"});
  expect_refused({{"desc", "encode", "--arch", "sm100", "--lbo-mode", "sideways"},
                  "gemmscope: lbo_mode 'sideways' is not one of relative, absolute"});
  expect_refused({{"desc", "map", "--arch", "sm90", "--rows", "0", "--k", "8"},
                  "gemmscope: --rows = 0 must be in 1..4096"});
  expect_refused({{"desc", "map", "--arch", "sm90", "--rows", "8", "--k", "8", "--elem-bytes", "3"},
                  "gemmscope: --elem-bytes = 3 must be 1, 2 or 4"});
  expect_refused({{"idesc", "encode", "--m", "100", "--n", "64"}, "gemmscope: m = 100 must be 64 or 128 for cta_group::1"});
  expect_refused({{"idesc", "encode", "--m", "-64", "--n", "64"}, "gemmscope: --m = -64 must be 64, 128 or 256"});
  expect_refused({{"idesc", "encode", "--m", "128", "--n", "64", "--a", "f32"},
                  "gemmscope: input type 'f32' is not one of f16, bf16 (kind::f16)"});
  expect_refused({{"idesc", "encode", "--m", "128", "--n", "64", "--cta-group", "3"},
                  "gemmscope: cta_group = 3 must be 1 or 2"});
}

TEST_F(CliErrors, SwizzleModesAndOffsets) {
  const std::string modes = "' must be one of none, 32B, 64B, 128B, 128B-atom32B";
  expect_refused({{"swizzle", "--mode", "128b", "--offset", "0"}, "gemmscope: swizzle mode = '128b" + modes});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--swizzle", "48B"}, "gemmscope: swizzle mode = '48B" + modes});
  expect_refused({{"banks", "--pattern", "x", "--swizzle", ""}, "gemmscope: swizzle mode = '" + modes});
  expect_refused({{"swizzle", "--mode", "128B", "--offset", "-1"}, "gemmscope: --offset = -1 must be >= 0"});
  expect_refused({{"swizzle", "--mode", "128B", "--table", "--rows", "0"}, "gemmscope: --rows = 0 must be in 1..1024"});
  expect_refused({{"swizzle", "--mode", "128B", "--table", "--row-bytes", "24"},
                  "gemmscope: --row-bytes = 24 must be a multiple of 16 in 16..1024"});
  // sm90 has no 128B-atom32B mode.
  expect_refused({{"desc", "encode", "--arch", "sm90", "--swizzle", "128B-atom32B"},
                  "gemmscope: swizzle = 128B-atom32B has no sm90 descriptor code (Blackwell-only; sm90 allows none, "
                  "32B, 64B, 128B)"});
}

TEST_F(CliErrors, TmemAndBanks) {
  expect_refused({{"tmem", "--shape", "16x32b"},
                  "gemmscope: shape '16x32b' is not one of 32x32b, 16x64b, 16x128b, 16x256b, 16x32bx2"});
  expect_refused({{"tmem", "--shape", "32x32b", "--num", "3"},
                  "gemmscope: num = 3 must be a power of two in 1..128 for .32x32b (at most 128 registers per thread)"});
  expect_refused({{"tmem", "--shape", "32x32b", "--num", "0"}, "gemmscope: --num = 0 must be in 1..128"});
  expect_refused({{"banks", "--pattern", "no-such-pattern"},
                  "gemmscope: pattern = 'no-such-pattern' is not a built-in pattern (", /*prefix_only=*/true});
  expect_refused({{"banks"},
                  "gemmscope: --pattern = (none): give exactly one of --pattern NAME (see --list) or --addresses A0,A1,..."});
  expect_refused({{"banks", "--pattern", "x", "--base", "-16"}, "gemmscope: --base = -16 must be >= 0"});
  expect_refused({{"banks", "--addresses", "0,4294967296"},
                  "gemmscope: --addresses[1] = 4294967296 must be from 0 to 4294967295 (32-bit shared addresses)"});
  // A swizzled tile's base: TMA's 128-byte destination rule, not the pattern's period.
  for (const char* mode : {"32B", "64B", "128B"})
    expect_refused({{"banks", "--pattern", "ldmatrix-x4-k-major-64x64", "--swizzle", mode, "--base", "64"},
                    std::string("gemmscope: tile base = 64 must be a multiple of 128 bytes (a TMA destination) for "
                                "swizzle ") +
                        mode});
}

#ifdef GEMMSCOPE_CLI
// Runs gemmscope and returns its stdout; it must exit 0 with nothing on stderr.
std::string run_cli_stdout(const std::vector<std::string>& args) {
  std::string shown;
  for (const auto& a : args) shown += " " + shell_quote(a);
  const std::string stderr_path = testing::TempDir() + "/cli_stdout_test.stderr";
  std::string out;
  FILE* pipe = popen((shell_quote(GEMMSCOPE_CLI) + shown + " 2>" + shell_quote(stderr_path)).c_str(), "r");
  if (!pipe) return out;
  std::array<char, 4096> buffer;
  size_t got;
  while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), got);
  const int raw = pclose(pipe);
  std::ifstream err(stderr_path);
  const std::string err_text((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << "gemmscope" << shown << "\n" << err_text;
  EXPECT_EQ(err_text, "") << "gemmscope" << shown;
  return out;
}
#endif

// A base inside the 128B pattern (512 = line 4 of 8) runs. Hand argument (worked in
// access_patterns_test, Ldmatrix128BIsConflictFreeAtMidPatternBases): row r's chunks
// are XORed with (4 + r) mod 8 instead of r mod 8, still 8 different chunks for a core
// matrix's 8 rows, so the ldmatrix.x4 walk stays conflict-free (64 wavefronts);
// unswizzled it is 8-way at 512 as at 0 (512 wavefronts, 448 conflicts).
TEST_F(CliErrors, BanksAtABaseInsideTheSwizzlePattern) {
#ifdef GEMMSCOPE_CLI
  const auto summary = [](const std::string& mode) {
    const std::string out = run_cli_stdout(
        {"banks", "--pattern", "ldmatrix-x4-k-major-64x64", "--swizzle", mode, "--base", "512", "--json", "--summary"});
    try {
      return nlohmann::json::parse(out);
    } catch (const nlohmann::json::exception& e) {
      ADD_FAILURE() << mode << ": not JSON (" << e.what() << "): " << out;
      return nlohmann::json::object();
    }
  };
  const nlohmann::json swizzled = summary("128B");
  EXPECT_EQ(swizzled.value("base", -1), 512);
  EXPECT_EQ(swizzled.value("swizzle", ""), "128B");
  EXPECT_EQ(swizzled.value("wavefronts", -1), 64);
  EXPECT_EQ(swizzled.value("ideal", -1), 64);
  EXPECT_EQ(swizzled.value("conflicts", -1), 0);
  const nlohmann::json plain = summary("none");
  EXPECT_EQ(plain.value("wavefronts", -1), 512);
  EXPECT_EQ(plain.value("conflicts", -1), 448);
#endif
}

// Parse errors found by CLI11 (unknown names, missing or malformed values).
TEST_F(CliErrors, CommandLineSyntax) {
  expect_refused({{"frobnicate"}, "gemmscope: 'frobnicate' is not a subcommand; see gemmscope --help"});
  expect_refused({{"desc", "encode"}, "gemmscope: --arch is required; see --help"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--start", "abc"},
                  "gemmscope: Could not convert: --start = abc; see --help"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--no-such-option"},
                  "gemmscope: The following argument was not expected: --no-such-option; see --help"});
}

// CLI11 alone reads "010" as octal 8 and saturates numbers past 64 bits; main.cpp
// refuses both for every integer option, so no typed number is read as another.
TEST_F(CliErrors, IntegerSpelling) {
  expect_refused({{"swizzle", "--mode", "none", "--offset", "010"},
                  "gemmscope: --offset: 010 must be written without leading zeros (decimal), or as 0x... (hex); see "
                  "--help"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--start", "-0016"},
                  "gemmscope: --start: -0016 must be written without leading zeros (decimal), or as 0x... (hex); see "
                  "--help"});
  expect_refused({{"swizzle", "--mode", "none", "--offset", "99999999999999999999"},
                  "gemmscope: --offset: 99999999999999999999 is outside the 64-bit integer range; see --help"});
  expect_refused({{"desc", "encode", "--arch", "sm90", "--start", "-9223372036854775809"},
                  "gemmscope: --start: -9223372036854775809 is outside the 64-bit integer range; see --help"});
#ifdef GEMMSCOPE_CLI
  // Zero, plain decimals and 0x hex still read as written: swizzle none maps an offset to itself.
  for (const auto& [typed, value] : std::vector<std::pair<std::string, std::string>>{
           {"0", "0"}, {"10", "10"}, {"0x10", "16"}, {"9223372036854775807", "9223372036854775807"}}) {
    std::string out;
    FILE* pipe = popen((shell_quote(GEMMSCOPE_CLI) + " swizzle --mode none --offset " + typed).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::array<char, 256> buffer;
    size_t got;
    while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), got);
    EXPECT_EQ(WEXITSTATUS(pclose(pipe)), 0) << typed;
    EXPECT_EQ(out, value + "\n") << typed;
  }
#endif
}

#ifdef GEMMSCOPE_CLI
struct CliStdout {
  int status = -1;
  std::string stdout_text, stderr_text;
};

// Runs gemmscope; its status, stdout and stderr, whatever the status.
CliStdout run_cli_status(const std::vector<std::string>& args) {
  std::string shown;
  for (const auto& a : args) shown += " " + shell_quote(a);
  const std::string stderr_path = testing::TempDir() + "/cli_status_test.stderr";
  CliStdout r;
  FILE* pipe = popen((shell_quote(GEMMSCOPE_CLI) + shown + " 2>" + shell_quote(stderr_path)).c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  size_t got;
  while ((got = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.stdout_text.append(buffer.data(), got);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(stderr_path);
  r.stderr_text.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  return r;
}

// Without the kernels, "check" is not a subcommand (and `check --help` would print the root's help).
bool has_gpu_commands() {
  return run_cli({"check", "--no-such-option"}).stderr_text.find("is not a subcommand") == std::string::npos;
}
#endif

// The simulator's exit models (k06-k09): a bad --exit is refused; with no exit wait at
// all the exhaustive search finds a peer's release landing on a CTA that has left
// (status 1, the finding); the producer tail passes the same bounded search, which
// stops at its state limit (status 4: no violation in the states searched).
TEST_F(CliErrors, SimExitModels) {
  expect_refused({{"sim", "--kernel", "k08", "--exit", "bogus"},
                  "gemmscope: --exit = bogus is not one of: barrier, tail"});
#ifdef GEMMSCOPE_CLI
  const std::vector<std::string> small{"sim", "--kernel", "k08", "--cluster-m", "2", "--tiles-n", "1",
                                       "--k-blocks", "1", "--exhaustive", "--max-states", "20000"};
  std::vector<std::string> none = small, tail = small;
  none.insert(none.end(), {"--mutate", "no-exit-wait"});
  tail.insert(tail.end(), {"--exit", "tail"});
  const CliResult broken = run_cli(none);
  EXPECT_EQ(broken.status, 1) << broken.stderr_text;
  const CliStdout out = run_cli_status(tail);
  EXPECT_EQ(out.status, 4) << out.stderr_text;
  EXPECT_NE(out.stdout_text.find("exit by producer tail"), std::string::npos) << out.stdout_text;
  EXPECT_NE(out.stdout_text.find("stopped at the state limit --max-states = 20000"), std::string::npos)
      << out.stdout_text;
  EXPECT_EQ(out.stderr_text,
            "gemmscope: sim stopped at a limit before the schedule finished (not a violation)\n");
#endif
}

// The simulator's epilogue options: a store-box count outside 1..8 is refused; with
// three boxes per tile, restarting the staging buffers at every tile is a violation
// (status 1) and the running count is not, the deferred epilogue included.
TEST_F(CliErrors, SimStoreBoxes) {
  expect_refused({{"sim", "--kernel", "k08", "--store-boxes", "9"},
                  "gemmscope: --store-boxes = 9 must be in 1..8"});
  expect_refused({{"sim", "--kernel", "k07", "--deferred-epilogue"},
                  "gemmscope: deferred_epilogue = 1 needs a persistent kernel (k08/k09)"});
#ifdef GEMMSCOPE_CLI
  const std::vector<std::string> small{"sim", "--kernel", "k08", "--cluster-m", "1", "--tiles-n", "2",
                                       "--k-blocks", "1", "--store-boxes", "3", "--exhaustive",
                                       "--max-states", "20000"};
  for (const bool deferred : {false, true}) {
    std::vector<std::string> broken = small, fine = small;
    if (deferred) broken.push_back("--deferred-epilogue"), fine.push_back("--deferred-epilogue");
    broken.insert(broken.end(), {"--mutate", "staging-restarts-per-tile"});
    const CliResult r = run_cli(broken);
    EXPECT_EQ(r.status, 1) << deferred << " " << r.stderr_text;
    const std::string out = run_cli_stdout(fine);
    EXPECT_NE(out.find("3 store boxes"), std::string::npos) << out;
    EXPECT_NE(out.find("no violation"), std::string::npos) << out;
  }
#endif
}

// check and bench (built with the kernels) refuse names and shapes before they look
// for a GPU, so these hold on a machine without one.
TEST_F(CliErrors, KernelNamesAndShapes) {
#ifdef GEMMSCOPE_CLI
  if (!has_gpu_commands()) GTEST_SKIP() << "built without the kernels: no check/bench subcommands";
#endif
  expect_refused({{"check", "--kernels", "k99"}, "gemmscope: kernel 'k99' is unknown; known kernels: k01, k02",
                  /*prefix_only=*/true});
  expect_refused({{"bench", "--kernels", "k01,nope"}, "gemmscope: kernel 'nope' is unknown; known kernels: k01, k02",
                  /*prefix_only=*/true});
  const std::string rule = "' must be MxNxK with each size in 1..2^31-1";
  expect_refused({{"check", "--shapes", "0x64x64"}, "gemmscope: shape '0x64x64" + rule});
  expect_refused({{"check", "--shapes", "64x64"}, "gemmscope: shape '64x64" + rule});
  expect_refused({{"bench", "--shapes", "4096x4096x2147483648"}, "gemmscope: shape '4096x4096x2147483648" + rule});
  expect_refused({{"bench", "--shapes", ","},
                  "gemmscope: shapes = ',': item 1 is empty (give MxNxK,MxNxK,... with no empty item)"});
  expect_refused({{"check", "--shapes", "64x64x64,"},
                  "gemmscope: shapes = '64x64x64,': item 2 is empty (give MxNxK,MxNxK,... with no empty item)"});
  expect_refused({{"tune", "explain", "0156x3072x3072"},
                  "gemmscope: shape '0156x3072x3072': size '0156' must be written without leading zeros"});
}

// gemmscope timeline render / trim / compare (host-only): a file that breaks the Chrome trace
// event format is refused naming the file, the event and the rule.
TEST_F(CliErrors, TimelineFiles) {
  const std::string dir = testing::TempDir();
  const std::string svg = dir + "/timeline.svg";
  expect_refused({{"timeline", "render", "/no/such/trace.json", "-o", svg},
                  "gemmscope: trace = /no/such/trace.json cannot be opened (No such file or directory)"});
  std::ofstream(dir + "/negative.json") << R"({"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":-1,"pid":0,"tid":0}]})";
  expect_refused({{"timeline", "render", dir + "/negative.json", "-o", svg},
                  "gemmscope: trace = " + dir + "/negative.json breaks the Chrome trace event format: event 0: dur = -1 "
                  "must be >= 0"});
  std::ofstream(dir + "/lone_end.json") << R"([{"name":"a","ph":"E","ts":1,"pid":0,"tid":0}])";
  expect_refused({{"timeline", "render", dir + "/lone_end.json", "-o", svg},
                  "gemmscope: trace = " + dir + "/lone_end.json breaks the Chrome trace event format: event 0: E on "
                  "pid 0 tid 0 has no open B"});
  std::ofstream(dir + "/no_ts.json") << R"([{"name":"a","ph":"i","pid":0,"tid":0}])";
  expect_refused({{"timeline", "compare", dir + "/no_ts.json", dir + "/no_ts.json"},
                  "gemmscope: trace = " + dir + "/no_ts.json breaks the Chrome trace event format: event 0: \"ts\" "
                  "must be a number"});
  std::ofstream(dir + "/ok.json") << R"([{"name":"a","ph":"X","ts":1,"dur":1,"pid":0,"tid":0}])";
  expect_refused({{"timeline", "compare", dir + "/ok.json", dir + "/ok.json", "--events", "0"},
                  "gemmscope: --events = 0 must be in 1..1000"});
  // trim: ok.json has no tile to cut after; a count of 0 is refused before any reading.
  expect_refused({{"timeline", "trim", dir + "/ok.json", "-o", dir + "/trim.json"},
                  "gemmscope: trim: the trace has no tile (an X event of cat \"tile\", as a recording writes) to cut "
                  "after"});
  std::ofstream(dir + "/tile.json") << R"([{"name":"t","cat":"tile","ph":"X","ts":1,"dur":1,"pid":0,"tid":0}])";
  expect_refused({{"timeline", "trim", dir + "/tile.json", "-o", dir + "/trim.json", "--max-sms", "0"},
                  "gemmscope: trim: tiles per track = 2 and processes = 0 must both be at least 1"});
  expect_refused({{"sim", "--tiles-n", "100", "--k-blocks", "100", "--chrome", dir + "/t.json"},
                  "gemmscope: --tiles-n x --k-blocks = 10000 must be at most 4096 with --chrome (the trace holds every "
                  "event)"});
#ifdef GEMMSCOPE_CLI
  // The simulator's trace is one render reads.
  const std::string sim = dir + "/sim.json";
  ASSERT_EQ(run_cli({"sim", "--kernel", "k08", "--tiles-m", "2", "--tiles-n", "2", "--k-blocks", "4", "--chrome",
                     sim})
                .status,
            0);
  const CliResult r = run_cli({"timeline", "render", sim, "-o", svg});
  EXPECT_EQ(r.status, 0) << r.stderr_text;
  EXPECT_TRUE(std::filesystem::exists(svg));
#endif
}

// timeline record (built with the kernels) refuses kernels without a recording
// build or instance and bad shapes before it looks for a GPU.
TEST_F(CliErrors, TimelineRecord) {
#ifdef GEMMSCOPE_CLI
  if (!has_gpu_commands()) GTEST_SKIP() << "built without the kernels: no timeline record";
#endif
  expect_refused({{"timeline", "record", "--kernel", "k05", "-o", "x.json"},
                  "gemmscope: --kernel = k05 must be one of k06, k07, k08, k09, k10:<configuration>"});
  expect_refused({{"timeline", "record", "--kernel", "k10:64x64x64.s12.wg1.c2x1.static", "-o", "x.json"},
                  "gemmscope: --kernel = k10:64x64x64.s12.wg1.c2x1.static has no recording instance; compiled: ",
                  /*prefix_only=*/true});
  expect_refused({{"timeline", "record", "--shape", "64x64", "-o", "x.json"},
                  "gemmscope: shape '64x64' must be MxNxK with each size in 1..2^31-1"});
  expect_refused({{"timeline", "record"}, "gemmscope: -o = (none): give -o FILE.json, --overhead N or both"});
}

// The autotuner's inputs: configurations, tuning caches, shape-set files, output
// paths. All refused before any GPU work (so this runs without a GPU).
// gemmscope compare (host-only): unreadable and corrupt bench CSVs, and runs that hold
// nothing to compare, are refused naming the file, the line and the value.
TEST_F(CliErrors, CompareBenchFiles) {
  const std::string dir = testing::TempDir();
  expect_refused({{"compare", "/no/such/run.csv"},
                  "gemmscope: bench CSV = /no/such/run.csv cannot be opened (No such file or directory)"});
  // A directory opens on Linux; the shared reader refuses it by name, before any read.
  expect_refused({{"compare", dir}, "gemmscope: bench CSV = " + dir + " cannot be opened (Is a directory)"});
  // A file that opens and then fails to read: /proc/self/mem reads from address 0,
  // which is never mapped (EIO). The message says which of the two failed.
  expect_refused({{"compare", "/proc/self/mem"},
                  "gemmscope: bench CSV = /proc/self/mem cannot be read (Input/output error)"});
  {  // Past the 64 MiB limit (a sparse file: nothing is written but its length).
    const std::string big = dir + "/big_run.csv";
    std::ofstream(big) << "kernel,m,n,k,median_ms\n";
    std::filesystem::resize_file(big, (64u << 20) + 1);
    expect_refused({{"compare", big}, "gemmscope: bench CSV = " + big + " is larger than 64 MiB"});
    std::filesystem::remove(big);
  }
  std::ofstream(dir + "/no_median.csv") << "kernel,m,n,k\nauto,1,2,3\n";
  expect_refused({{"compare", dir + "/no_median.csv"},
                  "gemmscope: no_median: the header has no column 'median_ms': expected the CSV of `gemmscope bench "
                  "--csv` (kernel,m,n,k,median_ms,...)"});
  std::ofstream(dir + "/bad_time.csv") << "kernel,m,n,k,median_ms\nauto,1,2,3,0.5\ncublas,1,2,3,soon\n";
  expect_refused({{"compare", "b=" + dir + "/bad_time.csv"}, "gemmscope: b: line 3: median_ms = 'soon' is not a number"});
  std::ofstream(dir + "/only_auto.csv") << "kernel,m,n,k,median_ms\nauto,1,2,3,0.5\n";
  expect_refused({{"compare", dir + "/only_auto.csv"},
                  "gemmscope: compare: only_auto has no shape with both auto and cublas measured (its kernels: auto)"});
  std::ofstream(dir + "/good.csv") << "kernel,m,n,k,median_ms\nauto,1,2,3,0.5\ncublas,1,2,3,0.6\n";
  expect_refused({{"compare", "x=" + dir + "/good.csv", "x=" + dir + "/good.csv"},
                  "gemmscope: run name = x is given twice (name the runs apart: NAME=PATH)"});
  expect_refused({{"compare", dir + "/good.csv", dir + "/good.csv"},
                  "gemmscope: run name = " + dir + "/good.csv is given twice (name the runs apart: NAME=PATH)"});
  expect_refused({{"compare", dir + "/good.csv", "--floor", "-1"},
                  "gemmscope: --floor: '-1' must be a number above 0 and at most 100; see --help"});
  expect_refused({{"compare", dir + "/good.csv", "--target", "nan"},
                  "gemmscope: --target: 'nan' must be a number above 0 and at most 100; see --help"});
#ifdef GEMMSCOPE_CLI
  // Two files of one name in two folders: each run is named by its path.
  std::filesystem::create_directories(dir + "/again");
  std::filesystem::copy_file(dir + "/good.csv", dir + "/again/good.csv", std::filesystem::copy_options::overwrite_existing);
  const CliResult ok = run_cli({"compare", dir + "/good.csv", dir + "/again/good.csv"});
  EXPECT_EQ(ok.status, 0) << ok.stderr_text;
  EXPECT_EQ(ok.stderr_text, "");
#endif
}

// gemmscope tune score (host-only, in every build): a missing file, a bench CSV given
// for a times CSV; then a score of two shapes' times.
TEST_F(CliErrors, TuneScore) {
  const std::string dir = testing::TempDir() + "/tune_score";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/bench.csv") << "kernel,m,n,k,median_ms\nauto,1,8,8,1\n";
  expect_refused({{"tune", "score", dir + "/none.csv"},
                  "gemmscope: times CSV = " + dir + "/none.csv cannot be opened (No such file or directory)"});
  expect_refused({{"tune", "score", dir + "/bench.csv"},
                  "gemmscope: times CSV = " + dir +
                      "/bench.csv: line 1: the header 'kernel,m,n,k,median_ms' is not `gemmscope tune --times`'s "
                      "('gpu,driver,cuda_runtime,kernel_version,date,label,m,n,k,round,config,median_ms,cublas_ms,"
                      "ratio_to_cublas')"});
#ifdef GEMMSCOPE_CLI
  const std::string where = "\"G\",\"D\",\"13.0\",7,x,\"l\",";
  std::ofstream(dir + "/times.csv")
      << "gpu,driver,cuda_runtime,kernel_version,date,label,m,n,k,round,config,median_ms,cublas_ms,ratio_to_cublas\n"
      << where << "1,8,8,first,64x128x64.s8.wg1.c1x1.static.g0.sk1,1,1,1.25\n";
  const std::string printed = run_cli_stdout({"tune", "score", dir + "/times.csv"});
  EXPECT_NE(printed.find("1 shape timed on G (kernel version 7); the heuristic for 132 SMs"), std::string::npos)
      << printed;
#endif
}

// gemmscope tune explain (host-only): a bad shape, SM count and shape-set file; then a ranking.
TEST_F(CliErrors, TuneExplain) {
  expect_refused({{"tune", "explain", "0x8x8"}, "gemmscope: shape '0x8x8' must be MxNxK with each size in 1..2^31-1"});
  expect_refused({{"tune", "explain", "64x64x64", "--sms", "0"},
                  "gemmscope: --sms: Value 0 not in range 1 to 1024; see --help"});
  // The shapes are an argument here, not --shapes: a file that is not there is named as one.
  expect_refused({{"tune", "explain", "missing.csv"}, "gemmscope: shapes 'missing.csv': no such shape-set file"});
  expect_refused({{"tune", "explain", "/no/such/shapes.csv"},
                  "gemmscope: shapes '/no/such/shapes.csv': no such shape-set file"});
#ifdef GEMMSCOPE_CLI
  // At 2048x4096x4096 the 128 x 256 tiles in 2x1, 1x1 and 1x2 clusters model the same
  // time: the two ties are printed past --top 1, and nothing else is.
  const std::string printed = run_cli_stdout({"tune", "explain", "2048x4096x4096", "--top", "1"});
  EXPECT_NE(printed.find("2048x4096x4096 on 132 SMs: "), std::string::npos) << printed;
  EXPECT_NE(printed.find("     3  128x256x64.s4.wg2.c1x2.static.g0.sk1"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("     4  "), std::string::npos) << printed;
  EXPECT_NE(printed.find("2 configurations tie with the pick"), std::string::npos) << printed;

  // K = 1 rules out k10 and every other TMA kernel (16-byte rows): the kernel registry's
  // auto falls back to k01, which reads with plain loads (gemm_validation_test holds the
  // registry to it), and the line names it. Without the kernels there is no registry to ask.
  const std::string fallback = run_cli_stdout({"tune", "explain", "1x1x1"});
  const std::string refused = "1x1x1: no configuration of k10 runs it (K = 1 must be a multiple of 8";
  EXPECT_EQ(fallback.substr(0, refused.size()), refused) << fallback;
  EXPECT_TRUE(fallback.ends_with(has_gpu_commands() ? "); auto runs k01 instead\n"
                                                    : "(a gemmscope built with the kernels names it)\n"))
      << fallback;
  // N = 7 only rules out the TMA store: k03, the last rung that stores C without it.
  if (has_gpu_commands()) {
    const std::string k03 = run_cli_stdout({"tune", "explain", "64x7x64"});
    EXPECT_TRUE(k03.ends_with("); auto runs k03 instead\n")) << k03;
  }
#endif
}

// gemmscope tune merge (host-only, in every build): missing and corrupt caches, an
// output that exists (left as it was), runs for one side only; then a merge that
// adds a shape, written to a new file that reads back as a cache.
TEST_F(CliErrors, TuneMerge) {
  const std::string dir = testing::TempDir() + "/tune_merge";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto cache = [](const std::string& entries) {
    return "{\"format\": \"gemmscope-tune-cache\", \"version\": 1, \"entries\": [" + entries +
           "], \"failures\": []}";
  };
  auto entry = [](int size, const std::string& config) {
    const std::string s = std::to_string(size);
    return "{\"gpu\": \"G\", \"cuda\": \"13.0\", \"driver\": \"D\", \"kernel_version\": 7, \"m\": " + s +
           ", \"n\": " + s + ", \"k\": " + s + ", \"config\": \"" + config +
           "\", \"median_ms\": 1, \"cublas_ms\": 1, \"candidates\": 9, \"date\": \"x\"}";
  };
  const std::string kept = dir + "/kept.json", tuned = dir + "/tuned.json", out = dir + "/out.json";
  std::ofstream(kept) << cache(entry(100, "a"));
  std::ofstream(tuned) << cache(entry(100, "b") + ", " + entry(200, "c"));
  std::ofstream(dir + "/bad.json") << "{\"format\":\"x\"}";
  std::ofstream(dir + "/exists.json") << "keep";
  std::ofstream(dir + "/run.csv") << "kernel,m,n,k,median_ms,min_ms\nauto,100,100,100,1,1\ncublas,100,100,100,1,1\n";
  expect_refused({{"tune", "merge", dir + "/none.json", tuned, "-o", out},
                  "gemmscope: kept cache = " + dir + "/none.json does not exist"});
  expect_refused({{"tune", "merge", kept, dir + "/bad.json", "-o", out},
                  "gemmscope: " + dir + "/bad.json: format = \"x\" must be \"gemmscope-tune-cache\""});
  expect_refused({{"tune", "merge", kept, tuned, "-o", dir + "/exists.json"},
                  "gemmscope: --out = " + dir + "/exists.json exists already; give a new file (nothing is overwritten)"});
  // --output, its former name, still names the same option.
  expect_refused({{"tune", "merge", kept, tuned, "--output", dir + "/exists.json"},
                  "gemmscope: --out = " + dir + "/exists.json exists already; give a new file (nothing is overwritten)"});
  expect_refused({{"tune", "merge", kept, tuned, "-o", out, "--kept-runs", dir + "/run.csv"},
                  "gemmscope: tune merge: bench runs through the kept cache but none through the tuned one: give both "
                  "(--kept-runs and --tuned-runs) or neither"});
  expect_refused({{"tune", "merge", kept, tuned, "-o", out, "--kept-runs", dir + "/no.csv", "--tuned-runs",
                   dir + "/run.csv"},
                  "gemmscope: bench CSV = " + dir + "/no.csv cannot be opened (No such file or directory)"});
  EXPECT_FALSE(std::filesystem::exists(out));
  {
    std::ifstream in(dir + "/exists.json");
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), "keep");
  }
#ifdef GEMMSCOPE_CLI
  const std::string printed = run_cli_stdout({"tune", "merge", kept, tuned, "-o", out});
  EXPECT_NE(printed.find("200x200x200 (G): added c\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("100x100x100 (G): kept a; b undecided"), std::string::npos) << printed;
  std::ifstream in(out);
  const nlohmann::json merged = nlohmann::json::parse(in);
  ASSERT_EQ(merged["entries"].size(), 2u);
  EXPECT_EQ(merged["entries"][0]["config"], "a");
  EXPECT_EQ(merged["entries"][1]["config"], "c");
#endif
}

// ---------------------------------------------------------------------------------
// Hardening: every command that writes does so all or nothing; every reader refuses
// what is not a regular file; parsing is strict; sizes are bounded before the work.

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The names in a folder, sorted: no temporary file may be left behind.
std::vector<std::string> folder_names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A fresh folder of the test's own.
std::string fresh_dir(const std::string& name) {
  const std::string dir = testing::TempDir() + "/cli_hardening_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

const std::string kBenchJson =
    R"({"schema_version": 1, "rows": [
  {"kernel": "k01", "m": 64, "n": 64, "k": 64, "tflops": 10.5, "ratio_to_cublas": 0.5},
  {"kernel": "cublas", "m": 64, "n": 64, "k": 64, "tflops": 21.0, "ratio_to_cublas": 1.0}]})";

#ifdef GEMMSCOPE_CLI
// Runs a shell line (for ulimit) and returns the exit status.
int run_shell(const std::string& line) {
  const int raw = std::system(line.c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}
#endif

}  // namespace

// plot, viz, sim --svg and trace -o write a temporary file beside the target and
// rename it: a folder that does not exist, a device, a directory are refused (exit
// status 2), and a failure leaves the old file as it was with no temporary behind.
TEST_F(CliErrors, OutputsAreAllOrNothing) {
  const std::string dir = fresh_dir("outputs");
  write_file(dir + "/bench.json", kBenchJson);
  expect_refused({{"plot", dir + "/bench.json", "-o", "/no/such/dir/x.svg"},
                  "gemmscope: -o = /no/such/dir/x.svg: cannot create a file in /no/such/dir (No such file or "
                  "directory)"});
  expect_refused({{"plot", dir + "/bench.json", "-o", "/dev/full"},
                  "gemmscope: -o = /dev/full: a character device, not a regular file; give a file path"});
  expect_refused({{"plot", dir + "/bench.json", "-o", dir},
                  "gemmscope: -o = " + dir + ": a directory; give a file path"});
  expect_refused({{"sim", "--svg", "/no/such/dir/t.svg"},
                  "gemmscope: --svg = /no/such/dir/t.svg: cannot create a file in /no/such/dir (No such file or "
                  "directory)"});
  expect_refused({{"trace", "pattern", "--name", "ldmatrix-x4-k-major-64x64", "-o", "/dev/full"},
                  "gemmscope: -o = /dev/full: a character device, not a regular file; give a file path"});
  expect_refused({{"viz", "--swizzle", "128B", "-o", "/no/such/dir/s.dot"},
                  "gemmscope: -o = /no/such/dir/s.dot: cannot create a file in /no/such/dir (No such file or "
                  "directory)"});
#ifdef GEMMSCOPE_CLI
  // A refused input leaves an existing output as it was.
  write_file(dir + "/old.svg", "old picture");
  write_file(dir + "/bad.json", R"({"rows": [{"kernel": "k01"}]})");
  EXPECT_EQ(run_cli({"plot", dir + "/bad.json", "-o", dir + "/old.svg"}).status, 2);
  EXPECT_EQ(read_file(dir + "/old.svg"), "old picture");
  // A write that fails half way (a 1-block file-size limit, as a full disk would):
  // exit 2, the old file as it was, no temporary left.
  const int status = run_shell("ulimit -f 1; trap '' XFSZ; exec " + shell_quote(GEMMSCOPE_CLI) + " plot " +
                               shell_quote(dir + "/bench.json") + " -o " + shell_quote(dir + "/old.svg") +
                               " --title " + shell_quote(std::string(4000, 't')) + " 2>/dev/null >/dev/null");
  EXPECT_EQ(status, 2);
  EXPECT_EQ(read_file(dir + "/old.svg"), "old picture");
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"bad.json", "bench.json", "old.svg"}));
  // A success replaces it, and leaves nothing else.
  EXPECT_EQ(run_cli({"plot", dir + "/bench.json", "-o", dir + "/old.svg"}).status, 0);
  EXPECT_NE(read_file(dir + "/old.svg").find("<svg"), std::string::npos);
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"bad.json", "bench.json", "old.svg"}));
  // sim writes its outputs after the run: an unwritable one is refused before it, so no
  // result line ("... ok") precedes the refusal.
  const std::string sim_out = fresh_dir("sim-outputs") + "/stdout.txt";
  for (const char* option : {"--svg", "--chrome"}) {
    EXPECT_EQ(run_shell(shell_quote(GEMMSCOPE_CLI) + " sim --kernel k07 " + option + " /no/such/dir/t > " +
                        shell_quote(sim_out) + " 2>/dev/null"),
              2)
        << option;
    EXPECT_EQ(read_file(sim_out), "") << option;
  }
#endif
}

// viz never names a file of its own beside the output: a user's <out>.tmp.dot stays.
TEST_F(CliErrors, VizLeavesTheUsersFilesAlone) {
#ifdef GEMMSCOPE_CLI
  const std::string dir = fresh_dir("viz");
  write_file(dir + "/pic.svg.tmp.dot", "mine");
  write_file(dir + "/pic.svg", "old");
  // A dot program that fails: the picture is not replaced, the user's file stays.
  const CliResult failed = run_cli({"viz", "--swizzle", "128B", "-o", dir + "/pic.svg", "--dot", "false"});
  EXPECT_NE(failed.status, 0);
  EXPECT_EQ(read_file(dir + "/pic.svg"), "old");
  EXPECT_EQ(read_file(dir + "/pic.svg.tmp.dot"), "mine");
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"pic.svg", "pic.svg.tmp.dot"}));
  // A dot program that does not exist: refused as bad input, naming it.
  expect_refused({{"viz", "--swizzle", "128B", "-o", dir + "/pic.svg", "--dot", "/no/such/dot"},
                  "gemmscope: --dot = /no/such/dot: cannot run it (No such file or directory); install Graphviz "
                  "(tools/setup) or pass --dot PATH"});
  EXPECT_EQ(read_file(dir + "/pic.svg"), "old");
  // The DOT text itself: written, checked, renamed.
  EXPECT_EQ(run_cli({"viz", "--swizzle", "128B", "-o", dir + "/pic.dot"}).status, 0);
  EXPECT_EQ(read_file(dir + "/pic.dot").rfind("digraph swizzle", 0), 0u);
  EXPECT_EQ(read_file(dir + "/pic.svg.tmp.dot"), "mine");
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"pic.dot", "pic.svg", "pic.svg.tmp.dot"}));
#endif
}

// Readers refuse what is not a regular file before reading it: /dev/zero and
// /dev/urandom never end, a FIFO would wait for a writer.
TEST_F(CliErrors, ReadersRefuseWhatIsNotARegularFile) {
  const std::string dir = fresh_dir("readers");
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  write_file(dir + "/header_only.csv", "kernel,m,n,k,median_ms\n");
  expect_refused({{"plot", dir + "/header_only.csv"},
                  "gemmscope: results = " + dir + "/header_only.csv has no measured row to draw"});
  expect_refused({{"plot", "/dev/zero"}, "gemmscope: bench CSV = /dev/zero is a character device, not a regular file"});
  expect_refused({{"plot", fifo}, "gemmscope: bench CSV = " + fifo + " is a FIFO, not a regular file"});
  const std::string fifo_json = dir + "/fifo.json";  // a name ending in .json: the JSON reader
  ASSERT_EQ(::mkfifo(fifo_json.c_str(), 0600), 0);
  expect_refused({{"plot", fifo_json}, "gemmscope: bench JSON = " + fifo_json + " is a FIFO, not a regular file"});
  expect_refused({{"compare", "/dev/urandom"},
                  "gemmscope: bench CSV = /dev/urandom is a character device, not a regular file"});
  expect_refused({{"banks", "--trace", "/dev/zero"},
                  "gemmscope: /dev/zero: cannot be read: it is a character device, not a regular file"});
  expect_refused({{"banks", "--trace", fifo}, "gemmscope: " + fifo + ": cannot be read: it is a FIFO, not a regular file"});
  expect_refused({{"viz", fifo, "-o", dir + "/x.dot"},
                  "gemmscope: " + fifo + ": cannot be read: it is a FIFO, not a regular file"});
  expect_refused({{"trace", "convert", dir}, "gemmscope: " + dir + ": cannot open the trace file: Is a directory"});
}

// trace compact: a golden trace rewritten at schema 3 with runs; a refusal writes nothing,
// and naming the input as the output replaces it.
TEST_F(CliErrors, TraceCompact) {
  const std::string dir = fresh_dir("compact");
  expect_refused({{"trace", "compact", dir + "/t.json"}, "gemmscope: --out is required; see --help"});
  write_file(dir + "/bad.json", R"({"format": "x"})");
  expect_refused({{"trace", "compact", dir + "/bad.json", "-o", dir + "/out.json"},
                  "gemmscope: bad.json: format = \"x\" must be \"gemmscope-golden-trace\""});
#ifdef GEMMSCOPE_CLI
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"bad.json"}));
  write_file(dir + "/t.json", R"({"format":"gemmscope-golden-trace","schema_version":1,"probe":"tma_swizzle",
    "description":"d","settles":[],"gpu":{"name":"NVIDIA H200","compute_capability":"9.0","compute_major":9,
    "compute_minor":0,"driver_version":12080,"runtime_version":13000,"sm_count":132,"clock_khz":1980000},
    "date":"2025-01-31T12:00:00Z","commit":"unknown","case_count":1,"failed_case_count":0,
    "cases":[{"name":"c0","status":"ok","params":{},"observed":{"smem_u16":[65535,65535,0,1,2]}}]})");
  ASSERT_EQ(run_cli({"trace", "compact", dir + "/t.json", "-o", dir + "/t.json"}).status, 0);
  const nlohmann::json back = nlohmann::json::parse(read_file(dir + "/t.json"));
  EXPECT_EQ(back["schema_version"], 3);
  EXPECT_EQ(back["source"], "hardware");
  EXPECT_EQ(back["cases"][0]["observed"]["smem_u16"].dump(), R"({"runs":[[65535,2,0],[0,3,1]]})");
  EXPECT_EQ(folder_names(dir), (std::vector<std::string>{"bad.json", "t.json"}));
#endif
}

// Lists, JSON keys and values that would be read as something else are refused.
TEST_F(CliErrors, StrictParsing) {
  expect_refused({{"banks", "--addresses", ""},
                  "gemmscope: --addresses = '': item 1 is empty (give A,B,... with no empty item)"});
  expect_refused({{"banks", "--addresses", "0,,8"},
                  "gemmscope: --addresses = '0,,8': item 2 is empty (give A,B,... with no empty item)"});
  expect_refused({{"banks", "--addresses", "0,8,"},
                  "gemmscope: --addresses = '0,8,': item 3 is empty (give A,B,... with no empty item)"});
  expect_refused({{"banks", "--addresses", "0,010"},
                  "gemmscope: --addresses item 2 = '010' must be an integer (decimal, or 0x... hex), without leading "
                  "zeros"});
  expect_refused({{"swizzle", "--mode", "128B", "--table", "--base", "9223372036854775792"},
                  "gemmscope: --base = 9223372036854775792 must be at most 2^32 - rows x row-bytes = 4294966272 (the "
                  "table stays in the 32-bit shared window)"});
  expect_refused({{"trace", "pattern", "--name", "ldmatrix-x4-k-major-64x64", "--base", "4294967168"},
                  "gemmscope: base = 4294967168 puts the pattern's addresses up to 4294975344, past the 32-bit shared "
                  "window (at most 4294967295)"});
  const std::string dir = fresh_dir("strict");
  // A record with the key "cta" twice (the reader took the last).
  std::string addr;
  for (int t = 0; t < 32; ++t) addr += (t ? "," : "") + std::to_string(4 * t);
  write_file(dir + "/dup.jsonl", "{\"format\":\"gemmscope-trace\",\"version\":1,\"records\":1}\n"
                                 "{\"stage\":\"load\",\"cta\":0,\"cta\":1,\"warp\":0,\"width\":4,\"kind\":\"load\","
                                 "\"mask\":\"0xffffffff\",\"addr\":[" + addr + "]}\n");
  expect_refused({{"banks", "--trace", dir + "/dup.jsonl"},
                  "gemmscope: " + dir + "/dup.jsonl:2: key \"cta\" is given twice in one object"});
  // An address on an inactive lane (trace convert dropped it).
  std::string line = "4 load 0x1 0 4";
  for (int t = 2; t < 32; ++t) line += " -";
  write_file(dir + "/inactive.txt", line + "\n");
  expect_refused({{"trace", "convert", dir + "/inactive.txt"},
                  "gemmscope: " + dir + "/inactive.txt:1: ADDR1 = '4' but lane 1 is inactive in MASK 0x00000001: "
                  "write '-' (the address would be dropped)"});
  // plot's reader: m past 2^31 - 1 (undefined behaviour before), a key twice, a rate past 1e6.
  write_file(dir + "/m.json", R"({"rows": [{"kernel": "k01", "m": 1e30, "n": 1, "k": 1, "tflops": 1, "ratio_to_cublas": 1}]})");
  expect_refused({{"plot", dir + "/m.json", "-o", dir + "/m.svg"},
                  "gemmscope: " + dir + "/m.json: rows[0].m = 1e+30 must be a whole number from 1 to 2^31 - 1"});
  write_file(dir + "/twice.json", R"({"rows": [{"kernel": "k01", "m": 1, "n": 1, "k": 1, "k": 2, "tflops": 1, "ratio_to_cublas": 1}]})");
  expect_refused({{"plot", dir + "/twice.json", "-o", dir + "/t.svg"},
                  "gemmscope: " + dir + "/twice.json: rows[0] has the key \"k\" twice"});
  write_file(dir + "/huge.json", R"({"rows": [{"kernel": "k01", "m": 1, "n": 1, "k": 1, "tflops": 1e308, "ratio_to_cublas": 1}]})");
  expect_refused({{"plot", dir + "/huge.json", "-o", dir + "/h.svg"},
                  "gemmscope: " + dir + "/huge.json: rows[0].tflops = 1e+308 must be null or a number from 0 to 1e6"});
}

// An option the chosen mode does not use is refused, naming the option and the mode.
TEST_F(CliErrors, OptionsThatDoNotApply) {
  expect_refused({{"desc", "map", "--arch", "sm90", "--desc", "0x4000004000010040", "--rows", "8", "--k", "8",
                   "--start", "16"},
                  "gemmscope: --start = 16 does not apply with --desc (the descriptor word gives every field)"});
  expect_refused({{"viz", "--swizzle", "128B", "-o", "x.svg", "--instruction", "2"},
                  "gemmscope: --instruction = 2 does not apply with --swizzle (a tile's chunks, titled by its geometry)"});
  expect_refused({{"swizzle", "--mode", "128B", "--offset", "5", "--rows", "3"},
                  "gemmscope: --rows = 3 does not apply with --offset (they shape --table)"});
  expect_refused({{"banks", "--pattern", "ldmatrix-x4-k-major-64x64", "--width", "8"},
                  "gemmscope: --width = 8 does not apply without --addresses (a pattern sets them)"});
  expect_refused({{"banks", "--list", "--json"}, "gemmscope: --json does not apply with --list (it lists the patterns, nothing else)"});
  expect_refused({{"banks", "--pattern", "ldmatrix-x4-k-major-64x64", "--json", "--all"},
                  "gemmscope: --all does not apply with --json (JSON lists every instruction; --summary leaves them "
                  "out)"});
  expect_refused({{"tmem", "--shape", "32x32b", "--half-split-offset", "4"},
                  "gemmscope: --half-split-offset = 4 does not apply to --shape 32x32b (only 16x32bx2 splits its "
                  "halves)"});
  expect_refused({{"trace", "model", "--kernel", "k03", "--no-epilogue"},
                  "gemmscope: --no-epilogue does not apply to k03 (only k04 has an epilogue traced)"});
  expect_refused({{"sim", "--group", "3"}, "gemmscope: --group = 3 does not apply to --kernel synthetic"});
  expect_refused({{"sim", "--kernel", "k06", "--clusters", "2"},
                  "gemmscope: --clusters = 2 does not apply to --kernel k06 (a CTA per work tile; --clusters counts "
                  "persistent workers)"});
  expect_refused({{"sim", "--exhaustive", "--svg", "t.svg"},
                  "gemmscope: --svg = t.svg does not apply with --exhaustive (it searches every schedule, not one "
                  "random one)"});
  expect_refused({{"sim", "--max-states", "10"},
                  "gemmscope: --max-states = 10 does not apply without --exhaustive (it bounds the search of every "
                  "schedule)"});
#ifdef GEMMSCOPE_CLI
  // viz --instruction -1 drew the heat map; now a refusal (it needs a trace to get there).
  const std::string dir = fresh_dir("viz_instruction");
  ASSERT_EQ(run_cli({"trace", "pattern", "--name", "ldmatrix-x4-k-major-64x64", "-o", dir + "/p.jsonl"}).status, 0);
  expect_refused({{"viz", dir + "/p.jsonl", "-o", dir + "/x.dot", "--instruction", "-1"},
                  "gemmscope: --instruction = -1 must be >= 0 (a record's index)"});
  expect_refused({{"viz", dir + "/p.jsonl", "-o", dir + "/x.dot", "--instruction", "16"},
                  "gemmscope: --instruction = 16 must be below the trace's 16 records"});
  expect_refused({{"viz", dir + "/p.jsonl", "-o", dir + "/x.dot", "--rows", "4"},
                  "gemmscope: --rows = 4 does not apply without --swizzle (they describe a swizzle's tile)"});
#endif
}

// sim: sizes bounded before the work; a limit reached is status 4, not a violation.
TEST_F(CliErrors, SimLimits) {
  expect_refused({{"sim", "--tiles-n", "100000", "--k-blocks", "100000"},
                  "gemmscope: --tiles-n x --k-blocks = 10000000000 must be at most 1000000 (the size of one simulated "
                  "run)"});
  expect_refused({{"sim", "--kernel", "k09", "--tiles-m", "64", "--tiles-n", "64", "--k-blocks", "256"},
                  "gemmscope: --tiles-m x --tiles-n x --k-blocks = 1048576 must be at most 262144 (the size of one "
                  "simulated run)"});
  expect_refused({{"sim", "--kernel", "k06", "--tiles-m", "32", "--tiles-n", "32", "--k-blocks", "1"},
                  "gemmscope: --tiles-m x --tiles-n = 1024 must be at most 256 (the size of one simulated run)"});
  expect_refused({{"sim", "--tiles-n", "100", "--k-blocks", "100", "--svg", "t.svg"},
                  "gemmscope: --tiles-n x --k-blocks = 10000 must be at most 4096 with --svg (the timeline draws every "
                  "event)"});
  expect_refused({{"sim", "--exhaustive", "--max-states", "2000001"},
                  "gemmscope: --max-states = 2000001 must be in 1..2000000"});
  expect_refused({{"sim", "--max-steps", "0"}, "gemmscope: --max-steps = 0 must be in 1..10000000"});
#ifdef GEMMSCOPE_CLI
  const CliStdout stopped = run_cli_status({"sim", "--tiles-n", "10", "--k-blocks", "10", "--max-steps", "100"});
  EXPECT_EQ(stopped.status, 4);
  EXPECT_NE(stopped.stdout_text.find("stopped at the step limit --max-steps = 100 (not a violation"),
            std::string::npos)
      << stopped.stdout_text;
  EXPECT_EQ(stopped.stderr_text, "gemmscope: sim stopped at a limit before the schedule finished (not a violation)\n");
  EXPECT_EQ(stopped.stdout_text.find("VIOLATION"), std::string::npos);
#endif
}

// The chart escapes every outside text and has no fixed buffer.
TEST_F(CliErrors, PlotEscapesTitlesAndKernelNames) {
#ifdef GEMMSCOPE_CLI
  const std::string dir = fresh_dir("plot_escape");
  write_file(dir + "/bench.json",
             R"({"rows": [{"kernel": "</text><script>alert(1)</script>", "m": 1, "n": 1, "k": 1, "tflops": 5, "ratio_to_cublas": 1}]})");
  const std::string title = "A & B <c> \"d\" " + std::string(500, 'x') + " end";
  const CliResult r = run_cli({"plot", dir + "/bench.json", "-o", dir + "/chart.svg", "--title", title});
  ASSERT_EQ(r.status, 0) << r.stderr_text;
  const std::string svg = read_file(dir + "/chart.svg");
  EXPECT_EQ(svg.find("<script>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(svg.find("A &amp; B &lt;c&gt; &quot;d&quot; " + std::string(500, 'x') + " end</text>"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
#endif
}

TEST_F(CliErrors, TuneConfigurationsCachesAndShapeSets) {
#ifdef GEMMSCOPE_CLI
  if (!has_gpu_commands()) GTEST_SKIP() << "built without the kernels: no tune/bench subcommands";
#endif
  expect_refused({{"bench", "--kernels", "k10:junk"},
                  "gemmscope: configuration 'junk': expected 7 fields BMxBNxBK.sSTAGES.wgN[pp].cMxN.static|dynamic.gGROUP."
                  "skSPLITS|streamk (e.g. 128x256x64.s4.wg2.c2x1.static.g0.sk1), or 8 with .swap after the tile, found 1"});
  expect_refused({{"bench", "--kernels", "k10:128x256x64.s9.wg2.c2x1.static.g0.sk1"},
                  "gemmscope: configuration '128x256x64.s9.wg2.c2x1.static.g0.sk1': not a compiled instance; compiled: ",
                  /*prefix_only=*/true});
  expect_refused({{"tune", "--hang-seconds", "0", "--shapes", "64x64x64"},
                  "gemmscope: --hang-seconds: Value 0 not in range 1 to 3600; see --help"});
  expect_refused({{"tune", "--configs", "128x128x64.s6.wg2pp.c2x1.dynamic.g0.streamk", "--shapes", "64x64x64"},
                  "gemmscope: configuration '128x128x64.s6.wg2pp.c2x1.dynamic.g0.streamk': stream-K needs the static "
                  "schedule (each worker's k-block range is fixed before the launch)"});
  expect_refused({{"tune", "--configs", "128x256x64.s4.wg2.c2x1.static.g0.sk0", "--shapes", "64x64x64"},
                  "gemmscope: configuration '128x256x64.s4.wg2.c2x1.static.g0.sk0': split-K = 0 must be at least 1"});
  expect_refused({{"tune", "--shapes", "/no/such/shapes.csv"}, "gemmscope: --shapes '/no/such/shapes.csv': no such shape-set file"});
  const std::string dir = testing::TempDir();
  {
    std::ofstream(dir + "/bad_shapes.csv") << "model,layer,m,n,k\nllama,qkv,0,64,64\n";
    expect_refused({{"bench", "--shapes", dir + "/bad_shapes.csv"},
                    "gemmscope: " + dir + "/bad_shapes.csv:2: m = '0' must be 1..2147483647"});
  }
  {
    // A corrupt cache is refused and left as it was.
    const std::string cache = dir + "/bad_cache.json";
    std::ofstream(cache) << "{\"format\":\"x\"}";
    expect_refused({{"tune", "--shapes", "64x64x64", "--cache", cache},
                    "gemmscope: " + cache + ": format = \"x\" must be \"gemmscope-tune-cache\""});
    std::ifstream in(cache);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "{\"format\":\"x\"}");
  }
  {
    // tune --times appends to its own CSV only: another file is refused and left as it was.
    const std::string times = dir + "/not_times.csv";
    std::ofstream(times) << "kernel,m,n,k\nauto,1,2,3\n";
    expect_refused({{"tune", "--shapes", "64x64x64", "--cache", dir + "/unused_cache.json", "--times", times},
                    "gemmscope: --times " + times +
                        ": its first line is 'kernel,m,n,k', not the header of a tune --times CSV (gpu,driver,"
                        "cuda_runtime,kernel_version,date,label,m,n,k,round,config,median_ms,cublas_ms,"
                        "ratio_to_cublas); refusing to append to it"});
    std::ifstream in(times);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "kernel,m,n,k\nauto,1,2,3\n");
    expect_refused({{"tune", "--shapes", "64x64x64", "--cache", dir + "/unused_cache.json", "--times",
                     "/no/such/dir/t.csv"},
                    "gemmscope: --times = /no/such/dir/t.csv: cannot create a file in /no/such/dir (No such file or "
                    "directory)"});
    EXPECT_FALSE(std::filesystem::exists(dir + "/unused_cache.json"));
  }
  expect_refused({{"bench", "--kernels", "auto,cublas", "--shapes", "64x64x64", "--csv", "/no/such/dir/r.csv"},
                  "gemmscope: --csv = /no/such/dir/r.csv: cannot create a file in /no/such/dir (No such file or "
                  "directory)"});
  // Lists have no empty item (an empty one was dropped).
  expect_refused({{"bench", "--kernels", "k01,,cublas"},
                  "gemmscope: --kernels = 'k01,,cublas': item 2 is empty (give A,B,... with no empty item)"});
}

}  // namespace
