#pragma once
// The timeline tests' shared words: one recorded event written by hand, the documented
// codes, a small consistent run, and the message a decode throws (traces/timeline.hpp
// documents the layout).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gemmscope/traces/timeline.hpp"

namespace timeline_words {

using gemmscope::traces::TimelineError;

// One event, 8 words: kind | role << 8 | warpgroup << 12 | stage << 16 | barrier << 24,
// CTA, SM, m0, n0, time low, time high, clock.
inline void put(std::vector<uint32_t>& w, uint32_t kind, uint32_t role, uint32_t wg, uint32_t stage, uint32_t barrier,
         uint32_t cta, uint32_t sm, int32_t m0, int32_t n0, uint64_t ns) {
  w.insert(w.end(), {kind | role << 8 | wg << 12 | stage << 16 | barrier << 24, cta, sm, static_cast<uint32_t>(m0),
                     static_cast<uint32_t>(n0), static_cast<uint32_t>(ns), static_cast<uint32_t>(ns >> 32), 7u});
}
// Kinds, roles and barriers by their documented codes.
constexpr uint32_t kWaitBegin = 1, kWaitEnd = 2, kTma = 3, kTileBegin = 6, kTileEnd = 7, kEpiBegin = 8, kEpiEnd = 9;
constexpr uint32_t kProducer = 0, kMainloop = 1, kEpilogue = 3;
constexpr uint32_t kFull = 1, kEmpty = 2;

// A producer on SM 3 (CTA 0): tile (0,0) from 1000 ns to 5000 ns, a wait on empty
// 1000-3000, a TMA issue at 3000; consumer 0's tile 2000-6000 with a wait on full
// 2000-2500; its epilogue 6000-7000.
inline std::vector<uint32_t> small_run() {
  std::vector<uint32_t> w;
  put(w, kTileBegin, kProducer, 0, 0, 0, 0, 3, 0, 0, 1000);
  put(w, kWaitBegin, kProducer, 0, 1, kEmpty, 0, 3, 0, 0, 1000);
  put(w, kTileBegin, kMainloop, 0, 0, 0, 0, 3, 0, 0, 2000);
  put(w, kWaitBegin, kMainloop, 0, 1, kFull, 0, 3, 0, 0, 2000);
  put(w, kWaitEnd, kMainloop, 0, 1, kFull, 0, 3, 0, 0, 2500);
  put(w, kWaitEnd, kProducer, 0, 1, kEmpty, 0, 3, 0, 0, 3000);
  put(w, kTma, kProducer, 0, 1, 0, 0, 3, 0, 0, 3000);
  put(w, kTileEnd, kProducer, 0, 0, 0, 0, 3, 0, 0, 5000);
  put(w, kTileEnd, kMainloop, 0, 0, 0, 0, 3, 0, 0, 6000);
  put(w, kEpiBegin, kEpilogue, 0, 0, 0, 0, 3, 0, 0, 6000);
  put(w, kEpiEnd, kEpilogue, 0, 0, 0, 0, 3, 0, 0, 7000);
  return w;
}

inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TimelineError& e) {
    return e.what();
  }
  return "";
}

}  // namespace timeline_words
