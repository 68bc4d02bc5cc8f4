// LCS line diff and unified output (see unified_diff.hpp).
#include "core/diff/unified_diff.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <system_error>

#include "core/files/tree_walk.hpp"
#include "core/limits.hpp"
#include "core/files/read_file.hpp"

namespace skillrt::core::diff {
namespace {

namespace fs = std::filesystem;

enum class Op : unsigned char { keep, remove, add };

struct Edit {
  Op op;
  std::size_t old_index; // line index in the old text (keep/remove)
  std::size_t new_index; // line index in the new text (keep/add)
};

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t nl = text.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

// Edit script old → new: common head and tail, an LCS table in between.
// Returns false when the middle is larger than limits::k_max_diff_cells.
bool edit_script(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                 std::vector<Edit>& edits) {
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) {
    ++head;
  }
  std::size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    ++tail;
  }
  const std::size_t n = a.size() - head - tail;
  const std::size_t m = b.size() - head - tail;
  if (n != 0 && m != 0 && n * m > limits::k_max_diff_cells) {
    return false;
  }
  for (std::size_t i = 0; i < head; ++i) {
    edits.push_back({Op::keep, i, i});
  }
  // lcs[i][j]: LCS length of a[head+i..] and b[head+j..].
  std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[head + i] == b[head + j]) {
      edits.push_back({Op::keep, head + i, head + j});
      ++i;
      ++j;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      // Removals before additions, as diff(1) prints them.
      edits.push_back({Op::remove, head + i, head + j});
      ++i;
    } else {
      edits.push_back({Op::add, head + i, head + j});
      ++j;
    }
  }
  for (std::size_t k = 0; k < tail; ++k) {
    edits.push_back({Op::keep, a.size() - tail + k, b.size() - tail + k});
  }
  return true;
}

std::string range(std::size_t start, std::size_t count) {
  // Unified format: a 1-based start line; an empty range names the line before it.
  const std::size_t shown = count == 0 ? start : start + 1;
  return count == 1 ? std::to_string(shown) : std::to_string(shown) + "," + std::to_string(count);
}

void append_line(std::string& out, char mark, std::string_view line) {
  out.push_back(mark);
  out.append(line);
  if (line.empty() || line.back() != '\n') {
    out += "\n\\ No newline at end of file\n";
  }
}

bool looks_binary(std::string_view bytes) {
  return bytes.substr(0, 8000).find('\0') != std::string_view::npos;
}

// The regular files below `dir` by relative path, through the filesystem
// layer's walker: links left out (never followed), nothing refused, `skip`
// deciding by name; a tree it cannot walk whole contributes what was seen.
std::map<std::string, fs::path> regular_files(const fs::path& dir, const DiffSkip& skip) {
  std::map<std::string, fs::path> found;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) {
    return found; // missing, or a link: nothing of it is compared
  }
  files::WalkOptions options;
  options.links = files::LinkPolicy::skip;
  options.specials = files::SpecialPolicy::record;
  options.problems = files::ProblemPolicy::report;
  options.skip_runtime_caches = false; // the caller's `skip` decides
  if (skip) {
    options.leave_out = [&skip](const files::WalkEntry& entry) {
      return skip(entry.name, entry.kind == files::EntryKind::folder);
    };
  }
  (void)files::walk_tree(dir, options, [&](const files::WalkEntry& entry) -> Result<void> {
    if (entry.kind == files::EntryKind::file) {
      found.emplace(std::string(entry.path), dir / entry.path);
    }
    return {};
  });
  return found;
}

} // namespace

const char* file_change_name(FileChange change) {
  switch (change) {
  case FileChange::added:
    return "added";
  case FileChange::removed:
    return "removed";
  case FileChange::modified:
    return "modified";
  case FileChange::binary:
    return "binary";
  }
  return "modified";
}

std::string unified_hunks(std::string_view old_text, std::string_view new_text, std::size_t context, std::size_t& added,
                          std::size_t& removed) {
  const std::vector<std::string_view> a = split_lines(old_text);
  const std::vector<std::string_view> b = split_lines(new_text);
  std::vector<Edit> edits;
  added = 0;
  removed = 0;
  if (!edit_script(a, b, edits)) {
    added = b.size();
    removed = a.size();
    return "@@ too large to diff line by line: " + std::to_string(a.size()) + " -> " + std::to_string(b.size()) +
           " lines @@\n";
  }
  std::string out;
  std::size_t k = 0;
  while (k < edits.size()) {
    // Find the next change.
    while (k < edits.size() && edits[k].op == Op::keep) {
      ++k;
    }
    if (k == edits.size()) {
      break;
    }
    const std::size_t begin = k >= context ? k - context : 0;
    // Extend the hunk while changes are closer than 2*context keeps apart.
    std::size_t end = k;
    while (end < edits.size()) {
      if (edits[end].op != Op::keep) {
        ++end;
        continue;
      }
      std::size_t run = end;
      while (run < edits.size() && edits[run].op == Op::keep) {
        ++run;
      }
      if (run == edits.size() || run - end > 2 * context) {
        end = std::min(end + context, run);
        break;
      }
      end = run;
    }
    std::size_t old_count = 0;
    std::size_t new_count = 0;
    for (std::size_t e = begin; e < end; ++e) {
      old_count += edits[e].op != Op::add ? 1 : 0;
      new_count += edits[e].op != Op::remove ? 1 : 0;
    }
    out +=
        "@@ -" + range(edits[begin].old_index, old_count) + " +" + range(edits[begin].new_index, new_count) + " @@\n";
    for (std::size_t e = begin; e < end; ++e) {
      switch (edits[e].op) {
      case Op::keep:
        append_line(out, ' ', a[edits[e].old_index]);
        break;
      case Op::remove:
        append_line(out, '-', a[edits[e].old_index]);
        ++removed;
        break;
      case Op::add:
        append_line(out, '+', b[edits[e].new_index]);
        ++added;
        break;
      }
    }
    k = end;
  }
  return out;
}

TreeDiff diff_file_sets(const std::map<std::string, FileSides>& files) {
  TreeDiff out;
  for (const auto& [rel, sides] : files) {
    const auto read = [](const std::optional<FileReader>& reader) -> std::optional<std::string> {
      return reader ? (*reader)() : std::optional<std::string>(std::string());
    };
    const std::optional<std::string> before = read(sides.before);
    const std::optional<std::string> after = read(sides.after);
    if (before && after && sides.before && sides.after && *before == *after) {
      continue;
    }
    FileDiff file;
    file.path = rel;
    file.change = !sides.before ? FileChange::added : !sides.after ? FileChange::removed : FileChange::modified;
    const std::string a_label = !sides.before ? "/dev/null" : "a/" + rel;
    const std::string b_label = !sides.after ? "/dev/null" : "b/" + rel;
    std::string chunk;
    if (!before || !after) {
      chunk = "--- " + a_label + "\n+++ " + b_label + "\n@@ larger than " + std::to_string(limits::k_max_diff_file_bytes) +
              " bytes or unreadable; not diffed @@\n";
    } else if (looks_binary(*before) || looks_binary(*after)) {
      file.change = file.change == FileChange::modified ? FileChange::binary : file.change;
      chunk = "Binary files " + a_label + " and " + b_label + " differ\n";
    } else {
      chunk = "--- " + a_label + "\n+++ " + b_label + "\n" +
              unified_hunks(*before, *after, 3, file.added_lines, file.removed_lines);
    }
    if (out.text.size() + chunk.size() > limits::k_max_diff_output_bytes) {
      out.truncated = true;
      chunk = "--- " + a_label + "\n+++ " + b_label + "\n@@ " + file_change_name(file.change) +
              " (diff output cap reached) @@\n";
    }
    out.text += chunk;
    out.files.push_back(std::move(file));
  }
  return out;
}

TreeDiff diff_trees(const fs::path& old_dir, const fs::path& new_dir, const DiffSkip& skip) {
  const auto reader = [](const fs::path& path) -> FileReader {
    return [path]() -> std::optional<std::string> {
      auto bytes = read_regular_file(path, limits::k_max_diff_file_bytes);
      return bytes ? std::optional<std::string>(std::move(*bytes)) : std::nullopt;
    };
  };
  std::map<std::string, FileSides> files;
  for (const auto& [rel, path] : regular_files(old_dir, skip)) {
    files[rel].before = reader(path);
  }
  for (const auto& [rel, path] : regular_files(new_dir, skip)) {
    files[rel].after = reader(path);
  }
  return diff_file_sets(files);
}

} // namespace skillrt::core::diff
