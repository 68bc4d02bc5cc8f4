// $ARGUMENTS and $N in skill bodies.
#include "core/commands/arguments.hpp"

#include <gtest/gtest.h>

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

TEST(SplitArguments, ShellStyle) {
  EXPECT_EQ(core::split_arguments("a  b\tc"), (Strings{"a", "b", "c"}));
  EXPECT_EQ(core::split_arguments("\"two words\" 'single q' x\\ y"), (Strings{"two words", "single q", "x y"}));
  EXPECT_EQ(core::split_arguments("say \"he said \\\"hi\\\"\""), (Strings{"say", "he said \"hi\""}));
  EXPECT_EQ(core::split_arguments("open \"unterminated"), (Strings{"open", "unterminated"}));
  EXPECT_TRUE(core::split_arguments("   ").empty());
}

TEST(SubstituteArguments, WholeAndPositional) {
  const auto out = core::substitute_arguments("Fix $ARGUMENTS now. First: $0, second: $1, again $ARGUMENTS[1].",
                                              "  issue-42 \"the login page\"  ");
  EXPECT_EQ(out.text, "Fix issue-42 \"the login page\" now. First: issue-42, second: the login page, again the "
                      "login page.");
  EXPECT_TRUE(out.used_arguments);
}

TEST(SubstituteArguments, MissingPositionalsStayAsWritten) {
  const auto out = core::substitute_arguments("It costs $5 and $ARGUMENTS[3]; $0 is set.", "one");
  EXPECT_EQ(out.text, "It costs $5 and $ARGUMENTS[3]; one is set.");
  EXPECT_FALSE(out.used_arguments);
}

TEST(SubstituteArguments, OtherDollarsAreUntouched) {
  const auto out = core::substitute_arguments("echo $HOME ${HERMES_SKILL_DIR} $$ $", "x");
  EXPECT_EQ(out.text, "echo $HOME ${HERMES_SKILL_DIR} $$ $");
  EXPECT_FALSE(out.used_arguments);
}

TEST(SubstituteArguments, EmptyInstruction) {
  const auto out = core::substitute_arguments("Target: [$ARGUMENTS] $0", "");
  EXPECT_EQ(out.text, "Target: [] $0");
  EXPECT_TRUE(out.used_arguments);
}

} // namespace
} // namespace skillrt::test
