#pragma once
// --shapes of bench and tune, the shapes argument of tune explain: a shape-set file (CSV
// "model,layer,m,n,k", e.g. bench/shapes/llm_projections.csv) when the value names an
// existing file, else a comma-separated list "MxNxK,...". Both refuse bad input naming
// the value; `option` is how the user gave it ("--shapes", or "shapes" for an argument).
#include <filesystem>
#include <string>
#include <vector>

#include "tune/shape_list.hpp"
#include "tune/shape_set.hpp"

namespace gemmscope::cli {

inline std::vector<tune::NamedShape> shapes_arg(const std::string& value, const std::string& option = "--shapes") {
  std::error_code ec;
  if (std::filesystem::is_regular_file(value, ec)) return tune::load_shape_set(value);
  if (value.find('/') != std::string::npos || value.ends_with(".csv"))
    throw std::invalid_argument(option + " '" + value + "': no such shape-set file");
  std::vector<tune::NamedShape> out;
  for (const auto& s : parse_shape_list(value)) out.push_back(tune::NamedShape{"", "", s.m, s.n, s.k});
  if (out.empty()) throw std::invalid_argument(option + " '" + value + "' names no file and lists no shape");
  return out;
}

inline std::string shape_label(const tune::NamedShape& s) {
  return s.model.empty() ? std::string() : s.model + "/" + s.layer;
}

}  // namespace gemmscope::cli
