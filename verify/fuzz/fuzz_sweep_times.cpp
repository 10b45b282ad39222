// libFuzzer target: `gemmscope tune --times` CSVs (gemmscope::report::read_sweep_times,
// tools/report/heuristic_score.hpp; what `gemmscope tune score` reads), then the score.
//
// Findings: a sanitizer report, an exception other than std::invalid_argument (or one
// whose message does not start with the source), or a broken law:
//   - every accepted shape has sizes in 1..2^31-1 and at least one configuration; each
//     configuration parses, appears once per shape, and has a positive finite ratio;
//     the rows are of one GPU;
//   - the score covers every shape; a scored shape's pick is one of its rows, with that
//     row's ratio, and no faster than its fastest; the geomeans are positive and
//     finite, the pick's at most the fastest's; the report prints.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "report/heuristic_score.hpp"

namespace report = gemmscope::report;

namespace {

[[noreturn]] void broken(const std::string& law) {
  std::fprintf(stderr, "fuzz_sweep_times: %s\n", law.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  report::SweepTimes times;
  try {
    report::read_sweep_times(text, "fuzz.csv", times);
  } catch (const std::invalid_argument& e) {
    if (std::string_view(e.what()).rfind("fuzz.csv: ", 0) != 0)
      broken(std::string("message without the source: ") + e.what());
    return 0;
  } catch (const std::exception& e) {
    broken(std::string("an exception other than std::invalid_argument: ") + e.what());
  }
  if (times.gpus.size() > 1) broken("accepted rows of two GPUs");
  for (const report::MeasuredShape& s : times.shapes) {
    for (const int64_t v : {s.shape.m, s.shape.n, s.shape.k})
      if (v < 1 || v > (int64_t{1} << 31) - 1) broken("accepted a size outside 1..2^31-1");
    if (s.configs.empty()) broken("a shape without a configuration");
    std::set<std::string> seen;
    for (const report::MeasuredConfig& c : s.configs) {
      if (!seen.insert(c.config).second) broken("accepted a configuration twice for one shape");
      if (!(std::isfinite(c.ratio) && c.ratio > 0)) broken("accepted a ratio that is not positive and finite");
    }
  }
  const report::HeuristicScore score = report::score_heuristic(times, 132);
  if (score.shapes.size() != times.shapes.size()) broken("the score does not cover every shape");
  for (size_t i = 0; i < score.shapes.size(); ++i) {
    const report::ShapeScore& s = score.shapes[i];
    if (s.pick_ratio == 0) continue;
    bool found = false;
    for (const report::MeasuredConfig& c : times.shapes[i].configs) found = found || (c.config == s.pick && c.ratio == s.pick_ratio);
    if (!found) broken("a scored pick that is not one of the shape's rows");
    if (s.pick_ratio > s.fastest_ratio) broken("a pick faster than the fastest");
  }
  if (score.scored > 0 && !(std::isfinite(score.pick_geomean) && score.pick_geomean > 0 &&
                            std::isfinite(score.fastest_geomean) && score.pick_geomean <= score.fastest_geomean * (1 + 1e-12)))
    broken("geomeans that are not positive and finite, or a pick's above the fastest's");
  (void)report::score_report(score, times);
  return 0;
}
