// HOME/skills/.bundled_manifest (spec §2.13 rule 2): which bundled skills were
// seeded into the home and the folder hash each had when we last wrote it (its
// "origin hash"). One `name:hash` line per skill (v2); a plain `name` line (v1)
// is read with an empty hash. Sync and reset read and write it under the sync
// lock (sync_lock.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/context.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::sync {

// Skill name → origin hash ("" for a v1 entry). Ordered by name: the file is written sorted.
using BundledManifest = std::map<std::string, std::string>;

// HOME/skills/.bundled_manifest.
std::filesystem::path bundled_manifest_path(const Context& ctx);

// Parses the manifest text: lines split at the first ':', name and hash
// stripped of surrounding blanks, blank lines and lines with an empty name
// ignored, a later line for a name replacing an earlier one. Never fails: a
// line-based file has no other way to be malformed.
BundledManifest parse_bundled_manifest(std::string_view text);

// The file text: `name:hash\n` per entry, sorted by name (byte order).
std::string format_bundled_manifest(const BundledManifest& manifest);

// Reads the manifest; a missing file is an empty manifest. Errors (so a sync
// never proceeds with a manifest it could not read, which would re-add skills
// the user deleted): limit_exceeded past limits::k_max_hub_state_bytes,
// invalid_argument when it is not a regular file or not UTF-8 text, io_error.
Result<BundledManifest> read_bundled_manifest(const std::filesystem::path& path);

// Writes the manifest atomically (temp file, fsync, rename), keeping the
// file's permission bits. Refuses (invalid_argument) a name that could not be
// read back as written: empty, with ':' or a control character, or with
// surrounding blanks; and a hash with a control character.
Result<void> write_bundled_manifest(const std::filesystem::path& path, const BundledManifest& manifest);

// True when `name` can be a manifest key (see write_bundled_manifest).
bool is_manifest_safe_name(std::string_view name);

} // namespace skillrt::core::sync
