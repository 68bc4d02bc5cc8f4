// The nine strategies of spec §2.11 rule 2: each case is matched by its
// strategy and by none of the earlier ones (checked through the driver,
// which reports the first strategy that matched).
#include <gtest/gtest.h>

#include <string>

#include "core/patch/fuzzy_detail.hpp"
#include "core/patch/fuzzy_replace.hpp"

namespace skillrt::core {
namespace {

using fuzzy::Span;

struct Outcome {
  std::string strategy;
  std::string content;
};

Outcome run(std::string_view content, std::string_view old_string, std::string_view new_string) {
  auto result = fuzzy_find_replace(content, old_string, new_string, false);
  if (!result) {
    return Outcome{"<error> " + result.error().message, ""};
  }
  return Outcome{result->strategy, result->content};
}

TEST(Strategies, ExactIsNonOverlapping) {
  EXPECT_EQ(fuzzy::match_exact("aaaa", "aa"), (std::vector<Span>{{0, 2}, {2, 4}}));
  EXPECT_EQ(fuzzy::match_exact("aaa", "aa"), (std::vector<Span>{{0, 2}}));
  EXPECT_TRUE(fuzzy::match_exact("ab", "abc").empty());
}

TEST(Strategies, LineTrimmedSpansWholeLines) {
  const std::string content = "head\n  foo()  \n\tbar()\ntail";
  EXPECT_EQ(fuzzy::match_line_trimmed(content, "foo()\nbar()"), (std::vector<Span>{{5, 21}}));
  const auto outcome = run(content, "foo()\nbar()", "baz()");
  EXPECT_EQ(outcome.strategy, "line_trimmed");
  EXPECT_EQ(outcome.content, "head\n  baz()\ntail");
}

TEST(Strategies, WhitespaceNormalizedMapsCollapsedRunsBack) {
  const std::string content = "x = 1  +\t 2;\n";
  EXPECT_TRUE(fuzzy::match_line_trimmed(content, "1 + 2").empty());
  EXPECT_EQ(fuzzy::match_whitespace_normalized(content, "1 + 2"), (std::vector<Span>{{4, 11}}));
  const auto outcome = run(content, "1 + 2", "3");
  EXPECT_EQ(outcome.strategy, "whitespace_normalized");
  EXPECT_EQ(outcome.content, "x = 3;\n");
}

TEST(Strategies, IndentationFlexibleStripsOnlyLeadingWhitespace) {
  // Every indentation_flexible match is also a line_trimmed match (strip is
  // looser than lstrip), so in the fixed order it can never be the first to
  // match; its own behaviour is checked directly.
  const std::string content = "    alpha\n\tbeta\n";
  EXPECT_EQ(fuzzy::match_indentation_flexible(content, "alpha\nbeta"), (std::vector<Span>{{0, 15}}));
  EXPECT_TRUE(fuzzy::match_indentation_flexible("alpha  \nbeta", "alpha\nbeta").empty());
  EXPECT_FALSE(fuzzy::match_line_trimmed("alpha  \nbeta", "alpha\nbeta").empty());
}

TEST(Strategies, EscapeNormalizedOnlyForLiteralControlEscapes) {
  const std::string content = "one\ttwo\nthree\n";
  EXPECT_EQ(fuzzy::match_escape_normalized(content, "one\\ttwo\\nthree"), (std::vector<Span>{{0, 13}}));
  EXPECT_TRUE(fuzzy::match_escape_normalized("a\"b", "a\\\"b").empty());  // \" is not a control escape
  const auto outcome = run(content, "one\\ttwo\\nthree", "four");
  EXPECT_EQ(outcome.strategy, "escape_normalized");
  EXPECT_EQ(outcome.content, "four\n");
}

TEST(Strategies, TrimmedBoundaryStripsOnlyFirstAndLastLines) {
  // Like indentation_flexible, shadowed by line_trimmed in the fixed order.
  const std::string content = "  start\n  middle\n  end  \n";
  EXPECT_EQ(fuzzy::match_trimmed_boundary(content, "start\n  middle\nend"), (std::vector<Span>{{0, 24}}));
  EXPECT_TRUE(fuzzy::match_trimmed_boundary(content, "start\nmiddle\nend").empty());
  EXPECT_EQ(fuzzy::match_trimmed_boundary("a\n  x  \nb", " x "), (std::vector<Span>{{2, 7}}));
}

TEST(Strategies, UnicodeNormalizedFoldsBothSides) {
  const std::string content = "Use \u201csmart\u201d quotes \u2013 and\u00a0spaces\u2026\n";
  const auto outcome = run(content, "Use \"smart\" quotes - and spaces...", "Plain.");
  EXPECT_EQ(outcome.strategy, "unicode_normalized");
  EXPECT_EQ(outcome.content, "Plain.\n");
  // The ASCII side may be the file too.
  EXPECT_EQ(run("it's \"fine\"\n", "it\u2019s \u201cfine\u201d", "ok").strategy, "unicode_normalized");
}

TEST(Strategies, UnicodeNormalizedFallsBackToLineTrimmedOnFoldedText) {
  const std::string content = "  \u2018a\u2019\n    \u2014b\n";
  EXPECT_EQ(fuzzy::match_unicode_normalized(content, "'a'\n--b"), (std::vector<Span>{{0, content.size() - 1}}));
}

TEST(Strategies, BlockAnchorNeedsEqualEndsAndASimilarMiddle) {
  const std::string content = "# Title\n## Setup\nInstall the tool with pip.\nThen configure the key.\n## Usage\nrun it\n";
  const std::string old_string = "## Setup\nInstall the tool using pip.\nThen configure your key.\n## Usage";
  const auto outcome = run(content, old_string, "## Setup\nDone.\n## Usage");
  EXPECT_EQ(outcome.strategy, "block_anchor");
  EXPECT_EQ(outcome.content, "# Title\n## Setup\nDone.\n## Usage\nrun it\n");
  // A dissimilar middle is rejected.
  EXPECT_TRUE(fuzzy::match_block_anchor(content, "## Setup\nzzzz qqqq\nwwww yyyy\n## Usage").empty());
  // One line is not enough; two lines count as fully similar.
  EXPECT_TRUE(fuzzy::match_block_anchor(content, "## Setup").empty());
  EXPECT_FALSE(fuzzy::match_block_anchor("a\n\u201cb\u201d\n", "a\n\"b\"").empty());
}

TEST(Strategies, BlockAnchorUsesTheStricterThresholdForSeveralCandidates) {
  // Middle ratio ~0.6: accepted alone, rejected when two candidates compete.
  const std::string block = "begin\nabcdefghij\nend\n";
  const std::string old_string = "begin\nabcdefXYZW\nend";
  ASSERT_EQ(fuzzy::match_block_anchor(block, old_string).size(), 1U);
  EXPECT_TRUE(fuzzy::match_block_anchor(block + block, old_string).empty());
}

TEST(Strategies, ContextAwareNeedsEverySignificantLineSimilar) {
  const std::string content = "def compute_total(items):\n    return sum(items)\n\nprint(1)\n";
  const std::string old_string = "def compute_totals(items):\n    return sum(item)";
  const auto outcome = run(content, old_string, "def compute_total(items):\n    return 0");
  EXPECT_EQ(outcome.strategy, "context_aware");
  EXPECT_EQ(outcome.content, "def compute_total(items):\n    return 0\n\nprint(1)\n");
  // A middle line that is not similar enough rejects the window.
  EXPECT_TRUE(fuzzy::match_context_aware("alpha one\ntotally different\nomega two\n",
                                         "alpha one\nthe middle line\nomega two")
                  .empty());
  // Blank pattern lines align with anything.
  EXPECT_EQ(fuzzy::match_context_aware("alpha one\nwhatever\nomega two\n", "alpha one\n\nomega two").size(), 1U);
}

TEST(Strategies, EarlierStrategiesWin) {
  // Matches exactly and also fuzzily: exact decides.
  EXPECT_EQ(run("a b\n", "a b", "c").strategy, "exact");
  EXPECT_EQ(run("  a\n  b\n", "a\nb", "c").strategy, "line_trimmed");
}

}  // namespace
}  // namespace skillrt::core
