// Moving a skill between top-level folders of its root (`skillrt promote`,
// the curator's archive): one durable no-replace rename under the skill's
// lock, after the skill validates and the guard finds nothing dangerous in
// it — so a move never publishes a broken or hostile skill under a more
// trusted folder. The usage record follows the skill (it is keyed by name).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/ledger/ledger_entry.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

struct SkillMove {
  std::string name;
  std::filesystem::path from;  // the skill folder before
  std::filesystem::path to;    // after
  std::string verdict;         // the guard's verdict on the skill ("" when not scanned)
  std::vector<std::string> warnings;  // e.g. the ledger could not record the move (the move stands)
};

struct MoveOptions {
  bool scan = true;  // promote scans; the curator's archive (a move out of sight) does not need to
  LedgerActor actor = LedgerActor::user;     // who the ledger entries name
  LedgerAction action = LedgerAction::promote;
};

// Moves skill `name` (as the resolver finds it in ctx's writable layer) to
// `<root>/<folder>/<folder name of the skill>`; `folder` "" or "." = the
// root's top level. Refuses a folder that is not one plain segment, a target
// that exists, a skill that does not validate, and a dangerous verdict.
Result<SkillMove> move_skill_to_folder(const Context& ctx, const Config& cfg, const std::string& name,
                                       const std::string& folder, const MoveOptions& options = {});

}  // namespace skillrt::core
