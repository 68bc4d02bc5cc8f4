// How a user's copy of a tracked bundled skill compares to what sync last
// wrote (its origin hash) and to the shipped version: the one rule sync,
// the user-modified list and diff apply, so they never disagree.
#pragma once

#include <string_view>

namespace skillrt::core::sync {

enum class CopyState : unsigned char {
  matches_bundled, // byte for byte the shipped version (whatever the manifest says)
  pristine,        // still what sync last wrote, but the shipped version changed: sync updates it
  user_modified,   // changed by the user, or an origin we cannot check (is_known_origin_hash)
};
const char* copy_state_name(CopyState state); // "matches_bundled" | "pristine" | "user_modified"

// `copy_hash` and `bundled_hash` are skill_dir_hash values; `origin` is the
// manifest entry. An origin we cannot check (v1 "", a Hermes MD5) counts as
// user-modified unless the copy equals the shipped version: an edit made
// before the manifest was migrated is never taken for pristine.
CopyState judge_copy(std::string_view copy_hash, std::string_view origin, std::string_view bundled_hash);

} // namespace skillrt::core::sync
