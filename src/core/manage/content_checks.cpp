#include "core/manage/content_checks.hpp"

#include <algorithm>

#include "core/limits.hpp"
#include "core/validate/name_rules.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"
#include "core/yaml/yaml_node.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

tl::unexpected<Error> invalid(std::string message) {
  return fail(ErrorCode::invalid_argument, std::move(message));
}

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; });
}

// Hermes tolerates any number of leading BOMs before the fence.
std::string_view strip_boms(std::string_view text) {
  while (text.substr(0, k_bom.size()) == k_bom) {
    text.remove_prefix(k_bom.size());
  }
  return text;
}

// A category follows Hermes' name rule (the skill name's own check is
// validate/skill_name.hpp, SkillNameRule::create, with the same wording).
Result<void> check_category_name(std::string_view name) {
  if (name.size() > limits::k_max_name_length) {
    return invalid("Category exceeds " + std::to_string(limits::k_max_name_length) + " characters.");
  }
  if (!is_hermes_name(name)) {
    return invalid("Invalid category '" + sanitize_utf8(name) +
                   "'. Use lowercase letters, numbers, hyphens, dots, and underscores. Must start with a letter or digit.");
  }
  return {};
}

struct ParsedSkill {
  std::optional<YamlNode> fields;
  std::string_view body;
  std::optional<std::string> error;
};

ParsedSkill parse_skill(std::string_view raw) {
  ParsedSkill out;
  if (is_blank(raw)) {
    out.error = "Content cannot be empty.";
    return out;
  }
  const std::string_view content = strip_boms(raw);
  if (content.substr(0, 3) != "---") {
    out.error = "SKILL.md must start with YAML frontmatter (---). See existing skills for the format.";
    return out;
  }
  const std::optional<FenceSpan> fences = find_fences(content);
  if (!fences) {
    out.error = "SKILL.md frontmatter is not closed. Ensure you have a closing '---' line.";
    return out;
  }
  const std::string_view yaml = content.substr(fences->yaml_begin, fences->yaml_end - fences->yaml_begin);
  auto parsed = parse_yaml(yaml, limits::k_max_frontmatter_bytes);
  if (!parsed) {
    out.error = "YAML frontmatter parse error: " + parsed.error().message;
    return out;
  }
  if (!parsed->is_mapping()) {
    out.error = "Frontmatter must be a YAML mapping (key: value pairs).";
    return out;
  }
  out.fields = std::move(*parsed);
  out.body = content.substr(std::min(fences->body_begin, content.size()));
  return out;
}

} // namespace

Result<void> check_category(const std::optional<std::string>& category) {
  if (!category || is_blank(*category)) {
    return {};
  }
  const std::string& value = *category;
  if (value.find('/') != std::string::npos || value.find('\\') != std::string::npos) {
    return invalid("Invalid category '" + sanitize_utf8(value) +
                   "'. Use one directory name (lowercase letters, numbers, hyphens, dots, underscores), not a path.");
  }
  if (value.size() > limits::k_max_category_length) {
    return invalid("Category exceeds " + std::to_string(limits::k_max_category_length) + " characters.");
  }
  return check_category_name(value);
}

Result<void> check_skill_frontmatter(std::string_view content) {
  ParsedSkill parsed = parse_skill(content);
  if (parsed.error) {
    return invalid(std::move(*parsed.error));
  }
  const YamlNode& fields = *parsed.fields;
  if (fields.get("name") == nullptr) {
    return invalid("Frontmatter must include 'name' field.");
  }
  const YamlNode* description = fields.get("description");
  if (description == nullptr) {
    return invalid("Frontmatter must include 'description' field.");
  }
  if (count_chars(description->to_string()) > limits::k_max_description_length) {
    return invalid("Description exceeds " + std::to_string(limits::k_max_description_length) + " characters.");
  }
  if (is_blank(parsed.body)) {
    return invalid("SKILL.md must have content after the frontmatter (instructions, procedures, etc.).");
  }
  return {};
}

std::string frontmatter_name_of(std::string_view content) {
  ParsedSkill parsed = parse_skill(content);
  if (!parsed.fields) {
    return "";
  }
  const YamlNode* name = parsed.fields->get("name");
  return name == nullptr || name->is_null() ? std::string() : name->to_string();
}

std::string frontmatter_description_of(std::string_view content) {
  ParsedSkill parsed = parse_skill(content);
  if (!parsed.fields) {
    return "";
  }
  const YamlNode* description = parsed.fields->get("description");
  return description == nullptr || description->is_null() ? std::string() : description->to_string();
}

std::size_t count_chars(std::string_view text) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t width = 1;
    if (lead >= 0xF0 && lead <= 0xF4) {
      width = 4;
    } else if (lead >= 0xE0) {
      width = 3;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      width = 2;
    }
    // A truncated or malformed sequence counts its lead byte alone.
    bool complete = i + width <= text.size();
    for (std::size_t k = 1; complete && k < width; ++k) {
      complete = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    }
    i += complete ? width : 1;
    ++chars;
  }
  return chars;
}

std::string with_thousands(std::size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) {
      out.push_back(',');
    }
    out.push_back(digits[i]);
  }
  return out;
}

Result<void> check_content_chars(std::string_view content, std::string_view label) {
  // Fast path: fewer bytes than the limit means fewer characters too.
  if (content.size() <= limits::k_max_skill_content_chars) {
    return {};
  }
  const std::size_t chars = count_chars(content);
  if (chars <= limits::k_max_skill_content_chars) {
    return {};
  }
  return fail(ErrorCode::limit_exceeded,
              std::string(label) + " content is " + with_thousands(chars) + " characters (limit: " +
                  with_thousands(limits::k_max_skill_content_chars) +
                  "). Consider splitting into a smaller SKILL.md with supporting files in references/.");
}

Result<void> check_file_content(std::string_view content, std::string_view label) {
  SKILLRT_TRY(check_content_chars(content, label));
  if (content.size() > limits::k_max_skill_file_bytes_written) {
    return fail(ErrorCode::limit_exceeded, "File content is " + with_thousands(content.size()) + " bytes (limit: " +
                                               with_thousands(limits::k_max_skill_file_bytes_written) +
                                               " bytes / 1 MiB). Consider splitting it.");
  }
  return {};
}

std::string preview_chars(std::string_view text, std::size_t max_chars, std::string_view ellipsis) {
  std::size_t chars = 0;
  std::size_t i = 0;
  while (i < text.size() && chars < max_chars) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t width = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    i += std::min(width, text.size() - i);
    ++chars;
  }
  if (i >= text.size()) {
    return sanitize_utf8(text);
  }
  return sanitize_utf8(text.substr(0, i)) + std::string(ellipsis);
}

} // namespace skillrt::core
