#pragma once
// JSON as the traces library's readers take it (trace lines, golden traces): a key
// given twice in one object is refused (nlohmann's parser keeps the last silently,
// so `"cta": 1, "cta": 2` would read as CTA 2), and so is nesting deeper than the
// format has. Private to traces/src.
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace gemmscope::traces::detail {

// A refusal of the rules above; json::exception for malformed text.
struct StrictJsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline nlohmann::json parse_strict_json(std::string_view text, int max_depth) {
  using nlohmann::json;
  std::vector<std::set<std::string>> open_objects;
  const json::parser_callback_t check = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth > max_depth)
      throw StrictJsonError("nesting deeper than " + std::to_string(max_depth) + " levels");
    if (event == json::parse_event_t::object_start) {
      open_objects.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!open_objects.empty()) open_objects.pop_back();
    } else if (event == json::parse_event_t::key && !open_objects.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open_objects.back().insert(key).second) {
        std::string shown;
        for (const char c : key.substr(0, 40))
          shown += (static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) ? c : '?';
        throw StrictJsonError("key \"" + shown + "\" is given twice in one object");
      }
    }
    return true;
  };
  return json::parse(text.begin(), text.end(), check);
}

}  // namespace gemmscope::traces::detail
