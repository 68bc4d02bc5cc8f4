// A ledger on a real temp HOME, and helpers that edit its files the way a
// tamperer or a crash would.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_blobs.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {

class LedgerFixture : public ::testing::Test {
protected:
  LedgerFixture() {
    m_home = m_tree.mkdir("home");
    m_skills = m_tree.mkdir("home/skills");
    m_ledger.home = m_home;
    m_ledger.dir = m_home / "ledger";
  }

  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  static void write(const std::filesystem::path& path, const std::string& content) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  }

  // The lines of entries.jsonl (without their newlines; a torn last one as it is).
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    std::string text = read(m_ledger.entries_path());
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t newline = text.find('\n', start);
      if (newline == std::string::npos) {
        out.push_back(text.substr(start));
        break;
      }
      out.push_back(text.substr(start, newline - start));
      start = newline + 1;
    }
    return out;
  }
  void write_lines(const std::vector<std::string>& all, bool final_newline = true) const {
    std::string text;
    for (std::size_t i = 0; i < all.size(); ++i) {
      text += all[i];
      if (i + 1 < all.size() || final_newline) {
        text += '\n';
      }
    }
    write(m_ledger.entries_path(), text);
  }

  // A skill folder HOME/skills/<name> holding SKILL.md with `body`.
  std::filesystem::path make_skill(const std::string& name, const std::string& body) const {
    const auto dir = m_skills / name;
    write(dir / "SKILL.md", "---\nname: " + name + "\ndescription: d\n---\n" + body);
    return dir;
  }

  // The change skill_manage would record for `dir`, captured now.
  core::LedgerChange change_of(core::LedgerAction action, const std::string& name,
                               std::optional<core::LedgerSnapshot> before,
                               std::optional<core::LedgerSnapshot> after) const {
    core::LedgerChange change;
    change.actor = core::LedgerActor::user;
    change.action = action;
    change.layer = core::Layer::shared;
    change.skill = name;
    change.root = std::filesystem::canonical(m_skills).string();
    change.path = name;
    change.before = std::move(before);
    change.after = std::move(after);
    return change;
  }

  core::LedgerSnapshot capture(const std::filesystem::path& dir) const {
    auto snapshot = core::capture_folder(m_ledger, dir);
    EXPECT_TRUE(snapshot) << snapshot.error().message;
    return snapshot ? *snapshot : core::LedgerSnapshot{};
  }

  core::LedgerEntry append(const core::LedgerChange& change) const {
    auto entry = core::append_ledger_entry(m_ledger, change);
    EXPECT_TRUE(entry) << entry.error().message;
    return entry ? *entry : core::LedgerEntry{};
  }

  // Appends `count` edits of skill "s", each with new content.
  std::vector<core::LedgerEntry> append_edits(int count) const {
    const auto dir = make_skill("s", "v0\n");
    std::vector<core::LedgerEntry> out;
    for (int i = 1; i <= count; ++i) {
      const core::LedgerSnapshot before = capture(dir);
      write(dir / "SKILL.md", "---\nname: s\ndescription: d\n---\nv" + std::to_string(i) + "\n");
      out.push_back(append(change_of(core::LedgerAction::edit, "s", before, capture(dir))));
    }
    return out;
  }

  TempTree m_tree;
  std::filesystem::path m_home;
  std::filesystem::path m_skills;
  core::Ledger m_ledger;
};

} // namespace skillrt::test
