#pragma once
// The descriptors' JSON: one object per decoded word, the one `gemmscope desc decode
// --json`, `gemmscope idesc decode --json` and the Python package (desc_decode,
// idesc_decode) print. Compact (no spaces), keys in the order below; the values are
// numbers, booleans and the model's own names ("128B", "relative", "bf16", "MN").
#include <string>

#include "gemmscope/model/desc_sm100.hpp"
#include "gemmscope/model/desc_sm90.hpp"
#include "gemmscope/model/idesc_sm100.hpp"

namespace gemmscope::model {

// {"start_address", "lbo_bytes", "sbo_bytes", "base_offset", "swizzle"}
std::string to_json(const SmemDescriptorSm90& d);
// sm90's keys, then "version" and "lbo_mode".
std::string to_json(const SmemDescriptorSm100& d);
// {"m", "n", "d", "a", "b", "a_major", "b_major", "negate_a", "negate_b", "sparse",
//  "sparsity_selector", "saturate", "max_shift", "valid_cta_group_1",
//  "valid_cta_group_2"}: the fields, then whether validate(1) and validate(2) accept it.
std::string to_json(const InstrDescriptorSm100& d);

}  // namespace gemmscope::model
