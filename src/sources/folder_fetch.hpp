// Copying a local folder into a bundle: only real folders and regular files,
// `.git` left out, symlinks and special files refused, every bundle limit held
// by the BundleWriter. The walk opens each folder with O_NOFOLLOW below the
// previous one, so a symlink (or a folder swapped for one meanwhile) can
// neither lead it outside the source nor into a cycle.
#pragma once

#include <filesystem>
#include <string_view>

#include "skillrt/result.hpp"
#include "sources/bundle_writer.hpp"

namespace skillrt::sources {

// Copies `source`/`subdir` (subdir "" = all of it; it must exist, be a folder
// and not pass through a symlink) into `writer`. A folder that is `skip`
// (the staging folder, when the source contains it) is left out, so a copy
// never feeds on itself. Errors: not_found (no such folder), refused (a
// symlink: "skill bundles may not contain symlinks: <path>"; a device, fifo
// or socket), the writer's limit errors, io_error.
Result<void> copy_folder(const std::filesystem::path& source, std::string_view subdir, BundleWriter& writer,
                         const std::filesystem::path& skip = {});

} // namespace skillrt::sources
