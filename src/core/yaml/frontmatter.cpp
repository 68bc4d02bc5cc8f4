#include "core/yaml/frontmatter.hpp"

#include <string>

#include "core/limits.hpp"
#include "core/util/line_endings.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::core {

namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

// The ASCII part of Python's `\s` (str patterns also match \x1c-\x1f).
bool is_py_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
         (c >= '\x1c' && c <= '\x1f');
}

std::string_view py_strip(std::string_view s) {
  while (!s.empty() && is_py_space(s.front())) {
    s.remove_prefix(1);
  }
  while (!s.empty() && is_py_space(s.back())) {
    s.remove_suffix(1);
  }
  return s;
}

std::string_view strip_chars(std::string_view s, std::string_view chars) {
  while (!s.empty() && chars.find(s.front()) != std::string_view::npos) {
    s.remove_prefix(1);
  }
  while (!s.empty() && chars.find(s.back()) != std::string_view::npos) {
    s.remove_suffix(1);
  }
  return s;
}

std::uint32_t to_u32(std::size_t value) {
  return value > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(value);
}

// Hermes' fallback when YAML fails: `key: value` per line, values as strings.
// `first_line` is the file line of yaml_text's first line.
YamlNode line_fallback(std::string_view yaml_text, std::uint32_t first_line) {
  std::vector<std::pair<std::string, YamlNode>> entries;
  std::vector<SourcePos> key_positions;
  std::uint32_t line_no = first_line;
  std::size_t start = 0;
  while (start <= yaml_text.size()) {
    std::size_t end = yaml_text.find('\n', start);
    if (end == std::string_view::npos) {
      end = yaml_text.size();
    }
    std::string_view line = yaml_text.substr(start, end - start);
    std::size_t colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string_view raw_key = line.substr(0, colon);
      std::string key(py_strip(raw_key));
      std::string_view value_raw = line.substr(colon + 1);
      std::string_view value = py_strip(value_raw);
      std::size_t key_col = 0;
      while (key_col < raw_key.size() && is_py_space(raw_key[key_col])) {
        ++key_col;
      }
      std::size_t value_col = static_cast<std::size_t>(value.data() - line.data());
      SourcePos key_pos{line_no, to_u32(key_col + 1)};
      SourcePos value_pos{line_no, to_u32(value_col + 1)};
      YamlNode node = YamlNode::make_scalar(std::string(value), false, value_pos);
      bool replaced = false;
      for (auto& entry : entries) {
        // Python's dict keeps the first key's slot and the last value.
        if (entry.first == key) {
          entry.second = std::move(node);
          replaced = true;
          break;
        }
      }
      if (!replaced) {
        entries.emplace_back(std::move(key), std::move(node));
        key_positions.push_back(key_pos);
      }
    }
    if (end == yaml_text.size()) {
      break;
    }
    start = end + 1;
    ++line_no;
  }
  YamlNode mapping = YamlNode::make_mapping(SourcePos{first_line, 1});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    mapping.add(std::move(entries[i].first), std::move(entries[i].second));
    mapping.set_key_pos(i, key_positions[i]);
  }
  return mapping;
}

}  // namespace

std::string_view strip_bom(std::string_view text) {
  if (text.starts_with(k_bom)) {
    text.remove_prefix(k_bom.size());
  }
  return text;
}

std::optional<FenceSpan> find_fences(std::string_view text) {
  if (!text.starts_with("---")) {
    return std::nullopt;
  }
  std::size_t from = 3;
  for (;;) {
    std::size_t match = text.find("\n---", from);
    if (match == std::string_view::npos) {
      return std::nullopt;
    }
    // Hermes searches for `\n---\s*\n`: the whitespace run may span blank lines,
    // and the body starts after the last newline of that run.
    std::size_t k = match + 4;
    std::size_t last_newline = std::string_view::npos;
    while (k < text.size() && is_py_space(text[k])) {
      if (text[k] == '\n') {
        last_newline = k;
      }
      ++k;
    }
    if (last_newline != std::string_view::npos) {
      return FenceSpan{3, match, last_newline + 1};
    }
    if (k == text.size()) {
      return FenceSpan{3, match, text.size()};
    }
    from = match + 1;
  }
}

Frontmatter parse_frontmatter(std::string_view text) {
  Frontmatter fm;
  std::string_view content = strip_bom(text);
  std::size_t bom_len = text.size() - content.size();
  fm.body_offset = bom_len;
  std::optional<FenceSpan> span = find_fences(content);
  if (!span) {
    return fm;
  }
  fm.fenced = true;
  fm.body_offset = bom_len + span->body_begin;
  // The YAML text starts right after the opening `---`, so its line 1 is the
  // rest of the fence line and its line numbers equal the file's.
  fm.yaml_first_line = 2;
  std::string_view yaml_raw = content.substr(span->yaml_begin, span->yaml_end - span->yaml_begin);

  if (yaml_raw.size() > limits::k_max_frontmatter_bytes) {
    fm.yaml_error = Error{ErrorCode::limit_exceeded,
                          "frontmatter is " + std::to_string(yaml_raw.size()) + " bytes; the limit is " +
                              std::to_string(limits::k_max_frontmatter_bytes),
                          SourcePos{fm.yaml_first_line, 1}};
    std::string capped = sanitize_utf8(normalise_crlf(yaml_raw.substr(0, limits::k_max_frontmatter_bytes)));
    fm.fields = line_fallback(capped, 1);
    return fm;
  }

  // Hermes decodes files with errors="replace" before parsing, so undecodable
  // bytes become U+FFFD rather than failing the whole frontmatter.
  std::string yaml_text = sanitize_utf8(normalise_crlf(yaml_raw));
  Result<YamlNode> parsed = parse_yaml(yaml_text, limits::k_max_frontmatter_bytes);
  if (parsed) {
    if (parsed->is_mapping()) {
      fm.fields = std::move(*parsed);
    }
    return fm;
  }
  Error error = std::move(parsed.error());
  if (error.pos.line == 1 && error.pos.column != 0) {
    error.pos.column += 3;  // line 1 of the YAML text starts after the `---`
  }
  fm.yaml_error = std::move(error);
  fm.fields = line_fallback(yaml_text, 1);
  return fm;
}

std::vector<std::string> parse_tag_list(const YamlNode* node) {
  std::vector<std::string> tags;
  if (node == nullptr || !node->truthy()) {
    return tags;
  }
  if (node->is_sequence()) {
    for (const YamlNode& item : node->items()) {
      if (item.truthy()) {
        tags.emplace_back(py_strip(item.to_string()));
      }
    }
    return tags;
  }
  if (node->is_mapping()) {
    return tags;
  }
  std::string text = node->to_string();
  std::string_view s = py_strip(text);
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']') {
    s = s.substr(1, s.size() - 2);
  }
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) {
      comma = s.size();
    }
    std::string_view item = strip_chars(py_strip(s.substr(start, comma - start)), "\"'");
    if (!item.empty()) {
      tags.emplace_back(item);
    }
    start = comma + 1;
  }
  return tags;
}

}  // namespace skillrt::core
