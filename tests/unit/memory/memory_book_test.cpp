#include <gtest/gtest.h>

#include <string>

#include "core/limits.hpp"
#include "core/memory/memory.hpp"

namespace skillrt::core {
namespace {

TEST(MemoryLimits, HermesBudgets) {
  EXPECT_EQ(limits::k_memory_store_chars, 2200u);
  EXPECT_EQ(limits::k_memory_user_profile_chars, 1375u);
  EXPECT_EQ(memory_char_limit(MemoryTarget::memory), 2200u);
  EXPECT_EQ(memory_char_limit(MemoryTarget::user), 1375u);
}

TEST(MemoryTargets, NamesRoundTrip) {
  EXPECT_STREQ(memory_target_name(MemoryTarget::memory), "memory");
  EXPECT_STREQ(memory_target_name(MemoryTarget::user), "user");
  EXPECT_EQ(parse_memory_target("user"), MemoryTarget::user);
  EXPECT_EQ(parse_memory_target("memory"), MemoryTarget::memory);
  EXPECT_FALSE(parse_memory_target("User"));
  EXPECT_FALSE(parse_memory_target(""));
}

TEST(MemoryBook, AddTrimsAndKeepsTargetsApart) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "  project uses CMake \n"));
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::user, "prefers short answers"));
  EXPECT_EQ(stores.memory, std::vector<std::string>{"project uses CMake"});
  EXPECT_EQ(stores.user, std::vector<std::string>{"prefers short answers"});
}

TEST(MemoryBook, EmptyContentRefused) {
  MemoryStores stores;
  auto added = memory_add_entry(stores, MemoryTarget::memory, " \n\t ");
  ASSERT_FALSE(added);
  EXPECT_EQ(added.error().code, ErrorCode::invalid_argument);
  EXPECT_FALSE(memory_add_entry(stores, MemoryTarget::memory, "bad \xff utf8"));
}

TEST(MemoryBook, ExactDuplicateRefused) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "same"));
  auto again = memory_add_entry(stores, MemoryTarget::memory, " same ");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::refused);
  EXPECT_EQ(stores.memory.size(), 1u);
  // The other store is separate: the same text may live there.
  EXPECT_TRUE(memory_add_entry(stores, MemoryTarget::user, "same"));
}

TEST(MemoryBook, LimitCountsAllEntriesIncludingTheNewOne) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::user, std::string(1000, 'a')));
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::user, std::string(375, 'b'))); // exactly 1375
  EXPECT_EQ(memory_used_chars(stores.user), 1375u);
  auto over = memory_add_entry(stores, MemoryTarget::user, "c");
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(over.error().message.find("1376/1375"), std::string::npos) << over.error().message;
  EXPECT_EQ(stores.user.size(), 2u);
}

TEST(MemoryBook, LimitCountsCodePointsNotBytes) {
  MemoryStores stores;
  // "é" is 2 bytes, "😀" 4 bytes: 2200 code points fit although they are far more bytes.
  std::string text;
  for (int i = 0; i < 1100; ++i) {
    text += "é";
  }
  for (int i = 0; i < 1100; ++i) {
    text += "😀";
  }
  ASSERT_GT(text.size(), 2200u);
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, text));
  EXPECT_EQ(memory_used_chars(stores.memory), 2200u);
  EXPECT_FALSE(memory_add_entry(stores, MemoryTarget::memory, "é"));
}

TEST(MemoryBook, EntryCountIsBounded) {
  MemoryStores stores;
  for (std::size_t i = 0; i < limits::k_max_memory_entries; ++i) {
    ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, std::to_string(i)));
  }
  auto extra = memory_add_entry(stores, MemoryTarget::memory, "one more");
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error().code, ErrorCode::limit_exceeded);
}

TEST(MemoryBook, ReplaceNeedsExactlyOneMatch) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "deploy with make deploy"));
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "deploy target is prod-eu"));
  auto none = memory_replace_entry(stores, MemoryTarget::memory, "staging", "x");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::not_found);
  EXPECT_NE(none.error().message.find("staging"), std::string::npos);
  auto several = memory_replace_entry(stores, MemoryTarget::memory, "deploy", "x");
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error().code, ErrorCode::ambiguous);
  EXPECT_NE(several.error().message.find("more specific"), std::string::npos);
  ASSERT_TRUE(memory_replace_entry(stores, MemoryTarget::memory, "prod-eu", "deploy target is prod-us"));
  EXPECT_EQ(stores.memory[1], "deploy target is prod-us");
  EXPECT_EQ(stores.memory[0], "deploy with make deploy");
}

TEST(MemoryBook, ReplaceMatchIsCaseSensitiveSubstring) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "Uses Python"));
  EXPECT_FALSE(memory_replace_entry(stores, MemoryTarget::memory, "python", "x"));
  EXPECT_TRUE(memory_replace_entry(stores, MemoryTarget::memory, "Pyth", "Uses Rust"));
}

TEST(MemoryBook, ReplaceChecksTheBudgetWithoutTheOldEntry) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::user, std::string(1375, 'a')));
  // Same size: fits because the old entry leaves.
  EXPECT_TRUE(memory_replace_entry(stores, MemoryTarget::user, "aaa", std::string(1375, 'b')));
  auto over = memory_replace_entry(stores, MemoryTarget::user, "bbb", std::string(1376, 'c'));
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(stores.user[0], std::string(1375, 'b'));
}

TEST(MemoryBook, ReplaceIntoAnotherEntrysTextRefused) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "one"));
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "two"));
  EXPECT_FALSE(memory_replace_entry(stores, MemoryTarget::memory, "one", "two"));
  EXPECT_TRUE(memory_replace_entry(stores, MemoryTarget::memory, "one", "one")); // itself: fine
}

TEST(MemoryBook, RemoveNeedsExactlyOneMatch) {
  MemoryStores stores;
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "alpha one"));
  ASSERT_TRUE(memory_add_entry(stores, MemoryTarget::memory, "alpha two"));
  auto several = memory_remove_entry(stores, MemoryTarget::memory, "alpha");
  ASSERT_FALSE(several);
  EXPECT_EQ(several.error().code, ErrorCode::ambiguous);
  EXPECT_FALSE(memory_remove_entry(stores, MemoryTarget::memory, "beta"));
  EXPECT_FALSE(memory_remove_entry(stores, MemoryTarget::memory, "  "));
  ASSERT_TRUE(memory_remove_entry(stores, MemoryTarget::memory, "two"));
  EXPECT_EQ(stores.memory, std::vector<std::string>{"alpha one"});
  // Only the named target is searched.
  EXPECT_FALSE(memory_remove_entry(stores, MemoryTarget::user, "alpha"));
}

TEST(MemoryFile, RoundTrip) {
  MemoryStores stores;
  stores.memory = {"line one\nline two", "quote \" and \\ é 😀"};
  stores.user = {"likes tea"};
  auto decoded = decode_memory_file(encode_memory_file(stores));
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->memory, stores.memory);
  EXPECT_EQ(decoded->user, stores.user);
  auto empty = decode_memory_file(encode_memory_file(MemoryStores{}));
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->memory.empty());
}

TEST(MemoryFile, RefusesWrongShapes) {
  for (const char* bad : {"[]", "{}", R"({"version":2,"memory":[]})", R"({"version":"1"})",
                          R"({"version":1,"memory":"x"})", R"({"version":1,"user":[1]})", "not json"}) {
    auto decoded = decode_memory_file(bad);
    ASSERT_FALSE(decoded) << bad;
    EXPECT_EQ(decoded.error().code, ErrorCode::parse_error);
  }
  EXPECT_TRUE(decode_memory_file(R"({"version":1})")); // stores never written to are empty
}

} // namespace
} // namespace skillrt::core
