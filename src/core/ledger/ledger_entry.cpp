// Ledger entries as text (see ledger_entry.hpp): one renderer for the line
// and the hashed text, so the two can never disagree, and a strict parser.
#include "core/ledger/ledger_entry.hpp"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "core/util/strict_json.hpp"

namespace skillrt::core {
namespace {

using Json = nlohmann::json;

constexpr std::array<std::pair<LedgerActor, const char*>, 6> k_actor_names{{
    {LedgerActor::user, "user"},
    {LedgerActor::agent, "agent"},
    {LedgerActor::review, "review"},
    {LedgerActor::curator, "curator"},
    {LedgerActor::hub, "hub"},
    {LedgerActor::sync, "sync"},
}};

constexpr std::array<std::pair<LedgerAction, const char*>, 15> k_action_names{{
    {LedgerAction::create, "create"},
    {LedgerAction::edit, "edit"},
    {LedgerAction::patch, "patch"},
    {LedgerAction::remove, "delete"},
    {LedgerAction::write_file, "write_file"},
    {LedgerAction::remove_file, "remove_file"},
    {LedgerAction::install, "install"},
    {LedgerAction::update, "update"},
    {LedgerAction::uninstall, "uninstall"},
    {LedgerAction::sync, "sync"},
    {LedgerAction::reset, "reset"},
    {LedgerAction::approve, "approve"},
    {LedgerAction::promote, "promote"},
    {LedgerAction::curate, "curate"},
    {LedgerAction::rollback, "rollback"},
}};

void member(std::string& out, const char* key, std::string_view value) {
  out += '"';
  out += key;
  out += "\":";
  out += json_quoted(value);
  out += ',';
}

void render_snapshot(std::string& out, const char* key, const std::optional<LedgerSnapshot>& snapshot) {
  out += '"';
  out += key;
  out += "\":";
  if (!snapshot) {
    out += "null,";
    return;
  }
  out += "{\"hash\":" + json_quoted(snapshot->hash) + ",\"files\":[";
  for (std::size_t i = 0; i < snapshot->files.size(); ++i) {
    const LedgerFile& file = snapshot->files[i];
    out += i == 0 ? "{" : ",{";
    out += "\"path\":" + json_quoted(file.path) + ",\"size\":" + std::to_string(file.size) +
           ",\"sha256\":" + json_quoted(file.sha256) + ",\"mode\":" + std::to_string(file.mode) + "}";
  }
  out += "]},";
}

// Every member but id and hash, in the file's order; `id` (when given) goes
// after seq. Ends with a ',' the callers replace or extend.
std::string render_members(const LedgerEntry& entry, const std::string* id) {
  std::string out = "{\"seq\":" + std::to_string(entry.seq) + ",";
  if (id != nullptr) {
    member(out, "id", *id);
  }
  member(out, "time", entry.time);
  member(out, "actor", ledger_actor_name(entry.actor));
  member(out, "actor_id", entry.actor_id);
  member(out, "action", ledger_action_name(entry.action));
  member(out, "layer", layer_name(entry.layer));
  member(out, "skill", entry.skill);
  member(out, "root", entry.root);
  member(out, "path", entry.path);
  render_snapshot(out, "before", entry.before);
  render_snapshot(out, "after", entry.after);
  member(out, "note", entry.note);
  member(out, "rolls_back", entry.rolls_back);
  member(out, "prev", entry.prev);
  return out;
}

// The parser's view of one object: every member read once, none left over.
class Members {
public:
  Members(const Json& object, std::string what) : m_object(object), m_what(std::move(what)) {}

  Result<const Json*> take(const char* key) {
    const auto it = m_object.find(key);
    if (it == m_object.end()) {
      return fail(ErrorCode::parse_error, m_what + " has no \"" + key + "\"");
    }
    ++m_taken;
    return &*it;
  }

  Result<std::string> text(const char* key) {
    auto value = take(key);
    if (!value) {
      return tl::unexpected(value.error());
    }
    if (!(*value)->is_string()) {
      return fail(ErrorCode::parse_error, m_what + "'s \"" + key + "\" is not a string");
    }
    return (*value)->get<std::string>();
  }

  Result<std::uint64_t> number(const char* key) {
    auto value = take(key);
    if (!value) {
      return tl::unexpected(value.error());
    }
    if (!(*value)->is_number_unsigned()) {
      return fail(ErrorCode::parse_error, m_what + "'s \"" + key + "\" is not a non-negative integer");
    }
    return (*value)->get<std::uint64_t>();
  }

  Result<void> none_left() const {
    if (m_taken != m_object.size()) {
      return fail(ErrorCode::parse_error, m_what + " has a member no version of skillrt writes");
    }
    return {};
  }

private:
  const Json& m_object;
  std::string m_what;
  std::size_t m_taken = 0;
};

bool is_hex(std::string_view text, std::size_t digits) {
  if (text.size() != digits) {
    return false;
  }
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

Result<std::optional<LedgerSnapshot>> parse_snapshot(Members& members, const char* key) {
  auto value = members.take(key);
  if (!value) {
    return tl::unexpected(value.error());
  }
  const Json& json = **value;
  if (json.is_null()) {
    return std::optional<LedgerSnapshot>{};
  }
  if (!json.is_object()) {
    return fail(ErrorCode::parse_error, std::string("\"") + key + "\" is neither null nor an object");
  }
  Members snapshot_members(json, std::string("\"") + key + "\"");
  LedgerSnapshot snapshot;
  auto hash = snapshot_members.text("hash");
  if (!hash) {
    return tl::unexpected(hash.error());
  }
  if (hash->size() != 7 + 64 || hash->compare(0, 7, "sha256:") != 0 || !is_hex(std::string_view(*hash).substr(7), 64)) {
    return fail(ErrorCode::parse_error, std::string("\"") + key + "\"'s hash is not sha256:<64 hex>");
  }
  snapshot.hash = std::move(*hash);
  auto files = snapshot_members.take("files");
  if (!files) {
    return tl::unexpected(files.error());
  }
  if (!(*files)->is_array()) {
    return fail(ErrorCode::parse_error, std::string("\"") + key + "\"'s files is not an array");
  }
  for (const Json& file_json : **files) {
    if (!file_json.is_object()) {
      return fail(ErrorCode::parse_error, std::string("a file of \"") + key + "\" is not an object");
    }
    Members file_members(file_json, std::string("a file of \"") + key + "\"");
    LedgerFile file;
    auto path = file_members.text("path");
    auto size = file_members.number("size");
    auto sha = file_members.text("sha256");
    auto mode = file_members.number("mode");
    for (const Error* error : {path ? nullptr : &path.error(), size ? nullptr : &size.error(),
                               sha ? nullptr : &sha.error(), mode ? nullptr : &mode.error()}) {
      if (error != nullptr) {
        return tl::unexpected(*error);
      }
    }
    if (!is_hex(*sha, 64)) {
      return fail(ErrorCode::parse_error, "the sha256 of " + *path + " is not 64 lower-case hex digits");
    }
    if (*mode > 07777) {
      return fail(ErrorCode::parse_error, "the mode of " + *path + " is not a permission mode");
    }
    file.path = std::move(*path);
    file.size = *size;
    file.sha256 = std::move(*sha);
    file.mode = static_cast<unsigned>(*mode);
    if (auto left = file_members.none_left(); !left) {
      return tl::unexpected(left.error());
    }
    snapshot.files.push_back(std::move(file));
  }
  if (auto left = snapshot_members.none_left(); !left) {
    return tl::unexpected(left.error());
  }
  return std::optional<LedgerSnapshot>(std::move(snapshot));
}

} // namespace

const char* ledger_actor_name(LedgerActor actor) {
  for (const auto& [value, name] : k_actor_names) {
    if (value == actor) {
      return name;
    }
  }
  return "user";
}

std::optional<LedgerActor> ledger_actor_from_name(std::string_view name) {
  for (const auto& [value, spelt] : k_actor_names) {
    if (name == spelt) {
      return value;
    }
  }
  return std::nullopt;
}

const char* ledger_action_name(LedgerAction action) {
  for (const auto& [value, name] : k_action_names) {
    if (value == action) {
      return name;
    }
  }
  return "edit";
}

std::optional<LedgerAction> ledger_action_from_name(std::string_view name) {
  for (const auto& [value, spelt] : k_action_names) {
    if (name == spelt) {
      return value;
    }
  }
  return std::nullopt;
}

std::string ledger_db_path(std::string_view name) {
  return "db:" + std::string(name);
}

std::string ledger_hashed_text(const LedgerEntry& entry) {
  std::string out = render_members(entry, nullptr);
  out.back() = '}';
  return out;
}

void seal_ledger_entry(LedgerEntry& entry) {
  entry.hash = sha256_hex(ledger_hashed_text(entry));
  entry.id = entry.hash.substr(0, k_ledger_id_hex_digits);
}

std::string render_ledger_entry(const LedgerEntry& entry) {
  std::string out = render_members(entry, &entry.id);
  out += "\"hash\":" + json_quoted(entry.hash) + "}";
  return out;
}

Result<LedgerEntry> parse_ledger_entry(std::string_view line) {
  if (auto strict = check_strict_json(line, limits::k_max_ledger_json_depth); !strict) {
    return fail(ErrorCode::parse_error, "not one JSON object: " + strict.error().message);
  }
  const Json json = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object()) {
    return fail(ErrorCode::parse_error, "not a JSON object");
  }
  Members members(json, "the entry");
  LedgerEntry entry;
  auto seq = members.number("seq");
  if (!seq) {
    return tl::unexpected(seq.error());
  }
  entry.seq = *seq;
  // Text members, read in the file's order into their fields.
  const std::array<std::pair<const char*, std::string*>, 6> plain{{{"id", &entry.id},
                                                                   {"time", &entry.time},
                                                                   {"actor_id", &entry.actor_id},
                                                                   {"skill", &entry.skill},
                                                                   {"root", &entry.root},
                                                                   {"path", &entry.path}}};
  for (const auto& [key, field] : plain) {
    auto value = members.text(key);
    if (!value) {
      return tl::unexpected(value.error());
    }
    *field = std::move(*value);
  }
  auto actor = members.text("actor");
  if (!actor) {
    return tl::unexpected(actor.error());
  }
  const auto actor_value = ledger_actor_from_name(*actor);
  if (!actor_value) {
    return fail(ErrorCode::parse_error, "unknown actor \"" + *actor + "\"");
  }
  entry.actor = *actor_value;
  auto action = members.text("action");
  if (!action) {
    return tl::unexpected(action.error());
  }
  const auto action_value = ledger_action_from_name(*action);
  if (!action_value) {
    return fail(ErrorCode::parse_error, "unknown action \"" + *action + "\"");
  }
  entry.action = *action_value;
  auto layer = members.text("layer");
  if (!layer) {
    return tl::unexpected(layer.error());
  }
  const auto layer_value = layer_from_name(*layer);
  if (!layer_value) {
    return fail(ErrorCode::parse_error, "unknown layer \"" + *layer + "\"");
  }
  entry.layer = *layer_value;
  auto before = parse_snapshot(members, "before");
  if (!before) {
    return tl::unexpected(before.error());
  }
  entry.before = std::move(*before);
  auto after = parse_snapshot(members, "after");
  if (!after) {
    return tl::unexpected(after.error());
  }
  entry.after = std::move(*after);
  const std::array<std::pair<const char*, std::string*>, 4> tail{
      {{"note", &entry.note}, {"rolls_back", &entry.rolls_back}, {"prev", &entry.prev}, {"hash", &entry.hash}}};
  for (const auto& [key, field] : tail) {
    auto value = members.text(key);
    if (!value) {
      return tl::unexpected(value.error());
    }
    *field = std::move(*value);
  }
  if (auto left = members.none_left(); !left) {
    return tl::unexpected(left.error());
  }
  if (!is_hex(entry.hash, 64) || !(entry.prev.empty() || is_hex(entry.prev, 64))) {
    return fail(ErrorCode::parse_error, "hash or prev is not 64 lower-case hex digits");
  }
  return entry;
}

} // namespace skillrt::core
