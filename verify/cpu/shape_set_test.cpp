// Shape sets (kernels/tune/shape_set.hpp): CSV files of named GEMM shapes.
// Expected values are hand-written CSV text and the model sizes typed from the
// models' config.json (bench/shapes/llm_projections.csv's comments), not computed by
// the parser; the properties print rows with std::to_string.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "tune/shape_set.hpp"

namespace {

using gemmscope::tune::load_shape_set;
using gemmscope::tune::NamedShape;
using gemmscope::tune::parse_shape_set;
using gemmscope::tune::ShapeSetError;

const bool kRapidcheckCases = [] {
  const char* current = std::getenv("RC_PARAMS");
  std::string params = current ? current : "";
  if (params.find("max_success") == std::string::npos)
    setenv("RC_PARAMS", (params.empty() ? "" : params + " ").append("max_success=300").c_str(), 1);
  return true;
}();

std::string refusal(const std::string& text) {
  try {
    parse_shape_set(text, "shapes.csv");
  } catch (const ShapeSetError& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string kHeader = "model,layer,m,n,k\n";

TEST(ShapeSet, HandWrittenSet) {
  const auto shapes = parse_shape_set(
      "# a comment\n"
      "   # an indented comment\n"
      "\n"
      "model,layer,m,n,k\r\n"
      "llama3-8b,qkv,512,6144,4096\r\n"
      "  \t\n"
      " gemma3-27b , o ,\t0128, 5376 ,4096\n"
      "my.model_v2,down-proj,1,2147483647,7");  // no final newline
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0], (NamedShape{"llama3-8b", "qkv", 512, 6144, 4096}));
  EXPECT_EQ(shapes[1], (NamedShape{"gemma3-27b", "o", 128, 5376, 4096}));
  EXPECT_EQ(shapes[2], (NamedShape{"my.model_v2", "down-proj", 1, 2147483647, 7}));
}

TEST(ShapeSet, EqualShapesOfDifferentRowsAreKept) {
  const auto shapes = parse_shape_set(kHeader + "a,qkv,512,8192,5376\nb,qkv,512,8192,5376\na,o,512,8192,5376\n");
  EXPECT_EQ(shapes.size(), 3u);
}

TEST(ShapeSet, RefusalsNameLineFieldAndValue) {
  EXPECT_EQ(refusal(kHeader + "a,b,1,1,1\n\n# c\n\na,b,2,1,1\na,b,3,0,1\n"),
            "shapes.csv:7: n = '0' must be 1..2147483647");
  EXPECT_EQ(refusal(kHeader + "a,b,2147483648,1,1\n"), "shapes.csv:2: m = '2147483648' must be 1..2147483647");
  EXPECT_EQ(refusal(kHeader + "a,b,1,1,99999999999999999999999\n"),
            "shapes.csv:2: k = '99999999999999999999999' must be 1..2147483647");
  for (const std::string value : {"-1", "+1", "1.0", "1e3", "0x10", "", "1 2", "4096#"})
    EXPECT_EQ(refusal(kHeader + "a,b,8," + value + ",8\n"), "shapes.csv:2: n = '" + value + "' must be 1..2147483647")
        << value;
  const std::string name_rule = "' must be 1..64 characters of A-Z a-z 0-9 . _ -";
  EXPECT_EQ(refusal(kHeader + ",b,1,1,1\n"), "shapes.csv:2: model = '" + name_rule);
  EXPECT_EQ(refusal(kHeader + "a,b c,1,1,1\n"), "shapes.csv:2: layer = 'b c" + name_rule);
  EXPECT_EQ(refusal(kHeader + "a/b,c,1,1,1\n"), "shapes.csv:2: model = 'a/b" + name_rule);
  EXPECT_EQ(refusal(kHeader + std::string(65, 'm') + ",c,1,1,1\n"),
            "shapes.csv:2: model = '" + std::string(64, 'm') + "..." + name_rule);
  EXPECT_EQ(refusal(kHeader + std::string(64, 'm') + ",c,1,1,1\n"), "(accepted)");
  // Unprintable bytes are shown as \xHH (a NUL must not cut the message).
  EXPECT_EQ(refusal(kHeader + std::string("a\0b,c,1,1,1\n", 12)), "shapes.csv:2: model = 'a\\x00b" + name_rule);
  EXPECT_EQ(refusal(kHeader + "a,b,1,1\n"),
            "shapes.csv:2: row 'a,b,1,1' has 4 fields, expected 5 (model,layer,m,n,k)");
  EXPECT_EQ(refusal(kHeader + "a,b,1,1,1,\n"),
            "shapes.csv:2: row 'a,b,1,1,1,' has 6 fields, expected 5 (model,layer,m,n,k)");
}

TEST(ShapeSet, HeaderIsRequiredAndExact) {
  const std::string rule = "' must be exactly model,layer,m,n,k";
  EXPECT_EQ(refusal("a,b,1,1,1\n"), "shapes.csv:1: header = 'a,b,1,1,1" + rule);
  EXPECT_EQ(refusal("# c\nmodel,layer,M,N,K\na,b,1,1,1\n"), "shapes.csv:2: header = 'model,layer,M,N,K" + rule);
  EXPECT_EQ(refusal("model,layer,m,n\n"), "shapes.csv:1: header = 'model,layer,m,n" + rule);
  EXPECT_EQ(refusal("model,layer,m,n,k,extra\n"), "shapes.csv:1: header = 'model,layer,m,n,k,extra" + rule);
  EXPECT_EQ(refusal(" model , layer,m,n,k \na,b,1,1,1\n"), "(accepted)");  // spaces around fields are trimmed
}

TEST(ShapeSet, EmptySetsAreRefused) {
  const std::string no_header = "shapes.csv: no header line: expected model,layer,m,n,k and at least one row";
  EXPECT_EQ(refusal(""), no_header);
  EXPECT_EQ(refusal("# only a comment\n\n  \n"), no_header);
  const std::string no_rows = "shapes.csv: no shape rows after the header model,layer,m,n,k (a shape set must not be empty)";
  EXPECT_EQ(refusal(kHeader), no_rows);
  EXPECT_EQ(refusal(kHeader + "# nothing\n\n"), no_rows);
}

TEST(ShapeSet, RepeatedModelLayerAndMNamesBothLines) {
  EXPECT_EQ(refusal(kHeader + "a,qkv,512,1,1\na,o,512,1,1\n# c\na,qkv,512,2,2\n"),
            "shapes.csv:5: model,layer,m = a,qkv,512 repeats line 2 (each model, layer and m once)");
  // The same model and layer at another M, or another model, is fine.
  EXPECT_EQ(refusal(kHeader + "a,qkv,512,1,1\na,qkv,128,1,1\nb,qkv,512,1,1\n"), "(accepted)");
  // Leading zeros do not make a different M.
  EXPECT_EQ(refusal(kHeader + "a,qkv,512,1,1\na,qkv,0512,1,1\n"),
            "shapes.csv:3: model,layer,m = a,qkv,512 repeats line 2 (each model, layer and m once)");
}

TEST(ShapeSet, SourceDefaultsToShapes) {
  try {
    parse_shape_set("");
    FAIL() << "accepted an empty text";
  } catch (const ShapeSetError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("<shapes>: ", 0), 0u) << e.what();
  }
}

// The committed set: 48 rows, sizes typed here from the models' config.json values.
TEST(ShapeSet, CommittedLlmProjections) {
  const auto shapes = load_shape_set(GEMMSCOPE_SOURCE_DIR "/bench/shapes/llm_projections.csv");
  ASSERT_EQ(shapes.size(), 48u);
  std::map<std::string, std::map<int64_t, std::pair<int64_t, int64_t>>> by_name;  // "model/layer" -> m -> (n, k)
  for (const NamedShape& s : shapes) by_name[s.model + "/" + s.layer][s.m] = {s.n, s.k};
  const std::map<std::string, std::pair<int64_t, int64_t>> expected = {
      {"llama3-8b/qkv", {6144, 4096}},      {"llama3-8b/o", {4096, 4096}},
      {"llama3-8b/gate_up", {28672, 4096}}, {"llama3-8b/down", {4096, 14336}},
      {"llama3-70b/qkv", {10240, 8192}},    {"llama3-70b/o", {8192, 8192}},
      {"llama3-70b/gate_up", {57344, 8192}}, {"llama3-70b/down", {8192, 28672}},
      {"gemma3-27b/qkv", {8192, 5376}},     {"gemma3-27b/o", {5376, 4096}},
      {"gemma3-27b/gate_up", {43008, 5376}}, {"gemma3-27b/down", {5376, 21504}},
  };
  ASSERT_EQ(by_name.size(), expected.size());
  for (const auto& [name, nk] : expected) {
    ASSERT_TRUE(by_name.count(name)) << name;
    const auto& per_m = by_name.at(name);
    EXPECT_EQ(per_m.size(), 4u) << name;
    for (const int64_t m : {128, 512, 2048, 8192}) {
      ASSERT_TRUE(per_m.count(m)) << name << " m=" << m;
      EXPECT_EQ(per_m.at(m), nk) << name << " m=" << m;
    }
  }
  // The deep-dive's 512x8192x5376 is exactly one row: gemma3-27b qkv at M = 512.
  int deep_dive_rows = 0;
  for (const NamedShape& s : shapes)
    if (s.m == 512 && s.n == 8192 && s.k == 5376) {
      ++deep_dive_rows;
      EXPECT_EQ(s.model, "gemma3-27b");
      EXPECT_EQ(s.layer, "qkv");
    }
  EXPECT_EQ(deep_dive_rows, 1);
}

TEST(ShapeSet, FileErrors) {
  const std::string missing = "/nonexistent-gemmscope-dir/shapes.csv";
  try {
    load_shape_set(missing);
    FAIL() << "read a missing file";
  } catch (const ShapeSetError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read shape set '" + missing + "': No such file or directory");
  }
  const auto dir = std::filesystem::temp_directory_path();
  try {
    load_shape_set(dir.string());
    FAIL() << "read a directory";
  } catch (const ShapeSetError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read shape set '" + dir.string() + "': Is a directory");
  }
  // A parse error names the path as the source.
  const auto path = dir / ("gemmscope_shape_set_test_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(path) << "model,layer,m,n,k\na,b,1,1,0\n";
  try {
    load_shape_set(path.string());
    FAIL() << "accepted k = 0";
  } catch (const ShapeSetError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ":2: k = '0' must be 1..2147483647");
  }
  std::filesystem::remove(path);
}

TEST(ShapeSet, SizeLimit) {
  // 16 MiB + 1 byte of comment lines: refused by size before any line is read.
  std::string text(size_t{16} << 20, '#');
  text += "\n";
  EXPECT_EQ(refusal(text), "shapes.csv: 16777217 bytes, more than the limit of 16777216 (16 MiB) for a shape set");
}

rc::Gen<std::string> name_gen() {
  static const std::string chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
  return rc::gen::map(rc::gen::container<std::vector<size_t>>(*rc::gen::inRange<size_t>(1, 65),
                                                              rc::gen::inRange<size_t>(0, chars.size())),
                      [](const std::vector<size_t>& picks) {
                        std::string s;
                        for (size_t p : picks) s += chars[p];
                        return s;
                      });
}

int64_t size_gen() {
  return *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 9000), rc::gen::inRange<int64_t>(2147483000, 2147483648),
                         rc::gen::inRange<int64_t>(1, 2147483648));
}

RC_GTEST_PROP(ShapeSet, PrintedRowsReadBack, ()) {
  const auto count = *rc::gen::inRange<size_t>(1, 12);
  std::vector<NamedShape> rows;
  std::set<std::tuple<std::string, std::string, int64_t>> seen;
  std::string text = *rc::gen::element<std::string>("", "# shapes\n", "\n\n") + "model,layer,m,n,k";
  const std::string eol = *rc::gen::element<std::string>("\n", "\r\n");
  text += eol;
  while (rows.size() < count) {
    NamedShape s{*name_gen(), *name_gen(), size_gen(), size_gen(), size_gen()};
    if (!seen.insert({s.model, s.layer, s.m}).second) continue;
    rows.push_back(s);
    const std::string pad = *rc::gen::element<std::string>("", " ", "\t ");
    text += pad + s.model + "," + s.layer + pad + "," + std::to_string(s.m) + "," + pad + std::to_string(s.n) + "," +
            std::to_string(s.k) + pad + eol;
    if (*rc::gen::inRange(0, 4) == 0) text += "# between rows" + eol;
  }
  RC_ASSERT(parse_shape_set(text, "p.csv") == rows);
}

RC_GTEST_PROP(ShapeSet, AForeignByteInANumberIsRefused, ()) {
  const std::string n = std::to_string(*rc::gen::inRange(1, 100000));
  const auto c = *rc::gen::suchThat(rc::gen::arbitrary<char>(), [](char ch) {
    return !(ch >= '0' && ch <= '9') && ch != ',' && ch != '\n' && ch != ' ' && ch != '\t' && ch != '\r';
  });
  const auto at = *rc::gen::inRange<size_t>(0, n.size() + 1);
  const std::string bad = n.substr(0, at) + c + n.substr(at);
  const std::string message = refusal(kHeader + "a,b,4,4,4\na,b,8," + bad + ",8\n");
  RC_ASSERT(message.rfind("shapes.csv:3: n = '", 0) == 0);
  RC_ASSERT(message.find("' must be 1..2147483647") != std::string::npos);
}

}  // namespace
