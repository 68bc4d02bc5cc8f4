// The review's read-only file tools (spec §2.17 rule 6: read_file and
// search_files), confined to the skill roots the review may read. A path the
// model gives is resolved (symlinks included) before the containment check,
// so `..`, absolute paths elsewhere and links that lead out are refused.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

struct FileRead {
  std::filesystem::path path;  // canonical
  std::string content;         // numbered lines "  12|text"
  std::size_t total_lines = 0;
  bool truncated = false;      // more lines follow (offset/limit), or the byte cap was reached
};

// Lines [offset, offset + limit) (1-based) of `path`, relative to the first
// root or absolute inside one of them.
Result<FileRead> review_read_file(const std::vector<std::filesystem::path>& roots, const std::string& path,
                                  std::size_t offset, std::size_t limit);

struct FileMatch {
  std::string path;  // relative to the root it was found under
  std::size_t line = 0;
  std::string text;  // the line, cut to a few hundred characters
};

struct FileSearch {
  std::vector<FileMatch> matches;
  bool truncated = false;  // `limit` matches reached, or the walk's caps
};

// Case-insensitive substring search of `pattern` in the text files under the
// roots (or under `subpath` of the first root, when given).
Result<FileSearch> review_search_files(const std::vector<std::filesystem::path>& roots, const std::string& pattern,
                                       const std::string& subpath, std::size_t limit);

}  // namespace skillrt::core
