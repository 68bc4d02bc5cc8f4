// Every limit of the runtime as a named constant; each one has a test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace skillrt::limits {

// --- Hermes contracts (spec §1) ---
inline constexpr std::size_t k_max_name_length = 64;
inline constexpr std::size_t k_max_description_length = 1024;
// Listing parses only this prefix of SKILL.md (characters in Hermes; we count bytes
// and extend to the closing fence when it lies within k_max_frontmatter_bytes).
inline constexpr std::size_t k_listing_read_window = 4000;
inline constexpr std::size_t k_not_found_suggestions = 20;
inline constexpr std::size_t k_inline_shell_max_output = 4000;
inline constexpr int k_inline_shell_default_timeout_s = 10;
inline constexpr std::size_t k_project_root_max_depth = 64;
// skill_manage refuses SKILL.md (and any written file) longer than this many characters.
inline constexpr std::size_t k_max_skill_content_chars = 100000;
// The Agent Skills spec caps `compatibility` (skills-ref enforces it).
inline constexpr std::size_t k_max_compatibility_length = 500;

// --- Our own hardening limits ---
// Frontmatter larger than this is refused with a diagnostic (the real corpus peaks at 2 KB).
inline constexpr std::size_t k_max_frontmatter_bytes = 64 * 1024;
// Nesting of YAML collections.
inline constexpr std::size_t k_max_yaml_depth = 16;
// Total YAML nodes in one frontmatter document (bounds memory on hostile input).
inline constexpr std::size_t k_max_yaml_nodes = 10000;
// config.yaml may be bigger than a frontmatter.
inline constexpr std::size_t k_max_config_bytes = 1024 * 1024;
// A SKILL.md we will load whole for view/validate.
inline constexpr std::size_t k_max_skill_file_bytes = 16 * 1024 * 1024;
// A support file served by view --file.
inline constexpr std::size_t k_max_served_file_bytes = 16 * 1024 * 1024;
// Discovery walk: directory depth below a root and directories visited per root.
inline constexpr std::size_t k_max_walk_depth = 32;
inline constexpr std::size_t k_max_walk_dirs_per_root = 200000;
// Listing: how far into a SKILL.md body we look for the description fallback
// line when the frontmatter description is empty.
inline constexpr std::size_t k_listing_body_scan_bytes = 256 * 1024;
// Path length accepted from a caller (name, file path).
inline constexpr std::size_t k_max_path_length = 4096;

// Entries examined when listing one skill's linked / available files.
inline constexpr std::size_t k_max_linked_files = 10000;

// The persistent listing cache file (core/cache); a bigger one is ignored and rebuilt.
inline constexpr std::size_t k_max_listing_cache_bytes = 512 * 1024 * 1024;

}  // namespace skillrt::limits
