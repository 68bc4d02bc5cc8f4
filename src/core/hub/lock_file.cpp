// lock.json: model, validation, strict reader and atomic writer (see lock_file.hpp).
#include "core/hub/lock_file.hpp"

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "core/validate/skill_name.hpp"
#include "core/util/strict_json.hpp"
#include "skillrt/try.hpp"

namespace skillrt::core::hub {
namespace {

using nlohmann::json;


std::vector<std::string_view> split_slash(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = text.find('/', start);
    out.push_back(text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) {
      return out;
    }
    start = slash + 1;
  }
}

void put_string(std::string& out, std::string_view indent, std::string_view key, std::string_view value, bool comma) {
  out += indent;
  out += json_quoted(key);
  out += ": ";
  out += json_quoted(value);
  out += comma ? ",\n" : "\n";
}

void put_number(std::string& out, std::string_view indent, std::string_view key, std::uint64_t value, bool comma) {
  out += indent;
  out += json_quoted(key);
  out += ": ";
  out += std::to_string(value);
  out += comma ? ",\n" : "\n";
}

// An enum member as the file spells it: its name, or "" when not recorded.
template <typename Enum>
std::string_view name_or_empty(const std::optional<Enum>& value, const char* (*name_of)(Enum)) {
  return value ? std::string_view(name_of(*value)) : std::string_view();
}

void render_entry(std::string& out, const LockEntry& e) {
  const std::string_view in = "      ";
  put_string(out, in, "source", name_or_empty(e.source, source_kind_name), true);
  put_string(out, in, "identifier", e.identifier, true);
  put_string(out, in, "source_spec", e.source_spec, true);
  put_string(out, in, "ref", e.ref, true);
  put_string(out, in, "revision", e.revision, true);
  put_string(out, in, "subdir", e.subdir, true);
  put_string(out, in, "trust_level", name_or_empty(e.trust_level, trust_level_name), true);
  put_string(out, in, "scan_verdict", name_or_empty(e.scan_verdict, verdict_name), true);
  put_string(out, in, "scanner_version", e.scanner_version, true);
  out += std::string(in) + "\"findings\": {\n";
  const std::string in2 = std::string(in) + "  ";
  put_number(out, in2, "total", e.findings.total, true);
  put_number(out, in2, "critical", e.findings.critical, true);
  put_number(out, in2, "high", e.findings.high, true);
  put_number(out, in2, "medium", e.findings.medium, true);
  put_number(out, in2, "low", e.findings.low, false);
  out += std::string(in) + "},\n";
  put_string(out, in, "content_hash", e.content_hash, true);
  put_string(out, in, "install_path", e.install_path, true);
  if (e.files.empty()) {
    out += std::string(in) + "\"files\": [],\n";
  } else {
    out += std::string(in) + "\"files\": [\n";
    for (std::size_t i = 0; i < e.files.size(); ++i) {
      out += in2 + json_quoted(e.files[i]) + (i + 1 < e.files.size() ? ",\n" : "\n");
    }
    out += std::string(in) + "],\n";
  }
  out += std::string(in) + "\"signature\": {\n";
  put_string(out, in2, "status", name_or_empty(e.signature_status, signature_status_name), true);
  put_string(out, in2, "key", e.signature_key, false);
  out += std::string(in) + "},\n";
  put_string(out, in, "installed_at", e.installed_at, true);
  put_string(out, in, "updated_at", e.updated_at, false);
}

// Reads the string member `key` of `obj` into `out`; absent is fine (old or
// hand-edited files), a wrong type is corruption.
Result<void> read_string(const json& obj, std::string_view key, std::string& out, const std::string& where) {
  const auto v = obj.find(key);
  if (v == obj.end() || v->is_null()) {
    return {};
  }
  if (!v->is_string()) {
    return fail(ErrorCode::parse_error, where + ": \"" + std::string(key) + "\" must be a string");
  }
  out = v->get<std::string>();
  return {};
}

// Reads the enum member `key` by its name: absent, null or "" is nullopt; a
// name `parse` does not know is corruption (never guessed, never dropped).
template <typename Enum>
Result<void> read_enum(const json& obj, std::string_view key, std::optional<Enum>& out, const std::string& where,
                       std::optional<Enum> (*parse)(std::string_view)) {
  std::string text;
  SKILLRT_TRY(read_string(obj, key, text, where));
  if (text.empty()) {
    out.reset();
    return {};
  }
  out = parse(text);
  if (!out) {
    return fail(ErrorCode::parse_error,
                where + ": \"" + std::string(key) + "\" has the unknown value \"" + text + "\"");
  }
  return {};
}

// Counts are written as plain digits; at most 18 of them, as before nlohmann.
constexpr std::uint64_t k_max_count = 999'999'999'999'999'999ULL;

Result<void> read_count(const json& obj, std::string_view key, std::uint64_t& out, const std::string& where) {
  const auto v = obj.find(key);
  if (v == obj.end()) {
    return {};
  }
  if (!v->is_number_unsigned() || v->get<std::uint64_t>() > k_max_count) {
    return fail(ErrorCode::parse_error, where + ": \"" + std::string(key) + "\" must be a non-negative integer");
  }
  out = v->get<std::uint64_t>();
  return {};
}

Result<LockEntry> parse_entry(const json& obj, const std::string& where) {
  if (!obj.is_object()) {
    return fail(ErrorCode::parse_error, where + " must be an object");
  }
  LockEntry e;
  const std::pair<std::string_view, std::string*> strings[] = {
      {"identifier", &e.identifier},
      {"source_spec", &e.source_spec},
      {"ref", &e.ref},
      {"revision", &e.revision},
      {"subdir", &e.subdir},
      {"scanner_version", &e.scanner_version},
      {"content_hash", &e.content_hash},
      {"install_path", &e.install_path},
      {"installed_at", &e.installed_at},
      {"updated_at", &e.updated_at},
  };
  for (const auto& [key, target] : strings) {
    SKILLRT_TRY(read_string(obj, key, *target, where));
  }
  SKILLRT_TRY(read_enum(obj, "source", e.source, where, parse_source_kind));
  SKILLRT_TRY(read_enum(obj, "trust_level", e.trust_level, where, parse_trust_level));
  SKILLRT_TRY(read_enum(obj, "scan_verdict", e.scan_verdict, where, parse_verdict));
  if (const auto f = obj.find("findings"); f != obj.end()) {
    if (!f->is_object()) {
      return fail(ErrorCode::parse_error, where + ": \"findings\" must be an object");
    }
    const std::string fw = where + ".findings";
    for (const auto& [key, target] : {std::pair<std::string_view, std::uint64_t*>{"total", &e.findings.total},
                                      {"critical", &e.findings.critical},
                                      {"high", &e.findings.high},
                                      {"medium", &e.findings.medium},
                                      {"low", &e.findings.low}}) {
      SKILLRT_TRY(read_count(*f, key, *target, fw));
    }
  }
  if (const auto files = obj.find("files"); files != obj.end()) {
    if (!files->is_array()) {
      return fail(ErrorCode::parse_error, where + ": \"files\" must be an array");
    }
    for (const json& item : *files) {
      if (!item.is_string()) {
        return fail(ErrorCode::parse_error, where + ": \"files\" must hold strings only");
      }
      e.files.push_back(item.get<std::string>());
    }
  }
  if (const auto sig = obj.find("signature"); sig != obj.end()) {
    if (!sig->is_object()) {
      return fail(ErrorCode::parse_error, where + ": \"signature\" must be an object");
    }
    SKILLRT_TRY(read_enum(*sig, "status", e.signature_status, where + ".signature", parse_signature_status));
    SKILLRT_TRY(read_string(*sig, "key", e.signature_key, where + ".signature"));
  }
  return e;
}

} // namespace

Result<void> validate_hub_category(std::string_view category) {
  if (category.empty()) {
    return fail(ErrorCode::invalid_argument, "category is empty");
  }
  if (category.size() > limits::k_max_bundle_path_bytes) {
    return fail(ErrorCode::invalid_argument, "category is longer than k_max_bundle_path_bytes");
  }
  for (const std::string_view segment : split_slash(category)) {
    if (auto ok = check_name_segment(segment, "category"); !ok) {
      return ok;
    }
  }
  return {};
}

Result<void> validate_install_path(std::string_view install_path, std::string_view name) {
  if (install_path.empty()) {
    return fail(ErrorCode::invalid_argument, "install_path is empty");
  }
  if (install_path.front() == '/') {
    return fail(ErrorCode::invalid_argument, "install_path '" + std::string(install_path) + "' is absolute");
  }
  const std::vector<std::string_view> segments = split_slash(install_path);
  for (const std::string_view segment : segments) {
    if (auto ok = check_name_segment(segment, "install_path '" + std::string(install_path) + "'"); !ok) {
      return ok;
    }
  }
  if (segments.back() != name) {
    return fail(ErrorCode::invalid_argument, "install_path '" + std::string(install_path) +
                                                 "' does not end with the skill name '" + std::string(name) + "'");
  }
  return {};
}

std::string render_lock_json(const LockFile& lock) {
  std::string out = "{\n  \"version\": " + std::to_string(lock.version) + ",\n";
  if (lock.installed.empty()) {
    out += "  \"installed\": {}\n}\n";
    return out;
  }
  out += "  \"installed\": {\n";
  std::size_t i = 0;
  for (const auto& [name, entry] : lock.installed) {
    out += "    " + json_quoted(name) + ": {\n";
    render_entry(out, entry);
    out += ++i < lock.installed.size() ? "    },\n" : "    }\n";
  }
  out += "  }\n}\n";
  return out;
}

Result<LockFile> parse_lock_json(std::string_view text, const std::string& origin) {
  if (auto strict = check_strict_json(text, limits::k_max_state_json_depth); !strict) {
    return fail(ErrorCode::parse_error, origin + " is corrupt (" + strict.error().message +
                                            "); fix or move it away — it is never overwritten while corrupt");
  }
  const json doc = json::parse(text, nullptr, false);
  const auto corrupt = [&](const std::string& why) {
    return fail(ErrorCode::parse_error,
                origin + " is corrupt: " + why + "; fix or move it away — it is never overwritten while corrupt");
  };
  if (!doc.is_object()) {
    return corrupt("the top level is not an object");
  }
  LockFile lock;
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_unsigned() || version->get<std::uint64_t>() != 1) {
    return corrupt("\"version\" must be 1");
  }
  const auto installed = doc.find("installed");
  if (installed == doc.end() || !installed->is_object()) {
    return corrupt("\"installed\" must be an object");
  }
  for (const auto& [name, value] : installed->items()) {
    auto entry = parse_entry(value, "installed." + name);
    if (!entry) {
      return corrupt(entry.error().message);
    }
    lock.installed.emplace(name, std::move(*entry));
  }
  return lock;
}

Result<LockFile> read_lock_file(const std::filesystem::path& path) {
  auto text = read_regular_file(path, limits::k_max_hub_state_bytes);
  if (!text) {
    if (text.error().code == ErrorCode::not_found) {
      return LockFile{};
    }
    if (text.error().code == ErrorCode::limit_exceeded) {
      return fail(ErrorCode::limit_exceeded, path.string() + " is larger than k_max_hub_state_bytes (" +
                                                 std::to_string(limits::k_max_hub_state_bytes) +
                                                 " bytes); refusing to read it as a lock file");
    }
    return fail(text.error().code, "Cannot read " + path.string() + ": " + text.error().message);
  }
  return parse_lock_json(*text, path.string());
}

Result<void> write_lock_file(const std::filesystem::path& path, const LockFile& lock) {
  const std::string text = render_lock_json(lock);
  if (text.size() > limits::k_max_hub_state_bytes) {
    return fail(ErrorCode::limit_exceeded, "lock.json would exceed k_max_hub_state_bytes; not written");
  }
  if (auto ok = write_file_atomic(path, text); !ok) {
    return fail(ok.error().code, "Cannot write " + path.string() + ": " + ok.error().message);
  }
  return {};
}

} // namespace skillrt::core::hub
