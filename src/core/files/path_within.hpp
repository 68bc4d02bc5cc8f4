// Containment of one canonical path inside another.
#pragma once

#include <filesystem>

namespace skillrt::core {

// True when `inner` equals `outer` or lies below it, compared component by
// component (so "/a/bc" is not inside "/a/b"). Both must already be canonical:
// this does no I/O and resolves no symlinks.
bool is_within(const std::filesystem::path& inner, const std::filesystem::path& outer);

}  // namespace skillrt::core
