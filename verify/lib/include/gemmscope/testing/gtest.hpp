#pragma once
// GoogleTest helpers for GPU tests: a test that needs a GPU reports SKIPPED, never
// passed, where none is usable, and prints GEMMSCOPE_NO_GPU so that ctest can count it
// as skipped too (set_tests_properties(... SKIP_REGULAR_EXPRESSION "GEMMSCOPE_NO_GPU")).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "gemmscope/testing/differential.hpp"

namespace gemmscope::testing {

inline bool need_gpu() {
  std::string why;
  if (gpu_available(&why)) return true;
  std::printf("GEMMSCOPE_NO_GPU: %s\n", why.c_str());
  return false;
}

}  // namespace gemmscope::testing

#define GEMMSCOPE_REQUIRE_GPU()                                          \
  do {                                                                   \
    if (!::gemmscope::testing::need_gpu()) GTEST_SKIP() << "no usable GPU"; \
  } while (0)
