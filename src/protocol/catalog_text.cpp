// Human renderings of the catalog (declared in catalog_json.hpp).
#include <algorithm>
#include <sstream>
#include <string_view>
#include <vector>

#include "protocol/catalog_json.hpp"

namespace skillrt::protocol {

namespace {

constexpr std::size_t k_table_width = 100;
constexpr std::size_t k_max_name_column = 30;
constexpr std::size_t k_max_category_column = 18;
constexpr std::string_view k_bold = "\x1b[1m";
constexpr std::string_view k_reset = "\x1b[0m";

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// At most `width` code points; a cut ends in "...". Newlines become spaces.
std::string fit(std::string_view text, std::size_t width) {
  std::string flat;
  flat.reserve(text.size());
  for (char c : text) {
    flat.push_back(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
  }
  if (display_width(flat) <= width) {
    return flat;
  }
  std::size_t keep = width > 3 ? width - 3 : 0;
  std::size_t chars = 0;
  std::size_t cut = flat.size();
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if ((static_cast<unsigned char>(flat[i]) & 0xC0) != 0x80) {
      if (chars == keep) {
        cut = i;
        break;
      }
      ++chars;
    }
  }
  return flat.substr(0, cut) + std::string("...").substr(0, width - std::min(width, keep));
}

std::string pad(const std::string& text, std::size_t width) {
  std::size_t shown = display_width(text);
  return shown >= width ? text : text + std::string(width - shown, ' ');
}

std::string heading(std::string_view text, bool color) {
  if (!color) {
    return std::string(text);
  }
  return std::string(k_bold) + std::string(text) + std::string(k_reset);
}

}  // namespace

std::string list_text(const core::Catalog& catalog, const std::optional<std::string>& category, bool color) {
  std::ostringstream out;
  if (catalog.listed.empty()) {
    out << "No skills found in skills/ directory.\n";
    return out.str();
  }
  const std::vector<const core::SkillRecord*> listing = catalog.sorted_listing(category);
  std::size_t name_width = 4;
  std::size_t category_width = 8;
  for (const core::SkillRecord* record : listing) {
    name_width = std::max(name_width, std::min(display_width(record->name), k_max_name_column));
    if (record->category) {
      category_width = std::max(category_width, std::min(display_width(*record->category), k_max_category_column));
    }
  }
  constexpr std::size_t k_source_width = 8;  // "external"
  const std::size_t used = name_width + category_width + k_source_width + 6;
  const std::size_t description_width = used < k_table_width ? k_table_width - used : 10;

  std::string header = pad("NAME", name_width) + "  " + pad("CATEGORY", category_width) + "  " +
                       pad("SOURCE", k_source_width) + "  DESCRIPTION";
  out << heading(header, color) << "\n";
  for (const core::SkillRecord* record : listing) {
    out << pad(fit(record->name, name_width), name_width) << "  "
        << pad(fit(record->category.value_or("-"), category_width), category_width) << "  "
        << pad(core::source_name(catalog.roots, record->tier), k_source_width) << "  "
        << fit(catalog.description(*record), description_width) << "\n";
  }
  out << listing.size() << (listing.size() == 1 ? " skill" : " skills");
  if (category) {
    out << " in category " << *category;
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
