// Hostile sizes and bytes: every call must return (an error or a result);
// no timing asserts, the point is "no hang, no crash".
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/patch/fuzzy_replace.hpp"
#include "support/deadline.hpp"

namespace skillrt::core {
namespace {

using namespace std::chrono_literals;
using test::finishes_within;

// A hang guard, not a speed target: each case takes a few seconds under ASan.
constexpr std::chrono::seconds k_limit = 120s;

std::string markdown_file(std::size_t bytes) {
  std::string out;
  for (std::size_t k = 0; out.size() < bytes; ++k) {
    out += "## Section " + std::to_string(k) + "\n\nSome prose about step " + std::to_string(k) +
           " with \u201cquotes\u201d.\n- item one\n  - nested item\n\n";
  }
  return out;
}

TEST(HostileInput, TenMegabyteOldString) {
  const std::string content = markdown_file(100'000);
  const std::string old_string(10'000'000, 'x');
  auto result = fuzzy_find_replace(content, old_string, "y", false);
  ASSERT_FALSE(result);
  EXPECT_TRUE((result.error().code == ErrorCode::not_found));
  EXPECT_EQ(did_you_mean(content, old_string), "");
}

TEST(HostileInput, TenMegabyteFileWithNearMiss) {
  const std::string content = markdown_file(10'000'000);
  auto result = finishes_within(k_limit, "a near miss in a 10 MB file", [&] {
    return fuzzy_find_replace(content, "## Section 12345\n\nSome prose about stp 12345", "x", false);
  });
  // Two lines, one of them cut short: no strategy may claim it (a similarity
  // match needs whole lines), so the file is left as it was.
  ASSERT_FALSE(result);
  EXPECT_TRUE((result.error().code == ErrorCode::not_found)) << result.error().message;
}

// The whole file as old_string with one byte changed: every strategy runs on
// two big inputs (2 MB keeps the debug and sanitizer runs short).
TEST(HostileInput, WholeFileOldWithOneByteChanged) {
  std::string content = markdown_file(2'000'000);
  std::string old_string = content;
  old_string[old_string.size() / 2] = '#';
  auto result = finishes_within(k_limit, "a whole 2 MB file as old_string",
                                [&] { return fuzzy_find_replace(content, old_string, "replaced", false); });
  // First and last lines anchor the block and the middle is near enough: the
  // whole file is the one match, replaced as a whole.
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->strategy, "block_anchor");
  EXPECT_EQ(result->count, 1u);
  EXPECT_EQ(result->content, "replaced");
}

TEST(HostileInput, HundredThousandLineOldString) {
  std::string old_string;
  for (int k = 0; k < 100'000; ++k) {
    old_string += "line " + std::to_string(k % 7) + "\n";
  }
  const std::string content = markdown_file(200'000);
  auto result = finishes_within(k_limit, "a 100,000-line old_string",
                                [&] { return fuzzy_find_replace(content, old_string, "x", false); });
  ASSERT_FALSE(result);
  EXPECT_TRUE((result.error().code == ErrorCode::not_found));
  // Indented by two spaces, the first 50,000 bytes (7,142 whole lines and a
  // cut one) recur in the text: trimming each line finds every recurrence.
  auto self = finishes_within(k_limit, "an indented 50 KB prefix of a repetitive file",
                              [&] { return fuzzy_find_replace(old_string, "  " + old_string.substr(0, 50'000), "x", true); });
  ASSERT_TRUE(self) << self.error().message;
  EXPECT_EQ(self->strategy, "line_trimmed");
  EXPECT_EQ(self->count, 13u);
  EXPECT_EQ(self->content.size(), 50'013u);
}

TEST(HostileInput, RepetitiveLinesDoNotBlowUpTheSimilarityStrategies) {
  std::string content;
  for (int k = 0; k < 20'000; ++k) {
    content += "abcdefghij" + std::to_string(k % 10) + "\n";
  }
  std::string old_string;
  for (int k = 0; k < 5'000; ++k) {
    old_string += "abcdefghiX" + std::to_string(k % 10) + "\n";
  }
  auto result = finishes_within(k_limit, "5,000 near-identical lines against 20,000",
                                [&] { return fuzzy_find_replace(content, old_string, "x", false); });
  // Every line is one letter off (similarity 0.91): only the context-aware
  // strategy (spec §2.11: half the lines at 0.8 or better) takes it, once,
  // at the first window, and the similarity work stays bounded.
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->strategy, "context_aware");
  EXPECT_EQ(result->count, 1u);
  EXPECT_EQ(result->content.size(), content.size() - old_string.size() + 1);
}

// Long random lines pass every cheap bound (same letter counts) yet have a
// low exact ratio: the worst case for the ratio work budgets.
TEST(HostileInput, LongRandomLinesHitTheRatioBudgets) {
  std::uint64_t state = 7;
  auto random_line = [&state](std::size_t length) {
    std::string line;
    for (std::size_t k = 0; k < length; ++k) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      line.push_back(static_cast<char>('a' + (state >> 33U) % 26));
    }
    return line;
  };
  std::string content;
  for (int k = 0; k < 100; ++k) {
    content += random_line(4'000) + "\n";
  }
  const std::string old_string = random_line(4'000) + "\n" + random_line(4'000);
  auto result = fuzzy_find_replace(content, old_string, "x", false);
  EXPECT_FALSE(result);
  (void)did_you_mean(content, old_string);
}

TEST(HostileInput, InvalidUtf8AndNulBytes) {
  const std::string content("ab\0c\xff\xfe\n\xe2\x80\n\xc3(\n\0\0\0\n", 17);
  for (const std::string& old_string : {std::string("\0c", 2), std::string("\xff"), std::string("\xe2\x80\nx"),
                                       std::string("\xc3(\n\0", 4), std::string("\xe2\x80\x9c")}) {
    auto result = fuzzy_find_replace(content, old_string, std::string("\0\xff", 2), true);
    if (result) {
      EXPECT_GE(result->count, 1U);
    }
    (void)did_you_mean(content, old_string);
    (void)is_already_applied(content, old_string, "whatever else");
  }
  auto result = fuzzy_find_replace(content, std::string("\0c", 2), "Z", false);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->content, std::string("abZ\xff\xfe\n\xe2\x80\n\xc3(\n\0\0\0\n", 16));
}

}  // namespace
}  // namespace skillrt::core
