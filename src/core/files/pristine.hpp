// The one rule for "is this copy pristine": a skill folder is unchanged since
// it was placed when its content identity computed now (a content hash over
// core/files/content_manifest, runtime caches left out) equals the identity
// recorded when it was placed. A copy whose identity cannot be computed
// (unreadable, over a limit, a link where none may be) or whose record holds
// no identity is never pristine: nothing is replaced or removed as unchanged
// that is not proven so. Hub check, update and audit (lock.json content
// hashes) and bundled sync, reset and prune (manifest origin hashes) all ask it.
#pragma once

#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core::files {

bool is_pristine(std::string_view current_identity, std::string_view recorded_identity);
bool is_pristine(const Result<std::string>& current_identity, std::string_view recorded_identity);

} // namespace skillrt::core::files
