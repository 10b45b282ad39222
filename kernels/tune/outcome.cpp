#include "tune/outcome.hpp"

#include <cstdio>
#include <iomanip>
#include <sstream>

#include "tune/text/csv.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::tune {
namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  const int n = std::snprintf(nullptr, 0, fmt, args...);
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt, args...);
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace

std::string outcome_table_header() {
  return format("%-28s %-22s %-40s %10s %10s %7s %6s %6s\n", "shape set row", "MxNxK", "best configuration",
                "best_ms", "cublas_ms", "ratio", "timed", "failed");
}

std::string outcome_table_row(const ShapeOutcome& o) {
  if (o.skipped) return {};
  const std::string shape = shape_text(o.shape.m, o.shape.n, o.shape.k);
  // A --configs sweep says what became of the cache's entry it was timed against.
  std::string suffix;
  if (!o.incumbent.empty() && !o.best.empty())
    suffix = o.best == o.incumbent ? "  (the cache's entry, timed with the selection, stays)"
                                   : "  (replaces the cache's " + o.incumbent + ")";
  if (!o.first_round.empty()) suffix += "  (refined " + std::to_string(o.refined) + "; first round: " + o.first_round + ")";
  const std::string row = o.shape.model.empty() ? std::string("-") : o.shape.model + "/" + o.shape.layer;
  return format("%-28s %-22s %-40s %10.4f %10.4f %7.3f %6d %6d%s\n", row.c_str(), shape.c_str(),
                o.best.empty() ? "(none passed)" : o.best.c_str(), o.best_ms, o.cublas_ms,
                o.best_ms > 0 ? o.cublas_ms / o.best_ms : 0.0, o.timed, o.failed,
                suffix.c_str());
}

std::string sweep_times_header() {
  return "gpu,driver,cuda_runtime,kernel_version,date,label,m,n,k,round,config,median_ms,cublas_ms,ratio_to_cublas\n";
}

std::string sweep_times_rows(const ShapeOutcome& o) {
  const SweepWhere& w = o.where;
  if (o.skipped) return {};
  const std::string label = o.shape.model.empty() ? std::string() : o.shape.model + "/" + o.shape.layer;
  std::string out;
  auto fixed = [](double v, int digits) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << v;
    return os.str();
  };
  const std::string where = csv_field(w.gpu) + "," + csv_field(w.driver) + "," + csv_field(w.cuda) + "," +
                            std::to_string(w.kernel_version) + "," + w.date + "," + csv_field(label) + "," +
                            std::to_string(o.shape.m) + "," + std::to_string(o.shape.n) + "," +
                            std::to_string(o.shape.k) + ",";
  auto rows = [&](const char* round, const std::map<std::string, double>& times, double cublas_ms) {
    for (const auto& [config, ms] : times)
      out += where + round + "," + config + "," + fixed(ms, 6) + "," + fixed(cublas_ms, 6) + "," +
             fixed(ms > 0 ? cublas_ms / ms : 0.0, 5) + "\n";
  };
  rows("first", o.first_times, o.cublas_first_ms);
  rows("refine", o.refined_times, o.cublas_refined_ms);
  return out;
}

}  // namespace gemmscope::tune
