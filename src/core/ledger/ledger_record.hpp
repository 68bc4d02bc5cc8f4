// One change to a skill folder, recorded: the folder is captured before the
// change and again after it, then the entry is appended. The one recorder
// behind skill_manage, the hub (install, update, uninstall) and bundled sync
// (update, reset), so they all record the same way: call it holding the
// lock that serialises writes to the skill, so its entries come in the
// order its changes happened; construct it just before the change, commit
// only once the change stands (a failed or undone change records nothing).
//
// Recording never costs a change: whatever fails (a folder that cannot be
// captured, a ledger that cannot be written) becomes the warning commit()
// returns, and the change stands.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "core/context.hpp"
#include "core/ledger/ledger.hpp"

namespace skillrt::core {

// Who changes which skill how (the folder and its root come separately).
struct LedgerWho {
  LedgerActor actor = LedgerActor::user;
  std::string actor_id; // "" = ctx's user id (or "" without one)
  LedgerAction action = LedgerAction::edit;
  Layer layer = Layer::shared; // the layer written: its ledger records the change
  std::string note;
};

class LedgerFolderRecord {
public:
  // Captures `skill_dir` (below `root`, a skills root of `who.layer`) as the
  // change's "before"; `exists` false for a folder the change creates.
  LedgerFolderRecord(const Context& ctx, LedgerWho who, const std::filesystem::path& root,
                     const std::filesystem::path& skill_dir, bool exists);

  // After the change stands: captures the folder again (nothing when
  // `removed`) and appends the entry. Returns the warning when the change
  // could not be recorded, else nullopt. Call once.
  std::optional<std::string> commit(bool removed = false);

private:
  std::optional<Ledger> m_ledger;
  std::filesystem::path m_dir;
  LedgerChange m_change;
  std::string m_problem; // why the change cannot be recorded ("" = it can)
};

} // namespace skillrt::core
