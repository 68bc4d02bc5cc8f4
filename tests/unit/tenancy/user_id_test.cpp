// The user-id grammar: an id becomes a folder name under HOME/users, so every
// path trick must be refused before it reaches the filesystem.
#include "core/tenancy/user_id.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::test {
namespace {

using core::check_org_id;
using core::check_user_id;

TEST(UserId, AcceptsTheDocumentedAlphabet) {
  for (const char* id : {"alice", "u1", "A", "bob.smith", "x_y", "mail@example.org", "a-b", "0", "a..b", "u.", "9"}) {
    EXPECT_TRUE(check_user_id(id)) << id;
  }
  EXPECT_TRUE(check_user_id(std::string(64, 'a')));
}

TEST(UserId, RefusesPathTricks) {
  const std::string with_nul("a\0b", 3);
  for (const std::string& id :
       {std::string(""), std::string("."), std::string(".."), std::string("../x"), std::string("a/b"),
        std::string("/abs"), std::string("a\\b"), std::string("%2e%2e"), std::string("%2F"), with_nul,
        std::string("a b"), std::string(" a"), std::string("a\n"), std::string("a\t"), std::string("-rf"),
        std::string(".hidden"), std::string("caf\xC3\xA9"), std::string("\xE7\x94\xA8\xE6\x88\xB7"),
        std::string("a:b"), std::string("a*"), std::string("~"), std::string("$HOME"), std::string(65, 'a')}) {
    auto checked = check_user_id(id);
    ASSERT_FALSE(checked) << "accepted: " << id;
    EXPECT_EQ(checked.error().code, ErrorCode::invalid_argument);
    EXPECT_FALSE(checked.error().message.empty());
  }
}

TEST(UserId, MessagesNameTheRule) {
  EXPECT_NE(check_user_id("").error().message.find("empty"), std::string::npos);
  EXPECT_NE(check_user_id(std::string(65, 'a')).error().message.find("64"), std::string::npos);
  EXPECT_NE(check_user_id("..").error().message.find("start"), std::string::npos);
  EXPECT_NE(check_user_id("a/b").error().message.find("slashes"), std::string::npos);
}

TEST(OrgId, PrintableAsciiWithoutSpaces) {
  for (const char* id : {"0", "acme", "org-7", "a/b", "x:y"}) {
    EXPECT_TRUE(check_org_id(id)) << id;
  }
  for (const std::string& id : {std::string(""), std::string("a b"), std::string("a\n"), std::string("\xC3\xA9"),
                                std::string(65, 'o'), std::string("a\0", 2)}) {
    EXPECT_FALSE(check_org_id(id)) << id;
  }
}

}  // namespace
}  // namespace skillrt::test
