// Index visibility conditions (spec §2.16 rule 4).
#include "core/prompt/conditions.hpp"

#include <gtest/gtest.h>

#include "core/yaml/frontmatter.hpp"

namespace skillrt::test {
namespace {

using core::hidden_by_conditions;
using core::SkillConditions;
using core::ToolInfo;
using Strings = std::vector<std::string>;

TEST(Conditions, ReadFromMetadataHermes) {
  const auto fm = core::parse_frontmatter("---\nname: x\nmetadata:\n  hermes:\n    requires_tools: [terminal]\n"
                                          "    requires_toolsets: web\n    fallback_for_tools: [a, b]\n"
                                          "    fallback_for_toolsets: []\n---\nbody\n");
  const SkillConditions c = core::read_conditions(fm.fields);
  EXPECT_EQ(c.requires_tools, Strings{"terminal"});
  EXPECT_EQ(c.requires_toolsets, Strings{"web"});
  EXPECT_EQ(c.fallback_for_tools, (Strings{"a", "b"}));
  EXPECT_TRUE(c.fallback_for_toolsets.empty());
}

TEST(Conditions, TopLevelKeysAreNotConditions) {
  const auto fm = core::parse_frontmatter("---\nrequires_tools: [terminal]\n---\n");
  EXPECT_TRUE(core::read_conditions(fm.fields).empty());
}

TEST(Conditions, NoToolInfoShowsEverything) {
  SkillConditions c;
  c.requires_tools = {"missing"};
  c.fallback_for_toolsets = {"web"};
  EXPECT_FALSE(hidden_by_conditions(c, ToolInfo{}));
}

TEST(Conditions, RequiresHideWhenAnyMissing) {
  SkillConditions c;
  c.requires_tools = {"terminal", "browser"};
  EXPECT_TRUE(hidden_by_conditions(c, ToolInfo{Strings{"terminal"}, std::nullopt}));
  EXPECT_FALSE(hidden_by_conditions(c, ToolInfo{Strings{"terminal", "browser"}, std::nullopt}));
  // Toolsets given but tools not: the required tools count as missing.
  EXPECT_TRUE(hidden_by_conditions(c, ToolInfo{std::nullopt, Strings{"web"}}));
  SkillConditions sets;
  sets.requires_toolsets = {"web"};
  EXPECT_FALSE(hidden_by_conditions(sets, ToolInfo{std::nullopt, Strings{"web"}}));
  EXPECT_TRUE(hidden_by_conditions(sets, ToolInfo{Strings{}, Strings{}}));
}

TEST(Conditions, FallbacksHideWhenAnyAvailable) {
  SkillConditions c;
  c.fallback_for_tools = {"web_search"};
  c.fallback_for_toolsets = {"browser"};
  EXPECT_TRUE(hidden_by_conditions(c, ToolInfo{Strings{"web_search"}, std::nullopt}));
  EXPECT_TRUE(hidden_by_conditions(c, ToolInfo{std::nullopt, Strings{"browser"}}));
  EXPECT_FALSE(hidden_by_conditions(c, ToolInfo{Strings{"terminal"}, Strings{"web"}}));
}

} // namespace
} // namespace skillrt::test
