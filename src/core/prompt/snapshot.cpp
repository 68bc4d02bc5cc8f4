#include "core/prompt/snapshot.hpp"

#include <chrono>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/util/strict_json.hpp"

namespace skillrt::core {
namespace {

// The snapshot is JSON (its name says so), one line per skill:
// {"version":3,"manifest":{"<path>":[mtime_ns,size,ctime_ns,inode,device],...},
//  "conditions":{"<path>":{"requires_tools":["x"],...},...}}
// `conditions` holds only skills that declare any. Written line by line to
// keep that layout, strings through json_quoted; read with nlohmann's SAX
// parser (SnapshotReader below).
constexpr std::size_t k_max_snapshot_bytes = 256 * 1024 * 1024;
constexpr std::string_view k_condition_keys[] = {"requires_tools", "requires_toolsets", "fallback_for_tools",
                                                 "fallback_for_toolsets"};

std::vector<std::string>& condition_list(SkillConditions& conditions, std::size_t index) {
  switch (index) {
  case 0:
    return conditions.requires_tools;
  case 1:
    return conditions.requires_toolsets;
  case 2:
    return conditions.fallback_for_tools;
  default:
    return conditions.fallback_for_toolsets;
  }
}

// Reads the snapshot as nlohmann's SAX events straight into entries, with
// no document tree and no second pass: the prompt reads this file on every
// call and it holds one line per skill (about 1.2 MB at 10k skills), so a
// tree or check_strict_json's per-object name sets would cost the prompt
// several times what the read itself does. What the strict check would
// refuse is refused here by shape: any value, key or nesting the layout
// above does not have, a path listed twice, a version other than ours first.
class SnapshotReader {
public:
  explicit SnapshotReader(SnapshotEntries& entries) : m_entries(entries) {}

  bool complete() const { return m_state == State::done && m_have_manifest; }

  bool null() { return false; }
  bool boolean(bool /*value*/) { return false; }
  bool number_float(double /*value*/, const std::string& /*literal*/) { return false; }
  bool binary(nlohmann::json::binary_t& /*value*/) { return false; }
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const nlohmann::json::exception& /*e*/) {
    return false;
  }

  bool number_unsigned(std::uint64_t value) {
    return value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) &&
           number_integer(static_cast<std::int64_t>(value));
  }
  bool number_integer(std::int64_t value) {
    if (m_state == State::version) {
      m_state = State::document;
      return value == k_prompt_snapshot_version;
    }
    if (m_state == State::stamp && m_field < std::size(m_fields)) {
      m_fields[m_field++] = value;
      return true;
    }
    return false;
  }
  bool string(std::string& value) {
    if (m_state != State::list) {
      return false;
    }
    m_list->push_back(std::move(value));
    return true;
  }

  bool start_object(std::size_t /*elements*/) {
    return advance({{State::start, State::document},
                    {State::manifest_open, State::manifest},
                    {State::conditions_open, State::conditions},
                    {State::skill_open, State::skill}});
  }
  bool end_object() {
    return advance({{State::document, State::done},
                    {State::manifest, State::document},
                    {State::conditions, State::document},
                    {State::skill, State::conditions}});
  }
  bool start_array(std::size_t /*elements*/) {
    m_field = 0;
    return advance({{State::stamp_open, State::stamp}, {State::list_open, State::list}});
  }
  bool end_array() {
    if (m_state == State::stamp) {
      if (m_field != std::size(m_fields)) {
        return false;
      }
      FileStamp& stamp = m_entries.back().second.stamp;
      stamp.mtime_ns = m_fields[0];
      stamp.size = m_fields[1];
      stamp.ctime_ns = m_fields[2];
      stamp.inode = static_cast<std::uint64_t>(m_fields[3]);
      stamp.device = static_cast<std::uint64_t>(m_fields[4]);
    }
    return advance({{State::stamp, State::manifest}, {State::list, State::skill}});
  }

  bool key(std::string& name) {
    switch (m_state) {
    case State::document:
      return document_key(name);
    case State::manifest:
      if (!m_index.emplace(name, m_entries.size()).second) {
        return false; // a path listed twice
      }
      m_entries.emplace_back(std::move(name), SnapshotEntry{});
      m_state = State::stamp_open;
      return true;
    case State::conditions: {
      const auto found = m_index.find(name);
      if (found == m_index.end() || m_has_conditions[found->second]) {
        return false; // conditions of a path the manifest lacks, or twice
      }
      m_has_conditions[found->second] = true;
      m_conditions = &m_entries[found->second].second.conditions;
      m_keys_seen = 0;
      m_state = State::skill_open;
      return true;
    }
    case State::skill:
      for (std::size_t i = 0; i < std::size(k_condition_keys); ++i) {
        if (name == k_condition_keys[i] && (m_keys_seen & (1U << i)) == 0) {
          m_keys_seen |= 1U << i;
          m_list = &condition_list(*m_conditions, i);
          m_state = State::list_open;
          return true;
        }
      }
      return false;
    default:
      return false;
    }
  }

private:
  enum class State : unsigned char {
    start, document, version, manifest_open, manifest, stamp_open, stamp, conditions_open, conditions, skill_open,
    skill, list_open, list, done
  };
  struct Step {
    State from;
    State to;
  };

  bool advance(std::initializer_list<Step> steps) {
    for (const Step& step : steps) {
      if (m_state == step.from) {
        m_state = step.to;
        return true;
      }
    }
    return false;
  }

  // "version" first, then "manifest", then optionally "conditions", once each.
  bool document_key(const std::string& name) {
    if (name == "version" && !m_have_version) {
      m_have_version = true;
      m_state = State::version;
    } else if (name == "manifest" && m_have_version && !m_have_manifest) {
      m_have_manifest = true;
      m_state = State::manifest_open;
    } else if (name == "conditions" && m_have_manifest && !m_have_conditions) {
      m_have_conditions = true;
      m_has_conditions.assign(m_entries.size(), false);
      m_state = State::conditions_open;
    } else {
      return false;
    }
    return true;
  }

  SnapshotEntries& m_entries;
  std::unordered_map<std::string, std::size_t> m_index; // path → position in m_entries
  std::vector<bool> m_has_conditions;                   // per entry: its conditions were read
  State m_state = State::start;
  bool m_have_version = false;
  bool m_have_manifest = false;
  bool m_have_conditions = false;
  std::int64_t m_fields[5] = {}; // the stamp being read
  std::size_t m_field = 0;
  SkillConditions* m_conditions = nullptr;   // the skill whose conditions are being read
  unsigned m_keys_seen = 0;                  // its condition keys read so far
  std::vector<std::string>* m_list = nullptr; // the condition list being read
};

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace

std::string encode_prompt_snapshot(const SnapshotEntries& entries) {
  std::string out = "{\"version\":" + std::to_string(k_prompt_snapshot_version) + ",\n\"manifest\":{";
  bool first = true;
  for (const auto& [path, entry] : entries) {
    out += first ? "\n" : ",\n";
    first = false;
    out += json_quoted(path);
    const FileStamp& s = entry.stamp;
    out += ":[" + std::to_string(s.mtime_ns) + "," + std::to_string(s.size) + "," + std::to_string(s.ctime_ns) + "," +
           std::to_string(static_cast<std::int64_t>(s.inode)) + "," +
           std::to_string(static_cast<std::int64_t>(s.device)) + "]";
  }
  out += "},\n\"conditions\":{";
  first = true;
  for (const auto& [path, entry] : entries) {
    if (entry.conditions.empty()) {
      continue;
    }
    out += first ? "\n" : ",\n";
    first = false;
    out += json_quoted(path);
    out += ":{";
    bool first_key = true;
    SkillConditions conditions = entry.conditions;
    for (std::size_t i = 0; i < std::size(k_condition_keys); ++i) {
      const std::vector<std::string>& list = condition_list(conditions, i);
      if (list.empty()) {
        continue;
      }
      out += first_key ? "" : ",";
      first_key = false;
      out += json_quoted(k_condition_keys[i]);
      out += ":[";
      for (std::size_t j = 0; j < list.size(); ++j) {
        out += j > 0 ? "," : "";
        out += json_quoted(list[j]);
      }
      out += "]";
    }
    out += "}";
  }
  out += "}}\n";
  return out;
}

std::optional<SnapshotEntries> decode_prompt_snapshot(std::string_view text) {
  SnapshotEntries entries;
  SnapshotReader reader(entries);
  if (!nlohmann::json::sax_parse(text, &reader) || !reader.complete()) {
    return std::nullopt;
  }
  return entries;
}

PromptSnapshot PromptSnapshot::load(const std::filesystem::path& file, std::int64_t racy_window_ns) {
  PromptSnapshot snapshot;
  snapshot.m_racy_window_ns = racy_window_ns;
  auto bytes = read_regular_file(file, k_max_snapshot_bytes);
  if (!bytes) {
    return snapshot;
  }
  std::optional<SnapshotEntries> entries = decode_prompt_snapshot(*bytes);
  if (!entries) {
    return snapshot;
  }
  snapshot.m_old.reserve(entries->size());
  for (auto& [path, entry] : *entries) {
    snapshot.m_old.emplace(std::move(path), std::move(entry));
  }
  return snapshot;
}

const SkillConditions* PromptSnapshot::find(const std::string& path, const FileStamp& stamp) const {
  auto found = m_old.find(path);
  return found != m_old.end() && found->second.stamp == stamp ? &found->second.conditions : nullptr;
}

void PromptSnapshot::keep(std::string path, const FileStamp& stamp, SkillConditions conditions, bool fresh) {
  m_changed = m_changed || fresh;
  m_new.emplace_back(std::move(path), SnapshotEntry{stamp, std::move(conditions)});
}

bool PromptSnapshot::save_if_changed(const std::filesystem::path& file) {
  if (!m_changed && m_new.size() == m_old.size()) {
    return true;
  }
  // An entry written within the timestamp granularity could hide a later
  // edit behind an equal stamp: leave it out, it is read again next time.
  const std::int64_t newest_allowed = now_ns() - m_racy_window_ns;
  SnapshotEntries kept;
  kept.reserve(m_new.size());
  for (auto& [path, entry] : m_new) {
    if (entry.stamp.mtime_ns < newest_allowed && entry.stamp.ctime_ns < newest_allowed) {
      kept.emplace_back(std::move(path), std::move(entry));
    }
  }
  m_new.clear();
  return write_file_atomic(file, encode_prompt_snapshot(kept)).has_value();
}

} // namespace skillrt::core
