#include "core/guard/snippet.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::core {
namespace {

TEST(Snippet, StripsAndKeepsShortLines) {
  EXPECT_EQ(make_snippet("   rm -rf /   ", 3, 120), "rm -rf /");
}

TEST(Snippet, CutsLongLinesAt117PlusDots) {
  const std::string line(300, 'x');
  const std::string snippet = make_snippet(line, 0, 120);
  EXPECT_EQ(snippet.size(), 120u);
  EXPECT_EQ(snippet.substr(117), "...");
}

TEST(Snippet, WindowAroundALateMatch) {
  const std::string line = std::string(500, 'a') + "PAYLOAD" + std::string(500, 'b');
  const std::string snippet = make_snippet(line, 500, 120);
  EXPECT_NE(snippet.find("PAYLOAD"), std::string::npos);
  EXPECT_EQ(snippet.substr(0, 3), "...");
  EXPECT_EQ(snippet.substr(snippet.size() - 3), "...");
}

TEST(Snippet, CountsCodePointsAndNeverSplitsThem) {
  std::string line;
  for (int i = 0; i < 200; ++i) {
    line += "\xC3\xA9"; // é
  }
  const std::string snippet = make_snippet(line, 0, 120);
  EXPECT_EQ(snippet.size(), 117u * 2 + 3);
  EXPECT_EQ(truncate_chars("\xC3\xA9\xC3\xA9", 2), "\xC3\xA9\xC3\xA9");
  EXPECT_EQ(truncate_chars("abcdef", 5), "ab...");
}

} // namespace
} // namespace skillrt::core
