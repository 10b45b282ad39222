#pragma once
// Errors a user can read: every model function that refuses an input throws
// ModelError with a message naming the field, the value and the limit.
#include <stdexcept>
#include <string>

namespace gemmscope::model {

class ModelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws ModelError("<field> = <value> <rule>") when cond is false.
inline void require(bool cond, const std::string& field, long long value, const std::string& rule) {
  if (!cond) throw ModelError(field + " = " + std::to_string(value) + " " + rule);
}

}  // namespace gemmscope::model
