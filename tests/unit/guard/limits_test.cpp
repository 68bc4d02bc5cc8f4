// Every guard limit of core/limits.hpp, each held at its edge.
#include <gtest/gtest.h>

#include <string>

#include "core/guard/guard.hpp"
#include "core/limits.hpp"
#include "finding_helpers.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

using test::find_id;
using test::TempTree;

TEST(GuardLimits, HermesThresholds) {
  EXPECT_EQ(limits::k_guard_max_file_count, 50u);
  EXPECT_EQ(limits::k_guard_max_single_file_bytes, 256u * 1024);
  EXPECT_EQ(limits::k_guard_max_total_bytes, 5120u * 1024);
  EXPECT_EQ(limits::k_guard_snippet_chars, 120u);
  EXPECT_EQ(limits::k_guard_report_match_chars, 60u);
}

TEST(GuardLimits, EntriesPerSkill) {
  TempTree tree;
  tree.write("SKILL.md", "x");
  for (std::size_t i = 0; i < limits::k_guard_max_entries; ++i) {
    tree.write("many/f" + std::to_string(i), "");
  }
  auto at_limit = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(at_limit.has_value());
  // SKILL.md and the directory are entries too: the limit is just crossed.
  EXPECT_NE(find_id(at_limit->findings, "scan_incomplete"), nullptr);
  std::filesystem::remove(tree.path() / "many/f0");
  std::filesystem::remove(tree.path() / "many/f1");
  auto below = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(below.has_value());
  EXPECT_EQ(find_id(below->findings, "scan_incomplete"), nullptr);
}

TEST(GuardLimits, ScanBytesPerFile) {
  TempTree tree;
  tree.write("SKILL.md", "x");
  std::string big(limits::k_guard_max_scan_file_bytes, 'a');
  tree.write("assets/exact.txt", big);
  big += "\u200B";
  tree.write("assets/over.txt", big);
  auto r = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(find_id(r->findings, "scan_incomplete", "assets/exact.txt"), nullptr);
  const GuardFinding* over = find_id(r->findings, "scan_incomplete", "assets/over.txt");
  ASSERT_NE(over, nullptr);
  EXPECT_EQ(over->severity, ThreatSeverity::high);
  EXPECT_EQ(find_id(r->findings, "invisible_unicode"), nullptr); // beyond the scanned prefix
}

TEST(GuardLimits, LinePiecesOverlap) {
  EXPECT_LT(limits::k_guard_line_piece_overlap, limits::k_guard_line_piece_bytes);
  // A marker straddling the first piece boundary is still found.
  std::string line(limits::k_guard_line_piece_bytes - 2, 'a');
  line += "x\u200By";
  const std::vector<GuardFinding> findings = scan_text("a.md", line);
  EXPECT_NE(find_id(findings, "invisible_unicode"), nullptr);
}

TEST(GuardLimits, DismissalFileSize) {
  TempTree tree;
  tree.write("SKILL.md", "x");
  tree.write(".skillrt-guard.yaml", "dismiss: []\n#" + std::string(limits::k_guard_max_dismissal_bytes, 'x'));
  auto r = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(find_id(r->findings, "malformed_dismissals"), nullptr);
}

TEST(GuardLimits, RegexMemoryIsEnoughForTheTable) {
  EXPECT_GE(limits::k_guard_regex_set_memory, 8 * 1024 * 1024);
  EXPECT_GE(limits::k_guard_max_read_bytes, limits::k_guard_max_scan_file_bytes);
}

} // namespace
} // namespace skillrt::core
