# add_subdirectory(model) from an outside project that has no version and sets no C++
# standard of its own (`project(consumer LANGUAGES CXX)`): a tiny program against
# gemmscope::model, configured, built and run in a scratch folder. Run by ctest
# (verify/CMakeLists.txt):
#   cmake -DSOURCE=<gemmscope tree> -DWORK=<scratch folder> [-DGENERATOR=<g>] [-DCXX=<c++>] \
#         -P model_consumer_test.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/src)
file(WRITE ${WORK}/src/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES CXX)
add_subdirectory(${SOURCE}/model gemmscope-model)
add_executable(consumer main.cpp)
target_link_libraries(consumer PRIVATE gemmscope::model)
")
# The 128B swizzle moves byte 16 of row 1 (address 144) to chunk 0 of that row (128).
file(WRITE ${WORK}/src/main.cpp "#include <cstdio>
#include \"gemmscope/model/swizzle.hpp\"
int main() {
  namespace model = gemmscope::model;
  std::printf(\"%llu\\n\", static_cast<unsigned long long>(model::swizzle_address(model::SwizzleMode::B128, 144)));
}
")
set(options)
if(GENERATOR)
  list(APPEND options -G ${GENERATOR})
endif()
if(CXX)
  list(APPEND options -DCMAKE_CXX_COMPILER=${CXX})
endif()
function(step what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "model consumer: ${what} failed (${rc}):\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
step(configure ${CMAKE_COMMAND} -S src -B build ${options})
step(build ${CMAKE_COMMAND} --build build --target consumer -j 2)
step(run ${WORK}/build/consumer)
if(NOT out STREQUAL "128\n")
  message(FATAL_ERROR "model consumer: printed '${out}', expected 128")
endif()
message(STATUS "model consumer: configured, built and ran without a version of its own")
