// The GEMM shape list of `gemmscope check/bench --shapes` (tune/shape_list.hpp).
// Expected values are hand-written examples and, for the properties, lists printed
// with std::to_string (the inverse of parsing, written independently).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

// Header-only and CUDA-free; the CPU suite is also built without the kernels.
#include "tune/shape_list.hpp"

using gemmscope::parse_shape_list;
using gemmscope::ParsedShape;

namespace {

// rapidcheck's default is 100 cases; run 300 unless RC_PARAMS already says otherwise.
const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

std::string refusal(const std::string& text) {
  try {
    parse_shape_list(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(ShapeParse, HandWrittenLists) {
  const auto two = parse_shape_list("4096x4096x4096,512x8192x5376");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].m, 4096);
  EXPECT_EQ(two[0].n, 4096);
  EXPECT_EQ(two[0].k, 4096);
  EXPECT_EQ(two[1].m, 512);
  EXPECT_EQ(two[1].n, 8192);
  EXPECT_EQ(two[1].k, 5376);

  const auto largest = parse_shape_list("2147483647x1x2147483647");  // 2^31-1
  ASSERT_EQ(largest.size(), 1u);
  EXPECT_EQ(largest[0].m, 2147483647);
  EXPECT_EQ(largest[0].k, 2147483647);
}

TEST(ShapeParse, RefusalsNameTheItem) {
  const std::string rule = "' must be MxNxK with each size in 1..2^31-1";
  for (const std::string item : {"2147483648x1x1", "0x1x1", "1x0x1", "1x1x0", "1x2", "1x2x3x4", "-1x2x3", "+1x2x3",
                                 " 1x2x3", "1x2x3 ", "1x2x", "x1x2", "1xx2", "1x2xk", "0x10x8x8",
                                 "99999999999999999999999x1x1", "1X2X3", "1x2x3.0"})
    EXPECT_EQ(refusal("8x8x8," + item), "shape '" + item + rule) << item;
  EXPECT_EQ(refusal(""), "no shapes given: expected a list like 4096x4096x4096,512x8192x5376");
  // An empty item, a leading zero: refused, not read as something else.
  EXPECT_EQ(refusal(",,,"), "shapes = ',,,': item 1 is empty (give MxNxK,MxNxK,... with no empty item)");
  EXPECT_EQ(refusal("1x2x3,"), "shapes = '1x2x3,': item 2 is empty (give MxNxK,MxNxK,... with no empty item)");
  EXPECT_EQ(refusal("1x2x3,,4x5x6"),
            "shapes = '1x2x3,,4x5x6': item 2 is empty (give MxNxK,MxNxK,... with no empty item)");
  EXPECT_EQ(refusal("8x8x8,1x2x0002147483647"),
            "shape '1x2x0002147483647': size '0002147483647' must be written without leading zeros");
  EXPECT_EQ(refusal("010x2x3"), "shape '010x2x3': size '010' must be written without leading zeros");
  // Bytes outside printable ASCII are shown as \xHH; a NUL must not cut the message.
  EXPECT_EQ(refusal(std::string("1x2\0x3", 6)), "shape '1x2\\x00x3" + rule);
  EXPECT_EQ(refusal("1x2\x7fx3,4x4x4"), "shape '1x2\\x7fx3" + rule);
  EXPECT_EQ(refusal("1x\xc3\xa9x3"), "shape '1x\\xc3\\xa9x3" + rule);
  // A long item is shown by its first 64 characters.
  const std::string long_item = std::string(100, '7') + "x1x1";
  EXPECT_EQ(refusal(long_item), "shape '" + std::string(64, '7') + "..." + rule);
}

RC_GTEST_PROP(ShapeParse, PrintedListsReadBack, ()) {
  const auto count = *rc::gen::inRange<size_t>(1, 6);
  std::vector<ParsedShape> shapes;
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    auto size = [] {
      // Small sizes, sizes near the limit, and anything between.
      return *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 9000), rc::gen::inRange<int64_t>(2147483000, 2147483648),
                             rc::gen::inRange<int64_t>(1, 2147483648));
    };
    const ParsedShape s{size(), size(), size()};
    shapes.push_back(s);
    text += (i ? "," : "") + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  }
  const auto parsed = parse_shape_list(text);
  RC_ASSERT(parsed.size() == shapes.size());
  for (size_t i = 0; i < count; ++i) {
    RC_ASSERT(parsed[i].m == shapes[i].m);
    RC_ASSERT(parsed[i].n == shapes[i].n);
    RC_ASSERT(parsed[i].k == shapes[i].k);
  }
}

RC_GTEST_PROP(ShapeParse, AForeignCharacterIsRefused, ()) {
  const std::string item = std::to_string(*rc::gen::inRange(1, 100000)) + "x" +
                           std::to_string(*rc::gen::inRange(1, 100000)) + "x" +
                           std::to_string(*rc::gen::inRange(1, 100000));
  // Printable ASCII, so the message shows it as typed (others: \xHH, above).
  const auto c = *rc::gen::suchThat(rc::gen::inRange<char>(32, 127), [](char ch) {
    return ch != ',' && ch != 'x' && !(ch >= '0' && ch <= '9');
  });
  const auto at = *rc::gen::inRange<size_t>(0, item.size() + 1);
  const std::string bad = item.substr(0, at) + c + item.substr(at);
  RC_ASSERT(refusal(bad) == "shape '" + bad + "' must be MxNxK with each size in 1..2^31-1");
}

}  // namespace
