// One entry of the ledger (ledger.hpp): who changed which skill how, the
// content identity before and after, and the link to the entry before it.
// An entry is one line of entries.jsonl, its members always in one order:
//
//   {"seq":N,"id":"<12 hex>","time":"<ISO-8601 UTC>","actor":"user","actor_id":"",
//    "action":"edit","layer":"shared","skill":"deploy","root":"/abs/root","path":"devops/deploy",
//    "before":null|{"hash":"sha256:<64 hex>","files":[{"path","size","sha256","mode"}]},
//    "after":...,"note":"","rolls_back":"","prev":"<64 hex or empty>","hash":"<64 hex>"}
//
// `hash` is SHA-256 of the same object without `id` and `hash` (rendered the
// same way), so an edit of any member shows; `id` is the hash's first 12 hex
// digits; `prev` is the previous entry's hash ("" for the first), so a
// removed or reordered entry breaks the chain. Actors and actions are enums
// here; their names are spelt only in the file and in replies, and a name no
// version wrote is a parse error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tenancy/layer.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Who made a change.
enum class LedgerActor : unsigned char { user, agent, review, curator, hub, sync };
const char* ledger_actor_name(LedgerActor actor); // "user" | "agent" | "review" | "curator" | "hub" | "sync"
std::optional<LedgerActor> ledger_actor_from_name(std::string_view name);

// What kind of change it was.
enum class LedgerAction : unsigned char {
  create,
  edit,
  patch,
  remove, // "delete"
  write_file,
  remove_file,
  install,
  update,
  uninstall,
  sync,
  reset,
  approve,
  promote,
  curate,
  rollback,
};
// "create" | "edit" | "patch" | "delete" | "write_file" | "remove_file" | "install" | "update" |
// "uninstall" | "sync" | "reset" | "approve" | "promote" | "curate" | "rollback"
const char* ledger_action_name(LedgerAction action);
std::optional<LedgerAction> ledger_action_from_name(std::string_view name);

// One file of a snapshot; its bytes are the blob named by `sha256`.
struct LedgerFile {
  std::string path; // POSIX, relative to the skill folder
  std::uint64_t size = 0;
  std::string sha256;   // 64 lower-case hex
  unsigned mode = 0644; // permission bits, so a rollback gives scripts back their x bit
};

// A skill's content at one moment: its identity and its files.
struct LedgerSnapshot {
  // "sha256:" + 64 hex over "<sha256>  <path>\n" per file, sorted by path
  // bytes: the text of the hub's bundle manifest (lock.json content_hash).
  std::string hash;
  std::vector<LedgerFile> files; // sorted by path bytes
};

// What an appender says about a change; the ledger adds seq, time and the chain.
struct LedgerChange {
  LedgerActor actor = LedgerActor::user;
  std::string actor_id; // the user id, or ""
  LedgerAction action = LedgerAction::edit;
  Layer layer = Layer::shared;
  std::string skill; // the skill's name
  // File skills: the skills root (absolute) and the folder relative to it.
  // Database skills: root "" and path "db:<name>".
  std::string root;
  std::string path;
  std::optional<LedgerSnapshot> before; // nullopt: the skill did not exist
  std::optional<LedgerSnapshot> after;  // nullopt: the skill is gone
  std::string note;
  std::string rolls_back; // a rollback: the id of the entry it undid; else ""
};

struct LedgerEntry : LedgerChange {
  std::uint64_t seq = 0;
  std::string id;
  std::string time;
  std::string prev;
  std::string hash;
};

// The number of hex digits of an entry's hash that make its id.
inline constexpr std::size_t k_ledger_id_hex_digits = 12;

// "db:<name>": the path member of a database skill's entry.
std::string ledger_db_path(std::string_view name);

// The text `hash` covers (the entry without id and hash).
std::string ledger_hashed_text(const LedgerEntry& entry);

// Fills in `hash` and `id` from the other members.
void seal_ledger_entry(LedgerEntry& entry);

// The whole line (with id and hash, no newline).
std::string render_ledger_entry(const LedgerEntry& entry);

// Parses one line: strict JSON, every member present with its type, no other
// member, known actor/action/layer names. Does not check the hash (verify does).
// Errors: parse_error naming what is wrong.
Result<LedgerEntry> parse_ledger_entry(std::string_view line);

} // namespace skillrt::core
