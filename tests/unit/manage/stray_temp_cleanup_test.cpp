#include "core/manage/stray_temp_cleanup.hpp"

#include <gtest/gtest.h>
#include <sys/time.h>

#include "core/discovery/catalog.hpp"
#include "core/discovery/walker.hpp"
#include "core/limits.hpp"
#include "core/manage/skill_lock.hpp"
#include "manage_fixture.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using StrayTempTest = test::ManageFixture;

void age(const fs::path& path, long seconds) {
  struct timeval times[2];
  ::gettimeofday(&times[0], nullptr);
  times[0].tv_sec -= seconds;
  times[1] = times[0];
  ::lutimes(path.c_str(), times);
}

TEST(StrayTempNames, RecognisesAtomicTempNames) {
  EXPECT_TRUE(is_atomic_temp_name(".SKILL.md.tmp.AbC123"));
  EXPECT_TRUE(is_atomic_temp_name(".api.md.tmp.x7_k2m9q"));
  EXPECT_FALSE(is_atomic_temp_name("SKILL.md.tmp.AbC123"));
  EXPECT_FALSE(is_atomic_temp_name(".tmp.AbC123"));
  EXPECT_FALSE(is_atomic_temp_name(".SKILL.md.tmp."));
  EXPECT_EQ(limits::k_stray_temp_age_s, 60);
}

TEST_F(StrayTempTest, OursGoAtOnceOthersOnlyWhenOld) {
  const fs::path dir = skills() / "s";
  write(dir / "SKILL.md", "x");
  write(dir / ".SKILL.md.tmp.Ab12Cd", "partial");           // ours (mkostemp suffix)
  write(dir / "references" / ".api.md.tmp.Zz99yy", "part"); // ours, deeper
  write(dir / ".SKILL.md.tmp.abcd_123", "young foreign");   // another writer's, fresh
  write(dir / ".notes.md.tmp.old_1234", "old foreign");
  age(dir / ".notes.md.tmp.old_1234", limits::k_stray_temp_age_s + 5);
  write(dir / "references" / "keep.md", "keep");
  EXPECT_EQ(remove_stray_temps(dir), 3U);
  EXPECT_FALSE(fs::exists(dir / ".SKILL.md.tmp.Ab12Cd"));
  EXPECT_FALSE(fs::exists(dir / "references" / ".api.md.tmp.Zz99yy"));
  EXPECT_TRUE(fs::exists(dir / ".SKILL.md.tmp.abcd_123"));
  EXPECT_FALSE(fs::exists(dir / ".notes.md.tmp.old_1234"));
  EXPECT_TRUE(fs::exists(dir / "references" / "keep.md"));
}

TEST_F(StrayTempTest, OldWorkFoldersGoYoungOnesStay) {
  const fs::path old_trash = skills() / ".skillrt-trash-AAAAAA";
  const fs::path young_new = skills() / ".skillrt-new-BBBBBB";
  write(old_trash / "SKILL.md", "x");
  write(young_new / "SKILL.md", "y");
  age(old_trash, limits::k_stray_temp_age_s + 5);
  EXPECT_EQ(remove_stray_work_dirs(skills()), 1U);
  EXPECT_FALSE(fs::exists(old_trash));
  EXPECT_TRUE(fs::exists(young_new));
}

TEST_F(StrayTempTest, DoctorSweepSkipsSkillsBeingWritten) {
  make_skill("cat/a", "a");
  make_skill("b", "b");
  write(skills() / "cat" / "a" / ".SKILL.md.tmp.Ab12Cd", "partial");
  write(skills() / "b" / ".SKILL.md.tmp.Xy34Zw", "partial");
  write(skills() / "cat" / ".skillrt-trash-CCCCCC" / "SKILL.md", "x");
  age(skills() / "cat" / ".skillrt-trash-CCCCCC", limits::k_stray_temp_age_s + 5);
  auto held = SkillLock::acquire(m_ctx, skills() / "b"); // a live writer of b
  ASSERT_TRUE(held);
  const StraySweep sweep = sweep_stray_files(m_ctx, build_catalog(m_ctx, m_cfg));
  EXPECT_EQ(sweep.temp_files, 1U);
  EXPECT_EQ(sweep.work_dirs, 1U);
  EXPECT_EQ(sweep.busy_skills, 1U);
  EXPECT_TRUE(fs::exists(skills() / "b" / ".SKILL.md.tmp.Xy34Zw"));
  EXPECT_FALSE(fs::exists(skills() / "cat" / "a" / ".SKILL.md.tmp.Ab12Cd"));
}

TEST_F(StrayTempTest, OldListingCacheTempsGoYoungOnesAndTheCacheStay) {
  make_skill("a", "a");
  const fs::path cache = listing_cache_path(m_ctx);
  const fs::path dead = cache.parent_path() / ("." + cache.filename().string() + ".tmp.Kx81Pq");
  const fs::path live = cache.parent_path() / ("." + cache.filename().string() + ".tmp.Lw22Mn");
  const fs::path other = cache.parent_path() / ".other.bin.tmp.Ab12Cd";
  write(dead, "");  // a writer killed before its first byte
  write(live, "");  // may belong to a writer saving right now
  write(other, "");
  age(dead, limits::k_stray_temp_age_s + 5);
  age(other, limits::k_stray_temp_age_s + 5);
  const StraySweep sweep = sweep_stray_files(m_ctx, build_catalog(m_ctx, m_cfg));
  EXPECT_EQ(sweep.temp_files, 1U);
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));  // not the cache's: not ours to judge
  EXPECT_EQ(remove_stray_cache_temps(cache), 0U);
}

TEST(StrayTempNames, WalkerNeverListsWorkFolders) {
  EXPECT_TRUE(is_excluded_dir_name(".skillrt-trash-AAAAAA"));
  EXPECT_TRUE(is_excluded_dir_name(".skillrt-new-AAAAAA"));
  EXPECT_FALSE(is_excluded_dir_name("skillrt-new"));
}

} // namespace
} // namespace skillrt::core
