#include "protocol/catalog_json.hpp"

#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "temp_tree.hpp"

namespace skillrt::test {
namespace {

using protocol::Json;

class CatalogJson : public ::testing::Test {
 protected:
  core::Catalog build() const {
    auto ctx = make_context(tree.path("hermes"), tree.root(), {{"HOME", "/nonexistent-home"}});
    return core::build_catalog(ctx, config);
  }
  TempTree tree;
  core::Config config;
};

TEST_F(CatalogJson, EmptyCatalogUsesTheMessageForm) {
  Json out = protocol::list_json(build(), std::nullopt);
  EXPECT_EQ(out.dump(),
            R"({"success":true,"skills":[],"categories":[],"message":"No skills found in skills/ directory."})");
}

TEST_F(CatalogJson, ListShapeMatchesSkillsList) {
  tree.write("hermes/skills/solo/SKILL.md", skill_text("solo", "Solo skill"));
  tree.write("hermes/skills/tools/hammer/SKILL.md", skill_text("hammer", "Hits things"));
  tree.write("hermes/skills/art/brush/SKILL.md", skill_text("brush", "Paints"));
  const core::Catalog catalog = build();
  Json out = protocol::list_json(catalog, std::nullopt);
  ASSERT_TRUE(out["success"].get<bool>());
  std::vector<std::string> keys;
  for (const auto& item : out.items()) {
    keys.push_back(item.key());
  }
  EXPECT_THAT(keys, ::testing::ElementsAre("success", "skills", "categories", "count", "hint"));
  EXPECT_EQ(out["count"], 3);
  EXPECT_EQ(out["categories"], Json::parse(R"(["art","tools"])"));
  EXPECT_EQ(out["hint"], "Use skill_view(name) to see full content, tags, and linked files");
  ASSERT_EQ(out["skills"].size(), 3u);
  const Json& first = out["skills"][0];
  EXPECT_EQ(first["name"], "solo");
  EXPECT_TRUE(first["category"].is_null());
  EXPECT_EQ(first["description"], "Solo skill");
  EXPECT_EQ(first["path"], tree.path("hermes/skills/solo/SKILL.md").string());
  EXPECT_EQ(first["source"], "local");
  EXPECT_EQ(out["skills"][1]["name"], "brush");
  EXPECT_EQ(out["skills"][2]["category"], "tools");

  Json filtered = protocol::list_json(catalog, std::string("tools"));
  EXPECT_EQ(filtered["count"], 1);
  EXPECT_EQ(filtered["categories"], Json::parse(R"(["tools"])"));
  Json none = protocol::list_json(catalog, std::string("missing"));
  EXPECT_EQ(none["count"], 0);
  EXPECT_TRUE(none["skills"].empty());
  EXPECT_FALSE(none.contains("message"));
}

TEST_F(CatalogJson, DoctorExplainsEverything) {
  tree.write("hermes/skills/a/SKILL.md", skill_text("dup", "first"));
  tree.write("hermes/skills/b/SKILL.md", skill_text("dup", "second"));
  tree.write("hermes/skills/mac/SKILL.md", skill_text("mac", "d", "platforms: macos\n"));
  tree.write("hermes/skills/off/SKILL.md", skill_text("off", "d"));
  tree.write("hermes/skills/bad/SKILL.md", "---\nname: bad\ndescription: \xFF\n---\n");
  tree.write("hermes/skills/node_modules/x/SKILL.md", skill_text("x", "d"));
  config.skills.disabled = {"off"};
  config.skills.external_dirs = {tree.path("missing").string()};
  config.problems.push_back(Error{ErrorCode::parse_error, "bad yaml", SourcePos{3, 4}});
  tree.mkdir("proj/.git");
  tree.write("proj/.agents/skills/p/SKILL.md", skill_text("p", "d"));
  auto ctx = make_context(tree.path("hermes"), tree.path("proj"), {{"HOME", "/nonexistent-home"}});
  const core::Catalog catalog = core::build_catalog(ctx, config);
  Json out = protocol::doctor_json(catalog, config);

  EXPECT_TRUE(out["success"].get<bool>());
  ASSERT_EQ(out["roots"].size(), 1u);
  EXPECT_EQ(out["roots"][0]["tier"], "local");
  EXPECT_EQ(out["roots"][0]["skills"], 4);
  ASSERT_EQ(out["shadowed"].size(), 1u);
  EXPECT_EQ(out["shadowed"][0]["name"], "dup");
  EXPECT_EQ(out["shadowed"][0]["winner"], tree.path("hermes/skills/a/SKILL.md").string());
  EXPECT_EQ(out["shadowed"][0]["losers"], Json::array({tree.path("hermes/skills/b/SKILL.md").string()}));
  ASSERT_EQ(out["hidden"].size(), 2u);
  EXPECT_EQ(out["hidden"][0]["reason"], "platform");
  EXPECT_EQ(out["hidden"][1]["reason"], "disabled");
  std::vector<std::string> reasons;
  for (const auto& skip : out["skipped"]) {
    reasons.push_back(skip["reason"].get<std::string>());
  }
  EXPECT_THAT(reasons, ::testing::UnorderedElementsAre("excluded", "not_utf8"));
  EXPECT_EQ(out["untrusted_project"]["root"], tree.path("proj").string());
  EXPECT_EQ(out["untrusted_project"]["skills"], 1);
  ASSERT_EQ(out["dropped_external_dirs"].size(), 1u);
  EXPECT_EQ(out["dropped_external_dirs"][0]["entry"], tree.path("missing").string());
  ASSERT_EQ(out["config_problems"].size(), 1u);
  EXPECT_EQ(out["config_problems"][0]["line"], 3);

  std::string text = protocol::doctor_text(catalog, config, false);
  EXPECT_NE(text.find("Shadowed"), std::string::npos);
  EXPECT_NE(text.find("not_utf8"), std::string::npos);
  EXPECT_NE(text.find("skillrt trust"), std::string::npos);
  EXPECT_EQ(text.find("\x1b["), std::string::npos);
  EXPECT_NE(protocol::doctor_text(catalog, config, true).find("\x1b[1m"), std::string::npos);
}

TEST_F(CatalogJson, NonUtf8PathsNeverBreakTheJson) {
  tree.write("hermes/skills/bad\xFF" "dir/SKILL.md", skill_text("named", "fine text"));
  tree.write("hermes/skills/x\xFE/node_modules/y/SKILL.md", skill_text("y", "d"));
  tree.write("hermes/skills/ok/SKILL.md", skill_text("ok", "d"));
  const core::Catalog catalog = build();
  ASSERT_EQ(catalog.records.size(), 1u);
  Json doctor = protocol::doctor_json(catalog, config);
  std::string dumped;
  ASSERT_NO_THROW(dumped = doctor.dump());
  EXPECT_NE(dumped.find("not_utf8"), std::string::npos);
  EXPECT_NE(dumped.find("\xEF\xBF\xBD"), std::string::npos);  // U+FFFD replacement
  ASSERT_NO_THROW((void)protocol::list_json(catalog, std::nullopt).dump());
}

TEST_F(CatalogJson, DoctorWithNothingHasNullUntrustedProject) {
  Json out = protocol::doctor_json(build(), config);
  EXPECT_TRUE(out["untrusted_project"].is_null());
  EXPECT_TRUE(out["roots"].empty());
}

TEST_F(CatalogJson, ListTextIsATableWithinOneHundredColumns) {
  tree.write("hermes/skills/cat/long/SKILL.md", skill_text("long", std::string(300, 'w')));
  tree.write("hermes/skills/short/SKILL.md", skill_text("short", "Brief"));
  std::string text = protocol::list_text(build(), std::nullopt, false);
  std::istringstream lines(text);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    EXPECT_LE(line.size(), 100u) << line;
    ++count;
  }
  EXPECT_EQ(count, 4);  // header, two rows, footer
  EXPECT_NE(text.find("NAME"), std::string::npos);
  EXPECT_NE(text.find("..."), std::string::npos);
  EXPECT_NE(text.find("2 skills"), std::string::npos);
  EXPECT_EQ(protocol::list_text(core::Catalog{}, std::nullopt, false), "No skills found in skills/ directory.\n");
}

TEST_F(CatalogJson, ListTextCellsAreAlignedAndTerminalSafe) {
  // A category folder and a description carrying terminal escapes: the cells
  // show them as text, and every column still starts under its header.
  tree.write("hermes/skills/evil\x1b]0;t\x07/hostile/SKILL.md",
             "---\nname: hostile\ndescription: \"Hi \\e[2J\\x9b there\"\n---\nBody\n");
  tree.write("hermes/skills/tools/hammer/SKILL.md", skill_text("hammer", "Hits things"));
  const std::string text = protocol::list_text(build(), std::nullopt, false);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find("\xC2\x9B"), std::string::npos) << text;
  EXPECT_NE(text.find("evil\\x1b]0;t\\x07"), std::string::npos) << text;
  EXPECT_NE(text.find("Hi \\x1b[2J\\u009b there"), std::string::npos) << text;
  std::istringstream lines(text);
  std::string header;
  std::getline(lines, header);
  const std::size_t category = header.find("CATEGORY");
  const std::size_t source = header.find("SOURCE");
  const std::size_t description = header.find("DESCRIPTION");
  ASSERT_NE(description, std::string::npos);
  for (std::string line; std::getline(lines, line) && line.find("skills") == std::string::npos;) {
    for (const std::size_t column : {category, source, description}) {
      EXPECT_EQ(line.substr(column - 2, 2), "  ") << line;
      EXPECT_NE(line[column], ' ') << line;
    }
  }
}

}  // namespace
}  // namespace skillrt::test

namespace skillrt::test {
namespace {

// The streamed writer skips plain text eight bytes at a time: every character
// that needs escaping, at every offset in a word, next to UTF-8 and DEL, must
// still come out exactly as the tree dump spells it.
TEST(CatalogJsonStream, EscapesAtEveryOffsetMatchTheTreeDump) {
  core::Catalog catalog;
  const std::vector<std::string> specials = {"\"", "\\", "\x01", "\x1f", "\n", "\t", "\x7f", "\xC3\xA9", " "};
  for (std::size_t offset = 0; offset < 20; ++offset) {
    for (const std::string& special : specials) {
      core::SkillRecord record;
      std::string text(offset, 'x');
      text += special;
      text += std::string(19 - offset, 'y');
      record.name = catalog.strings.add("n" + std::to_string(catalog.records.size()) + text);
      record.description_ref = catalog.descriptions.append(text + text);
      // A path in two pieces, as the catalog keeps them (root, rest).
      record.skill_md = core::PathString(catalog.strings.add("/skills"),
                                         catalog.strings.add("/" + std::to_string(catalog.records.size()) + "/SKILL.md"));
      catalog.listed.push_back(catalog.records.size());
      catalog.records.push_back(std::move(record));
    }
  }
  for (int indent : {-1, 2}) {
    std::ostringstream streamed;
    protocol::write_list_json(streamed, catalog, std::nullopt, indent);
    EXPECT_EQ(streamed.str(), protocol::list_json(catalog, std::nullopt).dump(indent)) << "indent " << indent;
  }
}

TEST(CatalogJsonStream, StreamedListEqualsTheTreeDump) {
  TempTree tree;
  tree.write("hermes/skills/solo/SKILL.md", skill_text("solo", "Quote \" and \\\\ and tab\t and \xC3\xA9"));
  tree.write("hermes/skills/tools/hammer/SKILL.md", skill_text("hammer", "Hits things"));
  tree.write("hermes/skills/art/brush/SKILL.md", skill_text("brush", "Paints"));
  tree.write("hermes/skills/art/pen/SKILL.md", skill_text("pen", "Draws"));
  auto ctx = make_context(tree.path("hermes"), tree.root(), {{"HOME", "/nonexistent-home"}});
  core::Config config;
  const core::Catalog catalog = core::build_catalog(ctx, config);
  const core::Catalog empty;
  for (int indent : {-1, 0, 2, 4}) {
    for (const auto& category : {std::optional<std::string>(), std::optional<std::string>("art"),
                                 std::optional<std::string>("missing")}) {
      for (const core::Catalog* cat : {&catalog, &empty}) {
        std::ostringstream streamed;
        protocol::write_list_json(streamed, *cat, category, indent);
        EXPECT_EQ(streamed.str(), protocol::list_json(*cat, category).dump(indent))
            << "indent " << indent << " category " << category.value_or("(none)");
      }
    }
  }
}

}  // namespace
}  // namespace skillrt::test
