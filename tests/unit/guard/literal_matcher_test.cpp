#include "core/guard/literal_matcher.hpp"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace skillrt::core {
namespace {

std::set<std::pair<std::size_t, std::uint32_t>> hits(const LiteralMatcher& m, std::string_view text) {
  std::set<std::pair<std::size_t, std::uint32_t>> out;
  m.scan(text, [&](std::size_t line, std::uint32_t id) { out.emplace(line, id); });
  return out;
}

TEST(LiteralMatcher, OverlappingAndNested) {
  const LiteralMatcher m({"he", "she", "his", "hers"});
  const auto got = hits(m, "ushers");
  const std::set<std::pair<std::size_t, std::uint32_t>> want{{0, 0}, {0, 1}, {0, 3}};
  EXPECT_EQ(got, want);
}

TEST(LiteralMatcher, LinesAndCase) {
  const LiteralMatcher m({"curl", "sudo"});
  const auto got = hits(m, "x\nCURL here\n\nSuDo\ncu\nrl");
  const std::set<std::pair<std::size_t, std::uint32_t>> want{{1, 0}, {3, 1}};
  EXPECT_EQ(got, want); // a literal never spans a line break
}

TEST(LiteralMatcher, FoldsLongSAndKelvin) {
  const LiteralMatcher m({"sudo", "kube"});
  const auto got = hits(m, "\xC5\xBFudo \xE2\x84\xAAube");
  const std::set<std::pair<std::size_t, std::uint32_t>> want{{0, 0}, {0, 1}};
  EXPECT_EQ(got, want);
}

TEST(LiteralMatcher, BinaryAndNonAsciiInputIsHarmless) {
  const LiteralMatcher m({"abc"});
  std::string text;
  for (int i = 0; i < 256; ++i) {
    text.push_back(static_cast<char>(i));
  }
  text += "abc\xC5";
  EXPECT_EQ(hits(m, text).size(), 1u);
}

} // namespace
} // namespace skillrt::core
