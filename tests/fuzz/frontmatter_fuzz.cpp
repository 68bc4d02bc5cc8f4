// Fuzzes the whole SKILL.md → frontmatter path plus the strict YAML adapter,
// its emitter (round trip) and the config list-literal reader. Any crash,
// sanitizer report or broken invariant (abort) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/config/config.hpp"
#include "core/limits.hpp"
#include "core/config/list_literal.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/yaml/yaml_emit.hpp"
#include "core/yaml/yaml_node.hpp"
#include "protocol/yaml_json.hpp"

namespace {

using skillrt::core::YamlNode;

void check(bool condition) {
  if (!condition) {
    std::abort();
  }
}

// Touches every node the way callers do (typing, truthiness, str()).
void walk(const YamlNode& node, std::size_t depth) {
  check(depth <= skillrt::limits::k_max_yaml_depth + 1);
  (void)node.truthy();
  (void)node.scalar_type();
  for (const YamlNode& item : node.items()) {
    walk(item, depth + 1);
  }
  for (const auto& entry : node.entries()) {
    walk(entry.second, depth + 1);
  }
}

// parse(emit(tree)) must give back the same kinds, texts and scalar types.
bool same(const YamlNode& a, const YamlNode& b) {
  if (a.is_null() || b.is_null()) {
    return a.is_null() && b.is_null();  // an empty document and `null` are the same value
  }
  if (a.kind() != b.kind()) {
    return false;
  }
  if (a.is_scalar()) {
    return a.text() == b.text() && a.scalar_type() == b.scalar_type();
  }
  if (a.items().size() != b.items().size() || a.entries().size() != b.entries().size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.items().size(); ++i) {
    if (!same(a.items()[i], b.items()[i])) {
      return false;
    }
  }
  for (std::size_t i = 0; i < a.entries().size(); ++i) {
    if (a.entries()[i].first != b.entries()[i].first || !same(a.entries()[i].second, b.entries()[i].second)) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);

  skillrt::core::Frontmatter fm = skillrt::core::parse_frontmatter(text);
  check(fm.body_offset <= size);
  check(fm.fields.is_mapping());
  walk(fm.fields, 0);
  (void)fm.fields.to_string();
  (void)skillrt::core::parse_tag_list(fm.fields.get("tags"));
  (void)skillrt::protocol::yaml_to_json(fm.fields).dump();

  auto doc = skillrt::core::parse_yaml(text, 1 << 20);
  if (doc) {
    walk(*doc, 0);
    std::string emitted = skillrt::core::emit_yaml(*doc);
    check(!emitted.empty());
    auto again = skillrt::core::parse_yaml(emitted, 1 << 22);
    check(again.has_value());
    check(same(*doc, *again));
    (void)skillrt::protocol::yaml_to_json(*doc).dump();
    (void)skillrt::core::parse_config_string_list(&*doc);
  } else {
    check(doc.error().pos.line >= 1 || doc.error().code == skillrt::ErrorCode::internal);
  }

  (void)skillrt::core::parse_list_literal(text);
  return 0;
}
