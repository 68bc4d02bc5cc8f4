// Invocation messages (spec §2.15 rules 5 and 6).
#include "core/commands/invocation_message.hpp"

#include <gtest/gtest.h>

#include "home_fixture.hpp"

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

const std::string k_dir_note = "Relative paths in this skill are relative to that directory; run its scripts with "
                               "the terminal tool by their absolute paths.";

class InvocationMessage : public HomeFixture {
protected:
  core::Invocation invoke(std::string_view input, std::string_view note = "") {
    auto out = core::build_invocation(ctx, cfg, input, note);
    EXPECT_TRUE(out.has_value()) << (out ? "" : out.error().message);
    return out ? *out : core::Invocation{};
  }
  std::string header(const std::string& name) {
    return "[IMPORTANT: The user has invoked the \"" + name +
           "\" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]";
  }
};

TEST_F(InvocationMessage, SingleSkillExactText) {
  const auto md = skill("devops/deploy", "name: deploy\ndescription: Ship it.\n", "Run the steps.\n\n");
  const auto out = invoke("/deploy   to staging ", "Terminal is sandboxed.");
  EXPECT_EQ(out.skills, Strings{"deploy"});
  EXPECT_TRUE(out.missing.empty());
  EXPECT_EQ(out.message, header("deploy") +
                             "\n\n"
                             "---\nname: deploy\ndescription: Ship it.\n---\nRun the steps.\n"
                             "\n"
                             "[Skill directory: " +
                             md.parent_path().string() + "]\n" + k_dir_note +
                             "\n\n"
                             "The user has provided the following instruction alongside the skill invocation: to "
                             "staging\n"
                             "\n"
                             "[Runtime note: Terminal is sandboxed.]");
}

TEST_F(InvocationMessage, ConfigSetupAndSupportingFiles) {
  const auto md = skill("wiki",
                        "name: wiki\ndescription: d\n"
                        "required_environment_variables: [WIKI_TOKEN]\n"
                        "metadata:\n  hermes:\n    config:\n"
                        "      - key: wiki.path\n        description: Where the wiki lives\n"
                        "      - key: wiki.style\n        default: terse\n"
                        "      - key: wiki.owner\n",
                        "Body.\n");
  write(md.parent_path() / "references" / "api.md", "ref\n");
  write(md.parent_path() / "scripts" / "run.py", "print(1)\n");
  config("skills:\n  config:\n    wiki:\n      path: ~/notes\n");
  const auto out = invoke("/wiki");
  const std::string dir = md.parent_path().string();
  const std::string expected_tail = "[Skill config (from " + ctx.config_path().string() +
                                    "):\n"
                                    "  wiki.path = ~/notes\n"
                                    "  wiki.style = terse\n"
                                    "  wiki.owner = (not set)\n"
                                    "]\n"
                                    "\n"
                                    "[Skill setup note: ";
  EXPECT_NE(out.message.find("[Skill directory: " + dir + "]\n" + k_dir_note + "\n\n" + expected_tail),
            std::string::npos)
      << out.message;
  EXPECT_NE(out.message.find("WIKI_TOKEN"), std::string::npos);
  EXPECT_NE(out.message.find("\n\n[This skill has supporting files (paths relative to the skill directory above):]\n"
                             "- references/api.md\n"
                             "- scripts/run.py\n"
                             "Read one with skill_view(name=\"wiki\", file_path=\"<path>\"), or run a script by its "
                             "absolute path."),
            std::string::npos)
      << out.message;
  // No instruction, no runtime note: the message ends with the files part.
  EXPECT_EQ(out.message.substr(out.message.size() - 14), "absolute path.");
}

TEST_F(InvocationMessage, ArgumentsReplaceTheAppendedInstruction) {
  skill("fix", "name: fix\ndescription: d\n", "Fix issue $0 in $1. Whole request: $ARGUMENTS\n");
  const auto out = invoke("/fix 42 \"the parser\"");
  EXPECT_NE(out.message.find("Fix issue 42 in the parser. Whole request: 42 \"the parser\""), std::string::npos);
  EXPECT_EQ(out.message.find("The user has provided the following instruction"), std::string::npos);
}

TEST_F(InvocationMessage, PositionalOnlyStillAppendsTheInstruction) {
  skill("fix", "name: fix\ndescription: d\n", "Fix issue $0.\n");
  const auto out = invoke("/fix 42");
  EXPECT_NE(out.message.find("Fix issue 42."), std::string::npos);
  EXPECT_NE(out.message.find("alongside the skill invocation: 42"), std::string::npos);
}

TEST_F(InvocationMessage, StackedWithMissing) {
  const auto a = skill("a", "name: alpha\ndescription: d\n", "Alpha body.\n");
  const auto b = skill("b", "name: beta\ndescription: d\n", "Beta body.\n");
  const auto out = invoke("/alpha /nope /beta /alpha do both");
  EXPECT_EQ(out.skills, (Strings{"alpha", "beta"}));
  EXPECT_EQ(out.missing, Strings{"/nope"});
  const auto block = [&](const std::string& name, const std::filesystem::path& md, const std::string& body) {
    return "[Loaded as part of the stacked skill invocation \"" + name + "\".]\n\n---\nname: " + name +
           "\ndescription: d\n---\n" + body + "\n\n[Skill directory: " + md.parent_path().string() + "]\n" + k_dir_note;
  };
  EXPECT_EQ(out.message, "[IMPORTANT: The user has invoked the \"/alpha /nope /beta\" stacked skill bundle, loading "
                         "2 skills together. Treat every skill below as active guidance for this turn.]\n"
                         "\n"
                         "Skills loaded: alpha, beta\n"
                         "Skills missing (skipped): /nope\n"
                         "\n"
                         "User instruction: do both\n"
                         "\n" +
                             block("alpha", a, "Alpha body.") + "\n\n" + block("beta", b, "Beta body."));
}

TEST_F(InvocationMessage, AtMostFiveLeadingTokens) {
  for (const char* name : {"s1", "s2", "s3", "s4", "s5", "s6"}) {
    skill(name, std::string("name: ") + name + "\ndescription: d\n");
  }
  const auto out = invoke("/s1 /s2 /s3 /s4 /s5 /s6 go");
  EXPECT_EQ(out.skills, (Strings{"s1", "s2", "s3", "s4", "s5"}));
  EXPECT_NE(out.message.find("User instruction: /s6 go"), std::string::npos);
}

TEST_F(InvocationMessage, PathTokensStartTheInstruction) {
  const auto [tokens, rest] = core::split_invocation("  /deploy /etc/hosts is wrong ");
  EXPECT_EQ(tokens, Strings{"/deploy"});
  EXPECT_EQ(rest, "/etc/hosts is wrong");
}

TEST_F(InvocationMessage, Failures) {
  skill("a", "name: alpha\ndescription: d\n");
  auto no_command = core::build_invocation(ctx, cfg, "hello", "");
  ASSERT_FALSE(no_command.has_value());
  EXPECT_EQ(no_command.error().code, ErrorCode::invalid_argument);
  auto unknown = core::build_invocation(ctx, cfg, "/zzz /yyy go", "");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
  EXPECT_NE(unknown.error().message.find("/zzz, /yyy"), std::string::npos);
}

} // namespace
} // namespace skillrt::test
