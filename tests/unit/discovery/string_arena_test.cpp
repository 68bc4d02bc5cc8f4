#include "core/discovery/string_arena.hpp"

#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/discovery/catalog.hpp"
#include "core/discovery/path_string.hpp"

namespace skillrt::test {
namespace {

using ::testing::ElementsAre;

TEST(StringArena, ViewsSurviveGrowthAndMoves) {
  core::StringArena arena;
  std::vector<std::pair<std::string_view, std::string>> added;
  // Enough text for many blocks, with items larger than a block mixed in.
  for (std::size_t i = 0; i < 5000; ++i) {
    std::string text = std::to_string(i) + std::string(i % 7 == 0 ? 40000 : i % 300, 'x');
    added.emplace_back(arena.add(text), text);
  }
  core::StringArena moved = std::move(arena);
  core::StringArena assigned;
  assigned = std::move(moved);
  for (const auto& [view, text] : added) {
    ASSERT_EQ(view, text);
  }
  EXPECT_GT(assigned.capacity(), 0U);
}

TEST(StringArena, EmptyTextAndListsTakeNoSpace) {
  core::StringArena arena;
  EXPECT_TRUE(arena.add("").empty());
  EXPECT_TRUE(arena.add_list({}).empty());
  EXPECT_EQ(arena.capacity(), 0U);
  const core::ViewList none;
  EXPECT_EQ(none.size(), 0U);
  EXPECT_EQ(none.begin(), none.end());
}

TEST(StringArena, ListsKeepTheirItems) {
  core::StringArena arena;
  arena.add("x"); // the list does not start at an aligned address
  const core::ViewList tags = arena.add_list({"linux", "", "macos"});
  EXPECT_THAT(tags, ElementsAre("linux", "", "macos"));
  EXPECT_EQ(tags.size(), 3U);
  EXPECT_EQ(tags[2], "macos");
  EXPECT_EQ(tags.to_strings(), (std::vector<std::string>{"linux", "", "macos"}));
}

TEST(PathString, ComparesAndJoinsItsPieces) {
  const core::PathString split("/root", "/a/SKILL.md");
  const core::PathString whole("/root/a/SKILL.md");
  EXPECT_EQ(split, whole);
  EXPECT_EQ(split.string(), "/root/a/SKILL.md");
  EXPECT_EQ(split.size(), whole.size());
  EXPECT_EQ(split.path(), std::filesystem::path("/root/a/SKILL.md"));
  EXPECT_EQ(split.filename(), "SKILL.md");
  EXPECT_EQ(split.parent_path(), "/root/a");
  // Byte order of the joined paths, wherever the pieces split.
  EXPECT_LT(core::PathString("/ro", "ot/a"), core::PathString("/root/b"));
  EXPECT_GT(core::PathString("/root", "/b"), core::PathString("/root/a", "/z"));
  EXPECT_LT(core::PathString("/root", ""), core::PathString("/root", "/"));
  EXPECT_EQ(core::PathString().compare(core::PathString("", "")), 0);
  EXPECT_TRUE(core::PathString().empty());
}

// The record's size is what a 50k-skill catalog pays per skill before its
// text; a field that grows it should be a deliberate decision.
TEST(SkillRecord, StaysCompact) {
  EXPECT_LE(sizeof(core::SkillRecord), 192U);
}

} // namespace
} // namespace skillrt::test
