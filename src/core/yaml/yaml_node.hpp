// A small, owned YAML node tree with source positions.
//
// libyaml hands back untyped scalars; we keep them as text plus their style and
// apply the YAML 1.2 core schema on demand (only `true`/`false` are booleans, so
// `yes`, `on`, `014` stay strings / decimal as written).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "skillrt/result.hpp"

namespace skillrt::core {

class YamlNode {
 public:
  enum class Kind : unsigned char { null, scalar, sequence, mapping };
  // Core-schema type of a scalar.
  enum class ScalarType : unsigned char { null, boolean, integer, floating, string };

  YamlNode() = default;
  static YamlNode make_scalar(std::string text, bool plain, SourcePos pos);
  static YamlNode make_sequence(SourcePos pos);
  static YamlNode make_mapping(SourcePos pos);

  Kind kind() const { return m_kind; }
  bool is_null() const;  // explicit null: missing value, `~`, `null`
  bool is_scalar() const { return m_kind == Kind::scalar; }
  bool is_sequence() const { return m_kind == Kind::sequence; }
  bool is_mapping() const { return m_kind == Kind::mapping; }
  SourcePos pos() const { return m_pos; }

  // Scalars.
  const std::string& text() const { return m_text; }
  bool plain() const { return m_plain; }
  ScalarType scalar_type() const;
  std::optional<bool> as_bool() const;
  // "Truthy" in Python's sense, which Hermes' `if fm.get(x)` relies on: null,
  // false, 0, "" and empty collections are falsy.
  bool truthy() const;
  // The value rendered as Python's str() would (Hermes stringifies typed values).
  // Mappings and sequences render in flow style.
  std::string to_string() const;

  // Sequences.
  const std::vector<YamlNode>& items() const { return m_items; }
  void push(YamlNode node) { m_items.push_back(std::move(node)); }

  // Mappings keep document order; keys are scalars.
  const std::vector<std::pair<std::string, YamlNode>>& entries() const { return m_entries; }
  void add(std::string key, YamlNode value) { m_entries.emplace_back(std::move(key), std::move(value)); }
  const YamlNode* get(std::string_view key) const;  // nullptr when absent or not a mapping
  // Position of a key in a mapping (for diagnostics); {} when absent.
  SourcePos key_pos(std::string_view key) const;
  void set_key_pos(std::size_t index, SourcePos pos);

 private:
  Kind m_kind = Kind::null;
  bool m_plain = true;
  SourcePos m_pos{};
  std::string m_text;
  std::vector<YamlNode> m_items;
  std::vector<std::pair<std::string, YamlNode>> m_entries;
  std::vector<SourcePos> m_key_pos;
};

// Parses one YAML document strictly: valid UTF-8 only, no anchors, aliases, tags,
// directives or second documents, no duplicate keys, no complex keys, depth and
// node-count limits. Errors carry the 1-based position of the problem,
// relative to the start of `text`.
Result<YamlNode> parse_yaml(std::string_view text, std::size_t max_bytes);

// Relaxations of parse_yaml's strictness for files Hermes reads with PyYAML
// leniency (config.yaml), where refusing the whole file would be worse.
struct YamlParseOptions {
  // A repeated key replaces the earlier value, keeping the first key's slot.
  bool allow_duplicate_keys = false;
};

// parse_yaml with relaxations; the other checks and limits still apply.
Result<YamlNode> parse_yaml(std::string_view text, std::size_t max_bytes, const YamlParseOptions& options);

}  // namespace skillrt::core
