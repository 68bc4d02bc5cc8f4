#include "core/validate/validator.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/limits.hpp"
#include "temp_skill_dir.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using test::TempSkillDir;

ValidationReport check(const fs::path& path, bool strict = false) {
  ValidateOptions options;
  options.strict = strict;
  return validate_skill(path, options);
}

std::vector<std::string> rule_ids(const ValidationReport& report) {
  std::vector<std::string> ids;
  for (const Finding& finding : report.findings) {
    ids.push_back(finding.rule_id);
  }
  return ids;
}

const Finding* find(const ValidationReport& report, std::string_view rule) {
  for (const Finding& finding : report.findings) {
    if (finding.rule_id == rule) {
      return &finding;
    }
  }
  return nullptr;
}

std::string skill_text(std::string_view name, std::string_view extra = "") {
  return "---\nname: " + std::string(name) + "\ndescription: Does one thing well.\n" + std::string(extra) +
         "---\n# Title\n\nBody text.\n";
}

TEST(ValidateSkill, CleanSkillHasNoFindingsInEitherMode) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("pdf-tools", skill_text("pdf-tools", "license: MIT\ncompatibility: needs poppler\n"));
  for (bool strict : {false, true}) {
    ValidationReport report = check(dir, strict);
    EXPECT_TRUE(report.findings.empty()) << rule_ids(report).size();
    EXPECT_TRUE(report.valid());
    EXPECT_EQ(report.skill_md, (dir / "SKILL.md").string());
    EXPECT_EQ(report.path, dir.string());
  }
}

TEST(ValidateSkill, AcceptsThePathOfSkillMdItself) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("pdf-tools", skill_text("pdf-tools"));
  ValidationReport report = check(dir / "SKILL.md", true);
  EXPECT_TRUE(report.valid());
  EXPECT_TRUE(report.findings.empty());
  // The directory name check still uses the folder holding the file.
  fs::path other = tmp.skill("other", skill_text("pdf-tools"));
  ValidationReport mismatch = check(other / "SKILL.md", true);
  ASSERT_NE(find(mismatch, "name.dir_mismatch"), nullptr);
}

TEST(ValidateSkill, TrailingSlashAndDotPathsUseTheRealDirectoryName) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("pdf-tools", skill_text("pdf-tools"));
  EXPECT_TRUE(check(dir.string() + "/", true).valid());
  fs::create_directories(dir / "sub");
  EXPECT_TRUE(check(dir / "sub" / "..", true).valid());
  EXPECT_TRUE(check(dir / ".", true).valid());
}

TEST(ValidateSkill, LowercaseSkillMdIsAcceptedLikeSkillsRefButFlaggedForHermes) {
  TempSkillDir tmp;
  tmp.write("lower/skill.md", skill_text("lower"));
  ValidationReport normal = check(tmp.root() / "lower");
  ValidationReport strict = check(tmp.root() / "lower", true);
  ASSERT_NE(find(normal, "skill_md.lowercase"), nullptr);
  EXPECT_EQ(find(normal, "skill_md.lowercase")->severity, Severity::error);
  EXPECT_EQ(find(strict, "skill_md.lowercase")->severity, Severity::warning);
  EXPECT_TRUE(strict.valid());
  EXPECT_EQ(strict.skill_md, (tmp.root() / "lower" / "skill.md").string());
  // A path to the lowercase file works too.
  EXPECT_TRUE(check(tmp.root() / "lower" / "skill.md", true).valid());
}

TEST(ValidateSkill, SkillMdPathStandsForItsDirectoryWhichPrefersUppercase) {
  TempSkillDir tmp;
  tmp.write("both/SKILL.md", skill_text("both"));
  tmp.write("both/skill.md", "not even frontmatter");
  ValidationReport report = check(tmp.root() / "both" / "skill.md", true);
  EXPECT_TRUE(report.valid());
  EXPECT_EQ(report.skill_md, (tmp.root() / "both" / "SKILL.md").string());
}

TEST(ValidateSkill, MissingPathsAndMissingSkillMd) {
  TempSkillDir tmp;
  ValidationReport missing = check(tmp.root() / "nope");
  EXPECT_EQ(rule_ids(missing), std::vector<std::string>{"path.not_found"});
  EXPECT_FALSE(missing.valid());
  EXPECT_EQ(missing.findings[0].pos.line, 0U);

  fs::create_directories(tmp.root() / "empty");
  ValidationReport empty = check(tmp.root() / "empty", true);
  EXPECT_EQ(rule_ids(empty), std::vector<std::string>{"skill_md.missing"});
  EXPECT_FALSE(empty.valid());
  EXPECT_TRUE(empty.skill_md.empty());

  fs::path readme = tmp.write("skill/README.md", "# hi\n");
  EXPECT_EQ(rule_ids(check(readme)), std::vector<std::string>{"path.not_skill"});

  fs::create_symlink(tmp.root() / "gone", tmp.root() / "dangling");
  EXPECT_EQ(rule_ids(check(tmp.root() / "dangling")), std::vector<std::string>{"path.not_found"});
}

TEST(ValidateSkill, UnreadableSkillMdIsAFindingNotACrash) {
  TempSkillDir tmp;
  fs::create_directories(tmp.root() / "dir-as-file" / "SKILL.md");
  ValidationReport dir = check(tmp.root() / "dir-as-file");
  EXPECT_EQ(rule_ids(dir), std::vector<std::string>{"file.unreadable"});

  fs::create_directories(tmp.root() / "fifo");
  ASSERT_EQ(mkfifo((tmp.root() / "fifo" / "SKILL.md").c_str(), 0600), 0);
  ValidationReport fifo = check(tmp.root() / "fifo"); // must not block
  EXPECT_EQ(rule_ids(fifo), std::vector<std::string>{"file.unreadable"});

  fs::create_directories(tmp.root() / "loop");
  fs::create_symlink("SKILL.md", tmp.root() / "loop" / "SKILL.md");
  ValidationReport loop = check(tmp.root() / "loop", true);
  EXPECT_EQ(rule_ids(loop), std::vector<std::string>{"file.unreadable"});
  EXPECT_FALSE(loop.valid());
}

TEST(ValidateSkill, CollectsEveryFindingAtOnceWithPositions) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("multi", "---\n"
                                    "name: My_Skill\n"
                                    "author: someone\n"
                                    "compatibility: " +
                                        std::string(501, 'c') +
                                        "\n"
                                        "metadata: just text\n"
                                        "---\n"
                                        "body\n");
  ValidationReport report = check(dir, true);
  std::vector<std::string> ids = rule_ids(report);
  for (const char* expected : {"name.uppercase", "name.charset", "name.dir_mismatch", "field.unknown",
                               "compatibility.too_long", "metadata.not_mapping", "description.missing"}) {
    EXPECT_NE(std::find(ids.begin(), ids.end(), expected), ids.end()) << expected;
  }
  const Finding* upper = find(report, "name.uppercase");
  EXPECT_EQ(upper->pos.line, 2U);
  EXPECT_EQ(upper->pos.column, 7U);
  EXPECT_EQ(upper->source_line, "name: My_Skill");
  EXPECT_EQ(upper->path, (dir / "SKILL.md").string());
  const Finding* unknown = find(report, "field.unknown");
  EXPECT_EQ(unknown->pos.line, 3U);
  EXPECT_EQ(unknown->pos.column, 1U);
  EXPECT_NE(unknown->message.find("'author'"), std::string::npos);
  EXPECT_EQ(find(report, "compatibility.too_long")->pos.line, 4U);
  EXPECT_EQ(find(report, "compatibility.too_long")->pos.column, 16U);
  EXPECT_EQ(find(report, "metadata.not_mapping")->severity, Severity::warning);
  // The missing field points at the opening fence.
  EXPECT_EQ(find(report, "description.missing")->pos.line, 1U);
  EXPECT_EQ(find(report, "description.missing")->source_line, "---");
  // Ordered by position.
  for (std::size_t i = 1; i < report.findings.size(); ++i) {
    EXPECT_LE(report.findings[i - 1].pos.line, report.findings[i].pos.line);
  }
  EXPECT_EQ(report.count(Severity::error), 6U);
}

TEST(ValidateSkill, DefaultModeMakesSpecStyleRulesWarnings) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("style", "---\nname: Style Guide\ndescription: x\nauthor: me\nversion: 1.0\n---\nbody\n");
  ValidationReport normal = check(dir);
  EXPECT_TRUE(normal.valid());
  EXPECT_EQ(find(normal, "name.uppercase")->severity, Severity::warning);
  EXPECT_EQ(find(normal, "name.charset")->severity, Severity::warning);
  EXPECT_EQ(find(normal, "name.dir_mismatch")->severity, Severity::warning);
  EXPECT_EQ(find(normal, "field.unknown")->severity, Severity::warning);
  EXPECT_EQ(find(normal, "field.not_in_spec")->severity, Severity::info);
  ValidationReport strict = check(dir, true);
  EXPECT_FALSE(strict.valid());
  EXPECT_EQ(find(strict, "field.not_in_spec")->severity, Severity::error);
  EXPECT_EQ(strict.count(Severity::error), 5U);
}

TEST(ValidateSkill, YamlSyntaxErrorHasThePositionInTheFile) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("bad", "---\nname: bad\ndescription: Use: when needed\n---\nbody\n");
  ValidationReport report = check(dir);
  ASSERT_EQ(rule_ids(report), std::vector<std::string>{"yaml.syntax"});
  EXPECT_EQ(report.findings[0].pos.line, 3U);
  EXPECT_GT(report.findings[0].pos.column, 0U);
  EXPECT_EQ(report.findings[0].source_line, "description: Use: when needed");
  EXPECT_FALSE(report.valid());
}

TEST(ValidateSkill, DuplicateKeysAreAYamlError) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("dup", "---\nname: dup\nname: dup\ndescription: x\n---\nbody\n");
  ValidationReport report = check(dir, true);
  const Finding* finding = find(report, "yaml.syntax");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->pos.line, 3U);
}

TEST(ValidateSkill, CrlfFilesValidateCleanlyAndKeepLineNumbers) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("crlf", "---\r\nname: crlf\r\ndescription: Windows.\r\nauthor: x\r\n---\r\nbody\r\n");
  ValidationReport report = check(dir, true);
  ASSERT_EQ(rule_ids(report), std::vector<std::string>{"field.unknown"});
  EXPECT_EQ(report.findings[0].pos.line, 4U);
  EXPECT_EQ(report.findings[0].source_line, "author: x");

  fs::path bad = tmp.skill("crlf-bad", "---\r\nname: crlf-bad\r\ndescription: [open\r\n---\r\nbody\r\n");
  ValidationReport bad_report = check(bad);
  const Finding* yaml = find(bad_report, "yaml.syntax");
  ASSERT_NE(yaml, nullptr);
  EXPECT_GE(yaml->pos.line, 3U);
  EXPECT_LE(yaml->pos.line, 4U);
}

TEST(ValidateSkill, ByteOrderMarkIsInfoForHermesButAnErrorForSkillsRef) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("bom", "\xEF\xBB\xBF" + skill_text("bom"));
  ValidationReport normal = check(dir);
  EXPECT_EQ(rule_ids(normal), std::vector<std::string>{"file.bom"});
  EXPECT_EQ(normal.findings[0].severity, Severity::info);
  EXPECT_TRUE(normal.valid());
  ValidationReport strict = check(dir, true);
  EXPECT_EQ(rule_ids(strict), std::vector<std::string>{"file.bom"});
  EXPECT_FALSE(strict.valid());
}

TEST(ValidateSkill, InvalidUtf8IsReportedWithItsPosition) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("latin1", "---\nname: latin1\ndescription: caf\xE9 au lait\n---\nbody\n");
  ValidationReport normal = check(dir);
  ASSERT_EQ(rule_ids(normal), std::vector<std::string>{"file.not_utf8"});
  EXPECT_EQ(normal.findings[0].pos.line, 3U);
  EXPECT_EQ(normal.findings[0].pos.column, 17U);
  EXPECT_NE(normal.findings[0].message.find("0xE9"), std::string::npos);
  EXPECT_EQ(normal.findings[0].source_line, "description: caf\xEF\xBF\xBD au lait");
  EXPECT_FALSE(normal.valid());
  // skills-ref decodes with replacement characters and accepts the file.
  ValidationReport strict = check(dir, true);
  EXPECT_EQ(strict.findings[0].severity, Severity::warning);
  EXPECT_TRUE(strict.valid());
}

TEST(ValidateSkill, HermesContentLimitCountsCharactersNotBytes) {
  TempSkillDir tmp;
  // ASCII head, then two-byte characters up to exactly 100,000 characters (~200,000 bytes).
  std::string at_limit = skill_text("big");
  std::size_t chars = at_limit.size();
  while (chars < limits::k_max_skill_content_chars) {
    at_limit += "\xC3\xA9";
    ++chars;
  }
  ValidationReport ok = check(tmp.skill("big", at_limit));
  EXPECT_EQ(find(ok, "hermes.content_too_long"), nullptr);
  EXPECT_TRUE(ok.valid());
  fs::path over = tmp.skill("big", at_limit + "x");
  ValidationReport normal = check(over);
  ASSERT_NE(find(normal, "hermes.content_too_long"), nullptr);
  EXPECT_EQ(find(normal, "hermes.content_too_long")->severity, Severity::error);
  EXPECT_NE(find(normal, "hermes.content_too_long")->message.find("100001"), std::string::npos);
  EXPECT_FALSE(normal.valid());
  ValidationReport strict = check(over, true);
  EXPECT_EQ(find(strict, "hermes.content_too_long")->severity, Severity::warning);
  EXPECT_TRUE(strict.valid());
}

TEST(ValidateSkill, HugeFileIsCheckedByItsPrefix) {
  TempSkillDir tmp;
  std::string text = skill_text("huge");
  text.append(limits::k_max_skill_file_bytes + 1000, 'x');
  fs::path dir = tmp.skill("huge", text);
  ValidationReport normal = check(dir);
  ASSERT_NE(find(normal, "file.too_large"), nullptr);
  EXPECT_EQ(find(normal, "file.too_large")->severity, Severity::error);
  EXPECT_NE(find(normal, "hermes.content_too_long"), nullptr);
  ValidationReport strict = check(dir, true);
  EXPECT_TRUE(strict.valid()); // skills-ref has no size limit; the frontmatter is fine
  EXPECT_EQ(find(strict, "file.too_large")->severity, Severity::warning);
}

TEST(ValidateSkill, HugeFrontmatterIsRefused) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("wide", skill_text("wide", "metadata:\n  blob: " + std::string(70 * 1024, 'x') + "\n"));
  ValidationReport report = check(dir, true);
  EXPECT_EQ(rule_ids(report), std::vector<std::string>{"frontmatter.too_large"});
  EXPECT_FALSE(report.valid());
}

TEST(ValidateSkill, FrontmatterStructure) {
  TempSkillDir tmp;
  EXPECT_EQ(rule_ids(check(tmp.skill("none", "# Title\n"))), std::vector<std::string>{"frontmatter.missing"});
  EXPECT_EQ(rule_ids(check(tmp.skill("blank", "  \n\n"))), std::vector<std::string>{"frontmatter.missing"});
  EXPECT_EQ(rule_ids(check(tmp.skill("open", "---\nname: open\ndescription: x\n"))),
            std::vector<std::string>{"frontmatter.unclosed"});
  ValidationReport list = check(tmp.skill("list", "---\n- a\n- b\n---\nbody\n"));
  EXPECT_EQ(rule_ids(list), std::vector<std::string>{"frontmatter.not_mapping"});
  EXPECT_EQ(list.findings[0].pos.line, 2U);
  EXPECT_EQ(rule_ids(check(tmp.skill("scalar", "---\njust words\n---\nbody\n"))),
            std::vector<std::string>{"frontmatter.not_mapping"});
  EXPECT_EQ(rule_ids(check(tmp.skill("empty", "---\n---\nbody\n"))),
            (std::vector<std::string>{"name.missing", "description.missing"}));
}

TEST(ValidateSkill, EmptyBodyIsAHermesError) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("nobody", "---\nname: nobody\ndescription: x\n---\n\n  \n");
  ValidationReport normal = check(dir);
  ASSERT_EQ(rule_ids(normal), std::vector<std::string>{"body.empty"});
  EXPECT_EQ(normal.findings[0].pos.line, 4U);
  EXPECT_EQ(normal.findings[0].source_line, "---");
  EXPECT_FALSE(normal.valid());
  EXPECT_TRUE(check(dir, true).valid());
}

TEST(ValidateSkill, DashesInsideTheFrontmatterFollowEachValidatorsFenceRule) {
  TempSkillDir tmp;
  // skills-ref cuts at the first "---": here after the description, so it still sees both fields.
  fs::path inside = tmp.skill("inside", "---\nname: inside\ndescription: before --- after\n---\nbody\n");
  ValidationReport normal = check(inside);
  EXPECT_EQ(rule_ids(normal), std::vector<std::string>{"frontmatter.early_fence"});
  EXPECT_EQ(normal.findings[0].pos.line, 3U);
  EXPECT_EQ(normal.findings[0].pos.column, 21U);
  EXPECT_TRUE(check(inside, true).valid());
  // Here the cut hides the name from skills-ref.
  fs::path hidden = tmp.skill("hidden", "---\ndescription: a---b\nname: hidden\n---\nbody\n");
  EXPECT_TRUE(check(hidden).valid());
  ValidationReport strict = check(hidden, true);
  EXPECT_FALSE(strict.valid());
  EXPECT_NE(find(strict, "name.missing"), nullptr);
  // A closing fence with trailing text closes it for skills-ref only.
  fs::path suffix = tmp.skill("suffix", "---\nname: suffix\ndescription: x\n---suffix\nbody\n");
  EXPECT_EQ(rule_ids(check(suffix)), (std::vector<std::string>{"frontmatter.unclosed", "frontmatter.early_fence"}));
  EXPECT_FALSE(check(suffix).valid());
  ValidationReport strict_suffix = check(suffix, true);
  EXPECT_TRUE(strict_suffix.valid());
  EXPECT_EQ(rule_ids(strict_suffix), std::vector<std::string>{"frontmatter.early_fence"});
}

TEST(ValidateSkill, NameRules) {
  TempSkillDir tmp;
  auto strict_rules = [&](const std::string& dir, const std::string& name) {
    return rule_ids(check(tmp.skill(dir, skill_text(name)), true));
  };
  EXPECT_EQ(strict_rules("a--b", "a--b"), std::vector<std::string>{"name.hyphens"});
  EXPECT_EQ(strict_rules("-a", "-a"), (std::vector<std::string>{"hermes.dir_name", "name.hyphens"}));
  EXPECT_EQ(strict_rules("a-", "a-"), std::vector<std::string>{"name.hyphens"});
  EXPECT_EQ(strict_rules("my.skill", "my.skill"), std::vector<std::string>{"name.charset"});
  EXPECT_EQ(strict_rules("x", "other"), std::vector<std::string>{"name.dir_mismatch"});
  std::string n64(64, 'n');
  std::string n65(65, 'n');
  EXPECT_TRUE(strict_rules(n64, n64).empty());
  EXPECT_EQ(strict_rules(n65, n65), (std::vector<std::string>{"hermes.dir_name", "name.too_long"}));
  // Unicode letters pass the spec (skills-ref) but not Hermes' ASCII regex.
  fs::path cafe = tmp.skill("café", skill_text("café"));
  EXPECT_TRUE(check(cafe, true).valid());
  ValidationReport normal = check(cafe);
  EXPECT_NE(find(normal, "hermes.name_charset"), nullptr);
  EXPECT_EQ(find(normal, "hermes.dir_name")->severity, Severity::error);
  EXPECT_EQ(strict_rules("privet", "Привет"), (std::vector<std::string>{"name.uppercase", "name.dir_mismatch"}));
  EXPECT_EQ(strict_rules("greek", "αβγ"), (std::vector<std::string>{"name.charset", "name.dir_mismatch"}));
  // Surrounding blanks are trimmed before the checks.
  EXPECT_TRUE(check(tmp.skill("spaced", skill_text("\"  spaced \"")), true).valid());
  EXPECT_EQ(strict_rules("empty", "\"\""), std::vector<std::string>{"name.empty"});
}

TEST(ValidateSkill, TypedNamesAreReadAsSkillsRefStringifiesThem) {
  TempSkillDir tmp;
  ValidationReport number = check(tmp.skill("123", skill_text("123")), true);
  EXPECT_TRUE(number.valid());
  EXPECT_EQ(rule_ids(number), std::vector<std::string>{"name.not_string"});
  EXPECT_TRUE(check(tmp.skill("1", skill_text("1.0")), true).valid());
  EXPECT_TRUE(check(tmp.skill("26", skill_text("0x1A")), true).valid());
  // `name:` is null: skills-ref reads "null"; Hermes treats it as empty.
  fs::path null_name = tmp.skill("nullish", "---\nname:\ndescription: x\n---\nbody\n");
  ValidationReport strict = check(null_name, true);
  EXPECT_EQ(rule_ids(strict), (std::vector<std::string>{"name.not_string", "name.dir_mismatch"}));
  EXPECT_FALSE(strict.valid());
  ValidationReport normal = check(null_name);
  EXPECT_EQ(rule_ids(normal), std::vector<std::string>{"name.empty"});
  EXPECT_EQ(normal.findings[0].pos.line, 2U);
  EXPECT_TRUE(normal.valid());
  ValidationReport list = check(tmp.skill("a,b", skill_text("[a, b]")), true);
  EXPECT_NE(find(list, "name.charset"), nullptr);
  ValidationReport date = check(tmp.skill("2024-01-01", skill_text("2024-01-01")), true);
  EXPECT_FALSE(date.valid());
}

TEST(ValidateSkill, DescriptionRules) {
  TempSkillDir tmp;
  auto make = [&](const std::string& dir, const std::string& description) {
    return tmp.skill(dir, "---\nname: " + dir + "\ndescription: " + description + "\n---\nbody\n");
  };
  EXPECT_EQ(rule_ids(check(make("e1", "\"\""), true)), std::vector<std::string>{"description.empty"});
  EXPECT_EQ(rule_ids(check(make("e2", "\"   \""), true)), std::vector<std::string>{"description.empty"});
  EXPECT_EQ(find(check(make("e3", "\"\"")), "description.empty")->severity, Severity::warning);
  // null: "null" for skills-ref (accepted), empty for Hermes (accepted with a warning).
  EXPECT_EQ(rule_ids(check(make("e4", ""), true)), std::vector<std::string>{"description.not_string"});
  EXPECT_TRUE(check(make("e4", ""), true).valid());
  EXPECT_EQ(rule_ids(check(make("e4", ""))), std::vector<std::string>{"description.empty"});
  EXPECT_EQ(rule_ids(check(make("t1", "true"), true)), std::vector<std::string>{"description.not_string"});
  EXPECT_TRUE(check(make("d1024", std::string(1024, 'd')), true).valid());
  ValidationReport over = check(make("d1025", std::string(1025, 'd')));
  EXPECT_EQ(rule_ids(over), std::vector<std::string>{"description.too_long"});
  EXPECT_EQ(over.findings[0].pos.column, 14U);
  EXPECT_FALSE(over.valid());
  // 600 astral characters: 600 for Hermes, 1,200 UTF-16 units for skills-ref.
  std::string emoji;
  for (int i = 0; i < 600; ++i) {
    emoji += "\xF0\x9F\x98\x80";
  }
  fs::path astral = make("astral", emoji);
  EXPECT_TRUE(check(astral).valid());
  EXPECT_EQ(rule_ids(check(astral, true)), std::vector<std::string>{"description.too_long"});
}

TEST(ValidateSkill, CompatibilityRules) {
  TempSkillDir tmp;
  auto strict_rules = [&](const std::string& dir, const std::string& value) {
    return rule_ids(check(tmp.skill(dir, skill_text(dir, "compatibility:" + value + "\n")), true));
  };
  EXPECT_TRUE(strict_rules("c500", " " + std::string(500, 'c')).empty());
  EXPECT_EQ(strict_rules("c501", " " + std::string(501, 'c')), std::vector<std::string>{"compatibility.too_long"});
  EXPECT_EQ(strict_rules("cnull", ""), std::vector<std::string>{"compatibility.not_string"});
  EXPECT_EQ(strict_rules("cnum", " 5"), std::vector<std::string>{"compatibility.not_string"});
  EXPECT_TRUE(strict_rules("cquoted", " \"5\"").empty());
  fs::path dir = tmp.skill("cdefault", skill_text("cdefault", "compatibility: 5\n"));
  EXPECT_EQ(find(check(dir), "compatibility.not_string")->severity, Severity::warning);
}

TEST(ValidateSkill, MetadataShapes) {
  TempSkillDir tmp;
  EXPECT_TRUE(check(tmp.skill("m1", skill_text("m1", "metadata:\n  author: x\n")), true).findings.empty());
  ValidationReport list = check(tmp.skill("m2", skill_text("m2", "metadata:\n  - a\n")), true);
  EXPECT_EQ(rule_ids(list), std::vector<std::string>{"metadata.not_mapping"});
  EXPECT_TRUE(list.valid());
  EXPECT_TRUE(check(tmp.skill("m3", skill_text("m3", "metadata:\n")), true).findings.empty());
}

TEST(ValidateSkill, HermesDirectoryNameRule) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("My Skill", skill_text("my-skill"));
  ValidationReport normal = check(dir);
  ASSERT_NE(find(normal, "hermes.dir_name"), nullptr);
  EXPECT_EQ(find(normal, "hermes.dir_name")->severity, Severity::error);
  EXPECT_EQ(find(normal, "hermes.dir_name")->pos.line, 0U);
  EXPECT_EQ(find(check(dir, true), "hermes.dir_name")->severity, Severity::warning);
}

TEST(ValidateSkill, FileLevelFindingsComeFirst) {
  TempSkillDir tmp;
  fs::path dir = tmp.skill("Bad Dir", "---\nname: x\ndescription: y\n---\nbody\n");
  ValidationReport report = check(dir);
  ASSERT_GE(report.findings.size(), 2U);
  EXPECT_EQ(report.findings[0].rule_id, "hermes.dir_name");
  EXPECT_EQ(report.findings[0].pos.line, 0U);
  EXPECT_TRUE(report.findings[0].source_line.empty());
}

} // namespace
} // namespace skillrt::core
