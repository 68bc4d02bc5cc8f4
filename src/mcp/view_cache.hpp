// Whole skill_view answers kept per catalog snapshot, so a repeated
// tools/call skill_view costs a few stat() calls and one copy instead of a
// read, a YAML parse, a support-folder walk, a .env read and two JSON passes.
//
// Why it is safe (ARCHITECTURE.md "Caches never go stale"): an entry records
// the identity of everything its answer was computed from — SKILL.md, the
// skill folder and every folder below its references/templates/assets/scripts
// (their mtime/ctime move when an entry is added, removed or renamed),
// the .env files readiness reads (the user's own, HOME/.env) and each required
// credential file (present or absent) — and is
// used only while every one of them stats the same. Files changed within the
// racy window of being cached are not kept (as git does for its index), and
// answers that can differ between calls with the same files (inline shell
// output) are never kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/view/skill_view.hpp"
#include "core/view/view_usage.hpp"

namespace skillrt::mcp {

// The identity of one path as stat() sees it; `exists` false for a missing path.
struct PathStamp {
  bool exists = false;
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint32_t mode = 0;
  bool operator==(const PathStamp&) const = default;
};

PathStamp stamp_path(const std::filesystem::path& path);

class ViewCache {
 public:
  struct Hit {
    std::string payload_text;           // the serialized skill_view JSON (a success)
    std::vector<std::string> warnings;  // logged again on every hit
    std::optional<core::UsageSubject> usage;  // the record a served view counts against
  };

  static constexpr std::int64_t k_racy_window_ns = 2'000'000'000;

  explicit ViewCache(std::int64_t racy_window_ns = k_racy_window_ns) : m_racy_window_ns(racy_window_ns) {}

  // The answer cached under `name` when every recorded path still stats the same.
  std::optional<Hit> find(const std::string& name) const;

  // Keeps `payload_text` (the serialized skill_view JSON of `doc`) for `name`.
  // Does nothing when the answer may not be cached or the byte budget is spent.
  // Only the payload is kept, not the whole tool result that carries it twice:
  // escaping it again on a hit is cheap, and the budget holds twice the skills.
  void store(const std::string& name, const core::SkillDocument& doc, const core::Context& ctx,
             const core::Config& config, std::string payload_text, const std::vector<std::string>& warnings);

  std::uint64_t hits() const;
  std::size_t size() const;

 private:
  struct Entry {
    std::string payload_text;
    std::vector<std::string> warnings;
    std::optional<core::UsageSubject> usage;
    std::vector<std::pair<std::filesystem::path, PathStamp>> dependencies;
  };

  std::int64_t m_racy_window_ns;
  mutable std::mutex m_mutex;
  // Entries are immutable once stored (a new answer replaces the pointer), so
  // a hit holds its entry while it stats, without a copy or a second lookup.
  std::unordered_map<std::string, std::shared_ptr<const Entry>> m_entries;
  std::size_t m_bytes = 0;
  mutable std::uint64_t m_hits = 0;
};

}  // namespace skillrt::mcp
