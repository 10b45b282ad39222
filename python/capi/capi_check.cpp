// The C ABI's differential check of a GEMM of your own (gemmscope_capi.h): the testing
// kit's random inputs, reference and bound (gemmscope/testing/reference.hpp), the same
// that gemmscope's own tests and `gemmscope check` hold its kernels to.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "capi_internal.hpp"
#include "gemmscope/testing/reference.hpp"

namespace {

namespace gt = gemmscope::testing;

// The problems the check takes: sizes of 1..2^31-1, and the reference's memory and time
// bounded; each refusal names the value and the rule. Inputs and comparison alike, so a
// shape is refused before its inputs are drawn.
void at_most(const char* what, int64_t product, int shift, const char* why) {
  if (product > (int64_t{1} << shift))
    throw std::invalid_argument(std::string(what) + " = " + std::to_string(product) + " must be at most 2^" +
                                std::to_string(shift) + " (" + why + ")");
}

gt::Shape checked_shape(int64_t m, int64_t n, int64_t k) {
  for (const auto& [name, v] : {std::pair{"M", m}, std::pair{"N", n}, std::pair{"K", k}})
    if (v < 1 || v > 2147483647)
      throw std::invalid_argument(std::string(name) + " = " + std::to_string(v) + " must be in 1..2^31-1");
  // Each size below 2^31: the products of two fit in 63 bits.
  at_most("M x K", m * k, 28, "A's elements");
  at_most("N x K", n * k, 28, "B's elements");
  at_most("M x N", m * n, 26, "the reference's elements, 16 bytes each");
  if (m * n > (int64_t{1} << 34) / k)
    throw std::invalid_argument("M x N x K = " + std::to_string(m) + " x " + std::to_string(n) + " x " +
                                std::to_string(k) +
                                " must be at most 2^34 multiply-adds (the double-precision reference's time)");
  return {m, n, k};
}

}  // namespace

extern "C" {

int gs_check_inputs(int64_t m, int64_t n, int64_t k, uint64_t seed, uint16_t* a, uint16_t* b) {
  return gemmscope::capi::guard([&] {
    const gt::Shape s = checked_shape(m, n, k);
    if (!a || !b) throw std::invalid_argument("a and b must be arrays of M x K and N x K elements");
    const gt::HostProblem p = gt::HostProblem::random(s, seed);
    std::copy(p.a.begin(), p.a.end(), a);
    std::copy(p.b.begin(), p.b.end(), b);
  });
}

int gs_check_compare(int64_t m, int64_t n, int64_t k, const uint16_t* a, const uint16_t* b, const uint16_t* c,
                     const char** json) {
  return gemmscope::capi::guard([&] {
    const gt::Shape s = checked_shape(m, n, k);
    if (!a || !b || !c) throw std::invalid_argument("a, b and c must be arrays of M x K, N x K and M x N elements");
    const gt::Comparison cmp = gt::compare(s, gt::reference_gemm(s, a, b), c);
    nlohmann::ordered_json j;
    j["ok"] = cmp.ok;
    j["normwise_rel_error"] = cmp.normwise_rel_error;
    j["worst_elementwise_ratio"] = cmp.worst_elementwise_ratio;
    j["bad_elements"] = cmp.bad_elements;
    j["nan_elements"] = cmp.nan_elements;
    j["first_bad_row"] = cmp.first_bad_row;
    j["first_bad_col"] = cmp.first_bad_col;
    j["summary"] = cmp.summary();
    gemmscope::capi::give(j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), json);
  });
}

}  // extern "C"
