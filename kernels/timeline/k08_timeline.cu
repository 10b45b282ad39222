// k08 with the timeline recorder compiled in (timeline/ladder_recorder.cuh).
#include "sm90/k08_persistent.cu"
#include "timeline/ladder_recorder.cuh"
GEMMSCOPE_LADDER_RECORDER(k08)
