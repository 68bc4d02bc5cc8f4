// The one bounded, cycle-safe walker every discovery path uses (spec §2.3 rule 6,
// with §5.1 item 4 fixed): symlinks are followed while they stay inside the
// configured roots, a (device, inode) set breaks cycles, depth and directory
// counts are bounded and every skip is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace skillrt::core {

enum class SkipReason : unsigned char {
  excluded,          // a name in EXCLUDED_SKILL_DIRS (.git, node_modules, ...)
  support_dir,       // references/templates/assets/scripts beside a SKILL.md (a decoy SKILL.md inside is not a skill)
  depth_bound,       // deeper than limits::k_max_walk_depth
  dir_bound,         // the root's directory budget (limits::k_max_walk_dirs_per_root) ran out
  symlink_cycle,     // a directory reached again through a symlink
  dangling_symlink,  // a symlink whose target does not exist
  unreadable,        // permission denied or another I/O error
  not_utf8,          // SKILL.md is not valid UTF-8 (reported by the catalog)
  bad_frontmatter,   // frontmatter could not be parsed strictly (reported by the catalog)
  too_large,         // frontmatter or file over a limit (reported by the catalog)
  special_file,      // a FIFO, socket or device named SKILL.md
  per_user_dir,      // HOME/users reached from a shared-layer root (directly or through a symlink): never shared
  escaping_link,     // a SKILL.md that is a symlink to a file outside its skill folder (never read)
  outside_roots,     // a symlinked directory whose target leaves the configured skills roots (not followed)
};
const char* skip_reason_name(SkipReason reason);  // stable snake_case id

struct SkippedPath {
  std::filesystem::path path;
  SkipReason reason;
  std::string detail;  // human explanation
};

// A directory's (device, inode): its identity whatever path reaches it.
struct DirIdentity {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  bool operator==(const DirIdentity&) const = default;
};
// The identity of the directory `path` names (symlinks followed); nullopt when
// it is missing or not a directory.
std::optional<DirIdentity> dir_identity(const std::filesystem::path& path);

struct WalkLimits {
  std::size_t max_depth;
  std::size_t max_dirs;
  // Search pruned support dirs for decoy SKILL.md files and report each one
  // (doctor). Off for listing: it costs a walk of every support dir.
  bool find_decoys = false;
  // Canonical directories never entered (shared roots get HOME/users, so
  // per-user skills stay private): a directory with the identity of one is
  // pruned however it is reached, and so is a symlinked directory resolving
  // below one. Each is reported as a SkipReason::per_user_dir skip.
  std::vector<std::string> per_user_dirs = {};
  // Canonical directories a symlinked directory may lead into (the configured
  // skills roots). The walked root itself always counts; a link whose target
  // lies outside all of them is not followed and is reported as
  // SkipReason::outside_roots (a deliberate deviation from Hermes: a link to
  // `/` must not list the whole machine).
  std::vector<std::string> allowed_dirs = {};
};
WalkLimits default_walk_limits();

struct WalkResult {
  // Every regular file named SKILL.md, sorted by full path string (byte order).
  std::vector<std::filesystem::path> skill_files;
  // Flat legacy `NAME.md` files (not SKILL.md, not in support dirs); only
  // collected when asked for.
  std::vector<std::filesystem::path> legacy_files;
  std::vector<SkippedPath> skipped;
  std::size_t dirs_visited = 0;
};

// Walks one root. `collect_legacy` also gathers `*.md` files for legacy lookup.
WalkResult walk_skill_root(const std::filesystem::path& root, const WalkLimits& limits, bool collect_legacy);

// Prefix of skill_manage's staging / trash folders inside a root.
inline constexpr std::string_view k_manage_work_dir_prefix = ".skillrt-";
// True when `name` is one of EXCLUDED_SKILL_DIRS or starts with k_manage_work_dir_prefix.
bool is_excluded_dir_name(std::string_view name);
// True for references, templates, assets, scripts.
bool is_support_dir_name(std::string_view name);
// Hermes' is_skill_support_path: some middle component is a support-dir name and
// the directory before it holds a SKILL.md.
bool is_skill_support_path(const std::filesystem::path& path, const std::filesystem::path& root);

}  // namespace skillrt::core
