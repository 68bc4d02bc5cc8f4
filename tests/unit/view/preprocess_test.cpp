#include "core/view/preprocess.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "core/limits.hpp"
#include "core/view/inline_shell.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

using Clock = std::chrono::steady_clock;

TEST(TemplateVars, ReplacesSkillDirAndSessionId) {
  const std::string out = substitute_template_vars("dir=${HERMES_SKILL_DIR} sid=${HERMES_SESSION_ID}",
                                                   std::filesystem::path("/skills/x"), "s-42");
  EXPECT_EQ(out, "dir=/skills/x sid=s-42");
}

TEST(TemplateVars, TokensWithoutValuesStayVerbatim) {
  const std::string text =
      "${HERMES_SESSION_ID} ${HERMES_SESSION_KEY} ${HERMES_BINDING_KEY} ${HOME} ${HERMES_SKILL_DIR}";
  EXPECT_EQ(substitute_template_vars(text, std::nullopt, ""), text);
}

TEST(TemplateVars, ConfigSwitchesThemOff) {
  Context ctx;
  ctx.session_id = "abc";
  SkillsConfig cfg;
  cfg.template_vars = false;
  EXPECT_EQ(preprocess_skill_content("${HERMES_SESSION_ID}", std::nullopt, "/", ctx, cfg, Tier::local), "${HERMES_SESSION_ID}");
  cfg.template_vars = true;
  EXPECT_EQ(preprocess_skill_content("${HERMES_SESSION_ID}", std::nullopt, "/", ctx, cfg, Tier::local), "abc");
}

TEST(InlineShell, OffByDefaultLeavesSnippetsAlone) {
  Context ctx;
  SkillsConfig cfg;
  EXPECT_FALSE(cfg.inline_shell);
  EXPECT_EQ(preprocess_skill_content("x !`echo hi` y", std::nullopt, "/", ctx, cfg, Tier::local), "x !`echo hi` y");
}

TEST(InlineShell, ReplacesSnippetWithOutputRunInSkillDir) {
  test::TempTree tree;
  Context ctx;
  SkillsConfig cfg;
  cfg.inline_shell = true;
  const std::string out = preprocess_skill_content("a !`pwd` b !`printf 'x\\n\\n'` c", tree.path(), "/", ctx, cfg, Tier::local);
  EXPECT_EQ(out, "a " + tree.path().string() + " b x c");
}

TEST(InlineShell, NeverForAnAnonymousNetworkCaller) {
  test::TempTree tree;
  Context ctx;
  ctx.anonymous = true;
  SkillsConfig cfg;
  cfg.inline_shell = true;
  EXPECT_EQ(preprocess_skill_content("a !`echo ran` b", tree.path(), "/", ctx, cfg, Tier::local), "a !`echo ran` b");
}

TEST(InlineShell, OnlySingleLineSnippetsWithoutBackticks) {
  test::TempTree tree;
  const std::string text = "!`echo\nhi` and !`unterminated";
  EXPECT_EQ(expand_inline_shell(text, tree.path(), 5), text);
  EXPECT_EQ(expand_inline_shell("[!``]", tree.path(), 5), "[]");
}

TEST(InlineShell, EmptyStdoutFallsBackToStderr) {
  test::TempTree tree;
  EXPECT_EQ(run_inline_shell("echo oops >&2; exit 3", tree.path(), 5), "oops");
}

TEST(InlineShell, TimeoutKillsTheWholeGroup) {
  test::TempTree tree;
  const auto start = Clock::now();
  // The background sleep keeps the pipe open: only killing the group ends it.
  const std::string out = run_inline_shell("sleep 30 & sleep 30", tree.path(), 1);
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(out, "[inline-shell timeout after 1s: sleep 30 & sleep 30]");
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(InlineShell, TimeoutBelowOneCountsAsOne) {
  test::TempTree tree;
  EXPECT_EQ(run_inline_shell("sleep 10", tree.path(), 0), "[inline-shell timeout after 1s: sleep 10]");
}

TEST(InlineShell, ClosedOutputDoesNotEscapeTheTimeout) {
  test::TempTree tree;
  const auto start = Clock::now();
  const std::string out = run_inline_shell("exec >&- 2>&-; sleep 30", tree.path(), 1);
  EXPECT_EQ(out, "[inline-shell timeout after 1s: exec >&- 2>&-; sleep 30]");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST(InlineShell, EndlessOutputIsCappedQuickly) {
  test::TempTree tree;
  const auto start = Clock::now();
  const std::string out = run_inline_shell("yes", tree.path(), 10);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  const std::string suffix = "...[truncated]";
  ASSERT_EQ(out.size(), limits::k_inline_shell_max_output + suffix.size());
  EXPECT_EQ(out.substr(out.size() - suffix.size()), suffix);
  EXPECT_EQ(out.substr(0, 4), "y\ny\n");
}

TEST(InlineShell, CapCountsCharactersNotBytes) {
  test::TempTree tree;
  // 4001 two-byte characters: cut after 4000 of them.
  const std::string out = run_inline_shell("for i in $(seq 4001); do printf '\\303\\251'; done", tree.path(), 10);
  const std::string suffix = "...[truncated]";
  EXPECT_EQ(out.size(), 2 * limits::k_inline_shell_max_output + suffix.size());
  const std::string exact = run_inline_shell("for i in $(seq 4000); do printf '\\303\\251'; done", tree.path(), 10);
  EXPECT_EQ(exact.size(), 2 * limits::k_inline_shell_max_output);
}

TEST(InlineShell, MissingBashIsReported) {
  test::TempTree tree;
  const char* saved = std::getenv("PATH");
  const std::string old_path = saved != nullptr ? saved : "";
  ::setenv("PATH", tree.path().c_str(), 1);
  const std::string out = run_inline_shell("echo hi", tree.path(), 5);
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(out, "[inline-shell error: bash not found]");
}

TEST(InlineShell, MissingWorkingDirectoryIsAnError) {
  test::TempTree tree;
  const std::string out = run_inline_shell("echo hi", tree.path() / "nope", 5);
  EXPECT_EQ(out.rfind("[inline-shell error: ", 0), 0U) << out;
}

} // namespace
} // namespace skillrt::core
