// skill_manage (spec §2.10): one request in, one result out. The result carries
// every field Hermes' JSON can hold; the protocol layer maps it in Hermes' order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/ledger/ledger_entry.hpp"
#include "core/tenancy/layer.hpp"
#include "core/tenancy/permissions.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

enum class ManageAction : unsigned char { create, edit, patch, remove_skill, write_file, remove_file };

// "create" | "edit" | "patch" | "delete" | "write_file" | "remove_file" (Hermes' action names).
const char* manage_action_name(ManageAction action);

struct ManageRequest {
  ManageAction action = ManageAction::create;
  std::string name;
  std::optional<std::string> content;       // create / edit: the whole SKILL.md
  std::optional<std::string> category;      // create only
  // create only, not an agent's argument: a top-level provenance folder the
  // new skill goes under (the background review's skills land in generated/).
  std::optional<std::string> folder;
  std::optional<std::string> file_path;     // write_file / remove_file / patch of a supporting file
  std::optional<std::string> file_content;  // write_file
  std::optional<std::string> old_string;    // patch
  std::optional<std::string> new_string;    // patch ("" deletes the match)
  bool replace_all = false;                 // patch
  std::optional<std::string> absorbed_into; // delete: nullopt legacy, blank prune, a name = consolidation
  // Keep a write the guard answered "ask" for (agent-created + dangerous). Never
  // overrides "block" (docs/compat.md, spec §5.1 item 11).
  bool confirm = false;
  // The layer written (issue 3/5): nullopt = the user's own layer when ctx has
  // a user, else the shared layer. manage_skill checks the permission matrix
  // (tenancy/permissions.hpp) before anything is looked up, and resolves the
  // name among that layer's roots only.
  std::optional<Layer> layer;
  // Who asks, for the ledger entry the write leaves (core/ledger): the CLI
  // is the user, the MCP server's skill_manage the agent. `actor_id` ""
  // means ctx's user id.
  LedgerActor actor = LedgerActor::user;
  std::string actor_id;
  // What the entry calls the change when it is more than the action (an
  // approved proposal applied as a patch is "approve", a curator's merge
  // "curate"); nullopt: the action's own name. `ledger_note` "" = the default
  // note (the file written, the skill absorbed into).
  std::optional<LedgerAction> ledger_action;
  std::string ledger_note;
};

struct ManageResult {
  bool success = false;
  ErrorCode code = ErrorCode::internal;          // meaningful when !success
  std::string message;                           // success (and confirmation) text
  std::string error;                             // failure text, worded as Hermes words it
  std::optional<std::string> path;               // create: relative to the local dir; edit: skill dir; write_file: file
  std::optional<std::string> skill_md;           // create: absolute SKILL.md
  std::optional<std::string> change_description; // create: _change.description
  std::optional<std::string> change_old;         // patch: _change.old
  std::optional<std::string> change_new;         // patch: _change.new
  bool full_rewrite_change = false;              // edit: _change marks a full rewrite
  std::optional<std::string> category;
  std::optional<std::string> hint;
  std::optional<std::string> file_preview; // patch: no match
  bool has_available_files = false;        // remove_file: missing file (empty list → null)
  std::vector<std::string> available_files;
  std::optional<std::vector<std::string>> matches;          // ambiguous name
  std::optional<std::vector<std::string>> available_skills; // not found
  std::optional<std::size_t> replacements;                  // patch
  std::optional<std::string> strategy;                      // patch: the fuzzy strategy that matched
  std::optional<std::string> absorbed_into;                 // delete
  bool confirmation_required = false;                       // guard said "ask": rolled back; re-run with confirm
  std::optional<std::string> scan_report;                   // the guard's report when it spoke
  std::vector<std::string> warnings;                        // e.g. the scanner failed and the write stands
  // Not shown: the SKILL.md of the skill a successful write changed, for its change event.
  std::optional<std::string> changed_skill_md;
};

// The layer `request` writes: its own choice, else the user's layer when ctx
// has a user, else the shared layer.
Layer manage_target_layer(const Context& ctx, const ManageRequest& request);

// What the permission matrix calls an action (create, update, remove).
Operation manage_operation(ManageAction action);

// A failed result with a code and Hermes' message.
ManageResult manage_failure(ErrorCode code, std::string error);
// The same from a core Error (its code and message).
ManageResult manage_failure(Error error);

// Runs one skill_manage request against ctx's home with cfg. Never throws.
ManageResult manage_skill(const Context& ctx, const Config& cfg, const ManageRequest& request);

} // namespace skillrt::core
