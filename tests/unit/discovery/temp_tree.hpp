// Real temporary directory trees for the discovery tests.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/walker.hpp"

namespace skillrt::test {

namespace fs = std::filesystem;

class TempTree {
 public:
  TempTree() {
    std::string pattern = (fs::temp_directory_path() / "skillrt-discovery-XXXXXX").string();
    char* made = ::mkdtemp(pattern.data());
    if (made == nullptr) {
      ADD_FAILURE() << "mkdtemp failed";
      return;
    }
    // Canonical, so paths the walker reports compare equal to ours.
    m_root = fs::canonical(fs::path(made));
  }
  ~TempTree() {
    std::error_code ec;
    // Restore permissions so remove_all can clean up chmod-000 dirs.
    for (auto it = fs::recursive_directory_iterator(m_root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) {
        fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
      }
    }
    restore_locked();
    fs::remove_all(m_root, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const fs::path& root() const { return m_root; }
  fs::path path(const std::string& rel) const { return m_root / rel; }

  fs::path write(const std::string& rel, const std::string& content) const {
    fs::path file = m_root / rel;
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << content;
    return file;
  }
  fs::path mkdir(const std::string& rel) const {
    fs::create_directories(m_root / rel);
    return m_root / rel;
  }
  fs::path symlink(const fs::path& target, const std::string& rel) const {
    fs::path link = m_root / rel;
    fs::create_directories(link.parent_path());
    fs::create_symlink(target, link);
    return link;
  }
  // chmod 000 that the destructor undoes.
  void lock(const std::string& rel) {
    fs::permissions(m_root / rel, fs::perms::none, fs::perm_options::replace);
    m_locked.push_back(m_root / rel);
  }

 private:
  void restore_locked() {
    std::error_code ec;
    for (const auto& dir : m_locked) {
      fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    }
  }
  fs::path m_root;
  std::vector<fs::path> m_locked;
};

// A SKILL.md with name/description and optional extra frontmatter lines and body.
inline std::string skill_text(const std::string& name, const std::string& description, const std::string& extra = "",
                              const std::string& body = "Body text.\n") {
  std::string text = "---\n";
  if (!name.empty()) {
    text += "name: " + name + "\n";
  }
  if (!description.empty()) {
    text += "description: " + description + "\n";
  }
  text += extra;
  text += "---\n" + body;
  return text;
}

// A Context rooted at `home` with a fixed environment (no process env leaks in).
inline core::Context make_context(const fs::path& home, const fs::path& cwd,
                                  std::map<std::string, std::string> env = {}) {
  core::Context ctx;
  ctx.home = home;
  ctx.cwd = cwd;
  ctx.os = "linux";
  ctx.env = [env = std::move(env)](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(std::string(name));
    if (it == env.end()) {
      return std::nullopt;
    }
    return it->second;
  };
  return ctx;
}

inline bool running_as_root() { return ::geteuid() == 0; }

inline std::vector<std::string> reasons_for(const std::vector<core::SkippedPath>& skipped, const fs::path& path) {
  std::vector<std::string> out;
  for (const auto& skip : skipped) {
    if (skip.path == path) {
      out.emplace_back(core::skip_reason_name(skip.reason));
    }
  }
  return out;
}

}  // namespace skillrt::test
