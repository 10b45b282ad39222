#include "bench_compare.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <tuple>

#include "csv_fields.hpp"
#include "tune/text/csv.hpp"
#include "tune/text/text_printf.hpp"
#include "tune/text/shown_text.hpp"
#include "tune/text/text_file.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::report {
namespace {

// Bench writes a time with ostream's default form ("0.01464", "1.2e-05"); "nan",
// "inf" or nothing where it measured none.
bool time_field(const std::string& name, int line, const char* column, const std::string& text, double& out) {
  if (text.empty()) return false;  // strtod reads "nan" and "inf"; they are no time below
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || text.find_first_of("xXpP") != std::string::npos ||
      std::isspace(static_cast<unsigned char>(text[0])))
    refuse(name, line, std::string(column) + " = '" + shown_text(text) + "' is not a number");
  if (!std::isfinite(v) || v == 0) return false;
  if (v < 0) refuse(name, line, std::string(column) + " = '" + shown_text(text) + "' must not be negative");
  out = v;
  return true;
}

}  // namespace

BenchRun read_bench_csv(std::string_view text, const std::string& name) {
  // Record by record: memory holds the rows kept, not every field of the file.
  std::vector<std::string> header;
  int c_kernel = -1, c_m = -1, c_n = -1, c_k = -1, c_median = -1;
  int c_label = -1, c_commit = -1, c_gpu = -1, c_note = -1, c_min = -1;
  BenchRun run{name, {}};
  std::map<std::tuple<std::string, int64_t, int64_t, int64_t>, int> seen;
  bool have_header = false;
  for_each_csv_record(text, name, [&](const CsvRecord& rec) {
    if (!have_header) {
      have_header = true;
      header = rec.fields;
      auto column = [&](const char* col, bool required) -> int {
        for (size_t i = 0; i < header.size(); ++i)
          if (header[i] == col) return static_cast<int>(i);
        if (required)
          throw std::invalid_argument(name + ": the header has no column '" + col +
                                      "': expected the CSV of `gemmscope bench --csv` (kernel,m,n,k,median_ms,...)");
        return -1;
      };
      c_kernel = column("kernel", true), c_m = column("m", true), c_n = column("n", true), c_k = column("k", true),
      c_median = column("median_ms", true);
      c_label = column("label", false), c_commit = column("commit", false), c_gpu = column("gpu", false),
      c_note = column("note", false), c_min = column("min_ms", false);
      return;
    }
    if (rec.fields.size() != header.size())
      refuse(name, rec.line,
             std::to_string(rec.fields.size()) + " fields where the header has " + std::to_string(header.size()));
    if (run.rows.size() >= kMaxBenchCsvRows)
      refuse(name, rec.line, "more than " + std::to_string(kMaxBenchCsvRows) + " rows");
    auto field = [&](int c) { return c < 0 ? std::string() : rec.fields[static_cast<size_t>(c)]; };
    BenchCsvRow row;
    row.line = rec.line;
    row.kernel = field(c_kernel);
    if (row.kernel.empty()) refuse(name, rec.line, "kernel is empty");
    row.m = size_field(name, rec.line, "m", field(c_m));
    row.n = size_field(name, rec.line, "n", field(c_n));
    row.k = size_field(name, rec.line, "k", field(c_k));
    row.measured = time_field(name, rec.line, "median_ms", field(c_median), row.median_ms);
    if (row.measured && c_min >= 0) time_field(name, rec.line, "min_ms", field(c_min), row.min_ms);
    row.label = field(c_label);
    row.commit = field(c_commit);
    row.gpu = field(c_gpu);
    row.note = field(c_note);
    const auto key = std::make_tuple(row.kernel, row.m, row.n, row.k);
    const auto [it, fresh] = seen.emplace(key, rec.line);
    if (!fresh)
      refuse(name, rec.line,
             "kernel " + shown_text(row.kernel) + " at " + shape_text(row.m, row.n, row.k) +
                 " is given again (first at line " + std::to_string(it->second) + ")");
    run.rows.push_back(std::move(row));
  });
  if (!have_header) throw std::invalid_argument(name + ": empty file: expected the CSV of `gemmscope bench --csv`");
  return run;
}

BenchRun load_bench_csv(const std::string& path, const std::string& name) {
  constexpr size_t kMaxCsvBytes = size_t{64} << 20;  // a bench CSV is a few hundred lines
  const TextFile file = read_text_file(path, kMaxCsvBytes);
  const std::string shown = "bench CSV = " + shown_text(path);
  if (file.error != 0 || file.not_regular)
    throw std::invalid_argument(shown + " " + input_problem(file.error, file.not_regular, file.read_failed));
  if (file.too_large) throw std::invalid_argument(shown + " is larger than 64 MiB");
  return read_bench_csv(file.text, name);
}

Comparison compare_runs(const std::vector<BenchRun>& runs, const std::string& kernel, const std::string& reference,
                        double floor) {
  if (runs.empty()) throw std::invalid_argument("compare: no bench run given");
  if (kernel == reference) throw std::invalid_argument("compare: kernel and reference are both '" + kernel + "'");
  Comparison c{kernel, reference, floor, {}, {}};
  using Key = std::tuple<int64_t, int64_t, int64_t>;
  std::map<Key, size_t> shape_index;
  // Per run: shape -> (kernel time, reference time), measured pairs only.
  std::vector<std::map<Key, std::pair<double, double>>> pairs(runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    const BenchRun& run = runs[r];
    std::map<Key, const BenchCsvRow*> theirs;
    for (const BenchCsvRow& row : run.rows)
      if (row.kernel == reference) theirs[{row.m, row.n, row.k}] = &row;
    RunSummary s;
    s.name = run.name;
    for (const BenchCsvRow& row : run.rows) {
      if (row.kernel != kernel) continue;
      if (s.commit.empty()) s.commit = row.commit, s.gpu = row.gpu;
      const Key key{row.m, row.n, row.k};
      if (!shape_index.count(key)) {
        shape_index[key] = c.shapes.size();
        c.shapes.push_back(ShapeLine{row.m, row.n, row.k, row.label, std::vector<double>(runs.size(), 0.0)});
      }
      const auto other = theirs.find(key);
      if (!row.measured || other == theirs.end() || !other->second->measured) {
        ++s.unpaired;
        continue;
      }
      pairs[r][key] = {row.median_ms, other->second->median_ms};
    }
    if (pairs[r].empty()) {
      std::string kernels;
      std::map<std::string, int> names;
      for (const BenchCsvRow& row : run.rows) ++names[row.kernel];
      for (const auto& [k, count] : names) kernels += (kernels.empty() ? "" : ", ") + shown_text(k);
      throw std::invalid_argument("compare: " + run.name + " has no shape with both " + kernel + " and " + reference +
                                  " measured (its kernels: " + (kernels.empty() ? std::string("none") : kernels) + ")");
    }
    double log_sum = 0;
    s.min = 0;
    for (const auto& [key, t] : pairs[r]) {
      const double ratio = t.second / t.first;
      c.shapes[shape_index[key]].ratio[r] = ratio;
      log_sum += std::log(ratio);
      if (s.shapes == 0 || ratio < s.min) {
        s.min = ratio;
        s.min_shape = shape_text(std::get<0>(key), std::get<1>(key), std::get<2>(key));
      }
      ++s.shapes;
      if (ratio < floor) ++s.below_floor;
      if (ratio >= 1.0) ++s.at_or_above_one;
    }
    s.geomean = std::exp(log_sum / s.shapes);
    if (r > 0) {
      double kernel_logs = 0, reference_logs = 0;
      for (const auto& [key, t] : pairs[r]) {
        const auto first = pairs[0].find(key);
        if (first == pairs[0].end()) continue;
        kernel_logs += std::log(t.first / first->second.first);
        reference_logs += std::log(t.second / first->second.second);
        ++s.shared_with_first;
      }
      if (s.shared_with_first > 0) {
        s.kernel_time_vs_first = std::exp(kernel_logs / s.shared_with_first);
        s.reference_time_vs_first = std::exp(reference_logs / s.shared_with_first);
      }
    }
    c.runs.push_back(std::move(s));
  }
  return c;
}

std::string format_comparison(const Comparison& c, double target, bool per_shape) {
  std::string out;
  size_t width = 4;
  for (const RunSummary& s : c.runs) width = std::max(width, s.name.size());
  const int w = static_cast<int>(std::min<size_t>(width, 60));
  out += text_printf("%s against %s; ratio = %s median time / %s median time (> 1: %s faster)\n",
                     c.kernel.c_str(), c.reference.c_str(), c.reference.c_str(), c.kernel.c_str(), c.kernel.c_str());
  out += text_printf("  %-*s  %-14s %6s %8s %8s  %-18s %6s %6s %8s  %s\n", w, "run", "commit", "shapes",
                     "geomean", "min", "at", ("<" + std::to_string(c.floor).substr(0, 4)).c_str(), ">=1", "unpaired",
                     "time vs first run: kernel, reference (shapes)");
  for (const RunSummary& s : c.runs) {
    std::string vs = "-";
    if (s.shared_with_first > 0) {
      char v[96];
      std::snprintf(v, sizeof v, "%.4f, %.4f (%d)", s.kernel_time_vs_first, s.reference_time_vs_first,
                    s.shared_with_first);
      vs = v;
    }
    out += text_printf("  %-*s  %-14s %6d %8.4f %8.4f  %-18s %6d %6d %8d  %s\n", w, s.name.c_str(),
                       (s.commit.empty() ? "-" : s.commit.c_str()), s.shapes, s.geomean, s.min,
                       s.min_shape.c_str(), s.below_floor, s.at_or_above_one, s.unpaired, vs.c_str());
  }
  out += text_printf("targets: geomean >= %.3f, no shape below %.3f\n", target, c.floor);
  for (const RunSummary& s : c.runs) {
    out += text_printf("  %-*s  geomean %.4f %s; minimum %.4f at %s %s\n", w, s.name.c_str(), s.geomean,
                       s.geomean >= target ? "met" : "not met", s.min, s.min_shape.c_str(),
                       s.below_floor == 0 ? "met" : ("not met (" + std::to_string(s.below_floor) + " below)").c_str());
  }
  if (per_shape) {
    out += text_printf("per shape (ratio; '-' where the run has no measured pair):\n  %-20s %-22s", "shape", "label");
    for (const RunSummary& s : c.runs) out += text_printf(" %10.10s", s.name.c_str());
    out += '\n';
    for (const ShapeLine& line : c.shapes) {
      out += text_printf("  %-20s %-22.22s", shape_text(line.m, line.n, line.k).c_str(), line.label.c_str());
      for (double r : line.ratio) {
        if (r > 0)
          out += text_printf(" %10.4f", r);
        else
          out += text_printf(" %10s", "-");
      }
      out += '\n';
    }
  }
  return out;
}

}  // namespace gemmscope::report
