#include "gemmscope/model/descriptor_json.hpp"

#include <cstdint>
#include <string_view>

#include "gemmscope/model/error.hpp"

namespace gemmscope::model {
namespace {

// A flat JSON object, written field by field. The strings are the model's own names
// (letters, digits, '-'), so only '"', '\' and control bytes would need escaping; they
// are escaped all the same.
class JsonObject {
 public:
  JsonObject& field(std::string_view key, uint64_t value) {
    open(key);
    text_ += std::to_string(value);
    return *this;
  }
  JsonObject& field(std::string_view key, bool value) {
    open(key);
    text_ += value ? "true" : "false";
    return *this;
  }
  JsonObject& field(std::string_view key, std::string_view value) {
    open(key);
    quoted(value);
    return *this;
  }
  std::string close() { return text_ + "}"; }

 private:
  void open(std::string_view key) {
    text_ += text_.size() == 1 ? "" : ",";
    quoted(key);
    text_ += ':';
  }
  void quoted(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    text_ += '"';
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '"' || c == '\\') {
        text_ += '\\';
        text_ += ch;
      } else if (c < 0x20) {
        text_ += "\\u00";
        text_ += kHex[c >> 4];
        text_ += kHex[c & 15];
      } else {
        text_ += ch;
      }
    }
    text_ += '"';
  }
  std::string text_ = "{";
};

template <class Desc>
JsonObject common_fields(const Desc& d) {
  JsonObject j;
  j.field("start_address", uint64_t{d.start_address_bytes})
      .field("lbo_bytes", uint64_t{d.lbo_bytes})
      .field("sbo_bytes", uint64_t{d.sbo_bytes})
      .field("base_offset", uint64_t{d.base_offset})
      .field("swizzle", to_string(d.swizzle));
  return j;
}

bool valid_for(const InstrDescriptorSm100& d, int cta_group) {
  try {
    d.validate(cta_group);
    return true;
  } catch (const ModelError&) {
    return false;
  }
}

}  // namespace

std::string to_json(const SmemDescriptorSm90& d) { return common_fields(d).close(); }

std::string to_json(const SmemDescriptorSm100& d) {
  return common_fields(d).field("version", uint64_t{d.version}).field("lbo_mode", to_string(d.lbo_mode)).close();
}

std::string to_json(const InstrDescriptorSm100& d) {
  JsonObject j;
  j.field("m", uint64_t{d.m})
      .field("n", uint64_t{d.n})
      .field("d", to_string(d.d_type))
      .field("a", to_string(d.a_type))
      .field("b", to_string(d.b_type))
      .field("a_major", to_string(d.a_major))
      .field("b_major", to_string(d.b_major))
      .field("negate_a", d.negate_a)
      .field("negate_b", d.negate_b)
      .field("sparse", d.sparse)
      .field("sparsity_selector", uint64_t{d.sparsity_selector})
      .field("saturate", d.saturate)
      .field("max_shift", uint64_t{d.max_shift})
      .field("valid_cta_group_1", valid_for(d, 1))
      .field("valid_cta_group_2", valid_for(d, 2));
  return j.close();
}

}  // namespace gemmscope::model
