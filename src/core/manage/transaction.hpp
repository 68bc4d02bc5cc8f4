// The writes of one skill_manage call, undoable as a whole: every file keeps its
// original bytes in memory until the call succeeds, so a guard block, a failed
// check or an I/O error puts the skill back exactly as it was.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

class FileTransaction {
public:
  // Creates the missing folders between `stop` (exclusive, must exist) and
  // path's parent, remembering each so rollback removes them again.
  Result<void> make_parents(const std::filesystem::path& path, const std::filesystem::path& stop);

  // Replaces `path` atomically (core/util/atomic_file) after saving what was there.
  // A new file gets mode 0644.
  Result<void> write(const std::filesystem::path& path, std::string_view content);

  // Unlinks the regular file `path` after saving its bytes and mode.
  Result<void> remove(const std::filesystem::path& path);

  // Undoes every step in reverse order; returns what could not be undone (empty = clean).
  std::vector<std::string> rollback();

  // Forgets the saved state: the changes stay.
  void commit() { m_steps.clear(); }

private:
  struct Step {
    std::filesystem::path path;
    bool created_dir = false;
    std::optional<std::string> original; // nullopt: the file did not exist
    unsigned mode = 0644;
  };
  Result<void> remember(const std::filesystem::path& path);
  std::vector<Step> m_steps;
};

} // namespace skillrt::core
