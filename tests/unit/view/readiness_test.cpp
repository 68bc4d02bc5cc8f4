#include "core/view/readiness.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/view/dotenv.hpp"
#include "core/yaml/frontmatter.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

YamlNode fm(const std::string& yaml) {
  return parse_frontmatter("---\n" + yaml + "---\nbody\n").fields;
}

Context context_with(const std::filesystem::path& home, std::map<std::string, std::string> env) {
  Context ctx;
  ctx.home = home;
  ctx.env = [env = std::move(env)](std::string_view name) -> std::optional<std::string> {
    const auto it = env.find(std::string(name));
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  return ctx;
}

TEST(Dotenv, ParsesExportQuotesAndComments) {
  const auto values = parse_dotenv("# comment\n"
                                   "export A=1\n"
                                   "B = \"two words\" \n"
                                   "C='single # not a comment'\n"
                                   "D=plain # trailing comment\n"
                                   "E=\n"
                                   "no equals sign\n"
                                   "=novalue\n"
                                   "F=x=y\r\n");
  EXPECT_EQ(values.at("A"), "1");
  EXPECT_EQ(values.at("B"), "two words");
  EXPECT_EQ(values.at("C"), "single # not a comment");
  EXPECT_EQ(values.at("D"), "plain");
  EXPECT_EQ(values.at("E"), "");
  EXPECT_EQ(values.at("F"), "x=y");
  EXPECT_EQ(values.count(""), 0U);
  EXPECT_EQ(values.size(), 6U);
}

TEST(Readiness, NormalisesAllThreeSourcesFirstWins) {
  const auto entries = required_environment_variables(fm("required_environment_variables:\n"
                                                         "  - API_KEY\n"
                                                         "  - name: TOKEN\n"
                                                         "    prompt: Your token\n"
                                                         "    help: Get one at example.org\n"
                                                         "    required_for: uploads\n"
                                                         "    optional: true\n"
                                                         "  - name: 'bad-name'\n"
                                                         "setup:\n"
                                                         "  help: See the setup guide\n"
                                                         "  collect_secrets:\n"
                                                         "    - env_var: API_KEY\n"
                                                         "      prompt: ignored, API_KEY already declared\n"
                                                         "    - env_var: SECRET\n"
                                                         "      provider_url: https://provider.example\n"
                                                         "prerequisites:\n"
                                                         "  env_vars: [LEGACY_VAR, TOKEN]\n"));
  ASSERT_EQ(entries.size(), 4U);
  EXPECT_EQ(entries[0].name, "API_KEY");
  EXPECT_EQ(entries[0].prompt, "Enter value for API_KEY");
  EXPECT_EQ(entries[0].help.value(), "See the setup guide"); // setup.help is the fallback
  EXPECT_EQ(entries[1].name, "TOKEN");
  EXPECT_EQ(entries[1].prompt, "Your token");
  EXPECT_EQ(entries[1].help.value(), "Get one at example.org");
  EXPECT_EQ(entries[1].required_for.value(), "uploads");
  EXPECT_TRUE(entries[1].optional);
  EXPECT_EQ(entries[2].name, "SECRET");
  EXPECT_EQ(entries[2].help.value(), "https://provider.example");
  EXPECT_EQ(entries[3].name, "LEGACY_VAR");
  EXPECT_FALSE(entries[3].optional);
}

TEST(Readiness, SingleMappingAndLegacyStringAreAccepted) {
  const auto entries = required_environment_variables(fm("required_environment_variables:\n"
                                                         "  name: ONLY_ONE\n"
                                                         "prerequisites:\n"
                                                         "  env_vars: LEGACY\n"));
  ASSERT_EQ(entries.size(), 2U);
  EXPECT_EQ(entries[0].name, "ONLY_ONE");
  EXPECT_FALSE(entries[0].help.has_value());
  EXPECT_EQ(entries[1].name, "LEGACY");
}

TEST(Readiness, MissingVariableNeedsSetupWithNote) {
  test::TempTree tree;
  const auto ready = evaluate_readiness(fm("required_environment_variables: [NEEDED]\n"
                                           "setup:\n  help: Create a key first.\n"),
                                        context_with(tree.path(), {}));
  EXPECT_TRUE(ready.setup_needed);
  EXPECT_FALSE(ready.setup_skipped);
  EXPECT_EQ(ready.readiness_status, ReadinessStatus::setup_needed);
  ASSERT_EQ(ready.missing_required_environment_variables.size(), 1U);
  EXPECT_EQ(ready.setup_help.value(), "Create a key first.");
  EXPECT_EQ(ready.setup_note.value(), "Setup needed before using this skill: missing env $NEEDED. Create a key first.");
}

TEST(Readiness, ProcessEnvironmentCountsWhenNotEmpty) {
  test::TempTree tree;
  const YamlNode doc = fm("required_environment_variables: [NEEDED]\n");
  EXPECT_FALSE(evaluate_readiness(doc, context_with(tree.path(), {{"NEEDED", "x"}})).setup_needed);
  EXPECT_TRUE(evaluate_readiness(doc, context_with(tree.path(), {{"NEEDED", ""}})).setup_needed);
}

TEST(Readiness, DotenvKeyDecidesAloneEvenWhenEmpty) {
  test::TempTree tree;
  const YamlNode doc = fm("required_environment_variables: [A, B]\n");
  tree.write(".env", "A=\nexport B='set'\n");
  const auto ready = evaluate_readiness(doc, context_with(tree.path(), {{"A", "from-process"}}));
  // A is present in .env but empty: the process value does not rescue it.
  ASSERT_EQ(ready.missing_required_environment_variables.size(), 1U);
  EXPECT_EQ(ready.missing_required_environment_variables[0], "A");
}

TEST(Readiness, OptionalVariablesNeverBlock) {
  test::TempTree tree;
  const auto ready = evaluate_readiness(fm("required_environment_variables:\n  - name: OPT\n    optional: true\n"),
                                        context_with(tree.path(), {}));
  EXPECT_FALSE(ready.setup_needed);
  EXPECT_EQ(ready.readiness_status, ReadinessStatus::available);
  EXPECT_FALSE(ready.setup_note.has_value());
}

TEST(Readiness, CredentialFilesRelativeToHome) {
  test::TempTree tree;
  tree.write("creds/present.json", "{}");
  const auto ready = evaluate_readiness(
      fm("required_credential_files: [creds/present.json, creds/missing.json, /etc/passwd, ../outside]\n"),
      context_with(tree.path(), {}));
  ASSERT_EQ(ready.missing_credential_files.size(), 3U);
  EXPECT_EQ(ready.missing_credential_files[0], "creds/missing.json");
  EXPECT_TRUE(ready.setup_needed);
  EXPECT_EQ(
      ready.setup_note.value(),
      "Setup needed before using this skill: missing file creds/missing.json, file /etc/passwd, file ../outside.");
}

// HOME/users holds every user's private home: a skill must not learn whether a
// file exists there, whoever runs it.
TEST(Readiness, CredentialFilesNeverProbeTheUsersHomes) {
  test::TempTree tree;
  tree.write("users/bob/memory.json", "{}");
  tree.write("usersx/present.json", "{}");
  for (const std::optional<std::string>& user : {std::optional<std::string>{}, std::optional<std::string>{"alice"}}) {
    Context ctx = context_with(tree.path(), {});
    ctx.user_id = user;
    const auto ready = evaluate_readiness(
        fm("required_credential_files: [users/bob/memory.json, ./users/bob/memory.json, .//users, "
           "users, usersx/present.json]\n"),
        ctx);
    EXPECT_EQ(ready.missing_credential_files,
              (std::vector<std::string>{"users/bob/memory.json", "./users/bob/memory.json", ".//users", "users"}));
  }
}

} // namespace
} // namespace skillrt::core
