// A temp home plus a bundled folder for the sync tests, with helpers to write
// bundled skills, edit the user's copies and read the manifest.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/sync/bundled_manifest.hpp"
#include "core/sync/bundled_reset.hpp"
#include "core/sync/bundled_sync.hpp"
#include "core/sync/dir_hash.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {

namespace fs = std::filesystem;

// Every regular file below `dir` (relative path → bytes); symlinks as "-> target".
inline std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return files;
  }
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    if (it->is_symlink()) {
      files[rel] = "-> " + fs::read_symlink(it->path()).string();
    } else if (it->is_regular_file()) {
      std::ifstream in(it->path(), std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      files[rel] = bytes.str();
    }
  }
  return files;
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

inline void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string skill_md(const std::string& name, const std::string& body) {
  return "---\nname: " + name + "\ndescription: The " + name + " test skill.\n---\n\n# " + name + "\n\n" + body + "\n";
}

class SyncFixture : public ::testing::Test {
protected:
  SyncFixture() {
    m_ctx.home = m_tree.path() / "home";
    m_ctx.cwd = m_tree.path() / "cwd";
    m_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
    fs::create_directories(m_ctx.cwd);
    m_bundled = m_tree.mkdir("bundled");
    m_options.bundled_dir = m_bundled;
  }

  fs::path skills() const { return m_ctx.skills_dir(); }

  // Writes bundled/<rel>/SKILL.md for skill `name`; returns the folder.
  fs::path bundle(const std::string& rel, const std::string& name, const std::string& body = "Do the thing.") {
    const fs::path dir = m_bundled / rel;
    write_text(dir / "SKILL.md", skill_md(name, body));
    return dir;
  }

  Result<core::sync::SyncResult> sync() { return core::sync::sync_bundled_skills(m_ctx, m_cfg, m_options); }

  // Runs a sync that must succeed without per-skill errors.
  core::sync::SyncResult sync_ok() {
    auto result = sync();
    EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
    if (!result) {
      return {};
    }
    for (const std::string& error : result->errors) {
      ADD_FAILURE() << "sync error: " << error;
    }
    return *result;
  }

  Result<core::sync::ResetResult> reset(const std::string& name, bool restore) {
    return core::sync::reset_bundled_skill(m_ctx, m_cfg, name, restore, m_options);
  }

  core::sync::BundledManifest manifest() const {
    auto read = core::sync::read_bundled_manifest(core::sync::bundled_manifest_path(m_ctx));
    EXPECT_TRUE(read.has_value());
    return read ? *read : core::sync::BundledManifest{};
  }

  void write_manifest(const std::string& text) const {
    fs::create_directories(skills());
    write_text(core::sync::bundled_manifest_path(m_ctx), text);
  }

  std::string hash(const fs::path& dir) const {
    auto h = core::sync::skill_dir_hash(dir);
    EXPECT_TRUE(h.has_value());
    return h ? *h : std::string();
  }

  TempTree m_tree;
  core::Context m_ctx;
  core::Config m_cfg;
  fs::path m_bundled;
  core::sync::SyncOptions m_options;
};

} // namespace skillrt::test
