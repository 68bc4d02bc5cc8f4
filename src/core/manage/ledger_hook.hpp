// Every skill_manage write leaves one ledger entry (core/ledger) in the
// ledger of the layer it wrote, through the one folder recorder
// (ledger/ledger_record.hpp): captured before the write, under the skill's
// lock, and again once the write stands (after the guard); the entry is
// appended still under the lock. A write that fails or is rolled back
// appends nothing; a ledger that cannot record it leaves a warning in
// ManageResult.warnings, never a lost write.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/ledger/ledger_record.hpp"
#include "core/manage/manage_request.hpp"

namespace skillrt::core {

class ManageLedgerRecord {
public:
  // Captures `skill_dir` (found under `root`, a skills root of `layer`) as
  // the "before" of `request`'s change; `exists` false for a create.
  ManageLedgerRecord(const Context& ctx, const ManageRequest& request, Layer layer, const std::filesystem::path& root,
                     const std::filesystem::path& skill_dir, bool exists);

  // After the write stands: records it; a problem becomes one warning.
  void commit(std::vector<std::string>& warnings, bool removed = false);

private:
  LedgerFolderRecord m_record;
};

// The ledger action of a skill_manage action.
LedgerAction ledger_action_of(ManageAction action);

} // namespace skillrt::core
