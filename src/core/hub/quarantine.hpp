// Quarantine (dist_shared decision 4): every fetched bundle lands in
// `.hub/quarantine/<random>/` first; nothing reaches the skills root before it
// has been judged. This file makes and removes those folders and finds the
// skills inside a fetched tree.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/hub/fetcher.hpp"
#include "core/hub/hub_paths.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core::hub {

// One `.hub/quarantine/<random>/` folder, removed with everything in it on
// destruction (also when the operation fails half-way).
class QuarantineDir {
public:
  static Result<QuarantineDir> create(const HubPaths& paths);
  QuarantineDir(QuarantineDir&& other) noexcept;
  QuarantineDir& operator=(QuarantineDir&&) = delete;
  QuarantineDir(const QuarantineDir&) = delete;
  QuarantineDir& operator=(const QuarantineDir&) = delete;
  ~QuarantineDir();

  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path fetch_dir() const { return m_path / "fetch"; } // given to Fetcher::fetch
  std::filesystem::path ready_dir() const { return m_path / "ready"; } // ready/<name>: one staged skill each

private:
  explicit QuarantineDir(std::filesystem::path path) : m_path(std::move(path)) {}
  std::filesystem::path m_path;
};

// Removes what crashed operations left in `.hub/quarantine/` and `.hub/trash/`,
// and temp files of their atomic writes in `.hub/` and `.hub/pending/`.
// Call only while holding the HubOperationLock and after recover_pending():
// anything there then belongs to an operation that is no longer running.
void remove_stale_quarantine(const HubPaths& paths);

struct DiscoveredSkill {
  std::string name;          // the frontmatter `name`
  std::filesystem::path dir; // where it is in the fetched tree
  std::string relative;      // dir relative to the fetched root ("" = the root itself)
};

// The skills of a fetched tree: SKILL.md at `root` → that one skill; else
// every folder below holding a SKILL.md (not descending into a skill, nor into
// dot folders or symlinks). The name is the SKILL.md frontmatter `name`, which
// must be a safe single segment (check_skill_name, SkillNameRule::install). Errors: no skill at
// all, a skill without a usable name, two skills with one name.
Result<std::vector<DiscoveredSkill>> discover_bundle_skills(const std::filesystem::path& root);

struct StagedSkill {
  std::string name;
  std::filesystem::path dir; // quarantine/<random>/ready/<name>
  std::string relative;      // where it was in the bundle
};

struct FetchedBundle {
  QuarantineDir quarantine;
  FetchedSource source;
  std::vector<StagedSkill> skills;
};

// Fetches `spec` into a new quarantine folder, discovers its skills and moves
// each to ready/<name> (so the folder name equals the skill name before
// validation and scanning).
Result<FetchedBundle> fetch_into_quarantine(const HubPaths& paths, Fetcher& fetcher, const std::string& spec,
                                            Progress* progress);

} // namespace skillrt::core::hub
