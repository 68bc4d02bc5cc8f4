#include "core/guard/dismissals.hpp"

#include <gtest/gtest.h>

#include "core/guard/guard.hpp"
#include "finding_helpers.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

using test::find_id;
using test::TempTree;

constexpr std::string_view k_skill = "---\nname: demo\ndescription: A demo skill\n---\n\nBody.\n";

TEST(DismissalFile, ParsesAllFields) {
  auto file = parse_dismissal_file(
      "dismiss:\n  - id: ssh_dir_access\n    file: references/*.md\n    line: 12\n    reason: documents keys\n", "x",
      false);
  ASSERT_TRUE(file.has_value()) << file.error().message;
  ASSERT_EQ(file->rules.size(), 1u);
  EXPECT_EQ(file->rules[0].id, "ssh_dir_access");
  EXPECT_EQ(*file->rules[0].file_glob, "references/*.md");
  EXPECT_EQ(file->rules[0].line, 12u);
  EXPECT_EQ(file->rules[0].reason, "documents keys");
}

TEST(DismissalFile, RejectsMalformedFiles) {
  for (const char* text : {
           "dismiss:\n  - id: x\n",                              // no reason
           "dismiss:\n  - reason: because\n",                    // no id
           "dismiss:\n  - id: x\n    reason: '  '\n",            // empty reason
           "dismiss:\n  - id: x\n    reason: r\n    lines: 3\n", // unknown key
           "dismiss:\n  - id: x\n    reason: r\n    line: 0\n",  // not positive
           "dismiss:\n  - id: x\n    reason: r\n    line: abc\n",
           "dismiss: x\n",
           "- id: x\n",
           "source: a/b\ndismiss: []\n", // source: only in operator files
           "dismiss: [\n",
       }) {
    EXPECT_FALSE(parse_dismissal_file(text, "own", false).has_value()) << text;
  }
  EXPECT_TRUE(parse_dismissal_file("source: a/b\ndismiss: []\n", "op", true).has_value());
}

TEST(DismissalFile, SourceScoping) {
  auto file = parse_dismissal_file("source: acme/skills\ndismiss: []\n", "op", true);
  ASSERT_TRUE(file.has_value());
  EXPECT_TRUE(dismissal_applies_to_source(*file, "acme/skills"));
  EXPECT_TRUE(dismissal_applies_to_source(*file, "acme/skills/tools/x"));
  EXPECT_FALSE(dismissal_applies_to_source(*file, "acme/skills-evil"));
  EXPECT_FALSE(dismissal_applies_to_source(*file, "community"));
}

// A skill with a medium finding (executable doc), a high one (zero-width
// space on line 2 of notes.md) and a critical one (a .dll).
void write_skill(const TempTree& tree) {
  tree.write("SKILL.md", k_skill);
  tree.write("notes.md", "fine\nhidden\u200Btext\n");
  tree.write("references/doc.md", "doc");
  tree.chmod("references/doc.md", 0755);
  tree.write("lib/tool.dll", "x");
}

TEST(Dismissals, OwnFileDismissesBelowCriticalOnly) {
  TempTree tree;
  write_skill(tree);
  tree.write(".skillrt-guard.yaml",
             "dismiss:\n"
             "  - id: invisible_unicode\n    file: notes.md\n    line: 2\n    reason: a deliberate soft hyphen test\n"
             "  - id: unexpected_executable\n    reason: harmless\n"
             "  - id: binary_file\n    reason: trust me\n");
  auto r = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->dismissed.size(), 2u);
  EXPECT_EQ(r->dismissed[0].dismissed_by, ".skillrt-guard.yaml");
  EXPECT_EQ(find_id(r->findings, "invisible_unicode"), nullptr);
  const GuardFinding* critical = find_id(r->findings, "binary_file");
  ASSERT_NE(critical, nullptr); // self-attestation refused
  EXPECT_NE(critical->description.find("dismissal refused"), std::string::npos);
  EXPECT_EQ(r->verdict, Verdict::dangerous);
}

TEST(Dismissals, LineAndFileMustMatch) {
  TempTree tree;
  write_skill(tree);
  tree.write(".skillrt-guard.yaml", "dismiss:\n  - id: invisible_unicode\n    line: 1\n    reason: wrong line\n"
                                    "  - id: invisible_unicode\n    file: other.md\n    reason: wrong file\n");
  auto r = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->dismissed.empty());
  EXPECT_EQ(r->verdict, Verdict::dangerous);
}

TEST(Dismissals, OperatorFileMayDismissCritical) {
  TempTree tree;
  write_skill(tree);
  TempTree ops;
  const auto rules =
      ops.write("acme.yaml", "source: acme/skills\n"
                             "dismiss:\n  - id: binary_file\n    file: lib/*.dll\n    reason: vendored, reviewed\n"
                             "  - id: invisible_unicode\n    reason: reviewed\n");
  ScanOptions options;
  options.source = "acme/skills/demo";
  options.dismissal_files.push_back(rules);
  auto r = scan_skill(tree.path(), options);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->dismissed.size(), 2u);
  EXPECT_EQ(r->verdict, Verdict::safe);
  EXPECT_EQ(r->dismissed[0].dismissed_by, rules.string());
  // Another source: the file does not apply.
  options.source = "someone/else";
  auto other = scan_skill(tree.path(), options);
  ASSERT_TRUE(other.has_value());
  EXPECT_TRUE(other->dismissed.empty());
}

TEST(Dismissals, MalformedFileIsAFindingAndDismissesNothing) {
  TempTree tree;
  write_skill(tree);
  tree.write(".skillrt-guard.yaml", "dismiss:\n  - id: invisible_unicode\n");
  auto r = scan_skill(tree.path(), ScanOptions{});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->dismissed.empty());
  const GuardFinding* f = find_id(r->findings, "malformed_dismissals");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, ThreatSeverity::medium);
  EXPECT_EQ(f->file, ".skillrt-guard.yaml");
}

TEST(Dismissals, MissingOperatorFileIsAFinding) {
  TempTree tree;
  write_skill(tree);
  ScanOptions options;
  options.dismissal_files.emplace_back(tree.path() / "nope.yaml");
  auto r = scan_skill(tree.path(), options);
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(find_id(r->findings, "malformed_dismissals"), nullptr);
}

TEST(Dismissals, MalformedFindingCannotBeDismissed) {
  TempTree tree;
  write_skill(tree);
  tree.write(".skillrt-guard.yaml", "dismiss: [\n");
  TempTree ops;
  ScanOptions options;
  options.dismissal_files.push_back(ops.write("o.yaml", "dismiss:\n  - id: malformed_dismissals\n    reason: x\n"));
  auto r = scan_skill(tree.path(), options);
  ASSERT_TRUE(r.has_value());
  EXPECT_NE(find_id(r->findings, "malformed_dismissals"), nullptr);
}

} // namespace
} // namespace skillrt::core
