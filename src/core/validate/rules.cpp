#include "core/validate/rules.hpp"

#include <array>

namespace skillrt::core {

namespace {

constexpr Severity E = Severity::error;
constexpr Severity W = Severity::warning;
constexpr Severity I = Severity::info;

constexpr std::array k_rules{
    // Locating and reading SKILL.md.
    RuleInfo{"path.not_found", E, E, "the path does not exist"},
    RuleInfo{"path.not_skill", E, E, "the path is neither a directory nor a SKILL.md file"},
    RuleInfo{"skill_md.missing", E, E, "the directory has no SKILL.md"},
    RuleInfo{"skill_md.lowercase", E, W, "only a lowercase skill.md exists; Hermes discovers SKILL.md only"},
    RuleInfo{"file.unreadable", E, E, "SKILL.md cannot be read (not a regular file, permissions, loops)"},
    RuleInfo{"file.too_large", E, W, "SKILL.md is larger than skillrt loads; only its beginning was checked"},
    RuleInfo{"file.not_utf8", E, W, "SKILL.md is not valid UTF-8 (skillrt's listing skips it)"},
    RuleInfo{"file.bom", I, E, "SKILL.md starts with a byte-order mark (Hermes strips it; skills-ref rejects it)"},
    RuleInfo{"hermes.content_too_long", E, W, "SKILL.md is longer than Hermes' 100,000-character limit"},
    // The frontmatter block.
    RuleInfo{"frontmatter.missing", E, E, "SKILL.md does not start with a --- frontmatter fence"},
    RuleInfo{"frontmatter.unclosed", E, E, "the frontmatter has no closing --- fence"},
    RuleInfo{"frontmatter.early_fence", W, W, "a --- inside the frontmatter ends it early for skills-ref"},
    RuleInfo{"frontmatter.too_large", E, E, "the frontmatter exceeds skillrt's size limit"},
    RuleInfo{"yaml.syntax", E, E, "the frontmatter is not valid YAML (or uses a refused YAML feature)"},
    RuleInfo{"frontmatter.not_mapping", E, E, "the frontmatter YAML is not a mapping"},
    RuleInfo{"body.empty", E, W, "nothing follows the frontmatter (Hermes refuses an empty body)"},
    // name.
    RuleInfo{"name.missing", E, E, "no name field"},
    RuleInfo{"name.not_string", W, W, "name is not a string (YAML typed value)"},
    RuleInfo{"name.empty", W, E, "name is empty or blank"},
    RuleInfo{"name.too_long", W, E, "name is longer than 64 characters"},
    RuleInfo{"name.uppercase", W, E, "name has uppercase letters"},
    RuleInfo{"name.charset", W, E, "name has characters other than letters, digits and hyphens"},
    RuleInfo{"name.hyphens", W, E, "name starts or ends with a hyphen, or contains --"},
    RuleInfo{"name.dir_mismatch", W, E, "name differs from the directory name"},
    RuleInfo{"hermes.name_charset", W, W, "name is fine for the spec but not for Hermes' ^[a-z0-9][a-z0-9._-]*$"},
    RuleInfo{"hermes.dir_name", E, W, "the directory name is not a valid Hermes skill name"},
    // description.
    RuleInfo{"description.missing", E, E, "no description field"},
    RuleInfo{"description.not_string", W, W, "description is not a string (YAML typed value)"},
    RuleInfo{"description.empty", W, E, "description is empty or blank"},
    RuleInfo{"description.too_long", E, E, "description is longer than 1,024 characters"},
    // Other fields.
    RuleInfo{"compatibility.not_string", W, E, "compatibility is not a string"},
    RuleInfo{"compatibility.too_long", W, E, "compatibility is longer than 500 characters"},
    RuleInfo{"metadata.not_mapping", W, W, "metadata is not a mapping"},
    RuleInfo{"field.not_in_spec", I, E, "a top-level field Hermes reads but the Agent Skills spec does not allow"},
    RuleInfo{"field.unknown", W, E, "a top-level field neither the spec nor Hermes knows"},
};

} // namespace

std::span<const RuleInfo> all_rules() {
  return k_rules;
}

const RuleInfo* find_rule(std::string_view id) {
  for (const RuleInfo& rule : k_rules) {
    if (rule.id == id) {
      return &rule;
    }
  }
  return nullptr;
}

Severity rule_severity(std::string_view id, bool strict) {
  const RuleInfo* rule = find_rule(id);
  if (rule == nullptr) {
    return Severity::error;
  }
  return strict ? rule->strict : rule->normal;
}

} // namespace skillrt::core
