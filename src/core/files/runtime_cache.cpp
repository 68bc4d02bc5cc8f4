// The runtime-cache rule (see runtime_cache.hpp).
#include "core/files/runtime_cache.hpp"

#include <algorithm>
#include <array>

namespace skillrt::core::files {
namespace {

constexpr std::array<std::string_view, 4> k_cache_dirs = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"};

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

} // namespace

bool is_runtime_cache_dir(std::string_view name) {
  return std::find(k_cache_dirs.begin(), k_cache_dirs.end(), name) != k_cache_dirs.end();
}

bool is_interrupted_write_temp(std::string_view name) {
  constexpr std::string_view k_marker = ".tmp.";
  constexpr std::size_t k_suffix = 6;  // mkstemp's XXXXXX
  if (name.size() < 1 + 1 + k_marker.size() + k_suffix || name.front() != '.') {
    return false;
  }
  const std::string_view tail = name.substr(name.size() - k_suffix - k_marker.size());
  if (tail.substr(0, k_marker.size()) != k_marker) {
    return false;
  }
  return std::all_of(tail.begin() + static_cast<std::ptrdiff_t>(k_marker.size()), tail.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

bool is_runtime_cache_file(std::string_view name) {
  return name == ".DS_Store" || ends_with(name, ".pyc") || ends_with(name, ".pyo") || is_interrupted_write_temp(name);
}

bool is_runtime_cache(std::string_view name, bool is_dir) {
  return is_dir ? is_runtime_cache_dir(name) : is_runtime_cache_file(name);
}

bool is_runtime_cache_path(std::string_view path, bool is_dir) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) {
      return is_runtime_cache(path.substr(start), is_dir);
    }
    if (is_runtime_cache_dir(path.substr(start, slash - start))) {
      return true;
    }
    start = slash + 1;
  }
}

} // namespace skillrt::core::files
