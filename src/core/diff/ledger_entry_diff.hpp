// What one ledger entry changed, as a unified diff: its `before` snapshot
// against its `after`, file by file, read from the ledger's blobs. The web
// UI's history shows it beside each entry (GET /api/v1/ledger/{id}/diff).
#pragma once

#include "core/diff/unified_diff.hpp"
#include "core/ledger/ledger.hpp"
#include "core/ledger/ledger_entry.hpp"

namespace skillrt::core::diff {

// Files whose hash did not change are left out unread. A blob that is missing
// or corrupt is summarised in the diff ("unreadable; not diffed"), not an
// error: the rest of the entry still shows.
TreeDiff diff_ledger_entry(const Ledger& ledger, const LedgerEntry& entry);

} // namespace skillrt::core::diff
