// k09 with the timeline recorder compiled in (timeline/ladder_recorder.cuh).
#include "sm90/k09_block_swizzle.cu"
#include "timeline/ladder_recorder.cuh"
GEMMSCOPE_LADDER_RECORDER(k09)
