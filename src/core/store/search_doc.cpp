// make_search_doc: one way to turn a SKILL.md into a search document, whatever
// layer the skill lives in, so the same text ranks the same everywhere.
#include <utility>

#include "core/store/skill_store.hpp"
#include "core/yaml/frontmatter.hpp"

namespace skillrt::core {
namespace {

std::string join_spaced(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (item.empty()) {
      continue;
    }
    if (!out.empty()) {
      out += ' ';
    }
    out += item;
  }
  return out;
}

void append_spaced(std::string& out, const std::string& more) {
  if (more.empty()) {
    return;
  }
  if (!out.empty()) {
    out += ' ';
  }
  out += more;
}

} // namespace

SearchDoc make_search_doc(std::string key, std::string owner, Layer source, std::string_view name,
                          std::string_view description, std::string_view skill_md_text) {
  SearchDoc doc;
  doc.key = std::move(key);
  doc.owner = std::move(owner);
  doc.source = source;
  doc.name = std::string(name);
  doc.description = std::string(description);

  // parse_frontmatter never fails: text without a fence is all body, and
  // broken YAML falls back to the line reader.
  const Frontmatter fm = parse_frontmatter(skill_md_text);
  // body_offset counts from the text as given (a leading BOM included); with
  // no fence it is just past the BOM, so the whole text is body.
  if (fm.body_offset <= skill_md_text.size()) {
    doc.body = std::string(skill_md_text.substr(fm.body_offset));
  }

  doc.tags = join_spaced(parse_tag_list(fm.fields.get("tags")));
  if (const YamlNode* metadata = fm.fields.get("metadata"); metadata != nullptr && metadata->is_mapping()) {
    if (const YamlNode* hermes = metadata->get("hermes"); hermes != nullptr && hermes->is_mapping()) {
      append_spaced(doc.tags, join_spaced(parse_tag_list(hermes->get("tags"))));
    }
  }
  doc.triggers = join_spaced(parse_tag_list(fm.fields.get("triggers")));
  return doc;
}

} // namespace skillrt::core
