// report/tune_merge.hpp.
#include "report/tune_merge.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "tune/text/text_printf.hpp"
#include "tune/shape_list.hpp"

namespace gemmscope::report {
namespace {

std::string shape_text(const tune::TuneKey& k) { return gemmscope::shape_text(k.m, k.n, k.k); }

struct Sample {
  double ratio = 0, min_ms = 0;
};

// auto's ratio to cuBLAS (cublas median / auto median) and auto's fastest launch at
// the key's shape, in each run.
std::vector<Sample> samples(const std::vector<BenchRun>& runs, const tune::TuneKey& key) {
  std::vector<Sample> out;
  for (const BenchRun& run : runs) {
    const BenchCsvRow *mine = nullptr, *reference = nullptr;
    for (const BenchCsvRow& row : run.rows) {
      if (row.m != key.m || row.n != key.n || row.k != key.k) continue;
      if (row.kernel == "auto") mine = &row;
      if (row.kernel == "cublas") reference = &row;
    }
    const std::string where = run.name + ": shape " + shape_text(key);
    if (!mine || !reference)
      throw std::invalid_argument(where + " has no " + (mine ? "cublas" : "auto") +
                                  " row (expected a bench CSV of --kernels auto,cublas over the shapes to merge)");
    if (!mine->measured || !reference->measured)
      throw std::invalid_argument(where + " has no measured time for " + (mine->measured ? "cublas" : "auto"));
    if (mine->min_ms <= 0)
      throw std::invalid_argument(where + " has no min_ms for auto (a bench CSV has the column min_ms)");
    out.push_back({reference->median_ms / mine->median_ms, mine->min_ms});
  }
  return out;
}

double mean_min_ms(const std::vector<Sample>& s) {
  double sum = 0;
  for (const Sample& x : s) sum += x.min_ms;
  return sum / static_cast<double>(s.size());
}

}  // namespace

MergeResult merge_tune_caches(const tune::TuneCache& kept, const tune::TuneCache& tuned, const MergeRuns& runs) {
  if (runs.kept.empty() != runs.tuned.empty())
    throw std::invalid_argument(std::string("tune merge: bench runs through ") +
                                (runs.kept.empty() ? "the tuned cache but none through the kept one"
                                                   : "the kept cache but none through the tuned one") +
                                ": give both (--kept-runs and --tuned-runs) or neither");
  MergeResult result;
  result.cache = kept;
  for (const tune::TuneEntry& t : tuned.entries) {
    const tune::TuneEntry* k = kept.find(t.key);
    MergeDecision d;
    d.key = t.key;
    d.tuned_config = t.config;
    if (!k) {
      d.outcome = MergeDecision::Outcome::added;
      result.cache.upsert(t);
      result.decisions.push_back(d);
      continue;
    }
    if (k->config == t.config) {
      ++result.same;
      continue;
    }
    d.kept_config = k->config;
    if (runs.kept.empty()) {
      d.outcome = MergeDecision::Outcome::undecided;
      result.decisions.push_back(d);
      continue;
    }
    const std::vector<Sample> old_runs = samples(runs.kept, t.key), new_runs = samples(runs.tuned, t.key);
    for (const Sample& s : old_runs) d.kept_best_ratio = std::max(d.kept_best_ratio, s.ratio);
    d.tuned_worst_ratio = new_runs.front().ratio;
    for (const Sample& s : new_runs) d.tuned_worst_ratio = std::min(d.tuned_worst_ratio, s.ratio);
    d.kept_min_ms = mean_min_ms(old_runs);
    d.tuned_min_ms = mean_min_ms(new_runs);
    const bool take = d.tuned_worst_ratio > d.kept_best_ratio && d.tuned_min_ms <= d.kept_min_ms;
    d.outcome = take ? MergeDecision::Outcome::taken : MergeDecision::Outcome::kept_by_rule;
    if (take) result.cache.upsert(t);
    result.decisions.push_back(d);
  }
  for (const tune::TuneFailure& f : tuned.failures) {
    const bool known = std::any_of(result.cache.failures.begin(), result.cache.failures.end(),
                                   [&](const tune::TuneFailure& g) { return g.key == f.key && g.config == f.config; });
    if (known) continue;
    result.cache.add_failure(f);
    ++result.failures_added;
  }
  return result;
}

std::string format_merge(const MergeResult& r) {
  std::string out;
  std::string buf;
  int added = 0, taken = 0, kept = 0, undecided = 0;
  for (const MergeDecision& d : r.decisions) {
    const std::string shape = shape_text(d.key) + " (" + d.key.gpu + ")";
    switch (d.outcome) {
      case MergeDecision::Outcome::added:
        ++added;
        buf = text_printf("%s: added %s\n", shape.c_str(), d.tuned_config.c_str());
        break;
      case MergeDecision::Outcome::taken:
        ++taken;
        buf = text_printf("%s: %s -> %s (kept at best %.3f, tuned at worst %.3f; fastest launch %.4f -> %.4f ms)\n",
                      shape.c_str(), d.kept_config.c_str(), d.tuned_config.c_str(), d.kept_best_ratio,
                      d.tuned_worst_ratio, d.kept_min_ms, d.tuned_min_ms);
        break;
      case MergeDecision::Outcome::kept_by_rule:
        ++kept;
        if (d.tuned_worst_ratio <= d.kept_best_ratio)
          buf = text_printf("%s: kept %s: %s's worst ratio %.3f does not beat the kept best %.3f\n",
                        shape.c_str(), d.kept_config.c_str(), d.tuned_config.c_str(), d.tuned_worst_ratio,
                        d.kept_best_ratio);
        else
          buf = text_printf("%s: kept %s: %s's ratios win (%.3f > %.3f) but its fastest launch is slower "
                        "(%.4f ms > %.4f ms)\n",
                        shape.c_str(), d.kept_config.c_str(), d.tuned_config.c_str(), d.tuned_worst_ratio,
                        d.kept_best_ratio, d.tuned_min_ms, d.kept_min_ms);
        break;
      case MergeDecision::Outcome::undecided:
        ++undecided;
        buf = text_printf("%s: kept %s; %s undecided (no bench runs: --kept-runs, --tuned-runs)\n",
                      shape.c_str(), d.kept_config.c_str(), d.tuned_config.c_str());
        break;
    }
    out += buf;
  }
  buf = text_printf("%d added, %d taken, %d kept by the rule, %d undecided, %d the same; %d failures added; %zu entries\n",
                added, taken, kept, undecided, r.same, r.failures_added, r.cache.entries.size());
  return out + buf;
}

}  // namespace gemmscope::report
