// Crash-safe file replacement: readers see the old content or the new, never a mix.
#pragma once

#include <filesystem>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// Writes `content` to a temporary file beside `path`, fsyncs it, renames it over
// `path` and fsyncs the directory. An existing file keeps its permission bits
// (a new one gets 0600); a symlink at `path` is followed so the link survives.
// The parent directory must exist.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace skillrt::core
