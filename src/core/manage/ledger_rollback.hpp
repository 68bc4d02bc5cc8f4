// `ledger rollback ID` for file skills, composed where the skill's writer
// lock lives: the ledger (core/ledger) restores the folder; this takes the
// same SkillLock skill_manage writes under, checks the permission matrix and
// that the entry's root is still a skills root of its layer, and afterwards
// clears the prompt caches and publishes the change like any write.
#pragma once

#include <string_view>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_rollback.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// Rolls back the entry `id` of `ledger` (a file skill's; a database skill's
// is refused: dbskills/ rolls those back). Interrupted rollbacks of other
// skills are recovered first, each under its own skill's lock.
// Errors: those of find_ledger_entry and rollback_folder_entry, refused (the
// permission matrix; a root that is no longer a skills root of the layer).
Result<LedgerRollback> rollback_skill_change(const Context& ctx, const Config& cfg, const Ledger& ledger,
                                             std::string_view id, const LedgerRollbackOptions& options);

} // namespace skillrt::core
