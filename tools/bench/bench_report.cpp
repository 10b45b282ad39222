#include "bench/bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tune/text/csv.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::harness {

namespace {

std::string shape_str(const GemmShape& s) { return shape_text(s.m, s.n, s.k); }

// A number as JSON has it: non-finite values (a failed timing) become null.
nlohmann::ordered_json number(double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nullptr; }

// Compact, with bytes that are not UTF-8 (a label read from a shape file) replaced
// rather than thrown on: a finished run is never lost to its own report.
std::string dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// A clock figure, or null where the row was not sampled.
nlohmann::ordered_json sampled(const BenchRow& r, double v) { return r.clock_samples ? number(v) : nullptr; }

}  // namespace

std::vector<BenchSummary> BenchReport::summary() const {
  std::vector<BenchSummary> out;
  std::vector<double> log_sums;
  for (const auto& r : rows) {
    if (r.kernel == "cublas" || !std::isfinite(r.ratio_to_cublas) || r.ratio_to_cublas <= 0) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const BenchSummary& b) { return b.kernel == r.kernel; });
    if (it == out.end()) {
      out.push_back(BenchSummary{r.kernel, 0, 0, 1e300, {}});
      log_sums.push_back(0);
      it = out.end() - 1;
    }
    const size_t i = static_cast<size_t>(it - out.begin());
    ++it->shapes;
    log_sums[i] += std::log(r.ratio_to_cublas);
    if (r.ratio_to_cublas < it->min_ratio) it->min_ratio = r.ratio_to_cublas, it->min_shape = shape_str(r.shape);
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].geomean_ratio = std::exp(log_sums[i] / out[i].shapes);
  return out;
}

std::string BenchReport::to_csv() const {
  std::ostringstream os;
  os << "kernel,m,n,k,median_ms,min_ms,max_ms,spread_pct,tflops,ratio_to_cublas,buffer_sets,gpu,driver,cuda_runtime,"
        "sm_clock_before_mhz,sm_clock_after_mhz,commit,date,label,detail,note,l2_before_batch,clock_sampling,clock_samples,"
        "sm_clock_mhz,power_capped_pct,slowdown_pct,tensor_peak_pct\n";
  for (const auto& r : rows) {
    os << csv_field(r.kernel) << ',' << r.shape.m << ',' << r.shape.n << ',' << r.shape.k << ',' << r.median_ms << ','
       << r.min_ms << ',' << r.max_ms << ',' << r.spread_pct << ',' << r.tflops << ',' << r.ratio_to_cublas << ','
       << r.buffer_sets << ',' << csv_field(env.gpu) << ',' << csv_field(env.driver) << ',' << csv_field(env.cuda_runtime)
       << ',' << csv_field(env.sm_clock_before_mhz) << ',' << csv_field(env.sm_clock_after_mhz) << ','
       << csv_field(env.commit) << ',' << csv_field(env.date) << ',' << csv_field(r.label) << ',' << csv_field(r.detail) << ','
       << csv_field(r.note) << ',' << csv_field(env.l2_before_batch) << ',' << csv_field(env.clock_sampling) << ','
       << r.clock_samples;
    // Not sampled: empty fields, not zeros.
    if (r.clock_samples) {
      os << ',' << r.sm_clock_mhz << ',' << r.power_capped_pct << ',' << r.slowdown_pct << ',';
      if (r.tensor_peak_pct > 0) os << r.tensor_peak_pct;  // 0: no peak known for this GPU
    } else {
      os << ",,,,";
    }
    os << '\n';
  }
  return os.str();
}

// One row, one line; nlohmann does the escaping and the number forms.
std::string BenchReport::to_json() const {
  using nlohmann::ordered_json;
  const ordered_json environment = {{"gpu", env.gpu},
                                    {"sm_count", env.sm_count},
                                    {"l2_bytes", env.l2_bytes},
                                    {"driver", env.driver},
                                    {"cuda_runtime", env.cuda_runtime},
                                    {"sm_clock_before_mhz", env.sm_clock_before_mhz},
                                    {"sm_clock_after_mhz", env.sm_clock_after_mhz},
                                    {"commit", env.commit},
                                    {"date", env.date},
                                    {"l2_before_batch", env.l2_before_batch},
                                    {"clock_sampling", env.clock_sampling}};
  std::string out = "{\n  \"schema_version\": 1,\n  \"environment\": " + dump(environment) + ",\n  \"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const BenchRow& r = rows[i];
    const ordered_json row = {{"kernel", r.kernel},
                              {"m", r.shape.m},
                              {"n", r.shape.n},
                              {"k", r.shape.k},
                              {"median_ms", number(r.median_ms)},
                              {"min_ms", number(r.min_ms)},
                              {"max_ms", number(r.max_ms)},
                              {"spread_pct", number(r.spread_pct)},
                              {"tflops", number(r.tflops)},
                              {"ratio_to_cublas", number(r.ratio_to_cublas)},
                              {"buffer_sets", r.buffer_sets},
                              {"label", r.label},
                              {"detail", r.detail},
                              {"note", r.note},
                              {"clock_samples", r.clock_samples},
                              {"sm_clock_mhz", sampled(r, r.sm_clock_mhz)},
                              {"power_capped_pct", sampled(r, r.power_capped_pct)},
                              {"slowdown_pct", sampled(r, r.slowdown_pct)},
                              {"tensor_peak_pct", r.tensor_peak_pct > 0 ? sampled(r, r.tensor_peak_pct) : nullptr}};
    out += "    " + dump(row) + (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out += "  ],\n  \"summary\": [\n";
  const auto sums = summary();
  for (size_t i = 0; i < sums.size(); ++i) {
    const ordered_json s = {{"kernel", sums[i].kernel},
                            {"shapes", sums[i].shapes},
                            {"geomean_ratio_to_cublas", number(sums[i].geomean_ratio)},
                            {"min_ratio_to_cublas", number(sums[i].min_ratio)},
                            {"min_shape", sums[i].min_shape}};
    out += "    " + dump(s) + (i + 1 < sums.size() ? ",\n" : "\n");
  }
  return out + "  ]\n}\n";
}

std::string BenchReport::to_table() const {
  std::ostringstream os;
  char line[256];
  std::snprintf(line, sizeof(line), "%-8s %-18s %10s %9s %8s %9s\n", "kernel", "shape", "median_ms", "TFLOP/s",
                "spread%", "vs_cuBLAS");
  os << line;
  for (const auto& r : rows) {
    if (!r.note.empty() && r.median_ms == 0) {
      os << r.kernel << " " << shape_str(r.shape) << " skipped: " << r.note << "\n";
      continue;
    }
    std::snprintf(line, sizeof(line), "%-8s %-18s %10.4f %9.1f %8.1f %9.3f", r.kernel.c_str(),
                  shape_str(r.shape).c_str(), r.median_ms, r.tflops, r.spread_pct, r.ratio_to_cublas);
    os << line;
    if (!r.label.empty()) os << "  " << r.label;
    if (r.clock_samples) {
      std::snprintf(line, sizeof(line), "  [%.0f MHz, power cap %.0f%%", r.sm_clock_mhz, r.power_capped_pct);
      os << line;
      if (r.tensor_peak_pct > 0) {
        std::snprintf(line, sizeof(line), ", %.1f%% of tensor peak at that clock", r.tensor_peak_pct);
        os << line;
      }
      os << "]";
    }
    if (!r.detail.empty()) os << "  " << r.detail;
    os << "\n";
  }
  const auto sums = summary();
  if (!sums.empty() && rows.size() > sums.size() + 1) {
    os << "summary (ratio to cuBLAS over the shapes each kernel ran):\n";
    for (const auto& b : sums) {
      std::snprintf(line, sizeof(line), "  %-8s shapes %3d  geomean %.3f  min %.3f at %s\n", b.kernel.c_str(),
                    b.shapes, b.geomean_ratio, b.min_ratio, b.min_shape.c_str());
      os << line;
    }
  }
  return os.str();
}

}  // namespace gemmscope::harness
