// The one tree walker: order, link and special-file policies, the tree limits,
// problems failing or reported, runtime caches, and the content manifest built
// on it — all on a real temporary tree.
#include "core/files/tree_walk.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "core/files/content_manifest.hpp"
#include "core/util/sha256.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::files {
namespace {

namespace fs = std::filesystem;
using test::TempTree;

// A walk's report and the paths it visited, in order.
struct Walked {
  Result<WalkReport> report;
  std::vector<std::string> seen;
};

Walked walk_collect(const fs::path& root, const WalkOptions& options) {
  Walked out{WalkReport{}, {}};
  out.report = walk_tree(root, options, [&out](const WalkEntry& entry) -> Result<void> {
    out.seen.emplace_back(entry.path);
    return {};
  });
  return out;
}

std::vector<std::string> walk_order(const fs::path& root, const WalkOptions& options = {}) {
  Walked walked = walk_collect(root, options);
  EXPECT_TRUE(walked.report) << (walked.report ? "" : walked.report.error().message);
  return walked.seen;
}

std::string walk_error(const fs::path& root, const WalkOptions& options, ErrorCode code) {
  auto walked = walk_tree(root, options, [](const WalkEntry&) -> Result<void> { return {}; });
  EXPECT_FALSE(walked);
  if (walked) {
    return "";
  }
  EXPECT_EQ(walked.error().code, code) << walked.error().message;
  return walked.error().message;
}

TEST(TreeWalk, DepthFirstSortedFolderBeforeItsContentsCachesLeftOut) {
  TempTree tree;
  tree.write("b.md", "b");
  tree.write("a/z.md", "z");
  tree.write("a/y/x.md", "x");
  tree.write("a.md", "a");
  tree.write("a/__pycache__/m.cpython-311.pyc", "bytecode");
  tree.write("a/m.pyc", "bytecode");
  tree.write(".DS_Store", "finder");
  EXPECT_EQ(walk_order(tree.path()), (std::vector<std::string>{"a", "a/y", "a/y/x.md", "a/z.md", "a.md", "b.md"}));
  WalkOptions with_caches;
  with_caches.skip_runtime_caches = false;
  EXPECT_EQ(walk_order(tree.path(), with_caches).size(), 10u);
}

TEST(TreeWalk, ListTreeSortsByPathBytesAndReadsLinksWithoutFollowing) {
  TempTree tree;
  tree.write("s/a/b", "1");
  tree.write("s/a.txt", "2");
  tree.symlink("/etc/passwd", "s/link");
  WalkOptions options;
  options.links = LinkPolicy::record;
  auto listed = list_tree(tree.path() / "s", options);
  ASSERT_TRUE(listed) << listed.error().message;
  std::vector<std::string> paths;
  for (const TreeEntry& entry : listed->entries) {
    paths.push_back(entry.path);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"a", "a.txt", "a/b", "link"}));
  EXPECT_EQ(listed->entries[3].kind, EntryKind::link);
  EXPECT_EQ(listed->entries[3].link_target, "/etc/passwd");
}

TEST(TreeWalk, LinkPolicies) {
  TempTree tree;
  tree.write("s/SKILL.md", "x");
  tree.mkdir("outside");
  tree.write("outside/secret", "s");
  tree.symlink(tree.path() / "outside", "s/escape");
  EXPECT_EQ(walk_error(tree.path() / "s", {}, ErrorCode::refused), "skill bundles may not contain symlinks: escape");
  WalkOptions skip;
  skip.links = LinkPolicy::skip;
  skip.problems = ProblemPolicy::report;
  const Walked walked = walk_collect(tree.path() / "s", skip);
  ASSERT_TRUE(walked.report);
  EXPECT_EQ(walked.seen, std::vector<std::string>{"SKILL.md"}); // never followed into outside/
  ASSERT_EQ(walked.report->problems.size(), 1u);
  EXPECT_EQ(walked.report->problems[0].kind, WalkProblem::Kind::link_skipped);
  EXPECT_EQ(walked.report->problems[0].path, "escape");
  // The root itself may be a link: the caller chose it.
  tree.symlink(tree.path() / "s", "alias");
  WalkOptions record;
  record.links = LinkPolicy::record;
  EXPECT_EQ(walk_order(tree.path() / "alias", record), (std::vector<std::string>{"SKILL.md", "escape"}));
}

TEST(TreeWalk, SpecialFilesAreRefusedOrRecordedNeverOpened) {
  TempTree tree;
  tree.write("s/SKILL.md", "x");
  ASSERT_EQ(::mkfifo((tree.path() / "s" / "pipe").c_str(), 0600), 0);
  EXPECT_EQ(walk_error(tree.path() / "s", {}, ErrorCode::refused),
            "skill folders may not contain fifos, sockets or devices: pipe is a fifo");
  WalkOptions record;
  record.specials = SpecialPolicy::record;
  EXPECT_EQ(walk_order(tree.path() / "s", record), (std::vector<std::string>{"SKILL.md", "pipe"}));
}

TEST(TreeWalk, TreeLimitsFailOrStop) {
  TempTree tree;
  tree.write("s/a", "12345");
  tree.write("s/b", "12345");
  tree.write("s/d/e/f", "1");
  WalkOptions options;
  options.limits.max_entries = 4;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("more than 4 files and folders"),
            std::string::npos);
  options.limits.max_entries = 5;
  EXPECT_EQ(walk_order(tree.path() / "s", options).size(), 5u);
  options.limits.max_depth = 2;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("k_max_bundle_depth"),
            std::string::npos);
  options.limits.max_depth = 3;
  options.limits.max_file_bytes = 4;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("a is larger than 4 bytes"),
            std::string::npos);
  options.limits.max_file_bytes = 5;
  options.limits.max_bytes = 10;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("reached at d/e/f"),
            std::string::npos);
  options.limits.max_bytes = 11;
  options.limits.max_path_bytes = 4;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("k_max_bundle_path_bytes"),
            std::string::npos);
  // Reported instead: the entry limit stops the walk, a deep folder is not entered.
  WalkOptions report;
  report.problems = ProblemPolicy::report;
  report.limits.max_depth = 2;
  const Walked walked = walk_collect(tree.path() / "s", report);
  ASSERT_TRUE(walked.report);
  EXPECT_EQ(walked.seen, (std::vector<std::string>{"a", "b", "d", "d/e"}));
  ASSERT_EQ(walked.report->problems.size(), 1u);
  EXPECT_EQ(walked.report->problems[0].path, "d/e/f");
  report.limits.max_entries = 2;
  const Walked stopped = walk_collect(tree.path() / "s", report);
  ASSERT_TRUE(stopped.report);
  EXPECT_TRUE(stopped.report->stopped);
  EXPECT_EQ(stopped.report->entries, 3u); // the one past the limit was counted, then the walk ended
  EXPECT_EQ(stopped.seen, (std::vector<std::string>{"a", "b"}));
}

TEST(TreeWalk, LeaveOutIsNeitherCountedNorEntered) {
  TempTree tree;
  tree.write("s/.git/objects/x", "x");
  tree.write("s/SKILL.md", "x");
  WalkOptions options;
  options.limits.max_entries = 1;
  options.leave_out = [](const WalkEntry& entry) { return entry.name == ".git"; };
  EXPECT_EQ(walk_order(tree.path() / "s", options), std::vector<std::string>{"SKILL.md"});
}

TEST(TreeWalk, AFolderNotEnteredIsStillVisitedAndCounted) {
  TempTree tree;
  tree.write("s/a/deep/x", "x");
  tree.write("s/a/y", "x");
  tree.write("s/b/z", "x");
  WalkOptions options;
  options.enter = [](const WalkEntry& entry) { return entry.path != "a/deep" && entry.path != "b"; };
  const Walked walked = walk_collect(tree.path() / "s", options);
  ASSERT_TRUE(walked.report);
  EXPECT_EQ(walked.seen, (std::vector<std::string>{"a", "a/deep", "a/y", "b"}));
  EXPECT_EQ(walked.report->entries, 4u);
  EXPECT_TRUE(walked.report->problems.empty());
}

TEST(TreeWalk, AFolderOverTheEntryLimitFailsAtOnceOrIsWalkedUpToTheLimit) {
  TempTree tree;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    tree.write(std::string("s/") + name, "x");
  }
  WalkOptions options;
  options.limits.max_entries = 3;
  EXPECT_NE(walk_error(tree.path() / "s", options, ErrorCode::limit_exceeded).find("k_max_bundle_entries"),
            std::string::npos);
  options.problems = ProblemPolicy::report;
  const Walked walked = walk_collect(tree.path() / "s", options);
  ASSERT_TRUE(walked.report);
  EXPECT_TRUE(walked.report->stopped);
  EXPECT_EQ(walked.seen.size(), 3u); // which three depends on the file system's order
  // Left out entries keep the count under the limit: the cut still stops the walk.
  options.leave_out = [](const WalkEntry& entry) { return entry.name != "a"; };
  const Walked left = walk_collect(tree.path() / "s", options);
  ASSERT_TRUE(left.report);
  EXPECT_TRUE(left.report->stopped);
  ASSERT_EQ(left.report->problems.size(), 1u);
  EXPECT_EQ(left.report->problems[0].kind, WalkProblem::Kind::limit);
}

TEST(TreeWalk, ControlCharactersInNamesOnlyWhenAsked) {
  TempTree tree;
  tree.write("s/evil\nname", "x");
  EXPECT_EQ(walk_order(tree.path() / "s").size(), 1u);
  WalkOptions strict;
  strict.refuse_control_names = true;
  EXPECT_NE(walk_error(tree.path() / "s", strict, ErrorCode::refused).find("control characters"), std::string::npos);
}

TEST(TreeWalk, MissingOrNonFolderRoot) {
  TempTree tree;
  EXPECT_FALSE(walk_error(tree.path() / "nope", {}, ErrorCode::not_found).empty());
  tree.write("file", "x");
  EXPECT_FALSE(walk_error(tree.path() / "file", {}, ErrorCode::invalid_argument).empty());
}

TEST(TreeWalk, AVisitorErrorEndsTheWalk) {
  TempTree tree;
  tree.write("s/a", "x");
  tree.write("s/b", "x");
  int calls = 0;
  auto walked = walk_tree(tree.path() / "s", {}, [&calls](const WalkEntry&) -> Result<void> {
    ++calls;
    return fail(ErrorCode::io_error, "stop");
  });
  ASSERT_FALSE(walked);
  EXPECT_EQ(walked.error().message, "stop");
  EXPECT_EQ(calls, 1);
}

TEST(ContentManifest, OneRecordPerFileSortedByPathCachesNeverIncluded) {
  TempTree tree;
  tree.write("s/scripts/run.py", "print(1)\n");
  tree.write("s/scripts.md", "x");
  tree.write("s/scripts/__pycache__/run.cpython-311.pyc", "bytecode");
  tree.mkdir("s/empty");
  WalkOptions options;
  options.skip_runtime_caches = false; // asked for, and still left out: not content
  auto manifest = build_content_manifest(tree.path() / "s", options);
  ASSERT_TRUE(manifest) << manifest.error().message;
  ASSERT_EQ(manifest->size(), 2u);
  EXPECT_EQ((*manifest)[0].path, "scripts.md");
  EXPECT_EQ((*manifest)[0].sha256, sha256_hex("x"));
  EXPECT_EQ((*manifest)[0].size, 1u);
  EXPECT_EQ((*manifest)[1].path, "scripts/run.py");
  EXPECT_EQ((*manifest)[1].sha256, sha256_hex("print(1)\n"));
}

TEST(ContentManifest, OpenTreeFileRefusesASwappedFile) {
  TempTree tree;
  tree.write("s/a", "one");
  auto listed = list_tree(tree.path() / "s", {});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->entries.size(), 1u);
  ASSERT_TRUE(open_tree_file(tree.path() / "s", listed->entries[0]));
  fs::remove(tree.path() / "s" / "a");
  tree.write("s/other", "two");
  tree.symlink("other", "s/a");
  auto swapped = open_tree_file(tree.path() / "s", listed->entries[0]);
  ASSERT_FALSE(swapped);
  EXPECT_EQ(swapped.error().code, ErrorCode::io_error);
}

} // namespace
} // namespace skillrt::core::files
