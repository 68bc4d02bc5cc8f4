#include "core/validate/rules.hpp"

#include <sys/stat.h>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/limits.hpp"
#include "core/validate/validator.hpp"
#include "temp_skill_dir.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using test::TempSkillDir;

std::string good(const std::string& name, const std::string& extra = "") {
  return "---\nname: " + name + "\ndescription: Does a thing.\n" + extra + "---\nbody\n";
}

struct RuleCase {
  std::string rule;
  std::function<fs::path(const TempSkillDir&)> make;
};

// One skill per rule that triggers that rule (possibly among others).
std::vector<RuleCase> rule_cases() {
  return {
      {"path.not_found", [](const TempSkillDir& t) { return t.root() / "absent"; }},
      {"path.not_skill", [](const TempSkillDir& t) { return t.write("x/notes.txt", "hi"); }},
      {"skill_md.missing",
       [](const TempSkillDir& t) {
         fs::create_directories(t.root() / "bare");
         return t.root() / "bare";
       }},
      {"skill_md.lowercase",
       [](const TempSkillDir& t) {
         t.write("low/skill.md", good("low"));
         return t.root() / "low";
       }},
      {"file.unreadable",
       [](const TempSkillDir& t) {
         fs::create_directories(t.root() / "d" / "SKILL.md");
         return t.root() / "d";
       }},
      {"file.too_large",
       [](const TempSkillDir& t) {
         return t.skill("large", good("large") + std::string(limits::k_max_skill_file_bytes, 'x'));
       }},
      {"file.not_utf8", [](const TempSkillDir& t) { return t.skill("u", good("u") + "\xFF\n"); }},
      {"file.bom", [](const TempSkillDir& t) { return t.skill("b", "\xEF\xBB\xBF" + good("b")); }},
      {"hermes.content_too_long",
       [](const TempSkillDir& t) {
         return t.skill("c", good("c") + std::string(limits::k_max_skill_content_chars, 'x'));
       }},
      {"frontmatter.missing", [](const TempSkillDir& t) { return t.skill("m", "no fence\n"); }},
      {"frontmatter.unclosed", [](const TempSkillDir& t) { return t.skill("o", "---\nname: o\n"); }},
      {"frontmatter.early_fence",
       [](const TempSkillDir& t) { return t.skill("e", "---\nname: e\ndescription: a---b\n---\nbody\n"); }},
      {"frontmatter.too_large",
       [](const TempSkillDir& t) {
         return t.skill("w", good("w", "metadata:\n  k: " + std::string(limits::k_max_frontmatter_bytes, 'v') + "\n"));
       }},
      {"yaml.syntax", [](const TempSkillDir& t) { return t.skill("y", "---\nname: [y\n---\nbody\n"); }},
      {"frontmatter.not_mapping", [](const TempSkillDir& t) { return t.skill("l", "---\n- a\n---\nbody\n"); }},
      {"body.empty", [](const TempSkillDir& t) { return t.skill("n", "---\nname: n\ndescription: d\n---\n"); }},
      {"name.missing", [](const TempSkillDir& t) { return t.skill("nm", "---\ndescription: d\n---\nbody\n"); }},
      {"name.not_string", [](const TempSkillDir& t) { return t.skill("7", good("7")); }},
      {"name.empty", [](const TempSkillDir& t) { return t.skill("ne", good("\"\"")); }},
      {"name.too_long", [](const TempSkillDir& t) { return t.skill("tl", good(std::string(65, 'a'))); }},
      {"name.uppercase", [](const TempSkillDir& t) { return t.skill("Up", good("Up")); }},
      {"name.charset", [](const TempSkillDir& t) { return t.skill("a_b", good("a_b")); }},
      {"name.hyphens", [](const TempSkillDir& t) { return t.skill("a--b", good("a--b")); }},
      {"name.dir_mismatch", [](const TempSkillDir& t) { return t.skill("dir", good("other")); }},
      {"hermes.name_charset", [](const TempSkillDir& t) { return t.skill("naïve", good("naïve")); }},
      {"hermes.dir_name", [](const TempSkillDir& t) { return t.skill("Has Space", good("has-space")); }},
      {"description.missing", [](const TempSkillDir& t) { return t.skill("dm", "---\nname: dm\n---\nbody\n"); }},
      {"description.not_string",
       [](const TempSkillDir& t) { return t.skill("dn", "---\nname: dn\ndescription: 42\n---\nbody\n"); }},
      {"description.empty",
       [](const TempSkillDir& t) { return t.skill("de", "---\nname: de\ndescription: ''\n---\nbody\n"); }},
      {"description.too_long",
       [](const TempSkillDir& t) {
         return t.skill("dl", "---\nname: dl\ndescription: " + std::string(1025, 'd') + "\n---\nbody\n");
       }},
      {"compatibility.not_string",
       [](const TempSkillDir& t) { return t.skill("cn", good("cn", "compatibility: [a]\n")); }},
      {"compatibility.too_long",
       [](const TempSkillDir& t) {
         return t.skill("ct", good("ct", "compatibility: " + std::string(501, 'c') + "\n"));
       }},
      {"metadata.not_mapping", [](const TempSkillDir& t) { return t.skill("mm", good("mm", "metadata: 3\n")); }},
      {"field.not_in_spec", [](const TempSkillDir& t) { return t.skill("fv", good("fv", "platforms: [linux]\n")); }},
      {"field.unknown", [](const TempSkillDir& t) { return t.skill("fu", good("fu", "colour: blue\n")); }},
  };
}

TEST(Rules, EveryRuleIsTriggeredByItsCaseWithTheTableSeverity) {
  std::set<std::string> covered;
  for (const RuleCase& rule_case : rule_cases()) {
    TempSkillDir tmp;
    fs::path path = rule_case.make(tmp);
    for (bool strict : {false, true}) {
      ValidateOptions options;
      options.strict = strict;
      ValidationReport report = validate_skill(path, options);
      const Finding* hit = nullptr;
      for (const Finding& finding : report.findings) {
        if (finding.rule_id == rule_case.rule) {
          hit = &finding;
        }
      }
      ASSERT_NE(hit, nullptr) << rule_case.rule << (strict ? " (strict)" : "");
      EXPECT_EQ(hit->severity, rule_severity(rule_case.rule, strict)) << rule_case.rule;
      EXPECT_FALSE(hit->message.empty());
      if (hit->severity == Severity::error) {
        EXPECT_FALSE(report.valid());
      }
    }
    covered.insert(rule_case.rule);
  }
  for (const RuleInfo& rule : all_rules()) {
    EXPECT_TRUE(covered.count(std::string(rule.id)) == 1) << "no test case for rule " << rule.id;
  }
}

TEST(Rules, IdsAreUniqueAndLookupWorks) {
  std::set<std::string_view> ids;
  for (const RuleInfo& rule : all_rules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << rule.id;
    EXPECT_EQ(find_rule(rule.id), &rule);
    EXPECT_FALSE(rule.summary.empty());
  }
  EXPECT_EQ(find_rule("no.such.rule"), nullptr);
  EXPECT_EQ(rule_severity("no.such.rule", false), Severity::error);
}

TEST(Rules, StrictModeNeverDowngradesSpecRulesAndDefaultNeverErrsOnStyle) {
  // Spec style rules: warnings by default, errors in strict mode.
  for (const char* id : {"name.uppercase", "name.charset", "name.hyphens", "name.dir_mismatch", "field.unknown",
                         "compatibility.too_long", "compatibility.not_string"}) {
    EXPECT_EQ(rule_severity(id, false), Severity::warning) << id;
    EXPECT_EQ(rule_severity(id, true), Severity::error) << id;
  }
  // What skills-ref accepts is never an error in strict mode.
  for (const char* id : {"body.empty", "file.not_utf8", "hermes.content_too_long", "metadata.not_mapping",
                         "skill_md.lowercase", "hermes.dir_name", "hermes.name_charset"}) {
    EXPECT_NE(rule_severity(id, true), Severity::error) << id;
  }
}

TEST(Rules, EveryRuleIsDocumented) {
  // The rule table lives in docs/compat.md.
  std::string docs;
  for (const char* name : {"/docs/compat.md"}) {
    std::ifstream in(std::string(SKILLRT_SOURCE_DIR) + name);
    std::stringstream text;
    text << in.rdbuf();
    docs += text.str();
  }
  for (const RuleInfo& rule : all_rules()) {
    EXPECT_NE(docs.find("`" + std::string(rule.id) + "`"), std::string::npos) << rule.id << " is not documented";
  }
}

} // namespace
} // namespace skillrt::core
