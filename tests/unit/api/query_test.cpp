#include "api/query.hpp"

#include <gtest/gtest.h>

namespace skillrt::api {
namespace {

TEST(PercentDecode, DecodesEscapesAndPlusOnlyInQueries) {
  EXPECT_EQ(percent_decode("a%20b%2Fc", false).value(), "a b/c");
  EXPECT_EQ(percent_decode("a+b", false).value(), "a+b");
  EXPECT_EQ(percent_decode("a+b", true).value(), "a b");
  EXPECT_EQ(percent_decode("%C3%A9t%C3%A9", false).value(), "\xC3\xA9t\xC3\xA9");
}

TEST(PercentDecode, RefusesMalformedEscapesNulAndNonUtf8) {
  for (const char* bad : {"%", "%2", "%zz", "a%2", "%G0"}) {
    const auto decoded = percent_decode(bad, false);
    ASSERT_FALSE(decoded) << bad;
    EXPECT_EQ(decoded.error().code, ErrorCode::invalid_argument);
  }
  EXPECT_FALSE(percent_decode("a%00b", false));
  EXPECT_FALSE(percent_decode("%FF%FE", false));
  EXPECT_FALSE(percent_decode("%C3", false));  // a lone lead byte
}

TEST(PathSegments, SplitsThenDecodesSoAnEncodedSlashStaysInItsSegment) {
  EXPECT_EQ(path_segments("/api/v1/skills/ops%2Fdeploy").value(),
            (std::vector<std::string>{"api", "v1", "skills", "ops/deploy"}));
  EXPECT_FALSE(path_segments("api/v1"));
  EXPECT_FALSE(path_segments("/api//v1"));
  EXPECT_FALSE(path_segments("/api/v1/"));
}

TEST(Query, ParsesPairsFlagsAndNumbers) {
  const auto query = Query::parse("limit=20&q=two+words&flag&layer=user").value();
  EXPECT_EQ(query.get("q"), "two words");
  EXPECT_EQ(query.get("missing"), std::nullopt);
  EXPECT_EQ(query.number("limit", 5, 100).value(), 20u);
  EXPECT_EQ(query.number("offset", 5, 100).value(), 5u);
  EXPECT_TRUE(query.flag("flag", false).value());
  EXPECT_FALSE(query.flag("other", false).value());
}

TEST(Query, RefusesRepeatsAndBadNumbers) {
  EXPECT_FALSE(Query::parse("a=1&a=2"));
  const auto query = Query::parse("n=12x&big=101&neg=-1&empty=&f=maybe").value();
  EXPECT_FALSE(query.number("n", 0, 100));
  EXPECT_FALSE(query.number("big", 0, 100));
  EXPECT_FALSE(query.number("neg", 0, 100));
  EXPECT_FALSE(query.number("empty", 0, 100));
  EXPECT_FALSE(query.flag("f", false));
  EXPECT_NE(query.number("big", 0, 100).error().message.find("'big'"), std::string::npos);
}

}  // namespace
}  // namespace skillrt::api
