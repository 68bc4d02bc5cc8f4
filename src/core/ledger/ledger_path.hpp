// The one check of a relative path read from a ledger entry (a snapshot's
// file, a skill folder below its root) before anything is written there: an
// edited entry must not be able to lead a rollback out of the folder.
#pragma once

#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core::ledger_detail {

// Ok for "a", "a/b/c": not empty, not absolute, no empty, "." or ".."
// segment, no NUL or other control byte. invalid_argument otherwise.
Result<void> check_relative_path(std::string_view path);

} // namespace skillrt::core::ledger_detail
