// The on-disk prompt snapshot HOME/.skills_prompt_snapshot.json (spec §2.16
// rule 3), holding what the listing cache does not: each skill's index
// conditions (metadata.hermes.requires_* / fallback_for_*).
//
// Why per file and not one manifest for the whole snapshot as Hermes does:
// every entry is keyed on its SKILL.md's exact identity (device, inode, size,
// mtime and ctime in nanoseconds), so an in-place edit that keeps size and
// mtime is still caught (ctime changes), and one edited skill costs one
// re-read instead of a rescan of every skill. Files changed within the racy
// window before a save are not stored. The file is replaced atomically, so a
// reader never sees a torn snapshot; one that does not decode is ignored and
// rewritten. The snapshot only ever saves work.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/cache/file_stamp.hpp"
#include "core/prompt/conditions.hpp"

namespace skillrt::core {

inline constexpr int k_prompt_snapshot_version = 3; // Hermes writes 2; ours has a different manifest

struct SnapshotEntry {
  FileStamp stamp;
  SkillConditions conditions;
  bool operator==(const SnapshotEntry&) const = default;
};
using SnapshotEntries = std::vector<std::pair<std::string, SnapshotEntry>>; // SKILL.md path → entry

// Serialises entries as the snapshot JSON document.
std::string encode_prompt_snapshot(const SnapshotEntries& entries);
// Parses a snapshot document; nullopt for anything else (wrong version, torn, not JSON).
std::optional<SnapshotEntries> decode_prompt_snapshot(std::string_view text);

class PromptSnapshot {
public:
  static constexpr std::int64_t k_racy_window_ns = 2'000'000'000;

  // Reads `file` when it exists and decodes; otherwise starts empty.
  static PromptSnapshot load(const std::filesystem::path& file, std::int64_t racy_window_ns = k_racy_window_ns);

  // The stored conditions of `path` when its stamp is unchanged; nullptr otherwise.
  const SkillConditions* find(const std::string& path, const FileStamp& stamp) const;

  // Keeps `path` → (stamp, conditions) for the next save (call for hits and misses alike).
  void keep(std::string path, const FileStamp& stamp, SkillConditions conditions, bool fresh);

  // Writes the kept entries atomically when they differ from what was loaded.
  // Returns false when writing failed (never an error for the caller).
  bool save_if_changed(const std::filesystem::path& file);

  std::size_t loaded_size() const { return m_old.size(); }

private:
  std::unordered_map<std::string, SnapshotEntry> m_old;
  SnapshotEntries m_new;
  std::int64_t m_racy_window_ns = k_racy_window_ns;
  bool m_changed = false;
};

} // namespace skillrt::core
