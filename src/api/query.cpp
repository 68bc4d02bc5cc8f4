#include "api/query.hpp"

#include <algorithm>
#include <charconv>

#include "core/util/percent_encoding.hpp"
#include "core/util/utf8.hpp"
#include "skillrt/try.hpp"

namespace skillrt::api {

Result<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  std::optional<std::string> out = core::percent_decode(text, plus_is_space);
  if (!out) {
    return fail(ErrorCode::invalid_argument, "malformed percent-encoding in the request target");
  }
  if (out->find('\0') != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "an encoded NUL (%00) in the request target");
  }
  if (core::find_invalid_utf8(*out)) {
    return fail(ErrorCode::invalid_argument, "the request target does not decode to UTF-8 text");
  }
  return std::move(*out);
}

Result<std::vector<std::string>> path_segments(std::string_view path) {
  std::vector<std::string> segments;
  if (path.empty() || path.front() != '/') {
    return fail(ErrorCode::invalid_argument, "the request path must start with '/'");
  }
  std::size_t start = 1;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (end == start) {
      return fail(ErrorCode::invalid_argument, "empty segment in the request path");
    }
    SKILLRT_TRY_ASSIGN(std::string segment, percent_decode(path.substr(start, end - start), false));
    segments.push_back(std::move(segment));
    start = end + 1;
  }
  return segments;
}

Result<Query> Query::parse(std::string_view query) {
  Query parsed;
  std::size_t start = 0;
  while (start < query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string_view pair = query.substr(start, end - start);
    start = end + 1;
    if (pair.empty()) {
      continue;
    }
    const std::size_t equals = pair.find('=');
    SKILLRT_TRY_ASSIGN(std::string name, percent_decode(pair.substr(0, equals), true));
    std::string value;
    if (equals != std::string_view::npos) {
      SKILLRT_TRY_ASSIGN(value, percent_decode(pair.substr(equals + 1), true));
    }
    if (!parsed.m_values.emplace(name, std::move(value)).second) {
      return fail(ErrorCode::invalid_argument, "query parameter '" + name + "' is given more than once");
    }
  }
  return parsed;
}

std::optional<std::string> Query::get(const std::string& name) const {
  const auto found = m_values.find(name);
  if (found == m_values.end()) {
    return std::nullopt;
  }
  return found->second;
}

Result<std::size_t> Query::number(const std::string& name, std::size_t fallback, std::size_t max) const {
  const auto text = get(name);
  if (!text) {
    return fallback;
  }
  std::size_t value = 0;
  const char* first = text->data();
  const char* last = first + text->size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (text->empty() || ec != std::errc{} || end != last || value > max) {
    return fail(ErrorCode::invalid_argument,
                "query parameter '" + name + "' must be a whole number from 0 to " + std::to_string(max));
  }
  return value;
}

Result<bool> Query::flag(const std::string& name, bool fallback) const {
  const auto text = get(name);
  if (!text) {
    return fallback;
  }
  if (*text == "true" || *text == "1" || text->empty()) {
    return true;
  }
  if (*text == "false" || *text == "0") {
    return false;
  }
  return fail(ErrorCode::invalid_argument, "query parameter '" + name + "' must be true or false");
}

}  // namespace skillrt::api
