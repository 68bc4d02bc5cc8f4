// fuzzy_find_replace: argument errors, uniqueness, replace_all, the drift
// guards, replacement adaptation (re-indent, CRLF, unicode) and
// is_already_applied (spec §2.11 rules 1, 3-6, 8).
#include "core/patch/fuzzy_replace.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::core {
namespace {

std::string error_of(std::string_view content, std::string_view old_string, std::string_view new_string,
                     bool replace_all = false) {
  auto result = fuzzy_find_replace(content, old_string, new_string, replace_all);
  return result ? std::string("<ok>") : result.error().message;
}

FuzzyReplacement applied(std::string_view content, std::string_view old_string, std::string_view new_string,
                         bool replace_all = false) {
  auto result = fuzzy_find_replace(content, old_string, new_string, replace_all);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  return result ? *result : FuzzyReplacement{};
}

TEST(FuzzyReplace, RejectsEmptyWhitespaceOnlyAndIdenticalArguments) {
  EXPECT_EQ(error_of("abc", "", "x"), "old_string cannot be empty");
  EXPECT_EQ(error_of("a  \n\t b", "  \n\t ", "x"), "old_string cannot be only whitespace: it is never a valid anchor");
  EXPECT_EQ(error_of("abc", "abc", "abc"), "old_string and new_string are identical");
}

TEST(FuzzyReplace, NoMatchIsFlagged) {
  auto result = fuzzy_find_replace("alpha\nbeta\n", "gamma", "delta", false);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message, "Could not find a match for old_string in the file");
  EXPECT_TRUE((result.error().code == ErrorCode::not_found));
  auto other = fuzzy_find_replace("alpha", "", "x", false);
  ASSERT_FALSE(other);
  EXPECT_FALSE((other.error().code == ErrorCode::not_found));
}

TEST(FuzzyReplace, ExactReplacesOnceAndReportsStrategy) {
  auto result = applied("one two three", "two", "2");
  EXPECT_EQ(result.content, "one 2 three");
  EXPECT_EQ(result.count, 1U);
  EXPECT_EQ(result.strategy, "exact");
}

TEST(FuzzyReplace, SeveralMatchesListLinesUnlessReplaceAll) {
  EXPECT_EQ(error_of("x\nfoo here\ny\n  foo there\n", "foo", "bar"),
            "Found 2 matches for old_string. Provide more context to make it unique, or use replace_all=True. "
            "Matches:\n  L2: foo here\n  L4: foo there");
  auto result = applied("x\nfoo here\ny\n  foo there\n", "foo", "bar", true);
  EXPECT_EQ(result.content, "x\nbar here\ny\n  bar there\n");
  EXPECT_EQ(result.count, 2U);
}

TEST(FuzzyReplace, MatchListStopsAtFiveAndTruncatesLongLines) {
  std::string content;
  for (int k = 0; k < 7; ++k) {
    content += "item " + std::string(100, 'z') + "\n";
  }
  const std::string row = std::string("item ") + std::string(75, 'z');
  std::string expected = "Found 7 matches for old_string. Provide more context to make it unique, or use "
                         "replace_all=True. Matches:";
  for (int k = 1; k <= 5; ++k) {
    expected += "\n  L" + std::to_string(k) + ": " + row;
  }
  expected += "\n  ... and 2 more";
  EXPECT_EQ(error_of(content, "item", "entry"), expected);
}

TEST(FuzzyReplace, MatchListCountsCodePointsNotBytes) {
  const std::string line = "é" + std::string(90, 'x');  // é is 2 bytes
  const std::string error = error_of(line + "\n" + line + "\n", "x", "y");
  const std::string expected_row = "  L1: é" + std::string(79, 'x') + "\n";
  EXPECT_NE(error.find(expected_row), std::string::npos) << error;
}

TEST(FuzzyReplace, ReplaceAllIsRefusedForSeveralSimilarityMatches) {
  const std::string block = "## Setup\nInstall the tool with pip now.\nThen set the key.\n## End\n";
  const std::string old_string = "## Setup\nInstall the tool using pip.\nThen set your key.\n## End";
  const std::string content = block + "\n" + block;
  const std::string error = error_of(content, old_string, "## Setup\nreplaced\n## End", true);
  EXPECT_EQ(error.rfind("replace_all refused: the similarity strategy 'block_anchor' found 2", 0), 0U) << error;
  // Without replace_all it is the plain uniqueness error.
  EXPECT_EQ(error_of(content, old_string, "x").rfind("Found 2 matches for old_string.", 0), 0U);
}

TEST(FuzzyReplace, ReplaceAllWorksForSeveralLineTrimmedMatches) {
  auto result = applied("  a\n  b\nmid\n\ta\n\tb\n", "a\nb", "c\nd", true);
  EXPECT_EQ(result.strategy, "line_trimmed");
  EXPECT_EQ(result.count, 2U);
  EXPECT_EQ(result.content, "  c\n  d\nmid\n\tc\n\td\n");
}

TEST(FuzzyReplace, EscapeDriftGuardRefusesBackslashedQuotesMissingFromTheFile) {
  const std::string content = "call('value')\nnext line\n";
  const std::string error = error_of(content, "call(\\'value\\')", "call(\\'other\\')");
  EXPECT_EQ(error.rfind("Escape-drift detected", 0), 0U) << error;
  // The guard needs the sequence in both old and new.
  auto result = applied(content, "call(\\'value\\')", "call('other')");
  EXPECT_EQ(result.content, "call('other')\nnext line\n");
  // And it is not applied to exact matches.
  auto exact = applied("x = \\'a\\'\n", "\\'a\\'", "\\'b\\'");
  EXPECT_EQ(exact.content, "x = \\'b\\'\n");
}

TEST(FuzzyReplace, RogueIndentGuardRefusesDeeperLinesWithoutABlockOpener) {
  const std::string error = error_of("  alpha\n  beta\n", "alpha\nbeta", "alpha\n        beta");
  EXPECT_EQ(error.rfind("Suspicious indentation in new_string", 0), 0U) << error;
  // A line ending in ':' makes deeper lines legitimate.
  auto result = applied("  alpha:\n  beta\n", "alpha:\nbeta", "alpha:\n  beta");
  EXPECT_EQ(result.strategy, "line_trimmed");
  // Exact matches are never guarded.
  auto exact = applied("alpha\nbeta\n", "alpha\nbeta", "alpha\n    beta");
  EXPECT_EQ(exact.content, "alpha\n    beta\n");
}

// Spec §5.1 item 8: the original only swapped the first line's indent.
TEST(FuzzyReplace, ReindentMapsEveryLevelFromTwoSpaceToFourSpace) {
  const std::string content = "# List\n- item\n    - sub\n        - deep\n- other\n";
  auto result = applied(content, "- item\n  - sub\n    - deep", "- item\n  - sub\n    - deep\n    - deep2\n  - sub2");
  EXPECT_EQ(result.strategy, "line_trimmed");
  EXPECT_EQ(result.content,
            "# List\n- item\n    - sub\n        - deep\n        - deep2\n    - sub2\n- other\n");
}

TEST(FuzzyReplace, ReindentAddsTheRegionBaseAndConvertsLevels) {
  const std::string content = "def f():\n    if x:\n        go()\n    done()\n";
  auto result = applied(content, "if x:\n  go()", "if x:\n  go()\n  again()\nstop()");
  EXPECT_EQ(result.content, "def f():\n    if x:\n        go()\n        again()\n    stop()\n    done()\n");
}

TEST(FuzzyReplace, ReindentUsesTabsInATabIndentedRegion) {
  auto result = applied("- a\n\t- b\n\t\t- c\nend\n", "- a\n  - b\n    - c", "- a\n  - b\n    - c\n  - d");
  EXPECT_EQ(result.content, "- a\n\t- b\n\t\t- c\n\t- d\nend\n");
}

TEST(FuzzyReplace, ReindentLeavesNewAloneWhenOldIndentationIsRight) {
  // whitespace_normalized match: indentation of old equals the file's.
  auto result = applied("  x  =  1\n", "  x = 1", "  x = 2");
  EXPECT_EQ(result.strategy, "whitespace_normalized");
  EXPECT_EQ(result.content, "  x = 2\n");
}

TEST(FuzzyReplace, LiteralTabAndCrBecomeRealOnlyWhenTheRegionHasThem) {
  auto with_tab = applied("\tkey:\tvalue\nrest\n", "key: value", "key:\\tother");
  EXPECT_EQ(with_tab.strategy, "whitespace_normalized");
  EXPECT_EQ(with_tab.content, "\tkey:\tother\nrest\n");
  auto without_tab = applied("key:  value\nrest\n", "key: value", "key:\\tother");
  EXPECT_EQ(without_tab.content, "key:\\tother\nrest\n");
}

TEST(FuzzyReplace, LiteralCrBecomesRealOnlyWhenTheRegionHasOne) {
  auto result = applied("  a\r\n  b\r\n", "a\nb", "a\\r\nc");
  EXPECT_EQ(result.strategy, "line_trimmed");
  EXPECT_EQ(result.content, "  a\r\n  c\r\n");  // not "a\\r\r\n": the literal became the real CR
}

TEST(FuzzyReplace, ReplaceAllIsRefusedForSeveralContextAwareMatches) {
  const std::string content = "def compute_total(items):\n    return sum(items)\n\ndef compute_total(items):\n    return sum(items)\n";
  const std::string error = error_of(content.substr(0, 48) + "\nx\n" + content.substr(48),
                                     "def compute_totals(items):\n    return sum(item)", "def f():\n    pass", true);
  EXPECT_EQ(error.rfind("replace_all refused: the similarity strategy 'context_aware' found 2", 0), 0U) << error;
}

TEST(FuzzyReplace, EscapeNormalizedDecodesNewlinesInNew) {
  auto result = applied("first\nsecond\nthird\n", "first\\nsecond", "one\\ntwo");
  EXPECT_EQ(result.strategy, "escape_normalized");
  EXPECT_EQ(result.content, "one\ntwo\nthird\n");
}

TEST(FuzzyReplace, CrlfFilesStayCrlf) {
  auto exact = applied("a\r\nb\r\nc\r\n", "a\r\nb", "x\r\ny");
  EXPECT_EQ(exact.strategy, "exact");
  EXPECT_EQ(exact.content, "x\r\ny\r\nc\r\n");
  auto trimmed = applied("a\r\nb\r\nc\r\n", "a\nb", "x\ny");
  EXPECT_EQ(trimmed.strategy, "line_trimmed");
  EXPECT_EQ(trimmed.content, "x\r\ny\r\nc\r\n");
}

TEST(FuzzyReplace, UnicodeReplacementKeepsTheFileCharactersOutsideTheChange) {
  const std::string content = "Intro\nHe said \u201chello\u201d \u2014 then left\u2026\nOutro\n";
  auto result = applied(content, "He said \"hello\" -- then left...", "He said \"hello\" -- then ran...");
  EXPECT_EQ(result.strategy, "unicode_normalized");
  EXPECT_EQ(result.content, "Intro\nHe said \u201chello\u201d \u2014 then ran\u2026\nOutro\n");
}

TEST(FuzzyReplace, UnicodeMatchNeverSplitsACharacter) {
  // "-" matches half of an em dash's "--": the whole dash is replaced.
  auto result = applied("a\u2014b", "a-", "x");
  EXPECT_EQ(result.strategy, "unicode_normalized");
  EXPECT_EQ(result.content, "xb");
}

TEST(FuzzyReplace, IsAlreadyApplied) {
  EXPECT_TRUE(is_already_applied("new text here", "old text", "new text here"));
  EXPECT_FALSE(is_already_applied("new text here and old text", "old text", "new text here"));
  EXPECT_TRUE(is_already_applied("same thing twice", "same thing", "same thing"));
  EXPECT_FALSE(is_already_applied("ab cd ef", "x", "ab cd ef"));  // only 6 non-blank chars
  EXPECT_FALSE(is_already_applied("nothing", "old", "something else"));
}

}  // namespace
}  // namespace skillrt::core
