# CPU-labelled check of the Blackwell kernel (needs nvcc, no GPU): its PTX holds the
# design's instructions, ptxas reports no spills and no local memory.
# Included from verify/CMakeLists.txt when kernels are built.
add_test(NAME sm100_ptx_check
         COMMAND ${PROJECT_SOURCE_DIR}/tools/check-sm100-ptx --nvcc ${CMAKE_CUDA_COMPILER}
                 --out ${CMAKE_BINARY_DIR}/kernels/sm100/ptx-check)
set_tests_properties(sm100_ptx_check PROPERTIES LABELS cpu TIMEOUT 600)
