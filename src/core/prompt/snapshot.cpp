#include "core/prompt/snapshot.hpp"

#include <charconv>
#include <chrono>

#include "core/util/atomic_file.hpp"
#include "core/util/read_file.hpp"
#include "core/util/text.hpp"

namespace skillrt::core {
namespace {

// The snapshot is JSON (its name says so), and core links no JSON library, so
// the fixed shape below is written and read by hand:
// {"version":3,"manifest":{"<path>":[mtime_ns,size,ctime_ns,inode,device],...},
//  "conditions":{"<path>":{"requires_tools":["x"],...},...}}
// `conditions` holds only skills that declare any.
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

void append_string(std::string& out, std::string_view text) {
  static constexpr char k_hex[] = "0123456789abcdef";
  out += '"';
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += k_hex[byte >> 4];
      out += k_hex[byte & 0xF];
    } else {
      out += c;
    }
  }
  out += '"';
}

// A cursor over the document; every read fails cleanly on anything unexpected.
class Reader {
public:
  explicit Reader(std::string_view text) : m_text(text) {}

  void skip_space() {
    while (m_pos < m_text.size() &&
           (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r' || m_text[m_pos] == '\t')) {
      ++m_pos;
    }
  }
  bool eat(char c) {
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  bool at_end() {
    skip_space();
    return m_pos == m_text.size();
  }
  bool integer(std::int64_t& value) {
    skip_space();
    const char* begin = m_text.data() + m_pos;
    const char* end = m_text.data() + m_text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr == begin) {
      return false;
    }
    m_pos += static_cast<std::size_t>(ptr - begin);
    return true;
  }
  bool string(std::string& out) {
    out.clear();
    if (!eat('"')) {
      return false;
    }
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos++];
      if (c == '"') {
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return false;
      }
      if (c != '\\') {
        // Copy the plain run up to the next quote or escape in one go.
        std::size_t end = m_pos;
        while (end < m_text.size() && m_text[end] != '"' && m_text[end] != '\\' &&
               static_cast<unsigned char>(m_text[end]) >= 0x20) {
          ++end;
        }
        out += c;
        out.append(m_text.substr(m_pos, end - m_pos));
        m_pos = end;
        continue;
      }
      if (m_pos >= m_text.size()) {
        return false;
      }
      const char escape = m_text[m_pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        unsigned code = 0;
        if (!hex4(code)) {
          return false;
        }
        if (code >= 0xD800 && code <= 0xDBFF) {
          unsigned low = 0;
          if (m_pos + 2 > m_text.size() || m_text[m_pos] != '\\' || m_text[m_pos + 1] != 'u') {
            return false;
          }
          m_pos += 2;
          if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) {
            return false;
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        } else if (code >= 0xDC00 && code <= 0xDFFF) {
          return false;
        }
        append_utf8(out, code);
        break;
      }
      default:
        return false;
      }
    }
    return false;
  }

private:
  bool hex4(unsigned& code) {
    if (m_pos + 4 > m_text.size()) {
      return false;
    }
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = m_text[m_pos++];
      code <<= 4;
      if (c >= '0' && c <= '9') {
        code |= static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        code |= static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        code |= static_cast<unsigned>(c - 'A' + 10);
      } else {
        return false;
      }
    }
    return true;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

// Reads `{ "key": <value>, ... }`, calling on_member(key) positioned at each value.
template <typename OnMember> bool read_object(Reader& in, OnMember on_member) {
  if (!in.eat('{')) {
    return false;
  }
  if (in.eat('}')) {
    return true;
  }
  std::string key;
  do {
    if (!in.string(key) || !in.eat(':') || !on_member(key)) {
      return false;
    }
  } while (in.eat(','));
  return in.eat('}');
}

bool read_string_list(Reader& in, std::vector<std::string>& out) {
  if (!in.eat('[')) {
    return false;
  }
  if (in.eat(']')) {
    return true;
  }
  std::string item;
  do {
    if (!in.string(item)) {
      return false;
    }
    out.push_back(item);
  } while (in.eat(','));
  return in.eat(']');
}

bool read_stamp(Reader& in, FileStamp& stamp) {
  std::int64_t fields[5] = {};
  if (!in.eat('[')) {
    return false;
  }
  for (std::size_t i = 0; i < 5; ++i) {
    if ((i > 0 && !in.eat(',')) || !in.integer(fields[i])) {
      return false;
    }
  }
  stamp.mtime_ns = fields[0];
  stamp.size = fields[1];
  stamp.ctime_ns = fields[2];
  stamp.inode = static_cast<std::uint64_t>(fields[3]);
  stamp.device = static_cast<std::uint64_t>(fields[4]);
  return in.eat(']');
}

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
    append_string(out, path);
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
    append_string(out, path);
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
      append_string(out, k_condition_keys[i]);
      out += ":[";
      for (std::size_t j = 0; j < list.size(); ++j) {
        out += j > 0 ? "," : "";
        append_string(out, list[j]);
      }
      out += "]";
    }
    out += "}";
  }
  out += "}}\n";
  return out;
}

std::optional<SnapshotEntries> decode_prompt_snapshot(std::string_view text) {
  Reader in(text);
  SnapshotEntries entries;
  std::unordered_map<std::string, std::size_t> index;
  bool have_version = false;
  bool have_manifest = false;
  const bool ok = read_object(in, [&](const std::string& key) {
    if (key == "version") {
      std::int64_t version = 0;
      have_version = in.integer(version) && version == k_prompt_snapshot_version;
      return have_version;
    }
    if (key == "manifest" && have_version && !have_manifest) {
      have_manifest = true;
      return read_object(in, [&](const std::string& path) {
        FileStamp stamp;
        if (!read_stamp(in, stamp) || index.contains(path)) {
          return false;
        }
        index.emplace(path, entries.size());
        entries.emplace_back(path, SnapshotEntry{stamp, {}});
        return true;
      });
    }
    if (key == "conditions" && have_manifest) {
      return read_object(in, [&](const std::string& path) {
        auto found = index.find(path);
        if (found == index.end()) {
          return false;
        }
        SkillConditions& conditions = entries[found->second].second.conditions;
        return read_object(in, [&](const std::string& name) {
          for (std::size_t i = 0; i < std::size(k_condition_keys); ++i) {
            if (name == k_condition_keys[i]) {
              return read_string_list(in, condition_list(conditions, i));
            }
          }
          return false;
        });
      });
    }
    return false;
  });
  if (!ok || !have_manifest || !in.at_end()) {
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
