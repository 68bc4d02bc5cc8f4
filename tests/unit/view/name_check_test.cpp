#include "core/view/name_check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"

namespace skillrt::core {
namespace {

std::string error_of(std::string_view name) {
  auto result = checked_lookup_name(name);
  return result ? std::string() : result.error().error;
}

TEST(NameCheck, AcceptsNamesAndRelativePathsAndTrims) {
  EXPECT_EQ(checked_lookup_name("axolotl").value(), "axolotl");
  EXPECT_EQ(checked_lookup_name("  mlops/axolotl \n").value(), "mlops/axolotl");
  EXPECT_EQ(checked_lookup_name("a..b").value(), "a..b"); // `..` inside a component is not traversal
}

TEST(NameCheck, RejectsAbsolutePosixWindowsAndDrivePaths) {
  const std::string relative = "Skill name must be a relative path within the skills directory.";
  EXPECT_EQ(error_of("/etc/passwd"), relative);
  EXPECT_EQ(error_of("C:\\skills\\foo"), relative);
  EXPECT_EQ(error_of("c:foo"), relative);
  EXPECT_EQ(error_of("\\\\server\\share\\x"), relative);
  EXPECT_EQ(error_of("  /abs"), relative); // checked after stripping
  auto result = checked_lookup_name("/x");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().hint.value(), std::string(k_lookup_hint));
  EXPECT_EQ(result.error().code, ErrorCode::invalid_argument);
}

TEST(NameCheck, RejectsTraversalComponentsWithEitherSeparator) {
  const std::string traversal = "Skill name cannot contain '..' path traversal components.";
  EXPECT_EQ(error_of(".."), traversal);
  EXPECT_EQ(error_of("a/../b"), traversal);
  EXPECT_EQ(error_of("a\\..\\b"), traversal);
  EXPECT_EQ(error_of("x/.."), traversal);
}

TEST(NameCheck, RejectsNulEmptyAndOverlongNames) {
  EXPECT_FALSE(checked_lookup_name(std::string("ab\0c", 4)));
  EXPECT_FALSE(checked_lookup_name("   "));
  const std::string longest(limits::k_max_path_length, 'a');
  EXPECT_TRUE(checked_lookup_name(longest));
  auto too_long = checked_lookup_name(longest + "a");
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().code, ErrorCode::limit_exceeded);
}

TEST(NameCheck, NamespaceAliasBecomesCategoryPath) {
  EXPECT_EQ(namespace_alias("mlops:axolotl").value().value(), "mlops/axolotl");
  EXPECT_FALSE(namespace_alias("plain").value().has_value());
  EXPECT_FALSE(namespace_alias("ns:").value().has_value());
}

TEST(NameCheck, NamespaceMustBeWordCharacters) {
  auto bad = namespace_alias("bad ns!:skill");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().error, "Invalid namespace 'bad ns!' in 'bad ns!:skill'. Namespaces must match [a-zA-Z0-9_-]+.");
  EXPECT_FALSE(namespace_alias(":skill"));
}

TEST(NameCheck, NamespaceAliasIsRevalidated) {
  auto traversal = namespace_alias("ns:../../etc");
  ASSERT_FALSE(traversal);
  EXPECT_EQ(traversal.error().error, "Skill name cannot contain '..' path traversal components.");
}

TEST(NameCheck, TraversalAndAbsoluteHelpers) {
  EXPECT_TRUE(has_traversal_component("../x"));
  EXPECT_FALSE(has_traversal_component("...x/y"));
  EXPECT_TRUE(is_absolute_or_drive("/x"));
  EXPECT_TRUE(is_absolute_or_drive("Z:"));
  EXPECT_FALSE(is_absolute_or_drive("ab:c"));
  EXPECT_FALSE(is_absolute_or_drive(""));
}

} // namespace
} // namespace skillrt::core
