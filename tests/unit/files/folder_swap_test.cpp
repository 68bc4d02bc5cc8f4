// The one folder-swap transaction and its recovery, on a real temporary tree:
// every step a crash can interrupt is staged on disk and recovered.
#include "core/files/folder_swap.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "core/files/atomic_file.hpp"
#include "core/limits.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) {
    ++n;
  }
  return n;
}

// A home with an old folder at `root/skill`, a staged new one beside it, a
// journal folder, and the swap that would put the new one in place.
struct SwapWorld {
  TempTree tree;
  FolderSwap swap;

  SwapWorld() {
    tree.write("root/skill/SKILL.md", "old\n");
    tree.write("root/skill/notes/a.txt", "old notes\n");
    tree.write("root/.new-skill/SKILL.md", "new\n");
    tree.mkdir("journal");
    swap.staged = tree.path() / "root/.new-skill";
    swap.target = tree.path() / "root/skill";
    swap.backup_dir = tree.path() / "root";
    swap.backup_prefix = ".old-skill-";
    swap.record = tree.path() / "journal/skill.json";
    swap.extra_members = "\"note\": \"mine\"";
    swap.existing = ExistingTarget::back_up;
  }
  fs::path root() const { return tree.path() / "root"; }
  // Only the target (and, when asked, the staged folder) left in root/.
  std::size_t root_entries() const { return entries_in(root()); }
};

TEST(FolderSwap, ReplacesTheTargetAndLeavesNoBackupOrRecord) {
  SwapWorld world;
  int commits = 0;
  ASSERT_TRUE(swap_folder(world.swap, [&]() -> Result<void> {
    ++commits;
    EXPECT_TRUE(fs::exists(world.swap.record)); // the record is there while the caller commits
    EXPECT_EQ(read(world.swap.target / "SKILL.md"), "new\n");
    return {};
  }));
  EXPECT_EQ(commits, 1);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "new\n");
  EXPECT_FALSE(fs::exists(world.swap.target / "notes"));
  EXPECT_FALSE(fs::exists(world.swap.staged));
  EXPECT_FALSE(fs::exists(world.swap.record));
  EXPECT_EQ(world.root_entries(), 1u); // no backup left beside it
}

TEST(FolderSwap, AFirstPlacementNeedsNoRecordAndRefusesAnExistingTarget) {
  SwapWorld world;
  world.swap.existing = ExistingTarget::refuse;
  world.swap.record.clear();
  auto refused = swap_folder(world.swap);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");

  world.swap.target = world.root() / "fresh";
  ASSERT_TRUE(swap_folder(world.swap));
  EXPECT_EQ(read(world.root() / "fresh/SKILL.md"), "new\n");
  EXPECT_EQ(entries_in(world.tree.path() / "journal"), 0u);
}

TEST(FolderSwap, BackingUpWithoutARecordIsRefusedBeforeAnythingMoves) {
  SwapWorld world;
  world.swap.record.clear();
  ASSERT_FALSE(swap_folder(world.swap));
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");
  EXPECT_TRUE(fs::exists(world.swap.staged));
}

TEST(FolderSwap, AFailedCommitPutsTheOldFolderBack) {
  SwapWorld world;
  auto swapped = swap_folder(world.swap, []() -> Result<void> { return fail(ErrorCode::io_error, "lock file full"); });
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().message, "lock file full");
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");
  EXPECT_EQ(read(world.swap.target / "notes/a.txt"), "old notes\n");
  EXPECT_EQ(read(world.swap.staged / "SKILL.md"), "new\n"); // back where the caller staged it
  EXPECT_FALSE(fs::exists(world.swap.record));
  EXPECT_EQ(world.root_entries(), 2u); // target and staged, no backup
}

TEST(FolderSwap, AMissingStagedFolderFailsWithTheOldFolderInPlace) {
  SwapWorld world;
  fs::remove_all(world.swap.staged);
  auto swapped = swap_folder(world.swap);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().code, ErrorCode::io_error);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");
  EXPECT_FALSE(fs::exists(world.swap.record));
  EXPECT_EQ(world.root_entries(), 1u);
}

TEST(FolderSwap, ARecordIsRefusedForAPathThatIsNotUtf8) {
  SwapWorld world;
  world.tree.write("root/bad\xff/SKILL.md", "old\n");
  world.swap.target = world.root() / "bad\xff";
  auto swapped = swap_folder(world.swap);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().code, ErrorCode::refused);
  EXPECT_NE(swapped.error().message.find("not valid UTF-8"), std::string::npos);
  EXPECT_EQ(read(world.root() / "bad\xff/SKILL.md"), "old\n");
  EXPECT_FALSE(fs::exists(world.swap.record));
}

// --- recovery: each state a crash can leave, staged by hand ---

// Writes the record as swap_folder would with `backup`, and reads it back.
SwapRecord record_of(const SwapWorld& world, const fs::path& backup) {
  EXPECT_TRUE(write_file_atomic(world.swap.record, render_swap_record(world.swap, backup)));
  auto record = read_swap_record(world.swap.record);
  EXPECT_TRUE(record) << (record ? "" : record.error().message);
  return *record;
}

TEST(FolderSwapRecovery, TheRecordKeepsTheCallersMembers) {
  SwapWorld world;
  const SwapRecord record = record_of(world, world.root() / ".old-skill-abc123");
  EXPECT_EQ(record.staged, world.swap.staged);
  EXPECT_EQ(record.target, world.swap.target);
  EXPECT_EQ(record.backup, world.root() / ".old-skill-abc123");
  EXPECT_NE(record.text.find("\"note\": \"mine\""), std::string::npos);
}

TEST(FolderSwapRecovery, ACrashBeforeAnyRenameIsUndone) {
  SwapWorld world;
  const fs::path backup = world.tree.mkdir("root/.old-skill-abc123");
  const SwapRecord record = record_of(world, backup);
  bool finished = false;
  auto recovered = recover_folder_swap(record, [&]() -> Result<void> {
    finished = true;
    return {};
  });
  ASSERT_TRUE(recovered);
  EXPECT_EQ(*recovered, SwapRecovery::undone);
  EXPECT_FALSE(finished);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");
  EXPECT_FALSE(fs::exists(world.swap.record));
  EXPECT_EQ(world.root_entries(), 1u); // staged and the empty backup are gone
}

TEST(FolderSwapRecovery, ACrashBetweenTheTwoRenamesPutsTheOldFolderBack) {
  SwapWorld world;
  const fs::path backup = world.root() / ".old-skill-abc123";
  fs::rename(world.swap.target, backup);
  const SwapRecord record = record_of(world, backup);
  auto recovered = recover_folder_swap(record);
  ASSERT_TRUE(recovered);
  EXPECT_EQ(*recovered, SwapRecovery::undone);
  EXPECT_EQ(read(world.swap.target / "notes/a.txt"), "old notes\n");
  EXPECT_FALSE(fs::exists(backup));
  EXPECT_FALSE(fs::exists(world.swap.staged));
  EXPECT_FALSE(fs::exists(world.swap.record));
}

TEST(FolderSwapRecovery, ACrashAfterTheSwapIsFinished) {
  SwapWorld world;
  const fs::path backup = world.root() / ".old-skill-abc123";
  fs::rename(world.swap.target, backup);
  fs::rename(world.swap.staged, world.swap.target);
  const SwapRecord record = record_of(world, backup);
  int finishes = 0;
  auto recovered = recover_folder_swap(record, [&]() -> Result<void> {
    ++finishes;
    return {};
  });
  ASSERT_TRUE(recovered);
  EXPECT_EQ(*recovered, SwapRecovery::finished);
  EXPECT_EQ(finishes, 1);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "new\n");
  EXPECT_FALSE(fs::exists(backup));
  EXPECT_FALSE(fs::exists(world.swap.record));
}

TEST(FolderSwapRecovery, ACrashAfterTheBackupWentIsFinished) {
  SwapWorld world;
  fs::remove_all(world.swap.target);
  fs::rename(world.swap.staged, world.swap.target);
  const SwapRecord record = record_of(world, world.root() / ".old-skill-abc123"); // already removed
  auto recovered = recover_folder_swap(record);
  ASSERT_TRUE(recovered);
  EXPECT_EQ(*recovered, SwapRecovery::finished);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "new\n");
  EXPECT_FALSE(fs::exists(world.swap.record));
}

TEST(FolderSwapRecovery, AFinishThatFailsKeepsTheRecordAndTheBackup) {
  SwapWorld world;
  const fs::path backup = world.root() / ".old-skill-abc123";
  fs::rename(world.swap.target, backup);
  fs::rename(world.swap.staged, world.swap.target);
  const SwapRecord record = record_of(world, backup);
  auto recovered =
      recover_folder_swap(record, []() -> Result<void> { return fail(ErrorCode::refused, "not what was placed"); });
  ASSERT_FALSE(recovered);
  EXPECT_EQ(recovered.error().message, "not what was placed");
  EXPECT_EQ(read(backup / "SKILL.md"), "old\n");
  EXPECT_TRUE(fs::exists(world.swap.record));
}

TEST(FolderSwapRecovery, SomethingInTheTargetsPlaceKeepsTheBackupAndTheRecord) {
  SwapWorld world;
  const fs::path backup = world.root() / ".old-skill-abc123";
  fs::rename(world.swap.target, backup);
  world.tree.write("root/skill/stranger.txt", "someone else's\n");
  const SwapRecord record = record_of(world, backup);
  auto recovered = recover_folder_swap(record);
  ASSERT_FALSE(recovered);
  EXPECT_EQ(recovered.error().code, ErrorCode::refused);
  EXPECT_EQ(read(backup / "SKILL.md"), "old\n");
  EXPECT_EQ(read(world.swap.target / "stranger.txt"), "someone else's\n");
  EXPECT_TRUE(fs::exists(world.swap.record));

  fs::remove_all(world.swap.target); // the way is clear: the next try puts the old folder back
  recovered = recover_folder_swap(record);
  ASSERT_TRUE(recovered);
  EXPECT_EQ(*recovered, SwapRecovery::undone);
  EXPECT_EQ(read(world.swap.target / "SKILL.md"), "old\n");
}

TEST(FolderSwapRecovery, RecordsThatAreNotCompleteAreRefused) {
  TempTree tree;
  const std::vector<std::string> bad{
      "",
      "not json",
      "[]",
      R"({"staged": "/a", "target": "/b"})",                         // no backup member
      R"({"staged": "", "target": "/b", "backup": ""})",             // empty staged
      R"({"staged": "/a", "target": 7, "backup": ""})",              // not a string
      R"({"staged": "/a", "target": "/b", "backup": "", "backup": "/c"})", // a name twice
      R"({"staged": "/a", "target": "/b", "backup": ""} {})",       // two documents
  };
  for (const std::string& text : bad) {
    tree.write("r.json", text);
    auto record = read_swap_record(tree.path() / "r.json");
    ASSERT_FALSE(record) << text;
    EXPECT_EQ(record.error().code, ErrorCode::parse_error) << text;
  }
  tree.write("big.json", std::string(limits::k_max_hub_state_bytes + 1, ' '));
  EXPECT_FALSE(read_swap_record(tree.path() / "big.json"));
}

// --- remove_folder ---

TEST(RemoveFolder, RemovesReadOnlyFoldersAndNeverFollowsALink) {
  TempTree tree;
  tree.write("outside/keep.txt", "keep\n");
  tree.write("doomed/ro/deep/f.txt", "x");
  tree.symlink(tree.path() / "outside", "doomed/link");
  tree.chmod("doomed/ro/deep", 0500);
  tree.chmod("doomed/ro", 0500);
  ASSERT_TRUE(remove_folder(tree.path() / "doomed"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(tree.path() / "doomed")));
  EXPECT_EQ(read(tree.path() / "outside/keep.txt"), "keep\n");

  tree.symlink(tree.path() / "outside", "alias");
  ASSERT_TRUE(remove_folder(tree.path() / "alias"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(tree.path() / "alias")));
  EXPECT_EQ(read(tree.path() / "outside/keep.txt"), "keep\n");
  EXPECT_TRUE(remove_folder(tree.path() / "missing")); // nothing to do is not an error
}

} // namespace
} // namespace skillrt::core::files
