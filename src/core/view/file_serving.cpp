#include "core/view/file_serving.hpp"

#include <system_error>

#include "core/limits.hpp"
#include "core/files/containment.hpp"
#include "core/files/read_file.hpp"
#include "core/view/linked_files.hpp"
#include "core/view/name_check.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

ViewFailure path_failure(ErrorCode code, std::string message) {
  return view_failure(code, std::move(message), std::string(k_file_path_hint));
}


// Python's Path.suffix: "" for dot-files and for a trailing dot.
std::string suffix_of(const fs::path& path) {
  std::string ext = path.extension().string();
  return ext == "." ? std::string() : ext;
}

} // namespace

ViewResult<std::string> check_file_path(std::string_view file_path) {
  if (file_path.size() > limits::k_max_path_length) {
    return tl::unexpected(
        path_failure(ErrorCode::limit_exceeded,
                     "File path is longer than " + std::to_string(limits::k_max_path_length) + " bytes."));
  }
  if (file_path.find('\0') != std::string_view::npos) {
    return tl::unexpected(path_failure(ErrorCode::invalid_argument, "File path must not contain NUL characters."));
  }
  if (file_path.empty()) {
    return tl::unexpected(path_failure(ErrorCode::invalid_argument, "File path must not be empty."));
  }
  if (has_traversal_component(file_path)) {
    return tl::unexpected(path_failure(ErrorCode::invalid_argument, "Path traversal ('..') is not allowed."));
  }
  if (is_absolute_or_drive(file_path)) {
    return tl::unexpected(
        path_failure(ErrorCode::refused, "Path '" + std::string(file_path) + "' escapes the skill directory."));
  }
  return std::string(file_path);
}

ViewResult<ServedFile> serve_skill_file(const fs::path& skill_dir, std::string_view file_path, std::string_view label) {
  auto checked = check_file_path(file_path);
  if (!checked) {
    return tl::unexpected(std::move(checked.error()));
  }
  const fs::path target = skill_dir / *checked;
  // The one containment rule (core/util/containment): a link inside the skill
  // pointing outside it is refused before anything is opened.
  auto inside = resolve_inside(skill_dir, *checked);
  if (!inside) {
    if (inside.error().code != ErrorCode::refused) {
      return tl::unexpected(view_failure(ErrorCode::io_error, "Cannot resolve the skill directory: " +
                                                                  inside.error().message));
    }
    return tl::unexpected(path_failure(ErrorCode::refused, "Path '" + *checked + "' escapes the skill directory."));
  }
  const fs::path& resolved = *inside;
  std::error_code ec;
  const std::string requested(file_path);
  auto not_found = [&]() {
    ViewFailure failure =
        view_failure(ErrorCode::not_found, "File '" + requested + "' not found in skill '" + std::string(label) + "'.");
    failure.available_files = available_skill_files(skill_dir);
    failure.hint = std::string(k_available_files_hint);
    return tl::unexpected(std::move(failure));
  };
  if (!fs::is_regular_file(resolved, ec) || ec) {
    return not_found();
  }
  // Read the resolved path so a link swapped after the check cannot redirect us.
  auto bytes = read_regular_file(resolved, limits::k_max_served_file_bytes);
  if (!bytes) {
    if (bytes.error().code == ErrorCode::not_found || bytes.error().code == ErrorCode::invalid_argument) {
      return not_found();
    }
    return tl::unexpected(
        view_failure(bytes.error().code, "Failed to read '" + requested + "': " + bytes.error().message));
  }
  ServedFile served;
  served.file = requested;
  served.file_type = suffix_of(target);
  served.source_path = target;
  const bool binary = bytes->find('\0') != std::string::npos || find_invalid_utf8(*bytes).has_value();
  if (binary) {
    served.is_binary = true;
    served.content =
        "[Binary file: " + target.filename().string() + ", size: " + std::to_string(bytes->size()) + " bytes]";
  } else {
    served.content = std::string(strip_bom(*bytes)); // Hermes reads with utf-8-sig
  }
  return served;
}

} // namespace skillrt::core
