#include "protocol/catalog_json.hpp"
#include "protocol/provenance_json.hpp"

#include <cstdint>
#include <cstring>
#include <set>
#include <string_view>
#include <vector>

#include "core/util/utf8.hpp"
#include "protocol/json_text.hpp"

namespace skillrt::protocol {

namespace {

constexpr const char* k_empty_message = "No skills found in skills/ directory.";
constexpr const char* k_list_hint = "Use skill_view(name) to see full content, tags, and linked files";

// JSON strings must be UTF-8; paths from the filesystem need not be.
std::string text(std::string_view value) { return json_text(value); }

Json optional_string(const std::optional<std::string_view>& value) {
  if (value) {
    return text(*value);
  }
  return nullptr;
}

}  // namespace

Json list_json(const core::Catalog& catalog, const std::optional<std::string>& category) {
  Json out = Json::object();
  out["success"] = true;
  if (catalog.listed.empty()) {
    out["skills"] = Json::array();
    out["categories"] = Json::array();
    out["message"] = k_empty_message;
    return out;
  }
  const std::vector<const core::SkillRecord*> listing = catalog.sorted_listing(category);
  Json skills = Json::array();
  std::set<std::string> categories;
  for (const core::SkillRecord* record : listing) {
    Json entry = Json::object();
    entry["name"] = text(record->name);
    entry["description"] = text(catalog.description(*record));
    entry["category"] = optional_string(record->category);
    entry["path"] = text(record->skill_md.string());
    entry["source"] = core::source_name(catalog.roots, record->tier);
    skills.push_back(std::move(entry));
    if (record->category) {
      categories.insert(text(*record->category));
    }
  }
  out["skills"] = std::move(skills);
  out["categories"] = Json(std::vector<std::string>(categories.begin(), categories.end()));
  out["count"] = listing.size();
  out["hint"] = k_list_hint;
  return out;
}

namespace {

// True when no byte has its high bit set (then the text is valid UTF-8);
// most descriptions are ASCII, and this checks eight bytes at a time.
bool is_ascii(std::string_view text) {
  std::size_t i = 0;
  std::uint64_t high = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, 8);
    high |= word;
  }
  for (; i < text.size(); ++i) {
    high |= static_cast<unsigned char>(text[i]);
  }
  return (high & 0x8080808080808080ULL) == 0;
}

// Streams one JSON document in nlohmann's dump() layout, buffered so the
// ostream sees a few large writes.
class ListWriter {
 public:
  ListWriter(std::ostream& out, int indent) : m_out(out), m_indent(indent) { m_buffer.reserve(k_flush_at + 4096); }
  ~ListWriter() { flush(); }
  ListWriter(const ListWriter&) = delete;
  ListWriter& operator=(const ListWriter&) = delete;

  void newline(int level) {
    if (m_indent >= 0) {
      m_buffer.push_back('\n');
      m_buffer.append(static_cast<std::size_t>(level * m_indent), ' ');
    }
  }
  void key(const char* name) {
    m_buffer.push_back('"');
    m_buffer.append(name);
    m_buffer.append(m_indent >= 0 ? "\": " : "\":");
  }
  void string(std::string_view value) {
    if (!is_ascii(value) && core::find_invalid_utf8(value)) {
      append_json_string(m_buffer, core::sanitize_utf8(value));
    } else {
      append_json_string(m_buffer, value);
    }
    maybe_flush();
  }
  // A path in two pieces, as one JSON string. The pieces meet at a '/', so
  // each is valid UTF-8 exactly when the whole is.
  void path(const core::PathString& value) {
    const std::string_view head = value.head();
    const std::string_view tail = value.tail();
    if ((!is_ascii(head) && core::find_invalid_utf8(head)) || (!is_ascii(tail) && core::find_invalid_utf8(tail))) {
      append_json_string(m_buffer, core::sanitize_utf8(value.string()));
    } else {
      m_buffer.push_back('"');
      append_json_chars(m_buffer, head);
      append_json_chars(m_buffer, tail);
      m_buffer.push_back('"');
    }
    maybe_flush();
  }
  void raw(std::string_view text) { m_buffer.append(text); }
  void flush() {
    m_out.write(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_buffer.clear();
  }

 private:
  static constexpr std::size_t k_flush_at = 64 * 1024;
  void maybe_flush() {
    if (m_buffer.size() >= k_flush_at) {
      flush();
    }
  }

  std::ostream& m_out;
  int m_indent;
  std::string m_buffer;
};

}  // namespace

void write_list_json(std::ostream& out, const core::Catalog& catalog, const std::optional<std::string>& category,
                     int indent, const core::ProvenanceIndex* provenance) {
  if (catalog.listed.empty()) {
    out << list_json(catalog, category).dump(indent, ' ', false, Json::error_handler_t::replace);
    return;
  }
  const std::vector<const core::SkillRecord*> listing = catalog.sorted_listing(category);
  ListWriter w(out, indent);
  w.raw("{");
  w.newline(1);
  w.key("success");
  w.raw("true,");
  w.newline(1);
  w.key("skills");
  if (listing.empty()) {
    w.raw("[]");
  } else {
    w.raw("[");
    for (std::size_t i = 0; i < listing.size(); ++i) {
      const core::SkillRecord& record = *listing[i];
      w.newline(2);
      w.raw("{");
      w.newline(3);
      w.key("name");
      w.string(record.name);
      w.raw(",");
      w.newline(3);
      w.key("description");
      catalog.visit_description(record, [&w](std::string_view description) { w.string(description); });
      w.raw(",");
      w.newline(3);
      w.key("category");
      if (record.category) {
        w.string(*record.category);
      } else {
        w.raw("null");
      }
      w.raw(",");
      w.newline(3);
      w.key("path");
      w.path(record.skill_md);
      w.raw(",");
      w.newline(3);
      w.key("source");
      w.string(core::source_name(catalog.roots, record.tier));
      if (provenance != nullptr) {
        w.raw(",");
        w.newline(3);
        w.key("provenance");
        w.raw(provenance_json(provenance->of(catalog, record)).dump(-1, ' ', false, Json::error_handler_t::replace));
      }
      w.newline(2);
      w.raw(i + 1 < listing.size() ? "}," : "}");
    }
    w.newline(1);
    w.raw("]");
  }
  std::set<std::string> categories;
  for (const core::SkillRecord* record : listing) {
    if (record->category) {
      categories.insert(text(*record->category));
    }
  }
  w.raw(",");
  w.newline(1);
  w.key("categories");
  if (categories.empty()) {
    w.raw("[]");
  } else {
    w.raw("[");
    std::size_t i = 0;
    for (const auto& name : categories) {
      w.newline(2);
      w.string(name);
      if (++i < categories.size()) {
        w.raw(",");
      }
    }
    w.newline(1);
    w.raw("]");
  }
  w.raw(",");
  w.newline(1);
  w.key("count");
  w.raw(std::to_string(listing.size()));
  w.raw(",");
  w.newline(1);
  w.key("hint");
  w.string(k_list_hint);
  w.newline(0);
  w.raw("}");
}

Json doctor_json(const core::Catalog& catalog, const core::Config& config) {
  Json out = Json::object();
  out["success"] = true;

  Json roots = Json::array();
  for (std::size_t i = 0; i < catalog.roots.roots.size(); ++i) {
    const core::Root& root = catalog.roots.roots[i];
    Json entry = Json::object();
    entry["path"] = text(root.path.string());
    entry["tier"] = core::tier_name(root.tier);
    entry["skills"] = i < catalog.skills_per_root.size() ? catalog.skills_per_root[i] : 0;
    entry["dirs"] = i < catalog.dirs_per_root.size() ? catalog.dirs_per_root[i] : 0;
    roots.push_back(std::move(entry));
  }
  out["roots"] = std::move(roots);

  // One entry per winning skill, its losers in discovery order.
  std::vector<std::size_t> winner_order;
  std::vector<std::vector<std::size_t>> losers(catalog.records.size());
  for (std::size_t i = 0; i < catalog.records.size(); ++i) {
    const core::SkillRecord& record = catalog.records[i];
    if (record.hidden != core::Hidden::shadowed || record.shadowed_by >= catalog.records.size()) {
      continue;
    }
    if (losers[record.shadowed_by].empty()) {
      winner_order.push_back(record.shadowed_by);
    }
    losers[record.shadowed_by].push_back(i);
  }
  Json shadowed = Json::array();
  for (std::size_t winner : winner_order) {
    Json entry = Json::object();
    entry["name"] = text(catalog.records[winner].name);
    entry["winner"] = text(catalog.records[winner].skill_md.string());
    Json paths = Json::array();
    for (std::size_t loser : losers[winner]) {
      paths.push_back(text(catalog.records[loser].skill_md.string()));
    }
    entry["losers"] = std::move(paths);
    shadowed.push_back(std::move(entry));
  }
  out["shadowed"] = std::move(shadowed);

  Json skipped = Json::array();
  for (const core::SkippedPath& skip : catalog.skipped) {
    skipped.push_back(Json{{"path", text(skip.path.string())}, {"reason", core::skip_reason_name(skip.reason)},
                           {"detail", text(skip.detail)}});
  }
  out["skipped"] = std::move(skipped);

  Json hidden = Json::array();
  for (const core::SkillRecord& record : catalog.records) {
    if (record.hidden == core::Hidden::none || record.hidden == core::Hidden::shadowed) {
      continue;
    }
    hidden.push_back(Json{{"name", text(record.name)}, {"path", text(record.skill_md.string())},
                          {"reason", core::hidden_name(record.hidden)}});
  }
  out["hidden"] = std::move(hidden);

  if (!catalog.roots.user_root_error.empty()) {
    // Only with --user: why the user's own root is missing (e.g. a planted symlink).
    out["user_root_error"] = text(catalog.roots.user_root_error);
  }
  if (catalog.roots.untrusted_project) {
    out["untrusted_project"] = Json{{"root", text(catalog.roots.untrusted_project->root.string())},
                                    {"skills", catalog.roots.untrusted_project->skill_count}};
  } else {
    out["untrusted_project"] = nullptr;
  }

  Json dropped = Json::array();
  for (const auto& [entry, reason] : catalog.roots.dropped_external) {
    dropped.push_back(Json{{"entry", text(entry)}, {"reason", text(reason)}});
  }
  out["dropped_external_dirs"] = std::move(dropped);

  // Plugin folders left out, and why (a broken manifest, a clashing namespace...).
  Json plugin_problems = Json::array();
  for (const core::PluginProblem& problem : catalog.roots.plugins.problems) {
    plugin_problems.push_back(Json{{"path", text(problem.path.string())}, {"message", text(problem.message)}});
  }
  out["plugin_problems"] = std::move(plugin_problems);

  Json problems = Json::array();
  for (const Error& problem : config.problems) {
    Json item = Json{{"path", text(config.path.string())}, {"message", text(problem.message)}};
    if (problem.pos.line != 0) {
      item["line"] = problem.pos.line;
      item["column"] = problem.pos.column;
    }
    problems.push_back(std::move(item));
  }
  out["config_problems"] = std::move(problems);
  return out;
}

}  // namespace skillrt::protocol
