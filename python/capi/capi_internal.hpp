#pragma once
// What the C ABI's source files share: the per-thread error message and result
// buffer, and the guard that turns a library exception into a status.
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gemmscope_capi.h"

namespace gemmscope::capi {

// The message gs_last_error() returns.
std::string& error_text();
// Keeps `text` in the per-thread result buffer; *out (when given) points at it.
const char* give(std::string text, const char** out);

// Runs f; a refused input (std::invalid_argument: ModelError, TraceError, GemmError)
// is GS_INVALID, any other exception GS_FAILED, each with its message. f may return
// a status of its own (GS_SHORT).
template <class F>
int guard(F&& f) noexcept {
  try {
    if constexpr (std::is_same_v<std::invoke_result_t<F>, int>) {
      return f();
    } else {
      f();
      return GS_OK;
    }
  } catch (const std::invalid_argument& e) {
    error_text() = e.what();
    return GS_INVALID;
  } catch (const std::exception& e) {
    error_text() = e.what();
    return GS_FAILED;
  } catch (...) {
    error_text() = "unknown C++ exception";
    return GS_FAILED;
  }
}

}  // namespace gemmscope::capi
