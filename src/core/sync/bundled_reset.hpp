// `skillrt reset NAME [--restore]` (spec §2.13 rule 11): make a bundled skill
// follow upstream again. Without --restore only the manifest entry is
// dropped and re-made by a sync (refused when the copy differs from the
// shipped version, so nothing is lost); with --restore the shipped version
// takes the place of the user's copy by one folder swap (the copy is gone
// only once the new one is in place; a failure leaves it as it was).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/sync/bundled_sync.hpp"

namespace skillrt::core::sync {

enum class ResetAction : unsigned char {
  restored,              // --restore: the user's copy replaced by the shipped version
  manifest_cleared,      // the entry dropped and re-made: the copy follows bundled updates again
  not_in_manifest,       // neither tracked nor shipped
  bundled_missing,       // --restore of a skill no longer shipped
  not_reset,             // the user's copy could not be deleted
  refused_copy_diverges, // without --restore, a copy that differs is left alone
  not_rebaselined,       // the entry was dropped but the sync did not record it again
  manifest_write_failed,
};
const char* reset_action_name(ResetAction action); // the enumerator, as written above

struct ResetResult {
  bool ok = false;
  ResetAction action = ResetAction::not_reset;
  std::string message;
  std::optional<SyncResult> synced; // the sync that ran after the manifest entry was dropped
};

// Runs under the sync lock, after check_permission(create, shared). A whole
// failure (refused actor, lock, unreadable manifest, missing bundled folder)
// is an error; every outcome of §2.13 rule 11 is a ResetResult.
Result<ResetResult> reset_bundled_skill(const Context& ctx, const Config& cfg, std::string_view name, bool restore,
                                        const SyncOptions& options);

} // namespace skillrt::core::sync
