// Leftovers of a writer that died mid-write (kill -9, power loss): temp files
// beside skill files, and staging / trash folders of create and delete.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>

namespace skillrt::core {

// True for an atomic-write temp name `.<file>.tmp.<suffix>`.
bool is_atomic_temp_name(std::string_view name);

// Removes stray temp files anywhere inside `skill_dir` (symlinks not followed).
// Call it holding the skill's SkillLock: then no live skillrt writer can own a
// temp there, so ours (mkostemp's six-character suffix) go at once; other
// writers' temps (Hermes' own) only when older than limits::k_stray_temp_age_s.
// Returns how many were removed.
std::size_t remove_stray_temps(const std::filesystem::path& skill_dir);

// Removes `.skillrt-new-*` / `.skillrt-trash-*` folders directly in `parent`
// older than limits::k_stray_temp_age_s (a younger one may belong to a live
// create or delete of another skill). Returns how many were removed.
std::size_t remove_stray_work_dirs(const std::filesystem::path& parent);

// Removes the atomic-write temp files of `cache_file` (`.<name>.tmp.*` beside
// it, e.g. `.skillrt-listing.bin.tmp.Ab12Cd`) older than
// limits::k_stray_temp_age_s: the cache has no lock, so a younger one may
// belong to a live writer in another process. Returns how many were removed.
std::size_t remove_stray_cache_temps(const std::filesystem::path& cache_file);

struct Catalog;
struct Context;

// What a sweep removed.
struct StraySweep {
  std::size_t temp_files = 0;
  std::size_t work_dirs = 0;
  std::size_t busy_skills = 0; // skipped: a writer holds their lock right now
};

// The `doctor` sweep: for every skill of the catalog whose lock is free, its
// stray temps; for every folder holding skills, its old staging/trash folders;
// the caller's listing cache folder, its old temp files.
StraySweep sweep_stray_files(const Context& ctx, const Catalog& catalog);

} // namespace skillrt::core
