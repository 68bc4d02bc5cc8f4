#include "core/guard/dismissals.hpp"

#include <algorithm>

#include "core/guard/ignore_rules.hpp"
#include "core/limits.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {
namespace {

Error problem(std::string message, SourcePos pos) {
  return Error{ErrorCode::parse_error, std::move(message), pos};
}

std::string at(SourcePos pos) {
  return pos.line == 0 ? std::string() : " (line " + std::to_string(pos.line) + ")";
}

Result<std::string> required_text(const YamlNode& entry, std::string_view key) {
  const YamlNode* value = entry.get(key);
  if (value == nullptr || !value->is_scalar() || value->is_null()) {
    std::string message = "each dismissal needs a `";
    message.append(key).append("`").append(at(entry.pos()));
    return tl::unexpected(problem(std::move(message), entry.pos()));
  }
  std::string text = value->text();
  if (text.find_first_not_of(" \t") == std::string::npos) {
    std::string message = "`";
    message.append(key).append("` must not be empty").append(at(value->pos()));
    return tl::unexpected(problem(std::move(message), value->pos()));
  }
  return text;
}

} // namespace

Result<DismissalFile> parse_dismissal_file(std::string_view text, std::string origin, bool from_operator) {
  auto doc = parse_yaml(text, limits::k_guard_max_dismissal_bytes);
  if (!doc) {
    return tl::unexpected(doc.error());
  }
  DismissalFile file;
  file.origin = std::move(origin);
  file.from_operator = from_operator;
  if (!doc->is_mapping()) {
    return tl::unexpected(problem("the top level must be a mapping with a `dismiss:` list", doc->pos()));
  }
  for (const auto& [key, value] : doc->entries()) {
    if (key == "dismiss") {
      continue;
    }
    if (key == "source" && from_operator) {
      if (!value.is_scalar() || value.is_null() || value.text().empty()) {
        return tl::unexpected(problem("`source` must be a non-empty string" + at(value.pos()), value.pos()));
      }
      file.source = value.text();
      continue;
    }
    return tl::unexpected(problem("unknown key `" + key + "`" + at(doc->key_pos(key)), doc->key_pos(key)));
  }
  const YamlNode* list = doc->get("dismiss");
  if (list == nullptr || !list->is_sequence()) {
    return tl::unexpected(problem("`dismiss` must be a list", list == nullptr ? doc->pos() : list->pos()));
  }
  for (const YamlNode& entry : list->items()) {
    if (!entry.is_mapping()) {
      return tl::unexpected(problem("each dismissal must be a mapping" + at(entry.pos()), entry.pos()));
    }
    DismissalRule rule;
    for (const auto& [key, value] : entry.entries()) {
      if (key != "id" && key != "file" && key != "line" && key != "reason") {
        return tl::unexpected(
            problem("unknown key `" + key + "` in a dismissal" + at(entry.key_pos(key)), entry.key_pos(key)));
      }
    }
    auto id = required_text(entry, "id");
    if (!id) {
      return tl::unexpected(id.error());
    }
    rule.id = std::move(*id);
    auto reason = required_text(entry, "reason");
    if (!reason) {
      return tl::unexpected(reason.error());
    }
    rule.reason = std::move(*reason);
    if (const YamlNode* glob = entry.get("file")) {
      if (!glob->is_scalar() || glob->is_null() || glob->text().empty()) {
        return tl::unexpected(problem("`file` must be a non-empty glob" + at(glob->pos()), glob->pos()));
      }
      rule.file_glob = glob->text();
    }
    if (const YamlNode* line = entry.get("line")) {
      const std::string& digits = line->text();
      const bool ok = line->is_scalar() && line->scalar_type() == YamlNode::ScalarType::integer && !digits.empty() &&
                      digits.size() <= 9 &&
                      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!ok || std::stoul(digits) == 0) {
        return tl::unexpected(problem("`line` must be a positive integer" + at(line->pos()), line->pos()));
      }
      rule.line = std::stoul(digits);
    }
    file.rules.push_back(std::move(rule));
  }
  return file;
}

bool dismissal_applies_to_source(const DismissalFile& file, std::string_view source) {
  if (!file.source) {
    return true;
  }
  const std::string_view wanted = *file.source;
  return source == wanted ||
         (source.size() > wanted.size() && source.substr(0, wanted.size()) == wanted && source[wanted.size()] == '/');
}

void apply_dismissals(const std::vector<DismissalFile>& files, std::vector<GuardFinding>& findings,
                      std::vector<DismissedFinding>& dismissed) {
  std::vector<GuardFinding> kept;
  kept.reserve(findings.size());
  for (GuardFinding& finding : findings) {
    const DismissalFile* by = nullptr;
    const DismissalRule* rule_used = nullptr;
    bool refused = false;
    if (finding.pattern_id != "malformed_dismissals") {
      for (const DismissalFile& file : files) {
        for (const DismissalRule& rule : file.rules) {
          if (rule.id != finding.pattern_id || (rule.line != 0 && rule.line != finding.line) ||
              (rule.file_glob && !glob_match(*rule.file_glob, finding.file))) {
            continue;
          }
          if (!file.from_operator && finding.severity == ThreatSeverity::critical) {
            refused = true;
            continue;
          }
          by = &file;
          rule_used = &rule;
          break;
        }
        if (by != nullptr) {
          break;
        }
      }
    }
    if (by != nullptr) {
      dismissed.push_back(DismissedFinding{std::move(finding), rule_used->reason, by->origin});
      continue;
    }
    if (refused) {
      finding.description +=
          " [dismissal refused: a skill's own .skillrt-guard.yaml cannot dismiss a critical finding]";
    }
    kept.push_back(std::move(finding));
  }
  findings = std::move(kept);
}

} // namespace skillrt::core
