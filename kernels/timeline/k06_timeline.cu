// k06 with the timeline recorder compiled in (timeline/ladder_recorder.cuh).
#include "sm90/k06_warp_specialized.cu"
#include "timeline/ladder_recorder.cuh"
GEMMSCOPE_LADDER_RECORDER(k06)
