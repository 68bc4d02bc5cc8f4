// Moving a file or folder into place: the no-replace rename every writer that
// must not swallow someone else's entry uses, and the durable move (rename,
// then fsync of the folders involved) of transactions.
#pragma once

#include <filesystem>

#include "skillrt/result.hpp"

namespace skillrt::core::files {

// rename(2) that never replaces an existing `to` (renameat2 RENAME_NOREPLACE;
// where the kernel or file system lacks it, a check then rename(2)).
// Errors: refused when `to` exists (any kind, a dangling link included),
// io_error otherwise. The messages name both paths.
Result<void> rename_no_replace(const std::filesystem::path& from, const std::filesystem::path& to);

enum class Replace : unsigned char { allow, refuse };

// Renames `from` to `to` (through rename_no_replace when `replace` is refuse),
// then fsyncs the folder of `to` and, when it differs, the folder of `from`,
// so the move survives a crash. A failed fsync after the rename is not an
// error: the move happened, only its durability is best effort.
Result<void> move_durably(const std::filesystem::path& from, const std::filesystem::path& to, Replace replace);

} // namespace skillrt::core::files
