#include "heuristic_explain.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "tune/cache.hpp"
#include "tune/shipped.hpp"
#include "tune/text/shown_text.hpp"
#include "tune/text/text_printf.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::report {

namespace {

void add_entries(const tune::TuneCache& cache, const std::string& name, const tune::Shape& shape, bool this_version_only,
                 std::vector<CachedPick>& into) {
  for (const tune::TuneEntry& entry : cache.entries)
    if (entry.key.m == shape.m && entry.key.n == shape.n && entry.key.k == shape.k &&
        (!this_version_only || entry.key.kernel_version == tune::kKernelVersion))
      into.push_back({name, entry.key.gpu + ", CUDA " + entry.key.cuda + ", driver " + tune::driver_major(entry.key.driver),
                      entry.config, entry.key.kernel_version});
}

}  // namespace

Explanation explain_heuristic(const tune::Shape& shape, int sm_count, const std::string& cache_file) {
  if (sm_count < 1 || sm_count > 1024)
    throw std::invalid_argument("SM count = " + std::to_string(sm_count) + " must be in 1..1024");
  Explanation e;
  e.shape = shape;
  e.sm_count = sm_count;
  for (const tune::KernelConfig& c : tune::candidates(shape, sm_count)) {
    const int64_t slots = tune::cluster_slots(c, sm_count);
    e.ranked.push_back({c, tune::modelled_time(c, shape, sm_count), tune::split_plan(c, shape, slots).units, slots});
  }
  // Stable: heuristic() takes the first of equal times in candidates' order.
  std::stable_sort(e.ranked.begin(), e.ranked.end(),
                   [](const RankedConfig& a, const RankedConfig& b) { return a.time.total_us < b.time.total_us; });
  if (e.ranked.empty()) e.refusal = tune::shape_rules(tune::compiled_instances().front(), shape);
  for (const tune::ShippedCache& shipped : tune::shipped_caches())
    add_entries(tune::parse_tune_cache(shipped.json, "shipped tuning cache " + std::string(shipped.name)),
                "shipped cache " + std::string(shipped.name), shape, true, e.cached);
  if (!cache_file.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(cache_file, ec))
      throw std::invalid_argument("--cache = " + shown_text(cache_file) + " does not exist");
    try {
      add_entries(tune::load_tune_cache(cache_file), "your cache " + cache_file, shape, false, e.cached);
    } catch (const tune::TuneCacheError& err) {
      throw std::invalid_argument(err.what());
    }
  }
  return e;
}

std::string explain_report(const Explanation& e, int top) {
  const std::string shape = shape_text(e.shape.m, e.shape.n, e.shape.k);
  if (e.ranked.empty()) {
    const std::string head = shape + ": no configuration of k10 runs it (" + e.refusal + "); ";
    if (!e.fallback.empty()) return head + "auto runs " + e.fallback + " instead\n";
    if (!e.fallback_refusal.empty()) return head + "auto refuses it: " + e.fallback_refusal + "\n";
    return head + "auto runs the last ladder kernel that does (a gemmscope built with the kernels names it)\n";
  }
  const RankedConfig& pick = e.ranked.front();
  std::string out = text_printf("%s on %d SMs: %zu candidates; the heuristic picks %s\n", shape.c_str(), e.sm_count,
                                e.ranked.size(), tune::to_string(pick.config).c_str());
  out += text_printf("  %4s  %-44s %9s %9s %9s %9s %6s %6s  %s\n", "rank", "configuration", "model us", "whole",
                     "cut", "floor", "units", "waves", "bound by");
  int ties = 0;
  for (size_t i = 0; i < e.ranked.size(); ++i) {
    const RankedConfig& r = e.ranked[i];
    const bool tied = r.time.total_us == pick.time.total_us;
    if (i > 0 && tied) ++ties;
    if (static_cast<int>(i) >= top && !tied) continue;
    out += text_printf("  %4zu  %-44s %9.2f %9.2f %9.2f %9.2f %6lld %6.2f  %s%s\n", i + 1,
                       tune::to_string(r.config).c_str(), r.time.total_us, r.time.whole_us, r.time.cut_us,
                       r.time.floor_us, static_cast<long long>(r.units),
                       static_cast<double>(r.units) / static_cast<double>(r.slots),
                       r.time.on_floor() ? "HBM floor" : "tiles", i > 0 && tied ? " (tied)" : "");
  }
  if (ties > 0)
    out += text_printf("  %d configuration%s tie%s with the pick; the heuristic takes the first in compiled order\n",
                       ties, ties == 1 ? "" : "s", ties == 1 ? "s" : "");
  for (const CachedPick& c : e.cached) {
    out += "  " + c.cache + ": on " + c.where + ", ";
    if (c.kernel_version != tune::kKernelVersion)
      out += "kernel version " + std::to_string(c.kernel_version) + ": ignored by this build's (" +
             std::to_string(tune::kKernelVersion) + ")\n";
    else
      out += "auto runs " + (c.config == tune::to_string(pick.config) ? "the same configuration" : c.config + " instead") +
             "\n";
  }
  if (e.cached.empty()) out += "  no tuning cache here has this shape\n";
  out += "  (a cache of yours, GEMMSCOPE_TUNE_CACHE or gemmscope::use_tune_cache, comes before the shipped ones)\n";
  return out;
}

}  // namespace gemmscope::report
