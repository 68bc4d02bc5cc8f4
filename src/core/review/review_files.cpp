#include "core/review/review_files.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "core/files/path_within.hpp"
#include "core/files/read_file.hpp"
#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"
#include "core/util/utf8.hpp"
#include "core/util/utf8_prefix.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t k_read_max_bytes = 512 * 1024;
constexpr std::size_t k_read_max_lines = 2000;
constexpr std::size_t k_search_max_file_bytes = 1024 * 1024;
constexpr std::size_t k_search_max_entries = 200'000;
constexpr std::size_t k_match_line_chars = 300;

// The canonical form of `given` if it lies inside one of the roots.
Result<fs::path> confine(const std::vector<fs::path>& roots, const std::string& given) {
  if (roots.empty()) {
    return fail(ErrorCode::refused, "the review has no skill root to read");
  }
  if (given.empty()) {
    return fail(ErrorCode::invalid_argument, "path is required");
  }
  if (given.find('\0') != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "path contains a NUL byte");
  }
  const fs::path raw(given);
  std::error_code ec;
  for (const fs::path& root : roots) {
    const fs::path canonical_root = fs::canonical(root, ec);
    if (ec) {
      continue;
    }
    const fs::path candidate = raw.is_absolute() ? raw : canonical_root / raw;
    const fs::path resolved = fs::weakly_canonical(candidate, ec);
    if (ec) {
      continue;
    }
    if (is_within(resolved, canonical_root)) {
      return resolved;
    }
  }
  return fail(ErrorCode::refused, "'" + sanitize_utf8(given) +
                                      "' is outside the skills the review may read; give a path inside the skill "
                                      "folders (e.g. 'my-skill/SKILL.md')");
}

bool looks_binary(std::string_view bytes) { return bytes.substr(0, 8192).find('\0') != std::string_view::npos; }

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

Result<FileRead> review_read_file(const std::vector<fs::path>& roots, const std::string& path, std::size_t offset,
                                  std::size_t limit) {
  Result<fs::path> resolved = confine(roots, path);
  if (!resolved) {
    return tl::unexpected(resolved.error());
  }
  std::error_code ec;
  if (fs::is_directory(*resolved, ec)) {
    return fail(ErrorCode::invalid_argument, "'" + sanitize_utf8(path) + "' is a folder; give a file inside it");
  }
  Result<std::string> bytes = read_regular_file(*resolved, limits::k_max_bundle_file_bytes);
  if (!bytes) {
    return tl::unexpected(bytes.error());
  }
  if (looks_binary(*bytes)) {
    return fail(ErrorCode::refused, "'" + sanitize_utf8(path) + "' is a binary file");
  }
  const std::string text = sanitize_utf8(*bytes);
  FileRead out;
  out.path = *resolved;
  offset = std::max<std::size_t>(offset, 1);
  limit = limit == 0 ? k_read_max_lines : std::min(limit, k_read_max_lines);
  std::size_t line_no = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      end = text.size();
      if (start == end) {
        break;  // a final newline ends the last line
      }
    }
    ++line_no;
    if (line_no >= offset && line_no < offset + limit) {
      if (out.content.size() >= k_read_max_bytes) {
        out.truncated = true;
      } else {
        std::string number = std::to_string(line_no);
        if (number.size() < 6) {
          number.insert(0, 6 - number.size(), ' ');
        }
        out.content += number + "|" + text.substr(start, end - start) + "\n";
      }
    }
    start = end + 1;
  }
  out.total_lines = line_no;
  if (offset + limit <= line_no) {
    out.truncated = true;
  }
  return out;
}

Result<FileSearch> review_search_files(const std::vector<fs::path>& roots, const std::string& pattern,
                                       const std::string& subpath, std::size_t limit) {
  if (pattern.empty()) {
    return fail(ErrorCode::invalid_argument, "pattern is required");
  }
  limit = limit == 0 ? 50 : std::min<std::size_t>(limit, 200);
  std::vector<fs::path> bases;
  if (!subpath.empty()) {
    Result<fs::path> resolved = confine(roots, subpath);
    if (!resolved) {
      return tl::unexpected(resolved.error());
    }
    bases.push_back(*resolved);
  } else {
    bases = roots;
  }
  const std::string needle = lower(pattern);
  FileSearch out;
  files::WalkOptions options;
  options.limits = files::TreeLimits::unlimited();
  options.limits.max_entries = k_search_max_entries;
  options.links = files::LinkPolicy::skip;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.leave_out = [](const files::WalkEntry& entry) { return entry.name.starts_with("."); };
  for (const fs::path& base : bases) {
    std::error_code ec;
    if (!fs::is_directory(base, ec)) {
      continue;
    }
    auto walked = files::walk_tree(base, options, [&](const files::WalkEntry& entry) -> Result<void> {
      if (out.matches.size() >= limit) {
        out.truncated = true;
        return fail(ErrorCode::limit_exceeded, "enough matches");
      }
      if (entry.kind != files::EntryKind::file || entry.st == nullptr ||
          static_cast<std::size_t>(entry.st->st_size) > k_search_max_file_bytes) {
        return {};
      }
      Result<std::string> bytes = read_regular_file(base / std::string(entry.path), k_search_max_file_bytes);
      if (!bytes || looks_binary(*bytes)) {
        return {};
      }
      const std::string folded = lower(*bytes);
      std::size_t at = folded.find(needle);
      while (at != std::string::npos && out.matches.size() < limit) {
        const std::size_t line_start = folded.rfind('\n', at) == std::string::npos ? 0 : folded.rfind('\n', at) + 1;
        std::size_t line_end = folded.find('\n', at);
        if (line_end == std::string::npos) {
          line_end = folded.size();
        }
        FileMatch match;
        match.path = std::string(entry.path);
        match.line = static_cast<std::size_t>(std::count(bytes->begin(), bytes->begin() + static_cast<std::ptrdiff_t>(line_start), '\n')) + 1;
        match.text = utf8_prefix(sanitize_utf8(std::string_view(*bytes).substr(line_start, line_end - line_start)),
                                 k_match_line_chars);
        out.matches.push_back(std::move(match));
        at = folded.find(needle, line_end);
      }
      return {};
    });
    if (!walked && walked.error().code != ErrorCode::limit_exceeded) {
      return tl::unexpected(walked.error());
    }
    if (walked && walked->stopped) {
      out.truncated = true;
    }
  }
  return out;
}

}  // namespace skillrt::core
