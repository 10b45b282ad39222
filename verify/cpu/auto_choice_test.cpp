// What "auto" runs (gemmscope/auto_choice.hpp), decided on the CPU: the GPU's compute
// capability and each candidate's answer go in, a kernel's name comes out. The
// registry's thin caller asks the GPU and the real can_implement functions.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gemmscope/auto_choice.hpp"

namespace {
using gemmscope::AutoChoice;
using gemmscope::choose_auto_kernel;
using gemmscope::ComputeCapability;

const std::vector<std::string> kLadder = {"k01", "k02", "k09", "k10"};

// Candidates' answers from a table (absent: accepts); records who was asked.
struct Answers {
  std::map<std::string, std::string> refusals;
  std::vector<std::string> asked;
  std::string operator()(const std::string& name) {
    asked.push_back(name);
    const auto it = refusals.find(name);
    return it == refusals.end() ? std::string() : it->second;
  }
};

AutoChoice choose(ComputeCapability cc, Answers& answers) {
  return choose_auto_kernel(cc, kLadder, answers, "100 x 200 x 300");
}

TEST(AutoChoice, Sm100GpuRunsSm100WhereItAccepts) {
  Answers answers;
  EXPECT_EQ(choose({10, 0}, answers).name, "sm100");
  EXPECT_EQ(answers.asked, std::vector<std::string>{"sm100"});
}

TEST(AutoChoice, Sm100GpuFallsBackToTheLadderWhereSm100Refuses) {
  Answers answers;
  answers.refusals["sm100"] = "K = 300 must be a multiple of 8";
  EXPECT_EQ(choose({10, 0}, answers).name, "k10");
  answers.refusals["k10"] = "no";
  EXPECT_EQ(choose({10, 0}, answers).name, "k09");
}

TEST(AutoChoice, OtherGpusNeverAskSm100) {
  for (const ComputeCapability cc : {ComputeCapability{9, 0}, ComputeCapability{10, 3}, ComputeCapability{12, 0},
                                     ComputeCapability{8, 0}, ComputeCapability{0, 0}}) {
    Answers answers;
    EXPECT_EQ(choose(cc, answers).name, "k10") << cc.major << "." << cc.minor;
    EXPECT_EQ(answers.asked, std::vector<std::string>{"k10"}) << cc.major << "." << cc.minor;
  }
}

TEST(AutoChoice, HopperTakesTheHighestRungThatAccepts) {
  Answers answers;
  answers.refusals = {{"k10", "no"}, {"k09", "no"}};
  EXPECT_EQ(choose({9, 0}, answers).name, "k02");
  EXPECT_EQ(answers.asked, (std::vector<std::string>{"k10", "k09", "k02"}));
}

TEST(AutoChoice, NothingAcceptsNamesTheProblem) {
  Answers answers;
  for (const auto& name : kLadder) answers.refusals[name] = "no";
  answers.refusals["sm100"] = "no";
  const AutoChoice c = choose({10, 0}, answers);
  EXPECT_EQ(c.name, "");
  EXPECT_EQ(c.why_none, "no kernel can implement 100 x 200 x 300");
}

// 100 cases: random capabilities and answers. The choice is sm100 exactly when the GPU
// is 10.0 and sm100 accepts; otherwise an accepting rung with no accepting rung above it.
RC_GTEST_PROP(AutoChoice, RandomAnswersFollowTheRule, ()) {
  const ComputeCapability cc{*rc::gen::element(8, 9, 10, 12), *rc::gen::inRange(0, 4)};
  Answers answers;
  for (const std::string& name : {"sm100", "k01", "k02", "k09", "k10"})
    if (*rc::gen::arbitrary<bool>()) answers.refusals[name] = "refused";
  const AutoChoice c = choose(cc, answers);
  const bool sm100_runs = cc.major == 10 && cc.minor == 0 && !answers.refusals.count("sm100");
  if (sm100_runs) {
    RC_ASSERT(c.name == "sm100");
    return;
  }
  std::string expected;
  for (const auto& name : kLadder)
    if (!answers.refusals.count(name)) expected = name;
  RC_ASSERT(c.name == expected);
  RC_ASSERT(c.why_none.empty() == !expected.empty());
}

}  // namespace
