#include "mcp/view_cache.hpp"

#include <sys/stat.h>

#include <array>
#include <chrono>
#include <string_view>
#include <system_error>

#include "core/limits.hpp"
#include "core/view/dotenv_write.hpp"

namespace skillrt::mcp {

namespace fs = std::filesystem;

PathStamp stamp_path(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return PathStamp{};
  }
  PathStamp stamp;
  stamp.exists = true;
  stamp.device = static_cast<std::uint64_t>(info.st_dev);
  stamp.inode = static_cast<std::uint64_t>(info.st_ino);
  stamp.size = static_cast<std::int64_t>(info.st_size);
  stamp.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
  stamp.ctime_ns = static_cast<std::int64_t>(info.st_ctim.tv_sec) * 1'000'000'000 + info.st_ctim.tv_nsec;
  stamp.mode = static_cast<std::uint32_t>(info.st_mode);
  return stamp;
}

namespace {

// The support folders collect_linked_files looks in (view/linked_files.cpp).
constexpr std::array<std::string_view, 4> k_support_folders{"references", "templates", "assets", "scripts"};

// Every real directory at or below `root` (symlinked ones are not descended,
// as collect_linked_files does not descend them). A missing `root` adds
// nothing: creating it changes the skill folder's own stamp, which is
// recorded. False when there are more folders than the cache re-checks, or
// the walk fails: such a skill is not cached.
bool collect_folders(const fs::path& root, std::vector<fs::path>& folders) {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(root, ec);
  if (ec || !fs::exists(status)) {
    return !ec || ec == std::errc::no_such_file_or_directory;
  }
  folders.push_back(root);  // a file or a symlink here is recorded too: its replacement must be seen
  if (!fs::is_directory(status)) {
    return true;
  }
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      folders.push_back(it->path());
      if (folders.size() > limits::k_mcp_view_cache_max_dirs) {
        return false;
      }
    }
  }
  return !ec;
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::optional<ViewCache::Hit> ViewCache::find(const std::string& name) const {
  std::shared_ptr<const Entry> entry;
  {
    std::lock_guard lock(m_mutex);
    const auto found = m_entries.find(name);
    if (found == m_entries.end()) {
      return std::nullopt;
    }
    entry = found->second;
  }
  // stat() outside the lock: other requests of the snapshot go on meanwhile.
  for (const auto& [path, stamp] : entry->dependencies) {
    if (stamp_path(path) != stamp) {
      return std::nullopt;
    }
  }
  {
    std::lock_guard lock(m_mutex);
    ++m_hits;
  }
  return Hit{entry->payload_text, entry->warnings, entry->usage};
}

void ViewCache::store(const std::string& name, const core::SkillDocument& doc, const core::Context& ctx,
                      const core::Config& config, std::string payload_text,
                      const std::vector<std::string>& warnings) {
  if (config.skills.inline_shell) {
    return;  // command output may change from one call to the next
  }
  std::vector<fs::path> paths{doc.source_path};
  for (const fs::path& dotenv : core::dotenv_files(ctx)) {  // the user's own .env and HOME/.env
    paths.push_back(dotenv);
  }
  for (const std::string& rel : doc.readiness.credential_files_checked) {
    paths.push_back(ctx.home / rel);
  }
  if (doc.skill_dir) {
    paths.push_back(*doc.skill_dir);
    std::vector<fs::path> folders;
    for (std::string_view folder : k_support_folders) {
      if (!collect_folders(*doc.skill_dir / folder, folders)) {
        return;
      }
    }
    paths.insert(paths.end(), folders.begin(), folders.end());
  }
  Entry entry;
  entry.payload_text = std::move(payload_text);
  entry.warnings = warnings;
  entry.usage = core::usage_subject(doc);
  const std::int64_t racy_after = now_ns() - m_racy_window_ns;
  for (fs::path& path : paths) {
    PathStamp stamp = stamp_path(path);
    if (stamp.exists && (stamp.mtime_ns >= racy_after || stamp.ctime_ns >= racy_after)) {
      return;  // changed too recently to trust an equal stamp later
    }
    entry.dependencies.emplace_back(std::move(path), stamp);
  }
  // The answer was computed before these stats: if SKILL.md changed in
  // between, its new stamp is recent and the racy check above refused it.
  const std::size_t bytes = entry.payload_text.size() + name.size() + 64 * entry.dependencies.size();
  std::lock_guard lock(m_mutex);
  const auto old = m_entries.find(name);
  const std::size_t freed = old == m_entries.end() ? 0
                                                   : old->second->payload_text.size() + name.size() +
                                                         64 * old->second->dependencies.size();
  if (m_bytes - freed + bytes > limits::k_mcp_view_cache_bytes) {
    return;
  }
  m_bytes = m_bytes - freed + bytes;
  m_entries.insert_or_assign(name, std::make_shared<const Entry>(std::move(entry)));
}

std::uint64_t ViewCache::hits() const {
  std::lock_guard lock(m_mutex);
  return m_hits;
}

std::size_t ViewCache::size() const {
  std::lock_guard lock(m_mutex);
  return m_entries.size();
}

}  // namespace skillrt::mcp
