// The slash-command map (spec §2.15 rules 2 and 4).
#include "core/commands/skill_commands.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "home_fixture.hpp"
#include "protocol/commands_json.hpp"

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

class SkillCommands : public HomeFixture {
protected:
  core::SkillCommands scan() {
    core::CatalogOptions options;
    options.use_cache = false;
    m_catalog = core::build_catalog(ctx, cfg, options);
    return core::scan_skill_commands(m_catalog);
  }
  static Strings keys(const core::SkillCommands& commands) {
    Strings out;
    for (const auto& command : commands.commands) {
      out.push_back(command.command);
    }
    return out;
  }

private:
  core::Catalog m_catalog;
};

TEST_F(SkillCommands, SlugsDescriptionsAndPaths) {
  const auto md = skill("devops/deploy", "name: Deploy Staging\ndescription: Ship it.\n");
  skill("notes", "name: notes\n", "# Notes\n\nKeep a journal of the day.\n");
  skill("empty", "name: empty\n", "# Only a heading\n");
  skill("cjk", "name: 小说拆条\ndescription: Split a novel.\n");
  const auto commands = scan();
  EXPECT_EQ(keys(commands), (Strings{"/deploy-staging", "/empty", "/notes", "/小说拆条"}));
  const auto& deploy = commands.commands[0];
  EXPECT_EQ(deploy.name, "Deploy Staging");
  EXPECT_EQ(deploy.description, "Ship it.");
  EXPECT_EQ(deploy.skill_md, md.string());
  EXPECT_EQ(deploy.skill_dir, md.parent_path().string());
  EXPECT_EQ(commands.commands[1].description, "Invoke the empty skill");
  EXPECT_EQ(commands.commands[2].description, "Keep a journal of the day.");
  EXPECT_TRUE(commands.warnings.empty());
}

TEST_F(SkillCommands, BuiltinCollisionsAreNotRegistered) {
  skill("help", "name: help\ndescription: d\n");
  skill("my-model", "name: Model\ndescription: d\n");
  skill("ok", "name: ok\ndescription: d\n");
  const auto commands = scan();
  EXPECT_EQ(keys(commands), (Strings{"/ok"}));
  ASSERT_EQ(commands.warnings.size(), 2u);
  EXPECT_NE(commands.warnings[0].find("'help' is not registered as /help: that is a built-in command"),
            std::string::npos);
  EXPECT_NE(commands.warnings[1].find("/skill Model"), std::string::npos);
}

TEST_F(SkillCommands, FirstSkillKeepsASharedSlug) {
  skill("a", "name: Deploy App\ndescription: first\n");
  skill("b", "name: deploy-app\ndescription: second\n");
  const auto commands = scan();
  ASSERT_EQ(keys(commands), (Strings{"/deploy-app"}));
  EXPECT_EQ(commands.commands[0].description, "first");
  ASSERT_EQ(commands.warnings.size(), 1u);
  EXPECT_NE(commands.warnings[0].find("already used by skill 'Deploy App'"), std::string::npos);
}

TEST_F(SkillCommands, SkipsLockDirsDisabledAndEmptySlugs) {
  skill(".locks/held", "name: held\ndescription: d\n");
  skill("off", "name: off\ndescription: d\n");
  skill("bang", "name: \"!!!\"\ndescription: d\n");
  config("skills:\n  disabled: [off]\n");
  const auto commands = scan();
  EXPECT_TRUE(commands.commands.empty());
  ASSERT_EQ(commands.warnings.size(), 1u);
  EXPECT_NE(commands.warnings[0].find("'!!!' has no command"), std::string::npos);
}

TEST_F(SkillCommands, ResolvesTelegramExactAndUnderscoreForms) {
  skill("a", "name: deploy-app\ndescription: d\n");
  skill("b", "name: deploy_app\ndescription: d\n");
  skill("c", "name: 小说拆条\ndescription: d\n");
  skill("d", "name: build_it\ndescription: d\n");
  const auto commands = scan();
  ASSERT_EQ(keys(commands), (Strings{"/build_it", "/deploy-app", "/deploy_app", "/小说拆条"}));
  const auto key = [&](std::string_view typed) -> std::string {
    const auto index = core::resolve_skill_command(commands, typed);
    return index ? commands.commands[*index].command : "<none>";
  };
  // Both share the Telegram form deploy_app: the smallest key wins.
  EXPECT_EQ(key("/deploy_app"), "/deploy-app");
  EXPECT_EQ(key("deploy-app"), "/deploy-app");
  EXPECT_EQ(key("/Deploy_App"), "/deploy-app");
  EXPECT_EQ(key("/build-it"), "/build_it");
  EXPECT_EQ(key("/小说拆条"), "/小说拆条");
  EXPECT_EQ(key("/nothing"), "<none>");
  EXPECT_EQ(key("/"), "<none>");
}

TEST_F(SkillCommands, StreamedJsonEqualsTheTree) {
  skill("a", "name: alpha\ndescription: \"Quote \\\" back\\\\slash tab\\t bell\\a\"\n");
  skill("help", "name: help\ndescription: d\n");
  skill("c", "name: 小说拆条\ndescription: Split a novel.\n");
  const auto commands = scan();
  std::ostringstream streamed;
  protocol::write_commands_json(streamed, commands);
  EXPECT_EQ(streamed.str(), protocol::commands_json(commands).dump(2) + "\n");
  std::ostringstream empty;
  protocol::write_commands_json(empty, core::SkillCommands{});
  EXPECT_EQ(empty.str(), protocol::commands_json(core::SkillCommands{}).dump(2) + "\n");
}

} // namespace
} // namespace skillrt::test
