#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "core/guard/guard.hpp"
#include "core/limits.hpp"
#include "finding_helpers.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

using test::count_id;
using test::find_id;
using test::TempTree;

constexpr std::string_view k_skill = "---\nname: demo\ndescription: A demo skill\n---\n\nBody.\n";

ScanResult scan(const std::filesystem::path& path) {
  auto result = scan_skill(path, ScanOptions{});
  EXPECT_TRUE(result.has_value());
  return result ? *result : ScanResult{};
}

TEST(Structure, SymlinkLeavingTheSkillIsCritical) {
  TempTree outside;
  outside.write("secret.txt", "top secret");
  TempTree tree;
  tree.mkdir("skill");
  tree.write("skill/SKILL.md", k_skill);
  tree.mkdir("skill-sibling");
  tree.write("skill-sibling/x.md", "x");
  tree.symlink(outside.path() / "secret.txt", "skill/references/key.md");
  tree.symlink("../../skill-sibling/x.md", "skill/references/sibling.md"); // prefix sibling: outside
  tree.symlink("../SKILL.md", "skill/references/inside.md");
  tree.symlink("missing.md", "skill/references/broken.md");
  const ScanResult r = scan(tree.path() / "skill");
  const GuardFinding* escape = find_id(r.findings, "symlink_escape", "references/key.md");
  ASSERT_NE(escape, nullptr);
  EXPECT_EQ(escape->severity, ThreatSeverity::critical);
  EXPECT_EQ(escape->category, ThreatCategory::traversal);
  EXPECT_NE(find_id(r.findings, "symlink_escape", "references/sibling.md"), nullptr);
  EXPECT_EQ(find_id(r.findings, "symlink_escape", "references/inside.md"), nullptr);
  EXPECT_NE(find_id(r.findings, "broken_symlink", "references/broken.md"), nullptr);
  EXPECT_EQ(r.verdict, Verdict::dangerous);
  // The target's content is never read through the link.
  EXPECT_EQ(r.files_scanned, 1u);
}

TEST(Structure, SymlinkedDirectoryIsNotEntered) {
  TempTree outside;
  outside.write("a/evil.md", "x\u200By");
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.symlink(outside.path() / "a", "linked");
  const ScanResult r = scan(tree.path());
  EXPECT_NE(find_id(r.findings, "symlink_escape", "linked"), nullptr);
  EXPECT_EQ(find_id(r.findings, "invisible_unicode"), nullptr);
}

TEST(Structure, CountsAndSizes) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  for (std::size_t i = 0; i < limits::k_guard_max_file_count; ++i) {
    tree.write("references/f" + std::to_string(i) + ".md", "x");
  }
  tree.write("assets/big.txt", std::string(limits::k_guard_max_single_file_bytes + 1, 'x'));
  const ScanResult r = scan(tree.path());
  const GuardFinding* many = find_id(r.findings, "too_many_files");
  ASSERT_NE(many, nullptr);
  EXPECT_EQ(many->file, "");
  EXPECT_EQ(many->severity, ThreatSeverity::medium);
  EXPECT_NE(find_id(r.findings, "oversized_file", "assets/big.txt"), nullptr);
  EXPECT_EQ(find_id(r.findings, "oversized_skill"), nullptr);
  EXPECT_EQ(r.verdict, Verdict::safe); // informational only
}

TEST(Structure, ExactlyTheLimitIsFine) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  for (std::size_t i = 2; i < limits::k_guard_max_file_count; ++i) { // + SKILL.md + edge.txt = the limit
    tree.write("references/f" + std::to_string(i) + ".md", "x");
  }
  tree.write("assets/edge.txt", std::string(limits::k_guard_max_single_file_bytes, 'x'));
  const ScanResult r = scan(tree.path());
  EXPECT_EQ(find_id(r.findings, "too_many_files"), nullptr);
  EXPECT_EQ(find_id(r.findings, "oversized_file"), nullptr);
}

TEST(Structure, TotalSize) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  for (int i = 0; i < 21; ++i) {
    tree.write("assets/p" + std::to_string(i) + ".txt", std::string(250 * 1024, 'x'));
  }
  const ScanResult r = scan(tree.path());
  const GuardFinding* f = find_id(r.findings, "oversized_skill");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, ThreatSeverity::low);
}

TEST(Structure, BinaryFiles) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.write("assets/logo.png", std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  tree.write("references/diagram.png", std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  tree.write("assets/helper", std::string("\x7f"
                                          "ELF\x02\x01\x01\0\0\0",
                                          10));
  tree.write("tool.dll", "not really");
  const ScanResult r = scan(tree.path());
  EXPECT_EQ(find_id(r.findings, "binary_content", "assets/logo.png"), nullptr);
  const GuardFinding* outside_assets = find_id(r.findings, "binary_content", "references/diagram.png");
  ASSERT_NE(outside_assets, nullptr);
  EXPECT_EQ(outside_assets->severity, ThreatSeverity::medium);
  const GuardFinding* elf = find_id(r.findings, "binary_file", "assets/helper");
  ASSERT_NE(elf, nullptr);
  EXPECT_EQ(elf->severity, ThreatSeverity::critical);
  EXPECT_NE(find_id(r.findings, "binary_file", "tool.dll"), nullptr);
}

TEST(Structure, NulBytesInATextFileMeanBinary) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.write("notes.md", std::string("hello\0\u200B", 9));
  const ScanResult r = scan(tree.path());
  EXPECT_NE(find_id(r.findings, "binary_content", "notes.md"), nullptr);
  EXPECT_EQ(find_id(r.findings, "invisible_unicode"), nullptr);
}

TEST(Structure, Executables) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.write("scripts/run.sh", "#!/bin/sh\necho hi\n");
  tree.write("setup.sh", "#!/bin/sh\necho hi\n");
  tree.write("references/doc.md", "doc");
  tree.chmod("scripts/run.sh", 0755);
  tree.chmod("setup.sh", 0755);
  tree.chmod("references/doc.md", 0755);
  const ScanResult r = scan(tree.path());
  EXPECT_EQ(find_id(r.findings, "unexpected_executable", "scripts/run.sh"), nullptr);
  EXPECT_NE(find_id(r.findings, "unexpected_executable", "setup.sh"), nullptr);
  EXPECT_NE(find_id(r.findings, "unexpected_executable", "references/doc.md"), nullptr);
}

TEST(Structure, FifoIsReportedAndNeverOpened) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  ASSERT_EQ(::mkfifo((tree.path() / "pipe.md").c_str(), 0644), 0);
  const ScanResult r = scan(tree.path()); // would hang if the FIFO were opened for reading
  const GuardFinding* f = find_id(r.findings, "special_file", "pipe.md");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, ThreatSeverity::medium);
}

TEST(Structure, HardLinks) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.write("a.md", "x");
  ASSERT_EQ(::link((tree.path() / "a.md").c_str(), (tree.path() / "b.md").c_str()), 0);
  const ScanResult r = scan(tree.path());
  EXPECT_EQ(count_id(r.findings, "hard_link"), 2u);
}

TEST(Structure, DeepNestingStopsAtTheWalkLimit) {
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  std::filesystem::path deep;
  for (std::size_t i = 0; i < limits::k_max_walk_depth + 2; ++i) {
    deep /= "d";
  }
  tree.write(deep / "x.md", "a\u200Bb");
  const ScanResult r = scan(tree.path());
  EXPECT_NE(find_id(r.findings, "scan_incomplete"), nullptr);
  EXPECT_EQ(find_id(r.findings, "invisible_unicode"), nullptr);
}

TEST(Structure, UnreadableFileIsAFinding) {
  if (::geteuid() == 0) {
    GTEST_SKIP() << "root reads every file";
  }
  TempTree tree;
  tree.write("SKILL.md", k_skill);
  tree.write("secret.md", "x");
  tree.chmod("secret.md", 0);
  const ScanResult r = scan(tree.path());
  EXPECT_NE(find_id(r.findings, "unreadable_path", "secret.md"), nullptr);
}

} // namespace
} // namespace skillrt::core
