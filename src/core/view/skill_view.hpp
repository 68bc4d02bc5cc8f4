// skill_view (spec §2.7): resolve a name, apply the gates, and return either the
// skill's main document or one of its files, as plain data for a front end.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/roots.hpp"
#include "core/view/failure.hpp"
#include "core/view/file_serving.hpp"
#include "core/view/readiness.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

// The main document of a skill, field for field what Hermes returns.
struct SkillDocument {
  std::string name;     // frontmatter name, else directory name (legacy: file stem)
  YamlNode description; // raw frontmatter value; when empty, the first non-heading body line
  std::vector<std::string> tags;
  std::vector<std::string> related_skills;
  std::string content; // whole file (frontmatter included), preprocessed
  std::string path;    // relative to the local skills dir, else to the skill's grandparent
  std::optional<std::filesystem::path> skill_dir;
  FileGroups linked_files; // empty → null
  Readiness readiness;
  std::filesystem::path source_path;     // SKILL.md as found
  std::optional<YamlNode> compatibility; // when truthy
  std::optional<YamlNode> metadata;      // when a mapping
  Tier tier = Tier::local;
  // The plugin's namespace when this is a plugin's skill (`ns:skill`), else "".
  std::string plugin;
  // Rule 20's "[Bundle context: ...]" line for a plugin's skill, else "". The
  // JSON answer puts it, and a blank line, before `content`; a page that
  // renders the SKILL.md leaves it out.
  std::string bundle_banner;
};

// One support file of a skill (`view NAME --file PATH`).
struct SkillFile {
  std::string name; // the name as requested
  ServedFile file;
};

using SkillViewAnswer = std::variant<SkillDocument, SkillFile>;

// The 9 lower-cased substrings Hermes treats as possible prompt injection.
bool has_injection_pattern(std::string_view content);

// Runs skill_view for `name` (and `file_path` when given). Security concerns
// (file outside the trusted roots, injection patterns) are appended to
// `warnings`; they never block. Never throws.
ViewResult<SkillViewAnswer> view_skill(const Context& ctx, const Config& cfg, std::string_view name,
                                       const std::optional<std::string>& file_path, std::vector<std::string>& warnings);

struct Catalog;  // core/discovery/catalog.hpp

// view_skill over an already built catalog of ctx (built with
// CatalogOptions::collect_legacy, as view_skill builds it): a server that
// keeps a catalog snapshot answers without walking the roots again.
ViewResult<SkillViewAnswer> view_skill_in(const Context& ctx, const Config& cfg, const Catalog& catalog,
                                          std::string_view name, const std::optional<std::string>& file_path,
                                          std::vector<std::string>& warnings);

} // namespace skillrt::core
