# The Blackwell probes (sm100_*.cu): compiled for sm_100a only, as objects of their
# own, linked into gemmscope_probes. Their host side (sm100_probes.cpp) builds with
# the other probes; `gemmscope probe --arch sm100` runs them and skips, with the
# reason, on any GPU but sm_100.
add_library(gemmscope_probes_sm100 OBJECT ${GEMMSCOPE_PROBE_SM100_SOURCES})
target_include_directories(gemmscope_probes_sm100 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/..)
target_link_libraries(gemmscope_probes_sm100 PRIVATE gemmscope::model gemmscope_traces CUDA::cudart_static)
target_compile_options(gemmscope_probes_sm100 PRIVATE
  $<$<COMPILE_LANGUAGE:CUDA>:${GEMMSCOPE_SM100_GENCODE} --expt-relaxed-constexpr -lineinfo>)
set_target_properties(gemmscope_probes_sm100 PROPERTIES CUDA_SEPARABLE_COMPILATION OFF POSITION_INDEPENDENT_CODE ON)
target_sources(gemmscope_probes PRIVATE $<TARGET_OBJECTS:gemmscope_probes_sm100>)
