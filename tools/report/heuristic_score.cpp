#include "heuristic_score.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <tuple>

#include "csv_fields.hpp"
#include "tune/outcome.hpp"
#include "tune/text/csv.hpp"
#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"
#include "tune/text/text_printf.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::report {
namespace {

std::string shape_text(const tune::Shape& s) { return gemmscope::shape_text(s.m, s.n, s.k); }

// tune writes the ratio with five decimals; anything else is not its file.
double ratio_field(const std::string& name, int line, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v) || v <= 0 ||
      text.find_first_of("xXpPnN") != std::string::npos)
    refuse(name, line, "ratio_to_cublas = '" + shown_text(text) + "' must be a positive finite number");
  return v;
}

int version_field(const std::string& name, int line, const std::string& text) {
  const bool digits = !text.empty() && text.size() <= 6 && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) refuse(name, line, "kernel_version = '" + shown_text(text) + "' must be a whole number");
  return std::stoi(text);
}

}  // namespace

void read_sweep_times(std::string_view text, const std::string& name, SweepTimes& into) {
  // The columns by position: the header must be tune's, so that no other CSV (bench's)
  // is read as if it were one.
  std::string expected = tune::sweep_times_header();
  expected.pop_back();  // its '\n'
  enum Column { kGpu, kDriver, kCuda, kVersion, kDate, kLabel, kM, kN, kK, kRound, kConfig, kMedian, kCublas, kRatio };
  std::map<std::tuple<int64_t, int64_t, int64_t>, size_t> shape_index;
  for (size_t i = 0; i < into.shapes.size(); ++i) {
    const tune::Shape& s = into.shapes[i].shape;
    shape_index[{s.m, s.n, s.k}] = i;
  }
  std::map<std::tuple<size_t, std::string>, int> seen;  // (shape, config) -> line, this file
  bool have_header = false;
  for_each_csv_record(text, name, [&](const CsvRecord& rec) {
    if (!have_header) {
      have_header = true;
      std::string got;
      for (size_t i = 0; i < rec.fields.size(); ++i) got += (i ? "," : "") + rec.fields[i];
      if (got != expected)
        refuse(name, rec.line, "the header '" + shown_text(got) + "' is not `gemmscope tune --times`'s ('" + expected + "')");
      return;
    }
    if (rec.fields.size() != kRatio + 1)
      refuse(name, rec.line, std::to_string(rec.fields.size()) + " fields where the header has " + std::to_string(kRatio + 1));
    const auto& f = rec.fields;
    if (f[kRound] != "first" && f[kRound] != "refine")
      refuse(name, rec.line, "round = '" + shown_text(f[kRound]) + "' must be first or refine");
    if (f[kRound] != "first") return;
    const tune::Shape s{size_field(name, rec.line, "m", f[kM]), size_field(name, rec.line, "n", f[kN]),
                        size_field(name, rec.line, "k", f[kK])};
    bool compiled = true;
    try {
      tune::parse_config(f[kConfig]);
    } catch (const tune::NotCompiledError&) {
      compiled = false;
    } catch (const tune::ConfigError& e) {
      refuse(name, rec.line, "config: " + std::string(e.what()));
    }
    const double ratio = ratio_field(name, rec.line, f[kRatio]);
    into.kernel_versions.insert(version_field(name, rec.line, f[kVersion]));
    into.gpus.insert(f[kGpu]);
    if (into.gpus.size() > 1)
      refuse(name, rec.line, "gpu = '" + shown_text(f[kGpu]) + "', where earlier rows are of '" +
                                 shown_text(*into.gpus.begin() == f[kGpu] ? *into.gpus.rbegin() : *into.gpus.begin()) +
                                 "': score one GPU's times at a time");
    if (!compiled) {
      ++into.uncompiled_rows;
      into.uncompiled.insert(tune::instance_name(f[kConfig]));
      return;
    }
    const auto [it, fresh_shape] = shape_index.emplace(std::make_tuple(s.m, s.n, s.k), into.shapes.size());
    if (fresh_shape) into.shapes.push_back({s, f[kLabel], {}});
    MeasuredShape& shape = into.shapes[it->second];
    for (const MeasuredConfig& c : shape.configs)
      if (c.config == f[kConfig]) {
        const auto again = seen.find({it->second, f[kConfig]});
        refuse(name, rec.line,
               f[kConfig] + " at " + shape_text(s) + " is given again (first " +
                   (again == seen.end() ? std::string("in an earlier file") : "at line " + std::to_string(again->second)) +
                   "); score each run's times on their own");
      }
    seen[{it->second, f[kConfig]}] = rec.line;
    shape.configs.push_back({f[kConfig], ratio});
  });
  if (!have_header) throw std::invalid_argument(name + ": empty file: expected the CSV of `gemmscope tune --times`");
}

void load_sweep_times(const std::string& path, SweepTimes& into) {
  constexpr size_t kMaxBytes = size_t{256} << 20;  // a sweep of every candidate on 100 shapes is a few MB
  const TextFile file = read_text_file(path, kMaxBytes);
  const std::string shown = "times CSV = " + shown_text(path);
  if (file.error != 0 || file.not_regular)
    throw std::invalid_argument(shown + " " + input_problem(file.error, file.not_regular, file.read_failed));
  if (file.too_large) throw std::invalid_argument(shown + " is larger than 256 MiB");
  read_sweep_times(file.text, shown, into);
}

HeuristicScore score_heuristic(const SweepTimes& times, int sm_count) {
  if (sm_count < 1 || sm_count > 1024)
    throw std::invalid_argument("SM count = " + std::to_string(sm_count) + " must be in 1..1024");
  HeuristicScore out;
  out.sm_count = sm_count;
  double log_fastest = 0, log_pick = 0;
  for (const MeasuredShape& m : times.shapes) {
    ShapeScore s;
    s.shape = m.shape;
    s.label = m.label;
    s.measured = static_cast<int>(m.configs.size());
    for (const MeasuredConfig& c : m.configs)
      if (c.ratio > s.fastest_ratio) s.fastest = c.config, s.fastest_ratio = c.ratio;
    try {
      s.pick = tune::to_string(tune::heuristic(m.shape, sm_count));
    } catch (const tune::ConfigError&) {
      // No configuration of k10 runs the shape (`auto` falls back down the ladder).
    }
    for (const MeasuredConfig& c : m.configs)
      if (c.config == s.pick) s.pick_ratio = c.ratio;
    if (s.pick_ratio > 0) {
      ++out.scored;
      log_fastest += std::log(s.fastest_ratio);
      log_pick += std::log(s.pick_ratio);
      if (out.pick_min == 0 || s.pick_ratio < out.pick_min) out.pick_min = s.pick_ratio, out.pick_min_shape = shape_text(s.shape);
    }
    out.shapes.push_back(std::move(s));
  }
  if (out.scored > 0) {
    out.fastest_geomean = std::exp(log_fastest / out.scored);
    out.pick_geomean = std::exp(log_pick / out.scored);
    out.pick_over_fastest = out.pick_geomean / out.fastest_geomean;
  }
  return out;
}

std::string score_report(const HeuristicScore& score, const SweepTimes& times) {
  std::string out = text_printf("%-20s %5s  %-44s %7s  %-44s %7s %7s\n", "shape", "timed", "fastest measured", "ratio",
                                "heuristic's pick", "ratio", "/best");
  for (const ShapeScore& s : score.shapes) {
    const bool scored = s.pick_ratio > 0;
    out += text_printf("%-20s %5d  %-44s %7.3f  %-44s %7s %7s\n", shape_text(s.shape).c_str(), s.measured,
                       s.fastest.c_str(), s.fastest_ratio, s.pick.empty() ? "(no k10 configuration)" : s.pick.c_str(),
                       scored ? text_printf("%.3f", s.pick_ratio).c_str() : "-",
                       scored ? text_printf("%.3f", s.pick_ratio / s.fastest_ratio).c_str() : "-");
  }
  const int unscored = static_cast<int>(score.shapes.size()) - score.scored;
  std::string versions;
  for (const int v : times.kernel_versions) versions += (versions.empty() ? "" : ", ") + std::to_string(v);
  out += text_printf("\n%zu shape%s timed on %s (kernel version %s); the heuristic for %d SMs", score.shapes.size(),
                     score.shapes.size() == 1 ? "" : "s", times.gpus.empty() ? "(no rows)" : times.gpus.begin()->c_str(), versions.c_str(), score.sm_count);
  if (unscored > 0)
    out += text_printf("; %d shape%s without a row for its pick (timed before that candidate existed, or with "
                       "--configs): left out below",
                       unscored, unscored == 1 ? "" : "s");
  out += "\n";
  if (times.uncompiled_rows > 0) {
    std::string names;
    for (const std::string& c : times.uncompiled) names += (names.empty() ? "" : ", ") + c;
    out += text_printf("%d row%s of configurations this build does not compile left out (%s)\n",
                       times.uncompiled_rows, times.uncompiled_rows == 1 ? "" : "s", names.c_str());
  }
  if (score.scored == 0) return out + "no shape has its pick measured: nothing to score\n";
  out += text_printf("ratio to cuBLAS, geomean over %d shapes: fastest measured %.3f, heuristic's pick %.3f "
                     "(%.3f of the fastest); lowest pick %.3f at %s\n",
                     score.scored, score.fastest_geomean, score.pick_geomean, score.pick_over_fastest, score.pick_min,
                     score.pick_min_shape.c_str());
  return out;
}

}  // namespace gemmscope::report
