#include "core/validate/skill_name.hpp"

#include <string>

#include "core/limits.hpp"
#include "core/util/text.hpp"
#include "core/validate/name_rules.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

Result<std::string_view> check_lookup(std::string_view raw) {
  if (raw.size() > limits::k_max_path_length) {
    return fail(ErrorCode::limit_exceeded,
                "Skill name is longer than " + std::to_string(limits::k_max_path_length) + " bytes.");
  }
  if (raw.find('\0') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, "Skill name must not contain NUL characters.");
  }
  const std::string_view name = trim_ascii_space(raw);
  if (name.empty()) {
    return fail(ErrorCode::invalid_argument, "Skill name must not be empty.");
  }
  if (is_absolute_or_drive(name)) {
    return fail(ErrorCode::invalid_argument, "Skill name must be a relative path within the skills directory.");
  }
  if (has_traversal_component(name)) {
    return fail(ErrorCode::invalid_argument, "Skill name cannot contain '..' path traversal components.");
  }
  return name;
}

Result<std::string_view> check_create(std::string_view name) {
  if (name.empty()) {
    return fail(ErrorCode::invalid_argument, "Skill name is required.");
  }
  if (name.size() > limits::k_max_name_length) {
    return fail(ErrorCode::invalid_argument,
                "Skill name exceeds " + std::to_string(limits::k_max_name_length) + " characters.");
  }
  if (!is_hermes_name(name)) {
    return fail(ErrorCode::invalid_argument,
                "Invalid skill name '" + sanitize_utf8(name) +
                    "'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or "
                    "digit.");
  }
  return name;
}

Result<std::string_view> check_install(std::string_view name) {
  if (name.size() > limits::k_max_name_length) {
    return fail(ErrorCode::invalid_argument,
                "skill name is longer than " + std::to_string(limits::k_max_name_length) + " bytes");
  }
  if (name.find('/') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, "skill name '" + std::string(name) + "' must be a single path segment");
  }
  if (auto ok = check_name_segment(name, "skill name"); !ok) {
    return tl::unexpected(std::move(ok.error()));
  }
  return name;
}

} // namespace

Result<std::string_view> check_skill_name(std::string_view name, SkillNameRule rule) {
  switch (rule) {
  case SkillNameRule::lookup:
    return check_lookup(name);
  case SkillNameRule::create:
    return check_create(name);
  case SkillNameRule::install:
    return check_install(name);
  }
  return fail(ErrorCode::internal, "unknown skill-name rule");
}

Result<void> check_name_segment(std::string_view segment, std::string_view what) {
  const std::string shown = "'" + std::string(segment) + "'";
  if (segment.empty()) {
    return fail(ErrorCode::invalid_argument, std::string(what) + " has an empty path segment");
  }
  if (segment == "." || segment == "..") {
    return fail(ErrorCode::invalid_argument, std::string(what) + " may not contain the segment " + shown);
  }
  if (segment.front() == '.') {
    return fail(ErrorCode::invalid_argument,
                std::string(what) + " segment " + shown + " starts with '.' (dot folders are never skills)");
  }
  for (const char c : segment) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == '\\' || c == ':' || u < 0x20 || u == 0x7f) {
      return fail(ErrorCode::invalid_argument,
                  std::string(what) + " segment " + shown + " contains a '/', '\\', ':' or control character");
    }
  }
  return {};
}

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

} // namespace skillrt::core
