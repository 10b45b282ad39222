// The registry of the ladder's recording builds (timeline/ladder_timeline.hpp): the
// library's launchers from sm90/ladder.hpp, the recording builds' from kNN_timeline.cu.
#include "timeline/ladder_timeline.hpp"

#include "sm90/ladder.hpp"

namespace gemmscope::sm90 {

void k06_timeline_fns(LadderTimeline& t);
void k07_timeline_fns(LadderTimeline& t);
void k08_timeline_fns(LadderTimeline& t);
void k09_timeline_fns(LadderTimeline& t);

namespace {
LadderTimeline entry(const char* name, std::string (*can_implement)(const GemmShape&, const GemmOperands&),
                     void (*launch_library)(const GemmShape&, const GemmOperands&, cudaStream_t),
                     void (*fns)(LadderTimeline&)) {
  LadderTimeline t;
  t.name = name;
  t.can_implement = can_implement;
  t.launch_library = launch_library;
  fns(t);
  return t;
}
}  // namespace

const std::vector<LadderTimeline>& ladder_timelines() {
  static const std::vector<LadderTimeline> list = {
      entry("k06", &k06::can_implement, &k06::launch, &k06_timeline_fns),
      entry("k07", &k07::can_implement, &k07::launch, &k07_timeline_fns),
      entry("k08", &k08::can_implement, &k08::launch, &k08_timeline_fns),
      entry("k09", &k09::can_implement, &k09::launch, &k09_timeline_fns),
  };
  return list;
}

const LadderTimeline& ladder_timeline(const std::string& name) {
  std::string names;
  for (const auto& t : ladder_timelines()) {
    if (t.name == name) return t;
    names += (names.empty() ? "" : ", ") + t.name;
  }
  throw GemmError("kernel " + name + " has no recording build; recorded: " + names + ", k10:<configuration>");
}

}  // namespace gemmscope::sm90
