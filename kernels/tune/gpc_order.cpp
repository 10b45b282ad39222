// GPC-grouped tile orders (tune/gpc_order.hpp).
#include "tune/gpc_order.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gemmscope::tune {

std::vector<uint32_t> gpc_grouped_order(const std::vector<int>& worker_gpc, int64_t units) {
  if (worker_gpc.empty()) throw std::invalid_argument("gpc_grouped_order: no workers");
  if (units < 0 || units > int64_t{UINT32_MAX})
    throw std::invalid_argument("gpc_grouped_order: units = " + std::to_string(units) + " must be 0.." +
                                std::to_string(UINT32_MAX));
  const int64_t workers = static_cast<int64_t>(worker_gpc.size());
  // Workers sorted by (GPC, worker): the order in which a round's units are dealt.
  std::vector<uint32_t> by_gpc(worker_gpc.size());
  std::iota(by_gpc.begin(), by_gpc.end(), 0u);
  std::stable_sort(by_gpc.begin(), by_gpc.end(),
                   [&](uint32_t a, uint32_t b) { return worker_gpc[a] < worker_gpc[b]; });
  std::vector<uint32_t> order(static_cast<size_t>(units));
  for (int64_t round = 0; round * workers < units; ++round) {
    const int64_t base = round * workers, here = std::min(workers, units - base);
    // The last round's units go to workers 0 .. here-1 (the static schedule's), still
    // dealt in GPC order among them.
    int64_t next = 0;
    for (const uint32_t w : by_gpc)
      if (w < here) order[static_cast<size_t>(base + w)] = static_cast<uint32_t>(base + next++);
  }
  return order;
}

}  // namespace gemmscope::tune
