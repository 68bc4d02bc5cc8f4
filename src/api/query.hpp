// The parts of a request target: the path split into decoded segments and the
// query string into decoded name=value pairs. Percent-decoding is strict: a
// '%' not followed by two hex digits, an encoded NUL or bytes that are not
// UTF-8 are refused, so a handler never sees text the client did not mean.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::api {

// "%2F" → "/"; with `plus_is_space` (query strings) '+' → ' '.
Result<std::string> percent_decode(std::string_view text, bool plus_is_space);

// "/api/v1/skills/a%20b" → {"api", "v1", "skills", "a b"}. Empty segments
// (a doubled or trailing '/') are refused: no route has one.
Result<std::vector<std::string>> path_segments(std::string_view path);

class Query {
 public:
  // "a=1&b=x%20y&flag" → {a: "1", b: "x y", flag: ""}. A name given twice is
  // refused: a filter must not silently mean the first or the last of two.
  static Result<Query> parse(std::string_view query);

  std::optional<std::string> get(const std::string& name) const;
  // A non-negative integer parameter: `fallback` when absent; an error naming
  // the parameter when it is not a number or lies outside [0, max].
  Result<std::size_t> number(const std::string& name, std::size_t fallback, std::size_t max) const;
  // true for "true"/"1"/"" (a bare flag), false for "false"/"0", `fallback` when absent.
  Result<bool> flag(const std::string& name, bool fallback) const;
  const std::map<std::string, std::string>& values() const { return m_values; }

 private:
  std::map<std::string, std::string> m_values;
};

}  // namespace skillrt::api
