// Making a folder's entries durable: after a rename, create or unlink, the
// change reaches the disk only once the folder holding it is fsync'd.
#pragma once

#include <filesystem>

#include "skillrt/result.hpp"

namespace skillrt::core::files {

// fsyncs the folder `dir` ("" means the working directory). Callers for whom
// durability is best effort (the rename already happened) may ignore the
// result; io_error says which folder could not be opened or synced.
Result<void> fsync_dir(const std::filesystem::path& dir);

} // namespace skillrt::core::files
