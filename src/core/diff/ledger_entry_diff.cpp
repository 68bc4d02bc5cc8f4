#include "core/diff/ledger_entry_diff.hpp"

#include <map>

#include "core/ledger/ledger_blobs.hpp"
#include "core/limits.hpp"

namespace skillrt::core::diff {

TreeDiff diff_ledger_entry(const Ledger& ledger, const LedgerEntry& entry) {
  const auto reader = [&ledger](const LedgerFile& file) -> FileReader {
    return [&ledger, file]() -> std::optional<std::string> {
      if (file.size > limits::k_max_diff_file_bytes) {
        return std::nullopt;
      }
      auto bytes = read_ledger_blob(ledger, file);
      return bytes ? std::optional<std::string>(std::move(*bytes)) : std::nullopt;
    };
  };
  std::map<std::string, const LedgerFile*> before;
  if (entry.before) {
    for (const LedgerFile& file : entry.before->files) {
      before[file.path] = &file;
    }
  }
  std::map<std::string, FileSides> files;
  if (entry.after) {
    for (const LedgerFile& file : entry.after->files) {
      const auto old = before.find(file.path);
      if (old != before.end() && old->second->sha256 == file.sha256) {
        before.erase(old);  // unchanged
        continue;
      }
      files[file.path].after = reader(file);
      if (old != before.end()) {
        files[file.path].before = reader(*old->second);
        before.erase(old);
      }
    }
  }
  for (const auto& [path, file] : before) {
    files[path].before = reader(*file);  // removed
  }
  return diff_file_sets(files);
}

} // namespace skillrt::core::diff
