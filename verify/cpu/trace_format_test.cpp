// The trace format (docs/traces.md): hand-written inputs in both forms, errors that
// name the line and the expected form, round trips, and truncation at every byte.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "gemmscope/traces/trace.hpp"

namespace traces = gemmscope::traces;
namespace model = gemmscope::model;

namespace {

// Expect parse_trace to refuse `text` with a TraceError whose message holds every `part`.
void expect_refused(const std::string& text, std::initializer_list<std::string> parts) {
  try {
    traces::parse_trace(text, "t");
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const traces::TraceError& e) {
    const std::string msg = e.what();
    for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

std::string line_of(const std::string& head, uint64_t step, int lanes = 32) {
  std::string s = head;
  for (int t = 0; t < lanes; ++t) s += " " + std::to_string(step * t);
  return s + "\n";
}

}  // namespace

TEST(TraceText, HandWrittenInstructions) {
  // Two instructions as a user would write them: a comment, a blank line, decimal and hex.
  std::string text = "# my kernel's loads\n\n" + line_of("4 load 0xffffffff", 4);
  text += "16 store 0x000000ff 0x0 16 32 48 64 80 96 112";
  for (int t = 8; t < 32; ++t) text += " -";
  text += "   # lanes 8-31 idle\n";
  const traces::Trace t = traces::parse_trace(text, "mine.txt");
  ASSERT_EQ(t.records.size(), 2u);
  const model::WarpAccess& a = t.records[0].access;
  EXPECT_EQ(a.width_bytes, 4);
  EXPECT_EQ(a.kind, model::AccessKind::Load);
  EXPECT_EQ(a.active_mask, 0xFFFFFFFFu);
  EXPECT_EQ(a.address[0], 0u);
  EXPECT_EQ(a.address[31], 124u);
  const model::WarpAccess& b = t.records[1].access;
  EXPECT_EQ(b.width_bytes, 16);
  EXPECT_EQ(b.kind, model::AccessKind::Store);
  EXPECT_EQ(b.active_mask, 0xFFu);
  EXPECT_EQ(b.address[7], 112u);
  EXPECT_EQ(b.address[8], 0u);
  EXPECT_EQ(t.records[1].stage, traces::Stage::User);
}

TEST(TraceText, ErrorsNameTheLineAndTheForm) {
  const std::string good = line_of("4 load 0xffffffff", 4);
  expect_refused(good + line_of("4 load 0xffffffff", 4, 31), {"t:2:", "fields = 34", "must be 35", "WIDTH KIND MASK"});
  expect_refused(line_of("12 load 0xffffffff", 4), {"t:1:", "WIDTH = '12'", "4, 8 or 16"});
  expect_refused(line_of("4 fetch 0xffffffff", 4), {"t:1:", "KIND = 'fetch'", "load or store"});
  expect_refused(line_of("4 load 0x1ffffffff", 4), {"MASK = '0x1ffffffff'"});
  expect_refused(line_of("8 load 0xffffffff", 4), {"t:1:", "address of lane 1", "multiple of the access width"});
  expect_refused(line_of("4 load 0xffffffff", 0x40000000), {"ADDR", "below 2^32"});
  std::string dash = "4 load 0x1 -";
  for (int t = 1; t < 32; ++t) dash += " 0";
  expect_refused(dash + "\n", {"ADDR0 = '-'", "lane 0 is active"});
  expect_refused("# only a comment\n", {"no instruction lines"});
  expect_refused("", {"empty trace"});
  expect_refused(std::string("4 load \x01\xff", 9) + "\n", {"fields = 3", "must be 35"});
}

TEST(TraceJsonLines, HandWrittenFile) {
  std::string addr;
  for (int t = 0; t < 32; ++t) addr += (t ? "," : "") + (t < 8 ? std::to_string(1024 + 16 * t) : std::string("null"));
  const std::string text =
      "{\"format\":\"gemmscope-trace\",\"version\":1,\"kernel\":\"k9\",\"source\":\"user\",\"records\":1}\n"
      "{\"stage\":\"ldmatrix\",\"cta\":3,\"warp\":2,\"width\":16,\"kind\":\"load\",\"mask\":\"0xff\",\"addr\":[" +
      addr + "],\"label\":\"ldmatrix.x1\"}\n";
  const traces::Trace t = traces::parse_trace(text);
  EXPECT_EQ(t.kernel, "k9");
  ASSERT_EQ(t.records.size(), 1u);
  const traces::TraceRecord& r = t.records[0];
  EXPECT_EQ(r.stage, traces::Stage::Ldmatrix);
  EXPECT_EQ(r.cta, 3u);
  EXPECT_EQ(r.warp, 2u);
  EXPECT_EQ(r.access.active_mask, 0xFFu);
  EXPECT_EQ(r.access.address[7], 1024u + 112u);
  EXPECT_EQ(r.access.label, "ldmatrix.x1");
  EXPECT_EQ(t.kernel_of(r), "k9");
}

TEST(TraceJsonLines, ErrorsNameTheLineAndTheField) {
  const std::string header = "{\"format\":\"gemmscope-trace\",\"version\":1,\"records\":1}\n";
  std::string addr32;
  for (int t = 0; t < 32; ++t) addr32 += (t ? "," : "") + std::to_string(4 * t);
  const std::string rec = "{\"stage\":\"load\",\"cta\":0,\"warp\":0,\"width\":4,\"kind\":\"load\",\"mask\":\"0xffffffff\","
                          "\"addr\":[" + addr32 + "]}\n";
  EXPECT_NO_THROW(traces::parse_trace(header + rec));
  expect_refused("{\"format\":\"gemmscope-trace\",\"version\":2,\"records\":1}\n" + rec, {"t:1:", "version", "reads 1"});
  expect_refused("{\"format\":\"other\",\"version\":1,\"records\":1}\n" + rec, {"format = 'other'"});
  expect_refused("{\"format\":\"gemmscope-trace\",\"version\":1}\n" + rec, {"key \"records\" is missing"});
  expect_refused(header, {"records = 0 but the header says 1", "truncated"});
  expect_refused(header + rec + rec, {"t:3:", "more than the header's records = 1"});
  std::string r2 = rec;
  r2.replace(r2.find("\"warp\":0"), 8, "\"warp\":40");
  expect_refused(header + r2, {"t:2:", "warp = 40", "at most 31"});
  r2 = rec;
  r2.replace(r2.find("\"stage\":\"load\""), 14, "\"stage\":\"tma\"");
  expect_refused(header + r2, {"t:2:", "stage = 'tma'", "ldmatrix"});
  r2 = rec;
  r2.replace(r2.find(",124]"), 5, "]");
  expect_refused(header + r2, {"t:2:", "array of 32 addresses", "31 entries"});
  r2 = rec;
  r2.replace(r2.find("[0,"), 3, "[null,");
  expect_refused(header + r2, {"addr[0] = null", "active"});
  r2 = rec;
  r2.replace(r2.find("\"kind\":\"load\""), 13, "\"kind\":\"load\",\"colour\":1");
  expect_refused(header + r2, {"key 'colour' is not part of format version 1"});
  expect_refused(header + rec.substr(0, 40), {"t:2:", "byte", "malformed or truncated JSON"});
  expect_refused(header + "[1,2]\n", {"t:2:", "one JSON object"});
  // A number too large for any JSON number type (fuzz_traces found it escaping as json::out_of_range).
  expect_refused(header + "{\"cta\":1e999}\n", {"t:2:", "JSON the reader cannot hold"});
}

// ---------------------------------------------------------------------- properties

namespace {

rc::Gen<traces::TraceRecord> gen_record() {
  return rc::gen::exec([] {
    traces::TraceRecord r;
    r.stage = *rc::gen::elementOf(std::vector<traces::Stage>(std::begin(traces::kAllStages), std::end(traces::kAllStages)));
    r.cta = *rc::gen::inRange<uint32_t>(0, 5000);
    r.warp = *rc::gen::inRange<uint32_t>(0, 32);
    r.kernel = *rc::gen::element(std::string(), std::string("k03"), std::string("k04"));
    r.access.width_bytes = *rc::gen::element(4, 8, 16);
    r.access.kind = *rc::gen::element(model::AccessKind::Load, model::AccessKind::Store);
    r.access.active_mask = *rc::gen::arbitrary<uint32_t>();
    for (int t = 0; t < 32; ++t)
      r.access.address[t] =
          r.access.active(t) ? uint64_t{*rc::gen::inRange<uint32_t>(0, 1u << 26)} * r.access.width_bytes : 0;
    r.access.label = *rc::gen::container<std::string>(rc::gen::inRange<char>(' ', '~'));
    return r;
  });
}

rc::Gen<traces::Trace> gen_trace() {
  return rc::gen::exec([] {
    traces::Trace t;
    t.kernel = *rc::gen::element(std::string("k04"), std::string("user \"kernel\""), std::string());
    t.source = "test";
    t.description = *rc::gen::container<std::string>(rc::gen::inRange<char>(' ', '~'));
    t.smem_base = *rc::gen::inRange<uint32_t>(0, 1u << 20);
    t.records = *rc::gen::resize(8, rc::gen::container<std::vector<traces::TraceRecord>>(gen_record()));
    return t;
  });
}

}  // namespace

RC_GTEST_PROP(TraceRoundTrip, JsonLinesKeepsEveryField, ()) {
  const traces::Trace t = *gen_trace();
  const traces::Trace back = traces::parse_trace(traces::write_trace_jsonl(t));
  RC_ASSERT(!traces::first_difference(t, back).has_value());
  RC_ASSERT(back.records.size() == t.records.size());
  for (size_t i = 0; i < t.records.size(); ++i) RC_ASSERT(back.records[i].access.label == t.records[i].access.label);
  RC_ASSERT(back.kernel == t.kernel);
  RC_ASSERT(back.description == t.description);
  RC_ASSERT(back.smem_base == t.smem_base);
}

RC_GTEST_PROP(TraceRoundTrip, TextFormKeepsTheAccesses, ()) {
  traces::Trace t = *gen_trace();
  RC_PRE(!t.records.empty());
  const traces::Trace back = traces::parse_trace(traces::write_trace_text(t));
  RC_ASSERT(back.records.size() == t.records.size());
  for (size_t i = 0; i < t.records.size(); ++i) {
    const model::WarpAccess x = traces::canonical_access(t.records[i].access);
    const model::WarpAccess y = back.records[i].access;
    RC_ASSERT(x.width_bytes == y.width_bytes);
    RC_ASSERT(x.kind == y.kind);
    RC_ASSERT(x.active_mask == y.active_mask);
    RC_ASSERT(x.address == y.address);
  }
}

// Every strict prefix of a written JSON-lines trace is refused with a TraceError (the
// header's record count catches a cut at a line end), except dropping only the final
// newline, which leaves the whole trace.
RC_GTEST_PROP(TraceTruncation, EveryPrefixOfJsonLinesIsRefused, ()) {
  traces::Trace t = *gen_trace();
  t.records.resize(std::min<size_t>(t.records.size(), 3));
  const std::string full = traces::write_trace_jsonl(t);
  for (size_t n = 0; n < full.size(); ++n) {
    const std::string prefix = full.substr(0, n);
    if (n == full.size() - 1) {
      RC_ASSERT(!traces::first_difference(t, traces::parse_trace(prefix)).has_value());
      continue;
    }
    try {
      traces::parse_trace(prefix);
      RC_FAIL("prefix of " + std::to_string(n) + " bytes accepted");
    } catch (const traces::TraceError&) {
    }
  }
}

// The text form has no record count: a prefix may parse, but then to whole records of
// the original, except that the last line may have lost trailing digits. Never a crash
// or another exception.
RC_GTEST_PROP(TraceTruncation, EveryPrefixOfTextIsAnErrorOrWholeLines, ()) {
  traces::Trace t = *gen_trace();
  RC_PRE(!t.records.empty());
  t.records.resize(std::min<size_t>(t.records.size(), 3));
  const std::string full = traces::write_trace_text(t);
  for (size_t n = 0; n < full.size(); ++n) {
    try {
      const traces::Trace p = traces::parse_trace(full.substr(0, n));
      RC_ASSERT(p.records.size() <= t.records.size());
      for (size_t i = 0; i + 1 < p.records.size(); ++i)
        RC_ASSERT(p.records[i].access.address == traces::canonical_access(t.records[i].access).address);
    } catch (const traces::TraceError&) {
    }
  }
}

// Any byte changed anywhere: an error or a trace, never a crash or another exception.
RC_GTEST_PROP(TraceCorruption, FlippedBytesGiveAnErrorOrATrace, ()) {
  traces::Trace t = *gen_trace();
  std::string text = traces::write_trace_jsonl(t);
  const int flips = *rc::gen::inRange(1, 6);
  for (int i = 0; i < flips; ++i) {
    const size_t at = *rc::gen::inRange<size_t>(0, text.size());
    text[at] = *rc::gen::arbitrary<char>();
  }
  try {
    traces::parse_trace(text);
  } catch (const traces::TraceError&) {
  }
}
