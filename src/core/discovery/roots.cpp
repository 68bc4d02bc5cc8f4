#include "core/discovery/roots.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <system_error>

#include "core/discovery/git_identity.hpp"
#include "core/discovery/walk_text.hpp"
#include "core/limits.hpp"
#include "core/tenancy/permissions.hpp"
#include "core/tenancy/user_home.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

constexpr std::chrono::milliseconds k_git_identity_timeout{2000};
constexpr std::array<std::string_view, 2> k_project_skill_subdirs = {".hermes/skills", ".agents/skills"};

bool is_var_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_var_char(char c) { return is_var_start(c) || (c >= '0' && c <= '9'); }

// os.path.expandvars: $NAME and ${NAME}; unknown variables stay as written.
std::string expand_vars(std::string_view raw, const Context& ctx) {
  std::string out;
  out.reserve(raw.size());
  std::size_t i = 0;
  while (i < raw.size()) {
    if (raw[i] != '$' || i + 1 >= raw.size()) {
      out.push_back(raw[i++]);
      continue;
    }
    if (raw[i + 1] == '{') {
      std::size_t close = raw.find('}', i + 2);
      if (close == std::string_view::npos) {
        out.append(raw.substr(i));
        break;
      }
      std::string_view name = raw.substr(i + 2, close - i - 2);
      std::optional<std::string> value = name.empty() ? std::nullopt : ctx.env(name);
      if (value) {
        out.append(*value);
      } else {
        out.append(raw.substr(i, close - i + 1));
      }
      i = close + 1;
      continue;
    }
    if (!is_var_start(raw[i + 1])) {
      out.push_back(raw[i++]);
      continue;
    }
    std::size_t end = i + 1;
    while (end < raw.size() && is_var_char(raw[end])) {
      ++end;
    }
    std::string_view name = raw.substr(i + 1, end - i - 1);
    if (std::optional<std::string> value = ctx.env(name)) {
      out.append(*value);
    } else {
      out.append(raw.substr(i, end - i));
    }
    i = end;
  }
  return out;
}

fs::path resolved(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::weakly_canonical(path, ec);
  if (ec) {
    return path.lexically_normal();
  }
  return out;
}

// Canonical form of an existing directory; nullopt when it is missing or not a directory.
std::optional<fs::path> existing_dir(const fs::path& path) {
  std::error_code ec;
  fs::path out = fs::canonical(path, ec);
  if (ec || !fs::is_directory(out, ec)) {
    return std::nullopt;
  }
  return out;
}

// Is `path` (canonical) `dir` or below it?
bool is_within(const fs::path& path, const fs::path& dir) {
  return std::mismatch(dir.begin(), dir.end(), path.begin(), path.end()).first == dir.end();
}

std::string trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' || text.front() == '\r')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

bool is_trusted(const fs::path& project_root, const SkillsConfig& cfg, const Context& ctx) {
  if (cfg.trusted_project_dirs.empty()) {
    return false;
  }
  const fs::path root_resolved = resolved(project_root);
  std::optional<fs::path> root_identity;
  for (const auto& raw : cfg.trusted_project_dirs) {
    std::string entry = trim(raw);
    if (entry.empty()) {
      continue;
    }
    const fs::path entry_resolved = resolved(expand_config_path(entry, ctx));
    if (entry_resolved == root_resolved) {
      return true;
    }
    if (!root_identity) {
      root_identity = project_identity(project_root);
    }
    if (entry_resolved == *root_identity) {
      return true;
    }
    std::error_code ec;
    if (fs::is_directory(entry_resolved, ec) && project_identity(entry_resolved) == *root_identity) {
      return true;
    }
  }
  return false;
}


// The plugins folders of ctx in precedence order: the user's own (never
// created here), HOME/plugins, then skills.plugin_dirs (expanded like
// external_dirs; missing ones, duplicates and folders inside HOME/users are
// dropped with a problem).
std::vector<PluginsFolder> plugins_folders(const RootSet& set, const Context& ctx, const SkillsConfig& cfg,
                                           const PluginsConfig& switches, std::vector<PluginProblem>& problems) {
  std::vector<PluginsFolder> folders;
  if (ctx.user_id && set.user_root_error.empty()) {
    auto dir = user_plugins_dir(ctx);
    auto file = user_plugins_switch_file(ctx);
    std::error_code ec;
    // The user's home was made safe above (no symlinked folder on the way);
    // the plugins folder itself must not be a link either.
    const std::optional<fs::path> real =
        dir && fs::is_directory(fs::symlink_status(*dir, ec)) ? existing_dir(*dir) : std::nullopt;
    if (real && file) {
      auto user_switches = read_plugin_switches(*file);
      if (!user_switches) {
        problems.push_back({*file, user_switches.error().message + " (the user's switches are ignored)"});
      }
      folders.push_back(PluginsFolder{*real, Layer::user, user_switches ? *user_switches : PluginsConfig{},
                                      file->filename().string()});
    }
  }
  const auto users_key = set.users_dir;
  const auto add_shared = [&](const fs::path& wanted, const std::string& raw, bool configured) {
    std::optional<fs::path> dir = existing_dir(wanted);
    if (!dir) {
      if (configured) {
        problems.push_back({wanted, "skills.plugin_dirs entry '" + raw + "' is missing or not a directory"});
      }
      return;
    }
    if (users_key && is_within(*dir, *users_key)) {
      problems.push_back({wanted, "skills.plugin_dirs entry '" + raw + "' is inside the per-user homes (HOME/users)"});
      return;
    }
    if (std::any_of(folders.begin(), folders.end(), [&](const PluginsFolder& f) { return f.path == *dir; })) {
      if (configured) {
        problems.push_back({wanted, "skills.plugin_dirs entry '" + raw + "' repeats an earlier plugins folder"});
      }
      return;
    }
    folders.push_back(PluginsFolder{std::move(*dir), Layer::shared, switches, "config.yaml"});
  };
  add_shared(ctx.home / "plugins", "plugins", false);
  for (const std::string& raw : cfg.plugin_dirs) {
    const std::string entry = trim(raw);
    if (!entry.empty()) {
      add_shared(expand_config_path(entry, ctx), raw, true);
    }
  }
  return folders;
}

void add_plugin_roots(RootSet& set, const Context& ctx, const SkillsConfig& cfg, const PluginsConfig& switches) {
  std::vector<PluginProblem> problems;
  const std::vector<PluginsFolder> folders = plugins_folders(set, ctx, cfg, switches, problems);
  // Top-level folders of these roots are categories, which `ns:skill` reaches
  // when no plugin has that namespace (project roots have no categories).
  std::vector<fs::path> category_roots;
  for (const Root& root : set.roots) {
    if (root.tier != Tier::project) {
      category_roots.push_back(root.path);
    }
  }
  set.plugins = find_plugins(folders, category_roots, set.users_dir);
  set.plugins.problems.insert(set.plugins.problems.begin(), problems.begin(), problems.end());
  for (const PluginsFolder& folder : folders) {
    set.plugin_folders.push_back(folder.path);
  }
  for (std::size_t index = 0; index < set.plugins.plugins.size(); ++index) {
    const Plugin& plugin = set.plugins.plugins[index];
    if (!plugin.enabled) {
      continue;
    }
    for (const fs::path& dir : plugin.skill_dirs) {
      set.roots.push_back(Root{dir, plugin.layer == Layer::user ? Tier::user_plugin : Tier::plugin, index});
    }
  }
}
}  // namespace

const char* tier_name(Tier tier) {
  switch (tier) {
    case Tier::project:
      return "project";
    case Tier::local:
      return "local";
    case Tier::external:
      return "external";
    case Tier::user:
      return "user";
    case Tier::plugin:
      return "plugin";
    case Tier::user_plugin:
      return "user-plugin";
  }
  return "unknown";
}

Layer tier_layer(Tier tier) {
  return tier == Tier::user || tier == Tier::user_plugin ? Layer::user : Layer::shared;
}

bool is_plugin_tier(Tier tier) { return tier == Tier::plugin || tier == Tier::user_plugin; }

std::string_view RootSet::plugin_namespace(const Root& root) const {
  return root.plugin < plugins.plugins.size() ? std::string_view(plugins.plugins[root.plugin].name())
                                              : std::string_view();
}

const char* source_name(const RootSet& set, Tier tier) {
  return set.layered ? layer_name(tier_layer(tier)) : tier_name(tier);
}

fs::path expand_config_path(const std::string& raw, const Context& ctx) {
  std::string text = expand_vars(raw, ctx);
  if (text == "~" || text.starts_with("~/")) {
    if (std::optional<std::string> home = ctx.env("HOME"); home && !home->empty()) {
      text = *home + text.substr(1);
    }
  }
  fs::path path(text);
  if (path.is_relative()) {
    path = ctx.home / path;
  }
  return path.lexically_normal();
}

std::optional<fs::path> find_project_root(const Context& ctx) {
  std::error_code ec;
  fs::path dir = ctx.cwd.empty() ? fs::current_path(ec) : ctx.cwd;
  if (dir.empty()) {
    return std::nullopt;
  }
  if (dir.is_relative()) {
    dir = fs::absolute(dir, ec);
  }
  dir = dir.lexically_normal();
  std::optional<fs::path> home;
  if (std::optional<std::string> value = ctx.env("HOME"); value && !value->empty()) {
    home = resolved(fs::path(*value));
  }
  for (std::size_t level = 0; level < limits::k_project_root_max_depth; ++level) {
    bool is_home = home && resolved(dir) == *home;
    if (!is_home && fs::exists(fs::symlink_status(dir / ".git", ec))) {
      return dir;
    }
    fs::path parent = dir.parent_path();
    if (parent == dir || parent.empty()) {
      break;
    }
    dir = std::move(parent);
  }
  return std::nullopt;
}

fs::path project_identity(const fs::path& root) {
  const fs::path root_resolved = resolved(root);
  std::optional<std::string> listing = git_worktree_list(root_resolved, k_git_identity_timeout);
  if (!listing) {
    return root_resolved;
  }
  std::vector<std::string> worktrees = parse_worktree_paths(*listing);
  if (worktrees.empty()) {
    return root_resolved;
  }
  for (const auto& worktree : worktrees) {
    if (resolved(fs::path(worktree)) == root_resolved) {
      return resolved(fs::path(worktrees.front()));
    }
  }
  return root_resolved;
}

RootSet compute_roots(const Context& ctx, const SkillsConfig& cfg, const PluginsConfig& switches) {
  RootSet set;
  set.layered = ctx.user_id.has_value();
  if (ctx.user_id) {
    // Only ctx's own folder is ever a root: other users' folders are not
    // reachable from here, whatever the id (ensure_user_home validates it).
    auto home = check_permission(ctx, Operation::list, Layer::user, *ctx.user_id).and_then([&] {
      return ensure_user_home(ctx);
    });
    if (!home) {
      set.user_root_error = home.error().message;
    } else if (std::optional<fs::path> dir = existing_dir(home->skills)) {
      set.roots.push_back(Root{std::move(*dir), Tier::user});
    }
  }
  const std::optional<fs::path> local = existing_dir(ctx.skills_dir());
  const fs::path local_key = local ? *local : resolved(ctx.skills_dir());
  const fs::path users_key = resolved(ctx.home / "users");
  set.users_dir = existing_dir(ctx.home / "users");

  set.project_root = find_project_root(ctx);
  if (set.project_root && cfg.project_discovery) {
    std::vector<fs::path> candidates;
    for (std::string_view sub : k_project_skill_subdirs) {
      std::optional<fs::path> dir = existing_dir(*set.project_root / fs::path(sub));
      if (dir && *dir != local_key && !is_within(*dir, users_key) &&
          std::find(candidates.begin(), candidates.end(), *dir) == candidates.end()) {
        candidates.push_back(*dir);
      }
    }
    if (!candidates.empty()) {
      if (is_trusted(*set.project_root, cfg, ctx)) {
        for (auto& dir : candidates) {
          set.roots.push_back(Root{std::move(dir), Tier::project});
        }
      } else {
        std::size_t count = 0;
        for (const auto& dir : candidates) {
          count += walk_root_text(dir.native(), default_walk_limits(), false).skill_files.size();
        }
        if (count > 0) {
          set.untrusted_project = UntrustedProject{*set.project_root, count};
        }
      }
    }
  }

  if (local) {
    set.roots.push_back(Root{*local, Tier::local});
  }

  for (const auto& raw : cfg.external_dirs) {
    std::string entry = trim(raw);
    if (entry.empty()) {
      continue;
    }
    const fs::path expanded = expand_config_path(entry, ctx);
    std::optional<fs::path> dir = existing_dir(expanded);
    if (!dir) {
      set.dropped_external.emplace_back(raw, "missing or not a directory: " + expanded.string());
      continue;
    }
    if (*dir == local_key) {
      set.dropped_external.emplace_back(raw, "same directory as the local skills dir");
      continue;
    }
    if (is_within(*dir, users_key)) {
      // Per-user folders are reached only through their owner's context.
      set.dropped_external.emplace_back(raw, "inside the per-user homes (HOME/users)");
      continue;
    }
    bool duplicate = std::any_of(set.roots.begin(), set.roots.end(), [&](const Root& root) { return root.path == *dir; });
    if (duplicate) {
      set.dropped_external.emplace_back(raw, "duplicate of an earlier root: " + dir->string());
      continue;
    }
    set.roots.push_back(Root{std::move(*dir), Tier::external});
  }
  add_plugin_roots(set, ctx, cfg, switches);
  return set;
}

bool in_per_user_dirs(const RootSet& set, const fs::path& path) {
  return set.users_dir && is_within(resolved(path), *set.users_dir);
}

}  // namespace skillrt::core
