#include "tune/shipped.hpp"

namespace gemmscope::tune {

std::string driver_major(std::string_view driver) { return std::string(driver.substr(0, driver.find('.'))); }

TuneCache shipped_entries_for(const TuneKey& here) {
  TuneCache usable;
  const std::string major = driver_major(here.driver);
  for (const ShippedCache& shipped : shipped_caches()) {
    const TuneCache cache = parse_tune_cache(shipped.json, "shipped tuning cache " + std::string(shipped.name));
    for (TuneEntry e : cache.entries) {
      if (e.key.gpu != here.gpu || e.key.cuda != here.cuda || e.key.kernel_version != here.kernel_version ||
          driver_major(e.key.driver) != major)
        continue;
      e.key.driver = here.driver;
      // Two shipped caches (or two driver minors in one) with the same shape: the first wins.
      TuneKey key = e.key;
      if (!usable.find(key)) usable.upsert(e);
    }
  }
  return usable;
}

}  // namespace gemmscope::tune
