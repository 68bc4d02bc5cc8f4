#include "core/manage/skill_lock.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/limits.hpp"
#include "core/files/path_within.hpp"
#include "manage_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using SkillLockTest = test::ManageFixture;

TEST_F(SkillLockTest, LockFileLivesUnderHomeCacheNeverInTheSkill) {
  const fs::path dir = skills() / "s";
  fs::create_directories(dir);
  auto lock = SkillLock::acquire(m_ctx, dir);
  ASSERT_TRUE(lock) << lock.error().message;
  const fs::path path = skill_lock_path(m_ctx, dir);
  EXPECT_TRUE(fs::exists(path));
  EXPECT_TRUE(is_within(path, m_ctx.home / "cache" / "locks"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 0);
}

TEST_F(SkillLockTest, KeyedOnTheResolvedFolder) {
  const fs::path dir = skills() / "s";
  fs::create_directories(dir);
  fs::create_directory_symlink(dir, skills() / "alias");
  EXPECT_EQ(skill_lock_path(m_ctx, dir), skill_lock_path(m_ctx, skills() / "alias"));
  EXPECT_NE(skill_lock_path(m_ctx, dir), skill_lock_path(m_ctx, skills() / "other"));
}

TEST_F(SkillLockTest, SecondWriterWaitsForTheFirst) {
  const fs::path dir = skills() / "s";
  fs::create_directories(dir);
  std::atomic<bool> second_has_lock{false};
  std::optional<SkillLock> first;
  {
    auto acquired = SkillLock::acquire(m_ctx, dir);
    ASSERT_TRUE(acquired);
    first.emplace(std::move(*acquired));
  }
  std::thread second([&] {
    auto lock = SkillLock::acquire(m_ctx, dir);
    ASSERT_TRUE(lock);
    second_has_lock = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_FALSE(second_has_lock.load());
  first.reset();
  second.join();
  EXPECT_TRUE(second_has_lock.load());
}

TEST(SkillLockLimits, WaitIsBounded) {
  EXPECT_EQ(limits::k_skill_lock_timeout_ms, 30000);
}

TEST_F(SkillLockTest, DifferentSkillsDoNotBlockEachOther) {
  fs::create_directories(skills() / "a");
  fs::create_directories(skills() / "b");
  auto a = SkillLock::acquire(m_ctx, skills() / "a");
  auto b = SkillLock::acquire(m_ctx, skills() / "b");
  EXPECT_TRUE(a);
  EXPECT_TRUE(b);
}

} // namespace
} // namespace skillrt::core
