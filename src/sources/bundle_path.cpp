// Bundle path rules (see bundle_path.hpp); dist_shared decision 3 and
// Hermes' `_normalize_bundle_path` (spec §2.14.5), stricter: a backslash is
// refused rather than turned into '/', so no name means two things.
#include "sources/bundle_path.hpp"

#include <cstdio>
#include <vector>

#include "core/util/utf8.hpp"

namespace skillrt::sources {

namespace {

constexpr std::size_t k_quote_max_bytes = 200;

bool is_control(unsigned char c) {
  return c < 0x20 || c == 0x7f;
}

Result<std::string> refuse(std::string_view raw, std::string_view rule) {
  return fail(ErrorCode::refused, entry_prefix(raw) + std::string(rule));
}

} // namespace

std::string quote_entry(std::string_view raw) {
  std::string out = "\"";
  const bool valid_utf8 = !core::find_invalid_utf8(raw).has_value();
  std::size_t taken = 0;
  for (const char ch : raw) {
    if (taken >= k_quote_max_bytes) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (is_control(c) || c == '"' || c == '\\' || (c >= 0x80 && !valid_utf8)) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
    ++taken;
  }
  out += '"';
  return out;
}

std::string entry_prefix(std::string_view raw) {
  return "bundle entry " + quote_entry(raw) + ": ";
}

Result<std::string> normalize_bundle_path(std::string_view raw, const BundleLimits& limits) {
  if (raw.empty()) {
    return refuse(raw, "the path is empty");
  }
  for (const char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == 0) {
      return refuse(raw, "the path holds a NUL byte");
    }
    if (is_control(c)) {
      return refuse(raw, "the path holds a control character");
    }
    if (c == '\\') {
      return refuse(raw, "the path holds a backslash");
    }
  }
  if (core::find_invalid_utf8(raw).has_value()) {
    return refuse(raw, "the path is not valid UTF-8");
  }
  if (raw.front() == '/') {
    return refuse(raw, "absolute paths are not allowed");
  }
  std::string normalized;
  std::size_t depth = 0;
  std::size_t start = 0;
  while (start <= raw.size()) {
    std::size_t end = raw.find('/', start);
    if (end == std::string_view::npos) {
      end = raw.size();
    }
    const std::string_view segment = raw.substr(start, end - start);
    start = end + 1;
    if (segment.empty() || segment == ".") {
      continue;
    }
    if (segment == "..") {
      return refuse(raw, "a \"..\" segment would leave the bundle");
    }
    if (segment.find(':') != std::string_view::npos) {
      return refuse(raw, "a path segment holds ':'");
    }
    if (!normalized.empty()) {
      normalized += '/';
    }
    normalized += segment;
    ++depth;
  }
  if (normalized.size() > limits.max_path_bytes) {
    return fail(ErrorCode::limit_exceeded,
                entry_prefix(raw) + "the path is longer than " + std::to_string(limits.max_path_bytes) + " bytes");
  }
  if (depth > limits.max_depth) {
    return fail(ErrorCode::limit_exceeded,
                entry_prefix(raw) + "the path is deeper than " + std::to_string(limits.max_depth) + " levels");
  }
  return normalized;
}

} // namespace skillrt::sources
