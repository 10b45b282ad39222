// k07 with the timeline recorder compiled in (timeline/ladder_recorder.cuh).
#include "sm90/k07_epilogue_double_buffer.cu"
#include "timeline/ladder_recorder.cuh"
GEMMSCOPE_LADDER_RECORDER(k07)
