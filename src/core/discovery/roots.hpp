// The discovery roots in precedence order (spec §2.3 rules 1-4):
// trusted project dirs → HOME/skills → skills.external_dirs.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::core {

enum class Tier : unsigned char { project, local, external };
const char* tier_name(Tier tier);  // "project" | "local" | "external"

struct Root {
  std::filesystem::path path;  // canonical absolute path
  Tier tier;
};

// A project whose skills were not loaded because it is not trusted.
struct UntrustedProject {
  std::filesystem::path root;   // the git root
  std::size_t skill_count = 0;  // SKILL.md files under its skill dirs
};

struct RootSet {
  std::vector<Root> roots;  // precedence order; only existing directories
  std::optional<std::filesystem::path> project_root;  // git root found from cwd, trusted or not
  std::optional<UntrustedProject> untrusted_project;
  // Configured external dirs that were dropped, with why (missing, duplicate, same as local).
  std::vector<std::pair<std::string, std::string>> dropped_external;
};

// Expands `~`, `~user`-less forms and ${VAR}/$VAR with ctx.env; relative → against home.
std::filesystem::path expand_config_path(const std::string& raw, const Context& ctx);

// Nearest ancestor of ctx.cwd (at most 64 levels) holding `.git`; never ctx's user home.
std::optional<std::filesystem::path> find_project_root(const Context& ctx);

// Canonical identity of a project root for trust: the main worktree when `git
// worktree list` lists it, else the resolved path.
std::filesystem::path project_identity(const std::filesystem::path& root);

RootSet compute_roots(const Context& ctx, const SkillsConfig& cfg);

}  // namespace skillrt::core
