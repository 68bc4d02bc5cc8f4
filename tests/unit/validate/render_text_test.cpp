#include "core/validate/render_text.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/validate/validator.hpp"
#include "temp_skill_dir.hpp"

namespace skillrt::core {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    lines.push_back(line);
  }
  return lines;
}

Finding make_finding(SourcePos pos, std::string source_line) {
  Finding finding;
  finding.rule_id = "name.uppercase";
  finding.severity = Severity::warning;
  finding.path = "skills/x/SKILL.md";
  finding.pos = pos;
  finding.message = "'name' 'X' must be lowercase";
  finding.source_line = std::move(source_line);
  return finding;
}

TEST(RenderText, HeaderSourceLineAndCaretUnderTheColumn) {
  std::vector<std::string> lines = lines_of(render_finding_text(make_finding({2, 7}, "name: X"), false));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[0], "skills/x/SKILL.md:2:7: warning: 'name' 'X' must be lowercase [name.uppercase]");
  EXPECT_EQ(lines[1], "  name: X");
  EXPECT_EQ(lines[2], "        ^");
  EXPECT_EQ(lines[1].find('X'), lines[2].find('^'));
}

TEST(RenderText, CaretCountsCodePointsAndKeepsTabs) {
  std::vector<std::string> lines = lines_of(render_finding_text(make_finding({3, 6}, "\tn\xC3\xA9\xC3\xA9: X"), false));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[2], "  \t    ^");
}

TEST(RenderText, FileLevelFindingHasNoSourceOrCaret) {
  Finding finding = make_finding({0, 0}, "");
  finding.severity = Severity::error;
  EXPECT_EQ(render_finding_text(finding, false),
            "skills/x/SKILL.md: error: 'name' 'X' must be lowercase [name.uppercase]\n");
}

TEST(RenderText, LongLinesAreShownAsAWindowAroundTheCaret) {
  std::string line = "description: " + std::string(300, 'a') + "Z" + std::string(300, 'b');
  std::vector<std::string> lines = lines_of(render_finding_text(make_finding({3, 314}, line), false));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_LT(lines[1].size(), 200U);
  EXPECT_EQ(lines[1].substr(0, 5), "  ...");
  EXPECT_EQ(lines[1][lines[2].find('^')], 'Z');
}

TEST(RenderText, ControlCharactersNeverReachTheTerminal) {
  Finding finding = make_finding({2, 1}, "name: \x1b[31mred");
  finding.message = "bad \x1b]0;title\x07";
  std::string text = render_finding_text(finding, false);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
}

TEST(RenderText, ColourOnlyWhenAsked) {
  Finding finding = make_finding({2, 7}, "name: X");
  EXPECT_EQ(render_finding_text(finding, false).find('\x1b'), std::string::npos);
  std::string coloured = render_finding_text(finding, true);
  EXPECT_NE(coloured.find("\x1b[1;35mwarning:"), std::string::npos);
}

TEST(RenderText, SummaryCountsSkillsAndSeverities) {
  test::TempSkillDir tmp;
  ValidationReport ok = validate_skill(tmp.skill("ok", "---\nname: ok\ndescription: d\n---\nbody\n"), {});
  ValidationReport bad = validate_skill(tmp.skill("bad", "---\nname: Bad\n---\nbody\n"), {});
  std::string text = render_validation_text({ok, bad}, false);
  std::vector<std::string> lines = lines_of(text);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "2 skills checked: 1 valid, 1 invalid (1 error, 2 warnings)");
  EXPECT_NE(text.find("SKILL.md:1:1: error: the frontmatter has no 'description' field [description.missing]"),
            std::string::npos);
  EXPECT_EQ(lines_of(render_validation_text({ok}, false)).back(),
            "1 skill checked: 1 valid, 0 invalid (0 errors, 0 warnings)");
}

} // namespace
} // namespace skillrt::core
