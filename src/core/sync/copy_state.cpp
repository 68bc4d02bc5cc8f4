// The pristine/modified rule (see copy_state.hpp).
#include "core/sync/copy_state.hpp"

#include "core/files/pristine.hpp"
#include "core/sync/dir_hash.hpp"

namespace skillrt::core::sync {

const char* copy_state_name(CopyState state) {
  switch (state) {
  case CopyState::matches_bundled:
    return "matches_bundled";
  case CopyState::pristine:
    return "pristine";
  case CopyState::user_modified:
    return "user_modified";
  }
  return "user_modified";
}

CopyState judge_copy(std::string_view copy_hash, std::string_view origin, std::string_view bundled_hash) {
  if (!bundled_hash.empty() && copy_hash == bundled_hash) {
    return CopyState::matches_bundled;
  }
  if (!is_known_origin_hash(origin) || !files::is_pristine(copy_hash, origin)) {
    return CopyState::user_modified;
  }
  return CopyState::pristine;
}

} // namespace skillrt::core::sync
