// Usage records: one book per owner, read-modify-write under a lock.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "../manage/manage_fixture.hpp"
#include "core/usage/usage_book.hpp"
#include "core/usage/usage_tally.hpp"
#include "core/util/utc_time.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using UsageBookTest = test::ManageFixture;

TEST_F(UsageBookTest, RecordsViewsUsesAndAuthorship) {
  EXPECT_FALSE(find_usage(m_ctx, Layer::shared, "deploy")->has_value());
  ASSERT_TRUE(record_view(m_ctx, Layer::shared, "deploy"));
  ASSERT_TRUE(record_view(m_ctx, Layer::shared, "deploy"));
  ASSERT_TRUE(record_use(m_ctx, Layer::shared, "deploy"));
  ASSERT_TRUE(update_usage(m_ctx, Layer::shared, "deploy", [](UsageRecord& r) { r.created_by = SkillAuthor::agent; }));
  const auto record = find_usage(m_ctx, Layer::shared, "deploy");
  ASSERT_TRUE(record && record->has_value());
  EXPECT_EQ((*record)->views, 2U);
  EXPECT_EQ((*record)->uses, 1U);
  EXPECT_EQ((*record)->created_by, SkillAuthor::agent);
  EXPECT_TRUE(parse_iso8601_utc((*record)->last_used));
  EXPECT_TRUE(parse_iso8601_utc((*record)->created_at));
  // Where Hermes keeps it: beside the shared skills.
  EXPECT_TRUE(fs::exists(skills() / ".usage.json"));
  ASSERT_TRUE(forget_usage(m_ctx, Layer::shared, "deploy"));
  EXPECT_FALSE(find_usage(m_ctx, Layer::shared, "deploy")->has_value());
}

TEST_F(UsageBookTest, EachUserHasTheirOwnBook) {
  Context alice = m_ctx;
  alice.user_id = "alice";
  Context bob = m_ctx;
  bob.user_id = "bob";
  ASSERT_TRUE(update_usage(alice, Layer::user, "notes", [](UsageRecord& r) { r.pinned = true; }));
  ASSERT_TRUE(update_usage(alice, Layer::database, "notes", [](UsageRecord& r) { r.uses = 7; }));
  EXPECT_FALSE(find_usage(bob, Layer::user, "notes")->has_value());
  EXPECT_TRUE((*find_usage(alice, Layer::user, "notes"))->pinned);
  EXPECT_EQ((*find_usage(alice, Layer::database, "notes"))->uses, 7U);
  EXPECT_FALSE((*find_usage(alice, Layer::database, "notes"))->pinned);  // a separate key space
  EXPECT_TRUE(fs::exists(m_ctx.home / "users" / "alice" / "usage.json"));
  EXPECT_FALSE(fs::exists(m_ctx.home / "users" / "bob" / "usage.json"));
  // The user layers need a user.
  EXPECT_FALSE(find_usage(m_ctx, Layer::user, "notes"));
}

TEST_F(UsageBookTest, ConcurrentWritersLoseNoCount) {
  constexpr int k_threads = 4;
  constexpr int k_each = 25;
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < k_each; ++i) {
        ASSERT_TRUE(record_view(m_ctx, Layer::shared, "busy"));
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ((*find_usage(m_ctx, Layer::shared, "busy"))->views, static_cast<std::uint64_t>(k_threads * k_each));
}

TEST_F(UsageBookTest, AFileItDidNotWriteIsAnErrorNotAGuess) {
  write(skills() / ".usage.json", R"({"version":1,"skills":{"x":{"created_by":"robot"}}})");
  auto found = find_usage(m_ctx, Layer::shared, "x");
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().code, ErrorCode::parse_error);
  EXPECT_NE(found.error().message.find("created_by"), std::string::npos);
  write(skills() / ".usage.json", R"({"version":1,"skills":{"x":{"views":1,"views":2}}})");
  EXPECT_FALSE(find_usage(m_ctx, Layer::shared, "x"));  // duplicate keys
  write(skills() / ".usage.json", "[1,2");
  EXPECT_FALSE(find_usage(m_ctx, Layer::shared, "x"));
  // An update never overwrites what it could not read.
  EXPECT_FALSE(record_view(m_ctx, Layer::shared, "x"));
  EXPECT_EQ(read(skills() / ".usage.json"), "[1,2");
}

TEST_F(UsageBookTest, ASymlinkAtTheBookIsRefused) {
  write(m_root / "elsewhere.json", "{}");
  fs::create_symlink(m_root / "elsewhere.json", skills() / ".usage.json");
  auto viewed = record_view(m_ctx, Layer::shared, "x");
  ASSERT_FALSE(viewed);
  EXPECT_EQ(viewed.error().code, ErrorCode::refused);
  EXPECT_EQ(read(m_root / "elsewhere.json"), "{}");
}

TEST_F(UsageBookTest, TallyWritesItsCountsInOnePassAndKeepsThemWhenItCannot) {
  {
    UsageTally tally(std::chrono::hours(1), 1000);  // no automatic flush in this test
    for (int i = 0; i < 3; ++i) {
      tally.note(m_ctx, Layer::shared, "deploy", UsageEvent::view);
    }
    tally.note(m_ctx, Layer::shared, "deploy", UsageEvent::use);
    EXPECT_EQ(tally.pending_events(), 4U);
    EXPECT_FALSE(fs::exists(skills() / ".usage.json"));  // nothing written yet

    // A book it cannot read keeps the counts for the next flush.
    write(skills() / ".usage.json", "[1,");
    auto failed = tally.flush();
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().code, ErrorCode::parse_error);
    EXPECT_EQ(tally.pending_events(), 4U);
    EXPECT_EQ(read(skills() / ".usage.json"), "[1,");

    // Repaired (a pin made meanwhile), the next flush adds to it and keeps the pin.
    fs::remove(skills() / ".usage.json");
    ASSERT_TRUE(update_usage(m_ctx, Layer::shared, "deploy", [](UsageRecord& r) { r.pinned = true; }));
    ASSERT_TRUE(tally.flush());
    EXPECT_EQ(tally.pending_events(), 0U);
    const auto record = *find_usage(m_ctx, Layer::shared, "deploy");
    ASSERT_TRUE(record);
    EXPECT_EQ(record->views, 3U);
    EXPECT_EQ(record->uses, 1U);
    EXPECT_TRUE(record->pinned);
    EXPECT_TRUE(parse_iso8601_utc(record->last_used));

    tally.note(m_ctx, Layer::shared, "deploy", UsageEvent::view);
  }  // the destructor flushes what is left
  EXPECT_EQ((*find_usage(m_ctx, Layer::shared, "deploy"))->views, 4U);
}

TEST_F(UsageBookTest, TallyFlushesAtItsEventThresholdAndLosesNothingUnderThreads) {
  Context alice = m_ctx;
  alice.user_id = "alice";
  UsageTally tally(std::chrono::hours(1), 50);
  constexpr int k_threads = 4;
  constexpr int k_each = 120;
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < k_each; ++i) {
        tally.note(t % 2 == 0 ? m_ctx : alice, t % 2 == 0 ? Layer::shared : Layer::user, "busy", UsageEvent::view);
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  // The threshold wrote most of it already, one pass per 50 events or so.
  EXPECT_LT(tally.pending_events(), static_cast<std::size_t>(k_threads * k_each));
  EXPECT_TRUE(fs::exists(skills() / ".usage.json"));
  ASSERT_TRUE(tally.flush());
  EXPECT_EQ((*find_usage(m_ctx, Layer::shared, "busy"))->views, static_cast<std::uint64_t>(2 * k_each));
  EXPECT_EQ((*find_usage(alice, Layer::user, "busy"))->views, static_cast<std::uint64_t>(2 * k_each));
}

TEST_F(UsageBookTest, TallyCountsNothingForACallerWithoutABook) {
  UsageTally tally;
  tally.note(m_ctx, Layer::database, "notes", UsageEvent::use);  // database skills need a user
  EXPECT_EQ(tally.pending_events(), 0U);
  ASSERT_TRUE(tally.flush());
}

TEST(UtcTime, ParsesWhatItFormatsAndNothingElse) {
  const auto now = std::chrono::system_clock::now();
  const auto parsed = parse_iso8601_utc(iso8601_utc(now, TimePrecision::milliseconds));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(std::chrono::floor<std::chrono::milliseconds>(*parsed),
            std::chrono::floor<std::chrono::milliseconds>(now));
  EXPECT_TRUE(parse_iso8601_utc("2024-02-29T23:59:59Z"));
  for (const char* bad : {"", "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z",
                          "2026-12-01 07:12:03Z", "2026-12-01T07:12:03", "2026-12-01T07:12:03.5Z", "x026-12-01T07:12:03Z"}) {
    EXPECT_FALSE(parse_iso8601_utc(bad)) << bad;
  }
}

}  // namespace
}  // namespace skillrt::core
