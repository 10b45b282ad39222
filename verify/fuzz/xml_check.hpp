#pragma once
// Is an SVG the writers' own XML, whatever text from outside it carries? A small
// checker for the tests and fuzzers of the SVG writers (ladder chart, timelines):
// tags nest and close, names are plain, attribute values are quoted and hold no '<',
// every '&' starts one of the five XML entities, text holds no '<' or '>', and no
// control character other than tab and newline appears. Returns an empty string, or
// what is wrong and where. Not a general XML parser: no comments, CDATA or
// processing instructions (the writers write none).
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope::testing {

inline std::string xml_problem(std::string_view s) {
  std::vector<std::string> open;
  auto at = [&](size_t i, const std::string& what) { return what + " at byte " + std::to_string(i); };
  auto entity_ok = [&](size_t i) {
    for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"})
      if (s.substr(i, std::char_traits<char>::length(e)) == e) return true;
    return false;
  };
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '_'; };
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') return at(i, "a control character");
    if (c == '>') return at(i, "'>' outside a tag");
    if (c == '&') {
      if (!entity_ok(i)) return at(i, "'&' that starts no entity");
      ++i;
      continue;
    }
    if (c != '<') {
      ++i;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < s.size() && name_char(s[j])) ++j;
    if (j == name_start) return at(i, "a tag without a name");
    const std::string name(s.substr(name_start, j - name_start));
    if (closing) {
      if (j >= s.size() || s[j] != '>') return at(j, "a closing tag not ended by '>'");
      if (open.empty() || open.back() != name) return at(i, "</" + name + "> closes no open <" + name + ">");
      open.pop_back();
      i = j + 1;
      continue;
    }
    for (;;) {  // attributes
      while (j < s.size() && s[j] == ' ') ++j;
      if (j >= s.size()) return at(j, "a tag left open");
      if (s[j] == '>') {
        open.push_back(name);
        ++j;
        break;
      }
      if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '>') {
        j += 2;
        break;
      }
      const size_t attr_start = j;
      while (j < s.size() && name_char(s[j])) ++j;
      if (j == attr_start || j >= s.size() || s[j] != '=' || j + 1 >= s.size() || s[j + 1] != '"')
        return at(j, "an attribute not written name=\"value\"");
      j += 2;
      while (j < s.size() && s[j] != '"') {
        if (s[j] == '<') return at(j, "'<' in an attribute value");
        if (s[j] == '&' && !entity_ok(j)) return at(j, "'&' that starts no entity in an attribute value");
        if (static_cast<unsigned char>(s[j]) < 0x20 && s[j] != '\t') return at(j, "a control character in an attribute");
        ++j;
      }
      if (j >= s.size()) return at(j, "an attribute value left open");
      ++j;
    }
    i = j;
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return {};
}

}  // namespace gemmscope::testing
