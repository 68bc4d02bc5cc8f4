// Unified diffs between two skill folders, for `update` (what an update changes)
// and `sync --diff` (what a user changed):
// per file added / removed / modified / binary, `---` / `+++` / `@@` hunks
// with 3 lines of context (an LCS line diff after trimming the common head
// and tail). Bounded: a file too large to diff, or a diff past the output cap,
// is summarised in one line instead.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core::diff {

// Bounds: limits::k_max_diff_file_bytes, k_max_diff_cells, k_max_diff_output_bytes.

enum class FileChange : unsigned char { added, removed, modified, binary };
const char* file_change_name(FileChange change); // "added" | "removed" | "modified" | "binary"

struct FileDiff {
  std::string path; // POSIX, relative to the folders
  FileChange change = FileChange::modified;
  std::size_t added_lines = 0;
  std::size_t removed_lines = 0;
};

struct TreeDiff {
  std::vector<FileDiff> files; // sorted by path; unchanged files are not listed
  std::string text;            // the unified diff
  bool truncated = false;      // k_max_diff_output_bytes was reached
};

// The unified diff of two texts (no file headers: hunks only), `context`
// lines around each change. Counts go to `added` / `removed`.
std::string unified_hunks(std::string_view old_text, std::string_view new_text, std::size_t context, std::size_t& added,
                          std::size_t& removed);

// Reads one side of a file: its bytes, or nullopt when it is unreadable or
// larger than limits::k_max_diff_file_bytes (then summarised, not diffed).
using FileReader = std::function<std::optional<std::string>()>;
struct FileSides {
  std::optional<FileReader> before;  // nullopt: the file is not on that side (added)
  std::optional<FileReader> after;   // nullopt: removed
};

// The diff of two sets of files, by relative path (the map's order is the
// output's): what diff_trees does for two folders, for files from anywhere
// (the ledger's content-addressed blobs, for one).
TreeDiff diff_file_sets(const std::map<std::string, FileSides>& files);

// Entries left out of both sides: called with an entry's file name and
// whether it is a folder (a skipped folder's whole subtree is left out).
// Bundled sync passes its runtime-cache rule, so a diff shows exactly what
// the folder hash sees.
using DiffSkip = std::function<bool(std::string_view name, bool is_dir)>;

// The diff from `old_dir` to `new_dir` (either may be missing: all added / all
// removed). Symlinks and special files are ignored (bundles have none).
TreeDiff diff_trees(const std::filesystem::path& old_dir, const std::filesystem::path& new_dir,
                    const DiffSkip& skip = {});

} // namespace skillrt::core::diff
