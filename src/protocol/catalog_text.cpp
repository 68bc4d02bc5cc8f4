// Human renderings of the catalog (declared in catalog_json.hpp).
#include <algorithm>
#include <sstream>
#include <string_view>
#include <vector>

#include "core/util/terminal_text.hpp"
#include "protocol/catalog_json.hpp"
#include "protocol/text_table.hpp"

namespace skillrt::protocol {

namespace {

constexpr std::size_t k_table_width = 100;
constexpr std::size_t k_max_name_column = 30;
constexpr std::size_t k_max_category_column = 18;
constexpr std::string_view k_bold = "\x1b[1m";
constexpr std::string_view k_reset = "\x1b[0m";

std::string heading(std::string_view text, bool color) {
  if (!color) {
    return std::string(text);
  }
  return std::string(k_bold) + std::string(text) + std::string(k_reset);
}

}  // namespace

std::string list_text(const core::Catalog& catalog, const std::optional<std::string>& category, bool color,
                      const core::ProvenanceIndex* provenance) {
  std::ostringstream out;
  if (catalog.listed.empty()) {
    out << "No skills found in skills/ directory.\n";
    return out.str();
  }
  const std::vector<const core::SkillRecord*> listing = catalog.sorted_listing(category);
  std::vector<std::vector<std::string>> rows;
  rows.reserve(listing.size());
  for (const core::SkillRecord* record : listing) {
    std::vector<std::string>& row = rows.emplace_back();
    row = {std::string(record->name), std::string(record->category.value_or("-")),
           std::string(core::source_name(catalog.roots, record->tier))};
    if (provenance != nullptr) {
      row.emplace_back(core::provenance_kind_name(provenance->of(catalog, *record).kind));
    }
    row.push_back(catalog.description(*record));
  }
  std::vector<TableColumn> columns{{"NAME", k_max_name_column}, {"CATEGORY", k_max_category_column}, {"SOURCE", 0}};
  if (provenance != nullptr) {
    columns.push_back({"ORIGIN", 0});
  }
  columns.push_back({"DESCRIPTION", 0});
  out << render_table(columns, rows, color, k_table_width);
  out << listing.size() << (listing.size() == 1 ? " skill" : " skills");
  if (category) {
    out << " in category " << core::terminal_safe(*category, core::TerminalLayout::single_line);
  }
  out << "\n";
  return out.str();
}

std::string doctor_text(const core::Catalog& catalog, const core::Config& config, bool color) {
  std::ostringstream out;
  out << heading("Roots", color) << " (precedence order)\n";
  if (catalog.roots.roots.empty()) {
    out << "  (none: no local skills dir, no external or trusted project dirs)\n";
  }
  for (std::size_t i = 0; i < catalog.roots.roots.size(); ++i) {
    const core::Root& root = catalog.roots.roots[i];
    std::size_t skills = i < catalog.skills_per_root.size() ? catalog.skills_per_root[i] : 0;
    std::size_t dirs = i < catalog.dirs_per_root.size() ? catalog.dirs_per_root[i] : 0;
    out << "  [" << core::tier_name(root.tier) << "] " << root.path.string() << ": " << skills << " skills, " << dirs
        << " dirs\n";
  }
  out << catalog.listed.size() << " offered of " << catalog.records.size() << " found\n";

  if (catalog.roots.untrusted_project) {
    out << "\n" << heading("Untrusted project", color) << "\n  " << catalog.roots.untrusted_project->root.string()
        << ": " << catalog.roots.untrusted_project->skill_count
        << " skill(s) not loaded; run `skillrt trust` to trust this project\n";
  }
  if (!catalog.roots.dropped_external.empty()) {
    out << "\n" << heading("Dropped external_dirs", color) << "\n";
    for (const auto& [entry, reason] : catalog.roots.dropped_external) {
      out << "  " << entry << ": " << reason << "\n";
    }
  }
  if (!catalog.roots.plugins.problems.empty()) {
    out << "\n" << heading("Plugins left out", color) << "\n";
    for (const core::PluginProblem& problem : catalog.roots.plugins.problems) {
      out << "  " << problem.path.string() << ": " << problem.message << "\n";
    }
  }
  if (!config.problems.empty()) {
    out << "\n" << heading("Config problems", color) << " (" << config.path.string() << " treated as empty)\n";
    for (const Error& problem : config.problems) {
      out << "  ";
      if (problem.pos.line != 0) {
        out << "line " << problem.pos.line << ":" << problem.pos.column << ": ";
      }
      out << problem.message << "\n";
    }
  }

  bool any_shadowed = false;
  for (const core::SkillRecord& record : catalog.records) {
    if (record.hidden != core::Hidden::shadowed || record.shadowed_by >= catalog.records.size()) {
      continue;
    }
    if (!any_shadowed) {
      out << "\n" << heading("Shadowed", color) << " (an earlier skill has the same name)\n";
      any_shadowed = true;
    }
    out << "  " << record.name << ": " << record.skill_md.string() << "\n    hidden by "
        << catalog.records[record.shadowed_by].skill_md.string() << "\n";
  }

  bool any_hidden = false;
  for (const core::SkillRecord& record : catalog.records) {
    if (record.hidden == core::Hidden::none || record.hidden == core::Hidden::shadowed) {
      continue;
    }
    if (!any_hidden) {
      out << "\n" << heading("Hidden", color) << "\n";
      any_hidden = true;
    }
    out << "  " << record.name << " (" << core::hidden_name(record.hidden) << "): " << record.skill_md.string() << "\n";
  }

  if (!catalog.skipped.empty()) {
    out << "\n" << heading("Skipped", color) << "\n";
    for (const core::SkippedPath& skip : catalog.skipped) {
      out << "  " << core::skip_reason_name(skip.reason) << ": " << skip.path.string();
      if (!skip.detail.empty()) {
        out << " (" << skip.detail << ")";
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace skillrt::protocol
