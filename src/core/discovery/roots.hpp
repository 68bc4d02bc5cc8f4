// The discovery roots in precedence order (spec §2.3 rules 1-4):
// trusted project dirs → HOME/skills → skills.external_dirs. With a user in
// the context (issue 3/5, the three layers) the user's own folder
// HOME/users/<uid>/skills comes first; the other tiers form the shared layer.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/plugins/plugin_set.hpp"
#include "core/tenancy/layer.hpp"

namespace skillrt::core {

// `user` comes after the older tiers in the enum only to keep their
// numbering; in precedence it comes first. The plugin tiers are the skill
// folders of enabled plugins (core/plugins): the shared layer's and the
// user's own. Their skills are named `ns:skill` and come after every other
// tier's.
enum class Tier : unsigned char { project, local, external, user, plugin, user_plugin };
// "project" | "local" | "external" | "user" | "plugin" | "user-plugin"
const char* tier_name(Tier tier);

// The layer a tier belongs to: user and user_plugin → Layer::user, every
// other tier → Layer::shared.
Layer tier_layer(Tier tier);

// True for the plugin tiers, whose skills are reached only as `ns:skill`.
bool is_plugin_tier(Tier tier);

inline constexpr std::size_t k_no_plugin = static_cast<std::size_t>(-1);

struct Root {
  std::filesystem::path path;  // canonical absolute path
  Tier tier;
  std::size_t plugin = k_no_plugin;  // a plugin tier's plugin, an index into RootSet::plugins.plugins
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
  // Why the user's own root is missing although ctx has a user ("" = it is there or there is no user).
  std::string user_root_error;
  // Canonical HOME/users when it exists: the walk of every shared-layer root
  // prunes it, so a root that contains it (external_dirs: [HOME]) or a
  // symlink into it never exposes one user's skills to everyone.
  std::optional<std::filesystem::path> users_dir;
  // A user is in the context: skills are named by layer ("user"/"shared")
  // rather than by tier in listings.
  bool layered = false;
  // The plugins found, enabled or not (an enabled one's skill folders are
  // among `roots`), and the folders searched for them (what a watcher
  // watches so a new or edited plugin is seen).
  PluginSet plugins;
  std::vector<std::filesystem::path> plugin_folders;

  // The namespace of a plugin root's skills, or "" for any other root.
  std::string_view plugin_namespace(const Root& root) const;
};

// The `source` a listing shows for a skill of `tier`: the tier name in
// single-user mode, the layer name ("user" | "shared") when `set.layered`.
const char* source_name(const RootSet& set, Tier tier);

// Expands `~`, `~user`-less forms and ${VAR}/$VAR with ctx.env; relative → against home.
std::filesystem::path expand_config_path(const std::string& raw, const Context& ctx);

// Nearest ancestor of ctx.cwd (at most 64 levels) holding `.git`; never ctx's user home.
std::optional<std::filesystem::path> find_project_root(const Context& ctx);

// Canonical identity of a project root for trust: the main worktree when `git
// worktree list` lists it, else the resolved path.
std::filesystem::path project_identity(const std::filesystem::path& root);

// With ctx.user_id set, the user's skills folder is created on first use
// (tenancy/user_home.hpp) and leads the list; a failure to create it (e.g. a
// planted symlink) leaves it out and is recorded in `user_root_error`.
// Enabled plugins' skill folders come last (the user's plugins, then
// HOME/plugins, then skills.plugin_dirs); `switches` are config.yaml's
// `plugins.*`, which decide for the shared layer's plugins.
RootSet compute_roots(const Context& ctx, const SkillsConfig& cfg, const PluginsConfig& switches = {});

// True when `path` (resolved, symlinks followed) is set.users_dir or below it:
// such a path never belongs to a shared-layer root.
bool in_per_user_dirs(const RootSet& set, const std::filesystem::path& path);

}  // namespace skillrt::core
