#include "core/util/text.hpp"
#include "core/view/name_check.hpp"

#include <cstddef>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_namespace_char(char c) {
  return is_ascii_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

} // namespace

bool has_traversal_component(std::string_view path) {
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find_first_of("/\\", begin);
    if (end == std::string_view::npos) {
      end = path.size();
    }
    if (path.substr(begin, end - begin) == "..") {
      return true;
    }
    begin = end + 1;
  }
  return false;
}

bool is_absolute_or_drive(std::string_view path) {
  if (path.empty()) {
    return false;
  }
  // A leading backslash is a rooted Windows path (or UNC share); Python only
  // rejects it with a drive, we reject it always since it never names a skill.
  if (path.front() == '/' || path.front() == '\\') {
    return true;
  }
  // `C:` / `C:\x` / `C:x`: a drive, which Python's PureWindowsPath reports.
  return path.size() >= 2 && is_ascii_letter(path[0]) && path[1] == ':';
}

ViewResult<std::string> check_skill_name(std::string_view raw) {
  if (raw.size() > limits::k_max_path_length) {
    return tl::unexpected(view_failure(
        ErrorCode::limit_exceeded, "Skill name is longer than " + std::to_string(limits::k_max_path_length) + " bytes.",
        std::string(k_lookup_hint)));
  }
  if (raw.find('\0') != std::string_view::npos) {
    return tl::unexpected(view_failure(ErrorCode::invalid_argument, "Skill name must not contain NUL characters.",
                                       std::string(k_lookup_hint)));
  }
  const std::string_view name = trim_ascii_space(raw);
  if (name.empty()) {
    return tl::unexpected(
        view_failure(ErrorCode::invalid_argument, "Skill name must not be empty.", std::string(k_lookup_hint)));
  }
  if (is_absolute_or_drive(name)) {
    return tl::unexpected(view_failure(ErrorCode::invalid_argument,
                                       "Skill name must be a relative path within the skills directory.",
                                       std::string(k_lookup_hint)));
  }
  if (has_traversal_component(name)) {
    return tl::unexpected(view_failure(ErrorCode::invalid_argument,
                                       "Skill name cannot contain '..' path traversal components.",
                                       std::string(k_lookup_hint)));
  }
  return std::string(name);
}

ViewResult<std::optional<std::string>> namespace_alias(std::string_view name) {
  const std::size_t colon = name.find(':');
  if (colon == std::string_view::npos) {
    return std::optional<std::string>{};
  }
  const std::string_view ns = name.substr(0, colon);
  const std::string_view bare = name.substr(colon + 1);
  bool valid = !ns.empty();
  for (const char c : ns) {
    valid = valid && is_namespace_char(c);
  }
  if (!valid) {
    return tl::unexpected(view_failure(ErrorCode::invalid_argument, "Invalid namespace '" + std::string(ns) + "' in '" +
                                                                        std::string(name) +
                                                                        "'. Namespaces must match [a-zA-Z0-9_-]+."));
  }
  if (bare.empty()) {
    return std::optional<std::string>{};
  }
  const std::string alias = std::string(ns) + "/" + std::string(bare);
  auto checked = check_skill_name(alias);
  if (!checked) {
    return tl::unexpected(std::move(checked.error()));
  }
  return std::optional<std::string>(std::move(*checked));
}

} // namespace skillrt::core
