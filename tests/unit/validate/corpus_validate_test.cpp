// Every real skill of the corpus validates without a crash, and what it reports
// matches what the corpus is known to contain (STATS.md: every SKILL.md has a
// parseable YAML mapping with name and description).
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/validate/validator.hpp"
#include "support/corpus.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_skill_dirs(bool labeled) {
  std::vector<fs::path> dirs;
  fs::path root = SKILLRT_CORPUS_DIR;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return dirs;
  }
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    bool in_labeled = it->path().lexically_relative(root).begin()->string() == "labeled";
    if (in_labeled == labeled && it->path().filename() == "SKILL.md" && it->is_regular_file()) {
      dirs.push_back(it->path().parent_path());
    }
  }
  return dirs;
}

TEST(CorpusValidate, RealSkillsHaveSoundFrontmatterAndOnlySpecStyleFindings) {
  std::vector<fs::path> dirs = corpus_skill_dirs(false);
  SKILLRT_REQUIRE_CORPUS_OR_SKIP(!dirs.empty(), std::string("no corpus at ") + SKILLRT_CORPUS_DIR);
  EXPECT_GE(dirs.size(), 2000U);
  // Rules a real, well-formed skill may still break in strict mode.
  const std::set<std::string> style_rules = {"field.unknown", "field.not_in_spec",   "name.uppercase",
                                             "name.charset",  "name.hyphens",        "name.dir_mismatch",
                                             "name.too_long", "description.too_long"};
  std::size_t strict_invalid = 0;
  for (const fs::path& dir : dirs) {
    ValidateOptions strict;
    strict.strict = true;
    ValidationReport report = validate_skill(dir, strict);
    ASSERT_EQ(report.skill_md, (dir / "SKILL.md").string());
    for (const Finding& finding : report.findings) {
      if (finding.severity == Severity::error) {
        EXPECT_EQ(style_rules.count(finding.rule_id), 1U) << dir << ": " << finding.rule_id << " " << finding.message;
        EXPECT_GT(finding.pos.line, 0U) << dir << ": " << finding.rule_id;
      }
    }
    strict_invalid += report.valid() ? 0 : 1;
    // Default mode: frontmatter is always sound in the corpus.
    ValidationReport normal = validate_skill(dir, {});
    for (const Finding& finding : normal.findings) {
      EXPECT_TRUE(finding.rule_id.rfind("frontmatter.", 0) != 0 && finding.rule_id != "yaml.syntax" &&
                  finding.rule_id.rfind("file.", 0) != 0)
          << dir << ": " << finding.rule_id;
    }
  }
  // About half the corpus uses fields outside the spec; none is perfect and none is all bad.
  EXPECT_GT(strict_invalid, dirs.size() / 4);
  EXPECT_LT(strict_invalid, dirs.size() * 3 / 4);
}

TEST(CorpusValidate, AttackFixturesNeverCrashTheValidator) {
  std::vector<fs::path> dirs = corpus_skill_dirs(true);
  SKILLRT_REQUIRE_CORPUS_OR_SKIP(!dirs.empty(), std::string("no labeled corpus at ") + SKILLRT_CORPUS_DIR);
  for (const fs::path& dir : dirs) {
    for (bool strict : {false, true}) {
      ValidateOptions options;
      options.strict = strict;
      ValidationReport report = validate_skill(dir, options);
      EXPECT_FALSE(report.skill_md.empty()) << dir;
      for (const Finding& finding : report.findings) {
        EXPECT_FALSE(finding.message.empty());
      }
    }
  }
}

} // namespace
} // namespace skillrt::core
