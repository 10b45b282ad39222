// libFuzzer target: bench JSON files (gemmscope::report::read_bench_json_rows,
// tools/report/bench_json.hpp; what `gemmscope plot` reads) and the ladder chart
// drawn from them.
//
// Findings: a sanitizer report, an exception other than std::invalid_argument (or one
// whose message does not start with the source), or a broken law:
//   - every accepted row has a kernel of 1..256 bytes, sizes in 1..2^31-1, TFLOP/s and
//     ratio in 0..1e6, no (kernel, shape) twice;
//   - nlohmann's own parser reads an accepted file too, with the same number of rows
//     and the same kernel and sizes in each (a key given twice is refused by ours);
//   - the chart of the rows (with the file's first 600 bytes as the title) is
//     well-formed XML: every outside text escaped (fuzz/xml_check.hpp).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include <nlohmann/json.hpp>

#include "report/bench_json.hpp"
#include "report/ladder_chart.hpp"
#include "xml_check.hpp"

namespace report = gemmscope::report;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_bench_json: %s\n", law.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<report::BenchJsonRow> rows;
  try {
    rows = report::read_bench_json_rows(text, "fuzz.json");
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).rfind("fuzz.json: ", 0) != 0)
      broken(std::string("message without the source: ") + e.what());
    return 0;
  }
  std::set<std::tuple<std::string, int64_t, int64_t, int64_t>> seen;
  for (const report::BenchJsonRow& r : rows) {
    if (r.kernel.empty() || r.kernel.size() > 256) broken("a kernel name of " + std::to_string(r.kernel.size()) + " bytes");
    for (const int64_t d : {r.m, r.n, r.k})
      if (d < 1 || d > 2147483647) broken("a size " + std::to_string(d));
    if (!(r.tflops >= 0 && r.tflops <= report::kMaxJsonRate) ||
        !(r.ratio_to_cublas >= 0 && r.ratio_to_cublas <= report::kMaxJsonRate))
      broken("a rate outside 0..1e6");
    if (!seen.emplace(r.kernel, r.m, r.n, r.k).second) broken("a (kernel, shape) twice");
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    broken(std::string("accepted, but nlohmann refuses it: ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array() || doc["rows"].size() != rows.size())
    broken("nlohmann finds another number of rows");
  for (size_t i = 0; i < rows.size(); ++i) {
    const nlohmann::json& r = doc["rows"][i];
    if (r["kernel"] != rows[i].kernel || r["m"] != rows[i].m || r["n"] != rows[i].n || r["k"] != rows[i].k)
      broken("row " + std::to_string(i) + " reads differently through nlohmann");
  }
  const std::string title(text.substr(0, 600));
  const std::string svg = report::ladder_chart_svg(report::chart_bars(rows), title);
  if (const std::string problem = gemmscope::testing::xml_problem(svg); !problem.empty())
    broken("the chart is not well-formed XML: " + problem);
  return 0;
}
