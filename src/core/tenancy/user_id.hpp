// User and organisation ids: what may name a folder under HOME/users/.
#pragma once

#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core {

// A user id becomes a path component, so it is held to a strict grammar:
// 1..64 bytes of [A-Za-z0-9._@-], not starting with '.' or '-', never "." or
// "..". Anything else (slashes, NUL, control bytes, spaces, non-ASCII) is
// refused with invalid_argument and a message naming the rule broken.
Result<void> check_user_id(std::string_view user_id);

// Organisation ids are compared, never used in paths: 1..64 printable ASCII
// bytes without spaces.
Result<void> check_org_id(std::string_view org_id);

// The owner organisation: its users may write the shared layer.
inline constexpr std::string_view k_owner_org_id = "0";

}  // namespace skillrt::core
