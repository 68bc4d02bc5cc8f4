// Where `install` puts a bundle when no --category is given (issue 2/6 item
// 4, seed 002's "skills/3rd/ gives agent memory provenance"):
// 3rd/<vendor>/<name>, so a glance at the tree — and the prompt index, whose
// categories are these folders — tells third-party skills from the user's own.
#pragma once

#include <string>
#include <string_view>

#include "core/hub/fetcher.hpp"

namespace skillrt::core::hub {

// The vendor segment for a source identifier (FetchedSource::identifier):
// the owner of a hosted git repository (github.com/OWNER/repo), the
// repository's name for a repository path without an owner (file:// or a
// local clone), the host of a downloaded archive, the folder's name for a
// local folder. Always one valid folder name: lower-case letters, digits,
// '.', '_' and '-', at most 64 bytes; "unknown" when nothing usable is left.
std::string vendor_folder(SourceKind kind, std::string_view identifier);

// "3rd/<vendor>": the default install category of a source.
std::string default_install_category(SourceKind kind, std::string_view identifier);

}  // namespace skillrt::core::hub
