#include "core/manage/file_path_rules.hpp"

#include <algorithm>
#include <array>
#include <system_error>

#include "core/limits.hpp"
#include "core/files/containment.hpp"
#include "core/view/name_check.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

constexpr std::array<std::string_view, 4> k_allowed_subdirs = {"references", "templates", "scripts", "assets"};

std::vector<std::string> components_of(std::string_view path) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : path) {
    if (c == '/') {
      if (!current.empty() && current != ".") {
        parts.push_back(current);
      }
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  if (!current.empty() && current != ".") {
    parts.push_back(current);
  }
  return parts;
}

std::string allowed_list() {
  std::string out;
  for (std::string_view dir : k_allowed_subdirs) {
    out += (out.empty() ? "" : ", ") + std::string(dir);
  }
  return out;
}

} // namespace

bool is_allowed_manage_subdir(std::string_view name) {
  return std::find(k_allowed_subdirs.begin(), k_allowed_subdirs.end(), name) != k_allowed_subdirs.end();
}

Result<ManagedFilePath> check_manage_file_path(std::string_view file_path) {
  if (file_path.empty()) {
    return fail(ErrorCode::invalid_argument, "file_path is required.");
  }
  if (file_path.size() > limits::k_max_path_length) {
    return fail(ErrorCode::limit_exceeded,
                "file_path is longer than " + std::to_string(limits::k_max_path_length) + " bytes.");
  }
  if (file_path.find('\0') != std::string_view::npos) {
    return fail(ErrorCode::invalid_argument, "file_path must not contain NUL characters.");
  }
  if (has_traversal_component(file_path)) {
    return fail(ErrorCode::invalid_argument, "Path traversal ('..') is not allowed.");
  }
  if (is_absolute_or_drive(file_path)) {
    return fail(ErrorCode::invalid_argument,
                "file_path must be relative to the skill directory, e.g. 'references/myfile.md'. Got: '" +
                    sanitize_utf8(file_path) + "'");
  }
  const std::vector<std::string> parts = components_of(file_path);
  if (parts.empty()) {
    return fail(ErrorCode::invalid_argument, "file_path is required.");
  }
  if (parts.back() == "SKILL.md" && parts.size() <= 2) {
    return ManagedFilePath{"SKILL.md", true};
  }
  if (!is_allowed_manage_subdir(parts.front())) {
    return fail(ErrorCode::invalid_argument,
                "File must be under one of: " + allowed_list() + ". Got: '" + sanitize_utf8(file_path) + "'");
  }
  if (parts.size() < 2) {
    return fail(ErrorCode::invalid_argument,
                "Provide a file path, not just a directory. Example: 'references/myfile.md'");
  }
  std::string rel;
  for (const std::string& part : parts) {
    rel += (rel.empty() ? "" : "/") + part;
  }
  return ManagedFilePath{rel, false};
}

Result<fs::path> resolve_inside_skill(const fs::path& skill_dir, const std::string& rel) {
  // The one containment rule (core/util/containment): every existing link on
  // the way, the file's or a parent folder's, is resolved before the check.
  auto resolved = resolve_inside(skill_dir, rel);
  if (!resolved && resolved.error().code != ErrorCode::refused) {
    return fail(ErrorCode::io_error, "Cannot resolve skill directory: " + resolved.error().message);
  }
  // The skill folder itself is no file to write.
  std::error_code ec;
  if (!resolved || *resolved == fs::canonical(skill_dir, ec)) {
    return fail(ErrorCode::refused, "Path '" + sanitize_utf8(rel) + "' escapes the skill directory.");
  }
  return resolved;
}

std::vector<std::string> files_in_allowed_subdirs(const fs::path& skill_dir) {
  std::vector<std::string> files;
  for (std::string_view sub : k_allowed_subdirs) {
    std::error_code ec;
    const fs::path dir = skill_dir / sub;
    if (!fs::is_directory(dir, ec)) {
      continue;
    }
    // Not following symlinked folders: a listing must not leave the skill.
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
      if (files.size() >= limits::k_max_linked_files) {
        break;
      }
      std::error_code type_ec;
      if (it->is_regular_file(type_ec) && !it->is_symlink(type_ec)) {
        files.push_back(it->path().lexically_relative(skill_dir).generic_string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace skillrt::core
