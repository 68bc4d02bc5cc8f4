#include "core/view/skill_view.hpp"

#include <algorithm>
#include <array>
#include <exception>
#include <system_error>

#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/files/containment.hpp"
#include "core/files/path_within.hpp"
#include "core/files/read_file.hpp"
#include "core/view/linked_files.hpp"
#include "core/view/name_check.hpp"
#include "core/view/plugin_skill.hpp"
#include "core/view/preprocess.hpp"
#include "core/view/resolver.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;

std::string strip(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n\f\v");
  if (first == std::string_view::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\r\n\f\v");
  return std::string(text.substr(first, last - first + 1));
}


void replace_all(std::string& text, std::string_view from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

fs::path resolved_or_self(const fs::path& path) {
  std::error_code ec;
  fs::path resolved = fs::weakly_canonical(path, ec);
  return ec ? path : resolved;
}

// `platforms:` as a list of strings; a scalar is a one-item list.
std::vector<std::string> platform_tags(const YamlNode& fm) {
  std::vector<std::string> tags;
  const YamlNode* node = fm.get("platforms");
  if (node == nullptr || !node->truthy()) {
    return tags;
  }
  if (node->is_sequence()) {
    for (const YamlNode& item : node->items()) {
      tags.push_back(item.to_string());
    }
  } else {
    tags.push_back(node->to_string());
  }
  return tags;
}

// The listing's description fallback: first non-empty body line not starting with '#'.
std::string first_body_line(std::string_view body) {
  std::size_t begin = 0;
  while (begin < body.size()) {
    std::size_t end = body.find('\n', begin);
    if (end == std::string_view::npos) {
      end = body.size();
    }
    std::string line = strip(body.substr(begin, end - begin));
    if (!line.empty() && line.front() != '#') {
      return line;
    }
    begin = end + 1;
  }
  return {};
}

bool description_is_empty(const YamlNode* node) {
  return node == nullptr || node->is_null() || (node->is_scalar() && node->text().empty());
}

void add_security_warnings(const std::string& name, const fs::path& skill_md, std::string_view content,
                           const Catalog& catalog, const Context& ctx, std::vector<std::string>& warnings) {
  const fs::path resolved = resolved_or_self(skill_md);
  bool trusted = is_within(resolved, resolved_or_self(ctx.skills_dir()));
  for (const Root& root : catalog.roots.roots) {
    trusted = trusted || is_within(resolved, root.path);
  }
  if (!trusted) {
    warnings.push_back("skill '" + name + "': file is outside the trusted skills directories: " + skill_md.string());
  }
  if (has_injection_pattern(content)) {
    warnings.push_back("skill '" + name + "': content contains patterns that may indicate prompt injection");
  }
}

std::string skill_path_field(const ResolvedSkill& skill) {
  // The user's own root is laid out like the local one (issue 3/5), and so
  // is a plugin's skills folder.
  if (skill.tier == Tier::local || skill.tier == Tier::user || is_plugin_tier(skill.tier)) {
    return skill.skill_md.lexically_relative(skill.root).string();
  }
  const fs::path grandparent = skill.skill_md.parent_path().parent_path();
  return grandparent.empty() ? skill.skill_md.filename().string()
                             : skill.skill_md.lexically_relative(grandparent).string();
}

ViewResult<SkillViewAnswer> view_skill_unguarded(const Context& ctx, const Config& cfg, const Catalog& catalog,
                                                 std::string_view raw_name,
                                                 const std::optional<std::string>& file_path,
                                                 std::vector<std::string>& warnings) {
  auto checked = checked_lookup_name(raw_name);
  if (!checked) {
    return tl::unexpected(std::move(checked.error()));
  }
  const std::string& name = *checked;
  // `ns:skill` (rule 2): a plugin's skill when a plugin has that namespace;
  // otherwise the local alias `ns/skill` (how `category:skill` keeps working).
  auto alias = namespace_alias(name);
  if (!alias) {
    return tl::unexpected(std::move(alias.error()));
  }
  const std::size_t colon = name.find(':');
  const Plugin* plugin =
      colon == std::string::npos ? nullptr : catalog.roots.plugins.find(std::string_view(name).substr(0, colon));
  auto resolved = plugin != nullptr
                      ? resolve_plugin_skill(catalog, *plugin, name, std::string_view(name).substr(colon + 1))
                      : resolve_skill(catalog, name, *alias);
  if (!resolved) {
    return tl::unexpected(std::move(resolved.error()));
  }
  const ResolvedSkill& skill = *resolved;

  // The one containment rule: a SKILL.md (or legacy NAME.md) that is a link
  // to a file outside its folder is refused, whatever reached it (a direct
  // path bypasses the walk, which refuses it too). The resolved path is read.
  auto entry = resolve_entry_file(skill.skill_md);
  if (!entry && plugin != nullptr && entry.error().code == ErrorCode::not_found) {
    return tl::unexpected(view_failure(ErrorCode::not_found, "Skill '" + name + "' file no longer exists at " +
                                                                 skill.skill_md.string() +
                                                                 "; try again after the plugin is reloaded."));
  }
  if (!entry) {
    return tl::unexpected(view_failure(entry.error().code == ErrorCode::refused ? ErrorCode::refused
                                                                                : ErrorCode::not_found,
                                       "Skill '" + name + "' cannot be read: " + entry.error().message));
  }
  auto bytes = read_regular_file(*entry, limits::k_max_skill_file_bytes);
  if (!bytes) {
    return tl::unexpected(
        view_failure(bytes.error().code, "Failed to read skill '" + name + "': " + bytes.error().message));
  }
  // As Hermes reads it: BOM dropped, undecodable bytes replaced by U+FFFD.
  const std::string content(strip_bom(sanitize_utf8(*bytes)));
  bytes->clear();
  add_security_warnings(name, skill.skill_md, content, catalog, ctx, warnings);

  const Frontmatter parsed = parse_frontmatter(content);
  const YamlNode& fm = parsed.fields;
  if (!matches_platform(platform_tags(fm), ctx.os)) {
    ViewFailure failure = view_failure(ErrorCode::refused, "Skill '" + name + "' is not supported on this platform.");
    failure.readiness_status = ReadinessStatus::unsupported;
    return tl::unexpected(std::move(failure));
  }
  const YamlNode* name_node = fm.get("name");
  const bool has_name = name_node != nullptr && !name_node->is_null();
  const std::string resolved_name =
      has_name ? name_node->to_string() : skill.skill_md.parent_path().filename().string();
  const std::vector<std::string> disabled = disabled_names(cfg.skills, ctx.platform);
  // A plugin's skill is disabled by its qualified name, which the catalog checked.
  if (plugin == nullptr && std::find(disabled.begin(), disabled.end(), resolved_name) != disabled.end()) {
    return tl::unexpected(view_failure(ErrorCode::refused, "Skill '" + resolved_name +
                                                               "' is disabled. Enable it with `hermes skills` or "
                                                               "inspect the files directly on disk."));
  }

  // A legacy flat skill has no directory, so a file request falls back to SKILL content.
  if (file_path && !file_path->empty() && skill.skill_dir) {
    auto served = serve_skill_file(*skill.skill_dir, *file_path, name);
    if (!served) {
      return tl::unexpected(std::move(served.error()));
    }
    return SkillViewAnswer(SkillFile{name, std::move(*served)});
  }

  SkillDocument doc;
  doc.name = has_name ? name_node->to_string()
                      : (skill.skill_dir ? skill.skill_dir->filename().string() : skill.skill_md.stem().string());
  if (plugin != nullptr) {
    doc.name = name;  // rule 20: the qualified name
    doc.plugin = plugin->name();
  }
  const YamlNode* description = fm.get("description");
  if (description_is_empty(description)) {
    // Spec §5.1 item 6 fixed: the same body-line fallback the listing uses.
    const std::size_t body = std::min(parsed.body_offset, content.size());
    doc.description = YamlNode::make_scalar(first_body_line(std::string_view(content).substr(body)), false, {});
  } else {
    doc.description = *description;
  }
  const YamlNode* metadata = fm.get("metadata");
  const YamlNode* hermes = metadata != nullptr && metadata->is_mapping() ? metadata->get("hermes") : nullptr;
  const auto field = [&](std::string_view key) {
    const YamlNode* nested = hermes != nullptr && hermes->is_mapping() ? hermes->get(key) : nullptr;
    return parse_tag_list(nested != nullptr && nested->truthy() ? nested : fm.get(key));
  };
  doc.tags = field("tags");
  doc.related_skills = field("related_skills");
  doc.path = skill_path_field(skill);
  doc.skill_dir = skill.skill_dir;
  if (skill.skill_dir) {
    doc.linked_files = collect_linked_files(*skill.skill_dir);
  }
  doc.readiness = evaluate_readiness(fm, ctx);
  doc.content = preprocess_skill_content(content, skill.skill_dir, skill.skill_md.parent_path(), ctx, cfg.skills,
                                         skill.tier);
  if (plugin != nullptr) {
    if (cfg.skills.template_vars) {
      // Claude Code's plugin skills name their plugin's own files through it.
      replace_all(doc.content, "${CLAUDE_PLUGIN_ROOT}", plugin->dir.string());
    }
    doc.bundle_banner = plugin_bundle_banner(catalog, *plugin, name);
  }
  doc.source_path = skill.skill_md;
  if (const YamlNode* compat = fm.get("compatibility"); compat != nullptr && compat->truthy()) {
    doc.compatibility = *compat;
  }
  if (metadata != nullptr && metadata->is_mapping()) {
    doc.metadata = *metadata;
  }
  doc.tier = skill.tier;
  return SkillViewAnswer(std::move(doc));
}

} // namespace

bool has_injection_pattern(std::string_view content) {
  static constexpr std::array<std::string_view, 9> k_patterns{"ignore previous instructions",
                                                              "ignore all previous",
                                                              "you are now",
                                                              "disregard your",
                                                              "forget your instructions",
                                                              "new instructions:",
                                                              "system prompt:",
                                                              "<system>",
                                                              "]]>"};
  std::string lowered(content);
  // The patterns are ASCII, so ASCII folding is all the lower-casing they need.
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return std::any_of(k_patterns.begin(), k_patterns.end(),
                     [&](std::string_view pattern) { return lowered.find(pattern) != std::string::npos; });
}

ViewResult<SkillViewAnswer> view_skill(const Context& ctx, const Config& cfg, std::string_view name,
                                       const std::optional<std::string>& file_path,
                                       std::vector<std::string>& warnings) {
  try {
    // The name checks come first so a hostile name never costs a walk.
    if (auto checked = checked_lookup_name(name); !checked) {
      return tl::unexpected(std::move(checked.error()));
    }
    const Catalog catalog = build_catalog(ctx, cfg, CatalogOptions{.collect_legacy = true});
    return view_skill_unguarded(ctx, cfg, catalog, name, file_path, warnings);
  } catch (const std::exception& error) {
    return tl::unexpected(view_failure(ErrorCode::internal, error.what()));
  }
}

ViewResult<SkillViewAnswer> view_skill_in(const Context& ctx, const Config& cfg, const Catalog& catalog,
                                          std::string_view name, const std::optional<std::string>& file_path,
                                          std::vector<std::string>& warnings) {
  try {
    return view_skill_unguarded(ctx, cfg, catalog, name, file_path, warnings);
  } catch (const std::exception& error) {
    return tl::unexpected(view_failure(ErrorCode::internal, error.what()));
  }
}

} // namespace skillrt::core
